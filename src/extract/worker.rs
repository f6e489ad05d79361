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
//!
//! The lock also makes a foreground run ([`run_in_foreground`]) wait for the worker, and
//! `--drain` ([`drain`]) wait for it within a deadline; both block on the lock itself, never
//! poll it.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::extract::state::{Attempts, Cursor, Request, git_dir, state_dir};
use crate::extract::{ExtractError, Extractor, Job, Report, Trigger, run};

/// Queue a hook's request (with the extractor it names) for the memory dir's worker and make
/// sure one runs; never waits for it. Creates the repository on first use.
pub fn enqueue(memory_dir: &Path, request: &Request) -> Result<(), ExtractError> {
    let git_dir = git_dir(memory_dir)?;
    request.stash(&git_dir)?;
    // A running worker will find the request; otherwise start one.
    if let Some(lock) = try_lock(&git_dir)? {
        drop(lock);
        spawn(&git_dir, memory_dir)?;
    }
    Ok(())
}

/// Run one session's extraction now, after the worker's run if one is under way: one extraction
/// at a time per memory dir. Creates the repository on first use.
pub fn run_in_foreground(job: &Job) -> Result<Report, ExtractError> {
    let _lock = lock(&git_dir(&job.memory_dir)?)?;
    run(job)
}

/// Hand the ranges `auto` gave the builtin extractor for want of a model to the model now
/// ([`crate::extract::redo`]), after the worker's run if one is under way.
pub fn redo_in_foreground(
    memory_dir: &Path,
    extractor: &Extractor,
    claude_model: &str,
    dry_run: bool,
    on_report: &mut dyn FnMut(Report),
) -> Result<(), ExtractError> {
    if !crate::repo::has_repository(memory_dir)? {
        return Ok(());
    }
    let _lock = lock(&git_dir(memory_dir)?)?;
    crate::extract::redo(memory_dir, extractor, claude_model, dry_run, on_report)
}

/// What `memdir extract --worker` does: serve the queued requests, unless another worker is.
pub fn serve_queued(memory_dir: &Path) -> Result<(), ExtractError> {
    let git_dir = git_dir(memory_dir)?;
    let Some(lock) = try_lock(&git_dir)? else {
        // Another worker serves this memory dir; it will see our requests.
        return Ok(());
    };
    serve(&git_dir, memory_dir, lock, &mut |_| {})
}

fn lock_path(git_dir: &Path) -> PathBuf {
    state_dir(git_dir).join("worker.lock")
}

fn lock_error(git_dir: &Path) -> impl Fn(std::io::Error) -> ExtractError + '_ {
    move |source| ExtractError::WorkerLock {
        path: lock_path(git_dir),
        source,
    }
}

/// The lock file, created when missing, not locked yet.
fn open_lock(git_dir: &Path) -> Result<File, ExtractError> {
    std::fs::create_dir_all(state_dir(git_dir)).map_err(lock_error(git_dir))?;
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_path(git_dir))
        .map_err(lock_error(git_dir))
}

/// The worker lock, if no other worker holds it.
fn try_lock(git_dir: &Path) -> Result<Option<File>, ExtractError> {
    let file = open_lock(git_dir)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(source)) => Err(lock_error(git_dir)(source)),
    }
}

/// The worker lock, once the worker that holds it lets go.
fn lock(git_dir: &Path) -> Result<File, ExtractError> {
    let file = open_lock(git_dir)?;
    file.lock().map_err(lock_error(git_dir))?;
    Ok(file)
}

/// The worker lock, waiting for the worker that holds it until `deadline` (for ever when
/// `None`); `None` when the deadline came first.
fn lock_until(git_dir: &Path, deadline: Option<Instant>) -> Result<Option<File>, ExtractError> {
    crate::input::lock_until(open_lock(git_dir)?, deadline).map_err(lock_error(git_dir))
}

/// One served request, for the log and for `--drain`'s output.
pub enum Served {
    Done(Box<Report>),
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

/// Serve stashed requests until there are none, holding `lock`, each with the extractor its
/// hook named; each result is logged, and `on_served` sees it.
fn serve(
    git_dir: &Path,
    memory_dir: &Path,
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
            let trigger = if request.event == "Stop" {
                // Trailing runs skip the throttle; a model's batch still waits for the end.
                Trigger::Stop {
                    throttled: first_pass,
                }
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
                extractor: request.extractor.extractor(),
                claude_model: request.model.clone(),
                dry_run: false,
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
                    Ok(report) => Served::Done(Box::new(report)),
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
            log(git_dir, &describe(&served));
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
fn log(git_dir: &Path, line: &str) {
    crate::log_file::append(&log_path(git_dir), line);
}

/// The log line for a served request: what ran (and why the builtin extractor, when `auto`
/// had no model), what it cost, what it did.
fn describe(served: &Served) -> String {
    match served {
        Served::Done(report) => {
            let mut line = format!(
                "{}: bytes {}..{}, {} turn(s)",
                report.session, report.from, report.to, report.turns
            );
            if let Some(extractor) = report.extractor_line() {
                line.push_str(&format!("; extractor {extractor}"));
            }
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
fn spawn(git_dir: &Path, memory_dir: &Path) -> Result<(), ExtractError> {
    let log_path = log_path(git_dir);
    let io = |source| ExtractError::StartWorker {
        log: log_path.clone(),
        source,
    };
    let log = crate::log_file::open(&log_path).map_err(io)?;
    let mut args: Vec<std::ffi::OsString> = ["extract", "--worker", "--memory-dir"]
        .map(std::ffi::OsString::from)
        .into();
    args.push(memory_dir.into());
    crate::process::spawn_detached(args, log).map_err(io)
}

/// What `--drain` served: its failures are the command's.
#[derive(Debug, Default)]
pub struct Drained {
    /// Runs that failed (retried from their cursors by their sessions' next requests).
    pub failed: usize,
    /// Requests retired: a retry cannot fix them.
    pub retired: usize,
}

impl Drained {
    /// An error when anything failed or was retired.
    pub fn into_result(self) -> Result<(), ExtractError> {
        if self.failed > 0 {
            return Err(ExtractError::RunsFailed(self.failed));
        }
        if self.retired > 0 {
            return Err(ExtractError::RequestsRetired(self.retired));
        }
        Ok(())
    }
}

/// Wait until no request is stashed and no worker runs, serving requests itself when no worker
/// is there to (one was killed, or never started); `on_served` sees each result.
pub fn drain(
    memory_dir: &Path,
    timeout: Duration,
    on_served: &mut dyn FnMut(&Served),
) -> Result<Drained, ExtractError> {
    let git_dir = git_dir(memory_dir)?;
    // No deadline when the timeout is past what an Instant can hold (never a panic).
    let deadline = Instant::now().checked_add(timeout);
    let mut drained = Drained::default();
    loop {
        let Some(lock) = lock_until(&git_dir, deadline)? else {
            return Err(ExtractError::DrainTimedOut {
                timeout,
                waiting: Request::pending(&git_dir).len(),
            });
        };
        if Request::pending(&git_dir).is_empty() {
            return Ok(drained);
        }
        serve(&git_dir, memory_dir, lock, &mut |served| {
            match served {
                Served::Failed { .. } => drained.failed += 1,
                Served::Retired { .. } => drained.retired += 1,
                Served::Done(_) => {}
            }
            on_served(served);
        })?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_for_the_lock_ends_when_the_worker_lets_go_or_at_the_deadline() {
        let dir = tempfile::tempdir().expect("tempdir");
        let git_dir = dir.path();
        let held = try_lock(git_dir).expect("lock").expect("free");
        assert!(try_lock(git_dir).expect("lock").is_none());
        let soon = Instant::now() + Duration::from_millis(50);
        assert!(lock_until(git_dir, Some(soon)).expect("lock").is_none());
        assert!(Instant::now() >= soon);
        // Let go while a waiter blocks: it gets the lock then, long before its deadline.
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            drop(held);
        });
        let later = Instant::now() + Duration::from_secs(60);
        let waited = lock_until(git_dir, Some(later)).expect("lock");
        assert!(waited.is_some() && Instant::now() < later);
        release.join().expect("released");
        drop(waited);
        // No deadline: a plain blocking wait, here for a lock nobody holds.
        assert!(lock_until(git_dir, None).expect("lock").is_some());
        drop(lock(git_dir).expect("lock"));
    }
}
