//! `memdir show`: one memory's topic file.

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::memory::catalog::{read_memory, read_memory_at};
use crate::repo::MemoryRepo;

/// Print a memory's topic file.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The memory's name.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::memory_names))]
    pub name: String,
    /// Show it as it was in this commit (`HEAD~3`, a commit id) instead of as it is now.
    #[arg(long, value_name = "REV", add = clap_complete::ArgValueCandidates::new(crate::cli::completions::revisions))]
    pub at: Option<String>,
    /// Print JSON: {name, type, description, title, file, body, saved} (`saved`: when history
    /// last changed it, merged work included; null with --at).
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &ShowArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let (memory, text, topic) = match &args.at {
        None => read_memory(resolved.dir(), &args.name)?,
        Some(rev) => {
            let repo = MemoryRepo::open(resolved.dir())?;
            read_memory_at(&repo, repo.resolve_commit(rev)?, &args.name)?
        }
    };
    if args.json {
        let mut value = memory.to_json();
        value["body"] = serde_json::Value::String(topic.body);
        let saved = match args.at {
            Some(_) => None,
            None => crate::memory::age::last_saved(&crate::repo::history_of(resolved.dir())?)
                .get(&memory.name)
                .map(|time| crate::memory::age::format_time(*time)),
        };
        value["saved"] = saved.into();
        return output.json(&value);
    }
    output.data(&text)
}
