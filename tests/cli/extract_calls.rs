//! Model calls as Claude Code drives extraction (issue 27, DESIGN §6): each labelled session of
//! `fixtures/extraction/` replayed prompt by prompt through `memdir extract --hook` — a Stop
//! after each prompt's reply, SessionEnd at the end, each followed by `--drain` — with the
//! scripted model `fixtures/agent/perfect.py` (it answers perfectly from the labels, from what
//! the request hands it) counting its calls. What the gate keeps from the model is lost, so F1
//! measures what the gate and the batching lose; the calls measure what they cost.
//!
//! `cargo test --test cli extract_calls -- --nocapture` prints the table. The sets are two of the
//! training sets the gate was tuned on; `MEMDIR_CALLS_SETS="blind-a blind-b"` measures others
//! (`benches/extract_calls.sh` runs them all on the release binary; BENCHMARKS.md has the
//! figures).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{TestEnv, assert_git_clean, expected_of, labelled_cases};
use crate::labels::Expected;
use crate::quality::{matches, produced};

/// What replaying some sessions came to.
#[derive(Default)]
struct Tally {
    sessions: usize,
    calls: usize,
    /// Sessions with nothing to remember, and those of them that cost a call.
    quiet: usize,
    quiet_with_a_call: usize,
    expected: usize,
    produced: usize,
    matched: usize,
    most_calls: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.sessions += o.sessions;
        self.calls += o.calls;
        self.quiet += o.quiet;
        self.quiet_with_a_call += o.quiet_with_a_call;
        self.expected += o.expected;
        self.produced += o.produced;
        self.matched += o.matched;
        self.most_calls = self.most_calls.max(o.most_calls);
    }

    fn f1(&self) -> f64 {
        let p = self.matched as f64 / self.produced.max(1) as f64;
        let r = self.matched as f64 / self.expected.max(1) as f64;
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }

    fn calls_per_session(&self) -> f64 {
        self.calls as f64 / self.sessions.max(1) as f64
    }

    fn quiet_without_a_call(&self) -> f64 {
        1.0 - self.quiet_with_a_call as f64 / self.quiet.max(1) as f64
    }

    fn row(&self, label: &str) -> String {
        format!(
            "{label:<10} {:>8} {:>6} {:>9.2} {:>9} {:>13} {:>6.2} {:>6.2} {:>6.2}",
            self.sessions,
            self.calls,
            self.calls_per_session(),
            self.most_calls,
            format!("{}/{}", self.quiet - self.quiet_with_a_call, self.quiet),
            self.matched as f64 / self.produced.max(1) as f64,
            self.matched as f64 / self.expected.max(1) as f64,
            self.f1()
        )
    }
}

/// Where each of the person's prompts starts in a transcript (a `user` record of the main
/// conversation whose content is text, not a tool result, a compaction summary or a meta
/// record): the Stop after a prompt's reply sees the transcript up to the next one.
fn prompt_starts(transcript: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in transcript.split_inclusive('\n') {
        let record: Value = serde_json::from_str(line).unwrap_or(Value::Null);
        let content = &record["message"]["content"];
        let text = content.is_string()
            || content.as_array().is_some_and(|blocks| {
                blocks.iter().any(|b| b["type"] == "text")
                    && !blocks.iter().any(|b| b["type"] == "tool_result")
            });
        let prompt = record["type"] == "user"
            && text
            && record["isSidechain"] != true
            && record["isMeta"] != true
            && record["isCompactSummary"] != true;
        if prompt {
            starts.push(at);
        }
        at += line.len();
    }
    starts
}

/// Replay one labelled session as Claude Code drives the hooks.
fn replay(case: &Path) -> Tally {
    let (_, expected): (String, Expected) = expected_of(case);
    let mut env = TestEnv::new();
    env.set_var("PATH", &std::env::var("PATH").unwrap_or_default());
    let dir = env.memory_dir();
    for b in &expected.before {
        env.save(&b.r#type, &b.name, &b.description, &b.body);
    }
    let text = std::fs::read_to_string(case.join("transcript.jsonl"))
        .expect("transcript.jsonl")
        .replace("{{MEMORY_DIR}}", dir.to_str().expect("utf-8 dir"));
    let session = text
        .lines()
        .find_map(|l| {
            serde_json::from_str::<Value>(l).ok()?["sessionId"]
                .as_str()
                .map(str::to_string)
        })
        .unwrap_or_else(|| "session".into());
    let calls = env.root.join("calls");
    let cmd = format!(
        "PERFECT_CASE='{}' PERFECT_CALLS='{}' python3 '{}'",
        case.display(),
        calls.display(),
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/agent/perfect.py")
            .display()
    );
    let transcript = env.root.join(format!("{session}.jsonl"));
    let hook = |event: &str, upto: usize| {
        std::fs::write(&transcript, &text[..upto]).expect("write transcript");
        let payload = json!({
            "session_id": session, "transcript_path": transcript, "cwd": env.project,
            "hook_event_name": event,
        });
        let run = env.run_with_stdin(
            &["extract", "--hook", "--agent-cmd", &cmd],
            &payload.to_string(),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let drained = env.run(&["extract", "--drain", "--timeout", "120"]);
        assert_eq!(drained.code, 0, "{}: {}", case.display(), drained.stderr);
    };
    let starts = prompt_starts(&text);
    for next in starts.iter().skip(1) {
        hook("Stop", *next);
    }
    hook("Stop", text.len());
    hook("SessionEnd", text.len());

    let made = std::fs::read_to_string(&calls)
        .unwrap_or_default()
        .lines()
        .count();
    let memories = produced(&dir);
    let mut used = vec![false; memories.len()];
    let mut matched = 0;
    for want in &expected.memories {
        if let Some(i) = (0..memories.len()).find(|&i| !used[i] && matches(want, &memories[i])) {
            used[i] = true;
            matched += 1;
        }
    }
    // Nothing to remember: nothing to save, update or remove (every `before` survives as is).
    let quiet = expected.memories.len() == expected.before.len()
        && expected.memories.iter().all(|want| {
            expected.before.iter().any(|b| {
                let text = format!("{} {} {}", b.name, b.description, b.body).to_lowercase();
                b.r#type == want.r#type
                    && want
                        .contains
                        .iter()
                        .all(|c| text.contains(&c.to_lowercase()))
                    && !want.absent.iter().any(|a| text.contains(&a.to_lowercase()))
            })
        });
    if dir.join(".git").is_dir() {
        assert_git_clean(&dir);
    }
    Tally {
        sessions: 1,
        calls: made,
        quiet: usize::from(quiet),
        quiet_with_a_call: usize::from(quiet && made > 0),
        expected: expected.memories.len(),
        produced: memories.len(),
        matched,
        most_calls: made,
    }
}

fn set_dir(set: &str) -> PathBuf {
    if set == "cases" {
        PathBuf::from("fixtures/extraction/cases")
    } else {
        PathBuf::from(format!("fixtures/extraction/{set}/cases"))
    }
}

/// The targets (issue 27): with a model that answers perfectly, F1 at least 0.95, at most one
/// call per session on average, and no call in at least half the sessions with nothing to
/// remember.
#[test]
fn a_perfect_model_driven_as_claude_code_drives_the_hooks_loses_nothing_and_is_called_rarely() {
    let sets: Vec<String> = std::env::var("MEMDIR_CALLS_SETS")
        .map(|s| s.split_whitespace().map(str::to_string).collect())
        .unwrap_or_else(|_| {
            // Two writers by default (the suite's time); BENCHMARKS.md has every set.
            ["cases", "unseen"].map(str::to_string).into()
        });
    println!(
        "{:<10} {:>8} {:>6} {:>9} {:>9} {:>13} {:>6} {:>6} {:>6}",
        "set", "sessions", "calls", "calls/ses", "most", "quiet no call", "P", "R", "F1"
    );
    let mut all = Tally::default();
    for set in &sets {
        let mut tally = Tally::default();
        for case in labelled_cases(&set_dir(set).to_string_lossy()) {
            tally.add(&replay(&case));
        }
        println!("{}", tally.row(set));
        all.add(&tally);
    }
    println!("{}", all.row("all"));
    assert!(all.f1() >= 0.95, "F1 {:.3}", all.f1());
    assert!(
        all.calls_per_session() <= 1.0,
        "{:.2} calls a session",
        all.calls_per_session()
    );
    assert!(
        all.quiet_without_a_call() >= 0.5,
        "{} of {} sessions with nothing to remember cost a call",
        all.quiet_with_a_call,
        all.quiet
    );
}
