//! What team memory takes from its remote and what it gives to it (DESIGN §8, §10).
//!
//! A teammate with push access may be hostile: a tree that comes from the remote is checked
//! before one byte of it is written, and refused whole unless every top-level entry is a plain
//! memory file (`MEMORY.md`, `<name>.md`, or a `<name>.conflict-<7 hex>.md` copy that a merge
//! made), a blob with mode 100644 under a size cap, with no more than [`MAX_ENTRIES`] of them.
//! That is exactly what memdir itself writes, so nothing memdir accepts can name a path outside
//! `team/`, git's own folder, a link or anything that runs.
//!
//! Secrets are looked for in what this machine adds (pending files, then what it would push)
//! and refused there; a secret that arrived from the remote is the teammate's to remove, so it
//! is reported and sync goes on (`memdir review` lists it as long as it stays).

use std::path::Path;

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;

use crate::memory::store::INDEX_FILE;
use crate::memory::taxonomy::validate_stored_name;
use crate::repo::{MemoryRepo, RepoError, TreeMap};
use crate::team::TeamError;

/// The largest topic file a team tree may hold: the largest memdir reads anywhere, so that every
/// memory `save --team` writes can be shared (memdir's own are a few KB).
pub const MAX_TOPIC_BYTES: u64 = crate::input::MAX_TOPIC_FILE_BYTES;
/// The largest `MEMORY.md` a team tree may hold (Claude Code loads its first 25,000 characters).
pub const MAX_INDEX_BYTES: u64 = 256 * 1024;
/// The most entries a team tree may hold.
pub const MAX_ENTRIES: usize = 5_000;

/// Why a tree entry is not a memory file memdir may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Empty, `.`, `..`, or holding a path separator: joined to the team dir, it leads out.
    LeavesTeamDir,
    /// `.git`, or a name a file system takes for it (`.GIT`, `.git.`, `git~1`, `.g\u{200c}it`).
    GitFolder,
    /// NUL, a newline, an escape: nothing a file name should hold.
    ControlCharacters,
    Folder,
    Symlink,
    Submodule,
    Executable,
    NotMemoryName,
    TooBig {
        size: u64,
        cap: u64,
    },
}

impl Problem {
    /// A name that is dangerous wherever it is written, not only out of place in team memory.
    pub fn is_unsafe_path(self) -> bool {
        matches!(
            self,
            Problem::LeavesTeamDir | Problem::GitFolder | Problem::ControlCharacters
        )
    }

    fn describe(self) -> String {
        match self {
            Problem::LeavesTeamDir => "a path that leads out of team memory".into(),
            Problem::GitFolder => "a name that stands for git's own folder".into(),
            Problem::ControlCharacters => "a name with control characters".into(),
            Problem::Folder => "a folder".into(),
            Problem::Symlink => "a symbolic link".into(),
            Problem::Submodule => "a submodule".into(),
            Problem::Executable => "an executable file".into(),
            Problem::NotMemoryName => {
                "not a memory file: MEMORY.md or NAME.md, NAME in a-z, 0-9 and '-'".into()
            }
            Problem::TooBig { size, cap } => format!("{size} bytes, over the cap of {cap}"),
        }
    }
}

/// Code points HFS+ ignores in names, so that `.g\u{200c}it` is `.git` there (as git's fsck).
fn hfs_ignorable(c: char) -> bool {
    matches!(c, '\u{200c}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{206a}'..='\u{206f}' | '\u{feff}')
}

/// Whether some file system takes `name` for `.git`: any case, HFS+'s ignored code points,
/// NTFS's trailing dots and spaces, its alternate streams (`.git::$INDEX_ALLOCATION`) and its
/// short name `GIT~1`.
fn is_git_folder(name: &str) -> bool {
    let folded: String = name.chars().filter(|c| !hfs_ignorable(*c)).collect();
    let stream_cut = folded.split(':').next().unwrap_or_default();
    let trimmed = stream_cut.trim_end_matches([' ', '.']);
    trimmed.eq_ignore_ascii_case(".git") || trimmed.eq_ignore_ascii_case("git~1")
}

/// A memory file's name: the index, or `<name>.md` for a memory or a conflict copy.
fn is_memory_file_name(name: &str) -> bool {
    name == INDEX_FILE
        || name
            .strip_suffix(".md")
            .is_some_and(|stem| validate_stored_name(stem).is_ok())
}

/// What is wrong with one top-level tree entry, if anything; `size` is the blob's (any value for
/// other kinds). The name is judged first when it is dangerous, then the kind, then the rest.
pub fn entry_problem(name: &[u8], kind: EntryKind, size: u64) -> Option<Problem> {
    let text = name.to_str_lossy();
    let unsafe_name = if name.is_empty()
        || name == b"."
        || name == b".."
        || name.contains(&b'/')
        || name.contains(&b'\\')
    {
        Some(Problem::LeavesTeamDir)
    } else if text.chars().any(char::is_control) {
        Some(Problem::ControlCharacters)
    } else if is_git_folder(&text) {
        Some(Problem::GitFolder)
    } else {
        None
    };
    if unsafe_name.is_some() {
        return unsafe_name;
    }
    let kind_problem = match kind {
        EntryKind::Blob => None,
        EntryKind::BlobExecutable => Some(Problem::Executable),
        EntryKind::Tree => Some(Problem::Folder),
        EntryKind::Link => Some(Problem::Symlink),
        EntryKind::Commit => Some(Problem::Submodule),
    };
    if kind_problem.is_some() {
        return kind_problem;
    }
    let Ok(name) = name.to_str() else {
        return Some(Problem::NotMemoryName);
    };
    if !is_memory_file_name(name) {
        return Some(Problem::NotMemoryName);
    }
    let cap = if name == INDEX_FILE {
        MAX_INDEX_BYTES
    } else {
        MAX_TOPIC_BYTES
    };
    (size > cap).then_some(Problem::TooBig { size, cap })
}

/// A tree memdir will not write, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadTree {
    pub commit: ObjectId,
    /// The entry, as Rust debug-quotes it (one line, control characters escaped).
    pub entry: Option<String>,
    pub why: String,
    /// A dangerous name ([`Problem::is_unsafe_path`]): git refuses the commit itself, so a later
    /// commit cannot repair it; the remote's history must lose it.
    pub in_history: bool,
}

impl BadTree {
    fn new(commit: ObjectId, name: &[u8], problem: Problem) -> BadTree {
        BadTree {
            commit,
            entry: Some(format!("{:?}", name.to_str_lossy())),
            why: problem.describe(),
            in_history: problem.is_unsafe_path(),
        }
    }

    /// `commit 1a2b3c4d5e6f holds "docs" (a folder)`.
    fn what(&self) -> String {
        let commit = self.commit.to_hex_with_len(12);
        match &self.entry {
            Some(entry) => format!("commit {commit} holds {entry} ({})", self.why),
            None => format!("commit {commit} {}", self.why),
        }
    }

    /// The refusal of a tree that came from the remote (exit 2: the remote's content is input,
    /// and nothing was changed), and what to do before `then`.
    pub fn refusal_from_remote(&self, then: &str) -> TeamError {
        let fix = if self.in_history {
            "that commit must leave the remote's history (whoever owns the remote resets its branch to a commit before it)"
        } else {
            "remove it from the team remote (git rm, commit and push in any clone)"
        };
        TeamError::TreeRefused(format!(
            "the team remote's {}: team memory takes only memory files, so nothing was merged or written; {fix}, then {then}",
            self.what()
        ))
    }

    /// The refusal to push a tree of this machine's own.
    pub fn refusal_to_push(&self, dir: &Path) -> TeamError {
        TeamError::TreeRefused(format!(
            "your team memory's {}: team memory takes only memory files, so nothing was pushed; remove it in {} (memdir rm --team, or git rm and commit), then run memdir team sync again",
            self.what(),
            dir.display()
        ))
    }
}

/// Check `commit`'s tree as a whole: the first dangerous name if there is one, else the first
/// entry that is not a memory file; nothing is read but the tree and the blobs' headers.
pub fn check_tree(repo: &MemoryRepo, commit: ObjectId) -> Result<Result<(), BadTree>, RepoError> {
    let tree = repo.commit_tree(commit)?;
    check_entries(repo, commit, &tree, false)
}

/// [`check_tree`] for the dangerous names only (what must never be in any commit at all).
pub fn check_tree_paths(
    repo: &MemoryRepo,
    commit: ObjectId,
) -> Result<Result<(), BadTree>, RepoError> {
    let tree = repo.commit_tree(commit)?;
    check_entries(repo, commit, &tree, true)
}

fn check_entries(
    repo: &MemoryRepo,
    commit: ObjectId,
    tree: &TreeMap,
    paths_only: bool,
) -> Result<Result<(), BadTree>, RepoError> {
    if tree.len() > MAX_ENTRIES && !paths_only {
        return Ok(Err(BadTree {
            commit,
            entry: None,
            why: format!(
                "holds {} entries, over the cap of {MAX_ENTRIES}",
                tree.len()
            ),
            in_history: false,
        }));
    }
    let mut first = None;
    for (name, (kind, id)) in tree {
        let size = match kind {
            EntryKind::Blob if !paths_only => repo.object_size(*id)?,
            _ => 0,
        };
        match entry_problem(name, *kind, size) {
            Some(problem) if problem.is_unsafe_path() => {
                return Ok(Err(BadTree::new(commit, name, problem)));
            }
            Some(problem) if !paths_only && first.is_none() => {
                first = Some(BadTree::new(commit, name, problem));
            }
            _ => {}
        }
    }
    Ok(first.map_or(Ok(()), Err))
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

/// The secrets in the `*.md` files of the work tree `dir` that are not committed yet (a file
/// whose content is `head`'s is not read twice).
pub fn pending_secrets(
    repo: &MemoryRepo,
    dir: &Path,
    head: &TreeMap,
) -> Result<Vec<String>, TeamError> {
    let mut found = Vec::new();
    for (name, text) in memory_files(dir)? {
        let id = repo.blob_id(text.as_bytes())?;
        let committed = head.get(name.as_bytes());
        if committed.is_some_and(|(_, old)| *old == id) {
            continue;
        }
        let before = text_at(repo, head, name.as_bytes())?;
        found.extend(secrets_added(&name, &text, before.as_deref()));
    }
    Ok(found)
}

/// Every secret in the memory files of `dir`: `file:line: kind (masked excerpt)`.
pub fn secret_findings(dir: &Path) -> Result<Vec<String>, TeamError> {
    Ok(memory_files(dir)?
        .iter()
        .flat_map(|(name, text)| secrets_added(name, text, None))
        .collect())
}

/// The top-level `*.md` regular files of `dir` that are text, by name.
fn memory_files(dir: &Path) -> Result<Vec<(String, String)>, TeamError> {
    let entries = std::fs::read_dir(dir).map_err(TeamError::io(dir))?;
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        // Not followed: a link in the team dir is nothing memdir reads.
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if !name.ends_with(".md") || !is_file {
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

/// Refuse when `found` is not empty: the labels and the lines, no values.
pub fn refuse_secrets(found: Vec<String>, nothing: &'static str) -> Result<(), TeamError> {
    if found.is_empty() {
        return Ok(());
    }
    Err(TeamError::SecretRefused {
        nothing,
        found: found.join("; "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn memory_files_are_accepted() {
        for name in [
            "MEMORY.md",
            "deploy-window.md",
            "a.md",
            "deploy-window.conflict-abc1234.md",
        ] {
            assert_eq!(entry_problem(name.as_bytes(), EntryKind::Blob, 10), None);
        }
        assert_eq!(
            entry_problem(b"MEMORY.md", EntryKind::Blob, MAX_INDEX_BYTES),
            None
        );
    }

    #[test]
    fn hostile_entries_are_refused_with_their_reason() {
        let blob = EntryKind::Blob;
        for name in [
            &b"../x.md"[..],
            b"/home/me/.bashrc",
            b"..",
            b".",
            b"",
            b"a\\b.md",
        ] {
            assert_eq!(
                entry_problem(name, blob, 1),
                Some(Problem::LeavesTeamDir),
                "{name:?}"
            );
        }
        for name in [
            ".git",
            ".GIT",
            ".Git ",
            ".git.",
            "git~1",
            ".g\u{200c}it",
            ".git::$INDEX_ALLOCATION",
        ] {
            assert_eq!(
                entry_problem(name.as_bytes(), blob, 1),
                Some(Problem::GitFolder),
                "{name:?}"
            );
        }
        assert_eq!(
            entry_problem(b"a\nb.md", blob, 1),
            Some(Problem::ControlCharacters)
        );
        // A dangerous name is named as such whatever the entry is.
        assert_eq!(
            entry_problem(b"..", EntryKind::Tree, 0),
            Some(Problem::LeavesTeamDir)
        );
        assert_eq!(
            entry_problem(b"notes", EntryKind::Tree, 0),
            Some(Problem::Folder)
        );
        assert_eq!(
            entry_problem(b"x.md", EntryKind::Link, 0),
            Some(Problem::Symlink)
        );
        assert_eq!(
            entry_problem(b"sub", EntryKind::Commit, 0),
            Some(Problem::Submodule)
        );
        assert_eq!(
            entry_problem(b"x.md", EntryKind::BlobExecutable, 1),
            Some(Problem::Executable)
        );
        for name in [
            "README.md",
            ".gitignore",
            "memory.md",
            "notes.txt",
            "a.conflict-abc123.md",
            "a.conflict-abc1234.conflict-def5678.md",
        ] {
            assert_eq!(
                entry_problem(name.as_bytes(), blob, 1),
                Some(Problem::NotMemoryName),
                "{name:?}"
            );
        }
        assert_eq!(
            entry_problem(b"big.md", blob, MAX_TOPIC_BYTES + 1),
            Some(Problem::TooBig {
                size: MAX_TOPIC_BYTES + 1,
                cap: MAX_TOPIC_BYTES
            })
        );
        assert_eq!(
            entry_problem(&[0xff, b'.', b'm', b'd'], blob, 1),
            Some(Problem::NotMemoryName)
        );
    }

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
            "[a-z0-9./\\\\:~ -]{0,20}(\\.md)?".prop_map(String::into_bytes),
            "(\\.\\.?/)?[a-z0-9][a-z0-9-]{0,70}(\\.conflict-[0-9a-fA-F]{6,8})?\\.(md|MD|txt)"
                .prop_map(String::into_bytes),
            "\\PC{0,12}".prop_map(String::into_bytes),
        ]
    }

    proptest! {
        #[test]
        fn whatever_is_accepted_is_a_plain_top_level_memory_file(
            name in any_name(),
            kind in any_kind(),
            size in prop_oneof![0u64..200_000, any::<u64>()],
        ) {
            if entry_problem(&name, kind, size).is_none() {
                let text = std::str::from_utf8(&name).expect("accepted names are UTF-8");
                prop_assert_eq!(kind, EntryKind::Blob);
                prop_assert!(!text.contains(['/', '\\', '\0']) && !text.contains(".."));
                prop_assert!(!text.starts_with('.') && !text.to_ascii_lowercase().contains(".git"));
                prop_assert!(text.bytes().all(|b| b.is_ascii_graphic()));
                let stem = text.strip_suffix(".md").expect("ends with .md");
                prop_assert!(text == INDEX_FILE || validate_stored_name(stem).is_ok());
                prop_assert!(size <= MAX_INDEX_BYTES);
                prop_assert!(text == INDEX_FILE || size <= MAX_TOPIC_BYTES);
            }
        }
    }
}
