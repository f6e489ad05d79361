//! Ranking memories for a query (DESIGN §12): BM25 (k1 1.2, b 0.75) over each memory's fields,
//! a term found in the name, title or description counting more than one in the body (BM25F's
//! weighted term frequency). The `bm25` crate scores one text per document and its tokenizer
//! transliterates Chinese, so the weighting and the tokenizer ([`super::tokens`]) are here.

use std::collections::HashMap;

use super::tokens::Tokenizer;

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// One memory's fields, each with its weight.
pub type Fields<'a> = Vec<(&'a str, f32)>;

/// A document's weighted term frequencies and weighted length.
struct Doc {
    tf: HashMap<String, f32>,
    len: f32,
}

/// The ranking of a set of memories, made once and asked many queries.
pub struct Ranking {
    tokenizer: Tokenizer,
    docs: Vec<Doc>,
    /// In how many documents each term occurs.
    df: HashMap<String, u32>,
    avg_len: f32,
}

/// A document's place in the set given to [`Ranking::new`], and how well it matches a query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    pub doc: usize,
    /// BM25, summed over the query's distinct terms.
    pub score: f32,
    /// The share of the query's weight (its terms' idf) that the document matches, 0 to 1: how
    /// much of what was asked it speaks to.
    pub coverage: f32,
}

impl Ranking {
    pub fn new<'a>(docs: impl IntoIterator<Item = Fields<'a>>) -> Ranking {
        let tokenizer = Tokenizer::default();
        let mut df: HashMap<String, u32> = HashMap::new();
        let docs: Vec<Doc> = docs
            .into_iter()
            .map(|fields| {
                let mut tf: HashMap<String, f32> = HashMap::new();
                let mut len = 0.0;
                for (text, weight) in fields {
                    for term in tokenizer.terms(text) {
                        *tf.entry(term).or_default() += weight;
                        len += weight;
                    }
                }
                for term in tf.keys() {
                    *df.entry(term.clone()).or_default() += 1;
                }
                Doc { tf, len }
            })
            .collect();
        let avg_len = if docs.is_empty() {
            1.0
        } else {
            (docs.iter().map(|d| d.len).sum::<f32>() / docs.len() as f32).max(1.0)
        };
        Ranking {
            tokenizer,
            docs,
            df,
            avg_len,
        }
    }

    fn idf(&self, term: &str) -> f32 {
        let n = self.docs.len() as f32;
        let df = self.df.get(term).copied().unwrap_or(0) as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// The documents that match `query` at all, best first (ties in document order).
    pub fn rank(&self, query: &str) -> Vec<Scored> {
        let mut terms = self.tokenizer.terms(query);
        terms.sort();
        terms.dedup();
        let weights: Vec<(String, f32)> = terms
            .into_iter()
            .map(|t| {
                let idf = self.idf(&t);
                (t, idf)
            })
            .collect();
        let total: f32 = weights.iter().map(|(_, idf)| idf).sum();
        let mut out: Vec<Scored> = self
            .docs
            .iter()
            .enumerate()
            .filter_map(|(doc, d)| {
                let mut score = 0.0;
                let mut matched = 0.0;
                for (term, idf) in &weights {
                    let Some(&tf) = d.tf.get(term) else {
                        continue;
                    };
                    let norm = K1 * (1.0 - B + B * d.len / self.avg_len);
                    score += idf * tf * (K1 + 1.0) / (tf + norm);
                    matched += idf;
                }
                (score > 0.0).then(|| Scored {
                    doc,
                    score,
                    coverage: if total > 0.0 { matched / total } else { 0.0 },
                })
            })
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranking(docs: &[&[(&'static str, f32)]]) -> Ranking {
        Ranking::new(docs.iter().map(|fields| fields.to_vec()))
    }

    #[test]
    fn the_memory_that_speaks_to_the_query_ranks_first() {
        let r = ranking(&[
            &[
                ("release checklist", 2.0),
                ("Tag, build, publish the crate.", 1.0),
            ],
            &[
                ("flaky tests", 2.0),
                ("The checkout test fails on CI under load.", 1.0),
            ],
            &[
                ("db migrations", 2.0),
                ("Run prisma migrate deploy before releasing.", 1.0),
            ],
        ]);
        let hits = r.rank("fix the flaky checkout test");
        assert_eq!(hits[0].doc, 1);
        assert!(hits.iter().all(|h| h.doc != 0), "{hits:?}");
        assert!(hits[0].coverage > 0.5, "{hits:?}");
    }

    #[test]
    fn a_term_in_the_description_outweighs_the_same_term_in_a_body() {
        let r = ranking(&[
            &[
                ("other topic", 2.0),
                ("mentions deploy once in passing", 1.0),
            ],
            &[("deploy window", 2.0), ("only on weekdays", 1.0)],
        ]);
        assert_eq!(r.rank("deploy")[0].doc, 1);
    }

    #[test]
    fn a_query_that_matches_nothing_ranks_nothing() {
        let r = ranking(&[&[("release checklist", 2.0)]]);
        assert!(r.rank("quantum entanglement").is_empty());
        assert!(r.rank("").is_empty());
        assert!(ranking(&[]).rank("release").is_empty());
    }

    #[test]
    fn chinese_queries_match_chinese_memories() {
        let r = ranking(&[
            &[("封版", 2.0), ("下周三开始封版，只合并 P0 修复", 1.0)],
            &[("网关接口文档", 2.0), ("支付网关对外接口文档在飞书", 1.0)],
        ]);
        assert_eq!(r.rank("支付网关的接口文档在哪")[0].doc, 1);
        assert_eq!(r.rank("封版期间能合并吗")[0].doc, 0);
    }
}
