//! Saving, updating, listing, showing and removing memories, each checked with the real git.

use crate::common::{TestEnv, assert_git_clean, assert_index_consistent, git, save_args, subjects};

#[test]
fn three_saves_list_show_log() {
    let env = TestEnv::new();
    env.ok(&["init"]);
    let dir = env.memory_dir();
    assert!(dir.ends_with(format!(
        "projects/{}/memory",
        env.project.display().to_string().replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    )));
    env.save(
        "feedback",
        "pre-commit-lint",
        "Run the linter before every commit",
        "Run `npm run lint` first.\n\n**Why:** CI broke.",
    );
    env.run_with_stdin(
        &[
            "save",
            "--type",
            "user",
            "--name",
            "role",
            "--description",
            "Backend engineer, new to React",
            "--session",
            "s-123",
        ],
        "The user is a backend engineer.\n",
    );
    env.save(
        "reference",
        "dashboards",
        "Grafana board for the API: grafana.example/d/api",
        "grafana.example/d/api",
    );

    assert_git_clean(&dir);
    assert_eq!(
        subjects(&dir),
        [
            "save(reference): dashboards",
            "save(user): role",
            "save(feedback): pre-commit-lint"
        ]
    );
    let message = git(&dir, &["log", "-1", "--skip=1", "--format=%B"]);
    assert_eq!(
        message,
        "save(user): role\n\nBackend engineer, new to React\n\nMemdir-Op: save\nMemdir-Session: s-123\n\n"
    );
    assert_eq!(
        git(&dir, &["log", "-1", "--format=%an <%ae>"]).trim(),
        "memdir <memdir@localhost>",
        "no git identity: the fallback author"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        "- [Pre commit lint](pre-commit-lint.md) — Run the linter before every commit\n\
         - [Role](role.md) — Backend engineer, new to React\n\
         - [Dashboards](dashboards.md) — Grafana board for the API: grafana.example/d/api\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("role.md")).expect("topic"),
        "---\nname: role\ndescription: Backend engineer, new to React\ntype: user\n---\nThe user is a backend engineer.\n"
    );

    let list = env.ok(&["list", "--json"]).json();
    assert_eq!(
        list,
        serde_json::json!([
            {"name": "pre-commit-lint", "type": "feedback", "description": "Run the linter before every commit", "title": "Pre commit lint", "file": "pre-commit-lint.md", "saved": "2026-03-05T10:00:00+00:00"},
            {"name": "role", "type": "user", "description": "Backend engineer, new to React", "title": "Role", "file": "role.md", "saved": "2026-03-05T10:00:00+00:00"},
            {"name": "dashboards", "type": "reference", "description": "Grafana board for the API: grafana.example/d/api", "title": "Dashboards", "file": "dashboards.md", "saved": "2026-03-05T10:00:00+00:00"},
        ])
    );
    let users = env.ok(&["list", "--type", "user", "--json"]).json();
    assert_eq!(users.as_array().map(Vec::len), Some(1));
    assert!(
        env.ok(&["list"])
            .stdout
            .contains("feedback  pre-commit-lint")
    );

    let show = env.ok(&["show", "role"]);
    assert_eq!(
        show.stdout,
        std::fs::read_to_string(dir.join("role.md")).expect("topic")
    );
    assert_eq!(
        env.ok(&["show", "role", "--json"]).json()["body"],
        "The user is a backend engineer.\n"
    );

    let log = env.ok(&["log", "--json"]).json();
    assert_eq!(log[0]["op"], "save");
    assert_eq!(log[0]["type"], "reference");
    assert_eq!(log[0]["name"], "dashboards");
    assert_eq!(log[1]["session"], "s-123");
    assert_eq!(log[2]["time"], "2026-03-05T10:00:00+00:00");
    assert_eq!(log[2]["commit"].as_str().map(str::len), Some(40));
    let one = env.ok(&["log", "role", "--json"]).json();
    assert_eq!(one.as_array().map(Vec::len), Some(1));
    assert!(
        env.ok(&["log"])
            .stdout
            .lines()
            .next()
            .is_some_and(|l| l.contains(" save(reference): dashboards  by memdir"))
    );
}

#[test]
fn init_is_idempotent() {
    let env = TestEnv::new();
    assert!(env.ok(&["init"]).stdout.starts_with("initialised "));
    let dir = env.memory_dir();
    let before = crate::common::tree_snapshot(&dir);
    assert!(env.ok(&["init"]).stdout.starts_with("already initialised "));
    assert_eq!(crate::common::tree_snapshot(&dir), before);
    assert!(git(&dir, &["check-ignore", "team/x.md"]).contains("team/x.md"));
}

#[test]
fn saving_an_existing_name_updates_it_in_place() {
    let env = TestEnv::new();
    env.save("feedback", "tabs", "Use tabs", "Tabs.");
    env.ok(&[
        "save",
        "--type",
        "feedback",
        "--name",
        "spaces",
        "--description",
        "Spaces in YAML",
        "--title",
        "YAML spaces",
        "--body",
        "Spaces.",
    ]);
    // A type change is asked for (without --change-type it is refused: tests/cli/edit.rs).
    let mut retyped = save_args("project", "tabs", "Use tabs, width 4", "Tabs, width 4.");
    retyped.push("--change-type");
    env.ok(&retyped);
    let dir = env.memory_dir();
    assert_git_clean(&dir);
    assert_eq!(subjects(&dir)[0], "update(project): tabs");
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        "- [Tabs](tabs.md) — Use tabs, width 4\n- [YAML spaces](spaces.md) — Spaces in YAML\n"
    );
    // Updating keeps a custom title; saving identical content makes no commit.
    env.save("feedback", "spaces", "Spaces in YAML", "Spaces.");
    assert_eq!(subjects(&dir).len(), 3);
    assert!(
        std::fs::read_to_string(dir.join("MEMORY.md"))
            .expect("index")
            .contains("[YAML spaces]")
    );
    assert_eq!(
        env.save("feedback", "spaces", "Spaces in YAML", "Spaces.")
            .stdout,
        "spaces unchanged\n"
    );
}

#[test]
fn update_keeps_keys_claude_code_wrote() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    std::fs::create_dir_all(&dir).expect("dir");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/transcripts/cc-2.1.332/agent-writes-memory.memory");
    for f in ["MEMORY.md", "staging.md", "use-bun.md"] {
        std::fs::copy(src.join(f), dir.join(f)).expect("copy");
    }
    env.ok(&["init"]);
    assert_eq!(
        subjects(&dir),
        ["adopt(feedback): use-bun", "adopt(project): staging"]
    );
    env.save(
        "project",
        "staging",
        "Staging deploys from the release-2 branch",
        "Staging deploys from release-2.",
    );
    let text = std::fs::read_to_string(dir.join("staging.md")).expect("topic");
    assert!(
        text.contains("originSessionId: f963f83a-cb94-426d-8d53-023945f76728\n"),
        "{text}"
    );
    assert!(
        text.contains("  type: project\n") && text.contains("\ntype: project\n"),
        "{text}"
    );
    assert!(
        text.ends_with("---\nStaging deploys from release-2.\n"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        "- [Use bun](use-bun.md) — bun, never npm, for installs and scripts\n- [Staging](staging.md) — Staging deploys from the release-2 branch\n"
    );
    assert_git_clean(&dir);
}

#[test]
fn long_descriptions_shorten_the_index_line_with_a_warning() {
    let env = TestEnv::new();
    let description = "Deploys go through the release train every Tuesday and Thursday afternoon, never on Fridays, and always with a rollback plan written down first";
    let run = env.save("project", "release-train", description, "Details.");
    assert!(
        run.stderr
            .contains("warning: the index line for release-train was shortened"),
        "{}",
        run.stderr
    );
    let dir = env.memory_dir();
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    let line = index.lines().next().expect("a line");
    assert!(line.encode_utf16().count() < 150, "{line}");
    assert!(line.ends_with('…'), "{line}");
    // The full description stays in the topic file.
    assert!(
        std::fs::read_to_string(dir.join("release-train.md"))
            .expect("topic")
            .contains(description)
    );
    assert_git_clean(&dir);
}

#[test]
fn rm_removes_file_and_line_in_one_commit() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save("feedback", "lint", "Lint first", "Lint.");
    let run = env.ok(&["rm", "role"]);
    assert_eq!(run.stdout, "removed role (role.md)\n");
    let dir = env.memory_dir();
    assert!(!dir.join("role.md").exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        "- [Lint](lint.md) — Lint first\n"
    );
    assert_eq!(subjects(&dir)[0], "delete(user): role");
    assert_eq!(
        git(&dir, &["show", "--stat", "--format=", "HEAD"])
            .lines()
            .count(),
        3,
        "two files in one commit"
    );
    assert_git_clean(&dir);
    let again = env.run(&["rm", "role"]);
    assert_eq!(again.code, 2);
    assert_eq!(again.error_lines(), ["error: no memory named \"role\""]);
    assert!(
        again
            .stderr
            .contains("hint: `memdir list` shows the memories"),
        "{}",
        again.stderr
    );
}

#[test]
fn index_warns_near_and_over_the_load_limit() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    std::fs::create_dir_all(&dir).expect("dir");
    let mut index = String::new();
    for i in 0..199 {
        let name = format!("m{i}");
        std::fs::write(
            dir.join(format!("{name}.md")),
            format!("---\nname: {name}\ndescription: d\ntype: user\n---\nb\n"),
        )
        .expect("write");
        index.push_str(&format!("- [M{i}]({name}.md) — d\n"));
    }
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    env.ok(&["snapshot"]);
    assert_git_clean(&dir);
    let near = env.save("user", "m199", "d", "b");
    assert!(
        near.stderr.contains("past 80% of Claude Code's load limit"),
        "{}",
        near.stderr
    );
    let over = env.save("user", "m200", "d", "b");
    assert!(
        over.stderr.contains("over Claude Code's load limit (200 lines, 25000 characters): 1 entry is no longer loaded: m200"),
        "{}",
        over.stderr
    );
    assert!(dir.join("m200.md").is_file(), "the write still succeeds");
    let index = env.ok(&["index", "--json"]).json();
    assert_eq!(index["invisible"], serde_json::json!(["m200.md"]));
    assert_eq!(index["truncated"], true);
    assert_index_consistent(&dir);
    assert_git_clean(&dir);
}

#[test]
fn body_from_a_file_and_global_flags_after_the_subcommand() {
    let env = TestEnv::new();
    let body = env.root.join("body.txt");
    std::fs::write(&body, "From a file.\n").expect("body");
    let elsewhere = env.root.join("elsewhere");
    env.ok(&[
        "save",
        "--type",
        "project",
        "--name",
        "from-file",
        "--description",
        "d",
        "--body-file",
        body.to_str().expect("utf-8"),
        "--memory-dir",
        elsewhere.to_str().expect("utf-8"),
        "-q",
    ]);
    assert_eq!(
        std::fs::read_to_string(elsewhere.join("from-file.md")).expect("topic"),
        "---\nname: from-file\ndescription: d\ntype: project\n---\nFrom a file.\n"
    );
    assert_git_clean(&elsewhere);
    let before = env.run(&[
        "--memory-dir",
        elsewhere.to_str().expect("utf-8"),
        "list",
        "--json",
    ]);
    assert_eq!(before.json()[0]["name"], "from-file");
}
