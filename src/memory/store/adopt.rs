//! Adoption (DESIGN §4): what an agent (or an interrupted save) left in the work tree becomes
//! commits, one per topic file whose index line is there too, then one for the index's own edits.

use std::collections::BTreeSet;

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::memory::index::{Index, IndexLine};
use crate::memory::taxonomy::is_topic_file_name;
use crate::memory::topic::TopicFile;
use crate::repo::TreeMap;
use crate::repo::message::subject_of;

use super::*;

/// What happened to the work tree before or during a write, for the user to see.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Adoption {
    /// Commits made, with their subjects.
    pub commits: Vec<(ObjectId, String)>,
    /// Topic files not yet named by the index: a save in progress, or an interrupted one.
    pub unindexed: Vec<String>,
    /// Index lines naming a file that does not exist (yet).
    pub dangling: Vec<String>,
    /// Topic files deleted while the index still names them.
    pub deleted_but_indexed: Vec<String>,
    /// Adopted files whose frontmatter could not be read (adopted as they are, untyped).
    pub unreadable: Vec<String>,
}

impl Store {
    /// Commit what an agent (or an interrupted save) left in the work tree: one `adopt` commit
    /// per topic file whose index line is there too, then one for remaining index edits.
    pub fn adopt(&mut self, session: Option<&str>) -> Result<Adoption, StoreError> {
        let mut state = self.state(Scan::Full, None)?;
        self.adopt_in(&mut state, session)
    }

    /// [`Store::adopt`] from a state already read; `state` follows the commits it makes.
    pub(crate) fn adopt_in(
        &mut self,
        state: &mut State,
        session: Option<&str>,
    ) -> Result<Adoption, StoreError> {
        let mut adoption = Adoption::default();
        // What someone else wrote is an operation of its own, never part of one open here.
        let _own = crate::repo::operation::set_aside(&self.dir);
        let work = &state.work;
        if state.unreadable.contains(INDEX_FILE) {
            // Never take an index memdir will not read for a deleted one.
            return Err(self.index_refusal());
        }
        if work_matches_tree(work, &state.tree) {
            return Ok(adoption);
        }
        let head_index_text = match state.tree.get(INDEX_FILE.as_bytes()) {
            Some((_, id)) => String::from_utf8_lossy(&self.repo.blob(*id)?).into_owned(),
            None => String::new(),
        };
        let work_index_text = match work.get(INDEX_FILE) {
            Some(w) if state.tree.get(INDEX_FILE.as_bytes()).map(|e| e.1) == Some(w.id) => {
                head_index_text.clone()
            }
            Some(_) => index_text(&self.dir, self.read(INDEX_FILE)?)?,
            None => String::new(),
        };
        let linked: BTreeSet<String> = Index::parse(&work_index_text)
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .collect();

        let mut names: BTreeSet<&str> = work.keys().map(String::as_str).collect();
        names.extend(
            state
                .tree
                .iter()
                .filter(|(name, (kind, _))| is_checked_out(name, *kind))
                .filter_map(|(name, _)| std::str::from_utf8(name).ok()),
        );
        names.remove(INDEX_FILE);
        let mut complete = Vec::new();
        for name in names {
            if state.unreadable.contains(name) {
                // Neither adopted nor taken for deleted: doctor reports it.
                continue;
            }
            let in_work = work.get(name).map(|w| w.id);
            let in_head = state.tree.get(name.as_bytes()).map(|(_, id)| *id);
            if in_work == in_head {
                continue;
            }
            match (in_work, in_head) {
                (Some(_), None) if !linked.contains(name) => adoption.unindexed.push(name.into()),
                (None, Some(_)) if linked.contains(name) => {
                    adoption.deleted_but_indexed.push(name.into())
                }
                _ => complete.push(name.to_string()),
            }
        }

        let mut tree = state.tree.clone();
        let mut parent = state.parent;
        let has_index = work.contains_key(INDEX_FILE);
        for name in &complete {
            let (memory_type, description, op_name) = match work.get(name.as_str()) {
                Some(_) => {
                    let bytes = self.read(name)?;
                    let id = self.repo.write_blob(&bytes)?;
                    tree.insert(name.as_str().into(), (EntryKind::Blob, id));
                    self.describe(name, &bytes, &mut adoption)
                }
                None => {
                    let Some((_, id)) = tree.remove(name.as_bytes()) else {
                        continue;
                    };
                    let bytes = self.repo.blob(id)?;
                    self.describe(name, &bytes, &mut adoption)
                }
            };
            let index_text = index_for_tree(&work_index_text, &head_index_text, &tree);
            self.stage_index(&mut tree, has_index.then_some(index_text.as_str()))?;
            let message = commit_message(Op::Adopt, memory_type, &op_name, &description, session);
            let id = self.commit(&tree, parent, &message, work)?;
            adoption.commits.push((id, subject_of(&message)));
            parent = Some(id);
        }

        let before = tree.clone();
        let index_text = index_for_tree(&work_index_text, &head_index_text, &tree);
        self.stage_index(&mut tree, has_index.then_some(index_text.as_str()))?;
        if tree != before {
            let message = commit_message(Op::Adopt, "index", INDEX_FILE, "", session);
            let id = self.commit(&tree, parent, &message, work)?;
            adoption.commits.push((id, subject_of(&message)));
            parent = Some(id);
        }
        let index = Index::parse(&work_index_text);
        adoption.dangling = index
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .filter(|f| is_topic_file_name(f) && !tree.contains_key(f.as_bytes()))
            .collect();
        state.tree = tree;
        state.parent = parent;
        Ok(adoption)
    }

    /// Why the work tree's `MEMORY.md` cannot be read: the reader's own refusal, or a symlink.
    pub(crate) fn index_refusal(&self) -> StoreError {
        match self.read(INDEX_FILE) {
            Err(e) => e,
            Ok(_) => StoreError::InvalidInput(format!(
                "{} is a symlink: memdir reads and commits only a regular MEMORY.md",
                self.dir.join(INDEX_FILE).display()
            )),
        }
    }

    /// The type, description and name of a topic file for an adopt commit.
    pub(crate) fn describe(
        &self,
        file: &str,
        bytes: &[u8],
        adoption: &mut Adoption,
    ) -> (&'static str, String, String) {
        let name = file.strip_suffix(".md").unwrap_or(file).to_string();
        match std::str::from_utf8(bytes)
            .ok()
            .and_then(|text| TopicFile::parse(text).ok())
        {
            Some(topic) => (
                type_label(topic.memory_type),
                topic.description.unwrap_or_default(),
                name,
            ),
            None => {
                adoption.unreadable.push(file.to_string());
                ("untyped", String::new(), name)
            }
        }
    }

    /// Put `MEMORY.md` with `text` into `tree`, or take it out when the work tree has none.
    pub(super) fn stage_index(
        &mut self,
        tree: &mut TreeMap,
        text: Option<&str>,
    ) -> Result<(), StoreError> {
        match text {
            None => {
                tree.remove(INDEX_FILE.as_bytes());
            }
            Some(text) => {
                let id = self.repo.blob_id(text.as_bytes())?;
                if tree.get(INDEX_FILE.as_bytes()).map(|(_, old)| *old) != Some(id) {
                    self.repo.write_blob(text.as_bytes())?;
                    tree.insert(INDEX_FILE.into(), (EntryKind::Blob, id));
                }
            }
        }
        Ok(())
    }

    /// Commit `file` as it stands in the work tree when HEAD does not hold that content (an
    /// interrupted save, or an agent's file still waiting for its index line), so that
    /// replacing or deleting it next loses nothing. The file itself is not rewritten.
    pub(crate) fn keep_in_history(
        &mut self,
        state: &mut State,
        file: &str,
        session: Option<&str>,
    ) -> Result<Option<(ObjectId, String)>, StoreError> {
        let Some(work) = state.work.get(file) else {
            return Ok(None);
        };
        if state.tree.get(file.as_bytes()).map(|(_, id)| *id) == Some(work.id) {
            return Ok(None);
        }
        let bytes = self.read(file)?;
        let (memory_type, description, name) =
            self.describe(file, &bytes, &mut Adoption::default());
        let _own = crate::repo::operation::set_aside(&self.dir);
        let message = commit_message(Op::Adopt, memory_type, &name, &description, session);
        let mut tree = state.tree.clone();
        let id = self.repo.write_blob(&bytes)?;
        tree.insert(file.into(), (EntryKind::Blob, id));
        let commit = self.commit(&tree, state.parent, &message, &state.work)?;
        state.tree = tree;
        state.parent = Some(commit);
        Ok(Some((commit, subject_of(&message))))
    }
}

/// The work index as it may be committed with `tree`: entry lines naming a top-level file that
/// `tree` does not hold are left out (a save in progress), unless HEAD's index had them too.
/// Nothing else is touched, so when nothing is left out the bytes are the work file's own.
pub(super) fn index_for_tree(work_index: &str, head_index: &str, tree: &TreeMap) -> String {
    let head_lines: BTreeSet<&str> = head_index.lines().collect();
    work_index
        .split_inclusive('\n')
        .filter(|line| match IndexLine::parse(line) {
            Some(entry) => {
                let file = entry.file_name();
                !is_topic_file_name(file)
                    || tree.contains_key(file.as_bytes())
                    || head_lines.contains(line.trim_end_matches(['\n', '\r']))
            }
            None => true,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_progress_lines_are_held_back() {
        let mut tree = TreeMap::new();
        let id = ObjectId::null(gix::hash::Kind::Sha1);
        tree.insert("a.md".into(), (EntryKind::Blob, id));
        let work =
            "# Index\n- [A](a.md) — one\n- [B](b.md) — two\n- [Web](https://x.y/z.md) — link\n";
        assert_eq!(
            index_for_tree(work, "", &tree),
            "# Index\n- [A](a.md) — one\n- [Web](https://x.y/z.md) — link\n"
        );
        // A dangling line that HEAD already had stays.
        assert_eq!(index_for_tree(work, "- [B](b.md) — two\n", &tree), work);
    }
}
