//! `memdir init`: create the memory dir and its repository (idempotent), adopting what is there.

use crate::Error;
use crate::cli::written::adoption_json;
use crate::cli::{Ctx, Output};

/// Create the memory dir and its git repository; files already there are adopted as commits.
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// Print JSON: {path, initialised (false when it already was), commits: [commit],
    /// memories: [{name, type, file, change: "adopted"}]}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &InitArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let existed = crate::repo::has_repository(resolved.dir())?;
    let mut store = crate::memory::store::Store::open(resolved.dir())?;
    let adoption = store.adopt(None)?;
    if args.json {
        let mut value = adoption_json(&store.repo, &adoption)?;
        value["path"] = resolved.dir().display().to_string().into();
        value["initialised"] = (!existed).into();
        return output.json(&value);
    }
    output.adoption(&adoption)?;
    let verb = if existed {
        "already initialised"
    } else {
        "initialised"
    };
    output.info(&format!("{verb} {}", resolved.dir().display()))
}
