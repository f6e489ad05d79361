//! `memdir doctor` (DESIGN §4): every inconsistency between the work tree, the index and the
//! object database, and the safe repairs — each its own commit, nothing ever deleted.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use gix::ObjectId;

use crate::input::{MAX_INDEX_BYTES, MAX_TOPIC_FILE_BYTES};
use crate::memory::catalog::problem_text;
use crate::memory::index::{Index, IndexLine};
use crate::memory::load::{MAX_INDEX_LINES, MAX_INDEX_UNITS, invisible_entries, measure_index};
use crate::memory::store::{
    INDEX_FILE, Op, Scan, State, Store, StoreError, commit_message, index_size_warnings,
    is_checked_out, read_index, read_memory_file,
};
use crate::memory::taxonomy::{conflict_copy_of, is_topic_file_name, validate_name};
use crate::memory::topic::TopicFile;

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
    /// An index line naming a file that does not exist.
    Dangling,
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

/// One thing doctor found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: Kind,
    /// The file, memory or object it is about.
    pub subject: String,
    pub detail: String,
    /// The commit that repaired it, with `--fix`.
    pub fixed: Option<ObjectId>,
}

fn finding(kind: Kind, subject: impl Into<String>, detail: impl Into<String>) -> Finding {
    Finding {
        kind,
        subject: subject.into(),
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
        let index_text = match self.index_health(&state)? {
            IndexHealth::Fine(text) => Some(text),
            IndexHealth::NotUtf8(bytes) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let line = text
                    .lines()
                    .position(|l| l.contains('\u{FFFD}'))
                    .map_or(1, |n| n + 1);
                out.push(finding(
                    Kind::BadIndex,
                    INDEX_FILE,
                    format!("it is not valid UTF-8 (line {line}); --fix keeps it as it is in history, then replaces the bad bytes"),
                ));
                Some(text)
            }
            IndexHealth::Unusable(why) => {
                out.push(finding(
                    Kind::BadIndex,
                    INDEX_FILE,
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
                name,
                format!("{why} (never committed)"),
            ));
        }

        let mut changed: BTreeSet<&str> = BTreeSet::new();
        for (name, work) in &state.work {
            if state.tree.get(name.as_bytes()).map(|(_, id)| *id) != Some(work.id) {
                changed.insert(name);
            }
        }
        for (name, (kind, _)) in &state.tree {
            let name = std::str::from_utf8(name).unwrap_or_default();
            if is_checked_out(name.as_bytes(), *kind) && !state.work.contains_key(name) {
                changed.insert(name);
            }
        }
        for name in changed {
            out.push(finding(
                Kind::Uncommitted,
                name,
                "changed in the work tree since the last commit",
            ));
        }

        let index = Index::parse(index_text.as_deref().unwrap_or_default());
        let mut linked: BTreeMap<String, usize> = BTreeMap::new();
        for (_, entry) in index.entries() {
            *linked.entry(entry.file_name().to_string()).or_default() += 1;
        }
        let mut names_by_frontmatter: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for name in state.work.keys().filter(|n| n.as_str() != INDEX_FILE) {
            if let Some(memory) = conflict_copy_of(name) {
                out.push(finding(
                    Kind::Conflict,
                    name,
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
                out.push(finding(Kind::Orphan, name, detail));
            }
            let bytes = read_memory_file(&self.dir, name, MAX_TOPIC_FILE_BYTES)?;
            let text = String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned();
            match TopicFile::parse(&text) {
                Ok(topic) => {
                    if topic.memory_type.is_none() {
                        out.push(finding(Kind::Untyped, name, "no type: in its frontmatter"));
                    }
                    if let Some(front_name) = topic.name {
                        if front_name != name.trim_end_matches(".md") {
                            let other = format!("{front_name}.md");
                            out.push(if state.work.contains_key(&other) {
                                finding(
                                    Kind::NameClash,
                                    name,
                                    format!("its frontmatter says name: {front_name}, which is the name of {other}"),
                                )
                            } else {
                                finding(
                                    Kind::NameMismatch,
                                    name,
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
                Err(e) => out.push(finding(Kind::InvalidFrontmatter, name, e.to_string())),
            }
        }
        for file in linked.keys().filter(|f| leaves_memory_dir(f)) {
            out.push(finding(
                Kind::OutsideLink,
                file,
                "MEMORY.md links it, outside the memory dir; a memory is a file in the memory dir",
            ));
        }
        for (file, count) in &linked {
            if *count > 1 {
                out.push(finding(
                    Kind::Duplicate,
                    file,
                    format!("{count} index lines link it"),
                ));
            }
            if is_topic_file_name(file) && !state.work.contains_key(file) {
                out.push(finding(
                    Kind::Dangling,
                    file,
                    "MEMORY.md names it, but there is no such file",
                ));
            }
        }
        for (front_name, files) in names_by_frontmatter {
            if files.len() > 1 {
                out.push(finding(
                    Kind::Duplicate,
                    front_name,
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
                INDEX_FILE,
                format!(
                    "over Claude Code's load limit; not loaded: {}",
                    hidden.join(", ")
                ),
            ));
        } else if let Some(warning) = index_size_warnings(&index_text).into_iter().next() {
            out.push(finding(Kind::IndexSize, INDEX_FILE, warning));
        }
        out.extend(self.restorable(&state.work)?);
        out.extend(self.unreachable()?);
        Ok(out)
    }

    /// Memories whose newest commit deleted them.
    fn restorable(
        &self,
        work: &crate::memory::store::WorkTree,
    ) -> Result<Vec<Finding>, StoreError> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for entry in self.repo.history()? {
            let Some((op, kind, name)) = entry.op_type_name() else {
                continue;
            };
            if kind == "index" || kind == "commit" || !seen.insert(name.to_string()) {
                continue;
            }
            if op == Op::Delete.as_str() && !work.contains_key(&format!("{name}.md")) {
                out.push(finding(
                    Kind::Restorable,
                    name,
                    format!(
                        "deleted in {}; `memdir restore {name}` brings it back",
                        entry.commit.to_hex_with_len(7)
                    ),
                ));
            }
        }
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
            let subject = id.to_hex_with_len(12).to_string();
            let what = if is_commit { "commit" } else { "tree" };
            out.push(if reachable.contains(&tree) {
                finding(
                    Kind::Garbage,
                    subject,
                    format!("an interrupted {what}; a later commit holds the same files (`git gc` may prune it)"),
                )
            } else {
                finding(
                    Kind::Unreachable,
                    subject,
                    format!("a {what} no ref or reflog reaches (an interrupted commit); check the work tree, then `git gc`"),
                )
            });
        }
        Ok(out)
    }

    /// An index that is not UTF-8: first committed exactly as found (so no byte is lost), then
    /// with the bad bytes replaced by U+FFFD, as Claude Code's decoder reads it.
    fn repair_utf8(&mut self, state: &mut State, bytes: &[u8]) -> Result<Finding, StoreError> {
        let found = self.repo.blob_id(bytes)?;
        if state.tree.get(INDEX_FILE.as_bytes()).map(|(_, id)| *id) != Some(found) {
            let message = commit_message(
                Op::Adopt,
                "index",
                INDEX_FILE,
                "as found, not valid UTF-8 (kept by memdir doctor --fix before repairing it)",
                None,
            );
            self.write_and_commit(state, &[(INDEX_FILE, Some(bytes), "")], &message)?;
        }
        let text = String::from_utf8_lossy(bytes).into_owned();
        let message = commit_message(
            Op::Update,
            "index",
            INDEX_FILE,
            "invalid UTF-8 replaced by U+FFFD (memdir doctor --fix); the commit before holds the bytes as found",
            None,
        );
        let commit =
            self.write_and_commit(state, &[(INDEX_FILE, Some(text.as_bytes()), "")], &message)?;
        Ok(Finding {
            kind: Kind::BadIndex,
            subject: INDEX_FILE.into(),
            detail: "invalid UTF-8 replaced (the bytes as found are in the commit before)".into(),
            fixed: Some(commit),
        })
    }

    /// The safe repairs, each its own commit.
    fn repair(&mut self) -> Result<Vec<Finding>, StoreError> {
        let mut fixed = Vec::new();
        let mut state = self.state(Scan::Full, None)?;
        match self.index_health(&state)? {
            // Nothing that touches the index is safe while it cannot be read.
            IndexHealth::Unusable(_) => return Ok(fixed),
            IndexHealth::NotUtf8(bytes) => fixed.push(self.repair_utf8(&mut state, &bytes)?),
            IndexHealth::Fine(_) => {}
        }
        let adoption = self.adopt(None)?;
        for (id, subject) in &adoption.commits {
            fixed.push(Finding {
                kind: Kind::Uncommitted,
                subject: subject.clone(),
                detail: "committed".into(),
                fixed: Some(*id),
            });
        }
        let mut state = self.state(Scan::Full, None)?;

        // Valid orphans get their index line.
        let mut index = Index::parse(&read_index(&self.dir)?);
        let linked: HashSet<String> = index
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .collect();
        let orphans: Vec<String> = state
            .work
            .keys()
            .filter(|n| n.as_str() != INDEX_FILE && !linked.contains(n.as_str()))
            .cloned()
            .collect();
        for file in orphans {
            let name = file.trim_end_matches(".md");
            let bytes =
                read_memory_file(&self.dir, &file, MAX_TOPIC_FILE_BYTES)?.unwrap_or_default();
            let Some(topic) = std::str::from_utf8(&bytes)
                .ok()
                .and_then(|t| TopicFile::parse(t).ok())
            else {
                continue;
            };
            let (Some(memory_type), Some(description)) =
                (topic.memory_type, topic.description.clone())
            else {
                continue;
            };
            if validate_name(name).is_err() || description.contains(['\n', '\r']) {
                continue;
            }
            let title = topic.name.clone().unwrap_or_else(|| name.to_string());
            let Ok((line, _)) = IndexLine::for_memory(&title, &file, &description) else {
                continue;
            };
            index.upsert(&line);
            let index_text = index.render();
            let message = commit_message(
                Op::Adopt,
                memory_type.as_str(),
                name,
                &format!("{description} (indexed by memdir doctor --fix)"),
                None,
            );
            let commit = self.write_and_commit(
                &mut state,
                &[
                    (&file, Some(&bytes), ""),
                    (INDEX_FILE, Some(index_text.as_bytes()), ""),
                ],
                &message,
            )?;
            fixed.push(Finding {
                kind: Kind::Orphan,
                subject: file.clone(),
                detail: "indexed".into(),
                fixed: Some(commit),
            });
        }

        // Dangling lines are dropped (history keeps them).
        let mut index = Index::parse(&read_index(&self.dir)?);
        let dangling: Vec<String> = index
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .filter(|f| is_topic_file_name(f) && !state.work.contains_key(f))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        for file in dangling {
            index.remove(&file);
            let index_text = index.render();
            let message = commit_message(
                Op::Update,
                "index",
                INDEX_FILE,
                &format!("dropped the line for {file}, which does not exist (memdir doctor --fix)"),
                None,
            );
            let commit = self.write_and_commit(
                &mut state,
                &[(INDEX_FILE, Some(index_text.as_bytes()), "")],
                &message,
            )?;
            fixed.push(Finding {
                kind: Kind::Dangling,
                subject: file,
                detail: "line dropped".into(),
                fixed: Some(commit),
            });
        }
        Ok(fixed)
    }
}
