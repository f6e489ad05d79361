//! Running another program under supervision (DESIGN §6, §8, §10): with a time limit, its output
//! captured up to caps, and killed with every process it started — when the limit passes, when
//! its output passes its cap, when it exits (if the caller says so), and when memdir ends in any
//! way, `SIGKILL` included. The agent extractor's command and team sync's `git` both run through
//! [`run`].
//!
//! Every kill memdir decides on itself goes through `rustix`: `kill(2)` on the process group,
//! then on each process of the program's tree that left the group ([`tree::ProcessTree`]).
//! One case is left that memdir cannot handle itself: its own death by `SIGKILL`, which runs no
//! clean-up. memdir forbids `unsafe`, so it cannot set `PR_SET_PDEATHSIG` between fork and exec
//! (`pre_exec`); instead each program's process group is led by a watchdog, a tiny `/bin/sh`
//! that waits on a pipe only memdir holds open. When memdir is done with the group it either
//! kills it (the watchdog included) or writes "done" and the watchdog leaves quietly; when the
//! pipe closes without either — memdir died, and the kernel closed its end — the watchdog kills
//! the group, itself included. That shell is kept for that one property and no other.

use std::io::{PipeWriter, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

pub mod program;
mod tree;

pub use tree::adopt_orphans;
use tree::{ProcessTree, kill_group};

/// How a program is supervised.
#[derive(Debug, Clone, Copy)]
pub struct Supervision {
    /// Past it, the program is killed with everything it started.
    pub time_limit: Duration,
    /// Its stdout is read up to this; one byte more and it is killed with everything it started.
    pub max_stdout: usize,
    /// The first this many bytes of its stderr are kept; the rest is read and dropped (so that
    /// it never blocks on a full pipe).
    pub max_stderr: usize,
    /// When it exits, kill what it started and left running (an agent's daemons), or leave that
    /// to end by itself (what `git` leaves, such as an ssh connection kept for reuse, is the
    /// user's configuration).
    pub kill_leftovers: bool,
}

/// How a supervised program ended.
#[derive(Debug)]
pub enum Ended {
    /// It exited (or was killed by someone else) within the time limit; its output.
    Exited(Output),
    /// The time limit passed before it exited: it was killed with everything it started.
    TimedOut,
    /// It exited, but something it started held its output open past the time limit: killed.
    OutputHeldOpen,
    /// Its stdout passed [`Supervision::max_stdout`]: it was killed with everything it started.
    StdoutOverCap,
}

/// What kept a program from being run or watched to its end.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Start(#[source] std::io::Error),
    #[error("waiting for it: {0}")]
    Wait(#[source] std::io::Error),
    #[error("reading its output: {0}")]
    Read(#[source] std::io::Error),
}

impl From<RunError> for std::io::Error {
    fn from(e: RunError) -> std::io::Error {
        match e {
            RunError::Start(e) | RunError::Wait(e) | RunError::Read(e) => e,
        }
    }
}

/// The watchdog: the group is killed unless the first line on stdin is `done`.
const WATCHDOG: &str = r#"IFS= read -r line; [ "$line" = done ] || kill -s KILL 0"#;

/// Run `command` to its end under `supervision`: `stdin` written to it when given (otherwise its
/// stdin is the caller's to set), its stdout and stderr captured.
pub fn run(
    mut command: Command,
    stdin: Option<Vec<u8>>,
    supervision: &Supervision,
) -> Result<Ended, RunError> {
    // The pipe is close-on-exec: only the watchdog's stdin and memdir's writer hold it.
    let (reader, alarm) = std::io::pipe().map_err(RunError::Start)?;
    let mut watchdog = Command::new("/bin/sh")
        .args(["-c", WATCHDOG])
        .stdin(reader)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(RunError::Start)?;
    let group = watchdog.id();
    if stdin.is_some() {
        command.stdin(Stdio::piped());
    }
    let child = i32::try_from(group)
        .map_err(std::io::Error::other)
        .and_then(|group| {
            command
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .process_group(group)
                .spawn()
        });
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            kill_group(group);
            let _ = watchdog.wait();
            return Err(RunError::Start(e));
        }
    };
    let group = Group {
        watchdog,
        alarm: Some(alarm),
        tree: ProcessTree::of(group, child.id()),
    };
    let tree = group.tree;
    if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
        // A program that does not read its input gets a broken pipe: not an error by itself.
        thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        drop(group);
        let _ = child.wait();
        return Err(RunError::Start(std::io::Error::other(
            "its output pipes could not be set up",
        )));
    };
    let max_stdout = supervision.max_stdout;
    let (out_tx, out_rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = out_tx.send(read_capped(stdout, max_stdout, tree));
    });
    let max_stderr = supervision.max_stderr;
    let (err_tx, err_rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = err_tx.send(read_head(stderr, max_stderr));
    });
    let (exit_tx, exit_rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = exit_tx.send(child.wait());
    });

    let limit = supervision.time_limit;
    // No deadline at all when the limit is past what an Instant can hold (never a panic).
    let deadline = Instant::now().checked_add(limit);
    let remaining = || deadline.map_or(limit, |d| d.saturating_duration_since(Instant::now()));
    let status = match exit_rx.recv_timeout(limit) {
        Ok(status) => status.map_err(RunError::Wait)?,
        Err(_) => {
            drop(group);
            let _ = exit_rx.recv();
            return Ok(Ended::TimedOut);
        }
    };
    // It exited; its output ends when whatever it started lets go of the pipes.
    let Ok(stdout) = out_rx.recv_timeout(remaining()) else {
        return Ok(Ended::OutputHeldOpen);
    };
    let stderr = err_rx.recv_timeout(remaining()).unwrap_or_default();
    let stdout = match stdout {
        Ok(stdout) => stdout,
        Err(Capped::Over) => return Ok(Ended::StdoutOverCap),
        Err(Capped::Io(e)) => return Err(RunError::Read(e)),
    };
    if !supervision.kill_leftovers {
        group.release();
    }
    Ok(Ended::Exited(Output {
        status,
        stdout,
        stderr,
    }))
}

/// A program's process group, led by its watchdog. Dropped, it is killed with the program's
/// whole tree (through `rustix`) and the watchdog is reaped; [`Group::release`] lets it be.
struct Group {
    watchdog: Child,
    /// The watchdog's stdin: closed without "done", the watchdog kills the group.
    alarm: Option<PipeWriter>,
    tree: ProcessTree,
}

impl Group {
    /// The program ended and what it left may stay: the watchdog leaves quietly.
    fn release(mut self) {
        if let Some(mut alarm) = self.alarm.take() {
            let _ = alarm.write_all(b"done\n");
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if self.alarm.is_some() {
            // memdir kills the group itself, the watchdog with it, before the pipe closes.
            self.tree.kill();
            self.alarm = None;
        }
        let _ = self.watchdog.wait();
    }
}

enum Capped {
    Over,
    Io(std::io::Error),
}

/// Read a stream to its end; over `max` bytes, kill the program's tree instead of reading on.
fn read_capped(stream: impl Read, max: usize, tree: ProcessTree) -> Result<Vec<u8>, Capped> {
    let mut out = Vec::new();
    stream
        .take(u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut out)
        .map_err(Capped::Io)?;
    if out.len() > max {
        tree.kill();
        return Err(Capped::Over);
    }
    Ok(out)
}

/// Keep the first `max` bytes of a stream and drain the rest (so the writer never blocks on us).
fn read_head(mut stream: impl Read, max: usize) -> Vec<u8> {
    let mut head = Vec::new();
    let _ = (&mut stream)
        .take(u64::try_from(max).unwrap_or(u64::MAX))
        .read_to_end(&mut head);
    let _ = std::io::copy(&mut stream, &mut std::io::sink());
    head
}

/// Start memdir itself again with `args`, detached: in its own process group, stdin and stdout
/// closed, stderr to `log`. The caller returns at once; the child outlives it (the extraction
/// worker, background packing, the refresh of `verify`'s cache).
pub fn spawn_detached<I, S>(args: I, log: std::fs::File) -> std::io::Result<()>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut command = Command::new(std::env::current_exe()?);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .process_group(0);
    command.spawn().map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn supervision(time_limit: Duration) -> Supervision {
        Supervision {
            time_limit,
            max_stdout: 1024,
            max_stderr: 4,
            kill_leftovers: false,
        }
    }

    /// `sh -c SCRIPT` with `$1` a file to write a pid to.
    fn writing_a_pid(script: &str) -> (tempfile::TempDir, std::path::PathBuf, Command) {
        let dir = tempfile::tempdir().expect("tempdir");
        let pid_file = dir.path().join("pid");
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(script).arg("sh").arg(&pid_file);
        (dir, pid_file, command)
    }

    /// Gone, or a zombie waiting for its reaper, within a generous while.
    fn dies(pid: &str) -> bool {
        let dead = || {
            std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
                .map_or(true, |s| s.contains(") Z"))
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !dead() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        dead()
    }

    #[test]
    fn a_program_that_ends_in_time_gives_its_output() {
        let mut command = Command::new("/bin/sh");
        command.args(["-c", "cat; echo err >&2; exit 3"]);
        let ended = run(
            command,
            Some(b"in\n".to_vec()),
            &supervision(Duration::from_secs(30)),
        );
        let Ok(Ended::Exited(output)) = ended else {
            panic!("the program did not run to its end: {ended:?}");
        };
        assert_eq!(output.stdout, b"in\n");
        assert_eq!(output.stderr, b"err\n");
        assert_eq!(output.status.code(), Some(3));
    }

    #[test]
    fn output_over_its_cap_kills_the_program_and_stderr_keeps_its_head() {
        let mut command = Command::new("/bin/sh");
        command.args(["-c", "echo 123456789 >&2; yes"]);
        let ended = run(command, None, &supervision(Duration::from_secs(30)));
        assert!(matches!(ended, Ok(Ended::StdoutOverCap)), "{ended:?}");
        let mut command = Command::new("/bin/sh");
        command.args(["-c", "echo 123456789 >&2"]);
        let Ok(Ended::Exited(output)) = run(command, None, &supervision(Duration::from_secs(30)))
        else {
            panic!("the program did not run to its end");
        };
        assert_eq!(output.stderr, b"1234");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_program_past_its_limit_is_killed_with_what_it_started() {
        // A grandchild holding the output pipe: killed too, or this would never return.
        let (_dir, pid_file, command) = writing_a_pid(r#"sleep 300 & echo $! > "$1"; wait"#);
        let ended = run(command, None, &supervision(Duration::from_millis(300))).expect("runs");
        assert!(matches!(ended, Ended::TimedOut), "{ended:?}");
        let pid = std::fs::read_to_string(&pid_file).expect("pid");
        assert!(dies(&pid), "sleep {pid} survived");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn leftovers_are_killed_when_asked_and_left_otherwise() {
        for kill_leftovers in [true, false] {
            let (_dir, pid_file, command) =
                writing_a_pid(r#"sleep 300 </dev/null >/dev/null 2>&1 & echo $! > "$1""#);
            let supervision = Supervision {
                kill_leftovers,
                ..supervision(Duration::from_secs(30))
            };
            let ended = run(command, None, &supervision).expect("runs");
            assert!(matches!(ended, Ended::Exited(_)), "{ended:?}");
            let pid = std::fs::read_to_string(&pid_file).expect("pid");
            let alive = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
                .is_ok_and(|s| !s.contains(") Z"));
            if kill_leftovers {
                assert!(dies(&pid), "sleep {pid} survived");
            } else {
                assert!(alive, "sleep {pid} was killed");
                let _ = Command::new("kill").args(["-KILL", pid.trim()]).status();
            }
        }
    }
}
