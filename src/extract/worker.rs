//! The background worker (DESIGN §6): one per memory dir, holding `.git/memdir/worker.lock`.
//!
//! A hook stashes its request (newest per session wins), then starts a worker unless the lock
//! is held. The worker serves every stashed request; requests that arrive while it runs are
//! served by trailing passes, which skip the throttle. Before it exits it lets go of the lock
//! and looks once more: a request stashed between its last look and the release would otherwise
//! wait for the next hook. A worker killed mid-run leaves its request stashed and the session's
//! cursor where it was; the next worker (or `--drain`) does the work again, up to
//! [`Attempts::LIMIT`] times from the same place.
//!
//! A poisoned request never stops the worker (DESIGN §10): a run that fails is logged and its
//! request removed (the session's next request retries from the cursor), one that fails for a
//! reason a retry cannot fix (its transcript is a FIFO, a device, gone) is retired, and one that
//! keeps killing the workers that serve it is retired after [`Attempts::LIMIT`] of them, so the
//! requests behind it are served.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::extract::state::{Attempts, Cursor, Request, state_dir};
use crate::extract::{ExtractError, Extractor, Job, Report, Trigger, run};

fn lock_path(git_dir: &Path) -> PathBuf {
    state_dir(git_dir).join("worker.lock")
}

/// The worker lock, if no other worker holds it.
pub fn try_lock(git_dir: &Path) -> Result<Option<File>, ExtractError> {
    let path = lock_path(git_dir);
    let io = |source| ExtractError::WorkerLock {
        path: path.clone(),
        source,
    };
    std::fs::create_dir_all(state_dir(git_dir)).map_err(io)?;
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(source)) => Err(io(source)),
    }
}

/// One served request, for the log and for `--drain`'s output.
pub enum Served {
    Done(Report),
    /// The run failed; the session's next request retries from its cursor.
    Failed {
        session: String,
        error: String,
    },
    /// The request failed for a reason a retry cannot fix, or kept killing its workers.
    Retired {
        session: String,
        why: String,
    },
}

/// Serve stashed requests until there are none, holding `lock`; `on_served` sees each result.
pub fn serve(
    git_dir: &Path,
    memory_dir: &Path,
    extractor: &Extractor,
    lock: File,
    on_served: &mut dyn FnMut(&Served),
) -> Result<(), ExtractError> {
    let mut lock = Some(lock);
    let mut first_pass = true;
    loop {
        let pending = Request::pending(git_dir);
        if pending.is_empty() {
            drop(lock.take());
            if Request::pending(git_dir).is_empty() {
                return Ok(());
            }
            match try_lock(git_dir)? {
                Some(again) => lock = Some(again),
                // Another worker took over.
                None => return Ok(()),
            }
            first_pass = false;
            continue;
        }
        for (path, request) in pending {
            let trigger = if first_pass && request.event == "Stop" {
                Trigger::Hook
            } else {
                Trigger::Final
            };
            let job = Job {
                session: request.session.clone(),
                transcript: request.transcript.clone(),
                project: request.project.clone(),
                memory_dir: memory_dir.to_path_buf(),
                trigger,
                every: request.every,
                extractor: extractor.clone(),
            };
            let session = request.session.clone();
            let offset = Cursor::load(git_dir, &session).offset;
            let unfinished = Attempts::begin(git_dir, &session, &request.transcript, offset)?;
            let served = if unfinished >= Attempts::LIMIT {
                // Kept counted: a later request for the same place is retired at once.
                Served::Retired {
                    session,
                    why: format!(
                        "{unfinished} workers stopped while serving it from byte {offset} of {} \
                         (crashed or killed); extract it in the foreground to see why",
                        request.transcript.display()
                    ),
                }
            } else {
                let result = run(&job);
                Attempts::end(git_dir, &session)?;
                match result {
                    Ok(report) => Served::Done(report),
                    Err(e) if e.is_invalid_input() => Served::Retired {
                        session,
                        why: format!("{e} (bad input: retrying this request cannot help)"),
                    },
                    Err(e) => Served::Failed {
                        session,
                        error: e.to_string(),
                    },
                }
            };
            on_served(&served);
            // A failed run is retried from the old cursor by the session's next request.
            request.done(&path)?;
        }
        first_pass = false;
    }
}

/// `.git/memdir/worker.log`: what each run did, and what went wrong in the hooks.
pub fn log_path(git_dir: &Path) -> PathBuf {
    state_dir(git_dir).join("worker.log")
}

/// Append one line to the worker log (best effort: the log is for people; capped, see
/// [`crate::log_file`]).
pub fn log(git_dir: &Path, line: &str) {
    crate::log_file::append(&log_path(git_dir), line);
}

/// The log line for a served request.
pub fn describe(served: &Served) -> String {
    match served {
        Served::Done(report) => {
            let mut line = format!(
                "{}: bytes {}..{}, {} turn(s)",
                report.session, report.from, report.to, report.turns
            );
            if let Some(why) = &report.skipped {
                line.push_str(&format!("; skipped: {why}"));
            }
            for outcome in &report.outcomes {
                line.push_str("; ");
                line.push_str(&outcome.line());
            }
            line
        }
        Served::Failed { session, error } => format!(
            "{session}: failed: {error} (the session's next request retries from its cursor)"
        ),
        Served::Retired { session, why } => format!("{session}: retired: {why}"),
    }
}

/// Start a detached worker for `memory_dir`: its own process group, no terminal, output to the
/// log. The caller returns at once; the worker outlives it.
pub fn spawn(
    git_dir: &Path,
    memory_dir: &Path,
    extractor_args: &[String],
) -> Result<(), ExtractError> {
    let exe = std::env::current_exe().map_err(ExtractError::FindExecutable)?;
    let log_path = log_path(git_dir);
    let io = |source| ExtractError::StartWorker {
        log: log_path.clone(),
        source,
    };
    let log = crate::log_file::open(&log_path).map_err(io)?;
    let mut command = std::process::Command::new(exe);
    command
        .arg("extract")
        .arg("--worker")
        .arg("--memory-dir")
        .arg(memory_dir)
        .args(extractor_args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command.spawn().map_err(io)?;
    Ok(())
}

/// Wait until no request is stashed and no worker runs, serving requests itself when no worker
/// is there to (one was killed, or never started).
pub fn drain(
    git_dir: &Path,
    memory_dir: &Path,
    extractor: &Extractor,
    timeout: Duration,
    on_served: &mut dyn FnMut(&Served),
) -> Result<(), ExtractError> {
    // No deadline when the timeout is past what an Instant can hold (never a panic).
    let deadline = Instant::now().checked_add(timeout);
    loop {
        if let Some(lock) = try_lock(git_dir)? {
            if Request::pending(git_dir).is_empty() {
                return Ok(());
            }
            serve(git_dir, memory_dir, extractor, lock, on_served)?;
            continue;
        }
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return Err(ExtractError::DrainTimedOut {
                timeout,
                waiting: Request::pending(git_dir).len(),
            });
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
