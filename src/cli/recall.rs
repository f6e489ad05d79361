//! `memdir recall`: what the hooks add to a session (DESIGN §12): at SessionStart, the team
//! memory index; at UserPromptSubmit, the memories, personal and team, that clear the bar for
//! the prompt and were not added earlier in the session the same way, in two tiers (a body, a
//! line); and, asked by a person, why each candidate was or was not added.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::Error;
use crate::cli::{Ctx, HookPayload, Output, hook_mode};
use crate::memory::age::{format_age, format_time};
use crate::memory::catalog::read_index_lossy;
use crate::memory::index::Index;
use crate::memory::load::{invisible_entries, shorten_str};
use crate::recall::bar::{DEFAULT_SENSITIVITY, MAX_WEIGHED};
use crate::recall::inject::{
    Held, Limits, Outcome, Recalled, TEAM_INDEX_LABEL, claude_code_loads, for_prompt, forget, hold,
    label, record_path, team_index,
};
use crate::recall::{Corpus, Scope};
use crate::review::verify::{Status, read_cache};

/// Show what recall adds to a prompt: the memories it clearly needs with their body (at most 3),
/// those that plausibly help as one line each, at most 5 memories and 4 KB in all; with -v or
/// --json, every memory that matched, with its score and how it was added or why it was not.
#[derive(Debug, clap::Args)]
pub struct RecallArgs {
    /// The prompt (several words are one prompt).
    #[arg(
        value_name = "PROMPT",
        required_unless_present = "hook",
        conflicts_with = "hook"
    )]
    pub prompt: Vec<String>,
    /// Read a hook payload on stdin and answer with additional context: for UserPromptSubmit
    /// (cwd, session_id, prompt), the memories for the prompt, each at most once per session as
    /// a body and once as a line, nothing when none clears the bar; for SessionStart (cwd,
    /// session_id, source), the team memory index, once per session (again after /clear or a
    /// compaction).
    #[arg(long)]
    pub hook: bool,
    /// Print JSON: {text (what the hook would add, or null), limits {memories, bodies, bytes,
    /// sensitivity, bar {body, line}}, candidates: every memory that matched, best first, as
    /// {name, type, description, title, file, path, scope, saved, score, fit, share_of_top,
    /// phrase, confidence, tier (body, line, or null when left out), reason (why it was left
    /// out, or went in as a line though it cleared the bar for a body)}}.
    #[arg(long, conflicts_with = "hook")]
    pub json: bool,
}

/// What a recall is for: the hook's answer, or a person's look at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    Hook,
    Text,
    Json,
}

pub fn run(ctx: &Ctx, args: &RecallArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if args.hook {
        return hook_mode::run(ctx, "recall --hook", output, |ctx, payload, output| {
            let mut notice = None;
            let (event, text) = match payload.hook_event_name.as_deref() {
                Some("SessionStart") => (
                    "SessionStart",
                    session_start(ctx, &payload, &mut notice, output)?,
                ),
                _ => {
                    let Some(prompt) = payload.prompt.as_deref() else {
                        return Err(Error::Usage("the payload has no prompt".into()));
                    };
                    let session = payload.session_id.as_deref();
                    (
                        "UserPromptSubmit",
                        recall(ctx, prompt, session, Asked::Hook, output)?,
                    )
                }
            };
            let Some(text) = text else {
                return Ok(());
            };
            // Memories are text others wrote (a teammate, an agent): they must not pass for the
            // harness's own tags, as Claude Code makes sure of for the memory index it loads.
            let text = crate::stack::neutralize::neutralize_tags(&text);
            let mut answer = serde_json::json!({
                "hookSpecificOutput": {
                    "hookEventName": event,
                    "additionalContext": text,
                }
            });
            // Shown to the person, not only to the model.
            if let Some(notice) = notice {
                answer["systemMessage"] = notice.into();
            }
            output.json(&answer)
        });
    }
    let asked = if args.json { Asked::Json } else { Asked::Text };
    recall(ctx, &args.prompt.join(" "), None, asked, output)?;
    Ok(())
}

/// The record of what recall added to `session`, when the memory dir has a repository
/// (`has_repository`) and the session id is a plain file name.
fn session_record(dir: &Path, has_repository: bool, session: Option<&str>) -> Option<PathBuf> {
    record_path(&dir.join(".git"), session.filter(|_| has_repository)?)
}

/// The session's record held for this hook (when it has one), and what it says was added.
fn held(record: Option<&Path>) -> (Option<Held>, HashSet<String>) {
    let mut held = record.map(hold);
    let already = held
        .as_mut()
        .map(|h| std::mem::take(&mut h.already))
        .unwrap_or_default();
    (held, already)
}

/// Add `labels` to a session's record; a record that cannot be written costs a repeat later,
/// not this answer.
fn note_added(
    record: Option<&mut Held>,
    labels: &[String],
    output: &mut Output<'_>,
) -> Result<(), Error> {
    if let Some(held) = record
        && let Err(e) = held.add(labels)
    {
        output.warn(&format!("{}: {e}", held.path().display()))?;
    }
    Ok(())
}

/// What SessionStart adds: the team memory index, notes on the memories of the loaded index
/// that `verify` last found stale, and the line saying a background consolidation is ready
/// (also in `notice`, for the person), each unless the session (resumed) has it already. A
/// context cleared or compacted has lost what recall added: its record starts over.
fn session_start(
    ctx: &Ctx,
    payload: &HookPayload,
    notice: &mut Option<String>,
    output: &mut Output<'_>,
) -> Result<Option<String>, Error> {
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let dir = resolved.dir();
    let has_repository = crate::repo::has_repository(dir)?;
    let record = session_record(dir, has_repository, payload.session_id.as_deref());
    if let Some(file) = &record
        && matches!(payload.source.as_deref(), Some("clear" | "compact"))
        && let Err(e) = forget(file)
    {
        output.warn(&format!("{}: {e}", file.display()))?;
    }
    let (mut held, already) = held(record.as_deref());
    let mut parts = Vec::new();
    let mut labels = Vec::new();
    if has_repository
        && let Some((line, label)) = crate::cli::consolidate::ready_notice(dir)?
        && !already.contains(&label)
    {
        parts.push(line.clone());
        labels.push(label);
        *notice = Some(line);
    }
    if !resolved.recall_session_start {
        if !parts.is_empty() {
            note_added(held.as_mut(), &labels, output)?;
        }
        return Ok((!parts.is_empty()).then(|| parts.join("\n\n")));
    }
    let stores = ctx.env.var_str("CLAUDE_MEMORY_STORES");
    if !already.contains(TEAM_INDEX_LABEL)
        && !claude_code_loads(&crate::paths::team_dir(dir), stores.as_deref())
        && let Some(text) = team_index(dir)?
    {
        parts.push(text);
        labels.push(TEAM_INDEX_LABEL.to_string());
    }
    if has_repository && let Some((text, stale)) = stale_notes(dir, &ctx.project(), &already)? {
        parts.push(text);
        labels.extend(stale);
    }
    if parts.is_empty() {
        return Ok(None);
    }
    note_added(held.as_mut(), &labels, output)?;
    Ok(Some(parts.join("\n\n")))
}

/// How old `verify`'s kept result may be before SessionStart starts a new one.
const VERIFY_KEPT_FOR_SECS: i64 = 600;
/// At most this many stale memories are named at SessionStart,
const MAX_STALE_NOTES: usize = 5;
/// each in at most this many characters (a memory can name dozens of missing paths, and the
/// kept result is a file in the memory dir that an agent can write).
const MAX_STALE_NOTE_CHARS: usize = 300;

/// Notes on the memories of the loaded index (Claude Code's first 200 lines and 25,000
/// characters) of `dir`, which has a repository, that `verify` last found stale against
/// `project`, not in `already`; and their
/// record labels (`stale:<name>`). `verify` reads the project, which can take seconds: the hook
/// reads its kept result and, when that is missing, of another project or over ten minutes
/// old, starts a new one in the background for the next session.
fn stale_notes(
    dir: &Path,
    project: &Path,
    already: &HashSet<String>,
) -> Result<Option<(String, Vec<String>)>, Error> {
    let git_dir = dir.join(".git");
    let cached = read_cache(&git_dir);
    let fresh = cached.as_ref().is_some_and(|c| {
        c.project == project && chrono::Utc::now().timestamp() - c.time < VERIFY_KEPT_FOR_SECS
    });
    if !fresh {
        let log = git_dir.join("memdir").join("verify.log");
        let args = [
            "verify".as_ref(),
            "--cache".as_ref(),
            "--memory-dir".as_ref(),
            dir.as_os_str(),
            "--project".as_ref(),
            project.as_os_str(),
        ];
        let started =
            crate::log_file::open(&log).and_then(|file| crate::process::spawn_detached(args, file));
        if let Err(e) = started {
            crate::log_file::append(&log, &format!("could not start memdir verify: {e}"));
        }
    }
    let Some(cached) = cached.filter(|c| c.project == project) else {
        return Ok(None);
    };
    let raw = read_index_lossy(dir, &mut Vec::new())?;
    let index = Index::parse(&raw);
    let invisible: Vec<String> = invisible_entries(&raw)
        .map(|e| e.file_name().to_string())
        .collect();
    let mut lines = Vec::new();
    let mut labels = Vec::new();
    for verdict in cached.memories.iter().filter(|v| v.status == Status::Stale) {
        let file = format!("{}.md", verdict.name);
        let label = format!("stale:{}", verdict.name);
        if index.entry_for(&file).is_none() || invisible.contains(&file) || already.contains(&label)
        {
            continue;
        }
        lines.push(shorten_str(
            &format!("- `{}` {}", verdict.name, verdict.evidence.join("; ")),
            MAX_STALE_NOTE_CHARS,
        ));
        labels.push(label);
        if lines.len() == MAX_STALE_NOTES {
            break;
        }
    }
    if lines.is_empty() {
        return Ok(None);
    }
    Ok(Some((
        format!(
            "memdir: these memories in MEMORY.md no longer match the project as it is now \
             (memdir verify); check one before relying on it:\n{}",
            lines.join("\n")
        ),
        labels,
    )))
}

/// The text recall adds to `prompt`, recorded for `session` (when given) so that it is added
/// once each way; for the hook, nothing when settings turn it off. Asked by a person, it is
/// printed instead (with every candidate under -v, or as JSON), and `None` returned.
fn recall(
    ctx: &Ctx,
    prompt: &str,
    session: Option<&str>,
    asked: Asked,
    output: &mut Output<'_>,
) -> Result<Option<String>, Error> {
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    if asked == Asked::Hook && !resolved.recall_prompt {
        // The hook is turned off in settings (`memdir.recall`); asked directly, it answers.
        return Ok(None);
    }
    let limits = Limits::from(&resolved.recall_limits);
    let dir = resolved.dir();
    let team = crate::paths::team_dir(dir);
    let sources: [(Scope, &Path); 2] = [(Scope::Personal, dir), (Scope::Team, &team)];
    let corpus = Corpus::read(&sources)?;
    let record = session_record(
        dir,
        session.is_some() && crate::repo::has_repository(dir)?,
        session,
    );
    let (mut held, already) = held(record.as_deref());
    // History is read only when a memory is added or a person asks (most prompts add none); a
    // history that cannot be read costs the ages, not the memories.
    let saved = std::cell::OnceCell::new();
    let saved = |scope: Scope, name: &str| {
        saved
            .get_or_init(|| crate::recall::saved_times(&sources).unwrap_or_default())
            .get(&scope)
            .and_then(|s| s.get(name))
            .copied()
    };
    let now = chrono::Utc::now().timestamp();
    let age = |scope: Scope, name: &str| saved(scope, name).map(|(t, _)| format_age(t, now));
    let recalled = for_prompt(&corpus, prompt, &already, &limits, age);
    match asked {
        Asked::Hook => {
            if !recalled.record.is_empty() {
                note_added(held.as_mut(), &recalled.record, output)?;
            }
            Ok(recalled.text)
        }
        Asked::Json => {
            let candidates = recalled
                .candidates
                .iter()
                .map(|c| {
                    let f = &c.found;
                    let mut value = f.memory.to_json();
                    value["path"] = f.memory.path.display().to_string().into();
                    value["scope"] = f.scope.as_str().into();
                    value["saved"] = saved(f.scope, &f.memory.name).map(format_time).into();
                    value["score"] = f64::from(f.score).into();
                    value["fit"] = f64::from(f.fit).into();
                    value["share_of_top"] = f64::from(f.grade.share_of_top).into();
                    value["phrase"] = f.grade.phrase.into();
                    value["confidence"] = f64::from(f.grade.confidence).into();
                    value["tier"] = match c.outcome {
                        Outcome::Added(tier) => Some(tier.as_str()),
                        Outcome::Left(_) => None,
                    }
                    .into();
                    value["reason"] = c.reason(&limits).into();
                    value
                })
                .collect::<Vec<_>>();
            output.json(&serde_json::json!({
                "text": recalled.text,
                "limits": {
                    "memories": limits.memories,
                    "bodies": limits.bodies,
                    "bytes": limits.bytes,
                    "sensitivity": resolved.recall_limits.sensitivity.unwrap_or(DEFAULT_SENSITIVITY),
                    "bar": {"body": limits.bar.body, "line": limits.bar.line},
                },
                "candidates": candidates,
            }))?;
            Ok(None)
        }
        Asked::Text => {
            match &recalled.text {
                Some(text) => output.data(text)?,
                None => output.info("no memory clears the bar for this prompt")?,
            }
            explain(&recalled, &limits, output)?;
            Ok(None)
        }
    }
}

/// Under -v, every candidate: how it was added, or why it was not.
fn explain(recalled: &Recalled<'_>, limits: &Limits, output: &mut Output<'_>) -> Result<(), Error> {
    if !output.verbose || recalled.candidates.is_empty() {
        return Ok(());
    }
    output.detail(&format!(
        "\ncandidates, best first (confidence: the score as a share of the most this prompt \
         allows; bar: body {:.2}, line {:.2}; at most {} memories, {} with their body):",
        limits.bar.body, limits.bar.line, limits.memories, limits.bodies
    ))?;
    let (weighed, rest) = recalled
        .candidates
        .split_at(recalled.candidates.len().min(MAX_WEIGHED));
    for c in weighed {
        let tier = match c.outcome {
            Outcome::Added(tier) => tier.as_str(),
            Outcome::Left(_) => "-",
        };
        let f = &c.found;
        let reason = c
            .reason(limits)
            .map(|r| format!("  {r}"))
            .unwrap_or_default();
        output.detail(&format!(
            "  {tier:<4}  {:<30} score {:>6.2}  confidence {:.2}{reason}",
            label(f.scope, &f.memory.name),
            f.score,
            f.grade.confidence
        ))?;
    }
    if !rest.is_empty() {
        output.detail(&format!(
            "  … and {} more that matched less, not among the {MAX_WEIGHED} best (--json lists \
             them all)",
            rest.len()
        ))?;
    }
    Ok(())
}
