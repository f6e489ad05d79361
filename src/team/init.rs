//! Joining a team (DESIGN §8): `<memory dir>/team/` cloned from the team's remote (an empty
//! remote starts an empty team memory), checked like every tree from the remote before a file is
//! written, and memdir's `MEMORY.md` merge driver registered in the clone.

use std::path::Path;

use crate::memory::store::Store;
use crate::team::TeamError;
use crate::team::remote::{self, Fetched};
use crate::team::sync::{self, is_team_repo, register_merge_driver};

/// Clone `url` into the team dir `dir` of `memory_dir`, registering `memdir` (this executable)
/// as the merge driver. Refused (nothing written) when `dir` exists or the remote holds objects
/// git refuses.
pub fn init(memory_dir: &Path, dir: &Path, url: &str, memdir: &Path) -> Result<(), TeamError> {
    if is_team_repo(dir) {
        return Err(TeamError::AlreadyExists(dir.to_path_buf()));
    }
    if dir.exists() {
        return Err(TeamError::NotATeamRepository(dir.to_path_buf()));
    }
    // The personal memory repository must not track the team's files.
    Store::open(memory_dir)?;
    if let Fetched::Refused(reason) = remote::clone(url, dir)? {
        return Err(TeamError::CloneRefused {
            url: url.to_string(),
            reason,
        });
    }
    sync::check_out_clone(dir)?;
    register_merge_driver(dir, memdir)
}
