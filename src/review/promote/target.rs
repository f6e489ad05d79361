//! Where a promotion goes (DESIGN §7): the project's `CLAUDE.md` at its git root, the personal
//! one in the config dir, a `--target` file inside either, or a topic file of team memory; and
//! the repository that holds it, if any. A target outside its root, inside `.git`, or not UTF-8
//! is refused before anything is written.

use std::path::{Component, Path, PathBuf};

use super::{DEFAULT_FILE, Places, PromoteError, PromoteTo, Request};
use crate::repo::TargetRepo;

/// The target file: its repository (if any), the folder a patch applies in, and its path
/// relative to that root.
pub(super) struct Target {
    pub(super) repo: Option<TargetRepo>,
    /// The repository's root, or the folder the patch applies in.
    pub(super) root: PathBuf,
    /// `/`-separated, relative to `root`.
    pub(super) file: String,
}

impl Target {
    pub(super) fn path(&self) -> PathBuf {
        self.root.join(&self.file)
    }
}

/// `path` made canonical as far as it exists (its missing tail appended as given).
fn canonical_prefix(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut tail = Vec::new();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            let mut out = canonical;
            for part in tail.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Resolve `given` (or `CLAUDE.md`) against `anchor`, and express it relative to `root`, which
/// it must be inside.
fn relative_file(root: &Path, anchor: &Path, given: Option<&Path>) -> Result<String, PromoteError> {
    let given = given.unwrap_or(Path::new(DEFAULT_FILE));
    let joined = crate::paths::absolute_from(anchor, given);
    let normal = crate::paths::normalize(&joined).ok_or_else(|| {
        PromoteError::Invalid(format!(
            "--target {}: leaves the filesystem root",
            given.display()
        ))
    })?;
    let path = canonical_prefix(&normal);
    if path.is_dir() {
        return Err(PromoteError::Invalid(format!(
            "--target {} is a folder: give the instruction file (such as {})",
            given.display(),
            Path::new(given).join(DEFAULT_FILE).display()
        )));
    }
    let outside = || {
        PromoteError::Invalid(format!(
            "--target {} is outside {} (it must be a file inside it)",
            given.display(),
            root.display()
        ))
    };
    let relative = path.strip_prefix(root).map_err(|_| outside())?;
    let mut parts = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(part) => {
                let part = part.to_str().ok_or_else(|| {
                    PromoteError::Invalid(format!("--target {} is not UTF-8", given.display()))
                })?;
                if part.eq_ignore_ascii_case(".git") {
                    return Err(PromoteError::Invalid(format!(
                        "--target {} is inside .git",
                        given.display()
                    )));
                }
                parts.push(part.to_string());
            }
            _ => return Err(outside()),
        }
    }
    if parts.is_empty() {
        return Err(outside());
    }
    Ok(parts.join("/"))
}

/// Where a promotion goes: the file, and the repository holding it.
pub(super) fn resolve(places: &Places, request: &Request<'_>) -> Result<Target, PromoteError> {
    match request.to {
        PromoteTo::Team => team(places, request),
        PromoteTo::Project | PromoteTo::Personal => instruction_file(places, request),
    }
}

/// A team promotion's target: the memory's topic file in team memory's repository.
fn team(places: &Places, request: &Request<'_>) -> Result<Target, PromoteError> {
    if request.target.is_some() {
        return Err(PromoteError::Invalid(
            "--target does not apply to --to team (the memory becomes a team topic file)".into(),
        ));
    }
    let team = crate::paths::team_dir(&places.memory_dir);
    if !team.join(".git").exists() {
        return Err(PromoteError::Invalid(format!(
            "team memory is not set up yet: {} is not a git repository (hint: set up team memory first, then promote)",
            team.display()
        )));
    }
    let repo = TargetRepo::open(&team)?;
    Ok(Target {
        root: repo.workdir().to_path_buf(),
        repo: Some(repo),
        file: format!("{}.md", request.name),
    })
}

/// A project or personal promotion's target: the instruction file, and the repository holding
/// it (if any).
fn instruction_file(places: &Places, request: &Request<'_>) -> Result<Target, PromoteError> {
    let anchor_dir = match request.to {
        PromoteTo::Personal => places.config_dir.clone(),
        _ => places.project.clone(),
    };
    let anchor = canonical_prefix(&anchor_dir);
    let repo = TargetRepo::discover(&anchor)?;
    match repo {
        Some(repo) => {
            let root = repo.workdir().to_path_buf();
            // A project's file is relative to its repository's root; a personal one to the
            // config dir, wherever its repository's root is.
            let anchor = match request.to {
                PromoteTo::Project => root.clone(),
                _ => anchor,
            };
            let file = relative_file(&root, &anchor, request.target)?;
            Ok(Target {
                repo: Some(repo),
                root,
                file,
            })
        }
        None => {
            let file = relative_file(&anchor, &anchor, request.target)?;
            Ok(Target {
                repo: None,
                root: anchor,
                file,
            })
        }
    }
}
