//! Reading what memdir did not write itself (DESIGN §10). Every file or stream that a user, an
//! agent, a cloned repository or a teammate controls is read only when it is a regular file and
//! only up to a size cap: a FIFO, a socket or a device is refused without a blocking open (it is
//! opened non-blocking and checked with `fstat` on the handle, so swapping the file between a
//! check and the open changes nothing), and a stream is read to at most one byte past its cap.

use std::fs::{File, Metadata, TryLockError};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A topic file read from the memory dir: one fact is meant to fit in about 4 KB (§3); past this
/// a file is reported, not read.
pub const MAX_TOPIC_FILE_BYTES: u64 = 256 * 1024;
/// `MEMORY.md`: Claude Code reads memory and instruction files up to 4 MiB and skips bigger ones.
pub const MAX_INDEX_BYTES: u64 = 4 * 1024 * 1024;
/// A `settings.json` layer.
pub const MAX_SETTINGS_BYTES: u64 = 1024 * 1024;
/// A memory's body as `save` takes it (`--body`, `--body-file`, stdin).
pub const MAX_BODY_BYTES: u64 = 64 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{} is not a regular file ({kind})", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{what} is over the {} limit", format_bytes(*cap))]
    TooLarge { what: String, cap: u64 },
    #[error("{} is not valid UTF-8", what)]
    NotUtf8 { what: String },
    #[error("cannot read {what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

impl InputError {
    /// Whether the file simply is not there.
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }

    /// Whether a path opened with [`Follow::No`] was a symlink.
    pub fn is_symlink(&self) -> bool {
        #[cfg(unix)]
        let eloop = Some(rustix::io::Errno::LOOP.raw_os_error());
        #[cfg(not(unix))]
        let eloop = None;
        matches!(self, InputError::Io { source, .. } if source.raw_os_error() == eloop)
    }

    /// Whether the input itself was refused (exit 2), not the machine failing (exit 1).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, InputError::Io { .. })
    }
}

/// The first `max` bytes of `text`, cut back to a character boundary (`str::floor_char_boundary`
/// is newer than memdir's minimum Rust).
pub fn head_bytes(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `64 KiB`, `4 MiB`, or bytes.
pub fn format_bytes(bytes: u64) -> String {
    const KIB: u64 = 1024;
    if bytes >= KIB * KIB && bytes.is_multiple_of(KIB * KIB) {
        format!("{} MiB", bytes / (KIB * KIB))
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes}-byte")
    }
}

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

/// Open `path` with `flags` (and `mode`, when it creates the file), never blocking on it (a FIFO
/// opens at once instead of waiting for the other end; on a regular file the flag changes
/// nothing). The caller checks what it got on the handle.
#[cfg(unix)]
pub fn open_with(
    path: &Path,
    flags: rustix::fs::OFlags,
    mode: rustix::fs::Mode,
) -> std::io::Result<File> {
    use rustix::fs::OFlags;
    let fd = rustix::fs::open(path, flags | OFlags::NONBLOCK | OFlags::CLOEXEC, mode)?;
    Ok(File::from(fd))
}

/// Open `path` for reading (symlinks followed) without blocking on a FIFO or a device.
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    #[cfg(unix)]
    {
        open_with(path, rustix::fs::OFlags::RDONLY, rustix::fs::Mode::empty())
    }
    #[cfg(not(unix))]
    {
        File::open(path)
    }
}

/// Whether `file` (opened by [`open_with`]) is a regular file; the error names `path`.
pub fn check_regular(path: &Path, file: &File) -> Result<Metadata, InputError> {
    let meta = file.metadata().map_err(|source| InputError::Io {
        what: path.display().to_string(),
        source,
    })?;
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            path: path.to_path_buf(),
            kind: describe_kind(&meta),
        });
    }
    Ok(meta)
}

/// `file` locked exclusively, once whoever holds its lock lets go or `deadline` comes (never,
/// when `None`); `None` when the deadline came first. A lock cannot be waited for with a time
/// limit (flock has none): a thread blocks on it and hands it over. When the deadline comes
/// first the thread is left blocked; it lets go of the lock as soon as it gets it.
pub fn lock_until(file: File, deadline: Option<Instant>) -> std::io::Result<Option<File>> {
    match file.try_lock() {
        Ok(()) => return Ok(Some(file)),
        Err(TryLockError::WouldBlock) => {}
        Err(TryLockError::Error(e)) => return Err(e),
    }
    let Some(deadline) = deadline else {
        file.lock()?;
        return Ok(Some(file));
    };
    let (locked, taken) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = locked.send(file.lock().map(|()| file));
    });
    match taken.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(locked) => locked.map(Some),
        Err(_) => Ok(None),
    }
}

/// Open `path` for appending, created when `create` says so, never through a symlink (a link
/// planted there, say to `~/.bashrc`, is an error, not a file memdir writes to), and only if it
/// is a regular file (a FIFO is not waited on).
pub fn open_append(path: &Path, create: bool) -> std::io::Result<File> {
    #[cfg(unix)]
    let file = {
        use rustix::fs::{Mode, OFlags};
        let create = if create {
            OFlags::CREATE
        } else {
            OFlags::empty()
        };
        open_with(
            path,
            OFlags::WRONLY | OFlags::APPEND | OFlags::NOFOLLOW | create,
            Mode::from_raw_mode(0o644),
        )?
    };
    #[cfg(not(unix))]
    let file = std::fs::OpenOptions::new()
        .create(create)
        .append(true)
        .open(path)?;
    check_regular(path, &file).map_err(std::io::Error::other)?;
    Ok(file)
}

/// Open `path` (symlinks followed) if it is a regular file of at most `cap` bytes.
pub fn open_regular(path: &Path, cap: u64) -> Result<File, InputError> {
    Ok(open_regular_sized(path, cap, Follow::Yes)?.0)
}

/// Whether opening a path follows a symlink at its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    Yes,
    /// A symlink is an error ([`InputError::is_symlink`]).
    No,
}

/// [`open_regular`], and the file's length when it was opened.
fn open_regular_sized(path: &Path, cap: u64, follow: Follow) -> Result<(File, u64), InputError> {
    let io = |source| InputError::Io {
        what: path.display().to_string(),
        source,
    };
    let file = match follow {
        Follow::Yes => open_nonblocking(path),
        #[cfg(unix)]
        Follow::No => open_with(
            path,
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::NOFOLLOW,
            rustix::fs::Mode::empty(),
        ),
        #[cfg(not(unix))]
        Follow::No => open_nonblocking(path),
    }
    .map_err(io)?;
    let meta = check_regular(path, &file)?;
    if meta.len() > cap {
        return Err(InputError::TooLarge {
            what: format!("{} ({} bytes)", path.display(), meta.len()),
            cap,
        });
    }
    Ok((file, meta.len()))
}

/// The bytes of `path` (symlinks followed) if it is a regular file of at most `cap` bytes.
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, InputError> {
    read_regular_with(path, cap, Follow::Yes)
}

/// [`read_regular`], following a symlink at the end of `path` or not.
pub fn read_regular_with(path: &Path, cap: u64, follow: Follow) -> Result<Vec<u8>, InputError> {
    let (mut file, len) = open_regular_sized(path, cap, follow)?;
    let what = || path.display().to_string();
    // One read, with room for one byte more: a regular file that gives back the length it had
    // when opened has been read whole (no second read to see the end, a syscall per file when
    // `list` reads thousands). Otherwise (it changed meanwhile) the rest is read as a stream.
    let len = usize::try_from(len).unwrap_or(usize::MAX).min(1 << 30);
    let mut bytes = vec![0; len + 1];
    let n = file.read(&mut bytes).map_err(|source| InputError::Io {
        what: what(),
        source,
    })?;
    bytes.truncate(n);
    if n == len {
        return Ok(bytes);
    }
    read_capped_into(file, cap, &what(), bytes)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_text(path: &Path, cap: u64) -> Result<String, InputError> {
    let bytes = read_regular(path, cap)?;
    String::from_utf8(bytes).map_err(|_| InputError::NotUtf8 {
        what: path.display().to_string(),
    })
}

/// At most `cap` bytes of a stream (a pipe, stdin, a file that grows while it is read); one
/// byte more is an error, and nothing past it is read.
pub fn read_capped(reader: impl Read, cap: u64, what: &str) -> Result<Vec<u8>, InputError> {
    read_capped_into(reader, cap, what, Vec::new())
}

/// [`read_capped`], after the `bytes` already read from `reader`.
fn read_capped_into(
    reader: impl Read,
    cap: u64,
    what: &str,
    mut bytes: Vec<u8>,
) -> Result<Vec<u8>, InputError> {
    let room = cap.saturating_add(1).saturating_sub(bytes.len() as u64);
    reader
        .take(room)
        .read_to_end(&mut bytes)
        .map_err(|source| InputError::Io {
            what: what.to_string(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(InputError::TooLarge {
            what: what.to_string(),
            cap,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_stop_one_byte_past_the_cap() {
        let err = read_capped(std::io::repeat(b'x'), 10, "stdin").expect_err("over");
        assert_eq!(err.to_string(), "stdin is over the 10-byte limit");
        assert_eq!(
            read_capped(&b"0123456789"[..], 10, "stdin").expect("at cap"),
            b"0123456789"
        );
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_devices_are_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("pipe.md");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
        let err = read_regular(&fifo, 100).expect_err("fifo");
        assert!(err.to_string().contains("a FIFO"), "{err}");
        let err = read_regular(Path::new("/dev/zero"), 100).expect_err("device");
        assert!(err.to_string().contains("a character device"), "{err}");
        let err = read_regular(dir.path(), 100).expect_err("folder");
        assert!(
            err.to_string()
                .ends_with("is not a regular file (a directory)"),
            "{err}"
        );
        let big = dir.path().join("big.md");
        std::fs::write(&big, vec![b'a'; 101]).expect("write");
        let err = read_regular(&big, 100).expect_err("big");
        assert!(err.to_string().contains("over the 100-byte limit"), "{err}");
        assert!(read_regular(&dir.path().join("missing"), 1).is_err_and(|e| e.is_not_found()));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(format_bytes(64 * 1024), "64 KiB");
        assert_eq!(format_bytes(4 * 1024 * 1024), "4 MiB");
        assert_eq!(format_bytes(1000), "1000-byte");
    }
}
