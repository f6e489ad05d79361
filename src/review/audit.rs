//! The audit behind `memdir review` (DESIGN §7): every memory of the auto and team layers, and
//! every instruction file Claude Code loads, each given exactly one proposal.
//!
//! Clean-up comes first, in this order: a secret, a stale path or symbol (`verify`), a
//! time-bound memory whose date passed, one a newer memory contradicts, a relative date, a
//! duplicate (of another memory — the same fact, identifiers agreeing — or of what an
//! instruction file already says), content derivable from the code, an index line over the cap.
//! The memories are compared as consolidation compares them ([`crate::review::consolidate`]),
//! within each layer. A memory with any of these is never proposed for promotion. Every
//! proposal that calls for an action carries the command that carries it out. The rest: who the person is and how they like to work goes to their
//! personal instructions; a standing rule for this project to its `CLAUDE.md`; shared knowledge
//! (pointers, owners, decisions with reasons) to team memory; what cannot be placed is ambiguous;
//! what is fine where it is needs no action.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;

use crate::memory::catalog::{FileProblem, list_memories, read_index_lossy};
use crate::memory::dates::relative_phrase;
use crate::memory::index::{Index, MAX_LINE_UNITS};
use crate::memory::statement::{Fingerprint, is_derivable};
use crate::memory::store::{INDEX_FILE, StoreError};
use crate::memory::taxonomy::{MemoryType, conflict_copy_of};
use crate::review::consolidate;
use crate::review::verify::{Status, Subject, VerifyError, verify};

/// Why an audit could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// A layer's memories or index could not be listed.
    #[error(transparent)]
    Memories(#[from] StoreError),
    /// The memories and instruction files could not be checked against the project.
    #[error(transparent)]
    Verify(#[from] VerifyError),
}

impl AuditError {
    /// Whether the caller's input is at fault (exit 2), not the machine (exit 1).
    pub fn is_invalid_input(&self) -> bool {
        match self {
            AuditError::Memories(e) => e.is_invalid_input(),
            AuditError::Verify(e) => e.is_invalid_input(),
        }
    }
}

/// The proposal groups, in the order the report shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Group {
    PromoteProject,
    PromotePersonal,
    PromoteTeam,
    CleanUp,
    Ambiguous,
    NoAction,
}

impl Group {
    pub fn heading(self) -> &'static str {
        match self {
            Group::PromoteProject => "Promote to project conventions",
            Group::PromotePersonal => "Promote to personal instructions",
            Group::PromoteTeam => "Promote to team memory",
            Group::CleanUp => "Clean up",
            Group::Ambiguous => "Ambiguous",
            Group::NoAction => "No action",
        }
    }

    /// The `memdir promote --to` value, for the promotion groups.
    pub fn promote_to(self) -> Option<&'static str> {
        match self {
            Group::PromoteProject => Some("project"),
            Group::PromotePersonal => Some("personal"),
            Group::PromoteTeam => Some("team"),
            _ => None,
        }
    }
}

/// What needs cleaning up, in priority order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CleanUp {
    Secret,
    /// The other side of a conflict a sync kept, to finish with `resolve`.
    Conflict,
    Stale,
    Expired,
    Contradicted,
    RelativeDate,
    Duplicate,
    Derivable,
    LongIndexLine,
}

impl CleanUp {
    pub fn name(self) -> &'static str {
        match self {
            CleanUp::Secret => "secret",
            CleanUp::Conflict => "conflict",
            CleanUp::Stale => "stale",
            CleanUp::Expired => "expired",
            CleanUp::Contradicted => "contradicted",
            CleanUp::RelativeDate => "relative date",
            CleanUp::Duplicate => "duplicate",
            CleanUp::Derivable => "derivable",
            CleanUp::LongIndexLine => "long index line",
        }
    }
}

/// Where the audited thing lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    AutoMemory,
    TeamMemory,
    Instructions,
}

/// One proposal: about one memory, or one instruction file.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Proposal {
    pub group: Group,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<CleanUp>,
    pub layer: Layer,
    /// The memory's name (memory layers): `name` in JSON, as in every command's.
    #[serde(rename = "name", skip_serializing_if = "Option::is_none")]
    pub memory: Option<String>,
    /// The instruction file's absolute path (instruction layer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    /// Where a promotion would go.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<PathBuf>,
    pub reason: String,
    /// The command that carries it out: `memdir promote NAME --to team`, `memdir
    /// consolidate` (which proposes merges, drops and rewrites as a branch to look at and
    /// apply), `memdir rm NAME`; none for an instruction file, an ambiguous memory or no
    /// action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

impl Proposal {
    /// The command that carries out this proposal, for its group and kind.
    fn with_command(mut self) -> Proposal {
        let Some(name) = self.memory.as_deref() else {
            return self;
        };
        let team = if self.layer == Layer::TeamMemory {
            " --team"
        } else {
            ""
        };
        self.command = match (self.group.promote_to(), self.kind) {
            (Some(to), _) => Some(format!("memdir promote {name} --to {to}")),
            (None, Some(CleanUp::Secret | CleanUp::Stale | CleanUp::Derivable)) => {
                Some(format!("memdir{team} rm {name}"))
            }
            (None, Some(_)) => Some(format!("memdir{team} consolidate")),
            (None, None) => None,
        };
        self
    }
}

/// An instruction file Claude Code loads for the project (a `CLAUDE.md`, an imported file, a
/// rule), as the audit reads it. The memory index is not one: its memories are audited as such.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionFile {
    pub path: PathBuf,
    /// The text as the model sees it.
    pub content: String,
}

/// What the audit reads.
pub struct Inputs<'a> {
    pub memory_dir: &'a Path,
    /// The project's git root (or the project dir outside git): paths and symbols are checked
    /// there, and project conventions go to its `CLAUDE.md`.
    pub project_root: &'a Path,
    /// `<config dir>/CLAUDE.md`: where personal instructions go.
    pub personal_file: PathBuf,
    /// The instruction files Claude Code loads for this project.
    pub instructions: &'a [InstructionFile],
    /// Today, for time-bound memories.
    pub today: NaiveDate,
}

/// A memory as the audit sees it.
struct Entry {
    layer: Layer,
    name: String,
    memory_type: Option<MemoryType>,
    /// Description and body.
    text: String,
    index_line: Option<String>,
    /// Of its statement, for a line an instruction file already has.
    fingerprint: Fingerprint,
    /// As consolidation reads it.
    memory: consolidate::Memory,
}

/// The memories of one layer; files that cannot be read go to `unreadable` (named as from the
/// memory dir: `team/` for the team layer).
fn read_layer(
    dir: &Path,
    layer: Layer,
    unreadable: &mut Vec<FileProblem>,
) -> Result<Vec<Entry>, AuditError> {
    let listing = list_memories(dir)?;
    let index = Index::parse(&read_index_lossy(dir, &mut Vec::new())?);
    let lines: HashMap<String, String> = index
        .entries()
        .map(|(_, line)| (line.file_name().to_string(), line.render()))
        .collect();
    let prefix = if layer == Layer::TeamMemory {
        "team/"
    } else {
        ""
    };
    unreadable.extend(listing.problems.into_iter().map(|p| FileProblem {
        file: format!("{prefix}{}", p.file),
        problem: p.problem,
    }));
    // When each was last saved, from history (none without one).
    let saved =
        crate::memory::age::last_saved(&crate::repo::history_of(dir).map_err(StoreError::from)?);
    let mut out = Vec::new();
    for memory in listing.memories {
        let description = memory.description.unwrap_or_default();
        let text = format!("{description}\n{}", memory.body);
        out.push(Entry {
            layer,
            index_line: lines.get(&memory.file).cloned(),
            fingerprint: Fingerprint::of(first_statement(&text)),
            memory: consolidate::Memory {
                name: memory.name.clone(),
                memory_type: memory.memory_type,
                description,
                title: memory.title,
                body: memory.body,
                text: String::new(),
                saved: saved.get(&memory.name).copied(),
            },
            text,
            memory_type: memory.memory_type,
            name: memory.name,
        });
    }
    Ok(out)
}

/// What consolidation finds among one layer's memories, as clean-up proposals by name: expired,
/// contradicted by a newer one, or a duplicate of another (all of a group but its first).
fn consolidation_findings(
    memories: &[consolidate::Memory],
    today: NaiveDate,
) -> HashMap<String, (CleanUp, String)> {
    let findings = consolidate::find(memories, today);
    let mut out = HashMap::new();
    for (i, expiry) in &findings.expired {
        out.insert(
            memories[*i].name.clone(),
            (
                CleanUp::Expired,
                format!(
                    "time-bound (\"{}\"): {} has passed",
                    expiry.evidence,
                    crate::memory::calendar::format_date(expiry.date)
                ),
            ),
        );
    }
    for c in &findings.contradictions {
        out.entry(memories[c.older].name.clone()).or_insert((
            CleanUp::Contradicted,
            format!(
                "{}, saved later, gives the same subject another value: the newer stays",
                memories[c.newer].name
            ),
        ));
    }
    for group in &findings.duplicates {
        let Some((first, rest)) = group.split_first() else {
            continue;
        };
        for &i in rest {
            out.entry(memories[i].name.clone()).or_insert((
                CleanUp::Duplicate,
                format!(
                    "states the same fact as {}, which consolidation merges it into, keeping every distinct detail",
                    memories[*first].name
                ),
            ));
        }
    }
    out
}

/// What a review found: one proposal per memory and per instruction-file problem, and the
/// memory files it could not read.
#[derive(Debug)]
pub struct Review {
    pub proposals: Vec<Proposal>,
    pub unreadable: Vec<FileProblem>,
}

/// Audit every layer; one proposal per memory, plus one per problem in an instruction file.
pub fn audit(inputs: &Inputs<'_>) -> Result<Review, AuditError> {
    let mut unreadable = Vec::new();
    let mut entries = read_layer(inputs.memory_dir, Layer::AutoMemory, &mut unreadable)?;
    let team_dir = crate::paths::team_dir(inputs.memory_dir);
    if team_dir.join(INDEX_FILE).is_file() {
        entries.extend(read_layer(&team_dir, Layer::TeamMemory, &mut unreadable)?);
    }
    let subjects: Vec<Subject> = entries
        .iter()
        .map(|e| Subject {
            name: e.name.clone(),
            text: e.text.clone(),
        })
        .chain(inputs.instructions.iter().map(|f| Subject {
            name: f.path.to_string_lossy().into_owned(),
            text: f.content.clone(),
        }))
        .collect();
    let verdicts = verify(inputs.project_root, &subjects)?;
    let stale: HashMap<&str, &[String]> = verdicts
        .iter()
        .filter(|v| v.status == Status::Stale)
        .map(|v| (v.name.as_str(), v.evidence.as_slice()))
        .collect();
    let instruction_lines: Vec<(&Path, usize, Fingerprint)> = inputs
        .instructions
        .iter()
        .flat_map(|f| {
            f.content
                .lines()
                .enumerate()
                .filter(|(_, l)| l.split_whitespace().count() >= 3)
                .map(move |(n, l)| (f.path.as_path(), n + 1, Fingerprint::of(l)))
        })
        .collect();
    let mut consolidation = HashMap::new();
    for layer in [Layer::AutoMemory, Layer::TeamMemory] {
        let of_layer: Vec<consolidate::Memory> = entries
            .iter()
            .filter(|e| e.layer == layer)
            .map(|e| e.memory.clone())
            .collect();
        for (name, finding) in consolidation_findings(&of_layer, inputs.today) {
            consolidation.insert((layer, name), finding);
        }
    }
    let mut proposals = Vec::new();
    for entry in &entries {
        let clean = |kind: CleanUp, reason: String| Proposal {
            group: Group::CleanUp,
            kind: Some(kind),
            layer: entry.layer,
            memory: Some(entry.name.clone()),
            path: None,
            target: None,
            reason,
            command: None,
        };
        let found = consolidation.get(&(entry.layer, entry.name.clone()));
        let before_dates = found.filter(|(kind, _)| *kind < CleanUp::RelativeDate);
        let proposal = if let Some(kind) = crate::secrets::find(&entry.text) {
            clean(
                CleanUp::Secret,
                format!("holds {kind}: remove it (it is in the memory's git history too)"),
            )
        } else if let Some(memory) = conflict_copy_of(&entry.name) {
            clean(CleanUp::Conflict, resolution(entry, memory, &entries))
        } else if let Some(evidence) = stale.get(entry.name.as_str()) {
            clean(CleanUp::Stale, evidence.join("; "))
        } else if let Some((kind, reason)) = before_dates {
            clean(*kind, reason.clone())
        } else if let Some(phrase) = relative_phrase(&entry.text) {
            clean(
                CleanUp::RelativeDate,
                format!("says \"{phrase}\": write the absolute date"),
            )
        } else if let Some(reason) = in_instructions(entry, &instruction_lines) {
            clean(CleanUp::Duplicate, reason)
        } else if let Some((kind, reason)) = found {
            clean(*kind, reason.clone())
        } else if is_derivable(first_statement(&entry.text)) {
            clean(
                CleanUp::Derivable,
                "describes the code itself, which the code and its history already say".into(),
            )
        } else if let Some(line) = entry
            .index_line
            .as_ref()
            .filter(|l| l.encode_utf16().count() > MAX_LINE_UNITS)
        {
            clean(
                CleanUp::LongIndexLine,
                format!(
                    "its index line is {} characters (cap {MAX_LINE_UNITS}): shorten its description",
                    line.encode_utf16().count()
                ),
            )
        } else {
            placement(entry, inputs)
        };
        proposals.push(proposal.with_command());
    }
    proposals.extend(instruction_problems(inputs, &stale));
    Ok(Review {
        proposals,
        unreadable,
    })
}

/// How to finish the conflict whose other side `copy` keeps over `memory`: `--ours` when this
/// side's version already says everything the copy says, `--theirs` when the copy says all
/// this side says and more, `--edit` when each says something the other does not.
fn resolution(copy: &Entry, memory: &str, entries: &[Entry]) -> String {
    let command = match copy.layer {
        Layer::TeamMemory => "memdir team resolve",
        _ => "memdir resolve",
    };
    let ours = entries
        .iter()
        .find(|e| e.layer == copy.layer && e.name == memory);
    let lines = |text: &str| -> Vec<String> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    let Some(ours) = ours else {
        return format!(
            "the other side of a conflict over {memory}, which is gone since: {command} {memory} --theirs takes it back, memdir rm {} drops it",
            copy.name
        );
    };
    let (mine, theirs) = (lines(&ours.text), lines(&copy.text));
    let only_mine = mine.iter().filter(|l| !theirs.contains(l)).count();
    let only_theirs = theirs.iter().filter(|l| !mine.contains(l)).count();
    match (only_mine, only_theirs) {
        (_, 0) => format!(
            "the other side of a conflict over {memory}, which says nothing {memory} does not: {command} {memory} --ours"
        ),
        (0, _) => format!(
            "the other side of a conflict over {memory}, which says all {memory} says and more: {command} {memory} --theirs"
        ),
        (mine, theirs) => format!(
            "the other side of a conflict over {memory}; each says what the other does not ({mine} line(s) only in {memory}, {theirs} only here): {command} {memory} --edit"
        ),
    }
}

/// The first sentence of a memory's body, where its statement is.
fn first_statement(text: &str) -> &str {
    let body = text.split_once('\n').map_or(text, |(_, body)| body);
    body.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(body)
        .trim()
}

/// Whether the memory repeats a line of an instruction file.
fn in_instructions(
    entry: &Entry,
    instruction_lines: &[(&Path, usize, Fingerprint)],
) -> Option<String> {
    instruction_lines
        .iter()
        .find(|(_, _, l)| entry.fingerprint.similarity(l) >= 0.7)
        .map(|(path, line, _)| format!("{} already says this (line {line})", path.display()))
}

static PERSONAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:answers?|replies|reply|your responses?|respond to me|explain|explanations?|tone|jargon|emoji|summar(?:y|ies|ize)|verbose|concise|brief|short answers?|walk me through|talk to me|with me|for me|to me|show me|my (?:phone|time|screen|eyes|laptop|ok|okay)|i (?:am|prefer|like|read|use|want|review)|i'm|me\b|diffs? rather than|whole files?)|回复|回答|解释|中文|英文",
    )
    .unwrap_or_else(|e| panic!("review pattern: {e}"))
});

static PROJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:this (?:[a-z0-9-]+ )?(?:repo|project|codebase|service|app|library|crate|package)|in this repo|our (?:repo|codebase|code|tests?|ci|api|app|service)|the codebase|tests?|ci|lint(?:er)?|commits?|pr|prs|pull requests?|branch(?:es)?|build|deploy(?:s|ment)?|migrations?|functions?|modules?|files?|endpoints?|dependenc(?:y|ies)|deps|npm|pnpm|yarn|cargo|pip|docker|make|schema|sql|code review|code)\b|`[^`]+`|(?:[a-z0-9_.-]+/)+[a-z0-9_.-]*|代码|提交|测试|分支|依赖|接口|仓库|库代码",
    )
    .unwrap_or_else(|e| panic!("review pattern: {e}"))
});

static EVERYWHERE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:in every project|in all (?:my |your )?projects|across (?:all )?projects|in any project|every repo(?:sitory)?|all repos)\b|所有项目|每个项目")
        .unwrap_or_else(|e| panic!("review pattern: {e}"))
});

static HERE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:in this (?:[a-z0-9-]+ )?(?:repo|repository|project|codebase)|this (?:[a-z0-9-]+ )?(?:repo|repository|project|codebase)'s)\b|这个(?:仓库|项目)")
        .unwrap_or_else(|e| panic!("review pattern: {e}"))
});

static DEADLINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:deadline|freeze|frozen|due|until|till|before|by|launch|release|ship|cut|ends?|expires?|migration)\b|截止|冻结|之前|上线|发布")
        .unwrap_or_else(|e| panic!("review pattern: {e}"))
});

static SHARED_FACT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:decision|owns?|owned by|owner|responsible for|ask \S+ (?:about|before|for)|decided|chose|went with|picked|because|since|so that|contract|requires?|must support|point of contact|maintains?)\b|负责|决定|因为|要求",
    )
    .unwrap_or_else(|e| panic!("review pattern: {e}"))
});

static DATED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b\d{4}-\d{2}-\d{2}\b").unwrap_or_else(|e| panic!("review pattern: {e}"))
});

/// Where a clean memory belongs.
fn placement(entry: &Entry, inputs: &Inputs<'_>) -> Proposal {
    let proposal = |group: Group, target: Option<PathBuf>, reason: &str| Proposal {
        group,
        kind: None,
        layer: entry.layer,
        memory: Some(entry.name.clone()),
        path: None,
        target,
        reason: reason.to_string(),
        command: None,
    };
    let project_file = inputs.project_root.join("CLAUDE.md");
    let team = crate::paths::team_dir(inputs.memory_dir);
    let statement = first_statement(&entry.text);
    // "How to apply: in every project" says where a rule belongs outright.
    let (personal, project) = if EVERYWHERE.is_match(&entry.text) {
        (1, 0)
    } else if HERE.is_match(&entry.text) {
        (0, 1)
    } else {
        (
            PERSONAL.find_iter(statement).count(),
            PROJECT.find_iter(statement).count(),
        )
    };
    if entry.layer == Layer::TeamMemory {
        return proposal(Group::NoAction, None, "team memory, shared already");
    }
    match entry.memory_type {
        None => proposal(
            Group::Ambiguous,
            None,
            "it has no type: say whether it is user, feedback, project or reference",
        ),
        Some(MemoryType::User) => proposal(
            Group::PromotePersonal,
            Some(inputs.personal_file.clone()),
            "who you are holds in every project",
        ),
        Some(MemoryType::Reference) => proposal(
            Group::PromoteTeam,
            Some(team),
            "a pointer the whole team can use",
        ),
        Some(MemoryType::Feedback) if personal > project => proposal(
            Group::PromotePersonal,
            Some(inputs.personal_file.clone()),
            "how you like to work, in every project",
        ),
        Some(MemoryType::Feedback) if project > personal => proposal(
            Group::PromoteProject,
            Some(project_file),
            "a standing rule for this project",
        ),
        Some(MemoryType::Feedback) => proposal(
            Group::Ambiguous,
            None,
            "a rule that could be yours everywhere or this project's: say which",
        ),
        Some(MemoryType::Project) if DATED.is_match(statement) && DEADLINE.is_match(statement) => {
            proposal(
                Group::NoAction,
                None,
                "time-bound: it matters until its date",
            )
        }
        Some(MemoryType::Project) if SHARED_FACT.is_match(&entry.text) => proposal(
            Group::PromoteTeam,
            Some(team),
            "a decision or an owner the team should know",
        ),
        Some(MemoryType::Project) if project > 0 && personal == 0 => proposal(
            Group::PromoteProject,
            Some(project_file),
            "a convention for this project",
        ),
        Some(MemoryType::Project) => {
            proposal(Group::NoAction, None, "a project fact, fine where it is")
        }
    }
}

/// Secrets and stale paths in the instruction files themselves.
fn instruction_problems(inputs: &Inputs<'_>, stale: &HashMap<&str, &[String]>) -> Vec<Proposal> {
    let mut out = Vec::new();
    for file in inputs.instructions {
        let problem = |kind: CleanUp, reason: String| Proposal {
            group: Group::CleanUp,
            kind: Some(kind),
            layer: Layer::Instructions,
            memory: None,
            path: Some(file.path.clone()),
            target: None,
            reason,
            command: None,
        };
        if let Some(kind) = crate::secrets::find(&file.content) {
            out.push(problem(
                CleanUp::Secret,
                format!("holds {kind}, and Claude Code sends it with every request"),
            ));
        }
        if let Some(evidence) = stale.get(file.path.to_string_lossy().as_ref()) {
            out.push(problem(CleanUp::Stale, evidence.join("; ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(layer: Layer, name: &str, text: &str) -> Entry {
        Entry {
            layer,
            name: name.into(),
            memory_type: None,
            text: text.into(),
            index_line: None,
            fingerprint: Fingerprint::of(text),
            memory: consolidate::Memory {
                name: name.into(),
                memory_type: None,
                description: String::new(),
                title: None,
                body: text.into(),
                text: String::new(),
                saved: None,
            },
        }
    }

    #[test]
    fn a_conflict_copy_is_proposed_the_resolution_its_text_calls_for() {
        let copy = "deploy.conflict-1a2b3c4";
        let propose = |ours: Option<&str>, theirs: &str, layer: Layer| {
            let mut entries = vec![entry(layer, copy, theirs)];
            entries.extend(ours.map(|text| entry(layer, "deploy", text)));
            resolution(&entries[0], "deploy", &entries)
        };
        let ours = "Deploys on Tuesday\nAsk in #deploys first";
        assert!(
            propose(Some(ours), "Deploys on Tuesday", Layer::AutoMemory)
                .ends_with("memdir resolve deploy --ours")
        );
        assert!(
            propose(Some("Deploys on Tuesday"), ours, Layer::TeamMemory)
                .ends_with("memdir team resolve deploy --theirs")
        );
        let both = propose(
            Some(ours),
            "Deploys on Friday\nAsk in #deploys first",
            Layer::AutoMemory,
        );
        assert!(both.ends_with("memdir resolve deploy --edit"), "{both}");
        assert!(
            both.contains("1 line(s) only in deploy, 1 only here"),
            "{both}"
        );
        assert!(propose(None, ours, Layer::AutoMemory).contains("which is gone since"));
    }
}
