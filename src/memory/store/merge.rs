//! A branch memdir prepared on top of HEAD (a consolidation, DESIGN §7) merged into HEAD's
//! branch as one commit with two parents: HEAD first, so that going back to the first parent
//! (`undo`) gives back exactly the files from before. The work tree must hold what HEAD holds
//! (the caller adopts first); the branch's files are written in crash order (topic files,
//! deletions, the index last), as every mutation writes them.

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::repo::TreeMap;

use super::*;

impl Store {
    /// Merge `theirs`, a commit whose history holds HEAD (the branch was made on it), into
    /// HEAD's branch: the work tree, `.git/index` and a merge commit with `message` take its
    /// files. Refused when HEAD moved off the branch's base (the caller prepares it again) or
    /// when either tree holds folders memdir did not make.
    pub fn merge_branch(
        &mut self,
        theirs: ObjectId,
        message: &str,
    ) -> Result<ObjectId, StoreError> {
        let mut state = self.state(Scan::Full, None)?;
        let Some(ours) = state.parent else {
            return Err(StoreError::InvalidInput(
                "the memory dir has no commits to merge into".into(),
            ));
        };
        if !work_matches_tree(&state.work, &state.tree) {
            return Err(StoreError::InvalidInput(
                "the memory dir has changes memdir has not committed; run `memdir snapshot` first"
                    .into(),
            ));
        }
        if !self.repo.is_ancestor(ours, theirs)? {
            return Err(StoreError::InvalidInput(format!(
                "the branch was not made on HEAD ({}); prepare it again",
                ours.to_hex_with_len(7)
            )));
        }
        let wanted = self.repo.commit_tree(theirs)?;
        let folders = |tree: &TreeMap| tree.values().any(|(k, _)| *k == EntryKind::Tree);
        if folders(&wanted) || folders(&state.tree) {
            return Err(StoreError::InvalidInput(
                "this history holds folders memdir did not make; merge the branch with git itself"
                    .into(),
            ));
        }
        state.merging = Some(theirs);
        self.commit_to_tree(&mut state, &wanted, |_, _| true, message)
    }

    /// Make the work tree, `.git/index` and a new commit (`message`) hold `wanted`'s files that
    /// `taken` accepts (by name and kind; what it does not accept stays as HEAD has it). Topic
    /// files first, deletions next, the index last: a crash leaves orphans, never an index line
    /// naming a missing file. A commit is made even when no file changes.
    pub(crate) fn commit_to_tree(
        &mut self,
        state: &mut State,
        wanted: &TreeMap,
        taken: impl Fn(&[u8], EntryKind) -> bool,
        message: &str,
    ) -> Result<ObjectId, StoreError> {
        let mut contents = Vec::new();
        for (name, (kind, id)) in wanted {
            if state.tree.get(name) != wanted.get(name) && taken(name, *kind) {
                contents.push((
                    String::from_utf8_lossy(name).into_owned(),
                    Some(self.repo.blob(*id)?),
                ));
            }
        }
        for (name, (kind, _)) in &state.tree {
            if !wanted.contains_key(name) && taken(name, *kind) {
                contents.push((String::from_utf8_lossy(name).into_owned(), None));
            }
        }
        contents.sort_by_key(|(name, bytes)| (name == INDEX_FILE, bytes.is_none()));
        let steps: Vec<(&str, Option<&[u8]>, &str)> = contents
            .iter()
            .map(|(name, bytes)| (name.as_str(), bytes.as_deref(), ""))
            .collect();
        self.write_and_commit(state, &steps, message)
    }
}
