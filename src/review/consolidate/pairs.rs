//! Two memories compared (DESIGN §7): the same fact (a duplicate), the same subject with a
//! different value (a contradiction, the newer one true), or two facts of the same shape that
//! differ in an identifier (a near-duplicate: both stay).
//!
//! Words are weighted by how rare they are in the store, so that what every memory of a
//! template shares ("In the local docker-compose stack, X listens on :N") says little and the
//! identifiers say much. Two statements are lined up token by token: where a short stretch of
//! one holds a value the other lacks and the other holds one the first lacks, in the same place
//! ("ledger-svc" against "payouts-svc", "8 on PS5" against "4 on Xbox Series S"), the two are
//! different facts, never merged. Stores are compared through the terms memories share that
//! few others have, so a thousand memories of one template are not a million comparisons.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::text::{Statement, Token, same_value};

/// A memory as compared: its description, its body, both together, and when it was saved.
pub(super) struct Note {
    pub(super) head: Statement,
    pub(super) body: Statement,
    pub(super) whole: Statement,
    /// Description and body as written, for the words that say something changed.
    raw: String,
    /// Seconds since the epoch of its last save (history), for which is newer.
    pub(super) saved: i64,
}

impl Note {
    pub(super) fn new(description: &str, body: &str, saved: i64) -> Note {
        Note {
            head: Statement::of(description),
            body: Statement::of(body),
            whole: Statement::of(&format!("{description}\n{body}")),
            raw: format!("{description}\n{body}"),
            saved,
        }
    }
}

/// How two memories relate.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Relation {
    /// They state the same fact.
    Duplicate,
    /// The same subject, a different value: `newer` (an index into the store) is true.
    Contradiction {
        older: usize,
        newer: usize,
        /// Values only the older one holds, and only the newer one.
        stale: Vec<String>,
        current: Vec<String>,
    },
    /// The same shape, different facts.
    NearDuplicate,
    Unrelated,
}

/// A newer memory that says something changed.
static CHANGED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:^|\n)since\b|\b(?:now|no longer|any ?more|moved|moving|migrated|switched|replaced|changed to|slipped|pushed (?:back|out)|postponed|delayed|rescheduled|upgraded|downgraded|took over|taken over|handed over|renamed|bumped|no more|was retired|is retired|deprecated)\b|现在|改到|改成|改为|调到|调整为|换成|换到|迁到|迁移到|不再|推迟|延期|提前到|升级到|接手|转到|调去|已改|改用",
    )
    .unwrap_or_else(|e| panic!("consolidation pattern: {e}"))
});

/// What a comparison rests on.
#[derive(Debug, Clone)]
pub(super) struct Measures {
    pub(super) older: usize,
    pub(super) newer: usize,
    /// Shared weight over the lighter memory's, and over both (Dice).
    pub(super) containment: f64,
    pub(super) dice: f64,
    pub(super) conflicts: Vec<(String, String)>,
    pub(super) aligned: f64,
    pub(super) stale: Vec<String>,
    pub(super) current: Vec<String>,
    pub(super) says_changed: bool,
    /// Shared weight of the descriptions over the lighter one's.
    pub(super) head_containment: f64,
    /// Shared terms that few memories of the store have (one in twenty, at least three).
    pub(super) rare_shared: usize,
    /// Places where each holds a content word the other lacks (`runbook` against `rota`).
    pub(super) word_conflicts: usize,
}

/// The most tokens on either side of a difference that is read as one value for another.
const MAX_HUNK: usize = 5;

/// The memories of one store, with how rare each term is among them.
pub(super) struct Corpus<'a> {
    notes: &'a [Note],
    df: HashMap<String, usize>,
}

fn key_word(w: &str) -> String {
    format!("w:{w}")
}

fn key_pair(p: &str) -> String {
    format!("p:{p}")
}

impl<'a> Corpus<'a> {
    pub(super) fn new(notes: &'a [Note]) -> Corpus<'a> {
        let mut df: HashMap<String, usize> = HashMap::new();
        for note in notes {
            for w in &note.whole.words {
                *df.entry(key_word(w)).or_default() += 1;
            }
            for p in &note.whole.pairs {
                *df.entry(key_pair(p)).or_default() += 1;
            }
        }
        Corpus { notes, df }
    }

    /// How much a term tells memories apart: rare terms much, common ones little.
    fn weight(&self, key: &str) -> f64 {
        let df = self.df.get(key).copied().unwrap_or(1).max(1) as f64;
        // In a small store every term is rare: weights even out rather than swing.
        let n = self.notes.len().max(50) as f64;
        (1.0 + n / df).ln()
    }

    fn word_weight(&self, note: &Statement, w: &str) -> f64 {
        let boost = if note.values.contains(w) { 1.5 } else { 1.0 };
        self.weight(&key_word(w)) * boost
    }

    /// The pairs worth comparing: those whose shared terms that few memories have (at most one
    /// in twenty, at least ten) weigh at least a tenth of the lighter one's terms (any, for a
    /// memory mostly in Chinese against one that is not), lower index first. Each memory's shares are summed over its terms' holders, so a store
    /// of thousands costs what its rare terms cost, not a comparison of every pair.
    pub(super) fn candidates(&self) -> Vec<(usize, usize)> {
        let limit = (self.notes.len() / 20).clamp(10, 200);
        let rare = |key: &str| self.df.get(key).is_some_and(|&df| df >= 2 && df <= limit);
        let keys = |note: &'a Note| {
            note.whole
                .words
                .iter()
                .map(move |w| (key_word(w), self.word_weight(&note.whole, w)))
                .chain(
                    note.whole
                        .pairs
                        .iter()
                        .map(|p| (key_pair(p), self.weight(&key_pair(p)))),
                )
        };
        let mut holders: HashMap<String, Vec<usize>> = HashMap::new();
        // Each memory's whole weight.
        let mut weights = Vec::with_capacity(self.notes.len());
        for (i, note) in self.notes.iter().enumerate() {
            let mut all = 0.0;
            for (key, weight) in keys(note) {
                all += weight;
                if rare(&key) {
                    holders.entry(key).or_default().push(i);
                }
            }
            weights.push(all);
        }
        let chinese: Vec<bool> = self
            .notes
            .iter()
            .map(|n| n.whole.cjk_share() >= 0.4)
            .collect();
        let mut shared = vec![0.0; self.notes.len()];
        let mut touched = Vec::new();
        let mut pairs = Vec::new();
        for (i, note) in self.notes.iter().enumerate() {
            for (key, weight) in keys(note) {
                for &j in holders.get(&key).into_iter().flatten().filter(|&&j| j > i) {
                    if shared[j] == 0.0 {
                        touched.push(j);
                    }
                    shared[j] += weight;
                }
            }
            touched.sort_unstable();
            for &j in &touched {
                let lighter = weights[i].min(weights[j]);
                // A memory in Chinese has few words in Latin letters to share with one in
                // English: any rare one will do.
                if shared[j] >= lighter / 10.0 || chinese[i] != chinese[j] {
                    pairs.push((i, j));
                }
                shared[j] = 0.0;
            }
            touched.clear();
        }
        pairs
    }

    /// What `a` and `b` share, weighted, and each one's whole weight; `latin_only` counts no
    /// Chinese character pairs (a memory compared across languages).
    fn overlap(&self, a: &Statement, b: &Statement, latin_only: bool) -> (f64, f64, f64) {
        let mut shared = 0.0;
        let mut wa = 0.0;
        for w in &a.words {
            let weight = self.word_weight(a, w);
            wa += weight;
            let found = b.words.contains(w) || b.values.iter().any(|v| names_same(w, v));
            if found {
                shared += weight;
            }
        }
        let mut wb: f64 = b.words.iter().map(|w| self.word_weight(b, w)).sum();
        if !latin_only {
            for p in &a.pairs {
                let weight = self.weight(&key_pair(p));
                wa += weight;
                if b.pairs.contains(p) {
                    shared += weight;
                }
            }
            wb += b
                .pairs
                .iter()
                .map(|p| self.weight(&key_pair(p)))
                .sum::<f64>();
        }
        (shared, wa, wb)
    }

    /// What the comparison of memories `i` and `j` rests on.
    pub(super) fn measure(&self, i: usize, j: usize) -> Measures {
        let (a, b) = (&self.notes[i], &self.notes[j]);
        let (older, newer) = if b.saved >= a.saved { (i, j) } else { (j, i) };
        let (shared, wa, wb) = self.overlap(&a.whole, &b.whole, false);
        let smaller = wa.min(wb);
        let containment = if smaller > 0.0 {
            (shared / smaller).min(1.0)
        } else {
            0.0
        };
        let dice = if wa + wb > 0.0 {
            2.0 * shared / (wa + wb)
        } else {
            0.0
        };
        let (heads, bodies) = (line_up(&a.head, &b.head), line_up(&a.body, &b.body));
        let mut conflicts = heads.conflicts;
        conflicts.extend(bodies.conflicts);
        let aligned = heads.aligned.max(bodies.aligned);
        let (old, new) = (&self.notes[older].whole, &self.notes[newer].whole);
        let word_conflicts = heads.word_conflicts + bodies.word_conflicts;
        let (head_shared, ha, hb) = self.overlap(&a.head, &b.head, false);
        let head_containment = if ha.min(hb) > 0.0 {
            (head_shared / ha.min(hb)).min(1.0)
        } else {
            0.0
        };
        let rare = (self.notes.len() / 20).max(3);
        let rare_shared = a
            .whole
            .words
            .iter()
            .filter(|w| b.whole.words.contains(*w))
            .filter(|w| self.df.get(&key_word(w)).is_some_and(|&df| df <= rare))
            .count()
            + a.whole
                .pairs
                .iter()
                .filter(|p| b.whole.pairs.contains(*p))
                .filter(|p| self.df.get(&key_pair(p)).is_some_and(|&df| df <= rare))
                .count();
        Measures {
            word_conflicts,
            head_containment,
            rare_shared,
            older,
            newer,
            containment,
            dice,
            conflicts,
            aligned,
            stale: only_in(old, new),
            current: only_in(new, old),
            says_changed: CHANGED.is_match(&self.notes[newer].raw),
        }
    }

    /// Whether memories `i` and `j` are about the same subject, as a contradiction needs: a
    /// fifth of the lighter one's weight shared, or a tenth with a term few memories have;
    /// across languages, a rare word or identifier in common.
    pub(super) fn same_subject(&self, i: usize, j: usize) -> bool {
        let m = self.measure(i, j);
        m.containment >= 0.2 || m.rare_shared >= 1 && m.containment >= 0.1
    }

    /// How memories `i` and `j` relate.
    pub(super) fn relate(&self, i: usize, j: usize) -> Relation {
        let (a, b) = (&self.notes[i], &self.notes[j]);
        let (sa, sb) = (a.whole.cjk_share(), b.whole.cjk_share());
        if (sa >= 0.4 && sb < 0.15) || (sb >= 0.4 && sa < 0.15) {
            return self.relate_across_languages(i, j);
        }
        let m = self.measure(i, j);
        if m.containment < 0.24 {
            return Relation::Unrelated;
        }
        let contradiction = || Relation::Contradiction {
            older: m.older,
            newer: m.newer,
            stale: m.stale.clone(),
            current: m.current.clone(),
        };
        let two_sided = !m.stale.is_empty() && !m.current.is_empty();
        // The newer says what changed: the same subject (a value replaced where the older
        // has it, or much in common) makes it a contradiction.
        if m.says_changed
            && two_sided
            && (m.rare_shared >= 1
                && (!m.conflicts.is_empty() || m.containment >= 0.4 && m.head_containment >= 0.4)
                || m.head_containment >= 0.6)
        {
            return contradiction();
        }
        if m.conflicts.is_empty() {
            // Much in common, or a fair share and the same subject, lined up in places and
            // differing in few.
            let same = m.aligned >= 0.25
                && (m.containment >= 0.55 && m.dice >= 0.35
                    || m.rare_shared >= 1
                        && m.word_conflicts <= 2
                        && (m.containment >= 0.6
                            || m.containment >= 0.45 && m.head_containment >= 0.4
                            || m.containment >= 0.3 && m.head_containment >= 0.55));
            return if same {
                Relation::Duplicate
            } else {
                Relation::Unrelated
            };
        }
        // One value replaced in an otherwise same statement.
        if m.conflicts.len() == 1
            && m.word_conflicts == 0
            && m.aligned >= 0.5
            && m.containment >= 0.45
        {
            return contradiction();
        }
        Relation::NearDuplicate
    }

    /// A memory in Chinese and one in English: the same fact when most of the Chinese one's
    /// identifiers and English words are in the other, two of them or more that few memories
    /// share.
    fn relate_across_languages(&self, i: usize, j: usize) -> Relation {
        let (a, b) = (&self.notes[i], &self.notes[j]);
        let (zh, en) = if a.whole.cjk_share() >= b.whole.cjk_share() {
            (a, b)
        } else {
            (b, a)
        };
        let (shared, wzh, _) = self.overlap(&zh.whole, &en.whole, true);
        let rare = (self.notes.len() / 20).max(3);
        let distinctive = zh
            .whole
            .words
            .iter()
            .filter(|w| {
                en.whole.words.contains(*w) || en.whole.values.iter().any(|v| names_same(w, v))
            })
            .filter(|w| self.df.get(&key_word(w)).is_some_and(|&df| df <= rare))
            .count();
        if distinctive < 2 || wzh <= 0.0 {
            return Relation::Unrelated;
        }
        if shared / wzh >= 0.6 {
            Relation::Duplicate
        } else {
            Relation::Unrelated
        }
    }
}

/// Whether a word (maybe stemmed: `testcontain`) is what a value names (`testcontainers-go`).
fn names_same(word: &str, value: &str) -> bool {
    same_value(word, value)
        || word.len() >= 6
            && value
                .split(['-', '_', '.', '/'])
                .next()
                .is_some_and(|head| head.starts_with(word))
}

/// The values of `a` that `b` holds nowhere, in `a`'s order.
fn only_in(a: &Statement, b: &Statement) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in a.tokens.iter().filter(|t| t.value) {
        if !b.values.iter().any(|v| same_value(&t.text, v)) && !out.contains(&t.text) {
            out.push(t.text.clone());
        }
    }
    out
}

/// Statements are lined up over at most this many tokens each (a topic file holds a few hundred;
/// one of 256 KiB is not diffed whole).
const MAX_ALIGNED_TOKENS: usize = 1000;

/// Two statements lined up token by token.
#[derive(Debug, Clone, Default)]
struct LinedUp {
    /// Where `a` holds a value `b` lacks and `b` one of its kind `a` lacks, in the same short
    /// stretch between equal tokens: `(a's values, b's values)`.
    conflicts: Vec<(String, String)>,
    /// Where each holds a word, not a value, that the other lacks entirely, likewise.
    word_conflicts: usize,
    /// How much of the shorter statement lines up with the other.
    aligned: f64,
}

fn line_up(a: &Statement, b: &Statement) -> LinedUp {
    let ta: Vec<&str> = a
        .tokens
        .iter()
        .take(MAX_ALIGNED_TOKENS)
        .map(|t| t.text.as_str())
        .collect();
    let tb: Vec<&str> = b
        .tokens
        .iter()
        .take(MAX_ALIGNED_TOKENS)
        .map(|t| t.text.as_str())
        .collect();
    let values_lacking = |tokens: &[Token], other: &Statement| -> Vec<Token> {
        tokens
            .iter()
            .filter(|t| t.value && !other.values.iter().any(|v| same_value(&t.text, v)))
            .cloned()
            .collect()
    };
    let word_lacking = |tokens: &[Token], other: &Statement| {
        tokens.iter().any(|t| {
            !t.value
                && !t.cjk
                && t.text.len() >= 3
                && !other.tokens.iter().any(|o| o.text == t.text)
                && !other.words.contains(&super::text::stem(&t.text))
        })
    };
    let mut out = LinedUp::default();
    let mut equal = 0;
    for op in capture_diff_slices(Algorithm::Myers, &ta, &tb) {
        match op {
            DiffOp::Equal { len, .. } => equal += len,
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } if old_len <= MAX_HUNK && new_len <= MAX_HUNK => {
                let (old, new) = (
                    &a.tokens[old_index..old_index + old_len],
                    &b.tokens[new_index..new_index + new_len],
                );
                let (old_values, new_values) = (values_lacking(old, b), values_lacking(new, a));
                if old_values
                    .iter()
                    .any(|o| new_values.iter().any(|n| n.shape == o.shape))
                {
                    let words = |tokens: &[Token]| {
                        tokens
                            .iter()
                            .map(|t| t.text.as_str())
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    out.conflicts.push((words(&old_values), words(&new_values)));
                }
                if word_lacking(old, b) && word_lacking(new, a) {
                    out.word_conflicts += 1;
                }
            }
            _ => {}
        }
    }
    let shorter = ta.len().min(tb.len());
    out.aligned = if shorter == 0 {
        0.0
    } else {
        equal as f64 / shorter as f64
    };
    out
}
