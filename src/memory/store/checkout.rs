//! A whole tree brought into the work tree and HEAD (DESIGN §4, §8): what a sync merged, or
//! fast-forwarded to. Only memory files are written ([`is_checked_out`]); what else the tree
//! carries stays in git. The files that differ are written beside their targets and fsynced in
//! one batch with the commit's objects, then renamed into place in crash order (topic files, then
//! `MEMORY.md`, then removals), and only then does the branch move.

use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::repo::TreeMap;

use super::write::write_temp;
use super::*;

/// Where HEAD goes once the files are written.
pub(crate) enum Head<'a> {
    /// A new commit of the tree on these parents, with this message (HEAD moves from where it
    /// is, whatever the first parent).
    Commit {
        parents: &'a [ObjectId],
        message: &'a str,
    },
    /// A commit already in the repository whose tree it is (a fast-forward), with this reflog
    /// line.
    Existing { commit: ObjectId, log: &'a str },
}

/// What a checkout did to one memory file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Added,
    Updated,
    Removed,
}

/// One memory file a checkout changed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Changed {
    pub file: String,
    pub change: Change,
}

/// HEAD's move once the files are in place: a prepared commit, or a commit already there.
enum Ready<'a> {
    /// Boxed: a prepared commit carries its message, parents and objects.
    Commit(Box<crate::repo::memory_repo::PreparedCommit>),
    Existing(ObjectId, &'a str),
}

impl Store {
    /// Make the work tree hold `new`'s memory files, coming from `state.tree` (what the work
    /// tree holds now, as committed), then move HEAD as `head` says; `state` follows. A memory
    /// file whose work-tree content is not what `state.tree` records (a change memdir has not
    /// committed: a save in progress, a file it will not read) is never overwritten or removed:
    /// the checkout is refused before anything is written.
    pub(crate) fn check_out(
        &mut self,
        state: &mut State,
        new: &TreeMap,
        head: Head<'_>,
    ) -> Result<(ObjectId, Vec<Changed>), StoreError> {
        let memory = |tree: &TreeMap, name: &[u8]| {
            tree.get(name)
                .filter(|(kind, _)| is_checked_out(name, *kind))
                .map(|(_, id)| *id)
        };
        let mut names: Vec<&[u8]> = state
            .tree
            .keys()
            .chain(new.keys())
            .map(|n| n.as_slice())
            .collect();
        names.sort();
        names.dedup();
        let mut writes: Vec<(String, ObjectId, Change)> = Vec::new();
        let mut removals: Vec<String> = Vec::new();
        let index = self.repo.open_index();
        for name in names {
            let (old, new_id) = (memory(&state.tree, name), memory(new, name));
            let Ok(file) = name.to_str() else {
                continue;
            };
            if old == new_id {
                continue;
            }
            // What the file holds now, looked at again: a state read without a stat per file
            // does not see an in-place edit.
            let (work, unreadable) = match self.work_file(file, index.as_ref())? {
                worktree::Entry::File(found) => (Some(found.id), false),
                worktree::Entry::Unreadable => (None, true),
                worktree::Entry::Missing => (None, false),
            };
            if work == new_id && !unreadable {
                continue;
            }
            if work != old || unreadable {
                return Err(StoreError::InvalidInput(format!(
                    "{} holds a change memdir has not committed (a save in progress, or a file not named in MEMORY.md or one memdir will not read), and the sync would replace it; finish it or move it away, then sync again",
                    self.dir.join(file).display()
                )));
            }
            match new_id {
                Some(id) => {
                    let change = if old.is_some() {
                        Change::Updated
                    } else {
                        Change::Added
                    };
                    writes.push((file.to_string(), id, change));
                }
                None => removals.push(file.to_string()),
            }
        }
        // The index after the topic files it names (§4's order).
        writes.sort_by_key(|(file, _, _)| file == INDEX_FILE);

        let mut temps = Vec::with_capacity(writes.len());
        let result = (|| {
            for (file, id, _) in &writes {
                temps.push(write_temp(&self.dir, file, &self.repo.blob(*id)?)?);
            }
            let temps_synced = crate::repo::start_sync(&temps)?;
            // HEAD's move, made ready while the fsyncs run.
            let (ready, mut folders) = match head {
                Head::Commit { parents, message } => {
                    let prepared = self
                        .repo
                        .prepare_commit_with_parents(new, parents, message)?
                        .expecting(state.parent);
                    let objects = crate::repo::start_sync(&prepared.files_to_sync)?;
                    let temps_durable = temps_synced.wait();
                    objects.wait().and(temps_durable)?;
                    let folders = self.repo.place_objects(&prepared)?;
                    (Ready::Commit(Box::new(prepared)), folders)
                }
                Head::Existing { commit, log } => {
                    temps_synced.wait()?;
                    (Ready::Existing(commit, log), Vec::new())
                }
            };
            for ((file, id, _), tmp) in writes.iter().zip(&temps) {
                if file == INDEX_FILE && !folders.is_empty() {
                    // The topic files' names are durable before the index names them.
                    folders.push(self.dir.clone());
                    crate::repo::sync_files(&std::mem::take(&mut folders))?;
                }
                let target = self.dir.join(file);
                std::fs::rename(tmp, &target).map_err(io_error(&target))?;
                let stat = crate::repo::file_stat(&target)?.0;
                state
                    .work
                    .insert(file.clone(), worktree::WorkFile { id: *id, stat });
            }
            for file in &removals {
                let target = self.dir.join(file);
                match std::fs::remove_file(&target) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(io_error(&target)(e)),
                }
                state.work.remove(file);
            }
            folders.push(self.dir.clone());
            let synced = crate::repo::start_sync(&folders)?;
            let clean = clean_files(new, &state.work);
            match ready {
                Ready::Commit(prepared) => {
                    Ok(self
                        .repo
                        .publish_after(*prepared, new, &clean, || synced.wait())?)
                }
                Ready::Existing(commit, log) => {
                    synced.wait()?;
                    self.repo.advance_head(state.parent, commit, log, &clean)?;
                    Ok(commit)
                }
            }
        })();
        if result.is_err() {
            for tmp in &temps {
                let _ = std::fs::remove_file(tmp);
            }
        }
        let commit = result?;
        state.tree = new.clone();
        state.parent = Some(commit);
        let mut changed: Vec<Changed> = writes
            .into_iter()
            .map(|(file, _, change)| Changed { file, change })
            .chain(removals.into_iter().map(|file| Changed {
                file,
                change: Change::Removed,
            }))
            .collect();
        changed.sort_by(|a, b| a.file.cmp(&b.file));
        Ok((commit, changed))
    }
}
