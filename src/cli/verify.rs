//! `memdir verify`: each memory checked against the project as it is now (DESIGN §9). A report:
//! it changes nothing, and exits 1 when a memory is stale (as grep and git users expect, §11).

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::review::verify::{Cached, Status, subjects, verify_report, write_cache};

/// Check each memory against the project as it is now.
///
/// The file paths a memory names must exist in the work tree, and the symbols in its code spans
/// must still be found in the project's tracked files. Stale memories are listed with the
/// evidence, and the exit code is 1; 0 when none is. Nothing is changed.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Print JSON: {"memories": [{name, status, evidence, paths, symbols}], "checked_files": N},
    /// status being "ok", "stale" or "nothing_to_check".
    #[arg(long)]
    pub json: bool,
    /// Keep the result in `.git/memdir/verify.json` for the SessionStart hook instead of
    /// printing it (the hook starts this in the background).
    #[arg(long, hide = true, conflicts_with = "json")]
    pub cache: bool,
}

pub fn run(ctx: &Ctx, args: &VerifyArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let (memories, unreadable) = subjects(resolved.dir())?;
    for problem in &unreadable {
        output.warn(&format!("{problem}; not verified"))?;
    }
    let report = verify_report(&ctx.project(), &memories)?;
    if !report.complete {
        output.warn(&format!(
            "the project is no git repository and has over {} files: only the first were searched, and symbols not found in them are not judged",
            crate::review::verify::MAX_WALKED_FILES
        ))?;
    }
    if args.cache {
        if !crate::repo::has_repository(resolved.dir())? {
            return Ok(());
        }
        let cached = Cached {
            project: ctx.project(),
            time: chrono::Utc::now().timestamp(),
            // Only the stale ones are read: a store of 10,000 memories keeps a few lines, not
            // megabytes SessionStart would parse every time.
            memories: report
                .verdicts
                .into_iter()
                .filter(|v| v.status == Status::Stale)
                .collect(),
        };
        let git_dir = resolved.dir().join(".git");
        return write_cache(&git_dir, &cached).map_err(|e| {
            Error::Failed(format!(
                "cannot keep the result in {}: {e}",
                git_dir.display()
            ))
        });
    }
    let stale = report
        .verdicts
        .iter()
        .filter(|v| v.status == Status::Stale)
        .count();
    // A stale memory is exit 1, after the report.
    let verdict = || match stale {
        0 => Ok(()),
        n => Err(Error::Verdict(format!(
            "{n} stale memor{}",
            if n == 1 { "y" } else { "ies" }
        ))),
    };
    if args.json {
        let memories = serde_json::to_value(&report.verdicts)
            .map_err(|e| Error::Failed(format!("cannot render the report as JSON: {e}")))?;
        output.json(&serde_json::json!({
            "memories": memories,
            "checked_files": report.checked_files,
        }))?;
        return verdict();
    }
    let mut text = String::new();
    let (mut ok, mut nothing) = (0, 0);
    for verdict in &report.verdicts {
        match verdict.status {
            Status::Stale => {
                text.push_str(&format!(
                    "{}: {}\n",
                    verdict.name,
                    verdict.evidence.join("; ")
                ));
            }
            Status::Ok => ok += 1,
            Status::NothingToCheck => nothing += 1,
        }
    }
    output.data(&text)?;
    let total = report.verdicts.len();
    if total == 0 {
        return output.info("no memories to verify");
    }
    let (noun, verb) = if total == 1 {
        ("memory", "is")
    } else {
        ("memories", "are")
    };
    let stale_verb = if stale == 1 && total > 1 { "is" } else { verb };
    let have = if nothing == 1 { "has" } else { "have" };
    output.info(&format!(
        "{stale} of {total} {noun} {stale_verb} stale; {ok} ok; {nothing} {have} nothing to check"
    ))?;
    verdict()
}
