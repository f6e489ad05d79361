//! `memdir doctor`: each inconsistency made by hand (or by a crash), found, then repaired with
//! `--fix` without losing any content, checked with the real git.

use std::path::Path;

use crate::common::{TestEnv, assert_git_clean, git, subjects};

/// `doctor --json`: exit code and the findings as (kind, what it is about, fixed?), what it is
/// about as the word that names it and its value: `file role.md`, `name lint`.
fn doctor(env: &TestEnv, fix: bool) -> (i32, Vec<(String, String, bool)>) {
    let mut args = vec!["doctor", "--json"];
    if fix {
        args.push("--fix");
    }
    let run = env.run(&args);
    let json = run.json();
    let findings = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap_or_default().to_string(),
                ["file", "link", "name", "subject", "object", "path"]
                    .into_iter()
                    .find_map(|word| Some(format!("{word} {}", f.get(word)?.as_str()?)))
                    .unwrap_or_default(),
                !f["fixed"].is_null(),
            )
        })
        .collect();
    assert_eq!(json["consistent"], run.code == 0, "{}", run.stdout);
    (run.code, findings)
}

fn has(findings: &[(String, String, bool)], kind: &str, subject: &str) -> bool {
    findings.iter().any(|(k, s, _)| k == kind && s == subject)
}

fn topic(dir: &Path, name: &str, body: &str) -> String {
    let text =
        format!("---\nname: {name}\ndescription: {name} memory\ntype: project\n---\n{body}\n");
    std::fs::write(dir.join(format!("{name}.md")), &text).expect("write");
    text
}

#[test]
fn a_consistent_store_exits_zero() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save("feedback", "lint", "Lint first", "Lint.");
    env.ok(&["rm", "lint"]);
    let (code, findings) = doctor(&env, false);
    assert_eq!(code, 0, "{findings:?}");
    assert!(has(&findings, "restorable", "name lint"), "{findings:?}");
    assert!(env.ok(&["doctor"]).stdout.ends_with("consistent\n"));
}

#[test]
fn an_orphan_is_found_then_indexed() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    let text = topic(&dir, "staging", "Staging deploys from release.");
    let (code, findings) = doctor(&env, false);
    assert_eq!(code, 1);
    assert!(has(&findings, "orphan", "file staging.md"), "{findings:?}");
    let (code, findings) = doctor(&env, true);
    assert_eq!(code, 0, "{findings:?}");
    assert!(
        findings
            .iter()
            .any(|(k, s, fixed)| k == "orphan" && s == "file staging.md" && *fixed)
    );
    assert_eq!(subjects(&dir)[0], "adopt(project): staging");
    assert!(
        std::fs::read_to_string(dir.join("MEMORY.md"))
            .expect("index")
            .contains("- [staging](staging.md) — staging memory\n")
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("staging.md")).expect("kept"),
        text
    );
    assert_git_clean(&dir);
}

/// A topic file gone from the work tree while a commit holds it comes back in one run (issue
/// 28: it used to take two runs, the first dropping its line and the second committing the
/// deletion); a line for a file no commit ever held is dropped, history keeping it.
#[test]
fn a_deleted_topic_file_comes_back_and_a_line_for_nothing_is_dropped() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save("feedback", "lint", "Lint first", "Lint.");
    let dir = env.memory_dir();
    let lint = std::fs::read_to_string(dir.join("lint.md")).expect("lint");
    let head = git(&dir, &["rev-parse", "HEAD"]);

    // An accidental rm: HEAD has the file.
    std::fs::remove_file(dir.join("lint.md")).expect("rm");
    let (code, findings) = doctor(&env, false);
    assert_eq!(code, 1);
    assert!(has(&findings, "deleted", "file lint.md"), "{findings:?}");
    assert!(
        !has(&findings, "uncommitted", "file lint.md"),
        "one deletion is one problem: {findings:?}"
    );
    let run = env.run(&["doctor", "--fix"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!("doctor_restores_a_deleted_file", run.stdout);
    assert_eq!(
        std::fs::read_to_string(dir.join("lint.md")).expect("back"),
        lint
    );
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]), head, "nothing to commit");
    assert_git_clean(&dir);

    // Deleted by a commit made by hand, the line left in: restored as the commit before had it.
    git(&dir, &["rm", "-q", "lint.md"]);
    git(&dir, &["commit", "-qm", "by hand"]);
    let (code, findings) = doctor(&env, true);
    assert_eq!(code, 0, "{findings:?}");
    assert!(
        findings
            .iter()
            .any(|(k, s, fixed)| k == "deleted" && s == "file lint.md" && *fixed),
        "{findings:?}"
    );
    assert_eq!(subjects(&dir)[..2], ["restore(feedback): lint", "by hand"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("lint.md")).expect("back"),
        lint
    );
    assert_git_clean(&dir);

    // A line for a file no commit ever held (adoption holds such a line back as a save in
    // progress): dropped.
    let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    index.push_str("- [Gone](gone.md) — never saved\n");
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    env.ok(&["snapshot"]);
    let (code, findings) = doctor(&env, false);
    assert_eq!(code, 1);
    assert!(has(&findings, "dangling", "file gone.md"), "{findings:?}");
    let (code, _) = doctor(&env, true);
    assert_eq!(code, 0);
    assert_eq!(subjects(&dir)[0], "update(index): MEMORY.md");
    assert!(
        !std::fs::read_to_string(dir.join("MEMORY.md"))
            .expect("index")
            .contains("gone.md")
    );
    assert_git_clean(&dir);
}

#[test]
fn uncommitted_changes_are_found_then_adopted() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    std::fs::write(
        dir.join("role.md"),
        "---\nname: role\ndescription: Backend engineer\ntype: user\n---\nEdited.\n",
    )
    .expect("edit");
    let (code, findings) = doctor(&env, false);
    assert_eq!(code, 1);
    assert!(
        has(&findings, "uncommitted", "file role.md"),
        "{findings:?}"
    );
    let (code, _) = doctor(&env, true);
    assert_eq!(code, 0);
    assert_eq!(subjects(&dir)[0], "adopt(user): role");
    assert_eq!(
        git(&dir, &["show", "HEAD:role.md"]).lines().last(),
        Some("Edited.")
    );
    assert_git_clean(&dir);
}

#[test]
fn bad_frontmatter_and_duplicates_are_left_for_a_person() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    std::fs::write(dir.join("broken.md"), "---\nname: [unclosed\n---\nx\n").expect("write");
    std::fs::write(dir.join("bare.md"), "No frontmatter at all.\n").expect("write");
    let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    index.push_str("- [Broken](broken.md) — broken\n- [Bare](bare.md) — bare\n- [Role again](role.md) — twice\n");
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    let (code, findings) = doctor(&env, true);
    assert_eq!(code, 1, "{findings:?}");
    assert!(
        has(&findings, "invalid-frontmatter", "file broken.md"),
        "{findings:?}"
    );
    assert!(has(&findings, "untyped", "file bare.md"), "{findings:?}");
    assert!(has(&findings, "duplicate", "link role.md"), "{findings:?}");
    // --fix still committed what was safe: the pending files, as they are.
    assert_eq!(
        git(&dir, &["show", "HEAD:broken.md"]),
        "---\nname: [unclosed\n---\nx\n"
    );
    assert_git_clean(&dir);
}

#[cfg(feature = "fault-injection")]
#[test]
fn an_interrupted_commit_is_found_and_its_content_kept() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let crashed = env
        .command()
        .env("MEMDIR_FAULT", "before-ref")
        .args([
            "save",
            "--type",
            "project",
            "--name",
            "ci",
            "--description",
            "CI on push",
            "--body",
            "CI.",
        ])
        .output()
        .expect("runs");
    assert!(!crashed.status.success());
    let dir = env.memory_dir();
    let (code, findings) = doctor(&env, false);
    assert_eq!(code, 1);
    assert!(
        findings.iter().any(|(k, _, _)| k == "unreachable"),
        "{findings:?}"
    );
    assert!(has(&findings, "uncommitted", "file ci.md"), "{findings:?}");
    // --fix adopts the pending save; the interrupted commit's files are then in history, so
    // what is left of it is garbage for git gc, not a problem.
    let (code, findings) = doctor(&env, true);
    assert_eq!(code, 0, "{findings:?}");
    assert!(
        findings.iter().any(|(k, _, _)| k == "garbage"),
        "{findings:?}"
    );
    assert_eq!(subjects(&dir)[0], "adopt(project): ci");
    assert_git_clean(&dir);
}
