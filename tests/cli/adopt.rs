//! Adoption (DESIGN §4): what an agent writes into the memory dir itself becomes `adopt` commits,
//! one per completed two-step save, replayed from a real Claude Code 2.1.332 session.

use std::path::Path;

use crate::common::{TestEnv, assert_git_clean, git, subjects};

fn recorded(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/transcripts/cc-2.1.332/agent-writes-memory.memory")
        .join(file);
    std::fs::read_to_string(path).expect("fixture")
}

/// The memory dir of the recorded session.
const RECORDED_DIR: &str = "/home/dev/.claude/projects/-home-dev-proj/memory";

/// The n-th recorded PostToolUse payload, replayed as if the session had written into `dir`.
fn hook_payload(n: usize, dir: &Path) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("fixtures/hooks/PostToolUse-{n}.json")),
    )
    .expect("payload")
    .replace(RECORDED_DIR, dir.to_str().expect("utf-8"))
}

/// `memdir snapshot --hook` fed the n-th recorded PostToolUse payload.
fn snapshot_hook(env: &TestEnv, dir: &Path, n: usize) -> crate::common::Run {
    env.run_with_stdin(
        &[
            "snapshot",
            "--hook",
            "--memory-dir",
            dir.to_str().expect("utf-8"),
        ],
        &hook_payload(n, dir),
    )
}

const SESSION: &str = "f963f83a-cb94-426d-8d53-023945f76728";

/// The session wrote use-bun.md, its index line, then the index line for staging before
/// staging.md itself. Snapshot after each step, as the PostToolUse hook does.
#[test]
fn snapshot_adopts_each_completed_save_of_a_real_session() {
    let env = TestEnv::new();
    env.ok(&["init"]);
    let dir = env.memory_dir();
    let index = recorded("MEMORY.md");
    let (use_bun_line, staging_line) = index.split_at(index.find("- [Staging]").expect("line"));

    // 1. The topic file alone: a save in progress, left uncommitted.
    std::fs::write(dir.join("use-bun.md"), recorded("use-bun.md")).expect("write");
    let run = snapshot_hook(&env, &dir, 1);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("use-bun.md is not in MEMORY.md yet"),
        "{}",
        run.stderr
    );
    assert!(subjects(&dir).is_empty());

    // 2. Its index line: one adopt commit with the session id.
    std::fs::write(dir.join("MEMORY.md"), use_bun_line).expect("write");
    let run = snapshot_hook(&env, &dir, 2);
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    assert_eq!(subjects(&dir), ["adopt(feedback): use-bun"]);
    assert_eq!(
        git(&dir, &["log", "-1", "--format=%B"]),
        format!(
            "adopt(feedback): use-bun\n\nUse bun, never npm, for installs and scripts\n\nMemdir-Op: adopt\nMemdir-Session: {SESSION}\n\n"
        )
    );
    assert_git_clean(&dir);

    // 3. The index line for staging before its file: nothing to commit yet.
    std::fs::write(dir.join("MEMORY.md"), &index).expect("write");
    let run = env.ok(&["snapshot", "--json", "--session", SESSION]).json();
    assert_eq!(run["commits"], serde_json::json!([]));
    assert_eq!(run["dangling"], serde_json::json!(["staging.md"]));
    assert_eq!(subjects(&dir).len(), 1);

    // 4. The file arrives: the second save is complete.
    std::fs::write(dir.join("staging.md"), recorded("staging.md")).expect("write");
    let run = env.ok(&["snapshot", "--json", "--session", SESSION]).json();
    assert_eq!(run["commits"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        subjects(&dir),
        ["adopt(project): staging", "adopt(feedback): use-bun"]
    );
    assert_git_clean(&dir);
    assert_eq!(git(&dir, &["show", "HEAD:MEMORY.md"]), index);
    assert_eq!(staging_line.lines().count(), 1);

    // Nothing left: a further snapshot makes no commit.
    assert_eq!(env.ok(&["snapshot"]).stdout, "nothing to adopt\n");
}

#[test]
fn one_adopt_commit_per_memory_when_several_arrive_at_once() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    for f in ["use-bun.md", "staging.md"] {
        std::fs::write(dir.join(f), recorded(f)).expect("write");
    }
    let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    index.push_str(&recorded("MEMORY.md"));
    index.push_str("- [Pending](pending.md) — written before its file\n");
    std::fs::write(dir.join("MEMORY.md"), &index).expect("write");
    env.ok(&["snapshot"]);
    assert_eq!(
        subjects(&dir),
        [
            "adopt(feedback): use-bun",
            "adopt(project): staging",
            "save(user): role"
        ]
    );
    // Each commit holds its own topic file and only its own new index line.
    let staging_index = git(&dir, &["show", "HEAD~1:MEMORY.md"]);
    assert!(
        staging_index.contains("staging.md") && !staging_index.contains("use-bun.md"),
        "{staging_index}"
    );
    assert!(!git(&dir, &["show", "HEAD:MEMORY.md"]).contains("pending.md"));
    // The pending line stays in the work tree, uncommitted.
    assert_eq!(git(&dir, &["status", "--porcelain"]), " M MEMORY.md\n");
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        index
    );
}

#[test]
fn pending_changes_are_adopted_before_the_next_save() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    // An agent edits the topic file and deletes another memory behind memdir's back.
    env.save("feedback", "old", "Old rule", "Old.");
    std::fs::write(
        dir.join("role.md"),
        "---\nname: role\ndescription: Backend engineer\ntype: user\n---\nBackend, Go and Rust.\n",
    )
    .expect("edit");
    std::fs::remove_file(dir.join("old.md")).expect("rm");
    let index = std::fs::read_to_string(dir.join("MEMORY.md"))
        .expect("index")
        .replace("- [Old](old.md) — Old rule\n", "");
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    env.save("project", "ci", "CI runs on push", "CI.");
    assert_eq!(
        subjects(&dir),
        [
            "save(project): ci",
            "adopt(user): role",
            "adopt(feedback): old",
            "save(feedback): old",
            "save(user): role"
        ]
    );
    assert_eq!(
        git(&dir, &["show", "HEAD~1:role.md"]).lines().last(),
        Some("Backend, Go and Rust.")
    );
    assert_git_clean(&dir);
}

#[test]
fn saving_over_an_uncommitted_file_keeps_it_in_history() {
    let env = TestEnv::new();
    env.ok(&["init"]);
    let dir = env.memory_dir();
    std::fs::write(
        dir.join("note.md"),
        "---\nname: note\ndescription: draft\ntype: project\n---\nDraft text.\n",
    )
    .expect("write");
    env.save("project", "note", "Final", "Final text.");
    assert_eq!(
        subjects(&dir),
        ["update(project): note", "adopt(project): note"]
    );
    assert!(git(&dir, &["show", "HEAD~1:note.md"]).contains("Draft text."));
    assert_git_clean(&dir);
}

/// Before a write, memdir looks for pending changes without a stat per file: `MEMORY.md`'s stat
/// data and the directory (added, removed or replaced files). An in-place edit of a tracked
/// topic file alone is not seen then; it is never lost either, and `snapshot` (which the hooks
/// run after every agent write) adopts it.
#[test]
fn an_in_place_edit_is_kept_and_adopted_by_snapshot() {
    use std::io::Write;
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    let edited =
        "---\nname: role\ndescription: Backend engineer\ntype: user\n---\nBackend, and now Rust.\n";
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(dir.join("role.md"))
        .expect("open in place");
    file.write_all(edited.as_bytes()).expect("edit");
    drop(file);
    env.save("feedback", "lint", "Lint first", "Lint.");
    assert_eq!(
        std::fs::read_to_string(dir.join("role.md")).expect("kept"),
        edited
    );
    assert_eq!(git(&dir, &["status", "--porcelain"]), " M role.md\n");
    env.ok(&["snapshot"]);
    assert_eq!(subjects(&dir)[0], "adopt(user): role");
    assert_eq!(git(&dir, &["show", "HEAD:role.md"]), edited);
    assert_git_clean(&dir);
}

/// Removing or replacing a memory whose latest content is not in history yet (an in-place edit,
/// an orphan from an interrupted save) first commits that content: nothing is ever lost.
#[test]
fn rm_and_save_keep_uncommitted_content_in_history() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    // An in-place edit of the memory about to be removed.
    let edited =
        "---\nname: role\ndescription: Backend engineer\ntype: user\n---\nEdited in place.\n";
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(dir.join("role.md"))
        .and_then(|mut f| std::io::Write::write_all(&mut f, edited.as_bytes()))
        .expect("edit in place");
    env.ok(&["rm", "role"]);
    assert_eq!(
        subjects(&dir)[..2],
        ["delete(user): role", "adopt(user): role"]
    );
    assert_eq!(git(&dir, &["show", "HEAD~1:role.md"]), edited);

    // An orphan topic file (no index line, never committed) that is then removed.
    std::fs::write(
        dir.join("draft.md"),
        "---\nname: draft\ndescription: d\ntype: project\n---\nDraft only.\n",
    )
    .expect("write");
    env.ok(&["rm", "draft"]);
    assert_eq!(
        subjects(&dir)[..2],
        ["delete(project): draft", "adopt(project): draft"]
    );
    assert!(git(&dir, &["show", "HEAD~1:draft.md"]).contains("Draft only."));
    assert_git_clean(&dir);
}

/// PostToolUse fires after every edit: one outside the memory dir must not touch memory.
#[test]
fn snapshot_hook_ignores_a_write_outside_the_memory_dir() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    let payload = serde_json::json!({
        "session_id": SESSION,
        "cwd": env.project,
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": env.project.join("src/main.rs"), "old_string": "a", "new_string": "b"},
    });
    let run = env.run_with_stdin(&["snapshot", "--hook"], &payload.to_string());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", ""));
    assert!(!dir.exists(), "no memory dir or repository was created");
    // The same hook for a file inside memory adopts it.
    env.save("user", "role", "The user's role", "Data engineer.");
    std::fs::write(
        dir.join("tabs.md"),
        "---\nname: tabs\ndescription: Tabs\ntype: feedback\n---\nIndent with tabs.\n",
    )
    .expect("topic");
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    std::fs::write(
        dir.join("MEMORY.md"),
        format!("{index}- [Tabs](tabs.md) — Tabs\n"),
    )
    .expect("index");
    let inside = serde_json::json!({
        "session_id": SESSION,
        "cwd": env.project,
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": dir.join("MEMORY.md"), "content": "…"},
    });
    let run = env.run_with_stdin(&["snapshot", "--hook"], &inside.to_string());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        subjects(&dir),
        ["adopt(feedback): tabs", "save(user): role"]
    );
    assert_git_clean(&dir);
}

/// An agent's file is adopted as it is; a secret in it gets a warning, never its value.
#[test]
fn adopting_a_secret_warns_without_showing_it() {
    let env = TestEnv::new();
    env.ok(&["init"]);
    let dir = env.memory_dir();
    let token = "ghp_R8kT2mVq9XwLs4NbZc7Yd1PfHj6Ga3Ue5Qo0";
    std::fs::write(
        dir.join("ci.md"),
        format!(
            "---\nname: ci\ndescription: CI access\ntype: reference\n---\nThe CI token is {token}\n"
        ),
    )
    .expect("topic");
    std::fs::write(dir.join("MEMORY.md"), "- [CI](ci.md) — CI access\n").expect("index");
    let run = env.ok(&["snapshot"]);
    assert!(
        run.stderr.contains("warning: ci.md:6: a GitHub token"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(token), "{}", run.stderr);
    assert_eq!(subjects(&dir), ["adopt(reference): ci"]);
    assert_git_clean(&dir);
}
