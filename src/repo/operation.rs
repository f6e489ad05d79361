//! Operations (DESIGN §14): what groups several commits into one entry of the operation log, so
//! that `undo` takes them back together. Every commit memdir makes is an operation of its own,
//! found in history by its trailers; a caller that makes several commits for one thing (an
//! extraction run, a `doctor --fix`, a sync) opens a scope first, and every commit made in
//! this process into that memory dir while the scope is open is stamped as part of it.
//!
//! The stamp is trailers on the commit message, written by the one commit writer
//! ([`crate::repo::MemoryRepo`]): `Memdir-Operation: <kind>: <description>` on each commit of
//! the scope, `Memdir-Continues: <first commit>` on all but the first (whose id is the
//! operation's), and `Memdir-Session:` when the commit names no session. An adoption (what
//! someone else wrote, committed before the scope's own change) is set aside ([`set_aside`]):
//! it stays an operation of its own, so undoing the scope never takes back another writer's
//! work. Nothing is kept outside git, so the grouping survives, syncs
//! and is read back by anyone who has the commits.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use gix::ObjectId;

use crate::repo::message::{CONTINUES, OPERATION, SESSION, parse_message, with_trailers};

/// One open scope.
struct Open {
    /// The memory dir as the caller named it, compared by its canonical path at each commit.
    dir: PathBuf,
    kind: String,
    description: String,
    session: Option<String>,
    /// The first commit stamped in this scope: the operation's id.
    first: Option<ObjectId>,
    /// Scopes opened inside this one join it.
    depth: usize,
    /// While above 0, commits are not stamped ([`set_aside`]).
    set_aside: usize,
}

/// The scopes open in this process, and how many (a commit with none open looks no further).
static OPEN: Mutex<Vec<Open>> = Mutex::new(Vec::new());
static OPEN_COUNT: AtomicUsize = AtomicUsize::new(0);

fn open_scopes() -> std::sync::MutexGuard<'static, Vec<Open>> {
    // A panic while the lock was held leaves the list as it was: it is still right.
    OPEN.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An open operation; the commits made into its memory dir until it is dropped are one
/// operation of the operation log.
#[must_use = "the operation ends when this is dropped"]
pub struct OperationScope {
    dir: PathBuf,
}

/// Open an operation on the memory dir `dir` (the team repository's dir for team memory):
/// `kind` is one word (`extract`, `doctor`, `sync`, `consolidate`), `description` one line
/// for the operation log, `session` the Claude Code session it is for. An operation already
/// open on that dir takes this one in: the outermost scope names the operation.
pub fn begin(dir: &Path, kind: &str, description: &str, session: Option<&str>) -> OperationScope {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut open = open_scopes();
    match open.iter_mut().find(|o| same_dir(&o.dir, &dir)) {
        Some(outer) => outer.depth += 1,
        None => {
            open.push(Open {
                dir: dir.clone(),
                kind: kind.to_string(),
                description: description.to_string(),
                session: session.map(str::to_string),
                first: None,
                depth: 1,
                set_aside: 0,
            });
            OPEN_COUNT.fetch_add(1, Ordering::SeqCst);
        }
    }
    OperationScope { dir }
}

impl Drop for OperationScope {
    fn drop(&mut self) {
        let mut open = open_scopes();
        if let Some(at) = open.iter().position(|o| same_dir(&o.dir, &self.dir)) {
            open[at].depth -= 1;
            if open[at].depth == 0 {
                open.remove(at);
                OPEN_COUNT.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
}

/// Whether two paths name one folder: equal, or equal once canonical (a path that does not
/// exist yet is compared as it is).
fn same_dir(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(a), Ok(b)) if a == b
        )
}

/// A commit message as the writer commits it: stamped when an operation is open on `dir`, with
/// whether this commit is the operation's first (its id becomes the operation's once it is
/// published, [`started`]).
pub(crate) fn stamp(dir: &Path, message: &str) -> (String, bool) {
    if OPEN_COUNT.load(Ordering::SeqCst) == 0 {
        return (message.to_string(), false);
    }
    let open = open_scopes();
    let Some(scope) = open
        .iter()
        .find(|o| o.set_aside == 0 && same_dir(&o.dir, dir))
    else {
        return (message.to_string(), false);
    };
    let parsed = parse_message(ObjectId::null(gix::hash::Kind::Sha1), message, (0, 0));
    let label = if scope.description.is_empty() {
        scope.kind.clone()
    } else {
        format!("{}: {}", scope.kind, scope.description)
    };
    let first = scope.first.map(|id| id.to_string());
    let mut trailers = vec![(OPERATION, label.as_str())];
    if let Some(first) = &first {
        trailers.push((CONTINUES, first.as_str()));
    }
    if parsed.trailer(SESSION).is_none()
        && let Some(session) = &scope.session
    {
        trailers.push((SESSION, session.as_str()));
    }
    (with_trailers(message, &trailers), first.is_none())
}

/// Commits into `dir` made while this lives are not part of the operation open there (if any):
/// adoption commits what someone else wrote, an operation of its own.
pub(crate) struct SetAside {
    dir: Option<PathBuf>,
}

pub(crate) fn set_aside(dir: &Path) -> SetAside {
    if OPEN_COUNT.load(Ordering::SeqCst) == 0 {
        return SetAside { dir: None };
    }
    let mut open = open_scopes();
    match open.iter_mut().find(|o| same_dir(&o.dir, dir)) {
        Some(scope) => {
            scope.set_aside += 1;
            SetAside {
                dir: Some(scope.dir.clone()),
            }
        }
        None => SetAside { dir: None },
    }
}

impl Drop for SetAside {
    fn drop(&mut self) {
        let Some(dir) = &self.dir else { return };
        if let Some(scope) = open_scopes().iter_mut().find(|o| o.dir == *dir) {
            scope.set_aside -= 1;
        }
    }
}

/// The first commit of the operation open on `dir` was published as `commit`.
pub(crate) fn started(dir: &Path, commit: ObjectId) {
    let mut open = open_scopes();
    if let Some(scope) = open.iter_mut().find(|o| same_dir(&o.dir, dir)) {
        scope.first.get_or_insert(commit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo::message::{Op, commit_message};

    fn id(n: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[n; 20])
    }

    #[test]
    fn a_scope_stamps_its_commits_but_those_set_aside_and_other_dirs() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let (dir, other) = (tmp.path().join("mem"), tmp.path().join("other"));
        std::fs::create_dir_all(&dir).expect("dir");
        let save = commit_message(Op::Save, "user", "a", "A", None);
        assert_eq!(stamp(&dir, &save), (save.clone(), false), "no scope open");
        {
            let _run = begin(&dir, "extract", "session s1", Some("s1"));
            let (first, starts) = stamp(&dir, &save);
            assert!(starts);
            assert!(first.ends_with(
                "Memdir-Op: save\nMemdir-Operation: extract: session s1\nMemdir-Session: s1\n"
            ));
            started(&dir, id(1));
            started(&dir, id(2));
            // A scope opened inside joins the outer one.
            let _inner = begin(&dir.join("."), "doctor", "", None);
            let update = commit_message(Op::Update, "user", "b", "B", Some("s9"));
            let (next, starts) = stamp(&dir, &update);
            assert!(!starts);
            assert!(next.ends_with(&format!(
                "Memdir-Session: s9\nMemdir-Operation: extract: session s1\nMemdir-Continues: {}\n",
                id(1)
            )));
            let adopt = commit_message(Op::Adopt, "user", "c", "", None);
            {
                let _adoption = set_aside(&dir);
                assert_eq!(stamp(&dir, &adopt), (adopt.clone(), false));
            }
            assert!(stamp(&dir, &adopt).0.contains("Memdir-Operation: extract"));
            assert_eq!(stamp(&other, &save), (save.clone(), false));
        }
        assert_eq!(stamp(&dir, &save), (save, false), "closed");
    }
}
