//! `memdir verify` (DESIGN §9): memories checked against the project now, with exact statuses and
//! evidence, and nothing changed anywhere.
//!
//! The choice these tests pin: a path counts as there when it is in the work tree (tracked or
//! not); a symbol counts only when it is found in a tracked file (untracked files are build
//! output, scratch or vendored copies). Without a repository the project dir is walked.

use std::path::Path;

use serde_json::json;

use crate::common::{TestEnv, git, tree_snapshot};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A project repository: `src/lib.rs` with `parse_args`, `docs/setup.md`, and `src/parse.rs`,
/// committed and then deleted in a second commit.
fn project_repo(env: &TestEnv) {
    let p = &env.project;
    write(
        &p.join("src/lib.rs"),
        "pub fn parse_args(args: &[String]) -> usize {\n    args.len()\n}\n",
    );
    write(&p.join("src/parse.rs"), "pub fn old_parser() {}\n");
    write(&p.join("docs/setup.md"), "# Setup\n\nRun the installer.\n");
    git(p, &["add", "."]);
    git(p, &["commit", "-q", "-m", "initial"]);
    git(p, &["rm", "-q", "src/parse.rs"]);
    git(p, &["commit", "-q", "-m", "drop the old parser"]);
}

/// The verdicts of `verify --json` by name: (status, evidence).
fn verdicts(run: &crate::common::Run) -> Vec<(String, String, Vec<String>)> {
    run.json()["memories"]
        .as_array()
        .expect("memories")
        .iter()
        .map(|m| {
            (
                m["name"].as_str().expect("name").to_string(),
                m["status"].as_str().expect("status").to_string(),
                m["evidence"]
                    .as_array()
                    .expect("evidence")
                    .iter()
                    .map(|e| e.as_str().expect("text").to_string())
                    .collect(),
            )
        })
        .collect()
}

fn verdict(name: &str, status: &str, evidence: &[&str]) -> (String, String, Vec<String>) {
    (
        name.to_string(),
        status.to_string(),
        evidence.iter().map(|e| e.to_string()).collect(),
    )
}

#[test]
fn each_memory_is_checked_against_the_project_now() {
    let env = TestEnv::new();
    project_repo(&env);
    env.save(
        "project",
        "setup-doc",
        "Setup steps live in docs/setup.md",
        "Read docs/setup.md before installing.",
    );
    env.save(
        "project",
        "parser-file",
        "Where the parser is",
        "The parser is in src/parse.rs; keep it small.",
    );
    env.save(
        "feedback",
        "use-parse-args",
        "Parse flags with parse_args",
        "Always call `parse_args` first.",
    );
    env.save(
        "feedback",
        "renamed-fn",
        "Reading flags",
        "Use `parse_argv()` to read flags, as in `Parser::from_env`.",
    );
    env.save(
        "reference",
        "upstream-guide",
        "The upstream guide",
        "See https://example.com/guide/setup.md and www.example.org/docs/a.md.",
    );
    env.save(
        "feedback",
        "lint-first",
        "Lint before pushing",
        "Run `npm run lint` and `cargo test --all-features` before pushing; never `--force`.",
    );
    env.save(
        "user",
        "chinese-notes",
        "用户偏好",
        "用户喜欢简短的回答，提交前总是先运行测试。",
    );
    let memory_dir = env.memory_dir();
    let memories_before = tree_snapshot(&memory_dir);
    let project_before = tree_snapshot(&env.project);

    let run = env.exits(&["verify", "--json"], 1);
    assert_eq!(
        verdicts(&run),
        vec![
            verdict("setup-doc", "ok", &[]),
            verdict(
                "parser-file",
                "stale",
                &["names src/parse.rs, which does not exist"]
            ),
            verdict("use-parse-args", "ok", &[]),
            verdict(
                "renamed-fn",
                "stale",
                &[
                    "`parse_argv()` is not found in any of 2 tracked files",
                    "`Parser::from_env` is not found in any of 2 tracked files",
                ]
            ),
            verdict("upstream-guide", "nothing_to_check", &[]),
            verdict("lint-first", "nothing_to_check", &[]),
            verdict("chinese-notes", "nothing_to_check", &[]),
        ]
    );
    let json = run.json();
    assert_eq!(json["checked_files"], 2);
    assert_eq!(
        json["memories"][1],
        json!({
            "name": "parser-file",
            "status": "stale",
            "evidence": ["names src/parse.rs, which does not exist"],
            "paths": ["src/parse.rs"],
            "symbols": [],
        })
    );
    assert_eq!(json["memories"][2]["symbols"], json!(["parse_args"]));
    assert_eq!(json["memories"][0]["paths"], json!(["docs/setup.md"]));

    let run = env.exits(&["verify"], 1);
    assert_eq!(
        run.stdout,
        "parser-file: names src/parse.rs, which does not exist\n\
         renamed-fn: `parse_argv()` is not found in any of 2 tracked files; \
         `Parser::from_env` is not found in any of 2 tracked files\n\
         2 of 7 memories are stale; 2 ok; 3 have nothing to check\n"
    );
    assert_eq!(run.stderr, "");
    // `-q` keeps the stale list and drops the summary.
    assert_eq!(
        env.exits(&["verify", "-q"], 1).stdout.lines().count(),
        2,
        "one line per stale memory"
    );

    // A report changes nothing: not the memories, not the project.
    assert_eq!(tree_snapshot(&memory_dir), memories_before);
    assert_eq!(tree_snapshot(&env.project), project_before);

    // Restoring the file makes the memory fresh again: it is judged now, not when saved.
    write(
        &env.project.join("src/parse.rs"),
        "pub fn old_parser() {}\n",
    );
    let run = env.exits(&["verify", "--json"], 1);
    assert_eq!(verdicts(&run)[1], verdict("parser-file", "ok", &[]));
}

#[test]
fn paths_see_the_work_tree_but_symbols_only_tracked_files() {
    let env = TestEnv::new();
    project_repo(&env);
    // Untracked: there for paths, not searched for symbols.
    write(
        &env.project.join("notes/todo.md"),
        "fn untracked_only_fn() {}\n",
    );
    env.save(
        "project",
        "todo-notes",
        "Scratch notes",
        "Open items are in notes/todo.md.",
    );
    env.save(
        "project",
        "scratch-fn",
        "A helper",
        "The helper is `untracked_only_fn`.",
    );
    // A file named without its directory, or by its trailing segments, is found where it is.
    env.save(
        "project",
        "short-names",
        "Short file names",
        "The entry point is `lib.rs`; the guide is `setup.md`; see src/lib.rs:2 too.",
    );
    // Directory-like words whose first segment is no directory are not judged (`and/or`).
    env.save(
        "project",
        "slash-words",
        "Prose with slashes",
        "Use read/write locks and/or retries; the docs/ folder and src/gone/ are for code.",
    );
    // A line that tells of a removal names the file on purpose.
    env.save(
        "project",
        "history-note",
        "The old parser",
        "src/parse.rs was deleted in the rewrite; `old_parser` went with it.",
    );
    let run = env.exits(&["verify", "--json"], 1);
    assert_eq!(
        verdicts(&run),
        vec![
            verdict("todo-notes", "ok", &[]),
            verdict(
                "scratch-fn",
                "stale",
                &["`untracked_only_fn` is not found in any of 2 tracked files"]
            ),
            verdict("short-names", "ok", &[]),
            verdict(
                "slash-words",
                "stale",
                &["names src/gone, which does not exist"]
            ),
            verdict("history-note", "nothing_to_check", &[]),
        ]
    );
    let json = run.json();
    assert_eq!(
        json["memories"][2]["paths"],
        json!(["lib.rs", "setup.md", "src/lib.rs"])
    );
    // `docs/` alone could never be missing (its only segment must exist to be judged).
    assert_eq!(json["memories"][3]["paths"], json!(["src/gone"]));
}

#[test]
fn absolute_paths_and_a_project_inside_a_repository() {
    let env = TestEnv::new();
    let app = env.project.join("packages/app");
    write(
        &app.join("src/main.ts"),
        "export function startServer() {}\n",
    );
    write(&env.project.join("README.md"), "# Monorepo\n");
    git(&env.project, &["add", "."]);
    git(&env.project, &["commit", "-q", "-m", "initial"]);
    let app_arg = app.display().to_string();
    let inside = format!(
        "Start in {}/src/main.ts; the old one was {}/src/old.ts; not /usr/share/doc/x.md.",
        app.display(),
        app.display()
    );
    env.ok(&[
        "--project",
        &app_arg,
        "save",
        "--type",
        "project",
        "--name",
        "absolute",
        "--description",
        "Absolute paths",
        "--body",
        &inside,
    ]);
    env.ok(&[
        "--project",
        &app_arg,
        "save",
        "--type",
        "project",
        "--name",
        "relative",
        "--description",
        "Relative to the package and to the root",
        "--body",
        "Edit src/main.ts (packages/app/src/main.ts from the root) and call `startServer()`.",
    ]);
    let run = env.exits(&["--project", &app_arg, "verify", "--json"], 1);
    assert_eq!(
        verdicts(&run),
        vec![
            verdict(
                "absolute",
                "stale",
                &[&format!(
                    "names {}/src/old.ts, which does not exist",
                    app.display()
                )]
            ),
            verdict("relative", "ok", &[]),
        ]
    );
    assert_eq!(run.json()["checked_files"], 2, "the whole repository");
}

#[test]
fn a_project_that_is_no_git_repository_is_walked() {
    let env = TestEnv::new();
    std::fs::remove_dir_all(env.project.join(".git")).expect("no repository");
    write(
        &env.project.join("src/app.py"),
        "def load_config():\n    pass\n",
    );
    // Skipped by the walk: dependencies, build output, hidden directories.
    write(
        &env.project.join("node_modules/pkg/index.js"),
        "function vendored_helper() {}\n",
    );
    write(&env.project.join(".cache/x.txt"), "hidden_helper_fn\n");
    env.save(
        "project",
        "config",
        "Config loading",
        "`load_config` in src/app.py reads the settings; `vendored_helper` and `hidden_helper_fn` \
         come from elsewhere.",
    );
    let run = env.exits(&["verify", "--json"], 1);
    assert_eq!(
        verdicts(&run),
        vec![verdict(
            "config",
            "stale",
            &[
                "`vendored_helper` is not found in any of 1 project file",
                "`hidden_helper_fn` is not found in any of 1 project file",
            ]
        )]
    );
    let json = run.json();
    assert_eq!(json["checked_files"], 1);
    assert_eq!(json["memories"][0]["paths"], json!(["src/app.py"]));
    assert_eq!(
        json["memories"][0]["symbols"],
        json!(["load_config", "vendored_helper", "hidden_helper_fn"])
    );
}

#[test]
fn no_memory_dir_is_an_empty_report() {
    let env = TestEnv::new();
    let run = env.ok(&["verify", "--json"]);
    assert_eq!(run.json(), json!({"memories": [], "checked_files": 0}));
    assert_eq!(env.ok(&["verify"]).stdout, "no memories to verify\n");
    assert!(!env.memory_dir().exists(), "verify creates no memory dir");
}

#[test]
fn singular_counts_read_well() {
    let env = TestEnv::new();
    project_repo(&env);
    env.save(
        "project",
        "only-one",
        "Where the parser is",
        "The parser is in src/parse.rs.",
    );
    let run = env.exits(&["verify"], 1);
    assert_eq!(
        run.stdout,
        "only-one: names src/parse.rs, which does not exist\n\
         1 of 1 memory is stale; 0 ok; 0 have nothing to check\n"
    );
}
