//! Team memory (DESIGN §8): `<memory dir>/team/` is a memory dir of its own, a clone of a remote
//! the team already owns. `sync` adopts what is pending, fetches, merges (a fast-forward when it
//! can; else `MEMORY.md` as a union of entries and topic files three-way, both versions kept on a
//! real conflict), and pushes, never forcing; a push that lost a race starts over from a new
//! fetch, a bounded number of times, after a short random pause.
//!
//! What the remote sends is checked before anything is committed or written ([`guard`]): a
//! tree that is not all memory files is refused whole, and the local branch stays where it was.
//! Nothing with a secret this machine added is committed or pushed; a secret a teammate pushed
//! is reported and sync goes on.

use std::path::Path;
use std::time::Duration;

use gix::ObjectId;

use crate::atomic::remove_if_exists;
use crate::atomic::write as write_atomic;
use crate::memory::merge::merge_trees;
use crate::memory::store::{INDEX_FILE, Store};
use crate::repo::{MemoryRepo, TreeMap};
use crate::team::TeamError;
use crate::team::guard::{self, BadTree};
use crate::team::remote::{self, Fetched, Pushed, Quarantine};

/// How many times sync fetches, merges and pushes before it gives up on a remote that keeps
/// moving (each push that lost a race to another is one attempt).
pub const MAX_ATTEMPTS: u32 = 8;

/// The most commits looked at to find the one git refused.
const MAX_COMMITS_EXAMINED: usize = 10_000;

/// Whether `dir` holds a team memory repository.
pub fn is_team_repo(dir: &Path) -> bool {
    dir.join(".git").is_dir()
}

/// The git attributes and config that make a plain `git pull` merge `MEMORY.md` as memdir does.
pub fn register_merge_driver(dir: &Path, memdir: &Path) -> Result<(), TeamError> {
    let git_dir = dir.join(".git");
    let attributes = git_dir.join("info").join("attributes");
    let line = "MEMORY.md merge=memdir-index\n";
    let current = std::fs::read_to_string(&attributes).unwrap_or_default();
    if !current.contains(line.trim_end()) {
        write_atomic(&attributes, format!("{current}{line}").as_bytes())?;
    }
    let config = git_dir.join("config");
    let current = std::fs::read_to_string(&config).map_err(TeamError::io(&config))?;
    if !current.contains("[merge \"memdir-index\"]") {
        let quoted = crate::shell::quote(&memdir.to_string_lossy());
        let section = format!(
            "[merge \"memdir-index\"]\n\tname = memdir: MEMORY.md as a union of entries\n\tdriver = {quoted} merge-index %O %A %B\n"
        );
        let mut text = current;
        if !text.ends_with('\n') && !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&section);
        write_atomic(&config, text.as_bytes())?;
    }
    Ok(())
}

/// A memory both sides changed in the same place: ours is `file`, theirs `kept_as`.
#[derive(Debug, serde::Serialize)]
pub struct KeptBoth {
    pub file: String,
    pub kept_as: String,
}

/// What one sync did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Synced {
    /// Commits that adopted pending changes.
    pub adopted: Vec<String>,
    /// "up to date", "fast-forward", "merged", "ahead" or "first push".
    pub integrated: String,
    pub conflicts: Vec<KeptBoth>,
    pub pushed: bool,
    pub attempts: u32,
    /// Secrets in what came from the remote (`file:line: kind (masked excerpt)`): a teammate's
    /// to remove; reported, never a reason to stop.
    pub incoming_secrets: Vec<String>,
}

/// Sync the team memory at `dir` with its remote.
pub fn sync(dir: &Path) -> Result<Synced, TeamError> {
    let mut synced = Synced::default();
    for attempt in 1..=MAX_ATTEMPTS {
        if attempt > 1 {
            back_off(attempt);
        }
        synced.attempts = attempt;
        // The store's lock is held for one attempt: nobody writes while the tree moves.
        let mut store = Store::open(dir)?;
        let committed = store.repo.head_tree()?;
        guard::refuse_secrets(
            guard::pending_secrets(&store.repo, dir, &committed)?,
            "nothing was committed or pushed",
        )?;
        let branch = store.repo.head_branch()?.ok_or(TeamError::Detached)?;
        match remote::fetch(dir) {
            Ok(Fetched::Done) => {}
            Ok(Fetched::Refused(reason)) => {
                return Err(refused_by_git(&store.repo, dir, &branch, &reason));
            }
            Err(e) => {
                // What is pending is committed all the same, to be pushed next time.
                store.adopt(None)?;
                return Err(e);
            }
        }
        let theirs = store
            .repo
            .ref_commit(&format!("refs/remotes/{}/{branch}", remote::REMOTE))?;
        // Checked before anything is committed, merged or written.
        if let Some(theirs) = theirs {
            let ours = store.repo.head_commit()?;
            let integrated = match ours {
                Some(ours) => store.repo.is_ancestor(theirs, ours)?,
                None => false,
            };
            if !integrated {
                guard::check_tree(&store.repo, theirs)?
                    .map_err(|bad| bad.refusal_from_remote("run memdir team sync again"))?;
            }
        }
        let adoption = store.adopt(None)?;
        synced
            .adopted
            .extend(adoption.commits.iter().map(|(_, s)| s.clone()));
        let repo = &mut store.repo;
        let ours = repo.head_commit()?;
        let before = repo.head_tree()?;
        let (head, integrated) = integrate(repo, dir, ours, theirs, &mut synced.conflicts)?;
        synced.integrated = integrated.to_string();
        let theirs_tree = match theirs {
            Some(theirs) => repo.commit_tree(theirs)?,
            None => TreeMap::new(),
        };
        if matches!(integrated, "fast-forward" | "merged") {
            for found in guard::secrets_between(repo, &before, &theirs_tree)? {
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
        // What goes out: memory files only, and no secret this machine added.
        guard::check_tree(repo, head)?.map_err(|bad| bad.refusal_to_push(dir))?;
        let head_tree = repo.commit_tree(head)?;
        guard::refuse_secrets(
            guard::secrets_between(repo, &theirs_tree, &head_tree)?,
            "nothing was pushed",
        )?;
        drop(store);
        match remote::push(dir, &branch)? {
            Pushed::Done => {
                synced.pushed = true;
                return Ok(synced);
            }
            Pushed::Rejected => continue,
        }
    }
    Err(TeamError::KeptMoving(MAX_ATTEMPTS))
}

/// Wait a little before attempt `attempt` (2 and up): 20 ms, doubled each time up to 640 ms,
/// plus as much again at random, so that two syncs that raced do not race again in step.
fn back_off(attempt: u32) {
    let base = 20u64 << attempt.saturating_sub(2).min(5);
    let noise = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::from(d.subsec_nanos()) ^ u64::from(std::process::id()))
        .unwrap_or(0);
    std::thread::sleep(Duration::from_millis(base + noise % base));
}

/// The refusal when git's own checks refused what the remote sent: which commit and entry, as
/// a fetch into a quarantine (never into the clone) shows, else git's reason.
fn refused_by_git(repo: &MemoryRepo, dir: &Path, branch: &str, reason: &str) -> TeamError {
    match first_unsafe_tree(repo, dir, branch) {
        Ok(Some(bad)) => bad.refusal_from_remote("run memdir team sync again"),
        _ => TeamError::FetchRefused(reason.to_string()),
    }
}

/// The newest commit the remote's `branch` has and HEAD has not whose tree holds a dangerous
/// name, looked for in a quarantine.
fn first_unsafe_tree(
    repo: &MemoryRepo,
    dir: &Path,
    branch: &str,
) -> Result<Option<BadTree>, TeamError> {
    let Some(quarantine) = Quarantine::fetch(dir, branch)? else {
        return Ok(None);
    };
    let seen = MemoryRepo::open(&quarantine.dir)?;
    let Some(tip) = seen.ref_commit(&format!("refs/heads/{branch}"))? else {
        return Ok(None);
    };
    for commit in seen.commits_not_in(tip, repo.head_commit()?, MAX_COMMITS_EXAMINED)? {
        if let Err(bad) = guard::check_tree_paths(&seen, commit)? {
            return Ok(Some(bad));
        }
    }
    Ok(None)
}

/// Write the work tree and `.git/index` of a team clone made without a checkout, once its tree
/// passes [`guard::check_tree`]. A tree that does not is refused and the clone removed.
pub fn check_out_clone(dir: &Path) -> Result<(), TeamError> {
    let checked_out = (|| {
        let repo = MemoryRepo::open(dir)?;
        let Some(tip) = repo.head_commit()? else {
            return Ok(());
        };
        guard::check_tree(&repo, tip)?
            .map_err(|bad| bad.refusal_from_remote("run memdir team init again"))?;
        checkout(&repo, dir, &TreeMap::new(), tip)?;
        repo.reset_index(tip)?;
        Ok(())
    })();
    if checked_out.is_err() {
        let _ = std::fs::remove_dir_all(dir);
    }
    checked_out
}

/// Bring what was fetched into HEAD and the work tree; the new HEAD and what happened.
fn integrate(
    repo: &mut MemoryRepo,
    dir: &Path,
    ours: Option<ObjectId>,
    theirs: Option<ObjectId>,
    conflicts: &mut Vec<KeptBoth>,
) -> Result<(Option<ObjectId>, &'static str), TeamError> {
    let Some(theirs) = theirs else {
        return Ok((
            ours,
            if ours.is_some() {
                "first push"
            } else {
                "up to date"
            },
        ));
    };
    let Some(ours) = ours else {
        checkout(repo, dir, &TreeMap::new(), theirs)?;
        repo.advance_head(None, theirs, "team sync: fast-forward")?;
        return Ok((Some(theirs), "fast-forward"));
    };
    if ours == theirs {
        return Ok((Some(ours), "up to date"));
    }
    if repo.is_ancestor(theirs, ours)? {
        return Ok((Some(ours), "ahead"));
    }
    let old = repo.commit_tree(ours)?;
    if repo.is_ancestor(ours, theirs)? {
        checkout(repo, dir, &old, theirs)?;
        repo.advance_head(Some(ours), theirs, "team sync: fast-forward")?;
        return Ok((Some(theirs), "fast-forward"));
    }
    let base = repo.merge_base(ours, theirs)?;
    let merged = merge_trees(repo, base, ours, theirs)?;
    write_files(repo, dir, &old, &merged.tree)?;
    let message = crate::repo::message::merge_message(remote::REMOTE);
    let commit = repo.commit_merge(&merged.tree, ours, theirs, &message)?;
    conflicts.extend(merged.conflicts.into_iter().map(|c| KeptBoth {
        file: c.file,
        kept_as: c.kept_as,
    }));
    Ok((Some(commit), "merged"))
}

/// The work tree as `commit`'s tree, coming from `old`.
fn checkout(
    repo: &MemoryRepo,
    dir: &Path,
    old: &TreeMap,
    commit: ObjectId,
) -> Result<(), TeamError> {
    let new = repo.commit_tree(commit)?;
    write_files(repo, dir, old, &new)
}

/// Write the files of `new` that differ from `old`, and remove those only `old` has.
fn write_files(
    repo: &MemoryRepo,
    dir: &Path,
    old: &TreeMap,
    new: &TreeMap,
) -> Result<(), TeamError> {
    let mut index_last = None;
    for (name, (_, id)) in new {
        if old.get(name).is_some_and(|(_, before)| before == id) {
            continue;
        }
        let path = dir.join(name.to_string());
        // The index goes last, after the topic files it names (§4's order).
        if name == INDEX_FILE {
            index_last = Some((path, *id));
            continue;
        }
        write_atomic(&path, &repo.blob(*id)?)?;
    }
    if let Some((path, id)) = index_last {
        write_atomic(&path, &repo.blob(id)?)?;
    }
    for name in old.keys().filter(|name| !new.contains_key(*name)) {
        remove_if_exists(&dir.join(name.to_string()))?;
    }
    Ok(())
}
