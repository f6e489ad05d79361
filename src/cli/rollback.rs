//! `memdir rollback REV` and `memdir undo`: go back without rewriting history (DESIGN §4).

use crate::Error;
use crate::cli::{Ctx, Output, short, validate_session};
use crate::memory::history::WentBack;

/// Make a new commit whose files are exactly those of an earlier commit.
#[derive(Debug, clap::Args)]
pub struct RollbackArgs {
    /// The commit to go back to (`HEAD~2`, an id or a prefix of one).
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::revisions))]
    pub rev: String,
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
}

/// Roll back the newest memdir commit (refused when it is not memdir's, or when changes are
/// pending).
#[derive(Debug, clap::Args)]
pub struct UndoArgs {
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
}

pub fn run(ctx: &Ctx, args: &RollbackArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    let mut store = ctx.open_for_write(output)?;
    let target = store.repo.resolve_commit(&args.rev)?;
    let went = store.rollback(target, session)?;
    report(output, &went, &format!("rolled back to {}", short(&target)))
}

pub fn run_undo(ctx: &Ctx, args: &UndoArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    let mut store = ctx.open_for_write(output)?;
    let went = store.undo(session)?;
    report(output, &went, "undone")
}

/// Tell what happened: the adoption first, then the new commit (or that nothing changed).
pub fn report(output: &mut Output<'_>, went: &WentBack, done: &str) -> Result<(), Error> {
    output.adoption(&went.adoption)?;
    match went.commit {
        Some(id) => {
            output.info(done)?;
            output.detail(&format!("commit {}", short(&id)))
        }
        None => output.info("nothing to change: the memory dir already holds that"),
    }
}
