//! `memdir extract`: memories from session transcripts (DESIGN §6), in the foreground
//! (`--transcript`) or in the background from Claude Code's hooks (`--hook`, `--drain`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::Error;
use crate::cli::written::commit_json;
use crate::cli::{Ctx, HookPayload, Output, hook_mode, validate_session};
use crate::extract::agent::{self, AgentConfig, ModelChoice};
use crate::extract::state::Request;
use crate::extract::worker::{self, Served};
use crate::extract::{Extractor, Job, Report, Trigger, transcript_origin};

/// Save what is worth remembering from a session transcript.
///
/// `--transcript` runs in the foreground and reports what it saved, updated, skipped and why;
/// `--all` does so for every session Claude Code kept of this project, oldest first.
/// `--hook` reads a Stop, SessionEnd or PreCompact hook payload on stdin, queues the work for a
/// background worker and returns at once; `--drain` waits for that work.
///
/// The extractor is `auto` unless told otherwise: a model (Claude Code, run by memdir as `claude
/// -p`, or `--agent-cmd`) when one answers, else the builtin extractor.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["transcript", "all", "hook", "drain", "worker"])))]
pub struct ExtractArgs {
    /// The session transcript (JSONL) to read, from the session's cursor on.
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
    /// The session id [default: the transcript's].
    #[arg(long, requires = "transcript")]
    pub session: Option<String>,
    /// Every transcript Claude Code kept of this project's sessions (<config dir>/projects/),
    /// oldest first, each from its cursor: past sessions imported in one go.
    #[arg(long)]
    pub all: bool,
    /// Read a Claude Code hook payload on stdin and extract in the background.
    #[arg(long)]
    pub hook: bool,
    /// Wait until background extraction for this memory dir is done.
    #[arg(long)]
    pub drain: bool,
    /// How long `--drain` waits, in seconds (at most 86400, a day).
    #[arg(long, value_name = "S", default_value_t = 60, requires = "drain",
          value_parser = clap::value_parser!(u64).range(..=MAX_DRAIN_SECS))]
    pub timeout: u64,
    /// Serve queued requests (what `--hook` starts).
    #[arg(long, hide = true)]
    pub worker: bool,
    /// auto (a model when one answers, else builtin), agent (the model only: a run fails
    /// without one) or builtin (offline, deterministic, free). A hook's request keeps it:
    /// `--drain` serves each queued request with the extractor its hook named.
    #[arg(long, value_name = "NAME", default_value = "auto", value_parser = ["auto", "agent", "builtin"])]
    pub extractor: String,
    /// The model as a command, run with `sh -c` and spoken to in JSON (the README gives the
    /// protocol) [default: Claude Code, run as `claude -p`].
    #[arg(long, value_name = "CMD")]
    pub agent_cmd: Option<String>,
    /// The model's time limit per call, in seconds (at most 3600, an hour).
    #[arg(long, value_name = "S", default_value_t = 120,
          value_parser = clap::value_parser!(u64).range(..=MAX_AGENT_SECS))]
    pub agent_timeout: u64,
    /// Say what would be saved, updated and removed; change nothing (the cursor included).
    #[arg(long, conflicts_with_all = ["hook", "drain", "worker"])]
    pub dry_run: bool,
    /// Print JSON: the report of each run, with its commits ([commit], oldest first) and its
    /// outcomes ([{outcome, name, type, description}]).
    #[arg(long)]
    pub json: bool,
}

/// The longest `--drain` wait: a day. Past it a wait is a hang, not a wait.
const MAX_DRAIN_SECS: u64 = 24 * 60 * 60;
/// The longest time limit of one agent turn: an hour (an LLM call takes seconds to minutes).
const MAX_AGENT_SECS: u64 = 60 * 60;

impl ExtractArgs {
    fn extractor(&self) -> Result<Extractor, Error> {
        let config = || {
            let model = match &self.agent_cmd {
                Some(cmd) if cmd.trim().is_empty() => {
                    return Err(Error::Usage("--agent-cmd is empty".into()));
                }
                Some(cmd) => ModelChoice::Command(cmd.clone()),
                None => ModelChoice::ClaudeCode,
            };
            Ok(AgentConfig {
                model,
                turn_timeout: Duration::from_secs(self.agent_timeout.max(1)),
                max_turns: agent::MAX_TURNS,
            })
        };
        match self.extractor.as_str() {
            "agent" => Ok(Extractor::Agent(config()?)),
            "builtin" if self.agent_cmd.is_some() => Err(Error::Usage(
                "--agent-cmd names the model, which --extractor builtin does not use".into(),
            )),
            "builtin" => Ok(Extractor::Builtin),
            _ => Ok(Extractor::Auto(config()?)),
        }
    }
}

pub fn run(ctx: &Ctx, args: &ExtractArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if args.hook {
        return hook_mode::run(ctx, "extract --hook", output, |ctx, payload, output| {
            hook(ctx, args, &payload, output)
        });
    }
    let extractor = args.extractor()?;
    // Queued requests name their own extractor: a worker or a drain may run a model too.
    if args.worker || args.drain || !matches!(extractor, Extractor::Builtin) {
        // Whatever the model's program starts is handed back to memdir, to be killed with it.
        crate::process::adopt_orphans();
    }
    if let Some(transcript) = &args.transcript {
        return foreground(ctx, args, transcript, extractor, output);
    }
    if args.all {
        return all(ctx, args, extractor, output);
    }
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let memory_dir = resolved.dir();
    if !crate::repo::has_repository(memory_dir)? {
        // Nothing was ever queued here.
        return if args.json {
            Ok(())
        } else {
            output.info("nothing to extract")
        };
    }
    if args.worker {
        return Ok(worker::serve_queued(memory_dir)?);
    }
    let mut printed = Ok(());
    let timeout = Duration::from_secs(args.timeout);
    let drained = worker::drain(memory_dir, timeout, &mut |served| {
        if printed.is_ok() {
            printed = print_served(args, served, output);
        }
    })?;
    printed?;
    drained.into_result()?;
    if !args.json {
        output.info("extraction is up to date")?;
    }
    Ok(())
}

/// `--all`: every session of this project, oldest first. A session that fails is reported and
/// the others are still read (its cursor stays, so a later run retries it).
fn all(
    ctx: &Ctx,
    args: &ExtractArgs,
    extractor: Extractor,
    output: &mut Output<'_>,
) -> Result<(), Error> {
    let root = crate::paths::project_key(&ctx.project())?;
    let transcripts = crate::extract::sessions::of_project(&ctx.env.config_dir()?, &root);
    // The sessions are this project's whatever folder they ran in: its memory dir, even for a
    // session whose folder is gone.
    let mut global = ctx.global.clone();
    global.project.get_or_insert_with(|| ctx.project());
    let project_ctx = Ctx {
        env: ctx.env.clone(),
        global,
    };
    // Auto memory off is said once (exit 3), not as a failure of every session.
    let resolved = project_ctx.resolve(output)?;
    resolved.check_enabled()?;
    let mut failed = 0;
    let mut saved = 0;
    // First what `auto` did without a model, when a model is there now.
    let mut redone = Vec::new();
    let redo = worker::redo_in_foreground(
        resolved.dir(),
        &extractor,
        &resolved.extract_model,
        args.dry_run,
        &mut |report| redone.push(report),
    );
    for report in &redone {
        saved += report.outcomes.iter().filter(|o| o.is_write()).count();
        print_report(args, report, output)?;
    }
    // Not a session: said apart, so the count of sessions read stays right.
    let redo_failed = match redo {
        Ok(()) => false,
        Err(e) => {
            output.warn(&format!(
                "the ranges marked for a model could not be redone: {e} (they stay marked)"
            ))?;
            true
        }
    };
    for (i, transcript) in transcripts.iter().enumerate() {
        output.progress(&format!(
            "[{}/{}] {}",
            i + 1,
            transcripts.len(),
            transcript.display()
        ))?;
        match session(&project_ctx, args, transcript, extractor.clone(), output) {
            Ok(report) => {
                saved += report.outcomes.iter().filter(|o| o.is_write()).count();
                if args.json || !report.outcomes.is_empty() || report.skipped.is_some() {
                    print_report(args, &report, output)?;
                }
            }
            Err(e) => {
                failed += 1;
                output.warn(&format!("{}: {e}", transcript.display()))?;
            }
        }
    }
    if !args.json {
        output.info(&format!(
            "{} session(s) read, {saved} memory change(s) saved{}",
            transcripts.len() - failed,
            if failed > 0 {
                format!(", {failed} failed")
            } else {
                String::new()
            }
        ))?;
    }
    if failed > 0 {
        return Err(Error::Failed(format!(
            "{failed} session(s) could not be read; their cursors did not move, so the next run tries them again"
        )));
    }
    if redo_failed {
        return Err(Error::Failed(
            "no model redid the ranges marked for one; a later `memdir extract --all --extractor agent` tries them again".into(),
        ));
    }
    Ok(())
}

fn print_served(args: &ExtractArgs, served: &Served, output: &mut Output<'_>) -> Result<(), Error> {
    match served {
        Served::Done(report) => print_report(args, report, output),
        Served::Failed { session, error } => output.warn(&format!("{session}: {error}")),
        Served::Retired { session, why } => output.warn(&format!("{session}: retired: {why}")),
    }
}

fn foreground(
    ctx: &Ctx,
    args: &ExtractArgs,
    transcript: &Path,
    extractor: Extractor,
    output: &mut Output<'_>,
) -> Result<(), Error> {
    let report = session(ctx, args, transcript, extractor, output)?;
    print_report(args, &report, output)
}

/// One session's extraction in the foreground, from its cursor.
fn session(
    ctx: &Ctx,
    args: &ExtractArgs,
    transcript: &Path,
    extractor: Extractor,
    output: &mut Output<'_>,
) -> Result<Report, Error> {
    let transcript = crate::paths::absolute_from(&ctx.env.cwd, transcript);
    // Says what is there when it is not a transcript: nothing, a FIFO, a device, a directory.
    let (cwd, session) = transcript_origin(&transcript)?;
    let session = match validate_session(args.session.as_deref())? {
        Some(s) => s.to_string(),
        None => session
            .filter(|s| validate_session(Some(s)).is_ok())
            .or_else(|| {
                transcript
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "unknown".into()),
    };
    // The project is the session's, so the memory dir is the one Claude Code used.
    let mut global = ctx.global.clone();
    if global.project.is_none() {
        if let Some(cwd) = &cwd
            && !cwd.is_dir()
            && global.memory_dir.is_none()
        {
            return Err(Error::Usage(format!(
                "the session ran in {}, which is not here; give --project DIR or --memory-dir DIR",
                cwd.display()
            )));
        }
        global.project = cwd;
    }
    let session_ctx = Ctx {
        env: ctx.env.clone(),
        global,
    };
    let resolved = session_ctx.resolve(output)?;
    resolved.check_enabled()?;
    let job = Job {
        session,
        transcript,
        project: session_ctx.project(),
        memory_dir: resolved.dir().to_path_buf(),
        trigger: Trigger::Foreground,
        every: resolved.extract_every,
        extractor,
        claude_model: resolved.extract_model.clone(),
        dry_run: args.dry_run,
    };
    Ok(if args.dry_run {
        // Changes nothing, so it waits for no worker (and creates no repository to wait in).
        crate::extract::run(&job)?
    } else {
        worker::run_in_foreground(&job)?
    })
}

fn print_report(args: &ExtractArgs, report: &Report, output: &mut Output<'_>) -> Result<(), Error> {
    if args.json {
        let mut value = serde_json::to_value(report).map_err(|e| Error::Io {
            context: "encoding the report".into(),
            source: std::io::Error::other(e),
        })?;
        // The commits as every write shows them (ARCHITECTURE.md, "JSON field names").
        let commits = match report.commits.as_slice() {
            [] => Vec::new(),
            ids => {
                let repo = crate::repo::MemoryRepo::open(&report.memory_dir)?;
                ids.iter()
                    .map(|id| Ok(commit_json(&repo.history_entry(*id)?)))
                    .collect::<Result<Vec<_>, Error>>()?
            }
        };
        value["commits"] = commits.into();
        return output.json(&value);
    }
    output.info(&format!(
        "{}: {} new turn(s), bytes {}..{}{}",
        report.session,
        report.turns,
        report.from,
        report.to,
        if report.dry_run {
            " (dry run: nothing is changed)"
        } else {
            ""
        }
    ))?;
    if let Some(extractor) = report.extractor_line() {
        output.info(&format!("extractor {extractor}"))?;
    }
    for subject in &report.adopted {
        output.info(&format!("adopted {subject}"))?;
    }
    if let Some(why) = &report.skipped {
        output.info(&format!("skipped: {why}"))?;
    }
    for outcome in &report.outcomes {
        output.info(&outcome.line_as(report.dry_run))?;
    }
    for message in &report.messages {
        let account = match message.unsaved {
            Some(why) => format!("nothing kept: {}", why.describe()),
            None => format!("kept as {}", message.memories.join(", ")),
        };
        output.detail(&format!("  {:?}: {account}", message.excerpt))?;
    }
    if report.unreadable_lines > 0 {
        output.warn(&format!(
            "{} line(s) of the transcript were not JSON and were skipped",
            report.unreadable_lines
        ))?;
    }
    if report.oversized_lines > 0 {
        output.warn(&format!(
            "{} line(s) of the transcript were over {} MiB and were skipped unread",
            report.oversized_lines,
            crate::extract::transcript::MAX_LINE_BYTES >> 20
        ))?;
    }
    if report.skipped.is_none() && report.outcomes.is_empty() && report.turns > 0 {
        output.info("nothing worth remembering")?;
    }
    Ok(())
}

/// `--hook`: queue the request for the memory dir's worker; never wait for one. `ctx` is the
/// payload's (its `cwd` is the project).
fn hook(
    ctx: &Ctx,
    args: &ExtractArgs,
    payload: &HookPayload,
    output: &mut Output<'_>,
) -> Result<(), Error> {
    // The worker takes the same flags: a bad one is caught (and logged) here.
    let extractor = args.extractor()?;
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let session = validate_session(payload.session_id.as_deref())?
        .ok_or_else(|| Error::Usage("the hook payload has no session_id".into()))?
        .to_string();
    let transcript = payload
        .transcript_path
        .as_deref()
        .ok_or_else(|| Error::Usage("the hook payload has no transcript_path".into()))?;
    let request = Request::new(
        session,
        crate::paths::absolute_from(&ctx.project(), transcript),
        ctx.project(),
        payload.hook_event_name.clone().unwrap_or_default(),
        resolved.extract_every,
        resolved.extract_model.clone(),
        extractor.spec(),
    );
    worker::enqueue(resolved.dir(), &request)?;
    if payload.hook_event_name.as_deref() == Some("SessionEnd") {
        crate::cli::consolidate::session_ended(ctx, &resolved, payload)?;
    }
    Ok(())
}
