//! Carrying out the agent's actions (DESIGN §6, §10): each action of a response becomes a result
//! for the next request and, for saves, deletes and refusals, an [`Outcome`] for the report.
//! Reads go to the [`Sandbox`]; saves and deletes to the run's [`Carrier`] (name, type, size and
//! secret checks, the update check, the two-step save); anything else is refused, never carried
//! out.

use serde_json::{Map, Value};

use super::protocol::{ActionResult, MAX_ACTIONS_PER_TURN, cut_chars};
use super::sandbox::{Denied, Found, Sandbox};
use crate::extract::apply::Carrier;
use crate::extract::{Action, Draft, Outcome};
use crate::memory::store::StoreError;
use crate::memory::taxonomy::MemoryType;

/// A refusal's `what` is cut to this.
const MAX_WHAT_CHARS: usize = 120;

/// What became of one turn's actions.
#[derive(Debug, Default)]
pub struct Carried {
    /// For the next request's `results`, one per action, in order.
    pub results: Vec<ActionResult>,
    /// For the report: what became of each save and delete, and every refusal.
    pub outcomes: Vec<Outcome>,
    /// The agent said it is done.
    pub done: bool,
}

impl Carried {
    fn push(&mut self, step: Step) {
        self.results.push(step.result);
        self.outcomes.extend(step.outcome);
        self.done |= step.done;
    }
}

/// Carry out one turn's actions in order; past [`MAX_ACTIONS_PER_TURN`] they are refused together.
pub fn carry_out_turn(
    actions: &[Value],
    turn: u32,
    sandbox: &Sandbox,
    carrier: &mut Carrier<'_>,
) -> Result<Carried, StoreError> {
    let mut carried = Carried::default();
    for action in actions.iter().take(MAX_ACTIONS_PER_TURN) {
        carried.push(carry_out(action, sandbox, carrier)?);
    }
    // The store is let go while the model thinks about the next turn.
    carrier.release();
    if actions.len() > MAX_ACTIONS_PER_TURN {
        carried.push(Step::refused(
            format!(
                "actions {} to {} of turn {turn}",
                MAX_ACTIONS_PER_TURN + 1,
                actions.len()
            ),
            format!("at most {MAX_ACTIONS_PER_TURN} actions are carried out per turn"),
        ));
    }
    Ok(carried)
}

/// What became of one action.
struct Step {
    result: ActionResult,
    outcome: Option<Outcome>,
    done: bool,
}

impl Step {
    /// The action was carried out but did not work (a file that does not exist, a bad regex).
    fn failed(what: String, why: String) -> Step {
        Step {
            result: ActionResult::failed(what, why),
            outcome: None,
            done: false,
        }
    }

    /// The action was not carried out, and never will be.
    fn refused(what: String, why: String) -> Step {
        let what = redact(what);
        Step {
            result: ActionResult::refused(what.clone(), why.clone()),
            outcome: Some(Outcome::Refused { what, why }),
            done: false,
        }
    }
}

/// A read's, grep's or glob's answer as a step.
fn answer(what: String, found: Result<Found, Denied>) -> Step {
    match found {
        Ok(Found { output, truncated }) => Step {
            result: ActionResult::found(what, output, truncated),
            outcome: None,
            done: false,
        },
        Err(Denied::Failed(why)) => Step::failed(what, why),
        Err(Denied::Refused(why)) => Step::refused(what, why),
    }
}

/// The fields each action may carry besides `action`; anything that names a file is refused on a
/// save or delete (memories are saved by name, inside the memory dir).
const PATH_FIELDS: &[&str] = &["path", "file", "file_path", "filename", "dir", "directory"];

/// Carry out one action; a refusal is a step like any other, only the store failing is an error.
fn carry_out(
    action: &Value,
    sandbox: &Sandbox,
    carrier: &mut Carrier<'_>,
) -> Result<Step, StoreError> {
    let what = describe(action);
    let Value::Object(fields) = action else {
        return Ok(Step::refused(
            what,
            "an action is a JSON object such as {\"action\":\"done\"}".into(),
        ));
    };
    let Some(name) = fields.get("action").and_then(Value::as_str) else {
        return Ok(Step::refused(
            what,
            "the action has no \"action\" field naming what to do".into(),
        ));
    };
    let text = |key: &str| fields.get(key).and_then(Value::as_str);
    Ok(match name {
        "done" => Step {
            result: ActionResult::done(),
            outcome: None,
            done: true,
        },
        "read" => match text("path") {
            Some(path) => answer(what, sandbox.read(path)),
            None => Step::refused(what, "read needs a \"path\" string".into()),
        },
        "grep" => match text("pattern") {
            Some(pattern) => match fields.get("path") {
                None | Some(Value::Null) => answer(what, sandbox.grep(pattern, None)),
                Some(Value::String(path)) => answer(what, sandbox.grep(pattern, Some(path))),
                Some(_) => Step::refused(what, "grep's \"path\" must be a string".into()),
            },
            None => Step::refused(what, "grep needs a \"pattern\" string".into()),
        },
        "glob" => match text("pattern") {
            Some(pattern) => answer(what, sandbox.glob(pattern)),
            None => Step::refused(what, "glob needs a \"pattern\" string".into()),
        },
        "save" | "update" => match draft(fields) {
            Ok(draft) => store(carrier, &Action::Save(draft))?,
            Err(why) => Step::refused(what, why),
        },
        "delete" => match (
            PATH_FIELDS.iter().find(|k| fields.contains_key(**k)),
            text("name"),
        ) {
            (Some(key), _) => Step::refused(
                what,
                format!("delete takes a memory's \"name\", not a \"{key}\""),
            ),
            (None, Some(name)) => store(
                carrier,
                &Action::Delete {
                    name: name.to_string(),
                },
            )?,
            (None, None) => Step::refused(what, "delete needs a \"name\" string".into()),
        },
        "write" | "edit" | "create" | "append" | "mkdir" | "move" | "rename" | "copy" | "rm"
        | "remove" | "chmod" => Step::refused(
            what,
            format!(
                "unknown action {name:?}: files are never written; a memory is written with \
                 save (by name, inside the memory dir)"
            ),
        ),
        _ => Step::refused(
            what,
            format!(
                "unknown action {name:?}: memdir carries out only read, grep, glob, save, delete \
                 and done (no commands are run)"
            ),
        ),
    })
}

/// A save's fields as a [`Draft`], or why it is malformed.
fn draft(fields: &Map<String, Value>) -> Result<Draft, String> {
    if let Some(key) = PATH_FIELDS.iter().find(|k| fields.contains_key(**k)) {
        return Err(format!(
            "save takes no \"{key}\": a memory is saved by name, as <name>.md inside the memory dir"
        ));
    }
    let required = |key: &str| match fields.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("save's \"{key}\" must be a string")),
        None => Err(format!("save needs a \"{key}\" string")),
    };
    let name = required("name")?;
    let memory_type: MemoryType = required("type")?.parse().map_err(|e| format!("{e}"))?;
    let description = required("description")?;
    let body = required("body")?;
    let title = match fields.get("title") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("save's \"title\" must be a string".into()),
    };
    Ok(Draft {
        name,
        memory_type,
        description,
        title,
        body,
    })
}

/// A save or delete through the run's carrier.
fn store(carrier: &mut Carrier<'_>, action: &Action) -> Result<Step, StoreError> {
    let outcome = carrier.carry(action)?;
    crate::fault::point("extract-mid-run");
    let result = match &outcome {
        Outcome::Refused { what, why } => ActionResult::refused(redact(what.clone()), why.clone()),
        Outcome::Saved { name, .. }
        | Outcome::Updated { name, .. }
        | Outcome::SavedApart { name, .. } => ActionResult::stored(
            format!("save {name}"),
            outcome_name(&outcome),
            outcome.line(),
        ),
        Outcome::Unchanged { name } => {
            ActionResult::stored(format!("save {name}"), "unchanged", outcome.line())
        }
        Outcome::Removed { name } => {
            ActionResult::stored(format!("delete {name}"), "removed", outcome.line())
        }
    };
    let outcome = match outcome {
        Outcome::Refused { what, why } => Outcome::Refused {
            what: redact(what),
            why,
        },
        other => other,
    };
    Ok(Step {
        result,
        outcome: Some(outcome),
        done: false,
    })
}

fn outcome_name(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Saved { .. } | Outcome::SavedApart { .. } => "saved",
        Outcome::Updated { .. } => "updated",
        Outcome::Unchanged { .. } => "unchanged",
        Outcome::Removed { .. } => "removed",
        Outcome::Refused { .. } => "refused",
    }
}

/// A short name for an action, for results and the report: `read src/main.rs`, `bash`.
fn describe(action: &Value) -> String {
    let Value::Object(fields) = action else {
        return cut_chars(&format!("malformed action {action}"), MAX_WHAT_CHARS);
    };
    let Some(name) = fields.get("action").and_then(Value::as_str) else {
        return "action without a name".into();
    };
    let key = match name {
        "save" | "update" | "delete" => ["name", "path"],
        "grep" | "glob" => ["pattern", "path"],
        _ => ["path", "name"],
    };
    let argument = key
        .iter()
        .find_map(|k| fields.get(*k).and_then(Value::as_str));
    let what = match argument {
        Some(argument) => format!("{name} {argument}"),
        None => name.to_string(),
    };
    cut_chars(&what, MAX_WHAT_CHARS)
}

/// A refusal's `what` never repeats a secret the agent put in a name.
fn redact(what: String) -> String {
    match crate::secrets::find(&what) {
        Some(kind) => format!(
            "{} [{kind}, redacted]",
            what.split(' ').next().unwrap_or("")
        ),
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn refusals_name_the_action_but_never_a_secret() {
        assert_eq!(
            describe(&json!({"action":"read","path":"a.md"})),
            "read a.md"
        );
        assert_eq!(
            describe(&json!({"action":"bash","command":"rm -rf /"})),
            "bash"
        );
        assert_eq!(describe(&json!({"action":"write","path":"/x"})), "write /x");
        assert_eq!(describe(&json!({"path":"/x"})), "action without a name");
        assert_eq!(
            redact(describe(
                &json!({"action":"save","name":"sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2"})
            )),
            "save [an Anthropic API key, redacted]"
        );
    }
}
