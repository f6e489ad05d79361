//! `memdir team`: team memory through a git remote the team already owns (DESIGN §8).

use std::path::Path;

use crate::Error;
use crate::cli::resolve::ResolveArgs;
use crate::cli::{Ctx, Output};
use crate::paths::team_dir;
use crate::team::sync::is_team_repo;

mod init;
mod status;
mod sync;

/// Share memory with a team through a git remote: `<memory dir>/team/`.
#[derive(Debug, clap::Args)]
pub struct TeamArgs {
    #[command(subcommand)]
    pub command: TeamCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum TeamCommand {
    /// Clone the team's remote into <memory dir>/team (an empty remote starts an empty team
    /// memory; a README, a licence or folders there are kept in git, never written) and register
    /// memdir's MEMORY.md merge driver. Again with the same remote: nothing to do.
    Init {
        /// The remote, as git takes it (ssh, https, a path).
        #[arg(long, value_name = "URL")]
        remote: String,
        /// Print JSON: {path, remote, joined, changed, foreign, dropped}.
        #[arg(long)]
        json: bool,
    },
    /// Ahead, behind, conflicts kept, last sync (no network).
    Status {
        /// Print JSON: {branch, ahead, behind, conflicts, last_sync}.
        #[arg(long)]
        json: bool,
    },
    /// Commit what is pending, fetch, merge, push (never forced).
    Sync {
        /// Print JSON: {adopted, integrated, commit, changed, conflicts, foreign, dropped,
        /// pushed, attempts, incoming_secrets}.
        #[arg(long)]
        json: bool,
    },
    /// Finish a conflict a sync kept: --ours, --theirs or --edit.
    Resolve(ResolveArgs),
}

pub fn run(ctx: &Ctx, args: &TeamArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    // Team memory lives and dies with auto memory.
    resolved.check_enabled()?;
    let memory_dir = resolved.location.dir.clone();
    let dir = team_dir(&memory_dir);
    match &args.command {
        TeamCommand::Init { remote, json } => {
            let url = crate::repo::remote_url::absolute(remote, &ctx.env.cwd);
            init::run(&memory_dir, &dir, &url, *json, output)
        }
        TeamCommand::Status { json } => status::run(&dir, *json, output),
        TeamCommand::Sync { json } => sync::run(&dir, *json, output),
        TeamCommand::Resolve(args) => {
            require(&dir)?;
            crate::cli::resolve::run_in(&dir, args, "memdir team sync", output)
        }
    }
}

impl TeamArgs {
    pub(crate) fn wants_json(&self) -> bool {
        match &self.command {
            TeamCommand::Init { json, .. }
            | TeamCommand::Status { json }
            | TeamCommand::Sync { json } => *json,
            TeamCommand::Resolve(args) => args.json,
        }
    }
}

/// Team commands other than `init` need the clone.
fn require(dir: &Path) -> Result<(), Error> {
    if is_team_repo(dir) {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "no team memory at {}: run memdir team init --remote URL",
            dir.display()
        )))
    }
}
