//! Claude Code as the model (DESIGN §6): memdir runs `claude -p` itself, one call per question,
//! with no tools, hooks, plugins, MCP servers or saved session, auto memory off in the child,
//! the answer asked for as structured output (a JSON schema) and read from the print mode's JSON
//! result. Not installed, not logged in, offline or failing is a [`ModelError`]; only a result
//! that carries the structured answer is an answer.
//!
//! The flags, the result's fields and the errors were checked against Claude Code 2.1.332
//! (`claude --help`, and its runs against a scripted API): `--json-schema` makes it offer the
//! model a `StructuredOutput` tool whose input is the answer, returned as `structured_output`
//! beside the text `result` (one API request); `--tools ""` offers no other tool; `--safe-mode`
//! leaves out CLAUDE.md, skills, plugins, hooks (a Stop hook in the child must not start another
//! extraction), MCP servers and custom agents; `--strict-mcp-config` with no `--mcp-config` adds
//! none back; `--no-session-persistence` saves no session; `--max-turns 1` stops a model that
//! wants more. Not logged in, it exits 1 with `{"is_error": true, "result": "Not logged in ·
//! Please run /login"}`; offline, it retries the API for minutes, so the time limit decides.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use super::{Answer, MAX_ANSWER_BYTES, ModelError, Question, cut_chars, supervise};
use crate::process::program::{ProgramCheck, check_program};

/// The model memdir asks for when the settings name none: small and fast, as the job is reading
/// a few prompts and answering a few lines of JSON.
pub const DEFAULT_MODEL: &str = "haiku";

/// Claude Code's print-mode output holds the answer twice (its text and its structured form)
/// and usage figures: its cap is above the answer's.
const MAX_OUTPUT_BYTES: usize = 4 * MAX_ANSWER_BYTES;

/// Claude Code, where it is and which model it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaudeCode {
    pub program: PathBuf,
    /// An alias (`haiku`, `sonnet`) or a model's full name, as `--model` takes it.
    pub model: String,
}

impl ClaudeCode {
    /// `claude` as the shell would find it on `search_path` (the `PATH` memdir runs with: a hook
    /// gets Claude Code's own), running `model`.
    pub fn find(search_path: Option<&std::ffi::OsStr>, model: &str) -> Result<Self, ModelError> {
        match check_program("claude", search_path) {
            ProgramCheck::Found(program) => Ok(ClaudeCode {
                program,
                model: model.to_string(),
            }),
            _ => Err(ModelError::NotInstalled),
        }
    }

    /// The command line, without the prompt (it goes on stdin: a request can be larger than
    /// one argument may be).
    fn command(&self, question: &Question<'_>) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(["-p", "--output-format", "json", "--json-schema"])
            .arg(question.schema.to_string())
            .args(["--max-turns", "1", "--tools", ""])
            .args([
                "--safe-mode",
                "--strict-mcp-config",
                "--disable-slash-commands",
            ])
            .arg("--no-session-persistence")
            .args(["--model", &self.model])
            .args(["--system-prompt", question.system])
            // The child must not load or write auto memory itself (DESIGN §2's switch).
            .env("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");
        command
    }

    /// Ask one question: one `claude -p` call.
    pub fn ask(
        &self,
        question: &Question<'_>,
        cwd: &Path,
        time_limit: Duration,
    ) -> Result<Answer, ModelError> {
        let output = supervise(
            self.command(question),
            cwd,
            question.request.to_vec(),
            time_limit,
            MAX_OUTPUT_BYTES,
        )?;
        if output.status.success() {
            return read_result(&output.stdout);
        }
        // Not logged in or offline, it still prints its result object (exit 1): say what it said.
        let said = serde_json::from_slice::<Value>(&output.stdout).ok();
        Err(said
            .as_ref()
            .and_then(reported_error)
            .unwrap_or_else(|| ModelError::Exited {
                status: output.status,
                stderr: super::first_line(&output.stderr),
            }))
    }
}

/// The answer in Claude Code's print-mode result: its `structured_output`; an error result
/// (`is_error`, or a subtype other than `success`) says why there is none.
fn read_result(stdout: &[u8]) -> Result<Answer, ModelError> {
    let result: Value = serde_json::from_slice(stdout).map_err(|_| {
        ModelError::NotAResult(cut_chars(String::from_utf8_lossy(stdout).trim(), 120))
    })?;
    if let Some(reported) = reported_error(&result) {
        return Err(reported);
    }
    let cost_usd = result.get("total_cost_usd").and_then(Value::as_f64);
    let answer = match result.get("structured_output") {
        Some(answer @ Value::Object(_)) => answer.clone(),
        _ => {
            let text = result.get("result").and_then(Value::as_str).unwrap_or("");
            return Err(ModelError::NoAnswer(if text.trim().is_empty() {
                "its result is empty".into()
            } else {
                format!("it wrote: {}", cut_chars(text.trim(), 120))
            }));
        }
    };
    let json = serde_json::to_vec(&answer).map_err(|e| ModelError::NotAResult(e.to_string()))?;
    Ok(Answer { json, cost_usd })
}

/// An error result: `{"is_error": true, "subtype": …, "result": "Not logged in · …"}`.
fn reported_error(result: &Value) -> Option<ModelError> {
    let subtype = result.get("subtype").and_then(Value::as_str).unwrap_or("");
    let is_error = result.get("is_error").and_then(Value::as_bool) == Some(true);
    if !is_error && subtype == "success" {
        return None;
    }
    let message = result
        .get("result")
        .and_then(Value::as_str)
        .map(|m| cut_chars(m.trim(), 200))
        .unwrap_or_default();
    Some(ModelError::Reported {
        kind: result
            .get("terminal_reason")
            .and_then(Value::as_str)
            .filter(|r| !r.is_empty())
            .unwrap_or(subtype)
            .to_string(),
        message,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_structured_answer_is_read_and_errors_say_why() {
        let answer = read_result(
            json!({"type": "result", "subtype": "success", "is_error": false,
                   "result": "{\"actions\":[]}", "structured_output": {"actions": []},
                   "total_cost_usd": 0.0021})
            .to_string()
            .as_bytes(),
        )
        .expect("an answer");
        assert_eq!(answer.json, br#"{"actions":[]}"#);
        assert_eq!(answer.cost_usd, Some(0.0021));

        let not_logged_in = read_result(
            json!({"type": "result", "subtype": "success", "is_error": true,
                   "terminal_reason": "api_error",
                   "result": "Not logged in · Please run /login"})
            .to_string()
            .as_bytes(),
        )
        .expect_err("an error");
        assert_eq!(
            not_logged_in.to_string(),
            "claude reported an error (api_error): Not logged in · Please run /login"
        );
        let text_only = read_result(
            json!({"subtype": "success", "is_error": false, "result": "Sure! Here you go"})
                .to_string()
                .as_bytes(),
        )
        .expect_err("no structured answer");
        assert!(
            text_only
                .to_string()
                .contains("it wrote: Sure! Here you go"),
            "{text_only}"
        );
        let garbage = read_result(b"Error: unknown option '--json-schema'\n").expect_err("garbage");
        assert!(matches!(garbage, ModelError::NotAResult(_)), "{garbage}");
    }
}
