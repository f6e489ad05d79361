//! The command line (DESIGN §11): global flags, one module per subcommand, and the context every
//! subcommand runs in (where memory lives, whether it is on, where output goes).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use crate::Error;
use crate::env::Environment;
use crate::memory::store::{Adoption, Store};
use crate::paths::{MemoryLocation, absolute_from, resolve_memory_dir};
use crate::settings::{AutoMemory, Settings, auto_memory};

pub mod completions;
pub mod consolidate;
pub mod context;
pub mod diff;
pub mod doctor;
pub mod edit;
pub mod editor;
pub mod error;
pub mod extract;
pub mod hook_mode;
pub mod hooks;
pub mod index;
pub mod init;
pub mod list;
pub mod log;
pub mod man;
pub mod mcp;
pub mod merge_index;
pub mod op;
pub mod pack;
pub mod pager;
pub mod path;
pub mod program;
pub mod promote;
pub mod proposals;
pub mod recall;
pub mod resolve;
pub mod restore;
pub mod revert;
pub mod review;
pub mod rm;
pub mod rollback;
pub mod save;
pub mod search;
pub mod show;
pub mod snapshot;
pub mod style;
pub mod sync;
pub mod team;
pub mod undo;
pub mod verify;
pub mod written;

/// Durable, git-native memory for AI coding agents, in Claude Code's on-disk layout.
#[derive(Debug, Parser)]
#[command(
    name = "memdir",
    version,
    about,
    propagate_version = true,
    after_long_help = error::EXIT_CODES_HELP
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Flags accepted before or after the subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct GlobalArgs {
    /// Use this memory dir, whatever the settings say.
    #[arg(
        long,
        global = true,
        value_name = "DIR",
        help_heading = "Global options"
    )]
    pub memory_dir: Option<PathBuf>,
    /// The project whose memory to use [default: the current directory].
    #[arg(
        long,
        global = true,
        value_name = "DIR",
        help_heading = "Global options"
    )]
    pub project: Option<PathBuf>,
    /// Print nothing but errors and warnings.
    #[arg(short, long, global = true, help_heading = "Global options")]
    pub quiet: bool,
    /// Print more: commit ids and what was adopted.
    #[arg(short, long, global = true, help_heading = "Global options")]
    pub verbose: bool,
    /// Use team memory (<memory dir>/team, see memdir team) instead of your own.
    #[arg(long, global = true, help_heading = "Global options")]
    pub team: bool,
    /// When to use colour: auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces
    /// it), always or never.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value_t = style::ColorWhen::Auto,
        hide_default_value = true,
        help_heading = "Global options"
    )]
    pub color: style::ColorWhen,
    /// Print long output (log, diff, show, review) straight to the terminal instead of through
    /// a pager ($MEMDIR_PAGER, else $PAGER, else `less -FRX`).
    #[arg(long, global = true, help_heading = "Global options")]
    pub no_pager: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Init(init::InitArgs),
    Context(context::ContextArgs),
    Path(path::PathArgs),
    Save(save::SaveArgs),
    Edit(edit::EditArgs),
    List(list::ListArgs),
    Show(show::ShowArgs),
    Rm(rm::RmArgs),
    Index(index::IndexArgs),
    Snapshot(snapshot::SnapshotArgs),
    Log(log::LogArgs),
    Diff(diff::DiffArgs),
    Doctor(doctor::DoctorArgs),
    Pack(pack::PackArgs),
    Rollback(rollback::RollbackArgs),
    Undo(undo::UndoArgs),
    Redo(undo::RedoArgs),
    Revert(revert::RevertArgs),
    Op(op::OpArgs),
    Restore(restore::RestoreArgs),
    Extract(extract::ExtractArgs),
    Hooks(hooks::HooksArgs),
    Verify(verify::VerifyArgs),
    Review(review::ReviewArgs),
    Promote(promote::PromoteArgs),
    Proposals(proposals::ProposalsArgs),
    Consolidate(consolidate::ConsolidateArgs),
    Search(search::SearchArgs),
    Recall(recall::RecallArgs),
    Mcp(mcp::McpArgs),
    /// git's merge driver for MEMORY.md (see `memdir team`); not for people.
    #[command(hide = true)]
    MergeIndex(merge_index::MergeIndexArgs),
    Team(team::TeamArgs),
    Sync(sync::SyncArgs),
    Resolve(resolve::ResolveArgs),
    Completions(completions::CompletionsArgs),
    Man(man::ManArgs),
}

impl Cli {
    /// Whether the command's output is long and for a person (`log`, `diff`, `show`, `review`,
    /// not as JSON): on a terminal it goes through the pager ([`pager`]) unless `--no-pager`.
    pub fn pages(&self) -> bool {
        !self.global.no_pager
            && !self.wants_json()
            && matches!(
                self.command,
                Command::Log(_) | Command::Diff(_) | Command::Show(_) | Command::Review(_)
            )
    }

    /// Whether the command was asked for JSON: then an error is printed as JSON too.
    pub fn wants_json(&self) -> bool {
        match &self.command {
            Command::Context(a) => a.json,
            Command::Path(a) => a.json,
            Command::List(a) => a.json,
            Command::Show(a) => a.json,
            Command::Index(a) => a.json,
            Command::Snapshot(a) => a.json,
            Command::Log(a) => a.json,
            Command::Diff(a) => a.json,
            Command::Doctor(a) => a.json,
            Command::Pack(a) => a.json,
            Command::Extract(a) => a.json,
            Command::Verify(a) => a.json,
            Command::Review(a) => a.json,
            Command::Promote(a) => a.json,
            Command::Proposals(a) => a.json,
            Command::Consolidate(a) => a.json,
            Command::Search(a) => a.json,
            Command::Save(a) => a.json,
            Command::Edit(a) => a.json,
            Command::Rm(a) => a.json,
            Command::Rollback(a) => a.json,
            Command::Undo(a) => a.json,
            Command::Redo(a) => a.json,
            Command::Revert(a) => a.json,
            Command::Restore(a) => a.json,
            Command::Op(a) => a.wants_json(),
            Command::Recall(a) => a.json,
            Command::Init(a) => a.json,
            Command::Mcp(_) => false,
            Command::Hooks(a) => a.wants_json(),
            Command::Team(a) => a.wants_json(),
            Command::Sync(a) => a.json,
            Command::Resolve(a) => a.json,
            Command::MergeIndex(_) | Command::Completions(_) | Command::Man(_) => false,
        }
    }
}

/// Where output goes: the library never prints to the process's streams itself.
pub struct Output<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    pub quiet: bool,
    pub verbose: bool,
    /// stderr is a terminal: progress lines are shown there.
    pub progress: bool,
    /// stdout is a terminal: control characters in what is printed there are shown escaped.
    pub terminal: bool,
    /// What goes to stdout gets colour ([`style`]: `--color`, `NO_COLOR`, a terminal).
    pub color: bool,
    /// What goes to stderr gets colour: `error:`, `warning:`, `hint:`.
    pub err_color: bool,
}

/// `text` as printed where it goes: on a `terminal`, its control characters but line breaks and
/// tabs shown as escapes (`\u{1b}`); elsewhere byte for byte. Memories are text others wrote (a
/// teammate, an agent, a repository), and an escape sequence printed raw on a terminal can
/// retitle it, clear it or hide lines.
pub fn printable(text: &str, terminal: bool) -> std::borrow::Cow<'_, str> {
    let escaped = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !terminal || !text.chars().any(escaped) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

impl Output<'_> {
    /// A line of normal output (suppressed by `-q`).
    pub fn info(&mut self, line: &str) -> Result<(), Error> {
        if self.quiet {
            return Ok(());
        }
        self.data(&format!("{line}\n"))
    }

    /// A line shown only with `-v`.
    pub fn detail(&mut self, line: &str) -> Result<(), Error> {
        if !self.verbose || self.quiet {
            return Ok(());
        }
        self.data(&format!("{line}\n"))
    }

    /// Data the command exists to print (shown even with `-q`); byte for byte unless stdout is
    /// a terminal ([`printable`]).
    pub fn data(&mut self, text: &str) -> Result<(), Error> {
        let text = printable(text, self.terminal);
        self.out.write_all(text.as_bytes()).map_err(stdout_error)
    }

    /// JSON on one line.
    pub fn json(&mut self, value: &serde_json::Value) -> Result<(), Error> {
        writeln!(self.out, "{value}").map_err(stdout_error)
    }

    /// A line for a person, not for a script, on stderr when it is a terminal (and not `-q`):
    /// where an empty listing looked, why a search found nothing.
    pub fn note(&mut self, line: &str) -> Result<(), Error> {
        self.progress(line)
    }

    /// A progress line on stderr, only when it is a terminal (and not `-q`).
    pub fn progress(&mut self, line: &str) -> Result<(), Error> {
        if !self.progress || self.quiet {
            return Ok(());
        }
        writeln!(self.err, "{line}").map_err(|source| Error::Io {
            context: "writing to stderr".into(),
            source,
        })
    }

    /// `warning: …` on stderr.
    pub fn warn(&mut self, line: &str) -> Result<(), Error> {
        self.labelled(style::WARNING, "warning:", line)
    }

    /// `hint: …` on stderr: what to do next.
    pub fn hint(&mut self, line: &str) -> Result<(), Error> {
        self.labelled(style::HINT, "hint:", line)
    }

    /// `label` in its style, then `line`, on stderr.
    fn labelled(&mut self, style: style::Style, label: &str, line: &str) -> Result<(), Error> {
        let line = printable(line, self.progress);
        let label = style::paint(self.err_color, style, label);
        writeln!(self.err, "{label} {line}").map_err(|source| Error::Io {
            context: "writing to stderr".into(),
            source,
        })
    }

    /// Data with its styles: coloured when stdout gets colour, each piece escaped as
    /// [`Output::data`] escapes text.
    pub fn painted(&mut self, text: &style::Painted) -> Result<(), Error> {
        let text = text.render(self.color, self.terminal);
        self.out.write_all(text.as_bytes()).map_err(stdout_error)
    }

    /// Report what adoption did before (or as) a write.
    pub fn adoption(&mut self, adoption: &Adoption) -> Result<(), Error> {
        for (id, subject) in &adoption.commits {
            self.info(&format!("adopted {} {subject}", short(id)))?;
        }
        for file in &adoption.unindexed {
            self.warn(&format!(
                "{file} is not in MEMORY.md yet: a save in progress, or an interrupted one (left uncommitted)"
            ))?;
        }
        for file in &adoption.dangling {
            self.warn(&format!(
                "MEMORY.md names {file}, which does not exist (yet): left uncommitted"
            ))?;
        }
        for file in &adoption.deleted_but_indexed {
            self.warn(&format!(
                "{file} was deleted but MEMORY.md still names it: left uncommitted"
            ))?;
        }
        for file in &adoption.unreadable {
            self.warn(&format!(
                "{file} has unreadable frontmatter; adopted as it is, untyped"
            ))?;
        }
        Ok(())
    }
}

fn stdout_error(source: std::io::Error) -> Error {
    Error::Io {
        context: "writing to stdout".into(),
        source,
    }
}

/// A commit id as shown to people.
pub fn short(id: &gix::ObjectId) -> String {
    id.to_hex_with_len(7).to_string()
}

/// What every subcommand starts from.
pub struct Ctx {
    pub env: Environment,
    pub global: GlobalArgs,
}

/// Where memory lives for this invocation, and whether writing there is allowed.
pub struct Resolved {
    pub location: MemoryLocation,
    pub auto_memory: AutoMemory,
    /// The extraction throttle (`memdir.extractEveryTurns`).
    pub extract_every: u32,
    /// The model Claude Code runs for extraction (`memdir.extract.model`).
    pub extract_model: String,
    /// Whether the prompt hook adds memories (`memdir.recall`).
    pub recall_prompt: bool,
    /// Whether the SessionStart hook adds the team index (`memdir.recall`).
    pub recall_session_start: bool,
    /// What the prompt hook may add (`memdir.recall`).
    pub recall_limits: crate::settings::RecallLimits,
    /// When the background consolidation runs (`memdir.consolidate`); `None`: it does not.
    pub consolidate: Option<crate::settings::ConsolidateEvery>,
}

impl Ctx {
    pub fn project(&self) -> PathBuf {
        match &self.global.project {
            Some(project) => absolute_from(&self.env.cwd, project),
            None => self.env.cwd.clone(),
        }
    }

    /// Resolve the memory dir (§2) and the enable switch, telling the user about an ignored
    /// project setting.
    pub fn resolve(&self, output: &mut Output<'_>) -> Result<Resolved, Error> {
        let project = self.project();
        let settings = Settings::load(&self.env, &project)?;
        let mut location = resolve_memory_dir(
            &self.env,
            &settings,
            self.global.memory_dir.as_deref(),
            &project,
        )?;
        if self.global.team {
            location.dir = crate::paths::team_dir(&location.dir);
            if !crate::team::sync::is_team_repo(&location.dir) {
                return Err(Error::Usage(format!(
                    "no team memory at {}: run memdir team init --remote URL",
                    location.dir.display()
                )));
            }
        }
        for skipped in &settings.skipped {
            output.warn(skipped)?;
        }
        if let Some(note) = location.ignored_setting_note() {
            output.warn(&note)?;
        }
        Ok(Resolved {
            auto_memory: auto_memory(&self.env, &settings),
            extract_every: settings.extract_every(),
            extract_model: settings.extract_model(),
            recall_prompt: settings.recall_prompt(),
            recall_session_start: settings.recall_session_start(),
            recall_limits: settings.recall_limits(),
            consolidate: settings.consolidate(),
            location,
        })
    }

    /// The memory dir, locked for a write; refuses (exit 3) when auto memory is off.
    pub fn open_for_write(&self, output: &mut Output<'_>) -> Result<Store, Error> {
        let resolved = self.resolve(output)?;
        resolved.check_enabled()?;

        Ok(Store::open(&resolved.location.dir)?)
    }
}

impl Resolved {
    pub fn dir(&self) -> &Path {
        &self.location.dir
    }

    pub fn check_enabled(&self) -> Result<(), Error> {
        match &self.auto_memory {
            AutoMemory::On => Ok(()),
            AutoMemory::Off(switch) => Err(Error::Disabled(switch.clone())),
        }
    }
}

/// A hook payload over this is refused. The same cap as a transcript line: a payload repeats what
/// one tool call wrote (PostToolUse: the tool's input and response), as a transcript line does.
pub const MAX_PAYLOAD_BYTES: usize = crate::extract::transcript::MAX_LINE_BYTES;

/// The fields of a Claude Code hook payload (on stdin) that memdir uses; every event has them.
#[derive(Debug, Default, serde::Deserialize)]
pub struct HookPayload {
    pub session_id: Option<String>,
    pub cwd: Option<PathBuf>,
    pub transcript_path: Option<PathBuf>,
    pub hook_event_name: Option<String>,
    /// PostToolUse: the tool's input (`file_path`, `notebook_path`).
    pub tool_input: Option<serde_json::Value>,
    /// UserPromptSubmit: what the user typed.
    pub prompt: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear` or `compact`.
    pub source: Option<String>,
}

impl HookPayload {
    /// The file a PostToolUse payload's tool wrote (`file_path`, or `notebook_path`).
    pub fn written_path(&self) -> Option<PathBuf> {
        let input = self.tool_input.as_ref()?;
        let path = input
            .get("file_path")
            .or_else(|| input.get("notebook_path"))?
            .as_str()?;
        let path = Path::new(path);
        Some(match &self.cwd {
            Some(cwd) => absolute_from(cwd, path),
            None => path.to_path_buf(),
        })
    }

    /// Read the payload Claude Code writes on a hook's stdin.
    pub fn from_stdin() -> Result<HookPayload, Error> {
        HookPayload::parse(std::io::stdin().lock())
    }

    /// Parse a payload: one JSON object, at most [`MAX_PAYLOAD_BYTES`].
    pub fn parse(mut input: impl Read) -> Result<HookPayload, Error> {
        let mut bytes = Vec::new();
        (&mut input)
            .take(MAX_PAYLOAD_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|source| Error::Io {
                context: "reading the hook payload from stdin".into(),
                source,
            })?;
        if bytes.len() > MAX_PAYLOAD_BYTES {
            // The rest is read and dropped: Claude Code is still writing it, and a closed pipe
            // would make that write fail on its side.
            let _ = std::io::copy(&mut input, &mut std::io::sink());
            return Err(Error::Usage(format!(
                "the hook payload on stdin is over {} MiB; it was not read",
                MAX_PAYLOAD_BYTES >> 20
            )));
        }
        if bytes.trim_ascii().is_empty() {
            return Err(Error::Usage("the hook payload on stdin is empty".into()));
        }
        serde_json::from_slice(&bytes).map_err(|e| {
            Error::Usage(format!(
                "the hook payload on stdin is not a JSON object of a hook's fields: {e}"
            ))
        })
    }
}

impl Ctx {
    /// This context, with the payload's cwd as the project unless `--project` was given.
    pub fn for_hook(&self, payload: &HookPayload) -> Ctx {
        let mut global = self.global.clone();
        if global.project.is_none() {
            global.project = payload.cwd.clone();
        }
        Ctx {
            env: self.env.clone(),
            global,
        }
    }
}

/// A session id goes into a commit trailer: one line of printable text.
pub fn validate_session(session: Option<&str>) -> Result<Option<&str>, Error> {
    match session {
        Some(s) if s.is_empty() || s.len() > 200 || s.chars().any(char::is_control) => {
            Err(Error::Usage(format!(
                "invalid session id {s:?}: one line of printable text, at most 200 bytes"
            )))
        }
        other => Ok(other),
    }
}

/// Run one parsed command.
pub fn run(cli: &Cli, env: Environment, output: &mut Output<'_>) -> Result<(), Error> {
    let ctx = Ctx {
        env,
        global: cli.global.clone(),
    };
    match &cli.command {
        Command::Init(args) => init::run(&ctx, args, output),
        Command::Context(args) => context::run(&ctx, args, output),
        Command::Path(args) => path::run(&ctx, args, output),
        Command::Save(args) => save::run(&ctx, args, output),
        Command::Edit(args) => edit::run(&ctx, args, output),
        Command::List(args) => list::run(&ctx, args, output),
        Command::Show(args) => show::run(&ctx, args, output),
        Command::Rm(args) => rm::run(&ctx, args, output),
        Command::Index(args) => index::run(&ctx, args, output),
        Command::Snapshot(args) => snapshot::run(&ctx, args, output),
        Command::Log(args) => log::run(&ctx, args, output),
        Command::Diff(args) => diff::run(&ctx, args, output),
        Command::Doctor(args) => doctor::run(&ctx, args, output),
        Command::Pack(args) => pack::run(&ctx, args, output),
        Command::Rollback(args) => rollback::run(&ctx, args, output),
        Command::Undo(args) => undo::run(&ctx, args, output),
        Command::Redo(args) => undo::run_redo(&ctx, args, output),
        Command::Revert(args) => revert::run(&ctx, args, output),
        Command::Op(args) => op::run(&ctx, args, output),
        Command::Restore(args) => restore::run(&ctx, args, output),
        Command::Extract(args) => extract::run(&ctx, args, output),
        Command::Hooks(args) => hooks::run(&ctx, args, output),
        Command::Verify(args) => verify::run(&ctx, args, output),
        Command::Review(args) => review::run(&ctx, args, output),
        Command::Promote(args) => promote::run(&ctx, args, output),
        Command::Proposals(args) => proposals::run(&ctx, args, output),
        Command::Consolidate(args) => consolidate::run(&ctx, args, output),
        Command::Search(args) => search::run(&ctx, args, output),
        Command::Recall(args) => recall::run(&ctx, args, output),
        Command::Mcp(args) => mcp::run(&ctx, args, output),
        Command::MergeIndex(args) => merge_index::run(&ctx, args, output),
        Command::Team(args) => team::run(&ctx, args, output),
        Command::Sync(args) => sync::run(&ctx, args, output),
        Command::Resolve(args) => resolve::run(&ctx, args, output),
        Command::Completions(args) => completions::run(&ctx, args, output),
        Command::Man(args) => man::run(&ctx, args, output),
    }
}
