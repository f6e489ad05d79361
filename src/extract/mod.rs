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
use crate::memory::store::StoreError;
use crate::memory::taxonomy::MemoryType;

pub mod agent;
pub mod apply;
pub mod builtin;
mod error;
mod run;
pub mod sessions;
pub mod state;
pub mod transcript;
pub mod worker;

pub use error::{AgentFailure, BadResponse, ExtractError};
pub use run::{redo, run};
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
    /// Asked as an update of `not_updated`, saved as a memory of its own: it would have replaced
    /// a different fact (DESIGN §6).
    #[serde(rename = "saved")]
    SavedApart {
        name: String,
        r#type: String,
        description: String,
        not_updated: String,
        why: String,
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
    /// One line for people; in a dry run, what would be done ("would save …").
    pub fn line_as(&self, dry_run: bool) -> String {
        let line = self.line();
        if !dry_run {
            return line;
        }
        for (done, would) in [
            ("saved ", "would save "),
            ("updated ", "would update "),
            ("removed ", "would remove "),
            ("refused ", "would refuse "),
        ] {
            if let Some(rest) = line.strip_prefix(done) {
                return format!("{would}{rest}");
            }
        }
        line
    }

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
            Outcome::SavedApart {
                name,
                r#type,
                description,
                not_updated,
                why,
            } => format!(
                "saved {name} ({type}): {description} (a memory of its own, not an update of \
                 {not_updated}: {why})"
            ),
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
            | Outcome::SavedApart { name, .. }
            | Outcome::Unchanged { name }
            | Outcome::Removed { name } => Some(name),
            Outcome::Refused { .. } => None,
        }
    }

    /// Whether it changed the memory dir (a memory saved, updated or removed).
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            Outcome::Saved { .. }
                | Outcome::Updated { .. }
                | Outcome::SavedApart { .. }
                | Outcome::Removed { .. }
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
    /// Offline, deterministic, free: the precise fallback.
    Builtin,
    /// The model only: a run fails when no model answers (its range is tried again next time).
    Agent(agent::AgentConfig),
    /// The model when one answers, else the builtin extractor, decided per run; a range the
    /// builtin did for want of a model is marked for a later agent run ([`redo`]).
    Auto(agent::AgentConfig),
}

impl Extractor {
    /// Its name on the command line: `builtin`, `agent`, `auto`.
    pub fn name(&self) -> &'static str {
        match self {
            Extractor::Builtin => "builtin",
            Extractor::Agent(_) => "agent",
            Extractor::Auto(_) => "auto",
        }
    }

    /// As a queued request keeps it.
    pub fn spec(&self) -> ExtractorSpec {
        let (agent_cmd, agent_timeout) = match self {
            Extractor::Agent(config) | Extractor::Auto(config) => (
                match &config.model {
                    agent::ModelChoice::Command(cmd) => Some(cmd.clone()),
                    agent::ModelChoice::ClaudeCode => None,
                },
                config.turn_timeout.as_secs(),
            ),
            Extractor::Builtin => (None, ExtractorSpec::default().agent_timeout),
        };
        ExtractorSpec {
            name: self.name().to_string(),
            agent_cmd,
            agent_timeout,
        }
    }
}

/// An extractor as a queued request keeps it (the hook's `--extractor`, `--agent-cmd` and
/// `--agent-timeout`): whoever serves the request, the worker or `--drain`, extracts with it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExtractorSpec {
    pub name: String,
    #[serde(default)]
    pub agent_cmd: Option<String>,
    pub agent_timeout: u64,
}

impl Default for ExtractorSpec {
    /// `auto` with Claude Code and the default time limit (a request stashed before requests
    /// named their extractor).
    fn default() -> Self {
        ExtractorSpec {
            name: "auto".into(),
            agent_cmd: None,
            agent_timeout: 120,
        }
    }
}

impl ExtractorSpec {
    pub fn extractor(&self) -> Extractor {
        let config = || agent::AgentConfig {
            model: match &self.agent_cmd {
                Some(cmd) => agent::ModelChoice::Command(cmd.clone()),
                None => agent::ModelChoice::ClaudeCode,
            },
            turn_timeout: std::time::Duration::from_secs(self.agent_timeout.max(1)),
            max_turns: agent::MAX_TURNS,
        };
        match self.name.as_str() {
            "builtin" => Extractor::Builtin,
            "agent" => Extractor::Agent(config()),
            _ => Extractor::Auto(config()),
        }
    }
}

/// Why a run was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// `extract --transcript` or `--all`: the person asked; everything now.
    Foreground,
    /// A Stop hook's request: a model's batch waits for more (SessionEnd, PreCompact or its
    /// limits); with `throttled` (the worker's first pass) the builtin extractor's throttle
    /// applies too.
    Stop { throttled: bool },
    /// SessionEnd or PreCompact: everything now.
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
    /// The builtin extractor's throttle (`memdir.extractEveryTurns`).
    pub every: u32,
    pub extractor: Extractor,
    /// The model Claude Code runs (`memdir.extract.model`).
    pub claude_model: String,
    /// Say what would change, change nothing (the cursor included).
    pub dry_run: bool,
}

/// The gate's account of a range: its prompts, and how many it let through to the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct GateCount {
    pub prompts: usize,
    pub passed: usize,
}

/// What one run did, for `extract`'s output.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Report {
    /// The run: the session and where its range starts (`<session>@<from>`). One run's commits
    /// are one model request's answer, or one builtin pass.
    pub run: String,
    pub session: String,
    pub transcript: PathBuf,
    pub from: u64,
    pub to: u64,
    /// The person's prompts in the range.
    pub turns: usize,
    /// Which extractor decided (`builtin` or `agent`); `null` when none ran (the range was
    /// skipped, is waiting in a batch, or the gate found nothing for a model).
    pub extractor: Option<&'static str>,
    /// The model that answered (`claude (haiku)`, `the agent command`).
    pub model: Option<String>,
    /// Model calls made.
    pub model_calls: u32,
    /// What they cost in US dollars, when the model says.
    pub cost_usd: Option<f64>,
    /// With `auto`: why the builtin extractor ran instead of a model.
    pub fallback: Option<String>,
    /// The range is marked for a later `extract --all --extractor agent`.
    pub marked_for_redo: bool,
    /// The gate's account, when a model was to be asked.
    pub gate: Option<GateCount>,
    /// Why the range was not extracted, when it was not.
    pub skipped: Option<String>,
    pub outcomes: Vec<Outcome>,
    /// The builtin extractor's account of every message of the range (the agent extractor
    /// answers for the range as a whole: empty).
    pub messages: Vec<Message>,
    /// Commits that adopted what the agent wrote itself.
    pub adopted: Vec<String>,
    /// Every commit the run made, oldest first (adoptions, saves, removals): what `--json`
    /// shows as the run's commits, read from `memory_dir`.
    #[serde(skip)]
    pub commits: Vec<gix::ObjectId>,
    #[serde(skip)]
    pub memory_dir: PathBuf,
    /// Lines of the range that were not JSON (skipped).
    pub unreadable_lines: usize,
    /// Lines of the range over [`transcript::MAX_LINE_BYTES`] (skipped unread).
    pub oversized_lines: usize,
    pub cursor_advanced: bool,
    /// Nothing was changed: what the outcomes say would have been done.
    pub dry_run: bool,
}

impl Report {
    /// Who extracted the range, in words, for people and the worker log: `agent: claude (haiku),
    /// 1 call ($0.0021); the gate passed 2 of 5 prompts`, `builtin (no model: …); marked for …`.
    /// `None` when nothing was to be extracted.
    pub fn extractor_line(&self) -> Option<String> {
        let mut line = match (self.extractor, &self.model) {
            (Some(extractor), Some(model)) => format!(
                "{extractor}: {model}, {} call(s){}",
                self.model_calls,
                self.cost_usd
                    .map(|c| format!(" (${c:.4})"))
                    .unwrap_or_default()
            ),
            (Some(extractor), None) => extractor.to_string(),
            (None, _) if self.gate.is_some_and(|g| g.passed == 0) => {
                "none: nothing worth a model call".to_string()
            }
            (None, _) => return None,
        };
        if let Some(why) = &self.fallback {
            line.push_str(&format!(" (no model: {why})"));
        }
        if let Some(gate) = self.gate {
            line.push_str(&format!(
                "; the gate passed {} of {} prompt(s)",
                gate.passed, gate.prompts
            ));
        }
        if self.marked_for_redo {
            line.push_str("; marked for `memdir extract --all --extractor agent`");
        }
        Some(line)
    }
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
