//! Crash safety (DESIGN §4), with the test-only fault switch: a save aborted after the topic file,
//! after the index, or before the ref update loses nothing, and the next write recovers.

use crate::common::{
    TestEnv, assert_git_clean, assert_index_consistent, git, save_args, subjects, tree_snapshot,
};

fn crash(env: &TestEnv, point: &str, name: &str) {
    let run = env
        .command()
        .env("MEMDIR_FAULT", point)
        .args([
            "save",
            "--type",
            "project",
            "--name",
            name,
            "--description",
            "crashed save",
            "--body",
            "Written before the crash.",
        ])
        .output()
        .expect("memdir runs");
    assert!(!run.status.success(), "the fault point {point} must abort");
}

#[test]
fn crash_after_the_topic_file_leaves_an_orphan_and_a_consistent_index() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    crash(&env, "after-topic", "orphan");
    let dir = env.memory_dir();
    assert_index_consistent(&dir);
    assert!(
        !std::fs::read_to_string(dir.join("MEMORY.md"))
            .expect("index")
            .contains("orphan")
    );
    assert!(
        std::fs::read_to_string(dir.join("orphan.md"))
            .expect("kept")
            .contains("Written before the crash.")
    );
    // The next write reports the orphan and leaves it alone.
    let next = env.save("feedback", "lint", "Lint first", "Lint.");
    assert!(
        next.stderr.contains("orphan.md is not in MEMORY.md yet"),
        "{}",
        next.stderr
    );
    assert_eq!(subjects(&dir), ["save(feedback): lint", "save(user): role"]);
    assert_eq!(git(&dir, &["status", "--porcelain"]), "?? orphan.md\n");
    // Saving it again completes it, its first content kept in history.
    env.save(
        "project",
        "orphan",
        "crashed save",
        "Written before the crash.",
    );
    assert_eq!(subjects(&dir)[0], "update(project): orphan");
    assert_index_consistent(&dir);
    assert_git_clean(&dir);
}

#[test]
fn crash_after_the_index_or_before_the_ref_is_adopted_by_the_next_write() {
    for point in ["after-index", "before-ref"] {
        let env = TestEnv::new();
        env.save("user", "role", "Backend engineer", "Backend.");
        crash(&env, point, "pending");
        let dir = env.memory_dir();
        assert_index_consistent(&dir);
        assert_eq!(
            subjects(&dir),
            ["save(user): role"],
            "{point}: nothing committed yet"
        );
        git(&dir, &["fsck", "--strict", "--no-progress"]);
        env.save("feedback", "lint", "Lint first", "Lint.");
        assert_eq!(
            subjects(&dir),
            [
                "save(feedback): lint",
                "adopt(project): pending",
                "save(user): role"
            ],
            "{point}"
        );
        assert!(git(&dir, &["show", "HEAD~1:pending.md"]).contains("Written before the crash."));
        assert_index_consistent(&dir);
        assert_git_clean(&dir);
    }
}

#[test]
fn snapshot_recovers_too() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    crash(&env, "before-ref", "pending");
    let dir = env.memory_dir();
    env.ok(&["snapshot"]);
    assert_eq!(
        subjects(&dir),
        ["adopt(project): pending", "save(user): role"]
    );
    assert_git_clean(&dir);
}

#[test]
fn crash_in_rm_is_recovered() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save("feedback", "lint", "Lint first", "Lint.");
    let run = env
        .command()
        .env("MEMDIR_FAULT", "after-index")
        .args(["rm", "role"])
        .output()
        .expect("runs");
    assert!(!run.status.success());
    let dir = env.memory_dir();
    assert_index_consistent(&dir);
    assert!(
        dir.join("role.md").is_file(),
        "the file goes only after its line"
    );
    env.ok(&["rm", "role"]);
    assert!(!dir.join("role.md").exists());
    assert_index_consistent(&dir);
    assert_git_clean(&dir);
}

#[test]
fn a_stale_git_index_lock_refuses_the_write_before_any_file_changes() {
    // A git command killed in the memory dir (or a memdir killed while writing `.git/index`)
    // leaves `.git/index.lock`; a save must not write its files and then fail to commit them.
    let env = TestEnv::new();
    env.save("project", "first", "the first memory", "Body one.");
    let dir = env.memory_dir();
    let lock = dir.join(".git/index.lock");
    std::fs::write(&lock, b"").unwrap();
    let before = tree_snapshot(&dir);
    let run = env.fails(
        &save_args("project", "second", "the second memory", "Body two."),
        1,
        "index.lock",
    );
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert_eq!(
        tree_snapshot(&dir),
        before,
        "the save wrote files it could not commit"
    );
    std::fs::remove_file(&lock).unwrap();
    assert_git_clean(&dir);
    env.save("project", "second", "the second memory", "Body two.");
    assert_eq!(
        subjects(&dir),
        ["save(project): second", "save(project): first"]
    );
    assert_git_clean(&dir);
}

/// A fanout folder's name taken by a file (another program, a broken disk): the save stops
/// with one error line naming the folder, changes nothing, and goes through once it is gone.
#[test]
fn an_objects_folder_taken_by_a_file_stops_the_save_and_names_it() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    let objects = dir.join(".git").join("objects");
    let planted: Vec<_> = (0..=255u8)
        .map(|n| objects.join(format!("{n:02x}")))
        .filter(|folder| !folder.exists())
        .collect();
    for file in &planted {
        std::fs::write(file, b"").expect("plant");
    }
    let before = (tree_snapshot(&dir), git(&dir, &["rev-parse", "HEAD"]));
    let run = env.fails(
        &save_args("feedback", "lint", "Run the linter", "Lint first."),
        1,
        "Not a directory",
    );
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&objects.display().to_string()),
        "{}",
        run.stderr
    );
    assert_eq!(
        (tree_snapshot(&dir), git(&dir, &["rev-parse", "HEAD"])),
        before
    );
    for file in &planted {
        std::fs::remove_file(file).expect("unplant");
    }
    env.save("feedback", "lint", "Run the linter", "Lint first.");
    assert_git_clean(&dir);
    assert_eq!(subjects(&dir).len(), 2);
}
