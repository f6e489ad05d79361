//! Questions about a project's own repository (never written here): whether git tracks a file,
//! every file its index tracks (for `verify`), whether a folder is inside a bare repository.

use std::path::{Path, PathBuf};

use gix::bstr::ByteSlice;

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
