//! `memdir diff [REV [REV]]`: what changed, as unified diffs of topic files and the index.

use std::collections::BTreeMap;

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::repo::MemoryRepo;

/// Show changes as unified diffs, per memory, the index last.
///
/// No REV: the work tree against HEAD (what is not committed yet); one: REV against HEAD; two:
/// the first against the second.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// Up to two commits (`HEAD~3`, an id or a prefix of one).
    #[arg(num_args = 0..=2, value_name = "REV")]
    pub revs: Vec<String>,
    /// Print JSON: an array of {file, status, diff}.
    #[arg(long)]
    pub json: bool,
}

/// Top-level `*.md` files and their bytes.
type Files = BTreeMap<String, Vec<u8>>;

fn files_at(repo: &MemoryRepo, commit: Option<gix::ObjectId>) -> Result<Files, Error> {
    let Some(commit) = commit else {
        return Ok(Files::new());
    };
    let mut out = Files::new();
    for (name, (kind, id)) in repo.commit_tree(commit)? {
        if kind == gix::objs::tree::EntryKind::Blob && name.ends_with(b".md") {
            out.insert(String::from_utf8_lossy(&name).into_owned(), repo.blob(id)?);
        }
    }
    Ok(out)
}

fn work_files(dir: &std::path::Path) -> Result<Files, Error> {
    let io = |source| Error::Io {
        context: format!("reading {}", dir.display()),
        source,
    };
    let mut out = Files::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".md")
            && !name.starts_with('.')
            && entry.file_type().is_ok_and(|t| t.is_file())
        {
            out.insert(name, std::fs::read(entry.path()).map_err(io)?);
        }
    }
    Ok(out)
}

/// Each changed file with its status and unified diff: topic files by name, `MEMORY.md` last.
pub fn changes(old: &Files, new: &Files) -> Vec<(String, &'static str, String)> {
    let mut names: Vec<&String> = old.keys().chain(new.keys()).collect();
    names.sort_by_key(|n| {
        (
            n.as_str() == crate::memory::store::INDEX_FILE,
            n.to_string(),
        )
    });
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let (a, b) = (old.get(name), new.get(name));
            if a == b {
                return None;
            }
            let status = match (a, b) {
                (None, _) => "added",
                (_, None) => "deleted",
                _ => "modified",
            };
            let a = String::from_utf8_lossy(a.map_or(&[][..], Vec::as_slice)).into_owned();
            let b = String::from_utf8_lossy(b.map_or(&[][..], Vec::as_slice)).into_owned();
            let diff = similar::TextDiff::from_lines(&a, &b)
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{name}"), &format!("b/{name}"))
                .to_string();
            Some((name.clone(), status, diff))
        })
        .collect()
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
    output.data(&text)
}
