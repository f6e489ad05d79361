//! Joining a team (DESIGN §8): `<memory dir>/team/` cloned from the team's remote (an empty
//! remote starts an empty team memory), looked at like every tree from the remote before a file
//! is written, and memdir's `MEMORY.md` merge driver registered in the clone. Joining again with
//! the same remote (in any spelling of its address) changes nothing; with another, it says how
//! to switch.

use std::path::Path;

use crate::atomic::write as write_atomic;
use crate::memory::store::{Changed, Head, Scan, Store};
use crate::repo::TreeMap;
use crate::repo::message::{Op, commit_message_with};
use crate::repo::remote_url::{normalize, shown};
use crate::sync::SyncError;
use crate::sync::guard;
use crate::sync::transport::{self, Fetched};
use crate::team::TeamError;
use crate::team::sync::{REMOTE, dropped_trailer, is_team_repo};

/// What joining did.
#[derive(Debug)]
pub enum Joined {
    /// Cloned: the memory files written, the entries kept in git only, those dropped.
    Cloned {
        changed: Vec<Changed>,
        foreign: Vec<String>,
        dropped: Vec<guard::Dropped>,
    },
    /// The team memory there syncs with this remote already.
    Already,
}

/// Clone `url` into the team dir `dir` of `memory_dir`, registering `memdir` (this executable)
/// as the merge driver. Nothing is written when `dir` holds team memory of this remote already;
/// refused (nothing written) when it holds another's, when it is something else, or when the
/// remote holds objects git refuses.
pub fn init(memory_dir: &Path, dir: &Path, url: &str, memdir: &Path) -> Result<Joined, TeamError> {
    if is_team_repo(dir) {
        let current = crate::repo::project::remotes(dir)
            .into_iter()
            .find(|(name, _)| name == REMOTE)
            .map(|(_, url)| url)
            .unwrap_or_default();
        let same = normalize(&current, dir).is_some_and(|c| Some(c) == normalize(url, dir));
        if !same {
            return Err(TeamError::OtherRemote {
                dir: dir.to_path_buf(),
                current: shown(&current),
                asked: shown(url),
            });
        }
        register_merge_driver(dir, memdir)?;
        return Ok(Joined::Already);
    }
    if dir.exists() {
        return Err(TeamError::NotATeamRepository(dir.to_path_buf()));
    }
    // The personal memory repository must not track the team's files.
    Store::open(memory_dir)?;
    if let Fetched::Refused(reason) = transport::clone(url, dir, "the team remote")? {
        return Err(SyncError::CloneRefused {
            remote: "the team remote",
            url: shown(url),
            reason,
        }
        .into());
    }
    let joined = check_out_clone(dir);
    if joined.is_err() {
        let _ = std::fs::remove_dir_all(dir);
    }
    let joined = joined?;
    register_merge_driver(dir, memdir)?;
    Ok(joined)
}

/// Write the work tree and `.git/index` of a team clone made without a checkout: its tree as
/// memdir takes it ([`guard::clean`]); when that dropped entries git refuses, the tree without
/// them is committed on top (and pushed by the next sync).
fn check_out_clone(dir: &Path) -> Result<Joined, TeamError> {
    let mut store = Store::open(dir)?;
    let mut state = store.state(Scan::Full, None)?;
    let Some(tip) = state.parent else {
        return Ok(Joined::Cloned {
            changed: Vec::new(),
            foreign: Vec::new(),
            dropped: Vec::new(),
        });
    };
    let cleaned = guard::clean(&mut store.repo, tip, &TreeMap::new())?
        .map_err(|bad| bad.refusal_from_remote("the team remote", "run memdir team init again"))?;
    // Nothing is checked out yet.
    state.tree = TreeMap::new();
    let trailer = dropped_trailer(&cleaned.dropped);
    let message = commit_message_with(
        Op::Sync,
        "team",
        &format!("take {REMOTE}"),
        "The remote's tree without the entries git refuses to check out.",
        None,
        &[("Theirs", &tip.to_string()), ("Dropped", &trailer)],
    );
    let head = if cleaned.dropped.is_empty() {
        Head::Existing {
            commit: tip,
            log: "team init: check out",
        }
    } else {
        Head::Commit {
            parents: &[tip],
            message: &message,
        }
    };
    let (_, changed) = store.check_out(&mut state, &cleaned.tree, head)?;
    Ok(Joined::Cloned {
        changed,
        foreign: guard::foreign(&cleaned.tree),
        dropped: cleaned.dropped,
    })
}

/// The git attributes and config that make a plain `git pull` merge `MEMORY.md` as memdir does.
pub fn register_merge_driver(dir: &Path, memdir: &Path) -> Result<(), TeamError> {
    let git_dir = dir.join(".git");
    let attributes = git_dir.join("info").join("attributes");
    let line = "MEMORY.md merge=memdir-index\n";
    let current = std::fs::read_to_string(&attributes).unwrap_or_default();
    if !current.contains(line.trim_end()) {
        write_atomic(&attributes, format!("{current}{line}").as_bytes())
            .map_err(SyncError::from)?;
    }
    let config = git_dir.join("config");
    let current = std::fs::read_to_string(&config).map_err(SyncError::io(&config))?;
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
        write_atomic(&config, text.as_bytes()).map_err(SyncError::from)?;
    }
    Ok(())
}
