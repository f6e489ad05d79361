//! What syncing a memory repository with a git remote can fail with (DESIGN §8): a refusal
//! (exit 2: a tree or a secret refused; nothing was changed) or a failure of the network, of git
//! or of the disk (exit 1: what was pending stays committed locally).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(
        "{remote} {url} holds objects git refuses ({reason}), so nothing was cloned; its branch must be reset to a sound commit by whoever owns it"
    )]
    CloneRefused {
        remote: &'static str,
        url: String,
        reason: String,
    },
    #[error(
        "{remote} sent objects git refuses ({reason}), so nothing was fetched or written; the remote's branch must be reset to a sound commit by whoever owns it, then run {again} again"
    )]
    FetchRefused {
        remote: &'static str,
        again: &'static str,
        reason: String,
    },
    /// A tree from the remote, or this machine's own before a push, cannot be taken; the text
    /// names the entry, the commit and what to do.
    #[error("{0}")]
    TreeRefused(String),
    /// A secret this machine would push; the kinds and lines, never the values, and how to take
    /// it out.
    #[error("{what} holds a secret; {nothing}: {found}")]
    SecretRefused {
        what: &'static str,
        nothing: &'static str,
        found: String,
    },
    #[error("cannot clone {remote} {url}: {reason}")]
    Clone {
        remote: &'static str,
        url: String,
        reason: String,
    },
    #[error("cannot fetch from {remote}: {reason}")]
    Fetch {
        remote: &'static str,
        reason: String,
    },
    #[error("{remote} refused the push: {reason}")]
    Push {
        remote: &'static str,
        reason: String,
    },
    #[error(
        "git {what} did not finish within {secs} s ({remote} does not answer); it was stopped, and MEMDIR_GIT_TIMEOUT sets the limit in seconds"
    )]
    TimedOut {
        what: &'static str,
        remote: &'static str,
        secs: u64,
    },
    #[error("git {what} printed more than {max} bytes; it was stopped")]
    TalkedTooMuch { what: &'static str, max: usize },
    #[error("running git to {what} (is git installed?): {source}")]
    Git {
        what: &'static str,
        source: std::io::Error,
    },
    #[error("{remote} kept moving: the push lost to others {attempts} times; run {again} again")]
    KeptMoving {
        remote: &'static str,
        again: &'static str,
        attempts: u32,
    },
    /// A conflict to finish that is not there, or a way of finishing it that does not apply.
    #[error("{0}")]
    Resolve(String),
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    File(#[from] crate::atomic::FileError),
    #[error(transparent)]
    Store(#[from] crate::memory::store::StoreError),
    #[error(transparent)]
    Repo(#[from] crate::repo::RepoError),
}

impl SyncError {
    /// Whether it is a refusal (exit 2, nothing changed), not a failure (exit 1).
    pub fn is_refusal(&self) -> bool {
        match self {
            SyncError::CloneRefused { .. }
            | SyncError::FetchRefused { .. }
            | SyncError::TreeRefused(_)
            | SyncError::SecretRefused { .. }
            | SyncError::Resolve(_) => true,
            SyncError::Store(e) => e.is_invalid_input(),
            SyncError::Repo(e) => e.is_refusal(),
            _ => false,
        }
    }

    /// An I/O failure on `path`.
    pub(crate) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> SyncError + '_ {
        move |source| SyncError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
