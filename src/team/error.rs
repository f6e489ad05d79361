//! What team memory can fail with (DESIGN §8): a refusal (exit 2: a tree or a secret refused,
//! a team dir that is not one; nothing was changed) or a failure of the network, of git or of
//! the disk (exit 1: what was pending stays committed locally).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    #[error("team memory already exists at {}", .0.display())]
    AlreadyExists(PathBuf),
    #[error("{} exists and is not a team memory repository; move it away first", .0.display())]
    NotATeamRepository(PathBuf),
    #[error(
        "the team remote {url} holds objects git refuses ({reason}), so nothing was cloned; its branch must be reset to a sound commit by whoever owns it"
    )]
    CloneRefused { url: String, reason: String },
    #[error(
        "the team remote sent objects git refuses ({0}), so nothing was fetched or written; the remote's branch must be reset to a sound commit by whoever owns it, then run memdir team sync again"
    )]
    FetchRefused(String),
    /// A tree from the remote, or this machine's own before a push, is not all memory files;
    /// the text names the entry, the commit and what to do.
    #[error("{0}")]
    TreeRefused(String),
    /// A secret this machine added; the kinds and lines, never the values.
    #[error("team memory holds a secret; {nothing}: {found}")]
    SecretRefused {
        nothing: &'static str,
        found: String,
    },
    #[error("team memory's HEAD is detached; check out a branch")]
    Detached,
    #[error("cannot clone the team remote {url}: {reason}")]
    Clone { url: String, reason: String },
    #[error("cannot fetch from the team remote: {0}")]
    Fetch(String),
    #[error("the team remote refused the push: {0}")]
    Push(String),
    #[error(
        "git {what} did not finish within {secs} s (the team remote does not answer); it was stopped, and MEMDIR_GIT_TIMEOUT sets the limit in seconds"
    )]
    TimedOut { what: &'static str, secs: u64 },
    #[error("git {what} printed more than {max} bytes; it was stopped")]
    TalkedTooMuch { what: &'static str, max: usize },
    #[error("running git to {what} (is git installed?): {source}")]
    Git {
        what: &'static str,
        source: std::io::Error,
    },
    #[error(
        "the team remote kept moving: the push lost to others {0} times; run memdir team sync again"
    )]
    KeptMoving(u32),
    #[error("the team memory's path cannot be named in a git config file: {}", .0.display())]
    UnnamablePath(PathBuf),
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

impl TeamError {
    /// Whether it is a refusal (exit 2, nothing changed), not a failure (exit 1).
    pub fn is_refusal(&self) -> bool {
        match self {
            TeamError::AlreadyExists(_)
            | TeamError::NotATeamRepository(_)
            | TeamError::CloneRefused { .. }
            | TeamError::FetchRefused(_)
            | TeamError::TreeRefused(_)
            | TeamError::SecretRefused { .. } => true,
            TeamError::Store(e) => e.is_invalid_input(),
            TeamError::Repo(e) => e.is_refusal(),
            _ => false,
        }
    }

    /// An I/O failure on `path`.
    pub(crate) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> TeamError + '_ {
        move |source| TeamError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
