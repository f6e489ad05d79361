//! Where memory lives (DESIGN §2): the config dir, Claude Code's `sanitize` rule for project
//! folders, the memory-dir resolution order and the validation of every path a setting, an
//! environment variable or a flag can name.
//!
//! Checked against Claude Code 2.1.332 (`cc-oracle/sanitize_vectors.jsonl` and recorded stacks).

use std::path::{Path, PathBuf};

use crate::env::{EnvError, Environment};
pub use crate::lexical::{absolute_from, normalize};
use crate::settings::{Settings, SettingsLayer};

/// The team memory dir inside a memory dir (DESIGN §8): where `team init` clones the team's
/// remote, and what `review`, `search` and the recall hooks read as team memory.
pub fn team_dir(memory_dir: &Path) -> PathBuf {
    memory_dir.join("team")
}

#[derive(Debug, thiserror::Error)]
pub enum PathError {
    #[error(transparent)]
    Env(#[from] EnvError),
    #[error("{origin} names {value:?}, which {problem}")]
    InvalidMemoryDir {
        origin: String,
        value: String,
        problem: &'static str,
    },
    #[error("the memory dir {dir} is a symlink to {target}, outside its parent folder")]
    SymlinkEscapes { dir: PathBuf, target: PathBuf },
    #[error(
        "{link} is a symlink to {target}, outside {base}: the memory dir below it would be written there; nothing was written"
    )]
    ParentSymlinkEscapes {
        link: PathBuf,
        target: PathBuf,
        base: PathBuf,
    },
    #[error("the memory dir {dir} is a file, not a folder")]
    NotAFolder { dir: PathBuf },
    #[error("project dir {dir}: {source}")]
    Project {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot inspect {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl PathError {
    /// Whether the location was refused (exit 2), not the machine failing (exit 1).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, PathError::Io { .. })
    }
}

/// Claude Code's project-folder naming: every UTF-16 code unit that is not ASCII alphanumeric
/// becomes `-`, without collapsing; past 200 units, the first 200, `-`, and the base-36 of the
/// absolute Java `hashCode` of the original text.
pub fn sanitize(path: &str) -> String {
    const MAX_UNITS: usize = 200;
    let units: Vec<u16> = path.encode_utf16().collect();
    let mut out: String = units
        .iter()
        .take(MAX_UNITS)
        .map(|&u| match u8::try_from(u) {
            Ok(b) if b.is_ascii_alphanumeric() => char::from(b),
            _ => '-',
        })
        .collect();
    if units.len() > MAX_UNITS {
        let hash = units
            .iter()
            .fold(0i32, |h, &u| h.wrapping_mul(31).wrapping_add(i32::from(u)));
        out.push('-');
        out.push_str(&base36(i64::from(hash).unsigned_abs()));
    }
    out
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut digits = Vec::new();
    loop {
        digits.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().map(|&d| char::from(d)).collect()
}

/// Which rule of §2 chose the memory dir.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocationRule {
    /// `--memory-dir`.
    Flag,
    /// `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`.
    EnvOverride,
    /// `autoMemoryDirectory` in a settings file.
    Setting { layer: SettingsLayer, file: PathBuf },
    /// `<base>/projects/<sanitize(key)>/memory/`.
    Default { base: PathBuf, key: PathBuf },
}

impl LocationRule {
    /// A one-line explanation for `memdir path --explain`.
    pub fn describe(&self) -> String {
        match self {
            LocationRule::Flag => "--memory-dir flag".to_string(),
            LocationRule::EnvOverride => "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE".to_string(),
            LocationRule::Setting { layer, file } => {
                format!(
                    "autoMemoryDirectory in {} settings ({})",
                    layer.name(),
                    file.display()
                )
            }
            LocationRule::Default { base, key } => format!(
                "default: {}/projects/<sanitized {}>/memory",
                base.display(),
                key.display()
            ),
        }
    }

    /// A short stable identifier for `--json`.
    pub fn id(&self) -> &'static str {
        match self {
            LocationRule::Flag => "flag",
            LocationRule::EnvOverride => "env-override",
            LocationRule::Setting { .. } => "setting",
            LocationRule::Default { .. } => "default",
        }
    }
}

/// The resolved memory dir and why it is there.
#[derive(Debug, Clone)]
pub struct MemoryLocation {
    pub dir: PathBuf,
    pub rule: LocationRule,
    /// A project settings file whose `autoMemoryDirectory` was ignored (never honoured, §2).
    pub ignored_project_setting: Option<PathBuf>,
    /// That file is a local settings file, read as project settings because git tracks it.
    pub ignored_because_tracked: bool,
    /// Invalid values passed over, as messages (only when resolving as Claude Code does).
    pub passed_over: Vec<String>,
}

impl MemoryLocation {
    /// Why a setting was ignored, in one line, when one was.
    pub fn ignored_setting_note(&self) -> Option<String> {
        let file = self.ignored_project_setting.as_ref()?;
        Some(if self.ignored_because_tracked {
            format!(
                "ignored autoMemoryDirectory in {}: it is tracked by git, so it counts as project settings, which never choose the memory dir",
                file.display()
            )
        } else {
            format!(
                "ignored autoMemoryDirectory in {} (project settings never choose the memory dir)",
                file.display()
            )
        })
    }
}

/// How strictly the settings are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// memdir's own rule (§2): project settings never choose the memory dir, and an invalid
    /// value is an error.
    Strict,
    /// What Claude Code 2.1.332 does when it loads the index (recorded): project settings count
    /// (below local, above user settings), and an invalid value is passed over.
    AsClaudeCode,
}

/// Resolve the memory dir by the first rule of §2 that applies.
pub fn resolve_memory_dir(
    env: &Environment,
    settings: &Settings,
    flag: Option<&Path>,
    project: &Path,
) -> Result<MemoryLocation, PathError> {
    resolve_memory_dir_with(env, settings, flag, project, Resolution::Strict)
}

/// [`resolve_memory_dir`], read as memdir writes it or as Claude Code loads it.
pub fn resolve_memory_dir_with(
    env: &Environment,
    settings: &Settings,
    flag: Option<&Path>,
    project: &Path,
    resolution: Resolution,
) -> Result<MemoryLocation, PathError> {
    let strict = resolution == Resolution::Strict;
    let mut passed_over = Vec::new();
    let mut ignored_project_setting = None;
    let mut chosen: Option<(PathBuf, LocationRule)> = None;
    if let Some(flag) = flag {
        let dir = normalize(&absolute_from(&env.cwd, flag)).ok_or_else(|| {
            invalid(
                "--memory-dir",
                flag.to_string_lossy().as_ref(),
                "escapes the filesystem root",
            )
        })?;
        if dir.parent().is_none() {
            return Err(invalid(
                "--memory-dir",
                &flag.to_string_lossy(),
                "is the filesystem root",
            ));
        }
        chosen = Some((dir, LocationRule::Flag));
    }
    if chosen.is_none()
        && let Some(value) = env.var_str("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
    {
        match validate_override(&value) {
            Ok(dir) => chosen = Some((dir, LocationRule::EnvOverride)),
            Err(e) if !strict => passed_over.push(e.to_string()),
            Err(e) => return Err(e),
        }
    }
    if chosen.is_none() {
        for (layer, file, value) in settings.memory_directories() {
            if layer == SettingsLayer::Project && strict {
                ignored_project_setting = Some(file.to_path_buf());
                continue;
            }
            let origin = format!("autoMemoryDirectory in {}", file.display());
            match validate_setting_path(&origin, value, &env.home()?) {
                Ok(dir) => {
                    let rule = LocationRule::Setting {
                        layer,
                        file: file.to_path_buf(),
                    };
                    chosen = Some((dir, rule));
                    break;
                }
                // Claude Code takes the first layer that sets it, valid or not.
                Err(e) if !strict => {
                    passed_over.push(e.to_string());
                    break;
                }
                Err(e) => return Err(e),
            }
        }
    }
    if strict && ignored_project_setting.is_none() {
        ignored_project_setting = settings
            .project_memory_directory()
            .map(|(file, _)| file.to_path_buf());
    }
    let ignored_because_tracked = ignored_project_setting
        .as_deref()
        .is_some_and(|file| settings.is_tracked_local(file));
    let (dir, rule) = match chosen {
        Some(chosen) => chosen,
        None => {
            let base = match env.var("CLAUDE_CODE_REMOTE_MEMORY_DIR") {
                Some(dir) => absolute_from(&env.cwd, Path::new(dir)),
                None => env.config_dir()?,
            };
            let key = project_key(project)?;
            let dir = base
                .join("projects")
                .join(sanitize(&key.to_string_lossy()))
                .join("memory");
            (dir, LocationRule::Default { base, key })
        }
    };
    if strict {
        check_symlink(&dir)?;
        if let LocationRule::Default { base, .. } = &rule {
            check_parents(&dir, base)?;
        }
        if std::fs::metadata(&dir).is_ok_and(|meta| !meta.is_dir()) {
            return Err(PathError::NotAFolder { dir });
        }
    }
    Ok(MemoryLocation {
        dir,
        rule,
        ignored_project_setting,
        ignored_because_tracked,
        passed_over,
    })
}

fn invalid(origin: &str, value: &str, problem: &'static str) -> PathError {
    PathError::InvalidMemoryDir {
        origin: origin.to_string(),
        value: value.to_string(),
        problem,
    }
}

/// `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`: absolute, at least 3 characters, no NUL, not a bare
/// drive, and no `~` expansion (a `~` path is relative, so refused).
fn validate_override(value: &str) -> Result<PathBuf, PathError> {
    const ORIGIN: &str = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE";
    check_common(ORIGIN, value)?;
    if value.chars().count() < 3 {
        return Err(invalid(ORIGIN, value, "is shorter than 3 characters"));
    }
    if !Path::new(value).is_absolute() {
        return Err(invalid(ORIGIN, value, "is not an absolute path"));
    }
    match normalize(Path::new(value)) {
        Some(dir) if dir.parent().is_some() => Ok(dir),
        _ => Err(invalid(ORIGIN, value, "is the filesystem root")),
    }
}

/// `autoMemoryDirectory`: `~/` expanded; relative paths, `/`, drive roots, UNC paths, NUL bytes
/// and anything that escapes its base after normalisation are refused.
fn validate_setting_path(origin: &str, value: &str, home: &Path) -> Result<PathBuf, PathError> {
    check_common(origin, value)?;
    let (base, rest) = if value == "~" {
        return Err(invalid(origin, value, "is the home directory itself"));
    } else if let Some(rest) = value.strip_prefix("~/") {
        (home.to_path_buf(), rest)
    } else if Path::new(value).is_absolute() {
        (PathBuf::from("/"), value)
    } else {
        return Err(invalid(origin, value, "is not an absolute path (nor ~/…)"));
    };
    let dir = normalize(&base.join(rest))
        .filter(|dir| dir.starts_with(&base) && dir != &base)
        .ok_or_else(|| {
            if base == Path::new("/") {
                invalid(origin, value, "is the filesystem root")
            } else {
                invalid(origin, value, "escapes the home directory")
            }
        })?;
    if dir.parent().is_none() {
        return Err(invalid(origin, value, "is the filesystem root"));
    }
    Ok(dir)
}

/// The refusals that hold for every spelling, whatever the platform.
fn check_common(origin: &str, value: &str) -> Result<(), PathError> {
    let bytes = value.as_bytes();
    if value.contains('\0') {
        Err(invalid(origin, value, "holds a NUL byte"))
    } else if value.starts_with(r"\\") || value.starts_with("//") {
        Err(invalid(origin, value, "is a UNC path"))
    } else if bytes.len() >= 2
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes.len() == 2 || (bytes.len() == 3 && matches!(bytes[2], b'\\' | b'/')))
    {
        Err(invalid(origin, value, "is a drive root"))
    } else if value.trim().is_empty() {
        Err(invalid(origin, value, "is empty"))
    } else {
        Ok(())
    }
}

/// A memory dir that is a symlink must point inside its own parent folder (§10).
fn check_symlink(dir: &Path) -> Result<(), PathError> {
    let parent = dir.parent().unwrap_or(Path::new("/"));
    match symlink_escape(dir, parent) {
        Ok(None) => Ok(()),
        Ok(Some(target)) => Err(PathError::SymlinkEscapes {
            dir: dir.to_path_buf(),
            target,
        }),
        Err(source) => Err(PathError::Io {
            path: dir.to_path_buf(),
            source,
        }),
    }
}

/// Below the config dir, no folder on the way to the default memory dir may be a symlink that
/// leads out of it: memdir would write wherever it points (DESIGN §10).
fn check_parents(dir: &Path, base: &Path) -> Result<(), PathError> {
    let Ok(below) = dir.strip_prefix(base) else {
        return Ok(());
    };
    let mut current = base.to_path_buf();
    for component in below.components() {
        current.push(component);
        match symlink_escape(&current, base) {
            Ok(None) => {}
            Ok(Some(target)) => {
                return Err(PathError::ParentSymlinkEscapes {
                    link: current,
                    target,
                    base: base.to_path_buf(),
                });
            }
            // The base itself is missing: nothing can have been planted below it.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(source) => {
                return Err(PathError::Io {
                    path: current,
                    source,
                });
            }
        }
    }
    Ok(())
}

/// Where the symlink `link` leads when that is outside `base`; `None` when `link` is not a
/// symlink (or does not exist) or stays inside. A dangling link is judged by where it would
/// land, relative to the folder that holds it.
pub fn symlink_escape(link: &Path, base: &Path) -> std::io::Result<Option<PathBuf>> {
    match std::fs::symlink_metadata(link) {
        Ok(meta) if meta.file_type().is_symlink() => {}
        Ok(_) => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    }
    let base = base.canonicalize()?;
    let target = match link.canonicalize() {
        Ok(target) => target,
        Err(_) => {
            let holder = link.parent().unwrap_or(Path::new("/")).canonicalize()?;
            normalize(&absolute_from(&holder, &std::fs::read_link(link)?)).unwrap_or_default()
        }
    };
    Ok((!target.starts_with(&base)).then_some(target))
}

/// The key of the default memory dir: the canonical root of the project's git repository
/// (the main repository's root for a linked worktree), else the canonical project dir.
pub fn project_key(project: &Path) -> Result<PathBuf, PathError> {
    let project = project
        .canonicalize()
        .map_err(|source| PathError::Project {
            dir: project.to_path_buf(),
            source,
        })?;
    // A file is no project: its folder's memory dir would be named after the file.
    if !project.is_dir() {
        return Err(PathError::Project {
            dir: project,
            source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "it is not a folder"),
        });
    }
    for dir in project.ancestors() {
        let dot_git = dir.join(".git");
        let Ok(meta) = std::fs::metadata(&dot_git) else {
            continue;
        };
        if meta.is_dir() {
            return Ok(dir.to_path_buf());
        }
        if meta.is_file() {
            return Ok(main_worktree_root(dir, &dot_git).unwrap_or_else(|| dir.to_path_buf()));
        }
    }
    Ok(project)
}

/// The root of the git work tree `dir` is in (a linked worktree's own root), if any.
pub fn work_tree_root(dir: &Path) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    dir.ancestors()
        .find(|candidate| candidate.join(".git").exists())
        .map(Path::to_path_buf)
}

/// When `dir` is inside a linked worktree: the worktree's root and the main repository's root.
pub fn linked_worktree(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let dir = dir.canonicalize().ok()?;
    for candidate in dir.ancestors() {
        let dot_git = candidate.join(".git");
        match std::fs::metadata(&dot_git) {
            Ok(meta) if meta.is_dir() => return None,
            Ok(meta) if meta.is_file() => {
                let main = main_worktree_root(candidate, &dot_git)?;
                return Some((candidate.to_path_buf(), main));
            }
            _ => {}
        }
    }
    None
}

/// For a `.git` file (`gitdir: …`) of a linked worktree, the main repository's root: the parent
/// of the common dir named by `<gitdir>/commondir`. `None` for anything else (a submodule).
fn main_worktree_root(worktree: &Path, dot_git: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(dot_git).ok()?;
    let gitdir = text.lines().next()?.strip_prefix("gitdir:")?.trim();
    let gitdir = absolute_from(worktree, Path::new(gitdir));
    let common = std::fs::read_to_string(gitdir.join("commondir")).ok()?;
    let common = absolute_from(&gitdir, Path::new(common.trim()))
        .canonicalize()
        .ok()?;
    if common.file_name()? == ".git" {
        common.parent().map(Path::to_path_buf)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_reproduces_claude_code_vectors() {
        let vectors = include_str!("../fixtures/cc-oracle/sanitize_vectors.jsonl");
        let mut count = 0;
        for line in vectors.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("vector is JSON");
            let input = v["input"].as_str().expect("input");
            let output = v["output"].as_str().expect("output");
            assert_eq!(sanitize(input), output, "sanitize({input:?})");
            assert_eq!(
                output.len() as u64,
                v["len"].as_u64().expect("len"),
                "length of {input:?}"
            );
            count += 1;
        }
        assert_eq!(count, 8);
    }

    #[test]
    fn setting_paths_are_validated() {
        let home = Path::new("/home/u");
        let ok = |v: &str| validate_setting_path("s", v, home).map_err(|e| e.to_string());
        assert_eq!(ok("~/mem").as_deref(), Ok(Path::new("/home/u/mem")));
        assert_eq!(ok("/srv/mem/./x/..").as_deref(), Ok(Path::new("/srv/mem")));
        for (bad, why) in [
            ("mem", "not an absolute"),
            ("/", "filesystem root"),
            ("/..", "filesystem root"),
            ("C:\\", "drive root"),
            ("C:", "drive root"),
            (r"\\server\share", "UNC"),
            ("//server/share", "UNC"),
            ("/tmp/a\0b", "NUL"),
            ("~/..", "escapes the home"),
            ("~/../other", "escapes the home"),
            ("~", "home directory itself"),
            ("", "empty"),
        ] {
            let err = ok(bad).expect_err(bad);
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }

    #[test]
    fn override_is_validated() {
        assert_eq!(
            validate_override("/srv/m").ok().as_deref(),
            Some(Path::new("/srv/m"))
        );
        for bad in ["/a", "~/mem", "rel/dir", "C:", "/tmp/\0x", "/.."] {
            assert!(validate_override(bad).is_err(), "{bad:?}");
        }
    }
}
