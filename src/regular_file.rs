//! Opening files that someone else may have put there (DESIGN §10): a transcript path from a hook
//! payload, files an agent left in the memory dir, extraction's own state files. Only regular
//! files are read: opening a FIFO for reading waits for a writer that may never come, and a
//! device (`/dev/zero`) never ends. So the file is opened without blocking, then checked on the
//! handle itself (no window between the check and the read), and refused unless it is a regular
//! file. Small files are read whole only under a cap.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// What a file is, in a few words, for "X is not a regular file (a FIFO)".
pub fn describe_kind(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    if kind.is_symlink() {
        return "a symlink";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// The error for a path that exists but is not a regular file: `is not a regular file (a FIFO)`.
fn not_regular(meta: &Metadata) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("is not a regular file ({})", describe_kind(meta)),
    )
}

/// Whether an error is [`not_regular`]'s or a missing file's: nothing a retry would change.
pub fn is_permanent(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::InvalidInput | io::ErrorKind::NotFound | io::ErrorKind::FileTooLarge
    )
}

/// Open `path` for reading, refusing anything but a regular file without ever blocking on it.
pub fn open(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        open_with(path, rustix::fs::OFlags::RDONLY, rustix::fs::Mode::empty())
    }
    #[cfg(not(unix))]
    {
        checked(File::open(path)?)
    }
}

/// Open `path` with `flags` (and `mode`, when it creates the file), never blocking on it (a FIFO
/// opens at once instead of waiting for the other end; on a regular file the flag changes
/// nothing), then refuse it unless it is a regular file, checked on the handle itself.
#[cfg(unix)]
pub fn open_with(
    path: &Path,
    flags: rustix::fs::OFlags,
    mode: rustix::fs::Mode,
) -> io::Result<File> {
    use rustix::fs::OFlags;
    let fd = rustix::fs::open(path, flags | OFlags::NONBLOCK | OFlags::CLOEXEC, mode)?;
    checked(File::from(fd))
}

fn checked(file: File) -> io::Result<File> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    Ok(file)
}

/// A regular file's bytes, refused when over `cap` (without reading more than `cap + 1`).
pub fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path)?.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("is over {cap} bytes"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_open() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("a");
        std::fs::write(&file, "abc").expect("write");
        assert_eq!(read_capped(&file, 3).expect("read"), b"abc");
        let over = read_capped(&file, 2).expect_err("over the cap");
        assert_eq!(over.to_string(), "is over 2 bytes");
        assert!(is_permanent(&over));
        let error = open(dir.path()).expect_err("a directory");
        assert_eq!(error.to_string(), "is not a regular file (a directory)");
        assert!(is_permanent(&error));
        let error = open(Path::new("/dev/zero")).expect_err("a device");
        assert_eq!(
            error.to_string(),
            "is not a regular file (a character device)"
        );
        let missing = open(&dir.path().join("missing")).expect_err("missing");
        assert!(is_permanent(&missing));
    }
}
