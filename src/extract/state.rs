//! Extraction's own state, under the memory dir's `.git/memdir/` (never in the work tree, never
//! committed): a cursor per session (with how far a batch waiting for the model reaches), the
//! stash of hook requests waiting for the worker, and the ranges the builtin extractor did
//! because no model answered, for a later `extract --all --extractor agent` to redo.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::extract::{ExtractError, ExtractorSpec};
use crate::memory::store::Store;

/// `<git dir>/memdir`.
pub fn state_dir(git_dir: &Path) -> PathBuf {
    git_dir.join("memdir")
}

/// The memory dir's git dir, creating the repository on first use.
pub fn git_dir(memory_dir: &Path) -> Result<PathBuf, ExtractError> {
    if crate::repo::has_repository(memory_dir)? {
        return Ok(memory_dir.join(".git"));
    }
    Ok(Store::open(memory_dir)?.repo.git_dir().to_path_buf())
}

/// A session id as a file name: ids are UUIDs; anything else is reduced to a safe spelling.
pub fn session_file(session: &str) -> String {
    let safe: String = session
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    if safe == session {
        return format!("{safe}.json");
    }
    // Two ids that reduce to the same spelling must not share a cursor.
    format!("{safe}-{:016x}.json", fnv1a(session.as_bytes()))
}

/// FNV-1a, 64 bits: a stable, dependency-free hash for names (not for security).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Where extraction stopped in one session's transcript.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    /// The byte offset just after the last record processed.
    pub offset: u64,
    /// That record's uuid.
    #[serde(default)]
    pub record: Option<String>,
    #[serde(default)]
    pub transcript: Option<PathBuf>,
    /// Where the transcript ended when a Stop last put its range in the batch waiting for the
    /// model (the cursor stays before the batch until it is sent). What comes after it is new
    /// since that Stop: a range in which the agent then wrote memory itself has the batch before
    /// it sent first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batched_until: Option<u64>,
}

fn cursor_path(git_dir: &Path, session: &str) -> PathBuf {
    state_dir(git_dir)
        .join("cursors")
        .join(session_file(session))
}

/// A state file (a cursor, a request, a count of attempts) over this is not memdir's: it is
/// ignored, like one that does not parse.
const MAX_STATE_FILE_BYTES: u64 = 1024 * 1024;

/// Write a state file, `json` encoding the `what` (atomically: readers see the old file or the
/// new one).
fn store(
    path: &Path,
    what: &'static str,
    json: serde_json::Result<Vec<u8>>,
) -> Result<(), ExtractError> {
    let json = json.map_err(|source| ExtractError::Encode { what, source })?;
    Ok(crate::atomic::write(path, &json)?)
}

/// A state file's value; `None` when it is missing, unreadable, not a regular file (something
/// planted there, a FIFO) or not what it should be.
fn load<T: serde::de::DeserializeOwned>(path: &Path) -> Option<T> {
    crate::input::read_regular(path, MAX_STATE_FILE_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
}

impl Cursor {
    /// The session's cursor; the start when there is none (or it cannot be read).
    pub fn load(git_dir: &Path, session: &str) -> Cursor {
        load(&cursor_path(git_dir, session)).unwrap_or_default()
    }

    pub fn store(&self, git_dir: &Path, session: &str) -> Result<(), ExtractError> {
        store(
            &cursor_path(git_dir, session),
            "cursor",
            serde_json::to_vec_pretty(self),
        )
    }
}

/// What the hook asked for, waiting in `.git/memdir/requests/` for the worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub session: String,
    pub transcript: PathBuf,
    pub project: PathBuf,
    /// The hook event (Stop, SessionEnd, PreCompact).
    pub event: String,
    /// Tells two requests for the same session apart (newest wins).
    pub nonce: String,
    /// The throttle in force for the session's project.
    #[serde(default = "one")]
    pub every: u32,
    /// The model Claude Code runs for the session's project (`memdir.extract.model`).
    #[serde(default = "default_model")]
    pub model: String,
    /// What the hook extracts with: whoever serves the request extracts with it.
    #[serde(default)]
    pub extractor: ExtractorSpec,
}

fn default_model() -> String {
    crate::model::claude::DEFAULT_MODEL.to_string()
}

fn one() -> u32 {
    1
}

pub fn requests_dir(git_dir: &Path) -> PathBuf {
    state_dir(git_dir).join("requests")
}

impl Request {
    /// A hook's request, told apart from any other by the time and memdir's pid.
    pub fn new(
        session: String,
        transcript: PathBuf,
        project: PathBuf,
        event: String,
        every: u32,
        model: String,
        extractor: ExtractorSpec,
    ) -> Request {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Request {
            session,
            transcript,
            project,
            event,
            nonce: format!(
                "{}.{:09}.{}",
                now.as_secs(),
                now.subsec_nanos(),
                std::process::id()
            ),
            every,
            model,
            extractor,
        }
    }

    /// Stash it, replacing any older request for the same session.
    pub fn stash(&self, git_dir: &Path) -> Result<(), ExtractError> {
        let path = requests_dir(git_dir).join(session_file(&self.session));
        store(&path, "request", serde_json::to_vec(self))
    }

    /// Every stashed request, oldest file name first; unreadable ones are dropped.
    pub fn pending(git_dir: &Path) -> Vec<(PathBuf, Request)> {
        let Ok(entries) = std::fs::read_dir(requests_dir(git_dir)) else {
            return Vec::new();
        };
        let mut out: Vec<(PathBuf, Request)> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter_map(|path| match load(&path) {
                Some(request) => Some((path, request)),
                None => {
                    let _ = std::fs::remove_file(&path);
                    None
                }
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Remove the stashed request at `path` if it is still this one (a newer one stays).
    pub fn done(&self, path: &Path) -> Result<(), ExtractError> {
        if load::<Request>(path).as_ref() == Some(self) {
            crate::atomic::remove_if_exists(path)?;
        }
        Ok(())
    }
}

/// Ranges of one session's transcript that the builtin extractor did because no model answered
/// (not installed, not logged in, offline, failing), for `extract --all --extractor agent` (or
/// `auto`, when a model answers) to hand to a model later. In `.git/memdir/redo/`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redo {
    pub session: String,
    pub transcript: PathBuf,
    pub project: PathBuf,
    pub ranges: Vec<RedoRange>,
}

/// One range to redo: bytes `from..to` of the transcript, and why no model did it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedoRange {
    pub from: u64,
    pub to: u64,
    pub why: String,
}

fn redo_dir(git_dir: &Path) -> PathBuf {
    state_dir(git_dir).join("redo")
}

impl Redo {
    /// Add a range to the session's list (a range already there is not added twice).
    pub fn mark(
        git_dir: &Path,
        session: &str,
        transcript: &Path,
        project: &Path,
        range: RedoRange,
    ) -> Result<(), ExtractError> {
        let path = redo_dir(git_dir).join(session_file(session));
        let mut redo = load::<Redo>(&path)
            .filter(|r| r.transcript == transcript)
            .unwrap_or_else(|| Redo {
                session: session.to_string(),
                transcript: transcript.to_path_buf(),
                project: project.to_path_buf(),
                ranges: Vec::new(),
            });
        if !redo
            .ranges
            .iter()
            .any(|r| r.from == range.from && r.to == range.to)
        {
            redo.ranges.push(range);
        }
        store(&path, "ranges to redo", serde_json::to_vec_pretty(&redo))
    }

    /// Every session's list, in file name order.
    pub fn all(git_dir: &Path) -> Vec<(PathBuf, Redo)> {
        let Ok(entries) = std::fs::read_dir(redo_dir(git_dir)) else {
            return Vec::new();
        };
        let mut out: Vec<(PathBuf, Redo)> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter_map(|path| load(&path).map(|redo| (path, redo)))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Write what is left of the list at `path`, or remove it when nothing is.
    pub fn keep(&self, path: &Path) -> Result<(), ExtractError> {
        if self.ranges.is_empty() {
            return Ok(crate::atomic::remove_if_exists(path)?);
        }
        store(path, "ranges to redo", serde_json::to_vec_pretty(self))
    }
}

/// Workers that started serving a session from one place of its transcript and never finished
/// (they crashed or were killed): after [`Attempts::LIMIT`] the request is retired instead of
/// taking every later worker down with it (DESIGN §10). In `.git/memdir/attempts/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempts {
    pub transcript: PathBuf,
    /// The cursor the runs started from.
    pub offset: u64,
    pub started: u32,
}

fn attempts_path(git_dir: &Path, session: &str) -> PathBuf {
    state_dir(git_dir)
        .join("attempts")
        .join(session_file(session))
}

impl Attempts {
    /// Runs that may start from one place before the request is retired.
    pub const LIMIT: u32 = 3;

    /// Count one more start of `session` from `offset` of `transcript`; returns how many runs
    /// started from there before and never finished.
    pub fn begin(
        git_dir: &Path,
        session: &str,
        transcript: &Path,
        offset: u64,
    ) -> Result<u32, ExtractError> {
        let path = attempts_path(git_dir, session);
        let before = load::<Attempts>(&path)
            .filter(|a| a.transcript == transcript && a.offset == offset)
            .map_or(0, |a| a.started);
        let attempts = Attempts {
            transcript: transcript.to_path_buf(),
            offset,
            started: before.saturating_add(1),
        };
        store(&path, "attempts", serde_json::to_vec(&attempts))?;
        Ok(before)
    }

    /// The run finished (well or not): nothing to count any more.
    pub fn end(git_dir: &Path, session: &str) -> Result<(), ExtractError> {
        Ok(crate::atomic::remove_if_exists(&attempts_path(
            git_dir, session,
        ))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_files_are_safe_and_distinct() {
        assert_eq!(
            session_file("c45af7b1-cb7c-4e51-93db-8cbb250a877a"),
            "c45af7b1-cb7c-4e51-93db-8cbb250a877a.json"
        );
        let a = session_file("../x");
        let b = session_file("/.x");
        assert!(!a.contains('/') && !a.starts_with('.'));
        assert_ne!(a, b);
    }

    #[test]
    fn newest_request_wins_and_done_keeps_a_newer_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut request = Request {
            session: "s1".into(),
            transcript: "/t.jsonl".into(),
            project: "/p".into(),
            event: "Stop".into(),
            nonce: "1".into(),
            every: 1,
            model: "haiku".into(),
            extractor: ExtractorSpec::default(),
        };
        request.stash(dir.path()).expect("stash");
        let (path, first) = Request::pending(dir.path()).remove(0);
        request.nonce = "2".into();
        request.stash(dir.path()).expect("stash");
        first.done(&path).expect("done");
        let pending = Request::pending(dir.path());
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].1.nonce, "2");
        pending[0].1.done(&pending[0].0).expect("done");
        assert!(Request::pending(dir.path()).is_empty());
    }
}
