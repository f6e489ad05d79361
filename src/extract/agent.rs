//! The `agent` extractor (DESIGN §6, §10): an external LLM command driven turn by turn through a
//! JSON protocol (`memdir-extract/1`, documented in the README), its actions carried out — or
//! refused — by memdir.
//!
//! The command never touches the disk on memdir's behalf: it only *asks*. Reads (read, grep,
//! glob) are served from the project and the memory dir after resolving `..` and symlinks; saves
//! and deletes go through [`crate::extract::apply`] (name, type, size and secret checks, the
//! two-step save). Everything else — a shell command, a write to a path, a malformed action — is
//! refused, and the refusal is both fed back to the agent in its next request and returned as an
//! [`Outcome::Refused`] for the report. The command runs with a cleared environment, in its own
//! process group, killed whole — every process it started, however it detached — when its turn
//! ends or its time limit passes ([`ProcessTree`]), with capped input and output,
//! at most `max_turns` times.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use chrono::SecondsFormat;
use regex::{Regex, RegexBuilder};
use serde_json::{Map, Value, json};

use crate::extract::error::{AgentFailure, BadResponse, ExtractError};
use crate::extract::process_tree::ProcessTree;
use crate::extract::transcript::Turn;
use crate::extract::{Action, Draft, Job, Outcome, apply, index_text};
use crate::memory::catalog::list_memories;
use crate::memory::store::{Store, StoreError};
use crate::memory::taxonomy::MemoryType;

/// The protocol's name and version, sent in every request.
pub const PROTOCOL: &str = "memdir-extract/1";
/// The transcript excerpt is cut to about this size, keeping the most recent turns.
pub const MAX_EXCERPT_BYTES: usize = 60 * 1024;
/// One prompt in the excerpt is cut to this (its beginning is kept).
const MAX_PROMPT_BYTES: usize = 16 * 1024;
/// One assistant reply in the excerpt is cut to this (its end is kept: the part the next prompt
/// answers).
const MAX_REPLY_BYTES: usize = 8 * 1024;
/// `read` returns at most this much of a file.
pub const MAX_READ_BYTES: usize = 64 * 1024;
/// `grep` returns at most this many lines, and this many bytes.
pub const MAX_GREP_LINES: usize = 200;
pub const MAX_GREP_BYTES: usize = 64 * 1024;
/// One grep line's text is cut to this.
const MAX_GREP_LINE_CHARS: usize = 300;
/// `grep` skips files bigger than this (and binary files).
const MAX_GREP_FILE_BYTES: u64 = 1024 * 1024;
/// `glob` returns at most this many paths.
pub const MAX_GLOB_PATHS: usize = 500;
/// A grep or glob walk stops after this many directory entries.
pub const MAX_WALK_ENTRIES: usize = 20_000;
/// Regex and glob patterns longer than this are refused.
const MAX_PATTERN_LEN: usize = 1000;
/// Actions beyond this in one response are refused.
pub const MAX_ACTIONS_PER_TURN: usize = 20;
/// A response (the command's stdout) over this is a run error.
pub const MAX_RESPONSE_BYTES: usize = 1024 * 1024;
/// The command's stderr is kept up to this, for error messages.
const MAX_STDERR_BYTES: usize = 16 * 1024;
/// A refusal's `what` is cut to this.
const MAX_WHAT_CHARS: usize = 120;

/// What the model is told, in every request.
pub const INSTRUCTIONS: &str = r#"You are memdir's memory extractor. "excerpt" is the new part of a Claude Code session: the person's prompts (with timestamps), each after the assistant's reply that came before it. "memories" and "index" are what is already saved. Decide what is worth remembering in future sessions, and save it.

Memory types (one fact per memory):
- user: who the person is: role, expertise, how they like to work.
- feedback: how the person wants the agent to work: corrections ("don't ... use ... instead") and approaches they confirmed ("always ...", "never ...", "from now on ...").
- project: facts about the project that the code and git history do not show: decisions and their reasons, deadlines, freezes, owners, outside constraints.
- reference: where things are outside the code: dashboards, docs, trackers, channels (with the link).

Do not save: anything derivable from the code or git history (file lists, architecture, what a function does), debugging steps and fixes, ephemeral task state (what is being done right now, this session's to-dos), proposals the person did not confirm, and never secrets (keys, tokens, passwords). If nothing qualifies, save nothing.

A memory: "name" is a kebab-case slug (a-z, 0-9 and -, at most 64 characters) and its file name; "description" is one line (under ~120 characters) saying what it is; "body" is short markdown holding one fact. Bodies of feedback and project memories end with two lines: "**Why:** <the reason given>" and "**How to apply:** <when and how to act on it>". Write dates as absolute dates (2026-03-05), resolving "tomorrow" or "next Friday" from the prompt's timestamp. To change something already saved, save it again under its existing name instead of adding a duplicate; delete a memory only when the person says it no longer holds.

Reply with one JSON object and nothing else: {"actions":[...]}. Actions:
- {"action":"read","path":P}: a file's text (its first 64 KB). P is relative to the project, or absolute inside the project or the memory dir.
- {"action":"grep","pattern":REGEX,"path":P}: matching lines as path:line:text ("path" is optional: the whole project).
- {"action":"glob","pattern":G}: paths under the project matching G (*, ?, **, {a,b}).
- {"action":"save","name":N,"type":T,"description":D,"body":B,"title":TITLE}: create memory N, or update it when it exists ("title" is optional).
- {"action":"delete","name":N}: remove memory N.
- {"action":"done"}: you are finished.
Reading is optional: use it only to check a fact before saving it. What became of each action comes back in the next request's "results"; you have at most "max_turns" turns. Nothing else is carried out: no shell commands, no files written other than memories. Finish with done."#;

/// How to run the agent command.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    /// Run with `sh -c`.
    pub cmd: String,
    pub turn_timeout: Duration,
    pub max_turns: u32,
}

/// Drive the agent over one range; returns what became of each save and delete it asked for,
/// and every refusal.
///
/// A turn that times out, exits non-zero or answers with something that is not a JSON object is
/// an error: the run fails and the session's cursor stays where it was. Saves made in earlier
/// turns stay (they are commits); a retry updates them by name.
pub fn run(
    config: &AgentConfig,
    job: &Job,
    turns: &[Turn],
    index: &str,
) -> Result<Vec<Outcome>, ExtractError> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let sandbox = Sandbox::new(&job.project, &job.memory_dir, home.as_deref());
    let (excerpt, truncated) = excerpt(turns);
    let mut outcomes = Vec::new();
    let mut results: Vec<Value> = Vec::new();
    let mut index = index.to_string();
    for turn in 1..=config.max_turns {
        if turn > 1 {
            // Earlier turns may have saved: show the index as it is now.
            index = index_text(&job.memory_dir)?;
        }
        let request = json!({
            "protocol": PROTOCOL,
            "turn": turn,
            "max_turns": config.max_turns,
            "instructions": INSTRUCTIONS,
            "session": job.session,
            "project": job.project,
            "memory_dir": job.memory_dir,
            "excerpt": excerpt,
            "truncated": truncated,
            "index": index,
            "memories": memory_summaries(&job.memory_dir)?,
            "results": results,
        });
        let input = serde_json::to_vec(&request).map_err(|source| ExtractError::Encode {
            what: "agent request",
            source,
        })?;
        let failed = |failure| ExtractError::Agent { turn, failure };
        let stdout = invoke(config, &job.memory_dir, input).map_err(failed)?;
        let actions = parse_response(&stdout)
            .map_err(AgentFailure::Response)
            .map_err(failed)?;
        if actions.is_empty() {
            return Ok(outcomes);
        }
        results = Vec::new();
        let mut done = false;
        for action in actions.iter().take(MAX_ACTIONS_PER_TURN) {
            let step = carry_out(action, &sandbox, job)?;
            done |= step.done;
            if let Some(outcome) = step.outcome {
                outcomes.push(outcome);
            }
            results.push(step.result);
        }
        if actions.len() > MAX_ACTIONS_PER_TURN {
            let what = format!(
                "actions {} to {} of turn {turn}",
                MAX_ACTIONS_PER_TURN + 1,
                actions.len()
            );
            let why = format!("at most {MAX_ACTIONS_PER_TURN} actions are carried out per turn");
            results.push(json!({"what": what, "status": "refused", "why": why}));
            outcomes.push(Outcome::Refused { what, why });
        }
        if done {
            return Ok(outcomes);
        }
        if turn == config.max_turns {
            // It asked for more, but the budget is spent: the command is not run again.
            outcomes.push(Outcome::Refused {
                what: format!("turn {}", turn + 1),
                why: format!("the turn limit is {}", config.max_turns),
            });
        }
    }
    Ok(outcomes)
}

/// `{name, type, description}` of every memory now in the dir that can be read.
fn memory_summaries(dir: &Path) -> Result<Vec<Value>, StoreError> {
    Ok(list_memories(dir)?
        .memories
        .into_iter()
        .map(|m| {
            json!({
                "name": m.name,
                "type": m.memory_type.map(MemoryType::as_str),
                "description": m.description.unwrap_or_default(),
            })
        })
        .collect())
}

/// The range as the model sees it: each prompt after the reply before it, the most recent turns
/// kept when it is over [`MAX_EXCERPT_BYTES`]. The flag says whether anything was left out or cut.
fn excerpt(turns: &[Turn]) -> (Vec<Value>, bool) {
    let mut truncated = false;
    let mut newest_first = Vec::new();
    let mut used = 0;
    'turns: for turn in turns.iter().rev() {
        let (prompt, cut) = keep_head(&turn.prompt, MAX_PROMPT_BYTES);
        truncated |= cut;
        let mut user = Map::new();
        user.insert("role".into(), "user".into());
        user.insert("text".into(), prompt.into());
        if let Some(t) = turn.timestamp {
            user.insert(
                "timestamp".into(),
                t.to_rfc3339_opts(SecondsFormat::Millis, true).into(),
            );
        }
        let mut entries = vec![Value::Object(user)];
        if !turn.previous_reply.trim().is_empty() {
            let (reply, cut) = keep_tail(&turn.previous_reply, MAX_REPLY_BYTES);
            truncated |= cut;
            entries.push(json!({"role": "assistant", "text": reply}));
        }
        for entry in entries {
            let size = entry.to_string().len();
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

// ---------------------------------------------------------------------------------------------
// Running the command

/// Run the command once: `input` on its stdin, its stdout back.
fn invoke(config: &AgentConfig, cwd: &Path, input: Vec<u8>) -> Result<Vec<u8>, AgentFailure> {
    let mut command = Command::new("/bin/sh");
    command
        .arg("-c")
        .arg(&config.cmd)
        .current_dir(cwd)
        .env_clear()
        .envs(std::env::vars_os().filter(|(name, _)| passes_through(name)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        // Its own process group, so that a timeout kills whatever it started too.
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command.spawn().map_err(AgentFailure::Start)?;
    let tree = ProcessTree::of(child.id());
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        tree.kill();
        let _ = child.wait();
        return Err(AgentFailure::Start(std::io::Error::other(
            "its pipes could not be set up",
        )));
    };
    // A command that does not read its request gets a broken pipe here: not an error by itself.
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let (out_tx, out_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = out_tx.send(read_response(stdout, tree));
    });
    let (err_tx, err_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = err_tx.send(read_head(stderr, MAX_STDERR_BYTES));
    });
    let (exit_tx, exit_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = exit_tx.send(child.wait());
    });

    // No deadline at all when the limit is past what an Instant can hold (never a panic).
    let deadline = Instant::now().checked_add(config.turn_timeout);
    let remaining = || {
        deadline.map_or(config.turn_timeout, |d| {
            d.saturating_duration_since(Instant::now())
        })
    };
    let status: ExitStatus = match exit_rx.recv_timeout(config.turn_timeout) {
        Ok(status) => status.map_err(AgentFailure::Wait)?,
        Err(_) => {
            tree.kill();
            let _ = exit_rx.recv();
            return Err(AgentFailure::TimedOut(config.turn_timeout));
        }
    };
    // The shell is gone; its output ends when whatever it started lets go of the pipe.
    let response = match out_rx.recv_timeout(remaining()) {
        Ok(response) => response,
        Err(_) => {
            tree.kill();
            return Err(AgentFailure::OutputHeldOpen(config.turn_timeout));
        }
    };
    let stderr = err_rx.recv_timeout(remaining()).unwrap_or_default();
    // Nothing it started outlives the turn (setsid, double forks and all).
    tree.kill();
    let response = match response {
        Ok(bytes) => bytes,
        Err(ResponseError::TooBig) => {
            return Err(AgentFailure::ResponseTooBig(MAX_RESPONSE_BYTES));
        }
        Err(ResponseError::Io(e)) => return Err(AgentFailure::ReadResponse(e)),
    };
    if !status.success() {
        return Err(AgentFailure::Exited {
            status,
            stderr: first_line(&stderr),
        });
    }
    Ok(response)
}

/// The variables the command sees: what a shell and Claude Code need, nothing else (no tokens of
/// other tools, no `GIT_*`, no `SSH_AUTH_SOCK`).
fn passes_through(name: &std::ffi::OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    matches!(name, "PATH" | "HOME" | "LANG")
        || name.starts_with("CLAUDE_")
        || name.starts_with("ANTHROPIC_")
}

/// The first non-empty line of some output, trimmed and cut, for a one-line error.
fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    cut_chars(line, 200)
}

/// The last non-empty line of a message (a regex error ends with what is wrong).
fn last_line(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or("");
    cut_chars(line, 200)
}

enum ResponseError {
    TooBig,
    Io(std::io::Error),
}

/// Read stdout to its end; over the cap, kill the command instead of reading on.
fn read_response(stdout: impl Read, tree: ProcessTree) -> Result<Vec<u8>, ResponseError> {
    let mut out = Vec::new();
    stdout
        .take(MAX_RESPONSE_BYTES as u64 + 1)
        .read_to_end(&mut out)
        .map_err(ResponseError::Io)?;
    if out.len() > MAX_RESPONSE_BYTES {
        tree.kill();
        return Err(ResponseError::TooBig);
    }
    Ok(out)
}

/// Keep the first `max` bytes of a stream and drain the rest (so the writer never blocks on us).
fn read_head(mut stream: impl Read, max: usize) -> Vec<u8> {
    let mut head = Vec::new();
    let _ = (&mut stream).take(max as u64).read_to_end(&mut head);
    let _ = std::io::copy(&mut stream, &mut std::io::sink());
    head
}

/// The actions of a response: `{"actions":[…]}`. A response without actions is an empty list.
fn parse_response(stdout: &[u8]) -> Result<Vec<Value>, BadResponse> {
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

// ---------------------------------------------------------------------------------------------
// Carrying out actions

/// What became of one action.
struct Step {
    /// For the next request's `results`.
    result: Value,
    /// For the report (saves, deletes and refusals).
    outcome: Option<Outcome>,
    done: bool,
}

impl Step {
    fn ok(what: String, output: String, truncated: bool) -> Step {
        Step {
            result: json!({"what": what, "status": "ok", "output": output, "truncated": truncated}),
            outcome: None,
            done: false,
        }
    }

    /// The action was carried out but did not work (a file that does not exist, a bad regex).
    fn failed(what: String, why: String) -> Step {
        Step {
            result: json!({"what": what, "status": "failed", "why": why}),
            outcome: None,
            done: false,
        }
    }

    /// The action was not carried out, and never will be.
    fn refused(what: String, why: String) -> Step {
        let what = redact(what);
        Step {
            result: json!({"what": what, "status": "refused", "why": why}),
            outcome: Some(Outcome::Refused { what, why }),
            done: false,
        }
    }
}

/// The fields each action may carry besides `action`; anything that names a file is refused on a
/// save or delete (memories are saved by name, inside the memory dir).
const PATH_FIELDS: &[&str] = &["path", "file", "file_path", "filename", "dir", "directory"];

fn carry_out(action: &Value, sandbox: &Sandbox, job: &Job) -> Result<Step, StoreError> {
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
            result: json!({"what": "done", "status": "ok"}),
            outcome: None,
            done: true,
        },
        "read" => match text("path") {
            Some(path) => read(sandbox, what, path),
            None => Step::refused(what, "read needs a \"path\" string".into()),
        },
        "grep" => match text("pattern") {
            Some(pattern) => match fields.get("path") {
                None | Some(Value::Null) => grep(sandbox, what, pattern, None),
                Some(Value::String(path)) => grep(sandbox, what, pattern, Some(path)),
                Some(_) => Step::refused(what, "grep's \"path\" must be a string".into()),
            },
            None => Step::refused(what, "grep needs a \"pattern\" string".into()),
        },
        "glob" => match text("pattern") {
            Some(pattern) => glob(sandbox, what, pattern),
            None => Step::refused(what, "glob needs a \"pattern\" string".into()),
        },
        "save" | "update" => match draft(fields) {
            Ok(draft) => store(job, &Action::Save(draft))?,
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
                job,
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

/// A save or delete through the store (its lock held only for this action).
fn store(job: &Job, action: &Action) -> Result<Step, StoreError> {
    let outcome = {
        let mut store = Store::open(&job.memory_dir)?;
        apply(&mut store, action, Some(job.session.as_str()))?
    };
    crate::fault::point("extract-mid-run");
    let result = match &outcome {
        Outcome::Refused { what, why } => {
            json!({"what": redact(what.clone()), "status": "refused", "why": why})
        }
        Outcome::Saved { name, .. } | Outcome::Updated { name, .. } => json!({
            "what": format!("save {name}"),
            "status": "ok",
            "outcome": outcome_name(&outcome),
            "output": outcome.line(),
        }),
        Outcome::Unchanged { name } => json!({
            "what": format!("save {name}"),
            "status": "ok",
            "outcome": "unchanged",
            "output": outcome.line(),
        }),
        Outcome::Removed { name } => json!({
            "what": format!("delete {name}"),
            "status": "ok",
            "outcome": "removed",
            "output": outcome.line(),
        }),
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
        Outcome::Saved { .. } => "saved",
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

/// At most `max` characters, control characters made visible, on one line.
fn cut_chars(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The read-only sandbox

/// Where reads may go: the project and the memory dir, resolved (`..` and symlinks), minus
/// `.git` internals and, when the project is the home folder (or above it), the hidden entries of
/// the home folder (`~/.ssh`, `~/.aws`, …).
struct Sandbox {
    /// The project as given: relative paths are taken from it.
    project: Option<PathBuf>,
    /// The memory dir as given (the request names it so).
    memory: PathBuf,
    /// The project, resolved.
    project_real: Option<PathBuf>,
    /// The memory dir, resolved.
    memory_real: Option<PathBuf>,
    /// The home folder, resolved, when the project contains it.
    exposed_home: Option<PathBuf>,
}

/// Why a path cannot be read.
enum Denied {
    /// Never allowed (outside, `.git`, `~`): a refusal.
    Refused(String),
    /// Allowed, but it did not work (it does not exist).
    Failed(String),
}

impl Sandbox {
    fn new(project: &Path, memory_dir: &Path, home: Option<&Path>) -> Sandbox {
        let project_real = project.canonicalize().ok().filter(|p| p.is_dir());
        let memory_real = memory_dir.canonicalize().ok().filter(|p| p.is_dir());
        let home = home.and_then(|h| h.canonicalize().ok());
        let exposed_home = match (&project_real, home) {
            (Some(project), Some(home)) if home.starts_with(project) => Some(home),
            _ => None,
        };
        Sandbox {
            project: project_real.as_ref().map(|_| project.to_path_buf()),
            memory: crate::paths::normalize(memory_dir).unwrap_or_else(|| memory_dir.to_path_buf()),
            project_real,
            memory_real,
            exposed_home,
        }
    }

    fn roots(&self) -> impl Iterator<Item = &PathBuf> {
        self.memory_real.iter().chain(self.project_real.iter())
    }

    /// A path the agent gave, resolved and checked.
    fn resolve(&self, given: &str) -> Result<PathBuf, Denied> {
        const WHERE: &str = "only the project and the memory dir can be read";
        if given.is_empty() {
            return Err(Denied::Refused("the path is empty".into()));
        }
        if given.contains('\0') {
            return Err(Denied::Refused("the path holds a NUL byte".into()));
        }
        if given.starts_with('~') {
            return Err(Denied::Refused(format!(
                "'~' is not expanded; {WHERE} (give a path relative to the project, or an absolute one inside either)"
            )));
        }
        let path = Path::new(given);
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            match &self.project {
                Some(project) => project.join(path),
                None => {
                    return Err(Denied::Refused(
                        "the project dir does not exist, so relative paths cannot be read".into(),
                    ));
                }
            }
        };
        // Said before touching the disk, so that nothing is learnt about what exists outside.
        let lexical = crate::paths::normalize(&absolute)
            .ok_or_else(|| Denied::Refused(format!("the path leaves the root; {WHERE}")))?;
        let inside_lexically = self
            .project
            .iter()
            .chain(std::iter::once(&self.memory))
            .chain(self.roots())
            .any(|root| lexical.starts_with(root));
        if !inside_lexically {
            return Err(Denied::Refused(format!(
                "{} is outside the project and the memory dir; {WHERE}",
                lexical.display()
            )));
        }
        match absolute.canonicalize() {
            Ok(real) => {
                self.check(&real)?;
                Ok(real)
            }
            Err(e) => {
                // Whatever exists of it must be inside too: a missing file below a symlink that
                // points out, or a dangling symlink, is refused rather than reported missing (which
                // would tell what exists outside).
                let mut existing = Some(absolute.as_path());
                while let Some(path) = existing {
                    if let Ok(meta) = std::fs::symlink_metadata(path) {
                        match path.canonicalize() {
                            Ok(real) => self.check(&real)?,
                            Err(_) if meta.file_type().is_symlink() => {
                                return Err(Denied::Refused(format!(
                                    "it goes through a symlink that leads nowhere; {WHERE}"
                                )));
                            }
                            Err(_) => {}
                        }
                        break;
                    }
                    existing = path.parent();
                }
                if e.kind() == std::io::ErrorKind::NotFound {
                    Err(Denied::Failed(format!(
                        "{given}: no such file or directory"
                    )))
                } else {
                    Err(Denied::Failed(format!("{given}: {e}")))
                }
            }
        }
    }

    /// A resolved path is inside a root, not in `.git`, not a hidden entry of an exposed home.
    fn check(&self, real: &Path) -> Result<(), Denied> {
        let Some(root) = self.roots().find(|root| real.starts_with(root)) else {
            return Err(Denied::Refused(format!(
                "it resolves to {}, outside the project and the memory dir (through a symlink or '..'); only those can be read",
                real.display()
            )));
        };
        let inside = real.strip_prefix(root).unwrap_or(real);
        if inside.components().any(|c| c.as_os_str() == ".git") {
            return Err(Denied::Refused(
                "git internals (.git) are not readable: they can hold credentials".into(),
            ));
        }
        if let Some(home) = &self.exposed_home {
            let in_memory_dir = self
                .memory_real
                .as_ref()
                .is_some_and(|m| real.starts_with(m));
            if !in_memory_dir
                && let Ok(rest) = real.strip_prefix(home)
                && rest
                    .components()
                    .next()
                    .is_some_and(|c| c.as_os_str().to_string_lossy().starts_with('.'))
            {
                return Err(Denied::Refused(
                    "hidden files of the home folder (~/.ssh, ~/.aws, …) are not readable".into(),
                ));
            }
        }
        Ok(())
    }

    /// How a resolved path is shown: relative to the project when inside it.
    fn display(&self, real: &Path) -> String {
        self.project_real
            .as_ref()
            .and_then(|p| real.strip_prefix(p).ok())
            .filter(|rest| !rest.as_os_str().is_empty())
            .map(|rest| rest.to_string_lossy().into_owned())
            .unwrap_or_else(|| real.to_string_lossy().into_owned())
    }

    /// Walk a resolved dir without following symlinks, skipping `.git` and what [`Self::check`]
    /// refuses; `visit` gets each entry's path and whether it is a dir, and returns false to stop.
    /// Returns true when the walk stopped early (a cap or `visit`).
    fn walk(&self, dir: &Path, mut visit: impl FnMut(&Path, bool) -> bool) -> bool {
        let mut stack = vec![dir.to_path_buf()];
        let mut seen = 0usize;
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut entries: Vec<_> = entries.flatten().collect();
            entries.sort_by_key(|e| e.file_name());
            let mut subdirs = Vec::new();
            for entry in entries {
                seen += 1;
                if seen > MAX_WALK_ENTRIES {
                    return true;
                }
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let path = entry.path();
                if entry.file_name() == ".git" || self.check(&path).is_err() {
                    continue;
                }
                if !visit(&path, kind.is_dir()) {
                    return true;
                }
                if kind.is_dir() {
                    subdirs.push(path);
                }
            }
            // Depth first, in name order.
            stack.extend(subdirs.into_iter().rev());
        }
        false
    }
}

fn read(sandbox: &Sandbox, what: String, path: &str) -> Step {
    let real = match sandbox.resolve(path) {
        Ok(real) => real,
        Err(Denied::Refused(why)) => return Step::refused(what, why),
        Err(Denied::Failed(why)) => return Step::failed(what, why),
    };
    match std::fs::metadata(&real) {
        Ok(meta) if meta.is_dir() => {
            return Step::failed(what, format!("{path} is a directory; use glob to list it"));
        }
        // Checked before opening: opening a FIFO would wait for a writer.
        Ok(meta) if !meta.is_file() => {
            return Step::refused(what, format!("{path} is not a regular file"));
        }
        Ok(_) => {}
        Err(e) => return Step::failed(what, format!("{path}: {e}")),
    }
    let mut bytes = Vec::new();
    let read = match crate::input::open_regular(&real, u64::MAX) {
        Ok(file) => file
            .take(MAX_READ_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    if let Err(e) = read {
        return Step::failed(what, format!("{path}: {e}"));
    }
    let truncated = bytes.len() > MAX_READ_BYTES;
    bytes.truncate(MAX_READ_BYTES);
    Step::ok(
        what,
        String::from_utf8_lossy(&bytes).into_owned(),
        truncated,
    )
}

fn grep(sandbox: &Sandbox, what: String, pattern: &str, path: Option<&str>) -> Step {
    if pattern.len() > MAX_PATTERN_LEN {
        return Step::refused(
            what,
            format!("the pattern is over {MAX_PATTERN_LEN} characters"),
        );
    }
    let regex = match RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 20)
        .build()
    {
        Ok(regex) => regex,
        Err(e) => return Step::failed(what, format!("bad regex: {}", last_line(&e.to_string()))),
    };
    let real = match path {
        Some(path) => sandbox.resolve(path),
        None => sandbox.project_real.clone().ok_or_else(|| {
            Denied::Failed("the project dir does not exist; give a path in the memory dir".into())
        }),
    };
    let real = match real {
        Ok(real) => real,
        Err(Denied::Refused(why)) => return Step::refused(what, why),
        Err(Denied::Failed(why)) => return Step::failed(what, why),
    };
    let mut matches = Matches::default();
    if real.is_dir() {
        let stopped = sandbox.walk(&real, |file, is_dir| {
            is_dir || !is_regular(file) || matches.search(sandbox, file, &regex)
        });
        matches.truncated |= stopped;
    } else if is_regular(&real) {
        matches.search(sandbox, &real, &regex);
    } else {
        return Step::refused(what, "not a regular file".into());
    }
    Step::ok(what, matches.lines.join("\n"), matches.truncated)
}

fn is_regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

#[derive(Default)]
struct Matches {
    lines: Vec<String>,
    bytes: usize,
    truncated: bool,
}

impl Matches {
    /// Search one file; false once the caps are reached.
    fn search(&mut self, sandbox: &Sandbox, file: &Path, regex: &Regex) -> bool {
        // Over the cap, or not a regular file: skipped.
        let Ok(bytes) = crate::input::read_regular(file, MAX_GREP_FILE_BYTES) else {
            return true;
        };
        if bytes[..bytes.len().min(8192)].contains(&0) {
            return true; // binary
        }
        let text = String::from_utf8_lossy(&bytes);
        let shown = sandbox.display(file);
        for (number, line) in text.lines().enumerate() {
            if !regex.is_match(line) {
                continue;
            }
            let entry = format!(
                "{shown}:{}:{}",
                number + 1,
                cut_chars(line, MAX_GREP_LINE_CHARS)
            );
            if self.lines.len() >= MAX_GREP_LINES || self.bytes + entry.len() > MAX_GREP_BYTES {
                self.truncated = true;
                return false;
            }
            self.bytes += entry.len() + 1;
            self.lines.push(entry);
        }
        true
    }
}

fn glob(sandbox: &Sandbox, what: String, pattern: &str) -> Step {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    if pattern.len() > MAX_PATTERN_LEN {
        return Step::refused(
            what,
            format!("the pattern is over {MAX_PATTERN_LEN} characters"),
        );
    }
    if pattern.starts_with('/') || pattern.starts_with('~') || pattern.contains('\0') {
        return Step::refused(
            what,
            "glob patterns are relative to the project; nothing outside it is listed".into(),
        );
    }
    if Path::new(pattern)
        .components()
        .any(|c| matches!(c, Component::ParentDir))
    {
        return Step::refused(
            what,
            "glob patterns cannot hold '..'; nothing outside the project is listed".into(),
        );
    }
    let Some(project) = sandbox.project_real.clone() else {
        return Step::failed(what, "the project dir does not exist".into());
    };
    let regex = match glob_regex(pattern) {
        Ok(regex) => regex,
        Err(why) => return Step::failed(what, why),
    };
    let mut paths = Vec::new();
    let truncated = sandbox.walk(&project, |path, is_dir| {
        let Ok(rest) = path.strip_prefix(&project) else {
            return true;
        };
        let rest = rest.to_string_lossy().replace('\\', "/");
        if regex.is_match(&rest) {
            if paths.len() >= MAX_GLOB_PATHS {
                return false;
            }
            paths.push(if is_dir { format!("{rest}/") } else { rest });
        }
        true
    });
    Step::ok(what, paths.join("\n"), truncated)
}

/// A glob as an anchored regex over `/`-separated relative paths: `*` and `?` stay within one
/// component, `**` spans any number of them, `[…]` is a class (`[!…]` negated), `{a,b}` an
/// alternative; everything else is literal.
fn glob_regex(glob: &str) -> Result<Regex, String> {
    let mut out = String::from("^");
    let chars: Vec<char> = glob.chars().collect();
    let mut braces = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' if chars.get(i + 1) == Some(&'*') => {
                i += 1;
                if chars.get(i + 1) == Some(&'/') {
                    i += 1;
                    out.push_str("(?:.*/)?");
                } else {
                    out.push_str(".*");
                }
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => match chars[i + 1..].iter().position(|&c| c == ']') {
                Some(len) if len > 0 => {
                    let class: String = chars[i + 1..i + 1 + len].iter().collect();
                    let (negated, class) = match class.strip_prefix('!') {
                        Some(rest) => (true, rest.to_string()),
                        None => (false, class),
                    };
                    out.push('[');
                    if negated {
                        out.push('^');
                    }
                    for c in class.chars() {
                        if matches!(c, '\\' | '[' | ']' | '^' | '&' | '~') {
                            out.push('\\');
                        }
                        out.push(c);
                    }
                    out.push(']');
                    i += len + 1;
                }
                _ => out.push_str(r"\["),
            },
            '{' => {
                braces += 1;
                out.push_str("(?:");
            }
            ',' if braces > 0 => out.push('|'),
            '}' if braces > 0 => {
                braces -= 1;
                out.push(')');
            }
            c => out.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    if braces > 0 {
        return Err("bad glob: an unclosed '{'".into());
    }
    out.push('$');
    RegexBuilder::new(&out)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| format!("bad glob: {}", last_line(&e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{Extractor, Trigger};

    /// A project, a memory dir, a home and a folder outside them all, resolved.
    struct Dirs {
        _temp: tempfile::TempDir,
        root: PathBuf,
        project: PathBuf,
        memory: PathBuf,
        outside: PathBuf,
    }

    fn dirs() -> Dirs {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path().canonicalize().expect("canonical");
        let project = root.join("proj");
        let memory = root.join("home/.claude/projects/proj/memory");
        let outside = root.join("outside");
        for dir in [
            &project,
            &memory,
            &outside,
            &project.join(".git"),
            &memory.join(".git"),
        ] {
            std::fs::create_dir_all(dir).expect("mkdir");
        }
        std::fs::write(project.join("notes.md"), "inside\n").expect("write");
        std::fs::write(project.join(".git/config"), "[remote]\n").expect("write");
        std::fs::write(memory.join("a.md"), "memory\n").expect("write");
        std::fs::write(outside.join("secret.txt"), "secret\n").expect("write");
        std::os::unix::fs::symlink(&outside, project.join("escape")).expect("symlink");
        std::os::unix::fs::symlink(outside.join("secret.txt"), project.join("leak.txt"))
            .expect("symlink");
        std::os::unix::fs::symlink(outside.join("missing"), project.join("dangling"))
            .expect("symlink");
        std::os::unix::fs::symlink(project.join("notes.md"), project.join("alias.md"))
            .expect("symlink");
        Dirs {
            _temp: temp,
            root,
            project,
            memory,
            outside,
        }
    }

    fn refused(result: Result<PathBuf, Denied>) -> String {
        match result {
            Err(Denied::Refused(why)) => why,
            Err(Denied::Failed(why)) => panic!("failed, not refused: {why}"),
            Ok(path) => panic!("allowed: {}", path.display()),
        }
    }

    #[test]
    fn reads_stay_in_the_project_and_the_memory_dir() {
        let d = dirs();
        let sandbox = Sandbox::new(&d.project, &d.memory, Some(&d.root.join("home")));
        let ok = |p: &str| sandbox.resolve(p).ok();
        assert_eq!(ok("notes.md"), Some(d.project.join("notes.md")));
        assert_eq!(ok("./docs/../notes.md"), None, "docs does not exist");
        assert_eq!(ok("alias.md"), Some(d.project.join("notes.md")));
        assert_eq!(
            ok(d.memory.join("a.md").to_str().expect("utf-8")),
            Some(d.memory.join("a.md"))
        );
        assert!(refused(sandbox.resolve("leak.txt")).contains("outside"));
        assert!(refused(sandbox.resolve("escape/secret.txt")).contains("outside"));
        assert!(refused(sandbox.resolve("escape/nothing-here")).contains("outside"));
        assert!(refused(sandbox.resolve("dangling")).contains("leads nowhere"));
        assert!(refused(sandbox.resolve("dangling/x")).contains("leads nowhere"));
        assert!(refused(sandbox.resolve("../outside/secret.txt")).contains("outside"));
        assert!(refused(sandbox.resolve("../outside/not-there")).contains("outside"));
        assert!(refused(sandbox.resolve("/etc/passwd")).contains("outside"));
        let secret = d.outside.join("secret.txt");
        assert!(refused(sandbox.resolve(secret.to_str().expect("utf-8"))).contains("outside"));
        assert!(refused(sandbox.resolve("../../../../../../..")).contains("root"));
        assert!(refused(sandbox.resolve("~/.ssh/id_rsa")).contains('~'));
        assert!(refused(sandbox.resolve(".git/config")).contains(".git"));
        let memory_git = d.memory.join(".git");
        assert!(refused(sandbox.resolve(memory_git.to_str().expect("utf-8"))).contains(".git"));
        assert!(refused(sandbox.resolve("a\0b")).contains("NUL"));
        assert!(refused(sandbox.resolve("")).contains("empty"));
        match sandbox.resolve("missing.md") {
            Err(Denied::Failed(why)) => assert!(why.contains("no such file"), "{why}"),
            _ => panic!("a missing file inside is a failure, not a refusal"),
        }
    }

    #[test]
    fn a_project_that_holds_the_home_folder_does_not_expose_its_hidden_files() {
        let d = dirs();
        let home = d.root.join("home");
        std::fs::create_dir_all(home.join(".ssh")).expect("mkdir");
        std::fs::write(home.join(".ssh/id_rsa"), "key\n").expect("write");
        std::fs::write(home.join("todo.txt"), "todo\n").expect("write");
        // The project is the home folder itself.
        let sandbox = Sandbox::new(&home, &d.memory, Some(&home));
        assert!(refused(sandbox.resolve(".ssh/id_rsa")).contains("hidden files"));
        assert_eq!(
            sandbox.resolve("todo.txt").ok(),
            Some(home.join("todo.txt"))
        );
        // The memory dir under ~/.claude stays readable.
        let memory = d.memory.join("a.md");
        assert_eq!(
            sandbox.resolve(memory.to_str().expect("utf-8")).ok(),
            Some(memory)
        );
        // And a walk does not go in either.
        let mut seen = Vec::new();
        sandbox.walk(&home, |p, _| {
            seen.push(p.to_path_buf());
            true
        });
        assert!(seen.contains(&home.join("todo.txt")));
        assert!(
            !seen.iter().any(|p| p.starts_with(home.join(".ssh"))),
            "{seen:?}"
        );
    }

    #[test]
    fn walks_skip_git_and_do_not_follow_symlinks() {
        let d = dirs();
        let sandbox = Sandbox::new(&d.project, &d.memory, None);
        let what = || "glob".to_string();
        let step = glob(&sandbox, what(), "**");
        assert_eq!(
            step.result["output"],
            "alias.md\ndangling\nescape\nleak.txt\nnotes.md"
        );
        let step = grep(&sandbox, what(), "secret|inside|remote", None);
        assert_eq!(step.result["output"], "notes.md:1:inside");
        assert_eq!(step.result["status"], "ok");
        let step = grep(&sandbox, what(), "(unclosed", None);
        assert_eq!(step.result["status"], "failed");
        assert!(step.outcome.is_none());
    }

    #[test]
    fn globs() {
        let matches = |glob: &str, path: &str| glob_regex(glob).expect("glob").is_match(path);
        assert!(matches("**/*.toml", "a.toml"));
        assert!(matches("**/*.toml", "x/y/a.toml"));
        assert!(!matches("**/*.toml", "a.tomlx"));
        assert!(!matches("*.toml", "x/a.toml"));
        assert!(matches("src/*.rs", "src/a.rs"));
        assert!(!matches("src/*.rs", "src/x/a.rs"));
        assert!(matches("docs/**", "docs/a/b.md"));
        assert!(matches("*.{rs,toml}", "Cargo.toml"));
        assert!(!matches("*.{rs,toml}", "Cargo.lock"));
        assert!(matches("?.md", "a.md"));
        assert!(!matches("?.md", "ab.md"));
        assert!(matches("[!a]b", "cb"));
        assert!(!matches("[!a]b", "ab"));
        assert!(matches("a.b", "a.b"));
        assert!(!matches("a.b", "axb"));
        assert!(matches("[ab", "[ab"));
        assert!(glob_regex("{a,b").is_err());
    }

    fn turn(prompt: &str, reply: &str, minute: u32) -> Turn {
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
        let (entries, truncated) =
            super::excerpt(&[turn("hello", "", 0), turn("more", "a reply", 1)]);
        assert!(!truncated);
        assert_eq!(
            Value::Array(entries),
            json!([
                {"role": "user", "text": "hello", "timestamp": "2026-03-05T10:00:00.000Z"},
                {"role": "assistant", "text": "a reply"},
                {"role": "user", "text": "more", "timestamp": "2026-03-05T10:01:00.000Z"},
            ])
        );

        let filler = "x".repeat(4000);
        let turns: Vec<Turn> = (0..40)
            .map(|i| turn(&format!("prompt {i} {filler}"), &filler, i))
            .collect();
        let (entries, truncated) = super::excerpt(&turns);
        assert!(truncated);
        let size: usize = entries.iter().map(|e| e.to_string().len()).sum();
        assert!(size <= MAX_EXCERPT_BYTES, "{size}");
        let last = entries.last().expect("an entry");
        assert!(
            last["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("prompt 39 "))
        );
        assert!(!entries.iter().any(|e| {
            e["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("prompt 0 "))
        }));

        // One huge prompt is cut, keeping its beginning; a huge reply keeps its end.
        let huge = format!("start {}", "é".repeat(MAX_PROMPT_BYTES));
        let reply = format!("{} end", "é".repeat(MAX_REPLY_BYTES));
        let (entries, truncated) = super::excerpt(&[turn(&huge, &reply, 0)]);
        assert!(truncated);
        let reply = entries[0]["text"].as_str().expect("reply");
        let prompt = entries[1]["text"].as_str().expect("prompt");
        assert!(prompt.starts_with("start ") && prompt.len() <= MAX_PROMPT_BYTES + 3);
        assert!(reply.ends_with(" end") && reply.len() <= MAX_REPLY_BYTES + 3);
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
                message.starts_with("the agent command failed on turn 3: its response ")
                    && message.contains(why),
                "{message}"
            );
            assert!(!message.contains('\n'), "{message}");
        }
    }

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

    fn job(d: &Dirs) -> Job {
        Job {
            session: "s1".into(),
            transcript: d.root.join("t.jsonl"),
            project: d.project.clone(),
            memory_dir: d.memory.clone(),
            trigger: Trigger::Foreground,
            every: 1,
            extractor: Extractor::Builtin,
        }
    }

    fn config(cmd: String) -> AgentConfig {
        AgentConfig {
            cmd,
            turn_timeout: Duration::from_secs(60),
            max_turns: 5,
        }
    }

    #[test]
    fn actions_past_the_cap_are_refused_and_reported() {
        let d = dirs();
        let log = d.root.join("requests");
        std::fs::create_dir_all(&log).expect("mkdir");
        let many: Vec<Value> = (0..25)
            .map(|i| json!({"action": "glob", "pattern": format!("{i}*")}))
            .collect();
        let script = format!(
            "req=$(cat); n=$(ls '{log}' | wc -l); printf '%s' \"$req\" > '{log}'/$n; \
             if [ $n = 0 ]; then echo '{}'; else echo '{{\"actions\":[{{\"action\":\"done\"}}]}}'; fi",
            json!({"actions": many}),
            log = log.display()
        );
        let outcomes = run(&config(script), &job(&d), &[turn("hi", "", 0)], "").expect("run");
        assert_eq!(
            outcomes,
            [Outcome::Refused {
                what: "actions 21 to 25 of turn 1".into(),
                why: "at most 20 actions are carried out per turn".into()
            }]
        );
        let second: Value =
            serde_json::from_slice(&std::fs::read(log.join("1")).expect("turn 2")).expect("json");
        let results = second["results"].as_array().expect("results");
        assert_eq!(results.len(), 21);
        assert_eq!(results[20]["status"], "refused");
        assert_eq!(second["turn"], 2);
    }

    #[test]
    fn a_runaway_response_is_cut_off() {
        let d = dirs();
        let error = run(
            &config("cat >/dev/null; yes".into()),
            &job(&d),
            &[turn("hi", "", 0)],
            "",
        )
        .expect_err("too big");
        assert!(error.to_string().contains("over 1048576 bytes"), "{error}");
    }

    #[test]
    fn a_response_asking_for_more_after_the_last_turn_is_refused() {
        let d = dirs();
        let mut config = config(
            "cat >/dev/null; echo '{\"actions\":[{\"action\":\"read\",\"path\":\"notes.md\"}]}'"
                .into(),
        );
        config.max_turns = 2;
        let outcomes = run(&config, &job(&d), &[turn("hi", "", 0)], "").expect("run");
        assert_eq!(
            outcomes,
            [Outcome::Refused {
                what: "turn 3".into(),
                why: "the turn limit is 2".into()
            }]
        );
    }
}
