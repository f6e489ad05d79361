//! What changed between two states of the memory dir (DESIGN §4): the memory files of a commit
//! or of the work tree, and a unified diff per changed file, topic files by name, the index last.

use std::collections::BTreeMap;
use std::path::Path;

use crate::input::{MAX_INDEX_BYTES, MAX_TOPIC_FILE_BYTES};
use crate::memory::store::{INDEX_FILE, StoreError, is_checked_out, read_memory_file};
use crate::memory::taxonomy::is_topic_file_name;
use crate::repo::MemoryRepo;

/// Top-level `*.md` files and their bytes.
pub type Files = BTreeMap<String, Vec<u8>>;

/// The memory files of `commit` (none before the first commit).
pub fn files_at(repo: &MemoryRepo, commit: Option<gix::ObjectId>) -> Result<Files, StoreError> {
    let Some(commit) = commit else {
        return Ok(Files::new());
    };
    let mut out = Files::new();
    for (name, (kind, id)) in repo.commit_tree(commit)? {
        if is_checked_out(&name, kind) {
            out.insert(String::from_utf8_lossy(&name).into_owned(), repo.blob(id)?);
        }
    }
    Ok(out)
}

/// The memory files of the work tree as they are now: regular files only, each under its cap
/// (one memdir will not read is left out, as adoption leaves it).
pub fn work_files(dir: &Path) -> Result<Files, StoreError> {
    let io = |source| StoreError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut out = Files::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(is_topic_file_name(&name) || name == INDEX_FILE)
            || !entry.file_type().is_ok_and(|t| t.is_file())
        {
            continue;
        }
        let cap = if name == INDEX_FILE {
            MAX_INDEX_BYTES
        } else {
            MAX_TOPIC_FILE_BYTES
        };
        match read_memory_file(dir, &name, cap) {
            Ok(Some(bytes)) => {
                out.insert(name, bytes);
            }
            Ok(None) => {}
            Err(e) if e.is_invalid_input() => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// Each changed file with its status and unified diff: topic files by name, `MEMORY.md` last.
pub fn changes(old: &Files, new: &Files) -> Vec<(String, &'static str, String)> {
    let mut names: Vec<&String> = old.keys().chain(new.keys()).collect();
    names.sort_by_key(|n| {
        (
            n.as_str() == crate::memory::store::INDEX_FILE,
            n.to_string(),
        )
    });
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let (a, b) = (old.get(name), new.get(name));
            if a == b {
                return None;
            }
            let status = match (a, b) {
                (None, _) => "added",
                (_, None) => "deleted",
                _ => "modified",
            };
            let a = String::from_utf8_lossy(a.map_or(&[][..], Vec::as_slice)).into_owned();
            let b = String::from_utf8_lossy(b.map_or(&[][..], Vec::as_slice)).into_owned();
            let diff = similar::TextDiff::from_lines(&a, &b)
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{name}"), &format!("b/{name}"))
                .to_string();
            Some((name.clone(), status, diff))
        })
        .collect()
}
