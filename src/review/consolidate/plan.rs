//! Checked actions turned into the consolidation's changes (DESIGN §7): one step per kind, in
//! the order relative dates, duplicates, expired memories, contradictions, the index, each
//! with the files it writes and removes (on top of the step before) and a line per change that
//! says what and why, for its commit message.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::fold::{self, Fitted};
use super::{Action, DropReason, Memory};
use crate::memory::calendar::format_date;
use crate::memory::dates::{absolutize, relative_phrase};
use crate::memory::index::{Index, IndexLine};
use crate::memory::taxonomy::INDEX_FILE;
use crate::memory::topic::TopicFile;

/// A kind of change, one commit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    RelativeDates,
    Duplicates,
    Expired,
    Contradicted,
    Index,
}

impl Kind {
    /// What a commit of this kind does, as its subject says it.
    pub fn title(self) -> &'static str {
        match self {
            Kind::RelativeDates => "make relative dates absolute",
            Kind::Duplicates => "merge duplicates",
            Kind::Expired => "drop expired time-bound memories",
            Kind::Contradicted => "replace contradicted values",
            Kind::Index => "keep the index within its limits",
        }
    }

    /// The `Memdir-Kind` trailer.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::RelativeDates => "relative-dates",
            Kind::Duplicates => "duplicates",
            Kind::Expired => "expired",
            Kind::Contradicted => "contradicted",
            Kind::Index => "index",
        }
    }
}

/// One change, as a person reads it and as `--json` gives it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    pub kind: Kind,
    /// The memory that stays (or is rewritten); for a drop, the one dropped.
    pub name: String,
    /// The memories folded or merged into `name`, and those it was dropped for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<String>,
    /// The memories this change removes from the memory dir (their text stays in history).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// Why, in one line.
    pub reason: String,
}

/// The changes of one kind and the files they write (`Some`) or remove (`None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub kind: Kind,
    pub changes: Vec<Change>,
    pub files: Vec<(String, Option<String>)>,
}

/// The memory dir's files as the steps change them: topic files by name, and the index.
struct Files {
    topics: BTreeMap<String, String>,
    index: String,
    changed: BTreeMap<String, Option<String>>,
    /// Files whose index lines are still to go.
    unlisted: std::collections::BTreeSet<String>,
}

impl Files {
    fn write(&mut self, name: &str, text: String) {
        self.topics.insert(name.to_string(), text.clone());
        self.changed.insert(format!("{name}.md"), Some(text));
    }

    /// Remove `name`'s topic file; its index line goes with the next [`Files::unlist`].
    fn remove(&mut self, name: &str) {
        self.topics.remove(name);
        self.changed.insert(format!("{name}.md"), None);
        self.unlisted.insert(format!("{name}.md"));
    }

    /// The index lines of the files removed since, taken out in one pass (a step may remove
    /// thousands).
    fn unlist(&mut self) {
        if self.unlisted.is_empty() {
            return;
        }
        let unlisted = std::mem::take(&mut self.unlisted);
        let mut text: String = self
            .index
            .lines()
            .filter(|l| IndexLine::parse(l).is_none_or(|e| !unlisted.contains(e.file_name())))
            .collect::<Vec<_>>()
            .join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        if text != self.index {
            self.set_index(text);
        }
    }

    fn set_index(&mut self, text: String) {
        self.changed
            .insert(INDEX_FILE.to_string(), Some(text.clone()));
        self.index = text;
    }

    /// `name`'s topic file rewritten with this description and body, every other key kept,
    /// and its index line's hook following a new description.
    fn rewrite(&mut self, name: &str, description: &str, body: &str) -> bool {
        self.unlist();
        let Some(topic) = self.topics.get(name).and_then(|t| TopicFile::parse(t).ok()) else {
            return false;
        };
        let Some(memory_type) = topic.memory_type else {
            return false;
        };
        let Ok(updated) = topic.updated(name, description, memory_type, body) else {
            return false;
        };
        self.write(name, updated.render());
        if topic.description.as_deref() != Some(description) {
            let file = format!("{name}.md");
            let mut index = Index::parse(&self.index);
            if let Some(entry) = index.entry_for(&file)
                && let Ok((line, _)) = IndexLine::for_memory(&entry.title, &entry.file, description)
            {
                index.upsert(&line);
                self.set_index(index.render());
            }
        }
        true
    }

    /// The files changed since the last step, in a stable order, the index last.
    fn take(&mut self) -> Vec<(String, Option<String>)> {
        self.unlist();
        let mut files: Vec<(String, Option<String>)> =
            std::mem::take(&mut self.changed).into_iter().collect();
        files.sort_by_key(|(name, _)| (name == INDEX_FILE, name.clone()));
        files
    }
}

fn kind_of(action: &Action) -> Kind {
    match action {
        Action::Rewrite { .. } => Kind::RelativeDates,
        Action::Merge { .. } => Kind::Duplicates,
        Action::Drop {
            reason: DropReason::Expired(_),
            ..
        } => Kind::Expired,
        Action::Drop {
            reason: DropReason::Superseded { .. },
            ..
        } => Kind::Contradicted,
    }
}

/// What one action does to `files`, and the line that says so; `None` when it could not be
/// carried out (a memory gone, a topic file that does not read back).
fn carry_out(
    action: &Action,
    files: &mut Files,
    memories: &[Memory],
    today: NaiveDate,
) -> Option<Change> {
    let saved_on = |name: &str| {
        memories
            .iter()
            .find(|m| m.name == name)
            .and_then(Memory::saved_on)
            .map(format_date)
            .unwrap_or_else(|| "an unknown day".into())
    };
    match action {
        Action::Rewrite {
            name,
            description,
            body,
        } => {
            let memory = memories.iter().find(|m| m.name == *name)?;
            let phrase = relative_phrase(&memory.description)
                .or_else(|| relative_phrase(&memory.body))
                .zip(memory.saved_on())
                .map(|(phrase, day)| format!("\"{phrase}\" → \"{}\"", absolutize(&phrase, day)))
                .unwrap_or_else(|| "relative dates".into());
            files.rewrite(name, description, body).then(|| Change {
                kind: Kind::RelativeDates,
                name: name.clone(),
                merged: Vec::new(),
                removed: Vec::new(),
                reason: format!(
                    "{phrase}, as meant on {}, the day it was saved",
                    saved_on(name)
                ),
            })
        }
        Action::Merge {
            names,
            into,
            description,
            body,
        } => {
            if !files.rewrite(into, description, body) {
                return None;
            }
            let others: Vec<String> = names.iter().filter(|n| *n != into).cloned().collect();
            for other in &others {
                files.remove(other);
            }
            Some(Change {
                kind: Kind::Duplicates,
                name: into.clone(),
                reason: format!(
                    "{} state{} the same fact as {into}; merged into it, every distinct detail kept",
                    others.join(", "),
                    if others.len() == 1 { "s" } else { "" }
                ),
                merged: others.clone(),
                removed: others,
            })
        }
        Action::Drop { name, reason } => {
            if !files.topics.contains_key(name) {
                return None;
            }
            files.remove(name);
            let (kind, merged, why) = match reason {
                DropReason::Expired(expiry) => (
                    Kind::Expired,
                    Vec::new(),
                    format!(
                        "time-bound (\"{}\"), and {} has passed (today is {})",
                        expiry.evidence,
                        format_date(expiry.date),
                        format_date(today)
                    ),
                ),
                DropReason::Superseded { by, stale, current } => {
                    let few = |values: &[String]| {
                        values
                            .iter()
                            .take(3)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    let values = if stale.is_empty() || current.is_empty() {
                        String::new()
                    } else {
                        format!(" ({} → {})", few(stale), few(current))
                    };
                    (
                        Kind::Contradicted,
                        vec![by.clone()],
                        format!(
                            "replaced by {by}, saved on {}, which gives the same subject another value{values}; the newer stays",
                            saved_on(by)
                        ),
                    )
                }
            };
            Some(Change {
                kind,
                name: name.clone(),
                merged,
                removed: vec![name.clone()],
                reason: why,
            })
        }
    }
}

/// The steps that carry out `actions` (already checked) on the memories `memories` (with their
/// topic files' texts) and the index `index`; a kind with nothing to do has no step.
pub fn plan(memories: &[Memory], index: &str, actions: &[Action], today: NaiveDate) -> Vec<Step> {
    let mut files = Files {
        topics: memories
            .iter()
            .map(|m| (m.name.clone(), m.text.clone()))
            .collect(),
        index: index.to_string(),
        changed: BTreeMap::new(),
        unlisted: Default::default(),
    };
    let mut steps = Vec::new();
    for kind in [
        Kind::RelativeDates,
        Kind::Duplicates,
        Kind::Expired,
        Kind::Contradicted,
    ] {
        let changes: Vec<Change> = actions
            .iter()
            .filter(|a| kind_of(a) == kind)
            .filter_map(|a| carry_out(a, &mut files, memories, today))
            .collect();
        if !changes.is_empty() {
            steps.push(Step {
                kind,
                changes,
                files: files.take(),
            });
        }
    }
    if let Some(fitted) = fold::fit(&files.index, &files.topics) {
        let before = crate::memory::load::measure_index(&files.index);
        let Fitted {
            index,
            written,
            removed,
            shortened,
            folded,
        } = fitted;
        for name in &removed {
            files.topics.remove(name);
            files.changed.insert(format!("{name}.md"), None);
        }
        for (name, text) in written {
            files.write(&name, text);
        }
        let after = crate::memory::load::measure_index(&index);
        files.set_index(index);
        let mut changes = vec![Change {
            kind: Kind::Index,
            name: INDEX_FILE.to_string(),
            merged: Vec::new(),
            removed: Vec::new(),
            reason: format!(
                "{} lines and {} characters before, {} and {} after (Claude Code loads {} and {}): {} index line{} shortened",
                before.lines,
                before.units,
                after.lines,
                after.units,
                crate::memory::load::MAX_INDEX_LINES,
                crate::memory::load::MAX_INDEX_UNITS,
                shortened.len(),
                if shortened.len() == 1 { "" } else { "s" },
            ),
        }];
        changes.extend(folded.into_iter().map(|f| Change {
            kind: Kind::Index,
            reason: format!(
                "{} small memories folded into {}, each whole under its title",
                f.members.len(),
                f.name
            ),
            name: f.name,
            removed: f.members.clone(),
            merged: f.members,
        }));
        steps.push(Step {
            kind: Kind::Index,
            changes,
            files: files.take(),
        });
    }
    steps
}
