//! What a memory says, in the terms consolidation compares (DESIGN §7): its tokens in order (for
//! lining two statements up), its content words stemmed, its Chinese character pairs, and its
//! *values*: the identifiers, numbers, names, paths and hosts that make one fact differ from
//! another of the same shape ("ledger-svc listens on :8081" is not "payouts-svc listens on
//! :8082", however alike the sentences are).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

/// English words too common to say what a memory is about.
#[rustfmt::skip] // a long list of short words, kept compact
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "always", "am", "an", "and", "any", "are",
    "as", "at", "be", "because", "been", "before", "being", "both", "but", "by", "can", "could",
    "did", "do", "does", "doing", "don't", "dont", "each", "either", "else", "even", "every",
    "for", "from", "get", "gets", "go", "goes", "got", "had", "has", "have", "he", "her", "here",
    "him", "his", "how", "i", "if", "in", "into", "is", "isn't", "it", "it's", "its", "just",
    "let", "lets", "like", "me", "more", "most", "much", "must", "my", "need", "needs", "never",
    "no", "not", "now", "of", "off", "on", "once", "one", "only", "or", "other", "our", "out",
    "over", "own", "per", "please", "put", "same", "she", "should", "so", "some", "still",
    "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this",
    "those", "through", "to", "too", "under", "until", "up", "us", "use", "used", "uses",
    "using", "very", "via", "was", "we", "were", "what", "when", "where", "which", "while",
    "who", "whom", "why", "will", "with", "without", "would", "you", "your", "yours", "e.g",
    "eg", "i.e", "ie", "etc", "vs", "why:", "how", "apply", "**why:**", "**how",
];

/// Whether `c` is written without spaces between words (Chinese, Japanese, Korean).
pub(super) fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{ac00}'..='\u{d7af}'
        | '\u{f900}'..='\u{faff}'
    )
}

/// One token of a statement, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Token {
    /// Lower-cased, trimmed of punctuation around it (`ledger-svc`, `8081`, `pagerduty`, `用`).
    pub(super) text: String,
    /// An identifier, number, name, path or host (see [`is_value`]).
    pub(super) value: bool,
    /// A Chinese (Japanese, Korean) character.
    pub(super) cjk: bool,
    /// What kind of value it is, as written.
    pub(super) shape: Shape,
}

/// The kind of a value, as written: two values replace each other only when of one kind
/// (`8` and `4`, `ledger-svc` and `payouts-svc`, `SGD` and `HKD`; not `Duarte` and `EM`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Shape {
    /// Digits, with `.`, `:` or `,` between them (`8081`, `10.20.4.31`, `2026-01-05`).
    Number,
    /// Letters with digits or joined by `-`, `_`, `.`, `/` (`ledger-svc`, `ps5`, `a/b.go`).
    Identifier,
    /// In capitals (`SGD`, `EM`).
    Acronym,
    /// Capitalised or in camel case (`Opsgenie`, `PagerDuty`, `Duarte`).
    Name,
    /// Anything else (a plain word, in a code span or not).
    Word,
}

fn shape_of(written: &str) -> Shape {
    let letters = written.chars().filter(|c| c.is_alphabetic()).count();
    let digits = written.chars().filter(|c| c.is_ascii_digit()).count();
    if digits > 0 && letters == 0 {
        return Shape::Number;
    }
    if digits > 0 || written.contains(['-', '_', '.', '/', ':', '\\', '#', '@']) {
        return Shape::Identifier;
    }
    if letters >= 2
        && written
            .chars()
            .all(|c| !c.is_alphabetic() || c.is_uppercase())
    {
        return Shape::Acronym;
    }
    if written.chars().next().is_some_and(char::is_uppercase)
        || written.chars().skip(1).any(char::is_uppercase)
    {
        return Shape::Name;
    }
    Shape::Word
}

/// A statement as compared: its tokens, content words (stemmed), character pairs, values.
#[derive(Debug, Clone, Default)]
pub(super) struct Statement {
    pub(super) tokens: Vec<Token>,
    pub(super) words: BTreeSet<String>,
    pub(super) pairs: BTreeSet<String>,
    pub(super) values: BTreeSet<String>,
}

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Characters that hold an identifier together (`ledger-svc`, `pkg/money/x.go`,
/// `api.stg.io:443`, `#ops`, `@maja`, `m_test_0042`, `C++`).
fn joins(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
        || matches!(
            c,
            '-' | '_'
                | '.'
                | '/'
                | ':'
                | '#'
                | '@'
                | '+'
                | '\\'
                | '*'
                | '<'
                | '>'
                | '='
                | '~'
                | '%'
                | '$'
                | '\''
                | '’'
        )
}

/// A raw piece of text as a token: punctuation around it dropped; `None` when nothing is left.
fn clean(raw: &str) -> Option<String> {
    let trimmed = raw.trim_matches(|c: char| {
        matches!(
            c,
            '.' | ':'
                | ','
                | ';'
                | '!'
                | '?'
                | '\''
                | '’'
                | '"'
                | '('
                | ')'
                | '['
                | ']'
                | '*'
                | '<'
                | '>'
                | '='
                | '~'
                | '-'
                | '`'
        )
    });
    let trimmed = trimmed
        .strip_suffix("'s")
        .or_else(|| trimmed.strip_suffix("’s"))
        .unwrap_or(trimmed);
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// Whether a token, as written, names a particular thing: it holds a digit, joins words with
/// `-`, `_`, `.`, `/`, `:`, `#` or `@`, or is capitalised inside a sentence (a name: `Opsgenie`,
/// `Ines`), in capitals (`GORM`, `SGD`) or in camel case (`PagerDuty`, `UHMSaveGame`).
fn is_value(written: &str, sentence_start: bool) -> bool {
    let letters = written.chars().filter(|c| c.is_alphabetic()).count();
    if written.chars().any(|c| c.is_ascii_digit()) {
        return true;
    }
    let mut inside = written.chars();
    inside.next();
    inside.next_back();
    if inside.as_str().contains(['-', '_', '.', '/', ':', '\\']) && letters >= 2 {
        return true;
    }
    if written.starts_with(['#', '@', '/']) && letters >= 2 {
        return true;
    }
    let mut chars = written.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let rest: Vec<char> = chars.collect();
    let capitals = rest.iter().filter(|c| c.is_uppercase()).count();
    if first.is_uppercase() && letters >= 2 {
        // `PagerDuty`, `GORM`, `ArgoCD`: a name wherever it stands.
        if capitals >= 1 {
            return true;
        }
        return !sentence_start;
    }
    // `gRPC`, `iOS`, `pgxpool` is a plain word.
    capitals >= 1 && letters >= 3
}

impl Statement {
    pub(super) fn of(text: &str) -> Statement {
        let mut statement = Statement::default();
        let mut sentence_start = true;
        let mut piece = String::new();
        let flush = |piece: &mut String,
                     statement: &mut Statement,
                     sentence_start: &mut bool,
                     in_code: bool| {
            if piece.is_empty() {
                return;
            }
            let written = std::mem::take(piece);
            let ends_sentence = written.ends_with(['.', '!', '?', ':']);
            let Some(text) = clean(&written) else {
                *sentence_start |= ends_sentence;
                return;
            };
            {
                let shown = written
                    .trim_matches(|c: char| !c.is_alphanumeric() && !matches!(c, '#' | '@' | '/'));
                let value = is_value(shown, *sentence_start)
                    || in_code && shown.chars().filter(|c| c.is_alphanumeric()).count() >= 2;
                let lower = text.to_lowercase();
                if value {
                    statement.values.insert(lower.clone());
                    statement.words.insert(lower.clone());
                } else if lower.chars().any(char::is_alphanumeric)
                    && !STOP_WORDS.contains(&lower.as_str())
                {
                    statement.words.insert(stem(&lower));
                }
                statement.tokens.push(Token {
                    text: lower,
                    value,
                    cjk: false,
                    shape: shape_of(shown),
                });
                *sentence_start = ends_sentence;
            }
        };
        let mut last_cjk: Option<char> = None;
        // Inside a code span every token is a value (`kestrel`, `make lint`).
        let mut in_code = false;
        for c in text.chars() {
            if c == '`' {
                flush(&mut piece, &mut statement, &mut sentence_start, in_code);
                in_code = !in_code;
                last_cjk = None;
                continue;
            }
            if is_cjk(c) {
                flush(&mut piece, &mut statement, &mut sentence_start, in_code);
                if let Some(prev) = last_cjk {
                    statement.pairs.insert(format!("{prev}{c}"));
                }
                last_cjk = Some(c);
                statement.tokens.push(Token {
                    text: c.to_string(),
                    value: false,
                    cjk: true,
                    shape: Shape::Word,
                });
                sentence_start = false;
                continue;
            }
            last_cjk = None;
            if joins(c) {
                piece.push(c);
            } else {
                flush(&mut piece, &mut statement, &mut sentence_start, in_code);
                if matches!(c, '\n' | '。' | '！' | '？' | '—' | '.' | '!' | '?' | ':') {
                    sentence_start = true;
                }
            }
        }
        flush(&mut piece, &mut statement, &mut sentence_start, in_code);
        statement
    }

    /// How much of the statement is Chinese (Japanese, Korean): its share of tokens.
    pub(super) fn cjk_share(&self) -> f64 {
        if self.tokens.is_empty() {
            return 0.0;
        }
        self.tokens.iter().filter(|t| t.cjk).count() as f64 / self.tokens.len() as f64
    }
}

/// A lower-case English word's stem (`deploying` and `deploys` are `deploy`).
pub(super) fn stem(word: &str) -> String {
    if word.chars().any(|c| !c.is_ascii_alphabetic()) {
        return word.to_string();
    }
    STEMMER.stem(word).into_owned()
}

/// Whether two values name the same thing as written in different places: equal, the same
/// but for a plural or a unit (`uobjects`, `40fps`), or one holding the other as a part
/// (`ledger-overview` in `grafana.x/d/ledger-overview`, `testcontainers` in
/// `testcontainers-go`; but `pg-prod-7` is not `pg-prod-7-ro`).
pub(super) fn same_value(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if let Some(rest) = long.strip_prefix(short) {
        // `uobject` and `uobjects`; `40` and `40fps`, `40 fps`.
        let unit = rest.len() <= 3 && rest.chars().all(|c| c.is_ascii_alphabetic());
        let numeric = short.chars().all(|c| c.is_ascii_digit() || c == '.');
        if rest == "s" || rest == "es" || numeric && unit {
            return true;
        }
    }
    if short.len() < 3 {
        return false;
    }
    // The last part of a path (`main` of `//game/main`) is its name.
    if long.rsplit(['/', '\\']).next() == Some(short) {
        return true;
    }
    // A short word (`api`, `ci`) is a part of too many names to say they are the same.
    if short.len() < 5 || short.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return false;
    }
    let part_of = |separators: &[char]| long.split(separators).any(|part| part == short);
    part_of(&['.', '/', ':', '@', '#', '\\', '`', '(', ')'])
        || !short.contains('-') && part_of(&['.', '/', ':', '@', '#', '-', '_'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<String> {
        Statement::of(text).values.into_iter().collect()
    }

    #[test]
    fn values_are_what_tells_one_fact_from_another() {
        assert_eq!(
            values(
                "In the local docker-compose stack, ledger-svc listens on :8081 (metrics on :9081)."
            ),
            ["8081", "9081", "docker-compose", "ledger-svc"]
        );
        assert_eq!(
            values("Ledger on-call alerts page through Opsgenie (team `ledger-oncall`)."),
            ["ledger-oncall", "on-call", "opsgenie"]
        );
        assert_eq!(
            values("Jay's manager is Ines Duarte, engineering manager."),
            ["duarte", "ines"]
        );
        assert_eq!(
            values("ledger-svc 的 pgxpool 上限调到 80 了"),
            ["80", "ledger-svc"]
        );
    }

    proptest::proptest! {
        /// Any text a memory can hold is read without a panic.
        #[test]
        fn any_text_is_read(text in "\\PC{0,200}") {
            let statement = Statement::of(&text);
            proptest::prop_assert!(statement.tokens.len() <= text.chars().count());
        }
    }

    #[test]
    fn chinese_is_compared_by_character_pairs() {
        let s = Statement::of("集成测试不要用 sqlmock");
        assert!(s.pairs.contains("集成") && s.pairs.contains("测试"));
        assert!(s.words.contains("sqlmock"));
        assert!(s.cjk_share() > 0.8);
    }

    #[test]
    fn a_value_is_the_same_when_written_inside_a_longer_one() {
        assert!(same_value(
            "ledger-overview",
            "grafana.kestrel.internal/d/ledger-overview"
        ));
        assert!(same_value("testcontainers", "testcontainers-go"));
        assert!(!same_value("8081", "18081"));
        assert!(!same_value("ledger-svc", "payouts-svc"));
        assert!(!same_value("pg-prod-ledger-7", "pg-prod-ledger-7-ro"));
        assert!(same_value("40", "40fps") && same_value("uobjects", "uobject"));
    }
}
