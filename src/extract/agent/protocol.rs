//! The agent protocol, `memdir-extract/1` (DESIGN §6; the README gives it in full): the request
//! memdir writes to the command's stdin each turn, the response it reads back, what became of
//! each action, and the caps on all of them. Everything here is data: running the command is
//! [`super::runner`]'s, carrying out actions [`super::dispatch`]'s.

use std::path::Path;

use chrono::SecondsFormat;
use serde::Serialize;
use serde_json::Value;

use crate::extract::error::BadResponse;
use crate::extract::transcript::Turn;
pub use crate::model::{cut_chars, first_line};

/// The protocol's name and version, sent in every request. Version 2 hands the model only the
/// prompts the gate let through, the bodies of the memories they may be about, and no index
/// (the memories list says what it said).
pub const PROTOCOL: &str = "memdir-extract/2";
/// The transcript excerpt is cut to about this size, keeping the most recent turns.
pub const MAX_EXCERPT_BYTES: usize = 60 * 1024;
/// One prompt in the excerpt is cut to this (its beginning is kept).
const MAX_PROMPT_BYTES: usize = 16 * 1024;
/// One assistant reply in the excerpt is cut to this (its end is kept: the part the next prompt
/// answers).
const MAX_REPLY_BYTES: usize = 8 * 1024;
/// The bodies of memories the excerpt may be about are sent up to this much in all.
pub const MAX_BODIES_BYTES: usize = 24 * 1024;
/// Actions beyond this in one response are refused.
pub const MAX_ACTIONS_PER_TURN: usize = 20;

/// What the model is told, in every request.
pub const INSTRUCTIONS: &str = r#"You are memdir's memory extractor. "excerpt" holds the new part of a Claude Code session: the person's prompts (with timestamps), each after the assistant's reply that came before it; memdir left out prompts in which it found nothing that could be worth remembering. "memories" is what is already saved, with the text ("body") of those the excerpt may be about. Decide what is worth remembering in future sessions, and save it.

Memory types (one fact per memory):
- user: who the person is: role, expertise, how they like to work.
- feedback: how the person wants the agent to work: corrections ("don't ... use ... instead") and approaches they confirmed ("always ...", "never ...", "from now on ...").
- project: facts about the project that the code and git history do not show: decisions and their reasons, deadlines, freezes, owners, outside constraints.
- reference: where things are outside the code: dashboards, docs, trackers, channels (with the link).

Do not save: anything derivable from the code or git history (file lists, architecture, what a function does, what a commit or a merged change did), debugging steps and fixes, ephemeral task state (what is being done right now, this session's to-dos, instructions for this task only), proposals the person did not confirm, questions and hypotheticals, text the person quotes from files, tool output or other people's messages, and never secrets (keys, tokens, passwords). If nothing qualifies, save nothing. When the person corrects something said earlier in the session, save only the corrected value.

A memory: "name" is a kebab-case slug (a-z, 0-9 and -, at most 64 characters) and its file name; "description" is one line (under ~120 characters) stating the fact itself, not the sentence it came from; "body" is short markdown holding one fact, in the person's own terms (keep their names, numbers and wording; do not translate). A feedback or project body may end with "**Why:** <the reason>" only when the person gave a reason, and "**How to apply:** <when and how to act on it>" only when that is not obvious; never invent either. Write dates as absolute dates (2026-03-05), resolving "tomorrow" or "next Friday" from the prompt's timestamp.

Updating: save under an existing memory's name only when the person corrects or extends the very fact it holds, and then write its whole text anew, keeping what still holds. A different fact on a nearby subject is a new memory with its own name (with "on-call runbook lives in Notion" saved, "the on-call rota is in PagerDuty" is a new memory, not an update). memdir saves an update that drops most of what a memory said, when the person did not correct it, as a new memory instead. Delete a memory only when the person says it no longer holds or asks to forget it.

Reply with one JSON object and nothing else: {"actions":[...]}. Actions:
- {"action":"save","name":N,"type":T,"description":D,"body":B,"title":TITLE}: create memory N, or update it when it exists ("update" is the same action; "title" is optional).
- {"action":"delete","name":N}: remove memory N.
- {"action":"read","path":P}: a file's text (its first 64 KB). P is relative to the project, or absolute inside the project or the memory dir.
- {"action":"grep","pattern":REGEX,"path":P}: matching lines as path:line:text ("path" is optional: the whole project).
- {"action":"glob","pattern":G}: paths under the project matching G (*, ?, **, {a,b}).
- {"action":"done"}: you are finished.
Reading costs another turn and is rarely needed: use it only to check a fact before saving it. What became of each action comes back in the next request's "results"; you have at most "max_turns" turns. Nothing else is carried out: no shell commands, no files written other than memories. Finish with done."#;

/// What the model is when memdir runs Claude Code for it (its system prompt says so).
pub const ROLE: &str = "memory extractor";

/// The JSON schema of a response (Claude Code's structured output).
pub fn response_schema() -> Value {
    crate::model::actions_schema(serde_json::json!({
        "action": {"type": "string", "enum": ["save", "update", "delete", "read", "grep", "glob", "done"]},
        "name": {"type": "string"},
        "type": {"type": "string", "enum": ["user", "feedback", "project", "reference"]},
        "description": {"type": "string"},
        "body": {"type": "string"},
        "title": {"type": "string"},
        "path": {"type": "string"},
        "pattern": {"type": "string"}
    }))
}

/// One turn's request, written to the command's stdin as one JSON object.
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub protocol: &'static str,
    /// This turn, from 1.
    pub turn: u32,
    pub max_turns: u32,
    pub instructions: &'static str,
    pub session: &'a str,
    pub project: &'a Path,
    pub memory_dir: &'a Path,
    pub excerpt: &'a [ExcerptEntry],
    /// Whether the excerpt was cut ([`excerpt`]).
    pub truncated: bool,
    /// The prompts of the range the gate left out: nothing in them looked worth remembering.
    pub left_out: usize,
    pub memories: &'a [MemorySummary],
    /// What became of the previous turn's actions, one per action in order.
    pub results: &'a [ActionResult],
}

/// A prompt of the person's, or the assistant's reply before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExcerptEntry {
    pub role: &'static str,
    pub text: String,
    /// RFC 3339, a prompt's only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

/// A memory as the request lists it.
#[derive(Debug, Serialize)]
pub struct MemorySummary {
    pub name: String,
    /// `None` when its type is not one of the taxonomy's.
    #[serde(rename = "type")]
    pub memory_type: Option<&'static str>,
    pub description: String,
    /// Its text, when the excerpt may be about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// What became of one action, in the next request's `results`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActionResult {
    /// The action, shortly: `read docs/deploy.md`, `save x`.
    pub what: String,
    pub status: Status,
    /// A save's or delete's: `saved`, `updated`, `unchanged`, `removed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// A read's, grep's or glob's: whether the output was cut at a cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// Why it failed or was refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    /// An allowed action that did not work (a missing file, a bad regex).
    Failed,
    /// An action memdir will not carry out.
    Refused,
}

impl ActionResult {
    fn new(what: String, status: Status) -> ActionResult {
        ActionResult {
            what,
            status,
            outcome: None,
            output: None,
            truncated: None,
            why: None,
        }
    }

    /// `done`.
    pub fn done() -> ActionResult {
        ActionResult::new("done".into(), Status::Ok)
    }

    /// A read, grep or glob that worked.
    pub fn found(what: String, output: String, truncated: bool) -> ActionResult {
        ActionResult {
            output: Some(output),
            truncated: Some(truncated),
            ..ActionResult::new(what, Status::Ok)
        }
    }

    /// A save or delete carried out.
    pub fn stored(what: String, outcome: &'static str, output: String) -> ActionResult {
        ActionResult {
            outcome: Some(outcome),
            output: Some(output),
            ..ActionResult::new(what, Status::Ok)
        }
    }

    pub fn failed(what: String, why: String) -> ActionResult {
        ActionResult {
            why: Some(why),
            ..ActionResult::new(what, Status::Failed)
        }
    }

    pub fn refused(what: String, why: String) -> ActionResult {
        ActionResult {
            why: Some(why),
            ..ActionResult::new(what, Status::Refused)
        }
    }
}

/// The range as the model sees it: each prompt after the reply before it, the most recent turns
/// kept when it is over [`MAX_EXCERPT_BYTES`]. The flag says whether anything was left out or cut.
pub fn excerpt(turns: &[Turn]) -> (Vec<ExcerptEntry>, bool) {
    let mut truncated = false;
    let mut newest_first = Vec::new();
    let mut used = 0;
    'turns: for turn in turns.iter().rev() {
        let (prompt, cut) = keep_head(&turn.prompt, MAX_PROMPT_BYTES);
        truncated |= cut;
        let mut entries = vec![ExcerptEntry {
            role: "user",
            text: prompt,
            timestamp: turn
                .timestamp
                .map(|t| t.to_rfc3339_opts(SecondsFormat::Millis, true)),
        }];
        if !turn.previous_reply.trim().is_empty() {
            let (reply, cut) = keep_tail(&turn.previous_reply, MAX_REPLY_BYTES);
            truncated |= cut;
            entries.push(ExcerptEntry {
                role: "assistant",
                text: reply,
                timestamp: None,
            });
        }
        for entry in entries {
            let size = json_len(&entry);
            if used + size > MAX_EXCERPT_BYTES && !newest_first.is_empty() {
                truncated = true;
                break 'turns;
            }
            used += size;
            newest_first.push(entry);
        }
    }
    newest_first.reverse();
    (newest_first, truncated)
}

/// The size of an entry in the request.
fn json_len(entry: &ExcerptEntry) -> usize {
    // Strings only: serde_json fails on non-string map keys, which an entry has none of.
    serde_json::to_vec(entry).map_or(0, |json| json.len())
}

/// The first `max` bytes of `text` (at a character boundary), and whether it was cut.
fn keep_head(text: &str, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text.to_string(), false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (format!("{}…", &text[..end]), true)
}

/// The last `max` bytes of `text` (at a character boundary), and whether it was cut.
fn keep_tail(text: &str, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text.to_string(), false);
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    (format!("…{}", &text[start..]), true)
}

/// The actions of a response: `{"actions":[…]}`. A response without actions is an empty list.
pub fn parse_response(stdout: &[u8]) -> Result<Vec<Value>, BadResponse> {
    let text = std::str::from_utf8(stdout).map_err(|_| BadResponse::NotUtf8)?;
    let value: Value = serde_json::from_str(text.trim()).map_err(|source| {
        let start = first_line(text.as_bytes());
        if start.is_empty() {
            BadResponse::Empty
        } else {
            BadResponse::NotJson {
                source,
                start: cut_chars(&start, 80),
            }
        }
    })?;
    let Value::Object(mut map) = value else {
        return Err(BadResponse::NotObject);
    };
    match map.remove("actions") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(actions)) => Ok(actions),
        Some(_) => Err(BadResponse::ActionsNotList),
    }
}

/// The last non-empty line of a message (a regex error ends with what is wrong), cut.
pub fn last_line(text: &str) -> String {
    cut_chars(
        text.lines()
            .rfind(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim(),
        200,
    )
}

#[cfg(test)]
pub(super) mod tests {
    use serde_json::json;

    use super::*;
    use crate::extract::ExtractError;
    use crate::extract::error::AgentFailure;

    pub(in crate::extract::agent) fn turn(prompt: &str, reply: &str, minute: u32) -> Turn {
        Turn {
            previous_reply: reply.into(),
            prompt: prompt.into(),
            timestamp: chrono::DateTime::parse_from_rfc3339(&format!(
                "2026-03-05T10:{minute:02}:00Z"
            ))
            .ok()
            .map(|t| t.with_timezone(&chrono::Utc)),
            end: 0,
        }
    }

    #[test]
    fn the_excerpt_keeps_the_most_recent_turns_under_its_cap() {
        let (entries, truncated) = excerpt(&[turn("hello", "", 0), turn("more", "a reply", 1)]);
        assert!(!truncated);
        assert_eq!(
            serde_json::to_value(&entries).ok(),
            Some(json!([
                {"role": "user", "text": "hello", "timestamp": "2026-03-05T10:00:00.000Z"},
                {"role": "assistant", "text": "a reply"},
                {"role": "user", "text": "more", "timestamp": "2026-03-05T10:01:00.000Z"},
            ]))
        );

        let filler = "x".repeat(4000);
        let turns: Vec<Turn> = (0..40)
            .map(|i| turn(&format!("prompt {i} {filler}"), &filler, i))
            .collect();
        let (entries, truncated) = excerpt(&turns);
        assert!(truncated);
        let size: usize = entries.iter().map(json_len).sum();
        assert!(size <= MAX_EXCERPT_BYTES, "{size}");
        let last = entries.last().expect("an entry");
        assert!(last.text.starts_with("prompt 39 "));
        assert!(!entries.iter().any(|e| e.text.starts_with("prompt 0 ")));

        // One huge prompt is cut, keeping its beginning; a huge reply keeps its end.
        let huge = format!("start {}", "é".repeat(MAX_PROMPT_BYTES));
        let reply = format!("{} end", "é".repeat(MAX_REPLY_BYTES));
        let (entries, truncated) = excerpt(&[turn(&huge, &reply, 0)]);
        assert!(truncated);
        let (reply, prompt) = (&entries[0].text, &entries[1].text);
        assert!(prompt.starts_with("start ") && prompt.len() <= MAX_PROMPT_BYTES + 3);
        assert!(reply.ends_with(" end") && reply.len() <= MAX_REPLY_BYTES + 3);
    }

    #[test]
    fn results_keep_the_documented_fields_in_order() {
        let json = |result: ActionResult| serde_json::to_string(&result).unwrap_or_default();
        assert_eq!(
            json(ActionResult::found("read a".into(), "x".into(), false)),
            r#"{"what":"read a","status":"ok","output":"x","truncated":false}"#
        );
        assert_eq!(
            json(ActionResult::stored(
                "save a".into(),
                "saved",
                "saved a (user)".into()
            )),
            r#"{"what":"save a","status":"ok","outcome":"saved","output":"saved a (user)"}"#
        );
        assert_eq!(
            json(ActionResult::refused("bash".into(), "no".into())),
            r#"{"what":"bash","status":"refused","why":"no"}"#
        );
        assert_eq!(
            json(ActionResult::failed("read b".into(), "gone".into())),
            r#"{"what":"read b","status":"failed","why":"gone"}"#
        );
        assert_eq!(
            json(ActionResult::done()),
            r#"{"what":"done","status":"ok"}"#
        );
    }

    #[test]
    fn responses() {
        assert_eq!(
            parse_response(b" {\"actions\":[{\"action\":\"done\"}]}\n").ok(),
            Some(vec![json!({"action":"done"})])
        );
        assert_eq!(parse_response(b"{}").ok(), Some(vec![]));
        assert_eq!(parse_response(b"{\"actions\":null}").ok(), Some(vec![]));
        for (bad, why) in [
            (&b""[..], "is empty"),
            (b"Sure!", "is not JSON"),
            (b"[]", "not a JSON object"),
            (b"{\"actions\":{}}", "not a list"),
            (b"\xff", "not UTF-8"),
        ] {
            let failure = AgentFailure::Response(parse_response(bad).expect_err("an error"));
            let message = ExtractError::Agent { turn: 3, failure }.to_string();
            assert!(
                message.starts_with("the agent failed on turn 3: its response ")
                    && message.contains(why),
                "{message}"
            );
            assert!(!message.contains('\n'), "{message}");
        }
    }
}
