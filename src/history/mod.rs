//! History as version control (DESIGN §4, §14): the operation log and its undo stack
//! ([`oplog`]), taking changes back three ways with what came since — `undo`, `redo`,
//! `revert` ([`revert`]) — and going back to a whole earlier tree or one memory's earlier
//! version — `rollback`, `restore` ([`rollback`]). Each is one new commit; history is never
//! rewritten. Pending work-tree changes are adopted first (their own operations), so nothing
//! the user or an agent wrote is lost by going back, and each says what it changed, memory by
//! memory ([`WentBack`]).

pub mod oplog;
pub mod revert;
pub mod rollback;

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::memory::merge::Conflict;
use crate::memory::store::{Adoption, INDEX_FILE, StoreError};
use crate::memory::taxonomy::{is_memory_file_name, is_topic_file_name};
use crate::memory::topic::TopicFile;
use crate::repo::{MemoryRepo, RepoError, TreeMap};

#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// Nothing left for `undo` to take back (the text says why).
    #[error("nothing to undo: {0}")]
    NothingToUndo(String),
    #[error("nothing to redo: no undo since the last operation")]
    NothingToRedo,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

impl HistoryError {
    /// Whether the request was refused and nothing changed (exit 2), not a failure.
    pub fn is_invalid_input(&self) -> bool {
        match self {
            HistoryError::NothingToUndo(_) | HistoryError::NothingToRedo => true,
            HistoryError::Store(e) => e.is_invalid_input(),
            HistoryError::Repo(e) => e.is_refusal(),
        }
    }
}

/// How one memory changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Added,
    Changed,
    Removed,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Changed => "changed",
            Change::Removed => "removed",
        }
    }
}

/// One memory a going-back changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryChange {
    pub name: String,
    /// Its topic file, `<name>.md`.
    pub file: String,
    /// Its type as its frontmatter says (the version removed, for a removal); `None` untyped.
    pub memory_type: Option<String>,
    pub change: Change,
}

/// What an undo, redo, revert, rollback or restore did.
#[derive(Debug, Clone, Default)]
pub struct WentBack {
    /// `None` when the memory dir already held exactly that.
    pub commit: Option<ObjectId>,
    pub adoption: Adoption,
    /// The memories it added, changed and removed, by file name.
    pub changes: Vec<MemoryChange>,
    /// Whether `MEMORY.md` changed.
    pub index_changed: bool,
    /// Memories changed since in the same place: the version now kept as it is, the one taken
    /// back to kept beside it.
    pub conflicts: Vec<Conflict>,
}

/// A file memdir writes and takes back: a topic file or the index. Anything else a tree holds
/// (a folder, a link, a file someone committed by hand) is left as HEAD has it.
pub(crate) fn is_memory_file(name: &[u8], kind: EntryKind) -> bool {
    matches!(kind, EntryKind::Blob | EntryKind::BlobExecutable)
        && std::str::from_utf8(name).is_ok_and(is_memory_file_name)
}

/// The memories that differ between `old` and `new`, by file name, and whether the index does.
pub(crate) fn changes_between(
    repo: &MemoryRepo,
    old: &TreeMap,
    new: &TreeMap,
) -> Result<(Vec<MemoryChange>, bool), RepoError> {
    let mut changes = Vec::new();
    let mut index_changed = false;
    let names: std::collections::BTreeSet<_> = old.keys().chain(new.keys()).collect();
    for name in names {
        let (before, after) = (old.get(name), new.get(name));
        if before == after {
            continue;
        }
        let Ok(file) = std::str::from_utf8(name) else {
            continue;
        };
        if file == INDEX_FILE {
            index_changed = true;
            continue;
        }
        if !is_topic_file_name(file) {
            continue;
        }
        let (change, (_, blob)) = match (before, after) {
            (None, Some(entry)) => (Change::Added, entry),
            (Some(entry), None) => (Change::Removed, entry),
            (_, Some(entry)) => (Change::Changed, entry),
            (None, None) => continue,
        };
        let memory_type = repo
            .blob_capped(*blob, crate::input::MAX_TOPIC_FILE_BYTES)?
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| TopicFile::parse(&text).ok())
            .and_then(|topic| topic.memory_type)
            .map(|t| t.as_str().to_string());
        changes.push(MemoryChange {
            name: file.trim_end_matches(".md").to_string(),
            file: file.to_string(),
            memory_type,
            change,
        });
    }
    Ok((changes, index_changed))
}
