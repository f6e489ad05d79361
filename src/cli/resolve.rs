//! `memdir resolve NAME --ours|--theirs|--edit` (and `memdir team resolve`): finish a conflict a
//! sync kept both sides of (DESIGN §8; the library is [`crate::sync::conflict`]).

use std::path::Path;

use crate::Error;
use crate::cli::written::{Changed, written_json};
use crate::cli::{Ctx, Output, short};
use crate::memory::store::{Adoption, Store};
use crate::sync::conflict::{Conflict, Resolution, resolve};

/// Finish a conflict a sync kept: `NAME.md` holds this side's version, `NAME.conflict-<id>.md`
/// the other side's (out of MEMORY.md until then).
///
/// `--ours` keeps NAME.md; `--theirs` takes the copy's text; `--edit` opens both in $VISUAL (or
/// $EDITOR) between conflict markers and takes what you save. The copies go, in one commit; the
/// next sync shares the resolution. NAME may also be one copy's name, to take that one.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("how").required(true).multiple(false)))]
pub struct ResolveArgs {
    /// The memory (`deploy-window`), or one conflict copy (`deploy-window.conflict-1a2b3c4`).
    pub name: String,
    /// Keep NAME.md as it is.
    #[arg(long, group = "how")]
    pub ours: bool,
    /// Take the other side's version (the copy's text).
    #[arg(long, group = "how")]
    pub theirs: bool,
    /// Write the version to keep yourself, from both, in your editor.
    #[arg(long, group = "how")]
    pub edit: bool,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}], kept, removed}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &ResolveArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let next = if ctx.global.team {
        "memdir team sync"
    } else {
        "memdir sync"
    };
    run_in(resolved.dir(), args, next, output)
}

/// Resolve in the memory dir `dir`; `next` is the sync that shares it.
pub fn run_in(
    dir: &Path,
    args: &ResolveArgs,
    next: &str,
    output: &mut Output<'_>,
) -> Result<(), Error> {
    let conflict = Conflict::find(dir, &args.name)?;
    let how = if args.ours {
        Resolution::Ours
    } else if args.theirs {
        Resolution::Theirs
    } else {
        Resolution::Edited(edit(dir, &conflict)?)
    };
    let mut store = Store::open(dir)?;
    let done = resolve(&mut store, &conflict, &how)?;
    let id = gix::ObjectId::from_hex(done.commit.as_bytes()).ok();
    if args.json {
        // What every write prints (its commit, the memory it changed), and how it was resolved.
        let entry = id.map(|id| store.repo.history_entry(id)).transpose()?;
        let memory_type = entry
            .as_ref()
            .and_then(|e| e.memory_subject())
            .and_then(|(_, kind, _)| kind.parse().ok());
        let changed = Changed {
            name: &done.name,
            memory_type,
            change: "updated",
        };
        let mut value = written_json(&store.repo, &Adoption::default(), id, &[changed])?;
        value["kept"] = done.kept.into();
        value["removed"] = done.removed.clone().into();
        return output.json(&value);
    }
    let commit = id.map(|id| short(&id)).unwrap_or_default();
    output.info(&format!(
        "resolved {}: kept {} ({commit}); removed {}; {next} shares it",
        done.name,
        match how {
            Resolution::Ours => "this side's version",
            Resolution::Theirs => "the other side's version",
            Resolution::Edited(_) => "your edit",
        },
        done.removed.join(", ")
    ))
}

/// Both sides in the person's editor; what they saved.
fn edit(dir: &Path, conflict: &Conflict) -> Result<String, Error> {
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|var| std::env::var(var).ok().filter(|v| !v.trim().is_empty()))
        .ok_or_else(|| {
            Error::Usage(
                "--edit needs an editor: set VISUAL or EDITOR (or use --ours or --theirs)".into(),
            )
        })?;
    let file = dir
        .join(".git")
        .join("memdir")
        .join(format!("resolve-{}.md", conflict.name));
    let io = |source| Error::Io {
        context: format!("writing {}", file.display()),
        source,
    };
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    std::fs::write(&file, conflict.text_to_edit()).map_err(io)?;
    // As git runs it: through the shell, the file as its last argument.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg(&editor)
        .arg(&file)
        .status();
    let text = match status {
        Ok(status) if status.success() => std::fs::read_to_string(&file).map_err(io),
        Ok(status) => Err(Error::Usage(format!(
            "the editor ({editor}) ended with {status}; nothing was changed"
        ))),
        Err(source) => Err(Error::Io {
            context: format!("running the editor {editor}"),
            source,
        }),
    };
    let _ = std::fs::remove_file(&file);
    text
}
