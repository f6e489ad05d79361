//! Promotion (DESIGN §7): a memory's rule carried into shared instructions as a branch for a
//! person to merge, never as an edit of anyone's work tree.
//!
//! In the target's repository, the branch `memdir/promote/<name>` gets one commit on the tip of
//! the branch HEAD names, made from that commit's tree with gix's tree editor: HEAD, `.git/index`
//! and the work tree are not touched, dirty or not. Promoting again replaces that commit with a
//! new one on the current tip (the branch is moved, by compare-and-swap), so the branch never
//! stacks duplicates. A target in no repository gets a patch under `<memory dir>/proposals/`
//! instead. Each promotion is recorded for `memdir proposals` ([`crate::review::proposals`]).
//!
//! Here: the request, the source memory and its refusals, the record. Where the rule goes is
//! [`target`]; the commit on the promotion branch, [`branch`]; the patch outside git, [`patch`];
//! a team promotion's branch pushed to the team remote for review there, [`share`].

mod branch;
mod patch;
mod share;
mod target;

pub use share::Review;

use std::path::{Path, PathBuf};

use crate::memory::catalog::read_memory;
use crate::memory::store::{Store, StoreError, title_from_name};
use crate::memory::taxonomy::{MemoryType, validate_name};
use crate::repo::{RepoError, TargetRepo};
use crate::review::proposals::{self, Proposal, ProposalError};
use crate::review::rule::Rule;

/// The instruction file a promotion adds to by default.
pub const DEFAULT_FILE: &str = "CLAUDE.md";

/// Where a memory is promoted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromoteTo {
    /// The project's conventions: `<git root>/CLAUDE.md`.
    Project,
    /// The user's instructions for every project: `<config dir>/CLAUDE.md`.
    Personal,
    /// Team memory: `<memory dir>/team/`, its own repository (§8).
    Team,
}

impl PromoteTo {
    pub fn as_str(self) -> &'static str {
        match self {
            PromoteTo::Project => "project",
            PromoteTo::Personal => "personal",
            PromoteTo::Team => "team",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PromoteError {
    /// The memory must not leave the memory dir as it is (a secret, a relative date).
    #[error("cannot promote {name}: {reason}")]
    Refused { name: String, reason: String },
    /// The request cannot be carried out as asked (a bad target, HEAD detached, …).
    #[error("{0}")]
    Invalid(String),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The branch was made and recorded, but the team remote did not take it.
    #[error(
        "the promotion branch {branch} is in {}, but pushing it to the team remote failed: {reason}; promote again to push it",
        .dir.display()
    )]
    Push {
        branch: String,
        dir: PathBuf,
        reason: String,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error(transparent)]
    Proposal(#[from] ProposalError),
}

impl PromoteError {
    /// Whether the request or the memory is at fault and nothing was written (exit 2), not the
    /// machine (exit 1).
    pub fn is_invalid_input(&self) -> bool {
        match self {
            PromoteError::Refused { .. } | PromoteError::Invalid(_) => true,
            PromoteError::Io { .. } | PromoteError::Push { .. } => false,
            PromoteError::Store(e) => e.is_invalid_input(),
            PromoteError::Repo(e) => e.is_refusal(),
            PromoteError::Proposal(e) => e.is_invalid_input(),
        }
    }
}

/// The folders a promotion resolves its target against.
#[derive(Debug, Clone)]
pub struct Places {
    /// The memory dir (the source memory, the proposal records and patches, `team/`).
    pub memory_dir: PathBuf,
    /// The project (its git root holds the project's CLAUDE.md).
    pub project: PathBuf,
    /// Claude Code's config dir (the personal CLAUDE.md).
    pub config_dir: PathBuf,
}

/// A promotion as asked for.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub name: &'a str,
    pub to: PromoteTo,
    /// The instruction file: relative to the repository's root (the config dir for
    /// `personal`), or absolute inside it.
    pub target: Option<&'a Path>,
    /// The branch to write (default `memdir/promote/<name>`).
    pub branch: Option<&'a str>,
}

/// What a promotion did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A new branch (or patch).
    Created,
    /// The branch moved to a new commit on the current tip (or the patch was rewritten).
    Updated,
    /// The branch (or patch) already held exactly this.
    Unchanged,
    /// The target file already holds the rule: nothing was done.
    AlreadyPresent,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Created => "created",
            Outcome::Updated => "updated",
            Outcome::Unchanged => "unchanged",
            Outcome::AlreadyPresent => "already-present",
        }
    }
}

/// The result of a promotion: its record (saved unless the rule was already there), what
/// happened, and the change as a git-style unified diff.
#[derive(Debug, Clone)]
pub struct Promoted {
    pub proposal: Proposal,
    pub outcome: Outcome,
    pub diff: String,
    /// A team promotion pushed to the team remote: where to review it.
    pub review: Option<Review>,
}

impl Promoted {
    /// What the person runs next to bring the promotion in: `git -C REPO merge BRANCH`, or for a
    /// patch `git -C DIR apply PATCH` (`patch -p1 -d DIR < PATCH` inside a bare repository, where
    /// `git apply` refuses to run); `None` when the rule was already there.
    pub fn next_command(&self) -> Option<String> {
        use crate::shell::quote;
        let p = &self.proposal;
        if self.outcome == Outcome::AlreadyPresent {
            return None;
        }
        match (&p.repo, &p.branch, &p.patch, &p.base_dir) {
            (Some(repo), Some(branch), _, _) => Some(format!(
                "git -C {} merge {}",
                quote(&repo.display().to_string()),
                quote(branch)
            )),
            (None, _, Some(patch), Some(dir)) if crate::repo::in_bare_repository(dir) => {
                Some(format!(
                    "patch -p1 -d {} < {}",
                    quote(&dir.display().to_string()),
                    quote(&patch.display().to_string())
                ))
            }
            (None, _, Some(patch), Some(dir)) => Some(format!(
                "git -C {} apply {}",
                quote(&dir.display().to_string()),
                quote(&patch.display().to_string())
            )),
            _ => None,
        }
    }

    /// The JSON object of `promote --json`: the record, the outcome, the diff and
    /// [`Self::next_command`].
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = self.proposal.to_json();
        value["outcome"] = self.outcome.as_str().into();
        value["diff"] = self.diff.clone().into();
        value["command"] = self
            .next_command()
            .map_or(serde_json::Value::Null, Into::into);
        value["pushed"] = self.review.is_some().into();
        value["review_url"] = self
            .review
            .as_ref()
            .and_then(|r| r.url.clone())
            .map_or(serde_json::Value::Null, Into::into);
        value["review_command"] = self
            .review
            .as_ref()
            .and_then(|r| r.command.clone())
            .map_or(serde_json::Value::Null, Into::into);
        value
    }
}

/// The source memory, read and checked before anything is written.
struct Source {
    name: String,
    memory_type: Option<MemoryType>,
    description: String,
    title: String,
    text: String,
    rule: Rule,
}

impl Source {
    fn type_label(&self) -> &'static str {
        self.memory_type.map_or("untyped", MemoryType::as_str)
    }
}

/// Read the memory and refuse what must not leave the memory dir.
fn read_source(memory_dir: &Path, name: &str) -> Result<Source, PromoteError> {
    validate_name(name).map_err(StoreError::from)?;
    let (memory, text, topic) = read_memory(memory_dir, name)?;
    let refuse = |reason: String| PromoteError::Refused {
        name: name.to_string(),
        reason,
    };
    // The index line's title is written into the rule's heading: it is looked at too.
    let indexed_title = memory.title.clone().unwrap_or_default();
    if let Some(kind) = crate::secrets::find(&text).or_else(|| crate::secrets::find(&indexed_title))
    {
        return Err(refuse(format!(
            "it holds {kind}; remove it from the memory first (instructions are shared)"
        )));
    }
    let description = memory.description.clone().unwrap_or_default();
    for part in [&description, &topic.body] {
        if let Some(phrase) = crate::memory::dates::relative_phrase(part) {
            return Err(refuse(format!(
                "it holds a relative date ({phrase:?}); write it as an absolute date first (memdir save --name {name} …)"
            )));
        }
    }
    let title = memory
        .title
        .clone()
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| title_from_name(name));
    let rule = Rule::from_memory(&title, &topic.body);
    if rule.text().trim().is_empty() {
        return Err(refuse("its body states no rule (only a reason)".into()));
    }
    Ok(Source {
        name: name.to_string(),
        memory_type: memory.memory_type,
        description,
        title,
        text,
        rule,
    })
}

/// `old` with `block` appended after one blank line.
fn appended(old: &str, block: &str) -> String {
    let mut text = old.to_string();
    if !text.is_empty() {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        if !text.ends_with("\n\n") {
            text.push('\n');
        }
    }
    text.push_str(block);
    text
}

/// A git-style unified diff of one file (`old` `None`: a new file), as `git apply` takes it.
pub fn file_diff(path: &str, old: Option<&str>, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old.unwrap_or(""), new);
    let mut out = format!("diff --git a/{path} b/{path}\n");
    match old {
        None => out.push_str("new file mode 100644\n--- /dev/null\n"),
        Some(_) => out.push_str(&format!("--- a/{path}\n")),
    }
    out.push_str(&format!("+++ b/{path}\n"));
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        out.push_str(&hunk.to_string());
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn text_of(bytes: &[u8], path: &str) -> Result<String, PromoteError> {
    String::from_utf8(bytes.to_vec()).map_err(|_| {
        PromoteError::Invalid(format!("{path} is not UTF-8 text; not promoting into it"))
    })
}

/// Promote a memory (DESIGN §7). Refusals (a secret, a relative date, a target that cannot
/// take it) come before anything is written; the memory dir is locked while the promotion is
/// made and recorded.
pub fn promote(places: &Places, request: &Request<'_>) -> Result<Promoted, PromoteError> {
    let source = read_source(&places.memory_dir, request.name)?;
    let branch = match request.branch {
        Some(branch) => branch.to_string(),
        None => format!("memdir/promote/{}", request.name),
    };
    if !TargetRepo::is_valid_branch_name(&branch) {
        return Err(PromoteError::Invalid(format!(
            "--branch {branch:?} is not a valid git branch name"
        )));
    }
    let target = target::resolve(places, request)?;
    let store = Store::open(&places.memory_dir)?;
    let memory_blob = store.repo.blob_id(source.text.as_bytes())?.to_string();
    let mut proposal = Proposal {
        memory: source.name.clone(),
        memory_type: source.type_label().to_string(),
        kind: request.to.as_str().to_string(),
        repo: None,
        file: target.file.clone(),
        path: target.path(),
        branch: None,
        target_branch: None,
        commit: None,
        base: None,
        patch: None,
        base_dir: None,
        time: crate::memory::age::now(),
        memory_blob,
        rule: source.rule.text().to_string(),
        reconciled: None,
        review_url: None,
    };
    let (outcome, diff) = match &target.repo {
        Some(repo) => {
            let recorded = proposals::load_all(&places.memory_dir)?
                .0
                .into_iter()
                .find(|p| {
                    p.memory == source.name
                        && p.branch.as_deref() == Some(branch.as_str())
                        && p.repo.as_deref() == Some(repo.workdir())
                })
                .and_then(|p| p.commit);
            let branch = branch::Branch {
                name: &branch,
                recorded: recorded.as_deref(),
            };
            branch::write(repo, &target, &source, request.to, &branch, &mut proposal)?
        }
        None => patch::write(&places.memory_dir, &target, &source, &mut proposal)?,
    };
    if outcome == Outcome::AlreadyPresent {
        drop(store);
        return Ok(Promoted {
            proposal,
            outcome,
            diff,
            review: None,
        });
    }
    // The page a remote printed on an earlier push, if this one prints none.
    let recorded_url = proposals::load_all(&places.memory_dir)?
        .0
        .into_iter()
        .find(|p| p.memory == proposal.memory && p.branch == proposal.branch)
        .and_then(|p| p.review_url);
    proposals::save(&places.memory_dir, &proposal)?;
    drop(store);
    let review = match (&target.repo, request.to) {
        (Some(repo), PromoteTo::Team) => {
            let into = proposal.target_branch.clone().unwrap_or_default();
            share::push(repo, &branch, &into, recorded_url)?
        }
        _ => None,
    };
    if let Some(url) = review.as_ref().and_then(|r| r.url.clone()) {
        proposal.review_url = Some(url);
        proposals::save(&places.memory_dir, &proposal)?;
    }
    Ok(Promoted {
        proposal,
        outcome,
        diff,
        review,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_command_merges_the_branch_or_applies_the_patch() {
        let branch = Proposal {
            memory: "lint".into(),
            memory_type: "feedback".into(),
            kind: "project".into(),
            repo: Some(PathBuf::from("/work/my project")),
            file: "CLAUDE.md".into(),
            path: PathBuf::from("/work/my project/CLAUDE.md"),
            branch: Some("memdir/promote/lint".into()),
            target_branch: Some("main".into()),
            commit: None,
            base: None,
            patch: None,
            base_dir: None,
            time: String::new(),
            memory_blob: String::new(),
            rule: String::new(),
            reconciled: None,
            review_url: None,
        };
        let promoted = |proposal: &Proposal, outcome| Promoted {
            proposal: proposal.clone(),
            outcome,
            diff: String::new(),
            review: None,
        };
        assert_eq!(
            promoted(&branch, Outcome::Created)
                .next_command()
                .as_deref(),
            Some("git -C '/work/my project' merge memdir/promote/lint")
        );
        assert_eq!(
            promoted(&branch, Outcome::AlreadyPresent).next_command(),
            None
        );
        let dir = tempfile::tempdir().expect("tempdir");
        let patch = Proposal {
            repo: None,
            branch: None,
            target_branch: None,
            patch: Some(PathBuf::from("/m/proposals/lint.patch")),
            base_dir: Some(dir.path().to_path_buf()),
            ..branch
        };
        assert_eq!(
            promoted(&patch, Outcome::Updated).next_command(),
            Some(format!(
                "git -C {} apply /m/proposals/lint.patch",
                crate::shell::quote(&dir.path().display().to_string())
            ))
        );
    }

    #[test]
    fn appending_keeps_one_blank_line() {
        assert_eq!(appended("", "B\n"), "B\n");
        assert_eq!(appended("A", "B\n"), "A\n\nB\n");
        assert_eq!(appended("A\n", "B\n"), "A\n\nB\n");
        assert_eq!(appended("A\n\n", "B\n"), "A\n\nB\n");
    }
}
