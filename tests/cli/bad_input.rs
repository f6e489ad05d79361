//! Bad input: exit 2, one `error:` line on stderr, and nothing changed on disk or in history.

use std::path::Path;

use crate::common::{TestEnv, save_args, tree_snapshot};

/// Run memdir and require exit 2, a single `error:` line containing `needle`, and no change
/// anywhere under the test's root.
fn refuses(env: &TestEnv, args: &[&str], needle: &str) {
    let before = tree_snapshot(&env.root);
    let run = env.run(args);
    assert_eq!(run.code, 2, "memdir {args:?}: {}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with("error: "),
        "memdir {args:?}: {}",
        run.stderr
    );
    assert_eq!(
        run.error_lines().len(),
        1,
        "memdir {args:?}: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains(needle),
        "memdir {args:?}: want {needle:?} in {}",
        run.stderr
    );
    assert_eq!(
        tree_snapshot(&env.root),
        before,
        "memdir {args:?} changed files"
    );
}

#[test]
fn bad_save_arguments() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let long = "a".repeat(65);
    refuses(
        &env,
        &save_args("banana", "x", "d", "b"),
        "unknown memory type \"banana\"",
    );
    refuses(&env, &save_args("user", "a/b", "d", "b"), "path separator");
    refuses(&env, &save_args("user", "..", "d", "b"), "'..'");
    refuses(
        &env,
        &save_args("user", "has space", "d", "b"),
        "white space",
    );
    refuses(&env, &save_args("user", "Upper", "d", "b"), "upper-case");
    refuses(&env, &save_args("user", &long, "d", "b"), "longer than 64");
    refuses(&env, &save_args("user", "x", "two\nlines", "b"), "newline");
    refuses(
        &env,
        &save_args("user", "x", "d", "  \n\t"),
        "body is empty",
    );
    refuses(
        &env,
        &save_args("user", "x", "", "b"),
        "description is empty",
    );
    refuses(
        &env,
        &[save_args("user", "x", "d", "b"), vec!["--title", "a]b"]].concat(),
        "title",
    );
    refuses(
        &env,
        &[
            save_args("user", "x", "d", "b"),
            vec![
                "--session",
                "a
b",
            ],
        ]
        .concat(),
        "session id",
    );
    // No --body and an empty (non-terminal) stdin is an empty body.
    refuses(
        &env,
        &[
            "save",
            "--type",
            "user",
            "--name",
            "x",
            "--description",
            "d",
        ],
        "body is empty",
    );
    refuses(
        &env,
        &save_args("user", "x", "bell\u{7}", "b"),
        "control characters",
    );
    refuses(&env, &["show", "../etc/passwd"], "invalid memory name");
    refuses(&env, &["rm", "nothing-here"], "no memory named");
    refuses(&env, &["list", "--type", "nope"], "unknown memory type");
}

#[test]
fn malformed_files_being_read_are_named() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    std::fs::write(
        dir.join("broken.md"),
        "---\nname: broken\ndescription: [unclosed\n---\nbody\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("huge.md"),
        format!(
            "---\nname: huge\ndescription: {}\n---\nbody\n",
            "x".repeat(10_000)
        ),
    )
    .expect("write");
    let broken = dir.join("broken.md").display().to_string();
    refuses(
        &env,
        &["show", "broken"],
        &format!("{broken}: its frontmatter is not valid YAML"),
    );
    refuses(&env, &save_args("user", "broken", "d", "b"), &broken);
    refuses(&env, &["show", "huge"], "over the 8192-byte cap");
    // list shows the good ones and names the bad ones (hostile::one_bad_topic_file_…).
    let run = env.ok(&["list"]);
    assert!(run.stdout.contains("role"), "{}", run.stdout);
    assert!(run.stderr.contains("broken.md") && run.stderr.contains("huge.md"));
}

/// autoMemoryDirectory values that must never be honoured.
#[test]
fn memory_dirs_from_settings_are_validated() {
    for (value, needle) in [
        ("relative/dir", "not an absolute path"),
        ("/", "filesystem root"),
        ("C:\\", "drive root"),
        ("\\\\server\\share", "UNC path"),
        ("//server/share", "UNC path"),
        ("/tmp/a\u{0}b", "NUL byte"),
        ("~/..", "escapes the home directory"),
        ("~/../../etc", "escapes the home directory"),
    ] {
        let env = TestEnv::new();
        let settings = env.home.join(".claude/settings.json");
        std::fs::create_dir_all(settings.parent().expect("parent")).expect("dir");
        std::fs::write(
            &settings,
            serde_json::json!({"autoMemoryDirectory": value}).to_string(),
        )
        .expect("settings");
        refuses(&env, &save_args("user", "x", "d", "b"), needle);
        refuses(&env, &["path"], &settings.display().to_string());
    }
}

#[test]
fn override_variable_is_validated() {
    let mut env = TestEnv::new();
    env.set_var("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "~/mem");
    refuses(
        &env,
        &save_args("user", "x", "d", "b"),
        "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
    );
    env.set_var("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "C:");
    refuses(&env, &save_args("user", "x", "d", "b"), "drive root");
}

#[test]
fn symlinks_that_leave_the_memory_dir_are_refused() {
    // The memory dir itself is a symlink to somewhere outside its parent.
    let env = TestEnv::new();
    let dir = env.memory_dir();
    let outside = env.root.join("outside");
    std::fs::create_dir_all(&outside).expect("outside");
    std::fs::create_dir_all(dir.parent().expect("parent")).expect("parent");
    std::os::unix::fs::symlink(&outside, &dir).expect("symlink");
    refuses(
        &env,
        &save_args("user", "x", "d", "b"),
        "outside its parent folder",
    );

    // A topic file that is a symlink to a file outside the memory dir.
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    let secret = env.root.join("secret.md");
    std::fs::write(
        &secret,
        "---\nname: secret\ndescription: s\ntype: user\n---\nsecret\n",
    )
    .expect("secret");
    std::os::unix::fs::symlink(&secret, dir.join("leak.md")).expect("symlink");
    refuses(&env, &["show", "leak"], "outside the memory dir");
    refuses(
        &env,
        &save_args("user", "leak", "d", "b"),
        "outside the memory dir",
    );
    assert_eq!(
        std::fs::read_to_string(Path::new(&secret)).expect("secret"),
        "---\nname: secret\ndescription: s\ntype: user\n---\nsecret\n"
    );
}
