//! Taking one change back and walking history (DESIGN §14, issue 28): `revert COMMIT` three ways
//! with what changed since, `restore NAME --at REV` of a memory that exists and what it says it
//! changed, `log` with `-n`, `--oneline`, `-p`, `--author` and
//! `--first-parent`, and `doctor`'s index-line drift. Checked with the real git.

use crate::common::{TestEnv, assert_git_clean, git, save_args, subjects};

fn read(env: &TestEnv, file: &str) -> String {
    std::fs::read_to_string(env.memory_dir().join(file)).unwrap_or_default()
}

/// `revert` takes back one commit's change and keeps what came after it; a memory changed
/// since in the same place keeps both versions, as team sync does.
#[test]
fn revert_takes_back_one_commit_three_ways() {
    let env = TestEnv::new();
    env.save(
        "user",
        "role",
        "Backend engineer",
        "Backend.\n\nLikes Rust.",
    );
    env.save("feedback", "lint", "Lint first", "Lint.");
    env.save(
        "user",
        "role",
        "Backend engineer, on call",
        "Backend.\n\nLikes Rust.\n\nOn call in March.",
    );
    let update = git(&env.memory_dir(), &["rev-parse", "HEAD"])
        .trim()
        .to_string();
    env.save("project", "ci", "CI on push", "CI.");

    let run = env.ok(&["revert", &update[..8]]);
    insta::assert_snapshot!("revert_plain", env.normalised(&run.stdout));
    assert!(read(&env, "role.md").contains("description: Backend engineer\n"));
    assert!(!read(&env, "role.md").contains("On call"));
    assert!(read(&env, "MEMORY.md").contains("(role.md) — Backend engineer\n"));
    assert!(read(&env, "ci.md").contains("CI."), "what came after stays");
    let dir = env.memory_dir();
    assert_eq!(
        subjects(&dir)[0],
        format!("revert(commit): {}", &update[..7])
    );
    assert!(
        git(&dir, &["log", "-1", "--format=%B"]).contains(&format!("Memdir-Reverts: {update}"))
    );
    assert_git_clean(&dir);

    // Reverting it again takes nothing back: it says so and commits nothing.
    let head = git(&dir, &["rev-parse", "HEAD"]);
    let again = env.ok(&["revert", &update]);
    assert_eq!(
        again.stdout,
        "nothing to change: the memory dir already holds that\n"
    );
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]), head);
    let json = env.ok(&["revert", &update, "--json"]).json();
    assert_eq!(json["commits"], serde_json::json!([]), "{json}");
    assert_eq!(json["memories"], serde_json::json!([]));

    // Reverting a change to role after role changed again in the same lines: both kept.
    env.save(
        "user",
        "role",
        "Backend engineer",
        "Frontend now.\n\nLikes Rust.",
    );
    let frontend = git(&dir, &["rev-parse", "HEAD"]).trim().to_string();
    env.save(
        "user",
        "role",
        "Backend engineer",
        "Fullstack now.\n\nLikes Rust.",
    );
    let json = env.ok(&["revert", &frontend, "--json"]).json();
    let copy = format!("role.conflict-{}.md", &frontend[..7]);
    assert_eq!(json["conflicts"][0]["file"], "role.md");
    assert_eq!(json["conflicts"][0]["kept_as"], copy.as_str());
    assert_eq!(json["reverted"], frontend.as_str());
    assert_eq!(
        json["commits"][0]["commit"],
        git(&dir, &["rev-parse", "HEAD"]).trim()
    );
    assert!(
        read(&env, "role.md").contains("Fullstack now."),
        "ours stays"
    );
    assert!(read(&env, &copy).contains("Backend.\n"), "theirs beside it");
    // Out of the index the model loads until a person finishes it, as a sync's conflict is.
    assert!(!read(&env, "MEMORY.md").contains(&copy));
    assert_git_clean(&dir);
    let resolved = env.ok(&["resolve", "role", "--theirs", "--json"]).json();
    assert_eq!(resolved["removed"][0], copy.as_str(), "{resolved}");
    assert!(read(&env, "role.md").contains("Backend.\n"));
    assert!(!dir.join(&copy).exists());
    assert_git_clean(&dir);
    env.fails(&["revert", "nope"], 2, "no commit named \"nope\"");
}

/// `restore NAME --at REV` brings back that version of a memory that exists, and a deleted
/// memory's line comes back where it stood with its title (it used to go to the end, retitled).
#[test]
fn restore_brings_back_a_version_and_the_line_where_it_stood() {
    let env = TestEnv::new();
    for (name, title) in [("a", "First"), ("b", "Second"), ("c", "Third")] {
        let (description, body) = (format!("About {name}"), format!("{name}."));
        let mut args = save_args("user", name, &description, &body);
        args.extend(["--title", title]);
        env.ok(&args);
    }
    let dir = env.memory_dir();
    let index = read(&env, "MEMORY.md");
    let b = read(&env, "b.md");
    let at = git(&dir, &["rev-parse", "HEAD"]).trim().to_string();
    env.save("user", "b", "About b, later", "b, later.");
    let run = env.ok(&["restore", "b", "--at", &at[..7]]);
    insta::assert_snapshot!("restore_at_plain", run.stdout);
    assert_eq!(read(&env, "b.md"), b);
    assert_eq!(read(&env, "MEMORY.md"), index);
    assert_eq!(subjects(&dir)[0], "restore(user): b");

    env.ok(&["rm", "b"]);
    let json = env.ok(&["restore", "b", "--json"]).json();
    assert_eq!(json["memories"][0]["change"], "added");
    assert_eq!(json["memories"][0]["name"], "b");
    assert_eq!(json["memories"][0]["type"], "user");
    assert_eq!(json["memories"][0]["file"], "b.md");
    assert_eq!(
        read(&env, "MEMORY.md"),
        index,
        "line back in place, title kept"
    );
    assert_git_clean(&dir);
    env.fails(
        &["restore", "b"],
        2,
        "b exists; `memdir restore b --at REV`",
    );
}

/// `log` takes `-n`, `--oneline`, `-p`, `--author` and `--first-parent`, and names authors.
#[test]
fn log_limits_shortens_shows_patches_and_authors() {
    let mut env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.set_var("GIT_AUTHOR_NAME", "Ada Lovelace");
    env.set_var("GIT_AUTHOR_EMAIL", "ada@example.com");
    env.save("feedback", "lint", "Lint first", "Lint.");
    env.save("user", "role", "Backend and Rust", "Backend, Rust.");
    assert_eq!(env.ok(&["log", "-n", "2"]).stdout.lines().count(), 2);
    insta::assert_snapshot!("log_oneline", env.ok(&["log", "--oneline"]).stdout);
    insta::assert_snapshot!("log_patch", env.ok(&["log", "-p", "-n", "1"]).stdout);
    let by_ada = env.ok(&["log", "--author", "LOVELACE", "--json"]).json();
    assert_eq!(by_ada.as_array().map(Vec::len), Some(2));
    assert_eq!(by_ada[0]["author"], "Ada Lovelace <ada@example.com>");
    let patch = env.ok(&["log", "role", "-p", "--json"]).json();
    assert_eq!(patch[0]["diffs"][0]["file"], "role.md");
    assert_eq!(patch[0]["diffs"][0]["status"], "modified");
    assert_eq!(patch[1]["diffs"][0]["status"], "added");
    assert!(
        env.ok(&["log"])
            .stdout
            .contains(" save(feedback): lint  by Ada Lovelace\n")
    );
}

/// A description edited by hand leaves its index line behind (what the model loads); doctor
/// says so and `--fix` makes the line say the description. A hook written in someone's own
/// words (Claude Code writes its own) is not drift.
#[test]
fn doctor_finds_and_fixes_an_index_line_drifted_from_its_description() {
    let env = TestEnv::new();
    env.save("project", "deploy", "Deploys go out on Fridays", "Fridays.");
    let dir = env.memory_dir();
    let text = read(&env, "deploy.md");
    std::fs::write(
        dir.join("deploy.md"),
        text.replace("Deploys go out on Fridays", "Deploys go out on Tuesdays"),
    )
    .expect("edit");
    env.ok(&["snapshot"]);
    assert!(
        env.ok(&["list"])
            .stdout
            .contains("Deploys go out on Tuesdays")
    );
    let run = env.run(&["doctor"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "drift               deploy.md: its index line says \"Deploys go out on Fridays\""
        ),
        "{}",
        run.stdout
    );
    let run = env.ok(&["doctor", "--fix"]);
    insta::assert_snapshot!("doctor_fixes_drift", run.stdout);
    assert!(read(&env, "MEMORY.md").contains("(deploy.md) — Deploys go out on Tuesdays\n"));
    assert_git_clean(&dir);

    // A hook in the writer's own words stays.
    let index =
        read(&env, "MEMORY.md").replace("— Deploys go out on Tuesdays", "— when deploys happen");
    std::fs::write(dir.join("MEMORY.md"), index).expect("own words");
    env.ok(&["snapshot"]);
    assert!(env.ok(&["doctor"]).stdout.ends_with("consistent\n"));
}
