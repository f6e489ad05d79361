//! Running another program so that it cannot outlive memdir (DESIGN §10): it runs in a process
//! group of its own with a time limit, and the whole group (whatever the program started too,
//! such as the `ssh` under `git fetch`) is killed when the limit passes or when memdir ends in
//! any way, `SIGKILL` included.
//!
//! memdir forbids `unsafe`, so it cannot set `PR_SET_PDEATHSIG` between fork and exec, and a
//! process killed with `SIGKILL` runs no clean-up. Instead a watchdog, a tiny `/bin/sh` that leads
//! the group, waits on a pipe only memdir holds open: when memdir says "done" it leaves quietly;
//! when the pipe closes without it (the time limit passed, or memdir died and the kernel closed
//! its end), it kills the group, itself included.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How a supervised program ended.
#[derive(Debug)]
pub enum Ended {
    /// It exited (or was killed by someone else); its output.
    Exited(Output),
    /// The time limit passed: it was killed with its whole process group.
    TimedOut,
}

/// The watchdog: the group is killed unless the first line on stdin is `done`.
#[cfg(unix)]
const WATCHDOG: &str = r#"IFS= read -r line; [ "$line" = done ] || kill -s KILL 0"#;

/// Run `command` to its end with its stdout and stderr captured (its stdin is the caller's to
/// set), killed with everything it started after `limit` or when memdir dies.
#[cfg(unix)]
pub fn output_within(mut command: Command, limit: Duration) -> std::io::Result<Ended> {
    use std::os::unix::process::CommandExt;

    // The pipe is close-on-exec: only the watchdog's stdin and memdir's writer hold it.
    let (reader, mut writer) = std::io::pipe()?;
    let mut watchdog = Command::new("/bin/sh")
        .args(["-c", WATCHDOG])
        .stdin(reader)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    let group = i32::try_from(watchdog.id()).map_err(std::io::Error::other);
    let child = group.and_then(|group| {
        command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(group)
            .spawn()
    });
    let child = match child {
        Ok(child) => child,
        Err(e) => {
            drop(writer);
            let _ = watchdog.wait();
            return Err(e);
        }
    };
    let (finished, finished_rx) = mpsc::channel::<()>();
    let timer = std::thread::spawn(move || match finished_rx.recv_timeout(limit) {
        Ok(()) => {
            let _ = writer.write_all(b"done\n");
            false
        }
        // The writer goes with this thread: the watchdog kills the group.
        Err(_) => true,
    });
    let output = child.wait_with_output();
    let _ = finished.send(());
    let timed_out = timer.join().unwrap_or(true);
    let _ = watchdog.wait();
    let output = output?;
    if timed_out && !output.status.success() {
        return Ok(Ended::TimedOut);
    }
    Ok(Ended::Exited(output))
}

/// Elsewhere there are no process groups: the program runs to its end.
#[cfg(not(unix))]
pub fn output_within(mut command: Command, _limit: Duration) -> std::io::Result<Ended> {
    command.output().map(Ended::Exited)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_ends_in_time_gives_its_output() {
        let mut command = Command::new("/bin/sh");
        command.args(["-c", "echo out; echo err >&2; exit 3"]);
        let Ok(Ended::Exited(output)) = output_within(command, Duration::from_secs(30)) else {
            panic!("the program did not run to its end");
        };
        assert_eq!(output.stdout, b"out\n");
        assert_eq!(output.stderr, b"err\n");
        assert_eq!(output.status.code(), Some(3));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_program_past_its_limit_is_killed_with_what_it_started() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pid_file = dir.path().join("pid");
        let mut command = Command::new("/bin/sh");
        // A grandchild holding the output pipe: killed too, or this would never return.
        command
            .arg("-c")
            .arg(r#"sleep 300 & echo $! > "$1"; wait"#)
            .arg("sh")
            .arg(&pid_file);
        let ended = output_within(command, Duration::from_millis(300)).expect("runs");
        assert!(matches!(ended, Ended::TimedOut), "{ended:?}");
        let pid = std::fs::read_to_string(&pid_file).expect("pid");
        // SIGKILL was sent to the group; its members die a moment later. Gone, or a zombie
        // waiting for its reaper, within a generous while (never a live `sleep 300`).
        let dead = || {
            std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
                .map_or(true, |s| s.contains(") Z"))
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !dead() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(dead(), "sleep {pid} survived");
    }
}
