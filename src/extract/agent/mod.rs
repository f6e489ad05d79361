//! The `agent` extractor (DESIGN §6, §10): an external LLM command driven turn by turn through a
//! JSON protocol (`memdir-extract/1`, documented in the README), its actions carried out — or
//! refused — by memdir.
//!
//! The command never touches the disk on memdir's behalf: it only *asks*. Each turn, [`run`]
//! builds the request ([`protocol`]), runs the command once ([`runner`]: a cleared environment,
//! capped input and output, a time limit, and every process it started killed when the turn
//! ends), and carries out the actions of its response ([`dispatch`]): reads (read, grep, glob)
//! from the project and the memory dir only ([`sandbox`]), saves and deletes through
//! [`crate::extract::apply`] (name, type, size and secret checks, the two-step save). Everything
//! else — a shell command, a write to a path, a malformed action — is refused, and the refusal
//! is both fed back to the agent in its next request and returned as an [`Outcome::Refused`] for
//! the report. At most `max_turns` turns.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::extract::error::{AgentFailure, ExtractError};
use crate::extract::transcript::Turn;
use crate::extract::{Job, Outcome, index_text};
use crate::memory::catalog::list_memories;
use crate::memory::store::StoreError;
use crate::memory::taxonomy::MemoryType;

mod dispatch;
mod protocol;
mod runner;
mod sandbox;

use protocol::{ActionResult, INSTRUCTIONS, MemorySummary, PROTOCOL, Request};
use sandbox::Sandbox;

/// The turn limit (DESIGN §6): past it, a request for more is refused.
pub const MAX_TURNS: u32 = 5;

/// How to run the agent command.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    /// Run with `sh -c`.
    pub cmd: String,
    pub turn_timeout: Duration,
    pub max_turns: u32,
}

/// Drive the agent over one range; returns what became of each save and delete it asked for,
/// and every refusal.
///
/// A turn that times out, exits non-zero or answers with something that is not a JSON object is
/// an error: the run fails and the session's cursor stays where it was. Saves made in earlier
/// turns stay (they are commits); a retry updates them by name.
pub fn run(
    config: &AgentConfig,
    job: &Job,
    turns: &[Turn],
    index: &str,
) -> Result<Vec<Outcome>, ExtractError> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let sandbox = Sandbox::new(&job.project, &job.memory_dir, home.as_deref());
    let (excerpt, truncated) = protocol::excerpt(turns);
    let mut outcomes = Vec::new();
    let mut results: Vec<ActionResult> = Vec::new();
    let mut index = index.to_string();
    for turn in 1..=config.max_turns {
        if turn > 1 {
            // Earlier turns may have saved: show the index as it is now.
            index = index_text(&job.memory_dir)?;
        }
        let request = Request {
            protocol: PROTOCOL,
            turn,
            max_turns: config.max_turns,
            instructions: INSTRUCTIONS,
            session: &job.session,
            project: &job.project,
            memory_dir: &job.memory_dir,
            excerpt: &excerpt,
            truncated,
            index: &index,
            memories: &memory_summaries(&job.memory_dir)?,
            results: &results,
        };
        let input = serde_json::to_vec(&request).map_err(|source| ExtractError::Encode {
            what: "agent request",
            source,
        })?;
        let failed = |failure| ExtractError::Agent { turn, failure };
        let stdout = runner::invoke(config, &job.memory_dir, input).map_err(failed)?;
        let actions = protocol::parse_response(&stdout)
            .map_err(AgentFailure::Response)
            .map_err(failed)?;
        if actions.is_empty() {
            return Ok(outcomes);
        }
        let carried = dispatch::carry_out_turn(&actions, turn, &sandbox, job)?;
        outcomes.extend(carried.outcomes);
        results = carried.results;
        if carried.done {
            return Ok(outcomes);
        }
        if turn == config.max_turns {
            // It asked for more, but the budget is spent: the command is not run again.
            outcomes.push(Outcome::Refused {
                what: format!("turn {}", turn + 1),
                why: format!("the turn limit is {}", config.max_turns),
            });
        }
    }
    Ok(outcomes)
}

/// `{name, type, description}` of every memory now in the dir that can be read.
fn memory_summaries(dir: &Path) -> Result<Vec<MemorySummary>, StoreError> {
    Ok(list_memories(dir)?
        .memories
        .into_iter()
        .map(|m| MemorySummary {
            name: m.name,
            memory_type: m.memory_type.map(MemoryType::as_str),
            description: m.description.unwrap_or_default(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::protocol::tests::turn;
    use super::sandbox::tests::{Dirs, dirs};
    use super::*;
    use crate::extract::{Extractor, Trigger};

    fn job(d: &Dirs) -> Job {
        Job {
            session: "s1".into(),
            transcript: d.root.join("t.jsonl"),
            project: d.project.clone(),
            memory_dir: d.memory.clone(),
            trigger: Trigger::Foreground,
            every: 1,
            extractor: Extractor::Builtin,
        }
    }

    fn config(cmd: String) -> AgentConfig {
        AgentConfig {
            cmd,
            turn_timeout: Duration::from_secs(60),
            max_turns: 5,
        }
    }

    #[test]
    fn actions_past_the_cap_are_refused_and_reported() {
        let d = dirs();
        let log = d.root.join("requests");
        std::fs::create_dir_all(&log).expect("mkdir");
        let many: Vec<Value> = (0..25)
            .map(|i| json!({"action": "glob", "pattern": format!("{i}*")}))
            .collect();
        let script = format!(
            "req=$(cat); n=$(ls '{log}' | wc -l); printf '%s' \"$req\" > '{log}'/$n; \
             if [ $n = 0 ]; then echo '{}'; else echo '{{\"actions\":[{{\"action\":\"done\"}}]}}'; fi",
            json!({"actions": many}),
            log = log.display()
        );
        let outcomes = run(&config(script), &job(&d), &[turn("hi", "", 0)], "").expect("run");
        assert_eq!(
            outcomes,
            [Outcome::Refused {
                what: "actions 21 to 25 of turn 1".into(),
                why: "at most 20 actions are carried out per turn".into()
            }]
        );
        let second: Value =
            serde_json::from_slice(&std::fs::read(log.join("1")).expect("turn 2")).expect("json");
        let results = second["results"].as_array().expect("results");
        assert_eq!(results.len(), 21);
        assert_eq!(results[20]["status"], "refused");
        assert_eq!(second["turn"], 2);
    }

    #[test]
    fn a_runaway_response_is_cut_off() {
        let d = dirs();
        let error = run(
            &config("cat >/dev/null; yes".into()),
            &job(&d),
            &[turn("hi", "", 0)],
            "",
        )
        .expect_err("too big");
        assert!(error.to_string().contains("over 1048576 bytes"), "{error}");
    }

    #[test]
    fn a_response_asking_for_more_after_the_last_turn_is_refused() {
        let d = dirs();
        let mut config = config(
            "cat >/dev/null; echo '{\"actions\":[{\"action\":\"read\",\"path\":\"notes.md\"}]}'"
                .into(),
        );
        config.max_turns = 2;
        let outcomes = run(&config, &job(&d), &[turn("hi", "", 0)], "").expect("run");
        assert_eq!(
            outcomes,
            [Outcome::Refused {
                what: "turn 3".into(),
                why: "the turn limit is 2".into()
            }]
        );
    }
}
