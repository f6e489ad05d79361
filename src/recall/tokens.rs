//! The words a text is matched by (DESIGN §12): English words lower-cased, split at anything but
//! letters and digits (so `pre-commit` and `src/db/schema.ts` give their parts), stop words
//! dropped and the rest stemmed (Snowball's English stemmer: `deploying` and `deployed` match);
//! runs of Chinese, Japanese or Korean characters, which have no spaces, as overlapping pairs of
//! characters (`封版期间` gives `封版`, `版期`, `期间`), and a lone character as itself.
//!
//! A word written in camel case (`PgBouncer`, `ThanosStoreDiskFilling`, `OOMKilled`) is also
//! read as its parts, after the whole word: `pgbouncer` written either way matches, and an
//! alert's name matches the words that name it.
//!
//! [`each_term`] gives a text's terms without stemming them (a memory's words are only compared
//! with a query's, and most never need their stem); [`Tokenizer::finish`] finishes a word.

use rust_stemmers::{Algorithm, Stemmer};

/// English words too common to tell memories apart.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "because", "been", "before", "but", "by", "can", "could", "did", "do", "does", "for", "from",
    "get", "got", "had", "has", "have", "he", "her", "here", "him", "his", "how", "i", "if", "in",
    "into", "is", "it", "its", "just", "let", "lets", "like", "me", "my", "need", "no", "not",
    "now", "of", "on", "one", "or", "our", "out", "please", "she", "should", "so", "some", "than",
    "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "up", "us",
    "use", "was", "we", "were", "what", "when", "where", "which", "while", "who", "why", "will",
    "with", "would", "you", "your",
];

/// One term of a text, before stemming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term<'a> {
    /// An English (or other spaced-script) word, lower-cased, not a stop word: stem it with
    /// [`Tokenizer::stem`] to compare it.
    Word(&'a str),
    /// A pair of CJK characters, or a lone one, as it is compared.
    Cjk(&'a str),
}

/// Whether `c` belongs to a script written without spaces between words.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}'     // Hiragana, Katakana
        | '\u{3400}'..='\u{4dbf}'   // CJK Extension A
        | '\u{4e00}'..='\u{9fff}'   // CJK Unified Ideographs
        | '\u{ac00}'..='\u{d7af}'   // Hangul syllables
        | '\u{f900}'..='\u{faff}'   // CJK Compatibility Ideographs
        | '\u{20000}'..='\u{2ffff}' // CJK Extensions B and on
    )
}

/// Whether a finished term is CJK characters (else a word).
pub fn is_cjk_term(term: &str) -> bool {
    term.chars().next().is_some_and(is_cjk)
}

/// Call `f` with each term of `text`, in order, as often as it occurs.
pub fn each_term(text: &str, mut f: impl FnMut(Term<'_>)) {
    let mut word = String::new();
    // In a CJK run: where its last character starts and its length; and how many it has.
    let mut run: Option<(usize, usize)> = None;
    let mut run_len = 0usize;
    // The word being read, lower-cased, and where its camel-case parts start in it.
    let mut parts: Vec<usize> = Vec::new();
    let mut prev: Option<char> = None;
    let end_word = |word: &mut String, parts: &mut Vec<usize>, f: &mut dyn FnMut(Term<'_>)| {
        if !word.is_empty() && !STOP_WORDS.contains(&word.as_str()) {
            f(Term::Word(word));
            if !parts.is_empty() {
                let mut start = 0;
                for end in parts.iter().copied().chain([word.len()]) {
                    let part = &word[start..end];
                    if !STOP_WORDS.contains(&part) {
                        f(Term::Word(part));
                    }
                    start = end;
                }
            }
        }
        word.clear();
        parts.clear();
    };
    for (at, c) in text.char_indices() {
        if is_cjk(c) {
            end_word(&mut word, &mut parts, &mut f);
            prev = None;
            if let Some((prev, _)) = run {
                f(Term::Cjk(&text[prev..at + c.len_utf8()]));
            }
            run = Some((at, c.len_utf8()));
            run_len += 1;
            continue;
        }
        // A run of one character is a term of its own.
        if let (Some((prev, len)), 1) = (run, run_len) {
            f(Term::Cjk(&text[prev..prev + len]));
        }
        run = None;
        run_len = 0;
        if c.is_alphanumeric() {
            // A part starts at an upper-case letter after a lower-case one (`pgBouncer`), and at
            // the last of a run of capitals before a lower-case letter (`OOMKilled`).
            let next_lower = text[at + c.len_utf8()..]
                .chars()
                .next()
                .is_some_and(char::is_lowercase);
            let starts_part = c.is_uppercase()
                && prev.is_some_and(|p| p.is_lowercase() || (p.is_uppercase() && next_lower));
            if starts_part && !word.is_empty() {
                parts.push(word.len());
            }
            word.extend(c.to_lowercase());
            prev = Some(c);
        } else {
            end_word(&mut word, &mut parts, &mut f);
            prev = None;
        }
    }
    end_word(&mut word, &mut parts, &mut f);
    if let (Some((prev, len)), 1) = (run, run_len) {
        f(Term::Cjk(&text[prev..prev + len]));
    }
}

/// Finishes terms: stems English words.
pub struct Tokenizer {
    stemmer: Stemmer,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer {
            stemmer: Stemmer::create(Algorithm::English),
        }
    }
}

impl Tokenizer {
    /// A term as it is compared: a word's stem, or the CJK characters as they are.
    pub fn finish(&self, term: Term<'_>) -> String {
        match term {
            Term::Word(word) => self.stemmer.stem(word).into_owned(),
            Term::Cjk(chars) => chars.to_string(),
        }
    }

    /// The terms of `text`, finished, in order, repeated as often as they occur.
    pub fn terms(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        each_term(text, |term| out.push(self.finish(term)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        Tokenizer::default().terms(text)
    }

    #[test]
    fn english_words_are_split_stemmed_and_stripped_of_stop_words() {
        assert_eq!(
            terms("Deploying the pre-commit hooks to src/db/schema.ts"),
            [
                "deploy", "pre", "commit", "hook", "src", "db", "schema", "ts"
            ]
        );
        assert_eq!(terms("deployed"), terms("deploys"));
    }

    #[test]
    fn chinese_runs_are_pairs_of_characters_and_mixed_text_keeps_both() {
        assert_eq!(terms("封版期间"), ["封版", "版期", "期间"]);
        assert_eq!(
            terms("部署前先跑 `make lint`"),
            ["部署", "署前", "前先", "先跑", "make", "lint"]
        );
        assert_eq!(terms("用 Go"), ["用", "go"]);
        assert_eq!(terms("Go用"), ["go", "用"]);
        assert_eq!(terms("a封b版版"), ["封", "b", "版版"]);
    }

    #[test]
    fn a_camel_case_word_is_read_whole_then_as_its_parts() {
        assert_eq!(terms("PgBouncer"), ["pgbouncer", "pg", "bouncer"]);
        assert_eq!(terms("pgbouncer"), ["pgbouncer"]);
        assert_eq!(
            terms("ThanosStoreDiskFilling fired"),
            [
                "thanosstorediskfil",
                "thano",
                "store",
                "disk",
                "fill",
                "fire"
            ]
        );
        assert_eq!(terms("OOMKilled"), ["oomkil", "oom", "kill"]);
        assert_eq!(terms("HTTP API v2"), ["http", "api", "v2"]);
        // Stop words are left out of the parts as of the words.
        assert_eq!(terms("getTheName"), ["getthenam", "name"]);
    }

    #[test]
    fn nothing_to_match_gives_no_terms() {
        assert!(terms("").is_empty());
        assert!(terms("the, and: of!").is_empty());
    }
}
