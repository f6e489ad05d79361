//! The conflicts a merge kept both sides of (DESIGN §8), and how a person finishes them: the
//! memory stays as `NAME.md` (this side's version) and the other side's is kept beside it as
//! `NAME.conflict-<7 hex>.md`, which no index line names, so the model does not load it. `team
//! status` lists them, `review` proposes how to finish each, and `memdir resolve NAME` (`memdir
//! team resolve` for team memory) finishes one in one commit: `--ours` keeps `NAME.md`,
//! `--theirs` takes the copy's text, `--edit` takes what the person wrote from both; the copies
//! go, and a sync carries the resolution to everyone.

use std::path::Path;

use crate::memory::index::Index;
use crate::memory::merge::with_frontmatter_name;
use crate::memory::store::{
    INDEX_FILE, Op, Scan, Store, commit_message_with, read_index, read_memory_file,
};
use crate::memory::taxonomy::{conflict_copy_of, is_topic_file_name};
use crate::memory::topic::TopicFile;
use crate::sync::SyncError;

/// The conflict copies in the memory dir `dir` (`NAME.conflict-<id>.md`), by file name.
pub fn copies(dir: &Path) -> Vec<String> {
    let mut copies: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| is_topic_file_name(n) && conflict_copy_of(n).is_some())
                .collect()
        })
        .unwrap_or_default();
    copies.sort();
    copies
}

/// How a conflict is finished.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// Keep `NAME.md` as it is.
    Ours,
    /// Take the copy's text.
    Theirs,
    /// Take this text, written by the person from both.
    Edited(String),
}

impl Resolution {
    pub fn as_str(&self) -> &'static str {
        match self {
            Resolution::Ours => "ours",
            Resolution::Theirs => "theirs",
            Resolution::Edited(_) => "edited",
        }
    }
}

/// A conflict to finish: the memory, its text here, and the copies chosen.
#[derive(Debug, Clone)]
pub struct Conflict {
    /// The memory's name (`deploy-window`).
    pub name: String,
    /// `NAME.md`'s text, if it is there.
    pub ours: Option<String>,
    /// The copies (file names) and their texts.
    pub copies: Vec<(String, String)>,
}

/// The lines that mark the two sides in a text to edit; what is left of them after an edit
/// means it is not finished.
const MARKERS: [&str; 3] = ["<<<<<<< ", "=======", ">>>>>>> "];

impl Conflict {
    /// The conflict `name` names in the memory dir `dir`: a memory (with all its copies) or one
    /// copy (`deploy-window.conflict-1a2b3c4`). Refused when there is none.
    pub fn find(dir: &Path, name: &str) -> Result<Conflict, SyncError> {
        let file = format!("{name}.md");
        if !is_topic_file_name(&file) {
            return Err(SyncError::Resolve(format!(
                "{name:?} is no memory's name (a topic file's name without .md)"
            )));
        }
        let (memory, chosen) = match conflict_copy_of(name) {
            Some(memory) => (memory.to_string(), vec![file]),
            None => {
                let prefix = format!("{name}.conflict-");
                let chosen: Vec<String> = copies(dir)
                    .into_iter()
                    .filter(|c| c.starts_with(&prefix))
                    .collect();
                (name.to_string(), chosen)
            }
        };
        let read = |file: &str| -> Result<Option<String>, SyncError> {
            Ok(
                read_memory_file(dir, file, crate::input::MAX_TOPIC_FILE_BYTES)?
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
            )
        };
        let mut texts = Vec::new();
        for copy in chosen {
            if let Some(text) = read(&copy)? {
                texts.push((copy, text));
            }
        }
        if texts.is_empty() {
            return Err(SyncError::Resolve(format!(
                "no conflict is kept for {name}: there is no {} beside it (the status command lists the conflicts)",
                if name == memory {
                    format!("{name}.conflict-<id>.md")
                } else {
                    format!("{name}.md")
                }
            )));
        }
        Ok(Conflict {
            ours: read(&format!("{memory}.md"))?,
            name: memory,
            copies: texts,
        })
    }

    /// Both sides as one text to edit: each copy's lines set against this side's between
    /// git's conflict markers.
    pub fn text_to_edit(&self) -> String {
        let mut text = format!("<<<<<<< yours ({}.md)\n", self.name);
        push_text(&mut text, self.ours.as_deref().unwrap_or_default());
        for (copy, theirs) in &self.copies {
            text.push_str("=======\n");
            push_text(&mut text, theirs);
            text.push_str(&format!(">>>>>>> theirs ({copy})\n"));
        }
        text
    }
}

fn push_text(out: &mut String, text: &str) {
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
}

/// What finishing a conflict did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Resolved {
    /// The memory's name.
    pub name: String,
    /// `ours`, `theirs` or `edited`.
    pub kept: &'static str,
    /// The commit.
    pub commit: String,
    /// The copies removed (file names).
    pub removed: Vec<String>,
}

/// Finish `conflict` in the store as `how` says, in one `resolve(<type>): <name>` commit: the
/// memory's new text (for `--theirs` and an edit), the copies removed, and any index line that
/// named a copy taken out. `--theirs` needs exactly one copy; an edit that still holds conflict
/// markers, or is not a topic file memdir can read, is refused; nothing is written then.
pub fn resolve(
    store: &mut Store,
    conflict: &Conflict,
    how: &Resolution,
) -> Result<Resolved, SyncError> {
    let file = format!("{}.md", conflict.name);
    let new_text = match how {
        Resolution::Ours => None,
        Resolution::Theirs => match conflict.copies.as_slice() {
            [(_, theirs)] => Some(with_frontmatter_name(theirs, &conflict.name)),
            several => {
                let names: Vec<&str> = several.iter().map(|(c, _)| c.as_str()).collect();
                return Err(SyncError::Resolve(format!(
                    "{} has {} conflict copies ({}): name the one to take, e.g. {}",
                    conflict.name,
                    several.len(),
                    names.join(", "),
                    names[0].trim_end_matches(".md")
                )));
            }
        },
        Resolution::Edited(text) => {
            if text
                .lines()
                .any(|l| MARKERS.iter().any(|m| l.starts_with(m.trim_end())))
            {
                return Err(SyncError::Resolve(format!(
                    "the edited {file} still holds conflict markers (<<<<<<<, =======, >>>>>>>); nothing was changed"
                )));
            }
            if let Err(e) = TopicFile::parse(text) {
                return Err(SyncError::Resolve(format!(
                    "the edited {file} is not a topic file memdir can read ({e}); nothing was changed"
                )));
            }
            Some(text.clone())
        }
    };
    let mut state = store.state(Scan::Full, None)?;
    store.adopt_in(&mut state, None)?;
    let mut index = Index::parse(&read_index(&store.dir)?);
    let mut index_changed = false;
    for (copy, _) in &conflict.copies {
        index_changed |= index.remove(copy);
    }
    let index_text = index.render();
    let mut steps: Vec<(&str, Option<&[u8]>, &str)> = Vec::new();
    if let Some(text) = &new_text
        && conflict.ours.as_deref() != Some(text.as_str())
    {
        steps.push((&file, Some(text.as_bytes()), ""));
    }
    if index_changed {
        steps.push((INDEX_FILE, Some(index_text.as_bytes()), ""));
    }
    for (copy, _) in &conflict.copies {
        steps.push((copy, None, ""));
    }
    let kept_text = new_text.as_deref().or(conflict.ours.as_deref());
    let topic = kept_text.and_then(|t| TopicFile::parse(t).ok());
    let memory_type = topic
        .as_ref()
        .and_then(|t| t.memory_type)
        .map_or("untyped", |t| t.as_str());
    let removed: Vec<String> = conflict.copies.iter().map(|(c, _)| c.clone()).collect();
    let description = format!(
        "Kept {}; removed {}.",
        match how {
            Resolution::Ours => "this side's version",
            Resolution::Theirs => "the other side's version",
            Resolution::Edited(_) => "a version edited from both",
        },
        removed.join(", ")
    );
    let message = commit_message_with(
        Op::Resolve,
        memory_type,
        &conflict.name,
        &description,
        None,
        &[("Resolved", how.as_str())],
    );
    let commit = store.write_and_commit(&mut state, &steps, &message)?;
    Ok(Resolved {
        name: conflict.name.clone(),
        kept: how.as_str(),
        commit: commit.to_string(),
        removed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_are_set_between_markers_to_edit() {
        let conflict = Conflict {
            name: "deploy".into(),
            ours: Some("---\nname: deploy\n---\nTuesday\n".into()),
            copies: vec![(
                "deploy.conflict-1a2b3c4.md".into(),
                "---\nname: deploy.conflict-1a2b3c4\n---\nMonday".into(),
            )],
        };
        assert_eq!(
            conflict.text_to_edit(),
            "<<<<<<< yours (deploy.md)\n---\nname: deploy\n---\nTuesday\n=======\n---\nname: deploy.conflict-1a2b3c4\n---\nMonday\n>>>>>>> theirs (deploy.conflict-1a2b3c4.md)\n"
        );
    }
}
