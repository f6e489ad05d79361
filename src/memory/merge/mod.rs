//! How memory merges (DESIGN §8, §14): `MEMORY.md` as a union of entries keyed by their link,
//! topic files three-way line by line, and flat trees three ways: two sides over their merge
//! base (a team or personal sync), or a commit's change taken back from what came since
//! (revert, undo).
//!
//! Everything here is pure or writes only blobs: the work tree, `.git/index` and the refs are
//! the caller's (a sync and `revert` write the files and the commit). The same index merge runs
//! as git's merge driver (`memdir merge-index`), so a plain `git pull` of a team repository
//! merges `MEMORY.md` exactly as `memdir team sync` does.

//!
//! - [`index`]: `MEMORY.md` as a union of entries (also git's merge driver);
//! - [`topic`]: a topic file three-way, line by line;
//! - [`tree`]: flat trees three ways (two commits over their merge base, or any three trees),
//!   conflict copies included.

mod index;
mod topic;
mod tree;

pub use index::merge_index;
pub use topic::{TopicMerge, merge_topic};
pub use tree::{Conflict, Merged, merge_tree_maps, with_frontmatter_name};

/// One line of a text, split from its terminator (`"\n"`, `"\r\n"` or `""` for a last line
/// without one), so that what is not changed is written back byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Line<'a> {
    text: &'a str,
    end: &'a str,
}

pub(super) fn split_lines(text: &str) -> Vec<Line<'_>> {
    text.split_inclusive('\n')
        .map(|l| match l.strip_suffix("\r\n") {
            Some(text) => Line { text, end: "\r\n" },
            None => match l.strip_suffix('\n') {
                Some(text) => Line { text, end: "\n" },
                None => Line { text: l, end: "" },
            },
        })
        .collect()
}

/// Which side's version of one thing (an index entry, a file) the merge keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pick {
    Ours,
    Theirs,
    Neither,
}

/// The three-way choice for one thing that is `None` where absent: a side that left it as the
/// base had it yields to the other; a deletion yields to a change; two different changes keep
/// ours. `Neither` only when it is absent from the result: both deleted it, or one deleted it
/// and the other left it unchanged.
pub(super) fn pick<T: PartialEq>(base: Option<T>, ours: Option<T>, theirs: Option<T>) -> Pick {
    let present = |side: &Option<T>, pick| if side.is_some() { pick } else { Pick::Neither };
    if ours == theirs || base == theirs {
        present(&ours, Pick::Ours)
    } else if base == ours {
        present(&theirs, Pick::Theirs)
    } else if ours.is_some() {
        Pick::Ours
    } else {
        Pick::Theirs
    }
}

#[cfg(test)]
mod tests;
