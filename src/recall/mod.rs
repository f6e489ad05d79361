//! Recall (DESIGN §12): finding the memories that speak to a query, in the personal memory dir
//! and in team memory (`<memory dir>/team/`), and in their history. `memdir search` shows the
//! ranking to people; `memdir recall --hook` brings it to the agent.
//!
//! - [`tokens`]: the terms a text is matched by (English stems, camel-case parts, Chinese
//!   character pairs);
//! - [`rank`]: BM25 over a memory's weighted fields, and each hit's fit (its score as a share of
//!   the most the query allows);
//! - `background`: how much a prompt's word that no memory has weighs (an everyday word little,
//!   a rare one in full), a table learned by `examples/learn_word_weights.rs`;
//! - [`bar`]: what a hit may be added to a prompt as: its body, one line, or nothing, and why;
//! - [`cache`]: each memory's counted terms kept in `.git/memdir/recall-cache`, read again only for
//!   the files that changed;
//! - [`inject`]: what the hooks add (the team index at SessionStart, memories at each prompt),
//!   and the per-session record of it; the stale notes SessionStart adds come from `verify`'s
//!   kept result, put together by the command (`cli/recall.rs`), as capabilities do not import
//!   each other.

mod background;
pub mod bar;
pub mod cache;
pub mod inject;
pub mod rank;
pub mod tokens;

use std::collections::HashMap;
use std::path::Path;

use crate::memory::catalog::{FileProblem, Memory, past_versions};
use crate::memory::store::StoreError;
use crate::repo::RepoError;

use bar::{Bar, Grade};
use rank::{Counted, Doc, Phrases, Scored, Vocabulary};

/// Whose memory a memory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    Personal,
    Team,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Personal => "personal",
            Scope::Team => "team",
        }
    }
}

/// How much a term found in each field counts: the name, the index line's title and the
/// description say what the memory is about; the body says more than that.
const NAME_WEIGHT: f32 = 3.0;
const TITLE_WEIGHT: f32 = 3.0;
const DESCRIPTION_WEIGHT: f32 = 3.0;
const BODY_WEIGHT: f32 = 1.0;

/// Where a memory found in history stands: the newest commit holding that version, its time,
/// and whether the memory has since been deleted (else it is an older version).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Past {
    pub commit: gix::ObjectId,
    pub time: (i64, i32),
    pub deleted: bool,
}

/// A memory found for a query.
#[derive(Debug, Clone)]
pub struct Found<'a> {
    pub memory: &'a Memory,
    pub scope: Scope,
    /// `None` for the memory as it is now.
    pub past: Option<Past>,
    pub score: f32,
    pub coverage: f32,
    /// Its score as a share of the most the query allows.
    pub fit: f32,
    /// How it stands against the bar for being added to a prompt unasked.
    pub grade: Grade,
}

/// One memory searched: whose, and, for one from history, where it stands.
struct Entry {
    scope: Scope,
    memory: Memory,
    past: Option<Past>,
    /// Its name, description and body counted (by the cache), for a memory as it is now.
    counted: Option<Counted>,
}

/// The memories searched, read once.
pub struct Corpus {
    entries: Vec<Entry>,
    /// The terms the entries' counts name.
    vocabulary: Vocabulary,
    /// Files that could not be read as memories (each a problem of the listing, not a failure).
    pub problems: Vec<FileProblem>,
}

impl Corpus {
    /// Read the memories of each folder of `sources` (a folder that does not exist has none).
    pub fn read(sources: &[(Scope, &Path)]) -> Result<Corpus, StoreError> {
        let mut entries = Vec::new();
        let mut problems = Vec::new();
        let mut vocabulary = Vocabulary::default();
        for &(scope, dir) in sources {
            let weights = [NAME_WEIGHT, DESCRIPTION_WEIGHT, BODY_WEIGHT];
            let (listing, counted) = cache::read(dir, weights, &mut vocabulary)?;
            problems.extend(listing.problems.into_iter().map(|p| FileProblem {
                file: dir.join(&p.file).display().to_string(),
                problem: p.problem,
            }));
            entries.extend(
                listing
                    .memories
                    .into_iter()
                    .zip(counted)
                    .map(|(memory, counted)| Entry {
                        scope,
                        memory,
                        past: None,
                        counted: Some(counted),
                    }),
            );
        }
        Ok(Corpus {
            entries,
            vocabulary,
            problems,
        })
    }

    /// [`Corpus::read`], and every version in each folder's history that it no longer holds
    /// (older versions, deleted memories).
    pub fn read_with_history(sources: &[(Scope, &Path)]) -> Result<Corpus, StoreError> {
        let mut corpus = Corpus::read(sources)?;
        for &(scope, dir) in sources {
            corpus
                .entries
                .extend(past_versions(dir)?.into_iter().map(|v| Entry {
                    scope,
                    memory: v.memory,
                    past: Some(Past {
                        commit: v.commit,
                        time: v.time,
                        deleted: v.deleted,
                    }),
                    counted: None,
                }));
        }
        Ok(corpus)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `limit` best memories for `query`, best first: one per memory (its best-matching
    /// version when history is searched too), each graded against `bar`.
    pub fn search(&self, query: &str, limit: usize, bar: &Bar) -> Vec<Found<'_>> {
        let docs: Vec<Doc<'_>> = self
            .entries
            .iter()
            .map(
                |Entry {
                     memory: m, counted, ..
                 }| {
                    let title = (m.title.as_deref().unwrap_or(""), TITLE_WEIGHT);
                    match counted {
                        Some(counted) => Doc {
                            fields: vec![title],
                            counted: Some(counted),
                        },
                        None => Doc::from(vec![
                            (m.name.as_str(), NAME_WEIGHT),
                            title,
                            (m.description.as_deref().unwrap_or(""), DESCRIPTION_WEIGHT),
                            (m.body.as_str(), BODY_WEIGHT),
                        ]),
                    }
                },
            )
            .collect();
        let mut shown = std::collections::HashSet::new();
        let phrases = Phrases::of(query);
        let hits = rank::rank(query, &docs, &self.vocabulary);
        let top = hits.first().map_or(0.0, |hit| hit.score);
        hits.into_iter()
            .filter(|hit| {
                let entry = &self.entries[hit.doc];
                shown.insert((entry.scope, entry.memory.name.as_str()))
            })
            .take(limit)
            .enumerate()
            .map(
                |(
                    place,
                    Scored {
                        doc,
                        score,
                        coverage,
                        fit,
                    },
                )| {
                    let entry = &self.entries[doc];
                    let m = &entry.memory;
                    let grade = bar.grade(place, fit, score / top, || {
                        phrases.found_in(&[
                            &m.name,
                            m.title.as_deref().unwrap_or(""),
                            m.description.as_deref().unwrap_or(""),
                            &m.body,
                        ])
                    });
                    Found {
                        memory: m,
                        scope: entry.scope,
                        past: entry.past,
                        score,
                        coverage,
                        fit,
                        grade,
                    }
                },
            )
            .collect()
    }
}

/// When each memory was last saved, by name: seconds and UTC offset.
pub type SavedTimes = HashMap<String, (i64, i32)>;

/// When each memory of each of `sources` was last saved, from its repository's history; none
/// for a folder without one.
pub fn saved_times(sources: &[(Scope, &Path)]) -> Result<HashMap<Scope, SavedTimes>, RepoError> {
    let mut saved = HashMap::new();
    for &(scope, dir) in sources {
        saved.insert(
            scope,
            crate::memory::age::last_saved(&crate::repo::history_of(dir)?),
        );
    }
    Ok(saved)
}
