//! The network side of team memory (DESIGN §8): the `git` program, so the user's ssh keys and
//! credential helpers apply, never interactive (no password prompt can hang a hook or a sync),
//! within a time limit, and never outliving memdir ([`crate::process`]). Everything local stays
//! in-process with gix.

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use crate::Error;
use crate::process::{Ended, output_within};

/// The remote every team repository uses.
pub const REMOTE: &str = "origin";

/// How long one `git` command may take unless `MEMDIR_GIT_TIMEOUT` (seconds) says otherwise: a
/// remote that stops answering must not hold a sync, and the store's lock, forever.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(300);

fn time_limit() -> Duration {
    std::env::var("MEMDIR_GIT_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|secs| *secs > 0)
        .map_or(DEFAULT_TIME_LIMIT, Duration::from_secs)
}

fn git(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GCM_INTERACTIVE", "never")
        // A hook's environment must not redirect this repository.
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .env_remove("GIT_ALTERNATE_OBJECT_DIRECTORIES")
        .stdin(std::process::Stdio::null());
    // The user's own settings win; these only give up on a stalled connection sooner than the
    // overall time limit would.
    if std::env::var_os("GIT_SSH_COMMAND").is_none() {
        command.env(
            "GIT_SSH_COMMAND",
            "ssh -o BatchMode=yes -o ConnectTimeout=30 -o ServerAliveInterval=15 -o ServerAliveCountMax=4",
        );
    }
    if std::env::var_os("GIT_HTTP_LOW_SPEED_LIMIT").is_none() {
        command
            .env("GIT_HTTP_LOW_SPEED_LIMIT", "1000")
            .env("GIT_HTTP_LOW_SPEED_TIME", "60");
    }
    command
}

/// Run a `git` command to its end within the time limit; its output whatever its status.
fn run_command(mut command: Command, args: &[&str], what: &str) -> Result<Output, Error> {
    command.args(args);
    let limit = time_limit();
    match output_within(command, limit) {
        Ok(Ended::Exited(output)) => Ok(output),
        Ok(Ended::TimedOut) => Err(Error::Failed(format!(
            "git {what} did not finish within {} s (the team remote does not answer); it was stopped, and MEMDIR_GIT_TIMEOUT sets the limit in seconds",
            limit.as_secs()
        ))),
        Err(source) => Err(Error::Io {
            context: format!("running git to {what} (is git installed?)"),
            source,
        }),
    }
}

fn run(dir: &Path, args: &[&str], what: &str) -> Result<Output, Error> {
    run_command(git(dir), args, what)
}

/// git's own first error line, for a one-line message.
fn reason(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("fatal:") || l.starts_with("error:") || l.contains("denied"))
        .or_else(|| stderr.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("git failed without a message")
        .trim_start_matches("fatal: ")
        .trim_start_matches("error: ")
        .to_string()
}

/// Clone `url` into `dest` (which must not exist); an empty remote gives an empty repository.
pub fn clone(url: &str, dest: &Path) -> Result<(), Error> {
    let parent = dest.parent().unwrap_or(Path::new("."));
    let name = dest.as_os_str().to_string_lossy();
    let output = run(parent, &["clone", "--quiet", "--", url, &name], "clone")?;
    if output.status.success() {
        return Ok(());
    }
    Err(Error::Failed(format!(
        "cannot clone the team remote {url}: {}",
        reason(&output)
    )))
}

/// Fetch the remote's branches.
pub fn fetch(dir: &Path) -> Result<(), Error> {
    let output = run(dir, &["fetch", "--quiet", "--prune", REMOTE], "fetch")?;
    if output.status.success() {
        return Ok(());
    }
    Err(Error::Failed(format!(
        "cannot fetch from the team remote: {}",
        reason(&output)
    )))
}

/// What a push did.
#[derive(Debug, PartialEq, Eq)]
pub enum Pushed {
    Done,
    /// The remote moved on meanwhile: fetch, merge and try again.
    Rejected,
}

/// What git says when a push lost to another: the branch had moved (`[rejected]`,
/// non-fast-forward, "fetch first"), or another push held or changed it while this one was
/// updating it (a `[remote rejected]` with "cannot lock ref", "failed to update ref",
/// "incorrect old value"). A `[remote rejected]` for any other reason (a hook declined, no
/// permission) is no race and is not retried.
const LOST_RACE: [&str; 8] = [
    "[rejected]",
    "non-fast-forward",
    "fetch first",
    "cannot lock ref",
    "failed to update ref",
    "failed to lock",
    "incorrect old value",
    "stale info",
];

/// Push `branch` to the remote's branch of the same name; never forced.
pub fn push(dir: &Path, branch: &str) -> Result<Pushed, Error> {
    let refspec = format!("refs/heads/{branch}:refs/heads/{branch}");
    let output = run(
        dir,
        &["push", "--quiet", "--porcelain", REMOTE, &refspec],
        "push",
    )?;
    if output.status.success() {
        return Ok(Pushed::Done);
    }
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if LOST_RACE.iter().any(|sign| all.contains(sign)) {
        return Ok(Pushed::Rejected);
    }
    Err(Error::Failed(format!(
        "the team remote refused the push: {}",
        reason(&output)
    )))
}
