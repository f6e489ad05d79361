//! Running the agent command for one turn (DESIGN §6, §10): `/bin/sh -c CMD` in the memory dir,
//! with an environment cleared but for what a shell and Claude Code need, under
//! [`crate::process`]'s supervision: the request on its stdin, its response from its stdout
//! (capped), the head of its stderr for error messages, a time limit, and every process it
//! started killed when the turn ends, whether it answered or not.

use std::path::Path;
use std::process::Command;

use super::AgentConfig;
use super::protocol::{MAX_RESPONSE_BYTES, first_line};
use crate::extract::error::AgentFailure;
use crate::process::{Ended, RunError, Supervision};

/// The command's stderr is kept up to this, for error messages.
const MAX_STDERR_BYTES: usize = 16 * 1024;

/// Run the command once: `input` on its stdin, its stdout back.
pub fn invoke(config: &AgentConfig, cwd: &Path, input: Vec<u8>) -> Result<Vec<u8>, AgentFailure> {
    let mut command = Command::new("/bin/sh");
    command
        .arg("-c")
        .arg(&config.cmd)
        .current_dir(cwd)
        .env_clear()
        .envs(std::env::vars_os().filter(|(name, _)| passes_through(name)));
    let supervision = Supervision {
        time_limit: config.turn_timeout,
        max_stdout: MAX_RESPONSE_BYTES,
        max_stderr: MAX_STDERR_BYTES,
        // Nothing it started outlives the turn (setsid, double forks and all).
        kill_leftovers: true,
    };
    match crate::process::run(command, Some(input), &supervision) {
        Ok(Ended::Exited(output)) if output.status.success() => Ok(output.stdout),
        Ok(Ended::Exited(output)) => Err(AgentFailure::Exited {
            status: output.status,
            stderr: first_line(&output.stderr),
        }),
        Ok(Ended::TimedOut) => Err(AgentFailure::TimedOut(config.turn_timeout)),
        Ok(Ended::OutputHeldOpen) => Err(AgentFailure::OutputHeldOpen(config.turn_timeout)),
        Ok(Ended::StdoutOverCap) => Err(AgentFailure::ResponseTooBig(MAX_RESPONSE_BYTES)),
        Err(RunError::Start(e)) => Err(AgentFailure::Start(e)),
        Err(RunError::Wait(e)) => Err(AgentFailure::Wait(e)),
        Err(RunError::Read(e)) => Err(AgentFailure::ReadResponse(e)),
    }
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
