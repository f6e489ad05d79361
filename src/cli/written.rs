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
    /// `saved`, `updated`, `unchanged`, `removed`, `restored`.
    pub change: &'static str,
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
    })
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
    let memories: Vec<Value> = memories
        .iter()
        .map(|m| {
            json!({
                "name": m.name,
                "type": m.memory_type.map(MemoryType::as_str),
                "file": format!("{}.md", m.name),
                "change": m.change,
            })
        })
        .collect();
    Ok(json!({ "commits": commits, "memories": memories }))
}
