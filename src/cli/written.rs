//! What a command that writes prints with `--json` (ARCHITECTURE.md, "JSON field names"): the
//! commits it made, oldest first (what it adopted before its own work, then its own), and the
//! memories it changed — `{"commits": [commit], "memories": [memory]}`.

use gix::ObjectId;
use serde_json::{Value, json};

use crate::Error;
use crate::memory::age::format_time;
use crate::memory::store::Adoption;
use crate::memory::taxonomy::MemoryType;
use crate::repo::MemoryRepo;
use crate::repo::message::HistoryEntry;

/// A memory a command changed, and how.
pub struct Changed<'a> {
    pub name: &'a str,
    pub memory_type: Option<MemoryType>,
    /// `saved`, `updated`, `unchanged`, `removed`, `restored`, `adopted`.
    pub change: &'static str,
}

/// The memories `entries` (an adoption's commits) adopted: those whose subject names a memory of
/// a type (`adopt(reference): board`), not the index alone (`adopt(index): MEMORY.md`).
fn adopted(entries: &[HistoryEntry]) -> Vec<Changed<'_>> {
    entries
        .iter()
        .filter_map(|entry| {
            let (_, kind, name) = entry.op_type_name()?;
            Some(Changed {
                name,
                memory_type: Some(kind.parse().ok()?),
                change: "adopted",
            })
        })
        .collect()
}

/// A commit as every `--json` shows one: its full id, what it did, when.
pub fn commit_json(entry: &HistoryEntry) -> Value {
    let parsed = entry.op_type_name();
    json!({
        "commit": entry.commit.to_string(),
        "op": entry.trailer("Op").or(parsed.map(|p| p.0)),
        "subject": entry.subject,
        "session": entry.trailer("Session"),
        "time": format_time(entry.time),
        "author": entry.author,
    })
}

/// The `--json` of a command whose only writes are an adoption (`init`, `snapshot`): its
/// commits and the memories they adopted.
pub fn adoption_json(repo: &MemoryRepo, adoption: &Adoption) -> Result<Value, Error> {
    let entries = adoption
        .commits
        .iter()
        .map(|(id, _)| repo.history_entry(*id))
        .collect::<Result<Vec<_>, _>>()?;
    let commits: Vec<Value> = entries.iter().map(commit_json).collect();
    let memories = memories_json(&adopted(&entries));
    Ok(json!({ "commits": commits, "memories": memories }))
}

/// The `--json` of a write: `adoption`'s commits, then `commits`, and the memories changed.
pub fn written_json(
    repo: &MemoryRepo,
    adoption: &Adoption,
    commits: impl IntoIterator<Item = ObjectId>,
    memories: &[Changed<'_>],
) -> Result<Value, Error> {
    let commits = adoption
        .commits
        .iter()
        .map(|(id, _)| *id)
        .chain(commits)
        .map(|id| Ok(commit_json(&repo.history_entry(id)?)))
        .collect::<Result<Vec<Value>, Error>>()?;
    Ok(json!({ "commits": commits, "memories": memories_json(memories) }))
}

/// The memories changed, as every write shows them: `[{name, type, file, change}]`.
pub fn memories_json(memories: &[Changed<'_>]) -> Vec<Value> {
    memories
        .iter()
        .map(|m| {
            json!({
                "name": m.name,
                "type": m.memory_type.map(MemoryType::as_str),
                "file": format!("{}.md", m.name),
                "change": m.change,
            })
        })
        .collect()
}
