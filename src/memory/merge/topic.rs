//! A topic file merged three ways, line by line (diff3): changes that share no base line merge
//! cleanly; overlapping different changes are a conflict.

use std::ops::Range;

use similar::{Algorithm, DiffTag, capture_diff_slices};

/// The outcome of a three-way merge of one topic file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopicMerge {
    /// The changes did not touch the same lines: the merged text.
    Clean(String),
    /// Both sides changed the same lines (or inserted different lines at the same place). The
    /// caller keeps both versions.
    Conflict,
}

/// A run of base lines one side replaced, and the side's lines that replace them.
#[derive(Debug, Clone)]
pub(super) struct Hunk {
    base: Range<usize>,
    side: Range<usize>,
}

pub(super) fn hunks(base: &[&str], side: &[&str]) -> Vec<Hunk> {
    let mut out: Vec<Hunk> = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, base, side) {
        let (tag, old, new) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.base.end == old.start && last.side.end == new.start => {
                last.base.end = old.end;
                last.side.end = new.end;
            }
            _ => out.push(Hunk {
                base: old,
                side: new,
            }),
        }
    }
    out
}

/// One side's text for `base[region]`, applying its hunks that fall inside it.
pub(super) fn apply_in<'a>(
    base: &[&'a str],
    side: &[&'a str],
    hunks: &[Hunk],
    region: Range<usize>,
) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut at = region.start;
    for hunk in hunks {
        out.extend_from_slice(&base[at..hunk.base.start]);
        out.extend_from_slice(&side[hunk.side.clone()]);
        at = hunk.base.end;
    }
    out.extend_from_slice(&base[at..region.end]);
    out
}

/// A line-based three-way merge (diff3) of a topic file. `base` is `None` when both sides added
/// the file: then any difference is a conflict.
///
/// Changes that share no base line merge cleanly, in base order; a change on each side touching
/// a common base line, or different insertions at the same place, is a conflict unless both
/// sides made the same change.
pub fn merge_topic(base: Option<&str>, ours: &str, theirs: &str) -> TopicMerge {
    let base = base.unwrap_or("");
    if ours == theirs || base == theirs {
        return TopicMerge::Clean(ours.to_string());
    }
    if base == ours {
        return TopicMerge::Clean(theirs.to_string());
    }
    let base_lines: Vec<&str> = base.split_inclusive('\n').collect();
    let ours_lines: Vec<&str> = ours.split_inclusive('\n').collect();
    let theirs_lines: Vec<&str> = theirs.split_inclusive('\n').collect();
    let ours_hunks = hunks(&base_lines, &ours_lines);
    let theirs_hunks = hunks(&base_lines, &theirs_lines);

    let mut merged = String::with_capacity(ours.len().max(theirs.len()));
    let mut at = 0;
    let (mut o, mut t) = (0, 0);
    while o < ours_hunks.len() || t < theirs_hunks.len() {
        // A region starts at the first hunk left and takes in every hunk (of either side) that
        // overlaps it, until none does.
        let ours_first = match (ours_hunks.get(o), theirs_hunks.get(t)) {
            (Some(a), Some(b)) => (a.base.start, a.base.end) <= (b.base.start, b.base.end),
            (a, _) => a.is_some(),
        };
        let first = if ours_first {
            &ours_hunks[o]
        } else {
            &theirs_hunks[t]
        };
        let mut region = first.base.clone();
        let (o_start, t_start) = (o, t);
        loop {
            let overlaps = |h: &Hunk| {
                h.base.start < region.end
                    || (h.base.start == region.start && h.base.is_empty() && region.is_empty())
            };
            if let Some(h) = ours_hunks.get(o).filter(|h| overlaps(h)) {
                region.end = region.end.max(h.base.end);
                o += 1;
            } else if let Some(h) = theirs_hunks.get(t).filter(|h| overlaps(h)) {
                region.end = region.end.max(h.base.end);
                t += 1;
            } else {
                break;
            }
        }
        merged.extend(base_lines[at..region.start].iter().copied());
        let ours_here = &ours_hunks[o_start..o];
        let theirs_here = &theirs_hunks[t_start..t];
        let text = match (ours_here.is_empty(), theirs_here.is_empty()) {
            (false, true) => apply_in(&base_lines, &ours_lines, ours_here, region.clone()),
            (true, false) => apply_in(&base_lines, &theirs_lines, theirs_here, region.clone()),
            _ => {
                let a = apply_in(&base_lines, &ours_lines, ours_here, region.clone());
                let b = apply_in(&base_lines, &theirs_lines, theirs_here, region.clone());
                if a != b {
                    return TopicMerge::Conflict;
                }
                a
            }
        };
        merged.extend(text);
        at = region.end;
    }
    merged.extend(base_lines[at..].iter().copied());
    TopicMerge::Clean(merged)
}
