//! `memdir undo [--session ID]` and `memdir redo`: walk the operation log's undo stack (DESIGN
//! §14), each step a new commit that says what it changed.

use crate::Error;
use crate::cli::rollback::report;
use crate::cli::{Ctx, Output, short, validate_session};
use crate::history::oplog::Operation;
use crate::history::revert::Undone;

/// Take back the newest operation not yet undone; again, the one before it.
///
/// An operation is one command's commits: a save, a removal, an adoption, a whole extraction
/// run, a doctor --fix, a sync's merge, a revert, a rollback (`memdir op log` lists them). The
/// undo is itself a commit; `memdir redo` takes it back.
#[derive(Debug, clap::Args)]
pub struct UndoArgs {
    /// Take back every operation this Claude Code session made (and not yet undone), at once.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}], operations, …}.
    #[arg(long)]
    pub json: bool,
}

/// Bring back what the last undo took back.
#[derive(Debug, clap::Args)]
pub struct RedoArgs {
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}], operations, …}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &UndoArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    let mut store = ctx.open_for_write(output)?;
    let undone = crate::history::revert::undo(&mut store, session)?;
    let headline = listed("undid", &undone.operations);
    report(
        output,
        &store.repo,
        &undone.went,
        &headline,
        args.json,
        operations_json(&undone),
    )
}

pub fn run_redo(ctx: &Ctx, args: &RedoArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let mut store = ctx.open_for_write(output)?;
    let redone = crate::history::revert::redo(&mut store)?;
    let headline = listed("redid", &redone.operations);
    report(
        output,
        &store.repo,
        &redone.went,
        &headline,
        args.json,
        operations_json(&redone),
    )
}

/// `<verb> <description>` for one operation; for several, one such line each, with its id.
fn listed(verb: &str, ops: &[Operation]) -> String {
    match ops {
        [op] => format!("{verb} {}", op.description),
        ops => ops
            .iter()
            .map(|op| format!("{verb} {} {}", short(&op.id), op.description))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The operations an undo took back (or a redo brought back), for `--json`.
fn operations_json(done: &Undone) -> serde_json::Value {
    serde_json::json!({
        "operations": done.operations.iter().map(|op| serde_json::json!({
            "operation": op.id.to_string(),
            "kind": op.kind,
            "description": op.description,
            "session": op.session,
        })).collect::<Vec<_>>(),
    })
}
