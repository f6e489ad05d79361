//! `memdir index`: `MEMORY.md` exactly as Claude Code loads it (DESIGN §3).

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::memory::catalog::read_index_lossy;
use crate::memory::load::{invisible_entries, load_index_for_context, measure_index};
use crate::memory::store::INDEX_FILE;

/// Print the index as the model sees it: truncated, with Claude Code's warning.
#[derive(Debug, clap::Args)]
pub struct IndexArgs {
    /// Print JSON: {path, text, lines, characters, truncated, invisible}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &IndexArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let file = resolved.dir().join(INDEX_FILE);
    let mut problems = Vec::new();
    let raw = read_index_lossy(resolved.dir(), &mut problems)?;
    for problem in &problems {
        output.warn(&problem.to_string())?;
    }
    let loaded = load_index_for_context(&raw);
    if args.json {
        let size = measure_index(&raw);
        let invisible: Vec<String> = invisible_entries(&raw)
            .map(|e| e.file_name().to_string())
            .collect();
        return output.json(&serde_json::json!({
            "path": file,
            "text": loaded,
            "lines": size.lines,
            "characters": size.units,
            "truncated": loaded.len() != raw.trim().len() || !invisible.is_empty(),
            "invisible": invisible,
        }));
    }
    output.data(&loaded)
}
