//! Checking memories against the project as it is now (DESIGN §9: memory is a clue, not a fact).
//!
//! A memory's description and body are read for two kinds of claim ([`claims`]): the file paths
//! it names and the code symbols in its code spans. A path must exist; a symbol must still occur
//! somewhere in the project ([`project`]: the work tree for paths, the tracked files' content for
//! symbols, or a walk of a project dir that is no repository). A memory with a claim that fails
//! is stale, and the evidence says which claim.
//!
//! Nothing is changed anywhere.

pub mod claims;
mod project;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::memory::catalog::{FileProblem, list_memories};
use crate::memory::store::StoreError;
use claims::{Claims, extract};
use project::ProjectTree;
pub use project::{MAX_SEARCHED_FILE_BYTES, MAX_WALKED_FILES};

/// Why verification could not be done.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The project to check against is no directory: bad input, nothing was looked at.
    #[error("the project {} is not a directory", .0.display())]
    NotADirectory(PathBuf),
    /// The memory dir could not be listed.
    #[error(transparent)]
    Memories(#[from] StoreError),
    /// The symbols make a pattern the regex engine refuses (past its size limit).
    #[error("cannot build the symbol search: {source}")]
    SymbolPattern { source: regex::Error },
    /// A thread of the symbol search panicked.
    #[error("the search for symbols stopped")]
    SearchStopped,
}

impl VerifyError {
    /// Whether the caller's input is at fault (exit 2), not the machine (exit 1).
    pub fn is_invalid_input(&self) -> bool {
        match self {
            VerifyError::NotADirectory(_) => true,
            VerifyError::Memories(e) => e.is_invalid_input(),
            VerifyError::SymbolPattern { .. } | VerifyError::SearchStopped => false,
        }
    }
}

/// One memory to verify: its name and the text whose claims are checked (description and body).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    pub name: String,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every path it names exists and every symbol it names is found.
    Ok,
    /// A path it names is missing or a symbol it names is found nowhere.
    Stale,
    /// It names no path or symbol that can be checked.
    NothingToCheck,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Stale => "stale",
            Status::NothingToCheck => "nothing_to_check",
        }
    }
}

/// What verification found for one memory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    pub name: String,
    pub status: Status,
    /// One sentence per failed claim, e.g. ``names src/parse.rs, which does not exist``.
    pub evidence: Vec<String>,
    /// The paths that were checked, as the memory writes them (`./` and `:line` dropped).
    pub paths: Vec<String>,
    /// The symbols that were checked, as the memory writes them (`Store::open`, `parse()`).
    pub symbols: Vec<String>,
}

/// Verification of many memories, with how much of the project was searched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub verdicts: Vec<Verdict>,
    /// Text files searched for symbols (0 when no memory names a symbol).
    pub checked_files: usize,
    /// False when the walk of a project that is no git repository stopped at
    /// [`MAX_WALKED_FILES`]; symbols not found were then not judged.
    pub complete: bool,
}

/// The last verification of a memory dir against a project, kept for the SessionStart hook
/// (`.git/memdir/verify.json`: a cache, refreshed in the background; deleting it loses nothing).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cached {
    pub project: PathBuf,
    /// When it was made: seconds since the epoch.
    pub time: i64,
    /// The verdicts SessionStart reads: those of the memories found stale.
    pub memories: Vec<Verdict>,
}

/// The cache is read up to this size (a verdict is a few hundred bytes).
const MAX_CACHE_BYTES: u64 = 8 * 1024 * 1024;

fn cache_path(git_dir: &Path) -> PathBuf {
    git_dir.join("memdir").join("verify.json")
}

/// Keep `cached` for the SessionStart hook, replacing what was kept.
pub fn write_cache(git_dir: &Path, cached: &Cached) -> std::io::Result<()> {
    let text = serde_json::to_vec(cached).map_err(std::io::Error::other)?;
    let path = cache_path(git_dir);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::atomic::replace(&path, &text)
}

/// What was kept, when there is a cache that reads (never through a symlink, never over its
/// cap).
pub fn read_cache(git_dir: &Path) -> Option<Cached> {
    let bytes = crate::input::read_regular_with(
        &cache_path(git_dir),
        MAX_CACHE_BYTES,
        crate::input::Follow::No,
    )
    .ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Check each memory against the project at `project` (DESIGN §9).
pub fn verify(project: &Path, memories: &[Subject]) -> Result<Vec<Verdict>, VerifyError> {
    Ok(verify_report(project, memories)?.verdicts)
}

/// Every memory in `memory_dir` (index order) as a subject: its description, then its body;
/// and the files that could not be read as memories. A missing memory dir has none.
pub fn subjects(memory_dir: &Path) -> Result<(Vec<Subject>, Vec<FileProblem>), VerifyError> {
    let listing = list_memories(memory_dir)?;
    let subjects = listing
        .memories
        .into_iter()
        .map(|memory| Subject {
            text: match &memory.description {
                Some(d) => format!("{d}\n\n{}", memory.body),
                None => memory.body,
            },
            name: memory.name,
        })
        .collect();
    Ok((subjects, listing.problems))
}

/// [`verify`], with the number of files searched.
pub fn verify_report(project: &Path, memories: &[Subject]) -> Result<Report, VerifyError> {
    if !project.is_dir() {
        return Err(VerifyError::NotADirectory(project.to_path_buf()));
    }
    let claims: Vec<Claims> = memories.iter().map(|m| extract(&m.text)).collect();
    let tree = ProjectTree::open(project);

    let presence = tree.presence(claims.iter().flat_map(|c| &c.paths));
    let terms: Vec<&str> = claims
        .iter()
        .flat_map(|c| c.symbols.iter().map(|s| s.term.as_str()))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let search = tree.search(&terms)?;
    let where_searched = if tree.from_index {
        "tracked"
    } else {
        "project"
    };

    let verdicts = memories
        .iter()
        .zip(&claims)
        .map(|(memory, claims)| {
            let mut verdict = Verdict {
                name: memory.name.clone(),
                status: Status::NothingToCheck,
                evidence: Vec::new(),
                paths: Vec::new(),
                symbols: Vec::new(),
            };
            for path in &claims.paths {
                let Some(exists) = presence.get(path).copied().flatten() else {
                    continue;
                };
                verdict.paths.push(path.text.clone());
                if !exists {
                    verdict
                        .evidence
                        .push(format!("names {}, which does not exist", path.text));
                }
            }
            for symbol in &claims.symbols {
                let found = search.found.contains(symbol.term.as_str());
                if !found && !tree.complete {
                    continue;
                }
                verdict.symbols.push(symbol.written.clone());
                if !found {
                    let n = search.files;
                    let files = if n == 1 { "file" } else { "files" };
                    verdict.evidence.push(format!(
                        "`{}` is not found in any of {n} {where_searched} {files}",
                        symbol.written
                    ));
                }
            }
            verdict.status = if !verdict.evidence.is_empty() {
                Status::Stale
            } else if verdict.paths.is_empty() && verdict.symbols.is_empty() {
                Status::NothingToCheck
            } else {
                Status::Ok
            };
            verdict
        })
        .collect();
    Ok(Report {
        verdicts,
        checked_files: search.files,
        complete: tree.complete,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_from_claims() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::write(root.join("src/lib.rs"), "pub fn parse_args() {}\n").expect("write");
        std::fs::write(root.join("blob.bin"), b"gone_symbol\0").expect("write");
        let subject = |name: &str, text: &str| Subject {
            name: name.into(),
            text: text.into(),
        };
        let report = verify_report(
            root,
            &[
                subject("a", "see src/lib.rs and `parse_args`"),
                subject("b", "see src/gone.rs and `gone_symbol`"),
                subject("c", "nothing here"),
            ],
        )
        .expect("verify");
        assert_eq!(report.checked_files, 1, "the binary file is skipped");
        assert_eq!(report.verdicts[0].status, Status::Ok);
        assert_eq!(report.verdicts[1].status, Status::Stale);
        assert_eq!(
            report.verdicts[1].evidence,
            vec![
                "names src/gone.rs, which does not exist".to_string(),
                "`gone_symbol` is not found in any of 1 project file".to_string()
            ]
        );
        assert_eq!(report.verdicts[2].status, Status::NothingToCheck);
    }
}
