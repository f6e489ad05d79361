//! Duplicates merged into one memory keeping every distinct detail (DESIGN §7), and the check
//! every merge passes, the builtin's and a model's alike: the merged text holds each merged
//! memory's content words, identifiers and Chinese character pairs.
//!
//! The first memory saved of the group is the base (the name others know it by); each sentence
//! of the others that no sentence of the merged text already says in full is added after it,
//! in the order they were saved.

use super::text::Statement;

/// The sentences of a text: split after `.`, `!`, `?` followed by a space, after `。！？；`,
/// and at line ends; each trimmed, empty ones left out.
pub(super) fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            out.push(std::mem::take(&mut current));
            continue;
        }
        current.push(c);
        let ends = matches!(c, '。' | '！' | '？' | '；')
            || matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace());
        if ends {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// What of `part` the text `merged` does not say: its words, values and character pairs that
/// `merged` lacks.
pub(super) fn missing(part: &Statement, merged: &Statement) -> Vec<String> {
    let mut out: Vec<String> = part
        .words
        .iter()
        .filter(|w| !merged.words.contains(*w))
        .cloned()
        .collect();
    out.extend(
        part.pairs
            .iter()
            .filter(|p| !merged.pairs.contains(*p))
            .cloned(),
    );
    out
}

/// The merged description and body: `base`'s, then every sentence of `others` (descriptions
/// first, then bodies) that adds something.
pub(super) fn merge_texts(base: (&str, &str), others: &[(&str, &str)]) -> (String, String) {
    let (description, body) = base;
    let mut merged_body = body.trim_end().to_string();
    // A sentence says nothing new when one sentence already there says all of it: the words
    // of several together may still miss how it puts them ("`b` prefix for bools").
    let mut said: Vec<Statement> = sentences(description)
        .iter()
        .chain(&sentences(&merged_body))
        .map(|s| Statement::of(s))
        .collect();
    let mut added = Vec::new();
    for (other_description, other_body) in others {
        let parts = sentences(other_description)
            .into_iter()
            .chain(sentences(other_body));
        for sentence in parts {
            let statement = Statement::of(&sentence);
            if said.iter().any(|s| missing(&statement, s).is_empty()) {
                continue;
            }
            said.push(statement);
            added.push(sentence);
        }
    }
    if !added.is_empty() {
        merged_body.push_str("\n\n");
        merged_body.push_str(&added.join("\n"));
    }
    merged_body.push('\n');
    (description.to_string(), merged_body)
}

/// The content a merge left out of `merged`: for each memory merged into it, what it said that
/// the merged text does not (empty when the merge kept everything).
pub(super) fn lost_words(parts: &[(&str, &str)], merged: (&str, &str)) -> Vec<String> {
    let merged = Statement::of(&format!("{}\n{}", merged.0, merged.1));
    let mut out = Vec::new();
    for (description, body) in parts {
        for word in missing(&Statement::of(&format!("{description}\n{body}")), &merged) {
            if !out.contains(&word) {
                out.push(word);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_keeps_every_detail_and_adds_no_repeat() {
        let (description, body) = merge_texts(
            (
                "run make fmt + make lint before commits",
                "before any commit: `make fmt` (gofumpt) then `make lint`.",
            ),
            &[(
                "Always run make lint before committing",
                "Always run `make lint` before committing. golangci-lint in CI is strict (errcheck, govet shadow).",
            )],
        );
        assert_eq!(description, "run make fmt + make lint before commits");
        assert!(
            body.contains("gofumpt") && body.contains("errcheck, govet"),
            "{body}"
        );
        assert_eq!(body.matches("make fmt").count(), 1, "{body}");
        assert_eq!(
            lost_words(
                &[(
                    "Always run make lint before committing",
                    "golangci-lint is strict (errcheck)."
                )],
                (&description, &body)
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            lost_words(
                &[("x", "a detail: `pkg/money/iso4217.go`")],
                ("x", "nothing")
            ),
            ["detail", "pkg/money/iso4217.go"]
        );
    }

    #[test]
    fn chinese_sentences_are_kept_whole() {
        let (_, body) = merge_texts(
            (
                "Integration tests use testcontainers",
                "Use a real Postgres via testcontainers-go.",
            ),
            &[(
                "集成测试不要用 sqlmock",
                "集成测试不要用 sqlmock。之前 mock 的测试全过了。",
            )],
        );
        assert!(body.contains("集成测试不要用 sqlmock"), "{body}");
        assert!(body.contains("之前 mock 的测试全过了。"), "{body}");
    }
}
