//! `memdir op log`: the operation log (DESIGN §14, after jj's `op log`), newest first, with
//! what `undo` and `redo` would take back.

use crate::Error;
use crate::cli::{Ctx, Output, short};
use crate::history::oplog::OpLog;
use crate::memory::age::format_time;
use crate::repo::MemoryRepo;
use crate::repo::message::author_name;

/// The operation log: what `undo` walks back through.
#[derive(Debug, clap::Args)]
pub struct OpArgs {
    #[command(subcommand)]
    pub command: OpCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum OpCommand {
    Log(OpLogArgs),
}

/// List the operations, newest first: each save, removal, adoption, extraction run, doctor
/// --fix, sync merge, revert, rollback, restore, undo and redo; undone ones are marked.
#[derive(Debug, clap::Args)]
pub struct OpLogArgs {
    /// At most this many (the newest).
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub limit: Option<usize>,
    /// Print JSON: an array of {operation, kind, description, commit, commits, session, time,
    /// author, undone, redone, undoes, redoes}.
    #[arg(long)]
    pub json: bool,
}

impl OpArgs {
    pub fn wants_json(&self) -> bool {
        match &self.command {
            OpCommand::Log(args) => args.json,
        }
    }
}

pub fn run(ctx: &Ctx, args: &OpArgs, output: &mut Output<'_>) -> Result<(), Error> {
    match &args.command {
        OpCommand::Log(args) => log(ctx, args, output),
    }
}

fn log(ctx: &Ctx, args: &OpLogArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let log = if crate::repo::has_repository(resolved.dir())? {
        crate::history::revert::op_log(&MemoryRepo::open(resolved.dir())?)?
    } else {
        OpLog::default()
    };
    let limit = args.limit.unwrap_or(usize::MAX);
    let newest = log.operations.iter().rev().take(limit);
    if args.json {
        let values = newest
            .map(|op| {
                serde_json::json!({
                    "operation": op.id.to_string(),
                    "kind": op.kind,
                    "description": op.description,
                    "commit": op.commits.last().map(|id| id.to_string()),
                    "commits": op.commits.iter().map(|id| id.to_string()).collect::<Vec<_>>(),
                    "session": op.session,
                    "time": format_time(op.time),
                    "author": op.author,
                    "undone": log.is_undone(op),
                    "redone": log.is_redone(op),
                    "undoes": op.undoes.iter().map(|id| id.to_string()).collect::<Vec<_>>(),
                    "redoes": op.redoes.map(|id| id.to_string()),
                })
            })
            .collect();
        return output.json(&serde_json::Value::Array(values));
    }
    let mut text = String::new();
    for op in newest {
        let author = author_name(&op.author);
        text.push_str(&format!(
            "{} {} {}",
            short(&op.id),
            format_time(op.time),
            op.description
        ));
        if op.commits.len() > 1 {
            text.push_str(&format!(" ({} commits)", op.commits.len()));
        }
        text.push_str(&format!("  by {author}"));
        if let Some(session) = &op.session {
            text.push_str(&format!("  [session {session}]"));
        }
        if log.is_undone(op) {
            text.push_str("  (undone)");
        } else if log.is_redone(op) {
            text.push_str("  (redone)");
        }
        text.push('\n');
    }
    output.data(&text)
}
