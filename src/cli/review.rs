//! `memdir review`: audit every layer and propose what should move where (DESIGN §7). It changes
//! nothing; `memdir promote` carries out a promotion a person accepts.

use crate::Error;
use crate::cli::style::{self, Painted};
use crate::cli::{Ctx, Output};
use crate::review::audit::{Group, Inputs, InstructionFile, Proposal, audit};
use crate::stack::Scope;

/// Audit auto memory, team memory and the instruction files, and propose what to do with each.
///
/// Groups: promote to project conventions, promote to personal instructions, promote to team
/// memory, clean up (secret, stale, expired, contradicted, relative date, duplicate, derivable,
/// long index line), ambiguous, no action; each proposal with the command that carries it out.
/// Nothing is changed.
#[derive(Debug, clap::Args)]
pub struct ReviewArgs {
    /// Print JSON: {proposals: [{group, kind, layer, name | path, target, reason, command}]},
    /// in the order of the groups above.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &ReviewArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let project = ctx.project();
    let project_root = crate::paths::work_tree_root(&project).unwrap_or(project);
    // The instruction files, without the memory index: the audit reads the memories themselves.
    let instructions: Vec<InstructionFile> = crate::cli::context::load(ctx, Vec::new())?
        .files
        .into_iter()
        .filter(|f| f.scope != Scope::AutoMemory)
        .map(|f| InstructionFile {
            path: f.path,
            content: f.content,
        })
        .collect();
    let inputs = Inputs {
        memory_dir: resolved.dir(),
        project_root: &project_root,
        personal_file: ctx.env.config_dir()?.join("CLAUDE.md"),
        instructions: &instructions,
        today: ctx.env.today()?,
    };
    let review = audit(&inputs)?;
    for problem in &review.unreadable {
        output.warn(&format!("{problem}; not reviewed"))?;
    }
    let mut proposals = review.proposals;
    // In the report's order, the groups to act on first (stable: each group in memory order).
    proposals.sort_by_key(|p| p.group);
    if args.json {
        let value = serde_json::to_value(&proposals).map_err(|e| Error::Io {
            context: "encoding the review".into(),
            source: std::io::Error::other(e),
        })?;
        return output.json(&serde_json::json!({ "proposals": value }));
    }
    output.painted(&report(&proposals, output.verbose))
}

/// The report a person acts on: one section per group, each proposal with its reason and the
/// command that carries it out.
fn report(proposals: &[Proposal], verbose: bool) -> Painted {
    let mut out = Painted::new();
    if proposals.is_empty() {
        out.plain("Nothing to review: no memories and no instruction files.\n");
        return out;
    }
    let mut groups: Vec<Group> = proposals.iter().map(|p| p.group).collect();
    groups.sort();
    groups.dedup();
    for group in groups {
        let members: Vec<&Proposal> = proposals.iter().filter(|p| p.group == group).collect();
        out.styled(
            style::HEADING,
            &format!("{} ({})", group.heading(), members.len()),
        )
        .plain("\n");
        if group == Group::NoAction && !verbose {
            let names: Vec<&str> = members.iter().filter_map(|p| p.memory.as_deref()).collect();
            out.plain(&format!("  {}\n\n", names.join(", ")));
            continue;
        }
        for p in members {
            let what = match (&p.memory, &p.path) {
                (Some(name), _) => name.clone(),
                (None, Some(file)) => file.display().to_string(),
                (None, None) => String::from("?"),
            };
            let kind = p
                .kind
                .map(|k| format!("{}: ", k.name()))
                .unwrap_or_default();
            out.plain(&format!("  {what} — {kind}{}\n", p.reason));
            if let Some(command) = &p.command {
                let target = p
                    .target
                    .as_ref()
                    .map(|t| format!(" (into {})", t.display()))
                    .unwrap_or_default();
                out.plain("      ")
                    .styled(style::COMMAND, command)
                    .plain(&format!("{target}\n"));
            }
        }
        out.plain("\n");
    }
    out.plain("Nothing was changed.\n");
    out
}
