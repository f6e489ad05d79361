//! Durability: fsync of files and folders, batched so that the filesystem's journal commits
//! them together (DESIGN §4's crash order rests on it).

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::repo::RepoError;

/// fsync `files` (or folders) all at once, one thread each: the filesystem's journal then
/// commits them together, so durability costs about one flush instead of one per file. A file
/// that does not exist (an object that was already packed) is skipped.
pub fn sync_files(files: &[PathBuf]) -> Result<(), RepoError> {
    let sync = |path: &PathBuf| match File::open(path) {
        Ok(file) => file.sync_all().map_err(|source| RepoError::Io {
            path: path.clone(),
            source,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(RepoError::Io {
            path: path.clone(),
            source,
        }),
    };
    let Some((first, rest)) = files.split_first() else {
        return Ok(());
    };
    std::thread::scope(|scope| {
        let others: Vec<_> = rest
            .iter()
            .map(|path| scope.spawn(move || sync(path)))
            .collect();
        let mut result = sync(first);
        for handle in others {
            let outcome = handle.join().unwrap_or_else(|_| {
                Err(RepoError::Io {
                    path: first.clone(),
                    source: std::io::Error::other("an fsync thread panicked"),
                })
            });
            result = result.and(outcome);
        }
        result
    })
}

/// fsync a folder, so that the names created or renamed in it are durable.
pub fn sync_dir(dir: &Path) -> Result<(), RepoError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|source| RepoError::Io {
            path: dir.to_path_buf(),
            source,
        })
}
