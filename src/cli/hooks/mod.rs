//! `memdir hooks`: install memdir's Claude Code hook entries and git hook, uninstall them, or
//! print the entries (the library is [`crate::hooks`]).

use std::path::PathBuf;

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::hooks::DEFAULT_PROGRAM;
use crate::hooks::claude::HookExtractor;

mod install;
mod show;
mod uninstall;

/// Install, uninstall or print the hook entries that keep memory committed and extracted.
#[derive(Debug, clap::Args)]
pub struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum HooksAction {
    Install(InstallArgs),
    Uninstall(UninstallArgs),
    Show(ShowArgs),
}

/// Merge memdir's hook entries into a Claude Code settings file, and its git hook into the
/// project's repository.
///
/// --claude: Stop, SessionEnd and PreCompact run `memdir extract --hook`; PostToolUse on
/// Write|Edit|MultiEdit|NotebookEdit runs `memdir snapshot --hook`. Every other key and hook in
/// the file is kept; an entry that is already there is left alone, so installing twice changes
/// nothing. A memdir command of another path or older arguments is updated in place.
///
/// --git: a post-merge hook running `memdir proposals --reconcile -q` (it never fails a merge),
/// in the project repository's hooks folder (`core.hooksPath` if set, else `.git/hooks`). An
/// existing post-merge hook keeps everything it has: memdir's line is added to it if absent.
///
/// The hooks are written even when the program they run cannot be found (a bare name on PATH,
/// else an executable file at that path), with a warning: memdir may be installed later.
#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Install Claude Code's hook entries (into settings.json).
    #[arg(long)]
    pub claude: bool,
    /// Install the git post-merge hook into the project's repository.
    #[arg(long)]
    pub git: bool,
    /// Which settings file to merge into.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    #[command(flatten)]
    pub program: ProgramArg,
    #[command(flatten)]
    pub extractor: ExtractorArg,
    /// Print JSON: {resolves} (whether the program was found); with --claude {path, added:
    /// [{event, matcher?, command}], replaced: [{event, from, to}], unchanged, exclude?:
    /// {action: added|ignored|tracked, path?, line?}}; with --git, a "git"
    /// key {path, action: created|appended|updated|made executable|unchanged}.
    #[arg(long)]
    pub json: bool,
}

/// Take out what `hooks install` wrote: memdir's hook entries from a Claude Code settings file,
/// its line from the project's post-merge hook.
///
/// --claude: every hook install counts as memdir's (a command running memdir's extract, snapshot
/// or recall under the event install puts it in, whatever memdir's path or extractor) is
/// removed; a matcher group, an event's list or the "hooks" object goes only when that removal
/// emptied it. Every other key and hook stays as it was, in its order; the file is not written
/// when nothing of memdir's is in it.
///
/// --git: memdir's line comes out of the post-merge hook; a hook that was memdir's alone is
/// deleted.
#[derive(Debug, clap::Args)]
pub struct UninstallArgs {
    /// Remove memdir's Claude Code hook entries (from settings.json).
    #[arg(long)]
    pub claude: bool,
    /// Remove memdir's line from the project repository's post-merge hook.
    #[arg(long)]
    pub git: bool,
    /// Which settings file to remove them from.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// A memdir executable installed under another name: its commands are memdir's too (one
    /// named memdir is recognised at any path without it).
    #[arg(long = "command", value_name = "PATH")]
    pub program: Option<String>,
    /// Print JSON: with --claude {path, removed: [{event, matcher?, command}], unchanged}; with
    /// --git, a "git" key {path, action: removed|deleted|unchanged}.
    #[arg(long)]
    pub json: bool,
}

/// Print memdir's Claude Code hook entries, to paste into a settings file by hand.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub program: ProgramArg,
    #[command(flatten)]
    pub extractor: ExtractorArg,
    /// Print the entries on one line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ProgramArg {
    /// The memdir executable the hook commands run. A relative path is made absolute (hooks run
    /// in the session's directory); a bare name is looked up on PATH.
    #[arg(long = "command", value_name = "PATH", default_value = DEFAULT_PROGRAM)]
    pub program: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// `<config dir>/settings.json`: every project of this user.
    User,
    /// `<project>/.claude/settings.local.json`: this project, this machine, not committed (install
    /// adds it to the repository's .git/info/exclude unless git ignores it already).
    ProjectLocal,
}

pub fn run(ctx: &Ctx, args: &HooksArgs, output: &mut Output<'_>) -> Result<(), Error> {
    match &args.action {
        HooksAction::Install(args) => install::run(ctx, args, output),
        HooksAction::Uninstall(args) => uninstall::run(ctx, args, output),
        HooksAction::Show(args) => show::run(ctx, args, output),
    }
}

impl HooksArgs {
    pub(crate) fn wants_json(&self) -> bool {
        match &self.action {
            HooksAction::Install(args) => args.json,
            HooksAction::Uninstall(args) => args.json,
            HooksAction::Show(args) => args.json,
        }
    }
}

impl Scope {
    /// The settings file of this scope, and the folder a write to it must stay in (a project's
    /// local settings never lead memdir to write outside the project).
    fn settings_file(self, ctx: &Ctx) -> Result<(PathBuf, Option<PathBuf>), Error> {
        Ok(match self {
            Scope::User => (ctx.env.config_dir()?.join("settings.json"), None),
            Scope::ProjectLocal => {
                let project = ctx.project();
                (
                    project.join(".claude").join("settings.local.json"),
                    Some(project),
                )
            }
        })
    }
}

/// A hook's event as people read it, with the matcher of its group in brackets.
fn event_label(event: &str, matcher: Option<&str>) -> String {
    match matcher {
        Some(matcher) => format!("{event} [{matcher}]"),
        None => event.to_string(),
    }
}

/// A hook as `--json` reports it: `{event, matcher?, command}`.
fn hook_json(event: &str, matcher: Option<&str>, command: &str) -> serde_json::Value {
    let mut entry = serde_json::json!({"event": event, "command": command});
    if let Some(matcher) = matcher {
        entry["matcher"] = serde_json::Value::from(matcher);
    }
    entry
}

#[derive(Debug, clap::Args)]
pub struct ExtractorArg {
    /// What the extraction hooks extract with: auto (a model when one answers, else builtin),
    /// agent (the model only) or builtin (offline, deterministic, free). The README says what a
    /// model call costs. Without it, hooks already installed keep theirs; new ones are auto.
    #[arg(long, value_name = "NAME", value_parser = ["auto", "agent", "builtin"])]
    pub extractor: Option<String>,
    /// The model as a command of your own, run with `sh -c` (auto or agent) [default: Claude
    /// Code, run by memdir as `claude -p`].
    #[arg(long, value_name = "CMD")]
    pub agent_cmd: Option<String>,
}

impl ExtractorArg {
    /// The extractor asked for, if one is.
    fn resolve(&self) -> Result<Option<HookExtractor>, Error> {
        if let Some(cmd) = &self.agent_cmd
            && (cmd.trim().is_empty() || cmd.contains(['\n', '\r', '\0']))
        {
            return Err(Error::Usage(format!(
                "--agent-cmd {cmd:?} is not a one-line command"
            )));
        }
        let cmd = self.agent_cmd.clone();
        match self.extractor.as_deref() {
            None if cmd.is_none() => Ok(None),
            None | Some("auto") => Ok(Some(HookExtractor::Auto { cmd })),
            Some("agent") => Ok(Some(HookExtractor::Agent { cmd })),
            Some(_) if cmd.is_some() => Err(Error::Usage(
                "--agent-cmd names the model, which --extractor builtin does not use".into(),
            )),
            Some(_) => Ok(Some(HookExtractor::Builtin)),
        }
    }
}

impl ProgramArg {
    /// The program the hooks run, as written into them.
    fn resolve(&self, ctx: &Ctx) -> Result<String, Error> {
        Ok(crate::hooks::program_path(&ctx.env.cwd, &self.program)?)
    }
}
