//! Where team memory stands without touching the network (DESIGN §8): the branch, how far ahead
//! of and behind the remote it is as of the last fetch, the conflicts kept, and when it last
//! synced.

use std::path::Path;

use serde::Serialize;

use crate::repo::MemoryRepo;
use crate::sync::conflict::copies;
use crate::team::TeamError;
use crate::team::sync::REMOTE;

/// The state file of team sync, in the clone's `.git/memdir/`.
pub const STATE: &str = "team-sync.json";

/// `memdir team status`, as data.
#[derive(Debug, Serialize)]
pub struct Status {
    pub branch: String,
    pub ahead: usize,
    pub behind: usize,
    /// The conflict copies (`<name>.conflict-<id>.md`) in the work tree, by file name.
    pub conflicts: Vec<String>,
    /// RFC 3339; `None` before the first sync.
    pub last_sync: Option<String>,
}

/// Where the team memory at `dir` stands.
pub fn status(dir: &Path) -> Result<Status, TeamError> {
    let repo = MemoryRepo::open(dir)?;
    let branch = repo.head_branch()?.unwrap_or_default();
    let ours = repo.head_commit()?;
    let theirs = repo.ref_commit(&format!("refs/remotes/{REMOTE}/{branch}"))?;
    let (ahead, behind) = match (ours, theirs) {
        (Some(o), Some(t)) => (repo.count_not_in(o, t)?, repo.count_not_in(t, o)?),
        // Nothing pushed yet: every commit is ahead.
        (Some(o), None) => (repo.count_commits(o)?, 0),
        (None, Some(_)) | (None, None) => (0, 0),
    };
    Ok(Status {
        branch,
        ahead,
        behind,
        conflicts: copies(dir),
        last_sync: crate::sync::state::last_sync(repo.git_dir(), STATE),
    })
}
