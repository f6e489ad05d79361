//! Joining a team (DESIGN §8): `<memory dir>/team/` cloned from the team's remote (an empty
//! remote starts an empty team memory), checked like every tree from the remote before a file is
//! written, and memdir's `MEMORY.md` merge driver registered in the clone.

use std::path::Path;

use crate::Error;
use crate::memory::store::Store;
use crate::team::remote::{self, Fetched};
use crate::team::sync::{self, is_team_repo, register_merge_driver};

/// Clone `url` into the team dir `dir` of `memory_dir`, registering `memdir` (this executable)
/// as the merge driver. Refused (nothing written) when `dir` exists or the remote holds objects
/// git refuses.
pub fn init(memory_dir: &Path, dir: &Path, url: &str, memdir: &Path) -> Result<(), Error> {
    if is_team_repo(dir) {
        return Err(Error::Usage(format!(
            "team memory already exists at {}",
            dir.display()
        )));
    }
    if dir.exists() {
        return Err(Error::Usage(format!(
            "{} exists and is not a team memory repository; move it away first",
            dir.display()
        )));
    }
    // The personal memory repository must not track the team's files.
    Store::open(memory_dir)?;
    if let Fetched::Refused(reason) = remote::clone(url, dir)? {
        return Err(Error::Usage(format!(
            "the team remote {url} holds objects git refuses ({reason}), so nothing was cloned; its branch must be reset to a sound commit by whoever owns it"
        )));
    }
    sync::check_out_clone(dir)?;
    register_merge_driver(dir, memdir)
}
