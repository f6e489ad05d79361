//! The history cache (issues 16, 28): every commit HEAD reaches, all parents followed, oldest
//! first (each after its parents), one line a commit, in `.git/memdir/history`; `log`, the
//! operation log, `list`'s ages and `doctor` read this one file instead of every commit object.
//!
//! It is a cache, never the truth. Each line names its commit, that commit's parents, its time,
//! author and message; a line naming a parent no line before it names ends what is trusted. The
//! trusted lines are filtered to what HEAD reaches, and when HEAD is not among them the commits
//! it reaches that the file lacks are walked (only those: a walk stops at a commit the file
//! has) and the file rewritten. So it is right after a save, an adoption, a rollback or a sync
//! (new commits on top, a teammate's merged in), after a history someone rewrote with git, and
//! when it is missing, torn or of an older format (rebuilt). Each commit memdir makes appends its
//! own line, so the next read walks nothing; a merge whose other side the file lacks is not
//! trusted, and the next read walks that side once.

use std::io::Write;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::hashtable::{HashMap, HashSet};

use super::message::{HistoryEntry, parse_message};
use crate::input::Follow;

const HEADER: &str = "memdir history cache 2\n";

/// The most the file is read: about 300,000 commits of memdir's (a line is about 200 bytes);
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
    /// In the commit's order: the first is the branch it was made on.
    pub parents: Vec<ObjectId>,
    /// Seconds since the epoch and the committer's UTC offset in seconds.
    pub time: (i64, i32),
    /// `Name <email>`, as git shows an author.
    pub author: String,
    pub message: String,
}

/// `text` on one line without tabs: backslash, newline and tab escaped.
fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
}

/// What [`escape`] wrote, back; `None` for an escape it never writes.
fn unescape(mut rest: &str) -> Option<String> {
    let mut out = String::with_capacity(rest.len());
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        out.push(match rest.as_bytes().get(at + 1)? {
            b'n' => '\n',
            b't' => '\t',
            b'\\' => '\\',
            _ => return None,
        });
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    Some(out)
}

impl Record {
    pub fn entry(&self) -> HistoryEntry {
        self.entry_with(self.parents.clone(), self.author.clone())
    }

    /// [`Record::entry`], taking the record's parents and author rather than copying them.
    pub fn into_entry(mut self) -> HistoryEntry {
        let parents = std::mem::take(&mut self.parents);
        let author = std::mem::take(&mut self.author);
        self.entry_with(parents, author)
    }

    /// The entry its message says, with these parents and author.
    fn entry_with(&self, parents: Vec<ObjectId>, author: String) -> HistoryEntry {
        let mut entry = parse_message(self.commit, &self.message, self.time);
        entry.parents = parents;
        entry.author = author;
        entry
    }

    fn line(&self) -> String {
        let parents = if self.parents.is_empty() {
            "-".to_string()
        } else {
            let ids: Vec<String> = self.parents.iter().map(ObjectId::to_string).collect();
            ids.join(",")
        };
        let mut line = format!("{} {parents} {} {} ", self.commit, self.time.0, self.time.1);
        escape(&self.author, &mut line);
        line.push('\t');
        escape(&self.message, &mut line);
        line.push('\n');
        line
    }

    fn parse(line: &str) -> Option<Record> {
        let mut fields = line.splitn(5, ' ');
        let commit = ObjectId::from_hex(fields.next()?.as_bytes()).ok()?;
        let parents = match fields.next()? {
            "-" => Vec::new(),
            hexes => hexes
                .split(',')
                .map(|hex| ObjectId::from_hex(hex.as_bytes()).ok())
                .collect::<Option<Vec<_>>>()?,
        };
        let time = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
        let (author, message) = fields.next()?.split_once('\t')?;
        Some(Record {
            commit,
            parents,
            time,
            author: unescape(author)?,
            message: unescape(message)?,
        })
    }
}

/// The records the file holds that can be trusted: each after every parent it names. A
/// missing, foreign or torn file gives what it held up to the fault (perhaps nothing).
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
    let mut seen: HashSet<ObjectId> = HashSet::default();
    for line in body.split_inclusive('\n') {
        let Some(record) = line.strip_suffix('\n').and_then(Record::parse) else {
            break;
        };
        if !record.parents.iter().all(|p| seen.contains(p)) || !seen.insert(record.commit) {
            break;
        }
        records.push(record);
    }
    records
}

/// The whole history of `head`, oldest first, each commit after its parents: the trusted
/// records `head` reaches, then the commits it reaches that they lack, read by `record_of`.
/// The file is rewritten when that changed anything (best effort: a read-only store is still
/// read right).
pub fn up_to<E>(
    git_dir: &Path,
    head: ObjectId,
    mut record_of: impl FnMut(ObjectId) -> Result<Record, E>,
) -> Result<Vec<Record>, E> {
    let mut records = read(git_dir);
    let known = positions(&records);
    // What the file lacks, each after its parents: a depth-first walk from HEAD that stops at
    // what the file has, each commit taken once all its parents are.
    let mut newer: Vec<Record> = Vec::new();
    let mut walked: HashSet<ObjectId> = HashSet::default();
    let mut pending: Vec<(ObjectId, Option<Record>)> = Vec::new();
    if !known.contains_key(&head) {
        pending.push((head, None));
    }
    while let Some((id, read)) = pending.pop() {
        match read {
            Some(record) => newer.push(record),
            None if walked.insert(id) => {
                let record = record_of(id)?;
                let parents: Vec<ObjectId> = record.parents.clone();
                pending.push((id, Some(record)));
                for parent in parents.into_iter().rev() {
                    if !known.contains_key(&parent) && !walked.contains(&parent) {
                        pending.push((parent, None));
                    }
                }
            }
            None => {}
        }
    }
    let nothing_walked = newer.is_empty();
    // Only what HEAD reaches: a history reset with git leaves records nothing reaches.
    let at = if nothing_walked {
        known
    } else {
        records.extend(newer);
        positions(&records)
    };
    let mut reached = vec![false; records.len()];
    let mut next = vec![head];
    while let Some(id) = next.pop() {
        if let Some(&n) = at.get(&id)
            && !std::mem::replace(&mut reached[n], true)
        {
            next.extend(records[n].parents.iter().copied());
        }
    }
    let all_reached = reached.iter().all(|r| *r);
    if !all_reached {
        let mut n = 0;
        records.retain(|_| {
            n += 1;
            reached[n - 1]
        });
    }
    if !nothing_walked || !all_reached {
        let mut text = String::from(HEADER);
        text.extend(records.iter().map(Record::line));
        let _ = crate::atomic::replace(&path(git_dir), text.as_bytes());
    }
    Ok(records)
}

/// Where each commit of `records` is in it.
fn positions(records: &[Record]) -> HashMap<ObjectId, usize> {
    let mut at = HashMap::default();
    at.reserve(records.len());
    at.extend(records.iter().enumerate().map(|(n, r)| (r.commit, n)));
    at
}

/// The first-parent line of `records` (as [`up_to`] returns them) from `head`, oldest first:
/// the commits made on this branch, a merge standing for everything it brought in.
pub fn first_parents(records: &[Record], head: ObjectId) -> Vec<&Record> {
    let mut at: HashMap<ObjectId, &Record> = HashMap::default();
    at.extend(records.iter().map(|r| (r.commit, r)));
    let mut line = Vec::new();
    let mut next = Some(head);
    while let Some(record) = next.and_then(|id| at.get(&id)) {
        line.push(*record);
        next = record.parents.first().copied();
    }
    line.reverse();
    line
}

/// Add the commit just made to the file, when there is one (a read makes it). Best effort: a
/// line naming a parent the file lacks is not trusted, and the next read walks instead.
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

    fn record(n: u8, parents: &[u8], message: &str) -> Record {
        Record {
            commit: id(n),
            parents: parents.iter().copied().map(id).collect(),
            time: (1_800_000_000 + i64::from(n), -3600),
            author: format!("Mate {n} <mate{n}@example.com>"),
            message: message.to_string(),
        }
    }

    #[test]
    fn a_line_reads_back_as_it_was_written() {
        let r = Record {
            author: "A \\ tab\there <a@x>".into(),
            ..record(
                1,
                &[2, 3],
                "save(user): a\\b\n\nbody \\n\tx\n\nMemdir-Op: save\n",
            )
        };
        let line = r.line();
        assert_eq!(line.matches('\n').count(), 1);
        assert_eq!(line.matches('\t').count(), 1);
        assert_eq!(Record::parse(line.trim_end_matches('\n')), Some(r));
        assert_eq!(record(4, &[], "root").line().split(' ').nth(1), Some("-"));
    }

    #[test]
    fn the_walk_reads_only_what_the_file_lacks_and_a_broken_chain_is_walked_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let git_dir = dir.path();
        let chain = [
            record(1, &[], "one"),
            record(2, &[1], "two"),
            record(3, &[2], "three"),
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
        let next = record(4, &[3], "four");
        append(git_dir, &next);
        let all = up_to(git_dir, id(4), |_| Err(()));
        assert_eq!(all.map(|r| r.len()), Ok(4));

        // A line that names a parent the file lacks (a commit memdir did not see) is not
        // trusted.
        append(git_dir, &record(9, &[7], "stray"));
        assert_eq!(read(git_dir).len(), 4);

        // A torn file is trusted up to the tear.
        let text = std::fs::read_to_string(path(git_dir)).expect("read");
        let torn = text.len() - record(9, &[7], "stray").line().len() - 10;
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

    /// A merge's other side is walked once, each commit after its parents, and after a reset
    /// only what HEAD reaches is history.
    #[test]
    fn a_merge_brings_in_its_other_side_and_a_reset_leaves_only_what_head_reaches() {
        let dir = tempfile::tempdir().expect("tempdir");
        let git_dir = dir.path();
        // 1 ← 2 (ours) and 1 ← 3 ← 4 (theirs), merged as 5 = (2, 4).
        let all = [
            record(1, &[], "root"),
            record(2, &[1], "ours"),
            record(3, &[1], "theirs one"),
            record(4, &[3], "theirs two"),
            record(5, &[2, 4], "merge"),
        ];
        let by_id = |wanted: ObjectId| all.iter().find(|r| r.commit == wanted).cloned().ok_or(());
        up_to(git_dir, id(2), by_id).expect("ours");
        // The merge as memdir appends it: its other side is not in the file yet.
        append(git_dir, &all[4]);
        assert_eq!(read(git_dir).len(), 2, "the merge line is not trusted");
        let mut walked = Vec::new();
        let history = up_to(git_dir, id(5), |c| {
            walked.push(c);
            by_id(c)
        })
        .expect("merged");
        assert_eq!(walked, [id(5), id(4), id(3)]);
        let order: Vec<ObjectId> = history.iter().map(|r| r.commit).collect();
        assert_eq!(order, [id(1), id(2), id(3), id(4), id(5)]);
        assert_eq!(read(git_dir).len(), 5, "rewritten");
        let line: Vec<ObjectId> = first_parents(&history, id(5))
            .iter()
            .map(|r| r.commit)
            .collect();
        assert_eq!(line, [id(1), id(2), id(5)]);

        // Reset to theirs: what only ours and the merge had is no longer history.
        let history = up_to(git_dir, id(4), |_| Err(())).expect("reset");
        let order: Vec<ObjectId> = history.iter().map(|r| r.commit).collect();
        assert_eq!(order, [id(1), id(3), id(4)]);
        assert_eq!(read(git_dir).len(), 3);
    }
}
