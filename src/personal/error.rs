//! What personal sync can fail with (DESIGN §8): a refusal (exit 2: no remote set, a project
//! known only by its path, a bad name or config; nothing was changed) or a failure of the
//! network, of git or of the disk (exit 1).

use std::path::PathBuf;

use crate::sync::SyncError;

#[derive(Debug, thiserror::Error)]
pub enum PersonalError {
    #[error(
        "no remote for personal sync is set; run memdir sync --remote URL once (a private git repository of yours)"
    )]
    NoRemote,
    /// The project has no identity that is the same on every machine; the text says why.
    #[error(
        "{0}; name this project's memory with memdir sync --as NAME (the same name on every machine)"
    )]
    NoIdentity(String),
    #[error(
        "invalid name {0:?} for --as: 1 to 64 characters, a-z, 0-9, '.', '_' and '-', starting with a letter or digit"
    )]
    InvalidName(String),
    #[error("invalid remote {0:?}: give an address git can fetch from (ssh, https, or a path)")]
    InvalidRemote(String),
    #[error("{}: not memdir's user config as it writes it ({why}); fix or remove it", .path.display())]
    Config { path: PathBuf, why: String },
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    File(#[from] crate::atomic::FileError),
    #[error(transparent)]
    Sync(#[from] SyncError),
    #[error(transparent)]
    Store(#[from] crate::memory::store::StoreError),
    #[error(transparent)]
    Repo(#[from] crate::repo::RepoError),
}

impl PersonalError {
    /// Whether it is a refusal (exit 2, nothing changed), not a failure (exit 1).
    pub fn is_refusal(&self) -> bool {
        match self {
            PersonalError::NoRemote
            | PersonalError::NoIdentity(_)
            | PersonalError::InvalidName(_)
            | PersonalError::InvalidRemote(_)
            | PersonalError::Config { .. } => true,
            PersonalError::Io { .. } | PersonalError::File(_) => false,
            PersonalError::Sync(e) => e.is_refusal(),
            PersonalError::Store(e) => e.is_invalid_input(),
            PersonalError::Repo(e) => e.is_refusal(),
        }
    }
}
