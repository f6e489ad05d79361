//! Taking changes back (DESIGN §14): `revert COMMIT` takes back one commit's change, `undo`
//! the newest operation not yet undone (or every one a session made), `redo` the newest undo.
//!
//! Each change is taken back three ways per memory with what came since, by the merge engine
//! team sync uses: the commit's tree is the base, HEAD's is ours, its parent's (a merge's first
//! parent: what this branch had before it) is theirs. So taking back the newest change gives
//! exactly the tree before it, and an older one keeps what changed after it; a memory changed
//! since in the same place keeps both versions, the one taken back to as a conflict copy. What
//! is not a memory file (a folder, a link, a file committed by hand) stays as HEAD has it. The
//! result is one commit, made even when nothing changes, so that the undo stack records it.

use gix::ObjectId;
use gix::bstr::BString;
use gix::objs::tree::EntryKind;

use crate::history::oplog::{OpLog, Operation};
use crate::history::rollback::commit_tree;
use crate::history::{HistoryError, WentBack, is_memory_file};
use crate::memory::merge::merge_tree_maps;
use crate::memory::store::{INDEX_FILE, Op, Scan, Store, commit_message_with};
use crate::repo::message::{REDOES, REVERTS, UNDOES};
use crate::repo::{MemoryRepo, RepoError, TreeMap};

/// What an undo or redo did, and the operations it took back (an undo) or brought back (a
/// redo).
#[derive(Debug, Clone)]
pub struct Undone {
    pub went: WentBack,
    pub operations: Vec<Operation>,
}

/// The operation log of the memory dir's branch.
pub fn op_log(repo: &MemoryRepo) -> Result<OpLog, RepoError> {
    let Some(head) = repo.head_commit()? else {
        return Ok(OpLog::default());
    };
    Ok(OpLog::from_history(&repo.history_records()?, head))
}

/// Take back the newest operation not yet undone, or, with `session`, every operation that
/// session made and that is not undone yet, in one commit.
pub fn undo(store: &mut Store, session: Option<&str>) -> Result<Undone, HistoryError> {
    let log = op_log(&store.repo)?;
    let targets: Vec<&Operation> = match session {
        None => log.to_undo().into_iter().collect(),
        Some(session) => log.to_undo_for_session(session),
    };
    if targets.is_empty() {
        return Err(HistoryError::NothingToUndo(match session {
            Some(session) => format!("session {session} has no operation that is not undone"),
            None if log.operations.is_empty() => "the memory dir has no commits".into(),
            None => "every operation is undone (`memdir redo` brings the last one back)".into(),
        }));
    }
    let what = match (session, targets.as_slice()) {
        (None, [op]) => op.description.clone(),
        (Some(session), _) => session.to_string(),
        (None, _) => format!("{} operations", targets.len()),
    };
    let kind = if session.is_some() { "session" } else { "op" };
    let ids: Vec<String> = targets.iter().map(|op| op.id.to_string()).collect();
    let trailers: Vec<(&str, &str)> = ids.iter().map(|id| (UNDOES, id.as_str())).collect();
    let message = commit_message_with(Op::Undo, kind, &what, &listed(&targets), None, &trailers);
    let commits = OpLog::commits_newest_first(&targets);
    let operations = targets.into_iter().cloned().collect();
    let went = take_back(store, &commits, &message, true)?;
    Ok(Undone { went, operations })
}

/// Take back the newest undo not yet redone (since the last operation that was neither).
pub fn redo(store: &mut Store) -> Result<Undone, HistoryError> {
    let log = op_log(&store.repo)?;
    let Some(undo) = log.to_redo() else {
        return Err(HistoryError::NothingToRedo);
    };
    let redone: Vec<&Operation> = log
        .operations
        .iter()
        .filter(|op| undo.undoes.contains(&op.id))
        .collect();
    let what = match redone.as_slice() {
        [op] => op.description.clone(),
        _ => undo
            .description
            .split_once("): ")
            .map_or(undo.description.as_str(), |(_, what)| what)
            .to_string(),
    };
    let id = undo.id.to_string();
    let message = commit_message_with(
        Op::Redo,
        "op",
        &what,
        &listed(&redone),
        None,
        &[(REDOES, id.as_str())],
    );
    let commits = OpLog::commits_newest_first(&[undo]);
    let operations = redone.into_iter().cloned().collect();
    let went = take_back(store, &commits, &message, true)?;
    Ok(Undone { went, operations })
}

/// Take back one commit's change (a merge's: back to its first parent's side).
pub fn revert(
    store: &mut Store,
    commit: ObjectId,
    session: Option<&str>,
) -> Result<WentBack, HistoryError> {
    let subject = store.repo.subject(commit)?;
    let id = commit.to_string();
    let message = commit_message_with(
        Op::Revert,
        "commit",
        &commit.to_hex_with_len(7).to_string(),
        &format!("reverts: {subject}"),
        session,
        &[(REVERTS, id.as_str())],
    );
    take_back(store, &[commit], &message, false)
}

/// One line per operation: its short id and description.
fn listed(ops: &[&Operation]) -> String {
    ops.iter()
        .map(|op| format!("{} {}", op.id.to_hex_with_len(7), op.description))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Take back the changes of `commits` (newest first) from HEAD, three ways, in one commit with
/// `message`; what is pending is adopted first. When that changes nothing, `always_commit`
/// says whether to commit still: an undo or redo must (it is the stack's record), a revert
/// need not (as `rollback` and `restore`, it says so and leaves history alone).
fn take_back(
    store: &mut Store,
    commits: &[ObjectId],
    message: &str,
    always_commit: bool,
) -> Result<WentBack, HistoryError> {
    let mut state = store.state(Scan::Full, None)?;
    let adoption = store.adopt_in(&mut state, None)?;
    let mut tree = state.tree.clone();
    let mut conflicts = Vec::new();
    let index: BString = INDEX_FILE.into();
    for &commit in commits {
        let base = store.repo.commit_tree(commit)?;
        let mut before = match store.repo.parent_of(commit)? {
            Some(parent) => store.repo.commit_tree(parent)?,
            None => TreeMap::new(),
        };
        // The change made the index: taking it back empties it of that change's lines only
        // (to the merge, an index deleted yields to one changed since, whole).
        let empty = if base.contains_key(&index) && !before.contains_key(&index) {
            let empty = (EntryKind::Blob, store.repo.write_blob(b"")?);
            before.insert(index.clone(), empty);
            Some(empty)
        } else {
            None
        };
        let label = commit.to_hex_with_len(7).to_string();
        let merged = merge_tree_maps(&mut store.repo, &base, &tree, &before, &label)?;
        tree = merged.tree;
        if empty.is_some() && tree.get(&index) == empty.as_ref() {
            tree.remove(&index);
        }
        conflicts.extend(merged.conflicts);
    }
    // Only memory files are taken back; anything else stays as HEAD has it.
    let names: Vec<_> = tree.keys().chain(state.tree.keys()).cloned().collect();
    for name in names {
        let memory = [tree.get(&name), state.tree.get(&name)]
            .into_iter()
            .flatten()
            .all(|(kind, _)| is_memory_file(&name, *kind));
        if !memory {
            match state.tree.get(&name) {
                Some(entry) => tree.insert(name, *entry),
                None => tree.remove(&name),
            };
        }
    }
    if !always_commit && conflicts.is_empty() && tree == state.tree {
        return Ok(WentBack {
            adoption,
            ..WentBack::default()
        });
    }
    commit_tree(store, state, &tree, message, adoption, conflicts)
}
