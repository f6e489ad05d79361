//! The work tree as a mutation reads it once at its start: the top-level `*.md` regular files
//! and their blob ids, hashed only when `.git/index`'s stat data cannot prove them unchanged; a
//! symlink, a FIFO or a file over its cap is never read (and never taken for deleted).

use std::collections::BTreeSet;

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;

use crate::atomic::TEMP_SUFFIX;
use crate::repo::{CleanFiles, RepoError, TreeMap, WorktreeIndex};

use crate::memory::taxonomy::{is_memory_file_name, is_topic_file_name};

use super::*;

/// The top-level work-tree files by name.
pub(crate) type WorkTree = std::collections::BTreeMap<String, WorkFile>;

/// Where a mutation starts: HEAD, its tree, and the work tree as scanned once.
pub(crate) struct State {
    pub(crate) parent: Option<ObjectId>,
    pub(crate) tree: TreeMap,
    pub(crate) work: WorkTree,
    /// `*.md` entries memdir will not read (a symlink, a FIFO, a file over its cap): never
    /// committed, never taken for deleted; `doctor` reports them.
    pub(crate) unreadable: BTreeSet<String>,
    /// The second parent of the next commit, when it merges a branch (a consolidation).
    pub(crate) merging: Option<ObjectId>,
}

/// A top-level `*.md` entry of the work tree as a mutation sees it.
pub(super) enum Entry {
    Missing,
    /// There, but not a regular file memdir reads.
    Unreadable,
    File(WorkFile),
}

/// How much of the work tree a mutation looks at before it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scan {
    /// Every file.
    Full,
    /// Only when the directory or `MEMORY.md` changed since `.git/index` was written.
    IfChanged,
}

/// A top-level work-tree file, with the blob id of its content.
pub(crate) struct WorkFile {
    pub(crate) id: ObjectId,
    pub(crate) stat: crate::repo::Stat,
}

impl Store {
    /// Top-level `*.md` regular files and their blob ids, hashing only those whose stat data
    /// does not prove them unchanged since `.git/index` was written (as `git status` does).
    /// Temp files left by a writer that died are removed on the way (the lock is held).
    pub(super) fn scan(
        &self,
        index: Option<&WorktreeIndex>,
        unreadable: &mut BTreeSet<String>,
    ) -> Result<WorkTree, StoreError> {
        let mut out = WorkTree::new();
        if let Some(index) = index {
            index.index_names();
        }
        for entry in std::fs::read_dir(&self.dir).map_err(io_error(&self.dir))? {
            let entry = entry.map_err(io_error(&self.dir))?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if name.starts_with('.') && name.ends_with(TEMP_SUFFIX) {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(io_error(&path))?;
                continue;
            }
            if !(is_topic_file_name(&name) || name == INDEX_FILE) {
                continue;
            }
            let found = match crate::repo::entry_stat(&entry) {
                Ok(found) => found,
                Err(RepoError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            match self.work_file_stated(&name, found, index)? {
                Entry::File(file) => {
                    out.insert(name, file);
                }
                Entry::Unreadable => {
                    unreadable.insert(name);
                }
                Entry::Missing => {}
            }
        }
        Ok(out)
    }

    /// One top-level file as it is now. Its content is hashed unless `.git/index` proves it
    /// unchanged; anything but a regular file under its cap is never read.
    pub(super) fn work_file(
        &self,
        name: &str,
        index: Option<&WorktreeIndex>,
    ) -> Result<Entry, StoreError> {
        let path = self.dir.join(name);
        let found = match crate::repo::file_stat(&path) {
            Ok(found) => found,
            Err(RepoError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Entry::Missing);
            }
            Err(e) => return Err(e.into()),
        };
        self.work_file_stated(name, found, index)
    }

    /// [`Store::work_file`] with its stat data and kind taken already.
    fn work_file_stated(
        &self,
        name: &str,
        (stat, is_file): (crate::repo::Stat, bool),
        index: Option<&WorktreeIndex>,
    ) -> Result<Entry, StoreError> {
        if !is_file {
            return Ok(Entry::Unreadable);
        }
        let id = match index.and_then(|index| index.unchanged_id(name, &stat)) {
            Some(id) => id,
            None => match read_memory_file(&self.dir, name, cap_of(name)) {
                Ok(Some(bytes)) => self.repo.blob_id(&bytes)?,
                Ok(None) => return Ok(Entry::Missing),
                Err(StoreError::Input(e)) if e.is_refusal() => return Ok(Entry::Unreadable),
                Err(e) => return Err(e),
            },
        };
        Ok(Entry::File(WorkFile { id, stat }))
    }

    /// HEAD and the work tree, read once at the start of a mutation. With `Scan::IfChanged`
    /// the directory is not listed when `.git/index` proves nothing was added, removed or
    /// renamed in it since (its mtime is older than the index's) and `MEMORY.md` is unchanged:
    /// then the work tree is what the index records, but for `target` (the file the mutation
    /// is about), which is always looked at. An in-place edit of another tracked topic file is
    /// not seen that way; `snapshot` (run by the hooks after each agent write) always scans in
    /// full.
    pub(crate) fn state(&self, scan: Scan, target: Option<&str>) -> Result<State, StoreError> {
        let index = self.repo.open_index();
        let mut unreadable = BTreeSet::new();
        let work = match (&index, scan) {
            (Some(index), Scan::IfChanged) if self.unchanged_since(index)? => {
                let mut work: WorkTree = index
                    .work_files()
                    .map(|(name, id, stat)| (name.to_string(), WorkFile { id, stat }))
                    .collect();
                // Never update or delete a file whose latest content is not in history.
                if let Some(target) = target {
                    work.remove(target);
                    match self.work_file(target, Some(index))? {
                        Entry::File(file) => {
                            work.insert(target.to_string(), file);
                        }
                        Entry::Unreadable => {
                            unreadable.insert(target.to_string());
                        }
                        Entry::Missing => {}
                    }
                }
                work
            }
            _ => self.scan(index.as_ref(), &mut unreadable)?,
        };
        Ok(State {
            parent: self.repo.head_commit()?,
            tree: self.repo.head_tree()?,
            work,
            unreadable,
            merging: None,
        })
    }

    /// Whether the memory dir provably holds what `.git/index` records, but for in-place edits
    /// of topic files: the racy-git rule applied to the directory and to `MEMORY.md`.
    pub(super) fn unchanged_since(&self, index: &WorktreeIndex) -> Result<bool, StoreError> {
        let path = self.dir.join(INDEX_FILE);
        let index_file_unchanged = match crate::repo::file_stat(&path) {
            Ok((stat, true)) => index.unchanged_id(INDEX_FILE, &stat).is_some(),
            Ok((_, false)) => false,
            Err(_) => !index.tracks(INDEX_FILE),
        };
        if !index_file_unchanged {
            return Ok(false);
        }
        let dir_mtime = std::fs::metadata(&self.dir)
            .and_then(|m| m.modified())
            .map_err(io_error(&self.dir))?;
        if index
            .mtime()
            .is_some_and(|index_mtime| dir_mtime < index_mtime)
        {
            return Ok(true);
        }
        // The directory changed in the same clock tick as the index, or later: compare its
        // names and inode numbers (from one directory listing, no stat per file) with the
        // index. A file added, removed or replaced by rename shows; a temp file means a writer
        // died, and the full scan removes it.
        let mut seen = 0;
        for entry in std::fs::read_dir(&self.dir).map_err(io_error(&self.dir))? {
            let entry = entry.map_err(io_error(&self.dir))?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if name.ends_with(TEMP_SUFFIX) {
                return Ok(false);
            }
            if !(is_topic_file_name(&name) || name == INDEX_FILE) {
                continue;
            }
            if !entry_inode(&entry).is_some_and(|ino| index.has_inode(&name, ino)) {
                return Ok(false);
            }
            seen += 1;
        }
        Ok(seen == index.work_files().count())
    }
}

/// A directory entry's inode number, where the platform has one.
#[cfg(unix)]
pub(super) fn entry_inode(entry: &std::fs::DirEntry) -> Option<u64> {
    Some(std::os::unix::fs::DirEntryExt::ino(entry))
}

#[cfg(not(unix))]
pub(super) fn entry_inode(_entry: &std::fs::DirEntry) -> Option<u64> {
    None
}

/// Whether a tree entry is one the work tree holds: a memory file (the index or a topic file)
/// that is a plain file. What else a tree may carry (a README, a folder, a link, a submodule,
/// from a remote; DESIGN §8) stays in git, is never written, and is never taken for deleted.
pub fn is_checked_out(name: &[u8], kind: EntryKind) -> bool {
    kind == EntryKind::Blob && std::str::from_utf8(name).is_ok_and(is_memory_file_name)
}

/// Whether every memory file of the work tree is exactly what `tree` holds, and vice versa.
pub(crate) fn work_matches_tree(work: &WorkTree, tree: &TreeMap) -> bool {
    let tracked = tree
        .iter()
        .filter(|(name, (kind, _))| is_checked_out(name, *kind));
    tracked.clone().count() == work.len()
        && tracked.into_iter().all(|(name, (_, id))| {
            std::str::from_utf8(name)
                .ok()
                .and_then(|name| work.get(name))
                .is_some_and(|w| w.id == *id)
        })
}

/// The stat data for `.git/index` of the work-tree files whose content `tree` holds.
pub(crate) fn clean_files<'a>(tree: &TreeMap, work: &'a WorkTree) -> CleanFiles<'a> {
    let mut clean = CleanFiles::with_capacity(work.len());
    clean.extend(
        work.iter()
            .filter(|(name, w)| tree.get(name.as_bytes()).is_some_and(|(_, id)| *id == w.id))
            .map(|(name, w)| (name.as_bytes().as_bstr(), w.stat)),
    );
    clean
}
