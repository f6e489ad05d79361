//! The promotion branch (DESIGN §7): one commit on the tip of the branch HEAD names, built from
//! that commit's tree (HEAD, `.git/index` and the work tree untouched), on
//! `memdir/promote/<name>`, moved by compare-and-swap; a branch someone else committed to is
//! never replaced.

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use super::target::Target;
use super::{Outcome, PromoteError, PromoteTo, Source, appended, file_diff, text_of};
use crate::memory::index::{Index, IndexLine};
use crate::memory::store::{INDEX_FILE, StoreError};
use crate::repo::{TargetHead, TargetRepo};
use crate::review::proposals::Proposal;

/// The files a promotion changes: path, new content, old content (`None`: new file), kind.
struct Change {
    path: String,
    old: Option<String>,
    new: String,
    kind: EntryKind,
}

/// The change in a repository, from the files at `base`; `None` when the rule is already there.
fn changes_at(
    repo: &TargetRepo,
    base: ObjectId,
    target: &Target,
    source: &Source,
    to: PromoteTo,
) -> Result<Option<Vec<Change>>, PromoteError> {
    let read = |path: &str| -> Result<Option<(EntryKind, String)>, PromoteError> {
        match repo.file_at(base, path)? {
            None => Ok(None),
            Some((kind @ (EntryKind::Blob | EntryKind::BlobExecutable), bytes)) => {
                Ok(Some((kind, text_of(&bytes, path)?)))
            }
            Some((EntryKind::Link, _)) => Err(PromoteError::Invalid(format!(
                "{path} is a symlink in {}; promote into the file it names (--target)",
                repo.workdir().display()
            ))),
            Some(_) => Err(PromoteError::Invalid(format!(
                "{path} is a folder or a submodule in {}, not a file",
                repo.workdir().display()
            ))),
        }
    };
    if to == PromoteTo::Team {
        let topic = read(&target.file)?;
        let index = read(INDEX_FILE)?;
        let mut parsed = Index::parse(index.as_ref().map_or("", |(_, t)| t.as_str()));
        if let Some((_, text)) = &topic
            && source.rule.is_in(text)
            && parsed.entry_for(&target.file).is_some()
        {
            return Ok(None);
        }
        let (line, _) = IndexLine::for_memory(&source.title, &target.file, &source.description)
            .map_err(StoreError::from)?;
        parsed.upsert(&line);
        let mut changes = vec![Change {
            path: target.file.clone(),
            kind: topic.as_ref().map_or(EntryKind::Blob, |(k, _)| *k),
            old: topic.map(|(_, t)| t),
            new: source.text.clone(),
        }];
        let new_index = parsed.render();
        if index.as_ref().map(|(_, t)| t) != Some(&new_index) {
            changes.push(Change {
                path: INDEX_FILE.to_string(),
                kind: index.as_ref().map_or(EntryKind::Blob, |(k, _)| *k),
                old: index.map(|(_, t)| t),
                new: new_index,
            });
        }
        return Ok(Some(changes));
    }
    let old = read(&target.file)?;
    if let Some((_, text)) = &old
        && source.rule.is_in(text)
    {
        return Ok(None);
    }
    let block = source.rule.block(&source.name);
    Ok(Some(vec![Change {
        path: target.file.clone(),
        kind: old.as_ref().map_or(EntryKind::Blob, |(k, _)| *k),
        new: appended(old.as_ref().map_or("", |(_, t)| t.as_str()), &block),
        old: old.map(|(_, t)| t),
    }]))
}

/// The promotion branch, and the commit memdir last recorded on it.
pub(super) struct Branch<'a> {
    pub(super) name: &'a str,
    pub(super) recorded: Option<&'a str>,
}

impl Branch<'_> {
    /// Whether memdir made `tip` for `memory`: the commit it recorded, or (with no record) a
    /// commit carrying its trailers. Anything else is someone's work, never to be dropped.
    fn is_memdirs(
        &self,
        repo: &TargetRepo,
        tip: ObjectId,
        memory: &str,
    ) -> Result<bool, PromoteError> {
        if let Some(recorded) = self.recorded {
            return Ok(ObjectId::from_hex(recorded.as_bytes()).ok() == Some(tip));
        }
        let message = repo.message(tip)?;
        let trailer = format!("Memdir-Memory: {memory}");
        Ok(message.lines().any(|l| l.trim() == "Memdir-Op: promote")
            && message.lines().any(|l| l.trim() == trailer))
    }
}

/// The promotion as a branch in `repo`: one commit on the tip of HEAD's branch.
pub(super) fn write(
    repo: &TargetRepo,
    target: &Target,
    source: &Source,
    to: PromoteTo,
    promotion: &Branch<'_>,
    proposal: &mut Proposal,
) -> Result<(Outcome, String), PromoteError> {
    let branch = promotion.name;
    let root = repo.workdir().display().to_string();
    let (target_branch, tip) = match repo.head()? {
        TargetHead::Branch { name, tip } => (name, tip),
        TargetHead::Detached => {
            return Err(PromoteError::Invalid(format!(
                "HEAD is detached in {root}: check out the branch the promotion should be merged into, then promote"
            )));
        }
        TargetHead::Unborn(name) => {
            return Err(PromoteError::Invalid(format!(
                "{name} has no commit yet in {root}: commit something first, then promote"
            )));
        }
    };
    if repo.checked_out_branches().iter().any(|b| b == branch) {
        return Err(PromoteError::Invalid(format!(
            "{branch} is checked out in {root}; memdir never moves a checked-out branch (use --branch)"
        )));
    }
    proposal.repo = Some(repo.workdir().to_path_buf());
    proposal.branch = Some(branch.to_string());
    proposal.target_branch = Some(target_branch.clone());
    proposal.base = Some(tip.to_string());
    let Some(changes) = changes_at(repo, tip, target, source, to)? else {
        return Ok((Outcome::AlreadyPresent, String::new()));
    };
    let diff: String = changes
        .iter()
        .map(|c| file_diff(&c.path, c.old.as_deref(), &c.new))
        .collect();
    let files: Vec<(&str, EntryKind, &[u8])> = changes
        .iter()
        .map(|c| (c.path.as_str(), c.kind, c.new.as_bytes()))
        .collect();
    let (tree, objects) = repo.tree_with_files(tip, &files)?;
    let existing = repo.branch_tip(branch)?;
    if let Some(existing) = existing
        && repo.tree_and_parents(existing)? == (tree, vec![tip])
    {
        proposal.commit = Some(existing.to_string());
        return Ok((Outcome::Unchanged, diff));
    }
    if let Some(existing) = existing
        && !promotion.is_memdirs(repo, existing, &source.name)?
    {
        return Err(PromoteError::Invalid(format!(
            "{branch} in {root} ends in {}, which is not memdir's commit (someone added to it): merge or delete that branch, or promote with --branch NAME; nothing was written",
            existing.to_hex_with_len(7)
        )));
    }
    let into = match to {
        PromoteTo::Team => "team memory".to_string(),
        _ => target.file.clone(),
    };
    let mut message = format!("memdir: promote {} into {into}\n\n", source.name);
    if !source.description.trim().is_empty() {
        message.push_str(source.description.trim());
        message.push_str("\n\n");
    }
    message.push_str(&format!(
        "Memdir-Op: promote\nMemdir-Memory: {}\n",
        source.name
    ));
    let commit = repo.write_commit(tree, tip, &message, objects)?;
    repo.set_branch(
        branch,
        commit,
        existing,
        &format!("memdir promote {}: onto {target_branch}", source.name),
    )?;
    proposal.commit = Some(commit.to_string());
    let outcome = if existing.is_some() {
        Outcome::Updated
    } else {
        Outcome::Created
    };
    Ok((outcome, diff))
}
