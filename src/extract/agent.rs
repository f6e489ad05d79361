//! The `agent` extractor (DESIGN §6): an external LLM command driven turn by turn through a JSON
//! protocol, its actions carried out (or refused) by memdir. Not built yet: choosing it is an
//! error, and nothing is changed.

use std::time::Duration;

use crate::Error;
use crate::extract::transcript::Turn;
use crate::extract::{Job, Outcome};

/// How to run the agent command.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    /// Run with `sh -c`.
    pub cmd: String,
    pub turn_timeout: Duration,
    pub max_turns: u32,
}

/// Drive the agent over one range; returns what became of each save and delete it asked for.
pub fn run(
    _config: &AgentConfig,
    _job: &Job,
    _turns: &[Turn],
    _index: &str,
) -> Result<Vec<Outcome>, Error> {
    Err(Error::Usage("the agent extractor is not built yet".into()))
}
