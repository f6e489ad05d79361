//! `memdir log`: the memory dir's history, newest first, every parent followed so that merged
//! work (a teammate's, another machine's) shows with its author (DESIGN §4, §14).

use crate::Error;
use crate::cli::style::{self, Painted};
use crate::cli::{Ctx, Output, short};
use crate::memory::age::{format_time, parse_since};
use crate::memory::diff::{changes, files_at};
use crate::memory::taxonomy::MemoryType;
use crate::repo::history_cache::first_parents;
use crate::repo::message::author_name;
use crate::repo::{HistoryEntry, MemoryRepo};

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
    /// Only commits whose author (`Name <email>`) holds this text, in any case.
    #[arg(long, value_name = "TEXT")]
    pub author: Option<String>,
    /// At most this many commits (the newest).
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub limit: Option<usize>,
    /// One short line per commit: its id and subject.
    #[arg(long, conflicts_with = "json")]
    pub oneline: bool,
    /// Show each commit's change as unified diffs (a merge's against its first parent).
    #[arg(short = 'p', long = "patch")]
    pub patch: bool,
    /// Only the commits made on this branch: a merge stands for what it brought in.
    #[arg(long)]
    pub first_parent: bool,
    /// Print JSON: an array of {commit, op, subject, type, name, names, session, time, author,
    /// parents} (type and name: the one memory it is about, else null; names: every memory it
    /// names; with -p, each with its diffs: [{file, status, diff}]).
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
    let repo = if crate::repo::has_repository(resolved.dir())? {
        Some(MemoryRepo::open(resolved.dir())?)
    } else {
        None
    };
    let history: Vec<HistoryEntry> = match &repo {
        None => Vec::new(),
        Some(repo) if args.first_parent => match repo.head_commit()? {
            Some(head) => first_parents(&repo.history_records()?, head)
                .into_iter()
                .rev()
                .map(|r| r.entry())
                .collect(),
            None => Vec::new(),
        },
        Some(repo) => repo.history()?,
    };
    let author = args.author.as_deref().map(str::to_lowercase);
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
                && author
                    .as_ref()
                    .is_none_or(|a| e.author.to_lowercase().contains(a.as_str()))
        })
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    let diffs = |e: &HistoryEntry| -> Result<Vec<(String, &'static str, String)>, Error> {
        let Some(repo) = &repo else {
            return Ok(Vec::new());
        };
        let before = files_at(repo, e.parents.first().copied())?;
        Ok(changes(&before, &files_at(repo, Some(e.commit))?))
    };
    if args.json {
        let mut values = Vec::with_capacity(rows.len());
        for (e, parsed) in &rows {
            // `type` and `name` are a memory's (ARCHITECTURE.md, "JSON field names"): null for a
            // commit about the index, a rollback's target or several memories at once.
            let names: Vec<&str> = e.names().collect();
            let mut value = serde_json::json!({
                "commit": e.commit.to_string(),
                "op": e.trailer("Op").or(parsed.map(|p| p.0)),
                "subject": e.subject,
                "type": e
                    .memory_subject()
                    .and_then(|(_, kind, _)| kind.parse::<MemoryType>().ok())
                    .map(MemoryType::as_str),
                "name": match names[..] {
                    [name] => Some(name),
                    _ => None,
                },
                "names": names,
                "session": e.trailer("Session"),
                "time": format_time(e.time),
                "author": e.author,
                "parents": e.parents.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            });
            if args.patch {
                value["diffs"] = diffs(e)?
                    .into_iter()
                    .map(|(file, status, diff)| {
                        serde_json::json!({"file": file, "status": status, "diff": diff})
                    })
                    .collect();
            }
            values.push(value);
        }
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
        text.styled(style::COMMIT, &short(&e.commit));
        if args.oneline {
            text.plain(&format!(" {}", e.subject));
        } else {
            text.plain(&format!(
                " {} {}  by {}",
                format_time(e.time),
                e.subject,
                author_name(&e.author)
            ));
            if let Some(session) = e.trailer("Session") {
                text.styled(style::NOTE, &format!("  [session {session}]"));
            }
        }
        text.plain("\n");
        if args.patch {
            for (_, _, diff) in diffs(e)? {
                text.append(style::paint_diff(&diff));
            }
            text.plain("\n");
        }
    }
    output.painted(&text)
}
