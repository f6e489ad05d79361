//! Going back in history (DESIGN §4): rollback, undo, restore, `show --at` and `log` filters,
//! each checked with the real git.

use crate::common::{Mate, TestEnv, assert_git_clean, bare_remote, git, save_args, subjects};

#[test]
fn rollback_makes_a_new_commit_with_the_old_tree() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save("feedback", "lint", "Lint first", "Lint.");
    let dir = env.memory_dir();
    let target = git(&dir, &["rev-parse", "HEAD"]).trim().to_string();
    env.save("user", "role", "Backend and Rust", "Backend, Rust.");
    env.ok(&["rm", "lint"]);
    env.save("project", "ci", "CI on push", "CI.");
    let before = subjects(&dir).len();

    // It says what it added, changed and removed (it used to say only the commit).
    let run = env.ok(&["rollback", &target[..10]]);
    insta::assert_snapshot!("rollback_plain", run.stdout);
    assert_eq!(
        git(&dir, &["diff", &target, "HEAD"]),
        "",
        "the tree equals REV's"
    );
    assert_eq!(
        subjects(&dir).len(),
        before + 1,
        "history is never rewritten"
    );
    assert!(subjects(&dir)[0].starts_with("rollback(commit): "));
    assert_eq!(
        std::fs::read_to_string(dir.join("role.md")).expect("role"),
        git(&dir, &["show", &format!("{target}:role.md")])
    );
    assert!(dir.join("lint.md").is_file() && !dir.join("ci.md").exists());
    assert_git_clean(&dir);
    // Going back to where it already is changes nothing.
    assert!(
        env.ok(&["rollback", "HEAD"])
            .stdout
            .contains("nothing to change")
    );
    assert_eq!(subjects(&dir).len(), before + 1);
    let json = env.ok(&["rollback", "HEAD~1", "--json"]).json();
    assert_eq!(json["target"], git(&dir, &["rev-parse", "HEAD~2"]).trim());
    assert_eq!(
        json["commits"][0]["commit"],
        git(&dir, &["rev-parse", "HEAD"]).trim()
    );
    let changes: Vec<String> = json["memories"]
        .as_array()
        .expect("memories")
        .iter()
        .map(|m| format!("{} {} {}", m["change"], m["file"], m["type"]))
        .collect();
    assert_eq!(
        changes,
        [
            r#""added" "ci.md" "project""#,
            r#""removed" "lint.md" "feedback""#,
            r#""changed" "role.md" "user""#
        ]
    );
    assert_git_clean(&dir);
    // An unknown revision is bad input.
    env.fails(
        &["rollback", "no-such-rev"],
        2,
        "no commit named \"no-such-rev\"",
    );
}

#[test]
fn restore_brings_back_a_deleted_memory_byte_for_byte() {
    let env = TestEnv::new();
    env.ok(&[
        "save",
        "--type",
        "feedback",
        "--name",
        "lint",
        "--description",
        "Lint first",
        "--title",
        "Lint rule",
        "--body",
        "Lint.\n\n**Why:** CI.",
    ]);
    let dir = env.memory_dir();
    let saved = std::fs::read_to_string(dir.join("lint.md")).expect("lint");
    let at = git(&dir, &["rev-parse", "HEAD"]).trim().to_string();
    env.save(
        "feedback",
        "lint",
        "Lint before every commit",
        "Lint always.",
    );
    env.save("user", "role", "Backend engineer", "Backend.");
    env.ok(&["rm", "lint"]);

    env.ok(&["restore", "lint"]);
    assert_eq!(subjects(&dir)[0], "restore(feedback): lint");
    assert_eq!(
        std::fs::read_to_string(dir.join("lint.md")).expect("restored"),
        git(&dir, &["show", "HEAD~2:lint.md"]),
        "as it was just before it was deleted"
    );
    assert!(
        std::fs::read_to_string(dir.join("MEMORY.md"))
            .expect("index")
            .contains("- [Lint rule](lint.md) — Lint before every commit")
    );
    assert_git_clean(&dir);

    // --at an older commit, after deleting it again.
    env.ok(&["rm", "lint"]);
    env.ok(&["restore", "lint", "--at", &at]);
    assert_eq!(
        std::fs::read_to_string(dir.join("lint.md")).expect("restored"),
        saved
    );
    assert_git_clean(&dir);

    env.fails(&["restore", "lint"], 2, "lint exists");
    env.fails(&["restore", "never-saved"], 2, "never saved");
}

#[test]
fn show_at_and_log_filters() {
    let mut env = TestEnv::new();
    env.ok(&[
        save_args("user", "role", "Backend engineer", "Backend."),
        vec!["--session", "s1"],
    ]
    .concat());
    env.set_var("GIT_COMMITTER_DATE", "2026-04-01T10:00:00+00:00");
    env.ok(&[
        save_args("user", "role", "Backend and Rust", "Backend, Rust."),
        vec!["--session", "s2"],
    ]
    .concat());
    env.save("feedback", "lint", "Lint first", "Lint.");

    let old = env.ok(&["show", "role", "--at", "HEAD~2"]);
    assert!(old.stdout.ends_with("---\nBackend.\n"), "{}", old.stdout);
    assert_eq!(
        env.ok(&["show", "role", "--at", "HEAD~2", "--json"]).json()["description"],
        "Backend engineer"
    );
    env.fails(
        &["show", "lint", "--at", "HEAD~2"],
        2,
        "no memory named \"lint (at ",
    );

    let names = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["log", "--json"];
        all.extend_from_slice(args);
        env.ok(&all)
            .json()
            .as_array()
            .expect("array")
            .iter()
            .map(|e| {
                format!(
                    "{}:{}",
                    e["op"].as_str().unwrap_or(""),
                    e["name"].as_str().unwrap_or("")
                )
            })
            .collect()
    };
    assert_eq!(names(&["--op", "update"]), ["update:role"]);
    assert_eq!(names(&["--session", "s1"]), ["save:role"]);
    assert_eq!(
        names(&["--since", "2026-03-31"]),
        ["save:lint", "update:role"]
    );
    assert_eq!(
        names(&["--since", "2026-04-01T10:00:01+00:00"]),
        Vec::<String>::new()
    );
    env.fails(&["log", "--since", "yesterday"], 2, "neither a date");
}

#[test]
fn diff_shows_changes_per_memory_index_last() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save("feedback", "lint", "Lint first", "Lint.");
    env.save("user", "role", "Backend and Rust", "Backend, Rust.");
    let dir = env.memory_dir();

    let one = env.ok(&["diff", "HEAD~1"]);
    assert!(
        one.stdout.starts_with("--- a/role.md\n+++ b/role.md\n@@"),
        "{}",
        one.stdout
    );
    assert!(
        one.stdout.contains("-Backend.\n+Backend, Rust.\n"),
        "{}",
        one.stdout
    );
    let index_at = one.stdout.find("--- a/MEMORY.md").expect("index diff");
    assert!(
        index_at > one.stdout.find("+++ b/role.md").expect("role diff"),
        "index last"
    );
    assert!(
        one.stdout
            .contains("+- [Role](role.md) — Backend and Rust\n"),
        "{}",
        one.stdout
    );

    let two = env.ok(&["diff", "HEAD~2", "HEAD~1", "--json"]).json();
    assert_eq!(two[0]["file"], "lint.md");
    assert_eq!(two[0]["status"], "added");
    assert_eq!(two[1]["file"], "MEMORY.md");

    // No REV: what the work tree holds that HEAD does not.
    assert_eq!(env.ok(&["diff"]).stdout, "");
    std::fs::remove_file(dir.join("lint.md")).expect("rm");
    let pending = env.ok(&["diff", "--json"]).json();
    assert_eq!(pending[0]["status"], "deleted");
    assert!(
        pending[0]["diff"]
            .as_str()
            .is_some_and(|d| d.contains("-Lint."))
    );
}

#[test]
fn list_tells_when_each_memory_was_saved() {
    let mut env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.set_var("GIT_COMMITTER_DATE", "2026-04-01T12:00:00+02:00");
    env.save("feedback", "lint", "Lint first", "Lint.");
    let list = env.ok(&["list", "--json"]).json();
    assert_eq!(list[0]["saved"], "2026-03-05T10:00:00+00:00");
    assert_eq!(list[1]["saved"], "2026-04-01T12:00:00+02:00");
    let plain = env.ok(&["list"]).stdout;
    assert!(
        plain
            .lines()
            .all(|l| l.contains("(saved ") && l.ends_with(" ago)")),
        "{plain}"
    );
}

/// `log` as git sees it: each first-parent commit's id and subject, newest first.
fn git_log(dir: &std::path::Path) -> Vec<(String, String)> {
    git(dir, &["log", "--first-parent", "--format=%H %s"])
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(id, s)| (id.to_string(), s.to_string()))
        .collect()
}

/// `log --json` as memdir sees it, in the same shape.
fn memdir_log(env: &TestEnv) -> Vec<(String, String)> {
    env.ok(&["log", "--json"])
        .json()
        .as_array()
        .expect("array")
        .iter()
        .map(|e| {
            (
                e["commit"].as_str().unwrap_or("").to_string(),
                e["subject"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The history cache (`.git/memdir/history`) is only ever a faster way to the same answer:
/// after saves, an adoption, a rollback, a history rewritten with git, a torn cache and a
/// deleted one, `log` and `list`'s ages say what git says.
#[test]
fn the_history_cache_follows_every_change_to_history() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    let cache = dir.join(".git/memdir/history");
    let agrees = |when: &str| {
        let ours = memdir_log(&env);
        let theirs = git_log(&dir);
        assert_eq!(ours.len(), theirs.len(), "{when}: {ours:?} vs {theirs:?}");
        for ((id, subject), (git_id, git_subject)) in ours.iter().zip(&theirs) {
            assert_eq!(id, git_id, "{when}");
            assert!(
                git_subject.starts_with(subject.trim_end_matches("()")),
                "{when}: {subject} vs {git_subject}"
            );
        }
        assert_git_clean(&dir);
    };
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save("feedback", "lint", "Lint first", "Lint.");
    agrees("after two saves");
    assert!(cache.is_file(), "a read makes the cache");

    // Saves append their line: the cache's last line is HEAD without any read.
    env.save("project", "deploy", "Deploys on Fridays", "Fridays.");
    let head = git(&dir, &["rev-parse", "HEAD"]);
    let text = std::fs::read_to_string(&cache).expect("cache");
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with(head.trim())),
        "{text}"
    );
    agrees("after an appended save");

    // An agent's own write, adopted; then a rollback.
    std::fs::write(
        dir.join("agent-note.md"),
        "---\nname: agent-note\ndescription: Written by the agent\ntype: project\n---\nNote.\n",
    )
    .expect("write");
    let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    index.push_str("- [Agent note](agent-note.md) — written by the agent\n");
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    env.ok(&["snapshot"]);
    agrees("after an adoption");
    env.ok(&["rollback", "HEAD~2"]);
    agrees("after a rollback");

    // History rewritten behind memdir's back: the cache's tip is no longer in it.
    git(&dir, &["reset", "-q", "--hard", "HEAD~3"]);
    agrees("after git reset");
    env.save("user", "editor", "Uses Helix", "Helix.");
    agrees("after a save on the rewritten history");

    // A torn cache, then none at all.
    let text = std::fs::read_to_string(&cache).expect("cache");
    std::fs::write(&cache, &text[..text.len() / 2]).expect("tear");
    agrees("after a torn cache");
    std::fs::remove_file(&cache).expect("remove");
    agrees("after the cache was deleted");
    let list = env.ok(&["list", "--json"]).json();
    assert!(
        list.as_array()
            .expect("array")
            .iter()
            .all(|m| m["saved"].is_string()),
        "{list}"
    );
}

/// After team syncs (fast-forwards and merges of what teammates pushed), team `log` reads the
/// cache and still says what git says: every commit, each before its parents, and with
/// `--first-parent` the commits made on the branch.
#[test]
fn the_history_cache_follows_team_syncs() {
    let root = tempfile::tempdir().expect("tempdir");
    let remote = bare_remote(root.path());
    let (a, b) = (Mate::join(&remote), Mate::join(&remote));
    let log_of = |mate: &Mate, first_parent: bool| -> Vec<String> {
        let mut args = vec!["log", "--team", "--json"];
        if first_parent {
            args.push("--first-parent");
        }
        mate.env
            .ok(&args)
            .json()
            .as_array()
            .expect("array")
            .iter()
            .map(|e| e["commit"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let agrees = |mate: &Mate, when: &str| {
        let first_parent: Vec<String> = git(&mate.team, &["log", "--first-parent", "--format=%H"])
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(log_of(mate, true), first_parent, "{when}");
        let all = log_of(mate, false);
        let mut theirs: Vec<String> = git(&mate.team, &["log", "--format=%H"])
            .lines()
            .map(str::to_string)
            .collect();
        let mut ours = all.clone();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{when}: every commit");
        for (n, commit) in all.iter().enumerate() {
            for parent in git(&mate.team, &["rev-parse", &format!("{commit}^@")]).lines() {
                let at = all.iter().position(|c| c == parent).expect("parent listed");
                assert!(at > n, "{when}: {parent} listed before its child {commit}");
            }
        }
    };
    a.save("deploy", "Deploys on Fridays.");
    a.sync();
    b.save("style", "Tabs, not spaces.");
    agrees(&b, "before b's sync");
    b.sync(); // a merge of a's work
    agrees(&b, "after a merge");
    a.sync(); // a fast-forward to b's merge
    agrees(&a, "after a fast-forward");
    assert_git_clean(&a.team);
    assert_git_clean(&b.team);
}
