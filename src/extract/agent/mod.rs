//! The `agent` extractor (DESIGN §6, §10): a language model driven turn by turn through a JSON
//! protocol (`memdir-extract/2`, documented in the README), its actions carried out — or refused
//! — by memdir.
//!
//! The model never touches the disk on memdir's behalf: it only *asks*. Each turn, [`run`]
//! builds the request ([`protocol`]: the prompts the gate let through, the memories with the
//! text of those they may be about), asks the model once ([`crate::model`]: Claude Code run by
//! memdir, or the person's command; a time limit, capped output, every process it started killed
//! when the turn ends), and carries out the actions of its answer ([`dispatch`]): reads (read,
//! grep, glob) from the project and the memory dir only ([`sandbox`]), saves and deletes through
//! the run's [`Carrier`] (name, type, size, secret and update checks, the two-step save).
//! Everything else — a shell command, a write to a path, a malformed action — is refused, and
//! the refusal is both fed back in the next request and returned as an [`Outcome::Refused`] for
//! the report. At most `max_turns` turns: usually one, as the model rarely needs to read.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::extract::apply::Carrier;
use crate::extract::error::{AgentFailure, ExtractError};
use crate::extract::transcript::Turn;
use crate::extract::{Job, Outcome};
use crate::memory::catalog::list_memories;
use crate::memory::statement::Fingerprint;
use crate::memory::store::StoreError;
use crate::memory::taxonomy::MemoryType;
use crate::model::{ClaudeCode, Model, ModelError, Question};

mod dispatch;
mod protocol;
mod sandbox;

use protocol::{
    ActionResult, INSTRUCTIONS, MAX_BODIES_BYTES, MemorySummary, PROTOCOL, ROLE, Request,
};
use sandbox::Sandbox;

/// The turn limit (DESIGN §6): past it, a request for more is refused.
pub const MAX_TURNS: u32 = 5;

/// Which model answers the protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelChoice {
    /// Claude Code, found on `PATH` when the run starts, running the settings' model.
    ClaudeCode,
    /// A command line of the person's (`--agent-cmd`), run with `sh -c`.
    Command(String),
}

/// How to run the agent.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    pub model: ModelChoice,
    pub turn_timeout: Duration,
    pub max_turns: u32,
}

impl AgentConfig {
    /// The model that answers now: the command, or Claude Code as the shell finds it on this
    /// process's `PATH` (a hook's is Claude Code's own), running `claude_model`.
    pub fn model(&self, claude_model: &str) -> Result<Model, ModelError> {
        match &self.model {
            ModelChoice::Command(cmd) => Ok(Model::Command(cmd.clone())),
            ModelChoice::ClaudeCode => {
                let path = std::env::var_os("PATH");
                ClaudeCode::find(path.as_deref(), claude_model).map(Model::ClaudeCode)
            }
        }
    }
}

/// What one agent run did.
#[derive(Debug, Default)]
pub struct Asked {
    /// What became of each save and delete it asked for, and every refusal.
    pub outcomes: Vec<Outcome>,
    /// Model calls made (one a turn).
    pub calls: u32,
    /// What they cost, when the model says (Claude Code does).
    pub cost_usd: Option<f64>,
}

/// Drive the model over `turns` (the prompts the gate let through; `left_out` more were not);
/// its saves and deletes go through `carrier`.
///
/// A turn whose model fails (not installed, not logged in, offline, too slow, exits non-zero) or
/// answers with something that is not a protocol response is an error: the run fails and the
/// session's cursor stays where it was. Saves made in earlier turns stay (they are commits); a
/// retry updates them by name.
pub fn run(
    config: &AgentConfig,
    model: &Model,
    job: &Job,
    turns: &[Turn],
    left_out: usize,
    carrier: &mut Carrier<'_>,
) -> Result<Asked, ExtractError> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let sandbox = Sandbox::new(&job.project, &job.memory_dir, home.as_deref());
    let (excerpt, truncated) = protocol::excerpt(turns);
    let said: String = turns
        .iter()
        .map(|t| t.prompt.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let schema = protocol::response_schema();
    let system = crate::model::system_prompt(ROLE);
    let mut asked = Asked::default();
    let mut results: Vec<ActionResult> = Vec::new();
    for turn in 1..=config.max_turns {
        // Earlier turns may have saved: the memories as they are now.
        let memories = memory_summaries(&job.memory_dir, &said)?;
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
            left_out,
            memories: &memories,
            results: &results,
        };
        let input = serde_json::to_vec(&request).map_err(|source| ExtractError::Encode {
            what: "agent request",
            source,
        })?;
        let failed = |failure| ExtractError::Agent { turn, failure };
        let question = Question {
            request: &input,
            system: &system,
            schema: &schema,
        };
        let cwd = if job.memory_dir.is_dir() {
            job.memory_dir.as_path()
        } else {
            // A dry run on a memory dir that does not exist yet.
            Path::new("/")
        };
        asked.calls += 1;
        let answer = crate::model::ask(model, &question, cwd, config.turn_timeout)
            .map_err(|e| failed(AgentFailure::Model(e)))?;
        if let Some(cost) = answer.cost_usd {
            *asked.cost_usd.get_or_insert(0.0) += cost;
        }
        let actions = protocol::parse_response(&answer.json)
            .map_err(AgentFailure::Response)
            .map_err(failed)?;
        if actions.is_empty() {
            return Ok(asked);
        }
        let carried = dispatch::carry_out_turn(&actions, turn, &sandbox, carrier)?;
        asked.outcomes.extend(carried.outcomes);
        results = carried.results;
        if carried.done {
            return Ok(asked);
        }
        if turn == config.max_turns {
            // It asked for more, but the budget is spent: the model is not asked again.
            asked.outcomes.push(Outcome::Refused {
                what: format!("turn {}", turn + 1),
                why: format!("the turn limit is {}", config.max_turns),
            });
        }
    }
    Ok(asked)
}

/// Every memory now in the dir that can be read, `{name, type, description}`, with its body
/// when the person's words `said` may be about it (they share a name or two words with it), up
/// to [`MAX_BODIES_BYTES`] of bodies, the closest first.
fn memory_summaries(dir: &Path, said: &str) -> Result<Vec<MemorySummary>, StoreError> {
    let memories = match list_memories(dir) {
        Ok(listing) => listing.memories,
        // A dry run before the memory dir exists: nothing saved yet.
        Err(_) if !dir.exists() => Vec::new(),
        Err(e) => return Err(e),
    };
    let said = Fingerprint::of(said);
    let mut closeness: Vec<(usize, f64)> = memories
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let text = format!(
                "{} {} {}",
                m.name.replace('-', " "),
                m.description.as_deref().unwrap_or(""),
                m.body
            );
            (i, Fingerprint::of(&text).shared_with(&said))
        })
        .filter(|(_, shared)| *shared >= 2.0)
        .collect();
    closeness.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut with_body = vec![false; memories.len()];
    let mut budget = MAX_BODIES_BYTES;
    for (i, _) in closeness {
        let size = memories[i].body.len();
        if size <= budget {
            budget -= size;
            with_body[i] = true;
        }
    }
    Ok(memories
        .into_iter()
        .zip(with_body)
        .map(|(m, with_body)| MemorySummary {
            name: m.name,
            memory_type: m.memory_type.map(MemoryType::as_str),
            description: m.description.unwrap_or_default(),
            body: with_body.then_some(m.body),
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
            claude_model: "haiku".into(),
            dry_run: false,
        }
    }

    fn config(cmd: String) -> AgentConfig {
        AgentConfig {
            model: ModelChoice::Command(cmd),
            turn_timeout: Duration::from_secs(60),
            max_turns: 5,
        }
    }

    /// Drive the agent of `config` over one prompt, as the run would.
    fn drive(config: &AgentConfig, d: &Dirs) -> Result<Asked, ExtractError> {
        let job = job(d);
        let model = config.model("haiku").expect("a command model");
        let mut carrier = Carrier::new(&d.memory, Some("s1"), "hi".into(), false);
        run(config, &model, &job, &[turn("hi", "", 0)], 0, &mut carrier)
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
        let outcomes = drive(&config(script), &d).expect("run").outcomes;
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
        let error = drive(&config("cat >/dev/null; yes".into()), &d).expect_err("too big");
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
        let asked = drive(&config, &d).expect("run");
        assert_eq!(asked.calls, 2);
        let outcomes = asked.outcomes;
        assert_eq!(
            outcomes,
            [Outcome::Refused {
                what: "turn 3".into(),
                why: "the turn limit is 2".into()
            }]
        );
    }
}
