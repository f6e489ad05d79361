//! Extraction (DESIGN §6): read the new part of a session's transcript, decide what is worth
//! remembering, and save it through the store's two-step save.
//!
//! One run serves one session: from its cursor to the end of the transcript. The range is
//! skipped (and the cursor advanced) when the main agent wrote memory itself in it; it waits
//! (cursor kept) while the throttle says so. Otherwise an extractor turns the range into
//! [`Action`]s, every one is checked (name, type, size, secrets) and carried out, and only then
//! does the cursor move: a run that fails is retried from the old cursor, and since saves are by
//! name a retry updates what the failed run saved instead of duplicating it.

use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::memory::catalog::list_memories;
use crate::memory::store::{INDEX_FILE, Op, SaveRequest, Store, StoreError};
use crate::memory::taxonomy::MemoryType;

pub mod agent;
pub mod builtin;
mod error;
pub mod sessions;
pub mod state;
pub mod transcript;
pub mod worker;

pub use error::{AgentFailure, BadResponse, ExtractError};
use state::Cursor;
use transcript::{Reader, Record, Turn, Turns};

/// A topic file over this is refused: one fact per file (§3).
pub const MAX_BODY_BYTES: usize = 4096;

/// A memory an extractor wants saved (or updated, when the name exists).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub name: String,
    pub memory_type: MemoryType,
    pub description: String,
    pub title: Option<String>,
    pub body: String,
}

/// What an extractor asks memdir to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Save(Draft),
    Delete { name: String },
}

/// What became of one action.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum Outcome {
    Saved {
        name: String,
        r#type: String,
        description: String,
    },
    Updated {
        name: String,
        r#type: String,
        description: String,
    },
    Unchanged {
        name: String,
    },
    Removed {
        name: String,
    },
    Refused {
        what: String,
        why: String,
    },
}

impl Outcome {
    /// One line for people.
    pub fn line(&self) -> String {
        match self {
            Outcome::Saved {
                name,
                r#type,
                description,
            } => format!("saved {name} ({type}): {description}"),
            Outcome::Updated {
                name,
                r#type,
                description,
            } => format!("updated {name} ({type}): {description}"),
            Outcome::Unchanged { name } => format!("unchanged {name} (already saved)"),
            Outcome::Removed { name } => format!("removed {name}"),
            Outcome::Refused { what, why } => format!("refused {what}: {why}"),
        }
    }

    /// The memory it is about, unless it was refused.
    pub fn memory(&self) -> Option<&str> {
        match self {
            Outcome::Saved { name, .. }
            | Outcome::Updated { name, .. }
            | Outcome::Unchanged { name }
            | Outcome::Removed { name } => Some(name),
            Outcome::Refused { .. } => None,
        }
    }

    /// Whether it changed the memory dir (a memory saved, updated or removed).
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            Outcome::Saved { .. } | Outcome::Updated { .. } | Outcome::Removed { .. }
        )
    }
}

/// Why nothing of a message was kept, from the weakest reason to the strongest: a message is
/// reported with the strongest reason any of its sentences gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unsaved {
    /// No cue of a memory: chat, a task, an answer.
    NothingToRemember,
    Question,
    Hypothetical,
    /// An instruction for this task only ("for now", "today", "this PR").
    OneOff,
    /// What the code or its history says (a code fact, a merge, a revert).
    Derivable,
    /// The store refused what was drafted (see the outcomes).
    Refused,
    /// It holds a secret: nothing of it is kept.
    Secret,
}

impl Unsaved {
    /// The reason in words.
    pub fn describe(self) -> &'static str {
        match self {
            Unsaved::NothingToRemember => "nothing worth remembering",
            Unsaved::Question => "a question",
            Unsaved::Hypothetical => "a hypothetical",
            Unsaved::OneOff => "a one-off instruction",
            Unsaved::Derivable => "derivable from the code or its history",
            Unsaved::Refused => "what was drafted from it was refused",
            Unsaved::Secret => "it holds a secret",
        }
    }
}

/// One of the person's messages in the range, accounted for: what it saved, or why nothing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Message {
    /// Offset just after its record in the transcript.
    pub end: u64,
    /// Its first words (at most 80 characters; a line holding a secret left out).
    pub excerpt: String,
    /// The memories it saved, updated, found already saved or removed.
    pub memories: Vec<String>,
    /// Why nothing was kept of it, when nothing was.
    pub unsaved: Option<Unsaved>,
}

/// The longest excerpt of a message in a report.
const EXCERPT_CHARS: usize = 80;

/// A message's first words for a report, never a line of it that holds a secret.
fn excerpt(prompt: &str) -> String {
    let blanked = crate::secrets::blank_secret_lines(prompt);
    let flat = blanked.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut excerpt: String = flat.chars().take(EXCERPT_CHARS).collect();
    if excerpt.len() < flat.len() {
        excerpt.push('…');
    }
    excerpt
}

/// Which extractor turns a range into actions.
#[derive(Debug, Clone)]
pub enum Extractor {
    Builtin,
    Agent(agent::AgentConfig),
}

/// Why a run was asked for: the throttle applies only to a hook's first request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// `extract --transcript`: the person asked; no throttle.
    Foreground,
    /// A Stop hook's request, served by the worker's first pass (throttled).
    Hook,
    /// SessionEnd / PreCompact, or a trailing run for a request that arrived mid-run.
    Final,
}

/// One session's extraction job.
#[derive(Debug, Clone)]
pub struct Job {
    pub session: String,
    pub transcript: PathBuf,
    pub project: PathBuf,
    pub memory_dir: PathBuf,
    pub trigger: Trigger,
    pub every: u32,
    pub extractor: Extractor,
}

/// What one run did, for `extract`'s output.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Report {
    pub session: String,
    pub transcript: PathBuf,
    pub from: u64,
    pub to: u64,
    /// The person's prompts in the range.
    pub turns: usize,
    /// Why the range was not extracted, when it was not.
    pub skipped: Option<String>,
    pub outcomes: Vec<Outcome>,
    /// The builtin extractor's account of every message of the range (the agent extractor
    /// answers for the range as a whole: empty).
    pub messages: Vec<Message>,
    /// Commits that adopted what the agent wrote itself.
    pub adopted: Vec<String>,
    /// Lines of the range that were not JSON (skipped).
    pub unreadable_lines: usize,
    /// Lines of the range over [`transcript::MAX_LINE_BYTES`] (skipped unread).
    pub oversized_lines: usize,
    pub cursor_advanced: bool,
}

/// The new part of a transcript, read once.
pub struct Range {
    pub turns: Vec<Turn>,
    /// Files the main agent wrote inside the memory dir, and its calls of memdir's MCP tools
    /// that write.
    pub memory_writes: Vec<String>,
    pub end: u64,
    pub last_record: Option<String>,
    pub unreadable: usize,
    pub oversized: usize,
}

/// Open a session transcript: a regular file, or an error that says what is there instead (a
/// usage error when a retry cannot change it: nothing there, a FIFO, a device, a directory).
pub fn open_transcript(transcript: &Path) -> Result<File, ExtractError> {
    crate::input::open_regular(transcript, u64::MAX).map_err(|e| {
        if e.is_not_found() {
            ExtractError::TranscriptMissing(transcript.to_path_buf())
        } else if e.is_refusal() {
            ExtractError::TranscriptRefused(e)
        } else {
            ExtractError::TranscriptUnopened(e)
        }
    })
}

/// An error reading `transcript` once open.
fn reading(transcript: &Path) -> impl Fn(std::io::Error) -> ExtractError + Copy + '_ {
    move |source| ExtractError::ReadTranscript {
        path: transcript.to_path_buf(),
        source,
    }
}

/// Read a transcript (`file`, opened by [`open_transcript`]) from `offset` on, keeping only the
/// person's prompts (with the reply before each) and the agent's writes into `memory_dir`.
pub fn read_range(
    transcript: &Path,
    mut file: File,
    offset: u64,
    memory_dir: &Path,
) -> Result<Range, ExtractError> {
    let io = reading(transcript);
    file.seek(SeekFrom::Start(offset)).map_err(io)?;
    let mut reader = Reader::new(BufReader::with_capacity(256 * 1024, file), offset);
    let memory_dirs = comparable_dirs(memory_dir);
    let inside = |path: &Path| memory_dirs.iter().any(|dir| under(dir, path));
    let mut turns = Turns::default();
    let mut range = Range {
        turns: Vec::new(),
        memory_writes: Vec::new(),
        end: offset,
        last_record: None,
        unreadable: 0,
        oversized: 0,
    };
    while let Some(located) = reader.next_record().map_err(io)? {
        if let Record::Assistant { tool_uses, .. } = &located.record {
            for tool_use in tool_uses {
                match tool_use.written_path() {
                    Some(path) if inside(Path::new(path)) => {
                        range.memory_writes.push(path.to_string());
                    }
                    // A save through memdir's MCP server is already a commit: extracting the same
                    // turn again would save the memory twice.
                    _ if tool_use.writes_memory_through_mcp() => {
                        range.memory_writes.push(tool_use.name.clone());
                    }
                    _ => {}
                }
            }
        }
        if let Some(turn) = turns.push(&located) {
            range.turns.push(turn);
        }
        if located.uuid.is_some() {
            range.last_record = located.uuid;
        }
    }
    range.end = reader.offset();
    range.unreadable = reader.unreadable;
    range.oversized = reader.oversized;
    Ok(range)
}

/// The memory dir as written and as resolved (a transcript names it the way the agent did).
fn comparable_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![crate::paths::normalize(dir).unwrap_or_else(|| dir.to_path_buf())];
    if let Ok(real) = dir.canonicalize()
        && !dirs.contains(&real)
    {
        dirs.push(real);
    }
    dirs
}

fn under(dir: &Path, path: &Path) -> bool {
    path.is_absolute()
        && crate::paths::normalize(path).is_some_and(|p| p.starts_with(dir) && p != dir)
}

/// Whether `path` (absolute) names something inside `memory_dir`, as written or resolved.
pub fn is_inside(memory_dir: &Path, path: &Path) -> bool {
    comparable_dirs(memory_dir)
        .iter()
        .any(|dir| under(dir, path))
}

/// The `cwd` and `sessionId` of the first records that have them: the session's project and id.
pub fn transcript_origin(
    transcript: &Path,
) -> Result<(Option<PathBuf>, Option<String>), ExtractError> {
    let io = reading(transcript);
    let file = open_transcript(transcript)?;
    let mut reader = Reader::new(BufReader::new(file), 0);
    let (mut cwd, mut session) = (None, None);
    for _ in 0..200 {
        let Some(located) = reader.next_record().map_err(io)? else {
            break;
        };
        cwd = cwd.or(located.cwd.map(PathBuf::from));
        session = session.or(located.session);
        if cwd.is_some() && session.is_some() {
            break;
        }
    }
    Ok((cwd, session))
}

/// A memory as extractors see it.
#[derive(Debug, Clone)]
pub struct Existing {
    pub name: String,
    pub memory_type: Option<MemoryType>,
    pub description: String,
    pub body: String,
}

/// The memories in the dir now, with their bodies (unreadable ones are left out: a symlink out
/// of the memory dir, a FIFO, malformed frontmatter).
pub fn existing_memories(dir: &Path) -> Result<Vec<Existing>, StoreError> {
    Ok(list_memories(dir)?
        .memories
        .into_iter()
        .map(|memory| Existing {
            name: memory.name,
            memory_type: memory.memory_type,
            description: memory.description.unwrap_or_default(),
            body: memory.body,
        })
        .collect())
}

/// `MEMORY.md` as an extractor is shown it: empty when it is missing or not a regular file (a
/// symlink an agent planted is never followed), bad UTF-8 replaced.
pub fn index_text(dir: &Path) -> Result<String, StoreError> {
    if planted(dir, INDEX_FILE).is_some() {
        return Ok(String::new());
    }
    crate::memory::catalog::read_index_lossy(dir, &mut Vec::new())
}

/// Why `file` of the memory dir, when it is there but is not a regular file: a symlink (to
/// `/etc/passwd`, `~/.bashrc`), a FIFO, a directory. An agent can plant one; memdir neither reads
/// nor writes through it (DESIGN §10).
fn planted(dir: &Path, file: &str) -> Option<String> {
    let meta = std::fs::symlink_metadata(dir.join(file)).ok()?;
    (!meta.is_file()).then(|| {
        format!(
            "{file} in the memory dir is not a regular file ({}); memdir neither reads nor writes through it",
            crate::input::describe_kind(&meta)
        )
    })
}

/// Check an action and carry it out through the store; a refusal is an outcome, not an error.
pub fn apply(
    store: &mut Store,
    action: &Action,
    session: Option<&str>,
) -> Result<Outcome, StoreError> {
    match action {
        Action::Save(draft) => {
            let request = SaveRequest {
                name: &draft.name,
                memory_type: draft.memory_type,
                description: &draft.description,
                title: draft.title.as_deref(),
                body: &draft.body,
                session,
            };
            if let Some(kind) = request.secret_kind() {
                // Not even the name is echoed: it may be the secret.
                return Ok(Outcome::Refused {
                    what: format!("a {} memory", draft.memory_type),
                    why: format!("it holds {kind}; secrets are never saved"),
                });
            }
            let what = format!("save {}", draft.name);
            if draft.body.len() > MAX_BODY_BYTES {
                return Ok(Outcome::Refused {
                    what,
                    why: format!(
                        "the body is {} bytes; a memory holds one fact, under {MAX_BODY_BYTES}",
                        draft.body.len()
                    ),
                });
            }
            if let Err(e) = request.validate() {
                return Ok(Outcome::Refused {
                    what,
                    why: e.to_string(),
                });
            }
            if let Some(why) = planted(&store.dir, &format!("{}.md", draft.name))
                .or_else(|| planted(&store.dir, INDEX_FILE))
            {
                return Ok(Outcome::Refused { what, why });
            }
            let saved = store.save(&request)?;
            let r#type = draft.memory_type.as_str().to_string();
            let name = draft.name.clone();
            Ok(match (saved.commit, saved.op) {
                (None, _) => Outcome::Unchanged { name },
                (Some(_), Op::Update) => Outcome::Updated {
                    name,
                    r#type,
                    description: draft.description.clone(),
                },
                (Some(_), _) => Outcome::Saved {
                    name,
                    r#type,
                    description: draft.description.clone(),
                },
            })
        }
        Action::Delete { name } => {
            let what = format!("delete {name}");
            if let Err(e) = crate::memory::taxonomy::validate_name(name) {
                return Ok(Outcome::Refused {
                    what,
                    why: e.to_string(),
                });
            }
            if let Some(why) = planted(&store.dir, &format!("{name}.md"))
                .or_else(|| planted(&store.dir, INDEX_FILE))
            {
                return Ok(Outcome::Refused { what, why });
            }
            if !store.dir.join(format!("{name}.md")).is_file() {
                return Ok(Outcome::Refused {
                    what,
                    why: "there is no such memory".into(),
                });
            }
            store.remove(name, session)?;
            Ok(Outcome::Removed { name: name.clone() })
        }
    }
}

/// Every message of a range with the memories it came to, or why it came to none.
fn account(turns: &[Turn], extraction: &builtin::Extraction, outcomes: &[Outcome]) -> Vec<Message> {
    let outcome_of = |name: &str| {
        extraction
            .actions
            .iter()
            .zip(outcomes)
            .rev()
            .find(|(action, _)| match action {
                Action::Save(draft) => draft.name == name,
                Action::Delete { name: deleted } => deleted == name,
            })
            .map(|(_, outcome)| outcome)
    };
    turns
        .iter()
        .enumerate()
        .map(|(t, turn)| {
            let touched = extraction.touched.get(t).map_or(&[][..], Vec::as_slice);
            let memories: Vec<String> = touched
                .iter()
                .filter(|name| outcome_of(name).is_some_and(|o| o.memory().is_some()))
                .cloned()
                .collect();
            let refused = touched
                .iter()
                .any(|name| outcome_of(name).is_some_and(|o| o.memory().is_none()));
            let unsaved = memories.is_empty().then(|| {
                if refused {
                    Unsaved::Refused
                } else {
                    extraction
                        .unsaved
                        .get(t)
                        .copied()
                        .flatten()
                        .unwrap_or(Unsaved::NothingToRemember)
                }
            });
            Message {
                end: turn.end,
                excerpt: excerpt(&turn.prompt),
                memories,
                unsaved,
            }
        })
        .collect()
}

/// Run one session's extraction, from its cursor to the end of its transcript.
pub fn run(job: &Job) -> Result<Report, ExtractError> {
    crate::fault::delay();
    // Creates the repository on first use; the store lock is taken per mutation below.
    let git_dir = Store::open(&job.memory_dir)?.repo.git_dir().to_path_buf();
    let mut cursor = Cursor::load(&git_dir, &job.session);
    let file = open_transcript(&job.transcript)?;
    let len = file.metadata().map_err(reading(&job.transcript))?.len();
    if cursor.offset > len
        || cursor
            .transcript
            .as_ref()
            .is_some_and(|t| *t != job.transcript)
    {
        // The transcript was replaced: start it over (saves by name do not duplicate).
        cursor = Cursor::default();
    }
    let range = read_range(&job.transcript, file, cursor.offset, &job.memory_dir)?;
    let mut report = Report {
        session: job.session.clone(),
        transcript: job.transcript.clone(),
        from: cursor.offset,
        to: range.end,
        turns: range.turns.len(),
        unreadable_lines: range.unreadable,
        oversized_lines: range.oversized,
        ..Report::default()
    };
    let session = Some(job.session.as_str());
    if !range.memory_writes.is_empty() {
        let adoption = Store::open(&job.memory_dir)?.adopt(session)?;
        report.adopted = adoption.commits.iter().map(|(_, s)| s.clone()).collect();
        report.skipped = Some(format!(
            "the agent wrote memory itself in this range ({}); adopted its writes instead",
            range.memory_writes.len()
        ));
    } else if job.trigger == Trigger::Hook && (range.turns.len() as u64) < u64::from(job.every) {
        report.skipped = Some(format!(
            "throttled: {} of {} turns since the last extraction",
            range.turns.len(),
            job.every
        ));
        return Ok(report);
    } else if !range.turns.is_empty() {
        // The run's saves and removals are one operation: `undo` takes the whole run back.
        let _operation = crate::repo::operation::begin(
            &job.memory_dir,
            "extract",
            &format!("session {}", job.session),
            session,
        );
        report.outcomes = match &job.extractor {
            Extractor::Builtin => {
                let existing = existing_memories(&job.memory_dir)?;
                let extraction = builtin::extract(&range.turns, &existing);
                let mut store = Store::open(&job.memory_dir)?;
                let mut outcomes = Vec::new();
                for action in &extraction.actions {
                    outcomes.push(apply(&mut store, action, session)?);
                    crate::fault::point("extract-mid-run");
                }
                report.messages = account(&range.turns, &extraction, &outcomes);
                outcomes
            }
            Extractor::Agent(config) => {
                agent::run(config, job, &range.turns, &index_text(&job.memory_dir)?)?
            }
        };
    }
    cursor = Cursor {
        offset: range.end,
        record: range.last_record.or(cursor.record),
        transcript: Some(job.transcript.clone()),
    };
    cursor.store(&git_dir, &job.session)?;
    report.cursor_advanced = report.to != report.from;
    Ok(report)
}
