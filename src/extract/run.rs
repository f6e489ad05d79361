//! One session's extraction run (DESIGN §6): from its cursor to the end of its transcript,
//! deciding who extracts it and when.
//!
//! - A range in which the main agent wrote memory itself is skipped and its writes adopted (a
//!   batch waiting before it goes to the model first).
//! - With a model (`agent`, or `auto` when one is there): the gate picks the prompts that could
//!   hold something worth remembering; none, and the range is done without a call. Otherwise a
//!   Stop puts them in the session's batch (the cursor waits before it) until SessionEnd,
//!   PreCompact or the batch's limits, and the model gets one request for the whole batch.
//! - With the builtin extractor (or `auto` when no model is there, or none answered): every
//!   range at once, under the throttle; a range `auto` gave the builtin extractor for want of a
//!   model is marked for [`redo`].
//!
//! A dry run says what each would do and changes nothing, the cursor included.

use std::path::{Path, PathBuf};

use crate::extract::agent::{self, AgentConfig};
use crate::extract::apply::Carrier;
use crate::extract::state::{Cursor, Redo, RedoRange};
use crate::extract::transcript::Turn;
use crate::extract::{
    ExtractError, Extractor, GateCount, Job, Report, Trigger, account, builtin, existing_memories,
    open_transcript, read_range, reading,
};
use crate::memory::store::Store;
use crate::model::Model;

/// A batch is sent once the gate has let this many of its prompts through, even before
/// SessionEnd or PreCompact.
pub const BATCH_PROMPTS: usize = 10;
/// …or once those prompts hold this many bytes…
pub const BATCH_BYTES: usize = 40 * 1024;
/// …or once the range since the cursor holds this many prompts, passed or not.
pub const BATCH_RANGE_PROMPTS: usize = 30;

/// Who extracts a range.
enum Plan {
    /// The builtin extractor; with `auto`, why no model does (`None` when it was asked for).
    Builtin { fallback: Option<String> },
    /// A model, and whether the builtin extractor stands in when it does not answer.
    Model {
        model: Model,
        config: AgentConfig,
        auto: bool,
    },
}

fn plan(job: &Job) -> Result<Plan, ExtractError> {
    Ok(match &job.extractor {
        Extractor::Builtin => Plan::Builtin { fallback: None },
        Extractor::Agent(config) => Plan::Model {
            model: config
                .model(&job.claude_model)
                .map_err(|e| ExtractError::Agent {
                    turn: 1,
                    failure: e.into(),
                })?,
            config: config.clone(),
            auto: false,
        },
        Extractor::Auto(config) => match config.model(&job.claude_model) {
            Ok(model) => Plan::Model {
                model,
                config: config.clone(),
                auto: true,
            },
            Err(e) => Plan::Builtin {
                fallback: Some(e.to_string()),
            },
        },
    })
}

/// The memory dir's git dir; a dry run never creates the repository (`None` when there is none).
fn git_dir(job: &Job) -> Result<Option<PathBuf>, ExtractError> {
    if job.dry_run {
        let dir = job.memory_dir.join(".git");
        return Ok(crate::repo::has_repository(&job.memory_dir)
            .unwrap_or(false)
            .then_some(dir));
    }
    // Creates the repository on first use; the store lock is taken per mutation below.
    Ok(Some(
        Store::open(&job.memory_dir)?.repo.git_dir().to_path_buf(),
    ))
}

/// Run one session's extraction, from its cursor to the end of its transcript.
pub fn run(job: &Job) -> Result<Report, ExtractError> {
    crate::fault::delay();
    let git_dir = git_dir(job)?;
    let mut cursor = git_dir
        .as_deref()
        .map(|g| Cursor::load(g, &job.session))
        .unwrap_or_default();
    let file = open_transcript(&job.transcript)?;
    let len = file.metadata().map_err(reading(&job.transcript))?.len();
    if cursor.offset > len
        || cursor
            .transcript
            .as_ref()
            .is_some_and(|t| *t != job.transcript)
    {
        // The transcript was replaced: start it over (saves by name do not duplicate).
        cursor = Cursor::default();
    }
    let range = read_range(&job.transcript, file, cursor.offset, &job.memory_dir)?;
    let mut report = Report {
        unreadable_lines: range.unreadable,
        oversized_lines: range.oversized,
        ..Report::of(job, cursor.offset, range.end, range.turns.len())
    };
    // Who extracts is decided only when there is something to extract (`agent` with no model
    // fails only then).
    let batched = cursor.batched_until.filter(|&until| until > cursor.offset);
    if !range.memory_writes.is_empty() {
        // What a Stop put in the batch before the agent wrote memory goes to the model first,
        // as it would have without the batch.
        if let Some(until) = batched
            && let plan @ Plan::Model { .. } = plan(job)?
        {
            let before: Vec<Turn> = range
                .turns
                .iter()
                .filter(|t| t.end <= until)
                .cloned()
                .collect();
            extract(job, &plan, &before, (cursor.offset, until), &mut report)?;
        }
        report.skipped = Some(format!(
            "the agent wrote memory itself in this range ({}); {}",
            range.memory_writes.len(),
            if job.dry_run {
                "its writes would be adopted instead"
            } else {
                "adopted its writes instead"
            }
        ));
        if !job.dry_run {
            let adoption = Store::open(&job.memory_dir)?.adopt(Some(&job.session))?;
            report.adopted = adoption.commits.iter().map(|(_, s)| s.clone()).collect();
            report
                .commits
                .extend(adoption.commits.iter().map(|(id, _)| *id));
        }
    } else if !range.turns.is_empty() {
        let plan = plan(job)?;
        let throttled = job.trigger == Trigger::Stop { throttled: true };
        match &plan {
            Plan::Builtin { .. }
                if throttled && (range.turns.len() as u64) < u64::from(job.every) =>
            {
                report.skipped = Some(format!(
                    "throttled: {} of {} turns since the last extraction",
                    range.turns.len(),
                    job.every
                ));
                return Ok(report);
            }
            Plan::Model { .. } if matches!(job.trigger, Trigger::Stop { .. }) => {
                if let Some(waiting) = batch_waits(&range.turns) {
                    report.gate = Some(waiting.0);
                    report.skipped = Some(waiting.1);
                    if let Some(git_dir) = &git_dir
                        && !job.dry_run
                    {
                        cursor.batched_until = Some(range.end);
                        cursor.store(git_dir, &job.session)?;
                    }
                    return Ok(report);
                }
            }
            _ => {}
        }
        extract(
            job,
            &plan,
            &range.turns,
            (cursor.offset, range.end),
            &mut report,
        )?;
    }
    if let Some(git_dir) = &git_dir
        && !job.dry_run
    {
        let cursor = Cursor {
            offset: range.end,
            record: range.last_record.or(cursor.record),
            transcript: Some(job.transcript.clone()),
            batched_until: None,
        };
        cursor.store(git_dir, &job.session)?;
        report.cursor_advanced = report.to != report.from;
    }
    Ok(report)
}

/// The prompts the gate lets through to the model, and its count.
fn gated(turns: &[Turn]) -> (Vec<Turn>, GateCount) {
    let passed: Vec<Turn> = builtin::gate(turns)
        .into_iter()
        .zip(turns)
        .filter(|(pass, _)| *pass)
        .map(|(_, turn)| turn.clone())
        .collect();
    let count = GateCount {
        prompts: turns.len(),
        passed: passed.len(),
    };
    (passed, count)
}

impl Report {
    /// The report of `job`'s run over bytes `from..to` (`turns` prompts), before it does anything.
    fn of(job: &Job, from: u64, to: u64, turns: usize) -> Report {
        Report {
            run: format!("{}@{from}", job.session),
            session: job.session.clone(),
            transcript: job.transcript.clone(),
            memory_dir: job.memory_dir.clone(),
            from,
            to,
            turns,
            dry_run: job.dry_run,
            ..Report::default()
        }
    }
}

/// Whether a Stop's range waits in the batch: the gate's count and why it waits, or `None` when
/// it goes now (nothing passed, so it is done without a call; or the batch is full).
fn batch_waits(turns: &[Turn]) -> Option<(GateCount, String)> {
    let (passed, count) = gated(turns);
    let bytes: usize = passed
        .iter()
        .map(|t| t.prompt.len() + t.previous_reply.len())
        .sum();
    let full =
        passed.len() >= BATCH_PROMPTS || bytes >= BATCH_BYTES || turns.len() >= BATCH_RANGE_PROMPTS;
    (!passed.is_empty() && !full).then(|| {
        (
            count,
            format!(
                "batched: {} of {} prompt(s) may hold something to remember; the model is asked \
                 at SessionEnd, PreCompact, or once {BATCH_PROMPTS} are waiting",
                count.passed, count.prompts
            ),
        )
    })
}

/// Extract `turns` (bytes `range` of the transcript) as `plan` says, into `report`.
fn extract(
    job: &Job,
    plan: &Plan,
    turns: &[Turn],
    range: (u64, u64),
    report: &mut Report,
) -> Result<(), ExtractError> {
    // The run's saves and removals — a batch's answer, or the builtin extractor's in its place —
    // are one operation: `memdir undo` (and `undo --session`) takes the whole run back.
    let _operation = crate::repo::operation::begin(
        &job.memory_dir,
        "extract",
        &format!("session {}", job.session),
        Some(&job.session),
    );
    let fallback = match plan {
        Plan::Builtin { fallback } => fallback.clone(),
        Plan::Model {
            model,
            config,
            auto,
        } => {
            let (passed, count) = gated(turns);
            report.gate = Some(count);
            if passed.is_empty() {
                return Ok(());
            }
            match ask_model(
                job,
                model,
                config,
                &passed,
                turns.len() - passed.len(),
                report,
            ) {
                Ok(()) => return Ok(()),
                // No model answered: with `auto`, the builtin extractor does the range.
                Err(ExtractError::Agent { turn: 1, failure }) if *auto => {
                    Some(format!("{} did not answer: {failure}", model.describe()))
                }
                Err(e) => return Err(e),
            }
        }
    };
    with_builtin(job, turns, report)?;
    if let Some(why) = fallback {
        // Only a range in which the gate saw something is worth a model's time later.
        let worth_a_model = builtin::gate(turns).contains(&true);
        if worth_a_model && !job.dry_run {
            let git_dir = job.memory_dir.join(".git");
            Redo::mark(
                &git_dir,
                &job.session,
                &job.transcript,
                &job.project,
                RedoRange {
                    from: range.0,
                    to: range.1,
                    why: why.clone(),
                },
            )?;
            report.marked_for_redo = true;
        }
        report.fallback = Some(why);
    }
    Ok(())
}

/// One batch: one model request for the prompts the gate let through (`left_out` were not), and
/// every save and delete of its answer carried out. Every commit this makes answers that one
/// request: one operation, opened by [`extract`].
fn ask_model(
    job: &Job,
    model: &Model,
    config: &AgentConfig,
    passed: &[Turn],
    left_out: usize,
    report: &mut Report,
) -> Result<(), ExtractError> {
    let mut carrier = Carrier::new(
        &job.memory_dir,
        Some(&job.session),
        said(passed),
        job.dry_run,
    );
    let asked = agent::run(config, model, job, passed, left_out, &mut carrier)?;
    report.extractor = Some("agent");
    report.model = Some(model.describe());
    report.model_calls += asked.calls;
    report.cost_usd = asked.cost_usd;
    report.outcomes.extend(asked.outcomes);
    report.commits.extend_from_slice(carrier.commits());
    Ok(())
}

/// The builtin extractor over `turns`, every action carried out (or, in a dry run, said).
fn with_builtin(job: &Job, turns: &[Turn], report: &mut Report) -> Result<(), ExtractError> {
    let existing = if job.memory_dir.exists() {
        existing_memories(&job.memory_dir)?
    } else {
        Vec::new()
    };
    let extraction = builtin::extract(turns, &existing);
    let mut carrier = Carrier::new(
        &job.memory_dir,
        Some(&job.session),
        said(turns),
        job.dry_run,
    );
    let mut outcomes = Vec::new();
    for action in &extraction.actions {
        outcomes.push(carrier.carry(action)?);
        crate::fault::point("extract-mid-run");
    }
    report.extractor = Some("builtin");
    report.messages = account(turns, &extraction, &outcomes);
    report.outcomes.extend(outcomes);
    report.commits.extend_from_slice(carrier.commits());
    Ok(())
}

/// The person's words in some turns: what an update is checked against.
fn said(turns: &[Turn]) -> String {
    turns
        .iter()
        .map(|t| t.prompt.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Hand the ranges `auto` gave the builtin extractor for want of a model (in `memory_dir`) to
/// the model now: each range's gated prompts in one request, as a batch would have been. A
/// range done is taken off its list; the first the model does not answer stops the redo (the
/// rest stay marked). `on_report` sees each range's report. The caller
/// ([`crate::extract::worker::redo_in_foreground`]) has found the repository and holds its lock.
pub fn redo(
    memory_dir: &Path,
    extractor: &Extractor,
    claude_model: &str,
    dry_run: bool,
    on_report: &mut dyn FnMut(Report),
) -> Result<(), ExtractError> {
    let config = match extractor {
        Extractor::Agent(config) | Extractor::Auto(config) => config,
        Extractor::Builtin => return Ok(()),
    };
    let git_dir = memory_dir.join(".git");
    let marked = Redo::all(&git_dir);
    if marked.is_empty() {
        return Ok(());
    }
    let model = match config.model(claude_model) {
        Ok(model) => model,
        // `auto` with no model: they wait for one.
        Err(_) if matches!(extractor, Extractor::Auto(_)) => return Ok(()),
        Err(e) => {
            return Err(ExtractError::Agent {
                turn: 1,
                failure: e.into(),
            });
        }
    };
    for (path, mut redo) in marked {
        for range in redo.ranges.clone() {
            let job = Job {
                session: redo.session.clone(),
                transcript: redo.transcript.clone(),
                project: redo.project.clone(),
                memory_dir: memory_dir.to_path_buf(),
                trigger: Trigger::Foreground,
                every: 1,
                extractor: extractor.clone(),
                claude_model: claude_model.to_string(),
                dry_run,
            };
            let file = match open_transcript(&job.transcript) {
                Ok(file) => file,
                // A transcript that is gone cannot be redone: its ranges are dropped.
                Err(e) if e.is_invalid_input() => {
                    if !dry_run {
                        redo.ranges.retain(|r| *r != range);
                        redo.keep(&path)?;
                    }
                    continue;
                }
                Err(e) => return Err(e),
            };
            let read = read_range(&job.transcript, file, range.from, memory_dir)?;
            let turns: Vec<Turn> = read
                .turns
                .into_iter()
                .filter(|t| t.end <= range.to)
                .collect();
            let mut report = Report::of(&job, range.from, range.to, turns.len());
            let plan = Plan::Model {
                model: model.clone(),
                config: config.clone(),
                auto: false,
            };
            extract(&job, &plan, &turns, (range.from, range.to), &mut report)?;
            on_report(report);
            if !dry_run {
                // Kept as it goes: a later failure does not have this range done twice.
                redo.ranges.retain(|r| *r != range);
                redo.keep(&path)?;
            }
        }
    }
    Ok(())
}
