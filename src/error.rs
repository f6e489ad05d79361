//! The library's error, one variant per module's error, and the exit codes of DESIGN §11.

use crate::memory::store::StoreError;
use crate::paths::PathError;
use crate::repo::RepoError;
use crate::review::audit::AuditError;
use crate::review::promote::PromoteError;
use crate::review::proposals::ProposalError;
use crate::review::verify::VerifyError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Env(#[from] crate::env::EnvError),
    #[error(transparent)]
    Hooks(#[from] crate::hooks::HooksError),
    #[error(transparent)]
    Session(#[from] crate::stack::session::SessionError),
    #[error(transparent)]
    Path(#[from] PathError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error(transparent)]
    Verify(#[from] VerifyError),
    #[error(transparent)]
    Audit(#[from] AuditError),
    #[error(transparent)]
    Promote(#[from] PromoteError),
    #[error(transparent)]
    Proposal(#[from] ProposalError),
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
            Error::Hooks(e) if e.is_refusal() => EXIT_USAGE,
            Error::Hooks(_) => EXIT_FAILURE,
            Error::Usage(_) => EXIT_USAGE,
            Error::Inconsistent(_) | Error::Failed(_) => EXIT_FAILURE,
            Error::Path(e) if e.is_refusal() => EXIT_USAGE,
            Error::Path(_) => EXIT_FAILURE,
            Error::Session(e) if e.is_refusal() => EXIT_USAGE,
            Error::Session(_) => EXIT_FAILURE,
            Error::Store(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Repo(e) if e.is_refusal() => EXIT_USAGE,
            Error::Verify(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Audit(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Promote(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Proposal(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Store(_)
            | Error::Repo(_)
            | Error::Verify(_)
            | Error::Audit(_)
            | Error::Promote(_)
            | Error::Proposal(_)
            | Error::Io { .. } => EXIT_FAILURE,
        }
    }

    /// Writing to a closed pipe (`memdir log | head`) is not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}
