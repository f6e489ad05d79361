//! `memdir hooks install --claude` (DESIGN §11): memdir's Claude Code hook entries merged into a
//! settings file, never clobbering what the user has there, and idempotent.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{TestEnv, assert_git_clean, git};

/// What a fresh install writes: the entries of `hooks/claude-settings.json`, as Claude Code's
/// settings schema (2.1.332) wants them.
pub fn memdir_entries(program: &str) -> Value {
    let extract =
        json!([{"hooks": [{"type": "command", "command": format!("{program} extract --hook")}]}]);
    let sync = json!({"hooks": [{"type": "command", "command": format!("{program} sync --hook")}]});
    json!({"hooks": {
        "Stop": extract,
        "SessionEnd": [extract[0], sync],
        "PreCompact": extract,
        "PostToolUse": [{
            "matcher": "Write|Edit|MultiEdit|NotebookEdit",
            "hooks": [{"type": "command", "command": format!("{program} snapshot --hook")}]
        }],
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": format!("{program} recall --hook")}]}
        ],
        "SessionStart": [
            {"hooks": [{"type": "command", "command": format!("{program} recall --hook")}]},
            sync
        ]
    }})
}

pub fn user_settings(env: &TestEnv) -> PathBuf {
    env.home.join(".claude/settings.json")
}

pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON ({e}): {text}", path.display()))
}

/// Keys of a JSON object in file order (serde_json keeps it: `preserve_order`).
fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn fresh_install_writes_exactly_memdirs_entries() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    assert!(!file.exists());
    let run = env.ok(&["hooks", "install", "--claude"]);
    assert_eq!(read_json(&file), memdir_entries("memdir"));
    for event in [
        "Stop",
        "SessionEnd",
        "PreCompact",
        "PostToolUse",
        "UserPromptSubmit",
        "SessionStart",
    ] {
        assert!(
            run.stdout.contains(event),
            "{event} not reported: {}",
            run.stdout
        );
    }
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(text.ends_with("}\n"), "no final newline: {text:?}");
    assert!(
        text.contains("\n  \"hooks\": {\n    \"Stop\""),
        "not 2-space JSON: {text}"
    );
    // `hooks show` prints the same entries, to paste by hand.
    let shown: Value = serde_json::from_str(&env.ok(&["hooks", "show"]).stdout).expect("JSON");
    assert_eq!(shown, memdir_entries("memdir"));
}

#[test]
fn the_user_file_follows_claude_config_dir() {
    let mut env = TestEnv::new();
    let config = env.root.join("config");
    env.set_var("CLAUDE_CONFIG_DIR", config.to_str().expect("utf-8"));
    let json = env.ok(&["hooks", "install", "--claude", "--json"]).json();
    let file = config.join("settings.json");
    assert_eq!(json["path"], file.display().to_string());
    assert_eq!(read_json(&file), memdir_entries("memdir"));
    assert!(!user_settings(&env).exists());
}

/// A settings file of the user's own: keys, and hooks under events memdir hooks and others.
pub fn users_settings() -> Value {
    json!({
        "permissions": {"allow": ["Bash(cargo test:*)"], "deny": []},
        "model": "opus",
        "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}],
            "PostToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}
            ],
            "Notification": []
        },
        "statusLine": {"type": "command", "command": "status.sh"}
    })
}

#[test]
fn merge_keeps_every_other_setting_and_hook_in_order() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    let before = users_settings();
    std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
    std::fs::write(&file, serde_json::to_string_pretty(&before).expect("json")).expect("write");

    let json = env.ok(&["hooks", "install", "--claude", "--json"]).json();
    assert_eq!(json["unchanged"], false);
    let added: Vec<(&str, &str)> = json["added"]
        .as_array()
        .expect("added")
        .iter()
        .map(|a| {
            (
                a["event"].as_str().expect("event"),
                a["command"].as_str().expect("command"),
            )
        })
        .collect();
    assert_eq!(
        added,
        [
            ("Stop", "memdir extract --hook"),
            ("SessionEnd", "memdir extract --hook"),
            ("SessionEnd", "memdir sync --hook"),
            ("PreCompact", "memdir extract --hook"),
            ("PostToolUse", "memdir snapshot --hook"),
            ("UserPromptSubmit", "memdir recall --hook"),
            ("SessionStart", "memdir recall --hook"),
            ("SessionStart", "memdir sync --hook"),
        ]
    );

    let after = read_json(&file);
    assert_eq!(
        keys(&after),
        ["permissions", "model", "hooks", "statusLine"]
    );
    assert_eq!(after["permissions"], before["permissions"]);
    assert_eq!(after["model"], "opus");
    assert_eq!(after["statusLine"], before["statusLine"]);
    let hooks = &after["hooks"];
    // The user's events first, in their order, then the new ones.
    assert_eq!(
        keys(hooks),
        [
            "Stop",
            "PostToolUse",
            "Notification",
            "SessionEnd",
            "PreCompact",
            "UserPromptSubmit",
            "SessionStart"
        ]
    );
    assert_eq!(hooks["Notification"], json!([]));
    // Existing entries stay first and unchanged; memdir's come after them.
    assert_eq!(
        hooks["Stop"],
        json!([
            {"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]},
            {"hooks": [{"type": "command", "command": "memdir extract --hook"}]}
        ])
    );
    assert_eq!(
        hooks["PostToolUse"],
        json!([
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]},
            {"matcher": "Write|Edit|MultiEdit|NotebookEdit",
             "hooks": [{"type": "command", "command": "memdir snapshot --hook"}]}
        ])
    );
    assert_eq!(
        hooks["SessionEnd"],
        memdir_entries("memdir")["hooks"]["SessionEnd"]
    );
    assert_eq!(
        hooks["PreCompact"],
        memdir_entries("memdir")["hooks"]["PreCompact"]
    );
}

#[test]
fn a_second_install_changes_nothing() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
    std::fs::write(&file, r#"{"model": "sonnet", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say hi"}]}]}}"#)
        .expect("write");
    env.ok(&["hooks", "install", "--claude"]);
    let first = std::fs::read(&file).expect("read");
    let modified = std::fs::metadata(&file)
        .expect("stat")
        .modified()
        .expect("mtime");

    let plain = env.ok(&["hooks", "install", "--claude"]);
    assert!(
        plain.stdout.contains("already installed"),
        "{}",
        plain.stdout
    );
    let json = env.ok(&["hooks", "install", "--claude", "--json"]).json();
    assert_eq!(json["unchanged"], true);
    assert_eq!(json["added"], json!([]));
    assert_eq!(std::fs::read(&file).expect("read"), first);
    assert_eq!(
        std::fs::metadata(&file)
            .expect("stat")
            .modified()
            .expect("mtime"),
        modified
    );
    // Each event runs memdir once.
    let after = read_json(&file);
    assert_eq!(after["hooks"]["Stop"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        after["hooks"]["PostToolUse"].as_array().map(Vec::len),
        Some(1)
    );
}

#[test]
fn command_sets_the_executable_and_updates_an_old_path() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    env.ok(&["hooks", "install", "--claude"]);
    let program = "/opt/my tools/memdir";
    let json = env
        .ok(&[
            "hooks",
            "install",
            "--claude",
            "--command",
            program,
            "--json",
        ])
        .json();
    assert_eq!(json["added"], json!([]));
    assert_eq!(json["replaced"].as_array().map(Vec::len), Some(8), "{json}");
    // Replaced in place, not added next to the old command; quoted for the shell.
    assert_eq!(read_json(&file), memdir_entries("'/opt/my tools/memdir'"));
}

const INSTALL_LOCAL: &[&str] = &["hooks", "install", "--claude", "--scope", "project-local"];

/// `INSTALL_LOCAL` for the project in `project`.
fn install_local_in(project: &Path) -> Vec<&str> {
    [
        &["--project", project.to_str().expect("UTF-8")][..],
        INSTALL_LOCAL,
    ]
    .concat()
}

#[test]
fn installing_beside_the_enabled_plugin_warns_that_every_hook_would_run_twice() {
    let env = TestEnv::new();
    let settings = env.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().expect("parent")).expect("mkdir");
    std::fs::write(&settings, r#"{"enabledPlugins": {"memdir@memdir": true}}"#).expect("write");
    let run = env.ok(INSTALL_LOCAL);
    assert!(
        run.stderr
            .contains("warning: the memdir plugin is enabled too (")
            && run.stderr.contains("each runs twice"),
        "{}",
        run.stderr
    );
    // A value of the wrong shape, as a cloned repository's settings might hold, is no plugin.
    std::fs::write(&settings, r#"{"enabledPlugins": ["memdir@memdir"]}"#).expect("write");
    let run = env.ok(INSTALL_LOCAL);
    assert!(!run.stderr.contains("memdir plugin"), "{}", run.stderr);
    std::fs::write(&settings, r#"{"enabledPlugins": {"memdir@memdir": true}}"#).expect("write");
    // Disabled in a layer above (the project's local settings), it is no second set.
    let local = env.project.join(".claude/settings.local.json");
    let mut text = read_json(&local);
    text["enabledPlugins"] = json!({"memdir@memdir": false});
    std::fs::write(&local, text.to_string()).expect("write");
    let run = env.ok(INSTALL_LOCAL);
    assert!(!run.stderr.contains("memdir plugin"), "{}", run.stderr);
}

#[test]
fn project_local_scope_writes_the_projects_local_settings() {
    let env = TestEnv::new();
    let json = env.ok(&[INSTALL_LOCAL, &["--json"]].concat()).json();
    let file = env.project.join(".claude/settings.local.json");
    assert_eq!(json["path"], file.display().to_string());
    assert_eq!(read_json(&file), memdir_entries("memdir"));
    assert!(!user_settings(&env).exists());
    assert!(!env.project.join(".claude/settings.json").exists());

    // --project chooses the project.
    let other = env.root.join("other");
    std::fs::create_dir_all(&other).expect("dir");
    env.ok(&[
        "--project",
        other.to_str().expect("utf-8"),
        "hooks",
        "install",
        "--claude",
        "--scope",
        "project-local",
    ]);
    assert_eq!(
        read_json(&other.join(".claude/settings.local.json")),
        memdir_entries("memdir")
    );
}

#[test]
fn malformed_settings_are_left_byte_for_byte() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
    for bad in [
        "{\"model\": \"opus\",, }\n",
        "[1, 2]\n",
        "{\"hooks\": {\"Stop\": {\"command\": \"x\"}}}\n",
    ] {
        std::fs::write(&file, bad).expect("write");
        let run = env.fails(&["hooks", "install", "--claude"], 2, "error: ");
        assert!(
            run.stderr.contains(&file.display().to_string()),
            "the error does not name the file: {}",
            run.stderr
        );
        assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
        assert_eq!(std::fs::read_to_string(&file).expect("read"), bad);
        let leftovers: Vec<_> = std::fs::read_dir(file.parent().expect("parent"))
            .expect("ls")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(leftovers, ["settings.json"]);
    }
}

#[test]
fn install_needs_a_target() {
    let env = TestEnv::new();
    let run = env.fails(&["hooks", "install"], 2, "--claude");
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    assert!(!user_settings(&env).exists());
    assert!(!env.project.join(".claude").exists());
}

const INSTALL_AGENT: &[&str] = &[
    "hooks",
    "install",
    "--claude",
    "--extractor",
    "agent",
    "--json",
];

/// The extractor is chosen at install time: `auto` (a model when one answers, else builtin) by
/// default, written as plain `extract --hook`; `--extractor agent` and `builtin` are named in the
/// extraction hooks (and nothing is written to disk beside the settings: memdir runs Claude
/// Code itself); reinstalling changes nothing, an install that names no extractor keeps the one
/// the hooks have, and naming another replaces it.
#[test]
fn the_extractor_is_chosen_at_install_time() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    env.ok(&["hooks", "install", "--claude"]);
    assert_eq!(read_json(&file), memdir_entries("memdir"));
    assert_eq!(
        read_json(&file)["hooks"]["Stop"][0]["hooks"][0]["command"],
        "memdir extract --hook",
        "auto is extract's default"
    );

    let json = env.ok(INSTALL_AGENT).json();
    assert_eq!(json["replaced"].as_array().map(Vec::len), Some(3));
    let settings = read_json(&file);
    for event in ["Stop", "SessionEnd", "PreCompact"] {
        assert_eq!(
            settings["hooks"][event][0]["hooks"][0]["command"],
            "memdir extract --hook --extractor agent",
            "{event}"
        );
    }
    assert_eq!(
        settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "memdir snapshot --hook"
    );
    assert!(
        !env.home.join(".claude/memdir").exists(),
        "no script is written"
    );

    let again = env.ok(INSTALL_AGENT).json();
    assert_eq!(again["unchanged"], true);
    let plain = env.ok(&["hooks", "install", "--claude", "--json"]).json();
    assert_eq!(plain["unchanged"], true, "no extractor named: it is kept");
    assert_eq!(read_json(&file), settings);

    let builtin = env
        .ok(&[
            "hooks",
            "install",
            "--claude",
            "--extractor",
            "builtin",
            "--json",
        ])
        .json();
    assert_eq!(builtin["replaced"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        read_json(&file)["hooks"]["Stop"][0]["hooks"][0]["command"],
        "memdir extract --hook --extractor builtin"
    );
    let back = env
        .ok(&[
            "hooks",
            "install",
            "--claude",
            "--extractor",
            "auto",
            "--json",
        ])
        .json();
    assert_eq!(back["replaced"].as_array().map(Vec::len), Some(3));
    assert_eq!(read_json(&file), memdir_entries("memdir"));

    // A command of one's own as the model, with auto or agent, and the mistakes.
    env.ok(&[
        "hooks",
        "install",
        "--claude",
        "--agent-cmd",
        "my model --fast",
    ]);
    assert_eq!(
        read_json(&file)["hooks"]["Stop"][0]["hooks"][0]["command"],
        "memdir extract --hook --agent-cmd 'my model --fast'"
    );
    env.ok(&[
        "hooks",
        "install",
        "--claude",
        "--extractor",
        "agent",
        "--agent-cmd",
        "my agent --fast",
    ]);
    assert_eq!(
        read_json(&file)["hooks"]["Stop"][0]["hooks"][0]["command"],
        "memdir extract --hook --extractor agent --agent-cmd 'my agent --fast'"
    );
    let before = std::fs::read(&file).expect("read");
    for bad in [
        &[
            "hooks",
            "install",
            "--claude",
            "--extractor",
            "builtin",
            "--agent-cmd",
            "x",
        ][..],
        &[
            "hooks",
            "install",
            "--claude",
            "--extractor",
            "agent",
            "--agent-cmd",
            " ",
        ],
        &["hooks", "install", "--claude", "--extractor", "llm"],
    ] {
        let run = env.run(bad);
        assert_eq!(run.code, 2, "{bad:?}: {}", run.stderr);
    }
    assert_eq!(
        std::fs::read(&file).expect("read"),
        before,
        "nothing changed"
    );
}

/// The program the hooks run is checked as a shell would find it: a bare name on PATH, a path
/// to an executable file. One that is not there is warned of, and the hooks are written anyway
/// (memdir may be installed later).
#[test]
fn install_warns_when_the_program_the_hooks_run_is_not_there() {
    let mut env = TestEnv::new();
    let file = user_settings(&env);
    // The hermetic environment has no PATH: `memdir` is found nowhere.
    let run = env.ok(&["hooks", "install", "--claude", "--git", "--json"]);
    assert_eq!(run.json()["resolves"], false);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("warning: the hooks run `memdir`, which is not on PATH;")
            && run.stderr.contains("give --command PATH"),
        "{}",
        run.stderr
    );
    assert_eq!(read_json(&file), memdir_entries("memdir"));
    assert!(env.project.join(".git/hooks/post-merge").is_file());
    assert_git_clean(&env.project);

    let binary = TestEnv::binary();
    let folder = binary.parent().expect("the binary's folder");
    env.set_var("PATH", &format!("/nonexistent:{}", folder.display()));
    let run = env.ok(&["hooks", "install", "--claude", "--json"]);
    assert_eq!(run.json()["resolves"], true);
    assert_eq!(run.stderr, "");

    // A path must lead to an executable file, whatever PATH says.
    let binary = binary.to_str().expect("UTF-8");
    let not_executable = env.root.join("memdir.txt");
    std::fs::write(&not_executable, "#!/bin/sh\n").expect("write");
    let missing = env.root.join("bin/memdir");
    for (program, resolves, why) in [
        (binary, true, ""),
        (
            missing.to_str().expect("UTF-8"),
            false,
            "which does not exist",
        ),
        (
            not_executable.to_str().expect("UTF-8"),
            false,
            "which is not an executable file",
        ),
    ] {
        let args = ["hooks", "install", "--claude", "--command", program];
        let plain = env.ok(&args);
        assert_eq!(
            plain.stderr.is_empty(),
            resolves,
            "{program}: {}",
            plain.stderr
        );
        assert!(plain.stderr.contains(why), "{program}: {}", plain.stderr);
        let json = env.ok(&[&args[..], &["--json"]].concat()).json();
        assert_eq!(json["resolves"], resolves, "{program}");
        assert_eq!(
            read_json(&file),
            memdir_entries(program),
            "written all the same"
        );
    }
}

/// A hostile folder name never becomes gitignore patterns of its own.
#[test]
fn a_project_folder_named_with_a_line_break_adds_no_pattern_of_its_own() {
    let env = TestEnv::new();
    let repo = env.project.clone();
    // `p` then `*`: written as two lines, the second would ignore every new file.
    let project = repo.join("p\n*");
    std::fs::create_dir_all(&project).expect("mkdir");
    let exclude = repo.join(".git/info/exclude");
    let before = std::fs::read(&exclude).unwrap_or_default();
    let install = install_local_in(&project);
    let run = env.ok(&install);
    assert!(
        run.stderr
            .contains("could not be added to the repository's excludes")
            && run.stderr.contains("control character"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&exclude).unwrap_or_default(), before);
    std::fs::write(repo.join("new-file.txt"), "x").expect("write");
    let status = git(&repo, &["status", "--porcelain", "--untracked-files=all"]);
    assert!(status.contains("new-file.txt"), "{status}");
}

/// The project's local settings are this machine's: installing into them makes git ignore them
/// through the repository's `info/exclude` (which git never shares), never a tracked
/// `.gitignore`, and only when git does not ignore them already.
#[test]
fn project_local_settings_are_kept_out_of_git() {
    let env = TestEnv::new();
    let repo = env.project.clone();
    std::fs::write(repo.join(".gitignore"), "target/\n").expect("write");
    git(&repo, &["add", ".gitignore"]);
    git(&repo, &["commit", "-q", "-m", "init"]);
    // The project is a folder of its repository.
    let project = repo.join("app [v2]");
    std::fs::create_dir_all(&project).expect("mkdir");
    let exclude = repo.join(".git/info/exclude");
    let before = std::fs::read_to_string(&exclude).unwrap_or_default();
    let install = install_local_in(&project);
    let run = env.ok(&install);
    let line = "/app \\[v2\\]/.claude/settings.local.json";
    assert!(
        run.stdout.contains(&format!(
            "git ignores it now, on this machine only: added `{line}` to {}",
            exclude.display()
        )),
        "{}",
        run.stdout
    );
    let after = std::fs::read_to_string(&exclude).expect("info/exclude");
    assert!(
        after.starts_with(&before) && after.ends_with(&format!("\n{line}\n")),
        "{after}"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join(".gitignore")).expect("read"),
        "target/\n"
    );
    let file = "app [v2]/.claude/settings.local.json";
    assert!(project.join(".claude/settings.local.json").is_file());
    assert_git_clean(&repo);
    let ignored = git(&repo, &["check-ignore", "-v", file]);
    assert!(ignored.starts_with(".git/info/exclude:"), "{ignored}");

    // Ignored now: installing again adds nothing.
    let json = env.ok(&[&install[..], &["--json"]].concat()).json();
    assert_eq!(json["exclude"], json!({"action": "ignored"}));
    assert_eq!(
        std::fs::read_to_string(&exclude).expect("info/exclude"),
        after
    );
}

#[test]
fn local_settings_git_already_ignores_or_tracks_are_left_to_it() {
    let env = TestEnv::new();
    let repo = env.project.clone();
    let exclude = repo.join(".git/info/exclude");
    let before = std::fs::read(&exclude).ok();
    let install = [INSTALL_LOCAL, &["--json"]].concat();
    // Ignored by the project's own .gitignore.
    std::fs::write(repo.join(".gitignore"), ".claude/settings.local.json\n").expect("write");
    git(&repo, &["add", ".gitignore"]);
    git(&repo, &["commit", "-q", "-m", "init"]);
    let json = env.ok(&install).json();
    assert_eq!(json["exclude"], json!({"action": "ignored"}));
    assert_eq!(std::fs::read(&exclude).ok(), before);
    assert_git_clean(&repo);

    // Tracked: no ignore rule would apply; said, and nothing is added.
    git(&repo, &["add", "-f", ".claude/settings.local.json"]);
    git(&repo, &["commit", "-q", "-m", "local settings"]);
    let run = env.ok(&[&install[..], &["--command", "/opt/bin/memdir"]].concat());
    assert_eq!(run.json()["exclude"], json!({"action": "tracked"}));
    assert!(
        run.stderr
            .contains("warning: git tracks .claude/settings.local.json")
            && run.stderr.contains("git rm --cached"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&exclude).ok(), before);
    git(&repo, &["fsck", "--strict", "--no-progress"]);
    assert_eq!(
        git(&repo, &["status", "--porcelain"]),
        " M .claude/settings.local.json\n"
    );
}
