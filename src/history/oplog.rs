//! The operation log (DESIGN §14, after jj's `op log`): the operations of the memory dir's
//! branch, read from its commits, and the undo stack they make.
//!
//! An operation is one commit on HEAD's first-parent line, or the commits one scope stamped
//! ([`crate::repo::operation`]: those naming a first commit with `Memdir-Continues`), or a merge
//! (a sync), which stands for everything it brought in. Nothing but the commits is read: the
//! log and the stack are in git, travel with it, and are the same on every clone.
//!
//! The stack, replayed oldest first: an operation that is neither an undo nor a redo is done,
//! and it empties the redo stack (as a new edit does in any editor); an undo (`Memdir-Undo:
//! <op>`, one per operation it took back) makes those operations undone and is pushed on the
//! redo stack; a redo (`Memdir-Redo: <undo>`) takes that undo off the redo stack and makes its
//! operations done again. `undo` takes back the newest done operation, `redo` the newest undo
//! on the redo stack. A trailer naming an operation this branch does not have is ignored.

use std::collections::BTreeSet;

use gix::ObjectId;
use gix::hashtable::HashMap;

use crate::repo::history_cache::{Record, first_parents};
use crate::repo::message::{CONTINUES, OPERATION, REDOES, SESSION, UNDOES};

/// One operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// Its first commit's id.
    pub id: ObjectId,
    /// `save`, `update`, `delete`, `adopt`, `extract`, `doctor`, `merge`, `undo`, …; `commit`
    /// for a commit memdir did not make.
    pub kind: String,
    /// One line: `<kind>: <description>` of a scope, else the first commit's subject.
    pub description: String,
    /// Its commits, oldest first.
    pub commits: Vec<ObjectId>,
    /// Where each commit stands on the first-parent line (0 is the root).
    positions: Vec<usize>,
    pub session: Option<String>,
    /// When its last commit was made: seconds since the epoch and UTC offset.
    pub time: (i64, i32),
    /// Its first commit's author, `Name <email>`.
    pub author: String,
    /// An undo: the operations it took back.
    pub undoes: Vec<ObjectId>,
    /// A redo: the undo it took back.
    pub redoes: Option<ObjectId>,
}

impl Operation {
    pub fn is_undo(&self) -> bool {
        !self.undoes.is_empty()
    }

    pub fn is_redo(&self) -> bool {
        self.redoes.is_some()
    }
}

/// The operations of a branch, oldest first, and its undo stack.
#[derive(Debug, Clone, Default)]
pub struct OpLog {
    pub operations: Vec<Operation>,
    /// Operations whose change stands (by index), neither undone nor undo/redo themselves.
    done: BTreeSet<usize>,
    /// Undos a redo can take back, the newest last (by index).
    redo: Vec<usize>,
    /// Undos a redo took back (by index).
    redone: BTreeSet<usize>,
    /// Where each operation is in `operations`, by its id.
    by_id: HashMap<ObjectId, usize>,
}

impl OpLog {
    /// The operation log of the branch at `head`, from its history as the cache keeps it.
    pub fn from_history(records: &[Record], head: ObjectId) -> OpLog {
        let mut log = OpLog::default();
        let mut by_id: HashMap<ObjectId, usize> = HashMap::default();
        for (position, record) in first_parents(records, head).into_iter().enumerate() {
            let entry = record.entry();
            let joined = entry
                .trailer(CONTINUES)
                .and_then(|first| ObjectId::from_hex(first.as_bytes()).ok())
                .and_then(|first| by_id.get(&first).copied());
            let ids = |key| -> Vec<ObjectId> {
                entry
                    .trailers_of(key)
                    .filter_map(|hex| ObjectId::from_hex(hex.as_bytes()).ok())
                    .collect()
            };
            if let Some(n) = joined {
                let op = &mut log.operations[n];
                op.commits.push(record.commit);
                op.positions.push(position);
                op.time = record.time;
                op.undoes.extend(ids(UNDOES));
                continue;
            }
            let (kind, description) = match entry.trailer(OPERATION) {
                Some(label) => match label.split_once(": ") {
                    Some((kind, _)) => (kind.to_string(), label.to_string()),
                    None => (label.to_string(), format!("{label}: {}", entry.subject)),
                },
                None => (
                    entry.trailer("Op").unwrap_or("commit").to_string(),
                    entry.subject.clone(),
                ),
            };
            by_id.insert(record.commit, log.operations.len());
            log.operations.push(Operation {
                id: record.commit,
                kind,
                description,
                commits: vec![record.commit],
                positions: vec![position],
                session: entry.trailer(SESSION).map(str::to_string),
                time: record.time,
                author: record.author.clone(),
                undoes: ids(UNDOES),
                redoes: ids(REDOES).first().copied(),
            });
        }
        for n in 0..log.operations.len() {
            let op = &log.operations[n];
            if op.is_undo() {
                for undone in &op.undoes {
                    if let Some(m) = by_id.get(undone) {
                        log.done.remove(m);
                    }
                }
                log.redo.push(n);
            } else if let Some(undo) = op.redoes {
                if let Some(&u) = by_id.get(&undo) {
                    log.redo.retain(|&r| r != u);
                    log.redone.insert(u);
                    for redone in &log.operations[u].undoes {
                        if let Some(&m) = by_id.get(redone) {
                            log.done.insert(m);
                        }
                    }
                }
            } else {
                log.done.insert(n);
                log.redo.clear();
            }
        }
        log.by_id = by_id;
        log
    }

    /// Whether an operation's change is taken back (an undo or redo is never undone: `redo`
    /// takes an undo back).
    pub fn is_undone(&self, op: &Operation) -> bool {
        !op.is_undo() && !op.is_redo() && !self.index_of(op).is_some_and(|n| self.done.contains(&n))
    }

    /// Whether an undo was taken back by a redo.
    pub fn is_redone(&self, op: &Operation) -> bool {
        self.index_of(op).is_some_and(|n| self.redone.contains(&n))
    }

    fn index_of(&self, op: &Operation) -> Option<usize> {
        self.by_id.get(&op.id).copied()
    }

    /// What `undo` takes back: the newest done operation.
    pub fn to_undo(&self) -> Option<&Operation> {
        self.done.last().map(|&n| &self.operations[n])
    }

    /// What `undo --session ID` takes back: every done operation of that session, newest first.
    pub fn to_undo_for_session(&self, session: &str) -> Vec<&Operation> {
        self.done
            .iter()
            .rev()
            .map(|&n| &self.operations[n])
            .filter(|op| op.session.as_deref() == Some(session))
            .collect()
    }

    /// What `redo` takes back: the newest undo on the redo stack.
    pub fn to_redo(&self) -> Option<&Operation> {
        self.redo.last().map(|&n| &self.operations[n])
    }

    /// The commits of `ops`, newest first by where they stand on the branch: the order their
    /// changes are taken back in.
    pub fn commits_newest_first(ops: &[&Operation]) -> Vec<ObjectId> {
        let mut commits: Vec<(usize, ObjectId)> = ops
            .iter()
            .flat_map(|op| op.positions.iter().copied().zip(op.commits.iter().copied()))
            .collect();
        commits.sort_by_key(|(position, _)| std::cmp::Reverse(*position));
        commits.into_iter().map(|(_, id)| id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo::message::{Op, commit_message, commit_message_with, with_trailers};

    fn id(n: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[n; 20])
    }

    /// A branch of commits 1, 2, … with these messages, each on the one before.
    fn branch(messages: &[String]) -> (Vec<Record>, ObjectId) {
        let records: Vec<Record> = messages
            .iter()
            .enumerate()
            .map(|(n, message)| Record {
                commit: id(n as u8 + 1),
                parents: if n == 0 { vec![] } else { vec![id(n as u8)] },
                time: (1_800_000_000, 0),
                author: "memdir <memdir@localhost>".into(),
                message: message.clone(),
            })
            .collect();
        let head = records.last().map_or(id(0), |r| r.commit);
        (records, head)
    }

    fn save(name: &str, session: Option<&str>) -> String {
        commit_message(Op::Save, "user", name, "", session)
    }

    fn undo(ops: &[u8]) -> String {
        let hexes: Vec<String> = ops.iter().map(|n| id(*n).to_string()).collect();
        let trailers: Vec<(&str, &str)> = hexes.iter().map(|h| (UNDOES, h.as_str())).collect();
        commit_message_with(Op::Undo, "op", "x", "", None, &trailers)
    }

    fn redo(undo: u8) -> String {
        let hex = id(undo).to_string();
        commit_message_with(Op::Redo, "op", "x", "", None, &[(REDOES, &hex)])
    }

    fn names(ops: &[&Operation]) -> Vec<String> {
        ops.iter().map(|op| op.description.clone()).collect()
    }

    #[test]
    fn undo_walks_back_and_redo_walks_forward_until_a_new_operation() {
        // save a, b, c; undo ×3; redo.
        let mut messages = vec![save("a", None), save("b", None), save("c", None)];
        messages.extend([undo(&[3]), undo(&[2]), undo(&[1]), redo(6)]);
        let (records, head) = branch(&messages);
        let log = OpLog::from_history(&records, head);
        assert_eq!(log.operations.len(), 7);
        assert_eq!(log.to_undo().map(|op| op.id), Some(id(1)), "a is back");
        assert_eq!(log.to_redo().map(|op| op.id), Some(id(5)), "b's undo next");
        assert!(log.is_undone(&log.operations[1]) && !log.is_undone(&log.operations[0]));
        assert!(log.is_redone(&log.operations[5]) && !log.is_redone(&log.operations[4]));

        // A new operation empties the redo stack.
        messages.push(save("d", None));
        let (records, head) = branch(&messages);
        let log = OpLog::from_history(&records, head);
        assert_eq!(log.to_redo(), None);
        assert_eq!(log.to_undo().map(|op| op.id), Some(id(8)));
    }

    #[test]
    fn a_scope_is_one_operation_and_a_session_is_every_operation_it_made() {
        let scoped = |message: String, first: Option<u8>| {
            let mut trailers = vec![(OPERATION, "extract: session s1".to_string())];
            trailers.extend(first.map(|f| (CONTINUES, id(f).to_string())));
            if !message.contains("Memdir-Session") {
                trailers.push((SESSION, "s1".into()));
            }
            let trailers: Vec<(&str, &str)> =
                trailers.iter().map(|(k, v)| (*k, v.as_str())).collect();
            with_trailers(&message, &trailers)
        };
        let messages = vec![
            save("mine", None),
            scoped(save("a", None), None),
            commit_message(Op::Adopt, "user", "hand", "", None),
            scoped(save("b", None), Some(2)),
            save("c", Some("s1")),
            save("other", Some("s2")),
            "by hand\n".to_string(),
        ];
        let (records, head) = branch(&messages);
        let log = OpLog::from_history(&records, head);
        let kinds: Vec<&str> = log.operations.iter().map(|o| o.kind.as_str()).collect();
        assert_eq!(
            kinds,
            ["save", "extract", "adopt", "save", "save", "commit"]
        );
        let run = &log.operations[1];
        assert_eq!(run.commits, [id(2), id(4)]);
        assert_eq!(run.description, "extract: session s1");
        let session = log.to_undo_for_session("s1");
        assert_eq!(names(&session), ["save(user): c", "extract: session s1"]);
        assert_eq!(OpLog::commits_newest_first(&session), [id(5), id(4), id(2)]);
        assert_eq!(log.to_undo().map(|op| op.kind.as_str()), Some("commit"));
    }

    /// An undo of several operations is redone as one, and undoing again after a redo takes
    /// back the newest done operation.
    #[test]
    fn an_undo_of_a_session_is_redone_whole() {
        let messages = vec![
            save("a", Some("s1")),
            save("b", Some("s2")),
            save("c", Some("s1")),
            undo(&[3, 1]),
            undo(&[2]),
            redo(5),
            redo(4),
            // An undo naming an operation this branch does not have changes nothing else.
            undo(&[99]),
        ];
        let (records, head) = branch(&messages);
        let log = OpLog::from_history(&records, head);
        assert_eq!(log.to_undo().map(|op| op.id), Some(id(3)));
        assert!(log.operations[..3].iter().all(|op| !log.is_undone(op)));
        assert_eq!(log.to_redo().map(|op| op.id), Some(id(8)));
    }
}
