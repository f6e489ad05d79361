//! What recall adds to a session (DESIGN §12): at its start, the team memory index; at each
//! prompt, the few memories that clear the bar for it and were not already added in this
//! session, in two tiers (a body for what the prompt clearly needs, one line for what plausibly
//! helps, [`super::bar`]), within limits, as text the agent reads before the prompt, with why
//! each other candidate was left out; and the per-session record of what was added
//! (`.git/memdir/recall/<session>`, one memory per line: `name` or `team:name` for a body,
//! `line:name` for a line), so that each is added once each way (until the session's context is
//! cleared or compacted): a memory shown as a line can come with its body later.

use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::bar::{Bar, Short, Tier};
use super::{Corpus, Found, Scope};
use crate::memory::catalog::read_index_lossy;
use crate::memory::load::{load_index_for_context, shorten_str};
use crate::memory::store::{INDEX_FILE, StoreError};

/// What recall may add to one prompt (settings: `memdir.recall`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// At most this many memories in all,
    pub memories: usize,
    /// of which at most this many with their body,
    pub bodies: usize,
    /// in at most this many bytes of text;
    pub bytes: usize,
    /// each clearing this bar.
    pub bar: Bar,
}

/// At most this many memories are added for one prompt by default,
pub const MAX_MEMORIES: usize = 5;
/// at most this many of them with their body,
pub const MAX_BODIES: usize = 3;
/// and at most this many bytes of text in all.
pub const MAX_BYTES: usize = 4096;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memories: MAX_MEMORIES,
            bodies: MAX_BODIES,
            bytes: MAX_BYTES,
            bar: Bar::default(),
        }
    }
}

impl From<&crate::settings::RecallLimits> for Limits {
    /// The limits settings set, the defaults for the rest.
    fn from(set: &crate::settings::RecallLimits) -> Limits {
        let default = Limits::default();
        Limits {
            memories: set.memories.unwrap_or(default.memories),
            bodies: set.bodies.unwrap_or(default.bodies),
            bytes: default.bytes,
            bar: set.sensitivity.map_or(default.bar, Bar::new),
        }
    }
}

/// A session's record is read up to this size (it holds a few dozen short lines).
const MAX_RECORD_BYTES: u64 = 64 * 1024;
/// A line names a memory's description in at most this many characters.
const MAX_LINE_DESCRIPTION: usize = 200;

/// A memory as recall names it: `name`, or `team:name`.
pub fn label(scope: Scope, name: &str) -> String {
    match scope {
        Scope::Personal => name.to_string(),
        Scope::Team => format!("team:{name}"),
    }
}

/// What a session's record holds for a memory added in `tier`.
fn record_label(label: &str, tier: Tier) -> String {
    match tier {
        Tier::Body => label.to_string(),
        Tier::Line => format!("line:{label}"),
    }
}

/// Why a candidate was not added.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Left {
    /// It clears no tier.
    Short(Short),
    /// The session has it already, this way (a body, or a line and it clears only a line).
    InSession(Tier),
    /// The prompt has as many memories as it may.
    Full,
    /// It would take the text over the byte budget.
    OverBudget,
}

/// What became of one candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    Added(Tier),
    Left(Left),
}

/// A memory that matched the prompt, and what became of it.
#[derive(Debug, Clone)]
pub struct Candidate<'a> {
    pub found: Found<'a>,
    pub outcome: Outcome,
    /// It cleared the bar for a body and went in as a line: the bodies were full (`true`), or
    /// its body would have gone over the budget (`false`).
    pub body_declined: Option<bool>,
}

impl Candidate<'_> {
    /// Why it was left out, or went in as a line though it cleared the bar for a body, in a few
    /// words; `None` otherwise.
    pub fn reason(&self, limits: &Limits) -> Option<String> {
        let left = match self.outcome {
            Outcome::Left(left) => left,
            Outcome::Added(_) => {
                return self.body_declined.map(|full| {
                    if full {
                        format!(
                            "cleared the bar for a body; {} bodies were added",
                            limits.bodies
                        )
                    } else {
                        format!(
                            "cleared the bar for a body; its body would pass {} bytes",
                            limits.bytes
                        )
                    }
                });
            }
        };
        Some(match left {
            Left::Short(short) => limits.bar.explain(short, &self.found.grade),
            Left::InSession(Tier::Body) => "added to this session already, with its body".into(),
            Left::InSession(Tier::Line) => "added to this session already, as a line".into(),
            Left::Full => format!("{} memories were added", limits.memories),
            Left::OverBudget => format!("it would take the text over {} bytes", limits.bytes),
        })
    }
}

/// What recall adds to one prompt: every memory that matched it, best first, with its outcome;
/// the text added (`None` when nothing is); and the lines for the session's record.
#[derive(Debug, Clone)]
pub struct Recalled<'a> {
    pub candidates: Vec<Candidate<'a>>,
    pub text: Option<String>,
    pub record: Vec<String>,
}

const INTRODUCTION: &str = "memdir recalled these memories for this prompt: notes saved in earlier \
     sessions, which may be out of date; check one before relying on it.\n";
const LINES_INTRODUCTION: &str =
    "\nMaybe relevant too, one line each (read the file when it bears on the task):\n";

/// The memories of `corpus` to add for `prompt`, best first: those that clear the bar and are
/// not in `already` the same way, within `limits` (a memory whose body would go over the byte
/// budget or the bodies' limit goes in as a line; one that would go over as a line is left out,
/// and a smaller one after it may still fit). `age` says when a memory was saved ("47 days ago").
pub fn for_prompt<'a>(
    corpus: &'a Corpus,
    prompt: &str,
    already: &HashSet<String>,
    limits: &Limits,
    age: impl Fn(Scope, &str) -> Option<String>,
) -> Recalled<'a> {
    let mut bodies = String::new();
    let mut lines = String::new();
    let mut record = Vec::new();
    let (mut n_bodies, mut n_lines) = (0, 0);
    let size = |bodies: &str, lines: &str| {
        INTRODUCTION.len()
            + bodies.len()
            + if lines.is_empty() {
                0
            } else {
                LINES_INTRODUCTION.len() + lines.len()
            }
    };
    let candidates = corpus
        .search(prompt, corpus.len(), &limits.bar)
        .into_iter()
        .map(|found| {
            let label = label(found.scope, &found.memory.name);
            let mut body_declined = None;
            let outcome = match found.grade.tier {
                _ if already.contains(&label) => Outcome::Left(Left::InSession(Tier::Body)),
                Err(short) => Outcome::Left(Left::Short(short)),
                Ok(_) if n_bodies + n_lines >= limits.memories => Outcome::Left(Left::Full),
                Ok(tier) => {
                    let memory = found.memory;
                    let kind = memory
                        .memory_type
                        .map_or("untyped", crate::memory::taxonomy::MemoryType::as_str);
                    let saved = age(found.scope, &memory.name)
                        .map(|age| format!(", saved {age}"))
                        .unwrap_or_default();
                    let about = format!("{kind}, {}{saved}", found.scope.as_str());
                    let mut added = None;
                    if tier == Tier::Body {
                        let section =
                            format!("\n## {} ({about})\n{}\n", memory.name, memory.body.trim());
                        if n_bodies >= limits.bodies {
                            body_declined = Some(true);
                        } else if size(&bodies, &lines) + section.len() > limits.bytes {
                            body_declined = Some(false);
                        } else {
                            bodies.push_str(&section);
                            n_bodies += 1;
                            added = Some(Tier::Body);
                        }
                    }
                    match added {
                        Some(tier) => Outcome::Added(tier),
                        None if already.contains(&record_label(&label, Tier::Line)) => {
                            Outcome::Left(Left::InSession(Tier::Line))
                        }
                        None => {
                            let description = memory
                                .description
                                .as_deref()
                                .or(memory.title.as_deref())
                                .unwrap_or("(no description)")
                                .split_whitespace()
                                .collect::<Vec<_>>()
                                .join(" ");
                            let line = format!(
                                "- {} ({about}): {} — {}\n",
                                memory.name,
                                shorten_str(&description, MAX_LINE_DESCRIPTION),
                                memory.path.display()
                            );
                            let mut with = lines.clone();
                            with.push_str(&line);
                            if size(&bodies, &with) > limits.bytes {
                                Outcome::Left(Left::OverBudget)
                            } else {
                                lines = with;
                                n_lines += 1;
                                Outcome::Added(Tier::Line)
                            }
                        }
                    }
                }
            };
            if let Outcome::Added(tier) = outcome {
                record.push(record_label(&label, tier));
            }
            Candidate {
                found,
                outcome,
                body_declined: body_declined.filter(|_| outcome == Outcome::Added(Tier::Line)),
            }
        })
        .collect();
    let text = (n_bodies + n_lines > 0).then(|| {
        let mut text = String::from(INTRODUCTION);
        text.push_str(&bodies);
        if !lines.is_empty() {
            text.push_str(LINES_INTRODUCTION);
            text.push_str(&lines);
        }
        text
    });
    Recalled {
        candidates,
        text,
        record,
    }
}

/// Where a session's record lives; `None` for a session id that is not a plain file name
/// (Claude Code's are UUIDs): then nothing is recorded, and a memory may be added again.
pub fn record_path(git_dir: &Path, session: &str) -> Option<PathBuf> {
    let plain = !session.is_empty()
        && session.len() <= 100
        && session
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    plain.then(|| git_dir.join("memdir").join("recall").join(session))
}

/// The memories already added in a session (none when there is no record or it cannot be read:
/// recall then adds a memory again rather than fail the prompt).
fn already_added(record: &Path) -> HashSet<String> {
    crate::input::read_regular_with(record, MAX_RECORD_BYTES, crate::input::Follow::No)
        .map(|bytes| {
            String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// What a session's record calls the team index once it has been added.
pub const TEAM_INDEX_LABEL: &str = "team:MEMORY.md";

/// Whether Claude Code loads the team memory in `team` itself. Claude Code 2.1.332 loads team
/// memory only from the stores `CLAUDE_MEMORY_STORES` names (its value, `stores`: a JSON array
/// of paths, or of `{"path", "scope"}` objects whose scope is `team` unless it says `user`),
/// which a managed or remote environment sets; read from its own code, as its sessions here show
/// (without the variable, a session never carries a `team/MEMORY.md`). When one of those stores
/// is `team`, adding its index again would load it twice.
pub fn claude_code_loads(team: &Path, stores: Option<&str>) -> bool {
    let Some(stores) = stores.filter(|s| !s.trim().is_empty()) else {
        return false;
    };
    let Ok(serde_json::Value::Array(stores)) = serde_json::from_str(stores) else {
        return false;
    };
    let same = |path: &str| {
        let path = Path::new(path);
        path == team
            || match (path.canonicalize(), team.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            }
    };
    stores.iter().any(|store| match store {
        serde_json::Value::String(path) => same(path),
        serde_json::Value::Object(store) => {
            store
                .get("scope")
                .and_then(|s| s.as_str())
                .unwrap_or("team")
                == "team"
                && store.get("path").and_then(|p| p.as_str()).is_some_and(same)
        }
        _ => false,
    })
}

/// The team memory index (`<memory dir>/team/MEMORY.md`) as SessionStart adds it: loaded as
/// Claude Code loads an index (its first 200 lines and 25,000 characters, and its warning),
/// under a line saying what it is; `None` when there is no team memory or its index is empty.
pub fn team_index(memory_dir: &Path) -> Result<Option<String>, StoreError> {
    let team = crate::paths::team_dir(memory_dir);
    let raw = read_index_lossy(&team, &mut Vec::new())?;
    if raw.trim().is_empty() {
        return Ok(None);
    }
    Ok(Some(format!(
        "memdir: your team's shared memory index ({}; the topic files are beside it: read one \
         when an entry bears on the task):\n\n{}",
        team.join(INDEX_FILE).display(),
        load_index_for_context(&raw)
    )))
}

/// Forget what a session's record says was added: its context was cleared or compacted, and
/// what was added may be gone from it.
pub fn forget(record: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(record) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// A session's record untouched for this long is removed when another session starts one.
const RECORD_KEPT_FOR: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);

/// A session's record held by one hook, from reading what it says was added to appending what
/// the hook adds. Claude Code runs the hooks of one event at once (the plugin's and those of
/// `hooks install`, when a person has both): under the lock, the second reads what the first
/// added, and a memory is not added twice.
pub struct Held {
    path: PathBuf,
    /// The record, open and locked; `None` when it could not be (then nothing is held, and a
    /// memory may be added again).
    file: Option<File>,
    /// What the record says was added already.
    pub already: HashSet<String>,
}

/// How long a hook waits for another one holding the same record before going on without it.
const HOLD_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Hold a session's record (made when missing; a session's first record removes those of
/// sessions not heard from in 30 days, so that the folder does not grow with every session).
pub fn hold(record: &Path) -> Held {
    let file = open_locked(record).ok();
    Held {
        path: record.to_path_buf(),
        file,
        already: already_added(record),
    }
}

fn open_locked(record: &Path) -> std::io::Result<File> {
    if let Some(dir) = record.parent() {
        std::fs::create_dir_all(dir)?;
        if std::fs::symlink_metadata(record).is_err() {
            prune(dir);
        }
    }
    let file = crate::input::open_append(record, true)?;
    let deadline = std::time::Instant::now() + HOLD_WAIT;
    crate::input::lock_until(file, Some(deadline))?
        .ok_or_else(|| std::io::Error::other("another hook holds it"))
}

impl Held {
    /// Append `labels` to the record (it is released when `self` goes).
    pub fn add(&mut self, labels: &[String]) -> std::io::Result<()> {
        let file = match &mut self.file {
            Some(file) => file,
            None => self
                .file
                .insert(crate::input::open_append(&self.path, true)?),
        };
        let mut lines = String::new();
        for label in labels {
            lines.push_str(label);
            lines.push('\n');
        }
        file.write_all(lines.as_bytes())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Remove the records in `dir` not written for [`RECORD_KEPT_FOR`] (best effort: a record that
/// cannot be removed is left).
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > RECORD_KEPT_FOR));
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_session_id_gets_a_record() {
        let git = Path::new("/m/.git");
        assert_eq!(
            record_path(git, "f963f83a-cb94-426d-8d53-023945f76728"),
            Some(PathBuf::from(
                "/m/.git/memdir/recall/f963f83a-cb94-426d-8d53-023945f76728"
            ))
        );
        for hostile in [
            "",
            "../../etc/passwd",
            "a/b",
            ".",
            "..",
            "x y",
            &"a".repeat(101),
        ] {
            assert_eq!(record_path(git, hostile), None, "{hostile:?}");
        }
    }
}
