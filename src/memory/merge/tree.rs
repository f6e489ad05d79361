//! Two flat trees merged over their merge base's (DESIGN §8): per path three ways, the index by
//! [`super::merge_index`], topic files by [`super::merge_topic`], a real conflict kept as a
//! `<name>.conflict-<7 hex>.md` copy, out of the index the model loads until a person finishes
//! it (`memdir resolve`); a memory and its index line always share one fate. Only blobs are
//! written.

use std::collections::{BTreeSet, HashSet};

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};
use gix::objs::tree::EntryKind;

use crate::memory::index::{Index, IndexLine};
use crate::memory::store::INDEX_FILE;
use crate::memory::taxonomy::{conflict_copy_of, is_topic_file_name};
use crate::memory::topic::yaml_scalar;
use crate::repo::{MemoryRepo, RepoError, TreeMap};

use super::{Pick, TopicMerge, merge_index, merge_topic, pick};

/// A topic file both sides changed in the same place: ours stays as `file`, theirs was added as
/// `kept_as` (`<name>.conflict-<7 hex of their commit>.md`, not in the index).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
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
pub(super) fn is_file(kind: EntryKind) -> bool {
    matches!(kind, EntryKind::Blob | EntryKind::BlobExecutable)
}

/// Merge the flat trees `ours` and `theirs` over `base` (their merge base's; empty for unrelated
/// histories, where every file both sides have is "added on both").
///
/// Per path, three-way: one side's change is taken; a deletion yields to a change; both sides
/// changed: `MEMORY.md` by [`merge_index`], a topic file by [`merge_topic`], anything else
/// keeps ours ([`Merged::kept_ours`]). A topic-file conflict keeps ours as `<name>.md` and adds
/// theirs as `<name>.conflict-<label>.md` (its frontmatter `name` set to that stem), which no
/// index line names: the model does not load it until it is resolved; `label` is 7 hex digits
/// of what theirs came from.
///
/// A memory and its index line share one fate: a topic file the merge keeps has its entry (put
/// back from the side that had it when the index merge alone would drop it), and an entry the
/// merge keeps has its file. New blobs are written; nothing else is touched.
pub fn merge_tree_maps(
    repo: &mut MemoryRepo,
    base_tree: &TreeMap,
    ours_tree: &TreeMap,
    theirs_tree: &TreeMap,
    label: &str,
) -> Result<Merged, RepoError> {
    let names: BTreeSet<&BString> = base_tree
        .keys()
        .chain(ours_tree.keys())
        .chain(theirs_tree.keys())
        .collect();
    let mut merged = Merged {
        tree: TreeMap::new(),
        conflicts: Vec::new(),
        kept_ours: Vec::new(),
    };
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
                                format!("{}.conflict-{label}", file.trim_end_matches(".md"))
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

    reconcile_index(repo, &mut merged, [ours_tree, theirs_tree])?;
    Ok(merged)
}

/// Make the merged index and the merged topic files agree (see [`merge_tree_maps`]); conflict copies
/// stay out of the index.
pub(super) fn reconcile_index(
    repo: &mut MemoryRepo,
    merged: &mut Merged,
    sides: [&TreeMap; 2],
) -> Result<(), RepoError> {
    let index_name = BString::from(INDEX_FILE);
    let text = match merged.tree.get(&index_name) {
        Some((kind, id)) if is_file(*kind) => match String::from_utf8(repo.blob(*id)?) {
            Ok(text) => Some((*kind, text)),
            // Not text: nothing is touched.
            Err(_) => return Ok(()),
        },
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
    // Looked up once per side, not parsed again for each file (a merge that dropped the index
    // has every topic file to put back).
    let side_entries: Vec<_> = side_indexes.iter().map(Index::first_entries).collect();
    let side_entry = |file: &str| {
        side_entries
            .iter()
            .find_map(|entries| entries.get(file).map(|(_, entry)| entry))
    };
    let (kind, text) = text.unwrap_or((EntryKind::Blob, String::new()));
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
    let orphans: Vec<String> = merged
        .tree
        .keys()
        .filter_map(|name| name.to_str().ok())
        .filter(|name| is_topic_file_name(name) && !indexed.contains(*name))
        .filter(|name| conflict_copy_of(name).is_none())
        .map(str::to_string)
        .collect();
    // Not indexed, so each is appended (what an upsert of an entry the index lacks does).
    let found: Vec<&IndexLine> = orphans.iter().filter_map(|file| side_entry(file)).collect();
    if !found.is_empty() {
        index.append(found);
        changed = true;
    }
    if changed {
        let id = repo.write_blob(index.render().as_bytes())?;
        merged.tree.insert(index_name, (kind, id));
    }
    Ok(())
}

/// `text` with its frontmatter's top-level `name` set to `name` (added, or a frontmatter made,
/// when there is none); every other line kept as it was.
pub fn with_frontmatter_name(text: &str, name: &str) -> String {
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
