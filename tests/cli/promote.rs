//! Promotion (DESIGN §7): `memdir promote` writes one commit on a branch of the project's
//! repository and nothing else (HEAD, `.git/index` and a dirty work tree stay as they were);
//! the real git merges it; the post-merge hook (`memdir hooks install --git`) runs
//! `memdir proposals --reconcile`, which retires the memory with a commit naming the merge.
//! Every repository is checked with the real `git`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{TestEnv, assert_git_clean, git, save_args, subjects, tree_snapshot};

const NAME: &str = "pre-commit-lint";
const RULE: &str = "Run `npm run lint` before every commit.";
const WHY: &str = "an unlinted commit kept CI red for a whole day.";

/// Save the feedback memory these tests promote.
fn save_lint(env: &TestEnv) {
    env.save(
        "feedback",
        NAME,
        "Run the linter before every commit",
        &format!("{RULE}\n\n**Why:** {WHY}\n**How to apply:** before any `git commit`, lint the changed files."),
    );
}

/// A project repository with one commit holding `files`.
fn commit_files(project: &Path, files: &[(&str, &str)], message: &str) {
    for (path, text) in files {
        let path = project.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    git(project, &["add", "-A"]);
    git(project, &["commit", "-q", "-m", message]);
}

/// Run the real git as the user would in this test's environment (its HOME, config dir and
/// dates), so that a hook it runs finds the same memory dir memdir does.
fn user_git(env: &TestEnv, dir: &Path, args: &[&str]) -> std::process::Output {
    let template = env.command();
    let mut cmd = Command::new("git");
    cmd.env_clear();
    for (key, value) in template.get_envs() {
        if let Some(value) = value {
            cmd.env(key, value);
        }
    }
    cmd.env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("git runs")
}

fn user_git_ok(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let out = user_git(env, dir, args);
    assert!(
        out.status.success(),
        "git {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn rev(dir: &Path, spec: &str) -> String {
    git(dir, &["rev-parse", spec]).trim().to_string()
}

fn branch_of(name: &str) -> String {
    format!("memdir/promote/{name}")
}

/// The branch holds exactly one commit on `base`.
fn assert_one_commit_on(dir: &Path, branch: &str, base: &str) {
    assert_eq!(
        git(dir, &["rev-list", "--count", &format!("{base}..{branch}")]).trim(),
        "1"
    );
    assert_eq!(rev(dir, &format!("{branch}^")), rev(dir, base));
}

fn memdir_bin() -> &'static str {
    env!("CARGO_BIN_EXE_memdir")
}

fn proposals(env: &TestEnv) -> Vec<serde_json::Value> {
    env.ok(&["proposals", "--json"]).json()["proposals"]
        .as_array()
        .expect("proposals array")
        .clone()
}

fn status_of<'a>(list: &'a [serde_json::Value], memory: &str) -> &'a serde_json::Value {
    list.iter()
        .find(|p| p["name"] == memory)
        .unwrap_or_else(|| panic!("no proposal for {memory}: {list:?}"))
}

#[test]
fn promote_leaves_a_dirty_work_tree_alone_and_the_merge_retires_the_memory() {
    let env = TestEnv::new();
    let project = env.project.clone();
    commit_files(
        &project,
        &[
            ("CLAUDE.md", "# Project\n\nUse tabs.\n"),
            ("src.txt", "one\n"),
            ("README.md", "readme\n"),
        ],
        "init",
    );
    save_lint(&env);
    let memory = env.memory_dir();
    let target_branch = git(&project, &["symbolic-ref", "--short", "HEAD"])
        .trim()
        .to_string();

    // The user's uncommitted work: a modified tracked file, an untracked one, a staged change.
    std::fs::write(project.join("src.txt"), "one\ntwo\n").expect("modify");
    std::fs::write(project.join("notes.txt"), "scratch\n").expect("untracked");
    std::fs::write(project.join("README.md"), "readme, staged\n").expect("stage");
    git(&project, &["add", "README.md"]);
    let head = rev(&project, "HEAD");
    let status = git(
        &project,
        &["status", "--porcelain", "--untracked-files=all"],
    );
    assert_eq!(status, "M  README.md\n M src.txt\n?? notes.txt\n");
    let index = std::fs::read(project.join(".git/index")).expect("index");
    let work: Vec<_> = tree_snapshot(&project)
        .into_iter()
        .filter(|(p, _)| !p.starts_with(project.join(".git")))
        .collect();

    let run = env.ok(&["promote", NAME, "--to", "project"]);
    let branch = branch_of(NAME);
    assert!(
        run.stdout
            .contains(&format!("git -C {} merge {branch}", project.display())),
        "no merge command: {}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("+{RULE}")),
        "no diff: {}",
        run.stdout
    );

    // Nothing of the user's moved.
    assert_eq!(rev(&project, "HEAD"), head);
    assert_eq!(
        git(&project, &["symbolic-ref", "--short", "HEAD"]).trim(),
        target_branch
    );
    assert_eq!(
        git(
            &project,
            &["status", "--porcelain", "--untracked-files=all"]
        ),
        status
    );
    assert_eq!(
        std::fs::read(project.join(".git/index")).expect("index"),
        index
    );
    let work_after: Vec<_> = tree_snapshot(&project)
        .into_iter()
        .filter(|(p, _)| !p.starts_with(project.join(".git")))
        .collect();
    assert_eq!(work_after, work, "the work tree changed");

    // One commit on the target's tip, adding the rule to CLAUDE.md and nothing else.
    assert_one_commit_on(&project, &branch, &target_branch);
    assert_eq!(
        git(
            &project,
            &["diff", "--name-status", &target_branch, &branch]
        ),
        "M\tCLAUDE.md\n"
    );
    let diff = git(&project, &["diff", &target_branch, &branch]);
    for line in [
        format!("+## Pre commit lint (from memdir memory {NAME})"),
        format!("+{RULE}"),
        format!("+Why: {WHY}"),
    ] {
        assert!(diff.contains(&line), "{line:?} not in {diff}");
    }
    assert!(
        !diff
            .lines()
            .any(|l| l.starts_with('-') && !l.starts_with("---")),
        "nothing is removed: {diff}"
    );
    git(&project, &["fsck", "--strict", "--no-progress"]);
    let first = rev(&project, &branch);

    // Again: still one commit on the target's tip, not two.
    env.ok(&["promote", NAME, "--to", "project"]);
    assert_one_commit_on(&project, &branch, &target_branch);
    assert_eq!(rev(&project, &branch), first);
    assert_eq!(proposals(&env)[0]["status"], "open");

    // The post-merge hook, then the user's own commit, then an ordinary merge with the real git.
    env.ok(&["hooks", "install", "--git", "--command", memdir_bin()]);
    let hook = project.join(".git/hooks/post-merge");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&hook).expect("hook").permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "not executable: {mode:o}");
    }
    git(&project, &["add", "-A"]);
    git(&project, &["commit", "-q", "-m", "the user's work"]);
    let merged = user_git_ok(
        &env,
        &project,
        &["merge", "--no-edit", "-m", "Merge promotion", &branch],
    );
    let merge = rev(&project, "HEAD");
    assert_eq!(
        git(&project, &["rev-list", "--parents", "-n", "1", "HEAD"])
            .split_whitespace()
            .count(),
        3,
        "a real merge commit: {merged}"
    );
    git(&project, &["fsck", "--strict", "--no-progress"]);

    // The hook retired the memory, naming the merge and the file.
    assert_eq!(subjects(&memory)[0], format!("promote(feedback): {NAME}"));
    let message = git(&memory, &["log", "-1", "--format=%B"]);
    assert!(
        message.contains(&format!("Memdir-Merge: {merge}")),
        "{message}"
    );
    assert!(
        message.contains(&format!(
            "Memdir-Target: {}",
            project.join("CLAUDE.md").display()
        )),
        "{message}"
    );
    assert!(message.contains("Memdir-Op: promote"), "{message}");
    assert!(!memory.join(format!("{NAME}.md")).exists());
    let index = std::fs::read_to_string(memory.join("MEMORY.md")).unwrap_or_default();
    assert!(!index.contains(&format!("{NAME}.md")), "{index}");
    assert_git_clean(&memory);
    let listed = proposals(&env);
    assert_eq!(listed[0]["status"], "merged");
    assert_eq!(listed[0]["merge"], merge.as_str());
    assert!(listed[0]["reconciled"]["commit"].is_string());

    // What Claude Code now loads: the rule in CLAUDE.md, the memory gone from the index.
    let context = env.ok(&["context"]).stdout;
    assert!(
        context.contains(&format!("(from memdir memory {NAME})")) && context.contains(RULE),
        "{context}"
    );
    assert!(!context.contains(&format!("{NAME}.md")), "{context}");

    // Reconciling again changes nothing.
    let before = subjects(&memory);
    let again = env.ok(&["proposals", "--reconcile", "--json"]).json();
    assert_eq!(again["reconciled"], serde_json::json!([]));
    assert_eq!(subjects(&memory), before);
    // The memory is gone: there is nothing left to promote.
    env.fails(&["promote", NAME, "--to", "project"], 2, "no memory named");
}

#[test]
fn promoting_again_moves_the_branch_onto_the_current_tip() {
    let env = TestEnv::new();
    let project = env.project.clone();
    commit_files(&project, &[("CLAUDE.md", "# Project\n")], "init");
    save_lint(&env);
    let branch = branch_of(NAME);
    let first = env
        .ok(&["promote", NAME, "--to", "project", "--json"])
        .json();
    assert_eq!(first["outcome"], "created");
    let old = rev(&project, &branch);

    commit_files(&project, &[("CLAUDE.md", "# Project\n\nMore.\n")], "more");
    let second = env
        .ok(&["promote", NAME, "--to", "project", "--json"])
        .json();
    assert_eq!(second["outcome"], "updated");
    assert_one_commit_on(&project, &branch, "HEAD");
    assert_ne!(rev(&project, &branch), old);
    assert_eq!(second["base"], rev(&project, "HEAD").as_str());
    assert_eq!(second["commit"], rev(&project, &branch).as_str());
    assert!(
        git(&project, &["show", &format!("{branch}:CLAUDE.md")])
            .starts_with("# Project\n\nMore.\n\n## Pre commit lint"),
    );
    // The branch's reflog shows the move.
    assert_eq!(
        git(&project, &["reflog", "show", &branch]).lines().count(),
        2
    );
    git(&project, &["fsck", "--strict", "--no-progress"]);

    // Once merged (a fast-forward here), the rule is in the file: nothing to do.
    git(&project, &["merge", "-q", "--ff-only", &branch]);
    let run = env
        .ok(&["promote", NAME, "--to", "project", "--json"])
        .json();
    assert_eq!(run["outcome"], "already-present");
    let plain = env.ok(&["promote", NAME, "--to", "project"]);
    assert!(
        plain.stdout.contains("already holds the rule"),
        "{}",
        plain.stdout
    );
    assert_eq!(
        rev(&project, &branch),
        second["commit"].as_str().expect("id")
    );
}

#[test]
fn personal_without_git_gets_a_patch_that_git_applies() {
    let env = TestEnv::new();
    save_lint(&env);
    env.save(
        "user",
        "answers-short",
        "Keep answers short",
        "Keep answers short; lead with the command.",
    );
    let memory = env.memory_dir();
    let config = env.home.join(".claude");

    // No personal CLAUDE.md yet: the patch creates it.
    let created = env
        .ok(&["promote", NAME, "--to", "personal", "--json"])
        .json();
    assert_eq!(created["outcome"], "created");
    assert_eq!(created["repo"], serde_json::Value::Null);
    let patch = memory.join("proposals").join(format!("{NAME}.patch"));
    assert_eq!(created["patch"], patch.display().to_string());
    assert!(
        !config.join("CLAUDE.md").exists(),
        "the patch is not applied"
    );
    let scratch = env.root.join("scratch-new");
    std::fs::create_dir_all(&scratch).expect("scratch");
    git(
        &scratch,
        &["apply", "--check", patch.to_str().expect("utf-8")],
    );
    git(&scratch, &["apply", patch.to_str().expect("utf-8")]);
    let applied = std::fs::read_to_string(scratch.join("CLAUDE.md")).expect("applied");
    assert!(applied.starts_with(&format!(
        "## Pre commit lint (from memdir memory {NAME})\n\n{RULE}\n"
    )));
    // The memory repository does not track proposals.
    assert_git_clean(&memory);

    // An existing personal file: the patch adds to it.
    std::fs::write(config.join("CLAUDE.md"), "# Me\n\nBe brief.").expect("personal");
    let run = env.ok(&["promote", "answers-short", "--to", "personal"]);
    assert!(
        run.stdout.contains("in no git repository"),
        "{}",
        run.stdout
    );
    let patch = memory.join("proposals/answers-short.patch");
    assert!(
        run.stdout.contains(&format!(
            "git -C {} apply {}",
            config.display(),
            patch.display()
        )),
        "{}",
        run.stdout
    );
    let scratch = env.root.join("scratch-copy");
    std::fs::create_dir_all(&scratch).expect("scratch");
    std::fs::copy(config.join("CLAUDE.md"), scratch.join("CLAUDE.md")).expect("copy");
    git(
        &scratch,
        &["apply", "--check", patch.to_str().expect("utf-8")],
    );
    assert_eq!(
        std::fs::read_to_string(config.join("CLAUDE.md")).expect("personal"),
        "# Me\n\nBe brief."
    );
    assert_eq!(
        status_of(&proposals(&env), "answers-short")["status"],
        "open"
    );

    // Applied for real, it is merged, and reconciling retires the memory.
    git(&config, &["apply", patch.to_str().expect("utf-8")]);
    assert_eq!(
        status_of(&proposals(&env), "answers-short")["status"],
        "merged"
    );
    env.ok(&["proposals", "--reconcile"]);
    assert_eq!(subjects(&memory)[0], "promote(user): answers-short");
    assert!(!memory.join("answers-short.md").exists());
    assert_git_clean(&memory);
}

/// Every file of the memory dir and the project, `.git` included.
fn everything(env: &TestEnv) -> [std::collections::BTreeMap<PathBuf, Vec<u8>>; 2] {
    [
        tree_snapshot(&env.memory_dir()),
        tree_snapshot(&env.project),
    ]
}

#[test]
fn secrets_and_relative_dates_are_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    commit_files(&env.project, &[("CLAUDE.md", "# Project\n")], "init");
    env.save(
        "reference",
        "ci-token",
        "The CI bot's token",
        "The CI bot uses ghp_abcdefghijklmnopqrstuvwxyz0123456789 for the API.",
    );
    env.save(
        "project",
        "freeze",
        "Merge freeze",
        "No merges to main until the release; the freeze ends next week.",
    );
    env.save("project", "freeze-zh", "封版", "明天之前不要合并到 main。");
    let before = everything(&env);
    for (name, needle) in [
        (
            "ci-token",
            "cannot promote ci-token: it holds a GitHub token",
        ),
        (
            "freeze",
            "cannot promote freeze: it holds a relative date (\"next week\")",
        ),
        (
            "freeze-zh",
            "cannot promote freeze-zh: it holds a relative date (\"明天\")",
        ),
    ] {
        for to in ["project", "personal", "team"] {
            let run = env.fails(&["promote", name, "--to", to], 2, needle);
            assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
            assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
            assert_eq!(run.stdout, "");
        }
    }
    assert_eq!(everything(&env), before, "something was written");
    assert_eq!(git(&env.project, &["branch", "--list", "memdir/*"]), "");
    // An unknown memory is bad input too.
    env.fails(
        &["promote", "no-such", "--to", "project"],
        2,
        "no memory named",
    );
}

#[test]
fn a_nested_target_is_edited_in_the_tree() {
    let env = TestEnv::new();
    let project = env.project.clone();
    commit_files(
        &project,
        &[
            ("CLAUDE.md", "# Root\n"),
            ("docs/README.md", "docs\n"),
            ("docs/api/CLAUDE.md", "# API\n\nVersion every endpoint.\n"),
        ],
        "init",
    );
    save_lint(&env);
    env.save(
        "project",
        "api-errors",
        "API errors",
        "Return RFC 9457 problem details from every endpoint.",
    );

    // Relative to the repository's root, even when memdir runs for a subfolder.
    let sub = project.join("docs");
    let run = env
        .ok(&[
            "promote",
            NAME,
            "--to",
            "project",
            "--target",
            "docs/guides/CLAUDE.md",
            "--project",
            sub.to_str().expect("utf-8"),
            "--json",
        ])
        .json();
    assert_eq!(run["file"], "docs/guides/CLAUDE.md");
    let branch = branch_of(NAME);
    assert_one_commit_on(&project, &branch, "HEAD");
    assert_eq!(
        git(&project, &["diff", "--name-status", "HEAD", &branch]),
        "A\tdocs/guides/CLAUDE.md\n"
    );
    assert_eq!(
        git(&project, &["show", &format!("{branch}:docs/README.md")]),
        "docs\n"
    );
    assert!(
        !project.join("docs/guides").exists(),
        "the work tree was touched"
    );

    // Absolute, inside the repository: an existing nested file is added to.
    let absolute = project.join("docs/api/CLAUDE.md");
    env.ok(&[
        "promote",
        "api-errors",
        "--to",
        "project",
        "--target",
        absolute.to_str().expect("utf-8"),
    ]);
    let api = branch_of("api-errors");
    assert_eq!(
        git(&project, &["diff", "--name-status", "HEAD", &api]),
        "M\tdocs/api/CLAUDE.md\n"
    );
    assert_eq!(
        git(&project, &["show", &format!("{api}:docs/api/CLAUDE.md")]),
        "# API\n\nVersion every endpoint.\n\n## Api errors (from memdir memory api-errors)\n\nReturn RFC 9457 problem details from every endpoint.\n"
    );
    git(&project, &["fsck", "--strict", "--no-progress"]);
    assert_eq!(git(&project, &["status", "--porcelain"]), "");

    // Outside the repository, or into .git: refused.
    let outside = env.root.join("elsewhere.md");
    env.fails(
        &[
            "promote",
            NAME,
            "--to",
            "project",
            "--target",
            outside.to_str().expect("utf-8"),
        ],
        2,
        "is outside",
    );
    env.fails(
        &["promote", NAME, "--to", "project", "--target", "../x.md"],
        2,
        "is outside",
    );
    env.fails(
        &[
            "promote",
            NAME,
            "--to",
            "project",
            "--target",
            ".git/CLAUDE.md",
        ],
        2,
        "inside .git",
    );
}

#[test]
fn a_detached_or_unborn_head_is_refused() {
    let env = TestEnv::new();
    save_lint(&env);
    env.fails(
        &["promote", NAME, "--to", "project"],
        2,
        "has no commit yet",
    );
    commit_files(&env.project, &[("CLAUDE.md", "# P\n")], "init");
    let head = rev(&env.project, "HEAD");
    git(&env.project, &["checkout", "-q", &head]);
    env.fails(&["promote", NAME, "--to", "project"], 2, "HEAD is detached");
    assert_eq!(git(&env.project, &["branch", "--list", "memdir/*"]), "");
}

#[test]
fn team_promotion_needs_the_team_repository_and_adds_the_topic_file() {
    let env = TestEnv::new();
    save_lint(&env);
    let memory = env.memory_dir();
    env.fails(
        &["promote", NAME, "--to", "team"],
        2,
        "team memory is not set up yet",
    );

    let team = memory.join("team");
    std::fs::create_dir_all(&team).expect("team");
    git(&team, &["init", "-q"]);
    commit_files(
        &team,
        &[
            ("MEMORY.md", "- [Deploys](deploys.md) — how we deploy\n"),
            ("deploys.md", "x\n"),
        ],
        "team",
    );
    let run = env.ok(&["promote", NAME, "--to", "team", "--json"]).json();
    assert_eq!(run["outcome"], "created");
    let branch = branch_of(NAME);
    assert_one_commit_on(&team, &branch, "HEAD");
    assert_eq!(
        git(&team, &["diff", "--name-status", "HEAD", &branch]),
        format!("M\tMEMORY.md\nA\t{NAME}.md\n")
    );
    assert_eq!(
        git(&team, &["show", &format!("{branch}:{NAME}.md")]),
        std::fs::read_to_string(memory.join(format!("{NAME}.md"))).expect("topic")
    );
    let index = git(&team, &["show", &format!("{branch}:MEMORY.md")]);
    assert!(
        index.starts_with("- [Deploys](deploys.md) — how we deploy\n"),
        "{index}"
    );
    assert!(
        index.contains(&format!(
            "]({NAME}.md) — Run the linter before every commit"
        )),
        "{index}"
    );
    git(&team, &["fsck", "--strict", "--no-progress"]);
    assert_git_clean(&memory);
}

#[test]
fn proposals_are_open_merged_or_stale_and_reconcile_is_idempotent() {
    let env = TestEnv::new();
    let project = env.project.clone();
    commit_files(&project, &[("CLAUDE.md", "# Project\n")], "init");
    let memory = env.memory_dir();
    for name in [
        "open-one",
        "merged-one",
        "squashed-one",
        "deleted-one",
        "changed-one",
    ] {
        env.save(
            "feedback",
            name,
            &format!("The {name} rule"),
            &format!("Always follow the {name} rule."),
        );
        env.ok(&["promote", name, "--to", "project"]);
    }
    assert!(env.ok(&["proposals"]).stdout.contains("open    open-one"));
    git(
        &project,
        &["merge", "-q", "--no-edit", &branch_of("merged-one")],
    );
    // Each promotion adds at the end of the file: after one is merged, the next is promoted
    // again onto the new tip (or it would conflict), then merged as a squash.
    env.ok(&["promote", "squashed-one", "--to", "project"]);
    git(
        &project,
        &["merge", "-q", "--squash", &branch_of("squashed-one")],
    );
    git(&project, &["commit", "-q", "-m", "squashed"]);
    git(
        &project,
        &[
            "branch",
            "-q",
            "-D",
            &branch_of("squashed-one"),
            &branch_of("deleted-one"),
        ],
    );
    env.save(
        "feedback",
        "changed-one",
        "The changed-one rule",
        "Always follow the new changed-one rule.",
    );

    let listed = proposals(&env);
    assert_eq!(listed.len(), 5);
    assert_eq!(status_of(&listed, "open-one")["status"], "open");
    assert_eq!(status_of(&listed, "merged-one")["status"], "merged");
    assert_eq!(status_of(&listed, "squashed-one")["status"], "merged");
    let deleted = status_of(&listed, "deleted-one");
    assert_eq!(deleted["status"], "stale");
    assert!(
        deleted["reason"]
            .as_str()
            .expect("reason")
            .contains("deleted without being merged")
    );
    let changed = status_of(&listed, "changed-one");
    assert_eq!(changed["status"], "stale");
    assert!(
        changed["reason"]
            .as_str()
            .expect("reason")
            .contains("changed since")
    );
    let plain = env.ok(&["proposals"]).stdout;
    assert!(plain.contains("stale   deleted-one"), "{plain}");

    let before = subjects(&memory).len();
    let done = env.ok(&["proposals", "--reconcile", "--json"]).json();
    let retired: Vec<&str> = done["reconciled"]
        .as_array()
        .expect("array")
        .iter()
        .map(|r| r["name"].as_str().expect("name"))
        .collect();
    assert_eq!(retired, ["merged-one", "squashed-one"]);
    assert_eq!(subjects(&memory).len(), before + 2);
    assert_eq!(
        &subjects(&memory)[..2],
        [
            "promote(feedback): squashed-one",
            "promote(feedback): merged-one"
        ]
    );
    let squash_message = git(&memory, &["log", "-1", "--format=%B"]);
    assert!(
        squash_message.contains(&format!("Memdir-Merge: {}", rev(&project, "HEAD"))),
        "{squash_message}"
    );
    assert!(memory.join("open-one.md").is_file() && !memory.join("merged-one.md").exists());
    assert_git_clean(&memory);

    let again = env.ok(&["proposals", "--reconcile", "--json"]).json();
    assert_eq!(again["reconciled"], serde_json::json!([]));
    assert_eq!(subjects(&memory).len(), before + 2);
    let listed = proposals(&env);
    assert_eq!(status_of(&listed, "merged-one")["status"], "merged");
    assert_eq!(status_of(&listed, "open-one")["status"], "open");
}

#[test]
fn an_existing_post_merge_hook_is_kept_and_still_runs() {
    let env = TestEnv::new();
    let project = env.project.clone();
    commit_files(
        &project,
        &[
            ("CLAUDE.md", "# Project\n"),
            (".gitignore", "hook-ran.txt\n"),
        ],
        "init",
    );
    save_lint(&env);
    let memory = env.memory_dir();
    let hooks = project.join(".git/hooks");
    std::fs::create_dir_all(&hooks).expect("hooks");
    let users = "#!/bin/sh\necho \"the user's hook ran\" > hook-ran.txt\nexit 0\n";
    let hook = hooks.join("post-merge");
    std::fs::write(&hook, users).expect("hook");

    let installed = env
        .ok(&[
            "hooks",
            "install",
            "--git",
            "--command",
            memdir_bin(),
            "--json",
        ])
        .json();
    assert_eq!(installed["git"]["action"], "appended");
    let text = std::fs::read_to_string(&hook).expect("hook");
    assert!(
        text.starts_with("#!/bin/sh\necho \"the user's hook ran\" > hook-ran.txt\n"),
        "{text}"
    );
    assert!(
        text.ends_with("exit 0\n") && text.contains("proposals --reconcile -q"),
        "{text}"
    );
    let again = env
        .ok(&[
            "hooks",
            "install",
            "--git",
            "--command",
            memdir_bin(),
            "--json",
        ])
        .json();
    assert_eq!(again["git"]["action"], "unchanged");
    assert_eq!(std::fs::read_to_string(&hook).expect("hook"), text);

    env.ok(&["promote", NAME, "--to", "project"]);
    user_git_ok(&env, &project, &["merge", "--no-edit", &branch_of(NAME)]);
    assert!(
        project.join("hook-ran.txt").is_file(),
        "the user's hook did not run"
    );
    assert_eq!(subjects(&memory)[0], format!("promote(feedback): {NAME}"));
    assert_git_clean(&memory);
}

#[test]
fn the_hook_follows_core_hooks_path_and_never_fails_a_merge() {
    let env = TestEnv::new();
    let project = env.project.clone();
    commit_files(&project, &[("CLAUDE.md", "# Project\n")], "init");
    git(&project, &["config", "core.hooksPath", ".githooks"]);
    // Both kinds at once; memdir not on PATH.
    let run = env
        .ok(&["hooks", "install", "--claude", "--git", "--json"])
        .json();
    let hook = project.join(".githooks/post-merge");
    assert_eq!(run["git"]["path"], hook.display().to_string());
    assert_eq!(run["git"]["action"], "created");
    assert!(
        run["added"].as_array().is_some_and(|a| !a.is_empty()),
        "{run}"
    );
    assert!(!project.join(".git/hooks/post-merge").exists());
    assert_eq!(
        std::fs::read_to_string(&hook).expect("hook"),
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/hooks/post-merge"))
            .expect("template")
    );
    let out = Command::new("sh")
        .arg(&hook)
        .current_dir(&project)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("sh runs");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("memdir was not found"), "{stderr}");

    // With memdir there and nothing promoted, the hook's command is quick and creates nothing.
    let memory = env.memory_dir();
    let run = env.ok(&["proposals", "--reconcile", "--json"]).json();
    assert_eq!(run["reconciled"], serde_json::json!([]));
    assert!(!memory.exists(), "a merge created the memory dir");

    // Not a repository: nothing to install into.
    let elsewhere = env.root.join("plain");
    std::fs::create_dir_all(&elsewhere).expect("plain");
    env.fails(
        &[
            "hooks",
            "install",
            "--git",
            "--project",
            elsewhere.to_str().expect("utf-8"),
        ],
        2,
        "in no git repository",
    );
}

#[test]
fn a_team_promotion_is_pushed_for_review_and_retired_once_merged_on_the_remote() {
    let root = TestEnv::new();
    let remote = crate::common::bare_remote(&root.root);
    // The remote prints where to open a pull request, as GitHub and GitLab do.
    let hook = remote.join("hooks/post-receive");
    std::fs::write(
        &hook,
        "#!/bin/sh\nwhile read old new ref; do echo \"Create a pull request for ${ref#refs/heads/} by visiting:\"; echo \"  https://git.example/team/memory/pull/new/${ref#refs/heads/}\"; done\n",
    )
    .expect("hook");
    Command::new("chmod")
        .args(["+x"])
        .arg(&hook)
        .status()
        .expect("chmod");
    let mate = crate::common::Mate::join(&remote);
    mate.save("deploys", "We deploy on Tuesdays.");
    mate.sync();
    let env = &mate.env;
    save_lint(env);
    let run = env.ok(&["promote", NAME, "--to", "team", "--json"]).json();
    let branch = branch_of(NAME);
    assert_eq!(run["pushed"], true, "{run}");
    assert_eq!(
        run["review_url"],
        format!("https://git.example/team/memory/pull/new/{branch}").as_str(),
        "{run}"
    );
    let on_remote = git(&remote, &["rev-parse", &format!("refs/heads/{branch}")]);
    assert_eq!(on_remote.trim(), run["commit"].as_str().expect("commit"));
    let plain = env.ok(&["promote", NAME, "--to", "team"]).stdout;
    assert!(
        plain.contains("open a pull request: https://git.example/"),
        "{plain}"
    );
    // Merged on the remote by a reviewer, in a clone of their own.
    let reviewer = root.root.join("reviewer");
    git(
        &root.root,
        &[
            "clone",
            "-q",
            remote.to_str().expect("utf-8"),
            reviewer.to_str().expect("utf-8"),
        ],
    );
    git(
        &reviewer,
        &[
            "merge",
            "-q",
            "--no-ff",
            "--no-edit",
            &format!("origin/{branch}"),
        ],
    );
    git(&reviewer, &["push", "-q", "origin", "HEAD"]);
    // Without a team sync, reconcile sees it merged there and retires the memory.
    let reconciled = env.ok(&["proposals", "--reconcile", "--json"]).json();
    assert_eq!(reconciled["reconciled"][0]["name"], NAME, "{reconciled}");
    assert!(!env.memory_dir().join(format!("{NAME}.md")).exists());
    assert_git_clean(&env.memory_dir());
    // The team's memory has it once synced.
    mate.sync();
    assert!(mate.files().contains_key(&format!("{NAME}.md")));
}

#[test]
fn a_team_promotion_branch_someone_pushed_to_is_never_replaced() {
    let root = TestEnv::new();
    let remote = crate::common::bare_remote(&root.root);
    let mate = crate::common::Mate::join(&remote);
    mate.save("deploys", "We deploy on Tuesdays.");
    mate.sync();
    let env = &mate.env;
    save_lint(env);
    let first = env.ok(&["promote", NAME, "--to", "team", "--json"]).json();
    // A bare remote has no page: the commands that review and merge it instead.
    assert!(first["review_url"].is_null(), "{first}");
    assert!(
        first["review_command"]
            .as_str()
            .expect("command")
            .contains("merge origin/"),
        "{first}"
    );
    let branch = branch_of(NAME);
    // Promoted again after an edit: the branch is replaced there too (memdir's own, leased).
    env.ok(&save_args(
        "feedback",
        NAME,
        "Run the linter before every commit",
        "Run `make lint` before every commit and push.",
    ));
    let second = env.ok(&["promote", NAME, "--to", "team", "--json"]).json();
    assert_eq!(second["outcome"], "updated", "{second}");
    let on_remote = git(&remote, &["rev-parse", &format!("refs/heads/{branch}")]);
    assert_eq!(on_remote.trim(), second["commit"].as_str().expect("commit"));
    // Someone adds to the branch on the remote: a new promotion never replaces it there.
    let other = root.root.join("other");
    git(
        &root.root,
        &[
            "clone",
            "-q",
            "-b",
            &branch,
            remote.to_str().expect("utf-8"),
            other.to_str().expect("utf-8"),
        ],
    );
    std::fs::write(other.join("review-note.md"), "note\n").expect("note");
    git(&other, &["add", "-A"]);
    git(&other, &["commit", "-q", "-m", "reviewer's note"]);
    git(&other, &["push", "-q", "origin", "HEAD"]);
    let theirs = git(&remote, &["rev-parse", &format!("refs/heads/{branch}")]);
    env.ok(&save_args(
        "feedback",
        NAME,
        "Run the linter before every commit",
        "Run `make lint -j` before every commit.",
    ));
    let run = env.fails(
        &["promote", NAME, "--to", "team"],
        1,
        "holds commits this clone has not seen",
    );
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert_eq!(
        git(&remote, &["rev-parse", &format!("refs/heads/{branch}")]),
        theirs
    );
}
