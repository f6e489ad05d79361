//! `memdir rm`: remove memories, their index lines and topic files, in one commit.

use crate::Error;
use crate::cli::written::{Changed, written_json};
use crate::cli::{Ctx, Output, short, validate_session};

/// Remove one memory or several, in one commit (they stay in history: `memdir restore`).
///
/// All of them or, when one does not exist, none.
#[derive(Debug, clap::Args)]
pub struct RmArgs {
    /// The memories' names.
    #[arg(required = true, value_name = "NAME", add = clap_complete::ArgValueCandidates::new(crate::cli::completions::memory_names))]
    pub names: Vec<String>,
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}]}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &RmArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    for name in &args.names {
        crate::memory::taxonomy::validate_stored_name(name)
            .map_err(crate::memory::store::StoreError::from)?;
    }
    let names: Vec<&str> = args.names.iter().map(String::as_str).collect();
    let mut store = ctx.open_for_write(output)?;
    let removed = store.remove_all(&names, session)?;
    if args.json {
        let memories: Vec<Changed<'_>> = removed
            .removed
            .iter()
            .map(|(name, memory_type)| Changed {
                name,
                memory_type: *memory_type,
                change: "removed",
            })
            .collect();
        let value = written_json(&store.repo, &removed.adoption, [removed.commit], &memories)?;
        return output.json(&value);
    }
    output.adoption(&removed.adoption)?;
    for (name, _) in &removed.removed {
        output.info(&format!("removed {name} ({name}.md)"))?;
    }
    output.detail(&format!("commit {}", short(&removed.commit)))
}
