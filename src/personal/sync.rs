//! One personal sync of a memory dir with its project's branch of the person's remote (DESIGN
//! §8).
//!
//! The memory dir's own history stays on this machine: it may hold what was never meant to leave
//! it (a secret saved and removed since: personal memory only warns of one). What the remote's
//! branch gets is snapshots: a commit of the memory dir's tree as merged, on top of the remote's
//! tip, never the local commits themselves. So only what the memory dir holds now is looked at
//! for secrets before a push, and removing one (`memdir rm`, an edit) is enough.
//!
//! Each sync merges three trees: the remote's tip as last synced (the base, kept in
//! `refs/memdir/sync/base/<branch>`), the memory dir's HEAD, and the remote's tip now. What
//! changed only on the remote is taken (one `sync(personal)` commit in the local history; the
//! work tree gets the remote's bytes); what changed only here is pushed; what changed on both is
//! merged by the engine team memory uses (index union, topic diff3, both versions on a
//! conflict). A push is never forced: one that lost a race starts over from a new fetch.

use std::fs::{File, OpenOptions};
use std::path::Path;

use crate::memory::merge::{Conflict, merge_tree_maps};
use crate::memory::store::{Changed, Head, Scan, Store};
use crate::personal::PersonalError;
use crate::repo::message::{Op, commit_message_with};
use crate::repo::{MemoryRepo, TreeMap};
use crate::sync::guard::{self, Dropped};
use crate::sync::transport::{self, Fetched, Pushed, Remote};
use crate::sync::{MAX_ATTEMPTS, SyncError, back_off};

/// The state file of personal sync, in the memory dir's `.git/memdir/`.
pub const STATE: &str = "personal-sync.json";

/// What one sync did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Synced {
    /// The remote's branch this project's memory is in.
    pub branch: String,
    /// "up to date", "fast-forward" (the remote's changes taken), "pushed" (this machine's),
    /// "merged" (both) or "first push".
    pub integrated: String,
    /// Commits that adopted pending changes first.
    pub adopted: Vec<String>,
    /// The commit made in the memory dir's history, if any.
    pub commit: Option<String>,
    /// Whether a snapshot was pushed.
    pub pushed: bool,
    /// The commit pushed to the remote's branch: a snapshot of the memory dir on its tip.
    pub snapshot: Option<String>,
    /// The memory files the sync changed in the memory dir.
    pub changed: Vec<Changed>,
    /// Memories both sides changed in the same place: this side's stays, the other's is kept
    /// beside it, out of the index, for `memdir resolve`.
    pub conflicts: Vec<Conflict>,
    /// Entries carried in git and never written, as named.
    pub foreign: Vec<String>,
    /// Entries git refuses to check out, dropped.
    pub dropped: Vec<Dropped>,
    pub attempts: u32,
}

/// Where the remote's tip was when this memory dir last synced with `branch`.
fn base_ref(branch: &str) -> String {
    format!("refs/memdir/sync/base/{branch}")
}

/// Where a fetch puts the remote's tip of `branch`.
fn fetched_ref(branch: &str) -> String {
    format!("refs/memdir/sync/remote/{branch}")
}

/// One personal sync at a time per memory dir (the hook's in the background and the person's):
/// `.git/memdir/sync.lock`, held until dropped.
fn lock(memory_dir: &Path) -> Result<File, PersonalError> {
    let path = memory_dir.join(".git").join("memdir").join("sync.lock");
    let io = |source| PersonalError::Io {
        path: path.clone(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io)?;
    file.lock().map_err(io)?;
    Ok(file)
}

/// Sync the memory dir `memory_dir` with `branch` of the remote `url`.
pub fn sync(memory_dir: &Path, url: &str, branch: &str) -> Result<Synced, PersonalError> {
    let remote = Remote {
        git: url.to_string(),
        label: "your sync remote",
        again: "memdir sync",
    };
    // The repository exists before git fetches into it.
    drop(Store::open(memory_dir)?);
    let _lock = lock(memory_dir)?;
    let mut synced = Synced {
        branch: branch.to_string(),
        ..Synced::default()
    };
    let refspec = format!("+refs/heads/{branch}:{}", fetched_ref(branch));
    for attempt in 1..=MAX_ATTEMPTS {
        if attempt > 1 {
            back_off(attempt);
        }
        synced.attempts = attempt;
        let fetched = transport::fetch(memory_dir, &remote, Some(&refspec))?;
        if let Fetched::Refused(reason) = fetched {
            return Err(SyncError::FetchRefused {
                remote: remote.label,
                again: remote.again,
                reason,
            }
            .into());
        }
        let mut store = Store::open(memory_dir)?;
        let theirs = match fetched {
            Fetched::Done => store.repo.ref_commit(&fetched_ref(branch))?,
            _ => None,
        };
        let base = store.repo.ref_commit(&base_ref(branch))?;
        let base_tree = tree_of(&store.repo, base)?;
        // Read as team sync reads it: without a stat per file when nothing shows a change.
        let mut state = store.state(Scan::IfChanged, None)?;
        let adoption = store.adopt_in(&mut state, None)?;
        synced
            .adopted
            .extend(adoption.commits.iter().map(|(_, s)| s.clone()));
        let local = state.tree.clone();

        // The tree the memory dir should hold now.
        let changed_tip = theirs.filter(|tip| Some(*tip) != base);
        let remote_changed = changed_tip.is_some();
        let merged = if let Some(theirs) = changed_tip {
            let cleaned = guard::clean(&mut store.repo, theirs, &base_tree)?
                .map_err(|bad| bad.refusal_from_remote(remote.label, "run memdir sync again"))?;
            synced.dropped = cleaned.dropped;
            if local == base_tree {
                cleaned.tree
            } else {
                let short = theirs.to_hex_with_len(7).to_string();
                let merged =
                    merge_tree_maps(&mut store.repo, &base_tree, &local, &cleaned.tree, &short)?;
                synced.conflicts = merged.conflicts;
                merged.tree
            }
        } else {
            local.clone()
        };
        if merged != local {
            let theirs_hex = theirs.map(|t| t.to_string()).unwrap_or_default();
            let what = if local == base_tree { "take" } else { "merge" };
            let conflicts = synced
                .conflicts
                .iter()
                .map(|c| c.file.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            let mut trailers = vec![("Branch", branch), ("Theirs", theirs_hex.as_str())];
            if !conflicts.is_empty() {
                trailers.push(("Conflicts", &conflicts));
            }
            let message = commit_message_with(
                Op::Sync,
                "personal",
                &format!("{what} {branch}"),
                "",
                None,
                &trailers,
            );
            let parents: Vec<_> = state.parent.into_iter().collect();
            let (commit, changed) = store.check_out(
                &mut state,
                &merged,
                Head::Commit {
                    parents: &parents,
                    message: &message,
                },
            )?;
            synced.commit = Some(commit.to_string());
            synced.changed = changed;
        }
        synced.foreign = guard::foreign(&merged);

        let theirs_tree = tree_of(&store.repo, theirs)?;
        if theirs.is_some() && theirs_tree == merged {
            // The remote holds this tree already: nothing to push.
            store.repo.set_ref(&base_ref(branch), theirs)?;
            synced.integrated = if remote_changed {
                "fast-forward"
            } else {
                "up to date"
            }
            .into();
            return Ok(synced);
        }
        if theirs.is_none() && merged.is_empty() {
            synced.integrated = "up to date".into();
            return Ok(synced);
        }
        // What goes out: the memory dir as it is now, without a secret, on the remote's tip.
        guard::refuse_secrets(
            guard::secrets_between(&store.repo, &theirs_tree, &merged)?,
            "your memory",
            "nothing was pushed",
        )?;
        let message = commit_message_with(
            Op::Sync,
            "personal",
            branch,
            "The memory dir as synced from one machine.",
            None,
            &[],
        );
        let parents: Vec<_> = theirs.into_iter().collect();
        let snapshot = store.repo.write_commit(&merged, &parents, &message)?;
        let outgoing = guard::clean(&mut store.repo, snapshot, &theirs_tree)?
            .map_err(|bad| bad.refusal_to_push(memory_dir, remote.again))?;
        if let Some(first) = outgoing.dropped.first() {
            return Err(SyncError::TreeRefused(format!(
                "the memory at {} holds {:?} ({}), so nothing was pushed; remove it (git rm and commit), then run memdir sync again",
                memory_dir.display(),
                first.file,
                first.why
            ))
            .into());
        }
        drop(store);
        let pushed = transport::push(memory_dir, &remote, &snapshot.to_string(), branch, None)?;
        if let Pushed::Done(_) = pushed {
            let repo = MemoryRepo::open(memory_dir)?;
            repo.set_ref(&fetched_ref(branch), Some(snapshot))?;
            repo.set_ref(&base_ref(branch), Some(snapshot))?;
            synced.pushed = true;
            synced.snapshot = Some(snapshot.to_string());
            synced.integrated = match (theirs, remote_changed) {
                (None, _) => "first push",
                (Some(_), true) => "merged",
                (Some(_), false) => "pushed",
            }
            .into();
            return Ok(synced);
        }
    }
    Err(SyncError::KeptMoving {
        remote: remote.label,
        again: remote.again,
        attempts: MAX_ATTEMPTS,
    }
    .into())
}

/// A commit's tree, or an empty one.
fn tree_of(
    repo: &MemoryRepo,
    commit: Option<gix::ObjectId>,
) -> Result<TreeMap, crate::repo::RepoError> {
    match commit {
        Some(commit) => repo.commit_tree(commit),
        None => Ok(TreeMap::new()),
    }
}
