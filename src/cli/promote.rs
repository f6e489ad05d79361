//! `memdir promote`: a memory's rule as a branch (or a patch) against an instruction file, for a
//! person to merge (DESIGN §7).

use std::path::PathBuf;

use crate::Error;
use crate::cli::{Ctx, Output, short};
use crate::review::promote::{Outcome, Places, PromoteTo, Promoted, Request, promote};

/// Propose a memory's rule for shared instructions: a branch to merge, never an edit in place.
///
/// In the target's git repository, the branch `memdir/promote/<name>` gets one commit on the
/// branch HEAD names, adding the rule to the target file under a heading that says it came from
/// memory. HEAD, the index and the work tree are not touched, even when dirty. Promoting again
/// replaces that commit with one on the current tip. Where the target is in no repository, a
/// patch is written under `<memory dir>/proposals/`. A promotion to team memory is pushed to the
/// team remote as its branch, with the address of the page that opens a pull request for it. A memory that holds a secret or a relative
/// date is refused (exit 2). Merging the branch and running `memdir proposals --reconcile` (the
/// post-merge hook does) retires the memory.
#[derive(Debug, clap::Args)]
pub struct PromoteArgs {
    /// The memory's name.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::memory_names))]
    pub name: String,
    /// Where the rule goes: the project's CLAUDE.md, your own (in the config dir), or team memory.
    #[arg(long, value_enum)]
    pub to: To,
    /// The instruction file, relative to the repository's root (to the config dir for
    /// `personal`) or absolute inside it [default: CLAUDE.md].
    #[arg(long, value_name = "FILE")]
    pub target: Option<PathBuf>,
    /// The branch to write [default: memdir/promote/<name>].
    #[arg(long, value_name = "NAME")]
    pub branch: Option<String>,
    /// Print JSON: {name, type, kind, outcome, repo, file, path, branch, target_branch,
    /// commit, base, patch, diff, command, pushed, review_url, review_command}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    /// `<git root of the project>/CLAUDE.md`: the project's conventions.
    Project,
    /// `<config dir>/CLAUDE.md`: your instructions for every project.
    Personal,
    /// Team memory (`<memory dir>/team/`): a topic file and its index line.
    Team,
}

pub fn run(ctx: &Ctx, args: &PromoteArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let places = Places {
        memory_dir: resolved.dir().to_path_buf(),
        project: ctx.project(),
        config_dir: ctx.env.config_dir()?,
    };
    let to = match args.to {
        To::Project => PromoteTo::Project,
        To::Personal => PromoteTo::Personal,
        To::Team => PromoteTo::Team,
    };
    let promoted = promote(
        &places,
        &Request {
            name: &args.name,
            to,
            target: args.target.as_deref(),
            branch: args.branch.as_deref(),
        },
    )?;
    if args.json {
        return output.json(&promoted.to_json());
    }
    report(&promoted, output)
}

fn report(promoted: &Promoted, output: &mut Output<'_>) -> Result<(), Error> {
    let p = &promoted.proposal;
    let command = promoted.next_command();
    let path = p.path.display();
    if promoted.outcome == Outcome::AlreadyPresent {
        let at = p
            .target_branch
            .as_deref()
            .map(|b| format!(" (at {b})"))
            .unwrap_or_default();
        return output.info(&format!(
            "{path}{at} already holds the rule of {}: nothing to do",
            p.memory
        ));
    }
    if !promoted.diff.is_empty() {
        output.info(promoted.diff.trim_end())?;
    }
    match (&p.repo, &p.branch) {
        (Some(repo), Some(branch)) => {
            let commit = p.commit.as_deref().map(|c| &c[..c.len().min(7)]);
            let what = match promoted.outcome {
                Outcome::Created => "created",
                Outcome::Updated => "moved onto the current tip",
                _ => "already up to date",
            };
            output.info(&format!(
                "branch {branch} in {}: {what} (one commit {} on {} {}), adding the rule of {} to {}",
                repo.display(),
                commit.unwrap_or("?"),
                p.target_branch.as_deref().unwrap_or("?"),
                p.base
                    .as_deref()
                    .and_then(|b| gix::ObjectId::from_hex(b.as_bytes()).ok())
                    .map(|b| short(&b))
                    .unwrap_or_default(),
                p.memory,
                p.file,
            ))?;
            output.info("HEAD, the index and the work tree were not touched.")?;
            match &promoted.review {
                Some(review) => {
                    output.info(&format!("pushed {branch} to the team remote for review"))?;
                    if let Some(url) = &review.url {
                        output.info(&format!("open a pull request: {url}"))?;
                    }
                    if let Some(command) = &review.command {
                        output.info(&format!("review and merge it with: {command}"))?;
                    }
                }
                None => {
                    if let Some(command) = &command {
                        output.info(&format!("merge it with: {command}"))?;
                    }
                }
            }
        }
        _ => {
            let patch = p.patch.as_ref().map(|p| p.display().to_string());
            output.info(&format!(
                "{path} is in no git repository: wrote the patch {}",
                patch.unwrap_or_default()
            ))?;
            if let Some(command) = &command {
                output.info(&format!("apply it with: {command}"))?;
            }
        }
    }
    output.info("once it is in, `memdir proposals --reconcile` retires the memory")
}
