//! Shell completion (DESIGN §11), on clap_complete's completion engine: the script
//! `memdir completions SHELL` prints only registers memdir with the shell, and each Tab runs
//! memdir itself (`MEMDIR_COMPLETE=<shell> memdir -- <words>`), which completes from the command
//! line's own definitions — so a new flag is never missing — and from the memory dir the line
//! names: memory names (of team memory with `--team`), deleted ones for `restore`, revisions,
//! types and operations as values.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::CommandFactory;
use clap_complete::CompletionCandidate;
use clap_complete::env::Shells;

use crate::Error;
use crate::cli::{Cli, Ctx, GlobalArgs, Output};
use crate::memory::taxonomy::MemoryType;

/// The variable that makes a run of memdir a completion request (its value: the shell).
pub const VAR: &str = "MEMDIR_COMPLETE";

/// Print the completion script of a shell for memdir's commands, flags and values.
///
/// The script registers memdir with the shell; each Tab asks memdir itself, so flags, memory
/// names (--team: team memory's), revisions and types come from memdir as it is. Load it from
/// the shell's start-up file. bash: `source <(memdir completions bash)`; zsh: `source <(memdir
/// completions zsh)`; fish: `memdir completions fish | source`; elvish: `eval (memdir
/// completions elvish | slurp)`; PowerShell: `memdir completions powershell | Out-String |
/// Invoke-Expression`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(ctx: &Ctx, args: &CompletionsArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let shells = Shells::builtins();
    let name = args.shell.to_string();
    let shell = shells
        .completer(&name)
        .ok_or_else(|| Error::Usage(format!("no completion for the shell {name}")))?;
    let mut script = Vec::new();
    shell
        .write_registration(VAR, "memdir", "memdir", &completer(ctx), &mut script)
        .map_err(|source| Error::Io {
            context: "writing the completion script".into(),
            source,
        })?;
    output.data(&String::from_utf8_lossy(&script))
}

/// The memdir the shell runs on Tab: this one as it was started — by name when found on PATH,
/// else by its path, made absolute.
fn completer(ctx: &Ctx) -> String {
    let started = std::env::args_os()
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("memdir"));
    let path = if started.components().count() > 1 {
        crate::paths::absolute_from(&ctx.env.cwd, &started)
    } else {
        started
    };
    path.to_string_lossy().into_owned()
}

/// The command line as the completion engine reads it.
pub fn command() -> clap::Command {
    Cli::command()
}

/// The memory dir of the command line being completed (its `--memory-dir`, `--project` and
/// `--team`, else the current directory's), if it resolves.
fn completed_dir() -> Option<PathBuf> {
    let words: Vec<OsString> = std::env::args_os()
        .skip_while(|a| a != "--")
        .skip(1)
        .collect();
    let mut global = GlobalArgs {
        memory_dir: None,
        project: None,
        quiet: true,
        verbose: false,
        team: false,
        color: crate::cli::style::ColorWhen::Never,
        no_pager: true,
    };
    let mut words = words.iter().map(|w| w.to_string_lossy());
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) => (flag.to_string(), Some(value.to_string())),
            None => (word.to_string(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| words.next().map(|w| w.into_owned()))
        };
        match flag.as_str() {
            "--memory-dir" => global.memory_dir = value().map(PathBuf::from),
            "--project" => global.project = value().map(PathBuf::from),
            "--team" => global.team = true,
            "--" => break,
            _ => {}
        }
    }
    let ctx = Ctx {
        env: crate::env::Environment::from_process().ok()?,
        global,
    };
    let (mut out, mut err) = (std::io::sink(), std::io::sink());
    let mut output = Output {
        out: &mut out,
        err: &mut err,
        quiet: true,
        verbose: false,
        progress: false,
        terminal: false,
        color: false,
        err_color: false,
    };
    Some(ctx.resolve(&mut output).ok()?.dir().to_path_buf())
}

/// The memories of the memory dir being completed, each with its description.
pub fn memory_names() -> Vec<CompletionCandidate> {
    let Some(dir) = completed_dir() else {
        return Vec::new();
    };
    let Ok(listing) = crate::memory::catalog::list_memories(&dir) else {
        return Vec::new();
    };
    listing
        .memories
        .into_iter()
        .map(|m| {
            CompletionCandidate::new(m.name).help(
                m.description
                    .map(|d| d.chars().take(60).collect::<String>().into()),
            )
        })
        .collect()
}

/// The memories history holds that the memory dir does not: what `restore` brings back.
pub fn deleted_names() -> Vec<CompletionCandidate> {
    let Some(dir) = completed_dir() else {
        return Vec::new();
    };
    let Ok(history) = crate::repo::history_of(&dir) else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for entry in &history {
        let deleted = entry
            .op_type_name()
            .is_some_and(|(op, _, _)| op == "delete");
        for name in entry.names() {
            if seen.insert(name.to_string()) && deleted && !dir.join(format!("{name}.md")).exists()
            {
                out.push(
                    CompletionCandidate::new(name)
                        .help(Some(format!("deleted in {}", short(entry)).into())),
                );
            }
        }
    }
    out
}

/// Revisions: `HEAD`, then the newest commits by their short ids, each with its subject.
pub fn revisions() -> Vec<CompletionCandidate> {
    /// Enough to reach back a while; a longer history is reached by `HEAD~N` or an id.
    const COMMITS: usize = 50;
    let Some(dir) = completed_dir() else {
        return Vec::new();
    };
    let Ok(history) = crate::repo::history_of(&dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(head) = history.first() {
        out.push(CompletionCandidate::new("HEAD").help(Some(head.subject.clone().into())));
    }
    out.extend(history.iter().take(COMMITS).map(|entry| {
        CompletionCandidate::new(short(entry)).help(Some(entry.subject.clone().into()))
    }));
    out
}

fn short(entry: &crate::repo::message::HistoryEntry) -> String {
    entry.commit.to_hex_with_len(7).to_string()
}

/// The four types, each with what it is for.
pub fn types() -> Vec<CompletionCandidate> {
    MemoryType::ALL
        .iter()
        .map(|t| CompletionCandidate::new(t.as_str()).help(Some(t.purpose().into())))
        .collect()
}

/// The operations a commit can record (`log --op`): memdir's own, and a team sync's merge.
pub fn operations() -> Vec<CompletionCandidate> {
    crate::repo::message::Op::ALL
        .iter()
        .map(|op| op.as_str())
        .chain(["merge"])
        .map(CompletionCandidate::new)
        .collect()
}
