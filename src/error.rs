//! The library's error, one variant per module's error, and the exit codes of DESIGN §11.

use crate::extract::ExtractError;
use crate::memory::store::StoreError;
use crate::paths::PathError;
use crate::repo::RepoError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Env(#[from] crate::env::EnvError),
    #[error(transparent)]
    Path(#[from] PathError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error(transparent)]
    Extract(#[from] ExtractError),
    /// Auto memory is off; the text names the switch.
    #[error("auto memory is disabled by {0} (team memory too); nothing was changed")]
    Disabled(String),
    /// `doctor` found problems it did not (or could not) repair.
    #[error("{0} problem(s) found; see the list above")]
    Inconsistent(usize),
    /// A runtime failure no module owns (a timeout, failed background runs).
    #[error("{0}")]
    Failed(String),
    /// Bad usage or input that no module owns.
    #[error("{0}")]
    Usage(String),
    #[error("{context}: {source}")]
    Io {
        context: String,
        source: std::io::Error,
    },
}

/// Exit codes (DESIGN §11).
pub const EXIT_OK: u8 = 0;
pub const EXIT_FAILURE: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
pub const EXIT_DISABLED: u8 = 3;

impl Error {
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Disabled(_) => EXIT_DISABLED,
            Error::Env(_) => EXIT_USAGE,
            Error::Usage(_) => EXIT_USAGE,
            Error::Inconsistent(_) | Error::Failed(_) => EXIT_FAILURE,
            Error::Path(PathError::Io { .. }) => EXIT_FAILURE,
            Error::Path(_) => EXIT_USAGE,
            Error::Store(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Repo(e) if e.is_refusal() => EXIT_USAGE,
            Error::Extract(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Store(_) | Error::Repo(_) | Error::Extract(_) | Error::Io { .. } => EXIT_FAILURE,
        }
    }

    /// Writing to a closed pipe (`memdir log | head`) is not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}
