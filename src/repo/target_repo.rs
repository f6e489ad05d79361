//! A repository a promotion branch is written into (DESIGN §7): a project's, one holding the
//! config dir, the team memory's. Only objects and that branch are ever written.

use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::objs::Kind;
use gix::objs::tree::EntryKind;

use crate::repo::commit::{commit_object, fanout_folders, loose_files, move_ref, signatures_of};
use crate::repo::loose::LooseWriter;
use crate::repo::{RepoError, git_error, is_ancestor, sync_files};

/// A file of a tree edit: its slash-separated path, and its kind and content, or `None` to
/// remove it.
pub type FileEdit<'a> = (&'a str, Option<(EntryKind, &'a [u8])>);

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

/// The objects of a promotion commit, staged as temp files and not yet named
/// ([`TargetRepo::tree_with_files`]).
#[derive(Default)]
pub struct StagedObjects {
    loose: LooseWriter,
    /// Every object the commit needs written, staged or found there already.
    ids: Vec<ObjectId>,
}

impl StagedObjects {
    fn stage(
        &mut self,
        repo: &gix::Repository,
        kind: Kind,
        data: &[u8],
    ) -> Result<ObjectId, RepoError> {
        let id = self.loose.stage(repo, kind, data)?;
        self.ids.push(id);
        Ok(id)
    }

    fn stage_object(
        &mut self,
        repo: &gix::Repository,
        object: &impl gix::objs::WriteTo,
    ) -> Result<ObjectId, RepoError> {
        let id = self.loose.stage_object(repo, object)?;
        self.ids.push(id);
        Ok(id)
    }
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

    /// The tip of `remote`'s branch `name` as last fetched (`refs/remotes/<remote>/<name>`);
    /// `None` when there is none.
    pub fn remote_branch_tip(
        &self,
        remote: &str,
        name: &str,
    ) -> Result<Option<ObjectId>, RepoError> {
        self.peel_to_commit(&format!("refs/remotes/{remote}/{name}"))
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
    /// intermediate folders created as needed (gix's tree editor), each entry name checked as
    /// git checks it. Its blobs and trees are staged, not yet named: [`TargetRepo::write_commit`]
    /// names them once they are durable, and dropped unused they leave nothing behind.
    pub fn tree_with_files(
        &self,
        base: ObjectId,
        files: &[(&str, EntryKind, &[u8])],
    ) -> Result<(ObjectId, StagedObjects), RepoError> {
        let changes: Vec<FileEdit<'_>> = files
            .iter()
            .map(|(path, kind, bytes)| (*path, Some((*kind, *bytes))))
            .collect();
        self.tree_with_changes(base, &changes)
    }

    /// [`TargetRepo::tree_with_files`], where a file without content (`None`) is removed.
    pub fn tree_with_changes(
        &self,
        base: ObjectId,
        files: &[FileEdit<'_>],
    ) -> Result<(ObjectId, StagedObjects), RepoError> {
        let base_tree = self.tree_and_parents(base)?.0;
        let mut staged = StagedObjects::default();
        let mut editor = self.repo.edit_tree(base_tree).map_err(|e| self.err(e))?;
        for (path, content) in files {
            match content {
                Some((kind, bytes)) => {
                    let blob = staged.stage(&self.repo, Kind::Blob, bytes)?;
                    editor.upsert(*path, *kind, blob).map_err(|e| self.err(e))?;
                }
                None => {
                    editor.remove(*path).map_err(|e| self.err(e))?;
                }
            }
        }
        let protect = self.protect_options();
        // The plumbing editor hands over each changed tree to write (gix's own writes it at
        // once, under its name); the checks of its entry names are gix's.
        let root = editor.detach().write(|tree| {
            for entry in &tree.entries {
                let mode = entry
                    .mode
                    .is_link()
                    .then_some(gix::validate::path::component::Mode::Symlink);
                gix::validate::path::component(entry.filename.as_ref(), mode, protect).map_err(
                    |e| {
                        self.err(gix::Error::from_error(gix::error::Message::new(format!(
                            "\"{}\" cannot be a name in a tree: {e}",
                            entry.filename
                        ))))
                    },
                )?;
            }
            staged.stage_object(&self.repo, tree)
        })?;
        Ok((root, staged))
    }

    /// git's protection of tree entry names, as this repository's config sets it (NTFS on by
    /// default, HFS on macOS, Windows device names on Windows).
    fn protect_options(&self) -> gix::validate::path::component::Options {
        let config = self.repo.config_snapshot();
        gix::validate::path::component::Options {
            protect_windows: config
                .boolean("gitoxide.core.protectWindows")
                .unwrap_or(cfg!(windows)),
            protect_hfs: config
                .boolean("core.protectHFS")
                .unwrap_or(cfg!(target_os = "macos")),
            protect_ntfs: config.boolean("core.protectNTFS").unwrap_or(true),
        }
    }

    /// Write a commit of `tree` on `parent` with git's identity (or memdir's), with `staged`
    /// (the tree's new objects): all are fsynced, then named, and their folders fsynced, before
    /// any ref may name them (DESIGN §4), so a power cut never leaves a torn object under its
    /// name in the project's repository.
    pub fn write_commit(
        &self,
        tree: ObjectId,
        parent: ObjectId,
        message: &str,
        mut staged: StagedObjects,
    ) -> Result<ObjectId, RepoError> {
        let (commit, _) =
            commit_object(&self.repo, tree, &[parent], message).map_err(|e| self.err(e))?;
        let id = staged.stage_object(&self.repo, &commit)?;
        let objects = self.repo.objects.store_ref().path();
        // Objects that were there already are fsynced too: a writer that died may have left
        // one unsynced.
        let mut files = staged.loose.staged_files();
        files.extend(loose_files(objects, &staged.ids));
        sync_files(&files)?;
        staged.loose.place()?;
        sync_files(&fanout_folders(objects, &staged.ids))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo::testing::{git, git_output};

    fn ok(dir: &Path, args: &[&str]) -> String {
        String::from_utf8_lossy(&git(dir, args)).into_owned()
    }

    /// A project with one commit: its folder, the commit, the repository opened.
    fn project() -> (tempfile::TempDir, ObjectId, TargetRepo) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path();
        ok(dir, &["init", "-q"]);
        std::fs::write(dir.join("README.md"), "hello\n").expect("write");
        ok(dir, &["add", "-A"]);
        ok(dir, &["commit", "-q", "-m", "base"]);
        let base =
            ObjectId::from_hex(ok(dir, &["rev-parse", "HEAD"]).trim().as_bytes()).expect("an id");
        let repo = TargetRepo::open(dir).expect("open");
        (tmp, base, repo)
    }

    /// The temp files under `.git/objects` (staged objects not yet named).
    fn temp_files(dir: &Path) -> Vec<PathBuf> {
        let objects = dir.join(".git/objects");
        let mut found = Vec::new();
        for fanout in std::fs::read_dir(&objects).expect("objects").flatten() {
            if let Ok(entries) = std::fs::read_dir(fanout.path()) {
                found.extend(
                    entries
                        .flatten()
                        .map(|e| e.path())
                        .filter(|p| p.to_string_lossy().contains("tmp_obj_")),
                );
            }
        }
        found
    }

    const RULES: &[u8] = b"# Rules\n\n- Use yarn, never npm.\n";

    /// A promotion's objects take their names only with the commit, once durable: before it,
    /// git finds none of them (a power cut then leaves no torn object under a name), and
    /// staged objects dropped unused leave no file.
    #[test]
    fn promotion_objects_are_named_only_with_their_commit() {
        let (tmp, base, repo) = project();
        let dir = tmp.path();
        let files = [("docs/CLAUDE.md", EntryKind::Blob, RULES)];

        let (tree, staged) = repo.tree_with_files(base, &files).expect("staged");
        let tree_hex = tree.to_string();
        assert!(
            !git_output(dir, &["cat-file", "-e", &tree_hex])
                .status
                .success()
        );
        assert_eq!(temp_files(dir).len(), 3, "a blob and two trees, staged");
        drop(staged);
        assert_eq!(temp_files(dir), Vec::<PathBuf>::new());
        assert!(
            !git_output(dir, &["cat-file", "-e", &tree_hex])
                .status
                .success()
        );

        let (again, staged) = repo.tree_with_files(base, &files).expect("staged");
        assert_eq!(again, tree);
        let commit = repo
            .write_commit(tree, base, "memdir: promote\n", staged)
            .expect("commit");
        repo.set_branch("memdir/rules", commit, None, "test")
            .expect("branch");
        assert_eq!(
            ok(dir, &["show", "memdir/rules:docs/CLAUDE.md"]).as_bytes(),
            RULES
        );
        assert_eq!(
            ok(dir, &["rev-parse", "memdir/rules^{tree}"]).trim(),
            tree_hex
        );
        assert_eq!(temp_files(dir), Vec::<PathBuf>::new());
        ok(dir, &["fsck", "--strict", "--no-progress"]);
        assert_eq!(ok(dir, &["status", "--porcelain"]), "");
    }

    /// A name git would not check out (its own folder, NTFS's short name of it) is refused
    /// with the name in the message, and leaves nothing behind.
    #[test]
    fn a_name_git_refuses_is_refused() {
        let (tmp, base, repo) = project();
        let dir = tmp.path();
        for (path, name) in [
            (".git/hooks/pre-commit", ".git"),
            ("docs/.GIT/config", ".GIT"),
            ("GIT~1/config", "GIT~1"),
            ("docs/.git", ".git"),
        ] {
            let Err(e) = repo.tree_with_files(base, &[(path, EntryKind::Blob, RULES)]) else {
                panic!("{path} was taken");
            };
            assert!(
                e.to_string().contains(&format!("\"{name}\"")),
                "{path}: {e}"
            );
            assert_eq!(temp_files(dir), Vec::<PathBuf>::new(), "{path}");
        }
        ok(dir, &["fsck", "--strict", "--no-progress"]);
        assert_eq!(ok(dir, &["status", "--porcelain"]), "");
    }
}
