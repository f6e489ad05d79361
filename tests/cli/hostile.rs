//! Hostile input (issue 11, DESIGN §10): what a cloned repository, the agent, a teammate or a
//! broken disk can put in memdir's way. Each test is one class of attack or breakage; it asserts
//! what the user would notice (nothing written outside its boundary, no hang, no lost work, a
//! clear one-line error or a warning) and checks every repository with the real git.
//!
//! Every memdir run here is under `ulimit -v 1000000` (about 1 GB of address space): a run that
//! reads without bound fails instead of eating the machine.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::{
    HOSTILE_LIMIT_KB, Run, TestEnv, assert_git_clean, git, save_args, subjects, tree_snapshot,
};

fn hostile_env() -> TestEnv {
    let mut env = TestEnv::new();
    env.limit_memory(HOSTILE_LIMIT_KB);
    env
}

/// A fake GitHub token (random, in the real format).
const TOKEN: &str = "ghp_R8kT2mVq9XwLs4NbZc7Yd1PfHj6Ga3Ue5Qo0";

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn head(dir: &Path) -> String {
    git(dir, &["rev-parse", "HEAD"]).trim().to_string()
}

fn one_error_line(run: &Run, needle: &str) {
    assert!(
        run.stderr.starts_with("error: ") && run.error_lines().len() == 1,
        "want one error line, got {:?}",
        run.stderr
    );
    assert!(
        run.stderr.contains(needle),
        "want {needle:?} in {:?}",
        run.stderr
    );
}

/// A git repository with one commit, outside everything memdir owns.
fn victim_repo(root: &Path) -> PathBuf {
    let victim = root.join("victim");
    std::fs::create_dir_all(&victim).expect("victim");
    git(&victim, &["init", "-q"]);
    std::fs::write(victim.join("README"), "mine\n").expect("readme");
    git(&victim, &["add", "README"]);
    git(&victim, &["commit", "-q", "-m", "victim"]);
    victim
}

/// The two memories several tests start from.
fn save_role_and_lint(env: &TestEnv) {
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save(
        "feedback",
        "lint",
        "Run the linter",
        "Run `make lint` first.",
    );
}

// ---- 2. The memory dir's repository is its own `.git` folder, nothing else. ----

#[test]
fn a_git_symlink_or_gitdir_file_in_the_memory_dir_is_refused() {
    for how in [
        "symlink",
        "gitdir file",
        "commondir",
        "symlinked refs",
        "FIFO HEAD",
    ] {
        let env = hostile_env();
        let victim = victim_repo(&env.root);
        let before = head(&victim);
        let dir = env.memory_dir();
        std::fs::create_dir_all(&dir).expect("memory dir");
        match how {
            "symlink" => {
                std::os::unix::fs::symlink(victim.join(".git"), dir.join(".git")).expect("link")
            }
            "gitdir file" => std::fs::write(
                dir.join(".git"),
                format!("gitdir: {}\n", victim.join(".git").display()),
            )
            .expect("gitdir"),
            "commondir" => {
                git(&dir, &["init", "-q"]);
                std::fs::write(
                    dir.join(".git/commondir"),
                    format!("{}\n", victim.join(".git").display()),
                )
                .expect("commondir");
            }
            "symlinked refs" => {
                git(&dir, &["init", "-q"]);
                std::fs::remove_dir_all(dir.join(".git/refs")).expect("refs");
                std::os::unix::fs::symlink(victim.join(".git/refs"), dir.join(".git/refs"))
                    .expect("link");
            }
            _ => {
                git(&dir, &["init", "-q"]);
                std::fs::remove_file(dir.join(".git/HEAD")).expect("HEAD");
                mkfifo(&dir.join(".git/HEAD"));
            }
        }
        let snapshot = tree_snapshot(&victim);
        let run = env.run(&save_args("user", "role", "Backend engineer", "Backend."));
        assert_eq!(run.code, 2, "{how}: {}{}", run.stdout, run.stderr);
        one_error_line(&run, "own .git folder");
        assert_eq!(
            head(&victim),
            before,
            "{how}: a commit landed in the victim"
        );
        assert_eq!(
            tree_snapshot(&victim),
            snapshot,
            "{how}: the victim changed"
        );
        assert!(!dir.join("role.md").exists(), "{how}: a file was written");
        // Reading commands say the same instead of reading another repository's history.
        let run = env.run(&["log"]);
        assert_eq!(run.code, 2, "{how}: {}{}", run.stdout, run.stderr);
        one_error_line(&run, "own .git folder");
    }
}

// ---- 3. A local settings file that git tracks is project settings. ----

#[test]
fn a_committed_local_settings_file_never_redirects_memory_writes() {
    let env = hostile_env();
    let evil = env.root.join("evil");
    let local = env.project.join(".claude/settings.local.json");
    std::fs::create_dir_all(local.parent().expect("parent")).expect("dir");
    std::fs::write(
        &local,
        format!(r#"{{"autoMemoryDirectory": "{}"}}"#, evil.display()),
    )
    .expect("settings");
    git(&env.project, &["add", "-f", ".claude/settings.local.json"]);
    let run = env.ok(&save_args("user", "role", "Backend engineer", "Backend."));
    assert!(
        run.stderr.contains("settings.local.json") && run.stderr.contains("tracked by git"),
        "{}",
        run.stderr
    );
    assert!(!evil.exists(), "memory was written where the clone said");
    let dir = env.memory_dir();
    assert!(dir.join("role.md").is_file());
    assert!(
        dir.starts_with(env.home.join(".claude/projects")),
        "{}",
        dir.display()
    );
    assert_git_clean(&dir);

    // The same file, untracked, is the user's own and is honoured.
    git(
        &env.project,
        &["rm", "-q", "--cached", ".claude/settings.local.json"],
    );
    assert_eq!(env.memory_dir(), evil);
}

// ---- 4. Symlinks never carry a read or a write outside its boundary. ----

#[test]
fn doctor_never_reads_or_replaces_a_symlinked_index() {
    let env = hostile_env();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    let outside = env.root.join("private.md");
    let private = format!("- [Keys](keys.md) — {TOKEN} do-not-leak-this\n");
    std::fs::write(&outside, &private).expect("outside");
    std::fs::remove_file(dir.join("MEMORY.md")).expect("rm index");
    std::os::unix::fs::symlink(&outside, dir.join("MEMORY.md")).expect("link");
    let history = subjects(&dir);

    let run = env.run(&["doctor", "--fix"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("MEMORY.md") && run.stdout.contains("symlink"),
        "{}",
        run.stdout
    );
    assert!(
        std::fs::symlink_metadata(dir.join("MEMORY.md"))
            .expect("stat")
            .file_type()
            .is_symlink(),
        "doctor replaced the link"
    );
    assert_eq!(std::fs::read_to_string(&outside).expect("read"), private);
    let log = git(&dir, &["log", "-p", "--all"]);
    assert!(!log.contains("do-not-leak-this"), "{log}");
    assert_eq!(subjects(&dir), history);
    // A save refuses rather than read or replace it.
    let run = env.run(&save_args("user", "x", "d", "b"));
    assert_eq!(run.code, 2, "{}", run.stderr);
    one_error_line(&run, "outside the memory dir");
}

#[test]
fn a_symlinked_parent_of_the_memory_dir_is_refused() {
    let env = hostile_env();
    let dir = env.memory_dir();
    let elsewhere = env.root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("elsewhere");
    let parent = dir.parent().expect("parent");
    std::fs::create_dir_all(parent.parent().expect("projects")).expect("projects");
    std::os::unix::fs::symlink(&elsewhere, parent).expect("link");
    let run = env.run(&save_args("user", "role", "Backend engineer", "Backend."));
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    one_error_line(&run, "symlink");
    assert_eq!(
        std::fs::read_dir(&elsewhere).expect("list").count(),
        0,
        "memory was written through the link"
    );
}

#[test]
fn hooks_install_git_never_writes_through_a_symlinked_hook() {
    let env = hostile_env();
    let outside = env.root.join("bashrc");
    std::fs::write(&outside, "export PATH=/usr/bin\n").expect("outside");
    let hooks = env.project.join(".git/hooks");
    std::fs::create_dir_all(&hooks).expect("hooks");
    std::os::unix::fs::symlink(&outside, hooks.join("post-merge")).expect("link");
    let mode_before = std::fs::metadata(&outside).expect("stat").permissions();
    let run = env.run(&["hooks", "install", "--git"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    one_error_line(&run, "symlink");
    assert_eq!(
        std::fs::read_to_string(&outside).expect("read"),
        "export PATH=/usr/bin\n"
    );
    assert_eq!(
        std::fs::metadata(&outside).expect("stat").permissions(),
        mode_before
    );
    assert!(
        std::fs::symlink_metadata(hooks.join("post-merge"))
            .expect("stat")
            .file_type()
            .is_symlink()
    );
}

// ---- 5. Secrets are looked for in the person's words and in every field written. ----

#[test]
fn a_secret_is_found_in_the_persons_words_before_any_rewriting() {
    let env = hostile_env();
    let transcript = env.root.join("session.jsonl");
    let mut t = crate::extract::Transcript::new("s-secret", &env.project);
    t.user("From now on, deploy with curl -u admin:Zq8vLr2mXw7 https://deploy.example.internal/api. Always run the smoke tests after a deploy.")
        .assistant("Got it.")
        .user("Remember that the staging box is reached with curl -u ops:Pw9xKd3Lm2 bc the proxy needs it.")
        .assistant("Noted.")
        .user("From now on, always run the smoke tests after a deploy.")
        .assistant("Will do.");
    t.write(&transcript);
    env.ok(&[
        "extract",
        "--transcript",
        transcript.to_str().expect("utf-8"),
    ]);
    let dir = env.memory_dir();
    for entry in std::fs::read_dir(&dir).expect("list").flatten() {
        if entry.path().is_file() {
            let text = std::fs::read_to_string(entry.path()).expect("read");
            assert!(
                !text.contains("Zq8vLr2mXw7") && !text.contains("Pw9xKd3Lm2"),
                "{} holds a password: {text}",
                entry.path().display()
            );
        }
    }
    let log = git(&dir, &["log", "-p"]);
    assert!(!log.contains("Zq8vLr2mXw7") && !log.contains("Pw9xKd3Lm2"));
    // What holds no secret is still remembered.
    assert!(log.contains("smoke tests"), "{log}");
    assert_git_clean(&dir);
}

#[test]
fn a_secret_in_a_title_is_caught_everywhere_it_would_be_written() {
    let env = hostile_env();
    // Your own memory: saved, with a warning that names the title.
    let mut args = save_args("feedback", "deploy-rule", "Deploy with the bot", "Deploy.");
    args.extend(["--title", TOKEN]);
    let run = env.ok(&args);
    assert!(
        run.stderr.contains("a GitHub token") && run.stderr.contains("title"),
        "{}",
        run.stderr
    );
    // Promotion never carries it into a CLAUDE.md.
    std::fs::write(env.project.join("CLAUDE.md"), "# Project\n").expect("claude.md");
    git(&env.project, &["add", "CLAUDE.md"]);
    git(
        &env.project,
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@e",
            "commit",
            "-q",
            "-m",
            "init",
        ],
    );
    let run = env.run(&["promote", "deploy-rule", "--to", "project"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    one_error_line(&run, "GitHub token");
    let branches = git(&env.project, &["branch", "--list"]);
    assert!(!branches.contains("memdir/promote"), "{branches}");

    // Team memory refuses it outright, and nothing is written.
    let remote = env.root.join("remote.git");
    git(
        &env.root,
        &["init", "-q", "--bare", remote.to_str().expect("utf-8")],
    );
    env.ok(&["team", "init", "--remote", remote.to_str().expect("utf-8")]);
    let team = env.memory_dir().join("team");
    let before = tree_snapshot(&team);
    let mut args = save_args("project", "bot", "The deploy bot", "Deploys.");
    args.extend(["--title", TOKEN, "--team"]);
    let run = env.run(&args);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    one_error_line(&run, "GitHub token");
    assert_eq!(tree_snapshot(&team), before);
}

// ---- 7. A FIFO in the memory dir never hangs anything. ----

#[test]
fn a_fifo_named_like_a_memory_hangs_nothing() {
    let env = hostile_env();
    save_role_and_lint(&env);
    let dir = env.memory_dir();
    mkfifo(&dir.join("trap.md"));
    let transcript = env.root.join("t.jsonl");
    let mut t = crate::extract::Transcript::new("s-fifo", &env.project);
    t.user("From now on, always run the smoke tests after a deploy.")
        .assistant("OK.");
    t.write(&transcript);
    let limit = Duration::from_secs(20);
    for args in [
        vec!["list"],
        vec!["review", "--json"],
        vec!["verify", "--json"],
        vec!["rm", "lint"],
        vec![
            "extract",
            "--transcript",
            transcript.to_str().expect("utf-8"),
        ],
        vec!["snapshot"],
        vec!["diff"],
    ] {
        let run = env
            .run_within(&args, b"", limit)
            .unwrap_or_else(|| panic!("memdir {args:?} hung on a FIFO"));
        assert_eq!(run.code, 0, "memdir {args:?}: {}{}", run.stdout, run.stderr);
    }
    let run = env.run_within(&["list"], b"", limit).expect("list");
    assert!(run.stdout.contains("role"), "{}", run.stdout);
    assert!(
        run.stderr.contains("trap.md") && run.stderr.contains("FIFO"),
        "{}",
        run.stderr
    );
    let run = env
        .run_within(&["doctor"], b"", limit)
        .expect("doctor hung");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("trap.md") && run.stdout.contains("FIFO"),
        "{}",
        run.stdout
    );
    assert!(!dir.join("lint.md").exists());
    git(&dir, &["fsck", "--strict", "--no-progress"]);
}

// ---- 8. Every input has a cap. ----

#[test]
fn every_input_memdir_reads_is_capped() {
    let env = hostile_env();
    let dir = env.memory_dir();
    let before = tree_snapshot(&env.root);
    let run = env
        .run_within(
            &[
                "save",
                "--type",
                "user",
                "--name",
                "zero",
                "--description",
                "d",
                "--body-file",
                "/dev/zero",
            ],
            b"",
            Duration::from_secs(20),
        )
        .expect("save --body-file /dev/zero hung");
    assert_eq!(run.code, 2, "{}", run.stderr);
    one_error_line(&run, "over the 64 KiB limit");
    let big = "x".repeat(100 * 1024);
    let run = env.run(&save_args("user", "big", "d", &big));
    assert_eq!(run.code, 2, "{}", run.stderr);
    one_error_line(&run, "over the 64 KiB limit");
    let run = env.run_with_stdin(
        &[
            "save",
            "--type",
            "user",
            "--name",
            "big",
            "--description",
            "d",
        ],
        &big,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    one_error_line(&run, "over the 64 KiB limit");
    assert_eq!(tree_snapshot(&env.root), before, "a refused save wrote");

    // A settings file the size of a disk image is skipped, with a warning naming it.
    let settings = env.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().expect("parent")).expect("dir");
    let mut huge = String::from("{\"x\": \"");
    huge.push_str(&"a".repeat(2 * 1024 * 1024));
    huge.push_str("\"}");
    std::fs::write(&settings, huge).expect("settings");
    let run = env.ok(&save_args("user", "role", "Backend engineer", "Backend."));
    assert!(
        run.stderr.contains("settings.json") && run.stderr.contains("1 MiB"),
        "{}",
        run.stderr
    );
    // A topic file an agent blew up is reported; the others are listed.
    std::fs::write(dir.join("blob.md"), vec![b'a'; 1024 * 1024]).expect("blob");
    let run = env.ok(&["list"]);
    assert!(run.stdout.contains("role"), "{}", run.stdout);
    assert!(
        run.stderr.contains("blob.md") && run.stderr.contains("256 KiB"),
        "{}",
        run.stderr
    );
}

// ---- 11. A broken settings file is skipped with a warning, whatever is wrong with it. ----

#[test]
fn a_broken_settings_file_is_skipped_with_a_warning() {
    for (what, bytes) in [
        ("invalid JSON", b"{ not json".to_vec()),
        ("empty", Vec::new()),
        (
            "not UTF-8",
            b"{\"autoMemoryEnabled\": \"\xff\xfe\"}".to_vec(),
        ),
        ("wrong type", b"{\"autoMemoryDirectory\": 5}".to_vec()),
    ] {
        let env = hostile_env();
        let settings = env.project.join(".claude/settings.json");
        std::fs::create_dir_all(settings.parent().expect("parent")).expect("dir");
        std::fs::write(&settings, &bytes).expect("settings");
        let run = env.run(&save_args("user", "role", "Backend engineer", "Backend."));
        assert_eq!(run.code, 0, "{what}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.starts_with("warning: ") && run.stderr.contains("settings.json"),
            "{what}: {}",
            run.stderr
        );
        let dir = env.memory_dir();
        assert!(dir.join("role.md").is_file(), "{what}");
        assert_git_clean(&dir);
        env.ok(&["list"]);
        env.ok(&["context"]);
    }
}

// ---- 12. One bad topic file does not hide the others; save cannot make one. ----

#[test]
fn one_bad_topic_file_is_reported_and_the_rest_still_work() {
    let env = hostile_env();
    save_role_and_lint(&env);
    let dir = env.memory_dir();
    std::fs::write(
        dir.join("broken.md"),
        "---\nname: [unclosed\ntype: user\n---\nx\n",
    )
    .expect("broken");
    let outside = env.root.join("elsewhere.md");
    std::fs::write(
        &outside,
        "---\nname: e\ndescription: e\ntype: user\n---\ne\n",
    )
    .expect("e");
    std::os::unix::fs::symlink(&outside, dir.join("link.md")).expect("link");

    let run = env.ok(&["list"]);
    assert!(
        run.stdout.contains("role") && run.stdout.contains("lint"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("broken.md"), "{}", run.stderr);
    assert!(run.stderr.contains("link.md"), "{}", run.stderr);
    let listed = env.ok(&["list", "--json"]).json();
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");
    let review = env.ok(&["review", "--json"]);
    assert!(review.stdout.contains("lint"), "{}", review.stdout);
    assert!(review.stderr.contains("broken.md"), "{}", review.stderr);
    let verify = env.ok(&["verify", "--json"]);
    assert!(verify.stdout.contains("lint"), "{}", verify.stdout);
    assert!(verify.stderr.contains("broken.md"), "{}", verify.stderr);

    // save refuses what it could not read back, and writes nothing.
    let before = tree_snapshot(&env.root);
    let long = "d".repeat(10 * 1024);
    let run = env.run(&save_args("user", "huge", &long, "b"));
    assert_eq!(run.code, 2, "{}", run.stderr);
    one_error_line(&run, "description");
    assert_eq!(tree_snapshot(&env.root), before);
}

// ---- 13. An index that is not UTF-8 is diagnosed, and never rewritten. ----

/// A repair never changes what it cannot read (issue 28: `doctor --fix` used to replace the
/// bytes it could not decode): doctor names the line, `--fix` leaves every byte as it was and
/// exits 1, writes refuse with the same line; once the person fixes the line, all goes on.
#[test]
fn an_index_that_is_not_utf8_is_diagnosed_and_never_rewritten() {
    let env = hostile_env();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    let mut bytes = std::fs::read(dir.join("MEMORY.md")).expect("index");
    bytes.extend_from_slice(b"- [Caf\xe9](cafe.md) \xe2\x80\x94 latin-1 typed\n");
    std::fs::write(dir.join("MEMORY.md"), &bytes).expect("index");
    std::fs::write(
        dir.join("cafe.md"),
        "---\nname: cafe\ndescription: The caf\u{e9} downstairs\ntype: user\n---\nCoffee.\n",
    )
    .expect("cafe");
    // Reading still works, with a warning naming the line.
    let run = env.ok(&["list"]);
    assert!(run.stdout.contains("role"), "{}", run.stdout);
    assert!(
        run.stderr.contains("not valid UTF-8 at line 2"),
        "{}",
        run.stderr
    );
    env.ok(&["context"]);
    let before = tree_snapshot(&dir);
    let head = git(&dir, &["rev-parse", "HEAD"]);
    for args in [&["doctor"][..], &["doctor", "--fix"]] {
        let run = env.run(args);
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains(
                "bad-index           MEMORY.md: it is not valid UTF-8 at line 2; memdir never rewrites what it cannot read"
            ),
            "{}",
            run.stdout
        );
    }
    assert_eq!(tree_snapshot(&dir), before, "doctor --fix changed a byte");
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]), head);
    let run = env.run(&save_args("user", "x", "d", "b"));
    assert_eq!(run.code, 2, "{}", run.stderr);
    one_error_line(&run, "MEMORY.md is not valid UTF-8 at line 2");
    assert_eq!(tree_snapshot(&dir), before);

    // The person fixes the line; everything goes on.
    bytes.truncate(bytes.len() - b"- [Caf\xe9](cafe.md) \xe2\x80\x94 latin-1 typed\n".len());
    bytes.extend_from_slice("- [Café](cafe.md) — latin-1 typed\n".as_bytes());
    std::fs::write(dir.join("MEMORY.md"), &bytes).expect("fixed by hand");
    env.ok(&["doctor", "--fix"]);
    env.save("user", "x", "d", "b");
    assert_git_clean(&dir);
}

// ---- 14. promote never throws away someone else's commit. ----

#[test]
fn promote_never_replaces_a_branch_someone_else_committed_to() {
    let env = hostile_env();
    std::fs::write(env.project.join("CLAUDE.md"), "# Project\n").expect("claude.md");
    git(&env.project, &["add", "CLAUDE.md"]);
    git(&env.project, &["commit", "-q", "-m", "init"]);
    env.save(
        "feedback",
        "lint",
        "Run the linter before every commit",
        "Run `make lint` before every commit.\n\n**Why:** CI broke.\n**How to apply:** lint first.",
    );
    env.ok(&["promote", "lint", "--to", "project"]);
    // A reviewer fixes the wording on the branch.
    git(&env.project, &["checkout", "-q", "memdir/promote/lint"]);
    std::fs::write(env.project.join("CLAUDE.md"), "# Project\n\nLint first.\n").expect("fix");
    git(
        &env.project,
        &["commit", "-q", "-am", "reviewer: tighter wording"],
    );
    git(&env.project, &["checkout", "-q", "-"]);
    let tip = git(&env.project, &["rev-parse", "memdir/promote/lint"]);
    let run = env.run(&["promote", "lint", "--to", "project"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    one_error_line(&run, "not memdir's");
    assert_eq!(
        git(&env.project, &["rev-parse", "memdir/promote/lint"]),
        tip
    );
    // A name git refuses for a branch is refused too.
    let run = env.run(&["promote", "lint", "--to", "project", "--branch", "HEAD"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    one_error_line(&run, "HEAD");
    git(&env.project, &["fsck", "--strict", "--no-progress"]);
}

// ---- 16. Exit 2 means nothing changed. ----

#[test]
fn a_refused_command_commits_nothing() {
    let env = hostile_env();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    // An agent's write is waiting to be adopted.
    std::fs::write(
        dir.join("pending.md"),
        "---\nname: pending\ndescription: p\ntype: user\n---\np\n",
    )
    .expect("pending");
    let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    index.push_str("- [Pending](pending.md) — p\n");
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    let history = subjects(&dir);
    let before = tree_snapshot(&env.root);
    for args in [vec!["rm", "nope"], vec!["restore", "nope"]] {
        let run = env.run(&args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        one_error_line(&run, "nope");
        assert_eq!(subjects(&dir), history, "{args:?} committed");
        assert_eq!(tree_snapshot(&env.root), before, "{args:?} changed files");
    }
}

// ---- 18. Errors say what is wrong. ----

#[test]
fn errors_say_what_is_wrong() {
    // A memory dir that is a file.
    let env = hostile_env();
    let dir = env.memory_dir();
    std::fs::create_dir_all(dir.parent().expect("parent")).expect("parent");
    std::fs::write(&dir, "not a folder").expect("file");
    let run = env.run(&save_args("user", "role", "Backend engineer", "Backend."));
    assert_eq!(run.code, 2, "{}", run.stderr);
    one_error_line(&run, "is a file, not a folder");

    // An index over Claude Code's 4 MiB read limit is named by context, not silently dropped.
    let env = hostile_env();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    while index.len() <= 4 * 1024 * 1024 {
        index.push_str(&format!("- [Filler](role.md) — {}\n", "f".repeat(100)));
    }
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    let run = env.ok(&["context", "--explain"]);
    assert!(
        run.stdout.contains("MEMORY.md") && run.stdout.contains("4 MiB"),
        "{}",
        run.stdout
    );

    // doctor flags index links that leave the memory dir and names that differ from the file.
    let env = hostile_env();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    index.push_str("- [Passwd](../../../etc/passwd.md) — escape\n");
    index.push_str("- [Abs](/etc/shadow.md) — escape\n");
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    std::fs::write(
        dir.join("alias.md"),
        "---\nname: someone-else\ndescription: a\ntype: user\n---\na\n",
    )
    .expect("alias");
    let run = env.run(&["doctor"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("../../../etc/passwd.md"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("/etc/shadow.md"), "{}", run.stdout);
    assert!(run.stdout.contains("someone-else"), "{}", run.stdout);

    // Promotion into a bare repository's folder suggests a command that works there.
    let env = hostile_env();
    env.save(
        "feedback",
        "lint",
        "Run the linter before every commit",
        "Run `make lint` before every commit.",
    );
    let config = env.home.join(".claude");
    std::fs::create_dir_all(&config).expect("config");
    git(&config, &["init", "-q", "--bare"]);
    let run = env.ok(&["promote", "lint", "--to", "personal"]);
    assert!(!run.stdout.contains("git -C"), "{}", run.stdout);
    assert!(run.stdout.contains("patch -p1"), "{}", run.stdout);
}

#[test]
fn an_agents_save_with_a_secret_in_its_title_is_refused() {
    let env = hostile_env();
    let transcript = env.root.join("s.jsonl");
    crate::extract::Transcript::new("s-title", &env.project)
        .user("The deploy bot posts in #deploys.")
        .write(&transcript);
    let actions = serde_json::json!({"actions": [
        {"action": "save", "name": "deploy-bot", "type": "reference", "title": TOKEN,
         "description": "The deploy bot posts in #deploys", "body": "The deploy bot posts in #deploys."},
        {"action": "done"}
    ]});
    let agent = format!("cat >/dev/null; echo '{actions}'");
    let run = env.ok(&crate::common::agent_extract_args(&transcript, &agent));
    let report = run.json();
    assert_eq!(report["outcomes"][0]["outcome"], "refused", "{report}");
    assert!(
        report["outcomes"][0]["why"]
            .as_str()
            .is_some_and(|why| why.contains("GitHub token") && !why.contains(TOKEN)),
        "{report}"
    );
    let dir = env.memory_dir();
    assert!(!dir.join("deploy-bot.md").exists());
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).unwrap_or_default();
    assert!(!index.contains(TOKEN), "{index}");
}

#[test]
fn escape_sequences_in_a_memory_are_shown_escaped_on_a_terminal_and_kept_in_a_pipe() {
    // A description (YAML's "\e" is ESC) that would retitle a terminal and clear it.
    let env = crate::common::TestEnv::new();
    let dir = env.root.join("memory");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("evil.md"),
        "---\nname: evil\ndescription: \"release \\e]0;pwned\\a notes \\e[2J\"\ntype: project\n---\nrelease body\n",
    )
    .unwrap();
    std::fs::write(dir.join("MEMORY.md"), "- [Evil](evil.md) — release notes\n").unwrap();
    let dir = dir.display().to_string();
    // Piped, the bytes are the memory's own (byte-for-byte output stays so).
    let piped = env.ok(&["--memory-dir", &dir, "search", "release"]).stdout;
    assert!(
        piped.contains("release \u{1b}]0;pwned\u{7} notes \u{1b}[2J"),
        "{piped:?}"
    );
    // On a terminal, they are escaped.
    for command in [&["search", "release"][..], &["list"]] {
        let args: Vec<&str> = ["--memory-dir", dir.as_str()]
            .into_iter()
            .chain(command.iter().copied())
            .collect();
        let shown = env.on_terminal(&args);
        assert!(
            shown.contains("release \\u{1b}]0;pwned\\u{7} notes \\u{1b}[2J"),
            "{command:?}: {shown:?}"
        );
        assert!(!shown.contains('\u{1b}'), "{command:?}: {shown:?}");
    }
}
