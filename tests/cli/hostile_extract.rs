//! Hostile input to extraction and the hooks (issue 11; DESIGN §6, §10, §11): a transcript path
//! that is a FIFO or a device, a 200 MB transcript line, an oversized or broken hook payload,
//! huge time limits, hooks that meet every kind of error, an agent whose children escape its
//! process group, and an agent that plants symlinks and FIFOs in the memory dir.
//!
//! Whatever could hang runs with a deadline and is killed when it passes, so that a regression
//! fails the test instead of hanging the suite.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::agent::gone;
use crate::common::{
    HOSTILE_LIMIT_KB, Run, TestEnv, assert_git_clean, assert_index_consistent, run_with_deadline,
    subjects,
};
use crate::extract::{Transcript, cursor_offset, hook_payload};

/// A test environment whose memdir runs are held to [`HOSTILE_LIMIT_KB`] of address space.
fn hostile_env() -> TestEnv {
    let mut env = TestEnv::new();
    env.limit_memory(HOSTILE_LIMIT_KB);
    env
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Pids of live processes whose command line holds `needle` (a test's unique temp path).
fn processes_mentioning(needle: &Path) -> Vec<String> {
    let needle = needle.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            std::fs::read(e.path().join("cmdline")).is_ok_and(|c| {
                String::from_utf8_lossy(&c)
                    .replace('\0', " ")
                    .contains(&needle)
            })
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|pid| !gone(pid))
        .collect()
}

/// Whether a process is caught in the middle of `execve`: its command line is not set yet
/// (it reads empty until the new program's arguments are in place, after the parent that
/// spawned it has already gone on), so [`processes_mentioning`] cannot tell whose it is. Kernel
/// threads and zombies have no command line either, but neither has an executable.
fn mid_exec(pid: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.is_empty())
        && std::fs::read_link(format!("/proc/{pid}/exe")).is_ok()
        && !gone(pid)
}

/// Whether anything of this test's may still be running: a process naming `root`, or one too
/// young to name anything yet (a worker a hook just started, on a busy machine).
fn busy(root: &Path) -> bool {
    !processes_mentioning(root).is_empty()
        || std::fs::read_dir("/proc").is_ok_and(|entries| {
            entries.filter_map(Result::ok).any(|e| {
                let pid = e.file_name().to_string_lossy().into_owned();
                pid.bytes().all(|b| b.is_ascii_digit()) && mid_exec(&pid)
            })
        })
}

/// Wait up to `limit` for `pid` to be gone.
fn gone_within(pid: &str, limit: Duration) -> bool {
    let start = Instant::now();
    while !gone(pid) && start.elapsed() < limit {
        std::thread::sleep(Duration::from_millis(20));
    }
    gone(pid)
}

/// Kill what a test started and left behind (only processes naming its own temp dir).
fn kill_leftovers(root: &Path) {
    for pid in processes_mentioning(root) {
        let _ = Command::new("kill")
            .args(["-KILL", &pid])
            .stderr(Stdio::null())
            .status();
    }
}

fn stashed_requests(memory_dir: &Path) -> usize {
    std::fs::read_dir(memory_dir.join(".git/memdir/requests"))
        .map(|d| d.count())
        .unwrap_or(0)
}

fn worker_log(memory_dir: &Path) -> String {
    std::fs::read_to_string(memory_dir.join(".git/memdir/worker.log")).unwrap_or_default()
}

/// Where hook problems go when the memory dir cannot be known.
fn hooks_log(env: &TestEnv) -> PathBuf {
    env.home.join(".claude/memdir/hooks.log")
}

// ---------------------------------------------------------------------------------------------
// Item 6: a poisoned request does not stop the worker

#[test]
fn a_fifo_or_dev_zero_transcript_is_retired_and_later_sessions_are_still_extracted() {
    let env = hostile_env();
    let dir = env.memory_dir();
    let fifo = env.root.join("fifo.jsonl");
    mkfifo(&fifo);
    let good = env.root.join("good.jsonl");
    let mut t = Transcript::new("2-good", &env.project);
    t.user("From now on, always run the linter before committing.");
    t.write(&good);
    // Served in name order: the poisoned requests come first.
    for (session, transcript) in [
        ("0-fifo", fifo.as_path()),
        ("1-zero", Path::new("/dev/zero")),
        ("2-good", good.as_path()),
    ] {
        let payload = hook_payload(session, transcript, &env.project, "Stop");
        // The worker the hook starts inherits the limit: /dev/zero cannot take the machine.
        let run = env
            .run_within(
                &["extract", "--hook"],
                payload.as_bytes(),
                Duration::from_secs(20),
            )
            .expect("the hook returns");
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    // The worker the first hook started serves all three, the poisoned ones first.
    let start = Instant::now();
    while busy(&env.root) && start.elapsed() < Duration::from_secs(15) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let drained = env.run_within(
        &["extract", "--drain", "--timeout", "5", "--json"],
        b"",
        Duration::from_secs(20),
    );
    kill_leftovers(&env.root);
    let drained = drained.expect("drain returns");
    assert_eq!(drained.code, 0, "{}{}", drained.stdout, drained.stderr);
    assert_eq!(drained.stdout, "", "the worker left work for drain");
    assert_eq!(cursor_offset(&dir, "2-good"), Some(t.text().len() as u64));
    assert_eq!(subjects(&dir), ["save(feedback): run-linter-committing"]);
    let log = worker_log(&dir);
    for (session, kind) in [("0-fifo", "a FIFO"), ("1-zero", "a character device")] {
        assert!(
            log.lines()
                .any(|l| l.contains(&format!("{session}: retired:"))
                    && l.contains("is not a regular file")
                    && l.contains(kind)),
            "no retirement of {session} in the worker log:\n{log}"
        );
    }
    assert_eq!(stashed_requests(&dir), 0, "nothing is left to retry");
    assert_git_clean(&dir);
}

/// A request whose run keeps killing the worker (here the test-only fault switch) is retired
/// after three attempts, and the sessions behind it are served.
#[cfg(feature = "fault-injection")]
#[test]
fn a_request_that_keeps_killing_the_worker_is_retired_after_three_attempts() {
    let mut env = hostile_env();
    env.set_var("MEMDIR_FAULT", "extract-mid-run");
    let dir = env.memory_dir();
    let crash = env.root.join("crash.jsonl");
    Transcript::new("0-crash", &env.project)
        .user("From now on always use pnpm.")
        .write(&crash);
    // Nothing worth remembering: its run never reaches the fault point.
    let calm = env.root.join("calm.jsonl");
    let mut t = Transcript::new("1-calm", &env.project);
    t.user("What time is it?");
    t.write(&calm);
    let hook = |session: &str, file: &Path| {
        let run = env.run_with_stdin(
            &["extract", "--hook"],
            &hook_payload(session, file, &env.project, "Stop"),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let start = Instant::now();
        while busy(&env.root) && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    hook("0-crash", &crash);
    for _ in 0..4 {
        hook("1-calm", &calm);
    }
    kill_leftovers(&env.root);
    let log = worker_log(&dir);
    assert!(
        log.contains("0-crash: retired:"),
        "the crashing request was not retired:\n{log}"
    );
    assert_eq!(
        cursor_offset(&dir, "1-calm"),
        Some(t.text().len() as u64),
        "the session behind it was never served:\n{log}"
    );
    assert_eq!(cursor_offset(&dir, "0-crash"), None);
    assert_eq!(stashed_requests(&dir), 0);
    // The save made before each crash is one commit (later attempts found it saved).
    assert_eq!(subjects(&dir), ["save(feedback): package-manager"]);
    assert_git_clean(&dir);
}

// ---------------------------------------------------------------------------------------------
// Item 8: every input has a cap

/// Writes a transcript whose second line is a prompt of `big` bytes, then a memorable prompt.
fn transcript_with_a_huge_line(path: &Path, cwd: &Path, big: usize) -> u64 {
    let mut t = Transcript::new("huge", cwd);
    t.user("Let's get started.");
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    file.write_all(t.text().as_bytes()).expect("write");
    let record = json!({"type": "user", "sessionId": "huge", "cwd": cwd, "uuid": "huge-big",
        "message": {"role": "user", "content": "@@"}})
    .to_string();
    let (head, tail) = record.split_once("@@").expect("marker");
    file.write_all(head.as_bytes()).expect("write");
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..big / chunk.len() {
        file.write_all(&chunk).expect("write");
    }
    file.write_all(tail.as_bytes()).expect("write");
    file.write_all(b"\n").expect("write");
    let mut rest = Transcript::new("huge", cwd);
    rest.user("From now on, always run the linter before committing.");
    file.write_all(rest.text().as_bytes()).expect("write");
    file.flush().expect("flush");
    std::fs::metadata(path).expect("stat").len()
}

#[test]
fn a_200_mb_transcript_line_is_skipped_in_bounded_memory_and_reported() {
    let mut env = hostile_env();
    // 400 MB of address space: the line must never be held whole (it took 1.6 GB).
    env.limit_memory(400_000);
    let file = env.root.join("huge.jsonl");
    let len = transcript_with_a_huge_line(&file, &env.project, 200 << 20);
    let run = env
        .run_within(
            &[
                "extract",
                "--transcript",
                file.to_str().expect("utf-8"),
                "--json",
            ],
            b"",
            Duration::from_secs(120),
        )
        .expect("extract returns");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["oversized_lines"], 1, "{report}");
    assert_eq!(report["to"], len);
    assert_eq!(report["turns"], 2, "{report}");
    assert_eq!(
        report["outcomes"],
        json!([{"outcome": "saved", "name": "run-linter-committing", "type": "feedback",
                "description": "From now on, always run the linter before committing"}])
    );
    // Plain output says so too.
    let dir = env.memory_dir();
    std::fs::remove_file(dir.join(".git/memdir/cursors/huge.json")).expect("reset the cursor");
    let plain = env
        .run_within(
            &["extract", "--transcript", file.to_str().expect("utf-8")],
            b"",
            Duration::from_secs(120),
        )
        .expect("extract returns");
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(
        plain
            .stderr
            .contains("1 line(s) of the transcript were over"),
        "{}",
        plain.stderr
    );
    assert_git_clean(&dir);
}

#[test]
fn a_hook_payload_over_its_cap_is_refused_and_logged() {
    let env = hostile_env();
    let dir = env.memory_dir();
    env.ok(&["init"]);
    let file = env.root.join("s.jsonl");
    Transcript::new("s", &env.project)
        .user("From now on, always run the linter before committing.")
        .write(&file);
    let mut payload: Value =
        serde_json::from_str(&hook_payload("s", &file, &env.project, "Stop")).expect("payload");
    payload["padding"] = json!("x".repeat(40 << 20));
    let run = env.run_with_stdin(&["extract", "--hook"], &payload.to_string());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(stashed_requests(&dir), 0, "an oversized payload was queued");
    env.ok(&["extract", "--drain"]);
    assert_eq!(
        cursor_offset(&dir, "s"),
        None,
        "an oversized payload was served"
    );
    assert!(subjects(&dir).is_empty());
    let log = std::fs::read_to_string(hooks_log(&env)).unwrap_or_default();
    assert!(
        log.contains("extract --hook") && log.contains("over"),
        "hooks.log: {log}"
    );
    assert_git_clean(&dir);
}

// ---------------------------------------------------------------------------------------------
// Item 9: no time limit panics

#[test]
fn huge_time_limits_are_usage_errors_not_panics() {
    let env = hostile_env();
    // A memory dir with a repository: drain gets as far as its deadline.
    env.ok(&["init"]);
    let file = env.root.join("s.jsonl");
    Transcript::new("s", &env.project)
        .user("From now on, always run the linter before committing.")
        .write(&file);
    let run = env.fails(
        &["extract", "--drain", "--timeout", "18446744073709551615"],
        2,
        "error:",
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stderr.contains("86400"), "{}", run.stderr);
    let run = env.fails(
        &[
            "extract",
            "--transcript",
            file.to_str().expect("utf-8"),
            "--extractor",
            "agent",
            "--agent-cmd",
            "cat >/dev/null; echo '{}'",
            "--agent-timeout",
            "18446744073709551615",
        ],
        2,
        "error:",
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stderr.contains("3600"), "{}", run.stderr);
    let help = env.ok(&["extract", "--help"]).stdout;
    assert!(
        help.contains("at most 86400") && help.contains("at most 3600"),
        "{help}"
    );
    // At the caps themselves nothing overflows either.
    let run = env.ok(&["extract", "--drain", "--timeout", "86400"]);
    assert!(run.stdout.contains("up to date"), "{}", run.stdout);
}

// ---------------------------------------------------------------------------------------------
// Item 10: hook mode never blocks or errors the agent

/// `memdir <command> --hook` with `payload`: it must answer 0, and print nothing but (for
/// `context`) one valid SessionStart answer.
fn hook_answers_zero(env: &TestEnv, command: &str, payload: &str, extra: &[&str]) -> Run {
    let mut args = vec![command, "--hook"];
    args.extend_from_slice(extra);
    let run = run_with_deadline(
        {
            let mut c = env.command();
            c.args(&args);
            c
        },
        payload.as_bytes(),
        Duration::from_secs(30),
    )
    .unwrap_or_else(|| panic!("memdir {args:?} did not return"));
    assert_eq!(
        run.code, 0,
        "memdir {args:?} with {payload:.200}: {}{}",
        run.stdout, run.stderr
    );
    match command {
        "context" if !run.stdout.is_empty() => {
            let answer: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
                panic!("context --hook printed non-JSON ({e}): {}", run.stdout)
            });
            assert_eq!(
                answer["hookSpecificOutput"]["hookEventName"], "SessionStart",
                "{answer}"
            );
        }
        "extract" => assert_eq!(run.stdout, "", "extract --hook printed something"),
        _ => {}
    }
    run
}

#[test]
fn hooks_answer_zero_and_log_a_broken_payload_or_a_missing_cwd() {
    let env = hostile_env();
    let dir = env.memory_dir();
    env.ok(&["init"]);
    let gone = env.root.join("deleted-project");
    let transcript = env.root.join("s.jsonl");
    Transcript::new("s", &env.project)
        .user("From now on, always run the linter before committing.")
        .write(&transcript);
    let deleted_cwd = hook_payload("s", &transcript, &gone, "Stop");
    let cases: [(&str, String); 4] = [
        ("empty", String::new()),
        ("not JSON", "{\"session_id\": ".into()),
        ("a JSON array", "[1, 2, 3]".into()),
        ("a cwd that was deleted", deleted_cwd),
    ];
    for command in ["extract", "snapshot", "context"] {
        for (what, payload) in &cases {
            let before = std::fs::read_to_string(hooks_log(&env)).unwrap_or_default();
            hook_answers_zero(&env, command, payload, &[]);
            let after = std::fs::read_to_string(hooks_log(&env)).unwrap_or_default();
            assert!(
                after.len() > before.len() && after.contains(&format!("{command} --hook")),
                "{command} --hook with {what}: nothing logged in hooks.log:\n{after}"
            );
        }
    }
    // The memory dir is known but the payload lacks what extract needs: its worker log says so.
    let no_session =
        json!({"transcript_path": transcript, "cwd": env.project, "hook_event_name": "Stop"});
    hook_answers_zero(&env, "extract", &no_session.to_string(), &[]);
    let no_transcript = json!({"session_id": "s", "cwd": env.project, "hook_event_name": "Stop"});
    hook_answers_zero(&env, "extract", &no_transcript.to_string(), &[]);
    let log = worker_log(&dir);
    assert!(
        log.contains("extract --hook") && log.contains("no session_id"),
        "{log}"
    );
    assert!(log.contains("no transcript_path"), "{log}");
    // An unknown flag in the hook's command line is logged too (not exit 2: "keep going").
    hook_answers_zero(
        &env,
        "extract",
        &hook_payload("s", &transcript, &env.project, "Stop"),
        &["--no-such-flag"],
    );
    hook_answers_zero(
        &env,
        "extract",
        &hook_payload("s", &transcript, &env.project, "Stop"),
        &["--agent-timeout", "99999999999"],
    );
    let log = std::fs::read_to_string(hooks_log(&env)).unwrap_or_default();
    assert!(log.contains("--no-such-flag"), "{log}");
    assert!(!gone.exists());
    assert_eq!(stashed_requests(&dir), 0);
    assert!(subjects(&dir).is_empty());
    assert_git_clean(&dir);
}

/// A Stop, a PostToolUse (a write outside memory) and a SessionStart payload for `env`.
fn three_payloads(env: &TestEnv) -> (String, String, String) {
    let transcript = env.root.join("s.jsonl");
    Transcript::new("s", &env.project)
        .user("From now on, always run the linter before committing.")
        .write(&transcript);
    let stop = hook_payload("s", &transcript, &env.project, "Stop");
    let post = json!({"session_id": "s", "cwd": env.project, "hook_event_name": "PostToolUse",
        "tool_name": "Write", "tool_input": {"file_path": env.project.join("x.md"), "content": "x"}})
    .to_string();
    let start = json!({"session_id": "s", "cwd": env.project, "hook_event_name": "SessionStart",
        "source": "startup"})
    .to_string();
    (stop, post, start)
}

#[test]
fn hooks_answer_zero_with_broken_settings() {
    let env = hostile_env();
    let (stop, post, start) = three_payloads(&env);
    let settings = env.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().expect("parent")).expect("config dir");
    for broken in [
        "{\"model\": \"opus\",, }",
        "[1, 2]",
        "{\"autoMemoryEnabled\": \"yes\"}",
    ] {
        std::fs::write(&settings, broken).expect("settings");
        hook_answers_zero(&env, "extract", &stop, &[]);
        hook_answers_zero(&env, "snapshot", &post, &[]);
        hook_answers_zero(&env, "context", &start, &[]);
    }
    // A broken project settings file (a cloned repository's) too.
    std::fs::remove_file(&settings).expect("rm");
    std::fs::create_dir_all(env.project.join(".claude")).expect("dir");
    std::fs::write(env.project.join(".claude/settings.json"), "{oops").expect("write");
    hook_answers_zero(&env, "extract", &stop, &[]);
    hook_answers_zero(&env, "snapshot", &post, &[]);
    hook_answers_zero(&env, "context", &start, &[]);
}

#[test]
fn hooks_answer_zero_when_auto_memory_is_off() {
    let mut env = hostile_env();
    let (stop, post, start) = three_payloads(&env);
    let settings = env.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().expect("parent")).expect("config dir");
    // Nothing happens, quietly, whichever switch turned it off.
    std::fs::write(&settings, r#"{"autoMemoryEnabled": false}"#).expect("settings");
    hook_answers_zero(&env, "extract", &stop, &[]);
    hook_answers_zero(&env, "snapshot", &post, &[]);
    let context = hook_answers_zero(&env, "context", &start, &[]);
    assert!(!context.stdout.contains("MEMORY.md"), "{}", context.stdout);
    std::fs::remove_file(&settings).expect("rm");
    env.set_var("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");
    hook_answers_zero(&env, "extract", &stop, &[]);
    hook_answers_zero(&env, "snapshot", &post, &[]);
    hook_answers_zero(&env, "context", &start, &[]);
    assert!(
        !env.home.join(".claude/projects").exists(),
        "auto memory is off, but a memory dir was created"
    );
    assert!(
        !hooks_log(&env).exists(),
        "auto memory off is not a problem to log"
    );
}

#[test]
fn the_fallback_hook_log_is_capped_and_never_written_through_a_symlink() {
    let env = hostile_env();
    let log = hooks_log(&env);
    std::fs::create_dir_all(log.parent().expect("parent")).expect("dir");
    // A full log is rotated: the old one kept once, the new one starts small.
    std::fs::write(&log, "old line\n".repeat(200_000)).expect("fill");
    hook_answers_zero(&env, "extract", "not json", &[]);
    let rotated = std::fs::read_to_string(log.with_extension("log.1")).expect("rotated log");
    assert!(rotated.starts_with("old line\n"));
    let fresh = std::fs::read_to_string(&log).expect("new log");
    assert!(
        fresh.len() < 4096 && fresh.contains("extract --hook"),
        "{fresh}"
    );
    // A log that is a symlink (planted to make memdir append to a file elsewhere) is left alone.
    let outside = env.root.join("bashrc");
    std::fs::write(&outside, "export PATH=/usr/bin\n").expect("outside");
    std::fs::remove_file(&log).expect("rm");
    std::os::unix::fs::symlink(&outside, &log).expect("symlink");
    hook_answers_zero(&env, "extract", "not json", &[]);
    assert_eq!(
        std::fs::read_to_string(&outside).expect("outside"),
        "export PATH=/usr/bin\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Item 17: the agent's time limit holds for every descendant; planted symlinks are refused

fn agent_env() -> TestEnv {
    let mut env = hostile_env();
    env.set_var("PATH", &std::env::var("PATH").unwrap_or_default());
    env
}

fn agent_extract(env: &TestEnv, transcript: &Path, cmd: &str, timeout: &str) -> Option<Run> {
    let mut command = env.command();
    command.args([
        "extract",
        "--transcript",
        transcript.to_str().expect("utf-8"),
        "--extractor",
        "agent",
        "--agent-cmd",
        cmd,
        "--agent-timeout",
        timeout,
        "--json",
    ]);
    run_with_deadline(command, b"", Duration::from_secs(60))
}

#[test]
fn an_agent_whose_children_leave_its_process_group_is_still_killed_whole() {
    let env = agent_env();
    let transcript = env.root.join("s.jsonl");
    Transcript::new("s", &env.project)
        .user("From now on, always run the linter before committing.")
        .write(&transcript);
    // Past the time limit: a child in a session of its own that holds nothing of memdir's.
    let escaped = env.root.join("escaped.pid");
    let cmd = format!(
        "cat >/dev/null; setsid sh -c 'echo $$ > {}; exec sleep 300' </dev/null >/dev/null 2>&1 & sleep 300",
        escaped.display()
    );
    let run = agent_extract(&env, &transcript, &cmd, "1").expect("extract returns");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("time limit"), "{}", run.stderr);
    let pid = std::fs::read_to_string(&escaped).expect("the child wrote its pid");
    let killed = gone_within(pid.trim(), Duration::from_secs(5));
    // Within the limit: a daemon (double fork, new session) left behind by an agent that answers.
    let daemon = env.root.join("daemon.pid");
    let cmd = format!(
        "cat >/dev/null; setsid -f sh -c 'echo $$ > {}; exec sleep 300' </dev/null >/dev/null 2>&1; \
         while [ ! -s {} ]; do sleep 0.05; done; echo '{{}}'",
        daemon.display(),
        daemon.display()
    );
    let run = agent_extract(&env, &transcript, &cmd, "30").expect("extract returns");
    let daemon_pid = std::fs::read_to_string(&daemon).unwrap_or_default();
    let daemon_killed = gone_within(daemon_pid.trim(), Duration::from_secs(5));
    kill_leftovers(&env.root);
    for pid in [pid.trim(), daemon_pid.trim()] {
        if !pid.is_empty() {
            let _ = Command::new("kill")
                .args(["-KILL", pid])
                .stderr(Stdio::null())
                .status();
        }
    }
    assert!(killed, "the setsid child of a timed-out agent outlived it");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(daemon_killed, "the agent's daemon outlived its turn");
    assert_git_clean(&env.memory_dir());
}

/// A scripted agent (sh) that plants things in the memory dir (its cwd) on turn 1 and asks to
/// save through them; it logs every request it gets.
fn planting_agent(log: &Path, outside: &Path, bashrc: &Path) -> String {
    let save = |name: &str| {
        json!({"action": "save", "name": name, "type": "project",
               "description": format!("{name} memory"), "body": format!("The {name} fact.")})
    };
    let first = json!({"actions": [save("evil"), save("bashrc"), save("fifo"), save("good")]});
    let second = json!({"actions": [{"action": "done"}]});
    format!(
        "req=$(cat); printf '%s\\n' \"$req\" >> {log}; \
         if [ ! -e good.md ]; then \
           ln -sf {outside} evil.md; ln -sf {bashrc} bashrc.md; [ -p fifo.md ] || mkfifo fifo.md; \
           echo '{first}'; \
         else echo '{second}'; fi",
        log = log.display(),
        outside = outside.display(),
        bashrc = bashrc.display(),
    )
}

#[test]
fn an_agent_that_plants_symlinks_and_fifos_in_memory_gets_refusals_and_the_run_completes() {
    let env = agent_env();
    let outside = env.root.join("outside.md");
    let outside_text =
        "---\nname: evil\ndescription: OUTSIDE-SECRET\ntype: user\n---\nOUTSIDE-BODY\n";
    std::fs::write(&outside, outside_text).expect("outside");
    let bashrc = env.home.join(".bashrc");
    std::fs::write(&bashrc, "export SECRET_RC=1\n").expect("bashrc");
    let transcript = env.root.join("s.jsonl");
    let mut t = Transcript::new("s", &env.project);
    t.user("Remember that staging deploys from the release branch.");
    t.write(&transcript);
    let log = env.root.join("agent.log");
    let cmd = planting_agent(&log, &outside, &bashrc);
    let run = agent_extract(&env, &transcript, &cmd, "30");
    kill_leftovers(&env.root);
    let run = run.expect("extract returns (a FIFO in the memory dir must not hang it)");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    let outcomes = report["outcomes"].as_array().expect("outcomes");
    for name in ["evil", "bashrc", "fifo"] {
        assert!(
            outcomes.iter().any(|o| o["outcome"] == "refused"
                && o["what"] == format!("save {name}")
                && o["why"]
                    .as_str()
                    .is_some_and(|w| w.contains("not a regular file"))),
            "save {name} was not refused: {outcomes:#?}"
        );
    }
    assert!(
        outcomes
            .iter()
            .any(|o| o["outcome"] == "saved" && o["name"] == "good"),
        "{outcomes:#?}"
    );
    assert!(
        report["cursor_advanced"].as_bool().unwrap_or(false),
        "{report}"
    );
    // Nothing outside was written, and nothing of it was read into a request.
    assert_eq!(
        std::fs::read_to_string(&outside).expect("outside"),
        outside_text
    );
    assert_eq!(
        std::fs::read_to_string(&bashrc).expect("bashrc"),
        "export SECRET_RC=1\n"
    );
    let requests = std::fs::read_to_string(&log).expect("agent log");
    assert_eq!(requests.lines().count(), 2, "two turns");
    for leak in ["OUTSIDE-SECRET", "OUTSIDE-BODY", "SECRET_RC"] {
        assert!(!requests.contains(leak), "{leak} reached the agent");
    }
    let dir = env.memory_dir();
    assert_eq!(cursor_offset(&dir, "s"), Some(t.text().len() as u64));
    assert_eq!(subjects(&dir), ["save(project): good"]);

    // A later run, with the plants still there (and MEMORY.md now a symlink out), completes too.
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    std::fs::write(env.root.join("index-copy.md"), &index).expect("copy");
    std::fs::remove_file(dir.join("MEMORY.md")).expect("rm");
    std::os::unix::fs::symlink(&bashrc, dir.join("MEMORY.md")).expect("symlink");
    t.assistant("Noted.")
        .user("Remember that the freeze starts on 2026-04-01.");
    t.write(&transcript);
    std::fs::remove_file(&log).expect("rm");
    let save_again = format!(
        "req=$(cat); printf '%s\\n' \"$req\" >> {log}; echo '{}'",
        json!({"actions": [{"action": "save", "name": "freeze", "type": "project",
            "description": "Freeze from 2026-04-01", "body": "The freeze starts on 2026-04-01."},
            {"action": "done"}]}),
        log = log.display()
    );
    let run = agent_extract(&env, &transcript, &save_again, "30");
    kill_leftovers(&env.root);
    let run = run.expect("extract returns");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    assert!(
        report["outcomes"][0]["why"]
            .as_str()
            .is_some_and(|w| w.contains("MEMORY.md") && w.contains("not a regular file")),
        "{report}"
    );
    assert_eq!(cursor_offset(&dir, "s"), Some(t.text().len() as u64));
    let requests = std::fs::read_to_string(&log).expect("agent log");
    assert!(
        !requests.contains("SECRET_RC"),
        "the index symlink was read"
    );
    assert_eq!(
        std::fs::read_to_string(&bashrc).expect("bashrc"),
        "export SECRET_RC=1\n"
    );
    // Clean up the plants, then the repository is sound.
    for plant in ["evil.md", "bashrc.md", "fifo.md", "MEMORY.md"] {
        std::fs::remove_file(dir.join(plant)).expect("rm plant");
    }
    std::fs::rename(env.root.join("index-copy.md"), dir.join("MEMORY.md")).expect("restore");
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
}

// ---------------------------------------------------------------------------------------------
// Item 18: what is wrong with a transcript path is said plainly

#[test]
fn a_transcript_that_is_not_a_regular_file_is_named_for_what_it_is() {
    let env = hostile_env();
    let fifo = env.root.join("fifo.jsonl");
    mkfifo(&fifo);
    let folder = env.root.join("folder.jsonl");
    std::fs::create_dir_all(&folder).expect("dir");
    let missing = env.root.join("missing.jsonl");
    for (path, what) in [
        (
            Path::new("/dev/zero"),
            "is not a regular file (a character device)",
        ),
        (fifo.as_path(), "is not a regular file (a FIFO)"),
        (folder.as_path(), "is not a regular file (a directory)"),
        (missing.as_path(), "does not exist"),
    ] {
        let mut command = env.command();
        command.args(["extract", "--transcript", path.to_str().expect("utf-8")]);
        let run = run_with_deadline(command, b"", Duration::from_secs(20));
        kill_leftovers(&env.root);
        let run = run.unwrap_or_else(|| panic!("extract --transcript {} hung", path.display()));
        assert_eq!(run.code, 2, "{}: {}", path.display(), run.stderr);
        let first = run.stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with("error: ")
                && first.contains(&path.display().to_string())
                && first.contains(what),
            "want {what:?}: {}",
            run.stderr
        );
    }
    assert!(!env.home.join(".claude/projects").exists());
}

// ---------------------------------------------------------------------------------------------
// Property tests: the transcript reader and the hook payload parser on arbitrary bytes

mod properties {
    use memdir::cli::HookPayload;
    use memdir::extract::transcript::Reader;
    use proptest::prelude::*;

    /// Every record the reader yields, its oversized count and where it stopped.
    fn read_all(bytes: &[u8], max_line: usize) -> (usize, usize, u64) {
        let mut reader =
            Reader::with_max_line(std::io::BufReader::with_capacity(7, bytes), 0, max_line);
        let mut records = 0;
        while let Some(located) = reader.next_record().expect("in-memory read") {
            assert!(located.end <= bytes.len() as u64);
            records += 1;
        }
        (records, reader.oversized, reader.offset())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn arbitrary_bytes_never_panic_the_reader(bytes in proptest::collection::vec(any::<u8>(), 0..2048), cap in 1usize..256) {
            let (_, _, offset) = read_all(&bytes, cap);
            prop_assert!(offset <= bytes.len() as u64);
            // It stops at a line boundary: the start, or just after a newline.
            prop_assert!(offset == 0 || bytes[offset as usize - 1] == b'\n');
        }

        #[test]
        fn lines_over_the_cap_are_skipped_and_counted(lengths in proptest::collection::vec(0usize..300, 1..20), cap in 40usize..200) {
            let mut bytes = Vec::new();
            let (mut kept, mut over) = (0, 0);
            for (i, n) in lengths.iter().enumerate() {
                let line = format!("{{\"type\":\"user\",\"uuid\":\"u{i}\",\"message\":{{\"content\":\"{}\"}}}}\n", "a".repeat(*n));
                if line.len() - 1 > cap { over += 1 } else { kept += 1 }
                bytes.extend_from_slice(line.as_bytes());
            }
            let (records, oversized, offset) = read_all(&bytes, cap);
            prop_assert_eq!(records, kept);
            prop_assert_eq!(oversized, over);
            prop_assert_eq!(offset, bytes.len() as u64);
        }

        #[test]
        fn arbitrary_payloads_never_panic_the_parser(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
            let _ = HookPayload::parse(&bytes[..]);
        }

        #[test]
        fn payload_fields_of_any_shape_never_panic(value in any::<i64>(), text in ".{0,40}") {
            for payload in [
                serde_json::json!({"session_id": value, "cwd": text, "tool_input": text}),
                serde_json::json!({"session_id": text, "cwd": [value], "tool_input": {"file_path": value}}),
                serde_json::json!({"transcript_path": {"x": text}, "hook_event_name": value}),
            ] {
                let _ = HookPayload::parse(payload.to_string().as_bytes());
            }
        }
    }

    #[test]
    fn a_payload_over_the_cap_is_refused() {
        let big = format!(
            "{{\"session_id\": \"s\", \"pad\": \"{}\"}}",
            "x".repeat(memdir::cli::MAX_PAYLOAD_BYTES)
        );
        let error = HookPayload::parse(big.as_bytes()).expect_err("over the cap");
        assert!(error.to_string().contains("over"), "{error}");
        let fine = HookPayload::parse(
            &br#"{"session_id": "s", "tool_input": {"file_path": "/x", "content": "y"}}"#[..],
        )
        .expect("a payload");
        assert_eq!(fine.session_id.as_deref(), Some("s"));
    }
}
