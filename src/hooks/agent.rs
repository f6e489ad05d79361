//! The agent extractor played by Claude Code (`hooks/claude-extract-agent`, DESIGN §6), compiled
//! into memdir and written beside Claude Code's settings when `hooks install --extractor agent`
//! names no command of its own: an installed memdir needs no checkout of its repository.

use std::path::{Path, PathBuf};

use crate::hooks::HooksError;

/// The script, as the repository holds it.
const SCRIPT: &str = include_str!("../../hooks/claude-extract-agent");

/// Where the script goes, under Claude Code's config folder.
pub fn script_path(config_dir: &Path) -> PathBuf {
    config_dir.join("memdir").join("claude-extract-agent")
}

/// Write the script to [`script_path`], executable, unless it is there already as it should be
/// (then nothing is touched). Returns whether it was written. A file or symlink in its place is
/// replaced, never written through.
pub fn install(config_dir: &Path) -> Result<bool, HooksError> {
    let path = script_path(config_dir);
    let io = |source| HooksError::Io {
        path: path.clone(),
        source,
    };
    let current = std::fs::symlink_metadata(&path)
        .ok()
        .filter(|meta| meta.is_file())
        .and_then(|_| crate::input::read_regular(&path, SCRIPT.len() as u64 + 1).ok());
    if current.as_deref() == Some(SCRIPT.as_bytes()) && is_executable(&path) {
        return Ok(false);
    }
    crate::atomic::replace(&path, SCRIPT.as_bytes()).map_err(io)?;
    make_executable(&path).map_err(io)?;
    Ok(true)
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|meta| meta.permissions().mode() & 0o111 == 0o111)
}

#[cfg(unix)]
fn make_executable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    true
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> std::io::Result<()> {
    Ok(())
}
