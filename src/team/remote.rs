//! The network side of team memory (DESIGN §8): the `git` program, so the user's ssh keys and
//! credential helpers apply, never interactive (no password prompt can hang a hook or a sync).
//! Everything local stays in-process with gix.

use std::path::Path;
use std::process::{Command, Output};

use crate::Error;

/// The remote every team repository uses.
pub const REMOTE: &str = "origin";

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
        .stdin(std::process::Stdio::null());
    if std::env::var_os("GIT_SSH_COMMAND").is_none() {
        command.env("GIT_SSH_COMMAND", "ssh -o BatchMode=yes");
    }
    command
}

fn run(dir: &Path, args: &[&str], what: &str) -> Result<Output, Error> {
    git(dir).args(args).output().map_err(|source| Error::Io {
        context: format!("running git to {what} (is git installed?)"),
        source,
    })
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
    if all.contains("[rejected]") || all.contains("non-fast-forward") || all.contains("fetch first")
    {
        return Ok(Pushed::Rejected);
    }
    Err(Error::Failed(format!(
        "the team remote refused the push: {}",
        reason(&output)
    )))
}
