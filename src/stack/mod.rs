//! The instruction stack (DESIGN §5): every instruction file Claude Code 2.1.332 loads at session
//! start, in its order, and the text it sends the model, byte for byte.
//!
//! `loader` discovers the layers and reads each file (frontmatter, comments, `@imports`), `rules`
//! walks `.claude/rules` folders and judges `paths:` globs, `markdown` holds the two markdown
//! passes Claude Code makes over a file. Checked against recordings of the real program in
//! `fixtures/cc-oracle/cases/`.

pub mod loader;
pub mod markdown;
pub mod neutralize;
pub mod rules;
pub mod session;

use std::path::PathBuf;

/// The preamble Claude Code puts before the files.
pub const PREAMBLE: &str = "Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.";

/// Files longer than this many characters draw a warning (Claude Code's per-file floor).
pub const LARGE_FILE_CHARS: usize = 40_000;

/// Where an instruction file sits in the stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Managed,
    User,
    Project,
    Local,
    AutoMemory,
}

impl Scope {
    /// The description Claude Code prints after the path.
    pub fn description(self) -> &'static str {
        match self {
            Scope::Managed => "organization-managed policy instructions",
            Scope::User => "user's private global instructions for all projects",
            Scope::Project => "project instructions, checked into the codebase",
            Scope::Local => "user's private project instructions, not checked in",
            Scope::AutoMemory => "user's auto-memory, persists across conversations",
        }
    }

    /// A short name for tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::AutoMemory => "memory",
        }
    }
}

/// One file of the stack, as loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackFile {
    pub path: PathBuf,
    pub scope: Scope,
    /// The text as the model sees it (frontmatter and block comments removed, not yet trimmed).
    pub content: String,
    /// The file whose `@import` brought this one in.
    pub imported_from: Option<PathBuf>,
    /// `paths:` globs of a conditional rule loaded because a touched file matched.
    pub globs: Option<Vec<String>>,
}

/// Something the user should know about the stack; none of it changes the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// A file over [`LARGE_FILE_CHARS`] characters.
    LargeFile { path: PathBuf, chars: usize },
    /// The memory index was cut; these entries fell off.
    IndexTruncated { path: PathBuf, dropped: Vec<String> },
    /// There is no index but there are topic files: Claude Code writes one at session start.
    IndexBackfilled { path: PathBuf },
    /// Auto memory is off, so the index is not loaded.
    AutoMemoryOff { switch: String },
    /// The memory dir Claude Code loads comes from project settings (memdir never writes there).
    ProjectSettingIgnored { file: PathBuf },
    /// An invalid memory-dir setting Claude Code passes over.
    SettingPassedOver { problem: String },
    /// An `@import` that was not loaded, and why.
    ImportSkipped {
        from: PathBuf,
        target: PathBuf,
        reason: SkipReason,
    },
    /// A file that exists but could not be loaded.
    FileSkipped { path: PathBuf, reason: SkipReason },
}

/// Why an import or file was left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    Missing,
    OutsideProject,
    NotText,
    TooDeep,
    AlreadyLoaded,
    NotRegularFile,
    TooLarge,
    Unreadable,
    Empty,
}

impl SkipReason {
    pub fn describe(self) -> &'static str {
        match self {
            SkipReason::Missing => "no such file",
            SkipReason::OutsideProject => {
                "outside the project (Claude Code skips it for project files)"
            }
            SkipReason::NotText => "not a text file extension",
            SkipReason::TooDeep => "import depth 5 reached",
            SkipReason::AlreadyLoaded => "already loaded (a cycle or a repeat)",
            SkipReason::NotRegularFile => "not a regular file",
            SkipReason::TooLarge => "over the 4 MiB read limit",
            SkipReason::Unreadable => "unreadable",
            SkipReason::Empty => "empty or only white space",
        }
    }
}

/// The loaded stack: files in load order (lowest priority first) and warnings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stack {
    pub files: Vec<StackFile>,
    pub warnings: Vec<Warning>,
}

impl Stack {
    /// The text Claude Code sends: the preamble, then for each file a blank line,
    /// `Contents of <path> (<scope>):`, a blank line and the trimmed content. Nothing at all
    /// when no file loaded.
    pub fn render(&self) -> String {
        if self.files.is_empty() {
            return String::new();
        }
        let mut out = String::from(PREAMBLE);
        for file in &self.files {
            out.push_str("\n\nContents of ");
            out.push_str(&file.path.to_string_lossy());
            out.push_str(" (");
            out.push_str(file.scope.description());
            out.push_str("):\n\n");
            out.push_str(crate::js::trim(&file.content));
        }
        out
    }
}

impl Warning {
    /// The warning in words, as `--explain` and `--json` show it.
    pub fn describe(&self) -> String {
        match self {
            Warning::LargeFile { path, chars } => format!(
                "{} is {chars} characters, over {} (Claude Code warns about large instruction files)",
                path.display(),
                crate::stack::LARGE_FILE_CHARS
            ),
            Warning::IndexTruncated { path, dropped } => format!(
                "{} is truncated at load; {} entr{} fell off: {}",
                path.display(),
                dropped.len(),
                if dropped.len() == 1 { "y" } else { "ies" },
                dropped.join(", ")
            ),
            Warning::IndexBackfilled { path } => format!(
                "{} does not exist: Claude Code writes it from the topic files at session start (shown here as it will be; memdir writes nothing)",
                path.display()
            ),
            Warning::AutoMemoryOff { switch } => {
                format!("auto memory is off ({switch}): the memory index is not loaded")
            }
            Warning::ProjectSettingIgnored { file } => format!(
                "Claude Code loads the memory index from the dir named by project settings ({}); memdir never writes there (a cloned repository must not redirect memory)",
                file.display()
            ),
            Warning::SettingPassedOver { problem } => {
                format!("passed over, as Claude Code does: {problem}")
            }
            Warning::ImportSkipped {
                from,
                target,
                reason,
            } => format!(
                "import of {} from {} skipped: {}",
                target.display(),
                from.display(),
                reason.describe()
            ),
            Warning::FileSkipped { path, reason } => {
                format!("{} skipped: {}", path.display(), reason.describe())
            }
        }
    }
}
