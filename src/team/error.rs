//! What team memory can fail with (DESIGN §8): a refusal (exit 2: a team dir that is not one,
//! another remote, a tree or a secret refused; nothing was changed) or a failure of the network,
//! of git or of the disk (exit 1: what was pending stays committed locally).

use std::path::PathBuf;

use crate::sync::SyncError;

#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    #[error(
        "team memory at {} already syncs with {current}, not {asked}; to switch, run git -C {} remote set-url origin {asked} (the team memory's history is kept and merged with the new remote's), or move {} away and run memdir team init --remote {asked} again",
        .dir.display(), .dir.display(), .dir.display()
    )]
    OtherRemote {
        dir: PathBuf,
        current: String,
        asked: String,
    },
    #[error("{} exists and is not a team memory repository; move it away first", .0.display())]
    NotATeamRepository(PathBuf),
    #[error("team memory's HEAD is detached; check out a branch")]
    Detached,
    #[error(transparent)]
    Sync(#[from] SyncError),
    #[error(transparent)]
    Store(#[from] crate::memory::store::StoreError),
    #[error(transparent)]
    Repo(#[from] crate::repo::RepoError),
}

impl TeamError {
    /// Whether it is a refusal (exit 2, nothing changed), not a failure (exit 1).
    pub fn is_refusal(&self) -> bool {
        match self {
            TeamError::OtherRemote { .. } | TeamError::NotATeamRepository(_) => true,
            TeamError::Detached => false,
            TeamError::Sync(e) => e.is_refusal(),
            TeamError::Store(e) => e.is_invalid_input(),
            TeamError::Repo(e) => e.is_refusal(),
        }
    }
}
