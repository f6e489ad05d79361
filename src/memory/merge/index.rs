//! `MEMORY.md` merged three ways as a union of entries keyed by their link: what `team sync`
//! does, and what git's merge driver (`memdir merge-index`) does for a plain `git pull`.

use std::collections::{HashMap, HashSet};

use crate::memory::index::IndexLine;

use super::{Line, Pick, pick, split_lines};

/// One side of an index merge: its lines, and the first entry for each link (a second entry
/// for the same file is not that file's entry: memdir never writes one and `doctor` reports it).
pub(super) struct IndexSide<'a> {
    lines: Vec<Line<'a>>,
    /// Per line: the entry it holds and whether it is the first for its link.
    parsed: Vec<Option<(IndexLine, bool)>>,
    /// Link (as [`IndexLine::file_name`]) → line number of its first entry.
    first: HashMap<String, usize>,
}

impl<'a> IndexSide<'a> {
    fn new(text: &'a str) -> Self {
        let lines = split_lines(text);
        let mut first = HashMap::new();
        let parsed = lines
            .iter()
            .enumerate()
            .map(|(n, line)| {
                IndexLine::parse(line.text).map(|entry| {
                    let is_first = !first.contains_key(entry.file_name());
                    if is_first {
                        first.insert(entry.file_name().to_string(), n);
                    }
                    (entry, is_first)
                })
            })
            .collect();
        IndexSide {
            lines,
            parsed,
            first,
        }
    }

    fn entry(&self, key: &str) -> Option<&IndexLine> {
        let n = *self.first.get(key)?;
        self.parsed[n].as_ref().map(|(entry, _)| entry)
    }

    fn is_entry(&self, n: usize) -> bool {
        self.parsed[n].is_some()
    }

    /// The line's link when it is the first entry for it.
    fn first_key(&self, n: usize) -> Option<&str> {
        match &self.parsed[n] {
            Some((entry, true)) => Some(entry.file_name()),
            _ => None,
        }
    }

    fn key(&self, n: usize) -> Option<&str> {
        self.parsed[n].as_ref().map(|(entry, _)| entry.file_name())
    }
}

/// Merge three versions of `MEMORY.md` as a union of entries keyed by their link (the
/// `(file.md)` of `- [Title](file.md) — hook`).
///
/// Per link, three-way: an entry only one side changed (title or hook) takes that side's
/// version; an entry both sides changed differently keeps ours, since the index line is only a
/// pointer and the topic file, merged on its own, carries the content; an entry one side deleted
/// and the other left unchanged is deleted; one deleted on one side and changed on the other is
/// kept as changed. An entry present on both sides is never dropped.
///
/// Order: ours' lines in ours' order (each entry replaced where it stands), then what theirs
/// added, in theirs' order, right after ours' last entry line (so a footer stays last). Lines
/// that are not entries (headings, blank lines, notes) are ours', plus those theirs added that
/// ours does not have and the base did not have (a note ours removed stays removed), each once.
///
/// Deterministic, and `merge_index(x, x, x) == x` byte for byte; unchanged lines keep their
/// exact text and line endings, new lines take ours' line ending.
pub fn merge_index(base: &str, ours: &str, theirs: &str) -> String {
    let base_side = IndexSide::new(base);
    let ours_side = IndexSide::new(ours);
    let theirs_side = IndexSide::new(theirs);
    let resolve = |key: &str| {
        pick(
            base_side.entry(key),
            ours_side.entry(key),
            theirs_side.entry(key),
        )
    };
    let newline = [&ours_side, &theirs_side]
        .iter()
        .flat_map(|side| side.lines.iter())
        .map(|line| line.end)
        .find(|end| !end.is_empty())
        .unwrap_or("\n");

    let mut out: Vec<Line<'_>> = Vec::with_capacity(ours_side.lines.len() + 16);
    let last_entry = (0..ours_side.lines.len())
        .rev()
        .find(|&n| ours_side.is_entry(n));
    let mut insert_at = None;
    for (n, line) in ours_side.lines.iter().enumerate() {
        match ours_side.key(n) {
            None => out.push(*line),
            Some(key) => match resolve(key) {
                Pick::Neither => {}
                // A later duplicate of a kept entry stays as ours wrote it.
                Pick::Ours => out.push(*line),
                Pick::Theirs if ours_side.first_key(n).is_none() => out.push(*line),
                Pick::Theirs => {
                    let text = theirs_side
                        .first
                        .get(key)
                        .map(|&t| theirs_side.lines[t].text);
                    out.push(Line {
                        text: text.unwrap_or(line.text),
                        end: line.end,
                    });
                }
            },
        }
        if Some(n) == last_entry {
            insert_at = Some(out.len());
        }
    }

    let ours_text: HashSet<&str> = ours_side.lines.iter().map(|l| l.text).collect();
    let base_text: HashSet<&str> = base_side.lines.iter().map(|l| l.text).collect();
    let mut added_text: HashSet<&str> = HashSet::new();
    let mut added: Vec<Line<'_>> = Vec::new();
    for (n, line) in theirs_side.lines.iter().enumerate() {
        let new = match theirs_side.key(n) {
            Some(key) => {
                theirs_side.first_key(n).is_some()
                    && !ours_side.first.contains_key(key)
                    && resolve(key) == Pick::Theirs
            }
            None => {
                !ours_text.contains(line.text)
                    && !base_text.contains(line.text)
                    && added_text.insert(line.text)
            }
        };
        if new {
            added.push(Line {
                text: line.text,
                end: newline,
            });
        }
    }
    let at = insert_at.unwrap_or(out.len());
    out.splice(at..at, added);

    let mut merged = String::with_capacity(ours.len() + theirs.len() / 4);
    let count = out.len();
    for (n, line) in out.into_iter().enumerate() {
        merged.push_str(line.text);
        // Ours' last line may have had no newline and no longer be last.
        merged.push_str(if line.end.is_empty() && n + 1 < count {
            newline
        } else {
            line.end
        });
    }
    merged
}
