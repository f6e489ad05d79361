//! `memdir search`: the memories, personal and team, that speak to a query, best first
//! (DESIGN §12).

use std::path::Path;

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::memory::age::{format_age, format_time};
use crate::memory::taxonomy::MemoryType;
use crate::recall::inject::Limits;
use crate::recall::{Corpus, Found, Scope};

/// Search memories by what they say: name, title, description and body, in English or Chinese.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// What to look for (several words are one query).
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    /// Show at most N memories.
    #[arg(
        short = 'n',
        long = "limit",
        value_name = "N",
        default_value_t = 5,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub limit: usize,
    /// Also search history: older versions and deleted memories, each with the commit to
    /// `show NAME --at` or `restore NAME --at`.
    #[arg(long)]
    pub history: bool,
    /// Print JSON: an array of {name, type, description, title, file, scope, state (current,
    /// older or deleted), commit (for a version from history), score, coverage, fit (the score's
    /// share of the most the query allows), confidence, tier (body or line: what the prompt hook
    /// could add it as; null for neither), relevant (it has a tier), saved}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &SearchArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    // With the global `--team`, the resolved dir is team memory, and only it is searched;
    // without, the personal memory dir and its `team/` folder.
    let team_dir = crate::paths::team_dir(resolved.dir());
    let sources: Vec<(Scope, &Path)> = if ctx.global.team {
        vec![(Scope::Team, resolved.dir())]
    } else {
        vec![(Scope::Personal, resolved.dir()), (Scope::Team, &team_dir)]
    };
    let corpus = if args.history {
        Corpus::read_with_history(&sources)?
    } else {
        Corpus::read(&sources)?
    };
    for problem in &corpus.problems {
        output.warn(&problem.to_string())?;
    }
    let query = args.query.join(" ");
    let bar = Limits::from(&resolved.recall_limits).bar;
    let found = corpus.search(&query, args.limit, &bar);
    let saved = crate::recall::saved_times(&sources)?;
    // A version from history was saved by the commit that holds it; one that is current, by
    // the last commit that saved its name.
    let saved = |f: &Found<'_>| match f.past {
        Some(past) => Some(past.time),
        None => saved
            .get(&f.scope)
            .and_then(|s| s.get(&f.memory.name))
            .copied(),
    };
    // grep's answer: no hit is exit 1, said on a terminal.
    let no_hit = || {
        let searched = if args.history {
            "memory or its history"
        } else {
            "memory"
        };
        Error::Verdict(format!(
            "no {searched} in {} matches {query:?}",
            resolved.dir().display()
        ))
    };
    if args.json {
        output.json(&serde_json::Value::Array(
            found
                .iter()
                .map(|f| {
                    let mut value = f.memory.to_json();
                    value["scope"] = f.scope.as_str().into();
                    value["state"] = state(f).into();
                    value["commit"] = f.past.map(|p| p.commit.to_string()).into();
                    value["score"] = f64::from(f.score).into();
                    value["coverage"] = f64::from(f.coverage).into();
                    value["fit"] = f64::from(f.fit).into();
                    value["confidence"] = f64::from(f.grade.confidence).into();
                    value["tier"] = f.grade.tier.ok().map(|t| t.as_str()).into();
                    value["relevant"] = f.grade.tier.is_ok().into();
                    value["saved"] = saved(f).map(format_time).into();
                    value
                })
                .collect(),
        ))?;
        return if found.is_empty() {
            Err(no_hit())
        } else {
            Ok(())
        };
    }
    if found.is_empty() {
        let no_hit = no_hit();
        output.note(&no_hit.to_string())?;
        return Err(no_hit);
    }
    let now = chrono::Utc::now().timestamp();
    let mut text = String::new();
    for f in &found {
        let m = f.memory;
        let kind = m.memory_type.map_or("untyped", MemoryType::as_str);
        let mut notes = Vec::new();
        if f.scope == Scope::Team {
            notes.push("team".to_string());
        }
        if let Some((t, _)) = saved(f) {
            notes.push(format!("saved {}", format_age(t, now)));
        }
        if let Some(past) = f.past {
            let at = past.commit.to_hex_with_len(7);
            notes.push(if past.deleted {
                format!("deleted; memdir restore {} --at {at}", m.name)
            } else {
                format!("an older version; memdir show {} --at {at}", m.name)
            });
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!("  ({})", notes.join(", "))
        };
        text.push_str(&format!(
            "{kind:<9} {:<24} {}{notes}\n",
            m.name,
            m.description.as_deref().unwrap_or("")
        ));
    }
    output.data(&text)
}

/// Whether a hit is the memory as it is now, an older version of it, or a deleted memory.
fn state(found: &Found<'_>) -> &'static str {
    match found.past {
        None => "current",
        Some(past) if past.deleted => "deleted",
        Some(_) => "older",
    }
}
