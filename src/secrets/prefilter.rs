//! What a pattern needs before it can match, checked for all patterns in one pass over the text,
//! so that a text with no secret (almost every memory) compiles and runs no pattern at all.
//!
//! Each pattern names its needles (literal strings, matched ignoring ASCII case, one of which is
//! in every text it matches) and the longest run of token characters it needs (`AC` and 32 hex
//! digits need a run of 34). A prefilter may let through a text the pattern then does not match;
//! it never keeps out one that it would.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// What a pattern needs of a text.
#[derive(Debug, Clone, Copy)]
pub(super) struct Needs {
    /// One of these is in the text (ASCII case ignored); empty: nothing.
    pub(super) needles: &'static [&'static str],
    /// The text has a run of at least this many token characters ([`is_token_char`]).
    pub(super) run: usize,
}

impl Needs {
    pub(super) const fn any_of(needles: &'static [&'static str]) -> Self {
        Needs { needles, run: 0 }
    }

    pub(super) const fn with_run(self, run: usize) -> Self {
        Needs { run, ..self }
    }
}

/// What one text holds: the needles found in it and its longest run of token characters.
pub(super) struct Present {
    found: Vec<bool>,
    longest_run: usize,
}

/// Up to this much text in all, a process searches for each needle in turn: building the
/// automaton costs about a millisecond, more than a save's whole scan of a memory (a topic
/// file, an index line) that way. Past it (a transcript, or the sentences of one, a review of
/// every memory) the automaton is built once and reads the rest.
const SEARCHED_TEXT: usize = 16 * 1024;

impl Present {
    /// Reads `text` for every needle of `all` (the needs of every pattern).
    pub(super) fn of(text: &str, all: &Automaton) -> Self {
        let before = all.searched.fetch_add(text.len(), Ordering::Relaxed);
        let found = if all.automaton.get().is_none() && before + text.len() <= SEARCHED_TEXT {
            Self::searched(text, all)
        } else {
            Self::automaton_read(text, all)
        };
        Present {
            found,
            longest_run: longest_run(text),
        }
    }

    /// Which needles `text` holds, each looked for in the text in lower case.
    pub(super) fn searched(text: &str, all: &Automaton) -> Vec<bool> {
        let lower = text.to_ascii_lowercase();
        all.lowered
            .iter()
            .map(|needle| lower.contains(needle.as_str()))
            .collect()
    }

    /// Which needles `text` holds, in one pass of the automaton.
    pub(super) fn automaton_read(text: &str, all: &Automaton) -> Vec<bool> {
        let mut found = vec![false; all.needles.len()];
        for hit in all.automaton().find_overlapping_iter(text) {
            found[hit.pattern().as_usize()] = true;
        }
        found
    }

    /// Everything present: every pattern runs (what the scanner did before the prefilter; the
    /// tests compare the two).
    #[cfg(test)]
    pub(super) fn everything(all: &Automaton) -> Self {
        Present {
            found: vec![true; all.needles.len()],
            longest_run: usize::MAX,
        }
    }

    /// Whether a pattern that `needs` this may match the text.
    pub(super) fn admits(&self, needs: &Needs, all: &Automaton) -> bool {
        self.longest_run >= needs.run
            && (needs.needles.is_empty()
                || needs
                    .needles
                    .iter()
                    .any(|needle| all.index.get(needle).is_some_and(|&at| self.found[at])))
    }
}

/// The needles of every pattern, and one automaton for them all, built when a long text
/// first needs it.
pub(super) struct Automaton {
    needles: Vec<&'static str>,
    /// `needles` in ASCII lower case, in the same order.
    lowered: Vec<String>,
    /// Where each needle is in `needles` (the automaton's pattern ids).
    index: std::collections::HashMap<&'static str, usize>,
    automaton: OnceLock<AhoCorasick>,
    /// How much text was searched needle by needle ([`SEARCHED_TEXT`]).
    searched: AtomicUsize,
}

impl Automaton {
    pub(super) fn new(needs: impl IntoIterator<Item = Needs>) -> Self {
        let mut needles: Vec<&'static str> = Vec::new();
        let mut index = std::collections::HashMap::new();
        for needle in needs.into_iter().flat_map(|n| n.needles.iter().copied()) {
            index.entry(needle).or_insert_with(|| {
                needles.push(needle);
                needles.len() - 1
            });
        }
        Automaton {
            lowered: needles.iter().map(|n| n.to_ascii_lowercase()).collect(),
            needles,
            index,
            automaton: OnceLock::new(),
            searched: AtomicUsize::new(0),
        }
    }

    fn automaton(&self) -> &AhoCorasick {
        self.automaton.get_or_init(|| {
            // A contiguous NFA builds in a tenth of a DFA's time and searches as fast here.
            AhoCorasick::builder()
                .kind(Some(AhoCorasickKind::ContiguousNFA))
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::Standard)
                .build(&self.needles)
                .unwrap_or_else(|e| panic!("secret needles: {e}"))
        })
    }
}

/// Letters, digits and the characters tokens are made of (`_-+/=.~%`).
fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_-+/=.~%".contains(&b)
}

fn longest_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for &b in text.as_bytes() {
        run = if is_token_char(b) { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A process searches needle by needle until it has read a few kilobytes, then builds the
    /// automaton once and reads the rest with it: both find the same needles, in any case.
    #[test]
    fn the_automaton_is_built_only_past_a_few_kilobytes_and_finds_the_same() {
        let all = Automaton::new([
            Needs::any_of(&["ghp_", "AKIA"]),
            Needs::any_of(&["xoxb-", "ghp_"]),
        ]);
        let text = "a Slack token XOXB-1 beside akia-ish words";
        let first = Present::of(text, &all).found;
        assert_eq!(first, [false, true, true]);
        assert!(all.automaton.get().is_none(), "built for a short text");
        let filler = "x".repeat(1024);
        for _ in 0..SEARCHED_TEXT / 1024 {
            assert_eq!(Present::of(&filler, &all).found, [false, false, false]);
        }
        assert!(all.automaton.get().is_some(), "never built");
        assert_eq!(Present::of(text, &all).found, first);
    }
}
