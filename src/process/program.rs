//! Whether a program is there to run (DESIGN §6, §11): a bare name looked up in `PATH`'s
//! folders as a shell would, an absolute path checked as it is. The hooks' program before
//! `hooks install` writes it, and Claude Code before memdir asks it a question.

use std::path::Path;

/// Whether a program is there to run, as far as memdir can tell (Claude Code and git run hooks
/// with the PATH of their own start, most often the same shell's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramCheck {
    /// An executable file: where.
    Found(std::path::PathBuf),
    /// A bare name in none of `PATH`'s folders, or no `PATH` at all.
    NotOnPath,
    /// An absolute path with nothing there.
    Missing,
    /// There, but not an executable file.
    NotExecutable,
}

/// Check `program` (a bare name, or an absolute path): a bare name is looked up in
/// `search_path`'s absolute folders, as a shell would (a relative one depends on the folder a
/// program starts in).
pub fn check_program(program: &str, search_path: Option<&std::ffi::OsStr>) -> ProgramCheck {
    let path = Path::new(program);
    if path.is_absolute() {
        return match std::fs::metadata(path) {
            Err(_) => ProgramCheck::Missing,
            Ok(_) if runnable(path) => ProgramCheck::Found(path.to_path_buf()),
            Ok(_) => ProgramCheck::NotExecutable,
        };
    }
    search_path
        .into_iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(program))
        .find(|candidate| runnable(candidate))
        .map_or(ProgramCheck::NotOnPath, ProgramCheck::Found)
}

/// A file (a symlink followed) that someone may execute.
#[cfg(unix)]
fn runnable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn runnable(path: &Path) -> bool {
    path.is_file()
}
