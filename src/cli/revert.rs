//! `memdir revert COMMIT`: take back one commit's change, three ways with what changed since
//! (DESIGN §14).

use crate::Error;
use crate::cli::{Ctx, Output, short, validate_session};

/// Take back the change one commit made, as a new commit; what changed after it stays.
///
/// Each memory is merged three ways: a memory changed since in the same place keeps both
/// versions (the one taken back to as NAME.conflict-ID.md). A merge (a sync) is taken back to
/// what this branch had before it.
#[derive(Debug, clap::Args)]
pub struct RevertArgs {
    /// The commit (an id or a prefix of one from `memdir log`, `HEAD~2`).
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::revisions))]
    pub commit: String,
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}], reverted, …}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &RevertArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    let mut store = ctx.open_for_write(output)?;
    let commit = store.repo.resolve_commit(&args.commit)?;
    let subject = store.repo.subject(commit)?;
    let went = crate::history::revert::revert(&mut store, commit, session)?;
    let headline = format!("reverted {} {subject}", short(&commit));
    let extra = serde_json::json!({"reverted": commit.to_string()});
    crate::cli::rollback::report(output, &store.repo, &went, &headline, args.json, extra)
}
