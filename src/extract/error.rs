//! What extraction can fail with (DESIGN §6, §11): a transcript that cannot be read, an agent
//! command that fails a turn, the worker's queue and lock on disk, and the memory layer below.
//! [`ExtractError::is_invalid_input`] tells bad input (exit 2: nothing was changed, and retrying
//! cannot help) from a runtime failure (exit 1).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use crate::input::InputError;
use crate::memory::store::StoreError;
use crate::model::ModelError;
use crate::repo::RepoError;

#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("the transcript {} does not exist", .0.display())]
    TranscriptMissing(PathBuf),
    /// Not a regular file (a FIFO, a device, a directory): memdir never reads it.
    #[error("the transcript {0}")]
    TranscriptRefused(#[source] InputError),
    /// It is there but could not be opened (permissions, I/O).
    #[error(transparent)]
    TranscriptUnopened(InputError),
    #[error("reading {}: {source}", path.display())]
    ReadTranscript { path: PathBuf, source: io::Error },
    #[error("the agent failed on turn {turn}: {failure}")]
    Agent {
        turn: u32,
        #[source]
        failure: AgentFailure,
    },
    #[error("encoding the {what}: {source}")]
    Encode {
        what: &'static str,
        source: serde_json::Error,
    },
    /// A cursor, a stashed request, a count of attempts.
    #[error(transparent)]
    State(#[from] crate::atomic::FileError),
    #[error("opening {}: {source}", path.display())]
    WorkerLock { path: PathBuf, source: io::Error },
    #[error("starting the extraction worker (log {}): {source}", log.display())]
    StartWorker { log: PathBuf, source: io::Error },
    #[error(
        "extraction still running after {} s ({waiting} request(s) waiting); try again later",
        timeout.as_secs()
    )]
    DrainTimedOut { timeout: Duration, waiting: usize },
    /// `--drain` served runs that failed.
    #[error(
        "{0} extraction run(s) failed; their sessions are retried from their cursors next time"
    )]
    RunsFailed(usize),
    /// `--drain` served requests that a retry cannot fix.
    #[error("{0} extraction request(s) retired: a retry cannot fix them (see above)")]
    RequestsRetired(usize),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

impl ExtractError {
    /// Whether the input was at fault (exit 2; a worker retires such a request, since a retry
    /// cannot help), not the machine or the agent (exit 1).
    pub fn is_invalid_input(&self) -> bool {
        match self {
            ExtractError::TranscriptMissing(_) | ExtractError::TranscriptRefused(_) => true,
            ExtractError::Store(e) => e.is_invalid_input(),
            ExtractError::Repo(e) => e.is_refusal(),
            _ => false,
        }
    }
}

/// Why one turn of the agent failed (the run fails; the cursor stays): no model answered, or
/// its answer is not a protocol response.
#[derive(Debug, thiserror::Error)]
pub enum AgentFailure {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error("its response {0}")]
    Response(#[source] BadResponse),
}

/// What is wrong with a response that is not `{"actions": […]}`.
#[derive(Debug, thiserror::Error)]
pub enum BadResponse {
    #[error("is not UTF-8")]
    NotUtf8,
    #[error("is empty, not JSON")]
    Empty,
    /// `start` is its first line, cut.
    #[error("is not JSON ({source}): {start}")]
    NotJson {
        source: serde_json::Error,
        start: String,
    },
    #[error("is not a JSON object")]
    NotObject,
    #[error("has an \"actions\" field that is not a list")]
    ActionsNotList,
}
