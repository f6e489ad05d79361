//! The rules on small stores written for them; the labelled sets are `tests/cli/consolidate.rs`.

use super::*;

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

/// Memories saved a day apart from 2026-01-01, in this order: (name, description, body).
fn store(texts: &[(&str, &str, &str)]) -> Vec<Memory> {
    texts
        .iter()
        .enumerate()
        .map(|(i, (name, description, body))| Memory {
            name: name.to_string(),
            memory_type: Some(MemoryType::Project),
            description: description.to_string(),
            title: None,
            body: body.to_string(),
            text: TopicFileText::of(name, description, body),
            saved: Some((1_767_225_600 + i as i64 * 86_400, 0)),
        })
        .collect()
}

struct TopicFileText;

impl TopicFileText {
    fn of(name: &str, description: &str, body: &str) -> String {
        crate::memory::topic::TopicFile::new(name, description, MemoryType::Project, body).render()
    }
}

fn names(memories: &[Memory], group: &[usize]) -> Vec<String> {
    group.iter().map(|&i| memories[i].name.clone()).collect()
}

/// Three hundred memories that differ only in their identifiers are three hundred facts.
#[test]
fn memories_that_differ_only_in_identifiers_are_no_duplicates() {
    let texts: Vec<(String, String, String)> = (0..300)
        .map(|i| {
            (
                format!("component-c{i}"),
                format!("component c{i} talks to service s{i}"),
                format!(
                    "Component c{i} talks to service s{i} over gRPC on port {}.",
                    9000 + i
                ),
            )
        })
        .collect();
    let borrowed: Vec<(&str, &str, &str)> = texts
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
        .collect();
    let memories = store(&borrowed);
    let findings = find(&memories, day("2026-12-04"));
    assert_eq!(findings.duplicates, Vec::<Vec<usize>>::new());
    assert_eq!(findings.contradictions, Vec::new());
}

#[test]
fn the_same_fact_twice_is_merged_keeping_every_detail() {
    let memories = store(&[
        (
            "lint-before-commit",
            "Always run make lint before committing; CI golangci-lint is strict about errcheck",
            "Always run `make lint` before committing. golangci-lint in CI is strict (errcheck, govet shadow).",
        ),
        (
            "deploy-window",
            "Deploys happen on weekdays only",
            "Never deploy on weekends.",
        ),
        (
            "make-lint-and-fmt",
            "run make fmt + make lint before commits, CI fails on errcheck otherwise",
            "before any commit: `make fmt` (gofumpt) then `make lint`. CI fails on errcheck otherwise",
        ),
    ]);
    let today = day("2026-12-04");
    let findings = find(&memories, today);
    assert_eq!(findings.duplicates, vec![vec![0, 2]]);
    let actions = builtin_actions(&memories, &findings);
    let (kept, refused) = checked(actions, &memories, today);
    assert_eq!(refused, Vec::new());
    let [Action::Merge { into, body, .. }] = kept.as_slice() else {
        panic!("{kept:?}");
    };
    assert_eq!(into, "lint-before-commit");
    for detail in ["gofumpt", "govet shadow", "errcheck"] {
        assert!(body.contains(detail), "{detail}: {body}");
    }
}

#[test]
fn a_newer_value_for_the_same_subject_replaces_the_older() {
    let memories = store(&[
        (
            "oncall-paging-opsgenie",
            "Ledger on-call pages go through Opsgenie, team ledger-oncall",
            "Ledger on-call alerts page through Opsgenie (team `ledger-oncall`).",
        ),
        (
            "pagerduty-paging",
            "On-call paging moved to PagerDuty, service Ledger Primary",
            "On-call paging now goes through PagerDuty, service \"Ledger Primary\".",
        ),
    ]);
    let findings = find(&memories, day("2026-12-04"));
    assert_eq!(findings.duplicates, Vec::<Vec<usize>>::new());
    let [c] = findings.contradictions.as_slice() else {
        panic!("{findings:?}");
    };
    assert_eq!((c.older, c.newer), (0, 1));
    assert!(c.stale.contains(&"opsgenie".to_string()), "{c:?}");
}

#[test]
fn a_merge_or_a_drop_that_breaks_the_rules_is_refused() {
    let memories = store(&[
        (
            "a",
            "Tickets live in Linear team KES",
            "Tickets are in Linear, team key KES.",
        ),
        (
            "b",
            "Ledger bugs go to Ledger Reliability",
            "Ledger bugs go to the Ledger Reliability project.",
        ),
    ]);
    let today = day("2026-12-04");
    let lossy = Action::Merge {
        names: names(&memories, &[0, 1]),
        into: "b".into(),
        description: "Ledger bugs go to Ledger Reliability".into(),
        body: "Ledger bugs go to the Ledger Reliability project.".into(),
    };
    assert!(matches!(
        check(&lossy, &memories, today),
        Err(Refused::MergeLoses { .. })
    ));
    let not_past = Action::Drop {
        name: "a".into(),
        reason: DropReason::Expired(Expiry {
            date: day("2027-01-01"),
            evidence: "until 2027-01-01".into(),
        }),
    };
    assert!(matches!(
        check(&not_past, &memories, today),
        Err(Refused::NotExpired { .. })
    ));
    let older = Action::Drop {
        name: "b".into(),
        reason: DropReason::Superseded {
            by: "a".into(),
            stale: Vec::new(),
            current: Vec::new(),
        },
    };
    assert!(matches!(
        check(&older, &memories, today),
        Err(Refused::NotNewer { .. })
    ));
    let twice = vec![older.clone(), older];
    assert_eq!(checked(twice, &memories, today).0.len(), 0);
}
