//! The consolidation as a branch of the memory repository (DESIGN §7): the memories read from
//! HEAD's commit (never the work tree), the steps committed one per kind on
//! `memdir/consolidate/<date>`, made from HEAD's tree with gix's tree editor: HEAD,
//! `.git/index` and the work tree are not touched, as `promote` leaves them. Preparing again
//! replaces memdir's own branch (compare-and-swap) and leaves it alone when it already holds
//! exactly this; a branch someone else committed to is never replaced.

use std::path::Path;

use chrono::NaiveDate;
use gix::ObjectId;
use gix::objs::tree::EntryKind;

use super::plan::{Step, plan};
use super::{ConsolidateError, Findings, Memory, Proposal, Refused, checked, find};
use crate::input::MAX_TOPIC_FILE_BYTES;
use crate::memory::age::last_saved;
use crate::memory::calendar::format_date;
use crate::memory::index::Index;
use crate::memory::taxonomy::{INDEX_FILE, is_topic_file_name};
use crate::memory::topic::TopicFile;
use crate::repo::{FileEdit, MemoryRepo, TargetHead, TargetRepo};

/// The trailer every consolidation commit carries.
pub const TRAILER: &str = "Memdir-Op: consolidate";

/// The memories of a commit, as consolidation reads them.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub head: ObjectId,
    pub memories: Vec<Memory>,
    pub index: String,
    /// Topic files left out: untyped, unreadable or over the size cap (never changed).
    pub left_out: Vec<String>,
}

/// The memories of HEAD's commit in the memory dir `dir`, with when each was last saved.
pub fn read_head(dir: &Path) -> Result<Snapshot, ConsolidateError> {
    if !crate::repo::has_repository(dir)? {
        return Err(ConsolidateError::Invalid(format!(
            "{} has no history yet: nothing to consolidate",
            dir.display()
        )));
    }
    let repo = MemoryRepo::open(dir)?;
    let Some(head) = repo.head_commit()? else {
        return Err(ConsolidateError::Invalid(format!(
            "{} has no commits yet: nothing to consolidate",
            dir.display()
        )));
    };
    let tree = repo.commit_tree(head)?;
    let index = match tree.get(INDEX_FILE.as_bytes()) {
        Some((_, id)) => String::from_utf8_lossy(&repo.blob(*id)?).into_owned(),
        None => String::new(),
    };
    let titles = Index::parse(&index).first_entries();
    let saved = last_saved(&repo.history()?);
    let mut memories = Vec::new();
    let mut left_out = Vec::new();
    for (name, (kind, id)) in &tree {
        let file = String::from_utf8_lossy(name).into_owned();
        if *kind != EntryKind::Blob || !is_topic_file_name(&file) {
            continue;
        }
        let stem = file.trim_end_matches(".md").to_string();
        let topic = repo
            .blob_capped(*id, MAX_TOPIC_FILE_BYTES)?
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| TopicFile::parse(&text).ok().map(|t| (text, t)));
        let Some((text, topic)) = topic.filter(|(_, t)| t.memory_type.is_some()) else {
            left_out.push(stem);
            continue;
        };
        memories.push(Memory {
            memory_type: topic.memory_type,
            description: topic.description.unwrap_or_default(),
            title: titles.get(&file).map(|(_, e)| e.title.clone()),
            body: topic.body,
            text,
            saved: saved.get(&stem).copied(),
            name: stem,
        });
    }
    // Oldest first, as they were saved.
    memories.sort_by_key(|m| (m.saved.map_or(i64::MIN, |(s, _)| s), m.name.clone()));
    Ok(Snapshot {
        head,
        memories,
        index,
        left_out,
    })
}

/// What preparing a consolidation did to its branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Created,
    /// memdir's earlier branch of this name was replaced.
    Updated,
    /// The branch already held exactly this.
    Unchanged,
    /// Nothing to consolidate: no branch.
    Nothing,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Created => "created",
            Outcome::Updated => "updated",
            Outcome::Unchanged => "unchanged",
            Outcome::Nothing => "nothing",
        }
    }
}

/// A prepared consolidation.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub branch: String,
    /// HEAD's branch (what the consolidation merges into) and its commit it was made on.
    pub target_branch: String,
    pub base: ObjectId,
    pub outcome: Outcome,
    /// The commits on the branch, one per step, oldest first.
    pub commits: Vec<ObjectId>,
    pub steps: Vec<Step>,
    pub findings: Findings,
    /// Actions proposed and refused by the checks (each described), with why.
    pub refused: Vec<(String, Refused)>,
    pub left_out: Vec<String>,
    /// Who proposed (its actions taken out: they are [`Prepared::steps`] now).
    pub proposed: Proposal,
}

impl Prepared {
    /// The branch's tip; `None` when there was nothing to do.
    pub fn tip(&self) -> Option<ObjectId> {
        self.commits.last().copied()
    }
}

/// The branch a consolidation made on `today` is written to.
pub fn branch_name(today: NaiveDate) -> String {
    format!("memdir/consolidate/{}", format_date(today))
}

/// One step's commit message: what it does, a line per change, the trailers (the kind, and
/// who proposed: `builtin` or the model).
fn message(step: &Step, proposed: &Proposal) -> String {
    let mut out = format!(
        "consolidate: {} ({})\n\n",
        step.kind.title(),
        step.changes.len()
    );
    for change in &step.changes {
        out.push_str(&format!("- {}: {}\n", change.name, change.reason));
    }
    out.push_str(&format!(
        "\n{TRAILER}\nMemdir-Kind: {}\nMemdir-Proposed-By: {}\n",
        step.kind.as_str(),
        proposed.model.as_deref().unwrap_or("builtin")
    ));
    out
}

/// The file changes of a step as the tree editor takes them.
fn edits(step: &Step) -> Vec<FileEdit<'_>> {
    step.files
        .iter()
        .map(|(file, text)| {
            (
                file.as_str(),
                text.as_ref().map(|t| (EntryKind::Blob, t.as_bytes())),
            )
        })
        .collect()
}

/// Whether the branch tip `tip` holds only memdir's consolidation commits on top of a commit
/// HEAD's branch `head` has (so replacing it drops no one's work).
fn is_memdirs(repo: &TargetRepo, tip: ObjectId, head: ObjectId) -> Result<bool, ConsolidateError> {
    let mut commit = tip;
    for _ in 0..16 {
        if repo.is_ancestor(commit, head)? {
            return Ok(true);
        }
        if !repo.message(commit)?.lines().any(|l| l.trim() == TRAILER) {
            return Ok(false);
        }
        let (_, parents) = repo.tree_and_parents(commit)?;
        let [parent] = parents.as_slice() else {
            return Ok(false);
        };
        commit = *parent;
    }
    Ok(false)
}

/// The commits of memdir's branch `tip` back to `base`, oldest first, with their messages;
/// `None` when it is not built on `base` that way.
fn chain_on(
    repo: &TargetRepo,
    tip: ObjectId,
    base: ObjectId,
) -> Result<Option<Vec<String>>, ConsolidateError> {
    let mut messages = Vec::new();
    let mut commit = tip;
    for _ in 0..16 {
        if commit == base {
            messages.reverse();
            return Ok(Some(messages));
        }
        messages.push(repo.message(commit)?);
        let (_, parents) = repo.tree_and_parents(commit)?;
        let [parent] = parents.as_slice() else {
            return Ok(None);
        };
        commit = *parent;
    }
    Ok(None)
}

/// Consolidate the memory dir `dir` as of `today`: read HEAD, find what the rules find, let
/// `propose` say what to do (the builtin rules, or a model), check every action, and write the
/// branch.
pub fn prepare(
    dir: &Path,
    today: NaiveDate,
    propose: impl FnOnce(&[Memory], &Findings) -> Result<Proposal, ConsolidateError>,
) -> Result<Prepared, ConsolidateError> {
    let snapshot = read_head(dir)?;
    let findings = find(&snapshot.memories, today);
    let mut proposed = propose(&snapshot.memories, &findings)?;
    let (actions, mut refused) = checked(
        std::mem::take(&mut proposed.actions),
        &snapshot.memories,
        today,
    );
    refused.splice(0..0, std::mem::take(&mut proposed.malformed));
    let steps = plan(&snapshot.memories, &snapshot.index, &actions, today);
    let branch = branch_name(today);
    let repo = TargetRepo::open(dir)?;
    let root = repo.workdir().display().to_string();
    let target_branch = match repo.head()? {
        TargetHead::Branch { name, tip } if tip == snapshot.head => name,
        TargetHead::Branch { .. } => return Err(ConsolidateError::Moved),
        TargetHead::Detached | TargetHead::Unborn(_) => {
            return Err(ConsolidateError::Invalid(format!(
                "HEAD is not on a branch in {root}: check out the branch memory is saved on, then consolidate"
            )));
        }
    };
    let mut prepared = Prepared {
        branch: branch.clone(),
        target_branch,
        base: snapshot.head,
        outcome: Outcome::Nothing,
        commits: Vec::new(),
        steps,
        findings,
        refused,
        left_out: snapshot.left_out,
        proposed,
    };
    if prepared.steps.is_empty() {
        return Ok(prepared);
    }
    if repo.checked_out_branches().contains(&branch) {
        return Err(ConsolidateError::Invalid(format!(
            "{branch} is checked out in {root}; memdir never moves a checked-out branch"
        )));
    }
    let existing = repo.branch_tip(&branch)?;
    if let Some(existing) = existing {
        if !is_memdirs(&repo, existing, snapshot.head)? {
            return Err(ConsolidateError::Invalid(format!(
                "{branch} in {root} has commits that are not memdir's (someone added to it): merge or delete that branch first; nothing was written"
            )));
        }
        let all: Vec<FileEdit<'_>> = prepared.steps.iter().flat_map(edits).collect();
        let (tree, staged) = repo.tree_with_changes(snapshot.head, &all)?;
        drop(staged);
        let messages: Vec<String> = prepared
            .steps
            .iter()
            .map(|step| message(step, &prepared.proposed))
            .collect();
        if repo.tree_and_parents(existing)?.0 == tree
            && chain_on(&repo, existing, snapshot.head)?.as_ref() == Some(&messages)
        {
            prepared.outcome = Outcome::Unchanged;
            let mut commit = existing;
            let mut commits = vec![existing];
            while commits.len() < prepared.steps.len() {
                let parents = repo.tree_and_parents(commit)?.1;
                let Some(parent) = parents.first() else {
                    break;
                };
                commit = *parent;
                commits.push(commit);
            }
            commits.reverse();
            prepared.commits = commits;
            return Ok(prepared);
        }
    }
    let mut parent = snapshot.head;
    for step in &prepared.steps {
        let (tree, staged) = repo.tree_with_changes(parent, &edits(step))?;
        parent = repo.write_commit(tree, parent, &message(step, &prepared.proposed), staged)?;
        prepared.commits.push(parent);
    }
    repo.set_branch(
        &branch,
        parent,
        existing,
        &format!("memdir consolidate: onto {}", prepared.target_branch),
    )?;
    prepared.outcome = if existing.is_some() {
        Outcome::Updated
    } else {
        Outcome::Created
    };
    Ok(prepared)
}
