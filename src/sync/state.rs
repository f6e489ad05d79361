//! When a repository last synced (DESIGN §8): a small state file of memdir's in its
//! `.git/memdir/`, written after a sync that ended well and read by `status` (no network).

use std::path::{Path, PathBuf};

use crate::sync::SyncError;

/// The state file is memdir's own, a few bytes long; one past this is not.
const STATE_FILE_BYTES: u64 = 64 * 1024;

fn state_file(git_dir: &Path, name: &str) -> PathBuf {
    git_dir.join("memdir").join(name)
}

/// Remember that a sync recorded as `name` (`team-sync.json`) just ended well. Not fsynced: a
/// power cut may lose the time of the last sync, or tear the file, which `last_sync` then
/// reads as no sync (status says "never"); nothing else depends on it.
pub fn record_sync(git_dir: &Path, name: &str) -> Result<(), SyncError> {
    let now = crate::memory::age::now();
    let path = state_file(git_dir, name);
    crate::atomic::replace_unsynced(
        &path,
        serde_json::json!({ "last_sync": now })
            .to_string()
            .as_bytes(),
    )
    .map_err(SyncError::io(&path))
}

/// When the sync recorded as `name` last ended well (RFC 3339 as memdir writes every time, one
/// recorded before in UTC as `Z` too); `None` before the first.
pub fn last_sync(git_dir: &Path, name: &str) -> Option<String> {
    crate::input::read_regular(&state_file(git_dir, name), STATE_FILE_BYTES)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| {
            v["last_sync"]
                .as_str()
                .and_then(crate::memory::age::as_written_now)
        })
}
