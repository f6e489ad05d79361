//! `memdir log`: the memory dir's history, newest first (DESIGN §4).

use crate::Error;
use crate::cli::{Ctx, Output, short};
use crate::repo::{HistoryEntry, MemoryRepo};

/// Show the history of every memory, or of one.
#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// Only commits about this memory.
    pub name: Option<String>,
    /// Print JSON: an array of {commit, op, type, name, session, time}.
    #[arg(long)]
    pub json: bool,
}

/// `op(type): name` split apart; `None` for a subject memdir did not write.
fn parse_subject(subject: &str) -> Option<(&str, &str, &str)> {
    let (head, name) = subject.split_once("): ")?;
    let (op, kind) = head.split_once('(')?;
    Some((op, kind, name))
}

fn trailer<'a>(entry: &'a HistoryEntry, key: &str) -> Option<&'a str> {
    entry
        .trailers
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// RFC 3339 in the committer's own offset.
fn format_time((seconds, offset): (i64, i32)) -> String {
    chrono::FixedOffset::east_opt(offset)
        .and_then(|tz| chrono::DateTime::from_timestamp(seconds, 0).map(|t| t.with_timezone(&tz)))
        .map_or_else(|| seconds.to_string(), |t| t.to_rfc3339())
}

pub fn run(ctx: &Ctx, args: &LogArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let history = if resolved.dir().join(".git").is_dir() {
        MemoryRepo::open(resolved.dir())?.history()?
    } else {
        Vec::new()
    };
    let rows: Vec<_> = history
        .iter()
        .map(|e| (e, parse_subject(&e.subject)))
        .filter(|(_, parsed)| match &args.name {
            Some(name) => parsed.is_some_and(|(_, _, n)| n == name),
            None => true,
        })
        .collect();
    if args.json {
        let values = rows
            .iter()
            .map(|(e, parsed)| {
                serde_json::json!({
                    "commit": e.commit.to_string(),
                    "op": trailer(e, "Op").or(parsed.map(|p| p.0)),
                    "type": parsed.map(|p| p.1),
                    "name": parsed.map(|p| p.2),
                    "session": trailer(e, "Session"),
                    "time": format_time(e.time),
                })
            })
            .collect();
        return output.json(&serde_json::Value::Array(values));
    }
    let mut text = String::new();
    for (e, _) in &rows {
        text.push_str(&format!(
            "{} {} {}",
            short(&e.commit),
            format_time(e.time),
            e.subject
        ));
        if let Some(session) = trailer(e, "Session") {
            text.push_str(&format!("  [session {session}]"));
        }
        text.push('\n');
    }
    output.data(&text)
}
