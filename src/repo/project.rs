//! Questions about a project's own repository (never written here): whether git tracks a file,
//! whether it ignores one, every file its index tracks (for `verify`), whether a folder is inside
//! a bare repository, its remotes.

use std::path::{Path, PathBuf};

use gix::bstr::ByteSlice;

use crate::repo::{RepoError, git_error};

/// Whether git, run in `dir`, finds a repository without a work tree there (a bare one, or
/// the inside of a `.git` folder): then `git apply` refuses to work in `dir`.
pub fn in_bare_repository(dir: &Path) -> bool {
    gix::discover(dir).is_ok_and(|repo| repo.workdir().is_none())
}

/// Whether git tracks `file`: the index of the repository whose work tree holds it has an entry
/// for it. A repository whose index cannot be read counts as tracking it (the cautious answer:
/// a tracked settings file loses powers, an untracked one keeps them).
pub fn is_tracked(file: &Path) -> bool {
    let Some((repo, _, relative)) = locate(file) else {
        return false;
    };
    let Some(relative) = relative else {
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

/// The repository whose work tree holds `file` (found from its folder, which must exist), that
/// work tree's root (canonical), and `file`'s path from it, `/`-separated (`None` when it is
/// not UTF-8).
fn locate(file: &Path) -> Option<(gix::Repository, PathBuf, Option<String>)> {
    let (parent, name) = (file.parent()?, file.file_name()?);
    let parent = parent.canonicalize().ok()?;
    let repo = gix::discover(&parent).ok()?;
    let workdir = repo.workdir().and_then(|w| w.canonicalize().ok())?;
    let relative = parent.join(name).strip_prefix(&workdir).ok()?.to_path_buf();
    let relative = relative.to_str().map(|r| r.replace('\\', "/"));
    Some((repo, workdir, relative))
}

/// Where a project's file stands with git's ignore rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exclusion {
    /// The repository's `info/exclude` (in its common git dir: every worktree's).
    pub exclude_file: PathBuf,
    /// The file's path from the work tree's root, `/`-separated.
    pub relative: String,
    /// Git ignores it already: `.gitignore` files, `info/exclude`, `core.excludesFile`.
    pub ignored: bool,
    /// The index tracks it, and ignore rules do not apply to a tracked file.
    pub tracked: bool,
}

/// Where `file` (in a folder that exists) stands with the ignore rules of the repository whose work
/// tree holds it, as `git check-ignore` would say; `None` when no repository with a work tree
/// holds it.
pub fn exclusion(file: &Path) -> Result<Option<Exclusion>, RepoError> {
    let Some((repo, workdir, Some(relative))) = locate(file) else {
        return Ok(None);
    };
    let failed = |source| git_error(&workdir, source);
    let index = repo.index_or_empty().map_err(failed)?;
    let tracked = index.entry_by_path(relative.as_str().into()).is_some();
    let mut excludes = repo
        .excludes(
            &index,
            None,
            gix::worktree::stack::state::ignore::Source::WorktreeThenIdMappingIfNotSkipped,
        )
        .map_err(failed)?;
    let ignored = excludes
        .at_path(Path::new(&relative), Some(gix::index::entry::Mode::FILE))
        .map_err(failed)?
        .is_excluded();
    Ok(Some(Exclusion {
        exclude_file: repo.common_dir().join("info").join("exclude"),
        relative,
        ignored,
        tracked,
    }))
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

/// The remotes of the repository `dir` is in (a linked worktree's are its main repository's),
/// each with the address it fetches from, by name; none outside a repository. Only the config
/// git trusts is read (a repository another user owns has none).
pub fn remotes(dir: &Path) -> Vec<(String, String)> {
    let Ok(repo) = gix::discover(dir) else {
        return Vec::new();
    };
    let config = repo.config_snapshot();
    repo.remote_names()
        .into_iter()
        .filter_map(|name| {
            let url = config.string(format!("remote.{name}.url").as_str())?;
            Some((name.to_string(), url.to_string()))
        })
        .collect()
}
