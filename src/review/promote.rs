//! Promotion (DESIGN §7): a memory's rule carried into shared instructions as a branch for a
//! person to merge, never as an edit of anyone's work tree.
//!
//! In the target's repository, the branch `memdir/promote/<name>` gets one commit on the tip of
//! the branch HEAD names, made from that commit's tree with gix's tree editor: HEAD, `.git/index`
//! and the work tree are not touched, dirty or not. Promoting again replaces that commit with a
//! new one on the current tip (the branch is moved, by compare-and-swap), so the branch never
//! stacks duplicates. A target in no repository gets a patch under `<memory dir>/proposals/`
//! instead. Each promotion is recorded for `memdir proposals` ([`crate::review::proposals`]).

use std::path::{Component, Path, PathBuf};

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::memory::catalog::read_memory;
use crate::memory::index::{Index, IndexLine};
use crate::memory::store::{INDEX_FILE, Store, StoreError, title_from_name};
use crate::memory::taxonomy::{MemoryType, validate_name};
use crate::repo::{RepoError, TargetHead, TargetRepo};
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
            PromoteError::Io { .. } => false,
            PromoteError::Store(e) => e.is_invalid_input(),
            PromoteError::Repo(e) => e.is_refusal(),
            PromoteError::Proposal(e) => e.is_invalid_input(),
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> PromoteError + '_ {
    move |source| PromoteError::Io {
        path: path.to_path_buf(),
        source,
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
        let mut value = serde_json::to_value(&self.proposal).unwrap_or_default();
        value["outcome"] = self.outcome.as_str().into();
        value["diff"] = self.diff.clone().into();
        value["command"] = self
            .next_command()
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

/// The target file: its repository (if any), the folder a patch applies in, and its path
/// relative to that root.
struct Target {
    repo: Option<TargetRepo>,
    /// The repository's root, or the folder the patch applies in.
    root: PathBuf,
    /// `/`-separated, relative to `root`.
    file: String,
}

impl Target {
    fn path(&self) -> PathBuf {
        self.root.join(&self.file)
    }
}

/// `path` made canonical as far as it exists (its missing tail appended as given).
fn canonical_prefix(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut tail = Vec::new();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            let mut out = canonical;
            for part in tail.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Resolve `given` (or `CLAUDE.md`) against `anchor`, and express it relative to `root`, which
/// it must be inside.
fn relative_file(root: &Path, anchor: &Path, given: Option<&Path>) -> Result<String, PromoteError> {
    let given = given.unwrap_or(Path::new(DEFAULT_FILE));
    let joined = crate::paths::absolute_from(anchor, given);
    let normal = crate::paths::normalize(&joined).ok_or_else(|| {
        PromoteError::Invalid(format!(
            "--target {}: leaves the filesystem root",
            given.display()
        ))
    })?;
    let path = canonical_prefix(&normal);
    let outside = || {
        PromoteError::Invalid(format!(
            "--target {} is outside {} (it must be a file inside it)",
            given.display(),
            root.display()
        ))
    };
    let relative = path.strip_prefix(root).map_err(|_| outside())?;
    let mut parts = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(part) => {
                let part = part.to_str().ok_or_else(|| {
                    PromoteError::Invalid(format!("--target {} is not UTF-8", given.display()))
                })?;
                if part.eq_ignore_ascii_case(".git") {
                    return Err(PromoteError::Invalid(format!(
                        "--target {} is inside .git",
                        given.display()
                    )));
                }
                parts.push(part.to_string());
            }
            _ => return Err(outside()),
        }
    }
    if parts.is_empty() {
        return Err(outside());
    }
    Ok(parts.join("/"))
}

/// Find the target of a project or personal promotion: the file, and the repository holding it.
fn resolve_target(places: &Places, request: &Request<'_>) -> Result<Target, PromoteError> {
    let anchor_dir = match request.to {
        PromoteTo::Personal => places.config_dir.clone(),
        _ => places.project.clone(),
    };
    let anchor = canonical_prefix(&anchor_dir);
    let repo = TargetRepo::discover(&anchor)?;
    match repo {
        Some(repo) => {
            let root = repo.workdir().to_path_buf();
            // A project's file is relative to its repository's root; a personal one to the
            // config dir, wherever its repository's root is.
            let anchor = match request.to {
                PromoteTo::Project => root.clone(),
                _ => anchor,
            };
            let file = relative_file(&root, &anchor, request.target)?;
            Ok(Target {
                repo: Some(repo),
                root,
                file,
            })
        }
        None => {
            let file = relative_file(&anchor, &anchor, request.target)?;
            Ok(Target {
                repo: None,
                root: anchor,
                file,
            })
        }
    }
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
    let target = match request.to {
        PromoteTo::Team => {
            if request.target.is_some() {
                return Err(PromoteError::Invalid(
                    "--target does not apply to --to team (the memory becomes a team topic file)"
                        .into(),
                ));
            }
            let team = places.memory_dir.join("team");
            if !team.join(".git").exists() {
                return Err(PromoteError::Invalid(format!(
                    "team memory is not set up yet: {} is not a git repository (hint: set up team memory first, then promote)",
                    team.display()
                )));
            }
            let repo = TargetRepo::open(&team)?;
            Target {
                root: repo.workdir().to_path_buf(),
                repo: Some(repo),
                file: format!("{}.md", source.name),
            }
        }
        _ => resolve_target(places, request)?,
    };
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
        time: chrono::Local::now().to_rfc3339(),
        memory_blob,
        rule: source.rule.text().to_string(),
        reconciled: None,
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
            let branch = Branch {
                name: &branch,
                recorded: recorded.as_deref(),
            };
            on_branch(repo, &target, &source, request.to, &branch, &mut proposal)?
        }
        None => as_patch(&places.memory_dir, &target, &source, &mut proposal)?,
    };
    if outcome != Outcome::AlreadyPresent {
        proposals::save(&places.memory_dir, &proposal)?;
    }
    drop(store);
    Ok(Promoted {
        proposal,
        outcome,
        diff,
    })
}

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
struct Branch<'a> {
    name: &'a str,
    recorded: Option<&'a str>,
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
fn on_branch(
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
    let commit = repo.write_commit(tree, tip, &message, &objects)?;
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

/// The promotion as a patch under `<memory dir>/proposals/`, for a target in no repository.
fn as_patch(
    memory_dir: &Path,
    target: &Target,
    source: &Source,
    proposal: &mut Proposal,
) -> Result<(Outcome, String), PromoteError> {
    let path = target.path();
    let old = match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() => {
            let bytes = std::fs::read(&path).map_err(io_error(&path))?;
            Some(text_of(&bytes, &path.display().to_string())?)
        }
        Ok(_) => {
            return Err(PromoteError::Invalid(format!(
                "{} is not a regular file; promote into a file (--target)",
                path.display()
            )));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_error(&path)(e)),
    };
    if let Some(text) = &old
        && source.rule.is_in(text)
    {
        return Ok((Outcome::AlreadyPresent, String::new()));
    }
    let new = appended(
        old.as_deref().unwrap_or(""),
        &source.rule.block(&source.name),
    );
    let patch = file_diff(&target.file, old.as_deref(), &new);
    let dir = memory_dir.join("proposals");
    std::fs::create_dir_all(&dir).map_err(io_error(&dir))?;
    let file = dir.join(format!("{}.patch", source.name));
    let outcome = match std::fs::read(&file) {
        Ok(bytes) if bytes == patch.as_bytes() => Outcome::Unchanged,
        Ok(_) => Outcome::Updated,
        Err(_) => Outcome::Created,
    };
    if outcome != Outcome::Unchanged {
        crate::atomic::replace(&file, patch.as_bytes()).map_err(io_error(&file))?;
    }
    proposal.patch = Some(file);
    proposal.base_dir = Some(target.root.clone());
    Ok((outcome, patch))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_keep_the_instruction_and_its_reason() {
        let rule = Rule::from_memory(
            "Lint first",
            "Run `npm run lint` before every commit.\n\n**Why:** CI was red for a day.\n**How to apply:** lint changed files.\n",
        );
        assert_eq!(
            rule.block("pre-commit-lint"),
            "## Lint first (from memdir memory pre-commit-lint)\n\nRun `npm run lint` before every commit.\n\nHow to apply: lint changed files.\n\nWhy: CI was red for a day.\n"
        );
        assert!(rule.is_in(
            "x\nRun `npm run lint`\nbefore every commit.\n\nHow to apply:   lint changed files.\n"
        ));
        assert!(!rule.is_in("Run `npm run lint` before every commit."));
        let plain = Rule::from_memory("T", "Use tabs.");
        assert_eq!(
            plain.block("t"),
            "## T (from memdir memory t)\n\nUse tabs.\n"
        );
    }

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
        };
        let promoted = |proposal: &Proposal, outcome| Promoted {
            proposal: proposal.clone(),
            outcome,
            diff: String::new(),
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
