//! `memdir consolidate` (DESIGN §7): the branch leaves HEAD, the index and the work tree as they
//! were; `--apply` is one commit `undo` takes back exactly; nothing removed is lost; an index
//! over Claude Code's limits ends well within them; team memory's branch is pushed for review;
//! the background run at a session's end and the next session's notice. The labelled sets are
//! `consolidate_quality.rs`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{Mate, TestEnv, assert_git_clean, bare_remote, git, wait_for};

const BRANCH: &str = "memdir/consolidate/2026-12-04";

/// One memory of each kind to consolidate, and two that differ only in their identifiers,
/// saved through 2026 (today is 2026-12-04).
const MEMORIES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "2026-01-05T10:00:00+00:00",
        "feedback",
        "lint-before-commit",
        "Always run make lint before committing; CI golangci-lint is strict about errcheck",
        "Always run `make lint` before committing. golangci-lint in CI is strict (errcheck, govet shadow).",
    ),
    (
        "2026-01-10T10:00:00+00:00",
        "project",
        "merge-freeze",
        "Merge freeze until 2026-01-15; hotfixes only",
        "Merge freeze on main until 2026-01-15. Only hotfixes, approved in #release.",
    ),
    (
        "2026-02-01T10:00:00+00:00",
        "reference",
        "oncall-paging-opsgenie",
        "Ledger on-call pages go through Opsgenie, team ledger-oncall",
        "Ledger on-call alerts page through Opsgenie (team `ledger-oncall`).",
    ),
    (
        "2026-03-01T10:00:00+00:00",
        "project",
        "component-c1",
        "component c1 talks to service s1",
        "Component c1 talks to service s1 over gRPC on port 9001.",
    ),
    (
        "2026-03-02T10:00:00+00:00",
        "project",
        "component-c2",
        "component c2 talks to service s2",
        "Component c2 talks to service s2 over gRPC on port 9002.",
    ),
    (
        "2026-05-04T10:00:00+00:00",
        "reference",
        "pagerduty-paging",
        "On-call paging moved to PagerDuty, service Ledger Primary",
        "On-call paging now goes through PagerDuty, service \"Ledger Primary\".",
    ),
    (
        "2026-06-01T10:00:00+00:00",
        "feedback",
        "make-lint-and-fmt",
        "run make fmt + make lint before commits, CI fails on errcheck otherwise",
        "before any commit: `make fmt` (gofumpt) then `make lint`. CI fails on errcheck otherwise",
    ),
    (
        "2026-11-20T10:00:00+00:00",
        "project",
        "sharding-rfc-due",
        "Ines wants the sharding RFC draft in two weeks",
        "Ines wants a first draft of the sharding RFC in two weeks. Reviewers: Tomasz and Yuki.",
    ),
];

fn store() -> TestEnv {
    let mut env = TestEnv::new();
    env.set_var("MEMDIR_TODAY", "2026-12-04");
    for (time, kind, name, description, body) in MEMORIES {
        env.save_at(time, kind, name, description, body, None);
    }
    env
}

/// The memory dir's files (not `.git`), by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("memory dir")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).expect("read"))
        })
        .collect()
}

#[test]
fn the_branch_holds_one_commit_per_kind_and_head_index_and_work_tree_are_untouched() {
    let env = store();
    let dir = env.memory_dir();
    // A save an agent has not finished: the work tree is not HEAD's, and must stay so.
    std::fs::write(
        dir.join("draft-in-progress.md"),
        "---\nname: x\n---\nhalf\n",
    )
    .expect("write");
    let head = git(&dir, &["rev-parse", "HEAD"]);
    let index = std::fs::read(dir.join(".git/index")).expect("index");
    let work = files(&dir);
    let status = git(&dir, &["status", "--porcelain"]);

    let out = env.ok(&["consolidate", "--json"]).json();
    assert_eq!(out["branch"], BRANCH, "{out}");
    assert_eq!(out["outcome"], "created");
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]), head);
    assert_eq!(std::fs::read(dir.join(".git/index")).expect("index"), index);
    assert_eq!(files(&dir), work);
    assert_eq!(git(&dir, &["status", "--porcelain"]), status);
    git(&dir, &["fsck", "--strict", "--no-progress"]);

    let log = git(
        &dir,
        &[
            "log",
            "--reverse",
            "--format=%s|%(trailers:key=Memdir-Kind,valueonly)",
            &format!("HEAD..{BRANCH}"),
        ],
    );
    let kinds: Vec<&str> = log.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(
        kinds,
        [
            "consolidate: make relative dates absolute (1)|relative-dates",
            "consolidate: merge duplicates (1)|duplicates",
            "consolidate: drop expired time-bound memories (1)|expired",
            "consolidate: replace contradicted values (1)|contradicted",
        ]
    );
    let show = |file: &str| git(&dir, &["show", &format!("{BRANCH}:{file}")]);
    let merged = show("lint-before-commit.md");
    for detail in ["gofumpt", "govet shadow", "golangci-lint", "make fmt"] {
        assert!(merged.contains(detail), "{detail}: {merged}");
    }
    assert!(show("sharding-rfc-due.md").contains("by 2026-12-04"));
    let tree = git(&dir, &["ls-tree", "--name-only", BRANCH]);
    for gone in [
        "make-lint-and-fmt.md",
        "merge-freeze.md",
        "oncall-paging-opsgenie.md",
    ] {
        assert!(!tree.lines().any(|l| l == gone), "{gone} is still there");
    }
    // Memories that differ only in their identifiers are two facts.
    for kept in ["component-c1.md", "component-c2.md", "pagerduty-paging.md"] {
        assert!(tree.lines().any(|l| l == kept), "{kept} was removed");
    }
    let index_there = show("MEMORY.md");
    assert!(!index_there.contains("merge-freeze.md") && index_there.contains("component-c2.md"));

    // `memdir diff` shows it; preparing again on an unchanged store changes nothing.
    let diff = env.ok(&["diff", "HEAD", BRANCH]).stdout;
    assert!(
        diff.contains("-Merge freeze on main until 2026-01-15."),
        "{diff}"
    );
    let tip = git(&dir, &["rev-parse", BRANCH]);
    let again = env.ok(&["consolidate", "--json"]).json();
    assert_eq!(again["outcome"], "unchanged");
    assert_eq!(git(&dir, &["rev-parse", BRANCH]), tip);
}

#[test]
fn apply_is_one_commit_that_undo_takes_back_exactly_and_nothing_removed_is_lost() {
    let env = store();
    let dir = env.memory_dir();
    let before = files(&dir);
    let out = env.ok(&["consolidate", "--apply", "--json"]).json();
    let commit = out["applied"]["commit"]
        .as_str()
        .expect("applied")
        .to_string();
    assert_git_clean(&dir);
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]).trim(), commit);
    let parents = git(&dir, &["log", "-1", "--format=%P"]);
    assert_eq!(parents.split_whitespace().count(), 2, "a merge: {parents}");
    let after = files(&dir);
    assert!(!after.contains_key("merge-freeze.md") && !after.contains_key("make-lint-and-fmt.md"));
    let changed: Vec<&str> = out["changed"]
        .as_array()
        .expect("changed")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert_eq!(
        changed,
        [
            "lint-before-commit",
            "make-lint-and-fmt",
            "merge-freeze",
            "oncall-paging-opsgenie",
            "sharding-rfc-due"
        ]
    );

    assert_eq!(out["commit"], commit.as_str());
    let memories: Vec<(String, String, String)> = out["memories"]
        .as_array()
        .expect("memories")
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap_or_default().to_string(),
                m["type"].as_str().unwrap_or_default().to_string(),
                m["change"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> = [
        ("lint-before-commit", "feedback", "changed"),
        ("make-lint-and-fmt", "feedback", "removed"),
        ("merge-freeze", "project", "removed"),
        ("oncall-paging-opsgenie", "reference", "removed"),
        ("sharding-rfc-due", "project", "changed"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(memories, expected);

    // Every removed text is still in history: git's log -p and memdir's search --history.
    let patch = git(&dir, &["log", "-p", "--first-parent", "-m"]);
    assert!(
        patch.contains("-Merge freeze on main until 2026-01-15."),
        "log -p"
    );
    let found = env
        .ok(&["search", "--history", "--json", "merge freeze hotfixes"])
        .json();
    assert!(found.to_string().contains("merge-freeze"), "{found}");

    // One operation of the operation log, which undo takes back to the exact store (git's
    // trees compared), redo brings back, and the next undo goes on past.
    let ops = env.ok(&["op", "log", "--json", "-n", "1"]).json();
    assert_eq!(ops[0]["kind"], "consolidate", "{ops}");
    assert_eq!(ops[0]["commits"], serde_json::json!([commit]), "{ops}");
    let tree_of = |rev: &str| git(&dir, &["rev-parse", &format!("{rev}^{{tree}}")]);
    let (old_tree, new_tree) = (tree_of(&format!("{commit}^1")), tree_of(&commit));
    let undone = env.ok(&["undo", "--json"]).json();
    assert_eq!(
        undone["operations"][0]["operation"],
        commit.as_str(),
        "{undone}"
    );
    assert_eq!(tree_of("HEAD"), old_tree);
    assert_eq!(files(&dir), before);
    assert_git_clean(&dir);
    env.ok(&["redo"]);
    assert_eq!(tree_of("HEAD"), new_tree);
    assert_eq!(files(&dir), after);
    env.ok(&["undo"]);
    assert_eq!(files(&dir), before);
    let save = env.ok(&["undo", "--json"]).json();
    assert_eq!(
        save["memories"][0]["name"], "sharding-rfc-due",
        "the save before the consolidation: {save}"
    );
    assert_git_clean(&dir);
}

/// A person who merges the branch with git itself gets one operation too: `memdir undo`
/// takes the merge back.
#[test]
fn a_merge_made_with_git_is_undone_as_one_operation() {
    let env = store();
    let dir = env.memory_dir();
    let before = files(&dir);
    env.ok(&["consolidate"]);
    git(&dir, &["merge", "--no-ff", "--no-edit", BRANCH]);
    assert!(!files(&dir).contains_key("merge-freeze.md"));
    env.ok(&["undo"]);
    assert_eq!(files(&dir), before);
    assert_git_clean(&dir);
}

#[test]
fn an_index_over_claude_codes_limits_ends_well_within_them() {
    let env = TestEnv::new();
    env.ok(&["init"]);
    let dir = env.memory_dir();
    let mut index = String::new();
    for i in 0..240 {
        let name = format!("service-s{i}-owner");
        let description = format!(
            "Service s{i} is owned by team t{i}; page them through the on-call rota of group g{i} before changing its deploy config"
        );
        std::fs::write(
            dir.join(format!("{name}.md")),
            format!("---\nname: {name}\ndescription: {description}\ntype: project\n---\n{description}.\n"),
        )
        .expect("write");
        index.push_str(&format!(
            "- [Service s{i} owner]({name}.md) — {description}\n"
        ));
    }
    std::fs::write(dir.join("MEMORY.md"), &index).expect("index");
    env.ok(&["snapshot"]);
    assert!(env.ok(&["index"]).stdout.contains("WARNING: MEMORY.md is"));

    let out = env.ok(&["consolidate", "--apply", "--json"]).json();
    assert_eq!(out["commits"][0]["kind"], "index", "{out}");
    let loaded = env.ok(&["index"]).stdout;
    assert!(!loaded.contains("WARNING"), "{loaded}");
    let text = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    let lines = text.lines().count();
    let units = text.encode_utf16().count();
    assert!(
        lines <= 120 && units <= 15_000,
        "{lines} lines, {units} characters"
    );
    // Every memory's text is still there, folded.
    let all: String = files(&dir)
        .values()
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .collect();
    for i in 0..240 {
        assert!(
            all.contains(&format!("Service s{i} is owned by team t{i};")),
            "{i}"
        );
    }
    assert_git_clean(&dir);
    env.ok(&["doctor"]);
}

#[test]
fn the_report_a_person_reads() {
    let env = store();
    insta::assert_snapshot!(env.normalised(&env.ok(&["consolidate"]).stdout));
}

#[test]
fn nothing_to_consolidate_and_bad_requests_change_nothing() {
    let mut env = TestEnv::new();
    env.set_var("MEMDIR_TODAY", "2026-12-04");
    env.fails(&["consolidate"], 2, "no history yet");
    env.save("project", "one", "One fact", "One fact about the project.");
    let dir = env.memory_dir();
    let run = env.ok(&["consolidate"]);
    assert!(
        run.stdout.starts_with("Nothing to consolidate"),
        "{}",
        run.stdout
    );
    assert_eq!(git(&dir, &["branch", "--list", "memdir/*"]), "");
    env.set_var("MEMDIR_TODAY", "next week");
    env.fails(
        &["consolidate"],
        2,
        "MEMDIR_TODAY=\"next week\" is not a date",
    );
    env.set_var("MEMDIR_TODAY", "2026-12-04");
    env.set_var("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");
    env.fails(&["consolidate", "--apply"], 3, "auto memory is disabled");
}

#[test]
fn a_branch_someone_committed_to_is_never_replaced() {
    let env = store();
    let dir = env.memory_dir();
    env.ok(&["consolidate"]);
    // A reviewer adds a commit of their own on the branch.
    git(&dir, &["worktree", "add", "-q", "../review", BRANCH]);
    let review = dir.parent().expect("parent").join("review");
    std::fs::write(review.join("note.md"), "a note\n").expect("write");
    git(&review, &["add", "note.md"]);
    git(
        &review,
        &[
            "-c",
            "user.name=R",
            "-c",
            "user.email=r@x",
            "commit",
            "-qm",
            "reviewer's note",
        ],
    );
    git(&dir, &["worktree", "remove", "--force", "../review"]);
    let tip = git(&dir, &["rev-parse", BRANCH]);
    env.save_at(
        "2026-12-01T10:00:00+00:00",
        "project",
        "another",
        "Another fact",
        "Another fact.",
        None,
    );
    env.fails(&["consolidate"], 2, "not memdir's");
    assert_eq!(git(&dir, &["rev-parse", BRANCH]), tip);
    assert_git_clean(&dir);
}

#[test]
fn team_memorys_consolidation_is_pushed_to_the_team_remote_for_review() {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let mut mate = Mate::join(&remote);
    mate.env.set_var("MEMDIR_TODAY", "2026-12-04");
    for (time, kind, name, description, body) in &MEMORIES[..2] {
        let mut args = crate::common::save_args(kind, name, description, body);
        args.push("--team");
        let out = mate
            .env
            .command()
            .args(&args)
            .env("GIT_COMMITTER_DATE", time)
            .output()
            .expect("memdir runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    mate.sync();
    let out = mate.env.ok(&["--team", "consolidate", "--json"]).json();
    assert_eq!(out["pushed"], true, "{out}");
    let pushed = git(&remote, &["log", "--format=%s", BRANCH]);
    assert!(
        pushed.starts_with("consolidate: drop expired time-bound memories (1)"),
        "{pushed}"
    );
    // The team's main branch is as it was: the branch waits for review.
    assert!(git(&remote, &["ls-tree", "--name-only", "HEAD"]).contains("merge-freeze.md"));
    assert_git_clean(&mate.team);
}

#[test]
fn in_the_background_when_opted_in_a_session_end_prepares_it_and_the_next_session_hears_of_it() {
    let env = store();
    let dir = env.memory_dir();
    let transcript = env.root.join("t.jsonl");
    std::fs::write(&transcript, "").expect("transcript");
    let payload = |event: &str, session: &str| {
        serde_json::json!({
            "session_id": session,
            "transcript_path": transcript,
            "cwd": env.project,
            "hook_event_name": event,
            "source": "startup",
        })
        .to_string()
    };
    let state = dir.join(".git/memdir/consolidate.json");
    // Off by default: nothing counted, nothing prepared.
    env.run_with_stdin(&["extract", "--hook"], &payload("SessionEnd", "s1"));
    assert!(!state.exists());

    let settings = env.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().expect("config dir")).expect("mkdir");
    std::fs::write(
        &settings,
        r#"{"memdir": {"consolidate": {"sessions": 2, "hours": 0}}}"#,
    )
    .expect("settings");
    env.run_with_stdin(&["extract", "--hook"], &payload("SessionEnd", "s1"));
    let counted = std::fs::read_to_string(&state).expect("counted");
    assert!(
        counted.contains("s1") && !counted.contains("ready\": {"),
        "{counted}"
    );
    env.run_with_stdin(&["extract", "--hook"], &payload("SessionEnd", "s2"));
    wait_for(
        "the background consolidation",
        std::time::Duration::from_secs(60),
        || std::fs::read_to_string(&state).is_ok_and(|s| s.contains(BRANCH)),
    );
    assert!(git(&dir, &["branch", "--list", BRANCH]).contains(BRANCH));

    let start = env.run_with_stdin(&["recall", "--hook"], &payload("SessionStart", "s3"));
    assert_eq!(start.code, 0, "{}", start.stderr);
    let answer = start.json();
    let notice = answer["systemMessage"].as_str().expect("a notice");
    assert!(
        notice.contains(BRANCH) && notice.contains("memdir consolidate --apply"),
        "{notice}"
    );
    assert!(
        answer["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .is_some_and(|c| c.contains(notice))
    );
    // Once a session.
    let again = env.run_with_stdin(&["recall", "--hook"], &payload("SessionStart", "s3"));
    assert!(!again.stdout.contains("consolidation"), "{}", again.stdout);
    // Applied, it is not announced again.
    env.ok(&["consolidate", "--apply"]);
    let after = env.run_with_stdin(&["recall", "--hook"], &payload("SessionStart", "s4"));
    assert!(!after.stdout.contains("consolidation"), "{}", after.stdout);
    assert_git_clean(&dir);
}

/// A scripted model for `--agent-cmd`: it keeps each request it is sent (`request-N.json`),
/// counts its calls (a line each in `calls`) and answers with `answer.json`, all in `at`.
fn scripted_model(at: &Path, answer: &serde_json::Value) -> String {
    std::fs::create_dir_all(at).expect("model dir");
    std::fs::write(at.join("answer.json"), answer.to_string()).expect("answer");
    let at = format!("'{}'", at.display().to_string().replace('\'', "'\\''"));
    format!(
        "n=$(( $(cat {at}/calls 2>/dev/null | wc -l) + 1 )); cat > {at}/request-$n.json && echo call >> {at}/calls && cat {at}/answer.json"
    )
}

fn calls(at: &Path) -> usize {
    std::fs::read_to_string(at.join("calls")).map_or(0, |c| c.lines().count())
}

/// By the model: one request with today and every memory; each action it answers is checked
/// as the rules' are, what breaks a rule or is no action is refused and said, and what passes
/// is on the branch. The builtin rules propose nothing then.
#[test]
fn a_model_proposes_through_the_protocol_and_memdir_checks_every_action() {
    let env = store();
    let dir = env.memory_dir();
    let model = env.root.join("model");
    let answer = serde_json::json!({"actions": [
        // Right: the same fact twice, merged keeping both memories' words.
        {"action": "merge", "names": ["lint-before-commit", "make-lint-and-fmt"], "into": "lint-before-commit",
         "description": "Always run make lint before committing; CI golangci-lint is strict about errcheck",
         "body": "Always run `make lint` before committing. golangci-lint in CI is strict (errcheck, govet shadow).\nrun make fmt + make lint before commits, CI fails on errcheck otherwise\nbefore any commit: `make fmt` (gofumpt) then `make lint`. CI fails on errcheck otherwise\n",
         "why": "the same rule"},
        // Right: expired, with the date it names.
        {"action": "drop", "name": "merge-freeze", "reason": "expired", "date": "2026-01-15"},
        // Right: paging moved to PagerDuty.
        {"action": "drop", "name": "oncall-paging-opsgenie", "reason": "superseded", "by": "pagerduty-paging"},
        // Wrong: a merge of two facts that loses one's port.
        {"action": "merge", "names": ["component-c1", "component-c2"], "into": "component-c1",
         "description": "components talk to services", "body": "Component c1 talks to service s1 over gRPC on port 9001. c2 talks to s2.\n"},
        // Wrong: superseded by an older memory; a drop with no rule's reason; no such memory;
        // no action at all.
        {"action": "drop", "name": "pagerduty-paging", "reason": "superseded", "by": "oncall-paging-opsgenie"},
        {"action": "drop", "name": "sharding-rfc-due", "reason": "unimportant"},
        {"action": "drop", "name": "nonesuch", "reason": "expired", "date": "2026-01-01"},
        {"action": "shell", "command": "rm -rf ~"}
    ]});
    let cmd = scripted_model(&model, &answer);
    let head = git(&dir, &["rev-parse", "HEAD"]);
    let run = env.ok(&["consolidate", "--json", "--agent-cmd", &cmd]);
    let out = run.json();
    assert_eq!(calls(&model), 1, "one call for a store this size");
    let request: serde_json::Value =
        serde_json::from_slice(&std::fs::read(model.join("request-1.json")).expect("request"))
            .expect("the request is JSON");
    assert_eq!(request["protocol"], "memdir-consolidate/1");
    assert_eq!(request["today"], "2026-12-04");
    let sent: Vec<&str> = request["memories"]
        .as_array()
        .expect("memories")
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert_eq!(sent.len(), MEMORIES.len(), "{sent:?}");
    assert_eq!(request["memories"][1]["saved"], "2026-01-10T10:00:00+00:00");

    assert_eq!(out["consolidator"], "agent", "{out}");
    assert_eq!(out["model"], "the agent command");
    assert_eq!(out["model_calls"], 1);
    let kinds: Vec<&str> = out["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .filter_map(|c| c["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["duplicates", "expired", "contradicted"], "{out}");
    // The builtin rules would also have made sharding-rfc-due's "in two weeks" absolute: the
    // model did not propose it, so it is not done.
    assert!(!out.to_string().contains("relative-dates"), "{out}");
    let refused: Vec<(String, String)> = out["refused"]
        .as_array()
        .expect("refused")
        .iter()
        .map(|r| {
            (
                r["what"].as_str().unwrap_or_default().to_string(),
                r["why"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(refused.len(), 5, "{refused:?}");
    for (what, why) in [
        (
            "the model's action 6",
            "a drop's reason must be expired or superseded",
        ),
        ("the model's action 8", "\"shell\" is not an action"),
        (
            "merging component-c1, component-c2 into component-c1",
            "loses what component-c2 said: 9002",
        ),
        ("dropping pagerduty-paging", "which is not a newer memory"),
        ("dropping nonesuch", "nonesuch: no such memory"),
    ] {
        assert!(
            refused.iter().any(|(w, y)| w == what && y.contains(why)),
            "{what}: {refused:?}"
        );
    }
    assert!(
        run.stderr
            .contains("warning: refused merging component-c1, component-c2 into component-c1"),
        "{}",
        run.stderr
    );
    let plain = env.ok(&["consolidate", "--agent-cmd", &cmd]).stdout;
    assert!(plain.starts_with("Already prepared"), "{plain}");
    assert!(
        plain.ends_with("\nConsolidator: agent: the agent command, 1 call(s).\n"),
        "{plain}"
    );
    let tip = out["commits"][2]["commit"].as_str().expect("tip");
    let message = git(&dir, &["log", "-1", "--format=%B", tip]);
    assert!(
        message.contains("Memdir-Proposed-By: the agent command"),
        "{message}"
    );
    let merged = git(&dir, &["show", &format!("{BRANCH}:lint-before-commit.md")]);
    assert!(
        merged.contains("gofumpt") && merged.contains("govet shadow"),
        "{merged}"
    );
    let tree = git(&dir, &["ls-tree", "--name-only", BRANCH]);
    for gone in [
        "make-lint-and-fmt.md",
        "merge-freeze.md",
        "oncall-paging-opsgenie.md",
    ] {
        assert!(!tree.contains(gone), "{gone}: {tree}");
    }
    for kept in [
        "component-c1.md",
        "component-c2.md",
        "pagerduty-paging.md",
        "sharding-rfc-due.md",
    ] {
        assert!(tree.contains(kept), "{kept}: {tree}");
    }
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]), head);
    assert_git_clean(&dir);
}

/// No model answering: `auto` (the default) proposes by the builtin rules and says why;
/// `--consolidator agent` fails and writes nothing; `builtin` asks no model.
#[test]
fn with_no_model_auto_falls_back_to_the_rules_and_agent_fails() {
    let env = store();
    let dir = env.memory_dir();
    let model = env.root.join("model");
    let broken = format!(
        "{}; echo 'not json'",
        scripted_model(&model, &serde_json::json!({}))
    );
    let out = env
        .ok(&["consolidate", "--json", "--agent-cmd", &broken])
        .json();
    assert_eq!(calls(&model), 1);
    assert_eq!(out["consolidator"], "builtin", "{out}");
    let fallback = out["fallback"].as_str().expect("fallback");
    assert!(
        fallback.starts_with("the agent command did not answer: the model's answer is not JSON"),
        "{fallback}"
    );
    assert_eq!(out["commits"].as_array().map(Vec::len), Some(4), "{out}");

    // Claude Code is not on this PATH: `agent` fails and the branch stays as it was; `auto`
    // says why it used the rules; `builtin` asks nothing.
    let tip = git(&dir, &["rev-parse", BRANCH]);
    env.fails(
        &["consolidate", "--consolidator", "agent"],
        1,
        "error: claude is not installed",
    );
    assert_eq!(git(&dir, &["rev-parse", BRANCH]), tip);
    let run = env.ok(&["consolidate"]);
    assert!(
        run.stdout.contains(
            "\nConsolidator: builtin (no model: claude is not installed (no `claude` on PATH)).\n"
        ),
        "{}",
        run.stdout
    );
    let quiet = env.root.join("quiet");
    let cmd = scripted_model(&quiet, &serde_json::json!({"actions": []}));
    env.fails(
        &[
            "consolidate",
            "--consolidator",
            "builtin",
            "--agent-cmd",
            &cmd,
        ],
        2,
        "--agent-cmd names the model, which --consolidator builtin does not use",
    );
    env.ok(&["consolidate", "--consolidator", "builtin"]);
    assert_eq!(calls(&quiet), 0);
    assert_git_clean(&dir);
}
