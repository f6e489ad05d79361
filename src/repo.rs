//! The only module that talks to gix (DESIGN §4): the memory dir's repository, its commits, the
//! `.git/index` kept in step with them, and history.
//!
//! Commits are made in-process with an explicit signature (a machine with no git identity gets
//! `memdir <memdir@localhost>`), the ref moves by compare-and-swap, and `.git/index` is rebuilt
//! from the new tree with stat data only where the work tree is known to hold that content, so
//! `git status` is exact without rehashing.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::{Entry as TreeEntry, EntryKind};
use gix::refs::Target;
use gix::refs::transaction::{Change, LogChange, PreviousValue, RefEdit, RefLog};

/// The author and committer used when git has no identity configured.
pub const FALLBACK_NAME: &str = "memdir";
pub const FALLBACK_EMAIL: &str = "memdir@localhost";

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
/// taken before their content was read.
pub type CleanFiles = HashMap<BString, Stat>;

/// A file's stat data as `.git/index` records it.
pub use gix::index::entry::Stat;

/// A parsed memdir commit, for `log`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    pub commit: ObjectId,
    pub subject: String,
    pub body: String,
    /// `Memdir-*` trailers, e.g. `("Op", "save")`.
    pub trailers: Vec<(String, String)>,
    /// Seconds since the epoch and the committer's UTC offset in seconds.
    pub time: (i64, i32),
}

impl HistoryEntry {
    /// The subject as memdir writes it, `op(type): name`, split; `None` for any other subject.
    pub fn op_type_name(&self) -> Option<(&str, &str, &str)> {
        let (head, name) = self.subject.split_once("): ")?;
        let (op, kind) = head.split_once('(')?;
        Some((op, kind, name))
    }

    /// A `Memdir-*` trailer's value, e.g. `trailer("Op")`.
    pub fn trailer(&self, key: &str) -> Option<&str> {
        self.trailers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

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

/// The memory dir's own repository.
pub struct MemoryRepo {
    repo: gix::Repository,
    workdir: PathBuf,
    /// Objects written but not yet fsynced; the next commit hardens them.
    unhardened: Vec<ObjectId>,
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
        }
    }

    fn err(&self, source: gix::Error) -> RepoError {
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

    /// A blob's bytes.
    pub fn blob(&self, id: ObjectId) -> Result<Vec<u8>, RepoError> {
        let mut blob = self.repo.find_blob(id).map_err(|e| self.err(e))?;
        Ok(blob.take_data())
    }

    /// The id `bytes` would have as a blob, without writing it.
    pub fn blob_id(&self, bytes: &[u8]) -> Result<ObjectId, RepoError> {
        gix::objs::compute_hash(self.repo.object_hash(), gix::objs::Kind::Blob, bytes)
            .map_err(|e| self.err(gix::Error::from_error(e)))
    }

    /// Write `bytes` as a blob.
    pub fn write_blob(&mut self, bytes: &[u8]) -> Result<ObjectId, RepoError> {
        let id = self
            .repo
            .write_blob(bytes)
            .map_err(|e| self.err(e))?
            .detach();
        self.unhardened.push(id);
        Ok(id)
    }

    /// The loose-object files (and their folders) written since the last commit: what must be
    /// durable before a ref may name them. gix itself never fsyncs.
    fn take_unhardened(&mut self) -> (Vec<PathBuf>, BTreeSet<PathBuf>) {
        let objects = self.repo.objects.store_ref().path().to_path_buf();
        let mut files = Vec::new();
        let mut dirs = BTreeSet::new();
        for id in self.unhardened.drain(..) {
            let hex = id.to_hex().to_string();
            let dir = objects.join(&hex[..2]);
            files.push(dir.join(&hex[2..]));
            dirs.insert(dir);
        }
        (files, dirs)
    }

    /// Write the tree and commit objects for `tree` on top of `parent`. Nothing is durable or
    /// visible yet: [`PreparedCommit::files_to_sync`] must be fsynced, then
    /// [`MemoryRepo::publish`] moves the branch.
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
        let parent = parents.first().copied();
        let mut entries: Vec<TreeEntry> = tree
            .iter()
            .map(|(name, (kind, id))| TreeEntry {
                mode: (*kind).into(),
                filename: name.clone(),
                oid: *id,
            })
            .collect();
        entries.sort();
        let tree_id = self
            .repo
            .write_object(gix::objs::Tree { entries })
            .map_err(|e| self.err(e))?
            .detach();
        let (author, committer) = self.signatures()?;
        let commit = gix::objs::Commit {
            tree: tree_id,
            parents: parents.iter().copied().collect(),
            author,
            committer: committer.clone(),
            encoding: None,
            message: message.into(),
            extra_headers: Vec::new(),
        };
        let commit_id = self
            .repo
            .write_object(&commit)
            .map_err(|e| self.err(e))?
            .detach();
        self.unhardened.extend([tree_id, commit_id]);
        // The objects' folders already hold their names (gix renamed them in), so the folders
        // join the same batch as the files.
        let (mut files, dirs) = self.take_unhardened();
        files.extend(dirs);
        Ok(PreparedCommit {
            commit_id,
            tree_id,
            parent,
            committer,
            files_to_sync: files,
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
        message: &str,
        clean: &CleanFiles,
    ) -> Result<ObjectId, RepoError> {
        crate::fault::point("before-ref");
        let PreparedCommit {
            commit_id,
            tree_id,
            parent,
            committer,
            ..
        } = prepared;
        let summary = message.lines().next().unwrap_or_default();
        let log = format!(
            "commit{}: {summary}",
            if parent.is_none() { " (initial)" } else { "" }
        );
        self.move_head(parent, commit_id, &log, &committer)?;
        self.write_index(tree_id, tree, clean)?;
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
        let expected = match expected {
            Some(old) => PreviousValue::MustExistAndMatch(Target::Object(old)),
            None => PreviousValue::MustNotExist,
        };
        let edit = RefEdit {
            change: Change::Update {
                log: LogChange {
                    mode: RefLog::AndReference,
                    force_create_reflog: false,
                    message: log.into(),
                },
                expected,
                new: Target::Object(new),
            },
            name: "HEAD"
                .try_into()
                .map_err(|e| self.err(gix::Error::from_error(e)))?,
            deref: true,
        };
        self.repo
            .edit_references_as(Some(edit), Some(committer.to_ref(&mut Default::default())))
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Move HEAD's branch to `new`, a commit already in the repository (a fast-forward to what
    /// was fetched), and rebuild `.git/index` for its tree. The work tree is the caller's.
    pub fn advance_head(
        &mut self,
        expected: Option<ObjectId>,
        new: ObjectId,
        log: &str,
    ) -> Result<(), RepoError> {
        let (_, committer) = self.signatures()?;
        self.move_head(expected, new, log, &committer)?;
        self.reset_index(new)
    }

    /// Rebuild `.git/index` for `commit`'s tree, with no stat data (git compares content).
    pub fn reset_index(&self, commit: ObjectId) -> Result<(), RepoError> {
        let tree = self.commit_tree(commit)?;
        let tree_id = self.commit_tree_id(commit)?;
        self.write_index(tree_id, &tree, &CleanFiles::new())
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

    /// The commit a full ref name points to, if the ref exists.
    pub fn ref_commit(&self, name: &str) -> Result<Option<ObjectId>, RepoError> {
        let Some(mut reference) = self
            .repo
            .try_find_reference(name)
            .map_err(|e| self.err(e))?
        else {
            return Ok(None);
        };
        let id = reference.peel_to_id().map_err(|e| self.err(e))?;
        Ok(Some(id.detach()))
    }

    /// Whether `ancestor` is `descendant` or one of its ancestors.
    pub fn is_ancestor(&self, ancestor: ObjectId, descendant: ObjectId) -> Result<bool, RepoError> {
        is_ancestor(&self.repo, ancestor, descendant).map_err(|e| self.err(e))
    }

    /// How many commits `from` has that `other` does not (ahead / behind counts).
    pub fn count_not_in(&self, from: ObjectId, other: ObjectId) -> Result<usize, RepoError> {
        Ok(self.commits_not_in(from, Some(other), usize::MAX)?.len())
    }

    /// The commits `from` has that `other` does not (all of `from`'s when `None`), newest
    /// first, at most `limit` of them.
    pub fn commits_not_in(
        &self,
        from: ObjectId,
        other: Option<ObjectId>,
        limit: usize,
    ) -> Result<Vec<ObjectId>, RepoError> {
        let walk = self
            .repo
            .rev_walk([from])
            .with_hidden(other)
            .all()
            .map_err(|e| self.err(e))?;
        walk.take(limit)
            .map(|info| {
                info.map(|i| i.id)
                    .map_err(|e| self.err(gix::Error::from_error(e)))
            })
            .collect()
    }

    /// An object's size from its header, without reading it.
    pub fn object_size(&self, id: ObjectId) -> Result<u64, RepoError> {
        Ok(self.repo.find_header(id).map_err(|e| self.err(e))?.size())
    }

    /// How many commits `tip` has, itself included.
    pub fn count_commits(&self, tip: ObjectId) -> Result<usize, RepoError> {
        Ok(self.commits_not_in(tip, None, usize::MAX)?.len())
    }

    /// Commit `tree` on the current branch: objects written and fsynced (in parallel), then the
    /// branch moved and `.git/index` rebuilt.
    pub fn commit(
        &mut self,
        tree: &TreeMap,
        parent: Option<ObjectId>,
        message: &str,
        clean: &CleanFiles,
    ) -> Result<ObjectId, RepoError> {
        let prepared = self.prepare_commit(tree, parent, message)?;
        sync_files(&prepared.files_to_sync)?;
        self.publish(prepared, tree, message, clean)
    }

    /// Commit `tree` as the merge of `theirs` into `ours` (parents in that order), as
    /// [`MemoryRepo::commit`] does: the branch moves by compare-and-swap from `ours`. The work
    /// tree is the caller's; `.git/index` gets no stat data, so git compares content.
    pub fn commit_merge(
        &mut self,
        tree: &TreeMap,
        ours: ObjectId,
        theirs: ObjectId,
        message: &str,
    ) -> Result<ObjectId, RepoError> {
        let prepared = self.prepare_commit_with_parents(tree, &[ours, theirs], message)?;
        sync_files(&prepared.files_to_sync)?;
        self.publish(prepared, tree, message, &CleanFiles::new())
    }

    /// The best common ancestor of two commits; `None` when their histories are unrelated.
    pub fn merge_base(&self, a: ObjectId, b: ObjectId) -> Result<Option<ObjectId>, RepoError> {
        let base = self.repo.merge_base(a, b).map_err(|e| self.err(e))?;
        Ok(base.map(|id| id.detach()))
    }

    /// Author and committer (see [`signatures_of`]).
    fn signatures(&self) -> Result<(gix::actor::Signature, gix::actor::Signature), RepoError> {
        signatures_of(&self.repo).map_err(|e| self.err(e))
    }

    /// `.git/index` for `tree`, with stat data for the files in `clean` and zero elsewhere
    /// (git then compares content, never trusting it).
    fn write_index(
        &self,
        tree_id: ObjectId,
        tree: &TreeMap,
        clean: &CleanFiles,
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
                state.dangerously_push_entry(
                    Stat::default(),
                    *id,
                    Flags::empty(),
                    mode,
                    name.as_ref(),
                );
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
        }
        index.write(Default::default()).map_err(|e| self.err(e))
    }

    /// `.git/index` as last written, for telling unchanged files by their stat data; `None`
    /// when there is none or it cannot be read (then every file is hashed).
    pub fn open_index(&self) -> Option<WorktreeIndex> {
        let path = self.repo.index_path();
        let mtime = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        self.repo
            .open_index()
            .ok()
            .map(|file| WorktreeIndex { file, mtime })
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

    /// Commits from HEAD along first parents, newest first.
    pub fn history(&self) -> Result<Vec<HistoryEntry>, RepoError> {
        let mut out = Vec::new();
        let mut next = self.head_commit()?;
        while let Some(id) = next {
            out.push(self.history_entry(id)?);
            next = self.parent_of(id)?;
        }
        Ok(out)
    }

    /// One commit's subject, body, `Memdir-*` trailers and time.
    pub fn history_entry(&self, id: ObjectId) -> Result<HistoryEntry, RepoError> {
        let commit = self.repo.find_commit(id).map_err(|e| self.err(e))?;
        let decoded = commit.decode().map_err(|e| self.err(e))?;
        let time = decoded.time().map_err(|e| self.err(e))?;
        let message = decoded.message.to_str_lossy().into_owned();
        Ok(parse_message(id, &message, (time.seconds, time.offset)))
    }

    /// A commit's subject line.
    pub fn subject(&self, id: ObjectId) -> Result<String, RepoError> {
        Ok(self.history_entry(id)?.subject)
    }
}

/// A commit whose objects are written but not yet durable, and whose branch has not moved.
pub struct PreparedCommit {
    pub commit_id: ObjectId,
    tree_id: ObjectId,
    parent: Option<ObjectId>,
    committer: gix::actor::Signature,
    /// Loose-object files and their folders, to fsync before [`MemoryRepo::publish`].
    pub files_to_sync: Vec<PathBuf>,
}

/// fsync `files` (or folders) all at once, one thread each: the filesystem's journal then
/// commits them together, so durability costs about one flush instead of one per file. A file
/// that does not exist (an object that was already packed) is skipped.
pub fn sync_files(files: &[PathBuf]) -> Result<(), RepoError> {
    let sync = |path: &PathBuf| match File::open(path) {
        Ok(file) => file.sync_all().map_err(|source| RepoError::Io {
            path: path.clone(),
            source,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(RepoError::Io {
            path: path.clone(),
            source,
        }),
    };
    let Some((first, rest)) = files.split_first() else {
        return Ok(());
    };
    std::thread::scope(|scope| {
        let others: Vec<_> = rest
            .iter()
            .map(|path| scope.spawn(move || sync(path)))
            .collect();
        let mut result = sync(first);
        for handle in others {
            let outcome = handle.join().unwrap_or_else(|_| {
                Err(RepoError::Io {
                    path: first.clone(),
                    source: std::io::Error::other("an fsync thread panicked"),
                })
            });
            result = result.and(outcome);
        }
        result
    })
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

/// fsync a folder, so that the names created or renamed in it are durable.
pub fn sync_dir(dir: &Path) -> Result<(), RepoError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|source| RepoError::Io {
            path: dir.to_path_buf(),
            source,
        })
}

/// What HEAD of a promotion's target repository names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetHead {
    /// A local branch with commits: its short name (`main`) and its tip.
    Branch { name: String, tip: ObjectId },
    /// HEAD names a commit (or a ref outside `refs/heads/`), not a branch.
    Detached,
    /// HEAD names a branch that has no commit yet.
    Unborn(String),
}

/// A repository a promotion branch is written into (DESIGN §7): a project's, one holding the
/// config dir, the team memory's. Only objects and that branch are ever written: HEAD,
/// `.git/index` and the work tree are not touched, so a dirty work tree stays as it was.
pub struct TargetRepo {
    repo: gix::Repository,
    /// The work tree's root, canonical.
    workdir: PathBuf,
}

impl TargetRepo {
    /// The repository whose work tree holds `dir` (the nearest folder upward with a `.git`,
    /// as git finds it; `dir` itself need not exist yet); `None` when there is none.
    pub fn discover(dir: &Path) -> Result<Option<TargetRepo>, RepoError> {
        let mut start = dir;
        let start = loop {
            match start.canonicalize() {
                Ok(canonical) => break canonical,
                Err(_) => match start.parent() {
                    Some(parent) => start = parent,
                    None => return Ok(None),
                },
            }
        };
        for candidate in start.ancestors() {
            if std::fs::symlink_metadata(candidate.join(".git")).is_ok() {
                return Self::open(candidate).map(Some);
            }
        }
        Ok(None)
    }

    /// The repository whose work tree's root is `dir`.
    pub fn open(dir: &Path) -> Result<TargetRepo, RepoError> {
        let repo = gix::open(dir).map_err(|source| git_error(dir, source))?;
        let workdir = repo
            .workdir()
            .unwrap_or(dir)
            .canonicalize()
            .map_err(|source| RepoError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        Ok(TargetRepo { repo, workdir })
    }

    fn err(&self, source: gix::Error) -> RepoError {
        git_error(&self.workdir, source)
    }

    /// The work tree's root, canonical.
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// What HEAD names.
    pub fn head(&self) -> Result<TargetHead, RepoError> {
        let head = self.repo.head().map_err(|e| self.err(e))?;
        let branch_name = |name: &gix::refs::FullNameRef| {
            let full = name.as_bstr().to_str_lossy();
            full.strip_prefix("refs/heads/").map(str::to_string)
        };
        Ok(match &head.kind {
            gix::head::Kind::Symbolic(reference) => {
                let Some(name) = branch_name(reference.name.as_ref()) else {
                    return Ok(TargetHead::Detached);
                };
                let tip = self.peel_to_commit(&reference.name.as_bstr().to_str_lossy())?;
                match tip {
                    Some(tip) => TargetHead::Branch { name, tip },
                    None => TargetHead::Detached,
                }
            }
            gix::head::Kind::Unborn(name) => match branch_name(name.as_ref()) {
                Some(name) => TargetHead::Unborn(name),
                None => TargetHead::Detached,
            },
            gix::head::Kind::Detached { .. } => TargetHead::Detached,
        })
    }

    /// The commit a reference leads to (through tags); `None` when it does not exist or does
    /// not lead to a commit.
    fn peel_to_commit(&self, full_name: &str) -> Result<Option<ObjectId>, RepoError> {
        let Some(mut reference) = self
            .repo
            .try_find_reference(full_name)
            .map_err(|e| self.err(e))?
        else {
            return Ok(None);
        };
        let id = reference.peel_to_id().map_err(|e| self.err(e))?.detach();
        Ok(self.repo.find_commit(id).is_ok().then_some(id))
    }

    /// The tip of the local branch `name` (`memdir/promote/x`); `None` when it does not exist.
    pub fn branch_tip(&self, name: &str) -> Result<Option<ObjectId>, RepoError> {
        self.peel_to_commit(&format!("refs/heads/{name}"))
    }

    /// Whether `name` is a valid branch name for git.
    pub fn is_valid_branch_name(name: &str) -> bool {
        gix::refs::FullName::try_from(format!("refs/heads/{name}")).is_ok()
            && gix::validate::reference::name_partial(name.into()).is_ok()
            && !name.starts_with('-')
            // git refuses a branch named HEAD: `git checkout HEAD` could never mean it.
            && name != "HEAD"
    }

    /// The branches checked out in this repository's work trees (the main one and the linked
    /// ones): moving one of them would leave its work tree out of step.
    pub fn checked_out_branches(&self) -> Vec<String> {
        let common = self.repo.common_dir();
        let mut heads = vec![common.join("HEAD")];
        if let Ok(worktrees) = std::fs::read_dir(common.join("worktrees")) {
            heads.extend(worktrees.flatten().map(|w| w.path().join("HEAD")));
        }
        heads
            .iter()
            .filter_map(|head| std::fs::read_to_string(head).ok())
            .filter_map(|text| {
                let name = text.trim().strip_prefix("ref: refs/heads/")?;
                Some(name.to_string())
            })
            .collect()
    }

    /// The file at `path` (slash-separated, from the root) in a commit's tree, with its kind;
    /// `None` when there is none.
    pub fn file_at(
        &self,
        commit: ObjectId,
        path: &str,
    ) -> Result<Option<(EntryKind, Vec<u8>)>, RepoError> {
        let commit = self.repo.find_commit(commit).map_err(|e| self.err(e))?;
        let tree = commit.tree().map_err(|e| self.err(e))?;
        let Some(entry) = tree
            .lookup_entry(path.split('/'))
            .map_err(|e| self.err(e))?
        else {
            return Ok(None);
        };
        let kind = entry.mode().kind();
        let bytes = match kind {
            EntryKind::Blob | EntryKind::BlobExecutable | EntryKind::Link => {
                let mut blob = self
                    .repo
                    .find_blob(entry.object_id())
                    .map_err(|e| self.err(e))?;
                blob.take_data()
            }
            EntryKind::Tree | EntryKind::Commit => Vec::new(),
        };
        Ok(Some((kind, bytes)))
    }

    /// A commit's root tree and parents.
    pub fn tree_and_parents(
        &self,
        commit: ObjectId,
    ) -> Result<(ObjectId, Vec<ObjectId>), RepoError> {
        let commit = self.repo.find_commit(commit).map_err(|e| self.err(e))?;
        let decoded = commit.decode().map_err(|e| self.err(e))?;
        Ok((decoded.tree(), decoded.parents().collect()))
    }

    /// A commit's message.
    pub fn message(&self, commit: ObjectId) -> Result<String, RepoError> {
        let commit = self.repo.find_commit(commit).map_err(|e| self.err(e))?;
        let message = commit.message_raw().map_err(|e| self.err(e))?;
        Ok(message.to_str_lossy().into_owned())
    }

    /// Whether the object database holds `commit` (a recorded one may have been collected).
    pub fn has_commit(&self, commit: ObjectId) -> bool {
        self.repo.find_commit(commit).is_ok()
    }

    /// `base`'s tree with `files` (slash-separated paths, kinds and contents) put in place,
    /// intermediate folders created as needed (gix's tree editor); written, with its blobs.
    /// Returns the new root tree and the loose objects to make durable.
    pub fn tree_with_files(
        &self,
        base: ObjectId,
        files: &[(&str, EntryKind, &[u8])],
    ) -> Result<(ObjectId, Vec<ObjectId>), RepoError> {
        let base_tree = self.tree_and_parents(base)?.0;
        let mut written = Vec::new();
        let mut editor = self.repo.edit_tree(base_tree).map_err(|e| self.err(e))?;
        for (path, kind, bytes) in files {
            let blob = self
                .repo
                .write_blob(bytes)
                .map_err(|e| self.err(e))?
                .detach();
            written.push(blob);
            editor.upsert(*path, *kind, blob).map_err(|e| self.err(e))?;
        }
        let root = editor.write().map_err(|e| self.err(e))?.detach();
        // The trees that changed are those on the way to each file.
        written.push(root);
        let root_tree = self.repo.find_tree(root).map_err(|e| self.err(e))?;
        for (path, _, _) in files {
            let parts: Vec<&str> = path.split('/').collect();
            for depth in 1..parts.len() {
                if let Some(entry) = root_tree
                    .lookup_entry(parts[..depth].iter().copied())
                    .map_err(|e| self.err(e))?
                {
                    written.push(entry.object_id());
                }
            }
        }
        Ok((root, written))
    }

    /// Write a commit of `tree` on `parent` with git's identity (or memdir's), and make it and
    /// `objects` durable before any ref may name them.
    pub fn write_commit(
        &self,
        tree: ObjectId,
        parent: ObjectId,
        message: &str,
        objects: &[ObjectId],
    ) -> Result<ObjectId, RepoError> {
        let (author, committer) = signatures_of(&self.repo).map_err(|e| self.err(e))?;
        let commit = gix::objs::Commit {
            tree,
            parents: vec![parent].into(),
            author,
            committer,
            encoding: None,
            message: message.into(),
            extra_headers: Vec::new(),
        };
        let id = self
            .repo
            .write_object(&commit)
            .map_err(|e| self.err(e))?
            .detach();
        let store = self.repo.objects.store_ref().path().to_path_buf();
        let mut files = Vec::new();
        let mut dirs = BTreeSet::new();
        for object in objects.iter().chain([&id]) {
            let hex = object.to_hex().to_string();
            let dir = store.join(&hex[..2]);
            files.push(dir.join(&hex[2..]));
            dirs.insert(dir);
        }
        files.extend(dirs);
        sync_files(&files)?;
        Ok(id)
    }

    /// Point the local branch `name` at `new`, by compare-and-swap: it must not exist when
    /// `expected` is `None`, else still point at `expected`. The reflog says `message`.
    pub fn set_branch(
        &self,
        name: &str,
        new: ObjectId,
        expected: Option<ObjectId>,
        message: &str,
    ) -> Result<(), RepoError> {
        let full: gix::refs::FullName = format!("refs/heads/{name}")
            .try_into()
            .map_err(|e| self.err(gix::Error::from_error(e)))?;
        let (_, committer) = signatures_of(&self.repo).map_err(|e| self.err(e))?;
        let edit = RefEdit {
            change: Change::Update {
                log: LogChange {
                    mode: RefLog::AndReference,
                    force_create_reflog: false,
                    message: message.into(),
                },
                expected: match expected {
                    Some(old) => PreviousValue::MustExistAndMatch(Target::Object(old)),
                    None => PreviousValue::MustNotExist,
                },
                new: Target::Object(new),
            },
            name: full,
            deref: false,
        };
        self.repo
            .edit_references_as(Some(edit), Some(committer.to_ref(&mut Default::default())))
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Whether `ancestor` is `descendant` or one of its ancestors (a merge-base walk).
    pub fn is_ancestor(&self, ancestor: ObjectId, descendant: ObjectId) -> Result<bool, RepoError> {
        is_ancestor(&self.repo, ancestor, descendant).map_err(|e| self.err(e))
    }

    /// Where git runs this repository's hooks from: `core.hooksPath` (relative to the work
    /// tree's root, as git takes it), else `hooks/` in the (common) git dir.
    pub fn hooks_dir(&self) -> Result<PathBuf, RepoError> {
        let configured = self
            .repo
            .config_snapshot()
            .trusted_path("core.hooksPath")
            .map_err(|e| self.err(e))?;
        Ok(match configured {
            Some(path) if !path.as_os_str().is_empty() => {
                crate::paths::absolute_from(&self.workdir, &path)
            }
            _ => self.repo.common_dir().join("hooks"),
        })
    }
}

/// Whether `ancestor` is `descendant` or one of its ancestors (a merge-base walk).
fn is_ancestor(
    repo: &gix::Repository,
    ancestor: ObjectId,
    descendant: ObjectId,
) -> Result<bool, gix::Error> {
    if ancestor == descendant {
        return Ok(true);
    }
    let base = repo
        .merge_base(ancestor, descendant)
        .map_err(gix::Error::from_error)?;
    Ok(base.is_some_and(|base| base.detach() == ancestor))
}

/// Author and committer for a commit in `repo`: git's identity where configured (the `GIT_*`
/// variables, then `author.*`/`committer.*`, then `user.*`), else `memdir <memdir@localhost>`;
/// dates from `GIT_AUTHOR_DATE`/`GIT_COMMITTER_DATE`, else now in the local offset.
///
/// Resolved here rather than through gix's personas, which look up the local time zone in the
/// whole zoneinfo database on every process start (a tenth of a save's time).
fn signatures_of(
    repo: &gix::Repository,
) -> Result<(gix::actor::Signature, gix::actor::Signature), gix::Error> {
    let config = repo.config_snapshot();
    let lookup = |env: &str, keys: [&str; 2], fallback: &str| -> BString {
        std::env::var(env)
            .ok()
            .filter(|v| !v.is_empty())
            .map(BString::from)
            .or_else(|| keys.iter().find_map(|key| config.string(*key)))
            .unwrap_or_else(|| fallback.into())
    };
    let now = {
        let local = chrono::Local::now();
        gix::date::Time::new(local.timestamp(), local.offset().local_minus_utc())
    };
    let time = |env: &str| -> Result<gix::date::Time, gix::Error> {
        match std::env::var(env).ok().filter(|v| !v.is_empty()) {
            Some(value) => gix::date::parse(&value, None).map_err(|e| {
                gix::Error::from_error(std::io::Error::other(format!(
                    "{env}={value:?} is not a date git understands: {e}"
                )))
            }),
            None => Ok(now),
        }
    };
    let committer = gix::actor::Signature {
        name: lookup(
            "GIT_COMMITTER_NAME",
            ["committer.name", "user.name"],
            FALLBACK_NAME,
        ),
        email: lookup(
            "GIT_COMMITTER_EMAIL",
            ["committer.email", "user.email"],
            FALLBACK_EMAIL,
        ),
        time: time("GIT_COMMITTER_DATE")?,
    };
    let author = gix::actor::Signature {
        name: lookup(
            "GIT_AUTHOR_NAME",
            ["author.name", "user.name"],
            FALLBACK_NAME,
        ),
        email: lookup(
            "GIT_AUTHOR_EMAIL",
            ["author.email", "user.email"],
            FALLBACK_EMAIL,
        ),
        time: time("GIT_AUTHOR_DATE")?,
    };
    Ok((author, committer))
}

fn git_error(dir: &Path, source: gix::Error) -> RepoError {
    RepoError::Git {
        dir: dir.to_path_buf(),
        source,
    }
}

/// Split a commit message into subject, body and the trailing `Memdir-*` trailers.
fn parse_message(commit: ObjectId, message: &str, time: (i64, i32)) -> HistoryEntry {
    let message = message.trim_end();
    let (subject, rest) = message.split_once('\n').unwrap_or((message, ""));
    let mut paragraphs: Vec<&str> = rest.trim().split("\n\n").collect();
    let mut trailers = Vec::new();
    if let Some(last) = paragraphs.last()
        && last
            .lines()
            .all(|l| l.starts_with("Memdir-") && l.contains(": "))
        && !last.is_empty()
    {
        trailers = last
            .lines()
            .filter_map(|l| l.strip_prefix("Memdir-")?.split_once(": "))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        paragraphs.pop();
    }
    HistoryEntry {
        commit,
        subject: subject.to_string(),
        body: paragraphs.join("\n\n"),
        trailers,
        time,
    }
}

/// `.git/index`, read-only.
pub struct WorktreeIndex {
    file: gix::index::File,
    /// The index file's mtime, taken before it was read.
    mtime: Option<std::time::SystemTime>,
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

    /// Every top-level entry as the index records it: name, blob id, stat data.
    pub fn work_files(&self) -> Vec<(String, ObjectId, Stat)> {
        self.file
            .entries()
            .iter()
            .filter_map(|e| {
                let path = e.path(&self.file).to_str().ok()?;
                (!path.contains('/')).then(|| (path.to_string(), e.id, e.stat))
            })
            .collect()
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

/// Whether git, run in `dir`, finds a repository without a work tree there (a bare one, or
/// the inside of a `.git` folder): then `git apply` refuses to work in `dir`.
pub fn in_bare_repository(dir: &Path) -> bool {
    gix::discover(dir).is_ok_and(|repo| repo.workdir().is_none())
}

/// Whether git tracks `file`: the index of the repository whose work tree holds it has an entry
/// for it. A repository whose index cannot be read counts as tracking it (the cautious answer:
/// a tracked settings file loses powers, an untracked one keeps them).
pub fn is_tracked(file: &Path) -> bool {
    let (Some(parent), Some(name)) = (file.parent(), file.file_name()) else {
        return false;
    };
    let Ok(parent) = parent.canonicalize() else {
        return false;
    };
    let Ok(repo) = gix::discover(&parent) else {
        return false;
    };
    let Some(workdir) = repo.workdir().and_then(|w| w.canonicalize().ok()) else {
        return false;
    };
    let Ok(relative) = parent
        .join(name)
        .strip_prefix(&workdir)
        .map(Path::to_path_buf)
    else {
        return false;
    };
    let Some(relative) = relative.to_str().map(|r| r.replace('\\', "/")) else {
        return true;
    };
    if !repo.index_path().is_file() {
        return false;
    }
    match repo.open_index() {
        Ok(index) => index.entry_by_path(relative.as_str().into()).is_some(),
        Err(_) => true,
    }
}

/// A path the index of a project's repository tracks (for `verify`, DESIGN §9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackedFile {
    /// Relative to the work tree, `/`-separated.
    pub path: String,
    /// A regular file (not a symlink or a submodule), so its content may be searched.
    pub is_file: bool,
}

/// The work tree of the git repository that contains `dir` (found upwards, as `git` finds it)
/// and every path its index tracks, read in-process. A repository with no index yet tracks
/// nothing. `None` when `dir` is in no repository with a work tree or its index cannot be read:
/// the caller falls back to walking the directory, since verification is a report and a broken
/// repository should not stop it.
pub fn tracked_files(dir: &Path) -> Option<(PathBuf, Vec<TrackedFile>)> {
    use gix::index::entry::Mode;
    let repo = gix::discover(dir).ok()?;
    let workdir = repo.workdir()?.to_path_buf();
    if !repo.index_path().is_file() {
        return Some((workdir, Vec::new()));
    }
    let index = repo.open_index().ok()?;
    let mut files: Vec<TrackedFile> = Vec::with_capacity(index.entries().len());
    for entry in index.entries() {
        // A sparse-checkout directory entry or a submodule is no file of this work tree.
        if entry.mode.is_sparse() || entry.mode.is_submodule() {
            continue;
        }
        let Ok(path) = entry.path(&index).to_str() else {
            continue;
        };
        // Entries are sorted by path, then stage: a conflict lists one path up to three times.
        if files.last().is_some_and(|f| f.path == path) {
            continue;
        }
        files.push(TrackedFile {
            path: path.to_string(),
            is_file: entry.mode == Mode::FILE || entry.mode == Mode::FILE_EXECUTABLE,
        });
    }
    Some((workdir, files))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_trailers() {
        let e = parse_message(
            ObjectId::null(gix::hash::Kind::Sha1),
            "save(feedback): lint\n\nRun lint first\n\nMemdir-Op: save\nMemdir-Session: abc\n",
            (0, 0),
        );
        assert_eq!(e.subject, "save(feedback): lint");
        assert_eq!(e.body, "Run lint first");
        assert_eq!(
            e.trailers,
            vec![
                ("Op".into(), "save".into()),
                ("Session".into(), "abc".into())
            ]
        );
    }
}
