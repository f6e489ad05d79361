//! `memdir diff [REV [REV]]`: what changed, as unified diffs of topic files and the index.

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::memory::diff::{Files, changes, files_at, work_files};
use crate::repo::MemoryRepo;

/// Show changes as unified diffs, per memory, the index last.
///
/// No REV: the work tree against HEAD (what is not committed yet); one: REV against HEAD; two:
/// the first against the second.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// Up to two commits (`HEAD~3`, an id or a prefix of one).
    #[arg(num_args = 0..=2, value_name = "REV", add = clap_complete::ArgValueCandidates::new(crate::cli::completions::revisions))]
    pub revs: Vec<String>,
    /// Print JSON: an array of {file, status, diff}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &DiffArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let dir = resolved.dir();
    let (old, new) = if crate::repo::has_repository(dir)? {
        let repo = MemoryRepo::open(dir)?;
        let resolve = |rev: &String| repo.resolve_commit(rev).map(Some);
        match args.revs.as_slice() {
            [] => (files_at(&repo, repo.head_commit()?)?, work_files(dir)?),
            [rev] => (
                files_at(&repo, resolve(rev)?)?,
                files_at(&repo, repo.head_commit()?)?,
            ),
            [from, to, ..] => (
                files_at(&repo, resolve(from)?)?,
                files_at(&repo, resolve(to)?)?,
            ),
        }
    } else if args.revs.is_empty() {
        (Files::new(), work_files(dir).unwrap_or_default())
    } else {
        return Err(Error::Usage(format!(
            "{} has no history yet",
            dir.display()
        )));
    };
    let changes = changes(&old, &new);
    if args.json {
        return output.json(&serde_json::Value::Array(
            changes
                .iter()
                .map(|(file, status, diff)| serde_json::json!({"file": file, "status": status, "diff": diff}))
                .collect(),
        ));
    }
    let text: String = changes.into_iter().map(|(_, _, diff)| diff).collect();
    output.painted(&crate::cli::style::paint_diff(&text))
}
