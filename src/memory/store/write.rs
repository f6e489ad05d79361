//! The write of a mutation (DESIGN §4): its files written beside their targets, fsynced in one
//! batch with the commit's objects, renamed into place in crash order (topic file, then index),
//! and only then the branch moved.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::repo::TreeMap;

use super::*;

impl Store {
    /// Commit `tree`; stat data goes to `.git/index` for files whose work content is in it.
    pub(super) fn commit(
        &mut self,
        tree: &TreeMap,
        parent: Option<ObjectId>,
        message: &str,
        work: &WorkTree,
    ) -> Result<ObjectId, StoreError> {
        Ok(self
            .repo
            .commit(tree, parent, message, &clean_files(tree, work))?)
    }

    /// Write `files` (name and new bytes, or `None` to delete) in this order and commit them
    /// on top of `state` with `message`; `state` follows the commit.
    ///
    /// Durability: the temp files are written and their fsyncs start (on the fsync threads)
    /// while the commit's loose objects are staged, then the objects' temp files are fsynced; both
    /// are done before the objects take their names and each file is renamed into place in order,
    /// the directory fsynced after each (so a crash keeps the order: topic file before index
    /// line; the objects' folders join the first of those fsyncs; the last runs while
    /// `.git/index` is written), with a fault point after each; only then does the branch move.
    pub(crate) fn write_and_commit(
        &mut self,
        state: &mut State,
        files: &[(&str, Option<&[u8]>, &str)],
        message: &str,
    ) -> Result<ObjectId, StoreError> {
        self.write_and_commit_while(state, files, message, || ())
            .map(|(commit, ())| commit)
    }

    /// [`Store::write_and_commit`], with `meanwhile` run on this thread while the first fsyncs
    /// are under way (it would otherwise only wait for them); its result with the commit's.
    pub(crate) fn write_and_commit_while<T>(
        &mut self,
        state: &mut State,
        files: &[(&str, Option<&[u8]>, &str)],
        message: &str,
        meanwhile: impl FnOnce() -> T,
    ) -> Result<(ObjectId, T), StoreError> {
        // HEAD's tree becomes the new one in place (a copy of a thousand entries would cost more
        // than the write); should the write fail, the entries it changed are put back.
        let mut tree = std::mem::take(&mut state.tree);
        let before: Vec<_> = files
            .iter()
            .map(|(name, _, _)| (*name, tree.get(name.as_bytes()).copied()))
            .collect();
        let mut temps = Vec::new();
        let result = (|| {
            for (name, bytes, _) in files {
                if let Some(bytes) = bytes {
                    temps.push(write_temp(&self.dir, name, bytes)?);
                }
            }
            // The work-tree files' fsyncs run while the objects are made; the objects' follow.
            let temps_synced = crate::repo::start_sync(&temps)?;
            for (name, bytes, _) in files {
                match bytes {
                    Some(bytes) => {
                        let id = self.repo.stage_blob(bytes)?;
                        tree.insert((*name).into(), (EntryKind::Blob, id));
                    }
                    None => {
                        tree.remove(name.as_bytes());
                    }
                }
            }
            let parents: Vec<ObjectId> = state.parent.into_iter().chain(state.merging).collect();
            let prepared = self
                .repo
                .prepare_commit_with_parents(&tree, &parents, message)?;
            let objects_synced = crate::repo::start_sync(&prepared.files_to_sync)?;
            let during = meanwhile();
            let temps_durable = temps_synced.wait();
            objects_synced.wait().and(temps_durable)?;
            // The objects take their names now; those are made durable with the memory dir's
            // next fsync, in the same batch.
            let mut folders = self.repo.place_objects(&prepared)?;
            let mut temps = temps.iter();
            // Whether the folder holds a change not yet fsynced: the last one's fsync runs
            // while `.git/index` is written, and the branch moves after both.
            let mut unsynced = false;
            for (name, bytes, fault) in files {
                if std::mem::take(&mut unsynced) {
                    folders.push(self.dir.clone());
                    crate::repo::sync_files(&std::mem::take(&mut folders))?;
                }
                let target = self.dir.join(name);
                // A temp file stands for each file with content, in order; deletions have none.
                let tmp = if bytes.is_some() { temps.next() } else { None };
                match tmp {
                    Some(tmp) => {
                        std::fs::rename(tmp, &target).map_err(io_error(&target))?;
                        unsynced = true;
                        let stat = crate::repo::file_stat(&target)?.0;
                        let id = tree.get(name.as_bytes()).map(|(_, id)| *id);
                        if let Some(id) = id {
                            state.work.insert(name.to_string(), WorkFile { id, stat });
                        }
                    }
                    None => {
                        match std::fs::remove_file(&target) {
                            Ok(()) => unsynced = true,
                            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                            Err(e) => return Err(io_error(&target)(e)),
                        }
                        state.work.remove(*name);
                    }
                }
                crate::fault::point(fault);
            }
            let clean = clean_files(&tree, &state.work);
            if unsynced {
                folders.push(self.dir.clone());
            }
            let synced = crate::repo::start_sync(&folders)?;
            let commit = self
                .repo
                .publish_after(prepared, &tree, &clean, || synced.wait())?;
            Ok((commit, during))
        })();
        if result.is_err() {
            for tmp in &temps {
                let _ = std::fs::remove_file(tmp);
            }
            for (name, entry) in before {
                match entry {
                    Some(entry) => tree.insert(name.into(), entry),
                    None => tree.remove(name.as_bytes()),
                };
            }
        }
        state.tree = tree;
        let (commit, during) = result?;
        state.parent = Some(commit);
        state.merging = None;
        // Enough loose objects: pack them in the background, off this command's path.
        if crate::repo::pack::due(self.repo.git_dir()) {
            crate::repo::pack::start(self.repo.git_dir(), &self.dir);
        }
        Ok((commit, during))
    }
}

/// Write `bytes` to a temp file beside `dir/file` (not yet fsynced); the caller fsyncs it and
/// renames it into place.
pub(super) fn write_temp(dir: &Path, file: &str, bytes: &[u8]) -> Result<PathBuf, StoreError> {
    let tmp = crate::atomic::temp_path(&dir.join(file));
    let written = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&tmp)
        .and_then(|mut out| out.write_all(bytes));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_error(&tmp)(e));
    }
    Ok(tmp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::store::worktree::Scan;
    use crate::repo::testing::git;

    /// A write that fails after its objects were made (here the rename of `b.md` over a folder)
    /// leaves the state's tree as it was: what HEAD holds, not the half-made new one.
    #[test]
    fn a_failed_write_leaves_the_tree_of_the_state_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let mut state = store.state(Scan::Full, None).unwrap();
        let index = b"- [A](a.md) \xe2\x80\x94 one\n".as_slice();
        let first = [
            ("a.md", Some(b"one".as_slice()), ""),
            ("MEMORY.md", Some(index), ""),
        ];
        store
            .write_and_commit(&mut state, &first, "first\n")
            .unwrap();
        let before = state.tree.clone();
        assert_eq!(before.len(), 2);

        std::fs::create_dir_all(dir.path().join("b.md/inside")).unwrap();
        let second = [("b.md", Some(b"two".as_slice()), ""), ("a.md", None, "")];
        assert!(
            store
                .write_and_commit(&mut state, &second, "second\n")
                .is_err()
        );
        assert_eq!(state.tree, before);
        git(dir.path(), &["fsck", "--strict", "--no-progress"]);
        let log = git(dir.path(), &["log", "--format=%s"]);
        assert_eq!(String::from_utf8_lossy(&log), "first\n");
    }
}
