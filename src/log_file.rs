//! memdir's own logs (the extraction worker's `.git/memdir/worker.log`, the hooks'
//! `<config dir>/memdir/hooks.log`): one line per event, appended, best effort (a log is for
//! people; failing to write it changes nothing). Each is capped: past [`MAX_LOG_BYTES`] it is
//! renamed to `<name>.1` (replacing the one before) and starts over. A log is only ever a regular
//! file memdir opens without following a symlink (DESIGN §10): an agent that plants
//! `worker.log -> ~/.bashrc` gets nothing appended to `~/.bashrc`.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A log over this is rotated before the next line.
pub const MAX_LOG_BYTES: u64 = 1024 * 1024;

/// One line more in the log at `path`: a UTC timestamp, this process's id, then `line` with its
/// control characters (newlines included) shown as spaces, so that a log line is always one line.
pub fn append(path: &Path, line: &str) {
    let Ok(mut file) = open(path) else {
        return;
    };
    let line: String = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let now = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ");
    let _ = writeln!(file, "{now} [{}] {line}", std::process::id());
}

/// The log at `path`, open for appending (for a process's stderr, or [`append`]): rotated first
/// when over its cap; created, with its folder, when missing; refused unless a regular file.
pub fn open(path: &Path) -> std::io::Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && meta.is_file()
        && meta.len() >= MAX_LOG_BYTES
    {
        // Renaming moves the file itself, never what a symlink points to.
        std::fs::rename(path, rotated(path))?;
    }
    crate::input::open_append(path, true)
}

/// `<name>.1` beside the log.
fn rotated(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".1");
    path.with_file_name(name)
}

/// The log opened for appending: a regular file or nothing, never through a symlink (NOFOLLOW:
/// a symlink in its place is an error, not a way elsewhere).
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_one_line_and_the_log_rotates_past_its_cap() {
        let dir = tempfile::tempdir().expect("tempdir");
        let log = dir.path().join("logs/x.log");
        append(&log, "first\nforged line");
        let text = std::fs::read_to_string(&log).expect("log");
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.trim_end().ends_with("first forged line"), "{text}");
        std::fs::write(&log, vec![b'x'; MAX_LOG_BYTES as usize]).expect("fill");
        append(&log, "after");
        assert_eq!(
            std::fs::metadata(rotated(&log)).expect("rotated").len(),
            MAX_LOG_BYTES
        );
        assert!(
            std::fs::read_to_string(&log)
                .expect("log")
                .ends_with("after\n")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_or_a_fifo_in_the_logs_place_gets_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("target");
        std::fs::write(&target, "keep\n").expect("write");
        let log = dir.path().join("x.log");
        std::os::unix::fs::symlink(&target, &log).expect("symlink");
        append(&log, "nope");
        assert_eq!(std::fs::read_to_string(&target).expect("target"), "keep\n");
        let fifo = dir.path().join("fifo.log");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
        )
        .expect("mkfifo");
        append(&fifo, "nope");
        assert!(open(&fifo).is_err());
    }
}
