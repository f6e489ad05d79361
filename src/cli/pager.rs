//! The pager (DESIGN §11): the long output of `log`, `diff`, `show` and `review` goes through
//! `$MEMDIR_PAGER`, else `$PAGER`, else `less -FRX`, as git's does — only when stdout is a
//! terminal, so never in hooks, MCP or pipes, and never with `--no-pager`. An empty pager or
//! `cat` means none. `less` gets `LESS=FRX` unless `LESS` is set: it quits at once when the
//! output fits the screen, shows colour, and leaves the text on the screen.
//!
//! The pager starts with the command's first byte of output, so a command that fails before
//! printing never flashes one. While it runs, Ctrl-C is the pager's (it reaches both): memdir
//! waits for the pager to end instead of dying under it and handing the terminal back to the
//! shell while the pager still draws on it.

use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::cli::program::user_command;
use crate::env::Environment;

/// The pager when none is set.
const DEFAULT_PAGER: &str = "less -FRX";

/// The pager's command line: `$MEMDIR_PAGER`, else `$PAGER`, else `less -FRX`; `None` when the
/// one set is empty or `cat`.
pub fn pager_command(env: &Environment) -> Option<String> {
    let chosen = chosen_pager(env).unwrap_or_else(|| DEFAULT_PAGER.to_string());
    let trimmed = chosen.trim();
    (!trimmed.is_empty() && trimmed != "cat").then(|| trimmed.to_string())
}

/// The pager a person set, if any.
fn chosen_pager(env: &Environment) -> Option<String> {
    env.var_raw("MEMDIR_PAGER")
        .or_else(|| env.var_raw("PAGER"))
        .map(|v| v.to_string_lossy().into_owned())
}

/// stdout of a command whose output is paged: the pager, started at the first write, or stdout
/// itself when the pager could not start.
pub struct PagedStdout {
    env: Environment,
    state: State,
    /// Why the pager did not start, or what it said on leaving, for a warning.
    problem: Option<String>,
}

enum State {
    NotYet,
    Paging {
        child: Child,
        stdin: ChildStdin,
        command: String,
        _ctrl_c: signal_hook::SigId,
    },
    Direct(std::io::Stdout),
}

impl PagedStdout {
    /// stdout, to be paged through the pager `env` names once something is written.
    pub fn new(env: &Environment) -> PagedStdout {
        PagedStdout {
            env: env.clone(),
            state: State::NotYet,
            problem: None,
        }
    }

    fn start(&mut self) -> State {
        let Some(line) = pager_command(&self.env) else {
            return State::Direct(std::io::stdout());
        };
        let started = user_command(&line, &[], &self.env).and_then(|mut command| {
            if self.env.var_raw("LESS").is_none() {
                command.env("LESS", "FRX");
            }
            command
                .stdin(Stdio::piped())
                .spawn()
                .map_err(|e| e.to_string())
        });
        let mut child = match started {
            Ok(child) => child,
            // Without `less` and with no pager set, the text is simply printed.
            Err(_) if chosen_pager(&self.env).is_none() => {
                return State::Direct(std::io::stdout());
            }
            Err(why) => {
                self.problem = Some(format!(
                    "cannot start the pager `{line}` ({why}); printed without it (MEMDIR_PAGER or PAGER sets it, --no-pager turns it off)"
                ));
                return State::Direct(std::io::stdout());
            }
        };
        let Some(stdin) = child.stdin.take() else {
            return State::Direct(std::io::stdout());
        };
        let ctrl_c = signal_hook::flag::register(
            signal_hook::consts::SIGINT,
            Arc::new(AtomicBool::new(false)),
        );
        match ctrl_c {
            Ok(ctrl_c) => State::Paging {
                child,
                stdin,
                command: line,
                _ctrl_c: ctrl_c,
            },
            // Without the handler, memdir could die under the pager: print without it.
            Err(e) => {
                drop(stdin);
                let _ = child.kill();
                let _ = child.wait();
                self.problem = Some(format!("cannot start the pager: {e}"));
                State::Direct(std::io::stdout())
            }
        }
    }

    /// Close the pager's input and wait until the person leaves it; what went wrong with it, if
    /// anything, for a warning.
    pub fn finish(mut self) -> Option<String> {
        let _ = self.flush();
        if let State::Paging {
            mut child,
            stdin,
            command,
            ..
        } = std::mem::replace(&mut self.state, State::NotYet)
        {
            drop(stdin);
            match child.wait() {
                // `sh -c` says 127 when the program is not found, 126 when it cannot run.
                Ok(status) if matches!(status.code(), Some(126 | 127)) => {
                    self.problem.get_or_insert(format!(
                        "the pager `{command}` could not run (exit {})",
                        status.code().unwrap_or_default()
                    ));
                }
                Ok(_) => {}
                Err(e) => {
                    self.problem
                        .get_or_insert(format!("waiting for the pager `{command}`: {e}"));
                }
            }
        }
        self.problem
    }
}

impl Write for PagedStdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if matches!(self.state, State::NotYet) {
            self.state = self.start();
        }
        match &mut self.state {
            State::Paging { stdin, .. } => stdin.write(buf),
            State::Direct(stdout) => stdout.write(buf),
            State::NotYet => Ok(0),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.state {
            State::Paging { stdin, .. } => stdin.flush(),
            State::Direct(stdout) => stdout.flush(),
            State::NotYet => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> Environment {
        Environment::from_vars(vars.iter().copied(), std::path::PathBuf::from("/"))
    }

    #[test]
    fn the_pager_is_memdirs_then_the_users_then_less() {
        assert_eq!(pager_command(&env(&[])).as_deref(), Some("less -FRX"));
        assert_eq!(
            pager_command(&env(&[("PAGER", "more")])).as_deref(),
            Some("more")
        );
        assert_eq!(
            pager_command(&env(&[("PAGER", "more"), ("MEMDIR_PAGER", "most")])).as_deref(),
            Some("most")
        );
        assert_eq!(
            pager_command(&env(&[("PAGER", "")])),
            None,
            "set empty: none"
        );
        assert_eq!(pager_command(&env(&[("MEMDIR_PAGER", "cat")])), None);
    }
}
