//! Where memory lives (DESIGN §2): every rule of the resolution order, and the enable switch.

use std::path::PathBuf;

use crate::common::{TestEnv, git, save_args, tree_snapshot};

fn write_json(path: &std::path::Path, value: serde_json::Value) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
    std::fs::write(path, value.to_string()).expect("write");
}

fn path_json(env: &TestEnv) -> serde_json::Value {
    env.ok(&["path", "--json"]).json()
}

#[test]
fn default_is_under_the_config_dir_keyed_by_git_root() {
    let mut env = TestEnv::new();
    let sub = env.project.join("src/deep");
    std::fs::create_dir_all(&sub).expect("sub");
    let want = env
        .home
        .join(".claude/projects")
        .join(
            env.project
                .display()
                .to_string()
                .replace(|c: char| !c.is_ascii_alphanumeric(), "-"),
        )
        .join("memory");
    assert_eq!(path_json(&env)["path"], want.display().to_string());
    assert_eq!(path_json(&env)["rule"], "default");
    // A subfolder of the project maps to the same memory.
    let from_sub = env.ok(&["--project", sub.to_str().expect("utf-8"), "path"]);
    assert_eq!(PathBuf::from(from_sub.stdout.trim()), want);

    // CLAUDE_CONFIG_DIR moves the base; CLAUDE_CODE_REMOTE_MEMORY_DIR moves it again.
    let config = env.root.join("config");
    env.set_var("CLAUDE_CONFIG_DIR", config.to_str().expect("utf-8"));
    assert!(env.memory_dir().starts_with(config.join("projects")));
    let remote = env.root.join("remote");
    env.set_var(
        "CLAUDE_CODE_REMOTE_MEMORY_DIR",
        remote.to_str().expect("utf-8"),
    );
    assert!(env.memory_dir().starts_with(remote.join("projects")));
}

#[test]
fn a_project_that_is_a_file_is_refused_and_no_memory_dir_is_made() {
    let env = TestEnv::new();
    let file = env.project.join("notes.txt");
    std::fs::write(&file, "x").expect("file");
    let file = file.to_str().expect("utf-8");
    let mut args = vec!["--project", file];
    args.extend(crate::common::save_args(
        "user",
        "role",
        "Backend engineer",
        "Backend.",
    ));
    env.fails(&args, 2, "is not a folder");
    env.fails(&["--project", file, "path"], 2, "is not a folder");
    assert!(!env.home.join(".claude/projects").exists());
}

#[test]
fn a_linked_worktree_maps_to_its_main_repository() {
    let env = TestEnv::new();
    std::fs::write(env.project.join("f"), "x").expect("file");
    git(&env.project, &["add", "f"]);
    git(&env.project, &["commit", "-qm", "one"]);
    let worktree = env.root.join("wt");
    git(
        &env.project,
        &["worktree", "add", "-q", worktree.to_str().expect("utf-8")],
    );
    let main = env.memory_dir();
    let linked = env.ok(&["--project", worktree.to_str().expect("utf-8"), "path"]);
    assert_eq!(PathBuf::from(linked.stdout.trim()), main);
}

#[test]
fn resolution_order() {
    let mut env = TestEnv::new();
    let user_dir = env.root.join("from-user");
    let local_dir = env.root.join("from-local");
    let policy_dir = env.root.join("from-policy");
    write_json(
        &env.home.join(".claude/settings.json"),
        serde_json::json!({"autoMemoryDirectory": user_dir}),
    );
    let j = path_json(&env);
    assert_eq!(
        (j["path"].as_str(), j["rule"].as_str()),
        (user_dir.to_str(), Some("setting"))
    );
    write_json(
        &env.project.join(".claude/settings.local.json"),
        serde_json::json!({"autoMemoryDirectory": local_dir}),
    );
    assert_eq!(path_json(&env)["path"], local_dir.display().to_string());
    write_json(
        &env.root.join("managed/managed-settings.json"),
        serde_json::json!({"autoMemoryDirectory": policy_dir}),
    );
    assert_eq!(path_json(&env)["path"], policy_dir.display().to_string());
    let explain = env.ok(&["path", "--explain"]).stdout;
    assert!(
        explain.contains("autoMemoryDirectory in policy settings"),
        "{explain}"
    );

    let override_dir = env.root.join("from-env");
    env.set_var(
        "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
        override_dir.to_str().expect("utf-8"),
    );
    assert_eq!(path_json(&env)["rule"], "env-override");
    assert_eq!(path_json(&env)["path"], override_dir.display().to_string());

    let flag_dir = env.root.join("from-flag");
    let flagged = env
        .ok(&[
            "path",
            "--json",
            "--memory-dir",
            flag_dir.to_str().expect("utf-8"),
        ])
        .json();
    assert_eq!(flagged["rule"], "flag");
    assert_eq!(flagged["path"], flag_dir.display().to_string());
}

#[test]
fn tilde_in_settings_is_home() {
    let env = TestEnv::new();
    write_json(
        &env.home.join(".claude/settings.json"),
        serde_json::json!({"autoMemoryDirectory": "~/notes/memory"}),
    );
    assert_eq!(env.memory_dir(), env.home.join("notes/memory"));
}

#[test]
fn project_settings_never_choose_the_memory_dir_and_the_user_is_told() {
    let env = TestEnv::new();
    let evil = env.home.join(".ssh");
    write_json(
        &env.project.join(".claude/settings.json"),
        serde_json::json!({"autoMemoryDirectory": evil}),
    );
    let run = env.save("user", "role", "Backend engineer", "Backend.");
    assert!(
        run.stderr
            .contains("warning: ignored autoMemoryDirectory in ")
            && run.stderr.contains(".claude/settings.json"),
        "{}",
        run.stderr
    );
    assert!(!evil.exists());
    assert!(
        env.memory_dir()
            .starts_with(env.home.join(".claude/projects"))
    );
    assert!(
        env.ok(&["path", "--explain"])
            .stdout
            .contains("ignored autoMemoryDirectory in")
    );
}

#[test]
fn writes_refuse_with_exit_3_when_auto_memory_is_off() {
    /// Variables, user settings, and the switch the refusal must name.
    type Case = (
        Vec<(&'static str, &'static str)>,
        Option<serde_json::Value>,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            vec![("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1")],
            None,
            "CLAUDE_CODE_DISABLE_AUTO_MEMORY=1",
        ),
        (
            vec![("CLAUDE_CODE_SIMPLE", "true")],
            None,
            "CLAUDE_CODE_SIMPLE=true",
        ),
        (
            vec![("CLAUDE_CODE_REMOTE", "1")],
            None,
            "CLAUDE_CODE_REMOTE=1",
        ),
        (
            vec![],
            Some(serde_json::json!({"autoMemoryEnabled": false})),
            "autoMemoryEnabled: false in",
        ),
    ];
    for (vars, settings, switch) in cases {
        let mut env = TestEnv::new();
        for (k, v) in vars {
            env.set_var(k, v);
        }
        if let Some(settings) = settings {
            write_json(&env.home.join(".claude/settings.json"), settings);
        }
        let before = tree_snapshot(&env.root);
        for args in [
            save_args("user", "x", "d", "b"),
            vec!["init"],
            vec!["snapshot"],
            vec!["rm", "x"],
        ] {
            let run = env.run(&args);
            assert_eq!(run.code, 3, "{args:?}: {}", run.stderr);
            assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
            assert!(run.stderr.contains(switch), "{switch}: {}", run.stderr);
            assert!(run.stderr.contains("team memory too"), "{}", run.stderr);
        }
        assert_eq!(tree_snapshot(&env.root), before);
        let explain = env.ok(&["path", "--explain"]).stdout;
        assert!(
            explain.contains("auto memory: off") && explain.contains(switch),
            "{explain}"
        );
    }
    // The explicit switch forces it back on over everything else.
    let mut env = TestEnv::new();
    env.set_var("CLAUDE_CODE_SIMPLE", "1");
    env.set_var("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "off");
    env.save("user", "x", "d", "b");
}
