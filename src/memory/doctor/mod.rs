//! `memdir doctor` (DESIGN §4, §14): every inconsistency between the work tree, the index and
//! the object database, and the safe repairs ([`repair`]) — each its own commit, nothing ever
//! deleted, nothing it cannot read rewritten.

mod repair;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use gix::ObjectId;

use crate::input::{MAX_INDEX_BYTES, MAX_TOPIC_FILE_BYTES};
use crate::memory::catalog::{last_version_of, problem_text};
use crate::memory::index::{Index, IndexLine};
use crate::memory::load::{MAX_INDEX_LINES, MAX_INDEX_UNITS, invisible_entries, measure_index};
use crate::memory::store::{
    INDEX_FILE, Op, Scan, State, Store, StoreError, WorkTree, index_size_warnings, is_checked_out,
    not_utf8_line, read_memory_file,
};
use crate::memory::taxonomy::{conflict_copy_of, is_topic_file_name};
use crate::memory::topic::TopicFile;
use crate::repo::HistoryEntry;

/// What kind of inconsistency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Work-tree changes no commit holds yet.
    Uncommitted,
    /// A topic file the index does not name (a save in progress or interrupted, or a lost line).
    Orphan,
    /// The other side of a conflict a sync kept (`NAME.conflict-<id>.md`, never indexed), to
    /// finish with `memdir resolve`.
    Conflict,
    /// An index line naming a file that does not exist and that no commit holds.
    Dangling,
    /// A topic file the index names, deleted from the work tree while a commit holds it.
    Deleted,
    /// An index line whose hook still says what the topic file's description used to say.
    Drift,
    /// Two index lines for one file, or two files with one frontmatter name.
    Duplicate,
    /// Frontmatter that does not parse.
    InvalidFrontmatter,
    /// A topic file without a type.
    Untyped,
    /// `MEMORY.md` that memdir will not read as it is (a symlink, a FIFO, over 4 MiB, not UTF-8).
    BadIndex,
    /// A `*.md` entry that is not a regular file memdir reads (a symlink, a FIFO, too big).
    UnreadableFile,
    /// An index line whose link leaves the memory dir (an absolute path, `..`).
    OutsideLink,
    /// A topic file whose frontmatter `name` is not its file name (for information: Claude Code
    /// names files `user_role.md` and slugs `user-role`; a problem only when the name it claims
    /// is another memory's file).
    NameMismatch,
    /// A frontmatter `name` that is another memory's file name: `[[name]]` links and memdir's
    /// commands would mean different files.
    NameClash,
    /// The index past 80 % of Claude Code's load caps, or over them.
    IndexSize,
    /// Objects no ref or reflog reaches, whose content history does not hold either.
    Unreachable,
    /// An interrupted commit whose content a later commit holds: safe for `git gc` to prune
    /// (for information).
    Garbage,
    /// A deleted memory that `memdir restore` can bring back (for information).
    Restorable,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Uncommitted => "uncommitted",
            Kind::Orphan => "orphan",
            Kind::Conflict => "conflict",
            Kind::Dangling => "dangling",
            Kind::Deleted => "deleted",
            Kind::Drift => "drift",
            Kind::Duplicate => "duplicate",
            Kind::InvalidFrontmatter => "invalid-frontmatter",
            Kind::Untyped => "untyped",
            Kind::BadIndex => "bad-index",
            Kind::UnreadableFile => "unreadable",
            Kind::OutsideLink => "outside-link",
            Kind::NameMismatch => "name-mismatch",
            Kind::NameClash => "name-clash",
            Kind::IndexSize => "index-size",
            Kind::Unreachable => "unreachable",
            Kind::Garbage => "garbage",
            Kind::Restorable => "restorable",
        }
    }

    /// Whether it is a problem (doctor then exits 1), not just something worth knowing.
    pub fn is_problem(self) -> bool {
        !matches!(self, Kind::Restorable | Kind::Garbage | Kind::NameMismatch)
    }
}

/// What a finding is about: said as it is (a file, a memory, a commit), so that `--json` can
/// name it with the word that means it (ARCHITECTURE.md, "JSON field names").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject {
    /// A file of the memory dir by its name: a topic file, `MEMORY.md`.
    File(String),
    /// A link of the index as it is written (one that leaves the memory dir, too).
    Link(String),
    /// A memory by its name (a frontmatter name two files claim; a deleted memory).
    Memory(String),
    /// A commit `--fix` made, by its subject (the adoption of what was pending).
    Commit(String),
    /// A git object no ref reaches (an interrupted commit or tree).
    Object(ObjectId),
    /// The memory dir itself, before it is under memdir.
    Dir(std::path::PathBuf),
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::File(text)
            | Subject::Link(text)
            | Subject::Memory(text)
            | Subject::Commit(text) => f.write_str(text),
            Subject::Object(id) => write!(f, "{}", id.to_hex_with_len(12)),
            Subject::Dir(path) => write!(f, "{}", path.display()),
        }
    }
}

/// One thing doctor found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: Kind,
    /// What it is about.
    pub subject: Subject,
    pub detail: String,
    /// The commit that repaired it, with `--fix`.
    pub fixed: Option<ObjectId>,
}

fn finding(kind: Kind, subject: Subject, detail: impl Into<String>) -> Finding {
    Finding {
        kind,
        subject,
        detail: detail.into(),
        fixed: None,
    }
}

/// `MEMORY.md` as doctor finds it.
enum IndexHealth {
    Fine(String),
    NotUtf8(Vec<u8>),
    /// Not to be read at all; why.
    Unusable(String),
}

/// Whether an index link leaves the memory dir: an absolute path or one that climbs out with
/// `..` (web links and plain file names do not).
fn leaves_memory_dir(link: &str) -> bool {
    if link.contains("://") {
        return false;
    }
    link.starts_with(['/', '\\', '~'])
        || link.as_bytes().get(1) == Some(&b':')
        || link.split(['/', '\\']).any(|part| part == "..")
}

impl Store {
    /// Examine the memory dir; with `fix`, repair what is safe first (pending changes committed,
    /// valid orphans indexed, dangling lines dropped, each its own commit) and report the rest.
    pub fn doctor(&mut self, fix: bool) -> Result<Vec<Finding>, StoreError> {
        let mut repaired = Vec::new();
        if fix {
            repaired = self.repair()?;
        }
        let mut findings = self.examine()?;
        findings.extend(repaired);
        findings.sort_by(|a, b| (a.kind, &a.subject).cmp(&(b.kind, &b.subject)));
        Ok(findings)
    }

    /// The work tree's `MEMORY.md` as doctor can use it.
    fn index_health(&self, state: &State) -> Result<IndexHealth, StoreError> {
        if state.unreadable.contains(INDEX_FILE) {
            return Ok(IndexHealth::Unusable(problem_text(&self.index_refusal())));
        }
        match read_memory_file(&self.dir, INDEX_FILE, MAX_INDEX_BYTES) {
            Ok(None) => Ok(IndexHealth::Fine(String::new())),
            Ok(Some(bytes)) => Ok(match String::from_utf8(bytes) {
                Ok(text) => IndexHealth::Fine(text),
                Err(e) => IndexHealth::NotUtf8(e.into_bytes()),
            }),
            Err(e) if e.is_invalid_input() => Ok(IndexHealth::Unusable(problem_text(&e))),
            Err(e) => Err(e),
        }
    }

    /// Everything inconsistent now, without changing anything.
    fn examine(&self) -> Result<Vec<Finding>, StoreError> {
        let mut out = Vec::new();
        let state = self.state(Scan::Full, None)?;
        let history = self.repo.history()?;
        let index_text = match self.index_health(&state)? {
            IndexHealth::Fine(text) => Some(text),
            IndexHealth::NotUtf8(bytes) => {
                out.push(finding(
                    Kind::BadIndex,
                    Subject::File(INDEX_FILE.into()),
                    format!(
                        "it is not valid UTF-8 at line {}; memdir never rewrites what it cannot read: fix that line by hand (its other lines are not checked until then)",
                        not_utf8_line(&bytes)
                    ),
                ));
                None
            }
            IndexHealth::Unusable(why) => {
                out.push(finding(
                    Kind::BadIndex,
                    Subject::File(INDEX_FILE.into()),
                    format!("{why}; replace it with a regular file (its lines are not checked until then)"),
                ));
                None
            }
        };
        for name in state.unreadable.iter().filter(|n| n.as_str() != INDEX_FILE) {
            let why = match read_memory_file(&self.dir, name, MAX_TOPIC_FILE_BYTES) {
                Err(e) => problem_text(&e),
                Ok(_) => "it is a symlink; memdir reads and commits only regular files".into(),
            };
            out.push(finding(
                Kind::UnreadableFile,
                Subject::File(name.clone()),
                format!("{why} (never committed)"),
            ));
        }

        let index = Index::parse(index_text.as_deref().unwrap_or_default());
        let mut linked: BTreeMap<String, usize> = BTreeMap::new();
        for (_, entry) in index.entries() {
            *linked.entry(entry.file_name().to_string()).or_default() += 1;
        }
        let mut changed: BTreeSet<&str> = BTreeSet::new();
        for (name, work) in &state.work {
            if state.tree.get(name.as_bytes()).map(|(_, id)| *id) != Some(work.id) {
                changed.insert(name);
            }
        }
        for (name, (kind, _)) in &state.tree {
            let name = std::str::from_utf8(name).unwrap_or_default();
            // A memory the index names that is gone from the work tree is one problem, said
            // below (deleted, or dangling), not also an uncommitted change.
            let said_below = is_topic_file_name(name) && linked.contains_key(name);
            if is_checked_out(name.as_bytes(), *kind)
                && !state.work.contains_key(name)
                && !said_below
            {
                changed.insert(name);
            }
        }
        for name in changed {
            out.push(finding(
                Kind::Uncommitted,
                Subject::File(name.to_string()),
                "changed in the work tree since the last commit",
            ));
        }

        let mut names_by_frontmatter: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for name in state.work.keys().filter(|n| n.as_str() != INDEX_FILE) {
            if let Some(memory) = conflict_copy_of(name) {
                out.push(finding(
                    Kind::Conflict,
                    Subject::File(name.clone()),
                    format!(
                        "the other side of a conflict over {memory}.md, kept by a sync: memdir resolve {memory} --ours|--theirs|--edit (memdir team resolve in team memory)"
                    ),
                ));
            } else if index_text.is_some() && !linked.contains_key(name) {
                let detail = if state.tree.contains_key(name.as_bytes()) {
                    "not named by MEMORY.md"
                } else {
                    "not named by MEMORY.md and never committed: a save in progress or interrupted"
                };
                out.push(finding(Kind::Orphan, Subject::File(name.clone()), detail));
            }
            let bytes = read_memory_file(&self.dir, name, MAX_TOPIC_FILE_BYTES)?;
            let text = String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned();
            match TopicFile::parse(&text) {
                Ok(topic) => {
                    if topic.memory_type.is_none() {
                        out.push(finding(
                            Kind::Untyped,
                            Subject::File(name.clone()),
                            "no type: in its frontmatter",
                        ));
                    }
                    if let Some(front_name) = topic.name {
                        if front_name != name.trim_end_matches(".md") {
                            let other = format!("{front_name}.md");
                            out.push(if state.work.contains_key(&other) {
                                finding(
                                    Kind::NameClash,
                                    Subject::File(name.clone()),
                                    format!("its frontmatter says name: {front_name}, which is the name of {other}"),
                                )
                            } else {
                                finding(
                                    Kind::NameMismatch,
                                    Subject::File(name.clone()),
                                    format!("its frontmatter says name: {front_name}; memdir's commands call it {}", name.trim_end_matches(".md")),
                                )
                            });
                        }
                        names_by_frontmatter
                            .entry(front_name)
                            .or_default()
                            .push(name);
                    }
                }
                Err(e) => out.push(finding(
                    Kind::InvalidFrontmatter,
                    Subject::File(name.clone()),
                    e.to_string(),
                )),
            }
        }
        for file in linked.keys().filter(|f| leaves_memory_dir(f)) {
            out.push(finding(
                Kind::OutsideLink,
                Subject::Link(file.clone()),
                "MEMORY.md links it, outside the memory dir; a memory is a file in the memory dir",
            ));
        }
        for (file, count) in &linked {
            if *count > 1 {
                out.push(finding(
                    Kind::Duplicate,
                    Subject::Link(file.clone()),
                    format!("{count} index lines link it"),
                ));
            }
        }
        let deleted = self.deleted_files(&index, &state, &history)?;
        for (file, _) in linked.iter().filter(|(f, _)| is_topic_file_name(f)) {
            if state.work.contains_key(file) {
                continue;
            }
            out.push(match deleted.get(file) {
                Some(commit) => finding(
                    Kind::Deleted,
                    Subject::File(file.clone()),
                    format!(
                        "MEMORY.md names it, but it was deleted from the work tree; --fix brings it back as {} holds it",
                        commit.to_hex_with_len(7)
                    ),
                ),
                None => finding(
                    Kind::Dangling,
                    Subject::File(file.clone()),
                    "MEMORY.md names it, but there is no such file, and no commit holds it",
                ),
            });
        }
        for (line, wanted) in self.drifted(&index, &state, &history)? {
            out.push(finding(
                Kind::Drift,
                Subject::File(line.file_name().to_string()),
                format!(
                    "its index line says {:?}, what its description used to say; --fix makes it {:?}",
                    line.hook.as_deref().unwrap_or_default(),
                    wanted.hook.as_deref().unwrap_or_default()
                ),
            ));
        }
        for (front_name, files) in names_by_frontmatter {
            if files.len() > 1 {
                out.push(finding(
                    Kind::Duplicate,
                    Subject::Memory(front_name),
                    format!("one name in the frontmatter of {}", files.join(", ")),
                ));
            }
        }
        let index_text = index_text.unwrap_or_default();
        let size = measure_index(&index_text);
        if size.lines > MAX_INDEX_LINES || size.units > MAX_INDEX_UNITS {
            let hidden: Vec<String> = invisible_entries(&index_text)
                .map(|e| e.file_name().to_string())
                .collect();
            out.push(finding(
                Kind::IndexSize,
                Subject::File(INDEX_FILE.into()),
                format!(
                    "over Claude Code's load limit; not loaded: {}",
                    hidden.join(", ")
                ),
            ));
        } else if let Some(warning) = index_size_warnings(&index_text).into_iter().next() {
            out.push(finding(
                Kind::IndexSize,
                Subject::File(INDEX_FILE.into()),
                warning,
            ));
        }
        out.extend(self.restorable(&state.work, &history));
        out.extend(self.unreachable()?);
        Ok(out)
    }

    /// Memories whose newest commit deleted them.
    fn restorable(&self, work: &WorkTree, history: &[HistoryEntry]) -> Vec<Finding> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for entry in history {
            let Some((op, _, _)) = entry.memory_subject() else {
                continue;
            };
            for name in entry.names() {
                if !seen.insert(name.to_string()) {
                    continue;
                }
                if op == Op::Delete.as_str() && !work.contains_key(&format!("{name}.md")) {
                    out.push(finding(
                        Kind::Restorable,
                        Subject::Memory(name.to_string()),
                        format!(
                            "deleted in {}; `memdir restore {name}` brings it back",
                            entry.commit.to_hex_with_len(7)
                        ),
                    ));
                }
            }
        }
        out
    }

    /// Topic files the index names that the work tree lacks (deleted by hand, or by an agent)
    /// and a commit holds: the newest such commit of each. A file memdir will not read is not
    /// missing.
    fn deleted_files(
        &self,
        index: &Index,
        state: &State,
        history: &[HistoryEntry],
    ) -> Result<BTreeMap<String, ObjectId>, StoreError> {
        let mut out = BTreeMap::new();
        for (_, entry) in index.entries() {
            let file = entry.file_name();
            if !is_topic_file_name(file)
                || state.work.contains_key(file)
                || state.unreadable.contains(file)
                || out.contains_key(file)
            {
                continue;
            }
            if let Some(commit) = last_version_of(&self.repo, history, file)? {
                out.insert(file.to_string(), commit);
            }
        }
        Ok(out)
    }

    /// Index lines whose hook is what memdir wrote for an earlier description of their topic
    /// file (as history's commits recorded it) and not for the one it has now: a description
    /// edited by hand, the line left behind. Each with the line it should be. A hook someone
    /// wrote in their own words (Claude Code writes its own) is never drift.
    fn drifted(
        &self,
        index: &Index,
        state: &State,
        history: &[HistoryEntry],
    ) -> Result<Vec<(IndexLine, IndexLine)>, StoreError> {
        let mut out = Vec::new();
        let hook_for = |line: &IndexLine, description: &str| {
            IndexLine::for_memory(&line.title, &line.file, description)
                .ok()
                .map(|(line, _)| line.hook)
        };
        for (file, line) in index
            .first_entries()
            .into_values()
            .map(|(_, l)| (l.file_name().to_string(), l))
        {
            if !state.work.contains_key(&file) {
                continue;
            }
            let Some(bytes) = read_memory_file(&self.dir, &file, MAX_TOPIC_FILE_BYTES)? else {
                continue;
            };
            let Some(description) = std::str::from_utf8(&bytes)
                .ok()
                .and_then(|text| TopicFile::parse(text).ok())
                .and_then(|topic| topic.description)
                .filter(|d| !d.contains(['\n', '\r']))
            else {
                continue;
            };
            let Some(wanted) = hook_for(&line, &description) else {
                continue;
            };
            if wanted == line.hook {
                continue;
            }
            let name = file.trim_end_matches(".md");
            let was_written_by_memdir = history.iter().any(|entry| {
                entry.memory_subject().is_some_and(|(_, _, n)| n == name)
                    && entry.body.split("\n\n").next().is_some_and(|old| {
                        old != description && hook_for(&line, old) == Some(line.hook.clone())
                    })
            });
            if was_written_by_memdir {
                let fixed = IndexLine {
                    hook: wanted,
                    ..line.clone()
                };
                out.push((line, fixed));
            }
        }
        out.sort_by(|a, b| a.0.file.cmp(&b.0.file));
        Ok(out)
    }

    /// Loose objects no ref or reflog reaches (what a commit interrupted before its ref moved
    /// leaves behind).
    fn unreachable(&self) -> Result<Vec<Finding>, StoreError> {
        let reachable = self.repo.reachable_commits_and_trees()?;
        let loose = self.repo.loose_commits_and_trees()?;
        let mut out = Vec::new();
        for (id, is_commit) in loose {
            if reachable.contains(&id) {
                continue;
            }
            // A commit (or tree) whose tree a reachable commit also has: nothing is lost.
            let tree = if is_commit {
                self.repo.commit_tree_id(id)?
            } else {
                id
            };
            let what = if is_commit { "commit" } else { "tree" };
            out.push(if reachable.contains(&tree) {
                finding(
                    Kind::Garbage,
                    Subject::Object(id),
                    format!("an interrupted {what}; a later commit holds the same files (`git gc` may prune it)"),
                )
            } else {
                finding(
                    Kind::Unreachable,
                    Subject::Object(id),
                    format!("a {what} no ref or reflog reaches (an interrupted commit); check the work tree, then `git gc`"),
                )
            });
        }
        Ok(out)
    }
}
