//! A repository a promotion branch is written into (DESIGN §7): a project's, one holding the
//! config dir, the team memory's. Only objects and that branch are ever written.

use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;

use crate::repo::commit::{move_ref, object_files, signatures_of, write_commit_object};
use crate::repo::{RepoError, git_error, is_ancestor, sync_files};

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
        let (id, _) =
            write_commit_object(&self.repo, tree, &[parent], message).map_err(|e| self.err(e))?;
        let mut written = objects.to_vec();
        written.push(id);
        sync_files(&object_files(&self.repo, &written))?;
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
        let (_, committer) = signatures_of(&self.repo).map_err(|e| self.err(e))?;
        move_ref(
            &self.repo,
            &format!("refs/heads/{name}"),
            false,
            expected,
            new,
            message,
            &committer,
        )
        .map_err(|e| self.err(e))
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
