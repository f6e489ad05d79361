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

/// What the checks say of one action alone.
fn verdict(action: &Action, memories: &[Memory], today: NaiveDate) -> Result<(), Refused> {
    match checked(vec![action.clone()], memories, today).1.pop() {
        Some((_, why)) => Err(why),
        None => Ok(()),
    }
}

fn expired_on(name: &str, date: &str) -> Action {
    Action::Drop {
        name: name.into(),
        reason: DropReason::Expired(Expiry {
            date: day(date),
            evidence: date.into(),
        }),
    }
}

fn superseded_by(name: &str, by: &str) -> Action {
    Action::Drop {
        name: name.into(),
        reason: DropReason::Superseded {
            by: by.into(),
            stale: Vec::new(),
            current: Vec::new(),
        },
    }
}

#[test]
fn a_merge_a_drop_or_a_rewrite_that_breaks_the_rules_is_refused() {
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
        (
            "db",
            "The ledger runs on Postgres 15 in RDS",
            "The ledger's database is Postgres 15 on RDS (eu-west-1).",
        ),
        (
            "freeze",
            "Merge freeze until 2026-01-15",
            "Merge freeze on main until 2026-01-15; hotfixes only.",
        ),
        (
            "offsite",
            "Offsite 2026-02-10, then the planning review 2027-01-20",
            "Team offsite on 2026-02-10; the planning review follows on 2027-01-20.",
        ),
        (
            "tickets-moved",
            "Tickets moved to Jira project KES",
            "Tickets now live in Jira, project KES.",
        ),
        (
            "demo",
            "Demo tomorrow for the payments team",
            "Demo of the ledger export tomorrow for the payments team.",
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
        verdict(&lossy, &memories, today),
        Err(Refused::MergeLoses { .. })
    ));
    let inventive = Action::Merge {
        names: names(&memories, &[0, 5]),
        into: "a".into(),
        description: "Tickets live in Linear team KES; tickets moved to Jira project KES".into(),
        body: "Tickets are in Linear, team key KES. Tickets now live in Jira, project KES. \
               Close stale tickets every Friday."
            .into(),
    };
    assert!(matches!(
        verdict(&inventive, &memories, today),
        Err(Refused::MergeAdds { .. })
    ));
    // Expired: the date must be past, named by the memory, and no later day named.
    assert_eq!(
        verdict(&expired_on("freeze", "2026-01-15"), &memories, today),
        Ok(())
    );
    assert!(matches!(
        verdict(&expired_on("freeze", "2027-01-01"), &memories, today),
        Err(Refused::NotExpired { .. })
    ));
    assert!(matches!(
        verdict(&expired_on("freeze", "2026-01-16"), &memories, today),
        Err(Refused::DateNotNamed { .. })
    ));
    assert!(matches!(
        verdict(&expired_on("a", "2026-01-15"), &memories, today),
        Err(Refused::DateNotNamed { .. })
    ));
    assert!(matches!(
        verdict(&expired_on("offsite", "2026-02-10"), &memories, today),
        Err(Refused::StillToCome { .. })
    ));
    // Superseded: by a newer memory on the same subject.
    assert_eq!(
        verdict(&superseded_by("a", "tickets-moved"), &memories, today),
        Ok(())
    );
    assert!(matches!(
        verdict(&superseded_by("b", "a"), &memories, today),
        Err(Refused::NotNewer { .. })
    ));
    assert!(matches!(
        verdict(&superseded_by("db", "tickets-moved"), &memories, today),
        Err(Refused::OtherSubject { .. })
    ));
    assert!(matches!(
        verdict(&superseded_by("b", "nonesuch"), &memories, today),
        Err(Refused::Unknown(_))
    ));
    // A rewrite makes relative dates absolute and changes nothing else.
    let rewrite = |description: &str, body: &str| Action::Rewrite {
        name: "demo".into(),
        description: description.into(),
        body: body.into(),
    };
    assert_eq!(
        verdict(
            &rewrite(
                "Demo 2026-01-08 for the payments team",
                "Demo of the ledger export on 2026-01-08 for the payments team."
            ),
            &memories,
            today
        ),
        Ok(())
    );
    assert!(matches!(
        verdict(
            &rewrite(
                "Demo 2026-01-08 for the payments team",
                "Demo of the ledger export on 2026-01-08 for the payments team; cancel the Friday deploy."
            ),
            &memories,
            today
        ),
        Err(Refused::RewriteAdds { .. })
    ));
    assert!(matches!(
        verdict(
            &rewrite("Demo 2026-01-08", "Demo on 2026-01-08."),
            &memories,
            today
        ),
        Err(Refused::RewriteLoses { .. })
    ));
    let twice = vec![
        superseded_by("a", "tickets-moved"),
        superseded_by("a", "tickets-moved"),
    ];
    let (kept, refused) = checked(twice, &memories, today);
    assert_eq!(kept.len(), 1);
    assert_eq!(
        refused,
        [("dropping a".to_string(), Refused::Twice("a".into()))]
    );
}
