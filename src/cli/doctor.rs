//! `memdir doctor [--fix]`: find every inconsistency and repair what is safe (DESIGN §4).

use std::path::Path;

use gix::ObjectId;

use crate::Error;
use crate::cli::written::commit_json;
use crate::cli::{Ctx, Output, short};
use crate::memory::doctor::{Finding, Subject};
use crate::memory::store::Store;
use crate::repo::MemoryRepo;

/// Check the work tree, the index and the history; exit 1 when something is wrong.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Repair what is safe (commit pending changes, index valid orphans, drop dangling lines),
    /// each as its own commit, and list what is left for a person.
    #[arg(long)]
    pub fix: bool,
    /// Print JSON: {consistent, commits: [commit] (what --fix committed, oldest first),
    /// findings: [{kind, file | link | name | subject | object | path, detail, fixed}]}: what
    /// each finding is about, as a file of the memory dir, an index link, a memory's name, the
    /// subject of the commit that fixed it, a git object or the memory dir.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &DoctorArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    if args.fix {
        resolved.check_enabled()?;
    }
    let dir = resolved.dir();
    // A status line while it works, on a terminal only (long scans on large stores).
    let on_terminal = std::io::IsTerminal::is_terminal(&std::io::stderr()) && !output.quiet;
    if on_terminal {
        let _ = write!(output.err, "memdir doctor: checking {}…", dir.display());
        let _ = output.err.flush();
    }
    // HEAD before any repair: the commits after it are what --fix made.
    let mut before = None;
    let findings = if !crate::repo::has_repository(dir)? {
        if !dir.is_dir() {
            return output.info(&format!("no memory dir yet at {}", dir.display()));
        }
        if args.fix {
            Store::open(dir)?.doctor(true)?
        } else {
            vec![Finding {
                kind: crate::memory::doctor::Kind::Uncommitted,
                subject: Subject::Dir(dir.to_path_buf()),
                detail: "not under memdir yet; `memdir init` (or doctor --fix) adopts it".into(),
                fixed: None,
            }]
        }
    } else {
        let mut store = Store::open(dir)?;
        before = store.repo.head_commit()?;
        store.doctor(args.fix)?
    };
    if on_terminal {
        let _ = write!(output.err, "\r\x1b[2K");
    }
    let open_problems = findings
        .iter()
        .filter(|f| f.kind.is_problem() && f.fixed.is_none())
        .count();
    if args.json {
        let list: Vec<_> = findings
            .iter()
            .map(|f| {
                // What it is about, by the word that means it (ARCHITECTURE.md, "JSON field
                // names"): `file`, `link`, `name`, `subject` (a commit's), `object`, `path`.
                let (word, about) = match &f.subject {
                    Subject::File(file) => ("file", file.clone()),
                    Subject::Link(link) => ("link", link.clone()),
                    Subject::Memory(name) => ("name", name.clone()),
                    Subject::Commit(subject) => ("subject", subject.clone()),
                    Subject::Object(id) => ("object", id.to_string()),
                    Subject::Dir(path) => ("path", path.display().to_string()),
                };
                serde_json::json!({
                    "kind": f.kind.name(),
                    word: about,
                    "detail": f.detail,
                    "fixed": f.fixed.map(|id| id.to_string()),
                })
            })
            .collect();
        let commits = match args.fix {
            true => made_since(dir, before)?,
            false => Vec::new(),
        };
        output.json(&serde_json::json!({
            "consistent": open_problems == 0,
            "commits": commits,
            "findings": list,
        }))?;
    } else {
        let mut text = String::new();
        for f in &findings {
            let fixed = f
                .fixed
                .map(|id| format!(" (fixed in {})", short(&id)))
                .unwrap_or_default();
            text.push_str(&format!(
                "{:<19} {}: {}{fixed}\n",
                f.kind.name(),
                f.subject,
                f.detail
            ));
        }
        text.push_str(&if open_problems == 0 {
            "consistent\n".to_string()
        } else {
            format!("{open_problems} problem(s) left for a person\n")
        });
        output.data(&text)?;
    }
    if open_problems > 0 {
        return Err(Error::Inconsistent(open_problems));
    }
    Ok(())
}

/// The commits made in `dir` since `before` (HEAD before the repairs), oldest first, as every
/// write shows its commits.
fn made_since(dir: &Path, before: Option<ObjectId>) -> Result<Vec<serde_json::Value>, Error> {
    if !crate::repo::has_repository(dir)? {
        return Ok(Vec::new());
    }
    let mut made: Vec<serde_json::Value> = MemoryRepo::open(dir)?
        .history()?
        .iter()
        .take_while(|entry| Some(entry.commit) != before)
        .map(commit_json)
        .collect();
    made.reverse();
    Ok(made)
}
