//! `memdir team status`: ahead, behind, conflicts kept, last sync, without the network (the
//! library is [`crate::team::status`]).

use std::path::Path;

use crate::Error;
use crate::cli::Output;

pub fn run(dir: &Path, json: bool, output: &mut Output<'_>) -> Result<(), Error> {
    super::require(dir)?;
    let status = crate::team::status::status(dir)?;
    if json {
        return output.json(&serde_json::json!(status));
    }
    output.info(&format!(
        "team memory on {}: {} ahead, {} behind (as of the last fetch); last sync {}",
        status.branch,
        status.ahead,
        status.behind,
        status.last_sync.as_deref().unwrap_or("never")
    ))?;
    for conflict in &status.conflicts {
        let memory = crate::memory::taxonomy::conflict_copy_of(conflict).unwrap_or_default();
        output.warn(&format!(
            "{conflict} holds the other side of a conflict over {memory}.md: finish it with memdir team resolve {memory} --ours|--theirs|--edit"
        ))?;
    }
    Ok(())
}
