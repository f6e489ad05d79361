//! Where team memory stands without touching the network (DESIGN §8): the branch, how far ahead
//! of and behind the remote it is as of the last fetch, the conflict copies kept, and when it
//! last synced (a small state file of memdir's in the clone's `.git/memdir/`).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::memory::taxonomy::is_topic_file_name;
use crate::repo::MemoryRepo;
use crate::team::TeamError;
use crate::team::remote;

/// The sync-state file is memdir's own, a few bytes long; one past this is not.
const STATE_FILE_BYTES: u64 = 64 * 1024;

fn state_file(dir: &Path) -> PathBuf {
    dir.join(".git").join("memdir").join("team-sync.json")
}

/// Remember that a sync of the team memory at `dir` just ended well.
pub fn record_sync(dir: &Path) -> Result<(), TeamError> {
    let now = crate::memory::age::now();
    Ok(crate::atomic::write(
        &state_file(dir),
        serde_json::json!({ "last_sync": now })
            .to_string()
            .as_bytes(),
    )?)
}

/// `memdir team status`, as data.
#[derive(Debug, Serialize)]
pub struct Status {
    pub branch: String,
    pub ahead: usize,
    pub behind: usize,
    /// The conflict copies (`<name>.conflict-<id>.md`) in the work tree, by name.
    pub conflicts: Vec<String>,
    /// RFC 3339; `None` before the first sync.
    pub last_sync: Option<String>,
}

/// Where the team memory at `dir` stands.
pub fn status(dir: &Path) -> Result<Status, TeamError> {
    let repo = MemoryRepo::open(dir)?;
    let branch = repo.head_branch()?.unwrap_or_default();
    let ours = repo.head_commit()?;
    let theirs = repo.ref_commit(&format!("refs/remotes/{}/{branch}", remote::REMOTE))?;
    let (ahead, behind) = match (ours, theirs) {
        (Some(o), Some(t)) => (repo.count_not_in(o, t)?, repo.count_not_in(t, o)?),
        // Nothing pushed yet: every commit is ahead.
        (Some(o), None) => (repo.count_commits(o)?, 0),
        (None, Some(_)) | (None, None) => (0, 0),
    };
    let mut conflicts: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains(".conflict-") && is_topic_file_name(n))
                .collect()
        })
        .unwrap_or_default();
    conflicts.sort();
    let last_sync = crate::input::read_regular(&state_file(dir), STATE_FILE_BYTES)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| {
            v["last_sync"]
                .as_str()
                .and_then(crate::memory::age::as_written_now)
        });
    Ok(Status {
        branch,
        ahead,
        behind,
        conflicts,
        last_sync,
    })
}
