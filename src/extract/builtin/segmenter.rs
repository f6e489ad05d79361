//! The builtin extractor's segmenter (DESIGN §6): a prompt as the sentences the person wrote
//! themselves — IDE context, fenced code, quotes and pasted logs dropped, chat spelling made
//! standard ("dont" → "don't"), split at sentence ends but never inside a URL, a code span or an
//! abbreviation — plus a proposal of the assistant's that the person confirmed.

use super::cues::{
    AFFIRMATIVE, CLAUSE_START, DISCOURSE, IDE_CONTEXT, MAJOR_SEPARATOR, PROPOSAL, REMEMBER_THESE,
    THINGS_TO_REMEMBER, WORD,
};
use crate::extract::transcript::Turn;
use crate::memory::statement::{FEEDBACK, FEEDBACK_ANYWHERE};

/// A sentence of a prompt.
pub(super) struct Sentence {
    pub(super) text: String,
    /// The person asked for it to be remembered ("… Remember both.").
    pub(super) asked: bool,
    /// Its line in the prompt: a statement's reasons are on its own line, a list's next item
    /// is not one.
    pub(super) line: usize,
}

/// What the segmenter made of a prompt.
pub(super) struct Statements {
    pub(super) sentences: Vec<Sentence>,
    /// A line of the prompt held a secret (and is gone from the sentences).
    pub(super) holds_secret: bool,
}

/// The sentences of a prompt that could be statements, plus a confirmed proposal; each with
/// whether the person asked for it to be remembered ("… Remember both.").
pub(super) fn statements_of(turn: &Turn) -> Statements {
    // The person's own words are scanned before any rewriting: a line holding a secret is gone
    // before `u` can become `you` inside `curl -u user:pass`.
    let prompt = crate::secrets::blank_secret_lines(&turn.prompt);
    let holds_secret = matches!(prompt, std::borrow::Cow::Owned(_));
    let text = normalize(&strip_quoted(&IDE_CONTEXT.replace_all(&prompt, "")));
    let mut out = Vec::new();
    let mut sentences: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .flat_map(|(line, text)| split_sentences(text).into_iter().map(move |s| (line, s)))
        .map(|(line, s)| match DISCOURSE.find(&s) {
            Some(m) if m.end() < s.len() => (line, s[m.end()..].to_string()),
            _ => (line, s),
        })
        .collect();
    if let Some((_, first)) = sentences.first()
        && AFFIRMATIVE.is_match(first)
        && first.chars().count() <= 80
        && let Some(proposal) = confirmed_proposal(&turn.previous_reply)
    {
        out.push(Sentence {
            text: proposal,
            asked: true,
            line: usize::MAX,
        });
    }
    let before = sentences.len();
    sentences.retain(|(_, s)| !REMEMBER_THESE.is_match(s));
    // "Remember these" after pasted code or a secret is about those, never saved.
    let pasted = turn.prompt.contains("```") || holds_secret;
    let mut all_explicit = sentences.len() < before && !pasted;
    for (_, sentence) in &mut sentences {
        if let Some(m) = THINGS_TO_REMEMBER.find(sentence)
            && m.end() < sentence.len()
        {
            *sentence = sentence[m.end()..].to_string();
            all_explicit = true;
        }
    }
    out.extend(sentences.into_iter().map(|(line, text)| Sentence {
        text,
        asked: all_explicit,
        line,
    }));
    Statements {
        sentences: out,
        holds_secret,
    }
}

/// What the assistant's closing question proposed, as a statement ("Should I always use tabs?"
/// → "Always use tabs"); only proposals about how to work, not one-off task steps.
fn confirmed_proposal(reply: &str) -> Option<String> {
    let last = split_sentences(reply)
        .into_iter()
        .rev()
        .find(|s| s.ends_with('?') || s.ends_with('？'))?;
    let captures = PROPOSAL.captures(&last)?;
    let rest = captures
        .name("rest")
        .or(captures.name("zh"))?
        .as_str()
        .trim();
    if !FEEDBACK.is_match(rest) && !FEEDBACK_ANYWHERE.is_match(rest) {
        return None;
    }
    let mut chars = rest.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

/// Chat spelling made standard, so that one pattern reads "dont", "don't" and "do not" alike.
fn normalize(text: &str) -> String {
    const SPELLINGS: &[(&str, &str)] = &[
        ("im", "I'm"),
        ("ive", "I've"),
        ("dont", "don't"),
        ("doesnt", "doesn't"),
        ("didnt", "didn't"),
        ("cant", "can't"),
        ("wont", "won't"),
        ("isnt", "isn't"),
        ("arent", "aren't"),
        ("wasnt", "wasn't"),
        ("shouldnt", "shouldn't"),
        ("thats", "that's"),
        ("theres", "there's"),
        ("theyre", "they're"),
        ("theyve", "they've"),
        ("theyll", "they'll"),
        ("youre", "you're"),
        ("youll", "you'll"),
        ("youd", "you'd"),
        ("u", "you"),
        ("ur", "your"),
        ("pls", "please"),
        ("plz", "please"),
        ("thx", "thanks"),
        ("tho", "though"),
        ("cuz", "because"),
        ("bc", "because"),
    ];
    WORD.replace_all(text, |c: &regex::Captures<'_>| {
        let word = &c[0];
        SPELLINGS
            .iter()
            .find(|(from, _)| word.eq_ignore_ascii_case(from))
            .map_or_else(|| word.to_string(), |(_, to)| (*to).to_string())
    })
    .into_owned()
}

/// Drop fenced code, block quotes and pasted logs: they are not the person's own statements.
fn strip_quoted(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced
            || trimmed.starts_with('>')
            || trimmed.starts_with("    ")
            || line.starts_with('\t')
        {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Split at sentence ends (keeping `?` so questions can be told apart), never inside a URL, a
/// code span, a number or an abbreviation like "e.g.".
fn split_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_code = false;
    let chars: Vec<char> = text.chars().collect();
    // A long aside in parentheses is a sentence of its own ("(for context, I came from a
    // bootcamp)"); a short one stays where it is.
    let mut aside_end = None;
    for (i, &c) in chars.iter().enumerate() {
        if c == '`' {
            in_code = !in_code;
        }
        let next = chars.get(i + 1).copied();
        let boundary = !in_code
            && match c {
                '\n' | '。' | '！' | '？' | '；' => true,
                '(' | '（' => {
                    aside_end = chars[i..]
                        .iter()
                        .position(|&p| p == ')' || p == '）')
                        .filter(|&len| {
                            len >= 25
                                && !chars[i..i + len].iter().collect::<String>().contains("://")
                        })
                        .map(|len| i + len);
                    aside_end.is_some()
                }
                ')' | '）' => aside_end == Some(i),
                '\u{1F300}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' => true,
                // `!!` in "don't use !!" is code, not an exclamation.
                '!' | '?' | ';' => {
                    let run_start = chars[..i]
                        .iter()
                        .rposition(|&p| p != c)
                        .map_or(0, |p| p + 1);
                    next.is_none_or(char::is_whitespace)
                        && run_start > 0
                        && chars[run_start - 1].is_alphanumeric()
                }
                '.' => {
                    let after = chars[i + 1..].iter().copied().find(|c| !c.is_whitespace());
                    next.is_none_or(char::is_whitespace) && !ends_with_abbreviation(&current, after)
                }
                _ => false,
            };
        if boundary {
            if matches!(c, '?' | '？' | '!' | '！') {
                current.push(c);
            }
            push_sentence(&mut out, &mut current);
        } else {
            current.push(c);
        }
    }
    push_sentence(&mut out, &mut current);
    out
}

/// Abbreviations after which a full stop never ends a sentence (lower-cased, without their
/// last dot): "e.g.", "St. Louis", "Dr. Okafor", "approx. 40".
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "cf", "approx", "st", "dr", "mr", "mrs", "ms", "prof", "fig", "dept",
];

/// Abbreviations that may also end a sentence: the full stop ends one only when a capital
/// follows ("… Acme Inc. We ship" but "Acme Inc. ships", "5 min. later").
const SOMETIMES_FINAL: &[&str] = &[
    "etc", "al", "inc", "ltd", "co", "corp", "jr", "sr", "max", "min", "est", "a.m", "p.m", "u.s",
    "u.k", "e.u", "ca", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
    "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
];

/// Whether `text` ends with an abbreviation, so that the full stop after it ends no sentence, given the character the next word starts with. "No." is an
/// abbreviation only before a number ("No. 5"; "hmm, no. I'm …" ends a sentence).
fn ends_with_abbreviation(text: &str, after: Option<char>) -> bool {
    let word = text
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == '"')
        .next()
        .unwrap_or("");
    let lower = word.to_lowercase();
    let capital_follows = after.is_some_and(char::is_uppercase);
    ABBREVIATIONS.contains(&lower.as_str())
        || SOMETIMES_FINAL.contains(&lower.as_str()) && !capital_follows
        || lower == "no" && after.is_some_and(|c| c.is_ascii_digit())
}

/// A line's markdown that is not the person's words: a heading's `#`s, a list marker (`-`,
/// `*`, `•`, `3)`, `2.`) and bold or underline markers (`**`, `__`).
fn without_markdown(sentence: &str) -> String {
    let s = sentence.trim().trim_start_matches('#').trim_start();
    let s = s.trim_start_matches(['-', '*', '•', '+']).trim_start();
    let digits = s.chars().take_while(char::is_ascii_digit).count();
    let s = match s[digits..].strip_prefix([')', '.']) {
        Some(rest) if (1..=2).contains(&digits) && rest.starts_with(' ') => rest.trim_start(),
        _ => s,
    };
    s.replace("**", "").replace("__", "").trim().to_string()
}

fn push_sentence(out: &mut Vec<String>, current: &mut String) {
    let s = without_markdown(current);
    if s.chars().count() >= 4 {
        out.push(s);
    }
    current.clear();
}

/// The rest of a sentence from each clause on, up to the next dash or semicolon ("a, b — c"
/// → "b", "c"): an aside between dashes is read on its own, without the question after it.
pub(super) fn clause_tails(sentence: &str) -> impl Iterator<Item = &str> {
    CLAUSE_START
        .find_iter(sentence)
        .map(move |m| {
            let rest = &sentence[m.end()..];
            MAJOR_SEPARATOR
                .find(rest)
                .map_or(rest, |end| &rest[..end.start()])
        })
        .filter(|tail| tail.chars().count() >= 8)
}

pub(super) fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_survive_abbreviations_and_lose_their_markdown() {
        assert_eq!(
            split_sentences("We ship from St. Louis, e.g. the v2.1 build. Dr. Okafor owns it."),
            [
                "We ship from St. Louis, e.g. the v2.1 build",
                "Dr. Okafor owns it"
            ]
        );
        assert_eq!(
            split_sentences("hmm, no. I own the docs. See form No. 5 first."),
            ["hmm, no", "I own the docs", "See form No. 5 first"]
        );
        assert_eq!(
            split_sentences("It takes approx. 40 min. per run. Acme Inc. We ship later."),
            [
                "It takes approx. 40 min. per run",
                "Acme Inc",
                "We ship later"
            ]
        );
        assert_eq!(
            split_sentences("## Rules\n1. **Never** log PHI.\n- __Always__ hash the MRN"),
            ["Rules", "Never log PHI", "Always hash the MRN"]
        );
    }
}
