//! Consolidation in the background (DESIGN §7), only when the person opts in
//! (`memdir.consolidate`): as Claude Code's own waits for enough sessions and hours, memdir
//! counts the sessions that end and, once enough did and enough time passed since the last
//! run, a detached worker prepares the branch; the next session starts with one line saying it
//! is ready. What it keeps, in `.git/memdir/consolidate.json` (memdir's own, never shared): when
//! it last ran, the sessions that ended since, and the consolidation waiting for the person.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::settings::ConsolidateEvery;

/// A consolidation prepared in the background, waiting for the person.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ready {
    pub branch: String,
    /// The branch's tip and the commit it was made on.
    pub commit: String,
    pub base: String,
    /// How many changes of each kind (`duplicates`, `expired`, …).
    pub changes: BTreeMap<String, usize>,
}

impl Ready {
    /// The one line a session starts with: what is ready, how to look at it and apply it.
    pub fn notice(&self) -> String {
        let what: Vec<String> = self
            .changes
            .iter()
            .map(|(kind, n)| format!("{n} {}", kind.replace('-', " ")))
            .collect();
        format!(
            "memdir: a consolidation of memory is ready on branch {} ({}): look at it with `memdir diff HEAD {}`, apply it with `memdir consolidate --apply` (`memdir undo` takes it back)",
            self.branch,
            what.join(", "),
            self.branch
        )
    }
}

/// What the background consolidation keeps between sessions.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Background {
    /// When it last ran (seconds since the epoch).
    #[serde(default)]
    pub last_run: Option<i64>,
    /// The sessions that ended since.
    #[serde(default)]
    pub sessions: Vec<String>,
    #[serde(default)]
    pub ready: Option<Ready>,
}

/// At most this many session ids are kept (a count past any setting's needs).
const MAX_SESSIONS: usize = 1000;

fn path(memory_dir: &Path) -> PathBuf {
    memory_dir
        .join(".git")
        .join("memdir")
        .join("consolidate.json")
}

impl Background {
    /// What is kept for `memory_dir`; nothing when the file is missing or unreadable (it is a
    /// cache of counts: losing it delays a run, never loses memory).
    pub fn load(memory_dir: &Path) -> Background {
        crate::input::read_regular(&path(memory_dir), 1 << 20)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    pub fn save(&self, memory_dir: &Path) -> Result<(), crate::atomic::FileError> {
        let text = serde_json::to_string_pretty(self).unwrap_or_default();
        crate::atomic::write(&path(memory_dir), text.as_bytes())
    }

    /// Count `session` as ended; whether a run is due at `now` (seconds) by `every`.
    pub fn session_ended(&mut self, session: &str, now: i64, every: ConsolidateEvery) -> bool {
        if !self.sessions.iter().any(|s| s == session) {
            self.sessions.push(session.to_string());
        }
        if self.sessions.len() > MAX_SESSIONS {
            self.sessions.remove(0);
        }
        let hours_passed = self
            .last_run
            .is_none_or(|last| now - last >= i64::from(every.hours) * 3600);
        self.sessions.len() >= every.sessions as usize && hours_passed
    }

    /// A run at `now` found `ready` (or nothing): the count starts again.
    pub fn ran(&mut self, now: i64, ready: Option<Ready>) {
        self.last_run = Some(now);
        self.sessions.clear();
        self.ready = ready;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_due_after_enough_sessions_and_hours() {
        let every = ConsolidateEvery {
            sessions: 2,
            hours: 24,
        };
        let mut state = Background::default();
        assert!(!state.session_ended("a", 0, every));
        assert!(
            !state.session_ended("a", 10, every),
            "the same session twice"
        );
        assert!(state.session_ended("b", 20, every));
        state.ran(20, None);
        assert!(!state.session_ended("c", 30, every));
        assert!(!state.session_ended("d", 40, every), "not a day yet");
        assert!(state.session_ended("e", 20 + 24 * 3600, every));
    }
}
