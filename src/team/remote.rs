//! The network side of team memory (DESIGN §8): the `git` program, so the user's ssh keys and
//! credential helpers apply, never interactive (no password prompt can hang a hook or a sync),
//! within a time limit, and never outliving memdir ([`crate::process`]). Everything local stays
//! in-process with gix.
//!
//! What the remote sends passes git's own object checks (`fetch.fsckObjects`) before it is
//! stored; memdir's checks of the trees themselves are [`crate::team::guard`]'s.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use crate::process::{Ended, Supervision};
use crate::team::TeamError;

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

/// Run a `git` command to its end within the time limit; its output whatever its status.
fn run_command(
    mut command: Command,
    args: &[&str],
    what: &'static str,
) -> Result<Output, TeamError> {
    command.args(args);
    let limit = time_limit();
    let supervision = Supervision {
        time_limit: limit,
        max_stdout: MAX_GIT_OUTPUT,
        max_stderr: MAX_GIT_OUTPUT,
        kill_leftovers: false,
    };
    match crate::process::run(command, None, &supervision) {
        Ok(Ended::Exited(output)) => Ok(output),
        Ok(Ended::StdoutOverCap) => Err(TeamError::TalkedTooMuch {
            what,
            max: MAX_GIT_OUTPUT,
        }),
        Ok(Ended::TimedOut | Ended::OutputHeldOpen) => Err(TeamError::TimedOut {
            what,
            secs: limit.as_secs(),
        }),
        Err(source) => Err(TeamError::Git {
            what,
            source: source.into(),
        }),
    }
}

fn run(dir: &Path, args: &[&str], what: &'static str) -> Result<Output, TeamError> {
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

fn cannot_fetch(output: &Output) -> TeamError {
    TeamError::Fetch(reason(output))
}

/// What a fetch or a clone brought.
#[derive(Debug, PartialEq, Eq)]
pub enum Fetched {
    Done,
    /// git's own checks refused what the remote sent (a tree entry `../x` or `.git`, a malformed
    /// commit), so nothing was stored: git's reason.
    Refused(String),
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
pub fn clone(url: &str, dest: &Path) -> Result<Fetched, TeamError> {
    let parent = dest.parent().unwrap_or(Path::new("."));
    let name = dest.as_os_str().to_string_lossy();
    let output = run(
        parent,
        &[
            "-c",
            "fetch.fsckObjects=true",
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
        ],
        "clone",
    )?;
    if output.status.success() {
        return Ok(Fetched::Done);
    }
    if let Some(refused) = refused(&output) {
        return Ok(refused);
    }
    Err(TeamError::Clone {
        url: url.to_string(),
        reason: reason(&output),
    })
}

/// Fetch the remote's branches, git checking every object received.
pub fn fetch(dir: &Path) -> Result<Fetched, TeamError> {
    let output = run(
        dir,
        &[
            "-c",
            "fetch.fsckObjects=true",
            "fetch",
            "--quiet",
            "--prune",
            "--no-tags",
            REMOTE,
        ],
        "fetch",
    )?;
    if output.status.success() {
        return Ok(Fetched::Done);
    }
    if let Some(refused) = refused(&output) {
        return Ok(refused);
    }
    Err(cannot_fetch(&output))
}

/// A throwaway repository, `.git/memdir/quarantine`, that borrows the team clone's objects and
/// config: what is fetched into it never enters the clone. Removed when dropped (and, if a
/// killed sync left one, by the next).
pub struct Quarantine {
    pub dir: PathBuf,
}

impl Drop for Quarantine {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Quarantine {
    fn create(dir: &Path, branch: &str) -> Result<Quarantine, TeamError> {
        let io = |what: &Path| {
            let path = what.to_path_buf();
            move |source| TeamError::Io { path, source }
        };
        let git_dir = std::path::absolute(dir.join(".git")).map_err(io(dir))?;
        let quarantine = Quarantine {
            dir: git_dir.join("memdir").join("quarantine"),
        };
        match std::fs::remove_dir_all(&quarantine.dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(io(&quarantine.dir)(e));
            }
            _ => {}
        }
        let config = git_dir.join("config");
        let Some(config) = config.to_str().filter(|p| !p.contains(['\n', '"', '\\'])) else {
            return Err(TeamError::UnnamablePath(git_dir));
        };
        for sub in ["objects/info", "refs/heads"] {
            let path = quarantine.dir.join(sub);
            std::fs::create_dir_all(&path).map_err(io(&path))?;
        }
        let files = [
            ("HEAD", format!("ref: refs/heads/{branch}\n")),
            (
                "config",
                format!("[include]\n\tpath = \"{config}\"\n[core]\n\tbare = true\n"),
            ),
            (
                "objects/info/alternates",
                format!("{}\n", git_dir.join("objects").display()),
            ),
        ];
        for (name, text) in files {
            let path = quarantine.dir.join(name);
            std::fs::write(&path, text).map_err(io(&path))?;
        }
        Ok(quarantine)
    }

    /// Fetch the remote's `branch` into a new quarantine without git's checks, to see what it
    /// holds; `None` when the remote has no such branch.
    pub fn fetch(dir: &Path, branch: &str) -> Result<Option<Quarantine>, TeamError> {
        let quarantine = Quarantine::create(dir, branch)?;
        let mut command = git(&quarantine.dir);
        command.env("GIT_DIR", &quarantine.dir);
        let refspec = format!("+refs/heads/{branch}:refs/heads/{branch}");
        let output = run_command(
            command,
            &["fetch", "--quiet", "--no-tags", REMOTE, &refspec],
            "fetch",
        )?;
        if output.status.success() {
            return Ok(Some(quarantine));
        }
        if String::from_utf8_lossy(&output.stderr).contains("couldn't find remote ref") {
            return Ok(None);
        }
        Err(cannot_fetch(&output))
    }
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
pub fn push(dir: &Path, branch: &str) -> Result<Pushed, TeamError> {
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
    Err(TeamError::Push(reason(&output)))
}
