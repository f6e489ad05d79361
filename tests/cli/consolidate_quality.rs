//! Consolidation on the labelled sets of `fixtures/consolidation/` (their READMEs say who wrote
//! them and how): `dev` (tuned on) and `blind` (never tuned on). Each store is built as a real
//! memory repository, every memory saved in order and committed at its save time, then
//! consolidated with today fixed to the labels' date; each kind of proposal is scored against
//! the labels: duplicates (pairs within a merged group), contradictions (older dropped for the
//! newer), expired memories, relative dates (rewritten to the labelled date), and the details a
//! merge must keep. `cargo test --features fault-injection --test cli consolidate_quality --
//! --nocapture` prints them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::{TestEnv, assert_git_clean, git};

#[derive(serde::Deserialize)]
struct Row {
    time: String,
    name: String,
    #[serde(rename = "type")]
    memory_type: String,
    description: String,
    #[serde(default)]
    title: Option<String>,
    body: String,
}

/// Proposals of one kind, scored.
#[derive(Debug, Default, Clone, Copy)]
struct Score {
    proposed: usize,
    right: usize,
    labelled: usize,
    found: usize,
}

impl Score {
    fn add(&mut self, other: Score) {
        self.proposed += other.proposed;
        self.right += other.right;
        self.labelled += other.labelled;
        self.found += other.found;
    }

    /// Precision with nothing proposed is 1: nothing wrong was done.
    fn precision(&self) -> f64 {
        if self.proposed == 0 {
            1.0
        } else {
            self.right as f64 / self.proposed as f64
        }
    }

    fn recall(&self) -> f64 {
        if self.labelled == 0 {
            1.0
        } else {
            self.found as f64 / self.labelled as f64
        }
    }
}

/// Proposals scored against labels: each proposal right when the labels have it.
fn score<T: Ord>(proposed: &BTreeSet<T>, labelled: &BTreeSet<T>) -> Score {
    let right = proposed.intersection(labelled).count();
    Score {
        proposed: proposed.len(),
        right,
        labelled: labelled.len(),
        found: right,
    }
}

const KINDS: [&str; 4] = ["duplicates", "contradictions", "expired", "relative dates"];

/// The scores of one store, by kind, and the merge details kept (kept, to keep).
/// Who proposes: the builtin rules, or a model through the protocol and memdir's checks: one
/// that answers as the labels do, or the answers a real model gave once, recorded in
/// `fixtures/consolidation/agent-run/<set>/<store>/answer.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum By {
    Rules,
    Labels,
    Recorded,
}

fn score_store(store: &Path, by: By) -> (BTreeMap<&'static str, Score>, (usize, usize)) {
    let labels: serde_json::Value =
        serde_json::from_slice(&std::fs::read(store.join("labels.json")).expect("labels"))
            .expect("labels are JSON");
    let mut env = TestEnv::new();
    env.set_var("MEMDIR_TODAY", labels["today"].as_str().expect("today"));
    let text = std::fs::read_to_string(store.join("store.jsonl")).expect("store");
    let rows: Vec<Row> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a memory"))
        .collect();
    for row in &rows {
        env.save_at(
            &row.time,
            &row.memory_type,
            &row.name,
            &row.description,
            &row.body,
            row.title.as_deref(),
        );
    }
    let dir = env.memory_dir();
    let head = git(&dir, &["rev-parse", "HEAD"]);
    let mut args = vec!["consolidate", "--json", "--consolidator"];
    let cmd;
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/consolidation");
    let calls = env.root.join("calls");
    match by {
        By::Rules => args.push("builtin"),
        By::Labels => {
            // What a model that answers perfectly proposes, through the protocol and memdir's checks.
            cmd = format!(
                "python3 '{}' '{}' '{}'",
                fixtures.join("labelled_model.py").display(),
                store.join("labels.json").display(),
                calls.display()
            );
            args.extend(["agent", "--agent-cmd", &cmd]);
        }
        By::Recorded => {
            let set = store.parent().and_then(Path::file_name).expect("a set");
            let name = store.file_name().expect("a store");
            cmd = format!(
                "python3 '{}' '{}' '{}'",
                fixtures.join("recorded_model.py").display(),
                fixtures.join("agent-run").join(set).join(name).display(),
                calls.display()
            );
            args.extend(["agent", "--agent-cmd", &cmd]);
        }
    }
    let model = by != By::Rules;
    let out = env.ok(&args).json();
    if model {
        let calls = std::fs::read_to_string(&calls).expect("calls");
        assert_eq!(
            calls.lines().count(),
            1,
            "one call for a store of {}",
            rows.len()
        );
        for refused in out["refused"].as_array().into_iter().flatten() {
            println!(
                "  {}: refused {} ({})",
                store.display(),
                refused["what"],
                refused["why"]
            );
        }
    }
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]), head, "HEAD moved");
    assert_git_clean(&dir);
    let original = |name: &str| {
        rows.iter()
            .find(|r| r.name == name)
            .map(|r| {
                format!(
                    "{}\n{}\n{}",
                    r.title.clone().unwrap_or_default(),
                    r.description,
                    r.body
                )
            })
            .unwrap_or_default()
    };
    let at = |commit: &str, name: &str| {
        crate::common::git_output(&dir, &["show", &format!("{commit}:{name}.md")])
    };
    let strs = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut proposed_pairs = BTreeSet::new();
    let mut contradictions = BTreeSet::new();
    let mut expired = BTreeSet::new();
    let mut rewrites: Vec<(String, String)> = Vec::new();
    let mut merges: Vec<(Vec<String>, String, String)> = Vec::new();
    let tip = out["commits"]
        .as_array()
        .and_then(|c| c.last())
        .and_then(|c| c["commit"].as_str())
        .unwrap_or_default()
        .to_string();
    for commit in out["commits"].as_array().into_iter().flatten() {
        let id = commit["commit"].as_str().expect("commit");
        for change in commit["changes"].as_array().into_iter().flatten() {
            let name = change["name"].as_str().expect("name").to_string();
            let merged = strs(&change["merged"]);
            match commit["kind"].as_str() {
                Some("duplicates") => {
                    let mut group = merged.clone();
                    group.push(name.clone());
                    for a in &group {
                        for b in &group {
                            if a < b {
                                proposed_pairs.insert((a.clone(), b.clone()));
                            }
                        }
                    }
                    merges.push((group, name, tip.clone()));
                }
                Some("contradicted") => {
                    contradictions.insert((name, merged.first().cloned().unwrap_or_default()));
                }
                Some("expired") => {
                    expired.insert(name);
                }
                Some("relative-dates") => rewrites.push((name, id.to_string())),
                _ => {}
            }
        }
    }
    let mut scores = BTreeMap::new();
    // Duplicates, pair by pair.
    let mut true_pairs = BTreeSet::new();
    for group in labels["duplicates"].as_array().expect("duplicates") {
        let members = strs(&group["memories"]);
        for a in &members {
            for b in &members {
                if a < b {
                    true_pairs.insert((a.clone(), b.clone()));
                }
            }
        }
    }
    scores.insert("duplicates", score(&proposed_pairs, &true_pairs));
    // Details a merge must keep: of each labelled group a merge took in, those its members said.
    let mut details = (0, 0);
    for group in labels["duplicates"].as_array().expect("duplicates") {
        let members = strs(&group["memories"]);
        for (merged, into, tip) in &merges {
            let taken: Vec<&String> = merged.iter().filter(|m| members.contains(m)).collect();
            if taken.len() < 2 {
                continue;
            }
            let output = at(tip, into);
            let text = String::from_utf8_lossy(&output.stdout);
            for detail in strs(&group["details"]) {
                if taken.iter().any(|m| original(m).contains(&detail)) {
                    details.1 += 1;
                    if text.contains(&detail) {
                        details.0 += 1;
                    } else {
                        println!("  {}: {into} lost {detail:?}", store.display());
                    }
                }
            }
        }
    }
    let true_contradictions: BTreeSet<(String, String)> = labels["contradictions"]
        .as_array()
        .expect("contradictions")
        .iter()
        .map(|c| {
            (
                c["older"].as_str().expect("older").to_string(),
                c["newer"].as_str().expect("newer").to_string(),
            )
        })
        .collect();
    scores.insert(
        "contradictions",
        score(&contradictions, &true_contradictions),
    );
    let true_expired: BTreeSet<String> = labels["expired"]
        .as_array()
        .expect("expired")
        .iter()
        .map(|e| e["name"].as_str().expect("name").to_string())
        .collect();
    scores.insert("expired", score(&expired, &true_expired));
    let relative: BTreeMap<String, String> = labels["relative_dates"]
        .as_array()
        .expect("relative dates")
        .iter()
        .map(|r| {
            (
                r["name"].as_str().expect("name").to_string(),
                r["absolute"].as_str().expect("absolute").to_string(),
            )
        })
        .collect();
    let right = rewrites
        .iter()
        .filter(|(name, commit)| {
            relative.get(name).is_some_and(|absolute| {
                String::from_utf8_lossy(&at(commit, name).stdout).contains(absolute.as_str())
            })
        })
        .count();
    scores.insert(
        "relative dates",
        Score {
            proposed: rewrites.len(),
            right,
            labelled: relative.len(),
            found: right,
        },
    );
    let wrong: Vec<String> = proposed_pairs
        .difference(&true_pairs)
        .map(|p| format!("merged {p:?}"))
        .chain(
            contradictions
                .difference(&true_contradictions)
                .map(|c| format!("dropped {c:?}")),
        )
        .chain(
            expired
                .difference(&true_expired)
                .map(|e| format!("expired {e}")),
        )
        .collect();
    for w in wrong {
        println!("  {}: wrong: {w}", store.display());
    }
    (scores, details)
}

/// Every store of a set, scored; the totals printed, per kind.
fn score_set(set: &str, by: By) -> (BTreeMap<&'static str, Score>, (usize, usize)) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/consolidation")
        .join(set);
    let mut stores: Vec<_> = std::fs::read_dir(&root)
        .expect("set")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("labels.json").is_file())
        .collect();
    stores.sort();
    assert!(!stores.is_empty(), "{set}: no stores");
    let mut total: BTreeMap<&'static str, Score> = BTreeMap::new();
    let mut details = (0, 0);
    for store in &stores {
        let (scores, kept) = score_store(store, by);
        details.0 += kept.0;
        details.1 += kept.1;
        for (kind, score) in scores {
            total.entry(kind).or_default().add(score);
        }
    }
    let by = match by {
        By::Rules => "",
        By::Labels => " (labelled model)",
        By::Recorded => " (recorded model)",
    };
    for kind in KINDS {
        let s = total[kind];
        println!(
            "consolidation {set}{by} {kind}: precision {:.2} ({}/{}), recall {:.2} ({}/{})",
            s.precision(),
            s.right,
            s.proposed,
            s.recall(),
            s.found,
            s.labelled
        );
    }
    println!(
        "consolidation {set}{by} merge details kept: {}/{}",
        details.0, details.1
    );
    (total, details)
}

/// The set the rules were tuned on: the targets, precision 0.95 and recall 0.8 per kind.
#[test]
fn consolidation_quality_on_the_dev_set() {
    let (scores, details) = score_set("dev", By::Rules);
    for kind in KINDS {
        let s = scores[kind];
        assert!(
            s.precision() >= 0.95 && s.recall() >= 0.8,
            "dev {kind}: {s:?}"
        );
    }
    assert_eq!(details.0, details.1, "a merge lost a detail");
}

/// The set no rule was tuned on, written by someone who saw neither the code nor the dev set.
/// Its first run (the commit that added this test) measured duplicates P 0.63 R 0.33,
/// contradictions P 0.89 R 0.38, expired P 0.94 R 0.83, relative dates P 1.00 R 1.00, merge
/// details 26/26: below the targets (P 0.95, R 0.8) for all but relative dates and expired
/// recall. The rules were not tuned on it afterwards; these floors hold them to that first run,
/// so that a change that makes it worse fails.
#[test]
fn consolidation_quality_on_the_blind_set() {
    let (scores, details) = score_set("blind", By::Rules);
    let floors = [
        ("duplicates", 0.63, 0.33),
        ("contradictions", 0.88, 0.38),
        ("expired", 0.93, 0.83),
        ("relative dates", 1.0, 1.0),
    ];
    for (kind, precision, recall) in floors {
        let s = scores[kind];
        assert!(
            s.precision() >= precision && s.recall() >= recall,
            "blind {kind} fell below its first run: {s:?}"
        );
    }
    assert_eq!(details.0, details.1, "a merge lost a detail");
}

/// By the model, through the protocol and memdir's checks, with a scripted model that answers
/// as the labels do: what the checks let through of right answers (a check that refuses a
/// right merge or drop costs recall), on both sets, one call per store.
#[test]
fn consolidation_by_a_model_that_answers_as_the_labels_do() {
    for set in ["dev", "blind"] {
        let (scores, details) = score_set(set, By::Labels);
        for kind in KINDS {
            let s = scores[kind];
            assert!(
                s.precision() >= 0.95 && s.recall() >= 0.8,
                "{set} {kind}: {s:?}"
            );
        }
        assert_eq!(details.0, details.1, "a merge lost a detail");
    }
}

/// By a real model: the answers a Claude model gave once to the blind set's requests, blind to
/// the labels and the code (recorded in `fixtures/consolidation/agent-run/blind/`), replayed
/// through the protocol and memdir's checks. Its first run (the commit that added it): duplicates
/// P 1.00 R 0.83 (30/36), contradictions P 1.00 R 0.90 (19/21), expired P 1.00 R 1.00, relative
/// dates P 1.00 R 1.00, merge details 66/66; memdir refused 4 of its 81 actions. The targets hold.
#[test]
fn consolidation_by_a_recorded_model_on_the_blind_set() {
    let (scores, details) = score_set("blind", By::Recorded);
    for kind in KINDS {
        let s = scores[kind];
        assert!(
            s.precision() >= 0.95 && s.recall() >= 0.8,
            "blind {kind} by the recorded model: {s:?}"
        );
    }
    assert_eq!(details.0, details.1, "a merge lost a detail");
}
