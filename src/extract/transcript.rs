//! A streaming reader for Claude Code session transcripts (JSONL, 2.0.x and 2.1.x; DESIGN §6).
//!
//! One record per line. Only what extraction needs is decoded: everything else (unknown record
//! types, unknown fields, tool results, thinking) is skipped by the JSON parser without being
//! kept. One API message spans several lines (one content block each, same `message.id`); the
//! reader yields the blocks line by line and [`Turns`] puts them back together. Memory use is one
//! line's worth, whatever the file size, and a line is at most [`MAX_LINE_BYTES`]: a longer one
//! is skipped (and counted) without being kept. A final line without its newline is still being
//! written: the reader stops before it, so a cursor never points into the middle of a record.

use std::borrow::Cow;
use std::fmt;
use std::io::{BufRead, Read};
use std::marker::PhantomData;

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};

/// One transcript record, as far as extraction cares.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// Text the person typed (a prompt), never a tool result or a meta message.
    Prompt {
        text: String,
        timestamp: Option<DateTime<Utc>>,
    },
    /// One line of an assistant API message (one API message spans several lines): its text
    /// and the tools it called.
    Assistant {
        text: String,
        tool_uses: Vec<ToolUse>,
    },
    /// A compaction boundary: what follows is a summary of what came before.
    CompactBoundary,
    /// A sub-agent's record (kept apart: never the person's words).
    Sidechain,
    /// Anything else: tool results, meta and command records, summaries, unknown types.
    Other,
}

/// A tool call, with the path it writes to when it is a file-writing tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolUse {
    pub name: String,
    pub path: Option<String>,
}

/// The tools with which an agent writes files (mutual exclusion, DESIGN §6).
pub const WRITE_TOOLS: &[&str] = &["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// The tools of memdir's MCP server (`memdir mcp`) that write memory.
const MEMDIR_MCP_WRITES: &[&str] = &["save", "remove", "restore"];

impl ToolUse {
    /// The file this call writes, when it is a write.
    pub fn written_path(&self) -> Option<&str> {
        if WRITE_TOOLS.contains(&self.name.as_str()) {
            self.path.as_deref()
        } else {
            None
        }
    }

    /// Whether this call writes memory through memdir's MCP server: Claude Code names an MCP tool
    /// `mcp__<server>__<tool>`, the server being `memdir` as the user added it or
    /// `plugin_memdir_memdir` from the plugin.
    pub fn writes_memory_through_mcp(&self) -> bool {
        let Some((server, tool)) = self
            .name
            .strip_prefix("mcp__")
            .and_then(|rest| rest.rsplit_once("__"))
        else {
            return false;
        };
        server.contains("memdir") && MEMDIR_MCP_WRITES.contains(&tool)
    }
}

/// A record and where it ends in the file (the offset a cursor stores after it).
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    pub end: u64,
    pub uuid: Option<String>,
    pub session: Option<String>,
    pub cwd: Option<String>,
    pub record: Record,
}

/// A transcript line longer than this is skipped without being kept (and counted in
/// [`Reader::oversized`]). The longest line of the real transcripts in `fixtures/transcripts/`
/// is 178 KB; a tool result holding images or a PDF runs to a few MB. 32 MiB is far above both,
/// and keeps a run's memory bounded whatever the file holds (a 200 MB line once took 1.6 GB).
pub const MAX_LINE_BYTES: usize = 32 << 20;

/// How much of an over-long line is read at a time while skipping it.
const SKIP_CHUNK: u64 = 64 * 1024;

/// Reads records from a byte offset on.
pub struct Reader<R> {
    inner: R,
    offset: u64,
    line: Vec<u8>,
    max_line: usize,
    /// Complete lines that were not JSON objects (skipped).
    pub unreadable: usize,
    /// Complete lines over the line cap (skipped unread).
    pub oversized: usize,
}

impl<R: BufRead> Reader<R> {
    /// `inner` must already be positioned at `offset`.
    pub fn new(inner: R, offset: u64) -> Self {
        Self::with_max_line(inner, offset, MAX_LINE_BYTES)
    }

    /// [`Reader::new`] with another line cap (in bytes, newline excluded).
    pub fn with_max_line(inner: R, offset: u64, max_line: usize) -> Self {
        Reader {
            inner,
            offset,
            line: Vec::new(),
            max_line,
            unreadable: 0,
            oversized: 0,
        }
    }

    /// The offset just after the last complete line read.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next complete record, or `None` at the end (or before a partly written last line).
    pub fn next_record(&mut self) -> std::io::Result<Option<Located>> {
        loop {
            self.line.clear();
            let limit = self.max_line as u64 + 1;
            let n = (&mut self.inner)
                .take(limit)
                .read_until(b'\n', &mut self.line)?;
            if n == 0 {
                return Ok(None);
            }
            if self.line.last() != Some(&b'\n') {
                if (n as u64) < limit {
                    // The last line, still being written.
                    return Ok(None);
                }
                // Over the cap: the rest of the line is read past, never kept.
                self.line = Vec::new();
                match self.skip_line()? {
                    Some(rest) => {
                        self.offset += n as u64 + rest;
                        self.oversized += 1;
                        continue;
                    }
                    None => return Ok(None),
                }
            }
            self.offset += n as u64;
            let text = self.line.trim_ascii();
            if text.is_empty() {
                continue;
            }
            match serde_json::from_slice::<Line<'_>>(text) {
                Ok(line) => {
                    return Ok(Some(line.into_located(self.offset)));
                }
                Err(_) => self.unreadable += 1,
            }
        }
    }

    /// Read past the rest of a line, a chunk at a time; the bytes read (its newline included),
    /// or `None` when the file ends before the line does (it is still being written).
    fn skip_line(&mut self) -> std::io::Result<Option<u64>> {
        let mut skipped = 0;
        loop {
            self.line.clear();
            let n = (&mut self.inner)
                .take(SKIP_CHUNK)
                .read_until(b'\n', &mut self.line)?;
            if n == 0 {
                return Ok(None);
            }
            skipped += n as u64;
            if self.line.last() == Some(&b'\n') {
                return Ok(Some(skipped));
            }
        }
    }
}

/// The fields of a line that extraction reads; serde skips the rest.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    subtype: Option<Cow<'a, str>>,
    #[serde(default)]
    uuid: Option<String>,
    #[serde(rename = "sessionId", default)]
    session_id: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(rename = "isSidechain", default, deserialize_with = "lenient_bool")]
    is_sidechain: bool,
    #[serde(rename = "isMeta", default, deserialize_with = "lenient_bool")]
    is_meta: bool,
    #[serde(
        rename = "isCompactSummary",
        default,
        deserialize_with = "lenient_bool"
    )]
    is_compact_summary: bool,
    #[serde(
        rename = "isVisibleInTranscriptOnly",
        default,
        deserialize_with = "lenient_bool"
    )]
    transcript_only: bool,
    #[serde(borrow, default)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "object_or_skip")]
    message: Option<Message>,
}

#[derive(Deserialize)]
struct Message {
    #[serde(default)]
    content: Content,
}

/// `message.content`: a string, or an array of blocks.
#[derive(Default)]
enum Content {
    #[default]
    None,
    Text(String),
    Blocks(Vec<Block>),
}

#[derive(Deserialize)]
struct Block {
    #[serde(rename = "type", default, deserialize_with = "lenient")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    text: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    name: Option<String>,
    #[serde(default, deserialize_with = "object_or_skip")]
    input: Option<ToolInput>,
}

#[derive(Deserialize)]
struct ToolInput {
    #[serde(default, deserialize_with = "lenient")]
    file_path: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    notebook_path: Option<String>,
}

impl Block {
    fn kind(&self) -> &str {
        self.kind.as_deref().unwrap_or("")
    }
}

/// A field of an unexpected shape is treated as absent, not as an unreadable line. (For small
/// scalar fields: the value is parsed whole first.)
fn lenient<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(T::deserialize(value).ok())
}

fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(lenient::<D, bool>(d)?.unwrap_or(false))
}

/// `T` when the value is a JSON object; anything else is skipped without being kept. (Objects
/// are where the big values are: message contents, tool inputs and results, images.)
fn object_or_skip<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    d.deserialize_any(ObjectOrSkip(PhantomData))
}

struct ObjectOrSkip<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOrSkip<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Some)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// One element of `message.content`: a block object, or anything else (skipped).
struct MaybeBlock(Option<Block>);

impl<'de> Deserialize<'de> for MaybeBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        object_or_skip(d).map(MaybeBlock)
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ContentVisitor;
        impl<'de> Visitor<'de> for ContentVisitor {
            type Value = Content;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an array of content blocks")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Content, E> {
                Ok(Content::Text(s.to_owned()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Content, E> {
                Ok(Content::Text(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content, A::Error> {
                let mut blocks = Vec::new();
                // A block of an unknown shape is skipped, not an error.
                while let Some(MaybeBlock(block)) = seq.next_element()? {
                    blocks.extend(block);
                }
                Ok(Content::Blocks(blocks))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Content, E> {
                Ok(Content::None)
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Content, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content::None)
            }
        }
        d.deserialize_any(ContentVisitor)
    }
}

/// Prompts Claude Code itself puts in the person's place.
fn is_synthetic_prompt(text: &str) -> bool {
    let t = text.trim_start();
    [
        "<command-name>",
        "<command-message>",
        "<command-args>",
        "<local-command-stdout>",
        "<local-command-stderr>",
        "<local-command-caveat>",
        "<system-reminder>",
        "<task-notification>",
        "<bash-input>",
        "<bash-stdout>",
        "<bash-stderr>",
        "<user-memory-input>",
        "Caveat: The messages below were generated by the user while running local commands",
        "This session is being continued from a previous conversation",
        "[Request interrupted by user",
    ]
    .iter()
    .any(|prefix| t.starts_with(prefix))
}

impl Line<'_> {
    fn into_located(self, end: u64) -> Located {
        let record = self.record();
        Located {
            end,
            uuid: self.uuid,
            session: self.session_id,
            cwd: self.cwd,
            record,
        }
    }

    fn record(&self) -> Record {
        let kind = self.kind.as_deref().unwrap_or("");
        if kind == "system" && self.subtype.as_deref() == Some("compact_boundary") {
            return Record::CompactBoundary;
        }
        if !matches!(kind, "user" | "assistant") {
            return Record::Other;
        }
        if self.is_sidechain {
            return Record::Sidechain;
        }
        let Some(message) = &self.message else {
            return Record::Other;
        };
        if kind == "assistant" {
            let mut text = String::new();
            let mut tool_uses = Vec::new();
            if let Content::Blocks(blocks) = &message.content {
                for block in blocks {
                    match block.kind() {
                        "text" => push_text(&mut text, block.text.as_deref().unwrap_or("")),
                        "tool_use" => tool_uses.push(ToolUse {
                            name: block.name.clone().unwrap_or_default(),
                            path: block
                                .input
                                .as_ref()
                                .and_then(|i| i.file_path.clone().or(i.notebook_path.clone())),
                        }),
                        _ => {}
                    }
                }
            } else if let Content::Text(t) = &message.content {
                text.push_str(t);
            }
            return Record::Assistant { text, tool_uses };
        }
        if self.is_meta || self.is_compact_summary || self.transcript_only {
            return Record::Other;
        }
        let text = match &message.content {
            Content::Text(t) => t.clone(),
            Content::Blocks(blocks) => {
                // A tool result is the tool speaking, not the person.
                if blocks.iter().any(|b| b.kind() == "tool_result") {
                    return Record::Other;
                }
                let mut text = String::new();
                for block in blocks.iter().filter(|b| b.kind() == "text") {
                    push_text(&mut text, block.text.as_deref().unwrap_or(""));
                }
                text
            }
            Content::None => String::new(),
        };
        if is_synthetic_prompt(&text) {
            return Record::Other;
        }
        let text = without_private(text);
        if text.trim().is_empty() {
            return Record::Other;
        }
        Record::Prompt {
            text: keep_head(text, MAX_PROMPT_BYTES),
            timestamp: self
                .timestamp
                .as_deref()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .map(|t| t.with_timezone(&Utc)),
        }
    }
}

/// A prompt without what the person marked `<private>…</private>`: no extractor ever reads it
/// (the tags in any case of letters; a span left open runs to the end of the prompt). A span
/// becomes one space, so the words around it stay apart.
fn without_private(text: String) -> String {
    const OPEN: &str = "<private>";
    const CLOSE: &str = "</private>";
    let find = |haystack: &str, tag: &str| {
        haystack
            .as_bytes()
            .windows(tag.len())
            .position(|w| w.eq_ignore_ascii_case(tag.as_bytes()))
    };
    let Some(mut open) = find(&text, OPEN) else {
        return text;
    };
    let mut kept = String::with_capacity(text.len());
    let mut rest = text.as_str();
    loop {
        kept.push_str(&rest[..open]);
        let inside = &rest[open + OPEN.len()..];
        let Some(close) = find(inside, CLOSE) else {
            return kept;
        };
        kept.push(' ');
        rest = &inside[close + CLOSE.len()..];
        match find(rest, OPEN) {
            Some(next) => open = next,
            None => {
                kept.push_str(rest);
                return kept;
            }
        }
    }
}

/// The most of one prompt a record keeps: longer ones are pastes (logs, files), and a range of
/// many of them must not hold them whole.
pub const MAX_PROMPT_BYTES: usize = 64 * 1024;

/// The first `max` bytes of `text`, cut at a character boundary.
fn keep_head(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

fn push_text(out: &mut String, text: &str) {
    if !out.is_empty() && !text.is_empty() {
        out.push('\n');
    }
    out.push_str(text);
}

/// A person's prompt and what the assistant answered before it (the context a "yes" confirms).
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// The assistant's text since the previous prompt (empty at the start).
    pub previous_reply: String,
    pub prompt: String,
    pub timestamp: Option<DateTime<Utc>>,
    /// Offset just after the prompt's record.
    pub end: u64,
}

/// The most of the assistant's text before a prompt that a turn keeps.
const MAX_REPLY_BYTES: usize = 8 * 1024;

/// Puts assistant messages back together and pairs each prompt with what the assistant said
/// since the prompt before it (its end, at most [`MAX_REPLY_BYTES`]).
#[derive(Default)]
pub struct Turns {
    reply: String,
}

impl Turns {
    /// Feed a record; returns a turn when the record is a prompt.
    pub fn push(&mut self, located: &Located) -> Option<Turn> {
        match &located.record {
            Record::Assistant { text, .. } => {
                push_text(&mut self.reply, text);
                // Only the end of a long reply is kept: memory stays bounded.
                if self.reply.len() > MAX_REPLY_BYTES {
                    let mut cut = self.reply.len() - MAX_REPLY_BYTES;
                    while !self.reply.is_char_boundary(cut) {
                        cut += 1;
                    }
                    self.reply.drain(..cut);
                }
                None
            }
            Record::Prompt { text, timestamp } => {
                let turn = Turn {
                    previous_reply: std::mem::take(&mut self.reply),
                    prompt: text.clone(),
                    timestamp: *timestamp,
                    end: located.end,
                };
                Some(turn)
            }
            Record::CompactBoundary => {
                self.reply.clear();
                None
            }
            Record::Sidechain | Record::Other => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str) -> (Vec<Located>, u64, usize) {
        let mut reader = Reader::new(text.as_bytes(), 0);
        let mut out = Vec::new();
        while let Some(r) = reader.next_record().expect("in-memory read") {
            out.push(r);
        }
        (out, reader.offset(), reader.unreadable)
    }

    #[test]
    fn private_spans_are_never_read() {
        let strip = |text: &str| without_private(text.to_string());
        assert_eq!(strip("no tags here"), "no tags here");
        assert_eq!(
            strip("use pnpm <private>login is admin / Maple#22</private> for builds"),
            "use pnpm   for builds"
        );
        assert_eq!(
            strip("a<PRIVATE>x</Private>b<private>y</private>c"),
            "a b c",
            "every span, tags in any case"
        );
        assert_eq!(strip("keep this <private>left open"), "keep this ");
        assert_eq!(
            strip("月底上线<private>密码 Emqx#Dev</private>。"),
            "月底上线 。"
        );
        // A prompt that is only a private span is no prompt at all.
        let line = r#"{"type":"user","uuid":"a","message":{"role":"user","content":"<private>token abc</private>"}}"#;
        let (records, _, _) = read_all(&format!("{line}\n"));
        assert!(matches!(records[0].record, Record::Other));
    }

    #[test]
    fn prompts_as_string_and_blocks_tool_results_are_not_prompts() {
        let text = concat!(
            r#"{"type":"user","uuid":"a","message":{"role":"user","content":"use pnpm"},"timestamp":"2026-03-05T10:00:00.000Z"}"#,
            "\n",
            r#"{"type":"user","uuid":"b","message":{"role":"user","content":[{"type":"text","text":"hello"},{"type":"image"}]}}"#,
            "\n",
            r#"{"type":"user","uuid":"c","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"remember that x"}]}}"#,
            "\n",
            r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"meta"}}"#,
            "\n",
        );
        let (records, end, unreadable) = read_all(text);
        assert_eq!(end, text.len() as u64);
        assert_eq!(unreadable, 0);
        let prompts: Vec<_> = records
            .iter()
            .filter_map(|r| match &r.record {
                Record::Prompt { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(prompts, ["use pnpm", "hello"]);
        assert_eq!(records[0].uuid.as_deref(), Some("a"));
    }

    #[test]
    fn a_partial_last_line_is_left_for_later_and_garbage_is_skipped() {
        let text = "not json\n{\"type\":\"user\",\"message\":{\"content\":\"hi\"}}\n{\"type\":\"us";
        let (records, end, unreadable) = read_all(text);
        assert_eq!(records.len(), 1);
        assert_eq!(unreadable, 1);
        assert_eq!(end, text.rfind('\n').map(|i| i + 1).unwrap_or(0) as u64);
    }

    #[test]
    fn an_over_long_line_is_skipped_and_counted_and_a_long_prompt_is_cut() {
        let line = |content: &str| {
            format!("{{\"type\":\"user\",\"message\":{{\"content\":\"{content}\"}}}}\n")
        };
        let long = line(&"x".repeat(200));
        let text = format!("{long}{}{long}", line("hi"));
        let cut_at = text.len() - 1;
        let mut reader = Reader::with_max_line(
            std::io::BufReader::with_capacity(16, text.as_bytes()),
            0,
            100,
        );
        let record = reader.next_record().expect("read").expect("a record");
        assert!(matches!(record.record, Record::Prompt { ref text, .. } if text == "hi"));
        assert_eq!(reader.next_record().expect("read"), None);
        assert_eq!(reader.oversized, 2);
        assert_eq!(reader.offset(), text.len() as u64);
        // An over-long last line still being written is left for later, not counted.
        let mut reader = Reader::with_max_line(&text.as_bytes()[..cut_at], 0, 100);
        while reader.next_record().expect("read").is_some() {}
        assert_eq!(reader.oversized, 1);
        assert_eq!(reader.offset(), (long.len() + line("hi").len()) as u64);
        // A prompt keeps its first MAX_PROMPT_BYTES (at a character boundary).
        let huge = line(&"é".repeat(MAX_PROMPT_BYTES));
        let (records, _, _) = read_all(&huge);
        match &records[0].record {
            Record::Prompt { text, .. } => {
                assert!(text.len() <= MAX_PROMPT_BYTES && text.len() > MAX_PROMPT_BYTES - 4);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn odd_shapes_are_skipped_not_errors() {
        let text = concat!(
            r#"{"type":"user","message":"a string","isMeta":"yes"}"#,
            "\n",
            r#"{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","name":"Write","input":{"file_path":7}},{"type":"text","text":"ok"}]}}"#,
            "\n",
            r#"{"type":"weird-new-type","message":[1,2,3]}"#,
            "\n",
        );
        let (records, _, unreadable) = read_all(text);
        assert_eq!(unreadable, 0);
        assert_eq!(records[0].record, Record::Other);
        assert_eq!(
            records[1].record,
            Record::Assistant {
                text: "ok".into(),
                tool_uses: vec![ToolUse {
                    name: "Write".into(),
                    path: None
                }],
            }
        );
        assert_eq!(records[2].record, Record::Other);
    }

    #[test]
    fn one_api_message_over_several_lines_is_one_reply() {
        let text = concat!(
            r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Shall I always use tabs?"}]}}"#,
            "\n",
            r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Or spaces?"}]}}"#,
            "\n",
            r#"{"type":"user","message":{"content":"yes, tabs"}}"#,
            "\n",
        );
        let (records, _, _) = read_all(text);
        let mut turns = Turns::default();
        let got: Vec<_> = records.iter().filter_map(|r| turns.push(r)).collect();
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].previous_reply,
            "Shall I always use tabs?\nOr spaces?"
        );
        assert_eq!(got[0].prompt, "yes, tabs");
    }
}
