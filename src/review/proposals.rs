//! Promotion records and their fate (DESIGN §7): every `memdir promote` leaves a record in the
//! memory repository's `.git/memdir/proposals/<name>.json` (state, not history: never
//! committed), and `memdir proposals` tells from the target repository whether each one is still
//! open, was merged, or went stale (a team promotion also from the team remote's branch, where
//! its pull request is merged). `--reconcile` retires the source memory of each merged one with
//! a `promote` commit naming the merge; it is what the `post-merge` hook runs.

use std::path::{Path, PathBuf};

use gix::ObjectId;
use serde::{Deserialize, Serialize};

use crate::memory::store::{Store, StoreError};
use crate::repo::{MemoryRepo, RepoError, TargetRepo};
use crate::review::rule::Rule;
use crate::sync::transport::ORIGIN;

/// How far down a target branch's first parents the commit that brought a promotion in is looked
/// for; past it, the branch's tip is named instead.
const MAX_FIRST_PARENTS: usize = 1000;

#[derive(Debug, thiserror::Error)]
pub enum ProposalError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not a promotion record memdir can read ({source})", path.display())]
    Record {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

impl ProposalError {
    /// Whether the caller's input is at fault (exit 2), not the machine (exit 1).
    pub fn is_invalid_input(&self) -> bool {
        match self {
            ProposalError::Io { .. } | ProposalError::Record { .. } => false,
            ProposalError::Store(e) => e.is_invalid_input(),
            ProposalError::Repo(e) => e.is_refusal(),
        }
    }
}

/// One promotion as recorded when it was made (and updated when it is reconciled).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// The source memory's name.
    pub memory: String,
    /// Its type then (`feedback`, …).
    #[serde(rename = "type")]
    pub memory_type: String,
    /// `project`, `personal` or `team`.
    pub kind: String,
    /// The target repository's work-tree root; `None` when a patch was written instead.
    pub repo: Option<PathBuf>,
    /// The target file, relative to `repo` (or to `base_dir` for a patch), `/`-separated.
    pub file: String,
    /// The target file's absolute path.
    pub path: PathBuf,
    /// The promotion branch (`memdir/promote/<name>`).
    pub branch: Option<String>,
    /// The branch it is meant to be merged into (HEAD's branch when promoted).
    pub target_branch: Option<String>,
    /// The promotion commit.
    pub commit: Option<String>,
    /// The target branch's tip it was built on.
    pub base: Option<String>,
    /// The patch written where the target is in no repository.
    pub patch: Option<PathBuf>,
    /// The folder the patch applies in (`git -C <base_dir> apply <patch>`).
    pub base_dir: Option<PathBuf>,
    /// When it was made (RFC 3339).
    pub time: String,
    /// The source memory's topic file then, as a git blob id: a later change makes it stale.
    pub memory_blob: String,
    /// The rule's text as promoted: finding it in the target file counts as merged (a squash or
    /// a rebase leaves no ancestry to follow).
    pub rule: String,
    /// Set once `--reconcile` dealt with it.
    #[serde(default)]
    pub reconciled: Option<Reconciled>,
    /// A team promotion pushed for review: the page that opens its pull request, when the
    /// remote printed one (kept for when a later push prints nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_url: Option<String>,
}

impl Proposal {
    /// The record as `--json` shows it, in the vocabulary of every command (ARCHITECTURE.md,
    /// "JSON field names"): the memory's name is `name` (the record on disk keeps `memory`, so
    /// records written before read the same).
    pub fn to_json(&self) -> serde_json::Value {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(record)) => record
                .into_iter()
                .map(|(key, value)| match key.as_str() {
                    "memory" => ("name".to_string(), value),
                    _ => (key, value),
                })
                .collect(),
            _ => serde_json::Value::Null,
        }
    }
}

/// What `--reconcile` did with a merged promotion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reconciled {
    /// The `promote` commit that retired the memory; `None` when it was kept (see `note`).
    pub commit: Option<String>,
    /// The commit that brought the promotion into the target branch.
    pub merge: Option<String>,
    pub time: String,
    pub note: String,
}

/// A promotion's status now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Open,
    /// In the target: `merge` is the commit that brought it in (for a patch, none).
    Merged {
        merge: Option<ObjectId>,
    },
    /// Will not be merged as it is: the reason.
    Stale(String),
}

impl Status {
    pub fn as_str(&self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Merged { .. } => "merged",
            Status::Stale(_) => "stale",
        }
    }
}

/// A recorded promotion and its status.
#[derive(Debug, Clone)]
pub struct Checked {
    pub proposal: Proposal,
    pub status: Status,
}

impl Checked {
    /// The JSON object of `proposals --json`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = self.proposal.to_json();
        value["status"] = self.status.as_str().into();
        value["reason"] = match &self.status {
            Status::Stale(reason) => reason.as_str().into(),
            _ => serde_json::Value::Null,
        };
        value["merge"] = match &self.status {
            Status::Merged { merge: Some(id) } => id.to_string().into(),
            _ => self
                .proposal
                .reconciled
                .as_ref()
                .and_then(|r| r.merge.clone())
                .map_or(serde_json::Value::Null, Into::into),
        };
        value
    }
}

/// A promotion record is a few hundred bytes; one past this is not memdir's.
const RECORD_BYTES: u64 = 1024 * 1024;

/// Where the records live: memdir's state in the memory repository's git dir.
pub fn records_dir(memory_dir: &Path) -> PathBuf {
    memory_dir.join(".git").join("memdir").join("proposals")
}

/// Record a promotion (replacing an earlier one of the same memory), atomically.
pub fn save(memory_dir: &Path, proposal: &Proposal) -> Result<(), ProposalError> {
    let dir = records_dir(memory_dir);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ProposalError::Io { path, source }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let path = dir.join(format!("{}.json", proposal.memory));
    let mut text =
        serde_json::to_string_pretty(proposal).map_err(|source| ProposalError::Record {
            path: path.clone(),
            source,
        })?;
    text.push('\n');
    crate::atomic::replace(&path, text.as_bytes()).map_err(io(&path))
}

/// Every recorded promotion, by memory name; a record that cannot be read is reported in the
/// second list (its path and why), not fatal.
pub fn load_all(memory_dir: &Path) -> Result<(Vec<Proposal>, Vec<String>), ProposalError> {
    let dir = records_dir(memory_dir);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
        Err(source) => return Err(ProposalError::Io { path: dir, source }),
    };
    let mut proposals = Vec::new();
    let mut problems = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.ends_with(".json") {
            continue;
        }
        let parsed = crate::input::read_regular_text(&path, RECORD_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|text| serde_json::from_str::<Proposal>(&text).map_err(|e| e.to_string()));
        match parsed {
            Ok(proposal) => proposals.push(proposal),
            Err(why) => problems.push(format!("{}: {why}", path.display())),
        }
    }
    proposals.sort_by(|a, b| a.memory.cmp(&b.memory));
    Ok((proposals, problems))
}

/// The source memory's topic file now, as a blob id; `None` when it is gone.
fn memory_blob_now(memory_dir: &Path, name: &str) -> Result<Option<ObjectId>, ProposalError> {
    let file = format!("{name}.md");
    let Some(bytes) = crate::memory::store::read_memory_file(
        memory_dir,
        &file,
        crate::input::MAX_TOPIC_FILE_BYTES,
    )?
    else {
        return Ok(None);
    };
    Ok(Some(MemoryRepo::open(memory_dir)?.blob_id(&bytes)?))
}

/// Why the source memory makes a promotion stale, if it does.
fn memory_drift(memory_dir: &Path, proposal: &Proposal) -> Result<Option<String>, ProposalError> {
    Ok(match memory_blob_now(memory_dir, &proposal.memory)? {
        None => Some(format!("memory {} was removed since", proposal.memory)),
        Some(id) if ObjectId::from_hex(proposal.memory_blob.as_bytes()).ok() != Some(id) => {
            Some(format!(
                "memory {} changed since it was promoted (promote it again)",
                proposal.memory
            ))
        }
        Some(_) => None,
    })
}

/// A promotion's status, asking its target repository (or file) now.
pub fn check(memory_dir: &Path, proposal: &Proposal) -> Result<Checked, ProposalError> {
    let status = status(memory_dir, proposal)?;
    Ok(Checked {
        proposal: proposal.clone(),
        status,
    })
}

fn status(memory_dir: &Path, proposal: &Proposal) -> Result<Status, ProposalError> {
    if let Some(reconciled) = &proposal.reconciled {
        let merge = reconciled
            .merge
            .as_deref()
            .and_then(|hex| ObjectId::from_hex(hex.as_bytes()).ok());
        return Ok(Status::Merged { merge });
    }
    let Some(repo_dir) = &proposal.repo else {
        return patch_status(memory_dir, proposal);
    };
    let Ok(repo) = TargetRepo::open(repo_dir) else {
        return Ok(Status::Stale(format!(
            "the repository {} is gone",
            repo_dir.display()
        )));
    };
    let target = proposal.target_branch.as_deref().unwrap_or_default();
    let Some(tip) = repo.branch_tip(target)? else {
        return Ok(Status::Stale(format!(
            "the target branch {target} no longer exists"
        )));
    };
    // A team promotion is merged on the team remote (a pull request there): its branch there,
    // as last fetched, counts as much as the clone's own.
    let remote_tip = match proposal.kind.as_str() {
        "team" => repo.remote_branch_tip(ORIGIN, target)?,
        _ => None,
    };
    let tips: Vec<ObjectId> = std::iter::once(tip).chain(remote_tip).collect();
    let branch_tip = match &proposal.branch {
        Some(branch) => repo.branch_tip(branch)?,
        None => None,
    };
    let recorded = proposal
        .commit
        .as_deref()
        .and_then(|hex| ObjectId::from_hex(hex.as_bytes()).ok())
        .filter(|id| repo.has_commit(*id));
    for &tip in &tips {
        for promoted in branch_tip.into_iter().chain(recorded) {
            if repo.is_ancestor(promoted, tip)? {
                let merge = merge_commit(&repo, promoted, tip)?;
                return Ok(Status::Merged { merge: Some(merge) });
            }
        }
    }
    let rule = Rule::from_recorded(&proposal.rule);
    for &tip in &tips {
        if rule_at(&repo, tip, &proposal.file, &rule)? {
            let merge = first_commit_with_rule(&repo, tip, &proposal.file, &rule)?;
            return Ok(Status::Merged { merge: Some(merge) });
        }
    }
    if branch_tip.is_none() {
        return Ok(Status::Stale(format!(
            "the branch {} was deleted without being merged",
            proposal.branch.as_deref().unwrap_or_default()
        )));
    }
    Ok(match memory_drift(memory_dir, proposal)? {
        Some(reason) => Status::Stale(reason),
        None => Status::Open,
    })
}

/// A patch is merged once its rule is in the file on disk.
fn patch_status(memory_dir: &Path, proposal: &Proposal) -> Result<Status, ProposalError> {
    let text = match crate::input::read_regular(&proposal.path, crate::input::MAX_INDEX_BYTES) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.is_not_found() => String::new(),
        Err(e) => return Err(ProposalError::Store(e.into())),
    };
    if Rule::from_recorded(&proposal.rule).is_in(&text) {
        return Ok(Status::Merged { merge: None });
    }
    if let Some(patch) = &proposal.patch
        && !patch.is_file()
    {
        return Ok(Status::Stale(format!(
            "the patch {} was removed without being applied",
            patch.display()
        )));
    }
    Ok(match memory_drift(memory_dir, proposal)? {
        Some(reason) => Status::Stale(reason),
        None => Status::Open,
    })
}

/// Whether the target file at `commit` holds the rule.
fn rule_at(
    repo: &TargetRepo,
    commit: ObjectId,
    file: &str,
    rule: &Rule,
) -> Result<bool, RepoError> {
    Ok(match repo.file_at(commit, file)? {
        Some((_, bytes)) => rule.is_in(&String::from_utf8_lossy(&bytes)),
        None => false,
    })
}

/// The commit on `tip`'s first-parent line that brought `promoted` in: the merge commit, or
/// `promoted` itself when the merge was a fast-forward.
fn merge_commit(
    repo: &TargetRepo,
    promoted: ObjectId,
    tip: ObjectId,
) -> Result<ObjectId, RepoError> {
    let mut current = tip;
    for _ in 0..MAX_FIRST_PARENTS {
        let (_, parents) = repo.tree_and_parents(current)?;
        match parents.first() {
            Some(first) if repo.is_ancestor(promoted, *first)? => current = *first,
            _ => return Ok(current),
        }
    }
    Ok(tip)
}

/// The oldest commit of `tip`'s unbroken first-parent line whose target file holds the rule
/// (where a squash merge or a cherry-pick brought it in).
fn first_commit_with_rule(
    repo: &TargetRepo,
    tip: ObjectId,
    file: &str,
    rule: &Rule,
) -> Result<ObjectId, RepoError> {
    let mut current = tip;
    for _ in 0..MAX_FIRST_PARENTS {
        let (_, parents) = repo.tree_and_parents(current)?;
        match parents.first() {
            Some(first) if rule_at(repo, *first, file, rule)? => current = *first,
            _ => return Ok(current),
        }
    }
    Ok(tip)
}

/// Every recorded promotion with its status, and the records that could not be read.
pub fn list(memory_dir: &Path) -> Result<(Vec<Checked>, Vec<String>), ProposalError> {
    let (proposals, problems) = load_all(memory_dir)?;
    let checked = proposals
        .iter()
        .map(|p| check(memory_dir, p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((checked, problems))
}

/// What `--reconcile` did for one merged promotion.
#[derive(Debug, Clone)]
pub struct Reconciliation {
    pub memory: String,
    /// The `promote` commit in the memory repository; `None` when the memory was kept or gone.
    pub commit: Option<ObjectId>,
    pub merge: Option<ObjectId>,
    pub note: String,
}

impl Reconciliation {
    /// The JSON object of `proposals --reconcile --json`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.memory,
            "commit": self.commit.map(|c| c.to_string()),
            "merge": self.merge.map(|m| m.to_string()),
            "note": self.note,
        })
    }
}

/// Retire the source memory of every merged, not yet reconciled promotion: one
/// `promote(<type>): <name>` commit each, through the store (its lock held by the caller), with
/// the merge in a `Memdir-Merge` trailer and the target file in `Memdir-Target`; then mark the
/// record. A memory that changed since it was promoted is kept (its new text is not in the
/// target) and said so; one already removed is only marked. Running it again does nothing.
pub fn reconcile(store: &mut Store) -> Result<Vec<Reconciliation>, ProposalError> {
    let memory_dir = store.dir.clone();
    let (proposals, _) = load_all(&memory_dir)?;
    let mut done = Vec::new();
    for proposal in proposals {
        if proposal.reconciled.is_some() {
            continue;
        }
        let Status::Merged { merge } = status(&memory_dir, &proposal)? else {
            continue;
        };
        let merge_hex = merge.map(|m| m.to_string());
        let target = proposal.path.display().to_string();
        let (commit, note) = match memory_drift(&memory_dir, &proposal)? {
            None => {
                let note = match (&merge, &proposal.branch, &proposal.target_branch) {
                    (Some(merge), Some(branch), Some(target_branch)) => format!(
                        "Promoted to {target} (branch {branch}), merged into {target_branch} by {}.",
                        merge.to_hex_with_len(7)
                    ),
                    _ => format!("Promoted to {target} (patch applied)."),
                };
                let mut trailers: Vec<(&str, &str)> = Vec::new();
                if let Some(merge) = &merge_hex {
                    trailers.push(("Merge", merge));
                }
                trailers.push(("Target", &target));
                let removed = store.retire(&proposal.memory, &note, &trailers)?;
                (Some(removed.commit), note)
            }
            Some(reason) => (None, format!("not retired: {reason}")),
        };
        let mut updated = proposal.clone();
        updated.reconciled = Some(Reconciled {
            commit: commit.map(|c| c.to_string()),
            merge: merge_hex,
            time: crate::memory::age::now(),
            note: note.clone(),
        });
        save(&memory_dir, &updated)?;
        done.push(Reconciliation {
            memory: proposal.memory,
            commit,
            merge,
            note,
        });
    }
    Ok(done)
}
