//! How team memory merges (DESIGN §8): `MEMORY.md` as a union of entries keyed by their link,
//! topic files three-way line by line, and the flat trees of two commits over their merge base.
//!
//! Everything here is pure or writes only blobs: the work tree, `.git/index` and the refs are
//! the caller's (`team sync` writes the files and the merge commit). The same index merge runs
//! as git's merge driver (`memdir merge-index`), so a plain `git pull` of a team repository
//! merges `MEMORY.md` exactly as `memdir team sync` does.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::ops::Range;

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};
use gix::objs::tree::EntryKind;
use similar::{Algorithm, DiffTag, capture_diff_slices};

use crate::memory::index::{Index, IndexLine};
use crate::memory::store::INDEX_FILE;
use crate::memory::taxonomy::is_topic_file_name;
use crate::memory::topic::{TopicFile, yaml_scalar};
use crate::repo::{MemoryRepo, RepoError, TreeMap};

/// One line of a text, split from its terminator (`"\n"`, `"\r\n"` or `""` for a last line
/// without one), so that what is not changed is written back byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Line<'a> {
    text: &'a str,
    end: &'a str,
}

fn split_lines(text: &str) -> Vec<Line<'_>> {
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

/// One side of an index merge: its lines, and the first entry for each link (a second entry
/// for the same file is not that file's entry: memdir never writes one and `doctor` reports it).
struct IndexSide<'a> {
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

/// Which side's version of one thing (an index entry, a file) the merge keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pick {
    Ours,
    Theirs,
    Neither,
}

/// The three-way choice for one thing that is `None` where absent: a side that left it as the
/// base had it yields to the other; a deletion yields to a change; two different changes keep
/// ours. `Neither` only when it is absent from the result: both deleted it, or one deleted it
/// and the other left it unchanged.
fn pick<T: PartialEq>(base: Option<T>, ours: Option<T>, theirs: Option<T>) -> Pick {
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
struct Hunk {
    base: Range<usize>,
    side: Range<usize>,
}

fn hunks(base: &[&str], side: &[&str]) -> Vec<Hunk> {
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
fn apply_in<'a>(
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

/// A topic file both sides changed in the same place: ours stays as `file`, theirs was added as
/// `kept_as` (`<name>.conflict-<7 hex of their commit>.md`, with an index line of its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub file: String,
    pub kept_as: String,
}

/// The merged tree of two commits.
#[derive(Debug, Clone)]
pub struct Merged {
    pub tree: TreeMap,
    /// Topic files kept in both versions.
    pub conflicts: Vec<Conflict>,
    /// Files that are not memories (`.gitattributes`, a folder, a non-UTF-8 `MEMORY.md`) both
    /// sides changed differently: ours was kept; theirs is only in their commit.
    pub kept_ours: Vec<String>,
}

/// The content kinds a memory can have: a plain or executable file, never a link or a folder.
fn is_file(kind: EntryKind) -> bool {
    matches!(kind, EntryKind::Blob | EntryKind::BlobExecutable)
}

/// Merge the flat trees of `ours` and `theirs` over `base` (their merge base; `None` for
/// unrelated histories, where every file both sides have is "added on both").
///
/// Per path, three-way: one side's change is taken; a deletion yields to a change; both sides
/// changed: `MEMORY.md` by [`merge_index`], a topic file by [`merge_topic`], anything else
/// keeps ours ([`Merged::kept_ours`]). A topic-file conflict keeps ours as `<name>.md` and adds
/// theirs as `<name>.conflict-<7 hex of theirs>.md` (its frontmatter `name` set to that stem)
/// with an index line titled `<Title> (conflict)`.
///
/// A memory and its index line share one fate: a topic file the merge keeps has its entry (put
/// back from the side that had it when the index merge alone would drop it), and an entry the
/// merge keeps has its file. New blobs are written; nothing else is touched.
pub fn merge_trees(
    repo: &mut MemoryRepo,
    base: Option<ObjectId>,
    ours: ObjectId,
    theirs: ObjectId,
) -> Result<Merged, RepoError> {
    let base_tree = match base {
        Some(base) => repo.commit_tree(base)?,
        None => TreeMap::new(),
    };
    let ours_tree = repo.commit_tree(ours)?;
    let theirs_tree = repo.commit_tree(theirs)?;
    let names: BTreeSet<&BString> = base_tree
        .keys()
        .chain(ours_tree.keys())
        .chain(theirs_tree.keys())
        .collect();
    let theirs_short = theirs.to_hex_with_len(7).to_string();

    let mut merged = Merged {
        tree: TreeMap::new(),
        conflicts: Vec::new(),
        kept_ours: Vec::new(),
    };
    // Conflict copies: (original file, copy's name, copy's text).
    let mut copies: Vec<(String, String, String)> = Vec::new();
    for name in names {
        let (b, o, t) = (
            base_tree.get(name),
            ours_tree.get(name),
            theirs_tree.get(name),
        );
        let (o_entry, t_entry) = match (o, t) {
            (Some(o_entry), Some(t_entry)) if o != t && b != o && b != t => (*o_entry, *t_entry),
            // One side's change (a deletion yields to a change), or none.
            _ => {
                let kept = match pick(b, o, t) {
                    Pick::Ours => o,
                    Pick::Theirs => t,
                    Pick::Neither => None,
                };
                if let Some(entry) = kept {
                    merged.tree.insert(name.clone(), *entry);
                }
                continue;
            }
        };
        // Both sides changed the path, differently.
        let text_name = name.to_str().ok();
        let both_files = is_file(o_entry.0) && is_file(t_entry.0);
        let base_blob = b.filter(|(kind, _)| is_file(*kind)).map(|(_, id)| *id);
        let read = |repo: &MemoryRepo, id: Option<ObjectId>| -> Result<Option<String>, RepoError> {
            Ok(match id {
                Some(id) => String::from_utf8(repo.blob(id)?).ok(),
                None => Some(String::new()),
            })
        };
        match text_name {
            Some(INDEX_FILE) if both_files => {
                let texts = (
                    read(repo, base_blob)?,
                    read(repo, Some(o_entry.1))?,
                    read(repo, Some(t_entry.1))?,
                );
                if let (Some(b), Some(o), Some(t)) = texts {
                    let id = repo.write_blob(merge_index(&b, &o, &t).as_bytes())?;
                    merged.tree.insert(name.clone(), (o_entry.0, id));
                } else {
                    merged.tree.insert(name.clone(), o_entry);
                    merged.kept_ours.push(INDEX_FILE.to_string());
                }
            }
            Some(file) if both_files && is_topic_file_name(file) => {
                let base_text = match base_blob {
                    Some(id) => String::from_utf8(repo.blob(id)?).ok(),
                    None => None,
                };
                let ours_text = String::from_utf8(repo.blob(o_entry.1)?).ok();
                let theirs_bytes = repo.blob(t_entry.1)?;
                let theirs_text = String::from_utf8_lossy(&theirs_bytes).into_owned();
                let outcome = match &ours_text {
                    // A file that is not text cannot be merged line by line: keep both.
                    Some(o) if std::str::from_utf8(&theirs_bytes).is_ok() => {
                        merge_topic(base_text.as_deref(), o, &theirs_text)
                    }
                    _ => TopicMerge::Conflict,
                };
                match outcome {
                    TopicMerge::Clean(text) => {
                        let id = repo.write_blob(text.as_bytes())?;
                        merged.tree.insert(name.clone(), (o_entry.0, id));
                    }
                    TopicMerge::Conflict => {
                        merged.tree.insert(name.clone(), o_entry);
                        // The other side of a conflict copy is named after the memory and that
                        // side's version, so that every name stays a memory file's name.
                        let copy_stem = match file.trim_end_matches(".md").rsplit_once(".conflict-")
                        {
                            Some((memory, _)) => {
                                format!("{memory}.conflict-{}", t_entry.1.to_hex_with_len(7))
                            }
                            None => {
                                format!("{}.conflict-{theirs_short}", file.trim_end_matches(".md"))
                            }
                        };
                        let copy_text = with_frontmatter_name(&theirs_text, &copy_stem);
                        let copy_name = format!("{copy_stem}.md");
                        // A file that is not UTF-8 is kept as it was, byte for byte.
                        let id = if std::str::from_utf8(&theirs_bytes).is_ok() {
                            repo.write_blob(copy_text.as_bytes())?
                        } else {
                            repo.write_blob(&theirs_bytes)?
                        };
                        merged
                            .tree
                            .insert(copy_name.clone().into(), (t_entry.0, id));
                        copies.push((file.to_string(), copy_name.clone(), theirs_text));
                        merged.conflicts.push(Conflict {
                            file: file.to_string(),
                            kept_as: copy_name,
                        });
                    }
                }
            }
            _ => {
                merged.tree.insert(name.clone(), o_entry);
                merged.kept_ours.push(name.to_str_lossy().into_owned());
            }
        }
    }

    reconcile_index(repo, &mut merged, [&ours_tree, &theirs_tree], &copies)?;
    Ok(merged)
}

/// Make the merged index and the merged topic files agree (see [`merge_trees`]), and add the
/// conflict copies' index lines.
fn reconcile_index(
    repo: &mut MemoryRepo,
    merged: &mut Merged,
    sides: [&TreeMap; 2],
    copies: &[(String, String, String)],
) -> Result<(), RepoError> {
    let index_name = BString::from(INDEX_FILE);
    let current = match merged.tree.get(&index_name) {
        Some((kind, id)) if is_file(*kind) => Some((*kind, repo.blob(*id)?)),
        Some(_) => return Ok(()),
        None => None,
    };
    let side_indexes: Vec<Index> = sides
        .iter()
        .map(|tree| -> Result<Index, RepoError> {
            Ok(match tree.get(&index_name) {
                Some((kind, id)) if is_file(*kind) => {
                    Index::parse(&String::from_utf8_lossy(&repo.blob(*id)?))
                }
                _ => Index::default(),
            })
        })
        .collect::<Result<_, _>>()?;
    let side_entry = |file: &str| side_indexes.iter().find_map(|index| index.entry_for(file));

    let (kind, text) = match current {
        Some((kind, bytes)) => match String::from_utf8(bytes) {
            Ok(text) => (kind, text),
            Err(e) => {
                // Not text: the conflict copies' lines are appended, nothing else is touched.
                if copies.is_empty() {
                    return Ok(());
                }
                let mut bytes = e.into_bytes();
                if !bytes.is_empty() && !bytes.ends_with(b"\n") {
                    bytes.push(b'\n');
                }
                for (file, copy, text) in copies {
                    bytes.extend_from_slice(
                        copy_line(file, copy, text, side_entry(file))
                            .render()
                            .as_bytes(),
                    );
                    bytes.push(b'\n');
                }
                let id = repo.write_blob(&bytes)?;
                merged.tree.insert(index_name, (kind, id));
                return Ok(());
            }
        },
        None => (EntryKind::Blob, String::new()),
    };
    let mut index = Index::parse(&text);
    let mut changed = false;

    // An entry the merge kept names a file the merge deleted: bring the file back.
    let indexed: Vec<String> = index
        .entries()
        .map(|(_, e)| e.file_name().to_string())
        .collect();
    for file in &indexed {
        let key = BString::from(file.as_str());
        if !is_topic_file_name(file) || merged.tree.contains_key(&key) {
            continue;
        }
        if let Some(entry) = sides.iter().find_map(|tree| tree.get(&key)) {
            merged.tree.insert(key, *entry);
        }
    }
    // A topic file the merge kept lost its entry: put back the entry a side had.
    let indexed: HashSet<String> = indexed.into_iter().collect();
    let copy_names: HashSet<&str> = copies.iter().map(|(_, copy, _)| copy.as_str()).collect();
    let orphans: Vec<String> = merged
        .tree
        .keys()
        .filter_map(|name| name.to_str().ok())
        .filter(|name| is_topic_file_name(name) && !indexed.contains(*name))
        .filter(|name| !copy_names.contains(name))
        .map(str::to_string)
        .collect();
    for file in orphans {
        if let Some(entry) = side_entry(&file) {
            index.upsert(&entry);
            changed = true;
        }
    }
    for (file, copy, text) in copies {
        let original = index.entry_for(file).or_else(|| side_entry(file));
        index.upsert(&copy_line(file, copy, text, original));
        changed = true;
    }
    if changed {
        let id = repo.write_blob(index.render().as_bytes())?;
        merged.tree.insert(index_name, (kind, id));
    }
    Ok(())
}

/// The index line of a conflict copy: `<Title> (conflict)`, the title and hook of the
/// original's entry (else the copy's frontmatter name and description).
fn copy_line(file: &str, copy: &str, copy_text: &str, entry: Option<IndexLine>) -> IndexLine {
    let topic = TopicFile::parse(copy_text).ok();
    let title = entry
        .as_ref()
        .map(|e| e.title.clone())
        .unwrap_or_else(|| file.trim_end_matches(".md").to_string());
    let hook = entry
        .and_then(|e| e.hook)
        .or_else(|| topic.and_then(|t| t.description))
        .unwrap_or_default();
    IndexLine::for_memory(&format!("{title} (conflict)"), copy, &hook)
        .or_else(|_| IndexLine::for_memory(copy.trim_end_matches(".md"), copy, &hook))
        .map(|(line, _)| line)
        .unwrap_or_else(|_| IndexLine {
            title: copy.trim_end_matches(".md").to_string(),
            file: copy.to_string(),
            hook: None,
        })
}

/// `text` with its frontmatter's top-level `name` set to `name` (added, or a frontmatter made,
/// when there is none); every other line kept as it was.
fn with_frontmatter_name(text: &str, name: &str) -> String {
    let name_line = format!("name: {}\n", yaml_scalar(name));
    let fenced = text
        .strip_prefix("---\n")
        .map(|rest| ("---\n", rest))
        .or_else(|| text.strip_prefix("---\r\n").map(|rest| ("---\r\n", rest)));
    let Some((fence, rest)) = fenced else {
        return format!("---\n{name_line}---\n{text}");
    };
    let mut front_end = None;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            front_end = Some(offset);
            break;
        }
        offset += line.len();
    }
    let Some(front_end) = front_end else {
        return format!("---\n{name_line}---\n{text}");
    };
    let (front, after) = rest.split_at(front_end);
    let mut out = String::with_capacity(text.len() + name_line.len());
    out.push_str(fence);
    let mut replaced = false;
    let mut skipping = false;
    for line in front.split_inclusive('\n') {
        let continuation =
            line.starts_with(' ') || line.starts_with('\t') || line.trim().is_empty();
        if skipping && continuation {
            continue;
        }
        skipping = false;
        if !replaced
            && line
                .strip_prefix("name")
                .is_some_and(|r| r.starts_with(':'))
        {
            out.push_str(&name_line);
            replaced = true;
            skipping = true;
            continue;
        }
        out.push_str(line);
    }
    if !replaced {
        out.insert_str(fence.len(), &name_line);
    }
    out.push_str(after);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const BASE: &str = "# Memory\n\n- [Lint](lint.md) — run lint first\n- [Deploy](deploy.md) — staging from release\n- [Tone](tone.md) — be brief\n";

    #[test]
    fn index_merge_is_a_union_in_ours_then_theirs_order() {
        let ours = format!("{BASE}- [Ours](ours.md) — added here\n");
        let theirs = format!("{BASE}- [Theirs](theirs.md) — added there\n- [Two](two.md) — also\n");
        let merged = merge_index(BASE, &ours, &theirs);
        assert_eq!(
            merged,
            format!(
                "{BASE}- [Ours](ours.md) — added here\n- [Theirs](theirs.md) — added there\n- [Two](two.md) — also\n"
            )
        );
        // The other way round, theirs' additions come last.
        let swapped = merge_index(BASE, &theirs, &ours);
        assert!(swapped.ends_with("- [Two](two.md) — also\n- [Ours](ours.md) — added here\n"));
    }

    #[test]
    fn index_entry_changed_on_one_side_takes_that_side() {
        let theirs = BASE.replace("be brief", "be brief and kind");
        let ours = BASE.replace("[Lint]", "[Linting]");
        let merged = merge_index(BASE, &ours, &theirs);
        assert_eq!(
            merged,
            BASE.replace("be brief", "be brief and kind")
                .replace("[Lint]", "[Linting]")
        );
        assert_eq!(merge_index(BASE, BASE, &theirs), theirs);
        assert_eq!(merge_index(BASE, &ours, BASE), ours);
    }

    #[test]
    fn index_entry_changed_on_both_sides_keeps_ours() {
        let ours = BASE.replace("be brief", "be terse");
        let theirs = BASE.replace("be brief", "be short");
        assert_eq!(merge_index(BASE, &ours, &theirs), ours);
        // A change to the same text on both sides is no conflict at all.
        assert_eq!(merge_index(BASE, &ours, &ours), ours);
    }

    #[test]
    fn index_deletes_win_over_no_change_and_lose_to_a_change() {
        let without_tone = BASE.replace("- [Tone](tone.md) — be brief\n", "");
        // Deleted on one side, unchanged on the other: deleted, whichever side deleted it.
        assert_eq!(merge_index(BASE, &without_tone, BASE), without_tone);
        assert_eq!(merge_index(BASE, BASE, &without_tone), without_tone);
        // Deleted on one side, changed on the other: kept as changed.
        let changed = BASE.replace("be brief", "be brief, always");
        assert_eq!(
            merge_index(BASE, &without_tone, &changed),
            format!("{without_tone}- [Tone](tone.md) — be brief, always\n")
        );
        assert_eq!(merge_index(BASE, &changed, &without_tone), changed);
        // Deleted on both: gone.
        assert_eq!(
            merge_index(BASE, &without_tone, &without_tone),
            without_tone
        );
    }

    #[test]
    fn index_keeps_ours_order_and_other_lines() {
        let base = "# Memory\n- [A](a.md) — a\n- [B](b.md) — b\n\nFooter note\n";
        let ours = "# Memory\n- [B](b.md) — b\n- [A](a.md) — a\n\nFooter note\n";
        let theirs =
            "# Memory\n## Team\n- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n\nFooter note\n";
        let merged = merge_index(base, ours, theirs);
        assert_eq!(
            merged,
            "# Memory\n- [B](b.md) — b\n- [A](a.md) — a\n## Team\n- [C](c.md) — c\n\nFooter note\n"
        );
        // A note ours removed is not brought back by theirs, which still has it.
        let ours_without_footer = "# Memory\n- [A](a.md) — a\n- [B](b.md) — b\n";
        assert_eq!(
            merge_index(base, ours_without_footer, base),
            ours_without_footer
        );
    }

    #[test]
    fn index_merge_keeps_line_endings_and_a_missing_last_newline() {
        let crlf = "# Memory\r\n- [A](a.md) — a";
        assert_eq!(merge_index(crlf, crlf, crlf), crlf);
        let theirs = "# Memory\r\n- [A](a.md) — a\r\n- [B](b.md) — b\r\n";
        assert_eq!(
            merge_index(crlf, crlf, theirs),
            "# Memory\r\n- [A](a.md) — a\r\n- [B](b.md) — b\r\n"
        );
        assert_eq!(merge_index("", "", "- [A](a.md)\n"), "- [A](a.md)\n");
        assert_eq!(merge_index("", "", ""), "");
    }

    #[test]
    fn index_entries_are_keyed_by_link_not_by_text() {
        let ours = "- [A](./a.md) -- a\n";
        let theirs = "- [A](a.md) — a\n- [B](b.md) — b\n";
        let merged = merge_index("", ours, theirs);
        // Both sides added a.md (written differently): ours' spelling, once.
        assert_eq!(merged, "- [A](./a.md) -- a\n- [B](b.md) — b\n");
    }

    #[test]
    fn index_merge_is_idempotent_on_a_real_index() {
        let real = "# Project memory\n\n- [Lint](lint.md) — run lint first\n* [Old](./old.md) - legacy bullet\n- [Lint again](lint.md) — a duplicate stays\n\nSee also CLAUDE.md.\n";
        assert_eq!(merge_index(real, real, real), real);
        assert_eq!(merge_index("", real, real), real);
    }

    #[test]
    fn topic_merge_combines_edits_to_different_lines() {
        let base = "---\nname: lint\ndescription: run lint\ntype: feedback\n---\nRun lint.\n\n**Why:** CI broke.\n";
        let ours = base.replace("description: run lint", "description: run lint first");
        let theirs = base.replace("**Why:** CI broke.", "**Why:** CI broke for a day.");
        let TopicMerge::Clean(merged) = merge_topic(Some(base), &ours, &theirs) else {
            panic!("non-overlapping edits conflict");
        };
        assert_eq!(
            merged,
            "---\nname: lint\ndescription: run lint first\ntype: feedback\n---\nRun lint.\n\n**Why:** CI broke for a day.\n"
        );
        // Additions at both ends.
        let ours = format!("Intro.\n{base}");
        let theirs = format!("{base}Outro.\n");
        assert_eq!(
            merge_topic(Some(base), &ours, &theirs),
            TopicMerge::Clean(format!("Intro.\n{base}Outro.\n"))
        );
        // One side unchanged: the other side, exactly.
        assert_eq!(
            merge_topic(Some(base), base, &theirs),
            TopicMerge::Clean(theirs.clone())
        );
        // The same change on both sides.
        assert_eq!(
            merge_topic(Some(base), &theirs, &theirs),
            TopicMerge::Clean(theirs)
        );
    }

    #[test]
    fn topic_merge_conflicts_on_the_same_lines() {
        let base = "a\nb\nc\nd\n";
        assert_eq!(
            merge_topic(Some(base), "a\nB\nc\nd\n", "a\nb2\nc\nd\n"),
            TopicMerge::Conflict
        );
        // Different lines inserted at the same place.
        assert_eq!(
            merge_topic(Some(base), "a\nx\nb\nc\nd\n", "a\ny\nb\nc\nd\n"),
            TopicMerge::Conflict
        );
        // A deletion against an edit of the same line.
        assert_eq!(
            merge_topic(Some(base), "a\nc\nd\n", "a\nB\nc\nd\n"),
            TopicMerge::Conflict
        );
        // Added on both sides with different text (no base).
        assert_eq!(merge_topic(None, "one\n", "two\n"), TopicMerge::Conflict);
        assert_eq!(
            merge_topic(None, "same\n", "same\n"),
            TopicMerge::Clean("same\n".into())
        );
        // Neighbouring lines are no conflict.
        assert_eq!(
            merge_topic(Some(base), "a\nB\nc\nd\n", "a\nb\nC\nd\n"),
            TopicMerge::Clean("a\nB\nC\nd\n".into())
        );
    }

    #[test]
    fn conflict_copy_gets_its_own_name() {
        let text = "---\nname: lint\ndescription: d\ntype: feedback\n---\nbody\n";
        let copy = with_frontmatter_name(text, "lint.conflict-abc1234");
        assert_eq!(
            copy,
            "---\nname: lint.conflict-abc1234\ndescription: d\ntype: feedback\n---\nbody\n"
        );
        let parsed = TopicFile::parse(&copy).expect("parses");
        assert_eq!(parsed.name.as_deref(), Some("lint.conflict-abc1234"));
        assert_eq!(
            with_frontmatter_name("---\ntype: user\n---\nx\n", "n"),
            "---\nname: n\ntype: user\n---\nx\n"
        );
        assert_eq!(with_frontmatter_name("x\n", "n"), "---\nname: n\n---\nx\n");
    }

    /// An index of entries drawn from a small set of links, with titles, hooks and other lines.
    fn index_text() -> impl Strategy<Value = String> {
        let line = prop_oneof![
            4 => ("[a-f]", "[A-Z][a-z]{0,6}", "[a-z ]{0,12}")
                .prop_map(|(f, t, h)| format!("- [{t}]({f}.md) — {h}")),
            1 => "(# [A-Z][a-z]{0,5}|[A-Z][a-z ]{0,10}|)",
        ];
        prop::collection::vec(line, 0..10).prop_map(|lines| {
            let mut text = lines.join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            text
        })
    }

    fn keys(text: &str) -> BTreeSet<String> {
        Index::parse(text)
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .collect()
    }

    proptest! {
        #[test]
        fn index_merge_never_drops_an_entry_both_sides_have(
            base in index_text(),
            ours in index_text(),
            theirs in index_text(),
        ) {
            let merged = merge_index(&base, &ours, &theirs);
            let merged_keys = keys(&merged);
            for key in keys(&ours).intersection(&keys(&theirs)) {
                prop_assert!(merged_keys.contains(key), "{key} lost:\n{merged}");
            }
            // Nothing appears that neither side has.
            let either: BTreeSet<String> = keys(&ours).union(&keys(&theirs)).cloned().collect();
            prop_assert!(merged_keys.is_subset(&either));
            // Ours' lines keep their order; entries are never listed twice unless ours did.
            prop_assert_eq!(merge_index(&base, &ours, &theirs), merged.clone());
            prop_assert_eq!(merge_index(&merged, &merged, &merged), merged);
        }

        #[test]
        fn index_merge_of_identical_sides_is_identity(text in "\\PC{0,200}", lines in index_text()) {
            prop_assert_eq!(merge_index(&text, &text, &text), text.clone());
            prop_assert_eq!(merge_index("", &lines, &lines), lines.clone());
            prop_assert_eq!(merge_index(&text, &lines, &lines), lines);
        }

        #[test]
        fn index_merge_with_one_side_unchanged_keeps_every_entry_of_the_other(
            base in index_text(),
            theirs in index_text(),
        ) {
            let merged = merge_index(&base, &base, &theirs);
            prop_assert_eq!(keys(&merged), keys(&theirs));
        }

        #[test]
        fn clean_topic_merges_apply_both_sides(
            base in prop::collection::vec("[a-c]{1,2}", 0..12),
            ours_edit in (0usize..12, "[x-z]{1,2}"),
            theirs_edit in (0usize..12, "[x-z]{1,2}"),
        ) {
            let text = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
            let edit = |(at, new): &(usize, String)| {
                let mut lines = base.clone();
                if *at < lines.len() { lines[*at] = new.clone(); }
                lines
            };
            let (o, t) = (edit(&ours_edit), edit(&theirs_edit));
            let outcome = merge_topic(Some(&text(&base)), &text(&o), &text(&t));
            if let TopicMerge::Clean(merged) = &outcome {
                // Both sides' edited lines are in the result.
                for (at, new) in [&ours_edit, &theirs_edit] {
                    if *at < base.len() && base[*at] != *new {
                        prop_assert!(merged.lines().any(|l| l == new), "{new} missing from {merged:?}");
                    }
                }
            }
            if ours_edit.0.abs_diff(theirs_edit.0) >= 2 {
                prop_assert!(matches!(outcome, TopicMerge::Clean(_)));
            }
        }
    }
}
