//! `memdir proposals`: every recorded promotion with its status, and `--reconcile`, which
//! retires the memories whose promotion was merged (DESIGN §7; the post-merge hook runs it).

use crate::Error;
use crate::cli::{Ctx, Output, short};
use crate::memory::store::Store;
use crate::review::proposals::{Status, list, load_all, reconcile};
use crate::sync::transport::{Fetched, ORIGIN, Remote};

/// List promotions (open, merged, stale); with --reconcile, retire merged memories.
///
/// A promotion is merged when its commit is reachable from the target branch's tip, or when the
/// target file there holds its rule (a squash merge); stale when its branch was deleted without
/// being merged, or the memory changed or was removed since. `--reconcile` retires the source
/// memory of each merged promotion with one `promote(<type>): <name>` commit naming the merge
/// (`Memdir-Merge`), once. A team promotion counts as merged once its pull request is merged on
/// the team remote (fetched first).
#[derive(Debug, clap::Args)]
pub struct ProposalsArgs {
    /// Retire the memories whose promotion was merged (what the post-merge hook runs).
    #[arg(long)]
    pub reconcile: bool,
    /// Print JSON: {proposals: [{name, type, kind, status, reason, repo, file, path, branch,
    /// target_branch, commit, base, merge, patch, time, reconciled}], reconciled?: [{name,
    /// commit, merge, note}]}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &ProposalsArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let dir = resolved.dir().to_path_buf();
    let mut reconciled = Vec::new();
    let open = load_all(&dir)?.0;
    let open: Vec<_> = open.iter().filter(|p| p.reconciled.is_none()).collect();
    // A team promotion is merged on the team remote: what it holds now is fetched first.
    if open.iter().any(|p| p.kind == "team") {
        let team = crate::paths::team_dir(&dir);
        let remote = Remote {
            git: ORIGIN.to_string(),
            label: "the team remote",
            again: "memdir proposals",
        };
        match crate::sync::transport::fetch(&team, &remote, None) {
            Ok(Fetched::Done | Fetched::Missing) => {}
            Ok(Fetched::Refused(reason)) => output.warn(&format!(
                "the team remote sent objects git refuses ({reason}); team promotions are judged on what was fetched before"
            ))?,
            Err(e) => output.warn(&format!(
                "{e}; team promotions are judged on what was fetched before"
            ))?,
        }
    }
    // The post-merge hook runs this after every merge and pull: with nothing to reconcile it
    // must not create a memory dir, nor wait for its lock.
    if args.reconcile && !open.is_empty() {
        resolved.check_enabled()?;
        let mut store = Store::open(&dir)?;
        reconciled = reconcile(&mut store)?;
    }
    let (checked, problems) = list(&dir)?;
    for problem in &problems {
        output.warn(&format!("skipped a promotion record: {problem}"))?;
    }
    if args.json {
        let mut value = serde_json::json!({
            "proposals": checked.iter().map(|c| c.to_json()).collect::<Vec<_>>(),
        });
        if args.reconcile {
            value["reconciled"] = reconciled.iter().map(|r| r.to_json()).collect();
        }
        return output.json(&value);
    }
    if args.reconcile {
        for r in &reconciled {
            match r.commit {
                Some(commit) => output.info(&format!(
                    "retired {} (commit {}): {}",
                    r.memory,
                    short(&commit),
                    r.note
                ))?,
                None => output.warn(&format!("{}: {}", r.memory, r.note))?,
            }
        }
        if reconciled.is_empty() {
            output.info("nothing to reconcile")?;
        }
        return Ok(());
    }
    if checked.is_empty() {
        return output.info("no promotions recorded");
    }
    for c in &checked {
        let p = &c.proposal;
        let place = match (&p.branch, &p.target_branch, &p.patch) {
            (Some(branch), Some(target), _) => format!("{branch} → {target}"),
            (_, _, Some(patch)) => format!("patch {}", patch.display()),
            _ => String::new(),
        };
        let detail = match &c.status {
            Status::Open => String::new(),
            Status::Merged { merge } => {
                let by = merge
                    .map(|m| format!(" by {}", short(&m)))
                    .unwrap_or_default();
                match &p.reconciled {
                    Some(r) => format!(" (merged{by}; {})", r.note),
                    None => {
                        format!(" (merged{by}; `memdir proposals --reconcile` retires the memory)")
                    }
                }
            }
            Status::Stale(reason) => format!(" ({reason})"),
        };
        output.data(&format!(
            "{:<7} {:<24} {:<9} {}  {place}{detail}\n",
            c.status.as_str(),
            p.memory,
            p.kind,
            p.path.display(),
        ))?;
    }
    Ok(())
}
