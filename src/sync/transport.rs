//! The network side of syncing (DESIGN §8): the `git` program, so the user's ssh keys and
//! credential helpers apply, never interactive (no password prompt can hang a hook or a sync),
//! within a time limit, and never outliving memdir ([`crate::process`]). Everything local stays
//! in-process with gix. Team memory, personal sync and the push of a promotion branch all go
//! through here.
//!
//! What the remote sends passes git's own object checks (`fetch.fsckObjects`) before it is
//! stored, all but those of names: a tree entry git would refuse to check out (`.git`, `..`,
//! `GIT~1`, a symlinked `.gitmodules`, at any depth) is fetched like any other, so that one such
//! push cannot stop every sync from then on; memdir drops it from what it merges and pushes
//! ([`crate::sync::guard`]).

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use gix::ObjectId;

use crate::process::{Ended, Supervision};
use crate::sync::SyncError;

/// The remote a clone names by default, and every team memory repository uses.
pub const ORIGIN: &str = "origin";

/// A remote as git is told it and as messages name it.
#[derive(Debug, Clone)]
pub struct Remote {
    /// What git is given: a configured remote's name (`origin`) or a URL.
    pub git: String,
    /// What messages call it: "the team remote", "your sync remote".
    pub label: &'static str,
    /// The command that tries again: "memdir team sync", "memdir sync".
    pub again: &'static str,
}

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
        .env("LC_ALL", "C")
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

/// What `git` may print (its output here is a few lines; a remote's messages past this are
/// dropped, and a stdout past it stops it).
const MAX_GIT_OUTPUT: usize = 16 * 1024 * 1024;

/// Run a `git` command to its end within `limit`; its output whatever its status.
fn run_command(
    mut command: Command,
    args: &[&str],
    what: &'static str,
    remote: &'static str,
    limit: Duration,
) -> Result<Output, SyncError> {
    command.args(args);
    let supervision = Supervision {
        time_limit: limit,
        max_stdout: MAX_GIT_OUTPUT,
        max_stderr: MAX_GIT_OUTPUT,
        kill_leftovers: false,
    };
    match crate::process::run(command, None, &supervision) {
        Ok(Ended::Exited(output)) => Ok(output),
        Ok(Ended::StdoutOverCap) => Err(SyncError::TalkedTooMuch {
            what,
            max: MAX_GIT_OUTPUT,
        }),
        Ok(Ended::TimedOut | Ended::OutputHeldOpen) => Err(SyncError::TimedOut {
            what,
            remote,
            secs: limit.as_secs(),
        }),
        Err(source) => Err(SyncError::Git {
            what,
            source: source.into(),
        }),
    }
}

fn run(
    dir: &Path,
    args: &[&str],
    what: &'static str,
    remote: &'static str,
) -> Result<Output, SyncError> {
    run_command(git(dir), args, what, remote, time_limit())
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

/// What a fetch or a clone brought.
#[derive(Debug, PartialEq, Eq)]
pub enum Fetched {
    Done,
    /// The remote has no such branch (yet).
    Missing,
    /// git's own checks refused what the remote sent (a malformed commit or tree), so nothing
    /// was stored: git's reason.
    Refused(String),
}

/// git's fsck checks of tree entry names, which memdir does itself: an entry git would refuse
/// to check out is fetched and then dropped from what memdir merges and pushes.
const NAME_CHECKS: [&str; 7] = [
    "emptyName",
    "fullPathname",
    "hasDot",
    "hasDotdot",
    "hasDotgit",
    "largePathname",
    "gitmodulesSymlink",
];

/// `-c` options for a fetch: git checks every object received but the names of tree entries.
fn checked_fetch_config() -> Vec<String> {
    let mut config = vec!["-c".to_string(), "fetch.fsckObjects=true".to_string()];
    for check in NAME_CHECKS {
        config.push("-c".into());
        config.push(format!("fetch.fsck.{check}=ignore"));
    }
    config
}

/// `Refused` with git's reason when git's object checks failed; `None` for any other failure.
fn refused(output: &Output) -> Option<Fetched> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !stderr.contains("fsck error") {
        return None;
    }
    let detail = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("error: object "))
        .map(|l| format!("object {l}"))
        .unwrap_or_else(|| reason(output));
    Some(Fetched::Refused(detail))
}

/// Clone `url` into `dest` (which must not exist) without checking anything out: memdir checks
/// the tree before it writes it. An empty remote gives an empty repository. Objects git's checks
/// refuse are never stored (and `dest` is not made).
pub fn clone(url: &str, dest: &Path, remote: &'static str) -> Result<Fetched, SyncError> {
    let parent = dest.parent().unwrap_or(Path::new("."));
    let name = dest.as_os_str().to_string_lossy();
    let mut args = checked_fetch_config();
    args.extend(
        [
            "clone",
            "--quiet",
            "--no-checkout",
            // A local path is fetched like any remote: copying its object files would skip the
            // checks, and take objects nothing refers to.
            "--no-local",
            "--no-tags",
            "--",
            url,
            &name,
        ]
        .map(str::to_string),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run(parent, &args, "clone", remote)?;
    if output.status.success() {
        return Ok(Fetched::Done);
    }
    if let Some(refused) = refused(&output) {
        return Ok(refused);
    }
    Err(SyncError::Clone {
        remote,
        url: url.to_string(),
        reason: reason(&output),
    })
}

/// Fetch from `remote`, git checking every object received: its configured branches, or only
/// `refspec` (then a branch the remote does not have yet is [`Fetched::Missing`]).
pub fn fetch(dir: &Path, remote: &Remote, refspec: Option<&str>) -> Result<Fetched, SyncError> {
    let mut args = checked_fetch_config();
    args.extend(["fetch", "--quiet", "--no-tags"].map(str::to_string));
    if refspec.is_none() {
        args.push("--prune".into());
    }
    args.push("--".into());
    args.push(remote.git.clone());
    args.extend(refspec.map(str::to_string));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run(dir, &args, "fetch", remote.label)?;
    if output.status.success() {
        return Ok(Fetched::Done);
    }
    if let Some(refused) = refused(&output) {
        return Ok(refused);
    }
    if refspec.is_some()
        && String::from_utf8_lossy(&output.stderr).contains("couldn't find remote ref")
    {
        return Ok(Fetched::Missing);
    }
    Err(SyncError::Fetch {
        remote: remote.label,
        reason: reason(&output),
    })
}

/// What a push did.
#[derive(Debug, PartialEq, Eq)]
pub enum Pushed {
    /// The branch moved; what the remote said (`remote: …` lines, such as the address at
    /// which to open a pull request).
    Done(Vec<String>),
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

/// Push `local` (a full ref or a commit id) to the remote's branch `branch`. Never forced; with
/// `lease`, the remote's branch is replaced only if it is at that commit now (`None`: only if it
/// does not exist): memdir's own promotion branches, rewritten when a memory is promoted again.
pub fn push(
    dir: &Path,
    remote: &Remote,
    local: &str,
    branch: &str,
    lease: Option<Option<ObjectId>>,
) -> Result<Pushed, SyncError> {
    let target = format!("refs/heads/{branch}");
    let refspec = format!("{local}:{target}");
    let lease = lease.map(|expected| {
        let expected = expected.map(|id| id.to_string()).unwrap_or_default();
        format!("--force-with-lease={target}:{expected}")
    });
    let mut args = vec!["push", "--porcelain"];
    args.extend(lease.as_deref());
    args.extend(["--", remote.git.as_str(), refspec.as_str()]);
    let output = run(dir, &args, "push", remote.label)?;
    if output.status.success() {
        return Ok(Pushed::Done(remote_messages(&output)));
    }
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if LOST_RACE.iter().any(|sign| all.contains(sign)) {
        return Ok(Pushed::Rejected);
    }
    Err(SyncError::Push {
        remote: remote.label,
        reason: reason(&output),
    })
}

/// The `remote: …` lines of a push that say something (GitHub's and GitLab's "create a pull
/// request" lines and their address), trimmed.
fn remote_messages(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("remote:"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// How long the check of whether a remote is public may take.
const PUBLIC_CHECK_LIMIT: Duration = Duration::from_secs(30);

/// Whether `url`, an `http://` or `https://` address, lists its branches to anyone: asked with
/// no credentials at all (no helper, no user name or password in the address, no prompt). Any
/// other address, or one that does not answer, is not known to be public.
pub fn answers_without_credentials(dir: &Path, url: &str) -> bool {
    let Some(anonymous) = crate::repo::remote_url::without_credentials(url) else {
        return false;
    };
    let mut command = git(dir);
    command
        .env_remove("GIT_ASKPASS")
        .env_remove("SSH_ASKPASS")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    let args = [
        "-c",
        "credential.helper=",
        "-c",
        "core.askPass=",
        "ls-remote",
        "--heads",
        "--",
        &anonymous,
    ];
    run_command(
        command,
        &args,
        "ls-remote",
        "the remote",
        PUBLIC_CHECK_LIMIT,
    )
    .is_ok_and(|output| output.status.success())
}
