//! A memory repository kept in step with a branch of a git remote (DESIGN §8): what team memory
//! ([`crate::team`]) and personal sync across machines ([`crate::personal`]) share, so that
//! neither capability imports the other.
//!
//! - [`transport`]: the `git` program, for clone, fetch and push (never forced but for memdir's
//!   own promotion branches, with a lease);
//! - [`guard`]: what is taken from a remote and given to it (entries git refuses dropped,
//!   entries that are not memory files kept in git and never written, secrets);
//! - [`conflict`]: the conflicts a merge kept, listed and finished by a person;
//! - [`state`]: when a repository last synced.
//!
//! The merge engine itself (the index as a union of entries, topic files three-way, both
//! versions kept on a real conflict) is [`crate::memory::merge`], a layer below, which history's
//! revert and undo use too. The loops that fetch, merge and push are the capabilities' own: team
//! memory shares its history with the team; personal sync pushes snapshots of the memory dir.

use std::time::Duration;

pub use error::SyncError;

pub mod conflict;
pub mod error;
pub mod guard;
pub mod state;
pub mod transport;

/// How many times a sync fetches, merges and pushes before it gives up on a remote that keeps
/// moving (each push that lost a race to another is one attempt).
pub const MAX_ATTEMPTS: u32 = 8;

/// Wait a little before attempt `attempt` (2 and up): 20 ms, doubled each time up to 640 ms,
/// plus as much again at random, so that two syncs that raced do not race again in step.
pub fn back_off(attempt: u32) {
    let base = 20u64 << attempt.saturating_sub(2).min(5);
    let noise = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::from(d.subsec_nanos()) ^ u64::from(std::process::id()))
        .unwrap_or(0);
    std::thread::sleep(Duration::from_millis(base + noise % base));
}
