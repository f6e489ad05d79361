//! `.git/index` as memdir last wrote it, read back to tell unchanged work-tree files by their
//! stat data (as `git status` does), and the stat data of a work-tree file.

use std::collections::HashMap;
use std::path::Path;

use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::repo::{RepoError, Stat};

/// `.git/index`, read-only.
pub struct WorktreeIndex {
    pub(crate) file: gix::index::File,
    /// The index file's mtime, taken before it was read.
    pub(crate) mtime: Option<std::time::SystemTime>,
    /// Each top-level entry's position, once [`WorktreeIndex::index_names`] made it: a scan of
    /// ten thousand files looks each up in constant time rather than by a binary search of
    /// paths.
    pub(crate) positions: std::cell::OnceCell<HashMap<String, usize>>,
}

impl WorktreeIndex {
    /// Make every later lookup by name a hash lookup (worth it before looking up many).
    pub fn index_names(&self) {
        self.positions.get_or_init(|| {
            let mut positions = HashMap::with_capacity(self.file.entries().len());
            for (n, e) in self.file.entries().iter().enumerate() {
                if let Ok(path) = e.path(&self.file).to_str() {
                    // Sorted by path, then stage: the first is stage 0, as `entry_by_path` finds.
                    positions.entry(path.to_string()).or_insert(n);
                }
            }
            positions
        });
    }

    /// The entry for `path`.
    fn entry(&self, path: &str) -> Option<&gix::index::Entry> {
        match self.positions.get() {
            Some(positions) => positions
                .get(path)
                .and_then(|&n| self.file.entries().get(n)),
            None => self.file.entry_by_path(path.into()),
        }
    }

    pub fn mtime(&self) -> Option<std::time::SystemTime> {
        self.mtime
    }

    /// Whether the index has an entry for `path` with this inode number (as the index keeps
    /// it: the low 32 bits).
    pub fn has_inode(&self, path: &str, ino: u64) -> bool {
        self.entry(path).is_some_and(|e| e.stat.ino == ino as u32)
    }

    /// Whether the index has an entry for `path`.
    pub fn tracks(&self, path: &str) -> bool {
        self.entry(path).is_some()
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
        let entry = self.entry(path)?;
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

/// [`file_stat`] of an entry a folder's listing gave: asked relative to the folder (`fstatat`),
/// so the kernel does not walk the whole path again for each of thousands of files, and
/// converted as gix converts it (the change time as `ctime`, 32-bit truncations as git's).
pub fn entry_stat(entry: &std::fs::DirEntry) -> Result<(Stat, bool), RepoError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = entry.metadata().map_err(|source| RepoError::Io {
            path: entry.path(),
            source,
        })?;
        let time = |secs: i64, nsecs: i64| gix::index::entry::stat::Time {
            secs: u32::try_from(secs).unwrap_or_default(),
            nsecs: u32::try_from(nsecs).unwrap_or_default(),
        };
        let stat = Stat {
            mtime: time(meta.mtime(), meta.mtime_nsec()),
            ctime: time(meta.ctime(), meta.ctime_nsec()),
            // Truncated as gix and git truncate them: they are compared, never mapped back.
            dev: meta.dev() as u32,
            ino: meta.ino() as u32,
            uid: meta.uid(),
            gid: meta.gid(),
            size: meta.size() as u32,
        };
        Ok((stat, meta.is_file()))
    }
    #[cfg(not(unix))]
    {
        file_stat(&entry.path())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What the listing gives is what a stat of the path gives, field for field, so `.git/index`
    /// written from either proves the same files unchanged.
    #[test]
    fn a_listed_entry_has_the_stat_data_of_its_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.md"), "text\n").expect("write");
        std::os::unix::fs::symlink("a.md", dir.path().join("link.md")).expect("link");
        for entry in std::fs::read_dir(dir.path()).expect("list") {
            let entry = entry.expect("entry");
            assert_eq!(
                entry_stat(&entry).expect("listed"),
                file_stat(&entry.path()).expect("by path"),
                "{}",
                entry.path().display()
            );
        }
    }
}
