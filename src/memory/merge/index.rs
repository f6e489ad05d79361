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

/// What a line is, across the sides: the entry for a link (the first line naming it), or any
/// other line by its text and how many lines of that text came before it on its side.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Identity<'a> {
    Entry(&'a str),
    Text(&'a str, usize),
}

/// Each line's identity on one side.
fn identities<'a>(side: &'a IndexSide<'_>) -> Vec<Identity<'a>> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    (0..side.lines.len())
        .map(|n| match side.first_key(n) {
            Some(key) => Identity::Entry(key),
            None => {
                let text = side.lines[n].text;
                let count = seen.entry(text).or_default();
                *count += 1;
                Identity::Text(text, *count - 1)
            }
        })
        .collect()
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
/// Lines that are not entries (headings, blank lines, notes) are ours', plus those theirs added
/// that ours does not have and the base did not have (a note ours removed stays removed), each
/// once.
///
/// Order: the lines both sides have keep ours' order; a line only theirs has goes right after
/// the line it follows in theirs that ours has too (so an entry added before a footer stays
/// before it); where both sides added lines at the same place, the two runs go in the order of
/// their text, whichever side is ours. So the merge of two sides gives the same bytes whichever
/// side merges, as long as neither reordered what both have: a team whose members merge the
/// same changes in different clones ends with one tree.
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

    // Ours' lines that stay, as they will read, with their identity.
    let ours_ids = identities(&ours_side);
    let mut kept: Vec<(Line<'_>, &Identity<'_>)> = Vec::with_capacity(ours_side.lines.len());
    for (n, line) in ours_side.lines.iter().enumerate() {
        let line = match ours_side.key(n) {
            None => Some(*line),
            Some(key) => match resolve(key) {
                Pick::Neither => None,
                // A later duplicate of a kept entry stays as ours wrote it.
                Pick::Ours => Some(*line),
                Pick::Theirs if ours_side.first_key(n).is_none() => Some(*line),
                Pick::Theirs => {
                    let text = theirs_side
                        .first
                        .get(key)
                        .map(|&t| theirs_side.lines[t].text);
                    Some(Line {
                        text: text.unwrap_or(line.text),
                        end: line.end,
                    })
                }
            },
        };
        if let Some(line) = line {
            kept.push((line, &ours_ids[n]));
        }
    }

    // Theirs' additions, each after the last line before it that ours kept too (`None`: before
    // ours' first line).
    let theirs_ids = identities(&theirs_side);
    let kept_at: HashMap<&Identity<'_>, usize> = kept
        .iter()
        .enumerate()
        .map(|(at, (_, id))| (*id, at))
        .collect();
    let ours_text: HashSet<&str> = ours_side.lines.iter().map(|l| l.text).collect();
    let base_text: HashSet<&str> = base_side.lines.iter().map(|l| l.text).collect();
    let mut added_text: HashSet<&str> = HashSet::new();
    let mut added: HashMap<Option<usize>, Vec<Line<'_>>> = HashMap::new();
    let mut after: Option<usize> = None;
    for (n, line) in theirs_side.lines.iter().enumerate() {
        if let Some(&at) = kept_at.get(&theirs_ids[n]) {
            after = Some(at);
            continue;
        }
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
            added.entry(after).or_default().push(Line {
                text: line.text,
                end: newline,
            });
        }
    }

    // Ours' kept lines in runs, each run starting at a line theirs has too (or at the start);
    // theirs' additions after a line go next to ours' own run there, in text order.
    let shared: HashSet<&Identity<'_>> = theirs_ids.iter().collect();
    let mut out: Vec<Line<'_>> = Vec::with_capacity(kept.len() + added.len());
    let mut at = 0;
    let mut anchor: Option<usize> = None;
    loop {
        let run_end = (at..kept.len())
            .find(|&k| shared.contains(kept[k].1))
            .unwrap_or(kept.len());
        let ours_run: Vec<Line<'_>> = kept[at..run_end].iter().map(|(l, _)| *l).collect();
        let theirs_run = added.remove(&anchor).unwrap_or_default();
        let theirs_first = !theirs_run.is_empty()
            && theirs_run
                .iter()
                .map(|l| l.text)
                .lt(ours_run.iter().map(|l| l.text));
        if theirs_first {
            out.extend(theirs_run);
            out.extend(ours_run);
        } else {
            out.extend(ours_run);
            out.extend(theirs_run);
        }
        if run_end == kept.len() {
            break;
        }
        out.push(kept[run_end].0);
        anchor = Some(run_end);
        at = run_end + 1;
    }

    let mut merged = String::with_capacity(ours.len() + theirs.len() / 4);
    let count = out.len();
    for (n, line) in out.into_iter().enumerate() {
        merged.push_str(line.text);
        // A last line without a newline may no longer be last.
        merged.push_str(if line.end.is_empty() && n + 1 < count {
            newline
        } else {
            line.end
        });
    }
    merged
}
