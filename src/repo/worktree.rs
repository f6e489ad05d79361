//! `.git/index` as memdir last wrote it, read back to tell unchanged work-tree files by their
//! stat data (as `git status` does), and the stat data of a work-tree file.

use std::path::Path;

use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::repo::{RepoError, Stat};

/// `.git/index`, read-only.
pub struct WorktreeIndex {
    pub(crate) file: gix::index::File,
    /// The index file's mtime, taken before it was read.
    pub(crate) mtime: Option<std::time::SystemTime>,
}

impl WorktreeIndex {
    pub fn mtime(&self) -> Option<std::time::SystemTime> {
        self.mtime
    }

    /// Whether the index has an entry for `path` with this inode number (as the index keeps
    /// it: the low 32 bits).
    pub fn has_inode(&self, path: &str, ino: u64) -> bool {
        self.file
            .entry_by_path(path.into())
            .is_some_and(|e| e.stat.ino == ino as u32)
    }

    /// Whether the index has an entry for `path`.
    pub fn tracks(&self, path: &str) -> bool {
        self.file.entry_by_path(path.into()).is_some()
    }

    /// Every top-level entry the work tree holds as the index records it: name, blob id, stat
    /// data (not those marked skip-worktree: carried in git, never written).
    pub fn work_files(&self) -> impl Iterator<Item = (&str, ObjectId, Stat)> + '_ {
        self.file.entries().iter().filter_map(|e| {
            let path = e.path(&self.file).to_str().ok()?;
            let in_work_tree =
                !path.contains('/') && !e.flags.contains(gix::index::entry::Flags::SKIP_WORKTREE);
            in_work_tree.then_some((path, e.id, e.stat))
        })
    }

    /// The blob id of `path` when its stat data proves it unchanged since the index was written
    /// (and the entry is not racily clean); `None` when its content must be hashed.
    pub fn unchanged_id(&self, path: &str, stat: &Stat) -> Option<ObjectId> {
        let entry = self.file.entry_by_path(path.into())?;
        // Nanoseconds count (as in git built with USE_NSEC): a file written in the same clock
        // tick as the index stays racy and is hashed; one written before it is not.
        let options = gix::index::entry::stat::Options {
            use_nsec: true,
            ..Default::default()
        };
        (*stat != Stat::default()
            && entry.stat.matches(stat, options)
            && !entry.stat.is_racy(self.file.timestamp(), options))
        .then_some(entry.id)
    }
}

/// Stat data for a work-tree file (not following a symlink), taken before its content is read.
/// Zero when the platform's times cannot be represented (git then compares content).
pub fn file_stat(path: &Path) -> Result<(Stat, bool), RepoError> {
    let meta =
        gix::index::fs::Metadata::from_path_no_follow(path).map_err(|source| RepoError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    Ok((Stat::from_fs(&meta).unwrap_or_default(), meta.is_file()))
}
