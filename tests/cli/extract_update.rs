//! An update never destroys a different fact (issue 27, DESIGN §6): with `oncall-runbook` ("On-call
//! runbook lives in Notion: Eng/Runbooks") saved, a session saying "the on-call rota is in
//! PagerDuty" must not replace it — neither by the builtin extractor nor by a model that answers
//! "update". A person correcting the fact still updates it. And `extract --dry-run` says what
//! would change and changes nothing.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{
    TestEnv, assert_git_clean, assert_index_consistent, git, subjects, tree_snapshot,
};
use crate::extract::{Transcript, cursor_offset};

const RUNBOOK_DESCRIPTION: &str = "On-call runbook lives in Notion: Eng/Runbooks";
const RUNBOOK_BODY: &str = "The on-call runbook lives in Notion under Eng/Runbooks.";

/// A memory dir holding `oncall-runbook`, and a session of one prompt.
fn runbook_and_session(prompt: &str) -> (TestEnv, std::path::PathBuf) {
    let mut env = TestEnv::new();
    env.set_var("PATH", &std::env::var("PATH").unwrap_or_default());
    env.save(
        "reference",
        "oncall-runbook",
        RUNBOOK_DESCRIPTION,
        RUNBOOK_BODY,
    );
    let file = env.root.join("s1.jsonl");
    Transcript::new("s1", &env.project)
        .user(prompt)
        .assistant("Noted.")
        .write(&file);
    (env, file)
}

/// A scripted model that answers with `actions`, then done (its answer kept in a file of
/// `env`'s).
fn answering(env: &TestEnv, actions: Value) -> String {
    let mut actions = actions.as_array().cloned().unwrap_or_default();
    actions.push(json!({"action": "done"}));
    let answer = env.root.join(format!("answer-{}.json", actions.len()));
    std::fs::write(&answer, json!({ "actions": actions }).to_string()).expect("answer");
    format!("cat >/dev/null; cat '{}'", answer.display())
}

/// `memdir extract --transcript FILE EXTRA…`: its plain output.
fn extract_plain(env: &TestEnv, file: &Path, extra: &[&str]) -> String {
    let mut args = vec!["extract", "--transcript", file.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    env.ok(&args).stdout
}

/// The same with `--json`: its report.
fn extract(env: &TestEnv, file: &Path, extra: &[&str]) -> Value {
    let mut extra = extra.to_vec();
    extra.push("--json");
    serde_json::from_str(&extract_plain(env, file, &extra)).expect("a JSON report")
}

fn runbook_is_untouched(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("oncall-runbook.md")).expect("oncall-runbook");
    assert!(
        text.contains(RUNBOOK_DESCRIPTION) && text.contains(RUNBOOK_BODY),
        "{text}"
    );
    let history = git(dir, &["log", "--format=%s", "--", "oncall-runbook.md"]);
    assert_eq!(history.trim(), "save(reference): oncall-runbook");
}

#[test]
fn the_builtin_extractor_keeps_a_different_fact_apart() {
    // The issue's own sentence: the precise fallback is not sure it is worth a memory, and
    // saves nothing; the runbook stays.
    let (env, file) = runbook_and_session("btw the on-call rota is in PagerDuty");
    let dir = env.memory_dir();
    let report = extract(&env, &file, &["--extractor", "builtin"]);
    assert_eq!(report["outcomes"], json!([]), "{report}");
    assert_eq!(report["messages"][0]["unsaved"], "nothing_to_remember");
    runbook_is_untouched(&dir);
    assert_git_clean(&dir);

    // Said so that it is sure: a memory of its own beside the runbook, never in its place.
    let (env, file) = runbook_and_session(
        "FYI the on-call rota lives in PagerDuty, under the Payments schedule.",
    );
    let dir = env.memory_dir();
    let report = extract(&env, &file, &["--extractor", "builtin"]);
    let outcomes = report["outcomes"].as_array().expect("outcomes");
    assert_eq!(outcomes.len(), 1, "{report}");
    assert_eq!(outcomes[0]["outcome"], "saved");
    assert_eq!(outcomes[0]["type"], "reference");
    let name = outcomes[0]["name"].as_str().expect("name");
    assert_ne!(name, "oncall-runbook", "{report}");
    runbook_is_untouched(&dir);
    let saved = std::fs::read_to_string(dir.join(format!("{name}.md"))).expect("its own file");
    assert!(saved.contains("PagerDuty"), "{saved}");
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    assert!(
        index.contains("(oncall-runbook.md) — On-call runbook lives in Notion")
            && index.contains(&format!("({name}.md)")),
        "{index}"
    );
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
}

#[test]
fn a_models_update_that_would_drop_a_different_fact_is_saved_as_a_memory_of_its_own() {
    let (env, file) = runbook_and_session("btw the on-call rota is in PagerDuty");
    let dir = env.memory_dir();
    let model = answering(
        &env,
        json!([{"action": "update", "name": "oncall-runbook", "type": "reference",
        "description": "On-call rota is in PagerDuty",
        "body": "The on-call rota is kept in PagerDuty."}]),
    );
    let report = extract(
        &env,
        &file,
        &["--extractor", "agent", "--agent-cmd", &model],
    );
    let outcomes = report["outcomes"].as_array().expect("outcomes");
    assert_eq!(outcomes.len(), 1, "{report}");
    let saved = &outcomes[0];
    assert_eq!(saved["outcome"], "saved");
    assert_eq!(saved["not_updated"], "oncall-runbook");
    assert!(
        saved["why"].as_str().is_some_and(
            |w| w.contains("notion") && w.contains("nothing said in the session corrects that")
        ),
        "{saved}"
    );
    let name = saved["name"].as_str().expect("a name");
    assert_ne!(name, "oncall-runbook");
    let apart = std::fs::read_to_string(dir.join(format!("{name}.md"))).expect("its own file");
    assert!(
        apart.contains("The on-call rota is kept in PagerDuty."),
        "{apart}"
    );
    runbook_is_untouched(&dir);
    assert_eq!(
        subjects(&dir),
        [
            format!("save(reference): {name}"),
            "save(reference): oncall-runbook".to_string()
        ]
    );
    // Plain output says so too.
    let (env, file) = runbook_and_session("btw the on-call rota is in PagerDuty");
    let plain = extract_plain(
        &env,
        &file,
        &["--extractor", "agent", "--agent-cmd", &model],
    );
    insta::assert_snapshot!(env.normalised(&plain));
    assert_git_clean(&dir);
}

/// The person correcting the fact, in the words memdir checks for: the update goes ahead.
#[test]
fn a_correction_updates_the_memory_it_corrects() {
    for (prompt, description) in [
        (
            "Actually the on-call runbook moved to Confluence last week: Ops/Runbooks.",
            "On-call runbook lives in Confluence: Ops/Runbooks",
        ),
        (
            "The runbook is no longer in Notion, it's Confluence Ops/Runbooks now.",
            "On-call runbook lives in Confluence: Ops/Runbooks",
        ),
    ] {
        let (env, file) = runbook_and_session(prompt);
        let dir = env.memory_dir();
        let model = answering(
            &env,
            json!([{"action": "update", "name": "oncall-runbook",
            "type": "reference", "description": description,
            "body": "The on-call runbook is in Confluence under Ops/Runbooks."}]),
        );
        let report = extract(
            &env,
            &file,
            &["--extractor", "agent", "--agent-cmd", &model],
        );
        assert_eq!(
            report["outcomes"],
            json!([{"outcome": "updated", "name": "oncall-runbook", "type": "reference",
                   "description": description}]),
            "{prompt}"
        );
        let text = std::fs::read_to_string(dir.join("oncall-runbook.md")).expect("file");
        assert!(
            text.contains("Confluence") && !text.contains("Notion"),
            "{text}"
        );
        assert_eq!(subjects(&dir).len(), 2, "{prompt}");
        assert_git_clean(&dir);
    }
}

/// Our own cases: an extension keeps what the memory said and goes ahead; a fact on a nearby
/// subject does not replace it, in English or Chinese, by the model or by the builtin extractor.
#[test]
fn extensions_go_ahead_and_nearby_facts_stay_apart() {
    let mut env = TestEnv::new();
    env.set_var("PATH", &std::env::var("PATH").unwrap_or_default());
    env.save(
        "project",
        "release-freeze",
        "Code freeze from 2026-12-15 until the 2027-01-05 release",
        "Only P0 fixes merge from 2026-12-15 until the 2027-01-05 release.",
    );
    env.save(
        "project",
        "fa-ban-chong-dong",
        "发版前三天冻结代码",
        "发版前三天冻结代码，只合并紧急修复。",
    );
    let dir = env.memory_dir();
    let file = env.root.join("s2.jsonl");
    Transcript::new("s2", &env.project)
        .user("During the freeze, P1 fixes need the release manager's sign-off too.")
        .assistant("Noted.")
        .user("The release train leaves every Tuesday at 10:00.")
        .assistant("Noted.")
        .user("周五下午团建，大家去爬山。")
        .write(&file);
    let model = answering(
        &env,
        json!([
            // An extension: what the memory said, and more.
            {"action": "save", "name": "release-freeze", "type": "project",
             "description": "Code freeze from 2026-12-15 until the 2027-01-05 release",
             "body": "Only P0 fixes merge from 2026-12-15 until the 2027-01-05 release; P1 fixes need the release manager's sign-off."},
            // Different facts on a nearby subject, given as updates.
            {"action": "update", "name": "release-freeze", "type": "project",
             "description": "The release train leaves every Tuesday at 10:00",
             "body": "The release train leaves every Tuesday at 10:00."},
            {"action": "update", "name": "fa-ban-chong-dong", "type": "project",
             "description": "周五下午团建去爬山", "body": "周五下午团建，大家去爬山。"},
        ]),
    );
    let report = extract(
        &env,
        &file,
        &["--extractor", "agent", "--agent-cmd", &model],
    );
    let outcomes: Vec<(String, String)> = report["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| {
            (
                o["outcome"].as_str().unwrap_or("").to_string(),
                o["not_updated"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("updated".to_string(), String::new()),
            ("saved".to_string(), "release-freeze".to_string()),
            ("saved".to_string(), "fa-ban-chong-dong".to_string()),
        ],
        "{report}"
    );
    let freeze = std::fs::read_to_string(dir.join("release-freeze.md")).expect("freeze");
    assert!(
        freeze.contains("Only P0 fixes")
            && freeze.contains("sign-off")
            && !freeze.contains("Tuesday"),
        "{freeze}"
    );
    let zh = std::fs::read_to_string(dir.join("fa-ban-chong-dong.md")).expect("zh");
    assert!(zh.contains("冻结代码") && !zh.contains("爬山"), "{zh}");
    assert_git_clean(&dir);
    assert_index_consistent(&dir);
}

/// `--dry-run` says what would be saved, updated and removed — the update check included — and
/// changes nothing: no commit, no file, no cursor; with no memory dir yet, none is created.
#[test]
fn a_dry_run_says_what_would_change_and_changes_nothing() {
    let (env, file) = runbook_and_session("btw the on-call rota is in PagerDuty");
    let dir = env.memory_dir();
    let before = tree_snapshot(&dir);
    let head = git(&dir, &["rev-parse", "HEAD"]);
    let model = answering(
        &env,
        json!([
            {"action": "update", "name": "oncall-runbook", "type": "reference",
             "description": "On-call rota is in PagerDuty", "body": "The on-call rota is in PagerDuty."},
            {"action": "save", "name": "team-channel", "type": "reference",
             "description": "The team's channel is #payments-oncall", "body": "Ask in #payments-oncall."},
            {"action": "delete", "name": "oncall-runbook"},
            {"action": "delete", "name": "not-there"},
        ]),
    );
    let report = extract(
        &env,
        &file,
        &["--extractor", "agent", "--agent-cmd", &model, "--dry-run"],
    );
    assert_eq!(report["dry_run"], true);
    let kinds: Vec<&str> = report["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| o["outcome"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(kinds, ["saved", "saved", "removed", "refused"], "{report}");
    assert_eq!(report["outcomes"][0]["not_updated"], "oncall-runbook");
    assert_eq!(report["cursor_advanced"], false);
    assert_eq!(tree_snapshot(&dir), before, "nothing written");
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]), head);
    assert_eq!(cursor_offset(&dir, "s1"), None);
    // The same for people.
    let plain = extract_plain(
        &env,
        &file,
        &["--extractor", "agent", "--agent-cmd", &model, "--dry-run"],
    );
    insta::assert_snapshot!(env.normalised(&plain));
    assert_eq!(tree_snapshot(&dir), before);

    // No memory dir yet: the builtin extractor's dry run creates none.
    let fresh = TestEnv::new();
    let file = fresh.root.join("s3.jsonl");
    Transcript::new("s3", &fresh.project)
        .user("From now on, always run make lint before committing.")
        .write(&file);
    let report = extract(&fresh, &file, &["--extractor", "builtin", "--dry-run"]);
    assert_eq!(report["outcomes"][0]["outcome"], "saved", "{report}");
    assert!(!fresh.memory_dir().exists(), "a dry run creates nothing");
}
