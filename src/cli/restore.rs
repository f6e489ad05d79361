//! `memdir restore NAME [--at REV]`: bring a memory back as history holds it (DESIGN §4).

use crate::Error;
use crate::cli::{Ctx, Output, short, validate_session};

/// Bring back a memory and its index line: a deleted one as it was just before it was
/// deleted, or any memory as it was in the commit `--at` names.
#[derive(Debug, clap::Args)]
pub struct RestoreArgs {
    /// The memory's name.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::deleted_names))]
    pub name: String,
    /// Restore it as it was in this commit instead (also a memory that exists).
    #[arg(long, value_name = "REV", add = clap_complete::ArgValueCandidates::new(crate::cli::completions::revisions))]
    pub at: Option<String>,
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}], source, …}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &RestoreArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    crate::memory::taxonomy::validate_name(&args.name)
        .map_err(crate::memory::store::StoreError::from)?;
    let mut store = ctx.open_for_write(output)?;
    let at = args
        .at
        .as_deref()
        .map(|rev| store.repo.resolve_commit(rev))
        .transpose()?;
    let went = crate::history::rollback::restore(&mut store, &args.name, at, session)?;
    let headline = match at {
        Some(at) => format!("restored {} as of {}", args.name, short(&at)),
        None => format!("restored {}", args.name),
    };
    let extra = serde_json::json!({"name": args.name, "source": at.map(|at| at.to_string())});
    crate::cli::rollback::report(output, &store.repo, &went, &headline, args.json, extra)
}
