//! Installing memdir's hooks (DESIGN §11): the Claude Code hook entries merged into a
//! `settings.json` ([`claude`]), and the git `post-merge` hook that reconciles merged promotions
//! (§7) merged into a repository's existing hook ([`git`]). Both merge into what is there and
//! never clobber it; installing twice changes nothing. Uninstalling is the exact inverse: only
//! what install wrote is taken out. A project's local settings file is kept out of its
//! repository ([`exclude`]).

use std::path::{Path, PathBuf};

pub mod claude;
pub mod exclude;
pub mod git;

/// The program name the embedded entries use; `--command` replaces it.
pub const DEFAULT_PROGRAM: &str = "memdir";

#[derive(Debug, thiserror::Error)]
pub enum HooksError {
    #[error("--command {0:?} is not an executable name or path")]
    BadProgram(String),
    #[error("--command {given:?} resolves to {}, which is not UTF-8", .resolved.display())]
    ProgramNotUtf8 { given: String, resolved: PathBuf },
    /// A file memdir would have to merge into, in a shape it cannot merge (told how to fix).
    #[error("{}: {problem}; fix it by hand, nothing was written", .file.display())]
    Unmergeable { file: PathBuf, problem: String },
    /// The post-merge hook cannot be merged; the line to add by hand.
    #[error("{}: {problem}; add memdir's line to it by hand, nothing was written: {line}", .file.display())]
    HookUnmergeable {
        file: PathBuf,
        problem: String,
        line: String,
    },
    /// The post-merge hook cannot be read or rewritten; memdir's line is to remove by hand.
    #[error("{}: {problem}; remove its `memdir proposals --reconcile` line by hand, nothing was written", .file.display())]
    HookNotRemovable { file: PathBuf, problem: String },
    #[error("{} is in no git repository: there is no post-merge hook to install or remove", .0.display())]
    NoRepository(PathBuf),
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Repo(#[from] crate::repo::RepoError),
}

impl HooksError {
    /// Whether the request or what is on disk was refused (exit 2: nothing was written).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, HooksError::Io { .. } | HooksError::Repo(_))
    }
}

/// The executable the hooks run: `given` as it is when it is a bare name or an absolute path,
/// else made absolute against `cwd` (a hook runs from anywhere).
pub fn program_path(cwd: &Path, given: &str) -> Result<String, HooksError> {
    if given.trim().is_empty() || given.contains(['\n', '\r', '\0']) {
        return Err(HooksError::BadProgram(given.to_string()));
    }
    let path = Path::new(given);
    if path.is_absolute() || path.components().count() == 1 {
        return Ok(given.to_string());
    }
    let joined = crate::paths::absolute_from(cwd, path);
    let absolute = crate::paths::normalize(&joined).unwrap_or(joined);
    absolute
        .to_str()
        .map(str::to_string)
        .ok_or_else(|| HooksError::ProgramNotUtf8 {
            given: given.to_string(),
            resolved: absolute.clone(),
        })
}
