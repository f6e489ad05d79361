//! `memdir hooks uninstall` (DESIGN §11: the exact inverse of `hooks install`): memdir's hook
//! entries taken out of a Claude Code settings file and its line out of the post-merge hook,
//! everything else given back as it was.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{TestEnv, assert_git_clean, git_output};
use crate::hooks::{memdir_entries, read_json, user_settings, users_settings};

/// The user's own settings (`hooks::users_settings`) in install's format: 2-space JSON and a
/// final newline, Claude Code's own.
fn users_settings_text() -> String {
    let mut text = serde_json::to_string_pretty(&users_settings()).expect("JSON");
    text.push('\n');
    text
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn mtime(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path)
        .expect("stat")
        .modified()
        .expect("mtime")
}

/// The (event, command) pairs a `--json` run reports under `key`.
fn hooks_in<'a>(json: &'a Value, key: &str) -> Vec<(&'a str, &'a str)> {
    json[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} list: {json}"))
        .iter()
        .map(|h| {
            (
                h["event"].as_str().expect("event"),
                h["command"].as_str().expect("command"),
            )
        })
        .collect()
}

#[test]
fn install_then_uninstall_gives_back_the_file_byte_for_byte() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    for original in [
        users_settings_text(),
        format!("\u{feff}{}", users_settings_text()),
    ] {
        write(&file, &original);
        let installed = env.ok(&["hooks", "install", "--claude", "--json"]).json();
        let json = env.ok(&["hooks", "uninstall", "--claude", "--json"]).json();
        assert_eq!(json["path"], file.display().to_string());
        assert_eq!(json["unchanged"], false);
        assert_eq!(hooks_in(&json, "removed"), hooks_in(&installed, "added"));
        assert_eq!(
            json["removed"][4],
            json!({"event": "PostToolUse", "matcher": "Write|Edit|MultiEdit|NotebookEdit",
                   "command": "memdir snapshot --hook"})
        );
        assert_eq!(std::fs::read_to_string(&file).expect("read"), original);
    }

    // Nothing of memdir's left: said, and the file is not written.
    let before = mtime(&file);
    let plain = env.ok(&["hooks", "uninstall", "--claude"]);
    assert!(
        plain.stdout.contains("not in") && plain.stdout.contains("nothing changed"),
        "{}",
        plain.stdout
    );
    let json = env.ok(&["hooks", "uninstall", "--claude", "--json"]).json();
    assert_eq!(json["unchanged"], true);
    assert_eq!(json["removed"], json!([]));
    assert_eq!(mtime(&file), before);
}

/// With the agent extractor, at another program path, and in the project's local settings.
#[test]
fn every_memdir_hook_install_wrote_goes_whatever_its_path_and_extractor() {
    let env = TestEnv::new();
    let file = env.project.join(".claude/settings.local.json");
    write(&file, &users_settings_text());
    let local = ["--scope", "project-local"];
    let install = [
        &["hooks", "install", "--claude", "--extractor", "agent"][..],
        &["--command", "/opt/my tools/memdir"],
        &local,
    ]
    .concat();
    env.ok(&install);

    let plain = env.ok(&[&["hooks", "uninstall", "--claude"][..], &local].concat());
    for line in [
        "Stop: removed `'/opt/my tools/memdir' extract --hook --extractor agent`".to_string(),
        "PostToolUse [Write|Edit|MultiEdit|NotebookEdit]: removed `'/opt/my tools/memdir' snapshot --hook`".into(),
        format!("updated {}", file.display()),
    ] {
        assert!(plain.stdout.contains(&line), "{line:?} in {}", plain.stdout);
    }
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        users_settings_text()
    );
    assert!(!user_settings(&env).exists());

    // And with a model command of one's own, in --json.
    env.ok(&[&install[..], &["--agent-cmd", "my model"]].concat());
    let json = env
        .ok(&[&["hooks", "uninstall", "--claude", "--json"][..], &local].concat())
        .json();
    assert_eq!(
        json["removed"][0]["command"],
        "'/opt/my tools/memdir' extract --hook --extractor agent --agent-cmd 'my model'"
    );
    assert!(json.get("agent").is_none(), "{json}");
}

/// What a user added to memdir's groups stays, and so do a pipeline of their own that runs memdir
/// and memdir's commands under events memdir does not hook.
#[test]
fn what_the_user_added_beside_memdirs_hooks_stays() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    env.ok(&["hooks", "install", "--claude"]);
    let mut settings = read_json(&file);
    let mine = json!({"type": "command", "command": "say stopped"});
    let pipeline =
        json!({"type": "command", "command": "memdir extract --hook 2>/dev/null || true"});
    let elsewhere = json!([{"hooks": [{"type": "command", "command": "memdir snapshot --hook"}]}]);
    settings["hooks"]["Stop"][0]["hooks"]
        .as_array_mut()
        .expect("Stop's group")
        .push(mine.clone());
    settings["hooks"]["SessionEnd"][0]["hooks"]
        .as_array_mut()
        .expect("SessionEnd's group")
        .push(pipeline.clone());
    settings["hooks"]["Notification"] = elsewhere.clone();
    write(
        &file,
        &serde_json::to_string_pretty(&settings).expect("JSON"),
    );

    let json = env.ok(&["hooks", "uninstall", "--claude", "--json"]).json();
    assert_eq!(json["removed"].as_array().map(Vec::len), Some(8), "{json}");
    assert_eq!(
        read_json(&file),
        json!({"hooks": {
            "Stop": [{"hooks": [mine]}],
            "SessionEnd": [{"hooks": [pipeline]}],
            "Notification": elsewhere,
        }})
    );
}

#[test]
fn a_fresh_install_uninstalled_leaves_an_empty_object_and_no_hooks_key() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    // No settings file: nothing to remove, none created.
    let run = env.ok(&["hooks", "uninstall", "--claude", "--json"]).json();
    assert_eq!(run["unchanged"], true);
    assert!(!file.exists());

    env.ok(&["hooks", "install", "--claude"]);
    assert_eq!(read_json(&file), memdir_entries("memdir"));
    env.ok(&["hooks", "uninstall", "--claude"]);
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "{}\n");
}

#[test]
fn a_program_of_another_name_is_memdirs_when_command_names_it() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    env.ok(&[
        "hooks",
        "install",
        "--claude",
        "--command",
        "/opt/bin/memdir-dev",
    ]);
    let installed = std::fs::read(&file).expect("read");
    let json = env.ok(&["hooks", "uninstall", "--claude", "--json"]).json();
    assert_eq!(json["unchanged"], true, "memdir-dev is not memdir by name");
    assert_eq!(std::fs::read(&file).expect("read"), installed);
    let json = env
        .ok(&[
            "hooks",
            "uninstall",
            "--claude",
            "--command",
            "memdir-dev",
            "--json",
        ])
        .json();
    assert_eq!(json["removed"].as_array().map(Vec::len), Some(8), "{json}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "{}\n");
}

#[test]
fn uninstall_refuses_what_install_refuses_and_writes_nothing() {
    let env = TestEnv::new();
    let file = user_settings(&env);
    for bad in [
        "{\"model\": \"opus\",, }\n",
        "[1, 2]\n",
        "{\"hooks\": {\"Stop\": {\"command\": \"memdir extract --hook\"}}}\n",
    ] {
        write(&file, bad);
        let run = env.fails(&["hooks", "uninstall", "--claude"], 2, "error: ");
        assert!(
            run.stderr.contains(&file.display().to_string()),
            "{}",
            run.stderr
        );
        assert_eq!(std::fs::read_to_string(&file).expect("read"), bad);
    }
    env.fails(&["hooks", "uninstall"], 2, "--claude");
    let elsewhere = env.root.join("no-repo");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    let dir = elsewhere.to_str().expect("utf-8");
    env.fails(
        &["--project", dir, "hooks", "uninstall", "--git"],
        2,
        "no git repository",
    );
}

/// What the post-merge hook prints when the real git runs it (git sends a hook's stdout to
/// stderr).
fn run_post_merge(project: &Path) -> String {
    let out = git_output(project, &["hook", "run", "--ignore-missing", "post-merge"]);
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_post_merge_hook_is_given_back_or_deleted() {
    let env = TestEnv::new();
    let hook = env.project.join(".git/hooks/post-merge");
    // memdir's hook alone: deleted.
    let json = env.ok(&["hooks", "install", "--git", "--json"]).json();
    assert_eq!(json["git"]["action"], "created");
    let json = env.ok(&["hooks", "uninstall", "--git", "--json"]).json();
    assert_eq!(
        json["git"],
        json!({"path": hook.display().to_string(), "action": "deleted"})
    );
    assert!(!hook.exists());
    let json = env.ok(&["hooks", "uninstall", "--git", "--json"]).json();
    assert_eq!(json["git"]["action"], "unchanged");

    // The user's hook: given back byte for byte, and git still runs it.
    let users = "#!/bin/sh\necho \"the user's hook ran\"\nexit 0\n";
    write(&hook, users);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    env.ok(&["hooks", "install", "--git", "--command", "/opt/x/memdir"]);
    assert_ne!(std::fs::read_to_string(&hook).expect("read"), users);
    let plain = env.ok(&["hooks", "uninstall", "--git"]);
    assert!(
        plain
            .stdout
            .contains("removed memdir's line from the post-merge hook"),
        "{}",
        plain.stdout
    );
    assert_eq!(std::fs::read_to_string(&hook).expect("read"), users);
    assert_eq!(run_post_merge(&env.project), "the user's hook ran\n");
    assert_git_clean(&env.project);

    // A hook memdir would not write through is not edited either.
    std::fs::remove_file(&hook).expect("rm");
    let outside = env.root.join("elsewhere");
    std::fs::write(&outside, "memdir proposals --reconcile -q\n").expect("write");
    std::os::unix::fs::symlink(&outside, &hook).expect("symlink");
    env.fails(&["hooks", "uninstall", "--git"], 2, "symlink");
    assert_eq!(
        std::fs::read_to_string(&outside).expect("read"),
        "memdir proposals --reconcile -q\n"
    );
}
