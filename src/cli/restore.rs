//! `memdir restore NAME [--at REV]`: bring a deleted memory back from history (DESIGN §4).

use crate::Error;
use crate::cli::{Ctx, Output, validate_session};

/// Bring back a deleted memory and its index line, as they were just before it was deleted.
#[derive(Debug, clap::Args)]
pub struct RestoreArgs {
    /// The memory's name.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::deleted_names))]
    pub name: String,
    /// Restore it as it was in this commit instead.
    #[arg(long, value_name = "REV", add = clap_complete::ArgValueCandidates::new(crate::cli::completions::revisions))]
    pub at: Option<String>,
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
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
    let went = store.restore(&args.name, at, session)?;
    crate::cli::rollback::report(output, &went, &format!("restored {}", args.name))
}
