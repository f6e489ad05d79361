//! The store (DESIGN §4): the locked two-step save, removal, and adoption of what an agent wrote
//! into the memory dir itself, each mutation one commit.
//!
//! Crash windows, in order: the topic file is written atomically (temp file, fsync, rename, fsync
//! dir), then `MEMORY.md` likewise, then the commit. A crash after the topic file leaves an
//! orphan and a consistent index; a crash after the index leaves the work tree ahead of HEAD,
//! and every later write first adopts it as its own commit. Nothing written is ever lost.
//!
//! - [`request`]: a save as asked for, checked before anything is touched;
//! - [`worktree`]: the work tree as a mutation reads it (only regular files, stat-checked);
//! - [`adopt`]: committing what an agent or an interrupted save left behind;
//! - [`checkout`]: a whole tree a sync brought, written and committed (or fast-forwarded to);
//! - [`write`]: the files written in crash order and the commit;
//! - [`save`]: save, update and remove;
//! - [`merge`]: a branch memdir prepared (a consolidation) merged into HEAD's.

mod adopt;
mod checkout;
mod merge;
mod request;
mod save;
mod worktree;
mod write;

pub use adopt::Adoption;
pub(crate) use checkout::Head;
pub use checkout::{Change, Changed};
pub(crate) use request::title_from_name;
pub use request::{EditedTopic, MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS, SaveRequest, read_edited};
pub use save::{Base, Removed, RemovedAll, SaveOptions, Saved, index_size_warnings};
pub use worktree::is_checked_out;
pub(crate) use worktree::{Scan, State, WorkTree, work_matches_tree};
use worktree::{WorkFile, clean_files};

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::input::{MAX_INDEX_BYTES, MAX_TOPIC_FILE_BYTES};
use crate::memory::index::IndexLineError;
pub use crate::memory::taxonomy::INDEX_FILE;
use crate::memory::taxonomy::{InvalidName, MemoryType};
use crate::memory::topic::TopicError;
pub use crate::repo::message::{Op, commit_message, commit_message_with};
use crate::repo::{MemoryRepo, RepoError};

/// What `.git/info/exclude` holds: folders of the memory dir that are not memdir's to track.
const EXCLUDES: &str = "# memdir: not topic files (DESIGN §2)\n/team/\n/logs/\n/sessions/\n/proposals/\n.*.memdir-tmp\n";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{}: {source}", file.display())]
    Topic { file: PathBuf, source: TopicError },
    #[error("{0}")]
    InvalidInput(String),
    #[error(transparent)]
    InvalidName(#[from] InvalidName),
    #[error(transparent)]
    IndexLine(#[from] IndexLineError),
    #[error("no memory named {0:?}")]
    NotFound(String),
    #[error("{0} changed since it was read (another writer, an agent?); nothing was saved")]
    Changed(String),
    #[error("{name} is a {from} memory: saving it as {to} would change its type")]
    TypeChange {
        name: String,
        from: MemoryType,
        to: MemoryType,
    },
    #[error("{} resolves to {}, outside the memory dir", path.display(), target.display())]
    Outside { path: PathBuf, target: PathBuf },
    #[error("{} is not valid UTF-8", .0.display())]
    NotUtf8(PathBuf),
    #[error("{} is not valid UTF-8 at line {line}; memdir never rewrites what it cannot read: fix that line by hand, then run memdir snapshot", path.display())]
    IndexNotUtf8 { path: PathBuf, line: usize },
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error("{} exists: a git command is running in the memory dir, or one was killed; nothing was written (if none is running, remove the file)", .0.display())]
    IndexLocked(PathBuf),
}

impl StoreError {
    /// Whether the error is the caller's input (exit 2), not a failure of the machine (exit 1).
    pub fn is_invalid_input(&self) -> bool {
        match self {
            StoreError::Repo(e) => e.is_refusal(),
            StoreError::Input(e) => e.is_refusal(),
            StoreError::Io { .. } | StoreError::IndexLocked(_) | StoreError::Changed(_) => false,
            _ => true,
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The type as written in a commit subject; `untyped` for a file without one.
pub(super) fn type_label(memory_type: Option<MemoryType>) -> &'static str {
    memory_type.map_or("untyped", MemoryType::as_str)
}

/// The memory dir, locked for writing.
pub struct Store {
    pub(crate) dir: PathBuf,
    pub(crate) repo: MemoryRepo,
    /// Held for the store's lifetime: `.git/memdir.lock`, exclusive.
    _lock: File,
}

impl Store {
    /// Open the memory dir for writing, creating it and its repository if needed, and take the
    /// per-dir lock (waiting for other writers).
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(io_error(dir))?;
        let repo = {
            // Two first writers must not both create the repository: serialise on the dir itself.
            let dir_handle = File::open(dir).map_err(io_error(dir))?;
            dir_handle.lock().map_err(io_error(dir))?;
            let (mut repo, _) = MemoryRepo::open_or_init(dir)?;
            repo.set_checkout_rule(is_checked_out);
            ensure_excludes(repo.git_dir())?;
            repo
        };
        let lock_path = repo.git_dir().join("memdir.lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io_error(&lock_path))?;
        lock.lock().map_err(io_error(&lock_path))?;
        // Every mutation ends by rewriting `.git/index`: with its lock taken, refuse now rather
        // than after the work tree has changed.
        let index_lock = repo.git_dir().join("index.lock");
        if index_lock.symlink_metadata().is_ok() {
            return Err(StoreError::IndexLocked(index_lock));
        }
        Ok(Store {
            dir: dir.to_path_buf(),
            repo,
            _lock: lock,
        })
    }

    /// A work-tree file memdir is about to commit: a regular file inside the memory dir.
    pub(super) fn read(&self, file: &str) -> Result<Vec<u8>, StoreError> {
        read_memory_file(&self.dir, file, cap_of(file))?.ok_or_else(|| StoreError::Io {
            path: self.dir.join(file),
            source: std::io::ErrorKind::NotFound.into(),
        })
    }
}

/// The size cap of a memory-dir file memdir reads: the index's, or a topic file's.
pub(super) fn cap_of(file: &str) -> u64 {
    if file == INDEX_FILE {
        MAX_INDEX_BYTES
    } else {
        MAX_TOPIC_FILE_BYTES
    }
}

/// `MEMORY.md`'s text, for a writer; empty when it does not exist. An index that is not a
/// regular file inside the memory dir, is over Claude Code's 4 MiB read limit or is not UTF-8
/// is refused (`memdir doctor` says what is wrong and where).
pub fn read_index(dir: &Path) -> Result<String, StoreError> {
    let bytes = read_memory_file(dir, INDEX_FILE, MAX_INDEX_BYTES)?.unwrap_or_default();
    index_text(dir, bytes)
}

/// The bytes of `dir`'s `MEMORY.md` as text, or the refusal that names the line that is not
/// UTF-8.
pub(crate) fn index_text(dir: &Path, bytes: Vec<u8>) -> Result<String, StoreError> {
    String::from_utf8(bytes).map_err(|e| StoreError::IndexNotUtf8 {
        path: dir.join(INDEX_FILE),
        line: not_utf8_line(e.as_bytes()),
    })
}

/// The line (from 1) of the first byte of `bytes` that is not UTF-8.
pub fn not_utf8_line(bytes: &[u8]) -> usize {
    let valid = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), |_| bytes.len());
    1 + bytes[..valid].iter().filter(|b| **b == b'\n').count()
}

/// A file of the memory dir, or `None` when there is none: only a regular file (a FIFO or a
/// device is refused without a blocking open), only inside the memory dir (a symlink that
/// leaves it is refused), and only up to `cap` bytes.
pub fn read_memory_file(dir: &Path, file: &str, cap: u64) -> Result<Option<Vec<u8>>, StoreError> {
    read_memory_file_listed(dir, file, cap, false)
}

/// [`read_memory_file`] for a file its folder's listing says is no symlink: opened without
/// following one, so that nothing need check where a link leads; if it has become a symlink
/// since, it is read as [`read_memory_file`] reads one.
pub fn read_memory_file_listed(
    dir: &Path,
    file: &str,
    cap: u64,
    listed_plain: bool,
) -> Result<Option<Vec<u8>>, StoreError> {
    let path = dir.join(file);
    if listed_plain {
        match crate::input::read_regular_with(&path, cap, crate::input::Follow::No) {
            Ok(bytes) => return Ok(Some(bytes)),
            Err(e) if e.is_not_found() => return Ok(None),
            Err(e) if !e.is_symlink() => return Err(e.into()),
            Err(_) => {}
        }
    }
    check_inside(dir, &path)?;
    match crate::input::read_regular(&path, cap) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A path in the memory dir that is a symlink must resolve inside it (§10).
pub fn check_inside(dir: &Path, path: &Path) -> Result<(), StoreError> {
    match crate::paths::symlink_escape(path, dir).map_err(io_error(path))? {
        None => Ok(()),
        Some(target) => Err(StoreError::Outside {
            path: path.to_path_buf(),
            target,
        }),
    }
}

/// Add memdir's lines to `.git/info/exclude` once.
pub(super) fn ensure_excludes(git_dir: &Path) -> Result<(), StoreError> {
    let info = git_dir.join("info");
    let path = info.join("exclude");
    let current = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io_error(&path)(e)),
    };
    if current.contains(EXCLUDES) {
        return Ok(());
    }
    std::fs::create_dir_all(&info).map_err(io_error(&info))?;
    let mut text = current;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(EXCLUDES);
    std::fs::write(&path, text).map_err(io_error(&path))
}
