//! `memdir consolidate`: memory kept small, current and true, as a branch of the memory
//! repository a person looks at and merges (DESIGN §7). `--apply` merges it at once, as one
//! commit `memdir undo` takes back; with `--team`, the team memory's branch is pushed to the
//! team remote for review. The background run a session's end starts (when the person opted
//! in with `memdir.consolidate`) and the line the next session starts with are here too.

use std::path::Path;
use std::time::Duration;

use chrono::NaiveDate;

use crate::Error;
use crate::cli::rollback::memories_json;
use crate::cli::written::commit_json;
use crate::cli::{Ctx, HookPayload, Output, Resolved, short};
use crate::extract::agent::{AgentConfig, ModelChoice};
use crate::memory::store::Store;
use crate::repo::MemoryRepo;
use crate::review::consolidate::agent::{Consolidator, proposal};
use crate::review::consolidate::background::{Background, Ready};
use crate::review::consolidate::branch::{Outcome, Prepared, prepare};
use crate::review::consolidate::{ConsolidateError, Findings, Memory, Proposal};

/// Propose a consolidation of memory as a branch to look at and merge: duplicates merged
/// (every distinct detail kept), expired time-bound memories dropped, contradicted values
/// replaced by the newer, relative dates made absolute, and MEMORY.md kept well under Claude
/// Code's load limits; one commit per kind of change on `memdir/consolidate/<date>`.
///
/// HEAD, the index and the work tree are not touched: `memdir diff HEAD <branch>` shows the
/// change, `memdir consolidate --apply` (or `git merge --no-ff <branch>`) applies it.
/// `MEMDIR_TODAY=YYYY-MM-DD` fixes today's date.
#[derive(Debug, clap::Args)]
pub struct ConsolidateArgs {
    /// Merge the consolidation now, as one commit on the memory dir's branch that `memdir
    /// undo` takes back.
    #[arg(long)]
    pub apply: bool,
    /// Print JSON: {branch, outcome, target_branch, base, commits: [{commit, op, subject,
    /// session, time, author, kind, changes: [{kind, name, merged, removed, reason}]}],
    /// memories: [{name, type, file, change}],
    /// changed, refused, consolidator, model, model_calls, cost_usd, fallback, unseen,
    /// left_out, commit (the merge, with --apply), applied, pushed, commands}.
    #[arg(long)]
    pub json: bool,
    /// Who proposes the changes: auto (a model when one answers, else the builtin rules), agent
    /// (the model only: fails without one) or builtin (the rules: offline, deterministic,
    /// free). memdir checks every change either way.
    #[arg(long, value_name = "NAME", default_value = "auto", value_parser = ["auto", "agent", "builtin"])]
    pub consolidator: String,
    /// The model as a command, run with `sh -c` and spoken to in JSON (memdir-consolidate/1,
    /// in the README) [default: Claude Code, run as `claude -p` with memdir.extract.model].
    #[arg(long, value_name = "CMD")]
    pub agent_cmd: Option<String>,
    /// The model's time limit per call, in seconds (at most 3600, an hour).
    #[arg(long, value_name = "S", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub agent_timeout: u64,
    /// The background run a session's end starts: prepare the branch, keep it for the next
    /// session's notice, print nothing (`.git/memdir/consolidate.log` says what it did).
    #[arg(long, hide = true, conflicts_with_all = ["apply", "json"])]
    pub background: bool,
}

impl ConsolidateArgs {
    /// Who proposes, with the model as extraction finds it (`claude` on `PATH` running
    /// `claude_model`, or the command).
    fn consolidator(&self, claude_model: &str) -> Result<Consolidator, Error> {
        let choice = match &self.agent_cmd {
            Some(cmd) if cmd.trim().is_empty() => {
                return Err(Error::Usage("--agent-cmd is empty".into()));
            }
            Some(_) if self.consolidator == "builtin" => {
                return Err(Error::Usage(
                    "--agent-cmd names the model, which --consolidator builtin does not use".into(),
                ));
            }
            Some(cmd) => ModelChoice::Command(cmd.clone()),
            None => ModelChoice::ClaudeCode,
        };
        if self.consolidator == "builtin" {
            return Ok(Consolidator::Builtin);
        }
        let time_limit = Duration::from_secs(self.agent_timeout);
        let config = AgentConfig {
            model: choice,
            turn_timeout: time_limit,
            max_turns: 1,
        };
        Ok(Consolidator::Model {
            model: config.model(claude_model),
            time_limit,
            fall_back: self.consolidator == "auto",
        })
    }
}

pub fn run(ctx: &Ctx, args: &ConsolidateArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let today = ctx.env.today()?;
    let dir = resolved.dir().to_path_buf();
    let consolidator = args.consolidator(&resolved.extract_model)?;
    let propose = |memories: &[Memory], findings: &Findings| {
        proposal(&consolidator, memories, findings, today, &dir)
    };
    if args.background {
        background(&dir, today, propose);
        return Ok(());
    }
    if args.apply {
        // What an agent wrote meanwhile is committed first, as its own change; the store is
        // not held while the consolidation is prepared (a model may take minutes), and the
        // merge refuses a branch not made on HEAD.
        let adoption = Store::open(&dir)?.adopt(None)?;
        output.adoption(&adoption)?;
        let prepared = prepare(&dir, today, propose)?;
        let applied = match prepared.tip() {
            Some(tip) => Some(Store::open(&dir)?.merge_branch(tip, &apply_message(&prepared))?),
            None => None,
        };
        forget_ready(&dir);
        return report(ctx, &dir, &prepared, applied, None, args.json, output);
    }
    let prepared = prepare(&dir, today, propose)?;
    let pushed = match prepared.outcome {
        Outcome::Nothing => None,
        _ if ctx.global.team => Some(push(&dir, &prepared.branch)?),
        _ => None,
    };
    report(ctx, &dir, &prepared, None, pushed, args.json, output)
}

/// Team memory's branch, pushed to the team remote for review (never forced); whether it was
/// (a push the remote refused because its branch moved is said, not failed).
fn push(dir: &Path, branch: &str) -> Result<bool, Error> {
    let remote = crate::team::sync::team_remote();
    let local = format!("refs/heads/{branch}");
    match crate::sync::transport::push(dir, &remote, &local, branch, None)? {
        crate::sync::transport::Pushed::Done(_) => Ok(true),
        crate::sync::transport::Pushed::Rejected => Ok(false),
    }
}

/// The merge commit's message: the branch, a line per step, the trailers.
fn apply_message(prepared: &Prepared) -> String {
    let mut message = format!(
        "consolidate: merge {} into {}\n\n",
        prepared.branch, prepared.target_branch
    );
    for step in &prepared.steps {
        message.push_str(&format!(
            "- {} ({})\n",
            step.kind.title(),
            step.changes.len()
        ));
    }
    message.push_str(&format!(
        "\nMemdir-Op: consolidate\nMemdir-Branch: {}\n",
        prepared.branch
    ));
    message
}

/// The commands that look at and apply the branch.
fn commands(ctx: &Ctx, prepared: &Prepared) -> (String, String) {
    let team = if ctx.global.team { " --team" } else { "" };
    (
        format!("memdir{team} diff HEAD {}", prepared.branch),
        format!("memdir{team} consolidate --apply"),
    )
}

fn report(
    ctx: &Ctx,
    dir: &Path,
    prepared: &Prepared,
    applied: Option<gix::ObjectId>,
    pushed: Option<bool>,
    json: bool,
    output: &mut Output<'_>,
) -> Result<(), Error> {
    for (what, why) in &prepared.refused {
        output.warn(&format!("refused {what}: {why}"))?;
    }
    if !prepared.left_out.is_empty() {
        output.warn(&format!(
            "left out, untyped or unreadable (memdir doctor says why): {}",
            prepared.left_out.join(", ")
        ))?;
    }
    let (diff, apply) = commands(ctx, prepared);
    if json {
        let memories = match prepared.tip() {
            Some(tip) => {
                let repo = MemoryRepo::open(dir)?;
                let (base, tip) = (repo.commit_tree(prepared.base)?, repo.commit_tree(tip)?);
                crate::history::changes_between(&repo, &base, &tip)?.0
            }
            None => Vec::new(),
        };
        let mut value = to_json(prepared, applied, pushed, &diff, &apply);
        // Each commit of the branch as every commit shows in JSON (its op, subject, time and
        // author), with the kind of change it holds.
        if let Some(items) = value["commits"].as_array_mut()
            && !prepared.commits.is_empty()
        {
            let repo = MemoryRepo::open(dir)?;
            for (item, id) in items.iter_mut().zip(&prepared.commits) {
                if let (Some(item), serde_json::Value::Object(commit)) =
                    (item.as_object_mut(), commit_json(&repo.history_entry(*id)?))
                {
                    item.extend(commit);
                }
            }
        }
        if let Some(object) = value.as_object_mut() {
            object.insert("commit".into(), applied.map(|c| c.to_string()).into());
            object.insert("memories".into(), memories_json(&memories).into());
        }
        return output.json(&value);
    }
    let by = format!("Consolidator: {}.", prepared.proposed.by_line());
    if prepared.outcome == Outcome::Nothing {
        output.info(
            "Nothing to consolidate: no duplicates, contradictions, expired memories or relative dates, and MEMORY.md is within its limits.",
        )?;
        return output.info(&by);
    }
    let verb = match prepared.outcome {
        Outcome::Created => "Prepared",
        Outcome::Updated => "Prepared again",
        _ => "Already prepared",
    };
    let mut text = format!(
        "{verb}: branch {}, {} commit{} on {} ({}):\n",
        prepared.branch,
        prepared.commits.len(),
        if prepared.commits.len() == 1 { "" } else { "s" },
        prepared.target_branch,
        short(&prepared.base)
    );
    for step in &prepared.steps {
        text.push_str(&format!(
            "  {} ({})\n",
            step.kind.title(),
            step.changes.len()
        ));
        for change in &step.changes {
            text.push_str(&format!("    {}: {}\n", change.name, change.reason));
        }
    }
    match (applied, pushed) {
        (Some(commit), _) => text.push_str(&format!(
            "Applied: commit {} merges it into {}; `memdir undo` takes it back.\n",
            short(&commit),
            prepared.target_branch
        )),
        (None, Some(false)) => text.push_str(&format!(
            "The team remote's {} moved meanwhile: it was not pushed (merge or delete it there, then run this again).\nLook at it:  {diff}\nApply it:    {apply}\n",
            prepared.branch
        )),
        (None, pushed) => {
            if pushed == Some(true) {
                text.push_str(&format!(
                    "Pushed to the team remote as {}, for review there.\n",
                    prepared.branch
                ));
            }
            text.push_str(&format!(
                "Look at it:  {diff}\nApply it:    {apply}  (or: git -C {} merge --no-ff {})\nNothing in the memory dir changed.\n",
                crate::shell::quote(&dir.display().to_string()),
                prepared.branch
            ));
        }
    }
    text.push_str(&by);
    text.push('\n');
    output.data(&text)
}

fn to_json(
    prepared: &Prepared,
    applied: Option<gix::ObjectId>,
    pushed: Option<bool>,
    diff: &str,
    apply: &str,
) -> serde_json::Value {
    let commits: Vec<serde_json::Value> = prepared
        .steps
        .iter()
        .zip(&prepared.commits)
        .map(|(step, commit)| {
            serde_json::json!({
                "commit": commit.to_string(),
                "kind": step.kind,
                "changes": step.changes,
            })
        })
        .collect();
    let mut changed: Vec<&str> = prepared
        .steps
        .iter()
        .flat_map(|s| &s.changes)
        .flat_map(|c| std::iter::once(c.name.as_str()).chain(c.removed.iter().map(String::as_str)))
        .filter(|name| *name != crate::memory::taxonomy::INDEX_FILE)
        .collect();
    changed.sort_unstable();
    changed.dedup();
    let refused: Vec<serde_json::Value> = prepared
        .refused
        .iter()
        .map(|(what, why)| serde_json::json!({"what": what, "why": why.to_string()}))
        .collect();
    serde_json::json!({
        "branch": (prepared.outcome != Outcome::Nothing).then_some(&prepared.branch),
        "outcome": prepared.outcome.as_str(),
        "target_branch": prepared.target_branch,
        "base": prepared.base.to_string(),
        "commits": commits,
        "changed": changed,
        "refused": refused,
        "consolidator": if prepared.proposed.model.is_some() { "agent" } else { "builtin" },
        "model": prepared.proposed.model,
        "model_calls": prepared.proposed.calls,
        "cost_usd": prepared.proposed.cost_usd,
        "fallback": prepared.proposed.fallback,
        "unseen": prepared.proposed.unseen,
        "left_out": prepared.left_out,
        "applied": applied.map(|c| serde_json::json!({"commit": c.to_string()})),
        "pushed": pushed,
        "commands": (prepared.outcome != Outcome::Nothing)
            .then(|| serde_json::json!({"diff": diff, "apply": apply})),
    })
}

/// The background run: prepare the branch (again, should an extraction commit meanwhile),
/// keep it for the next session's notice, log what happened. Never prints.
fn background(
    dir: &Path,
    today: NaiveDate,
    propose: impl Fn(&[Memory], &Findings) -> Result<Proposal, ConsolidateError> + Copy,
) {
    let log = dir.join(".git").join("memdir").join("consolidate.log");
    let mut result = prepare(dir, today, propose);
    for _ in 0..3 {
        if !matches!(result, Err(ConsolidateError::Moved)) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_secs(5));
        result = prepare(dir, today, propose);
    }
    let now = chrono::Utc::now().timestamp();
    let mut state = Background::load(dir);
    let line = match &result {
        Ok(prepared) => {
            let ready = prepared.tip().map(|tip| Ready {
                branch: prepared.branch.clone(),
                commit: tip.to_string(),
                base: prepared.base.to_string(),
                changes: prepared
                    .steps
                    .iter()
                    .map(|s| (s.kind.as_str().to_string(), s.changes.len()))
                    .collect(),
            });
            let line = match &ready {
                Some(ready) => format!("prepared {} at {}", ready.branch, ready.commit),
                None => "nothing to consolidate".to_string(),
            };
            let line = format!("{line}; consolidator {}", prepared.proposed.by_line());
            state.ran(now, ready);
            line
        }
        Err(e) => {
            // Counted as a run: a store that fails is tried again after the next wait, not at
            // every session's end.
            state.ran(now, state.ready.clone());
            format!("consolidation failed: {e}")
        }
    };
    if let Err(e) = state.save(dir) {
        crate::log_file::append(
            &log,
            &format!("could not keep the consolidation's state: {e}"),
        );
    }
    crate::log_file::append(&log, &line);
}

/// The ready consolidation is applied or stale: the next session need not hear of it.
fn forget_ready(dir: &Path) {
    let mut state = Background::load(dir);
    if state.ready.take().is_some() {
        // A record that cannot be written costs a stale notice, which checks the branch anyway.
        let _ = state.save(dir);
    }
}

/// A session ended (the SessionEnd hook): count it and, when the person opted in and enough
/// sessions and hours passed, start the background run, detached.
pub fn session_ended(ctx: &Ctx, resolved: &Resolved, payload: &HookPayload) -> Result<(), Error> {
    let (Some(every), Some(session)) = (resolved.consolidate, payload.session_id.as_deref()) else {
        return Ok(());
    };
    let dir = resolved.dir();
    if !crate::repo::has_repository(dir)? {
        return Ok(());
    }
    let mut state = Background::load(dir);
    let due = state.session_ended(session, chrono::Utc::now().timestamp(), every);
    state.save(dir)?;
    if !due {
        return Ok(());
    }
    let log = dir.join(".git").join("memdir").join("consolidate.log");
    let args: [std::ffi::OsString; 6] = [
        "consolidate".into(),
        "--background".into(),
        "--memory-dir".into(),
        dir.into(),
        "--project".into(),
        ctx.project().into(),
    ];
    let started =
        crate::log_file::open(&log).and_then(|file| crate::process::spawn_detached(args, file));
    if let Err(e) = started {
        crate::log_file::append(&log, &format!("could not start memdir consolidate: {e}"));
    }
    Ok(())
}

/// The line a session starts with when a background consolidation is ready and neither applied
/// nor merged, with its record label (once per session).
pub fn ready_notice(dir: &Path) -> Result<Option<(String, String)>, Error> {
    let Some(ready) = Background::load(dir).ready else {
        return Ok(None);
    };
    let repo = MemoryRepo::open(dir)?;
    let tip = repo.ref_commit(&format!("refs/heads/{}", ready.branch))?;
    let Some(head) = repo.head_commit()? else {
        return Ok(None);
    };
    let waiting = match tip {
        Some(tip) => {
            gix::ObjectId::from_hex(ready.commit.as_bytes()).ok() == Some(tip)
                && !repo.is_ancestor(tip, head)?
        }
        None => false,
    };
    Ok(waiting.then(|| (ready.notice(), format!("consolidate:{}", ready.commit))))
}
