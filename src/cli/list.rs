//! `memdir list`: the memories, in index order.

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::memory::catalog::list_memories;
use crate::memory::taxonomy::MemoryType;

/// List memories: type, name and description.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Only memories of this type.
    #[arg(long = "type", value_name = "TYPE", add = clap_complete::ArgValueCandidates::new(crate::cli::completions::types))]
    pub memory_type: Option<String>,
    /// Print JSON: an array of {name, type, description, title, file}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &ListArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let wanted: Option<MemoryType> = match &args.memory_type {
        Some(t) => Some(
            t.parse()
                .map_err(|e: crate::memory::taxonomy::UnknownType| Error::Usage(e.to_string()))?,
        ),
        None => None,
    };
    let resolved = ctx.resolve(output)?;
    // Ages come from history, not from a field someone must maintain (§9); read beside the
    // memories.
    let (history, listing) = std::thread::scope(|scope| {
        let history = scope.spawn(|| crate::repo::history_of(resolved.dir()));
        let listing = list_memories(resolved.dir());
        let history = history
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (history, listing)
    });
    let saved = crate::memory::age::last_saved(&history?);
    let listing = listing?;
    let now = chrono::Utc::now().timestamp();
    for problem in &listing.problems {
        output.warn(&problem.to_string())?;
    }
    let memories: Vec<_> = listing
        .memories
        .into_iter()
        .filter(|m| wanted.is_none() || m.memory_type == wanted)
        .collect();
    if args.json {
        return output.json(&serde_json::Value::Array(
            memories
                .iter()
                .map(|m| {
                    let mut value = m.to_json();
                    value["saved"] = saved
                        .get(&m.name)
                        .map(|t| crate::memory::age::format_time(*t))
                        .into();
                    value
                })
                .collect(),
        ));
    }
    if memories.is_empty() {
        let kind = wanted.map(|t| format!("{t} ")).unwrap_or_default();
        output.note(&format!(
            "no {kind}memories in {}",
            resolved.dir().display()
        ))?;
    }
    let mut text = String::new();
    for m in &memories {
        let kind = m.memory_type.map_or("untyped", MemoryType::as_str);
        let flag = if m.title.is_none() {
            "  (not in MEMORY.md)"
        } else {
            ""
        };
        let age = saved
            .get(&m.name)
            .map(|(t, _)| format!("  (saved {})", crate::memory::age::format_age(*t, now)))
            .unwrap_or_default();
        text.push_str(&format!(
            "{kind:<9} {:<24} {}{flag}{age}\n",
            m.name,
            m.description.as_deref().unwrap_or("")
        ));
    }
    output.data(&text)
}
