//! Recall quality on the labelled retrieval sets in `fixtures/recall/` (its README gives the
//! schema and who wrote what), as `memdir recall --json` sees each prompt: how often the prompt
//! hook adds a relevant memory (as a body or a line) to a prompt that has one, how often it adds
//! nothing to a prompt that has none, how many of the bodies it adds are relevant, and the
//! ranking under it (recall@3, MRR). `cargo test --test cli recall_quality -- --nocapture`
//! prints the table.

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
    /// Prompts with something relevant, and of them those that got a relevant memory added.
    answerable: usize,
    hit: usize,
    /// Recall@3 counts the relevant memories in the first three out of as many as three can
    /// hold (`min(relevant, 3)`: the writers list up to six for a prompt); summed, as the
    /// reciprocal rank of the first relevant memory in the first ten.
    recall_ranked: f64,
    reciprocal_rank: f64,
    /// Prompts with nothing relevant, and how many of them got nothing added.
    unanswerable: usize,
    quiet: usize,
    /// Bodies and lines added, over all prompts, and how many of each were relevant.
    bodies: usize,
    relevant_bodies: usize,
    lines: usize,
    relevant_lines: usize,
}

impl Score {
    fn add(&mut self, other: Score) {
        self.answerable += other.answerable;
        self.hit += other.hit;
        self.recall_ranked += other.recall_ranked;
        self.reciprocal_rank += other.reciprocal_rank;
        self.unanswerable += other.unanswerable;
        self.quiet += other.quiet;
        self.bodies += other.bodies;
        self.relevant_bodies += other.relevant_bodies;
        self.lines += other.lines;
        self.relevant_lines += other.relevant_lines;
    }

    fn share(part: usize, whole: usize) -> f64 {
        part as f64 / whole.max(1) as f64
    }

    fn hit_rate(&self) -> f64 {
        Score::share(self.hit, self.answerable)
    }

    fn quiet_rate(&self) -> f64 {
        Score::share(self.quiet, self.unanswerable)
    }

    fn body_precision(&self) -> f64 {
        Score::share(self.relevant_bodies, self.bodies)
    }

    fn recall_at_3(&self) -> f64 {
        self.recall_ranked / self.answerable.max(1) as f64
    }

    fn mrr(&self) -> f64 {
        self.reciprocal_rank / self.answerable.max(1) as f64
    }

    fn row(&self, name: &str) -> String {
        format!(
            "{name:<10} {:>4} {:>5.2} {:>4} {:>6.2} {:>7} {:>10.2} {:>6} {:>10.2} {:>9.2} {:>5.2}",
            self.answerable,
            self.hit_rate(),
            self.unanswerable,
            self.quiet_rate(),
            self.bodies,
            self.body_precision(),
            self.lines,
            Score::share(self.relevant_lines, self.lines),
            self.recall_at_3(),
            self.mrr(),
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

/// Recall every prompt of `store` in a copy of its memory (team memory in its `team/` folder).
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
        let run = env.ok(&["--memory-dir", &dir, "recall", "--json", "--", &p.prompt]);
        let answer = run.json();
        // Every memory that matched, best first, and the tier it was added in, if any.
        let found: Vec<(String, Option<String>)> = answer["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .map(|hit| {
                let name = hit["name"].as_str().expect("name");
                let label = match hit["scope"].as_str() {
                    Some("team") => format!("team:{name}"),
                    _ => name.to_string(),
                };
                (label, hit["tier"].as_str().map(str::to_string))
            })
            .collect();
        let added: Vec<&(String, Option<String>)> =
            found.iter().filter(|(_, tier)| tier.is_some()).collect();
        assert_eq!(
            answer["text"].is_null(),
            added.is_empty(),
            "{}: text and tiers disagree",
            p.prompt
        );
        for (label, tier) in &added {
            let relevant = p.relevant.contains(label);
            match tier.as_deref() {
                Some("body") => {
                    score.bodies += 1;
                    score.relevant_bodies += usize::from(relevant);
                }
                _ => {
                    score.lines += 1;
                    score.relevant_lines += usize::from(relevant);
                }
            }
        }
        if p.relevant.is_empty() {
            score.unanswerable += 1;
            score.quiet += usize::from(added.is_empty());
            continue;
        }
        score.answerable += 1;
        score.hit += usize::from(added.iter().any(|(label, _)| p.relevant.contains(label)));
        let top3 = &found[..found.len().min(3)];
        score.recall_ranked += p
            .relevant
            .iter()
            .filter(|r| top3.iter().any(|(label, _)| label == *r))
            .count() as f64
            / p.relevant.len().min(3) as f64;
        if let Some(rank) = found
            .iter()
            .take(10)
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
        "{set:<10} {:>4} {:>5} {:>4} {:>6} {:>7} {:>10} {:>6} {:>10} {:>9} {:>5}",
        "n", "hit", "none", "quiet", "bodies", "body prec", "lines", "line prec", "recall@3", "MRR"
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

/// The set's figures hold at least `floors` (hit rate, quiet, body precision, recall@3, MRR),
/// with at least `answerable` prompts labelled with a relevant memory.
fn holds(set: &str, answerable: usize, floors: [f64; 5]) {
    let score = report(set);
    assert!(score.answerable >= answerable, "the {set} set is missing");
    let row = score.row(set);
    let figures = [
        score.hit_rate(),
        score.quiet_rate(),
        score.body_precision(),
        score.recall_at_3(),
        score.mrr(),
    ];
    for (figure, floor) in figures.into_iter().zip(floors) {
        assert!(figure >= floor, "{row}");
    }
}

#[test]
fn recall_quality_on_the_development_set() {
    // Floors under the figures of the four development stores (hit 0.84, quiet 0.45, body
    // precision 0.84, recall@3 0.59, MRR 0.81; the bar was tuned on store-d alone): against
    // regressions. Issue 29's targets, for the blind set, are hit 0.85, quiet 0.85 and body
    // precision 0.90.
    holds("dev", 200, [0.81, 0.42, 0.80, 0.56, 0.78]);
}

#[test]
fn recall_quality_on_the_blind_set() {
    // Floors just under the first run of the tiers (hit 0.86, quiet 0.41, body precision 0.83,
    // recall@3 0.68, MRR 0.85; never tuned on): against regressions. Quiet and body precision
    // are short of issue 29's targets (0.85, 0.90): fixtures/recall/README.md.
    holds("blind", 100, [0.83, 0.37, 0.78, 0.65, 0.82]);
}
