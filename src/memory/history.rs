//! Going back in history without rewriting it (DESIGN §4): `rollback` makes a new commit whose
//! tree is an earlier commit's, `undo` rolls back the newest memdir commit, `restore` brings a
//! deleted memory back as it was. Pending work-tree changes are adopted first, so nothing the
//! user or an agent wrote is lost by going back.

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::memory::index::{Index, IndexLine};
use crate::memory::store::{
    Adoption, INDEX_FILE, Op, Scan, Store, StoreError, commit_message, read_index,
    work_matches_tree,
};
use crate::memory::taxonomy::validate_name;
use crate::repo::TreeMap;

/// What a rollback, undo or restore did.
#[derive(Debug, Clone)]
pub struct WentBack {
    /// `None` when the memory dir already held exactly that.
    pub commit: Option<ObjectId>,
    pub adoption: Adoption,
}

/// A top-level blob of a tree, by name.
fn blob(tree: &TreeMap, name: &str) -> Option<ObjectId> {
    tree.get(name.as_bytes())
        .filter(|(kind, _)| matches!(kind, EntryKind::Blob | EntryKind::BlobExecutable))
        .map(|(_, id)| *id)
}

impl Store {
    /// A new commit whose tree equals `target`'s; the work tree and `.git/index` follow.
    pub fn rollback(
        &mut self,
        target: ObjectId,
        session: Option<&str>,
    ) -> Result<WentBack, StoreError> {
        let subject = self.repo.subject(target)?;
        let message = commit_message(
            Op::Rollback,
            "commit",
            &target.to_hex_with_len(7).to_string(),
            &format!("back to: {subject}"),
            session,
        );
        self.go_back_to(target, &message, session)
    }

    /// Roll back the newest commit, when it is memdir's and nothing is pending.
    pub fn undo(&mut self, session: Option<&str>) -> Result<WentBack, StoreError> {
        let state = self.state(Scan::Full, None)?;
        let Some(head) = state.parent else {
            return Err(StoreError::InvalidInput(
                "nothing to undo: the memory dir has no commits".into(),
            ));
        };
        if !work_matches_tree(&state.work, &state.tree) {
            return Err(StoreError::InvalidInput(
                "the memory dir has changes memdir has not committed; run `memdir snapshot` first, then undo"
                    .into(),
            ));
        }
        let entry = self.repo.history_entry(head)?;
        if !entry.trailers.iter().any(|(key, _)| key == "Op") {
            return Err(StoreError::InvalidInput(format!(
                "the newest commit ({}) was not made by memdir; use `memdir rollback REV`",
                entry.subject
            )));
        }
        let Some(parent) = self.repo.parent_of(head)? else {
            return Err(StoreError::InvalidInput(
                "the newest commit is the first one: there is nothing before it to go back to"
                    .into(),
            ));
        };
        let message = commit_message(
            Op::Rollback,
            "commit",
            &parent.to_hex_with_len(7).to_string(),
            &format!("undo: {}", entry.subject),
            session,
        );
        self.go_back_to(parent, &message, session)
    }

    /// Make the work tree and a new commit hold `target`'s files exactly.
    fn go_back_to(
        &mut self,
        target: ObjectId,
        message: &str,
        session: Option<&str>,
    ) -> Result<WentBack, StoreError> {
        let mut state = self.state(Scan::Full, None)?;
        let adoption = self.adopt_in(&mut state, session)?;
        let wanted = self.repo.commit_tree(target)?;
        if wanted.values().any(|(kind, _)| *kind == EntryKind::Tree)
            || state
                .tree
                .values()
                .any(|(kind, _)| *kind == EntryKind::Tree)
        {
            return Err(StoreError::InvalidInput(
                "this history holds folders memdir did not make; roll it back with git itself"
                    .into(),
            ));
        }
        if wanted == state.tree {
            return Ok(WentBack {
                commit: None,
                adoption,
            });
        }
        // Topic files first, deletions next, the index last: a crash leaves orphans, never an
        // index line naming a missing file.
        let mut contents = Vec::new();
        for (name, (_, id)) in &wanted {
            if state.tree.get(name) != wanted.get(name) {
                contents.push((
                    String::from_utf8_lossy(name).into_owned(),
                    Some(self.repo.blob(*id)?),
                ));
            }
        }
        for name in state.tree.keys() {
            if !wanted.contains_key(name) {
                contents.push((String::from_utf8_lossy(name).into_owned(), None));
            }
        }
        contents.sort_by_key(|(name, bytes)| (name == INDEX_FILE, bytes.is_none()));
        let steps: Vec<(&str, Option<&[u8]>, &str)> = contents
            .iter()
            .map(|(name, bytes)| (name.as_str(), bytes.as_deref(), ""))
            .collect();
        let commit = self.write_and_commit(&mut state, &steps, message)?;
        Ok(WentBack {
            commit: Some(commit),
            adoption,
        })
    }

    /// Bring back a deleted memory (topic file and index line) as it was at `at`, or just
    /// before it was deleted.
    pub fn restore(
        &mut self,
        name: &str,
        at: Option<ObjectId>,
        session: Option<&str>,
    ) -> Result<WentBack, StoreError> {
        validate_name(name)?;
        let file = format!("{name}.md");
        let mut state = self.state(Scan::Full, Some(&file))?;
        if state.work.contains_key(&file) || state.unreadable.contains(&file) {
            return Err(StoreError::InvalidInput(format!(
                "{name} exists; restore brings back deleted memories (see `memdir show {name} --at REV`)"
            )));
        }
        let source = match at {
            Some(commit) => commit,
            None => self.last_commit_holding(&file)?.ok_or_else(|| {
                StoreError::NotFound(format!("{name} (never saved in this memory dir)"))
            })?,
        };
        let tree = self.repo.commit_tree(source)?;
        let Some(topic_id) = blob(&tree, &file) else {
            return Err(StoreError::NotFound(format!(
                "{name} (at {})",
                source.to_hex_with_len(7)
            )));
        };
        let topic = self.repo.blob(topic_id)?;
        let old_index = match blob(&tree, INDEX_FILE) {
            Some(id) => String::from_utf8_lossy(&self.repo.blob(id)?).into_owned(),
            None => String::new(),
        };
        let (memory_type, description, _) = self.describe(&file, &topic, &mut Adoption::default());
        // Only now, with nothing left to refuse, is what others left adopted.
        let adoption = self.adopt_in(&mut state, session)?;
        let line = Index::parse(&old_index)
            .entry_for(&file)
            .unwrap_or_else(|| IndexLine {
                title: name.to_string(),
                file: file.clone(),
                hook: (!description.is_empty()).then(|| description.clone()),
            });
        let mut index = Index::parse(&read_index(&self.dir)?);
        index.upsert(&line);
        let index_text = index.render();
        let message = commit_message(Op::Restore, memory_type, name, &description, session);
        let commit = self.write_and_commit(
            &mut state,
            &[
                (&file, Some(&topic), "after-topic"),
                (INDEX_FILE, Some(index_text.as_bytes()), "after-index"),
            ],
            &message,
        )?;
        Ok(WentBack {
            commit: Some(commit),
            adoption,
        })
    }

    /// The newest commit (along first parents) whose tree holds `file`.
    fn last_commit_holding(&self, file: &str) -> Result<Option<ObjectId>, StoreError> {
        let mut next = self.repo.head_commit()?;
        while let Some(commit) = next {
            if blob(&self.repo.commit_tree(commit)?, file).is_some() {
                return Ok(Some(commit));
            }
            next = self.repo.parent_of(commit)?;
        }
        Ok(None)
    }
}
