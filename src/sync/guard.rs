//! What a sync takes from a remote and gives to it (DESIGN §8, §10).
//!
//! Whoever can push to the remote may be hostile, or may only have created the repository with a
//! `README.md` and a `LICENSE`, as hosting sites do. A tree that comes from the remote is looked
//! at before one byte of it is written:
//!
//! - entries git itself refuses to check out (`.git` in any spelling, `..`, a symlinked
//!   `.gitmodules`, at any depth: [`crate::repo::refused_name`]) are dropped from the tree memdir
//!   merges and pushes, and reported; so are topic files over their cap;
//! - every other entry that is not a memory file (a README, a licence, a folder, a link, a
//!   submodule, `.gitattributes`) is carried through merges unchanged in git and never written
//!   to disk ([`crate::memory::store::is_checked_out`]); each sync names them once;
//! - a tree of more entries than [`MAX_ENTRIES`], or whose `MEMORY.md` is over its cap, is
//!   refused whole, and nothing is merged or written.
//!
//! What is written is then exactly what memdir itself writes: top-level plain memory files, so
//! nothing a remote sends can name a path outside the memory dir, git's own folder, a link or
//! anything that runs. Secrets are looked for in what this machine adds and refused there; a
//! secret that arrived from the remote is its author's to remove, so it is reported and sync
//! goes on (`memdir review` lists it as long as it stays).

use std::path::Path;

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;

use crate::memory::store::{INDEX_FILE, State, Store, is_checked_out};
use crate::memory::taxonomy::is_memory_file_name;
use crate::repo::{MemoryRepo, RepoError, TreeMap, refused_name};
use crate::sync::SyncError;

/// The largest topic file a tree may hold: the largest memdir reads anywhere, so that every
/// memory a save writes can be shared (memdir's own are a few KB).
pub const MAX_TOPIC_BYTES: u64 = crate::input::MAX_TOPIC_FILE_BYTES;
/// The largest `MEMORY.md` a tree may hold: the largest memdir reads (Claude Code loads its
/// first 25,000 characters; a team of fifty keeps ten thousand entries well under it).
pub const MAX_INDEX_BYTES: u64 = crate::input::MAX_INDEX_BYTES;
/// The most top-level entries a tree may hold.
pub const MAX_ENTRIES: usize = 50_000;
/// The most entries of folders (which are never written) looked at for names git refuses.
pub const MAX_FOLDER_ENTRIES: usize = 100_000;

/// An entry dropped from a tree: its path in the tree (`docs/.git`), and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Dropped {
    pub file: String,
    pub why: String,
}

/// A tree from the remote as memdir merges it.
#[derive(Debug, Clone)]
pub struct Cleaned {
    pub tree: TreeMap,
    /// What was left out.
    pub dropped: Vec<Dropped>,
}

/// A tree memdir will not take at all, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadTree {
    pub commit: ObjectId,
    pub why: String,
}

impl BadTree {
    /// `commit 1a2b3c4d5e6f holds 60000 entries, over the cap of 50000`.
    fn what(&self) -> String {
        format!("commit {} {}", self.commit.to_hex_with_len(12), self.why)
    }

    /// The refusal of a tree that came from the remote (exit 2: the remote's content is input,
    /// and nothing was changed), and what to do before `then`.
    pub fn refusal_from_remote(&self, remote: &str, then: &str) -> SyncError {
        SyncError::TreeRefused(format!(
            "{remote}'s {}, so nothing was merged or written; fix it on the remote (in any clone: git rm, commit and push), then {then}",
            self.what()
        ))
    }

    /// The refusal to push a tree of this machine's own.
    pub fn refusal_to_push(&self, dir: &Path, again: &str) -> SyncError {
        SyncError::TreeRefused(format!(
            "the memory at {}: {}, so nothing was pushed; remove what is too big (memdir rm, or git rm and commit), then run {again} again",
            dir.display(),
            self.what(),
        ))
    }
}

/// `commit`'s tree as memdir takes it: without the entries git refuses to check out (at any
/// depth) and the topic files over their cap, each named in [`Cleaned::dropped`]; or why the
/// tree cannot be taken at all. Only the trees and the blobs' headers are read, and of an entry
/// `known` holds the same (one looked at before) only the name. Folders that lose an entry are
/// staged as new trees for the next commit.
pub fn clean(
    repo: &mut MemoryRepo,
    commit: ObjectId,
    known: &TreeMap,
) -> Result<Result<Cleaned, BadTree>, RepoError> {
    let tree = repo.commit_tree(commit)?;
    let bad = |why: String| Ok(Err(BadTree { commit, why }));
    if tree.len() > MAX_ENTRIES {
        return bad(format!(
            "holds {} entries, over the cap of {MAX_ENTRIES}",
            tree.len()
        ));
    }
    let mut cleaned = Cleaned {
        tree: TreeMap::new(),
        dropped: Vec::new(),
    };
    let mut budget = MAX_FOLDER_ENTRIES;
    for (name, (kind, id)) in tree {
        let shown = name.to_str_lossy().into_owned();
        if let Some(why) = refused_name(&name, kind) {
            cleaned.dropped.push(Dropped {
                file: shown,
                why: why.to_string(),
            });
            continue;
        }
        let mut id = id;
        if known.get(&name) == Some(&(kind, id)) {
            cleaned.tree.insert(name, (kind, id));
            continue;
        }
        if kind == EntryKind::Tree {
            let mut inner = Vec::new();
            let Some(kept) = repo.without_refused(id, &shown, &mut budget, &mut inner)? else {
                return bad(format!(
                    "holds folders of more than {MAX_FOLDER_ENTRIES} entries"
                ));
            };
            id = kept;
            cleaned
                .dropped
                .extend(inner.into_iter().map(|(file, why)| Dropped {
                    file,
                    why: why.to_string(),
                }));
        } else if is_checked_out(&name, kind) {
            let size = repo.object_size(id)?;
            if name == INDEX_FILE.as_bytes() && size > MAX_INDEX_BYTES {
                return bad(format!(
                    "holds a MEMORY.md of {size} bytes, over the cap of {MAX_INDEX_BYTES}"
                ));
            }
            if size > MAX_TOPIC_BYTES && name != INDEX_FILE.as_bytes() {
                cleaned.dropped.push(Dropped {
                    file: shown,
                    why: format!("{size} bytes, over the cap of {MAX_TOPIC_BYTES} of a memory"),
                });
                continue;
            }
        }
        cleaned.tree.insert(name, (kind, id));
    }
    Ok(Ok(cleaned))
}

/// The entries of `tree` memdir carries in git but never writes (a README, a folder, a link,
/// a submodule, `.gitattributes`), as a person reads them: `README.md`, `docs/ (a folder)`.
pub fn foreign(tree: &TreeMap) -> Vec<String> {
    tree.iter()
        .filter(|(name, (kind, _))| !is_checked_out(name, *kind))
        .map(|(name, (kind, _))| {
            let name = format!("{:?}", name.to_str_lossy());
            let name = name.trim_matches('"');
            match kind {
                EntryKind::Tree => format!("{name}/ (a folder)"),
                EntryKind::Link => format!("{name} (a symbolic link)"),
                EntryKind::Commit => format!("{name} (a submodule)"),
                EntryKind::BlobExecutable => format!("{name} (an executable file)"),
                EntryKind::Blob => name.to_string(),
            }
        })
        .collect()
}

/// The secrets `new_text` holds that `old_text` (the same file before, if any) did not hold on
/// a line with the same masked text: `file:line: kind (masked excerpt)`, never a value.
fn secrets_added(file: &str, new_text: &str, old_text: Option<&str>) -> Vec<String> {
    let found = crate::secrets::scan(new_text);
    if found.is_empty() {
        return Vec::new();
    }
    let before = old_text.map(crate::secrets::scan).unwrap_or_default();
    found
        .into_iter()
        .filter(|f| {
            !before
                .iter()
                .any(|b| b.kind == f.kind && b.excerpt == f.excerpt)
        })
        .map(|f| format!("{file}:{}: {} ({})", f.line, f.kind, f.excerpt))
        .collect()
}

/// A memory file's text in a tree, if it has one that is text.
fn text_at(repo: &MemoryRepo, tree: &TreeMap, name: &[u8]) -> Result<Option<String>, RepoError> {
    match tree.get(name) {
        Some((EntryKind::Blob | EntryKind::BlobExecutable, id)) => {
            Ok(String::from_utf8(repo.blob(*id)?).ok())
        }
        _ => Ok(None),
    }
}

/// The secrets in the `*.md` files of `new` that `old` does not have (a file `old` holds the
/// same way is not read).
pub fn secrets_between(
    repo: &MemoryRepo,
    old: &TreeMap,
    new: &TreeMap,
) -> Result<Vec<String>, RepoError> {
    let mut found = Vec::new();
    for (name, entry) in new {
        if !name.ends_with(b".md") || old.get(name) == Some(entry) {
            continue;
        }
        let Some(text) = text_at(repo, new, name)? else {
            continue;
        };
        let before = text_at(repo, old, name)?;
        found.extend(secrets_added(
            &name.to_str_lossy(),
            &text,
            before.as_deref(),
        ));
    }
    Ok(found)
}

/// The secrets in the memory files of the store's work tree, as `state` read it, that are not
/// committed yet (a file whose content is HEAD's is not read: `.git/index`'s stat data tells
/// it).
pub(crate) fn pending_secrets(store: &Store, state: &State) -> Result<Vec<String>, SyncError> {
    let mut found = Vec::new();
    for (name, file) in &state.work {
        if state
            .tree
            .get(name.as_bytes())
            .is_some_and(|(_, id)| *id == file.id)
        {
            continue;
        }
        let cap = if name == INDEX_FILE {
            MAX_INDEX_BYTES
        } else {
            MAX_TOPIC_BYTES
        };
        let bytes = crate::memory::store::read_memory_file(&store.dir, name, cap)?;
        let Some(text) = bytes.and_then(|b| String::from_utf8(b).ok()) else {
            continue;
        };
        let before = text_at(&store.repo, &state.tree, name.as_bytes())?;
        found.extend(secrets_added(name, &text, before.as_deref()));
    }
    Ok(found)
}

/// Every secret in the memory files of `dir`: `file:line: kind (masked excerpt)`.
pub fn secret_findings(dir: &Path) -> Result<Vec<String>, SyncError> {
    Ok(memory_files(dir)?
        .iter()
        .flat_map(|(name, text)| secrets_added(name, text, None))
        .collect())
}

/// The top-level `*.md` regular files of `dir` that are text, by name.
fn memory_files(dir: &Path) -> Result<Vec<(String, String)>, SyncError> {
    let entries = std::fs::read_dir(dir).map_err(SyncError::io(dir))?;
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        // Not followed: a link in a memory dir is nothing memdir reads.
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if !is_memory_file_name(&name) || !is_file {
            continue;
        }
        let read =
            crate::memory::store::read_memory_file(dir, &name, crate::input::MAX_TOPIC_FILE_BYTES);
        if let Ok(Some(bytes)) = read
            && let Ok(text) = String::from_utf8(bytes)
        {
            files.push((name, text));
        }
    }
    files.sort();
    Ok(files)
}

/// Refuse when `found` is not empty: the labels and the lines, no values, and how to take them
/// out; `what` is the memory it is in ("team memory", "your memory").
pub fn refuse_secrets(
    found: Vec<String>,
    what: &'static str,
    nothing: &'static str,
) -> Result<(), SyncError> {
    if found.is_empty() {
        return Ok(());
    }
    Err(SyncError::SecretRefused {
        what,
        nothing,
        found: format!(
            "{} (take it out of the memory with memdir save or an edit, or remove the memory with memdir rm, then sync again)",
            found.join("; ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn only_new_secrets_count() {
        let token = "ghp_R8kT2mVq9XwLs4NbZc7Yd1PfHj6Ga3Ue5Qo0";
        let old = format!("a\ntoken: {token}\n");
        let new = format!("b\ntoken: {token}\nmore\n");
        // The same secret, moved by an edit elsewhere: not added by this side.
        assert!(secrets_added("x.md", &new, Some(&old)).is_empty());
        let found = secrets_added("x.md", &new, None);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("x.md:2: a GitHub token ("),
            "{found:?}"
        );
        assert!(!found[0].contains(token));
    }

    #[test]
    fn foreign_entries_are_named_as_a_person_reads_them() {
        let id = ObjectId::null(gix::hash::Kind::Sha1);
        let mut tree = TreeMap::new();
        for (name, kind) in [
            ("MEMORY.md", EntryKind::Blob),
            ("deploy.md", EntryKind::Blob),
            ("README.md", EntryKind::Blob),
            ("docs", EntryKind::Tree),
            ("link.md", EntryKind::Link),
            ("sub", EntryKind::Commit),
            ("run.md", EntryKind::BlobExecutable),
            ("a\u{1b}b.md", EntryKind::Blob),
        ] {
            tree.insert(name.into(), (kind, id));
        }
        assert_eq!(
            foreign(&tree),
            [
                "README.md",
                "a\\u{1b}b.md",
                "docs/ (a folder)",
                "link.md (a symbolic link)",
                "run.md (an executable file)",
                "sub (a submodule)",
            ]
        );
    }

    fn any_kind() -> impl Strategy<Value = EntryKind> {
        prop_oneof![
            Just(EntryKind::Blob),
            Just(EntryKind::BlobExecutable),
            Just(EntryKind::Tree),
            Just(EntryKind::Link),
            Just(EntryKind::Commit),
        ]
    }

    /// Names that are often almost right: memory names with a twist, and anything at all.
    fn any_name() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..80),
            "[a-zA-Z0-9./\\\\:~ -]{0,20}(\\.md)?".prop_map(String::into_bytes),
            "(\\.\\.?/)?[a-z0-9][a-z0-9_-]{0,70}(\\.conflict-[0-9a-fA-F]{6,8})?\\.(md|MD|txt)"
                .prop_map(String::into_bytes),
            "\\PC{0,12}".prop_map(String::into_bytes),
        ]
    }

    proptest! {
        /// What a sync writes into the work tree is a plain top-level file that no file system
        /// takes for git's folder, whose name names no other place.
        #[test]
        fn whatever_is_written_is_a_plain_top_level_memory_file(
            name in any_name(),
            kind in any_kind(),
        ) {
            if is_checked_out(&name, kind) && refused_name(&name, kind).is_none() {
                let text = std::str::from_utf8(&name).expect("written names are UTF-8");
                prop_assert_eq!(kind, EntryKind::Blob);
                prop_assert!(!text.contains(['/', '\\', '\0']));
                prop_assert!(text != "." && text != "..");
                prop_assert!(!text.starts_with('.'));
                prop_assert!(!text.chars().any(char::is_control));
                prop_assert!(text.ends_with(".md"));
                prop_assert!(!text.chars().next().is_some_and(|c| c.is_ascii_uppercase()) || text == INDEX_FILE);
            }
        }
    }
}
