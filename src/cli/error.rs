//! The error a command ends with (after jj's `CommandError`): one variant per module's own error,
//! which keeps its source chain, the exit code of DESIGN §11, and a hint where one helps. `main`
//! prints it as `error: …` and `hint: …` lines, or as one JSON object when the command was asked
//! for JSON.

use crate::memory::store::StoreError;
use crate::paths::PathError;
use crate::repo::RepoError;
use crate::review::audit::AuditError;
use crate::review::consolidate::ConsolidateError;
use crate::review::promote::PromoteError;
use crate::review::proposals::ProposalError;
use crate::review::verify::VerifyError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Env(#[from] crate::env::EnvError),
    #[error(transparent)]
    Hooks(#[from] crate::hooks::HooksError),
    #[error(transparent)]
    Session(#[from] crate::stack::session::SessionError),
    #[error(transparent)]
    Team(#[from] crate::team::TeamError),
    #[error(transparent)]
    Sync(#[from] crate::sync::SyncError),
    #[error(transparent)]
    Personal(#[from] crate::personal::PersonalError),
    #[error(transparent)]
    Extract(#[from] crate::extract::ExtractError),
    #[error(transparent)]
    File(#[from] crate::atomic::FileError),
    #[error(transparent)]
    Path(#[from] PathError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error(transparent)]
    Verify(#[from] VerifyError),
    #[error(transparent)]
    Audit(#[from] AuditError),
    #[error(transparent)]
    Promote(#[from] PromoteError),
    #[error(transparent)]
    Proposal(#[from] ProposalError),
    #[error(transparent)]
    Consolidate(#[from] ConsolidateError),
    #[error(transparent)]
    History(#[from] crate::history::HistoryError),
    /// Auto memory is off; the text names the switch.
    #[error("auto memory is disabled by {0} (team memory too); nothing was changed")]
    Disabled(String),
    /// `doctor` found problems it did not (or could not) repair.
    #[error("{0} problem(s) found; see the list above")]
    Inconsistent(usize),
    /// The command printed its answer, and the answer is no, as grep's exit 1 says: a search
    /// with no hit, a verify that found stale memories. Nothing more is printed; the text says
    /// what it was for the MCP server and the logs.
    #[error("{0}")]
    Verdict(String),
    /// A runtime failure no module owns (a timeout, failed background runs).
    #[error("{0}")]
    Failed(String),
    /// Bad usage or input that no module owns.
    #[error("{0}")]
    Usage(String),
    #[error("{context}: {source}")]
    Io {
        context: String,
        source: std::io::Error,
    },
    /// An edit that was not saved; the person's text is kept in `file`.
    #[error("{error}")]
    Kept {
        error: Box<Error>,
        file: std::path::PathBuf,
    },
}

/// The exit codes as `memdir --help` tells them (the README holds the same table).
pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  success
  1  a runtime failure; or the answer is no, as grep and git say it: search found nothing,
     verify found stale memories, doctor found problems it left
  2  bad usage or invalid input (a folder where a file is expected too); nothing was changed
  3  auto memory is disabled; nothing was changed
Hooks (--hook) answer 0 whatever happens and log problems.";

/// Exit codes (DESIGN §11).
pub const EXIT_OK: u8 = 0;
pub const EXIT_FAILURE: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
pub const EXIT_DISABLED: u8 = 3;

impl Error {
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Kept { error, .. } => error.exit_code(),
            Error::Disabled(_) => EXIT_DISABLED,
            Error::Env(_) => EXIT_USAGE,
            Error::Hooks(e) if e.is_refusal() => EXIT_USAGE,
            Error::Hooks(_) => EXIT_FAILURE,
            Error::Usage(_) => EXIT_USAGE,
            Error::Inconsistent(_) | Error::Failed(_) | Error::Verdict(_) => EXIT_FAILURE,
            Error::Path(e) if e.is_refusal() => EXIT_USAGE,
            Error::Path(_) => EXIT_FAILURE,
            Error::Session(e) if e.is_refusal() => EXIT_USAGE,
            Error::Session(_) => EXIT_FAILURE,
            Error::Team(e) if e.is_refusal() => EXIT_USAGE,
            Error::Sync(e) if e.is_refusal() => EXIT_USAGE,
            Error::Personal(e) if e.is_refusal() => EXIT_USAGE,
            Error::Team(_) | Error::Sync(_) | Error::Personal(_) | Error::File(_) => EXIT_FAILURE,
            Error::Extract(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Extract(_) => EXIT_FAILURE,
            Error::Store(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Repo(e) if e.is_refusal() => EXIT_USAGE,
            Error::Verify(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Audit(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Promote(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Proposal(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Consolidate(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::History(e) if e.is_invalid_input() => EXIT_USAGE,
            Error::Store(_)
            | Error::Repo(_)
            | Error::Verify(_)
            | Error::Audit(_)
            | Error::Promote(_)
            | Error::Proposal(_)
            | Error::Consolidate(_)
            | Error::History(_)
            | Error::Io { .. } => EXIT_FAILURE,
        }
    }

    /// What to do next, where one thing helps; printed as `hint:` lines.
    pub fn hints(&self) -> Vec<String> {
        use crate::memory::store::StoreError;
        use crate::repo::RepoError;
        let hint = match self {
            Error::Kept { error, file } => {
                let mut hints = error.hints();
                hints.push(format!(
                    "your text is kept in {}; nothing in the memory dir changed",
                    file.display()
                ));
                return hints;
            }
            Error::Store(StoreError::TypeChange { name, to, .. }) => {
                return vec![format!(
                    "give --change-type to change it, or run `memdir edit {name} --type {to}`"
                )];
            }
            Error::Disabled(_) => {
                "`memdir path --explain` shows every switch; auto memory is on again once this one is unset"
            }
            Error::Store(StoreError::NotFound(_)) => {
                "`memdir list` shows the memories; `memdir restore NAME` brings back a deleted one"
            }
            Error::Store(StoreError::Topic { .. } | StoreError::NotUtf8(_))
            | Error::Inconsistent(_) => {
                "`memdir doctor --fix` repairs what is safe and says what is left"
            }
            Error::History(
                crate::history::HistoryError::NothingToUndo(_)
                | crate::history::HistoryError::NothingToRedo,
            ) => "`memdir op log` lists the operations and which are undone",
            Error::Repo(RepoError::UnknownRevision(_))
            | Error::History(crate::history::HistoryError::Repo(RepoError::UnknownRevision(_))) => {
                "`memdir log` lists the commits; a revision is HEAD~N, an id or a prefix of one"
            }
            Error::Path(_) | Error::Env(_) => {
                "`memdir path --explain` shows which rule chose the memory dir, and why"
            }
            _ => return Vec::new(),
        };
        vec![hint.to_string()]
    }

    /// The error as the command line prints it: `error: …`, then a `hint: …` line per hint.
    pub fn report(&self) -> String {
        self.report_for(false, false)
    }

    /// [`Error::report`] for stderr: `error:` and `hint:` in their styles when `color`, what
    /// they say escaped when `terminal` (it may quote a file's name or content).
    pub fn report_for(&self, color: bool, terminal: bool) -> String {
        use crate::cli::style;
        let line = |style, label, text: &str| {
            format!(
                "{} {}",
                style::paint(color, style, label),
                crate::cli::printable(text, terminal)
            )
        };
        let mut report = line(style::ERROR, "error:", &self.to_string());
        for hint in self.hints() {
            report.push('\n');
            report.push_str(&line(style::HINT, "hint:", &hint));
        }
        report
    }

    /// The error as one JSON object: `{"error": {"message", "exit_code", "hints"}}`; the message
    /// holds the whole chain of causes, as the plain line does.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "error": {
                "message": self.to_string(),
                "exit_code": self.exit_code(),
                "hints": self.hints(),
            }
        })
    }

    /// Whether the command has said all there is to say (a [`Error::Verdict`]).
    pub fn is_verdict(&self) -> bool {
        matches!(self, Error::Verdict(_))
    }

    /// Writing to a closed pipe (`memdir log | head`) is not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}
