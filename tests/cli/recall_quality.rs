//! Recall quality on the labelled retrieval sets in `fixtures/recall/` (its README gives the
//! schema and who wrote what): recall@3 of the ranking and of what clears the bar for showing a
//! memory to the agent unasked, the mean reciprocal rank, and how often a prompt with nothing
//! relevant gets nothing. `cargo test --test cli recall_quality -- --nocapture` prints the table.

use std::path::{Path, PathBuf};

use crate::common::{TestEnv, copy_tree};

#[derive(serde::Deserialize)]
struct Prompt {
    prompt: String,
    /// `name` for a personal memory, `team:name` for a team one; most relevant first.
    relevant: Vec<String>,
}

/// The figures of one store (or a sum of stores).
#[derive(Default, Clone, Copy)]
struct Score {
    /// Prompts with something relevant, and the sums over them. Recall@3 counts the relevant
    /// memories in the first three out of as many as three can hold (`min(relevant, 3)`): the
    /// writers list up to six for a prompt, and the hook adds at most three.
    answerable: usize,
    recall_ranked: f64,
    recall_shown: f64,
    reciprocal_rank: f64,
    /// Prompts with nothing relevant, and how many of them got nothing shown.
    unanswerable: usize,
    quiet: usize,
}

impl Score {
    fn add(&mut self, other: Score) {
        self.answerable += other.answerable;
        self.recall_ranked += other.recall_ranked;
        self.recall_shown += other.recall_shown;
        self.reciprocal_rank += other.reciprocal_rank;
        self.unanswerable += other.unanswerable;
        self.quiet += other.quiet;
    }

    fn recall_at_3(&self) -> f64 {
        self.recall_ranked / self.answerable.max(1) as f64
    }

    fn shown_recall_at_3(&self) -> f64 {
        self.recall_shown / self.answerable.max(1) as f64
    }

    fn mrr(&self) -> f64 {
        self.reciprocal_rank / self.answerable.max(1) as f64
    }

    fn quiet_rate(&self) -> f64 {
        self.quiet as f64 / self.unanswerable.max(1) as f64
    }

    fn row(&self, name: &str) -> String {
        format!(
            "{name:<22} {:>4} {:>9.2} {:>13.2} {:>6.2} {:>4} {:>8.2}",
            self.answerable,
            self.recall_at_3(),
            self.shown_recall_at_3(),
            self.mrr(),
            self.unanswerable,
            self.quiet_rate()
        )
    }
}

fn stores(set: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/recall")
        .join(set);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("prompts.json").is_file())
        .collect();
    out.sort();
    out
}

/// Search every prompt of `store` in a copy of its memory (team memory in its `team/` folder).
fn evaluate(store: &Path) -> Score {
    let env = TestEnv::new();
    let dir = env.root.join("memory");
    copy_tree(&store.join("memory"), &dir);
    if store.join("team").is_dir() {
        copy_tree(&store.join("team"), &dir.join("team"));
    }
    let dir = dir.display().to_string();
    let prompts: Vec<Prompt> = serde_json::from_str(
        &std::fs::read_to_string(store.join("prompts.json")).expect("prompts.json"),
    )
    .expect("prompts.json parses");
    let mut score = Score::default();
    for p in &prompts {
        let run = env.ok(&[
            "--memory-dir",
            &dir,
            "search",
            "--json",
            "-n",
            "10",
            "--",
            &p.prompt,
        ]);
        let found: Vec<(String, bool)> = run
            .json()
            .as_array()
            .expect("an array")
            .iter()
            .map(|hit| {
                let name = hit["name"].as_str().expect("name");
                let label = match hit["scope"].as_str() {
                    Some("team") => format!("team:{name}"),
                    _ => name.to_string(),
                };
                (label, hit["relevant"].as_bool().expect("relevant"))
            })
            .collect();
        if p.relevant.is_empty() {
            score.unanswerable += 1;
            if !found.iter().any(|(_, shown)| *shown) {
                score.quiet += 1;
            }
            continue;
        }
        score.answerable += 1;
        let top3 = &found[..found.len().min(3)];
        let hits = |shown_only: bool| {
            p.relevant
                .iter()
                .filter(|r| {
                    top3.iter()
                        .any(|(label, shown)| label == *r && (*shown || !shown_only))
                })
                .count() as f64
                / p.relevant.len().min(3) as f64
        };
        score.recall_ranked += hits(false);
        score.recall_shown += hits(true);
        if let Some(rank) = found
            .iter()
            .position(|(label, _)| p.relevant.contains(label))
        {
            score.reciprocal_rank += 1.0 / (rank + 1) as f64;
        }
    }
    score
}

/// Every store of `set`, one row each and a total; the total.
fn report(set: &str) -> Score {
    println!(
        "{:<22} {:>4} {:>9} {:>13} {:>6} {:>4} {:>8}",
        set, "n", "recall@3", "shown@3", "MRR", "none", "quiet"
    );
    let mut total = Score::default();
    for store in stores(set) {
        let score = evaluate(&store);
        let name = store.file_name().expect("a name").to_string_lossy();
        println!("{}", score.row(&name));
        total.add(score);
    }
    println!("{}\n", total.row("all"));
    total
}

/// The set's figures hold at least `floors` (recall@3 ranked, recall@3 shown, MRR, quiet rate),
/// with at least `answerable` prompts labelled with a relevant memory.
fn holds(set: &str, answerable: usize, floors: [f64; 4]) {
    let score = report(set);
    assert!(score.answerable >= answerable, "the {set} set is missing");
    let row = score.row(set);
    let figures = [
        score.recall_at_3(),
        score.shown_recall_at_3(),
        score.mrr(),
        score.quiet_rate(),
    ];
    for (figure, floor) in figures.into_iter().zip(floors) {
        assert!(figure >= floor, "{row}");
    }
}

#[test]
fn recall_quality_on_the_development_set() {
    // Floors under the figures the ranking was tuned to (0.58, 0.27, 0.87, 1.00): against
    // regressions. The target is issue 14's (recall@3 0.9, quiet 0.9).
    holds("dev", 40, [0.55, 0.25, 0.84, 0.92]);
}

#[test]
fn recall_quality_on_the_blind_set() {
    // Floors just under the first run (0.67, 0.34, 0.85, 0.88; never tuned on): against
    // regressions, not the target.
    holds("blind", 100, [0.64, 0.31, 0.82, 0.84]);
}
