//! `memdir rollback REV`: go back to an earlier commit's files without rewriting history
//! (DESIGN §4); and the report every command that goes back prints (§14): what it adopted, each
//! memory it added, changed and removed, the versions it kept both of, and its commit.

use crate::Error;
use crate::cli::written::{Changed, written_json};
use crate::cli::{Ctx, Output, short, validate_session};
use crate::history::{MemoryChange, WentBack};
use crate::repo::MemoryRepo;

/// Make a new commit whose files are exactly those of an earlier commit.
#[derive(Debug, clap::Args)]
pub struct RollbackArgs {
    /// The commit to go back to (`HEAD~2`, an id or a prefix of one).
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::revisions))]
    pub rev: String,
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}], index_changed,
    /// conflicts, target}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &RollbackArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    let mut store = ctx.open_for_write(output)?;
    let target = store.repo.resolve_commit(&args.rev)?;
    let went = crate::history::rollback::rollback(&mut store, target, session)?;
    let extra = serde_json::json!({"target": target.to_string()});
    let headline = format!("rolled back to {}", short(&target));
    report(output, &store.repo, &went, &headline, args.json, extra)
}

/// The memories a change added, changed and removed, as every write names them.
fn changed(changes: &[MemoryChange]) -> Vec<Changed<'_>> {
    changes
        .iter()
        .map(|c| Changed {
            name: &c.name,
            memory_type: c.memory_type.as_deref().and_then(|t| t.parse().ok()),
            change: c.change.as_str(),
        })
        .collect()
}

/// The memories a change added, changed and removed, as JSON: `[{name, type, file, change}]`.
pub fn memories_json(changes: &[MemoryChange]) -> Vec<serde_json::Value> {
    crate::cli::written::memories_json(&changed(changes))
}

/// Tell what happened: the adoption first, then the headline, each memory changed and the new
/// commit (or that nothing changed). With `json`, what every write prints (`commits`: what it
/// adopted, then its own commit, none when nothing changed; `memories`: {name, type, file,
/// change}), and `index_changed`, `conflicts` ({file, kept_as}) and the fields of `extra`.
pub fn report(
    output: &mut Output<'_>,
    repo: &MemoryRepo,
    went: &WentBack,
    headline: &str,
    json: bool,
    extra: serde_json::Value,
) -> Result<(), Error> {
    if json {
        let mut value = written_json(repo, &went.adoption, went.commit, &changed(&went.changes))?;
        value["index_changed"] = went.index_changed.into();
        value["conflicts"] = went
            .conflicts
            .iter()
            .map(|c| serde_json::json!({"file": c.file, "kept_as": c.kept_as}))
            .collect();
        if let (Some(object), serde_json::Value::Object(extra)) = (value.as_object_mut(), extra) {
            object.extend(extra);
        }
        return output.json(&value);
    }
    output.adoption(&went.adoption)?;
    let Some(id) = went.commit else {
        return output.info("nothing to change: the memory dir already holds that");
    };
    output.info(headline)?;
    for change in &went.changes {
        output.info(&format!(
            "  {:<8} {} ({})",
            change.change.as_str(),
            change.file,
            change.memory_type.as_deref().unwrap_or("untyped")
        ))?;
    }
    if went.changes.is_empty() {
        output.info(if went.index_changed {
            "  changed  MEMORY.md (no memory changed)"
        } else {
            "  no file changed: what it takes back was changed since"
        })?;
    }
    for conflict in &went.conflicts {
        output.info(&format!(
            "  kept both versions of {}: it was changed since; the one taken back to is {}",
            conflict.file, conflict.kept_as
        ))?;
    }
    output.info(&format!("commit {}", short(&id)))
}
