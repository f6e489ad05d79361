//! The words a text is matched by (DESIGN §12): English words lower-cased, split at anything but
//! letters and digits (so `pre-commit` and `src/db/schema.ts` give their parts), stop words
//! dropped and the rest stemmed (Snowball's English stemmer: `deploying` and `deployed` match);
//! runs of Chinese, Japanese or Korean characters, which have no spaces, as overlapping pairs of
//! characters (`封版期间` gives `封版`, `版期`, `期间`), and a lone character as itself.

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

/// Turns text into the terms it is matched by.
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

impl Tokenizer {
    /// The terms of `text`, in order, repeated as often as they occur.
    pub fn terms(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut word = String::new();
        let mut cjk: Vec<char> = Vec::new();
        for c in text.chars() {
            if is_cjk(c) {
                self.end_word(&mut word, &mut out);
                cjk.push(c);
            } else if c.is_alphanumeric() {
                end_cjk(&mut cjk, &mut out);
                word.extend(c.to_lowercase());
            } else {
                self.end_word(&mut word, &mut out);
                end_cjk(&mut cjk, &mut out);
            }
        }
        self.end_word(&mut word, &mut out);
        end_cjk(&mut cjk, &mut out);
        out
    }

    fn end_word(&self, word: &mut String, out: &mut Vec<String>) {
        if !word.is_empty() && !STOP_WORDS.contains(&word.as_str()) {
            out.push(self.stemmer.stem(word).into_owned());
        }
        word.clear();
    }
}

fn end_cjk(run: &mut Vec<char>, out: &mut Vec<String>) {
    match run.len() {
        0 => {}
        1 => out.push(run[0].to_string()),
        _ => out.extend(run.windows(2).map(|pair| pair.iter().collect())),
    }
    run.clear();
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
    }

    #[test]
    fn nothing_to_match_gives_no_terms() {
        assert!(terms("").is_empty());
        assert!(terms("the, and: of!").is_empty());
    }
}
