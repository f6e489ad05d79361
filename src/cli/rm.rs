//! `memdir rm`: remove a memory's index line and topic file in one commit.

use crate::Error;
use crate::cli::{Ctx, Output, short, validate_session};

/// Remove a memory (it stays in history).
#[derive(Debug, clap::Args)]
pub struct RmArgs {
    /// The memory's name.
    pub name: String,
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
}

pub fn run(ctx: &Ctx, args: &RmArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    crate::memory::taxonomy::validate_stored_name(&args.name)
        .map_err(crate::memory::store::StoreError::from)?;
    let mut store = ctx.open_for_write(output)?;
    let removed = store.remove(&args.name, session)?;
    output.adoption(&removed.adoption)?;
    output.info(&format!("removed {} ({})", args.name, removed.file))?;
    output.detail(&format!("commit {}", short(&removed.commit)))
}
