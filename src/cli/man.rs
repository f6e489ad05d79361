//! `memdir man DIR`: memdir's man pages, one per command and subcommand, generated from the
//! command line's own definitions (`clap_mangen`: the same text as `--help`), never checked in.

use std::path::PathBuf;

use clap::CommandFactory;

use crate::Error;
use crate::cli::{Cli, Ctx, Output};

/// Write memdir's man pages into a folder, one per command and subcommand.
///
/// memdir.1, memdir-save.1, memdir-hooks-install.1, …, each with the text of its --help. The
/// folder is created when missing; pages already there are replaced. Point MANPATH at its
/// parent, or write into a folder man already reads, such as ~/.local/share/man/man1.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// The folder to write the pages into.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

pub fn run(ctx: &Ctx, args: &ManArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let dir = crate::paths::absolute_from(&ctx.env.cwd, &args.dir);
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{} is not a folder: give the folder to write the man pages into",
            dir.display()
        )));
    }
    let io = |context: String| move |source| Error::Io { context, source };
    let mut root = Cli::command().disable_help_subcommand(true);
    root.build();
    let mut pages = Vec::new();
    render(root, &mut pages).map_err(io("rendering the man pages".into()))?;
    std::fs::create_dir_all(&dir).map_err(io(format!("creating {}", dir.display())))?;
    for (name, page) in &pages {
        let file = dir.join(name);
        crate::atomic::replace(&file, page).map_err(io(format!("writing {}", file.display())))?;
        output.detail(&format!("wrote {}", file.display()))?;
    }
    output.info(&format!(
        "wrote {} man pages to {}",
        pages.len(),
        dir.display()
    ))
}

/// The page of `command` and those of its subcommands but hidden ones (`merge-index` is for
/// git, not people), each with its file name (`memdir-hooks-install.1`: clap names a built
/// subcommand after its parents).
fn render(command: clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        render(sub.clone(), pages)?;
    }
    let man = clap_mangen::Man::new(command);
    let mut page = Vec::new();
    man.render(&mut page)?;
    pages.push((man.get_filename(), page));
    Ok(())
}
