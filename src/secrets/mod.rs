//! The secret scanner (DESIGN §8 and §10): memory is plain text in git, so credentials never go
//! in. Memory saves, extraction, review, promotion and the team guard all ask it.
//!
//! Two kinds of evidence. Known token shapes: private key blocks, cloud credentials (AWS, Google
//! Cloud, Azure), API tokens whose prefix names the service (GitHub, GitLab, Slack, Stripe,
//! Anthropic, OpenAI, Hugging Face, npm, PyPI, Twilio, SendGrid, Mailgun, Discord, Telegram and a
//! dozen more), JWTs, and passwords in URLs. And assignments: `DB_PASSWORD=…`,
//! `"client_secret": "…"`, `密码是 …` hold a secret whatever the value looks like (unless it is a
//! placeholder or a reference to where the secret lives), while `api_key = …`, `token: …` only
//! when the value looks random (at least 16 characters, letters and digits, Shannon entropy of
//! 3.5 bits a character, 3.0 for hex). A Chinese credential word assigns with a space too
//! (`密码 Emqx#Dev2026`), and a random value after a colon in a sentence about a credential is
//! one (`here's my key for the .env: 3f9c…`, 20 characters at least, no identifier).
//!
//! Not secrets, by decision: placeholders (`<your-token>`, `${TOKEN}`, `$TOKEN`, `xxxxx`, `****`,
//! `REDACTED`, `changeme`, `your_…`, `…_here`, `dummy`, `fake_…`, `sample`, `test-only`), defaults
//! (a URL whose password is its user name: `postgres://postgres:postgres@…`), documented examples
//! (any value containing `EXAMPLE`, as AWS's `AKIAIOSFODNN7EXAMPLE`; the jwt.io and Stripe
//! documentation keys), references (`os.environ["X"]`, `process.env.X`, `DB_PASSWORD`,
//! `arn:aws:…`, paths, URLs), public material (public keys, certificates, Stripe publishable
//! keys, a Twilio account SID on its own), and hashes and ids outside a credential assignment
//! (git SHAs, SHA-256 digests, UUIDs, `sha512-…` integrity, `sha256:…` digests). A hex string or
//! UUID assigned to a credential name (`HEROKU_API_KEY=…`) is a secret.
//!
//! A plain word after "the password is" or in a sentence after "password:" is prose; after `=` it
//! is a password (`SMTP_PASS=sunflower`). Text may be a JSON-escaped transcript line: `\"…\"`
//! quotes a value and `\n` ends one.
//!
//! Found secrets are named by kind; [`scan`] shows them masked, never in full. One pass over the
//! text finds what each pattern needs (its literal needles, a long enough run of token
//! characters); only the patterns whose needs are met compile (once, on first use) and run, each
//! once over the text. Entropy is computed for assignment values only.
//!
//! - [`kinds`]: the token shapes, most specific first;
//! - [`values`]: credential assignments and what their values look like;
//! - [`prefilter`]: what a text holds of what the patterns need.

use std::ops::{ControlFlow, Range};
use std::sync::LazyLock;

use kinds::PATTERNS;
use prefilter::{Automaton, Present};
use values::{
    ASSIGNMENT, ASSIGNMENT_NEEDS, Assigned, MAX_PAIR_GAP, MAX_TOLD_GAP, PAIR, PAIR_NEEDS, TOLD,
    TOLD_NEEDS, Tier, assigned_value, classify_key, is_password_value, is_reference, looks_random,
    word_before,
};

mod kinds;
mod prefilter;
mod values;

/// The automaton of every needle the scanner's patterns have, built on first use.
static NEEDLES: LazyLock<Automaton> = LazyLock::new(|| {
    Automaton::new(PATTERNS.iter().map(|p| p.needs).chain([
        ASSIGNMENT_NEEDS,
        TOLD_NEEDS,
        PAIR_NEEDS,
    ]))
});

/// One secret in a text: what it is, where, and its line with the secret masked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What the secret is, in words ("a GitHub token"); the same labels [`find`] returns.
    pub kind: &'static str,
    /// 1-based line of the text the secret is on (for a key block, its `BEGIN` line).
    pub line: usize,
    /// That line, trimmed, every secret on it masked (`ghp_****`), at most about 80 characters.
    pub excerpt: String,
}

/// What kind of secret `text` holds, if any: the first kind (in the scanner's order, most
/// specific first) of which `text` holds a secret.
pub fn find(text: &str) -> Option<&'static str> {
    let mut kind = None;
    each_hit(text, &Present::of(text, &NEEDLES), |hit| {
        kind = Some(hit.kind);
        ControlFlow::Break(())
    });
    kind
}

/// Every secret in `text`, in text order: one finding per line and kind.
pub fn scan(text: &str) -> Vec<Finding> {
    findings(text, &Present::of(text, &NEEDLES))
}

/// [`scan`], with the patterns `present` admits.
fn findings(text: &str, present: &Present) -> Vec<Finding> {
    let mut hits: Vec<Hit> = Vec::new();
    each_hit(text, present, |hit| {
        // A token inside an assignment or a URL is one secret: the most specific kind names it.
        if !hits.iter().any(|h| overlaps(&h.span(), &hit.span())) {
            hits.push(hit);
        }
        ControlFlow::Continue(())
    });
    hits.sort_by_key(|h| h.span().start);

    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| line_starts.partition_point(|&start| start <= offset);
    let mut findings: Vec<Finding> = Vec::new();
    for hit in &hits {
        let line = line_of(hit.span().start);
        if findings
            .iter()
            .any(|f| f.line == line && f.kind == hit.kind)
        {
            continue;
        }
        let start = line_starts[line - 1];
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        findings.push(Finding {
            kind: hit.kind,
            line,
            excerpt: excerpt(text, start..end, &hits, hit),
        });
    }
    findings
}

/// A secret found: the text the pattern matched and, inside it, the secret value itself.
struct Hit {
    kind: &'static str,
    matched: Range<usize>,
    value: Range<usize>,
}

impl Hit {
    /// Where the secret is: its value, or for a bare key header, the header.
    fn span(&self) -> Range<usize> {
        if self.value.is_empty() {
            self.matched.clone()
        } else {
            self.value.clone()
        }
    }
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// `line` (a byte range of `text`) with every secret on it masked, trimmed and cut to about 80
/// characters around `focus`.
fn excerpt(text: &str, line: Range<usize>, hits: &[Hit], focus: &Hit) -> String {
    const WIDTH: usize = 80;
    let mut masked = String::new();
    let mut focus_at = 0;
    let mut at = line.start;
    for hit in hits {
        let value = hit.value.start.max(line.start)..hit.value.end.min(line.end);
        if value.is_empty() || value.start < at {
            continue;
        }
        masked.push_str(&text[at..value.start]);
        if std::ptr::eq(hit, focus) {
            focus_at = masked.chars().count();
        }
        masked.push_str(&mask(&text[value.clone()]));
        at = value.end;
    }
    masked.push_str(&text[at..line.end]);
    let masked = masked.trim_end_matches('\r');
    let trimmed = masked.trim_start();
    focus_at = focus_at.saturating_sub(masked.chars().count() - trimmed.chars().count());
    let chars: Vec<char> = trimmed.trim_end().chars().collect();
    if chars.len() <= WIDTH {
        return chars.into_iter().collect();
    }
    let from = focus_at.saturating_sub(WIDTH / 3).min(chars.len() - WIDTH);
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    out.extend(&chars[from..from + WIDTH]);
    if from + WIDTH < chars.len() {
        out.push('…');
    }
    out
}

/// The first few characters of a secret (at most a quarter of it, so the rest stays unknown),
/// then `****`.
fn mask(value: &str) -> String {
    let keep = (value.chars().count() / 4).min(4);
    value.chars().take(keep).chain("****".chars()).collect()
}

/// `text` with every line that holds a secret blank (a private key's whole block, `BEGIN` to
/// `END`), the other lines and the line count as they were: what is left may be rewritten
/// (spelling, clauses) without a secret slipping past the scanner in a changed form.
pub fn blank_secret_lines(text: &str) -> std::borrow::Cow<'_, str> {
    let findings = scan(text);
    if findings.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut blank = vec![false; lines.len()];
    for finding in &findings {
        let first = finding.line.saturating_sub(1);
        let mut last = first;
        if lines.get(first).is_some_and(|l| l.contains("-----BEGIN")) {
            last = (first..lines.len())
                .find(|&n| lines[n].contains("-----END"))
                .unwrap_or(lines.len() - 1);
        }
        for flag in blank.iter_mut().take(last + 1).skip(first) {
            *flag = true;
        }
    }
    let kept: Vec<&str> = lines
        .iter()
        .zip(&blank)
        .map(|(line, blank)| if *blank { "" } else { *line })
        .collect();
    std::borrow::Cow::Owned(kept.join("\n"))
}

/// Calls `visit` with each secret found, pattern by pattern in the table's order, until it
/// breaks; a pattern runs only if `present` admits it. The table is ordered most specific first;
/// [`scan`] relies on that to name a token in an assignment by the token's kind.
fn each_hit(text: &str, present: &Present, mut visit: impl FnMut(Hit) -> ControlFlow<()>) {
    let admits = |needs| present.admits(&needs, &NEEDLES);
    for pattern in PATTERNS.iter().filter(|p| admits(p.needs)) {
        for caps in pattern.regex().captures_iter(text) {
            let Some(matched) = caps.get(0) else { continue };
            let value = caps.name("v").unwrap_or(matched);
            // `postgres://postgres:postgres@localhost`: a default, the same for everyone.
            let default = caps.name("u").is_some_and(|u| u.as_str() == value.as_str());
            if !default && (pattern.accept)(value.as_str()) {
                let hit = Hit {
                    kind: pattern.kind,
                    matched: matched.range(),
                    value: value.range(),
                };
                if visit(hit).is_break() {
                    return;
                }
            }
        }
    }
    // Past the end of a value already read (a secret or a reference), where `:secret:` inside
    // `arn:aws:secretsmanager:…:secret:name` is no new assignment.
    let mut read_to = 0;
    let assignments = admits(ASSIGNMENT_NEEDS).then(|| ASSIGNMENT.captures_iter(text));
    for caps in assignments.into_iter().flatten() {
        let (Some(matched), Some(key), Some(op)) = (caps.get(0), caps.name("key"), caps.name("op"))
        else {
            continue;
        };
        if matched.start() < read_to || op.as_str().trim().is_empty() && key.as_str().is_ascii() {
            continue;
        }
        let Some(tier) = classify_key(key.as_str(), word_before(text, key.start())) else {
            continue;
        };
        let Some(Assigned {
            range: value,
            quoted,
        }) = assigned_value(text, matched.end())
        else {
            continue;
        };
        let v = &text[value.clone()];
        // "the password is …", "holds a password: clean-up wins over …" are sentences.
        let prose = op.as_str().chars().any(char::is_alphabetic)
            || op.as_str().trim_end().ends_with([':', '：'])
                && !quoted
                && text[value.end..].starts_with([' ', ',', ';'])
                && text[value.end..]
                    .trim_start_matches([' ', ',', ';'])
                    .starts_with(|c: char| c.is_alphabetic());
        let (kind, secret) = match tier {
            Tier::Password => ("a password or secret", is_password_value(v, prose, quoted)),
            Tier::Token => ("a high-entropy token or key", looks_random(v)),
        };
        if secret || is_reference(v) {
            read_to = value.end;
        }
        if secret
            && visit(Hit {
                kind,
                matched: matched.start()..value.end,
                value,
            })
            .is_break()
        {
            return;
        }
    }
    let pairs = (admits(PAIR_NEEDS) && text.contains('/')).then(|| near(&PAIR, text, MAX_PAIR_GAP));
    for caps in pairs.into_iter().flatten() {
        let (Some(matched), Some(user), Some(value)) =
            (caps.get(0), caps.name("user"), caps.name("v"))
        else {
            continue;
        };
        if user.len() > 64 {
            continue;
        }
        let password = value.as_str().trim_end_matches([',', ';', '.', ')', '\\']);
        if is_password_value(password, false, false)
            && !password.chars().all(|c| c.is_alphabetic() || c == '-')
            && visit(Hit {
                kind: "a password or secret",
                matched: matched.range(),
                value: value.start()..value.start() + password.len(),
            })
            .is_break()
        {
            return;
        }
    }
    let told = admits(TOLD_NEEDS).then(|| near(&TOLD, text, MAX_TOLD_GAP));
    for caps in told.into_iter().flatten() {
        let (Some(matched), Some(key)) = (caps.get(0), caps.name("key")) else {
            continue;
        };
        let key_name = key.as_str().replace([' ', '-'], "_");
        if classify_key(&key_name, word_before(text, key.start())).is_none() {
            continue;
        }
        let Some(Assigned { range: value, .. }) = assigned_value(text, matched.end()) else {
            continue;
        };
        if told_token(&text[value.clone()])
            && visit(Hit {
                kind: "a high-entropy token or key",
                matched: matched.start()..value.end,
                value,
            })
            .is_break()
        {
            return;
        }
    }
}

/// The matches of `regex` whose `gap` group is at most `max_gap` bytes long; after a match whose
/// gap is longer, the search goes on from the gap's start, where a nearer word may begin.
fn near<'t>(
    regex: &'static regex::Regex,
    text: &'t str,
    max_gap: usize,
) -> impl Iterator<Item = regex::Captures<'t>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let caps = regex.captures_at(text, at)?;
            let (whole, gap) = (caps.get(0)?, caps.name("gap")?);
            if gap.len() > max_gap {
                at = gap.start().max(at + 1);
                continue;
            }
            at = whole.end().max(at + 1);
            return Some(caps);
        }
    })
}

/// A value said in prose about a credential is one when it looks random and is no identifier:
/// 20 characters at least, and no word of 4 lower-case letters between its `_`, `-` or `.`
/// (`keep_it_simple_2026` is a name).
fn told_token(value: &str) -> bool {
    value.len() >= 20
        && looks_random(value)
        && !value
            .split(['_', '-', '.'])
            .any(|word| word.len() >= 4 && word.chars().all(|c| c.is_ascii_lowercase()))
}

#[cfg(test)]
mod tests;
