//! Consolidation by the model (DESIGN §7): the same agent protocol as extraction's — one JSON
//! request on the model's stdin (or as Claude Code's prompt), one JSON object of actions back —
//! named `memdir-consolidate/1`. The request holds the memories (name, type, when saved,
//! description, body) and today; the answer is `{"actions": [...]}`, each a merge, a drop (with
//! a reason from the rules: expired, or superseded by a newer memory) or a rewrite (relative
//! dates made absolute). Memdir checks every action as it checks its own rules'
//! ([`super::checked`]); what is not an action is refused here. The model is run as extraction
//! runs it ([`crate::model`]: Claude Code as `claude -p`, or `--agent-cmd`), and when none
//! answers, `auto` falls back to the builtin rules ([`Consolidator`]).
//!
//! A store too large for one request is sent in parts (memories in save order); duplicates
//! across two parts are not seen by the model.

use std::path::Path;
use std::time::Duration;

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::Value;

use super::{Action, ConsolidateError, DropReason, Expiry, Findings, Memory, Proposal, Refused};
use crate::memory::calendar::format_date;
use crate::model::{Answer, Model, ModelError, Question};

/// The protocol's name and version, sent in every request.
pub const PROTOCOL: &str = "memdir-consolidate/1";
/// The memories of one request take up to about this much.
pub const MAX_REQUEST_BYTES: usize = 96 * 1024;
/// A memory's body is cut to this in a request (a memory whose body was cut cannot be merged
/// or rewritten by the model: the merge would lose what it did not see, and is refused).
const MAX_BODY_BYTES: usize = 4 * 1024;
/// Actions beyond this in one answer are refused.
pub const MAX_ACTIONS: usize = 500;
/// At most this many requests in one consolidation; memories beyond them are left as they are
/// this time (the report says how many).
pub const MAX_PARTS: usize = 16;

/// What the model is told, in every request.
pub const INSTRUCTIONS: &str = r#"You are memdir's memory consolidator. "memories" is what a person's coding agent has saved (each with its name, type, when it was saved, a one-line description and a body); "today" is today's date. Propose how to keep this memory small, current and true. Every action you propose is checked by memdir; one that breaks the rules below is refused.

- merge: two or more memories that state the same fact (not merely the same shape: memories that differ in an identifier, a number, a name, a path or a host are different facts and are never merged). Write the merged memory's description and body so that it keeps every detail each of them gives (all their identifiers, numbers, names, paths, commands, reasons), in their own words; "into" is the name of the one saved first (it keeps that name). memdir refuses a merge whose text drops a content word of any merged memory.
- drop with reason "expired": a time-bound memory whose date has passed (a freeze until a day, a deadline, an event on a day, a temporary workaround until a day). Give that date as "date" (YYYY-MM-DD). A date that is history (since, joined on, migrated on, happened on) does not expire a memory, nor does one still to come. memdir refuses it unless the memory names that date and names no day after today.
- drop with reason "superseded": the memory says the same subject has a value that a newer memory (given as "by") replaced. The newer one stays. memdir refuses it unless "by" was saved later and is about the same subject.
- rewrite: a memory that holds a relative date ("tomorrow", "next Friday", "end of next month", "下周五"); write its description and body with each such date made absolute (YYYY-MM-DD), as meant on the day the memory was saved, and nothing else changed.

Anything not clearly one of these: leave it alone. Touch each memory in at most one action (a rewrite aside). Reply with one JSON object and nothing else: {"actions": [...]}, each action one of
{"action":"merge","names":[N1,N2,...],"into":N1,"description":D,"body":B,"why":W}
{"action":"drop","name":N,"reason":"expired","date":"YYYY-MM-DD","why":W}
{"action":"drop","name":N,"reason":"superseded","by":M,"why":W}
{"action":"rewrite","name":N,"description":D,"body":B}
and {"actions": []} when there is nothing to do."#;

/// What the model is when memdir runs Claude Code for it (its system prompt says so).
pub const ROLE: &str = "memory consolidator";

/// The JSON schema of an answer (Claude Code's structured output).
pub fn response_schema() -> Value {
    crate::model::actions_schema(serde_json::json!({
        "action": {"type": "string", "enum": ["merge", "drop", "rewrite"]},
        "names": {"type": "array", "items": {"type": "string"}},
        "into": {"type": "string"},
        "name": {"type": "string"},
        "reason": {"type": "string", "enum": ["expired", "superseded"]},
        "date": {"type": "string"},
        "by": {"type": "string"},
        "description": {"type": "string"},
        "body": {"type": "string"},
        "why": {"type": "string"}
    }))
}

/// A memory as a request lists it.
#[derive(Debug, Serialize)]
struct Listed<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    memory_type: &'a str,
    /// RFC 3339, when history says.
    #[serde(skip_serializing_if = "Option::is_none")]
    saved: Option<String>,
    description: &'a str,
    body: &'a str,
    /// The body was cut to fit the request.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
}

/// One request.
#[derive(Debug, Serialize)]
struct Request<'a> {
    protocol: &'static str,
    instructions: &'static str,
    today: String,
    /// This part of the store, from 1, and how many there are.
    part: usize,
    parts: usize,
    memories: Vec<Listed<'a>>,
}

/// The requests for `memories` as of `today`, each the JSON the model is given, and how many
/// memories did not fit in [`MAX_PARTS`] requests.
pub fn requests(memories: &[Memory], today: NaiveDate) -> (Vec<Vec<u8>>, usize) {
    let mut parts: Vec<Vec<Listed<'_>>> = vec![Vec::new()];
    let mut size = 0;
    let mut left_out = 0;
    for memory in memories {
        let listed = listed(memory);
        let bytes = listed.description.len() + listed.body.len() + listed.name.len() + 100;
        if size + bytes > MAX_REQUEST_BYTES && parts.last().is_some_and(|p| !p.is_empty()) {
            if parts.len() == MAX_PARTS {
                left_out += 1;
                continue;
            }
            parts.push(Vec::new());
            size = 0;
        }
        size += bytes;
        if let Some(part) = parts.last_mut() {
            part.push(listed);
        }
    }
    let count = parts.len();
    let requests = parts
        .into_iter()
        .enumerate()
        .filter(|(_, memories)| !memories.is_empty())
        .map(|(n, memories)| {
            let request = Request {
                protocol: PROTOCOL,
                instructions: INSTRUCTIONS,
                today: format_date(today),
                part: n + 1,
                parts: count,
                memories,
            };
            // A struct of strings and numbers always serializes.
            serde_json::to_vec(&request).unwrap_or_default()
        })
        .collect();
    (requests, left_out)
}

fn listed(memory: &Memory) -> Listed<'_> {
    let body = crate::input::head_bytes(&memory.body, MAX_BODY_BYTES);
    Listed {
        name: &memory.name,
        memory_type: memory.memory_type.map_or("", |t| t.as_str()),
        saved: memory.saved.and_then(|(seconds, offset)| {
            let zone = chrono::FixedOffset::east_opt(offset)?;
            Some(
                chrono::DateTime::from_timestamp(seconds, 0)?
                    .with_timezone(&zone)
                    .to_rfc3339(),
            )
        }),
        description: &memory.description,
        body,
        truncated: body.len() < memory.body.len(),
    }
}

/// The model `model` (as reports name it) asked about `memories` through `ask`, one call per
/// request, its answers read into one proposal. A request it does not answer, or answers with
/// something that is not an answer, fails the whole: no action of a half-asked store is kept.
pub fn propose(
    memories: &[Memory],
    today: NaiveDate,
    model: &str,
    ask: &mut dyn FnMut(&[u8]) -> Result<Answer, String>,
) -> Result<Proposal, String> {
    let (requests, unseen) = requests(memories, today);
    let mut proposal = Proposal {
        model: Some(model.to_string()),
        unseen,
        ..Proposal::default()
    };
    for request in &requests {
        proposal.calls += 1;
        let answer = ask(request)?;
        if let Some(cost) = answer.cost_usd {
            *proposal.cost_usd.get_or_insert(0.0) += cost;
        }
        let (actions, malformed) = parse_answer(&answer.json).map_err(|e| e.to_string())?;
        proposal.actions.extend(actions);
        proposal.malformed.extend(malformed);
    }
    Ok(proposal)
}

/// Who proposes a consolidation.
#[derive(Debug)]
pub enum Consolidator {
    /// The builtin rules: offline, deterministic, free.
    Builtin,
    /// A model (or why there is none to ask), each call within `time_limit`; when it does not
    /// answer, the builtin rules instead (`auto`) or a failure (`agent`).
    Model {
        model: Result<Model, ModelError>,
        time_limit: Duration,
        fall_back: bool,
    },
}

/// What `consolidator` proposes about `memories` (with the rules' `findings`) as of `today`; a
/// model is run in `cwd`.
pub fn proposal(
    consolidator: &Consolidator,
    memories: &[Memory],
    findings: &Findings,
    today: NaiveDate,
    cwd: &Path,
) -> Result<Proposal, ConsolidateError> {
    let Consolidator::Model {
        model,
        time_limit,
        fall_back,
    } = consolidator
    else {
        return Ok(Proposal::builtin(memories, findings));
    };
    let asked = match model {
        Ok(model) => {
            let schema = response_schema();
            let system = crate::model::system_prompt(ROLE);
            let mut ask = |request: &[u8]| {
                let question = Question {
                    request,
                    system: &system,
                    schema: &schema,
                };
                crate::model::ask(model, &question, cwd, *time_limit).map_err(|e| e.to_string())
            };
            propose(memories, today, &model.describe(), &mut ask)
                .map_err(|why| format!("{} did not answer: {why}", model.describe()))
        }
        Err(e) => Err(e.to_string()),
    };
    match asked {
        Ok(proposal) => Ok(proposal),
        Err(why) if *fall_back => Ok(Proposal {
            fallback: Some(why),
            ..Proposal::builtin(memories, findings)
        }),
        Err(why) => Err(ConsolidateError::NoModel(why)),
    }
}

/// Why an answer could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadAnswer {
    #[error("the model's answer is not JSON: {0}")]
    NotJson(String),
    #[error("the model's answer has no \"actions\" list")]
    NoActions,
}

/// An answer read: its actions, and each part of it that is no action (described), refused
/// with why.
pub type Read = (Vec<Action>, Vec<(String, Refused)>);

/// The actions of an answer, and each part of it that is no action.
pub fn parse_answer(json: &[u8]) -> Result<Read, BadAnswer> {
    let value: Value =
        serde_json::from_slice(json).map_err(|e| BadAnswer::NotJson(e.to_string()))?;
    let Some(list) = value.get("actions").and_then(Value::as_array) else {
        return Err(BadAnswer::NoActions);
    };
    let mut actions = Vec::new();
    let mut refused = Vec::new();
    for (n, item) in list.iter().enumerate() {
        let what = format!("the model's action {}", n + 1);
        if n >= MAX_ACTIONS {
            refused.push((
                what,
                Refused::Malformed(format!("more than {MAX_ACTIONS} actions in one answer")),
            ));
            continue;
        }
        match action(item) {
            Ok(action) => actions.push(action),
            Err(why) => refused.push((what, Refused::Malformed(why))),
        }
    }
    Ok((actions, refused))
}

/// One action of an answer, or why it is none.
fn action(item: &Value) -> Result<Action, String> {
    let text = |key: &str| -> Result<String, String> {
        item.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("it has no \"{key}\" text"))
    };
    match item.get("action").and_then(Value::as_str) {
        Some("merge") => {
            let names = item
                .get("names")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|n| n.as_str().map(str::to_string))
                        .collect::<Option<Vec<String>>>()
                })
                .and_then(|n| n)
                .ok_or("a merge needs \"names\", a list of memory names")?;
            Ok(Action::Merge {
                names,
                into: text("into")?,
                description: text("description")?,
                body: text("body")?,
            })
        }
        Some("rewrite") => Ok(Action::Rewrite {
            name: text("name")?,
            description: text("description")?,
            body: text("body")?,
        }),
        Some("drop") => {
            let name = text("name")?;
            let reason = match item.get("reason").and_then(Value::as_str) {
                Some("expired") => {
                    let date = text("date")?;
                    let day = NaiveDate::parse_from_str(&date, "%Y-%m-%d")
                        .map_err(|_| format!("its date {date:?} is not YYYY-MM-DD"))?;
                    DropReason::Expired(Expiry {
                        date: day,
                        evidence: date,
                    })
                }
                Some("superseded") => DropReason::Superseded {
                    by: text("by")?,
                    stale: Vec::new(),
                    current: Vec::new(),
                },
                Some(other) => {
                    return Err(format!(
                        "a drop's reason must be expired or superseded, not {other:?}"
                    ));
                }
                None => return Err("a drop needs a reason: expired or superseded".into()),
            };
            Ok(Action::Drop { name, reason })
        }
        Some(other) => Err(format!("{other:?} is not an action (merge, drop, rewrite)")),
        None => Err("it has no \"action\"".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_read_into_actions_and_what_is_no_action_is_refused() {
        let answer = br#"{"actions": [
            {"action":"merge","names":["a","b"],"into":"a","description":"d","body":"b","why":"same"},
            {"action":"drop","name":"c","reason":"expired","date":"2026-01-15"},
            {"action":"drop","name":"d","reason":"superseded","by":"e"},
            {"action":"rewrite","name":"f","description":"d","body":"b"},
            {"action":"drop","name":"g","reason":"stale"},
            {"action":"drop","name":"h","reason":"expired","date":"January 15"},
            {"action":"shell","command":"rm -rf /"},
            {"action":"merge","names":"a,b","into":"a","description":"d","body":"b"},
            "merge"
        ]}"#;
        let (actions, refused) = parse_answer(answer).expect("an answer");
        assert_eq!(actions.len(), 4);
        assert_eq!(
            actions[1],
            Action::Drop {
                name: "c".into(),
                reason: DropReason::Expired(Expiry {
                    date: NaiveDate::from_ymd_opt(2026, 1, 15).expect("a day"),
                    evidence: "2026-01-15".into(),
                }),
            }
        );
        let why: Vec<String> = refused.iter().map(|(_, r)| r.to_string()).collect();
        assert_eq!(
            why,
            [
                "a drop's reason must be expired or superseded, not \"stale\"",
                "its date \"January 15\" is not YYYY-MM-DD",
                "\"shell\" is not an action (merge, drop, rewrite)",
                "a merge needs \"names\", a list of memory names",
                "it has no \"action\"",
            ]
        );
        assert_eq!(
            parse_answer(b"not json").map(|_| ()),
            Err(BadAnswer::NotJson(
                "expected ident at line 1 column 2".into()
            ))
        );
        assert_eq!(parse_answer(b"{}").map(|_| ()), Err(BadAnswer::NoActions));
    }
}
