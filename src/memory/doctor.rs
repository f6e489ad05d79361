//! `memdir doctor` (DESIGN §4): every inconsistency between the work tree, the index and the
//! object database, and the safe repairs — each its own commit, nothing ever deleted.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::memory::index::{Index, IndexLine};
use crate::memory::load::{MAX_INDEX_LINES, MAX_INDEX_UNITS, invisible_entries, measure_index};
use crate::memory::store::{
    INDEX_FILE, Op, Scan, Store, StoreError, commit_message, index_size_warnings, read_index,
};
use crate::memory::taxonomy::validate_name;
use crate::memory::topic::TopicFile;

/// What kind of inconsistency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Work-tree changes no commit holds yet.
    Uncommitted,
    /// A topic file the index does not name (a save in progress or interrupted, or a lost line).
    Orphan,
    /// An index line naming a file that does not exist.
    Dangling,
    /// Two index lines for one file, or two files with one frontmatter name.
    Duplicate,
    /// Frontmatter that does not parse.
    InvalidFrontmatter,
    /// A topic file without a type.
    Untyped,
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
            Kind::Dangling => "dangling",
            Kind::Duplicate => "duplicate",
            Kind::InvalidFrontmatter => "invalid-frontmatter",
            Kind::Untyped => "untyped",
            Kind::IndexSize => "index-size",
            Kind::Unreachable => "unreachable",
            Kind::Garbage => "garbage",
            Kind::Restorable => "restorable",
        }
    }

    /// Whether it is a problem (doctor then exits 1), not just something worth knowing.
    pub fn is_problem(self) -> bool {
        !matches!(self, Kind::Restorable | Kind::Garbage)
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

    /// Everything inconsistent now, without changing anything.
    fn examine(&self) -> Result<Vec<Finding>, StoreError> {
        let mut out = Vec::new();
        let state = self.state(Scan::Full, None)?;
        let index_text = read_index(&self.dir.join(INDEX_FILE))?;
        let index = Index::parse(&index_text);

        let mut changed: BTreeSet<&str> = BTreeSet::new();
        for (name, work) in &state.work {
            if state.tree.get(name.as_bytes()).map(|(_, id)| *id) != Some(work.id) {
                changed.insert(name);
            }
        }
        for (name, (kind, _)) in &state.tree {
            let name = std::str::from_utf8(name).unwrap_or_default();
            if *kind == EntryKind::Blob && name.ends_with(".md") && !state.work.contains_key(name) {
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

        let mut linked: BTreeMap<String, usize> = BTreeMap::new();
        for (_, entry) in index.entries() {
            *linked.entry(entry.file_name().to_string()).or_default() += 1;
        }
        let mut names_by_frontmatter: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for name in state.work.keys().filter(|n| n.as_str() != INDEX_FILE) {
            if !linked.contains_key(name) {
                let detail = if state.tree.contains_key(name.as_bytes()) {
                    "not named by MEMORY.md"
                } else {
                    "not named by MEMORY.md and never committed: a save in progress or interrupted"
                };
                out.push(finding(Kind::Orphan, name, detail));
            }
            let text =
                String::from_utf8_lossy(&std::fs::read(self.dir.join(name)).unwrap_or_default())
                    .into_owned();
            match TopicFile::parse(&text) {
                Ok(topic) => {
                    if topic.memory_type.is_none() {
                        out.push(finding(Kind::Untyped, name, "no type: in its frontmatter"));
                    }
                    if let Some(front_name) = topic.name {
                        names_by_frontmatter
                            .entry(front_name)
                            .or_default()
                            .push(name);
                    }
                }
                Err(e) => out.push(finding(Kind::InvalidFrontmatter, name, e.to_string())),
            }
        }
        for (file, count) in &linked {
            if *count > 1 {
                out.push(finding(
                    Kind::Duplicate,
                    file,
                    format!("{count} index lines link it"),
                ));
            }
            let is_topic = file.ends_with(".md") && !file.contains('/') && file != INDEX_FILE;
            if is_topic && !state.work.contains_key(file) {
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
        let size = measure_index(&index_text);
        if size.lines > MAX_INDEX_LINES || size.units > MAX_INDEX_UNITS {
            let hidden: Vec<String> = invisible_entries(&index_text)
                .into_iter()
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

    /// The safe repairs, each its own commit.
    fn repair(&mut self) -> Result<Vec<Finding>, StoreError> {
        let mut fixed = Vec::new();
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
        let index_path = self.dir.join(INDEX_FILE);

        // Valid orphans get their index line.
        let mut index = Index::parse(&read_index(&index_path)?);
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
            let bytes = std::fs::read(self.dir.join(&file)).unwrap_or_default();
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
        let mut index = Index::parse(&read_index(&index_path)?);
        let dangling: Vec<String> = index
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .filter(|f| {
                f.ends_with(".md")
                    && !f.contains('/')
                    && f != INDEX_FILE
                    && !state.work.contains_key(f)
            })
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
