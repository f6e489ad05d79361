//! Ranking memories for a query (DESIGN §12): BM25 (k1 1.2, b 0.75) over each memory's fields,
//! a term found in the name, title or description counting more than one in the body (BM25F's
//! weighted term frequency). The `bm25` crate scores one text per document and its tokenizer
//! transliterates Chinese, so the weighting and the tokenizer ([`super::tokens`]) are here.

use std::collections::HashMap;

use super::tokens::{Term, Tokenizer, each_term, is_cjk_term};

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// One memory's fields, each with its weight.
pub type Fields<'a> = Vec<(&'a str, f32)>;

/// Below this many documents, counting them on one thread is faster than starting another.
const PARALLEL_FROM: usize = 256;

/// A document's place in the set given to [`rank`], and how well it matches a query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    pub doc: usize,
    /// BM25, summed over the query's distinct terms.
    pub score: f32,
    /// The share of the query's weight (its terms' idf) that the document matches, 0 to 1: how
    /// much of what was asked it speaks to.
    pub coverage: f32,
    /// The score as a share of the most a document could score for this query (every term
    /// found, each as often as BM25 counts at most), 0 to 1: unlike the score, it does not grow
    /// with the number of documents or the length of the query, so one bar serves a store of
    /// three memories and one of a thousand (DESIGN §12). A word no document has counts as one
    /// that a single document has (the query asks about something the store does not know); a
    /// pair of CJK characters no document has does not count, as most such pairs straddle two
    /// words (`那边的` gives `边的`).
    pub fit: f32,
}

/// A document to rank: texts still to be read, each with its weight, and terms counted before
/// (by the recall cache, [`super::cache`]).
#[derive(Debug, Clone, Default)]
pub struct Doc<'a> {
    pub fields: Fields<'a>,
    pub counted: Option<&'a Counted>,
}

/// Texts' terms counted once: each term's id in a [`Vocabulary`] with its weighted frequency
/// (in order of first appearance), and their weighted length.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counted {
    pub terms: Vec<(u32, f32)>,
    pub len: f32,
}

impl<'a> From<Fields<'a>> for Doc<'a> {
    fn from(fields: Fields<'a>) -> Doc<'a> {
        Doc {
            fields,
            ..Doc::default()
        }
    }
}

/// The finished terms that counted documents name by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Vocabulary {
    terms: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Vocabulary {
    /// A term's id, when it has one.
    pub fn id(&self, term: &str) -> Option<u32> {
        self.ids.get(term).copied()
    }

    /// The term an id names.
    pub fn term(&self, id: u32) -> Option<&str> {
        self.terms.get(id as usize).map(String::as_str)
    }

    /// `term`'s id, given one if it has none; `None` when there are as many ids as a u32 holds.
    pub fn intern(&mut self, term: &str) -> Option<u32> {
        if let Some(id) = self.id(term) {
            return Some(id);
        }
        let id = u32::try_from(self.terms.len()).ok()?;
        self.terms.push(term.to_string());
        self.ids.insert(term.to_string(), id);
        Some(id)
    }

    /// Every term of `fields`, finished and counted: what [`Doc::counted`] holds.
    pub fn count(&mut self, fields: &Fields<'_>) -> Counted {
        let tokenizer = Tokenizer::default();
        let mut counted: Vec<(u32, f32)> = Vec::new();
        let mut at: HashMap<u32, usize> = HashMap::new();
        let mut len = 0.0;
        for &(text, weight) in fields {
            each_term(text, |term| {
                len += weight;
                let Some(id) = self.intern(&tokenizer.finish(term)) else {
                    return;
                };
                let place = *at.entry(id).or_insert_with(|| {
                    counted.push((id, 0.0));
                    counted.len() - 1
                });
                counted[place].1 += weight;
            });
        }
        Counted {
            terms: counted,
            len,
        }
    }
}

/// A document as the query sees it: the weighted frequency of each query term, and its
/// weighted length.
struct QueryCounts {
    tf: Vec<f32>,
    len: f32,
}

/// Count the query's terms (`query`: finished term to its place; `ids`: a counted term's id to
/// its place) in `docs`. A document's words are stemmed only once each per call (most words of
/// a memory are not in the query).
fn count(
    tokenizer: &Tokenizer,
    query: &HashMap<String, usize>,
    ids: &HashMap<u32, usize>,
    docs: &[Doc<'_>],
) -> Vec<QueryCounts> {
    let mut stems: HashMap<String, Option<usize>> = HashMap::new();
    docs.iter()
        .map(|doc| {
            let mut counted = QueryCounts {
                tf: vec![0.0; query.len()],
                len: doc.counted.map_or(0.0, |c| c.len),
            };
            for (id, weight) in doc.counted.iter().flat_map(|c| &c.terms) {
                if let Some(&place) = ids.get(id) {
                    counted.tf[place] += weight;
                }
            }
            for &(text, weight) in &doc.fields {
                each_term(text, |term| {
                    counted.len += weight;
                    let place = match term {
                        Term::Cjk(chars) => query.get(chars).copied(),
                        Term::Word(word) => match stems.get(word) {
                            Some(place) => *place,
                            None => {
                                let place = query.get(&tokenizer.finish(term)).copied();
                                stems.insert(word.to_string(), place);
                                place
                            }
                        },
                    };
                    if let Some(place) = place {
                        counted.tf[place] += weight;
                    }
                });
            }
            counted
        })
        .collect()
}

/// A query is read up to this many bytes: a prompt can be a pasted log of megabytes, and what
/// it asks is in its first lines.
const MAX_QUERY_BYTES: usize = 16 * 1024;
/// And at most this many of its distinct terms count (each document keeps a count per term).
const MAX_QUERY_TERMS: usize = 256;

/// The part of `query` that is read: its first [`MAX_QUERY_BYTES`].
fn read_part(query: &str) -> &str {
    let mut end = query.len().min(MAX_QUERY_BYTES);
    while !query.is_char_boundary(end) {
        end -= 1;
    }
    &query[..end]
}

/// The pairs of terms a query has side by side (`deploy window`, `terraform apply`): a memory
/// that has one of them side by side too says what the query says, not only the same words.
#[derive(Debug, Clone, Default)]
pub struct Phrases {
    pairs: std::collections::HashSet<(String, String)>,
}

impl Phrases {
    pub fn of(query: &str) -> Phrases {
        let terms = Tokenizer::default().terms(read_part(query));
        Phrases {
            pairs: terms
                .windows(2)
                .filter(|w| w[0] != w[1])
                .map(|w| (w[0].clone(), w[1].clone()))
                .collect(),
        }
    }

    /// Whether any of `texts` has one of the query's pairs side by side.
    pub fn found_in(&self, texts: &[&str]) -> bool {
        if self.pairs.is_empty() {
            return false;
        }
        let tokenizer = Tokenizer::default();
        texts.iter().any(|text| {
            let mut previous: Option<String> = None;
            let mut found = false;
            each_term(text, |term| {
                if found {
                    return;
                }
                let term = tokenizer.finish(term);
                if let Some(previous) = previous.take() {
                    found = self.pairs.contains(&(previous, term.clone()));
                }
                previous = Some(term);
            });
            found
        })
    }
}

/// The spelling variants of `query` the memories write as one word: two words side by side, or
/// parted by a hyphen, that the vocabulary holds joined (`cloud sql` for `cloudsql-instances`,
/// `on-call` for `oncall-handoff`), stop words included; each with the terms of its two words.
/// Learned from the store itself: a join no memory writes is no variant.
fn joined_variants(
    tokenizer: &Tokenizer,
    query: &str,
    vocabulary: &Vocabulary,
) -> Vec<(String, Vec<String>)> {
    let mut variants = Vec::new();
    let mut previous: Option<&str> = None;
    let mut rest = query;
    while let Some(start) = rest.find(|c: char| c.is_alphanumeric()) {
        let gap = &rest[..start];
        let word_len = rest[start..]
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + word_len];
        let joinable = gap.chars().all(|c| c == ' ' || c == '-') && gap.len() <= 2;
        if let Some(before) = previous.filter(|_| joinable && word.is_ascii())
            && before.is_ascii()
        {
            let joined = format!("{before}{word}").to_lowercase();
            let stem = tokenizer.finish(Term::Word(&joined));
            if vocabulary.id(&stem).is_some() {
                let mut parts = tokenizer.terms(before);
                parts.extend(tokenizer.terms(word));
                variants.push((stem, parts));
            }
        }
        previous = Some(word);
        rest = &rest[start + word_len..];
    }
    variants
}

/// How much a word no document has weighs, 0 to 1, by how common it is in what developers write
/// ([`super::background`]): a word not listed there is rare and weighs in full.
fn unknown_weight(word: &str) -> f32 {
    let table = super::background::WEIGHTS;
    table
        .binary_search_by(|(listed, _)| (*listed).cmp(word))
        .map_or(1.0, |at| f32::from(table[at].1) / 255.0)
}

/// The documents of `docs` that match `query` at all, best first (ties in document order);
/// `vocabulary` names their counted terms.
pub fn rank(query: &str, docs: &[Doc<'_>], vocabulary: &Vocabulary) -> Vec<Scored> {
    let tokenizer = Tokenizer::default();
    let mut terms = tokenizer.terms(read_part(query));
    // The first distinct terms, in the query's order, then sorted for the scoring.
    let mut first = std::collections::HashSet::new();
    terms.retain(|t| first.insert(t.clone()));
    terms.truncate(MAX_QUERY_TERMS);
    let asked = terms.len();
    if asked == 0 || docs.is_empty() {
        return Vec::new();
    }
    // A variant stands in for its words: it counts in a document's score only for what it adds
    // to theirs, and not in what the query asks (`total`, `most`).
    let mut joins = Vec::new();
    for (variant, parts) in joined_variants(&tokenizer, read_part(query), vocabulary) {
        if first.insert(variant.clone()) {
            terms.push(variant.clone());
            joins.push((variant, parts));
        }
    }
    terms.sort();
    let places: HashMap<String, usize> = terms
        .iter()
        .enumerate()
        .map(|(place, term)| (term.clone(), place))
        .collect();
    let variants: HashMap<usize, Vec<usize>> = joins
        .iter()
        .map(|(variant, parts)| {
            let parts = parts.iter().filter_map(|p| places.get(p).copied());
            (places[variant], parts.collect())
        })
        .collect();
    let ids: HashMap<u32, usize> = terms
        .iter()
        .enumerate()
        .filter_map(|(place, term)| Some((vocabulary.id(term)?, place)))
        .collect();
    let threads = if docs.len() < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
    };
    let counted: Vec<QueryCounts> = std::thread::scope(|scope| {
        let chunk = docs.len().div_ceil(threads);
        let handles: Vec<_> = docs
            .chunks(chunk)
            .map(|part| {
                let (places, ids) = (&places, &ids);
                scope.spawn(move || count(&Tokenizer::default(), places, ids, part))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let n = counted.len() as f32;
    let avg_len = (counted.iter().map(|c| c.len).sum::<f32>() / n).max(1.0);
    let df: Vec<f32> = (0..terms.len())
        .map(|place| counted.iter().filter(|c| c.tf[place] > 0.0).count() as f32)
        .collect();
    let idf: Vec<f32> = df
        .iter()
        .map(|df| (1.0 + (n - df + 0.5) / (df + 0.5)).ln())
        .collect();
    let total: f32 = (0..terms.len())
        .filter(|place| !variants.contains_key(place))
        .map(|place| idf[place])
        .sum();
    // A word no document has weighs what it would if one had it (the most a document could
    // score, it would be that one), less for an everyday word (`again`, `thoughts`): it says
    // little about what the query asks.
    let rare = (1.0 + (n - 1.0 + 0.5) / 1.5).ln();
    let most: f32 = (K1 + 1.0)
        * (0..terms.len())
            .map(
                |place| match (df[place] > 0.0, is_cjk_term(&terms[place])) {
                    _ if variants.contains_key(&place) => 0.0,
                    (true, _) => idf[place],
                    (false, false) => rare * unknown_weight(&terms[place]),
                    (false, true) => 0.0,
                },
            )
            .sum::<f32>();
    let mut out: Vec<Scored> = counted
        .iter()
        .enumerate()
        .filter_map(|(doc, c)| {
            let norm = K1 * (1.0 - B + B * c.len / avg_len);
            let term_score = |place: usize| {
                let tf = c.tf[place];
                idf[place] * tf * (K1 + 1.0) / (tf + norm)
            };
            let mut score = 0.0;
            let mut matched = 0.0;
            for (place, &tf) in c.tf.iter().enumerate() {
                if tf > 0.0 && !variants.contains_key(&place) {
                    score += term_score(place);
                    matched += idf[place];
                }
            }
            for (&variant, parts) in &variants {
                let more = term_score(variant) - parts.iter().map(|&p| term_score(p)).sum::<f32>();
                if c.tf[variant] > 0.0 && more > 0.0 {
                    score += more;
                    matched += parts
                        .iter()
                        .filter(|&&p| c.tf[p] == 0.0)
                        .map(|&p| idf[p])
                        .sum::<f32>();
                }
            }
            (score > 0.0).then(|| Scored {
                doc,
                score,
                coverage: (matched / total).min(1.0),
                fit: score / most,
            })
        })
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(docs: &[&[(&'static str, f32)]], query: &str) -> Vec<Scored> {
        let docs: Vec<Doc<'_>> = docs.iter().map(|fields| fields.to_vec().into()).collect();
        rank(query, &docs, &Vocabulary::default())
    }

    /// Each of `texts` counted into `vocabulary`, as the recall cache keeps them.
    fn count_all(texts: &[&[(&str, f32)]], vocabulary: &mut Vocabulary) -> Vec<Counted> {
        texts
            .iter()
            .map(|fields| vocabulary.count(&fields.to_vec()))
            .collect()
    }

    /// Documents of terms counted before, each with `fields` still to read.
    fn counted_docs<'a>(counted: &'a [Counted], fields: Fields<'a>) -> Vec<Doc<'a>> {
        counted
            .iter()
            .map(|counted| Doc {
                fields: fields.clone(),
                counted: Some(counted),
            })
            .collect()
    }

    const RELEASE: &[(&str, f32)] = &[
        ("release checklist", 2.0),
        ("Tag, build, publish the crate.", 1.0),
    ];
    const FLAKY: &[(&str, f32)] = &[
        ("flaky tests", 2.0),
        ("The checkout test fails on CI under load.", 1.0),
    ];
    const MIGRATIONS: &[(&str, f32)] = &[
        ("db migrations", 2.0),
        ("Run prisma migrate deploy before releasing.", 1.0),
    ];

    #[test]
    fn the_memory_that_speaks_to_the_query_ranks_first() {
        let hits = ranked(&[RELEASE, FLAKY, MIGRATIONS], "fix the flaky checkout test");
        assert_eq!(hits[0].doc, 1);
        assert!(hits.iter().all(|h| h.doc != 0), "{hits:?}");
        assert!(hits[0].coverage > 0.5, "{hits:?}");
    }

    #[test]
    fn a_term_in_the_description_outweighs_the_same_term_in_a_body() {
        let hits = ranked(
            &[
                &[
                    ("other topic", 2.0),
                    ("mentions deploy once in passing", 1.0),
                ],
                &[("deploy window", 2.0), ("only on weekdays", 1.0)],
            ],
            "deploy",
        );
        assert_eq!(hits[0].doc, 1);
    }

    #[test]
    fn fit_is_the_share_of_the_best_score_the_query_allows() {
        // The same two words found the same way score alike in a store of three and in one of
        // three hundred; a word no memory has lowers the fit (it is asked and not answered).
        let few = ranked(&[RELEASE, FLAKY, MIGRATIONS], "flaky checkout");
        let many: Vec<&[(&str, f32)]> = [RELEASE, FLAKY, MIGRATIONS]
            .iter()
            .copied()
            .chain(std::iter::repeat_n(MIGRATIONS, 297))
            .collect();
        let many = ranked(&many, "flaky checkout");
        assert_eq!((few[0].doc, many[0].doc), (1, 1));
        assert!(many[0].score > few[0].score * 2.0, "{many:?} {few:?}");
        assert!((many[0].fit - few[0].fit).abs() < 0.1, "{many:?} {few:?}");
        let unknown = ranked(&[RELEASE, FLAKY, MIGRATIONS], "flaky checkout zygomorphic");
        assert!(unknown[0].fit < few[0].fit * 0.8, "{unknown:?}");
        // An everyday word no memory has lowers it less than a rare one.
        let everyday = ranked(&[RELEASE, FLAKY, MIGRATIONS], "flaky checkout again");
        assert!(everyday[0].fit > unknown[0].fit, "{everyday:?} {unknown:?}");
        // A pair of Chinese characters no memory has does not count against the fit.
        let chinese: &[&[(&str, f32)]] = &[&[("封版", 2.0), ("下周三开始封版", 1.0)], RELEASE];
        let plain = ranked(chinese, "封版");
        let around = ranked(chinese, "封版的");
        assert!((plain[0].fit - around[0].fit).abs() < 1e-6, "{around:?}");
    }

    #[test]
    fn the_background_table_is_sorted_and_an_everyday_word_weighs_less_than_a_rare_one() {
        let table = super::super::background::WEIGHTS;
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0), "binary search");
        let stem = |word: &str| Tokenizer::default().terms(word).remove(0);
        assert!(unknown_weight(&stem("again")) < 0.8);
        assert_eq!(unknown_weight(&stem("zygomorphic")), 1.0);
    }

    #[test]
    fn phrases_are_the_query_pairs_a_text_has_side_by_side() {
        let phrases = Phrases::of("what is the deploy window?");
        assert!(phrases.found_in(&["deploy-window", "nothing"]));
        assert!(phrases.found_in(&["", "Deploying: the windows are Tuesday"]));
        assert!(!phrases.found_in(&["window for a deploy"]));
        assert!(!phrases.found_in(&["deploy", "window"]), "not across texts");
        assert!(!Phrases::of("deploy").found_in(&["deploy deploy"]));
    }

    #[test]
    fn words_the_memories_write_joined_match_as_their_parts_too() {
        let texts: &[&[(&str, f32)]] = &[
            &[("cloudsql-instances", 3.0), ("orders and users", 1.0)],
            &[("oncall-handoff", 3.0), ("what to hand over", 1.0)],
            &[("cloud costs", 3.0), ("the sql of billing", 1.0)],
        ];
        let mut vocabulary = Vocabulary::default();
        let counted = count_all(texts, &mut vocabulary);
        let docs = counted_docs(&counted, Vec::new());
        assert_eq!(
            rank("list the Cloud SQL instances", &docs, &vocabulary)[0].doc,
            0
        );
        assert_eq!(
            rank("I'm on call, write the handoff", &docs, &vocabulary)[0].doc,
            1
        );
        assert_eq!(rank("on-call", &docs, &vocabulary)[0].doc, 1);
        // A variant adds to the score, not to what the query asks: the fit of a memory that
        // has the words parted is what it was.
        let parted = rank("cloud sql", &docs, &vocabulary);
        let alone = rank("cloud sql", &docs[2..], &vocabulary);
        assert_eq!(
            parted.iter().find(|h| h.doc == 2).map(|h| h.coverage),
            Some(1.0)
        );
        assert!(!alone.is_empty());
        // Joined across other punctuation, or into a word no memory has: no variant.
        assert!(
            rank("on.call", &docs, &vocabulary)
                .iter()
                .all(|h| h.doc != 1)
        );
        assert!(joined_variants(&Tokenizer::default(), "cloud storage", &vocabulary).is_empty());
        // Stop words alone ask nothing, whatever they join into.
        assert!(rank("on the", &docs, &vocabulary).is_empty());
    }

    #[test]
    fn a_query_that_matches_nothing_ranks_nothing() {
        assert!(ranked(&[RELEASE], "quantum entanglement").is_empty());
        assert!(ranked(&[RELEASE], "").is_empty());
        assert!(ranked(&[], "release").is_empty());
    }

    #[test]
    fn a_huge_query_counts_only_its_beginning() {
        // A pasted log of megabytes: only its first 16 KiB and 256 distinct terms count, so a
        // memory it names at its very start is found, and one named only at its end is not.
        let mut query = String::from("flaky checkout ");
        for i in 0..200_000 {
            query.push_str(&format!("w{i} "));
        }
        query.push_str("release checklist");
        let hits = ranked(&[RELEASE, FLAKY], &query);
        assert_eq!(hits.iter().map(|h| h.doc).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn chinese_queries_match_chinese_memories() {
        let docs: &[&[(&str, f32)]] = &[
            &[("封版", 2.0), ("下周三开始封版，只合并 P0 修复", 1.0)],
            &[("网关接口文档", 2.0), ("支付网关对外接口文档在飞书", 1.0)],
        ];
        assert_eq!(ranked(docs, "支付网关的接口文档在哪")[0].doc, 1);
        assert_eq!(ranked(docs, "封版期间能合并吗")[0].doc, 0);
    }

    /// A document counted before (as the recall cache keeps it) ranks exactly as its text.
    #[test]
    fn counted_documents_rank_as_their_text() {
        let texts = [RELEASE, FLAKY, MIGRATIONS];
        let mut vocabulary = Vocabulary::default();
        let counted = count_all(&texts, &mut vocabulary);
        let docs = counted_docs(&counted, vec![("a title", 3.0)]);
        let as_text: Vec<Doc<'_>> = texts
            .iter()
            .map(|fields| {
                let mut fields = fields.to_vec();
                fields.push(("a title", 3.0));
                fields.into()
            })
            .collect();
        for query in [
            "fix the flaky checkout test",
            "release title",
            "prisma deploy",
        ] {
            let hits = rank(query, &docs, &vocabulary);
            assert!(!hits.is_empty(), "{query}");
            assert_eq!(
                hits,
                rank(query, &as_text, &Vocabulary::default()),
                "{query}"
            );
        }
    }

    #[test]
    fn many_memories_rank_on_several_threads_as_on_one() {
        // Over PARALLEL_FROM documents the counting is split between threads: each document
        // must still get its own counts (the same document scores the same in every chunk).
        let many: Vec<&[(&str, f32)]> = [RELEASE, FLAKY, MIGRATIONS]
            .iter()
            .copied()
            .cycle()
            .take(PARALLEL_FROM * 2 + 1)
            .collect();
        let docs: Vec<Doc<'_>> = many.iter().map(|fields| fields.to_vec().into()).collect();
        let together = rank(
            "release the flaky migrations",
            &docs,
            &Vocabulary::default(),
        );
        assert_eq!(together.len(), docs.len());
        // Equal documents score equally wherever they fell.
        for kind in 0..3 {
            let scores: Vec<f32> = together
                .iter()
                .filter(|h| h.doc % 3 == kind)
                .map(|h| h.score)
                .collect();
            assert!(
                scores.windows(2).all(|w| w[0] == w[1]),
                "{kind}: {scores:?}"
            );
        }
    }
}
