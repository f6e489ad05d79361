//! `memdir extract`: foreground runs, cursors, mutual exclusion, the enable switch, and the
//! background worker (coalescing, trailing runs, a killed worker).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{TestEnv, assert_git_clean, assert_index_consistent, git, subjects, wait_for};

/// Transcript lines in Claude Code's format (2.1.x), enough for extraction.
pub struct Transcript {
    session: String,
    cwd: PathBuf,
    lines: Vec<String>,
    n: usize,
}

impl Transcript {
    pub fn new(session: &str, cwd: &Path) -> Transcript {
        Transcript {
            session: session.into(),
            cwd: cwd.to_path_buf(),
            lines: Vec::new(),
            n: 0,
        }
    }

    fn base(&mut self, kind: &str) -> serde_json::Value {
        self.n += 1;
        serde_json::json!({
            "parentUuid": null,
            "isSidechain": false,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session,
            "version": "2.1.38",
            "gitBranch": "main",
            "type": kind,
            "uuid": format!("{}-{:04}", self.session, self.n),
            "timestamp": format!("2026-03-05T10:{:02}:00.000Z", self.n % 60),
        })
    }

    pub fn user(&mut self, text: &str) -> &mut Self {
        let mut record = self.base("user");
        record["message"] = serde_json::json!({"role": "user", "content": text});
        self.lines.push(record.to_string());
        self
    }

    pub fn assistant(&mut self, text: &str) -> &mut Self {
        let mut record = self.base("assistant");
        record["message"] = serde_json::json!({
            "id": format!("msg_{}", self.n), "type": "message", "role": "assistant",
            "content": [{"type": "text", "text": text}]
        });
        self.lines.push(record.to_string());
        self
    }

    pub fn write_tool(&mut self, tool: &str, path: &Path) -> &mut Self {
        let mut record = self.base("assistant");
        record["message"] = serde_json::json!({
            "id": format!("msg_{}", self.n), "type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": format!("toolu_{}", self.n), "name": tool,
                         "input": {"file_path": path, "content": "x"}}]
        });
        self.lines.push(record.to_string());
        self
    }

    pub fn text(&self) -> String {
        self.lines.iter().map(|l| format!("{l}\n")).collect()
    }

    pub fn write(&self, path: &Path) {
        std::fs::write(path, self.text()).expect("write transcript");
    }
}

/// The offset of `session`'s cursor, if it has one.
pub fn cursor_offset(memory_dir: &Path, session: &str) -> Option<u64> {
    let path = memory_dir
        .join(".git/memdir/cursors")
        .join(format!("{session}.json"));
    let bytes = std::fs::read(path).ok()?;
    let json: serde_json::Value = serde_json::from_slice(&bytes).expect("cursor is JSON");
    json["offset"].as_u64()
}

fn outcomes(report: &serde_json::Value) -> Vec<String> {
    report["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| {
            format!(
                "{} {}",
                o["outcome"].as_str().unwrap_or(""),
                o["name"].as_str().unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn foreground_saves_once_and_a_second_run_starts_at_the_cursor() {
    let env = TestEnv::new();
    let file = env.root.join("s1.jsonl");
    let mut t = Transcript::new("s1", &env.project);
    t.user("Fix the flaky login test please.")
        .assistant("Fixed: the test raced the server start.")
        .user("From now on, always run cargo fmt before committing.")
        .assistant("Will do.");
    t.write(&file);
    let file_arg = file.to_str().expect("utf-8 path");
    let report = env
        .ok(&["extract", "--transcript", file_arg, "--json"])
        .json();
    assert_eq!(report["turns"], 2);
    assert_eq!(outcomes(&report), ["saved run-cargo-fmt-committing"]);
    let dir = env.memory_dir();
    let body =
        std::fs::read_to_string(dir.join("run-cargo-fmt-committing.md")).expect("topic file");
    // The person gave no reason: none is made up.
    assert!(
        body.contains("type: feedback") && !body.contains("**Why:**"),
        "{body}"
    );
    // Every message is accounted for: what it saved, or why nothing.
    assert_eq!(
        report["messages"],
        serde_json::json!([
            {"end": report["messages"][0]["end"], "excerpt": "Fix the flaky login test please.",
             "memories": [], "unsaved": "one_off"},
            {"end": report["messages"][1]["end"],
             "excerpt": "From now on, always run cargo fmt before committing.",
             "memories": ["run-cargo-fmt-committing"], "unsaved": null},
        ])
    );
    assert_eq!(cursor_offset(&dir, "s1"), Some(t.text().len() as u64));
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
    assert_eq!(subjects(&dir), ["save(feedback): run-cargo-fmt-committing"]);
    let log = git(&dir, &["log", "-1", "--format=%B"]);
    assert!(log.contains("Memdir-Session: s1"), "{log}");

    // Nothing new: nothing read, nothing committed.
    let again = env
        .ok(&["extract", "--transcript", file_arg, "--json"])
        .json();
    assert_eq!(again["turns"], 0);
    assert_eq!(again["from"], again["to"]);
    assert_eq!(subjects(&dir).len(), 1);

    // The session goes on; only the new part is read.
    t.user(
        "Our roadmap board is https://linear.app/acme/project/ingest, check it before planning.",
    );
    t.write(&file);
    let more = env
        .ok(&["extract", "--transcript", file_arg, "--json"])
        .json();
    assert_eq!(more["turns"], 1);
    assert_eq!(more["outcomes"][0]["outcome"], "saved");
    assert_eq!(more["outcomes"][0]["type"], "reference");
    assert_eq!(subjects(&dir).len(), 2);
    assert_git_clean(&dir);
}

#[test]
fn a_record_still_being_written_waits_for_the_next_run() {
    let env = TestEnv::new();
    let file = env.root.join("s2.jsonl");
    let mut t = Transcript::new("s2", &env.project);
    t.user("From now on, never reset the staging database: it is shared with QA.");
    let full = t.text();
    let cut = full.len() - 20;
    std::fs::write(&file, &full[..cut]).expect("partial write");
    let file_arg = file.to_str().expect("utf-8 path");
    let first = env
        .ok(&["extract", "--transcript", file_arg, "--json"])
        .json();
    assert_eq!(first["turns"], 0);
    assert_eq!(first["to"], 0);
    std::fs::write(&file, &full).expect("complete write");
    let second = env
        .ok(&["extract", "--transcript", file_arg, "--json"])
        .json();
    assert_eq!(second["turns"], 1);
    assert_eq!(second["outcomes"].as_array().map(Vec::len), Some(1));
}

/// `memdir extract --transcript FILE --json`'s report; the run must succeed.
fn extract_report(env: &TestEnv, file: &Path) -> serde_json::Value {
    env.ok(&[
        "extract",
        "--transcript",
        file.to_str().expect("utf-8"),
        "--json",
    ])
    .json()
}

/// Whether a report says the range was skipped because the agent wrote memory itself.
fn agent_wrote_memory(report: &serde_json::Value) -> bool {
    report["skipped"]
        .as_str()
        .is_some_and(|s| s.contains("wrote memory itself"))
}

#[test]
fn memory_the_agent_wrote_itself_is_adopted_not_extracted_again() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    std::fs::create_dir_all(&dir).expect("memory dir");
    // The agent saves a memory with its own tools, as Claude Code does.
    std::fs::write(
        dir.join("tabs.md"),
        "---\nname: tabs\ndescription: Indent with tabs\ntype: feedback\n---\nIndent with tabs.\n",
    )
    .expect("topic");
    std::fs::write(
        dir.join("MEMORY.md"),
        "- [Tabs](tabs.md) — Indent with tabs\n",
    )
    .expect("index");
    let file = env.root.join("s3.jsonl");
    let mut t = Transcript::new("s3", &env.project);
    t.user("Always indent with tabs, remember that.")
        .write_tool("Write", &dir.join("tabs.md"))
        .write_tool("Edit", &dir.join("MEMORY.md"))
        .assistant("Saved to memory.");
    t.write(&file);
    let report = extract_report(&env, &file);
    assert!(agent_wrote_memory(&report), "{report}");
    assert_eq!(report["outcomes"].as_array().map(Vec::len), Some(0));
    assert_eq!(report["adopted"][0], "adopt(feedback): tabs");
    assert_eq!(cursor_offset(&dir, "s3"), Some(t.text().len() as u64));
    assert_eq!(subjects(&dir), ["adopt(feedback): tabs"]);
    assert_git_clean(&dir);
}

#[test]
fn a_turn_that_saved_through_memdirs_mcp_server_is_not_extracted_again() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    let prompt = "Remember that the release freeze starts on 2026-12-15, only P0 fixes merge.";
    for (session, tool, extracted) in [
        ("m1", "mcp__plugin_memdir_memdir__save", false),
        ("m2", "mcp__memdir__remove", false),
        // Another server's tool named `save` is no memory write of memdir's.
        ("m3", "mcp__notes__save", true),
    ] {
        let file = env.root.join(format!("{session}.jsonl"));
        let mut t = Transcript::new(session, &env.project);
        t.user(prompt)
            .write_tool(tool, &env.project.join("x"))
            .assistant("Saved.");
        t.write(&file);
        let report = extract_report(&env, &file);
        assert_eq!(agent_wrote_memory(&report), !extracted, "{tool}: {report}");
        assert_eq!(cursor_offset(&dir, session), Some(t.text().len() as u64));
    }
    // Only the turn whose tool was not memdir's was extracted: one memory, one commit.
    assert_eq!(subjects(&dir).len(), 1, "{:?}", subjects(&dir));
    assert_git_clean(&dir);
}

#[test]
fn auto_memory_off_extracts_nothing_and_says_so() {
    let mut env = TestEnv::new();
    env.set_var("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");
    let file = env.root.join("s4.jsonl");
    Transcript::new("s4", &env.project)
        .user("From now on always use pnpm.")
        .write(&file);
    env.fails(
        &["extract", "--transcript", file.to_str().expect("utf-8")],
        3,
        "auto memory is disabled by CLAUDE_CODE_DISABLE_AUTO_MEMORY=1",
    );
    // The hook does nothing either, but answers 0 (Claude Code would show any other code as
    // a hook error after every turn).
    let payload = serde_json::json!({"session_id": "s4", "transcript_path": file, "cwd": env.project, "hook_event_name": "Stop"});
    let run = env.run_with_stdin(&["extract", "--hook"], &payload.to_string());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!env.root.join("home/.claude/projects").exists());
}

#[test]
fn bad_usage_is_refused() {
    let env = TestEnv::new();
    env.fails(&["extract"], 2, "error:");
    env.fails(
        &["extract", "--transcript", "/nonexistent.jsonl"],
        2,
        "the transcript /nonexistent.jsonl does not exist",
    );
    let file = env.root.join("x.jsonl");
    std::fs::write(&file, "").expect("empty transcript");
    env.fails(
        &[
            "extract",
            "--transcript",
            file.to_str().expect("utf-8"),
            "--extractor",
            "builtin",
            "--agent-cmd",
            "my-model",
        ],
        2,
        "--agent-cmd names the model, which --extractor builtin does not use",
    );
    env.fails(
        &["extract", "--drain", "--dry-run"],
        2,
        "the argument '--drain' cannot be used with '--dry-run'",
    );
    let elsewhere = env.root.join("elsewhere.jsonl");
    Transcript::new("s9", Path::new("/nonexistent/project"))
        .user("From now on always use pnpm.")
        .write(&elsewhere);
    env.fails(
        &[
            "extract",
            "--transcript",
            elsewhere.to_str().expect("utf-8"),
        ],
        2,
        "the session ran in /nonexistent/project, which is not here; give --project DIR",
    );
    // Hook mode answers 0 and logs the problem (tests/cli/hostile_extract.rs has the rest).
    let run = env.run_with_stdin(&["extract", "--hook"], "not json");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let log = std::fs::read_to_string(env.home.join(".claude/memdir/hooks.log")).expect("log");
    assert!(
        log.contains("extract --hook: the hook payload on stdin is not a JSON object"),
        "{log}"
    );
}

/// Live `memdir extract --worker` processes for this memory dir.
fn live_workers(memory_dir: &Path) -> usize {
    let needle = memory_dir.to_str().expect("utf-8");
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains("--worker") && c.contains(needle))
        .count()
}

/// A Stop/SessionEnd hook payload as Claude Code 2.1.x writes it.
pub fn hook_payload(session: &str, transcript: &Path, cwd: &Path, event: &str) -> String {
    serde_json::json!({
        "session_id": session,
        "transcript_path": transcript,
        "cwd": cwd,
        "hook_event_name": event,
        "stop_hook_active": false,
    })
    .to_string()
}

#[test]
fn twenty_hook_calls_for_three_sessions_one_worker_then_drain() {
    let mut env = TestEnv::new();
    env.set_var("MEMDIR_FAULT_DELAY_MS", "150");
    let dir = env.memory_dir();
    let rules = [
        ("a", "From now on, always run the linter before committing."),
        ("b", "From now on, never force-push to the main branch."),
        ("c", "Always write commit messages in the imperative mood."),
    ];
    let mut files = Vec::new();
    for (session, rule) in rules {
        let file = env.root.join(format!("{session}.jsonl"));
        let mut t = Transcript::new(session, &env.project);
        t.user("Let's get started on the release notes.")
            .assistant("Sure.")
            .user(rule);
        t.write(&file);
        files.push((session, file, t));
    }
    for i in 0..20 {
        let (session, file, t) = &mut files[i % 3];
        // The sessions go on while the hooks fire.
        t.assistant("Done.").user("Thanks, next item.");
        t.write(file);
        let run = env.run_with_stdin(
            &["extract", "--hook"],
            &hook_payload(session, file, &env.project, "Stop"),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, "");
    }
    // Workers a racing hook started give up at once on the lock: one is left, serving.
    wait_for("not exactly one worker", Duration::from_secs(10), || {
        live_workers(&dir) == 1
    });
    let drained = env.ok(&["extract", "--drain", "--timeout", "60"]);
    assert_eq!(live_workers(&dir), 0, "{}", drained.stdout);
    for (session, file, _) in &files {
        let len = std::fs::metadata(file).expect("transcript").len();
        assert_eq!(cursor_offset(&dir, session), Some(len), "session {session}");
    }
    let mut saved = subjects(&dir);
    saved.sort();
    assert_eq!(
        saved,
        [
            "save(feedback): never-force-push-main-branch",
            "save(feedback): run-linter-committing",
            "save(feedback): write-commit-messages-imperative",
        ]
    );
    assert!(
        !dir.join(".git/memdir/requests")
            .read_dir()
            .is_ok_and(|mut d| d.next().is_some())
    );
    assert_git_clean(&dir);
}

#[test]
fn the_throttle_waits_but_a_trailing_run_does_not() {
    let mut env = TestEnv::new();
    std::fs::create_dir_all(env.home.join(".claude")).expect("config dir");
    std::fs::write(
        env.home.join(".claude/settings.json"),
        r#"{"memdir": {"extractEveryTurns": 3}}"#,
    )
    .expect("settings");
    env.set_var("MEMDIR_FAULT_DELAY_MS", "400");
    let dir = env.memory_dir();
    let first = env.root.join("first.jsonl");
    Transcript::new("first", &env.project)
        .user("From now on, never commit generated files.")
        .write(&first);
    let second = env.root.join("second.jsonl");
    Transcript::new("second", &env.project)
        .user("From now on, always squash before merging.")
        .write(&second);
    let hook = |session: &str, file: &Path| {
        let run = env.run_with_stdin(
            &["extract", "--hook"],
            &hook_payload(session, file, &env.project, "Stop"),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
    };
    hook("first", &first);
    let serving_first = dir.join(".git/memdir/attempts/first.json");
    wait_for(
        "the worker never started on 'first'",
        Duration::from_secs(10),
        || serving_first.exists(),
    );
    // Arrives while the worker runs: served by a trailing run, which skips the throttle.
    hook("second", &second);
    env.ok(&["extract", "--drain"]);
    assert_eq!(cursor_offset(&dir, "first"), None, "1 turn of 3: throttled");
    assert!(cursor_offset(&dir, "second").is_some());
    assert_eq!(subjects(&dir), ["save(feedback): squash-merging"]);
    // SessionEnd does not wait for the throttle either.
    let run = env.run_with_stdin(
        &["extract", "--hook"],
        &hook_payload("first", &first, &env.project, "SessionEnd"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    env.ok(&["extract", "--drain"]);
    assert!(cursor_offset(&dir, "first").is_some());
    assert_eq!(subjects(&dir).len(), 2);
    assert_git_clean(&dir);
}

/// With a model, a Stop puts what the gate passed in the session's batch (the cursor waits) and
/// SessionEnd sends the batch: one call for the session. A session with nothing the gate passes
/// costs none. Whoever serves a request, the worker or `--drain`, extracts with the extractor its
/// hook named, whatever its own flags say.
#[test]
fn stops_batch_for_the_model_and_session_end_sends_one_request() {
    let mut env = TestEnv::new();
    env.set_var("PATH", &std::env::var("PATH").unwrap_or_default());
    let dir = env.memory_dir();
    let calls = env.root.join("calls");
    let model = format!(
        "cat >/dev/null; echo call >> '{}'; echo '{}'",
        calls.display(),
        serde_json::json!({"actions": [
            {"action": "save", "name": "run-linter", "type": "feedback",
             "description": "Run the linter before committing", "body": "Run the linter before committing."},
            {"action": "done"}]})
    );
    let calls_made = || {
        std::fs::read_to_string(&calls)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let hook = |session: &str, file: &Path, event: &str| {
        let run = env.run_with_stdin(
            &["extract", "--hook", "--agent-cmd", &model],
            &hook_payload(session, file, &env.project, event),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        // The drain's own flags name another extractor: the request's is used.
        env.ok(&["extract", "--drain", "--extractor", "builtin"]);
    };
    let file = env.root.join("s1.jsonl");
    let mut t = Transcript::new("s1", &env.project);
    t.user("From now on, always run the linter before committing.")
        .assistant("Will do.");
    t.write(&file);
    hook("s1", &file, "Stop");
    t.user("Thanks. Now fix the typo in the heading.")
        .assistant("Fixed.");
    t.write(&file);
    hook("s1", &file, "Stop");
    assert_eq!(calls_made(), 0, "the batch waits for the session's end");
    assert_eq!(
        cursor_offset(&dir, "s1"),
        Some(0),
        "the cursor waits before the batch"
    );
    let log = std::fs::read_to_string(dir.join(".git/memdir/worker.log")).expect("log");
    assert!(
        log.contains("skipped: batched: 1 of 2 prompt(s) may hold something to remember"),
        "{log}"
    );
    hook("s1", &file, "SessionEnd");
    assert_eq!(calls_made(), 1);
    assert_eq!(subjects(&dir), ["save(feedback): run-linter"]);
    let len = std::fs::metadata(&file).expect("transcript").len();
    assert_eq!(cursor_offset(&dir, "s1"), Some(len));

    // Nothing worth remembering: no call, and the range is done.
    let quiet = env.root.join("s2.jsonl");
    Transcript::new("s2", &env.project)
        .user("What does this function return?")
        .assistant("A list.")
        .user("ok thanks")
        .write(&quiet);
    hook("s2", &quiet, "Stop");
    hook("s2", &quiet, "SessionEnd");
    assert_eq!(calls_made(), 1);
    let len = std::fs::metadata(&quiet).expect("transcript").len();
    assert_eq!(cursor_offset(&dir, "s2"), Some(len));
    assert_git_clean(&dir);
}

/// One hook run's batch is one operation of the operation log (issue 28's scope), however many
/// memories the model's answer saves: `memdir undo` takes the whole run back, and `undo
/// --session` every run of that session and nothing of another's. The builtin extractor in a
/// model's place (auto's fallback) is one operation too.
#[test]
fn a_hook_runs_batch_is_one_operation_for_undo() {
    let mut env = TestEnv::new();
    env.set_var("PATH", &std::env::var("PATH").unwrap_or_default());
    env.save("user", "mine", "Mine", "Saved by hand.");
    let dir = env.memory_dir();
    let answer = env.root.join("answer.json");
    std::fs::write(
        &answer,
        serde_json::json!({"actions": [
            {"action": "save", "name": "run-linter", "type": "feedback",
             "description": "Run the linter before committing", "body": "Run the linter before committing."},
            {"action": "save", "name": "no-friday-deploys", "type": "feedback",
             "description": "Never deploy on Fridays", "body": "Never deploy on Fridays."},
            {"action": "save", "name": "roadmap-board", "type": "reference",
             "description": "The roadmap board is in Linear", "body": "The roadmap is on Linear's Ingest board."},
            {"action": "done"}]})
        .to_string(),
    )
    .expect("answer");
    let model = format!("cat >/dev/null; cat '{}'", answer.display());
    let hook = |session: &str, file: &Path, event: &str, model: &str| {
        let run = env.run_with_stdin(
            &["extract", "--hook", "--agent-cmd", model],
            &hook_payload(session, file, &env.project, event),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        env.ok(&["extract", "--drain"]);
    };
    let file = env.root.join("s1.jsonl");
    let mut t = Transcript::new("s1", &env.project);
    t.user("From now on, always run the linter before committing.")
        .assistant("Will do.");
    t.write(&file);
    hook("s1", &file, "Stop", &model);
    t.user("And never deploy on Fridays. The roadmap board is Linear's Ingest project.")
        .assistant("Noted.");
    t.write(&file);
    hook("s1", &file, "Stop", &model);
    hook("s1", &file, "SessionEnd", &model);
    let ops = env.ok(&["op", "log", "--json"]).json();
    assert_eq!(ops[0]["kind"], "extract", "{ops}");
    assert_eq!(ops[0]["description"], "extract: session s1");
    assert_eq!(ops[0]["session"], "s1");
    assert_eq!(ops[0]["commits"].as_array().map(Vec::len), Some(3), "{ops}");
    assert_eq!(ops[1]["description"], "save(user): mine");
    let run = env.ok(&["undo"]).stdout;
    assert!(run.starts_with("undid extract: session s1\n"), "{run}");
    assert_eq!(memory_files(&dir), ["mine"]);
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
    env.ok(&["redo"]);
    assert_eq!(
        memory_files(&dir),
        ["mine", "no-friday-deploys", "roadmap-board", "run-linter"]
    );

    // The model does not answer: the builtin extractor saves in its place, one operation of s2.
    let file = env.root.join("s2.jsonl");
    Transcript::new("s2", &env.project)
        .user("From now on, never force-push to the main branch.")
        .assistant("OK.")
        .user("From now on, always squash before merging.")
        .assistant("OK.")
        .write(&file);
    hook("s2", &file, "SessionEnd", "cat >/dev/null; exit 1");
    let ops = env.ok(&["op", "log", "--json"]).json();
    assert_eq!(ops[0]["description"], "extract: session s2", "{ops}");
    assert_eq!(ops[0]["commits"].as_array().map(Vec::len), Some(2), "{ops}");
    let log = std::fs::read_to_string(dir.join(".git/memdir/worker.log")).expect("log");
    assert!(
        log.contains("s2") && log.contains("extractor builtin"),
        "{log}"
    );

    // `undo --session s1` takes back s1's run and leaves s2's.
    env.ok(&["undo", "--session", "s1"]);
    assert_eq!(
        memory_files(&dir),
        ["mine", "never-force-push-main-branch", "squash-merging"]
    );
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
}

/// The memories in `dir`, by name, sorted.
fn memory_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("memory dir")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".md")
                .filter(|n| *n != "MEMORY")
                .map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

#[test]
fn a_worker_killed_mid_run_leaves_the_cursor_and_the_next_run_completes() {
    let mut env = TestEnv::new();
    env.set_var("MEMDIR_FAULT", "extract-mid-run");
    let dir = env.memory_dir();
    let file = env.root.join("k.jsonl");
    let mut t = Transcript::new("k", &env.project);
    t.user("From now on always use pnpm. Never deploy on Fridays.");
    t.write(&file);
    let run = env.run_with_stdin(
        &["extract", "--hook"],
        &hook_payload("k", &file, &env.project, "Stop"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The worker dies after its first save. It may not have started when the hook returns (a
    // loaded machine): wait for the save, then for no worker to be left.
    let deadline = Instant::now() + Duration::from_secs(20);
    while (subjects(&dir).is_empty() || live_workers(&dir) > 0) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(subjects(&dir).len(), 1, "one save before the crash");
    assert_eq!(cursor_offset(&dir, "k"), None, "the cursor did not move");
    env.set_var("MEMDIR_FAULT", "none");
    env.ok(&["extract", "--drain"]);
    assert_eq!(cursor_offset(&dir, "k"), Some(t.text().len() as u64));
    let mut saved = subjects(&dir);
    saved.sort();
    assert_eq!(
        saved,
        [
            "save(feedback): never-deploy-fridays",
            "save(feedback): package-manager"
        ],
        "each memory saved once"
    );
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
}

/// Claude Code's folder of a directory's sessions (`<config dir>/projects/<sanitized path>`).
pub fn sessions_folder(env: &TestEnv, dir: &Path) -> PathBuf {
    let name: String = dir
        .to_str()
        .expect("utf-8")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let folder = env.home.join(".claude/projects").join(name);
    std::fs::create_dir_all(&folder).expect("mkdir");
    folder
}

/// `extract --all` imports past sessions: every transcript of this project (those started in a
/// subfolder too, not a sibling project's), oldest first, each from its cursor; run again, it
/// finds nothing new.
#[test]
fn extract_all_imports_every_session_of_the_project_once() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    let own = sessions_folder(&env, &env.project);
    let web = env.project.join("web");
    std::fs::create_dir_all(&web).expect("mkdir");
    let nested = sessions_folder(&env, &web);
    let sibling_dir = env.root.join("proj-old");
    std::fs::create_dir_all(&sibling_dir).expect("mkdir");
    let sibling = sessions_folder(&env, &sibling_dir);
    let sessions = [
        (
            &own,
            "s1",
            &env.project,
            "From now on, never force-push to the main branch.",
        ),
        (
            &nested,
            "s2",
            &web,
            "Always write commit messages in the imperative mood.",
        ),
        (&sibling, "s3", &sibling_dir, "From now on always use pnpm."),
    ];
    for (folder, session, cwd, rule) in sessions {
        Transcript::new(session, cwd)
            .user("Let's get started.")
            .assistant("Sure.")
            .user(rule)
            .write(&folder.join(format!("{session}.jsonl")));
        // Created one after the other: the order is theirs.
        std::thread::sleep(Duration::from_millis(20));
    }
    let run = env.ok(&["extract", "--all"]);
    assert!(
        run.stdout
            .ends_with("2 session(s) read, 2 memory change(s) saved\n"),
        "{}",
        run.stdout
    );
    assert_eq!(
        subjects(&dir),
        [
            "save(feedback): write-commit-messages-imperative",
            "save(feedback): never-force-push-main-branch",
        ],
        "oldest first (git log is newest first); the sibling project's session is not read"
    );
    assert!(cursor_offset(&dir, "s1").is_some() && cursor_offset(&dir, "s2").is_some());
    assert_eq!(cursor_offset(&dir, "s3"), None);
    let again = env.ok(&["extract", "--all", "--json"]);
    let reports: Vec<serde_json::Value> = again
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON report a line"))
        .collect();
    assert_eq!(reports.len(), 2);
    assert!(reports.iter().all(|r| r["turns"] == 0), "{reports:?}");
    assert_eq!(subjects(&dir).len(), 2);
    assert_git_clean(&dir);
    // A FIFO named like a session is never opened; auto memory off is said once, exit 3.
    let fifo = own.join("planted.jsonl");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    let run = env.run_within(&["extract", "--all"], b"", Duration::from_secs(20));
    let run = run.expect("extract --all returns");
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::write(
        env.home.join(".claude/settings.json"),
        r#"{"autoMemoryEnabled": false}"#,
    )
    .expect("settings");
    let off = env.run(&["extract", "--all"]);
    assert_eq!(off.code, 3, "{}", off.stderr);
    assert!(
        off.stderr.starts_with("error: auto memory is disabled") && !off.stderr.contains("warning"),
        "{}",
        off.stderr
    );
    assert_eq!(subjects(&dir).len(), 2);
}
