//! Recall in tiers (DESIGN §12, issue 29): what the prompt needs clearly comes with its body,
//! what plausibly helps as one line; the bar holds in a store of three memories as in a larger
//! one; each memory comes once each way in a session (a line, then its body); `recall -v` and
//! `recall --json` say why each candidate was or was not added; settings set the limits.

use crate::common::{TestEnv, assert_git_clean};

/// `env`'s memory dir filled with `memories` (type, name, description, body), one save each.
fn store(memories: &[(&str, &str, &str, &str)]) -> TestEnv {
    let env = TestEnv::new();
    for (kind, name, description, body) in memories {
        env.save(kind, name, description, body);
    }
    env
}

/// What `recall --json` said of each candidate: (name, tier, reason), best first.
fn outcomes(answer: &serde_json::Value) -> Vec<(String, Option<String>, Option<String>)> {
    answer["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| {
            let text = |key: &str| c[key].as_str().map(str::to_string);
            (text("name").expect("a name"), text("tier"), text("reason"))
        })
        .collect()
}

fn prompt_payload(session: &str, prompt: &str, cwd: &std::path::Path) -> String {
    serde_json::json!({
        "session_id": session,
        "cwd": cwd,
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    })
    .to_string()
}

/// What a prompt hook's answer adds, or "" when it answers nothing.
fn hook_added(env: &TestEnv, session: &str, prompt: &str) -> String {
    let run = env.run_with_stdin(
        &["recall", "--hook"],
        &prompt_payload(session, prompt, &env.project),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    if run.stdout.is_empty() {
        return String::new();
    }
    let answer: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("additionalContext")
        .to_string()
}

const FRIDAY: [(&str, &str, &str, &str); 3] = [
    (
        "feedback",
        "release-habits",
        "How releases are done here",
        "Tag from main after CI is green. Never deploy on Fridays: nobody is around to roll back over the weekend.",
    ),
    (
        "user",
        "role",
        "Backend engineer on the billing service",
        "Works on billing; prefers short answers.",
    ),
    (
        "reference",
        "dashboards",
        "Grafana dashboards for billing",
        "https://grafana.example.com/d/billing",
    ),
];

#[test]
fn in_a_store_of_three_the_body_that_answers_the_prompt_comes_with_it() {
    // The memory's name and description say nothing of Fridays; only its body does. With a
    // bar that grew with the log of the store's size, this store was too small to ever speak.
    let env = store(&FRIDAY);
    let run = env.ok(&["recall", "can I deploy on Friday?"]);
    assert!(
        run.stdout
            .contains("\n## release-habits (feedback, personal, saved "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Never deploy on Fridays"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("dashboards"), "{}", run.stdout);
    // A prompt about something else gets nothing.
    let quiet = env.ok(&["recall", "how do I reverse a linked list in place?"]);
    assert_eq!(quiet.stdout, "no memory clears the bar for this prompt\n");
}

/// Thirteen memories, five of them about deploying: a word they share tells them apart poorly,
/// and the one named for the question must still come.
const DEPLOYS: [(&str, &str, &str, &str); 13] = [
    (
        "project",
        "deploy-window",
        "Production changes go out Tuesday to Thursday, 10:00-16:00 CET",
        "Changes reach production Tuesday to Thursday between 10:00 and 16:00 CET, while the on-call engineer is online; outside that, only hotfixes the lead approves.",
    ),
    (
        "project",
        "deploy-pipeline",
        "GitHub Actions builds, Argo CD deploys",
        "Merges to main build an image in GitHub Actions; Argo CD deploys it to staging, then to production after approval.",
    ),
    (
        "feedback",
        "deploy-smoke-tests",
        "Run the smoke tests after each deploy",
        "After every deploy, run make smoke against the environment; roll back if it fails.",
    ),
    (
        "reference",
        "argo-dashboard",
        "Argo CD dashboard URL",
        "https://argocd.example.com shows what each environment runs.",
    ),
    (
        "project",
        "staging-env",
        "Staging mirrors production with a smaller database",
        "Staging runs the same services with a 10 GB copy of the production database, refreshed weekly.",
    ),
    (
        "feedback",
        "rollback-first",
        "Roll back first, debug after",
        "When a deploy breaks production, roll back with argocd app rollback before debugging.",
    ),
    (
        "user",
        "role",
        "Backend engineer on the orders service",
        "Works on the orders service in Go; on call every fourth week.",
    ),
    (
        "project",
        "db-migrations",
        "Migrations run before the deploy, expand then contract",
        "Schema migrations run as a pre-deploy job; never drop a column in the release that stops using it.",
    ),
    (
        "feedback",
        "pr-size",
        "Keep pull requests under 400 lines",
        "Reviewers asked for pull requests under 400 lines; split refactors from behaviour changes.",
    ),
    (
        "project",
        "feature-flags",
        "New features ship behind LaunchDarkly flags",
        "Every user-facing change ships behind a LaunchDarkly flag, off by default, turned on after the deploy.",
    ),
    (
        "reference",
        "runbooks",
        "Runbooks live in the ops wiki",
        "https://wiki.example.com/ops/runbooks has one page per alert.",
    ),
    (
        "project",
        "release-notes",
        "Release notes are written in CHANGELOG.md per deploy",
        "Each production deploy adds a section to CHANGELOG.md with the pull requests it carries.",
    ),
    (
        "feedback",
        "go-errors",
        "Wrap errors with %w and context",
        "In Go code, wrap errors with fmt.Errorf and %w; never log and return the same error.",
    ),
];

#[test]
fn in_a_store_of_thirteen_the_memory_named_for_the_prompt_comes_first_with_its_body() {
    let env = store(&DEPLOYS);
    let answer = env
        .ok(&["recall", "--json", "what is the deploy window?"])
        .json();
    let outcomes = outcomes(&answer);
    assert_eq!(
        outcomes[0],
        ("deploy-window".to_string(), Some("body".to_string()), None),
        "{answer}"
    );
    // The memories that only share `deploy` are candidates, each left out with its reason.
    for (name, tier, reason) in &outcomes[1..] {
        assert_eq!(tier, &None, "{name}: {answer}");
        assert!(reason.is_some(), "{name}: {answer}");
    }
    assert!(
        outcomes.iter().any(|(name, ..)| name == "deploy-pipeline"),
        "{answer}"
    );
    let text = answer["text"].as_str().expect("a text");
    assert!(text.contains("Tuesday to Thursday between 10:00"), "{text}");
    // search agrees: the memory has a tier there too.
    let hits = env
        .ok(&["search", "--json", "what is the deploy window?"])
        .json();
    assert_eq!(hits[0]["name"], "deploy-window");
    assert_eq!(hits[0]["tier"], "body");
    assert_eq!(hits[0]["relevant"], true);
}

/// A store without a repository (so no ages) that gives one prompt a body and a line.
fn written_store(env: &TestEnv) -> String {
    let dir = env.root.join("memory");
    std::fs::create_dir_all(&dir).expect("memory dir");
    let mut index = String::new();
    for (kind, name, description, body) in DEPLOYS {
        std::fs::write(
            dir.join(format!("{name}.md")),
            format!("---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n{body}\n"),
        )
        .expect("topic");
        index.push_str(&format!("- [{name}]({name}.md) — {description}\n"));
    }
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    dir.display().to_string()
}

const BOTH_TIERS: &str = "the deploy broke production: roll back, then run the smoke tests";

#[test]
fn recall_v_lists_every_candidate_with_its_tier_or_why_it_was_left_out() {
    let env = TestEnv::new();
    let dir = written_store(&env);
    let run = env.ok(&["--memory-dir", &dir, "recall", "-v", BOTH_TIERS]);
    insta::assert_snapshot!(env.normalised(&run.stdout));
    // Without -v, the text alone.
    let plain = env.ok(&["--memory-dir", &dir, "recall", BOTH_TIERS]);
    assert!(run.stdout.starts_with(&plain.stdout), "{}", plain.stdout);
    assert!(!plain.stdout.contains("candidates"), "{}", plain.stdout);
}

#[test]
fn recall_json_says_for_each_candidate_what_it_was_added_as_or_why_not() {
    let env = TestEnv::new();
    let dir = written_store(&env);
    let answer = env
        .ok(&["--memory-dir", &dir, "recall", "--json", BOTH_TIERS])
        .json();
    let candidates = answer["candidates"].as_array().expect("candidates");
    assert!(candidates.len() >= 5, "{answer}");
    let first = &candidates[0];
    assert_eq!(first["name"], "deploy-smoke-tests");
    assert_eq!(first["type"], "feedback");
    assert_eq!(first["scope"], "personal");
    assert_eq!(first["file"], "deploy-smoke-tests.md");
    assert_eq!(
        first["path"],
        format!("{dir}/deploy-smoke-tests.md").as_str(),
        "absolute"
    );
    assert!(first["saved"].is_null(), "no history here");
    assert_eq!(first["tier"], "body");
    assert!(first["reason"].is_null());
    let mut scores = Vec::new();
    for c in candidates {
        let score = c["score"].as_f64().expect("a score");
        let confidence = c["confidence"].as_f64().expect("a confidence");
        assert!(score > 0.0 && confidence > 0.0, "{c}");
        // Each candidate was added, or says why not; a reason never comes with a body.
        match c["tier"].as_str() {
            Some("body") => assert!(c["reason"].is_null(), "{c}"),
            Some("line") => {}
            None => assert!(c["reason"].as_str().is_some_and(|r| !r.is_empty()), "{c}"),
            Some(other) => panic!("tier {other}"),
        }
        scores.push(score);
    }
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    assert!(
        candidates.iter().any(|c| c["tier"] == "line"),
        "a line too: {answer}"
    );
    assert_eq!(answer["limits"]["memories"], 5);
    assert_eq!(answer["limits"]["bodies"], 3);
    assert_eq!(answer["limits"]["bytes"], 4096);
    assert_eq!(answer["limits"]["sensitivity"], 0.5);
    // Nothing matches: no text, no candidates.
    let none = env
        .ok(&[
            "--memory-dir",
            &dir,
            "recall",
            "--json",
            "quantum entanglement",
        ])
        .json();
    assert_eq!(
        none,
        serde_json::json!({"text": null, "limits": answer["limits"], "candidates": []})
    );
    // --json is for a person's look, not for the hook, which still never fails the agent.
    let hook = env.run_with_stdin(&["recall", "--json", "--hook"], "");
    assert_eq!(
        (hook.code, hook.stdout.as_str()),
        (0, ""),
        "{}",
        hook.stderr
    );
}

#[test]
fn a_memory_shown_as_a_line_comes_later_with_its_body_and_never_twice_the_same_way() {
    let env = store(&DEPLOYS);
    let session = "a7a1d2e4-0000-4000-8000-000000000029";
    // Asked about rollbacks in passing: the rollback memory is a line (the smoke tests' body
    // is what the prompt needs).
    let first = hook_added(&env, session, BOTH_TIERS);
    assert!(first.contains("\n## deploy-smoke-tests ("), "{first}");
    let line = first
        .lines()
        .find(|l| l.starts_with("- "))
        .unwrap_or_else(|| panic!("no line: {first}"));
    let dir = env.memory_dir();
    let (name, rest) = line[2..].split_once(' ').expect("a name");
    assert!(
        rest.starts_with('(') && rest.contains(", personal, saved ") && rest.contains("): "),
        "type, whose, age, description: {line}"
    );
    assert!(
        line.ends_with(&format!(" — {}/{name}.md", dir.display())),
        "the path to read it: {line}"
    );
    // The same prompt again: nothing new to add.
    assert_eq!(hook_added(&env, session, BOTH_TIERS), "");
    // A prompt that needs that memory clearly: now its body.
    let description = DEPLOYS
        .iter()
        .find(|m| m.1 == name)
        .map(|m| m.2)
        .expect("one of the store's");
    let second = hook_added(&env, session, description);
    assert!(
        second.contains(&format!("\n## {name} (")),
        "{name}'s body: {second}"
    );
    // And never again, either way.
    assert!(!hook_added(&env, session, description).contains(name));
    let record = std::fs::read_to_string(dir.join(".git/memdir/recall").join(session))
        .expect("the session's record");
    let lines: Vec<&str> = record.lines().collect();
    assert!(lines.contains(&"deploy-smoke-tests"), "{record}");
    let as_line = format!("line:{name}");
    let line_at = lines.iter().position(|l| *l == as_line);
    let body_at = lines.iter().position(|l| *l == name);
    assert!(
        matches!((line_at, body_at), (Some(a), Some(b)) if a < b),
        "{record}"
    );
    assert_git_clean(&dir);
}

#[test]
fn settings_set_the_limits_and_the_sensitivity() {
    let env = store(&DEPLOYS);
    let settings = env.home.join(".claude/settings.json");
    // A body counts two, a line one.
    let weight = |tiers: &[(String, String)]| {
        tiers
            .iter()
            .map(|(_, t)| if t == "body" { 2 } else { 1 })
            .sum::<usize>()
    };
    let tiers = |env: &TestEnv, prompt: &str| -> Vec<(String, String)> {
        outcomes(&env.ok(&["recall", "--json", prompt]).json())
            .into_iter()
            .filter_map(|(name, tier, _)| Some((name, tier?)))
            .collect()
    };
    let default = tiers(&env, BOTH_TIERS);
    assert!(default.len() >= 2, "{default:?}");
    // No bodies: the one that cleared the bar for a body is a line, and says so.
    std::fs::write(&settings, r#"{"memdir": {"recall": {"bodies": 0}}}"#).expect("settings");
    let answer = env.ok(&["recall", "--json", BOTH_TIERS]).json();
    let first = &answer["candidates"][0];
    assert_eq!(first["tier"], "line", "{answer}");
    assert_eq!(
        first["reason"],
        "cleared the bar for a body; 0 bodies were added"
    );
    // One memory at most.
    std::fs::write(&settings, r#"{"memdir": {"recall": {"memories": 1}}}"#).expect("settings");
    assert_eq!(tiers(&env, BOTH_TIERS), default[..1]);
    // Sensitivity: 0 asks more of a memory, 1 less.
    let bar = |env: &TestEnv| {
        let limits = &env.ok(&["recall", "--json", BOTH_TIERS]).json()["limits"];
        (
            limits["bar"]["body"].as_f64(),
            limits["bar"]["line"].as_f64(),
        )
    };
    let (body, line) = bar(&env);
    std::fs::write(&settings, r#"{"memdir": {"recall": {"sensitivity": 0}}}"#).expect("settings");
    let quiet = tiers(&env, BOTH_TIERS);
    let (quiet_body, quiet_line) = bar(&env);
    std::fs::write(&settings, r#"{"memdir": {"recall": {"sensitivity": 1}}}"#).expect("settings");
    let eager = tiers(&env, BOTH_TIERS);
    let (eager_body, eager_line) = bar(&env);
    assert!(
        weight(&quiet) <= weight(&default) && weight(&default) < weight(&eager),
        "{quiet:?} {default:?} {eager:?}"
    );
    assert!(
        quiet_body > body && body > eager_body,
        "{quiet_body:?} {body:?} {eager_body:?}"
    );
    assert!(
        quiet_line > line && line > eager_line,
        "{quiet_line:?} {line:?} {eager_line:?}"
    );
    // The switches still work beside them, and bad values are skipped with a warning.
    std::fs::write(
        &settings,
        r#"{"memdir": {"recall": {"prompt": false, "bodies": 1}}}"#,
    )
    .expect("settings");
    let payload = prompt_payload("s-off", BOTH_TIERS, &env.project);
    let run = env.run_with_stdin(&["recall", "--hook"], &payload);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    for (bad, warning) in [
        (
            r#"{"memdir": {"recall": {"bodies": 11}}}"#,
            "skipped memdir.recall.bodies in settings file",
        ),
        (
            r#"{"memdir": {"recall": {"memories": -1}}}"#,
            "skipped memdir.recall.memories in settings file",
        ),
        (
            r#"{"memdir": {"recall": {"sensitivity": "high"}}}"#,
            "skipped memdir.recall.sensitivity in settings file",
        ),
        (
            r#"{"memdir": {"recall": {"sensitivity": 1.5}}}"#,
            "it must be a number from 0 to 1",
        ),
    ] {
        std::fs::write(&settings, bad).expect("settings");
        let run = env.ok(&["recall", "--json", BOTH_TIERS]);
        assert!(run.stderr.contains(warning), "{bad}: {}", run.stderr);
        assert_eq!(tiers(&env, BOTH_TIERS), default, "{bad}: the default holds");
    }
}
