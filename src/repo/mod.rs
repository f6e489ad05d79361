//! The only module that talks to gix (DESIGN §4): the memory dir's repository, a promotion's
//! target repository, the commits memdir writes into them, `.git/index`, and history.
//!
//! Commits are made in-process with an explicit signature (a machine with no git identity gets
//! `memdir <memdir@localhost>`), their objects are fsynced before a ref names them, refs move by
//! compare-and-swap, and `.git/index` is rebuilt from the new tree with stat data only where the
//! work tree is known to hold that content, so `git status` is exact without rehashing.
//!
//! - [`commit`]: the one commit writer (trees, commit objects, hardening, ref moves, identity);
//! - [`memory_repo`]: the memory dir's own repository ([`MemoryRepo`]);
//! - [`target_repo`]: a repository a promotion branch is written into ([`TargetRepo`]);
//! - [`message`]: the commit-message format, written and parsed;
//! - [`history_cache`]: the history (all parents) kept in one file, checked against HEAD;
//! - [`operation`]: the scope that makes several commits one operation (DESIGN §14);
//! - [`pack`]: packing every object into one pack, in the background once enough are loose;
//! - [`worktree`]: `.git/index` read back, and stat data;
//! - [`project`]: questions about a project's own repository (what it tracks, its remotes);
//! - `refs`: refs read and set by name (a sync's remote-tracking and bookkeeping refs);
//! - [`remote_url`]: git remote addresses in one spelling;
//! - [`tree_filter`]: a tree without the entries git refuses to check out;
//! - [`durable`]: fsync of files and folders;
//! - `loose`: loose objects written with one deflate stream per process.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, BString};
use gix::objs::tree::EntryKind;

mod ancestry;
pub mod commit;
pub mod durable;
pub mod history_cache;
mod loose;
pub mod memory_repo;
pub mod message;
pub mod operation;
pub mod pack;
pub mod project;
mod refs;
pub mod remote_url;
pub mod target_repo;
#[cfg(test)]
pub(crate) mod testing;
pub mod tree_filter;
pub mod worktree;

pub(crate) use ancestry::{count_not_in, is_ancestor, merge_base};
pub use durable::{Syncing, start_sync, sync_dir, sync_files};
pub use memory_repo::MemoryRepo;
pub use message::HistoryEntry;
pub use project::{TrackedFile, in_bare_repository, is_tracked, tracked_files};
pub use target_repo::{FileEdit, TargetHead, TargetRepo};
pub use tree_filter::refused_name;
pub use worktree::{WorktreeIndex, entry_stat, file_stat};

#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    #[error("git repository at {dir}: {source}")]
    Git { dir: PathBuf, source: gix::Error },
    #[error("cannot create {dir}: {source}")]
    Create {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("no commit named {0:?} in the memory dir's history")]
    UnknownRevision(String),
    /// `.git` in a memory dir is a symlink, a `gitdir:` file or a linked worktree's folder:
    /// committing there would write into another repository (DESIGN §10).
    #[error("{}/.git is {what}, but the memory dir's repository must be its own .git folder; nothing was written (make it a plain folder, or move the memory dir)", dir.display())]
    NotOwnGitDir { dir: PathBuf, what: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl RepoError {
    /// Whether the request or the memory dir's layout was refused (exit 2), not a failure.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            RepoError::UnknownRevision(_) | RepoError::NotOwnGitDir { .. }
        )
    }
}

/// The top level of a commit's tree, by file name. memdir keeps the memory tree flat; entries it
/// did not make (a folder someone committed by hand) are carried over untouched.
pub type TreeMap = std::collections::BTreeMap<BString, (EntryKind, ObjectId)>;

/// The stat data of work-tree files known to hold exactly what the new tree records for them,
/// taken before their content was read; by name, borrowed from the work tree's listing.
pub type CleanFiles<'a> = HashMap<&'a BStr, Stat>;

/// A file's stat data as `.git/index` records it.
pub use gix::index::entry::Stat;

/// Whether the memory dir `dir` has its repository yet: `false` when there is no `.git` at all,
/// an error when `.git` is anything but the memory dir's own folder (a symlink, a `gitdir:`
/// file, a folder whose `commondir` names another repository's objects and refs).
pub fn has_repository(dir: &Path) -> Result<bool, RepoError> {
    let dot_git = dir.join(".git");
    let refuse = |what: String| RepoError::NotOwnGitDir {
        dir: dir.to_path_buf(),
        what,
    };
    let meta = match std::fs::symlink_metadata(&dot_git) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(source) => {
            return Err(RepoError::Io {
                path: dot_git,
                source,
            });
        }
    };
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&dot_git).unwrap_or_default();
        return Err(refuse(format!("a symlink to {}", target.display())));
    }
    if !meta.is_dir() {
        return Err(refuse(
            "a file (a gitdir: link to another repository)".into(),
        ));
    }
    if std::fs::symlink_metadata(dot_git.join("commondir")).is_ok() {
        return Err(refuse(
            "a linked worktree's folder (its commondir names another repository)".into(),
        ));
    }
    // What every command opens or writes in there: a FIFO would hang it, a symlinked refs/ or
    // objects/ folder would carry commits into another repository.
    for (entry, folder) in [
        ("HEAD", false),
        ("config", false),
        ("index", false),
        ("memdir.lock", false),
        ("info/exclude", false),
        ("refs", true),
        ("objects", true),
    ] {
        let Ok(meta) = std::fs::symlink_metadata(dot_git.join(entry)) else {
            continue;
        };
        let fine = if folder {
            meta.is_dir()
        } else {
            meta.is_file()
        };
        if !fine {
            return Err(refuse(format!(
                "a folder whose {entry} is not a plain {}",
                if folder { "folder" } else { "file" }
            )));
        }
    }
    Ok(true)
}

/// The history of the memory dir at `dir`, newest first; empty when it has no repository yet.
pub fn history_of(dir: &Path) -> Result<Vec<HistoryEntry>, RepoError> {
    if has_repository(dir)? {
        MemoryRepo::open(dir)?.history()
    } else {
        Ok(Vec::new())
    }
}

/// The id git gives `bytes` as a blob (SHA-1): a name derived from content that is the same on
/// every machine; `None` for bytes made to collide (SHA-1 collision detection).
pub fn content_id(bytes: &[u8]) -> Option<ObjectId> {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes).ok()
}

pub(crate) fn git_error(dir: &Path, source: gix::Error) -> RepoError {
    RepoError::Git {
        dir: dir.to_path_buf(),
        source,
    }
}
