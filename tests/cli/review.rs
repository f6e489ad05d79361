//! `memdir review` on the labelled stores in `fixtures/review/` (its README gives the layout and
//! the right answers): the group (and clean-up kind) of every memory and instruction-file
//! problem, every group exercised, and never a promotion of a secret or a relative date.
//! `cargo test --test cli review -- --nocapture` prints the confusion.

use std::collections::BTreeMap;

use crate::common::{TestEnv, copy_tree, expected_of, git, labelled_cases};

#[derive(serde::Deserialize)]
struct Expected {
    proposals: Vec<ExpectedProposal>,
    #[serde(default)]
    files: Vec<ExpectedFile>,
}

#[derive(serde::Deserialize)]
struct ExpectedProposal {
    memory: String,
    group: String,
    #[serde(default)]
    kind: Option<String>,
}

#[derive(serde::Deserialize)]
struct ExpectedFile {
    file: String,
    group: String,
    #[serde(default)]
    kind: Option<String>,
}

/// "group" or "group/kind", as compared.
fn label(group: &str, kind: Option<&str>) -> String {
    match kind {
        Some(kind) => format!("{group}/{kind}"),
        None => group.to_string(),
    }
}

#[test]
fn review_proposes_the_right_group_for_every_memory_of_the_labelled_stores() {
    let cases = labelled_cases("fixtures/review/cases");
    assert!(cases.len() >= 20, "{} review cases", cases.len());
    let mut total = 0;
    let mut right = 0;
    let mut wrong = Vec::new();
    let mut exercised = BTreeMap::new();
    let mut unsafe_promotions = Vec::new();
    for case in &cases {
        let (name, expected): (String, Expected) = expected_of(case);
        let env = TestEnv::new();
        copy_tree(&case.join("project"), &env.project);
        git(&env.project, &["add", "-A"]);
        git(
            &env.project,
            &["commit", "-q", "-m", "project as it is now"],
        );
        let dir = env.memory_dir();
        copy_tree(&case.join("memory"), &dir);
        if case.join("user/CLAUDE.md").is_file() {
            std::fs::create_dir_all(env.home.join(".claude")).expect("config dir");
            std::fs::copy(
                case.join("user/CLAUDE.md"),
                env.home.join(".claude/CLAUDE.md"),
            )
            .expect("user CLAUDE.md");
        }
        let before = crate::common::tree_snapshot(&env.root);
        let review = env.ok(&["review", "--json"]).json();
        assert_eq!(
            crate::common::tree_snapshot(&env.root),
            before,
            "{name}: review changed a file"
        );
        let proposals = review["proposals"].as_array().expect("proposals");
        for want in &expected.proposals {
            total += 1;
            let want_label = label(&want.group, want.kind.as_deref());
            *exercised.entry(want_label.clone()).or_insert(0) += 1;
            let got = proposals
                .iter()
                .find(|p| p["name"] == want.memory.as_str())
                .map(|p| label(p["group"].as_str().unwrap_or("?"), p["kind"].as_str()));
            if got.as_deref() == Some(want_label.as_str()) {
                right += 1;
            } else {
                wrong.push(format!(
                    "{name}: {} is {got:?}, want {want_label}",
                    want.memory
                ));
            }
        }
        for want in &expected.files {
            total += 1;
            let want_label = label(&want.group, want.kind.as_deref());
            *exercised.entry(format!("file {want_label}")).or_insert(0) += 1;
            let suffix = want
                .file
                .trim_start_matches("project/")
                .trim_start_matches("user/");
            let found = proposals.iter().any(|p| {
                p["path"].as_str().is_some_and(|f| f.ends_with(suffix))
                    && label(p["group"].as_str().unwrap_or("?"), p["kind"].as_str()) == want_label
            });
            if found {
                right += 1;
            } else {
                wrong.push(format!(
                    "{name}: {} has no {want_label} proposal",
                    want.file
                ));
            }
        }
        // Never a promotion of a secret or a relative date, whatever the labels say.
        for p in proposals {
            let group = p["group"].as_str().unwrap_or("");
            let Some(memory) = p["name"].as_str().filter(|_| group.starts_with("promote")) else {
                continue;
            };
            let text =
                std::fs::read_to_string(dir.join(format!("{memory}.md"))).unwrap_or_default();
            if memdir::secrets::find(&text).is_some()
                || memdir::memory::dates::relative_phrase(&text).is_some()
            {
                unsafe_promotions.push(format!("{name}: {memory} proposed for {group}"));
            }
        }
    }
    let accuracy = right as f64 / total as f64;
    println!("review: {right} of {total} right ({accuracy:.2}); labels exercised: {exercised:?}");
    for miss in &wrong {
        println!("  {miss}");
    }
    for group in [
        "promote-project",
        "promote-personal",
        "promote-team",
        "clean-up/secret",
        "clean-up/stale",
        "clean-up/relative-date",
        "clean-up/duplicate",
        "clean-up/derivable",
        "clean-up/long-index-line",
        "ambiguous",
        "no-action",
    ] {
        assert!(exercised.contains_key(group), "no case labels {group}");
    }
    assert!(unsafe_promotions.is_empty(), "{unsafe_promotions:#?}");
    assert!(accuracy >= 0.85, "accuracy {accuracy:.2}: {wrong:#?}");
}

/// Right at scale (DESIGN §7): a freeze whose date passed is expired, the older of two values
/// is contradicted, 300 memories that differ only in their identifiers are no duplicates, and
/// every proposal that calls for an action names the command that carries it out.
#[test]
fn review_judges_dates_against_today_and_identifiers_keep_facts_apart() {
    let mut env = TestEnv::new();
    env.set_var("MEMDIR_TODAY", "2026-12-03");
    env.ok(&["init"]);
    let dir = env.memory_dir();
    let mut index = String::new();
    for i in 0..300 {
        let name = format!("component-c{i}");
        std::fs::write(
            dir.join(format!("{name}.md")),
            format!("---\nname: {name}\ndescription: component c{i} talks to service s{i}\ntype: project\n---\nComponent c{i} talks to service s{i}.\n"),
        )
        .expect("write");
        index.push_str(&format!(
            "- [Component c{i}]({name}.md) — component c{i} talks to service s{i}\n"
        ));
    }
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    env.ok(&["snapshot"]);
    env.save_at(
        "2025-12-20T10:00:00+00:00",
        "project",
        "merge-freeze",
        "Merge freeze until 2026-01-15",
        "Merge freeze on main until 2026-01-15; only hotfixes.",
        None,
    );
    env.save_at(
        "2026-02-01T10:00:00+00:00",
        "reference",
        "ci-teamcity",
        "CI builds run on TeamCity at tc.example.local",
        "CI: TeamCity at http://tc.example.local, nightly at 01:00.",
        None,
    );
    env.save_at(
        "2026-06-01T10:00:00+00:00",
        "reference",
        "ci-horde",
        "CI moved from TeamCity to Horde at horde.example.local",
        "We moved CI off TeamCity: builds now run in Horde at https://horde.example.local.",
        None,
    );
    let review = env.ok(&["review", "--json"]).json();
    let proposals = review["proposals"].as_array().expect("proposals");
    let of = |name: &str| {
        proposals
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("no proposal for {name}"))
    };
    assert_eq!(
        of("merge-freeze")["kind"],
        "expired",
        "{}",
        of("merge-freeze")
    );
    assert_eq!(of("merge-freeze")["command"], "memdir consolidate");
    assert_eq!(
        of("ci-teamcity")["kind"],
        "contradicted",
        "{}",
        of("ci-teamcity")
    );
    assert_ne!(of("ci-horde")["kind"], "contradicted");
    let duplicates: Vec<&serde_json::Value> = proposals
        .iter()
        .filter(|p| p["kind"] == "duplicate")
        .collect();
    assert!(duplicates.is_empty(), "{duplicates:#?}");
    for p in proposals {
        let acts = p["group"] != "no-action" && p["group"] != "ambiguous" && p["name"].is_string();
        assert_eq!(p["command"].is_string(), acts, "{p}");
    }
    let report = env.ok(&["review"]).stdout;
    assert!(
        report.contains("merge-freeze — expired: time-bound (\"until 2026-01-15\"): 2026-01-15 has passed\n      memdir consolidate\n"),
        "{report}"
    );
}
