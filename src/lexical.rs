//! Paths as text, without touching the filesystem: made absolute against a folder, and
//! normalised lexically (`.` dropped, `..` popped), as a setting's value or a flag is read.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute against `cwd`, without touching the filesystem.
pub fn absolute_from(cwd: &Path, path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    }
}

/// Lexical normalisation: `.` dropped, `..` pops; `None` if `..` would leave the root.
pub fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => out.push(component.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() || out.as_os_str().is_empty() {
                    return None;
                }
            }
            Component::Normal(part) => out.push(part),
        }
    }
    Some(out)
}
