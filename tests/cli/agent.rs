//! `memdir extract --extractor agent|auto`: the JSON protocol driven against scripted agents
//! (`fixtures/agent/`): a well-behaved one, a hostile one that tries to leave the sandbox, one
//! past its time limit, broken ones, and memdir's own Claude Code runner against a stand-in
//! `claude` (`fixtures/agent/fake_claude.py`): the flags it is run with, its answer, and `auto`
//! falling back to the builtin extractor when it fails.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{
    Run, TestEnv, assert_git_clean, assert_index_consistent, subjects, tree_snapshot,
};

fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// `'…'` for `sh`.
fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// A small session transcript in Claude Code 2.1.332's JSONL format: each prompt a `user` record
/// with string content, each reply an `assistant` record with a text block.
fn write_transcript(path: &Path, session: &str, cwd: &Path, exchanges: &[(&str, &str)]) -> usize {
    let mut lines = String::new();
    let mut parent = Value::Null;
    for (n, (prompt, reply)) in exchanges.iter().enumerate() {
        let user = format!("{session}-u{n}");
        let assistant = format!("{session}-a{n}");
        let common = |kind: &str, uuid: &str, parent: &Value, second: usize| {
            json!({
                "parentUuid": parent, "isSidechain": false, "userType": "external",
                "entrypoint": "cli", "cwd": cwd, "sessionId": session, "version": "2.1.332",
                "gitBranch": "main", "type": kind, "uuid": uuid,
                "timestamp": format!("2026-03-05T10:{:02}:{second:02}.000Z", n),
            })
        };
        let mut record = common("user", &user, &parent, 0);
        record["promptId"] = json!(format!("{session}-p{n}"));
        record["permissionMode"] = json!("default");
        record["message"] = json!({"role": "user", "content": prompt});
        lines.push_str(&format!("{record}\n"));
        let mut record = common("assistant", &assistant, &json!(user), 5);
        record["requestId"] = json!(format!("req_{n}"));
        record["message"] = json!({
            "id": format!("msg_{session}_{n}"), "type": "message", "role": "assistant",
            "model": "claude-opus-5-5", "content": [{"type": "text", "text": reply}],
            "stop_reason": "end_turn", "stop_sequence": null,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        });
        lines.push_str(&format!("{record}\n"));
        parent = json!(assistant);
    }
    std::fs::write(path, &lines).expect("write transcript");
    lines.len()
}

/// An environment whose PATH finds `python3` (memdir passes PATH on to the agent).
fn agent_env() -> TestEnv {
    let mut env = TestEnv::new();
    env.set_var("PATH", &std::env::var("PATH").unwrap_or_default());
    env
}

fn extract(env: &TestEnv, transcript: &Path, agent_cmd: &str, timeout: &str) -> Run {
    env.run(&[
        "extract",
        "--transcript",
        transcript.to_str().expect("utf-8 path"),
        "--extractor",
        "agent",
        "--agent-cmd",
        agent_cmd,
        "--agent-timeout",
        timeout,
        "--json",
    ])
}

fn json_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn cursor_offset(memory_dir: &Path, session: &str) -> Option<u64> {
    let bytes = std::fs::read(
        memory_dir
            .join(".git/memdir/cursors")
            .join(format!("{session}.json")),
    )
    .ok()?;
    serde_json::from_slice::<Value>(&bytes).ok()?["offset"].as_u64()
}

/// A project with something to read, grep and glob.
fn write_project(project: &Path) {
    std::fs::create_dir_all(project.join("docs")).expect("docs");
    std::fs::create_dir_all(project.join("config")).expect("config");
    std::fs::write(
        project.join("docs/deploy.md"),
        "Staging deploys from release/42, never from main.\nAsk in #deploys before a freeze.\n",
    )
    .expect("deploy.md");
    std::fs::write(project.join("config/app.toml"), "name = \"app\"\n").expect("app.toml");
}

#[test]
fn a_well_behaved_agent_reads_the_project_and_saves_what_it_found() {
    let mut env = agent_env();
    // Kept from the agent: anything but PATH, HOME, LANG, CLAUDE_* and ANTHROPIC_*.
    env.set_var("GITHUB_TOKEN", "ghp_not_for_the_agent");
    env.set_var("CLAUDE_CODE_ENTRYPOINT", "cli");
    // The session whose hook started memdir is not the model's.
    env.set_var("CLAUDE_CODE_SESSION_ID", "the-hooks-session");
    write_project(&env.project);
    let transcript = env.root.join("s1.jsonl");
    let length = write_transcript(
        &transcript,
        "s1",
        &env.project,
        &[
            (
                "Remember: staging deploys from the release branch (see docs/deploy.md).",
                "Noted.",
            ),
            ("Thanks, that's all.", "You're welcome."),
        ],
    );
    let log = env.root.join("agent.log");
    let cmd = format!(
        "AGENT_LOG={} python3 {}",
        quote(&log),
        quote(&repo_file("fixtures/agent/well_behaved.py"))
    );
    let run = extract(&env, &transcript, &cmd, "60");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(
        report["outcomes"],
        json!([{"outcome": "saved", "name": "staging-deploys", "type": "project",
               "description": "Staging deploys from the release branch, never from main"}])
    );

    let turns = json_lines(&log);
    assert_eq!(turns.len(), 2, "the agent said done on turn 2");
    let dir = env.memory_dir();
    let first = &turns[0]["request"];
    assert_eq!(first["protocol"], "memdir-extract/2");
    assert_eq!(first["turn"], 1);
    assert_eq!(first["max_turns"], 5);
    assert_eq!(first["session"], "s1");
    assert_eq!(first["project"], json!(env.project));
    assert_eq!(first["memory_dir"], json!(dir));
    assert_eq!(first["results"], json!([]));
    assert_eq!(first["memories"], json!([]));
    assert_eq!(first["truncated"], false);
    // The gate left the thanks out: nothing in it could be worth remembering.
    assert_eq!(first["left_out"], 1);
    assert!(first.get("index").is_none(), "{first}");
    assert!(
        first["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("**How to apply:**") && i.contains("\"done\"")),
        "{first}"
    );
    assert_eq!(
        first["excerpt"],
        json!([
            {"role": "user", "text": "Remember: staging deploys from the release branch (see docs/deploy.md).",
             "timestamp": "2026-03-05T10:00:00.000Z"},
        ])
    );
    // What each read returned came back in the next request.
    assert_eq!(
        turns[1]["request"]["results"],
        json!([
            {"what": "read docs/deploy.md", "status": "ok", "truncated": false,
             "output": "Staging deploys from release/42, never from main.\nAsk in #deploys before a freeze.\n"},
            {"what": "grep release/[0-9]+", "status": "ok", "truncated": false,
             "output": "docs/deploy.md:1:Staging deploys from release/42, never from main."},
            {"what": "glob **/*.toml", "status": "ok", "truncated": false,
             "output": "config/app.toml"},
        ])
    );
    // The agent ran in the memory dir, with a cleared environment.
    let seen = &turns[0]["env"];
    assert_eq!(
        Path::new(turns[0]["cwd"].as_str().expect("cwd")),
        dir.canonicalize().expect("memory dir")
    );
    assert_eq!(seen["HOME"], json!(env.home));
    assert_eq!(seen["CLAUDE_CODE_ENTRYPOINT"], "cli");
    for hidden in [
        "GITHUB_TOKEN",
        "GIT_CONFIG_GLOBAL",
        "MEMDIR_MANAGED_DIR",
        "CLAUDE_CODE_SESSION_ID",
    ] {
        assert!(seen.get(hidden).is_none(), "{hidden} reached the agent");
    }

    let topic = std::fs::read_to_string(dir.join("staging-deploys.md")).expect("topic file");
    assert!(
        topic.contains("type: project")
            && topic.contains("Staging deploys from release/42, never from main.")
            && topic.contains("Seen at docs/deploy.md:1:")
            && topic.contains("Config files: config/app.toml")
            && topic.contains("**How to apply:**"),
        "{topic}"
    );
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
    assert_eq!(subjects(&dir), ["save(project): staging-deploys"]);
    assert_eq!(cursor_offset(&dir, "s1"), Some(length as u64));

    // Nothing new: the agent is not asked again.
    let again = extract(&env, &transcript, &cmd, "60");
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.json()["turns"], 0);
    assert_eq!(json_lines(&log).len(), 2);
    assert_eq!(subjects(&dir), ["save(project): staging-deploys"]);
}

#[test]
fn a_hostile_agent_is_refused_everything_and_nothing_outside_the_memory_dir_changes() {
    let env = agent_env();
    let outside = env.root.join("outside");
    std::fs::create_dir_all(&outside).expect("outside");
    std::fs::write(outside.join("secret.txt"), "TOP SECRET OUTSIDE\n").expect("secret");
    std::os::unix::fs::symlink(&outside, env.project.join("escape")).expect("symlink");
    std::fs::create_dir_all(env.home.join(".ssh")).expect(".ssh");
    std::fs::write(
        env.home.join(".ssh/id_rsa"),
        "-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE-KEY-MATERIAL\n-----END OPENSSH PRIVATE KEY-----\n",
    )
    .expect("planted key");
    write_project(&env.project);
    let transcript = env.root.join("s2.jsonl");
    let length = write_transcript(
        &transcript,
        "s2",
        &env.project,
        &[("Remember that we deploy on Tuesdays.", "Noted.")],
    );
    let state = env.root.join("agent-state");
    std::fs::create_dir_all(&state).expect("agent state");
    let (count, log) = (state.join("count"), state.join("log"));
    let cmd = format!(
        "AGENT_COUNT={} AGENT_LOG={} OUTSIDE={} python3 {}",
        quote(&count),
        quote(&log),
        quote(&outside),
        quote(&repo_file("fixtures/agent/hostile.py"))
    );
    let dir = env.memory_dir();
    let outside_memory =
        |snapshot: std::collections::BTreeMap<PathBuf, Vec<u8>>| -> Vec<(PathBuf, Vec<u8>)> {
            snapshot
                .into_iter()
                .filter(|(p, _)| !p.starts_with(&dir) && !p.starts_with(&state))
                .collect()
        };
    let before = outside_memory(tree_snapshot(&env.root));
    assert!(before.iter().any(|(p, _)| p.ends_with(".ssh/id_rsa")));

    let run = extract(&env, &transcript, &cmd, "60");
    // Refusals are outcomes, not failures: the run succeeds and reports them.
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();

    assert_eq!(
        std::fs::read_to_string(&count)
            .expect("count")
            .lines()
            .count(),
        5,
        "the agent is run at most 5 times"
    );
    let turns = json_lines(&log);
    assert_eq!(turns.len(), 5);
    // Each turn's refusals are in the next turn's results, one per action, in order.
    let expected_whys: [&[&str]; 4] = [
        &[
            "invalid memory name",
            "unknown action \"write\"",
            "unknown action \"bash\"",
        ],
        &[
            "'~' is not expanded",
            "outside the project",
            "outside the project",
            "outside the project",
        ],
        &[
            "an Anthropic API key",
            "save takes no \"path\"",
            "unknown action \"exec\"",
        ],
        &[
            "cannot hold '..'",
            "outside the project",
            "unknown action \"shell\"",
            "unknown action \"write\"",
        ],
    ];
    for (t, whys) in expected_whys.iter().enumerate() {
        let asked = turns[t]["response"]["actions"].as_array().expect("actions");
        let results = turns[t + 1]["request"]["results"]
            .as_array()
            .expect("results");
        assert_eq!(results.len(), asked.len(), "turn {}", t + 2);
        for (result, why) in results.iter().zip(whys.iter()) {
            assert_eq!(result["status"], "refused", "turn {}: {result}", t + 2);
            assert!(
                result["why"].as_str().is_some_and(|w| w.contains(why)),
                "turn {}: want {why:?} in {result}",
                t + 2
            );
        }
    }
    // Every action of every turn is a refused outcome, then the sixth turn that was not run.
    let outcomes = report["outcomes"].as_array().expect("outcomes");
    let asked: usize = turns
        .iter()
        .map(|t| t["response"]["actions"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(outcomes.len(), asked + 1, "{outcomes:#?}");
    assert!(
        outcomes.iter().all(|o| o["outcome"] == "refused"),
        "{outcomes:#?}"
    );
    assert_eq!(
        outcomes.last(),
        Some(&json!({"outcome": "refused", "what": "turn 6", "why": "the turn limit is 5"}))
    );
    let last_turn: Vec<&str> = outcomes[asked - 4..asked]
        .iter()
        .map(|o| o["why"].as_str().unwrap_or(""))
        .collect();
    assert!(last_turn[0].contains("git internals"), "{last_turn:?}");
    assert!(
        last_turn[1].contains("invalid memory name"),
        "{last_turn:?}"
    );
    assert!(
        last_turn[2].contains("unknown memory type"),
        "{last_turn:?}"
    );
    assert!(last_turn[3].contains("JSON object"), "{last_turn:?}");
    // The key's text is never echoed in the report.
    assert!(!run.stdout.contains("sk-ant-"), "{}", run.stdout);

    // Nothing read from outside reached the agent, and nothing outside changed.
    let requests = std::fs::read_to_string(&log).expect("log");
    assert!(!requests.contains("FAKE-KEY-MATERIAL"));
    assert!(!requests.contains("TOP SECRET OUTSIDE"));
    assert_eq!(outside_memory(tree_snapshot(&env.root)), before);
    // Nor inside: no memory, no commit, a sound repository.
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("memory dir")
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != ".git")
        .collect();
    assert!(files.is_empty(), "{files:?}");
    assert_git_clean(&dir);
    assert!(subjects(&dir).is_empty());
    assert_eq!(cursor_offset(&dir, "s2"), Some(length as u64));
}

/// Whether a process is gone (or a zombie waiting for its parent).
pub fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
    }
}

#[test]
fn an_agent_past_its_time_limit_is_killed_with_its_children_and_the_cursor_stays() {
    let env = agent_env();
    write_project(&env.project);
    let transcript = env.root.join("s3.jsonl");
    write_transcript(
        &transcript,
        "s3",
        &env.project,
        &[(
            "Remember: staging deploys from the release branch.",
            "Noted.",
        )],
    );
    let pids = env.root.join("pids");
    let cmd = format!(
        "AGENT_PIDS={} {}",
        quote(&pids),
        quote(&repo_file("fixtures/agent/slow.sh"))
    );
    let run = extract(&env, &transcript, &cmd, "1");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let first = run.error_message();
    assert!(
        first.contains("turn 1") && first.contains("time limit"),
        "{}",
        run.stderr
    );
    // The agent and the child it started were both killed (the process group).
    let pids = std::fs::read_to_string(&pids).expect("the agent wrote its pids");
    for pid in pids.split_whitespace() {
        let start = Instant::now();
        while !gone(pid) && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(gone(pid), "process {pid} outlived the time limit");
    }
    let dir = env.memory_dir();
    assert_eq!(cursor_offset(&dir, "s3"), None, "the cursor did not move");
    assert!(subjects(&dir).is_empty());

    // The range is retried from the old cursor by the next run.
    let log = env.root.join("agent.log");
    let good = format!(
        "AGENT_LOG={} python3 {}",
        quote(&log),
        quote(&repo_file("fixtures/agent/well_behaved.py"))
    );
    let retry = extract(&env, &transcript, &good, "60");
    assert_eq!(retry.code, 0, "{}", retry.stderr);
    let report = retry.json();
    assert_eq!(report["from"], 0);
    assert_eq!(report["turns"], 1);
    assert_eq!(report["outcomes"][0]["outcome"], "saved");
    assert_git_clean(&dir);
    assert_eq!(subjects(&dir), ["save(project): staging-deploys"]);
}

#[test]
fn an_agent_that_fails_or_does_not_answer_json_is_a_run_error() {
    let env = agent_env();
    let transcript = env.root.join("s4.jsonl");
    write_transcript(
        &transcript,
        "s4",
        &env.project,
        &[("From now on, always run the linter first.", "OK.")],
    );
    let cases = [
        (
            "cat >/dev/null; echo 'Sure! Here are my actions.'",
            "its response is not JSON",
        ),
        (
            "cat >/dev/null; echo oops >&2; exit 3",
            "exited with code 3 (oops)",
        ),
        (
            "cat >/dev/null; echo '[1, 2]'",
            "its response is not a JSON object",
        ),
        (
            "cat >/dev/null; echo '{\"actions\": \"done\"}'",
            "\"actions\" field that is not a list",
        ),
    ];
    for (cmd, needle) in cases {
        let run = extract(&env, &transcript, cmd, "30");
        assert_eq!(run.code, 1, "{cmd}: {}{}", run.stdout, run.stderr);
        let first = run.error_message();
        assert!(
            first.starts_with("the agent failed on turn 1:") && first.contains(needle),
            "{cmd}: want {needle:?} in {}",
            run.stderr
        );
    }
    let dir = env.memory_dir();
    assert_eq!(cursor_offset(&dir, "s4"), None);
    assert!(subjects(&dir).is_empty());
    assert_git_clean(&dir);

    // An empty answer ends the run: nothing to save, and the cursor moves.
    let run = extract(&env, &transcript, "cat >/dev/null; echo '{}'", "30");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["outcomes"], json!([]));
    assert!(cursor_offset(&dir, "s4").is_some());
}

/// A `bin` dir whose `claude` is the stand-in (`fixtures/agent/fake_claude.py`).
fn fake_claude(env: &TestEnv) -> (PathBuf, PathBuf) {
    let bin = env.root.join("fakebin");
    let state = env.root.join("fake-claude");
    std::fs::create_dir_all(&bin).expect("bin");
    std::fs::create_dir_all(&state).expect("state");
    let claude = bin.join("claude");
    std::fs::write(
        &claude,
        format!(
            "#!/bin/sh\nexec python3 {} \"$@\"\n",
            quote(&repo_file("fixtures/agent/fake_claude.py"))
        ),
    )
    .expect("fake claude");
    std::fs::set_permissions(&claude, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    (bin, state)
}

/// `memdir extract` with the native runner: `--extractor NAME`, no `--agent-cmd`, the stand-in
/// `claude` first on PATH.
fn extract_with_claude(env: &TestEnv, transcript: &Path, extractor: &str) -> Run {
    env.run(&[
        "extract",
        "--transcript",
        transcript.to_str().expect("utf-8 path"),
        "--extractor",
        extractor,
        "--json",
    ])
}

/// An environment whose PATH finds the stand-in `claude` first; its calls go to the returned
/// state dir.
fn claude_env(mode: &str) -> (TestEnv, PathBuf) {
    let mut env = agent_env();
    let (bin, state) = fake_claude(&env);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    env.set_var("PATH", &path);
    env.set_var("CLAUDE_FAKE_STATE", state.to_str().expect("utf-8"));
    env.set_var("CLAUDE_FAKE_MODE", mode);
    (env, state)
}

fn calls(state: &Path) -> Vec<Value> {
    let mut calls = Vec::new();
    while let Ok(bytes) = std::fs::read(state.join(format!("call-{}.json", calls.len() + 1))) {
        calls.push(serde_json::from_slice(&bytes).expect("call record"));
    }
    calls
}

#[test]
fn memdir_runs_claude_print_mode_itself_and_carries_out_its_answer() {
    let (mut env, state) = claude_env("");
    // A model set in the user's settings; the hook session's identity stays out of the child.
    std::fs::create_dir_all(env.home.join(".claude")).expect("config dir");
    std::fs::write(
        env.home.join(".claude/settings.json"),
        r#"{"memdir": {"extract": {"model": "claude-haiku-4-5"}}}"#,
    )
    .expect("settings");
    env.set_var("CLAUDE_CODE_SESSION_ID", "the-hooks-session");
    let transcript = env.root.join("s5.jsonl");
    write_transcript(
        &transcript,
        "s5",
        &env.project,
        &[(
            "From now on use bun, never npm: the lockfile is bun.lockb.",
            "Will do.",
        )],
    );
    let run = extract_with_claude(&env, &transcript, "agent");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(
        report["outcomes"],
        json!([{"outcome": "saved", "name": "prefer-bun", "type": "feedback",
               "description": "Use bun, never npm, in this project"}])
    );
    assert_eq!(report["extractor"], "agent");
    assert_eq!(report["model"], "claude (claude-haiku-4-5)");
    assert_eq!(report["model_calls"], 1);
    assert_eq!(report["cost_usd"], 0.0012);
    // One `claude -p` call, with no tools, hooks, plugins, MCP or saved session, and the answer
    // asked for as structured output.
    let calls = calls(&state);
    assert_eq!(calls.len(), 1, "the model said done");
    let argv: Vec<&str> = calls[0]["argv"]
        .as_array()
        .expect("argv")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for window in [
        &["-p"][..],
        &["--output-format", "json"],
        &["--max-turns", "1"],
        &["--tools", ""],
        &["--safe-mode"],
        &["--strict-mcp-config"],
        &["--no-session-persistence"],
        &["--model", "claude-haiku-4-5"],
    ] {
        assert!(
            argv.windows(window.len()).any(|w| w == window),
            "want {window:?} in {argv:?}"
        );
    }
    let schema_at = argv
        .iter()
        .position(|a| *a == "--json-schema")
        .expect("--json-schema");
    let schema: Value = serde_json::from_str(argv[schema_at + 1]).expect("a JSON schema");
    assert_eq!(schema["required"], json!(["actions"]));
    assert!(argv.contains(&"--system-prompt"), "{argv:?}");
    let child = &calls[0]["env"];
    assert_eq!(child["CLAUDE_CODE_DISABLE_AUTO_MEMORY"], "1");
    assert!(child.get("CLAUDE_CODE_SESSION_ID").is_none(), "{child}");
    let request: Value =
        serde_json::from_str(calls[0]["stdin"].as_str().expect("stdin")).expect("the request");
    assert_eq!(request["protocol"], "memdir-extract/2");
    assert!(
        request["excerpt"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("use bun, never npm")),
        "{request}"
    );
    let dir = env.memory_dir();
    let topic = std::fs::read_to_string(dir.join("prefer-bun.md")).expect("topic file");
    assert!(
        topic.contains("type: feedback") && topic.contains("**Why:**"),
        "{topic}"
    );
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
    assert_eq!(subjects(&dir), ["save(feedback): prefer-bun"]);
}

#[test]
fn agent_fails_the_run_when_claude_cannot_answer_so_the_range_is_retried() {
    for (mode, needle) in [
        (
            "fail",
            "claude reported an error (api_error): Not logged in · Please run /login",
        ),
        (
            "text",
            "claude finished without an answer in the requested form: it wrote: Sure!",
        ),
    ] {
        let (env, state) = claude_env(mode);
        let transcript = env.root.join("s6.jsonl");
        write_transcript(
            &transcript,
            "s6",
            &env.project,
            &[("From now on use bun, never npm.", "Will do.")],
        );
        let run = extract_with_claude(&env, &transcript, "agent");
        assert_eq!(run.code, 1, "{mode}: {}{}", run.stdout, run.stderr);
        assert!(
            run.error_message()
                .starts_with(&format!("the agent failed on turn 1: {needle}")),
            "{mode}: {}",
            run.stderr
        );
        assert_eq!(calls(&state).len(), 1, "{mode}");
        let dir = env.memory_dir();
        assert!(subjects(&dir).is_empty(), "{mode}");
        assert!(
            !dir.join(".git/memdir/cursors/s6.json").exists(),
            "{mode}: the cursor stays for a retry"
        );
    }
}

#[test]
fn auto_falls_back_to_the_builtin_extractor_and_marks_the_range_for_the_model() {
    // Claude Code fails (not logged in): the builtin extractor saves what it is sure of, the
    // command succeeds, the cursor moves, and the range is marked.
    let (mut env, state) = claude_env("fail");
    // Where Claude Code keeps the project's sessions, for `extract --all` to find it later.
    let transcript = crate::extract::sessions_folder(&env, &env.project).join("s7.jsonl");
    let length = write_transcript(
        &transcript,
        "s7",
        &env.project,
        &[
            (
                "From now on, always run make lint before committing.",
                "OK.",
            ),
            ("Thanks!", "You're welcome."),
        ],
    );
    let run = extract_with_claude(&env, &transcript, "auto");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["extractor"], "builtin", "{report}");
    assert!(
        report["fallback"].as_str().is_some_and(|f| f.starts_with(
            "claude (haiku) did not answer: claude reported an error (api_error): Not logged in"
        )),
        "{report}"
    );
    assert_eq!(report["marked_for_redo"], true);
    assert_eq!(report["gate"], json!({"prompts": 2, "passed": 1}));
    assert_eq!(report["outcomes"][0]["outcome"], "saved", "{report}");
    assert_eq!(calls(&state).len(), 1);
    let dir = env.memory_dir();
    assert_eq!(cursor_offset(&dir, "s7"), Some(length as u64));
    let builtin_saves = subjects(&dir);
    assert_eq!(builtin_saves.len(), 1, "{builtin_saves:?}");
    let redo: Value = serde_json::from_slice(
        &std::fs::read(dir.join(".git/memdir/redo/s7.json")).expect("marked"),
    )
    .expect("json");
    assert_eq!(redo["ranges"][0]["from"], 0);
    assert_eq!(redo["ranges"][0]["to"], length);

    // No `claude` at all: the same, without a call.
    let mut bare = agent_env();
    bare.set_var("PATH", "/usr/bin:/bin");
    let t2 = bare.root.join("s8.jsonl");
    write_transcript(
        &t2,
        "s8",
        &bare.project,
        &[(
            "From now on, always run make lint before committing.",
            "OK.",
        )],
    );
    let run = extract_with_claude(&bare, &t2, "auto");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json()["fallback"],
        "claude is not installed (no `claude` on PATH)"
    );

    // While Claude Code still does not answer, `extract --all --extractor agent` says so (exit
    // 1, one line) and the mark stays; the session itself is read.
    let failing = env.run(&["extract", "--all", "--extractor", "agent"]);
    assert_eq!(failing.code, 1, "{}{}", failing.stdout, failing.stderr);
    assert!(
        failing
            .stdout
            .ends_with("1 session(s) read, 0 memory change(s) saved\n"),
        "{}",
        failing.stdout
    );
    assert!(
        failing.stderr.starts_with(
            "warning: the ranges marked for a model could not be redone: the agent failed on turn 1: claude reported an error"
        ) && failing
            .stderr
            .contains("\nerror: no model redid the ranges marked for one;"),
        "{}",
        failing.stderr
    );
    assert_eq!(calls(&state).len(), 2, "claude was asked once more");
    assert!(dir.join(".git/memdir/redo/s7.json").exists());

    // Once Claude Code answers, `extract --all --extractor agent` hands the marked range to it:
    // one call, the memory the model saved, the mark gone, the cursor where it was.
    env.set_var("CLAUDE_FAKE_MODE", "");
    let all = env.run(&["extract", "--all", "--extractor", "agent", "--json"]);
    assert_eq!(all.code, 0, "{}{}", all.stdout, all.stderr);
    assert_eq!(calls(&state).len(), 3, "one call for the marked range");
    assert!(!dir.join(".git/memdir/redo/s7.json").exists());
    let mut after = subjects(&dir);
    after.sort();
    assert!(
        after.contains(&"save(feedback): prefer-bun".to_string()),
        "{after:?}"
    );
    assert_eq!(cursor_offset(&dir, "s7"), Some(length as u64));
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
}
