//! Going back to an earlier state without rewriting history (DESIGN §4): `rollback` makes a new
//! commit whose tree is an earlier commit's; `restore` brings one memory back as an earlier
//! commit held it (deleted or not), its index line where it stood.

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::history::{HistoryError, WentBack, changes_between, is_memory_file};
use crate::memory::index::{Index, IndexLine};
use crate::memory::store::{
    Adoption, INDEX_FILE, Op, Scan, State, Store, StoreError, commit_message, read_index,
};
use crate::memory::taxonomy::validate_name;
use crate::repo::TreeMap;

/// A top-level blob of a tree, by name.
fn blob(tree: &TreeMap, name: &str) -> Option<ObjectId> {
    tree.get(name.as_bytes())
        .filter(|(kind, _)| matches!(kind, EntryKind::Blob | EntryKind::BlobExecutable))
        .map(|(_, id)| *id)
}

/// A new commit whose tree equals `target`'s; the work tree and `.git/index` follow.
pub fn rollback(
    store: &mut Store,
    target: ObjectId,
    session: Option<&str>,
) -> Result<WentBack, HistoryError> {
    let subject = store.repo.subject(target)?;
    let message = commit_message(
        Op::Rollback,
        "commit",
        &target.to_hex_with_len(7).to_string(),
        &format!("back to: {subject}"),
        session,
    );
    let mut state = store.state(Scan::Full, None)?;
    let adoption = store.adopt_in(&mut state, session)?;
    let wanted = store.repo.commit_tree(target)?;
    if wanted.values().any(|(kind, _)| *kind == EntryKind::Tree)
        || state
            .tree
            .values()
            .any(|(kind, _)| *kind == EntryKind::Tree)
    {
        return Err(StoreError::InvalidInput(
            "this history holds folders memdir did not make; roll it back with git itself".into(),
        )
        .into());
    }
    if wanted == state.tree {
        return Ok(WentBack {
            adoption,
            ..WentBack::default()
        });
    }
    commit_tree(store, state, &wanted, &message, adoption, Vec::new())
}

/// Make the work tree and a new commit hold `wanted` (its memory files; anything else must be
/// as HEAD has it), and tell what changed ([`Store::commit_to_tree`]: in crash order, and a
/// commit even when no file changes, as an undo must still be recorded).
pub(crate) fn commit_tree(
    store: &mut Store,
    mut state: State,
    wanted: &TreeMap,
    message: &str,
    adoption: Adoption,
    conflicts: Vec<crate::memory::merge::Conflict>,
) -> Result<WentBack, HistoryError> {
    let before = state.tree.clone();
    let commit = store.commit_to_tree(&mut state, wanted, is_memory_file, message)?;
    let (changes, index_changed) = changes_between(&store.repo, &before, &state.tree)?;
    Ok(WentBack {
        commit: Some(commit),
        adoption,
        changes,
        index_changed,
        conflicts,
    })
}

/// Bring back a memory (topic file and index line) as it was at `at`, or, for a deleted one,
/// as it was just before it was deleted. A memory that exists takes that version; one that does
/// not gets its index line back where it stood among the entries still there.
pub fn restore(
    store: &mut Store,
    name: &str,
    at: Option<ObjectId>,
    session: Option<&str>,
) -> Result<WentBack, HistoryError> {
    validate_name(name).map_err(StoreError::from)?;
    let file = format!("{name}.md");
    let mut state = store.state(Scan::Full, Some(&file))?;
    if state.unreadable.contains(&file) {
        return Err(StoreError::InvalidInput(format!(
            "{file} is not a file memdir reads (a symlink, a FIFO or too big); move it away, then restore"
        ))
        .into());
    }
    if state.work.contains_key(&file) && at.is_none() {
        return Err(StoreError::InvalidInput(format!(
            "{name} exists; `memdir restore {name} --at REV` brings back an earlier version of it (`memdir log {name}` lists them)"
        ))
        .into());
    }
    let source = match at {
        Some(commit) => commit,
        None => store.repo.last_commit_holding(&file)?.ok_or_else(|| {
            StoreError::NotFound(format!("{name} (never saved in this memory dir)"))
        })?,
    };
    let tree = store.repo.commit_tree(source)?;
    let Some(topic_id) = blob(&tree, &file) else {
        return Err(
            StoreError::NotFound(format!("{name} (at {})", source.to_hex_with_len(7))).into(),
        );
    };
    let topic = store.repo.blob(topic_id)?;
    let old_index = match blob(&tree, INDEX_FILE) {
        Some(id) => Index::parse(&String::from_utf8_lossy(&store.repo.blob(id)?)),
        None => Index::default(),
    };
    let (memory_type, description, _) = store.describe(&file, &topic, &mut Adoption::default());
    // Only now, with nothing left to refuse, is what others left adopted.
    let adoption = store.adopt_in(&mut state, session)?;
    let line = old_index.entry_for(&file).unwrap_or_else(|| IndexLine {
        title: name.to_string(),
        file: file.clone(),
        hook: (!description.is_empty()).then(|| description.clone()),
    });
    let mut index = Index::parse(&read_index(&store.dir)?);
    index.place(&line, &old_index);
    let index_text = index.render();
    let mut wanted = state.tree.clone();
    wanted.insert(file.as_str().into(), (EntryKind::Blob, topic_id));
    let index_id = store.repo.write_blob(index_text.as_bytes())?;
    wanted.insert(INDEX_FILE.into(), (EntryKind::Blob, index_id));
    if wanted == state.tree {
        return Ok(WentBack {
            adoption,
            ..WentBack::default()
        });
    }
    let message = commit_message(Op::Restore, memory_type, name, &description, session);
    commit_tree(store, state, &wanted, &message, adoption, Vec::new())
}
