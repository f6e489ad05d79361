//! Topic files (DESIGN §3): YAML frontmatter (`name`, `description`, `type`) and a body.
//!
//! The type is read from top-level `type:` or from `metadata: {type: …}`, which is what Claude
//! Code 2.1.332 writes. Rewrites edit the frontmatter as text, key by key, so every key memdir
//! does not own (and its formatting) survives byte for byte.

use serde::Deserialize;

use crate::memory::taxonomy::MemoryType;

/// Frontmatter larger than this is refused: a topic file is meant to be under ~4 KB in all.
pub const MAX_FRONTMATTER_BYTES: usize = 8 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TopicError {
    #[error("its frontmatter is {0} bytes, over the {MAX_FRONTMATTER_BYTES}-byte cap")]
    TooLarge(usize),
    #[error("its frontmatter has no closing '---' line")]
    Unclosed,
    #[error("its frontmatter is not valid YAML: {0}")]
    Yaml(String),
    #[error("its type {0:?} is not one of user, feedback, project, reference")]
    UnknownType(String),
}

/// A parsed topic file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicFile {
    /// The frontmatter text between the fences, each line ending in `\n`; `None` without one.
    frontmatter: Option<String>,
    pub name: Option<String>,
    pub description: Option<String>,
    pub memory_type: Option<MemoryType>,
    pub body: String,
}

#[derive(Debug, Default, PartialEq, Eq, Deserialize)]
struct Frontmatter {
    name: Option<String>,
    description: Option<String>,
    #[serde(rename = "type")]
    memory_type: Option<String>,
    metadata: Option<Metadata>,
}

#[derive(Debug, Default, PartialEq, Eq, Deserialize)]
struct Metadata {
    #[serde(rename = "type")]
    memory_type: Option<String>,
}

fn parse_yaml(text: &str) -> Result<Frontmatter, TopicError> {
    if text.trim().is_empty() {
        return Ok(Frontmatter::default());
    }
    if let Some(simple) = parse_simple(text) {
        return Ok(simple);
    }
    serde_saphyr::from_str(text).map_err(|e| TopicError::Yaml(first_line(&e.to_string())))
}

/// The frontmatter memdir writes, read without the YAML parser (a fifth of `list`'s time on
/// 10,000 memories): `name`, `description` and `type` lines, each once, whose values are plain
/// scalars that YAML reads as exactly their text. `None` for anything else, which the YAML
/// parser reads; a test holds the two to the same result.
fn parse_simple(text: &str) -> Option<Frontmatter> {
    let mut front = Frontmatter::default();
    for line in text.strip_suffix('\n')?.split('\n') {
        let (key, value) = line.split_once(": ")?;
        if !is_simple_plain(value) {
            return None;
        }
        let slot = match key {
            "name" => &mut front.name,
            "description" => &mut front.description,
            "type" => &mut front.memory_type,
            _ => return None,
        };
        if slot.replace(value.to_string()).is_some() {
            return None;
        }
    }
    Some(front)
}

/// A one-line plain scalar YAML reads as its text, by a narrow rule: it starts with a letter,
/// ends with no space, holds no character YAML might read as syntax (`:`, `#`, brackets,
/// braces, a tab or any control) and is no word YAML might read as a boolean, null or number.
fn is_simple_plain(value: &str) -> bool {
    const SYNTAX: &[char] = &[':', '#', '[', ']', '{', '}', '\t', '\\'];
    value.starts_with(char::is_alphabetic)
        && !value.ends_with(char::is_whitespace)
        && value
            .chars()
            .all(|c| is_yaml_printable(c) && !c.is_control() && !SYNTAX.contains(&c))
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "inf" | "nan"
        )
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().trim().to_string()
}

/// Split `---\n<yaml>---\n<body>`; `None` when the text has no frontmatter.
fn split_frontmatter(text: &str) -> Result<Option<(&str, &str)>, TopicError> {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return Ok(None);
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            let front = &rest[..offset];
            if front.len() > MAX_FRONTMATTER_BYTES {
                return Err(TopicError::TooLarge(front.len()));
            }
            return Ok(Some((front, &rest[offset + line.len()..])));
        }
        offset += line.len();
        if offset > MAX_FRONTMATTER_BYTES {
            return Err(TopicError::TooLarge(offset));
        }
    }
    Err(TopicError::Unclosed)
}

impl TopicFile {
    /// Parse a topic file's text. Malformed or oversized frontmatter is an error, never a panic.
    pub fn parse(text: &str) -> Result<Self, TopicError> {
        let Some((front, body)) = split_frontmatter(text)? else {
            return Ok(TopicFile {
                frontmatter: None,
                name: None,
                description: None,
                memory_type: None,
                body: text.to_string(),
            });
        };
        let yaml = parse_yaml(front)?;
        let memory_type = match yaml
            .memory_type
            .or(yaml.metadata.and_then(|m| m.memory_type))
        {
            Some(t) => Some(
                t.parse::<MemoryType>()
                    .map_err(|_| TopicError::UnknownType(t))?,
            ),
            None => None,
        };
        Ok(TopicFile {
            frontmatter: Some(front.to_string()),
            name: yaml.name,
            description: yaml.description,
            memory_type,
            body: body.to_string(),
        })
    }

    /// Whether the file starts with frontmatter.
    pub fn has_frontmatter(&self) -> bool {
        self.frontmatter.is_some()
    }

    /// A new topic file.
    pub fn new(name: &str, description: &str, memory_type: MemoryType, body: &str) -> Self {
        let frontmatter = format!(
            "name: {}\ndescription: {}\ntype: {}\n",
            yaml_scalar(name),
            yaml_scalar(description),
            memory_type
        );
        TopicFile {
            frontmatter: Some(frontmatter),
            name: Some(name.to_string()),
            description: Some(description.to_string()),
            memory_type: Some(memory_type),
            body: normalize_body(body),
        }
    }

    /// This file with new name, description, type and body; every other key is kept as it was.
    pub fn updated(
        &self,
        name: &str,
        description: &str,
        memory_type: MemoryType,
        body: &str,
    ) -> Result<Self, TopicError> {
        let Some(front) = &self.frontmatter else {
            return Ok(TopicFile::new(name, description, memory_type, body));
        };
        let mut front = set_top_level_key(front, "name", &yaml_scalar(name));
        front = set_top_level_key(&front, "description", &yaml_scalar(description));
        front = set_top_level_key(&front, "type", memory_type.as_str());
        front = set_metadata_type(&front, memory_type.as_str());
        let updated = TopicFile {
            frontmatter: Some(front),
            name: Some(name.to_string()),
            description: Some(description.to_string()),
            memory_type: Some(memory_type),
            body: normalize_body(body),
        };
        // The text edit must read back as what was asked for (a flow-style mapping would not).
        let reread = TopicFile::parse(&updated.render())?;
        if reread != updated {
            return Err(TopicError::Yaml(
                "its frontmatter layout cannot be updated key by key".to_string(),
            ));
        }
        Ok(updated)
    }

    /// The file's text.
    pub fn render(&self) -> String {
        match &self.frontmatter {
            Some(front) => format!("---\n{front}---\n{}", self.body),
            None => self.body.clone(),
        }
    }
}

/// A body ends with exactly one newline.
fn normalize_body(body: &str) -> String {
    format!("{}\n", body.trim_end())
}

/// `value` as a YAML scalar: plain where that reads back as the same string, else double-quoted
/// (a JSON string is a valid YAML double-quoted scalar).
pub fn yaml_scalar(value: &str) -> String {
    #[derive(Deserialize)]
    struct Probe {
        v: String,
    }
    let lower = value.to_ascii_lowercase();
    let ambiguous = value.parse::<f64>().is_ok()
        || matches!(
            lower.as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~" | ""
        );
    let plain_reads_back =
        || serde_saphyr::from_str::<Probe>(&format!("v: {value}\n")).is_ok_and(|p| p.v == value);
    if !ambiguous && value.chars().all(is_yaml_printable) && plain_reads_back() {
        value.to_string()
    } else {
        yaml_double_quoted(value)
    }
}

/// YAML 1.2's printable set (c-printable), less the byte-order mark; anything else is escaped.
fn is_yaml_printable(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7e}' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
        && c != '\u{feff}'
}

/// A double-quoted YAML scalar that reads back as exactly `value`.
fn yaml_double_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if is_yaml_printable(c) => out.push(c),
            c => out.push_str(&format!("\\u{:04x}", u32::from(c))),
        }
    }
    out.push('"');
    out
}

/// Is `line` the start of top-level `key:`?
fn is_key_line(line: &str, key: &str) -> bool {
    line.strip_prefix(key)
        .is_some_and(|rest| rest.starts_with(':'))
}

/// A line that belongs to the value of the key above it (indented, blank or a comment).
fn is_continuation(line: &str) -> bool {
    line.starts_with(' ') || line.starts_with('\t') || line.trim().is_empty()
}

/// Replace top-level `key` (its line and any indented continuation) by `key: value`, or append it.
fn set_top_level_key(front: &str, key: &str, value: &str) -> String {
    let mut out = String::with_capacity(front.len() + key.len() + value.len() + 3);
    let mut replaced = false;
    let mut skipping = false;
    for line in front.split_inclusive('\n') {
        if skipping && is_continuation(line) {
            continue;
        }
        skipping = false;
        if !replaced && is_key_line(line, key) {
            out.push_str(&format!("{key}: {value}\n"));
            replaced = true;
            skipping = true;
            continue;
        }
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push('\n');
        }
    }
    if !replaced {
        out.push_str(&format!("{key}: {value}\n"));
    }
    out
}

/// Keep `metadata.type` (Claude Code's placement) in step with the top-level type.
fn set_metadata_type(front: &str, value: &str) -> String {
    let mut out = String::with_capacity(front.len());
    let mut in_metadata = false;
    let mut indent: Option<usize> = None;
    for line in front.split_inclusive('\n') {
        if !is_continuation(line) {
            in_metadata = is_key_line(line, "metadata");
            indent = None;
        } else if in_metadata && !line.trim().is_empty() {
            let this_indent = line.len() - line.trim_start().len();
            let level = *indent.get_or_insert(this_indent);
            if this_indent == level && is_key_line(line.trim_start(), "type") {
                out.push_str(&format!("{}type: {value}\n", &line[..this_indent]));
                continue;
            }
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CLAUDE_WRITTEN: &str = "---\nname: staging\ndescription: Staging deploys from the release branch\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: f963f83a\n  modified: 2026-11-29T16:12:01.977Z\n---\n\nStaging deploys from the release branch.\n";

    #[test]
    fn reads_type_from_metadata() {
        let t = TopicFile::parse(CLAUDE_WRITTEN).expect("parses");
        assert_eq!(t.memory_type, Some(MemoryType::Project));
        assert_eq!(t.name.as_deref(), Some("staging"));
        assert_eq!(t.render(), CLAUDE_WRITTEN);
    }

    #[test]
    fn update_keeps_unknown_keys_and_writes_top_level_type() {
        let t = TopicFile::parse(CLAUDE_WRITTEN).expect("parses");
        let u = t
            .updated(
                "staging",
                "Staging: release branch, #1",
                MemoryType::Feedback,
                "New body",
            )
            .expect("updates");
        let text = u.render();
        assert!(
            text.contains("  node_type: memory\n  type: feedback\n  originSessionId: f963f83a\n"),
            "{text}"
        );
        assert!(text.contains("\ntype: feedback\n"), "{text}");
        assert!(text.ends_with("---\nNew body\n"), "{text}");
        let back = TopicFile::parse(&text).expect("reparses");
        assert_eq!(
            back.description.as_deref(),
            Some("Staging: release branch, #1")
        );
    }

    #[test]
    fn malformed_and_oversized_frontmatter_are_errors() {
        assert!(matches!(
            TopicFile::parse("---\nname: [unclosed\n---\nbody\n"),
            Err(TopicError::Yaml(_))
        ));
        assert_eq!(
            TopicFile::parse("---\nname: x\nbody\n"),
            Err(TopicError::Unclosed)
        );
        let big = format!("---\ndescription: {}\n---\nb\n", "x".repeat(9000));
        assert!(matches!(
            TopicFile::parse(&big),
            Err(TopicError::TooLarge(_))
        ));
        assert!(matches!(
            TopicFile::parse("---\ntype: banana\n---\nb\n"),
            Err(TopicError::UnknownType(_))
        ));
        assert!(TopicFile::parse("---\n- a list\n---\nb\n").is_err());
    }

    #[test]
    fn no_frontmatter_is_untyped() {
        let t = TopicFile::parse("just text\n").expect("parses");
        assert_eq!(t.memory_type, None);
        assert_eq!(t.render(), "just text\n");
    }

    /// The YAML parser's reading of `text`, bypassing the simple path.
    fn by_yaml(text: &str) -> Option<Frontmatter> {
        serde_saphyr::from_str(text).ok()
    }

    #[test]
    fn the_simple_path_takes_what_memdir_writes_and_leaves_the_rest() {
        let written = "name: db-layout\ndescription: Schema lives in src/db, one file per table\ntype: project\n";
        assert!(parse_simple(written).is_some());
        for other in [
            "name: x\nname: y\n",
            "description: 3 rules\n",
            "description: yes\n",
            "description: a: b\n",
            "description: note # comment\n",
            "description: 'quoted'\n",
            "description: trailing \n",
            "metadata:\n  type: user\n",
            "name: x\r\n",
            "owner: me\n",
        ] {
            assert_eq!(parse_simple(other), None, "{other:?}");
        }
    }

    proptest! {
        /// Whatever the simple path reads, the YAML parser reads the same.
        #[test]
        fn the_simple_path_agrees_with_the_yaml_parser(
            lines in prop::collection::vec(
                (
                    prop_oneof![Just("name"), Just("description"), Just("type"), Just("other")],
                    "[a-zA-Z0-9 ,.:#'\"!?&*|>%@`~=+()/<>;é中\\-\\[{}\t]{0,24}",
                ),
                0..4,
            ),
        ) {
            let text: String = lines.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
            if let Some(simple) = parse_simple(&text) {
                prop_assert_eq!(Some(simple), by_yaml(&text), "{:?}", text);
            }
        }

        #[test]
        fn frontmatter_round_trips(
            name in "[a-z0-9][a-z0-9-]{0,20}",
            description in "[^\\n]{1,80}",
            body in "[^\u{0}]{1,200}",
            t in 0usize..4,
        ) {
            prop_assume!(!body.trim().is_empty());
            let memory_type = MemoryType::ALL[t];
            let file = TopicFile::new(&name, &description, memory_type, &body);
            let back = TopicFile::parse(&file.render()).expect("what memdir writes parses");
            prop_assert_eq!(back.name.as_deref(), Some(name.as_str()));
            prop_assert_eq!(back.description.as_deref(), Some(description.as_str()));
            prop_assert_eq!(back.memory_type, Some(memory_type));
            prop_assert_eq!(back, file);
        }

        /// Anything an agent or a teammate can put in a topic file parses or is an error, never
        /// a panic; what parses can be updated, and the update parses back or is refused.
        #[test]
        fn any_text_parses_or_is_refused(
            front in prop::collection::vec(prop_oneof![
                Just("name: x\n".to_string()),
                Just("type: user\n".to_string()),
                Just("metadata:\n  type: feedback\n".to_string()),
                Just("description: [unclosed\n".to_string()),
                Just("description: {a: b}\n".to_string()),
                Just("- a\n- b\n".to_string()),
                Just("&a [*a, *a]\n".to_string()),
                Just("? complex\n: key\n".to_string()),
                "[^\u{0}]{0,40}\n",
            ], 0..8),
            closed in any::<bool>(),
            body in "\\PC{0,80}",
        ) {
            let mut text = String::from("---\n");
            text.push_str(&front.concat());
            if closed {
                text.push_str("---\n");
            }
            text.push_str(&body);
            if let Ok(topic) = TopicFile::parse(&text)
                && let Ok(updated) = topic.updated("x", "d", MemoryType::User, "b")
            {
                prop_assert!(TopicFile::parse(&updated.render()).is_ok());
            }
            let _ = TopicFile::parse(&body);
        }
    }
}
