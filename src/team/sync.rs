//! Team memory (DESIGN §8): `<memory dir>/team/` is a memory dir of its own, a clone of a remote
//! the team already owns, whose history the team shares. `sync` adopts what is pending,
//! fetches, brings in what came (a fast-forward when it can: no commit, the remote's bytes;
//! else one merge commit through the engine of [`crate::memory::merge`]), and pushes, never
//! forcing; a push that lost a race starts over from a new fetch, a bounded number of times,
//! after a short random pause.
//!
//! What the remote sends is looked at before anything is committed or written
//! ([`crate::sync::guard`]): entries git refuses are dropped (and the tree without them is
//! committed on top and pushed, so the team's remote loses them too), entries that are not
//! memory files are carried in git and never written, a tree too big is refused whole and the
//! local branch stays where it was. Nothing with a secret this machine added is committed or
//! pushed; a secret a teammate pushed is reported and sync goes on.

use std::path::Path;

use gix::ObjectId;

use crate::memory::merge::{Conflict, merge_tree_maps};
use crate::memory::store::{Changed, Head, Scan, State, Store};
use crate::repo::TreeMap;
use crate::repo::message::{Op, commit_message_with};
use crate::sync::guard::{self, Cleaned, Dropped};
use crate::sync::transport::{self, Fetched, Pushed, Remote};
use crate::sync::{MAX_ATTEMPTS, SyncError, back_off};
use crate::team::TeamError;

/// The remote every team repository uses.
pub const REMOTE: &str = crate::sync::transport::ORIGIN;

/// The team remote, as git and messages name it.
pub fn team_remote() -> Remote {
    Remote {
        git: REMOTE.to_string(),
        label: "the team remote",
        again: "memdir team sync",
    }
}

/// Whether `dir` holds a team memory repository.
pub fn is_team_repo(dir: &Path) -> bool {
    dir.join(".git").is_dir()
}

/// What one sync did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Synced {
    /// Commits that adopted pending changes.
    pub adopted: Vec<String>,
    /// "up to date", "fast-forward", "merged", "ahead" or "first push".
    pub integrated: String,
    /// The commit the sync made (a merge, or the remote's tree without what git refuses), if
    /// any; a fast-forward makes none.
    pub commit: Option<String>,
    /// The memory files the sync changed in the work tree.
    pub changed: Vec<Changed>,
    /// Memories both sides changed in the same place: ours is `file`, theirs `kept_as`.
    pub conflicts: Vec<Conflict>,
    /// Entries carried in git and never written (a README, a folder, a link), as named.
    pub foreign: Vec<String>,
    /// Entries git refuses to check out, dropped from what was merged and pushed.
    pub dropped: Vec<Dropped>,
    pub pushed: bool,
    pub attempts: u32,
    /// Secrets in what came from the remote (`file:line: kind (masked excerpt)`): a teammate's
    /// to remove; reported, never a reason to stop.
    pub incoming_secrets: Vec<String>,
}

/// Sync the team memory at `dir` with its remote.
pub fn sync(dir: &Path) -> Result<Synced, TeamError> {
    let remote = team_remote();
    let mut synced = Synced::default();
    for attempt in 1..=MAX_ATTEMPTS {
        if attempt > 1 {
            back_off(attempt);
        }
        synced.attempts = attempt;
        // The store's lock is held for one attempt: nobody writes while the tree moves.
        let mut store = Store::open(dir)?;
        // The work tree is read once (nobody writes while the lock is held), as a save reads
        // it: without a stat per file when the folder and the index show no change since
        // `.git/index` was written, so a sync of ten thousand memories with nothing to do costs
        // no more than git's own pull and push. An in-place edit of a tracked memory then waits
        // for `memdir snapshot` as it does for a save, and is never overwritten by a merge
        // (the checkout looks at each file it replaces).
        let mut state = store.state(Scan::IfChanged, None)?;
        guard::refuse_secrets(
            guard::pending_secrets(&store, &state)?,
            "team memory",
            "nothing was committed or pushed",
        )?;
        let branch = store.repo.head_branch()?.ok_or(TeamError::Detached)?;
        match transport::fetch(dir, &remote, None) {
            Ok(Fetched::Done | Fetched::Missing) => {}
            Ok(Fetched::Refused(reason)) => {
                return Err(SyncError::FetchRefused {
                    remote: remote.label,
                    again: remote.again,
                    reason,
                }
                .into());
            }
            Err(e) => {
                // What is pending is committed all the same, to be pushed next time.
                store.adopt_in(&mut state, None)?;
                return Err(e.into());
            }
        }
        let theirs = store
            .repo
            .ref_commit(&format!("refs/remotes/{REMOTE}/{branch}"))?;
        // Looked at before anything is committed, merged or written.
        let cleaned = match theirs {
            Some(theirs) if !contains(&store, state.parent, theirs)? => Some(
                guard::clean(&mut store.repo, theirs, &state.tree)?.map_err(|bad| {
                    bad.refusal_from_remote(remote.label, "run memdir team sync again")
                })?,
            ),
            _ => None,
        };
        let adoption = store.adopt_in(&mut state, None)?;
        synced
            .adopted
            .extend(adoption.commits.iter().map(|(_, s)| s.clone()));
        let before = cleaned.as_ref().map(|_| state.tree.clone());
        let (head, integrated) = integrate(
            &mut store,
            &mut state,
            theirs,
            cleaned.as_ref(),
            &mut synced,
        )?;
        synced.integrated = integrated.to_string();
        synced.foreign = guard::foreign(&state.tree);
        if let (Some(cleaned), Some(before)) = (&cleaned, &before) {
            synced.dropped = cleaned.dropped.clone();
            for found in guard::secrets_between(&store.repo, before, &cleaned.tree)? {
                if !synced.incoming_secrets.contains(&found) {
                    synced.incoming_secrets.push(found);
                }
            }
        }
        let Some(head) = head else {
            // Nothing on either side yet.
            return Ok(synced);
        };
        if Some(head) == theirs {
            return Ok(synced);
        }
        // What goes out: nothing git refuses, nothing too big, no secret this machine added.
        let theirs_tree = match theirs {
            Some(theirs) => store.repo.commit_tree(theirs)?,
            None => TreeMap::new(),
        };
        let outgoing = guard::clean(&mut store.repo, head, &theirs_tree)?
            .map_err(|bad| bad.refusal_to_push(dir, remote.again))?;
        if let Some(first) = outgoing.dropped.first() {
            return Err(SyncError::TreeRefused(format!(
                "your team memory's commit {} holds {:?} ({}), so nothing was pushed; remove it in {} (git rm and commit), then run memdir team sync again",
                head.to_hex_with_len(12),
                first.file,
                first.why,
                dir.display()
            ))
            .into());
        }
        guard::refuse_secrets(
            guard::secrets_between(&store.repo, &theirs_tree, &state.tree)?,
            "team memory",
            "nothing was pushed",
        )?;
        drop(store);
        match transport::push(dir, &remote, &format!("refs/heads/{branch}"), &branch, None)? {
            Pushed::Done(_) => {
                synced.pushed = true;
                return Ok(synced);
            }
            Pushed::Rejected => continue,
        }
    }
    Err(SyncError::KeptMoving {
        remote: remote.label,
        again: remote.again,
        attempts: MAX_ATTEMPTS,
    }
    .into())
}

/// Whether HEAD (`ours`) already holds `theirs`.
fn contains(store: &Store, ours: Option<ObjectId>, theirs: ObjectId) -> Result<bool, TeamError> {
    Ok(match ours {
        Some(ours) => store.repo.is_ancestor(theirs, ours)?,
        None => false,
    })
}

/// Bring what was fetched into HEAD and the work tree; the new HEAD and what happened.
fn integrate(
    store: &mut Store,
    state: &mut State,
    theirs: Option<ObjectId>,
    cleaned: Option<&Cleaned>,
    synced: &mut Synced,
) -> Result<(Option<ObjectId>, &'static str), TeamError> {
    let ours = state.parent;
    let (Some(theirs), Some(cleaned)) = (theirs, cleaned) else {
        // Nothing fetched, or nothing HEAD does not hold already.
        return Ok(match (ours, theirs) {
            (None, _) => (None, "up to date"),
            (Some(ours), None) => (Some(ours), "first push"),
            (Some(ours), Some(theirs)) if ours == theirs => (Some(ours), "up to date"),
            (Some(ours), Some(_)) => (Some(ours), "ahead"),
        });
    };
    let remote_branch = format!("{REMOTE}/{}", store.repo.head_branch()?.unwrap_or_default());
    let theirs_hex = theirs.to_string();
    let fast_forward = match ours {
        Some(ours) => store.repo.is_ancestor(ours, theirs)?,
        None => true,
    };
    if fast_forward && cleaned.dropped.is_empty() {
        let (commit, changed) = store.check_out(
            state,
            &cleaned.tree,
            Head::Existing {
                commit: theirs,
                log: "team sync: fast-forward",
            },
        )?;
        synced.changed = changed;
        return Ok((Some(commit), "fast-forward"));
    }
    let dropped = dropped_trailer(&cleaned.dropped);
    let mut trailers = vec![
        ("Remote", remote_branch.as_str()),
        ("Theirs", theirs_hex.as_str()),
    ];
    if !dropped.is_empty() {
        trailers.push(("Dropped", dropped.as_str()));
    }
    if fast_forward {
        // The remote's tree, without what git refuses, on top of it: pushed, so the remote
        // loses those entries too.
        let message = commit_message_with(
            Op::Sync,
            "team",
            &format!("take {remote_branch}"),
            "The remote's tree without the entries git refuses to check out.",
            None,
            &trailers,
        );
        let (commit, changed) = store.check_out(
            state,
            &cleaned.tree,
            Head::Commit {
                parents: &[theirs],
                message: &message,
            },
        )?;
        synced.changed = changed;
        synced.commit = Some(commit.to_string());
        return Ok((Some(commit), "fast-forward"));
    }
    let Some(ours) = ours else {
        return Ok((None, "up to date"));
    };
    let base = match store.repo.merge_base(ours, theirs)? {
        Some(base) => store.repo.commit_tree(base)?,
        None => TreeMap::new(),
    };
    let theirs_short = theirs.to_hex_with_len(7).to_string();
    let merged = merge_tree_maps(
        &mut store.repo,
        &base,
        &state.tree,
        &cleaned.tree,
        &theirs_short,
    )?;
    let conflicts = merged
        .conflicts
        .iter()
        .map(|c| c.file.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if !conflicts.is_empty() {
        trailers.push(("Conflicts", conflicts.as_str()));
    }
    let message = commit_message_with(
        Op::Sync,
        "team",
        &format!("merge {remote_branch}"),
        "",
        None,
        &trailers,
    );
    let (commit, changed) = store.check_out(
        state,
        &merged.tree,
        Head::Commit {
            parents: &[ours, theirs],
            message: &message,
        },
    )?;
    synced.changed = changed;
    synced.commit = Some(commit.to_string());
    synced.conflicts = merged.conflicts;
    Ok((Some(commit), "merged"))
}

/// The dropped entries for a trailer: one line, paths as debug-quoted.
pub fn dropped_trailer(dropped: &[Dropped]) -> String {
    dropped
        .iter()
        .map(|d| format!("{:?}", d.file))
        .collect::<Vec<_>>()
        .join(", ")
}
