//! `memdir log`: the memory dir's history, newest first (DESIGN §4).

use crate::Error;
use crate::cli::{Ctx, Output, short};
use crate::repo::HistoryEntry;

/// Show the history of every memory, or of one.
#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// Only commits about this memory.
    pub name: Option<String>,
    /// Only commits made on or after this date (`2026-03-05`) or time (RFC 3339).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Only commits of this operation (save, update, delete, adopt, rollback, restore, …).
    #[arg(long)]
    pub op: Option<String>,
    /// Only commits made for this Claude Code session.
    #[arg(long)]
    pub session: Option<String>,
    /// Print JSON: an array of {commit, op, type, name, session, time}.
    #[arg(long)]
    pub json: bool,
}

/// `--since` as seconds since the epoch: a date is its midnight UTC.
fn parse_since(text: &str) -> Result<i64, Error> {
    if let Ok(time) = chrono::DateTime::parse_from_rfc3339(text) {
        return Ok(time.timestamp());
    }
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc().timestamp())
        .ok_or_else(|| {
            Error::Usage(format!(
                "--since {text:?} is neither a date (2026-03-05) nor an RFC 3339 time"
            ))
        })
}

/// How long ago, in words: "just now", "5 minutes ago", "3 days ago", "2 years ago".
pub fn format_age(seconds: i64, now: i64) -> String {
    let ago = (now - seconds).max(0);
    let (n, unit) = match ago {
        0..60 => return "just now".to_string(),
        60..3_600 => (ago / 60, "minute"),
        3_600..86_400 => (ago / 3_600, "hour"),
        86_400..5_184_000 => (ago / 86_400, "day"),
        5_184_000..63_072_000 => (ago / 2_592_000, "month"),
        _ => (ago / 31_536_000, "year"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

/// When each memory was last committed, by name, from the history's subjects (newest wins).
pub fn last_saved(history: &[HistoryEntry]) -> std::collections::HashMap<String, (i64, i32)> {
    let mut out = std::collections::HashMap::new();
    for entry in history {
        if let Some((_, kind, name)) = entry.op_type_name()
            && kind != "index"
            && kind != "commit"
        {
            out.entry(name.to_string()).or_insert(entry.time);
        }
    }
    out
}

/// RFC 3339 in the committer's own offset.
pub fn format_time((seconds, offset): (i64, i32)) -> String {
    chrono::FixedOffset::east_opt(offset)
        .and_then(|tz| chrono::DateTime::from_timestamp(seconds, 0).map(|t| t.with_timezone(&tz)))
        .map_or_else(|| seconds.to_string(), |t| t.to_rfc3339())
}

pub fn run(ctx: &Ctx, args: &LogArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let since = args.since.as_deref().map(parse_since).transpose()?;
    let resolved = ctx.resolve(output)?;
    let history = crate::repo::history_of(resolved.dir())?;
    let rows: Vec<_> = history
        .iter()
        .map(|e| (e, e.op_type_name()))
        .filter(|(e, parsed)| {
            args.name
                .as_ref()
                .is_none_or(|name| parsed.is_some_and(|(_, _, n)| n == name))
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
    let mut text = String::new();
    for (e, _) in &rows {
        text.push_str(&format!(
            "{} {} {}",
            short(&e.commit),
            format_time(e.time),
            e.subject
        ));
        if let Some(session) = e.trailer("Session") {
            text.push_str(&format!("  [session {session}]"));
        }
        text.push('\n');
    }
    output.data(&text)
}
