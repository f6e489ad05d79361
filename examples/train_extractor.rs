//! Trains the builtin extractor's model (issue 12) from the labelled training sets in
//! `fixtures/extraction/` and writes `src/extract/builtin/model.bin`:
//!
//! ```sh
//! cargo run --release --example train_extractor            # cross-validate, then train and write
//! cargo run --release --example train_extractor -- --no-cv # train and write only
//! ```
//!
//! Every sentence the person typed, as the extractor itself reads it (memdir's transcript reader
//! and segmenter, the same features code), is a sample: positive of type T when it holds the
//! `contains` strings of an expected memory of type T (or, for a memory said over several
//! sentences of one prompt, some of them), negative otherwise; a sentence holding the stale value
//! of a correction (`absent`) is left out. Each set is one writer: leave-one-writer-out
//! cross-validation prints, per held-out writer, the sentence-level precision and recall of the
//! model and the memory-level F1 of the whole extractor (cues alone, then cues with the model),
//! scored as `tests/cli/quality.rs` scores. Training is multinomial logistic regression by
//! AdaGrad with a fixed seed and order: the same data gives the same bytes. The blind sets are
//! never read.
#![allow(
    clippy::print_stdout,
    reason = "a command-line tool: its report is its output"
)]

use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};

use memdir::extract::builtin::model::{CLASSES, Weights, candidates};
use memdir::extract::builtin::{GATE_THRESHOLD, POLICY, Policy, extract_with, gate_with};
use memdir::extract::transcript::{Reader, Record, Turn, Turns};
use memdir::extract::{Action, Existing};
use memdir::memory::dates::absolutize;
use memdir::memory::taxonomy::MemoryType;

/// The training sets, one writer each. `blind-a` and `blind-b` are not here, on purpose.
const WRITERS: &[&str] = &[
    "cases", "holdout", "fresh", "final", "unseen", "train-a", "train-b", "train-c", "train-d",
    "train-e", "train-f", "train-g", "train-h", "train-i", "train-j", "train-k", "train-l",
    "train-m",
];

/// Where the transcripts' `{{MEMORY_DIR}}` points during training.
const MEMORY_DIR: &str = "/memdir-training/memory";

// Chosen by the leave-one-writer-out figures (memory-level F1 moved by less than 0.01 across
// positive weights 1.5-3, L2 1e-4-1e-3 and 5-12 epochs; these gave the best sentence recall).
const EPOCHS: usize = 12;
const LEARNING_RATE: f32 = 0.2;
const L2: f32 = 1e-3;
/// Positives are rarer than negatives and matter more.
const POSITIVE_WEIGHT: f32 = 3.0;
const SEED: u64 = 0x6d65_6d64_6972;

#[path = "../tests/cli/labels.rs"]
mod labels;
use labels::Expected;

/// One labelled session.
struct Case {
    writer: usize,
    name: String,
    turns: Vec<Turn>,
    /// The agent wrote memory itself: the extractor skips the range.
    skipped: bool,
    before: Vec<Existing>,
    expected: Expected,
}

/// One sentence: its features, class and weight.
struct Sample {
    writer: usize,
    features: Vec<(u32, f32)>,
    class: usize,
}

fn main() -> Result<(), Box<dyn Error>> {
    let cv = !std::env::args().any(|a| a == "--no-cv");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut cases = Vec::new();
    for (writer, set) in WRITERS.iter().enumerate() {
        let dir = root.join("fixtures/extraction").join(set);
        let dir = if set == &"cases" {
            dir
        } else {
            dir.join("cases")
        };
        let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.join("expected.json").is_file())
            .collect();
        names.sort();
        for path in names {
            cases.push(read_case(writer, &path)?);
        }
    }
    if let Some(at) = std::env::args().position(|a| a == "--gate-explain") {
        // The shipped model's gate: what it keeps from the model, and the quiet sessions it
        // passes, prompt by prompt (no training, nothing written).
        let threshold = std::env::args()
            .nth(at + 1)
            .and_then(|t| t.parse().ok())
            .unwrap_or(GATE_THRESHOLD);
        explain_gate(&cases, threshold);
        return Ok(());
    }
    let samples: Vec<Sample> = cases.iter().flat_map(samples_of).collect();
    let positives = samples.iter().filter(|s| s.class > 0).count();
    println!(
        "{} sessions from {} writers: {} sentences, {} worth remembering",
        cases.len(),
        WRITERS.len(),
        samples.len(),
        positives
    );
    if cv {
        cross_validate(&cases, &samples, std::env::args().any(|a| a == "--explain"));
    }
    let weights = train(samples.iter());
    let out = root.join("src/extract/builtin/model.bin");
    std::fs::write(&out, weights.encode())?;
    println!("wrote {}", out.display());
    Ok(())
}

fn read_case(writer: usize, path: &Path) -> Result<Case, Box<dyn Error>> {
    let expected: Expected =
        serde_json::from_str(&std::fs::read_to_string(path.join("expected.json"))?)?;
    let text = std::fs::read_to_string(path.join("transcript.jsonl"))?
        .replace("{{MEMORY_DIR}}", MEMORY_DIR);
    let mut reader = Reader::new(text.as_bytes(), 0);
    let mut turns = Turns::default();
    let (mut out, mut skipped) = (Vec::new(), false);
    while let Some(located) = reader.next_record()? {
        if let Record::Assistant { tool_uses, .. } = &located.record {
            skipped |= tool_uses
                .iter()
                .filter_map(|t| t.written_path())
                .any(|p| p.starts_with(MEMORY_DIR));
        }
        out.extend(turns.push(&located));
    }
    let before = expected
        .before
        .iter()
        .map(|b| Existing {
            name: b.name.clone(),
            memory_type: b.r#type.parse().ok(),
            description: b.description.clone(),
            body: b.body.clone(),
        })
        .collect();
    Ok(Case {
        writer,
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        turns: out,
        skipped,
        before,
        expected,
    })
}

fn class_of(memory_type: &str) -> usize {
    CLASSES
        .iter()
        .position(|c| c.is_some_and(|t| t.as_str() == memory_type))
        .unwrap_or(0)
}

/// The labelled sentences of a session.
fn samples_of(case: &Case) -> Vec<Sample> {
    if case.skipped {
        return Vec::new();
    }
    // (turn, candidate, lower-cased text as said and with dates made absolute)
    let mut sentences = Vec::new();
    for (t, turn) in case.turns.iter().enumerate() {
        let date = turn.timestamp.map(|t| t.date_naive()).unwrap_or_default();
        for candidate in candidates(turn) {
            let text =
                format!("{}\n{}", candidate.text, absolutize(&candidate.text, date)).to_lowercase();
            sentences.push((t, candidate, text));
        }
    }
    let mut class = vec![0usize; sentences.len()];
    let mut left_out = vec![false; sentences.len()];
    for memory in &case.expected.memories {
        let wanted: Vec<String> = memory.contains.iter().map(|c| c.to_lowercase()).collect();
        let hits: Vec<usize> = sentences
            .iter()
            .map(|(_, _, text)| wanted.iter().filter(|c| text.contains(c.as_str())).count())
            .collect();
        let best = hits.iter().copied().max().unwrap_or(0);
        if best == 0 {
            continue;
        }
        // The prompts where it is said best; there, every sentence holding part of it.
        let turns: Vec<usize> = (0..sentences.len())
            .filter(|&i| hits[i] == best)
            .map(|i| sentences[i].0)
            .collect();
        for i in 0..sentences.len() {
            let whole = hits[i] == best;
            let part = hits[i] > 0 && best < wanted.len() && turns.contains(&sentences[i].0);
            if (whole || part) && class[i] == 0 {
                class[i] = class_of(&memory.r#type);
            }
        }
        for (i, (_, _, text)) in sentences.iter().enumerate() {
            if memory
                .absent
                .iter()
                .any(|a| text.contains(&a.to_lowercase()))
            {
                left_out[i] = true;
            }
        }
    }
    // A hard negative stays one, whatever it shares with a memory ("plus the migration for it").
    for (i, (_, _, text)) in sentences.iter().enumerate() {
        if case
            .expected
            .forbidden
            .iter()
            .any(|f| text.contains(&f.to_lowercase()))
        {
            class[i] = 0;
            left_out[i] = false;
        }
    }
    sentences
        .into_iter()
        .enumerate()
        .filter(|(i, _)| class[*i] > 0 || !left_out[*i])
        .map(|(i, (_, candidate, _))| Sample {
            writer: case.writer,
            features: candidate.features,
            class: class[i],
        })
        .collect()
}

/// A fixed-seed generator for the sample order (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Multinomial logistic regression by AdaGrad, L2-regularised on the weights each step touches.
fn train<'a>(samples: impl Iterator<Item = &'a Sample>) -> Weights {
    let samples: Vec<&Sample> = samples.collect();
    let mut weights = Weights::zero();
    let mut squares = Weights::zero();
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut rng = Rng(SEED);
    for _ in 0..EPOCHS {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &at in &order {
            let sample = samples[at];
            let p = weights.probabilities(&sample.features);
            let weight = if sample.class > 0 {
                POSITIVE_WEIGHT
            } else {
                1.0
            };
            for (class, probability) in p.iter().enumerate() {
                let target = if class == sample.class { 1.0 } else { 0.0 };
                let error = (probability - target) * weight;
                for &(slot, value) in &sample.features {
                    let (Some(w), Some(g2)) =
                        (weights.get_mut(slot, class), squares.get_mut(slot, class))
                    else {
                        continue;
                    };
                    let gradient = error * value + L2 * *w;
                    *g2 += gradient * gradient;
                    *w -= LEARNING_RATE * gradient / (g2.sqrt() + 1e-6);
                }
            }
        }
    }
    weights
}

#[derive(Default, Clone, Copy)]
struct Counts {
    produced: usize,
    expected: usize,
    matched: usize,
    /// Sessions where a `forbidden` string was saved.
    leaks: usize,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.produced += other.produced;
        self.expected += other.expected;
        self.matched += other.matched;
        self.leaks += other.leaks;
    }

    fn precision(self) -> f64 {
        ratio(self.matched, self.produced)
    }

    fn recall(self) -> f64 {
        ratio(self.matched, self.expected)
    }

    fn f1(self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// Sentence level: a sentence is predicted worth remembering when its best type reaches the
/// policy's `accept`; right when that type is its label's.
fn sentence_counts(weights: &Weights, samples: &[&Sample]) -> Counts {
    let mut counts = Counts::default();
    for sample in samples {
        let p = weights.probabilities(&sample.features);
        let best = (1..CLASSES.len())
            .max_by(|&a, &b| p[a].total_cmp(&p[b]))
            .unwrap_or(0);
        let predicted = (p[best] >= POLICY.accept).then_some(best);
        counts.expected += usize::from(sample.class > 0);
        counts.produced += usize::from(predicted.is_some());
        counts.matched += usize::from(predicted == Some(sample.class) && sample.class > 0);
    }
    counts
}

/// What the gate does to a set of sessions (DESIGN §6: few model calls, nothing lost).
#[derive(Default, Clone, Copy)]
struct GateCounts {
    /// Expected memories the extractor must make (not a `before` one that survives as it is).
    memories: usize,
    /// Those whose words the prompts the gate lets through still hold: a model reading only
    /// those prompts can make them.
    kept: usize,
    /// Sessions with nothing to remember (nothing to save, update or remove).
    quiet: usize,
    /// Those the gate lets no prompt of through: no model call.
    quiet_without_call: usize,
    prompts: usize,
    passed: usize,
}

impl GateCounts {
    fn add(&mut self, o: GateCounts) {
        self.memories += o.memories;
        self.kept += o.kept;
        self.quiet += o.quiet;
        self.quiet_without_call += o.quiet_without_call;
        self.prompts += o.prompts;
        self.passed += o.passed;
    }
}

/// The gate at `threshold` over `cases`: a memory is kept when every `contains` string that the
/// session's prompts or replies hold is in a prompt the gate passes (or the reply before it); a
/// removal or correction of a `before` memory, and a memory none of whose strings are said (an
/// absolute date), when any prompt passes.
fn gate_counts(
    cases: &[&Case],
    weights: Option<&Weights>,
    threshold: f32,
    tries: &str,
) -> GateCounts {
    let mut counts = GateCounts::default();
    for case in cases.iter().filter(|c| !c.skipped) {
        let gate = gate_of(case, weights, threshold, tries);
        let text = |turns: &mut dyn Iterator<Item = &Turn>| {
            turns
                .map(|t| format!("{}\n{}", t.previous_reply, t.prompt))
                .collect::<Vec<_>>()
                .join("\n")
                .to_lowercase()
        };
        let all = text(&mut case.turns.iter());
        let passed = text(
            &mut case
                .turns
                .iter()
                .zip(&gate)
                .filter(|(_, g)| **g)
                .map(|(t, _)| t),
        );
        let any = gate.contains(&true);
        counts.prompts += gate.len();
        counts.passed += gate.iter().filter(|g| **g).count();
        let before_text: Vec<(String, String)> = case
            .before
            .iter()
            .map(|b| {
                let t = b.memory_type.map_or("", MemoryType::as_str).to_string();
                (
                    t,
                    format!("{} {} {}", b.name, b.description, b.body).to_lowercase(),
                )
            })
            .collect();
        let survives = |want: &labels::ExpectedMemory| {
            before_text.iter().any(|(t, text)| {
                *t == want.r#type
                    && want
                        .contains
                        .iter()
                        .all(|c| text.contains(&c.to_lowercase()))
                    && !want.absent.iter().any(|a| text.contains(&a.to_lowercase()))
            })
        };
        let mut work = 0;
        let mut kept = 0;
        for want in case.expected.memories.iter().filter(|w| !survives(w)) {
            work += 1;
            let said: Vec<String> = want
                .contains
                .iter()
                .map(|c| c.to_lowercase())
                .filter(|c| all.contains(c.as_str()))
                .collect();
            let ok = if said.is_empty() {
                any
            } else {
                said.iter().all(|c| passed.contains(c.as_str()))
            };
            kept += usize::from(ok);
        }
        // Before memories that must go or change: one action each, on any passed prompt.
        let changed = case.before.len()
            - case
                .expected
                .memories
                .iter()
                .filter(|w| survives(w))
                .count()
                .min(case.before.len());
        counts.memories += work + changed;
        counts.kept += kept + if any { changed } else { 0 };
        if work + changed == 0 {
            counts.quiet += 1;
            counts.quiet_without_call += usize::from(!any);
        }
    }
    counts
}

/// The gate over a session's prompts, with the experiments named in `tries` ("urls": a prompt
/// holding a link passes too; tried, and not kept: 3 more of 648 memories for 2 fewer of 168
/// quiet sessions without a call) passing more.
fn gate_of(case: &Case, weights: Option<&Weights>, threshold: f32, tries: &str) -> Vec<bool> {
    gate_with(&case.turns, weights, threshold)
        .into_iter()
        .zip(&case.turns)
        .map(|(pass, turn)| pass || tries.contains("urls") && turn.prompt.contains("://"))
        .collect()
}

/// Print, per session, the prompts holding a memory's words that the gate (the shipped model at
/// `threshold`) stops, and the prompts it passes in sessions with nothing to remember.
fn explain_gate(cases: &[Case], threshold: f32) {
    let weights = memdir::extract::builtin::model::SHIPPED.as_ref();
    let mut total = GateCounts::default();
    for case in cases.iter().filter(|c| !c.skipped) {
        let tries = std::env::var("MEMDIR_GATE_TRY").unwrap_or_default();
        let one = gate_counts(&[case], weights, threshold, &tries);
        total.add(one);
        let gate = gate_of(case, weights, threshold, &tries);
        let set = WRITERS[case.writer];
        if one.kept < one.memories {
            for (turn, passed) in case.turns.iter().zip(&gate) {
                let lower = turn.prompt.to_lowercase();
                let holds = case
                    .expected
                    .memories
                    .iter()
                    .any(|m| m.contains.iter().any(|c| lower.contains(&c.to_lowercase())));
                if holds && !passed {
                    println!("stopped {set}/{}: {:?}", case.name, cut(&turn.prompt));
                }
            }
        }
        if one.quiet > 0 && one.quiet_without_call == 0 {
            for (turn, passed) in case.turns.iter().zip(&gate) {
                if *passed {
                    println!(
                        "quiet but passed {set}/{}: {:?}",
                        case.name,
                        cut(&turn.prompt)
                    );
                }
            }
        }
    }
    println!(
        "threshold {threshold}: memories {}/{}, quiet sessions without a call {}/{}, prompts passed {}/{}",
        total.kept,
        total.memories,
        total.quiet_without_call,
        total.quiet,
        total.passed,
        total.prompts
    );
}

fn cut(text: &str) -> String {
    text.chars().take(160).collect()
}

/// Memory level, as `tests/cli/quality.rs` scores: run the extractor on each session and match
/// what the memory dir holds after it against the expected memories.
fn memory_counts(cases: &[&Case], weights: Option<&Weights>, policy: Policy) -> Counts {
    memory_counts_explained(cases, weights, policy, &mut Vec::new())
}

/// [`memory_counts`], with a line for each expected memory missed and each extra one produced.
fn memory_counts_explained(
    cases: &[&Case],
    weights: Option<&Weights>,
    policy: Policy,
    misses: &mut Vec<String>,
) -> Counts {
    let mut counts = Counts::default();
    for case in cases {
        let actions = if case.skipped {
            Vec::new()
        } else {
            extract_with(&case.turns, &case.before, weights, policy).actions
        };
        let mut dir: BTreeMap<String, (String, String)> = case
            .before
            .iter()
            .map(|b| {
                let t = b.memory_type.map_or("untyped", MemoryType::as_str);
                let text = format!("{}\n{}\n{}\ntype: {t}", b.name, b.description, b.body);
                (b.name.clone(), (t.to_string(), text.to_lowercase()))
            })
            .collect();
        for action in actions {
            match action {
                Action::Save(d) => {
                    let all = format!("{}\n{}\n{}", d.name, d.description, d.body);
                    if memdir::secrets::find(&all).is_some() {
                        continue;
                    }
                    let t = d.memory_type.as_str();
                    let text = format!(
                        "{}\n{}\n{}\n{}\ntype: {t}",
                        d.name,
                        d.description,
                        d.title.unwrap_or_default(),
                        d.body
                    );
                    dir.insert(d.name, (t.to_string(), text.to_lowercase()));
                }
                Action::Delete { name } => {
                    dir.remove(&name);
                }
            }
        }
        let produced: Vec<&(String, String)> = dir.values().collect();
        let leaked = case.expected.forbidden.iter().any(|f| {
            let f = f.to_lowercase();
            produced.iter().any(|(_, text)| text.contains(&f))
        });
        counts.leaks += usize::from(leaked);
        if leaked {
            misses.push(format!("{}: forbidden text saved", case.name));
        }
        let mut used = vec![false; produced.len()];
        counts.produced += produced.len();
        for want in &case.expected.memories {
            counts.expected += 1;
            let fits = |(t, text): &(String, String)| {
                *t == want.r#type
                    && want
                        .contains
                        .iter()
                        .all(|c| text.contains(&c.to_lowercase()))
                    && !want.absent.iter().any(|a| text.contains(&a.to_lowercase()))
            };
            if let Some(i) = (0..produced.len()).find(|&i| !used[i] && fits(produced[i])) {
                used[i] = true;
                counts.matched += 1;
            } else {
                misses.push(format!(
                    "{}: missed {} {:?}",
                    case.name, want.r#type, want.contains
                ));
            }
        }
        for (i, (t, text)) in produced.iter().enumerate() {
            if !used[i] {
                let line = text.lines().nth(1).unwrap_or_default();
                misses.push(format!("{}: extra {t} ({line})", case.name));
            }
        }
    }
    counts
}

/// Leave one writer out: train on the others, measure on it.
fn cross_validate(cases: &[Case], samples: &[Sample], explain: bool) {
    let mut policies = Vec::new();
    for agree in [0.0f32, 0.1, 0.2, 0.35, 0.5] {
        for accept in [0.5f32, 0.7, 2.0] {
            for veto in [0.3f32, 0.5, 2.0] {
                policies.push(Policy {
                    accept,
                    veto,
                    agree,
                });
            }
        }
    }
    let mut by_policy = vec![Counts::default(); policies.len()];
    let mut gates = Vec::new();
    for tries in ["", "urls"] {
        for threshold in [0.05f32, 0.1, 0.15, 0.2, 0.3, 0.5] {
            gates.push((tries, threshold));
        }
    }
    let mut by_gate = vec![GateCounts::default(); gates.len()];
    let mut cues_total = Counts::default();
    println!(
        "\nleave-one-writer-out (policy accept {} veto {} agree {}):",
        POLICY.accept, POLICY.veto, POLICY.agree
    );
    println!(
        "{:<8} {:>9} {:>6} {:>6} | {:>9} {:>9} | {:>7} {:>7} {:>7} {:>5}",
        "writer",
        "sentences",
        "sent P",
        "sent R",
        "cues F1",
        "+model F1",
        "P",
        "R",
        "matched",
        "leaks"
    );
    let mut shipped_total = Counts::default();
    for (writer, name) in WRITERS.iter().enumerate() {
        let weights = train(samples.iter().filter(|s| s.writer != writer));
        let held: Vec<&Sample> = samples.iter().filter(|s| s.writer == writer).collect();
        let sentences = sentence_counts(&weights, &held);
        let held_cases: Vec<&Case> = cases.iter().filter(|c| c.writer == writer).collect();
        let cues = memory_counts(&held_cases, None, POLICY);
        cues_total.add(cues);
        let mut misses = Vec::new();
        let with_model = memory_counts_explained(&held_cases, Some(&weights), POLICY, &mut misses);
        if explain {
            for miss in &misses {
                println!("  {name}/{miss}");
            }
        }
        shipped_total.add(with_model);
        for (policy, total) in policies.iter().zip(by_policy.iter_mut()) {
            total.add(memory_counts(&held_cases, Some(&weights), *policy));
        }
        for ((tries, threshold), total) in gates.iter().zip(by_gate.iter_mut()) {
            total.add(gate_counts(&held_cases, Some(&weights), *threshold, tries));
        }
        println!(
            "{:<8} {:>9} {:>6.2} {:>6.2} | {:>9.2} {:>9.2} | {:>7.2} {:>7.2} {:>7} {:>5}",
            name,
            held.len(),
            sentences.precision(),
            sentences.recall(),
            cues.f1(),
            with_model.f1(),
            with_model.precision(),
            with_model.recall(),
            format!("{}/{}", with_model.matched, with_model.expected),
            format!("{}/{}", cues.leaks, with_model.leaks),
        );
    }
    println!(
        "{:<8} {:>9} {:>6} {:>6} | {:>9.2} {:>9.2} | {:>7.2} {:>7.2} {:>7} {:>5}",
        "all",
        samples.len(),
        "",
        "",
        cues_total.f1(),
        shipped_total.f1(),
        shipped_total.precision(),
        shipped_total.recall(),
        "",
        format!("{}/{}", cues_total.leaks, shipped_total.leaks)
    );
    println!(
        "\nthe gate over all held-out writers, by threshold (shipped: {GATE_THRESHOLD}): memories \
         whose words pass it, sessions with nothing to remember that pass no prompt, prompts passed"
    );
    for ((tries, threshold), g) in gates.iter().zip(&by_gate) {
        println!(
            "  {threshold:.2} {tries:<12}: memories {}/{} ({:.3}), quiet sessions without a call {}/{} ({:.2}), prompts passed {}/{} ({:.2})",
            g.kept,
            g.memories,
            g.kept as f64 / g.memories.max(1) as f64,
            g.quiet_without_call,
            g.quiet,
            g.quiet_without_call as f64 / g.quiet.max(1) as f64,
            g.passed,
            g.prompts,
            g.passed as f64 / g.prompts.max(1) as f64
        );
    }
    println!("\nmemory-level F1 over all held-out writers, by policy:");
    for (policy, total) in policies.iter().zip(&by_policy) {
        println!(
            "  accept {:.2} veto {:.2} agree {:.2}: P {:.3} R {:.3} F1 {:.3}, {} sessions leaked",
            policy.accept,
            policy.veto,
            policy.agree,
            total.precision(),
            total.recall(),
            total.f1(),
            total.leaks
        );
    }
}
