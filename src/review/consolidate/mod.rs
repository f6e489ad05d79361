//! Consolidation (DESIGN §7): memory that stays small, current and true, as a branch a person
//! merges. What the rules find ([`find`]): duplicates (the same fact, identifiers agreeing),
//! contradictions (the same subject, another value; the newer is true), time-bound memories
//! whose date has passed, and relative dates. What is done about them ([`Action`]): merge,
//! drop, rewrite — each checked ([`check`]) whether the builtin rules or a model proposed it —
//! then grouped into one change per kind ([`plan`]) and the index kept within Claude Code's
//! limits ([`fold`]).
//!
//! Here: the memories as read, the findings and the actions. How two memories compare is
//! [`pairs`] (over [`text`]); expiry, [`expiry`]; merged text, [`merge`]; the steps,
//! [`plan`]; the index within its limits, [`fold`]; the branch, [`branch`].

pub mod agent;
pub mod background;
pub mod branch;
mod expiry;
pub mod fold;
mod merge;
mod pairs;
pub mod plan;
mod text;

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::NaiveDate;

use crate::memory::calendar::absolute_dates;
use crate::memory::dates::{absolutize, relative_phrase};
use crate::memory::store::StoreError;
use crate::memory::taxonomy::MemoryType;
use crate::repo::RepoError;

pub use expiry::Expiry;
use pairs::{Corpus, Note, Relation};

/// Why a consolidation could not be made or applied.
#[derive(Debug, thiserror::Error)]
pub enum ConsolidateError {
    /// The request cannot be carried out as asked (no history, HEAD detached, a branch someone
    /// else committed to).
    #[error("{0}")]
    Invalid(String),
    /// HEAD moved while the consolidation was prepared (a save meanwhile): prepare it again.
    #[error("the memory dir changed while the consolidation was prepared; run it again")]
    Moved,
    /// `--consolidator agent`, and no model answered.
    #[error("{0}")]
    NoModel(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

impl ConsolidateError {
    /// Whether the request is at fault and nothing was written (exit 2), not the machine.
    pub fn is_invalid_input(&self) -> bool {
        match self {
            ConsolidateError::Invalid(_) => true,
            ConsolidateError::Moved | ConsolidateError::NoModel(_) => false,
            ConsolidateError::Store(e) => e.is_invalid_input(),
            ConsolidateError::Repo(e) => e.is_refusal(),
        }
    }
}

/// A memory as consolidation reads it (from a commit's tree).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    pub name: String,
    pub memory_type: Option<MemoryType>,
    pub description: String,
    /// The title of its index line.
    pub title: Option<String>,
    pub body: String,
    /// The topic file's text.
    pub text: String,
    /// When it was last saved (seconds since the epoch, and the committer's UTC offset);
    /// `None` when history does not say.
    pub saved: Option<(i64, i32)>,
}

impl Memory {
    /// The day it was last saved, in the committer's own time zone (what "tomorrow" meant).
    pub fn saved_on(&self) -> Option<NaiveDate> {
        let (seconds, offset) = self.saved?;
        let zone = chrono::FixedOffset::east_opt(offset)?;
        Some(
            chrono::DateTime::from_timestamp(seconds, 0)?
                .with_timezone(&zone)
                .date_naive(),
        )
    }

    fn seconds(&self) -> i64 {
        self.saved.map_or(i64::MIN, |(s, _)| s)
    }
}

/// A contradiction: `older` says what `newer` replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction {
    pub older: usize,
    pub newer: usize,
    /// Values only the older says, and only the newer.
    pub stale: Vec<String>,
    pub current: Vec<String>,
}

/// What the rules find in a store, by index into the memories given to [`find`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    /// Groups of memories stating the same fact, oldest first.
    pub duplicates: Vec<Vec<usize>>,
    pub contradictions: Vec<Contradiction>,
    pub expired: Vec<(usize, Expiry)>,
    /// Memories holding a relative date, with the first one.
    pub relative: Vec<(usize, String)>,
}

/// Description and body with relative dates made absolute as of the day the memory was saved,
/// when that changes anything.
fn absolute_texts(memory: &Memory) -> Option<(String, String)> {
    let day = memory.saved_on()?;
    let description = absolutize(&memory.description, day);
    let body = absolutize(&memory.body, day);
    (description != memory.description || body != memory.body).then_some((description, body))
}

/// Description and body as the rules read them: relative dates made absolute.
fn read_as(memory: &Memory) -> (String, String) {
    absolute_texts(memory).unwrap_or_else(|| (memory.description.clone(), memory.body.clone()))
}

/// What the rules find among `memories`, as of `today`.
pub fn find(memories: &[Memory], today: NaiveDate) -> Findings {
    let mut findings = Findings::default();
    // Dates are judged as the memory will read once its relative dates are absolute.
    let (texts, notes) = compared(memories);
    for (i, memory) in memories.iter().enumerate() {
        if memory.saved_on().is_some() {
            let phrase =
                relative_phrase(&memory.description).or_else(|| relative_phrase(&memory.body));
            if let Some(phrase) = phrase {
                findings.relative.push((i, phrase));
            }
        }
        // Without a save date, a date written without its year cannot be read: today stands
        // in, and such a date is always still to come.
        let written = memory.saved_on().unwrap_or(today);
        let (description, body) = &texts[i];
        if let Some(expiry) = expiry::expired(&format!("{description}\n{body}"), written, today) {
            findings.expired.push((i, expiry));
        }
    }
    let dropped: HashSet<usize> = findings.expired.iter().map(|(i, _)| *i).collect();
    let corpus = Corpus::new(&notes);
    let mut relations: HashMap<(usize, usize), Relation> = HashMap::new();
    for (i, j) in corpus.candidates() {
        if dropped.contains(&i) || dropped.contains(&j) {
            continue;
        }
        relations.insert((i, j), corpus.relate(i, j));
    }
    // Of an older memory's contradictions, the newest is the one that replaces it.
    let mut replaced: BTreeMap<usize, Contradiction> = BTreeMap::new();
    for relation in relations.values() {
        if let Relation::Contradiction {
            older,
            newer,
            stale,
            current,
        } = relation
        {
            let newest = replaced
                .get(older)
                .is_none_or(|c| memories[c.newer].seconds() < memories[*newer].seconds());
            if newest {
                replaced.insert(
                    *older,
                    Contradiction {
                        older: *older,
                        newer: *newer,
                        stale: stale.clone(),
                        current: current.clone(),
                    },
                );
            }
        }
    }
    findings.contradictions = replaced.into_values().collect();
    let superseded: HashSet<usize> = findings.contradictions.iter().map(|c| c.older).collect();
    findings.duplicates = duplicate_groups(memories, &relations, &superseded);
    findings
}

/// Groups of duplicates: two groups join through a pair of duplicates only when no memory of
/// one is a near-duplicate or a contradiction of a memory of the other.
fn duplicate_groups(
    memories: &[Memory],
    relations: &HashMap<(usize, usize), Relation>,
    superseded: &HashSet<usize>,
) -> Vec<Vec<usize>> {
    let mut group_of: Vec<usize> = (0..memories.len()).collect();
    let mut members: HashMap<usize, Vec<usize>> =
        (0..memories.len()).map(|i| (i, vec![i])).collect();
    let mut pairs: Vec<&(usize, usize)> = relations
        .iter()
        .filter(|(_, r)| **r == Relation::Duplicate)
        .map(|(pair, _)| pair)
        .filter(|(i, j)| !superseded.contains(i) && !superseded.contains(j))
        .collect();
    pairs.sort();
    for &(i, j) in pairs {
        let (gi, gj) = (group_of[i], group_of[j]);
        if gi == gj {
            continue;
        }
        let (a, b) = (&members[&gi], &members[&gj]);
        let apart = a.iter().any(|x| {
            b.iter().any(|y| {
                let key = ((*x).min(*y), (*x).max(*y));
                matches!(
                    relations.get(&key),
                    Some(Relation::NearDuplicate | Relation::Contradiction { .. })
                )
            })
        });
        if apart {
            continue;
        }
        let moved = members.remove(&gj).unwrap_or_default();
        for &m in &moved {
            group_of[m] = gi;
        }
        members.entry(gi).or_default().extend(moved);
    }
    let mut groups: Vec<Vec<usize>> = members
        .into_values()
        .filter(|g| g.len() >= 2)
        .map(|mut g| {
            g.sort_by_key(|&i| (memories[i].seconds(), i));
            g
        })
        .collect();
    groups.sort();
    groups
}

/// Why a memory is dropped: one of the rules, never anything else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DropReason {
    /// Time-bound, and its date passed.
    Expired(Expiry),
    /// A newer memory says the same subject has another value.
    Superseded {
        by: String,
        stale: Vec<String>,
        current: Vec<String>,
    },
}

/// One change to the memories.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `names` (oldest first) become one memory, `into` (one of them), with this text.
    Merge {
        names: Vec<String>,
        into: String,
        description: String,
        body: String,
    },
    Drop {
        name: String,
        reason: DropReason,
    },
    /// The memory's relative dates made absolute.
    Rewrite {
        name: String,
        description: String,
        body: String,
    },
}

/// What the builtin rules do about `findings`: relative dates rewritten, duplicates merged into
/// the first saved of each group (the name others know it by, and the one `review` keeps),
/// expired and superseded memories dropped.
pub fn builtin_actions(memories: &[Memory], findings: &Findings) -> Vec<Action> {
    let mut actions = Vec::new();
    let texts: Vec<(String, String)> = memories.iter().map(read_as).collect();
    for (i, _) in &findings.relative {
        let (description, body) = &texts[*i];
        if *description != memories[*i].description || *body != memories[*i].body {
            actions.push(Action::Rewrite {
                name: memories[*i].name.clone(),
                description: description.clone(),
                body: body.clone(),
            });
        }
    }
    for group in &findings.duplicates {
        let Some((&first, later)) = group.split_first() else {
            continue;
        };
        let others: Vec<(&str, &str)> = later
            .iter()
            .map(|&i| (texts[i].0.as_str(), texts[i].1.as_str()))
            .collect();
        let (description, body) = merge::merge_texts((&texts[first].0, &texts[first].1), &others);
        actions.push(Action::Merge {
            names: group.iter().map(|&i| memories[i].name.clone()).collect(),
            into: memories[first].name.clone(),
            description,
            body,
        });
    }
    for (i, expiry) in &findings.expired {
        actions.push(Action::Drop {
            name: memories[*i].name.clone(),
            reason: DropReason::Expired(expiry.clone()),
        });
    }
    for c in &findings.contradictions {
        actions.push(Action::Drop {
            name: memories[c.older].name.clone(),
            reason: DropReason::Superseded {
                by: memories[c.newer].name.clone(),
                stale: c.stale.clone(),
                current: c.current.clone(),
            },
        });
    }
    actions
}

/// What was proposed about a store, and by whom.
#[derive(Debug, Clone, Default)]
pub struct Proposal {
    pub actions: Vec<Action>,
    /// Parts of a model's answer that are no action, refused with why.
    pub malformed: Vec<(String, Refused)>,
    /// The model that answered (`claude (haiku)`, `the agent command`); `None`: the builtin
    /// rules.
    pub model: Option<String>,
    /// Why the builtin rules proposed when a model was wanted (`auto` with no model answering).
    pub fallback: Option<String>,
    /// Model calls made, and what they cost when the model says.
    pub calls: u32,
    pub cost_usd: Option<f64>,
    /// Memories the model was not shown (a store larger than its requests hold).
    pub unseen: usize,
}

impl Proposal {
    /// Who proposed, in words, for people and the log: `agent: claude (haiku), 1 call
    /// ($0.0021)`, `builtin (no model: claude is not installed)`.
    pub fn by_line(&self) -> String {
        let mut line = match &self.model {
            Some(model) => format!(
                "agent: {model}, {} call(s){}",
                self.calls,
                self.cost_usd
                    .map(|c| format!(" (${c:.4})"))
                    .unwrap_or_default()
            ),
            None => "builtin".to_string(),
        };
        if let Some(why) = &self.fallback {
            line.push_str(&format!(" (no model: {why})"));
        }
        if self.unseen > 0 {
            line.push_str(&format!(
                "; {} memories did not fit in its requests and were left as they are",
                self.unseen
            ));
        }
        line
    }

    /// The builtin rules' proposal about `findings`.
    pub fn builtin(memories: &[Memory], findings: &Findings) -> Proposal {
        Proposal {
            actions: builtin_actions(memories, findings),
            ..Proposal::default()
        }
    }
}

/// Why an action is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("{0}: no such memory")]
    Unknown(String),
    #[error("a merge needs two memories or more, and `into` among them")]
    BadMerge,
    #[error("the merge into {into} loses what {lost} said: {words}")]
    MergeLoses {
        into: String,
        lost: String,
        words: String,
    },
    #[error("the merge into {into} says what none of the merged memories said: {words}")]
    MergeAdds { into: String, words: String },
    #[error("{0} is changed twice")]
    Twice(String),
    #[error("the rewrite of {name} changes more than its relative dates: it loses {words}")]
    RewriteLoses { name: String, words: String },
    #[error("the rewrite of {name} changes more than its relative dates: it adds {words}")]
    RewriteAdds { name: String, words: String },
    #[error("{name} is dropped as superseded by {by}, which is not a newer memory")]
    NotNewer { name: String, by: String },
    #[error("{name} is dropped as superseded by {by}, which is about something else")]
    OtherSubject { name: String, by: String },
    #[error("{name} is dropped as expired on {date}, which is not past")]
    NotExpired { name: String, date: NaiveDate },
    #[error("{name} is dropped as expired on {date}, a date it does not name")]
    DateNotNamed { name: String, date: NaiveDate },
    #[error("{name} is dropped as expired, but it names {date}, still to come")]
    StillToCome { name: String, date: NaiveDate },
    /// Part of a model's answer that is no action memdir knows.
    #[error("{0}")]
    Malformed(String),
}

impl Action {
    /// The action in a few words, for a refusal: `merging a, b into a`.
    pub fn describe(&self) -> String {
        match self {
            Action::Merge { names, into, .. } => {
                format!("merging {} into {into}", names.join(", "))
            }
            Action::Drop { name, .. } => format!("dropping {name}"),
            Action::Rewrite { name, .. } => format!("rewriting {name}"),
        }
    }
}

/// What every action is checked against: the memories, today, and how they compare.
pub struct Checker<'a> {
    memories: &'a [Memory],
    today: NaiveDate,
    /// Each memory's description and body with relative dates made absolute.
    texts: &'a [(String, String)],
    corpus: Corpus<'a>,
}

/// Each memory's description and body with relative dates made absolute (as the rules read
/// it), and as it is compared.
fn compared(memories: &[Memory]) -> (Vec<(String, String)>, Vec<Note>) {
    let texts: Vec<(String, String)> = memories.iter().map(read_as).collect();
    let notes = texts
        .iter()
        .zip(memories)
        .map(|((description, body), m)| Note::new(description, body, m.seconds()))
        .collect();
    (texts, notes)
}

impl<'a> Checker<'a> {
    fn find(&self, name: &str) -> Result<usize, Refused> {
        self.memories
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| Refused::Unknown(name.to_string()))
    }

    /// Check an action: it names memories that exist; a merge keeps every merged memory's
    /// content words; a rewrite keeps its memory's and adds none but dates; a drop's reason
    /// holds (the memory names a date, and every date it names has passed; or a newer memory
    /// on the same subject replaces it).
    pub fn check(&self, action: &Action) -> Result<(), Refused> {
        match action {
            Action::Merge {
                names,
                into,
                description,
                body,
            } => {
                if names.len() < 2 || !names.contains(into) {
                    return Err(Refused::BadMerge);
                }
                let mut parts: Vec<(&str, &str)> = Vec::new();
                for name in names {
                    let i = self.find(name)?;
                    let memory = &self.memories[i];
                    let merged = (description.as_str(), body.as_str());
                    // Its words as saved, or as they read with relative dates made absolute.
                    let mut lost =
                        merge::lost_words(&[(&memory.description, &memory.body)], merged);
                    if !lost.is_empty() {
                        let (d, b) = &self.texts[i];
                        lost = merge::lost_words(&[(d, b)], merged);
                    }
                    if !lost.is_empty() {
                        return Err(Refused::MergeLoses {
                            into: into.clone(),
                            lost: name.clone(),
                            words: lost.join(", "),
                        });
                    }
                    parts.push((&memory.description, &memory.body));
                    parts.push((&self.texts[i].0, &self.texts[i].1));
                }
                // Nothing none of them said: a merge writes no new fact.
                let all: String = parts.iter().map(|(d, b)| format!("{d}\n{b}\n")).collect();
                let added = merge::lost_words(&[(description, body)], (&all, ""));
                if added.is_empty() {
                    Ok(())
                } else {
                    Err(Refused::MergeAdds {
                        into: into.clone(),
                        words: added.join(", "),
                    })
                }
            }
            Action::Rewrite {
                name,
                description,
                body,
            } => {
                let i = self.find(name)?;
                let (d, b) = &self.texts[i];
                let lost = merge::lost_words(&[(d, b)], (description, body));
                if !lost.is_empty() {
                    return Err(Refused::RewriteLoses {
                        name: name.clone(),
                        words: lost.join(", "),
                    });
                }
                let memory = &self.memories[i];
                let written = memory.saved_on().unwrap_or(self.today);
                let added: Vec<String> = merge::lost_words(&[(description, body)], (d, b))
                    .into_iter()
                    .filter(|w| absolute_dates(w, written).is_empty())
                    .filter(|w| !w.chars().all(|c| c.is_ascii_digit() || c == '-'))
                    .collect();
                if added.is_empty() {
                    Ok(())
                } else {
                    Err(Refused::RewriteAdds {
                        name: name.clone(),
                        words: added.join(", "),
                    })
                }
            }
            Action::Drop { name, reason } => {
                let i = self.find(name)?;
                match reason {
                    DropReason::Expired(expiry) => self.check_expired(i, expiry),
                    DropReason::Superseded { by, .. } => {
                        let j = self.find(by)?;
                        if i == j || self.memories[j].seconds() < self.memories[i].seconds() {
                            return Err(Refused::NotNewer {
                                name: name.clone(),
                                by: by.clone(),
                            });
                        }
                        if !self.corpus.same_subject(i, j) {
                            return Err(Refused::OtherSubject {
                                name: name.clone(),
                                by: by.clone(),
                            });
                        }
                        Ok(())
                    }
                }
            }
        }
    }

    /// A drop as expired holds when the date is past, the memory names it, and it names no
    /// day still to come (whether the date binds the memory or is its history, the rules or
    /// the model judged).
    fn check_expired(&self, i: usize, expiry: &Expiry) -> Result<(), Refused> {
        let name = self.memories[i].name.clone();
        if expiry.date >= self.today {
            return Err(Refused::NotExpired {
                name,
                date: expiry.date,
            });
        }
        let (d, b) = &self.texts[i];
        let written = self.memories[i].saved_on().unwrap_or(self.today);
        let mentions = absolute_dates(&format!("{d}\n{b}"), written);
        if let Some(later) = mentions.iter().find(|m| m.date >= self.today) {
            return Err(Refused::StillToCome {
                name,
                date: later.date,
            });
        }
        if !mentions.iter().any(|m| m.date == expiry.date) {
            return Err(Refused::DateNotNamed {
                name,
                date: expiry.date,
            });
        }
        Ok(())
    }
}

/// The names an action changes, for refusing two actions on one memory.
fn touched(action: &Action) -> Vec<&str> {
    match action {
        Action::Merge { names, .. } => names.iter().map(String::as_str).collect(),
        Action::Drop { name, .. } | Action::Rewrite { name, .. } => vec![name.as_str()],
    }
}

/// The actions that pass [`Checker::check`], and each refused one (described) with why; a
/// memory touched by an earlier action (a rewrite excepted: a memory may be rewritten, then
/// merged) is refused.
pub fn checked(
    actions: Vec<Action>,
    memories: &[Memory],
    today: NaiveDate,
) -> (Vec<Action>, Vec<(String, Refused)>) {
    let (texts, notes) = compared(memories);
    let checker = Checker {
        memories,
        today,
        texts: &texts,
        corpus: Corpus::new(&notes),
    };
    let mut kept = Vec::new();
    let mut refused = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for action in actions {
        let again = touched(&action)
            .into_iter()
            .find(|name| seen.contains(*name))
            .map(str::to_string);
        let verdict = match again {
            Some(name) => Err(Refused::Twice(name)),
            None => checker.check(&action),
        };
        match verdict {
            Ok(()) => {
                if !matches!(action, Action::Rewrite { .. }) {
                    seen.extend(touched(&action).into_iter().map(str::to_string));
                }
                kept.push(action);
            }
            Err(why) => refused.push((action.describe(), why)),
        }
    }
    (kept, refused)
}

#[cfg(test)]
mod tests;
