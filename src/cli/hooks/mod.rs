//! `memdir hooks`: install memdir's Claude Code hook entries and git hook, or print the entries
//! (the library is [`crate::hooks`]).

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::hooks::DEFAULT_PROGRAM;

mod install;
mod show;

/// Install or print the hook entries that keep memory committed and extracted.
#[derive(Debug, clap::Args)]
pub struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum HooksAction {
    Install(InstallArgs),
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
    /// Print JSON: with --claude {path, added: [{event, matcher?, command}], replaced: [{event,
    /// from, to}], unchanged}; with --git, a "git" key {path, action: created|appended|updated|
    /// made executable|unchanged}.
    #[arg(long)]
    pub json: bool,
}

/// Print memdir's Claude Code hook entries, to paste into a settings file by hand.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub program: ProgramArg,
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
    /// `<project>/.claude/settings.local.json`: this project, this machine, not committed.
    ProjectLocal,
}

pub fn run(ctx: &Ctx, args: &HooksArgs, output: &mut Output<'_>) -> Result<(), Error> {
    match &args.action {
        HooksAction::Install(args) => install::run(ctx, args, output),
        HooksAction::Show(args) => show::run(ctx, args, output),
    }
}

impl HooksArgs {
    pub(crate) fn wants_json(&self) -> bool {
        match &self.action {
            HooksAction::Install(args) => args.json,
            HooksAction::Show(args) => args.json,
        }
    }
}

impl ProgramArg {
    /// The program the hooks run, as written into them.
    fn resolve(&self, ctx: &Ctx) -> Result<String, Error> {
        Ok(crate::hooks::program_path(&ctx.env.cwd, &self.program)?)
    }
}
