//! The operation log and its undo stack (DESIGN §14, issue 28): `undo` walks back one operation
//! further each time, `redo` walks forward, `op log` lists them, `undo --session` takes back
//! what one session wrote, an extraction run and a sync merge are one operation each; every
//! step a new commit that says what it changed. Checked with the real git.

use std::path::Path;

use crate::common::{Mate, TestEnv, assert_git_clean, bare_remote, git, save_args, subjects};
use crate::extract::Transcript;

/// The topic files of the memory dir and the files its index names, each sorted.
fn memories(dir: &Path) -> (Vec<String>, Vec<String>) {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("memory dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n != "MEMORY.md")
        .collect();
    files.sort();
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).unwrap_or_default();
    let mut linked: Vec<String> = index
        .lines()
        .filter_map(|l| {
            l.split_once("](")?
                .1
                .split_once(')')
                .map(|(f, _)| f.to_string())
        })
        .collect();
    linked.sort();
    (files, linked)
}

/// The memory files the memory dir holds, and the same list from its index.
fn holds(dir: &Path, names: &[&str]) {
    let want: Vec<String> = names.iter().map(|n| format!("{n}.md")).collect();
    assert_eq!(memories(dir), (want.clone(), want), "in {}", dir.display());
}

/// The case: after saving a, b, c, `undo` three times takes back c, b, a in turn (it
/// used to toggle c), `redo` brings a and b back, a new save ends the redo stack; every step is
/// a new commit and says what it changed.
#[test]
fn undo_walks_back_one_operation_at_a_time_and_redo_walks_forward() {
    let env = TestEnv::new();
    for name in ["a", "b", "c"] {
        env.save("user", name, &format!("About {name}"), &format!("{name}."));
    }
    let dir = env.memory_dir();
    let mut printed = String::new();
    let mut step = |args: &[&str], want: &[&str]| {
        let run = env.ok(args);
        printed.push_str(&format!("$ memdir {}\n{}", args.join(" "), run.stdout));
        holds(&dir, want);
        assert_git_clean(&dir);
    };
    step(&["undo"], &["a", "b"]);
    step(&["undo"], &["a"]);
    step(&["undo"], &[]);
    env.fails(&["undo"], 2, "nothing to undo: every operation is undone");
    step(&["redo"], &["a"]);
    step(&["redo"], &["a", "b"]);
    insta::assert_snapshot!(printed);
    // History is never rewritten: three saves, three undos, two redos.
    assert_eq!(subjects(&dir).len(), 8);
    assert_eq!(
        subjects(&dir)[..3],
        [
            "redo(op): save(user): b",
            "redo(op): save(user): a",
            "undo(op): save(user): a"
        ]
    );

    // A new operation ends the redo stack; undo goes on from there.
    env.save("project", "d", "About d", "d.");
    env.fails(&["redo"], 2, "nothing to redo");
    env.ok(&["undo"]);
    holds(&dir, &["a", "b"]);
    env.ok(&["undo"]);
    holds(&dir, &["a"]);
    assert_git_clean(&dir);
}

/// Undo takes back an update (the memory as it was) and a removal (the memory and its index
/// line where it stood); what is pending is adopted first, as its own operation, and kept.
#[test]
fn undo_takes_back_updates_and_removals_and_keeps_pending_work() {
    let env = TestEnv::new();
    for name in ["a", "b", "c"] {
        env.save("user", name, &format!("About {name}"), &format!("{name}."));
    }
    let dir = env.memory_dir();
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    let b = std::fs::read_to_string(dir.join("b.md")).expect("b");
    env.save("user", "b", "About b, updated", "b, updated.");
    env.ok(&["rm", "b"]);
    let undone = env.ok(&["undo"]).stdout;
    insta::assert_snapshot!("undo_of_a_removal", undone);
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        index.replace("About b", "About b, updated"),
        "the line is back where it stood"
    );
    env.ok(&["undo"]);
    assert_eq!(std::fs::read_to_string(dir.join("b.md")).expect("b"), b);
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        index
    );

    // An agent's edit, pending: adopted first, and undo takes back the operation before it.
    let a = std::fs::read_to_string(dir.join("a.md")).expect("a");
    std::fs::write(
        dir.join("a.md"),
        a.replace("a.\n", "a, edited by the agent.\n"),
    )
    .expect("edit");
    let run = env.ok(&["undo"]);
    insta::assert_snapshot!("undo_adopts_pending_work_first", run.stdout);
    holds(&dir, &["a", "b"]);
    assert!(
        std::fs::read_to_string(dir.join("a.md"))
            .expect("a")
            .contains("edited by the agent")
    );
    assert_git_clean(&dir);
}

/// `op log` lists the operations newest first with their state; `-n` limits, `--json` has the
/// vocabulary's fields.
#[test]
fn op_log_lists_operations_and_what_is_undone() {
    let env = TestEnv::new();
    env.ok(&[
        save_args("user", "a", "About a", "a."),
        vec!["--session", "s1"],
    ]
    .concat());
    env.save("user", "b", "About b", "b.");
    env.ok(&["rm", "a"]);
    env.ok(&["undo"]);
    env.ok(&["undo"]);
    env.ok(&["redo"]);
    let dir = env.memory_dir();
    insta::assert_snapshot!(env.ok(&["op", "log"]).stdout);
    assert_eq!(env.ok(&["op", "log", "-n", "2"]).stdout.lines().count(), 2);
    let json = env.ok(&["op", "log", "--json"]).json();
    let ops = json.as_array().expect("array");
    assert_eq!(ops.len(), 6);
    let head = git(&dir, &["rev-parse", "HEAD"]);
    assert_eq!(ops[0]["commit"], head.trim());
    assert_eq!(ops[0]["kind"], "redo");
    assert_eq!(ops[1]["redone"], true);
    assert_eq!(ops[2]["kind"], "undo");
    assert_eq!(ops[3]["description"], "delete(user): a");
    assert_eq!(ops[3]["undone"], true);
    assert_eq!(ops[2]["undoes"][0], ops[3]["operation"]);
    assert_eq!(ops[5]["session"], "s1");
    assert_eq!(ops[5]["author"], "memdir <memdir@localhost>");
    assert_eq!(ops[5]["time"], "2026-03-05T10:00:00+00:00");
    assert_eq!(ops[0]["redoes"], ops[1]["operation"]);
    // Nothing yet: an empty log, not an error.
    let fresh = TestEnv::new();
    assert_eq!(fresh.ok(&["op", "log"]).stdout, "");
    fresh.fails(
        &["undo"],
        2,
        "nothing to undo: the memory dir has no commits",
    );
}

/// `undo --session ID` takes back everything one session wrote and nothing else, in one
/// commit; `redo` brings it all back. `--json` returns the commit and the memories changed.
#[test]
fn undo_session_takes_back_what_one_session_wrote() {
    let env = TestEnv::new();
    let with = |name: &str, session: &str| {
        let description = format!("About {name}");
        let mut args = save_args("project", name, &description, "x.");
        args.extend(["--session", session]);
        env.ok(&args);
    };
    with("one", "s1");
    with("two", "s2");
    with("three", "s1");
    env.save("project", "four", "About four", "four.");
    let dir = env.memory_dir();
    let before = subjects(&dir).len();
    let json = env.ok(&["undo", "--session", "s1", "--json"]).json();
    holds(&dir, &["four", "two"]);
    assert_eq!(subjects(&dir).len(), before + 1, "one commit");
    let commit = &json["commits"][0];
    assert_eq!(json["commits"].as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!(commit["commit"], git(&dir, &["rev-parse", "HEAD"]).trim());
    assert_eq!(commit["time"], "2026-03-05T10:00:00+00:00");
    assert_eq!(commit["author"], "memdir <memdir@localhost>");
    let changed: Vec<(String, String, String, String)> = json["memories"]
        .as_array()
        .expect("memories")
        .iter()
        .map(|m| {
            let field = |k: &str| m[k].as_str().unwrap_or_default().to_string();
            (field("name"), field("type"), field("file"), field("change"))
        })
        .collect();
    assert_eq!(
        changed,
        [
            (
                "one".into(),
                "project".into(),
                "one.md".into(),
                "removed".into()
            ),
            (
                "three".into(),
                "project".into(),
                "three.md".into(),
                "removed".into()
            ),
        ]
    );
    assert_eq!(json["operations"].as_array().map(Vec::len), Some(2));
    assert_eq!(subjects(&dir)[0], "undo(session): s1");
    assert_git_clean(&dir);
    env.fails(
        &["undo", "--session", "s1"],
        2,
        "session s1 has no operation",
    );
    env.fails(
        &["undo", "--session", "nobody"],
        2,
        "session nobody has no operation",
    );

    let redo = env.ok(&["redo"]).stdout;
    insta::assert_snapshot!("redo_of_a_session", redo);
    holds(&dir, &["four", "one", "three", "two"]);
    assert_git_clean(&dir);
}

/// An extraction run that saves several memories is one operation: `undo` takes the whole run
/// back, and so does `undo --session` with the run's session.
#[test]
fn an_extraction_run_is_one_operation() {
    let env = TestEnv::new();
    env.save("user", "mine", "Mine", "Saved by hand.");
    let file = env.root.join("s1.jsonl");
    let mut t = Transcript::new("s1", &env.project);
    t.user("From now on, always run cargo fmt before committing.")
        .assistant("Will do.")
        .user("Our roadmap board is https://linear.app/acme/project/ingest, check it before planning.")
        .assistant("Noted.");
    t.write(&file);
    let report = env
        .ok(&[
            "extract",
            "--transcript",
            file.to_str().expect("utf-8"),
            "--json",
        ])
        .json();
    let saved = report["outcomes"].as_array().map_or(0, Vec::len);
    assert!(saved >= 2, "the run saves several memories: {report}");
    let dir = env.memory_dir();
    let ops = env.ok(&["op", "log", "--json"]).json();
    assert_eq!(ops[0]["kind"], "extract");
    assert_eq!(ops[0]["description"], "extract: session s1");
    assert_eq!(ops[0]["session"], "s1");
    assert_eq!(ops[0]["commits"].as_array().map(Vec::len), Some(saved));
    assert_eq!(ops[1]["description"], "save(user): mine");

    let run = env.ok(&["undo"]).stdout;
    assert!(run.starts_with("undid extract: session s1\n"), "{run}");
    holds(&dir, &["mine"]);
    assert_git_clean(&dir);
    env.ok(&["redo"]);
    assert_eq!(memories(&dir).0.len(), 1 + saved);
    env.ok(&["undo", "--session", "s1"]);
    holds(&dir, &["mine"]);
    assert_git_clean(&dir);
}

/// `doctor --fix`'s repairs are one operation (what it adopts aside): one undo takes them back.
#[test]
fn a_doctor_fix_is_one_operation() {
    let env = TestEnv::new();
    env.save("user", "role", "Backend engineer", "Backend.");
    let dir = env.memory_dir();
    for name in ["one", "two"] {
        std::fs::write(
            dir.join(format!("{name}.md")),
            format!("---\nname: {name}\ndescription: About {name}\ntype: project\n---\n{name}.\n"),
        )
        .expect("orphan");
    }
    env.ok(&["doctor", "--fix"]);
    holds(&dir, &["one", "role", "two"]);
    let ops = env.ok(&["op", "log", "--json"]).json();
    assert_eq!(ops[0]["kind"], "doctor");
    assert_eq!(ops[0]["commits"].as_array().map(Vec::len), Some(2));
    env.ok(&["undo"]);
    holds(&dir, &["role"]);
    assert_git_clean(&dir);
}

/// Team memory uses the same machinery: a sync's merge is an operation of the team repository
/// and `undo` takes it back to what this clone had; `log --team` follows every parent and shows
/// who made each change (the teammate-B case), and merged memories have an age.
#[test]
fn a_team_merge_is_an_operation_and_teammates_show_in_log() {
    let root = tempfile::tempdir().expect("tempdir");
    let remote = bare_remote(root.path());
    let mut a = Mate::join(&remote);
    a.env.set_var("GIT_AUTHOR_NAME", "Ada");
    a.env.set_var("GIT_AUTHOR_EMAIL", "ada@example.com");
    let mut b = Mate::join(&remote);
    b.env.set_var("GIT_AUTHOR_NAME", "Bo");
    b.env.set_var("GIT_AUTHOR_EMAIL", "bo@example.com");
    a.save("deploy", "Deploys on Fridays.");
    a.sync();
    b.save("style", "Tabs, not spaces.");
    b.sync(); // merges a's deploy
    assert!(b.team.join("deploy.md").is_file());

    // On b's machine, a's merged work shows, with its author.
    let log = b.env.ok(&["log", "--team", "deploy"]).stdout;
    insta::assert_snapshot!("team_log_names_the_teammate", log);
    let all = b.env.ok(&["log", "--team", "--json"]).json();
    let authors: Vec<&str> = all
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|e| e["author"].as_str())
        .collect();
    assert!(authors.contains(&"Ada <ada@example.com>") && authors.contains(&"Bo <bo@example.com>"));
    assert_eq!(
        b.env
            .ok(&["log", "--team", "--author", "ada"])
            .stdout
            .lines()
            .count(),
        1
    );
    let list = b.env.ok(&["list", "--team", "--json"]).json();
    assert!(
        list.as_array()
            .expect("array")
            .iter()
            .all(|m| m["saved"] == "2026-03-05T10:00:00+00:00"),
        "{list}"
    );
    assert_eq!(
        b.env.ok(&["show", "deploy", "--team", "--json"]).json()["saved"],
        "2026-03-05T10:00:00+00:00"
    );

    // The merge is b's newest operation; undo takes it back to b's side.
    let ops = b.env.ok(&["op", "log", "--team", "--json"]).json();
    assert_eq!(ops[0]["kind"], "sync");
    let run = b.env.ok(&["undo", "--team"]).stdout;
    insta::assert_snapshot!("undo_of_a_team_merge", run);
    assert!(!b.team.join("deploy.md").exists() && b.team.join("style.md").is_file());
    assert_git_clean(&b.team);
    b.env.ok(&["redo", "--team"]);
    assert!(b.team.join("deploy.md").is_file());
    assert_git_clean(&b.team);
}

/// The stack is in git: a clone made with the real git, and a store whose history cache is
/// gone, read the same operations, the same undone, and the clone's `undo` goes on from there.
#[test]
fn the_undo_stack_lives_in_git_and_travels_with_it() {
    let env = TestEnv::new();
    for name in ["a", "b", "c"] {
        env.save("user", name, &format!("About {name}"), &format!("{name}."));
    }
    env.ok(&["undo"]);
    env.ok(&["undo"]);
    env.ok(&["redo"]);
    let dir = env.memory_dir();
    let ops = env.ok(&["op", "log", "--json"]).json();
    std::fs::remove_file(dir.join(".git/memdir/history")).expect("cache");
    assert_eq!(env.ok(&["op", "log", "--json"]).json(), ops);

    let clone = env.root.join("clone");
    git(
        &env.root,
        &["clone", "-q", dir.to_str().expect("utf-8"), "clone"],
    );
    let there = clone.to_str().expect("utf-8");
    assert_eq!(
        env.ok(&["--memory-dir", there, "op", "log", "--json"])
            .json(),
        ops
    );
    env.ok(&["--memory-dir", there, "undo"]);
    holds(&clone, &["a"]);
    env.ok(&["--memory-dir", there, "redo"]);
    holds(&clone, &["a", "b"]);
    env.ok(&["--memory-dir", there, "redo"]);
    holds(&clone, &["a", "b", "c"]);
    assert_git_clean(&clone);
}
