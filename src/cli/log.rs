//! `memdir log`: the memory dir's history, newest first (DESIGN §4).

use crate::Error;
use crate::cli::style::{self, Painted};
use crate::cli::{Ctx, Output, short};
use crate::memory::age::{format_time, parse_since};

/// Show the history of every memory, or of one.
#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// Only commits about this memory.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::memory_names))]
    pub name: Option<String>,
    /// Only commits made on or after this date (`2026-03-05`) or time (RFC 3339).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Only commits of this operation (save, update, delete, adopt, rollback, restore, …).
    #[arg(long, add = clap_complete::ArgValueCandidates::new(crate::cli::completions::operations))]
    pub op: Option<String>,
    /// Only commits made for this Claude Code session.
    #[arg(long)]
    pub session: Option<String>,
    /// Print JSON: an array of {commit, op, type, name, session, time}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &LogArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let since = args
        .since
        .as_deref()
        .map(|since| {
            parse_since(since).ok_or_else(|| {
                Error::Usage(format!(
                    "--since {since:?} is neither a date (2026-03-05) nor an RFC 3339 time"
                ))
            })
        })
        .transpose()?;
    let resolved = ctx.resolve(output)?;
    let history = crate::repo::history_of(resolved.dir())?;
    let rows: Vec<_> = history
        .iter()
        .map(|e| (e, e.op_type_name()))
        .filter(|(e, parsed)| {
            args.name
                .as_ref()
                .is_none_or(|name| e.names().any(|n| n == name))
                && since.is_none_or(|since| e.time.0 >= since)
                && args
                    .op
                    .as_ref()
                    .is_none_or(|op| e.trailer("Op").or(parsed.map(|p| p.0)) == Some(op.as_str()))
                && args
                    .session
                    .as_ref()
                    .is_none_or(|s| e.trailer("Session") == Some(s.as_str()))
        })
        .collect();
    if args.json {
        let values = rows
            .iter()
            .map(|(e, parsed)| {
                serde_json::json!({
                    "commit": e.commit.to_string(),
                    "op": e.trailer("Op").or(parsed.map(|p| p.0)),
                    "type": parsed.map(|p| p.1),
                    "name": parsed.map(|p| p.2),
                    "session": e.trailer("Session"),
                    "time": format_time(e.time),
                })
            })
            .collect();
        return output.json(&serde_json::Value::Array(values));
    }
    if rows.is_empty() {
        let what = if history.is_empty() {
            "no history yet"
        } else {
            "no commit matches"
        };
        output.note(&format!("{what} in {}", resolved.dir().display()))?;
    }
    let mut text = Painted::new();
    for (e, _) in &rows {
        text.styled(style::COMMIT, &short(&e.commit))
            .plain(&format!(" {} {}", format_time(e.time), e.subject));
        if let Some(session) = e.trailer("Session") {
            text.styled(style::NOTE, &format!("  [session {session}]"));
        }
        text.plain("\n");
    }
    output.painted(&text)
}
