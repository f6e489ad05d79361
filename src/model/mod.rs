//! Asking a language model one question (DESIGN §6, §10): memdir runs the model as a program
//! under [`crate::process`]'s supervision — a time limit, capped output, every process it started
//! killed when the question is answered or the time is up — and gets back its answer, one JSON
//! object, or why there is none. What is asked, and what the answer means, is the caller's
//! (extraction's protocol today; any capability that asks a model may use this).
//!
//! Two kinds of model: Claude Code, run by memdir itself in print mode ([`claude`]), and a
//! command of the person's (`--agent-cmd`: a local model server's client, Codex, Gemini CLI, a
//! scripted model in tests), run with `/bin/sh -c`, the request on its stdin, the answer on its
//! stdout. A model that could not be asked (not installed, not logged in, offline, failing,
//! too slow) is a [`ModelError`]; a model that answered gives its answer, whatever it says.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::process::{Ended, RunError, Supervision};

pub mod claude;

pub use claude::ClaudeCode;

/// Which model answers, and how it is run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Model {
    /// Claude Code in print mode, run by memdir itself.
    ClaudeCode(ClaudeCode),
    /// A command line of the person's, run with `/bin/sh -c`.
    Command(String),
}

impl Model {
    /// What answers, for logs and reports: `claude (haiku)`, `the agent command`.
    pub fn describe(&self) -> String {
        match self {
            Model::ClaudeCode(claude) => format!("claude ({})", claude.model),
            Model::Command(_) => "the agent command".into(),
        }
    }
}

/// The system prompt memdir gives Claude Code for one of its JSON protocols: the model is
/// memdir's `role` ("memory extractor"), has no tools, and answers the request's instructions
/// with one `{"actions":[...]}` object.
pub fn system_prompt(role: &str) -> String {
    format!(
        "You are memdir's {role}, called through a JSON protocol. You have no tools: you only \
         answer. The user message is memdir's request, a JSON object whose \"instructions\" \
         field says what to do and which actions exist. Answer with the one JSON object \
         {{\"actions\":[...]}} it asks for."
    )
}

/// The JSON schema of an answer `{"actions": [...]}` whose actions are objects with these
/// `properties`, `action` required (Claude Code's structured output).
pub fn actions_schema(properties: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "actions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": properties,
                    "required": ["action"]
                }
            }
        },
        "required": ["actions"]
    })
}

/// One question.
#[derive(Debug, Clone, Copy)]
pub struct Question<'a> {
    /// The request, one JSON object: a command gets it on stdin as it is; Claude Code gets it
    /// as its prompt.
    pub request: &'a [u8],
    /// Who the model is and how it answers (Claude Code's system prompt; a command reads what
    /// it needs from the request).
    pub system: &'a str,
    /// The JSON schema of the answer (Claude Code's structured output; a command is trusted
    /// to answer in it, and the caller checks).
    pub schema: &'a serde_json::Value,
}

/// A model's answer: one JSON object's text, and what it cost when the model says.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub json: Vec<u8>,
    /// In US dollars, as Claude Code reports it (`total_cost_usd`); `None` for a command.
    pub cost_usd: Option<f64>,
}

/// An answer over this is refused: the model was killed.
pub const MAX_ANSWER_BYTES: usize = 1024 * 1024;
/// A model's stderr is kept up to this, for error messages.
const MAX_STDERR_BYTES: usize = 16 * 1024;

/// Why a model gave no answer. Every one of them means "no model answered": a caller that has
/// another way (the builtin extractor) takes it.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Claude Code is not on `PATH`.
    #[error("claude is not installed (no `claude` on PATH)")]
    NotInstalled,
    #[error("could not start {program}: {source}")]
    Start {
        program: String,
        #[source]
        source: std::io::Error,
    },
    #[error("waiting for it: {0}")]
    Wait(#[source] std::io::Error),
    #[error(
        "it did not answer within the time limit of {}s; it was killed",
        .0.as_secs_f64()
    )]
    TimedOut(Duration),
    #[error(
        "its output stayed open past the time limit of {}s (a background process?); it was killed",
        .0.as_secs_f64()
    )]
    OutputHeldOpen(Duration),
    #[error("its response is over {0} bytes; it was killed")]
    ResponseTooBig(usize),
    #[error("reading its response: {0}")]
    ReadResponse(#[source] std::io::Error),
    /// A non-zero exit, with the first line of its stderr when there is one.
    #[error("it {}", exited(*.status, .stderr))]
    Exited {
        status: std::process::ExitStatus,
        stderr: String,
    },
    /// Claude Code ran but reported an error: not logged in, the API unreachable or refusing,
    /// a budget or turn limit reached.
    #[error("claude reported an error ({kind}): {message}")]
    Reported { kind: String, message: String },
    /// Claude Code's output is not the result object its print mode writes.
    #[error("claude's output is not the JSON result of its print mode: {0}")]
    NotAResult(String),
    /// Claude Code finished without the structured answer it was asked for.
    #[error("claude finished without an answer in the requested form: {0}")]
    NoAnswer(String),
}

/// Ask `model` one question, in `cwd`, within `time_limit`.
pub fn ask(
    model: &Model,
    question: &Question<'_>,
    cwd: &Path,
    time_limit: Duration,
) -> Result<Answer, ModelError> {
    match model {
        Model::ClaudeCode(claude) => claude.ask(question, cwd, time_limit),
        Model::Command(cmd) => {
            let mut command = Command::new("/bin/sh");
            command.arg("-c").arg(cmd);
            let output = supervise(
                command,
                cwd,
                question.request.to_vec(),
                time_limit,
                MAX_ANSWER_BYTES,
            )?;
            if !output.status.success() {
                return Err(ModelError::Exited {
                    status: output.status,
                    stderr: first_line(&output.stderr),
                });
            }
            Ok(Answer {
                json: output.stdout,
                cost_usd: None,
            })
        }
    }
}

/// Run a model's program once to its end: a cleared environment (what [`passes_through`] lets
/// by, then `command`'s own variables), `input` on its stdin, its output back whatever its exit.
fn supervise(
    mut command: Command,
    cwd: &Path,
    input: Vec<u8>,
    time_limit: Duration,
    max_stdout: usize,
) -> Result<std::process::Output, ModelError> {
    let program = command.get_program().to_string_lossy().into_owned();
    let own: Vec<(std::ffi::OsString, std::ffi::OsString)> = command
        .get_envs()
        .filter_map(|(name, value)| Some((name.to_os_string(), value?.to_os_string())))
        .collect();
    command
        .current_dir(cwd)
        .env_clear()
        .envs(std::env::vars_os().filter(|(name, _)| passes_through(name)))
        .envs(own);
    let supervision = Supervision {
        time_limit,
        max_stdout,
        max_stderr: MAX_STDERR_BYTES,
        // Nothing it started outlives the question (setsid, double forks and all).
        kill_leftovers: true,
    };
    match crate::process::run(command, Some(input), &supervision) {
        Ok(Ended::Exited(output)) => Ok(output),
        Ok(Ended::TimedOut) => Err(ModelError::TimedOut(time_limit)),
        Ok(Ended::OutputHeldOpen) => Err(ModelError::OutputHeldOpen(time_limit)),
        Ok(Ended::StdoutOverCap) => Err(ModelError::ResponseTooBig(max_stdout)),
        Err(RunError::Start(source)) => Err(ModelError::Start { program, source }),
        Err(RunError::Wait(e)) => Err(ModelError::Wait(e)),
        Err(RunError::Read(e)) => Err(ModelError::ReadResponse(e)),
    }
}

/// The variables a model's program sees: what a shell and Claude Code need (its login, its
/// config dir, its API settings), nothing else (no tokens of other tools, no `GIT_*`, no
/// `SSH_AUTH_SOCK`), and nothing that ties it to the Claude Code session whose hook started
/// memdir: a nested `claude` given the session's id or its messaging socket would act as part
/// of that session (variables checked against Claude Code 2.1.332's hook environment).
fn passes_through(name: &std::ffi::OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    let of_the_session = matches!(
        name,
        "CLAUDE_PID" | "CLAUDE_PROJECT_DIR" | "CLAUDE_ENV_FILE"
    ) || ["SESSION", "CHILD", "MESSAGING"]
        .iter()
        .any(|part| name.contains(part));
    matches!(name, "PATH" | "HOME" | "LANG")
        || (name.starts_with("CLAUDE_") || name.starts_with("ANTHROPIC_")) && !of_the_session
}

/// The first non-empty line of some output, trimmed and cut at 200 characters, control
/// characters made visible: for a one-line error.
pub fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    cut_chars(line.trim(), 200)
}

/// At most `max` characters, control characters made visible, on one line.
pub fn cut_chars(text: &str, max: usize) -> String {
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

/// "exited with code 3 (oops)", "was killed by signal 9".
fn exited(status: std::process::ExitStatus, stderr: &str) -> String {
    let how = describe_status(status);
    if stderr.is_empty() {
        how
    } else {
        format!("{how} ({stderr})")
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "exited abnormally".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_of_the_hook_does_not_reach_the_model() {
        for kept in [
            "PATH",
            "HOME",
            "CLAUDE_CONFIG_DIR",
            "ANTHROPIC_API_KEY",
            "ANTHROPIC_BASE_URL",
            "CLAUDE_CODE_USE_BEDROCK",
        ] {
            assert!(passes_through(kept.as_ref()), "{kept}");
        }
        for dropped in [
            "CLAUDE_CODE_SESSION_ID",
            "CLAUDE_CODE_CHILD_SESSION",
            "CLAUDE_CODE_MESSAGING_SOCKET",
            "CLAUDE_CODE_MESSAGING_TOKEN",
            "CLAUDE_PID",
            "CLAUDE_PROJECT_DIR",
            "CLAUDECODE",
            "GIT_DIR",
            "SSH_AUTH_SOCK",
            "GITHUB_TOKEN",
        ] {
            assert!(!passes_through(dropped.as_ref()), "{dropped}");
        }
    }
}
