//! Replacing a small file so that readers see the old bytes or the new ones, never a mix: cursors,
//! hook requests, settings files, proposal records, patches, team checkouts, the merged index.
//! (The store's two-step save has its own batch of fsyncs, but names its temp files the same way,
//! so a writer that dies leaves files a later write recognises and removes.)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The suffix of every temp file memdir writes beside the file it replaces.
pub const TEMP_SUFFIX: &str = ".memdir-tmp";

/// A temp file beside `target`, unique per process and call (two hooks may write at once).
pub fn temp_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.{}{TEMP_SUFFIX}", unique()))
}

/// `<process id>.<n>`: a different text at each call of every process alive at once.
pub fn unique() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}.{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Replace `path` by `bytes`: a temp file in the same folder (created when missing), fsynced,
/// renamed over it, then the folder fsynced (best effort). An existing file keeps its
/// permissions. On failure the temp file is removed and `path` is as it was.
pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let permissions = std::fs::metadata(path).ok().map(|m| m.permissions());
    replace_through_temp(path, |tmp| {
        let mut file = std::fs::File::create(tmp)?;
        file.write_all(bytes)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.sync_all()
    })?;
    if let Ok(dir) = std::fs::File::open(path.parent().unwrap_or(Path::new("."))) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// [`replace`] with nothing fsynced and default permissions: for a cache that checks itself
/// (a power cut may lose the write or tear the file, which its checks then refuse).
pub fn replace_unsynced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    replace_through_temp(path, |tmp| std::fs::write(tmp, bytes))
}

/// `write` a temp file beside `path` (its folder created when missing) and rename it over
/// `path`; on failure the temp file is removed and `path` is as it was.
fn replace_through_temp(
    path: &Path,
    write: impl FnOnce(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))?;
    let tmp = temp_path(path);
    let written = write(&tmp).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A file that could not be written or removed, and why.
#[derive(Debug, thiserror::Error)]
#[error("{verb} {}: {source}", .path.display())]
pub struct FileError {
    verb: &'static str,
    path: PathBuf,
    source: std::io::Error,
}

/// [`replace`], its failure naming the file.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    replace(path, bytes).map_err(|source| FileError {
        verb: "writing",
        path: path.to_path_buf(),
        source,
    })
}

/// Remove a file; one already gone is fine.
pub fn remove_if_exists(path: &Path) -> Result<(), FileError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(FileError {
            verb: "removing",
            path: path.to_path_buf(),
            source: e,
        }),
        _ => Ok(()),
    }
}
