//! The history cache (issue 16): the memory dir's first-parent history, oldest first, one line a
//! commit, in `.git/memdir/history`; `log`, `list`'s ages and `doctor` read this one file instead
//! of every commit object.
//!
//! It is a cache, never the truth. Each line names its commit and that commit's parent, and a
//! line that does not follow the one before it ends what is trusted; the last trusted line must
//! be HEAD, or the commits after it are walked (only those) and the file rewritten. So it is
//! right after a save, an adoption, a rollback or a sync (new commits on top), after a history
//! someone rewrote with git (the walk finds where the two meet), and when it is missing or torn
//! (rebuilt). Each commit memdir makes appends its own line, so the next read walks nothing.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use gix::ObjectId;

use super::message::{HistoryEntry, parse_message};
use crate::input::Follow;

const HEADER: &str = "memdir history cache 1\n";

/// The most the file is read: about 400,000 commits of memdir's (a line is about 160 bytes);
/// a larger file (planted, or a history that long) is not read, and history is walked.
const MAX_BYTES: u64 = 64 << 20;

/// The file, inside the repository's git dir.
fn path(git_dir: &Path) -> PathBuf {
    git_dir.join("memdir").join("history")
}

/// One commit as the cache keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub commit: ObjectId,
    pub parent: Option<ObjectId>,
    /// Seconds since the epoch and the committer's UTC offset in seconds.
    pub time: (i64, i32),
    pub message: String,
}

impl Record {
    pub fn entry(&self) -> HistoryEntry {
        parse_message(self.commit, &self.message, self.time)
    }

    fn line(&self) -> String {
        let parent = self
            .parent
            .map_or_else(|| "-".to_string(), |p| p.to_string());
        let mut message = String::with_capacity(self.message.len());
        for c in self.message.chars() {
            match c {
                '\\' => message.push_str("\\\\"),
                '\n' => message.push_str("\\n"),
                c => message.push(c),
            }
        }
        format!(
            "{} {parent} {} {} {message}\n",
            self.commit, self.time.0, self.time.1
        )
    }

    fn parse(line: &str) -> Option<Record> {
        let mut fields = line.splitn(5, ' ');
        let commit = ObjectId::from_hex(fields.next()?.as_bytes()).ok()?;
        let parent = match fields.next()? {
            "-" => None,
            hex => Some(ObjectId::from_hex(hex.as_bytes()).ok()?),
        };
        let time = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
        let mut rest = fields.next()?;
        let mut message = String::with_capacity(rest.len());
        while let Some(at) = rest.find('\\') {
            message.push_str(&rest[..at]);
            message.push(match rest.as_bytes().get(at + 1)? {
                b'n' => '\n',
                b'\\' => '\\',
                _ => return None,
            });
            rest = &rest[at + 2..];
        }
        message.push_str(rest);
        Some(Record {
            commit,
            parent,
            time,
            message,
        })
    }
}

/// The records the file holds that can be trusted: from the root, each the parent of the next.
/// A missing, foreign or torn file gives what it held up to the fault (perhaps nothing).
pub fn read(git_dir: &Path) -> Vec<Record> {
    // Never through a symlink, and never more than the cap: anything else is rebuilt.
    let read = crate::input::read_regular_with(&path(git_dir), MAX_BYTES, Follow::No);
    let Some(text) = read.ok().and_then(|bytes| String::from_utf8(bytes).ok()) else {
        return Vec::new();
    };
    let Some(body) = text.strip_prefix(HEADER) else {
        return Vec::new();
    };
    let mut records: Vec<Record> = Vec::new();
    for line in body.split_inclusive('\n') {
        let Some(record) = line.strip_suffix('\n').and_then(Record::parse) else {
            break;
        };
        if record.parent != records.last().map(|r| r.commit) {
            break;
        }
        records.push(record);
    }
    records
}

/// The whole history to `head`, oldest first: the trusted records up to where `head`'s history
/// meets them, then the commits after that, read by `record_of` (a commit and its first
/// parent). The file is rewritten when that changed anything (best effort: a read-only store is
/// still read right).
pub fn up_to<E>(
    git_dir: &Path,
    head: ObjectId,
    mut record_of: impl FnMut(ObjectId) -> Result<Record, E>,
) -> Result<Vec<Record>, E> {
    let mut records = read(git_dir);
    if records.last().is_some_and(|r| r.commit == head) {
        return Ok(records);
    }
    let known: HashMap<ObjectId, usize> = records
        .iter()
        .enumerate()
        .map(|(n, r)| (r.commit, n))
        .collect();
    let (mut newer, mut next, mut keep) = (Vec::new(), Some(head), 0);
    while let Some(id) = next {
        if let Some(&n) = known.get(&id) {
            keep = n + 1;
            break;
        }
        let record = record_of(id)?;
        next = record.parent;
        newer.push(record);
    }
    records.truncate(keep);
    records.extend(newer.into_iter().rev());
    let mut text = String::from(HEADER);
    text.extend(records.iter().map(Record::line));
    let _ = crate::atomic::replace(&path(git_dir), text.as_bytes());
    Ok(records)
}

/// Add the commit just made to the file, when there is one (a read makes it). Best effort: a
/// line that does not follow the file's last is not trusted, and the next read walks instead.
pub fn append(git_dir: &Path, record: &Record) {
    if let Ok(mut file) = crate::input::open_append(&path(git_dir), false) {
        let _ = file.write_all(record.line().as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[n; 20])
    }

    fn record(n: u8, parent: Option<u8>, message: &str) -> Record {
        Record {
            commit: id(n),
            parent: parent.map(id),
            time: (1_800_000_000 + i64::from(n), -3600),
            message: message.to_string(),
        }
    }

    #[test]
    fn a_line_reads_back_as_it_was_written() {
        let r = record(
            1,
            Some(2),
            "save(user): a\\b\n\nbody \\n\tx\n\nMemdir-Op: save\n",
        );
        let line = r.line();
        assert_eq!(line.matches('\n').count(), 1);
        assert_eq!(Record::parse(line.trim_end_matches('\n')), Some(r));
    }

    #[test]
    fn the_walk_reads_only_what_the_file_lacks_and_a_broken_chain_is_walked_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let git_dir = dir.path();
        let chain = [
            record(1, None, "one"),
            record(2, Some(1), "two"),
            record(3, Some(2), "three"),
        ];
        let by_id = |wanted: ObjectId| -> Result<Record, ()> {
            chain.iter().find(|r| r.commit == wanted).cloned().ok_or(())
        };
        let mut walked = Vec::new();
        let all = up_to(git_dir, id(3), |c| {
            walked.push(c);
            by_id(c)
        });
        assert_eq!(all, Ok(chain.to_vec()));
        assert_eq!(walked, [id(3), id(2), id(1)]);

        // Fresh: nothing walked. One appended commit: nothing walked either.
        let next = record(4, Some(3), "four");
        append(git_dir, &next);
        let all = up_to(git_dir, id(4), |_| Err(()));
        assert_eq!(all.map(|r| r.len()), Ok(4));

        // A line that does not follow (a commit memdir did not see) is not trusted.
        append(git_dir, &record(9, Some(7), "stray"));
        assert_eq!(read(git_dir).len(), 4);

        // A torn file is trusted up to the tear.
        let text = std::fs::read_to_string(path(git_dir)).expect("read");
        let torn = text.len() - record(9, Some(7), "stray").line().len() - 10;
        std::fs::write(path(git_dir), &text[..torn]).expect("tear");
        assert_eq!(read(git_dir).len(), 3);
        let mut walked = Vec::new();
        let with_four = [chain.to_vec(), vec![next.clone()]].concat();
        let all = up_to(git_dir, id(4), |c| {
            walked.push(c);
            with_four.iter().find(|r| r.commit == c).cloned().ok_or(())
        });
        assert_eq!(all.map(|r| r.len()), Ok(4));
        assert_eq!(walked, [id(4)]);
    }
}
