//! The memory dir's own repository (DESIGN §4): its objects, the commits of every mutation
//! (through [`crate::repo::commit`]), `.git/index` kept in step, refs, history and the scans
//! `doctor` makes of the object database.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice};
use gix::objs::tree::EntryKind;

use crate::repo::commit::{
    commit_object, fanout_folders, loose_files, move_ref, signatures_of, tree_object,
};
use crate::repo::history_cache;
use crate::repo::loose::LooseWriter;
use crate::repo::operation;
use crate::repo::{
    CleanFiles, HistoryEntry, RepoError, Stat, TreeMap, WorktreeIndex, count_not_in, git_error,
    has_repository, is_ancestor, merge_base, sync_files,
};

/// The memory dir's own repository.
pub struct MemoryRepo {
    pub(super) repo: gix::Repository,
    workdir: PathBuf,
    /// Objects written but not yet fsynced; the next commit hardens them.
    unhardened: Vec<ObjectId>,
    loose: LooseWriter,
    /// The bytes of blobs staged by [`MemoryRepo::write_blob`], read from here until the next
    /// commit names them (team merges and adoption read what they wrote).
    staged_blobs: HashMap<ObjectId, Vec<u8>>,
    /// Which top-level tree entries the work tree holds ([`MemoryRepo::set_checkout_rule`]);
    /// the others, and everything in a folder, are marked skip-worktree in `.git/index`.
    checked_out: CheckoutRule,
}

/// Whether a top-level tree entry (its name and kind) is written into the work tree.
pub type CheckoutRule = fn(&[u8], EntryKind) -> bool;

/// Until the store says which files are memories: every plain top-level file.
fn plain_files(_: &[u8], kind: EntryKind) -> bool {
    kind == EntryKind::Blob
}

impl MemoryRepo {
    /// Open the repository at `dir` (exactly there; never a parent's), creating it if absent.
    /// Returns whether it was created.
    pub fn open_or_init(dir: &Path) -> Result<(Self, bool), RepoError> {
        if has_repository(dir)? {
            return Ok((Self::open(dir)?, false));
        }
        std::fs::create_dir_all(dir).map_err(|source| RepoError::Create {
            dir: dir.to_path_buf(),
            source,
        })?;
        let repo = gix::init(dir).map_err(|source| git_error(dir, source))?;
        Ok((Self::from_repo(repo, dir), true))
    }

    /// Open the repository at `dir`, which must exist and be the memory dir's own `.git` folder.
    pub fn open(dir: &Path) -> Result<Self, RepoError> {
        has_repository(dir)?;
        let repo = gix::open(dir).map_err(|source| git_error(dir, source))?;
        Ok(Self::from_repo(repo, dir))
    }

    fn from_repo(repo: gix::Repository, dir: &Path) -> Self {
        MemoryRepo {
            repo,
            workdir: dir.to_path_buf(),
            unhardened: Vec::new(),
            loose: LooseWriter::default(),
            staged_blobs: HashMap::new(),
            checked_out: plain_files,
        }
    }

    /// Say which top-level tree entries the work tree holds: what `.git/index` records as
    /// checked out; the rest is carried in git and marked skip-worktree, so that `git status`
    /// does not take it for deleted (DESIGN §8: entries of a remote's tree that are not memory
    /// files are never written).
    pub fn set_checkout_rule(&mut self, rule: CheckoutRule) {
        self.checked_out = rule;
    }

    pub(super) fn err(&self, source: gix::Error) -> RepoError {
        git_error(&self.workdir, source)
    }

    pub fn git_dir(&self) -> &Path {
        self.repo.git_dir()
    }

    /// The commit HEAD points to; `None` before the first commit.
    pub fn head_commit(&self) -> Result<Option<ObjectId>, RepoError> {
        let mut head = self.repo.head().map_err(|e| self.err(e))?;
        Ok(head
            .try_peel_to_id()
            .map_err(|e| self.err(e))?
            .map(|id| id.detach()))
    }

    /// The top level of HEAD's tree (empty before the first commit).
    pub fn head_tree(&self) -> Result<TreeMap, RepoError> {
        match self.head_commit()? {
            Some(commit) => self.commit_tree(commit),
            None => Ok(TreeMap::new()),
        }
    }

    /// The top level of a commit's tree.
    pub fn commit_tree(&self, commit: ObjectId) -> Result<TreeMap, RepoError> {
        let commit = self.repo.find_commit(commit).map_err(|e| self.err(e))?;
        let tree = commit.tree().map_err(|e| self.err(e))?;
        let decoded = tree.decode().map_err(|e| self.err(e))?;
        Ok(decoded
            .entries
            .iter()
            .map(|e| (e.filename.to_owned(), (e.mode.kind(), e.oid.to_owned())))
            .collect())
    }

    /// Call `f` with the name, kind and id of each entry of the top level of the tree `tree`,
    /// without collecting them (history searches read thousands of trees).
    pub fn each_tree_entry(
        &self,
        tree: ObjectId,
        mut f: impl FnMut(&BStr, EntryKind, ObjectId),
    ) -> Result<(), RepoError> {
        let tree = self.repo.find_tree(tree).map_err(|e| self.err(e))?;
        for entry in tree.iter() {
            let entry = entry.map_err(|e| self.err(gix::Error::from_error(e)))?;
            f(
                entry.inner.filename,
                entry.inner.mode.kind(),
                entry.inner.oid.to_owned(),
            );
        }
        Ok(())
    }

    /// A blob's bytes, when it holds at most `cap` bytes (its size is read from the object's
    /// header first: a huge blob in history is never read).
    pub fn blob_capped(&self, id: ObjectId, cap: u64) -> Result<Option<Vec<u8>>, RepoError> {
        if let Some(bytes) = self.staged_blobs.get(&id) {
            return Ok((bytes.len() as u64 <= cap).then(|| bytes.clone()));
        }
        let header = self.repo.find_header(id).map_err(|e| self.err(e))?;
        if header.size() > cap {
            return Ok(None);
        }
        self.blob(id).map(Some)
    }

    /// A blob's bytes.
    pub fn blob(&self, id: ObjectId) -> Result<Vec<u8>, RepoError> {
        if let Some(bytes) = self.staged_blobs.get(&id) {
            return Ok(bytes.clone());
        }
        let mut blob = self.repo.find_blob(id).map_err(|e| self.err(e))?;
        Ok(blob.take_data())
    }

    /// The id `bytes` would have as a blob, without writing it.
    pub fn blob_id(&self, bytes: &[u8]) -> Result<ObjectId, RepoError> {
        gix::objs::compute_hash(self.repo.object_hash(), gix::objs::Kind::Blob, bytes)
            .map_err(|e| self.err(gix::Error::from_error(e)))
    }

    /// Stage `bytes` as a blob for the next commit, readable at once through
    /// [`MemoryRepo::blob`]: like [`MemoryRepo::stage_blob`], it takes its name only once its
    /// data is durable.
    pub fn write_blob(&mut self, bytes: &[u8]) -> Result<ObjectId, RepoError> {
        let id = self.stage_blob(bytes)?;
        self.staged_blobs.insert(id, bytes.to_vec());
        Ok(id)
    }

    /// Stage `bytes` as a blob for the next commit: it takes its name when the commit's objects
    /// are placed, after its data is durable ([`MemoryRepo::place_objects`]).
    pub fn stage_blob(&mut self, bytes: &[u8]) -> Result<ObjectId, RepoError> {
        let id = self.loose.stage(&self.repo, gix::objs::Kind::Blob, bytes);
        self.written(id)
    }

    /// Stage a tree object for the next commit.
    pub(super) fn stage_tree(&mut self, tree: &gix::objs::Tree) -> Result<ObjectId, RepoError> {
        self.stage_encoded(tree)
    }

    /// Stage `object` for the next commit.
    fn stage_encoded(&mut self, object: &impl gix::objs::WriteTo) -> Result<ObjectId, RepoError> {
        let id = self.loose.stage_object(&self.repo, object);
        self.written(id)
    }

    /// An object written or staged, to harden with the next commit.
    fn written(&mut self, id: Result<ObjectId, RepoError>) -> Result<ObjectId, RepoError> {
        let id = id?;
        self.unhardened.push(id);
        Ok(id)
    }

    /// What must be fsynced of the objects written since the last commit before they are placed:
    /// the staged temp files, and any loose file of an object that was there already (a
    /// writer that died may have left it unsynced); and their ids.
    fn take_unhardened(&mut self) -> (Vec<PathBuf>, Vec<ObjectId>) {
        let ids: Vec<ObjectId> = self.unhardened.drain(..).collect();
        let mut files = self.loose.staged_files();
        files.extend(loose_files(self.repo.objects.store_ref().path(), &ids));
        (files, ids)
    }

    /// Give the prepared commit's objects their names, once [`PreparedCommit::files_to_sync`]
    /// are durable; the folders that hold the names, to fsync before [`MemoryRepo::publish`].
    pub fn place_objects(&mut self, prepared: &PreparedCommit) -> Result<Vec<PathBuf>, RepoError> {
        self.loose.place()?;
        self.staged_blobs.clear();
        Ok(fanout_folders(
            self.repo.objects.store_ref().path(),
            &prepared.objects,
        ))
    }

    /// Write the tree and commit objects for `tree` on top of `parent`. Nothing is durable or
    /// visible yet: [`PreparedCommit::files_to_sync`] must be fsynced, then the objects placed
    /// ([`MemoryRepo::place_objects`]) and their folders fsynced; then [`MemoryRepo::publish`]
    /// moves the branch.
    pub fn prepare_commit(
        &mut self,
        tree: &TreeMap,
        parent: Option<ObjectId>,
        message: &str,
    ) -> Result<PreparedCommit, RepoError> {
        self.prepare_commit_with_parents(tree, parent.as_slice(), message)
    }

    /// [`MemoryRepo::prepare_commit`] with any number of parents (two for a merge). The branch
    /// is compare-and-swapped from the first parent, which must be where it points now.
    pub fn prepare_commit_with_parents(
        &mut self,
        tree: &TreeMap,
        parents: &[ObjectId],
        message: &str,
    ) -> Result<PreparedCommit, RepoError> {
        let (message, starts_operation) = operation::stamp(&self.workdir, message);
        let tree_id = self.stage_encoded(&tree_object(tree))?;
        let (commit, committer) =
            commit_object(&self.repo, tree_id, parents, &message).map_err(|e| self.err(e))?;
        let author = format!("{} <{}>", commit.author.name, commit.author.email);
        let commit_id = self.stage_encoded(&commit)?;
        let (files_to_sync, objects) = self.take_unhardened();
        Ok(PreparedCommit {
            commit_id,
            tree_id,
            parent: parents.first().copied(),
            parents: parents.to_vec(),
            committer,
            author,
            message,
            starts_operation,
            files_to_sync,
            objects,
        })
    }

    /// Move the branch to a prepared commit (compare-and-swap from its parent) once its objects
    /// are durable, and rebuild `.git/index` for `tree`. The ref itself is not fsynced: should
    /// its update be lost, HEAD is the parent and the work tree, already durable, is ahead of
    /// it, so the next write adopts it.
    pub fn publish(
        &mut self,
        prepared: PreparedCommit,
        tree: &TreeMap,
        clean: &CleanFiles<'_>,
    ) -> Result<ObjectId, RepoError> {
        self.publish_after(prepared, tree, clean, || Ok(()))
    }

    /// [`MemoryRepo::publish`], once `durable` says the work tree is (the caller's last folder
    /// fsync, which `.git/index` is written during: it is a cache of the new tree, and one
    /// ahead of HEAD after a crash is what the next write adopts anyway).
    pub fn publish_after(
        &mut self,
        prepared: PreparedCommit,
        tree: &TreeMap,
        clean: &CleanFiles<'_>,
        durable: impl FnOnce() -> Result<(), RepoError>,
    ) -> Result<ObjectId, RepoError> {
        let PreparedCommit {
            commit_id,
            tree_id,
            parent,
            parents,
            committer,
            author,
            message,
            starts_operation,
            ..
        } = prepared;
        let indexed = self.write_index(tree_id, tree, clean);
        durable()?;
        indexed?;
        crate::fault::point("before-ref");
        let summary = message.lines().next().unwrap_or_default();
        let log = format!(
            "commit{}: {summary}",
            if parents.is_empty() { " (initial)" } else { "" }
        );
        self.move_head(parent, commit_id, &log, &committer)?;
        if starts_operation {
            operation::started(&self.workdir, commit_id);
        }
        history_cache::append(
            self.git_dir(),
            &history_cache::Record {
                commit: commit_id,
                parents,
                time: (committer.time.seconds, committer.time.offset),
                author,
                message,
            },
        );
        Ok(commit_id)
    }

    /// Move HEAD's branch from `expected` (compare-and-swap; `None`: it must not exist yet) to
    /// `new`, with `log` in the reflog.
    fn move_head(
        &self,
        expected: Option<ObjectId>,
        new: ObjectId,
        log: &str,
        committer: &gix::actor::Signature,
    ) -> Result<(), RepoError> {
        move_ref(&self.repo, "HEAD", true, expected, new, log, committer).map_err(|e| self.err(e))
    }

    /// Move HEAD's branch to `new`, a commit already in the repository (a fast-forward to what
    /// was fetched; nothing moves when HEAD is there already), and rebuild `.git/index` for its
    /// tree, with stat data for the files in `clean`. The work tree is the caller's.
    pub fn advance_head(
        &mut self,
        expected: Option<ObjectId>,
        new: ObjectId,
        log: &str,
        clean: &CleanFiles<'_>,
    ) -> Result<(), RepoError> {
        if expected != Some(new) {
            let (_, committer) = signatures_of(&self.repo).map_err(|e| self.err(e))?;
            self.move_head(expected, new, log, &committer)?;
        }
        let tree = self.commit_tree(new)?;
        let tree_id = self.commit_tree_id(new)?;
        self.write_index(tree_id, &tree, clean)
    }

    /// The short name of the branch HEAD names (also before its first commit); `None` when
    /// HEAD is detached.
    pub fn head_branch(&self) -> Result<Option<String>, RepoError> {
        let head = self.repo.head_name().map_err(|e| self.err(e))?;
        Ok(head.and_then(|name| {
            name.as_bstr()
                .strip_prefix(b"refs/heads/")
                .map(|short| short.to_str_lossy().into_owned())
        }))
    }

    /// Whether `ancestor` is `descendant` or one of its ancestors.
    pub fn is_ancestor(&self, ancestor: ObjectId, descendant: ObjectId) -> Result<bool, RepoError> {
        is_ancestor(&self.repo, ancestor, descendant).map_err(|e| self.err(e))
    }

    /// How many commits `from` has that `other` does not (ahead / behind counts).
    pub fn count_not_in(&self, from: ObjectId, other: ObjectId) -> Result<usize, RepoError> {
        count_not_in(&self.repo, from, Some(other)).map_err(|e| self.err(e))
    }

    /// An object's size from its header, without reading it.
    pub fn object_size(&self, id: ObjectId) -> Result<u64, RepoError> {
        Ok(self.repo.find_header(id).map_err(|e| self.err(e))?.size())
    }

    /// How many commits `tip` has, itself included.
    pub fn count_commits(&self, tip: ObjectId) -> Result<usize, RepoError> {
        count_not_in(&self.repo, tip, None).map_err(|e| self.err(e))
    }

    /// Commit `tree` on the current branch: objects written and fsynced (in parallel), then the
    /// branch moved and `.git/index` rebuilt.
    pub fn commit(
        &mut self,
        tree: &TreeMap,
        parent: Option<ObjectId>,
        message: &str,
        clean: &CleanFiles<'_>,
    ) -> Result<ObjectId, RepoError> {
        let prepared = self.prepare_commit(tree, parent, message)?;
        self.harden(&prepared)?;
        self.publish(prepared, tree, clean)
    }

    /// A commit of `tree` on `parents`, durable, that no branch names (what personal sync pushes:
    /// a snapshot of the memory dir on top of the remote's branch). Refs are the caller's.
    pub fn write_commit(
        &mut self,
        tree: &TreeMap,
        parents: &[ObjectId],
        message: &str,
    ) -> Result<ObjectId, RepoError> {
        let prepared = self.prepare_commit_with_parents(tree, parents, message)?;
        self.harden(&prepared)?;
        Ok(prepared.commit_id)
    }

    /// Make a prepared commit's objects durable under their names: their data, then the names.
    fn harden(&mut self, prepared: &PreparedCommit) -> Result<(), RepoError> {
        sync_files(&prepared.files_to_sync)?;
        let folders = self.place_objects(prepared)?;
        sync_files(&folders)
    }

    /// The best common ancestor of two commits; `None` when their histories are unrelated.
    pub fn merge_base(&self, a: ObjectId, b: ObjectId) -> Result<Option<ObjectId>, RepoError> {
        merge_base(&self.repo, a, b).map_err(|e| self.err(e))
    }

    /// `.git/index` for `tree`, with stat data for the files in `clean` and zero elsewhere
    /// (git then compares content, never trusting it).
    fn write_index(
        &self,
        tree_id: ObjectId,
        tree: &TreeMap,
        clean: &CleanFiles<'_>,
    ) -> Result<(), RepoError> {
        use gix::index::entry::{Flags, Mode};
        let flat = tree.values().all(|(kind, _)| *kind != EntryKind::Tree);
        let mut index = if flat {
            // memdir's own trees are flat: the entries are the tree's, in the same order.
            let mut state = gix::index::State::new(self.repo.object_hash());
            for (name, (kind, id)) in tree {
                let mode = match kind {
                    EntryKind::BlobExecutable => Mode::FILE_EXECUTABLE,
                    EntryKind::Link => Mode::SYMLINK,
                    EntryKind::Commit => Mode::COMMIT,
                    _ => Mode::FILE,
                };
                let flags = if (self.checked_out)(name, *kind) {
                    Flags::empty()
                } else {
                    Flags::EXTENDED | Flags::SKIP_WORKTREE
                };
                state.dangerously_push_entry(Stat::default(), *id, flags, mode, name.as_ref());
            }
            state.sort_entries();
            gix::index::File::from_state(state, self.repo.index_path())
        } else {
            self.repo
                .index_from_tree(&tree_id)
                .map_err(|e| self.err(e))?
        };
        let (entries, paths) = index.entries_mut_and_pathbacking();
        for entry in entries {
            let path: &BStr = entry.path_in(paths);
            if let Some(stat) = clean.get(path) {
                entry.stat = *stat;
            }
            let kind = entry.mode.to_tree_entry_mode().map(|m| m.kind());
            if !flat
                && !kind.is_some_and(|kind| !path.contains(&b'/') && (self.checked_out)(path, kind))
            {
                entry.flags |= Flags::EXTENDED | Flags::SKIP_WORKTREE;
            }
        }
        index.write(Default::default()).map_err(|e| self.err(e))
    }

    /// `.git/index` as last written, for telling unchanged files by their stat data; `None`
    /// when there is none or it cannot be read (then every file is hashed).
    pub fn open_index(&self) -> Option<WorktreeIndex> {
        let path = self.repo.index_path();
        let mtime = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        self.repo.open_index().ok().map(|file| WorktreeIndex {
            file,
            mtime,
            positions: Default::default(),
        })
    }

    /// The commit a revision names (`HEAD~2`, an id or a prefix of one, a branch), or an error
    /// saying which revision did not resolve.
    pub fn resolve_commit(&self, spec: &str) -> Result<ObjectId, RepoError> {
        let id = self
            .repo
            .rev_parse_single(spec)
            .map_err(|_| RepoError::UnknownRevision(spec.to_string()))?;
        let object = id.object().map_err(|e| self.err(e))?;
        let commit = object
            .peel_to_commit()
            .map_err(|_| RepoError::UnknownRevision(spec.to_string()))?;
        Ok(commit.id)
    }

    /// A commit's root tree.
    pub fn commit_tree_id(&self, commit: ObjectId) -> Result<ObjectId, RepoError> {
        let commit = self.repo.find_commit(commit).map_err(|e| self.err(e))?;
        let decoded = commit.decode().map_err(|e| self.err(e))?;
        Ok(decoded.tree())
    }

    /// A commit's first parent.
    pub fn parent_of(&self, commit: ObjectId) -> Result<Option<ObjectId>, RepoError> {
        let commit = self.repo.find_commit(commit).map_err(|e| self.err(e))?;
        let decoded = commit.decode().map_err(|e| self.err(e))?;
        Ok(decoded.parents().next())
    }

    /// The newest commit along first parents from HEAD whose tree holds the file `file`.
    pub fn last_commit_holding(&self, file: &str) -> Result<Option<ObjectId>, RepoError> {
        let mut next = self.head_commit()?;
        while let Some(commit) = next {
            let held = self
                .commit_tree(commit)?
                .get(file.as_bytes())
                .is_some_and(|(kind, _)| {
                    matches!(kind, EntryKind::Blob | EntryKind::BlobExecutable)
                });
            if held {
                return Ok(Some(commit));
            }
            next = self.parent_of(commit)?;
        }
        Ok(None)
    }

    /// Every commit any ref or reflog reaches (all parents followed), and their root trees.
    pub fn reachable_commits_and_trees(&self) -> Result<HashSet<ObjectId>, RepoError> {
        let mut tips: Vec<ObjectId> = Vec::new();
        let platform = self.repo.references().map_err(|e| self.err(e))?;
        for reference in platform.all().map_err(|e| self.err(e))?.flatten() {
            if let Some(id) = reference.target().try_id() {
                tips.push(id.to_owned());
            }
        }
        if let Some(head) = self.head_commit()? {
            tips.push(head);
        }
        tips.extend(reflog_ids(&self.repo.git_dir().join("logs")));
        let mut seen = HashSet::new();
        while let Some(id) = tips.pop() {
            if !seen.insert(id) {
                continue;
            }
            let Ok(commit) = self.repo.find_commit(id) else {
                continue;
            };
            if let Ok(decoded) = commit.decode() {
                seen.insert(decoded.tree());
                tips.extend(decoded.parents());
            }
        }
        Ok(seen)
    }

    /// The loose commits and trees in the object database (`true` for a commit).
    pub fn loose_commits_and_trees(&self) -> Result<Vec<(ObjectId, bool)>, RepoError> {
        let objects = self.repo.objects.store_ref().path().to_path_buf();
        let mut out = Vec::new();
        let Ok(dirs) = std::fs::read_dir(&objects) else {
            return Ok(out);
        };
        for dir in dirs.flatten() {
            let prefix = dir.file_name().to_string_lossy().into_owned();
            if prefix.len() != 2 || !prefix.bytes().all(|b| b.is_ascii_hexdigit()) {
                continue;
            }
            let Ok(files) = std::fs::read_dir(dir.path()) else {
                continue;
            };
            for file in files.flatten() {
                let hex = format!("{prefix}{}", file.file_name().to_string_lossy());
                let Ok(id) = ObjectId::from_hex(hex.as_bytes()) else {
                    continue;
                };
                match self.repo.find_header(id).map(|h| h.kind()) {
                    Ok(gix::objs::Kind::Commit) => out.push((id, true)),
                    Ok(gix::objs::Kind::Tree) => out.push((id, false)),
                    _ => {}
                }
            }
        }
        Ok(out)
    }

    /// Every commit HEAD reaches, all parents followed, newest first (each before its parents;
    /// from the history cache, which this brings up to date).
    pub fn history(&self) -> Result<Vec<HistoryEntry>, RepoError> {
        Ok(self
            .history_records()?
            .into_iter()
            .rev()
            .map(history_cache::Record::into_entry)
            .collect())
    }

    /// [`MemoryRepo::history`] as the cache keeps it, oldest first.
    pub fn history_records(&self) -> Result<Vec<history_cache::Record>, RepoError> {
        let Some(head) = self.head_commit()? else {
            return Ok(Vec::new());
        };
        history_cache::up_to(self.git_dir(), head, |id| self.record(id))
    }

    /// One commit as the history cache keeps it.
    fn record(&self, id: ObjectId) -> Result<history_cache::Record, RepoError> {
        let commit = self.repo.find_commit(id).map_err(|e| self.err(e))?;
        let decoded = commit.decode().map_err(|e| self.err(e))?;
        let time = decoded.time().map_err(|e| self.err(e))?;
        let author = decoded.author().map_err(|e| self.err(e))?;
        Ok(history_cache::Record {
            commit: id,
            parents: decoded.parents().collect(),
            time: (time.seconds, time.offset),
            author: format!("{} <{}>", author.name, author.email),
            message: decoded.message.to_str_lossy().into_owned(),
        })
    }

    /// One commit's subject, body, `Memdir-*` trailers and time.
    pub fn history_entry(&self, id: ObjectId) -> Result<HistoryEntry, RepoError> {
        Ok(self.record(id)?.into_entry())
    }

    /// A commit's subject line.
    pub fn subject(&self, id: ObjectId) -> Result<String, RepoError> {
        Ok(self.history_entry(id)?.subject)
    }
}

impl PreparedCommit {
    /// The commit moves the branch from `head` (compare-and-swap) rather than from its first
    /// parent: a commit on top of what was fetched, made where HEAD was behind it.
    pub fn expecting(mut self, head: Option<ObjectId>) -> PreparedCommit {
        self.parent = head;
        self
    }
}

/// A commit whose objects are written but not yet durable, and whose branch has not moved.
pub struct PreparedCommit {
    pub commit_id: ObjectId,
    tree_id: ObjectId,
    /// Where the branch must be for it to move here (compare-and-swap): the first parent, unless
    /// [`PreparedCommit::expecting`] says otherwise.
    parent: Option<ObjectId>,
    /// In the commit's order, for the history cache.
    parents: Vec<ObjectId>,
    committer: gix::actor::Signature,
    /// `Name <email>`, for the history cache.
    author: String,
    /// The message as committed (stamped with the open operation, if any).
    message: String,
    /// Whether this is the first commit of an open operation.
    starts_operation: bool,
    /// The objects' temp files (and loose files already there), to fsync before they are
    /// placed.
    pub files_to_sync: Vec<PathBuf>,
    /// Every object the commit wrote or found.
    objects: Vec<ObjectId>,
}

/// Every object id named by the reflogs under `logs` (old and new side of each line).
fn reflog_ids(logs: &Path) -> Vec<ObjectId> {
    let mut out = Vec::new();
    let mut pending = vec![logs.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for line in text.lines() {
                for hex in line.split(' ').take(2) {
                    if let Ok(id) = ObjectId::from_hex(hex.as_bytes())
                        && !id.is_null()
                    {
                        out.push(id);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo::loose::loose_path;
    use crate::repo::testing::git;

    /// A blob a team merge or an adoption writes is read back at once, but takes its name only
    /// with the commit, once its data is durable: a power cut before then leaves no torn
    /// object under its name. One never committed leaves nothing.
    #[test]
    fn a_written_blob_is_read_at_once_and_named_with_the_commit() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path();
        let (mut repo, _) = MemoryRepo::open_or_init(dir).expect("init");
        let objects = dir.join(".git/objects");
        let bytes = b"---\nname: merged\n---\nMerged body.\n";
        let id = repo.write_blob(bytes).expect("write");
        let name = loose_path(&objects, &id);
        assert!(!name.exists(), "named before the commit");
        assert_eq!(repo.blob(id).expect("read back"), bytes);
        assert_eq!(repo.blob_capped(id, 10).expect("capped"), None);
        assert_eq!(
            repo.blob_capped(id, 100).expect("capped").as_deref(),
            Some(bytes.as_slice())
        );

        let mut tree = TreeMap::new();
        tree.insert("merged.md".into(), (EntryKind::Blob, id));
        repo.commit(&tree, None, "merge\n", &CleanFiles::new())
            .expect("commit");
        assert!(name.is_file());
        assert_eq!(git(dir, &["cat-file", "blob", &id.to_string()]), bytes);
        git(dir, &["fsck", "--strict", "--no-progress"]);

        let unused = repo.write_blob(b"never committed\n").expect("write");
        drop(repo);
        let unused_name = loose_path(&objects, &unused);
        assert!(!unused_name.exists());
        let temps = std::fs::read_dir(unused_name.parent().expect("fanout"))
            .map(|entries| entries.flatten().count())
            .unwrap_or(0);
        assert_eq!(temps, 0, "a temp file was left");
    }
}
