//! `doctor --fix` (DESIGN §4, §14): the safe repairs, in an order that loses nothing. Topic
//! files deleted from the work tree that a commit holds come back first (so that adoption never
//! takes a deletion the index does not agree with for a wish to delete); then what is pending is
//! adopted; then valid orphans get their index line, lines drifted from their description are
//! made to say it, and lines naming a file no commit ever held are dropped (history keeps them).
//! An index memdir cannot read is never rewritten: nothing that touches it runs. The repairs,
//! adoptions aside, are one operation of the operation log.

use std::collections::{BTreeSet, HashSet};

use super::{Finding, IndexHealth, Kind, Subject};
use crate::input::MAX_TOPIC_FILE_BYTES;
use crate::memory::index::{Index, IndexLine};
use crate::memory::store::{
    Adoption, INDEX_FILE, Op, Scan, State, Store, StoreError, commit_message, read_index,
    read_memory_file,
};
use crate::memory::taxonomy::{is_topic_file_name, validate_name};
use crate::memory::topic::TopicFile;

impl Store {
    /// The safe repairs, each its own commit (a file put back as HEAD has it needs none).
    pub(super) fn repair(&mut self) -> Result<Vec<Finding>, StoreError> {
        let _operation = crate::repo::operation::begin(&self.dir, "doctor", "doctor --fix", None);
        let mut fixed = Vec::new();
        let mut state = self.state(Scan::Full, None)?;
        match self.index_health(&state)? {
            // Nothing that touches the index is safe while it cannot be read, and what cannot
            // be read is never rewritten.
            IndexHealth::Unusable(_) | IndexHealth::NotUtf8(_) => return Ok(fixed),
            IndexHealth::Fine(_) => {}
        }
        fixed.extend(self.restore_deleted(&mut state)?);
        let adoption = self.adopt(None)?;
        for (id, subject) in &adoption.commits {
            fixed.push(Finding {
                kind: Kind::Uncommitted,
                subject: Subject::Commit(subject.clone()),
                detail: "committed".into(),
                fixed: Some(*id),
            });
        }
        let mut state = self.state(Scan::Full, None)?;
        fixed.extend(self.index_orphans(&mut state)?);
        fixed.extend(self.fix_drift(&mut state)?);
        fixed.extend(self.drop_dangling(&mut state)?);
        Ok(fixed)
    }

    /// Topic files the index names that were deleted from the work tree, written back as the
    /// newest commit holding them has them: HEAD's need no commit, an older one's is restored
    /// in a `restore` commit.
    fn restore_deleted(&mut self, state: &mut State) -> Result<Vec<Finding>, StoreError> {
        let index = Index::parse(&read_index(&self.dir)?);
        let history = self.repo.history()?;
        let mut out = Vec::new();
        for (file, commit) in self.deleted_files(&index, state, &history)? {
            let Some((_, blob)) = self.repo.commit_tree(commit)?.get(file.as_bytes()).copied()
            else {
                continue;
            };
            let bytes = self.repo.blob(blob)?;
            let short = commit.to_hex_with_len(7);
            if state.parent == Some(commit) {
                let path = self.dir.join(&file);
                crate::atomic::replace(&path, &bytes).map_err(|source| StoreError::Io {
                    path: path.clone(),
                    source,
                })?;
                out.push(Finding {
                    kind: Kind::Deleted,
                    subject: Subject::File(file),
                    detail: format!("restored as HEAD ({short}) holds it"),
                    fixed: Some(commit),
                });
                continue;
            }
            let (memory_type, description, name) =
                self.describe(&file, &bytes, &mut Adoption::default());
            let message = commit_message(
                Op::Restore,
                memory_type,
                &name,
                &format!("{description} (restored by memdir doctor --fix)"),
                None,
            );
            let restored = self.write_and_commit(state, &[(&file, Some(&bytes), "")], &message)?;
            out.push(Finding {
                kind: Kind::Deleted,
                subject: Subject::File(file),
                detail: format!("restored as {short} held it"),
                fixed: Some(restored),
            });
        }
        Ok(out)
    }

    /// Valid orphans get their index line.
    fn index_orphans(&mut self, state: &mut State) -> Result<Vec<Finding>, StoreError> {
        let mut out = Vec::new();
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
                state,
                &[
                    (&file, Some(&bytes), ""),
                    (INDEX_FILE, Some(index_text.as_bytes()), ""),
                ],
                &message,
            )?;
            out.push(Finding {
                kind: Kind::Orphan,
                subject: Subject::File(file.clone()),
                detail: "indexed".into(),
                fixed: Some(commit),
            });
        }
        Ok(out)
    }

    /// Index lines left saying an old description are made to say the topic file's.
    fn fix_drift(&mut self, state: &mut State) -> Result<Vec<Finding>, StoreError> {
        let mut out = Vec::new();
        let history = self.repo.history()?;
        let mut index = Index::parse(&read_index(&self.dir)?);
        for (_, line) in self.drifted(&index.clone(), state, &history)? {
            index.upsert(&line);
            let file = line.file_name().to_string();
            let hook = line.hook.as_deref().unwrap_or_default();
            out.push(self.commit_index_fix(
                state,
                &index,
                Kind::Drift,
                Subject::File(file.clone()),
                format!("index line now says {hook:?}"),
                &format!("the line for {file} says its description again"),
            )?);
        }
        Ok(out)
    }

    /// Lines naming a file that no commit ever held are dropped (history keeps them).
    fn drop_dangling(&mut self, state: &mut State) -> Result<Vec<Finding>, StoreError> {
        let mut out = Vec::new();
        let mut index = Index::parse(&read_index(&self.dir)?);
        let dangling: BTreeSet<String> = index
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .filter(|f| {
                is_topic_file_name(f)
                    && !state.work.contains_key(f)
                    && !state.unreadable.contains(f)
            })
            .collect();
        for file in dangling {
            index.remove(&file);
            let why =
                format!("dropped the line for {file}, which does not exist and no commit holds");
            out.push(self.commit_index_fix(
                state,
                &index,
                Kind::Dangling,
                Subject::File(file),
                "line dropped".into(),
                &why,
            )?);
        }
        Ok(out)
    }

    /// Commit `index` as `MEMORY.md`, an `update(index)` commit saying `why`, and the finding
    /// it fixed.
    fn commit_index_fix(
        &mut self,
        state: &mut State,
        index: &Index,
        kind: Kind,
        subject: Subject,
        detail: String,
        why: &str,
    ) -> Result<Finding, StoreError> {
        let message = commit_message(
            Op::Update,
            "index",
            INDEX_FILE,
            &format!("{why} (memdir doctor --fix)"),
            None,
        );
        let text = index.render();
        let commit =
            self.write_and_commit(state, &[(INDEX_FILE, Some(text.as_bytes()), "")], &message)?;
        Ok(Finding {
            kind,
            subject,
            detail,
            fixed: Some(commit),
        })
    }
}
