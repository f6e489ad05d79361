//! `memdir completions SHELL`: the shell's completion script for memdir, generated from the
//! command line's own definitions (`clap_complete`), so it never falls behind a new flag.

use clap::CommandFactory;

use crate::Error;
use crate::cli::{Cli, Ctx, Output};

/// Print the completion script of a shell for memdir's commands and flags.
///
/// Load it from the shell's start-up file. bash: `source <(memdir completions bash)`; zsh: save
/// it as `_memdir` in a folder on $fpath; fish: save it as
/// ~/.config/fish/completions/memdir.fish; elvish: `eval (memdir completions elvish | slurp)`;
/// PowerShell: `memdir completions powershell | Out-String | Invoke-Expression`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(_ctx: &Ctx, args: &CompletionsArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut visible_commands(), "memdir", &mut script);
    output.data(&String::from_utf8_lossy(&script))
}

/// memdir's command line without its hidden commands (`merge-index`, git's merge driver):
/// clap_complete 4.6's generators offer hidden subcommands (clap-rs/clap#1335), and clap cannot
/// remove one, so the root is assembled again from its own flags and visible subcommands, with
/// the version `Cli` declares.
fn visible_commands() -> clap::Command {
    let full = Cli::command();
    clap::Command::new("memdir")
        .version(env!("CARGO_PKG_VERSION"))
        .propagate_version(true)
        .args(full.get_arguments().cloned())
        .subcommands(full.get_subcommands().filter(|c| !c.is_hide_set()).cloned())
}
