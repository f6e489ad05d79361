//! Running the agent command for one turn (DESIGN §6, §10): `/bin/sh -c CMD` in the memory dir
//! with a cleared environment, the request on its stdin, its response from its stdout (capped),
//! its stderr kept for error messages, and a time limit after which it is killed with every
//! process it started ([`ProcessTree`]); whatever it left running is killed when the turn ends.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::Instant;

use super::AgentConfig;
use super::protocol::{MAX_RESPONSE_BYTES, first_line};
use crate::extract::error::AgentFailure;
use crate::extract::process_tree::ProcessTree;

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
