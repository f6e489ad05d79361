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
//! 3.5 bits a character, 3.0 for hex).
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
//! Found secrets are named by kind; [`scan`] shows them masked, never in full. Patterns compile
//! once; each runs once over the text, and entropy is computed for assignment values only.

use std::ops::{ControlFlow, Range};
use std::sync::LazyLock;

use regex::Regex;

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
    each_hit(text, |hit| {
        kind = Some(hit.kind);
        ControlFlow::Break(())
    });
    kind
}

/// Every secret in `text`, in text order: one finding per line and kind.
pub fn scan(text: &str) -> Vec<Finding> {
    let mut hits: Vec<Hit> = Vec::new();
    each_hit(text, |hit| {
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
/// breaks. The table is ordered most specific first; [`scan`] relies on that to name a token in
/// an assignment by the token's kind.
fn each_hit(text: &str, mut visit: impl FnMut(Hit) -> ControlFlow<()>) {
    for pattern in PATTERNS.iter() {
        for caps in pattern.regex.captures_iter(text) {
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
    for caps in ASSIGNMENT.captures_iter(text) {
        let (Some(matched), Some(key), Some(op)) = (caps.get(0), caps.name("key"), caps.name("op"))
        else {
            continue;
        };
        if matched.start() < read_to {
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
}

/// Whether a matched value really is a secret (and not a placeholder or a look-alike).
type Accept = fn(&str) -> bool;

struct Pattern {
    kind: &'static str,
    /// The secret's shape; a group named `v`, where there is one, is the secret value itself.
    regex: Regex,
    accept: Accept,
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    const PRIVATE_KEY: &str = "a private key";
    // Token shapes: a service prefix and a body of letters and digits (`token_like`).
    let table: &[(&str, &str, Accept)] = &[
        // A service account file keeps its key as a one-line JSON string.
        (
            "a Google service account key",
            r#""private_key"[ \t]*:[ \t]*"(?P<v>-----BEGIN[ A-Z]*PRIVATE KEY-----[^"\n]*)"#,
            key_block,
        ),
        (
            PRIVATE_KEY,
            r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?P<v>[^\n\x22]*)",
            key_block,
        ),
        (
            PRIVATE_KEY,
            r"PuTTY-User-Key-File-[0-9]+:[^\n]*(?P<v>)",
            key_block,
        ),
        (
            "an Anthropic API key",
            r"\bsk-ant-[A-Za-z0-9_\-]{16,}",
            token_like,
        ),
        (
            "an OpenAI API key",
            r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
            token_like,
        ),
        (
            "an AWS access key id",
            r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
            token_like,
        ),
        (
            "an AWS secret access key",
            r#"(?i)(?:aws_?)?secret_?access_?key["']?[ \t]*(?::=|=>|=|:)[ \t]*["']?(?P<v>[A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
            token_like,
        ),
        ("a Google API key", r"\bAIza[0-9A-Za-z_\-]{35}", token_like),
        (
            "a Google OAuth client secret",
            r"\bGOCSPX-[A-Za-z0-9_\-]{28}",
            token_like,
        ),
        (
            "a Google OAuth token",
            r"\bya29\.[0-9A-Za-z_\-]{30,}",
            token_like,
        ),
        (
            "an Azure storage key",
            r"(?i)AccountKey=(?P<v>[A-Za-z0-9+/]{40,}={0,2})",
            token_like,
        ),
        (
            "an Azure shared access key",
            r"(?i)SharedAccessKey=(?P<v>[A-Za-z0-9+/]{30,}={0,2})",
            token_like,
        ),
        (
            "an Azure SAS token",
            r"[?&]sv=[0-9]{4}-[0-9]{2}-[0-9]{2}&[^\s]*?\bsig=(?P<v>[A-Za-z0-9%+/=]{30,})",
            token_like,
        ),
        (
            "an Azure client secret",
            r"\b[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}",
            token_like,
        ),
        (
            "a GitHub token",
            r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}",
            token_like,
        ),
        (
            "a GitHub token",
            r"\bgithub_pat_[A-Za-z0-9_]{30,}",
            token_like,
        ),
        (
            "a GitLab token",
            r"\bgl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_\-]{20,}",
            token_like,
        ),
        (
            "a Slack token",
            r"\bxox[abposre]-[A-Za-z0-9\-]{10,}",
            token_like,
        ),
        (
            "a Slack token",
            r"\bxapp-[0-9]-[A-Za-z0-9\-]{20,}",
            token_like,
        ),
        (
            "a Slack webhook",
            r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>T[A-Za-z0-9]+/[A-Za-z0-9]+/[A-Za-z0-9]+)",
            token_like,
        ),
        (
            "a Stripe key",
            r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
            token_like,
        ),
        (
            "a Stripe webhook secret",
            r"\bwhsec_[A-Za-z0-9]{24,}",
            token_like,
        ),
        ("a Hugging Face token", r"\bhf_[A-Za-z0-9]{30,}", token_like),
        ("an npm token", r"\bnpm_[A-Za-z0-9]{36}\b", token_like),
        ("a PyPI token", r"\bpypi-AgE[A-Za-z0-9_\-]{50,}", token_like),
        ("a Twilio API key", r"\bSK[0-9a-fA-F]{32}\b", token_like),
        // An account SID is public; with an auth token next to it, the token is the secret.
        (
            "a Twilio auth token",
            r"\bAC[0-9a-f]{32}\b[^\n]{0,80}?\b(?P<v>[0-9a-f]{32})\b",
            token_like,
        ),
        (
            "a SendGrid API key",
            r"\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}",
            token_like,
        ),
        ("a Mailgun API key", r"\bkey-[0-9a-zA-Z]{32}\b", token_like),
        (
            "a Discord bot token",
            r"\b[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}",
            token_like,
        ),
        (
            "a Discord webhook",
            r"discord(?:app)?\.com/api/webhooks/[0-9]{15,20}/(?P<v>[A-Za-z0-9_\-]{60,})",
            token_like,
        ),
        (
            "a Telegram bot token",
            r"\b[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}",
            token_like,
        ),
        (
            "a Shopify token",
            r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b",
            token_like,
        ),
        (
            "a DigitalOcean token",
            r"\bdo[por]_v1_[a-f0-9]{64}\b",
            token_like,
        ),
        (
            "a Databricks token",
            r"\bdapi[a-f0-9]{32}(?:-[0-9])?\b",
            token_like,
        ),
        (
            "a Linear API key",
            r"\blin_api_[A-Za-z0-9]{40}\b",
            token_like,
        ),
        (
            "a Postman API key",
            r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b",
            token_like,
        ),
        (
            "a Sentry token",
            r"\b(?:sntrys_[A-Za-z0-9+/=_\-]{60,}|sntryu_[a-f0-9]{64}\b)",
            token_like,
        ),
        (
            "a Vault token",
            r"\bhv[sb]\.[A-Za-z0-9_\-]{90,}",
            token_like,
        ),
        (
            "an age secret key",
            r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b",
            token_like,
        ),
        (
            "a Docker Hub token",
            r"\bdckr_pat_[A-Za-z0-9_\-]{27,}",
            token_like,
        ),
        (
            "a Grafana token",
            r"\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|glc_[A-Za-z0-9+/]{32,}={0,2})",
            token_like,
        ),
        (
            "a Doppler token",
            r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b",
            token_like,
        ),
        ("a New Relic key", r"\bNRAK-[A-Z0-9]{27}\b", token_like),
        (
            "a JSON web token",
            r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
            token_like,
        ),
        (
            "a password in a URL",
            r#"\b[a-zA-Z][a-zA-Z0-9+.\-]*://(?P<u>[^\s/:@"'\\<>{}|^`]*):(?P<v>[^\s/@"'\\<>{}|^`]{3,})@[^\s/@"\\]+"#,
            url_password,
        ),
        (
            "a password on a command line",
            r#"\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]+["']?[^\s:"']+:(?P<v>[^\s"']+)"#,
            url_password,
        ),
        (
            "basic auth credentials",
            r#"(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?basic[ \t]+(?P<v>[A-Za-z0-9+/]{8,}={0,2})"#,
            not_placeholder,
        ),
        (
            "a bearer token",
            r"(?i)\bbearer[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)",
            looks_random,
        ),
    ];
    table
        .iter()
        .map(|&(kind, pattern, accept)| Pattern {
            kind,
            regex: compile(pattern),
            accept,
        })
        .collect()
});

/// `NAME = value`, `"name": value`, `the password is value`, `密码是 value` where the name holds a
/// credential word; [`classify_key`] decides on the whole name, [`assigned_value`] reads the value.
static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r#"(?P<key>(?i:[a-z0-9_.\-]*(?:pass|pwd|secret|token|key|auth|credential|bearer)[a-z0-9_.\-]*)|密码|口令|密钥|秘钥|令牌)(?:\\?["'\]]){0,2}(?P<op>[ \t]*(?::=|=>|=|:|：)|[ \t]+(?i:is)\b[ \t]*:?|[ \t]*(?:是|为|為)[ \t]*[:：]?)"#,
    )
});

/// Compiles one of the scanner's patterns, with ASCII word boundaries: `\b` in Unicode (the
/// default) stops the regex crate's fast engines on any non-ASCII text, which made a scan of
/// 40 KB of notes with some Chinese take milliseconds; and `令牌ghp_…` should count the token as
/// starting at a boundary.
fn compile(pattern: &str) -> Regex {
    Regex::new(&pattern.replace(r"\b", r"(?-u:\b)"))
        .unwrap_or_else(|e| panic!("secret pattern {pattern}: {e}"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    /// A password or secret: any real value is one.
    Password,
    /// A token or key: a value is one when it looks random.
    Token,
}

/// Whether an assignment to `key` (after `word_before`, in prose) holds a credential. By its last
/// word: `DB_PASSWORD`, `clientSecret`, `SECRET_KEY_BASE` hold passwords, `GITHUB_TOKEN`,
/// `apiKey`, `_authToken` tokens; `password_policy`, `PASSWORD_FILE`, `token_count`,
/// `primary_key`, `next_page_token` nothing.
fn classify_key(key: &str, word_before: Option<&str>) -> Option<Tier> {
    match key {
        "密码" | "口令" | "密钥" | "秘钥" => return Some(Tier::Password),
        "令牌" => return Some(Tier::Token),
        _ => {}
    }
    let mut words = key_words(key);
    // In prose the name has spaces: "public key: …", "API token: …".
    if let ([_], Some(before)) = (words.as_slice(), word_before) {
        words.insert(0, before.to_ascii_lowercase());
    }
    let (last, before) = match words.as_slice() {
        [] => return None,
        [last] => (last.as_str(), None),
        [.., before, last] => (last.as_str(), Some(before.as_str())),
    };
    let several = words.len() > 1;
    let secret_named = words.iter().any(|w| w == "secret" || w == "password");
    match last {
        "password" | "passwd" | "passphrase" | "pwd" | "secret" => Some(Tier::Password),
        "pass" | "pw" if several => Some(Tier::Password),
        "key" | "token" | "base" | "value" | "string" if secret_named => Some(Tier::Password),
        "token" | "tokens" if !before.is_some_and(|w| is_listed(NOT_CREDENTIAL_TOKEN, w)) => {
            Some(Tier::Token)
        }
        "key" | "keys" if !before.is_some_and(|w| is_listed(NOT_CREDENTIAL_KEY, w)) => {
            Some(Tier::Token)
        }
        "apikey" | "auth" | "authtoken" | "accesstoken" | "credential" | "credentials"
        | "bearer" => Some(Tier::Token),
        _ if ["password", "passwd", "secret"]
            .iter()
            .any(|w| last.ends_with(w)) =>
        {
            Some(Tier::Password)
        }
        _ if last.ends_with("apikey") || (last.ends_with("token") && last.len() > 5) => {
            Some(Tier::Token)
        }
        _ => None,
    }
}

/// `next_page_token`, `csrf_token`, `max_tokens`: tokens that are not credentials.
const NOT_CREDENTIAL_TOKEN: &str = "\
    page next prev previous continuation pagination sync cursor csrf xsrf resume \
    cancellation cancel lexer parser syntax design max input output special eos bos pad";

/// `primary_key`, `public_key`, `cache_key`: keys that are not credentials.
const NOT_CREDENTIAL_KEY: &str = "\
    primary foreign sort partition cache idempotency public publishable pub lookup hash \
    map row range hot shortcut registry translation i18n message config setting settings \
    unique composite natural surrogate search index group order dedup dedupe join routing \
    shard tag label env field json yaml object s3 bucket blob file dict keyboard react \
    list item query cursor page version schema ssh gpg pgp request trace correlation music";

/// Whether `word` is one of the space-separated `list`.
fn is_listed(list: &str, word: &str) -> bool {
    list.split_whitespace().any(|w| w == word)
}

/// The word right before `at` in `text`, separated from it by spaces only.
fn word_before(text: &str, at: usize) -> Option<&str> {
    let head = text[..at]
        .strip_suffix([' ', '\t'])?
        .trim_end_matches([' ', '\t']);
    let word = &head[head
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric())
        .len()..];
    (!word.is_empty()).then_some(word)
}

/// `DB_PASSWORD` → `[db, password]`, `apiKey` → `[api, key]`, `SecretAccessKey` →
/// `[secret, access, key]`, lowercased.
fn key_words(key: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for part in key.split(|c: char| !c.is_ascii_alphanumeric()) {
        let chars: Vec<char> = part.chars().collect();
        let mut word = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1);
            let boundary = c.is_ascii_uppercase()
                && prev.is_some_and(|p| {
                    p.is_ascii_lowercase()
                        || p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase())
                });
            if boundary && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// The value assigned after `from` (just past the operator): a quoted string on the line, or the
/// run of printable ASCII up to whitespace (so `密码是 abc，…` stops at the full-width comma),
/// without trailing sentence punctuation.
fn assigned_value(text: &str, from: usize) -> Option<Assigned> {
    let rest = &text[from..];
    let skipped = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let start = from + skipped;
    let rest = &text[start..];
    if rest.starts_with('=') {
        return None; // `password == x` compares, it does not assign
    }
    // Quoted, also JSON-escaped as in a transcript line: `\"password\": \"…\"`.
    for quote in ["\"", "'", "`", "\\\"", "\\'"] {
        if let Some(body) = rest.strip_prefix(quote) {
            let end = body.find(quote)?;
            let value = &body[..end];
            let from = start + quote.len();
            return (!value.contains('\n')).then_some(Assigned {
                range: from..from + value.len(),
                quoted: true,
            });
        }
    }
    let mut len = rest
        .find(|c: char| !c.is_ascii_graphic() || "\"'`".contains(c))
        .unwrap_or(rest.len());
    // Escaped text (a JSON string): `KEY=\nNEXT=…` assigns nothing to KEY.
    for escape in ["\\n", "\\r", "\\t", "\\\""] {
        len = rest[..len].find(escape).unwrap_or(len);
    }
    let value = rest[..len].trim_end_matches([',', ';', '.', ')']);
    (!value.is_empty()).then_some(Assigned {
        range: start..start + value.len(),
        quoted: false,
    })
}

/// A value read by [`assigned_value`].
struct Assigned {
    range: Range<usize>,
    quoted: bool,
}

/// Whether `value`, assigned to a password or secret name, is a real one.
fn is_password_value(value: &str, prose: bool, quoted: bool) -> bool {
    let n = value.chars().count();
    // "the password is incorrect" is prose; "the password is Tr0ub4dor&3" is not.
    let a_word_in_prose = prose && value.chars().all(|c| c.is_alphabetic() || c == '-');
    // A quoted passphrase may have spaces; a sentence in quotes is not one.
    let a_phrase = value.contains(' ') && !(quoted && value.matches(' ').count() <= 4);
    (8..=200).contains(&n)
        && !a_word_in_prose
        && !a_phrase
        && !is_placeholder(value)
        && !is_stop_value(value)
        && !is_reference(value)
}

/// Whether `value` looks like a random token: 16+ characters of a token alphabet, letters and
/// digits, and Shannon entropy of at least 3.5 bits a character (3.0 for hex, whose alphabet
/// caps it at 4).
fn looks_random(value: &str) -> bool {
    let hex = value.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    value.len() >= 16
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+/=_-.~".contains(c))
        // Digits too: `AuthenticationService` is a name, not a token.
        && value.chars().any(|c| c.is_ascii_digit())
        && token_like(value)
        && !is_reference(value)
        && entropy(value) >= if hex { 3.0 } else { 3.5 }
}

/// Shannon entropy of `value`, in bits a character.
fn entropy(value: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in value.bytes() {
        counts[usize::from(b)] += 1;
    }
    let n = value.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// A token body: not a placeholder, with letters, and digits or both cases (a word with hyphens,
/// such as a CSS class `sk-loading-spinner-overlay`, is no token; one random token in a few
/// hundred has no digit, hence the mixed case).
fn token_like(value: &str) -> bool {
    let has = |f: fn(&char) -> bool| value.chars().any(|c| f(&c));
    has(char::is_ascii_alphabetic)
        && (has(char::is_ascii_digit)
            || has(char::is_ascii_uppercase) && has(char::is_ascii_lowercase))
        && !is_placeholder(value)
}

/// The text after a key header: empty (the body is on the next lines) or the rest of the key,
/// unless that is a placeholder (`\n<your key>\n`, `...`). Only long markers: a key body is
/// kilobytes of base64, where a four-letter marker turns up by chance.
fn key_block(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.trim().is_empty()
        || !(value.contains(['<', '$', '…'])
            || ["...", "example", "redacted", "placeholder"]
                .iter()
                .any(|m| lower.contains(m)))
}

fn url_password(value: &str) -> bool {
    !is_placeholder(value) && !is_stop_value(value)
}

fn not_placeholder(value: &str) -> bool {
    !is_placeholder(value)
}

/// Documented example values that are published as such (the jwt.io token's signature, the key
/// in Stripe's documentation); AWS's end in `EXAMPLE`, which any value containing "example" is.
const DOCUMENTED_EXAMPLES: &[&str] = &[
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "4eC39HqLyjWDarjtT1zdp7dc",
];

/// Instructions and masks, not secrets: `<your-token>`, `${TOKEN}`, `$TOKEN`, `{{ token }}`,
/// `xxxx`, `****`, `REDACTED`, `changeme`, `sk-...`, values containing "example", and values of
/// one or two repeated characters.
fn is_placeholder(value: &str) -> bool {
    const MARKERS: &[&str] = &[
        "example",
        "xxxxx",
        "****",
        "...",
        "…",
        "•",
        "placeholder",
        "redacted",
        "changeme",
        "change_me",
        "change-me",
        "your_",
        "your-",
        "dummy",
        "fake_",
        "fake-",
        "sample",
        "notreal",
        "not_real",
        "not-real",
        "not-a-real",
        "not_a_real",
        "test-only",
        "test_only",
        "_here",
        "-here",
    ];
    let value = value.trim_matches(|c: char| "\"'`".contains(c) || c.is_whitespace());
    if value.is_empty()
        || value.starts_with(['<', '$', '%'])
        || value.ends_with('>')
        || value.contains("${")
        || value.contains("{{")
        || value.contains("$(")
        || value.starts_with('{') && value.ends_with('}')
    {
        return true;
    }
    let lower = value.to_ascii_lowercase();
    if MARKERS.iter().any(|m| lower.contains(m))
        || ["your", "fake", "xxxx"]
            .iter()
            .any(|m| lower.starts_with(m))
        || DOCUMENTED_EXAMPLES.iter().any(|e| value.contains(e))
    {
        return true;
    }
    // `0000000000`, `********`, `abababab`: filler, not a random value.
    let mut distinct: Vec<char> = value.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len() <= 2
        || value.chars().count() >= 8 && distinct.len() <= 3
        || ["000000", "######", "______"]
            .iter()
            .any(|run| value.contains(run))
}

/// Values that name a kind of value rather than being one: `password: required`, `:pass@`.
fn is_stop_value(value: &str) -> bool {
    const STOP: &str = "\
        password passwd pass pwd pw secret secrets token apikey api_key key value string \
        str required optional none null nil undefined empty true false hidden masked blank \
        default unset todo tbd n/a x-oauth-basic";
    is_listed(STOP, &value.to_ascii_lowercase())
}

/// Where a secret comes from, not the secret: a path, a URL, a cloud secret reference, code
/// (`os.environ["X"]`, `process.env.X`, `get_password()`), an environment variable's name, or a
/// variable named after the secret (`db_password`).
fn is_reference(value: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "/",
        "./",
        "../",
        "~/",
        "file:",
        "arn:",
        "vault:",
        "ssm:",
        "secretsmanager:",
        "sops:",
        "ENC[",
        "env:",
    ];
    static CODE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|[A-Za-z_][A-Za-z0-9_.]*[\[(].*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|\*[A-Za-z_][A-Za-z0-9_]*|[A-Za-z]:\\.*)$",
        )
        .unwrap_or_else(|e| panic!("secret reference pattern: {e}"))
    });
    if PREFIXES.iter().any(|p| value.starts_with(p)) || value.contains("://") {
        return true;
    }
    if CODE.is_match(value) {
        return true;
    }
    // A variable: `db_password`, `dbPassword`; not `Monkey12345`, not a random token.
    let identifier = value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let words = key_words(value);
    identifier
        && words.len() > 1
        && words.iter().any(|w| {
            [
                "password",
                "passwd",
                "secret",
                "token",
                "key",
                "pass",
                "pwd",
                "credential",
                "credentials",
                "apikey",
            ]
            .contains(&w.as_str())
        })
}

#[cfg(test)]
mod tests {
    use super::{Finding, blank_secret_lines, find, scan};

    #[test]
    fn known_shapes_are_found() {
        for text in [
            "my key is sk-ant-api03-AbCdEf0123456789_xyzXYZ-0123456789",
            "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx12345",
            "AKIAZ4T7Q2WBXN5KD3LM is the id",
            "token ghp_0123456789abcdefghijABCDEFGHIJ012345",
            "clone https://bob:hunter2hunter2@git.example.com/repo.git",
            "password: correct-horse-battery",
            "数据库密码是 Xy7#pQ9!zz",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "xoxb-1234567890-abcdefghij",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ] {
            assert!(find(text).is_some(), "missed a secret in {text:?}");
        }
    }

    #[test]
    fn lines_with_secrets_are_blanked_and_the_rest_kept() {
        let text = "keep this\ncurl -u admin:Zq8vLr2mXw7 https://x.example\nand this\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\nlast";
        let blanked = blank_secret_lines(text);
        assert_eq!(blanked, "keep this\n\nand this\n\n\n\nlast");
        assert!(find(&blanked).is_none());
        assert_eq!(blank_secret_lines("nothing here"), "nothing here");
    }

    #[test]
    fn ordinary_text_is_not_a_secret() {
        for text in [
            "Run `npm run lint` before every commit.",
            "The dashboard is https://grafana.example.com/d/abc123/payments",
            "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f",
            "password: <your-password>",
            "set token=${GITHUB_TOKEN} in CI",
            "we use task-sk-runner for this",
            "the password policy needs 12 characters",
            "AKIAIOSFODNN7EXAMPLE is AWS's documented example id",
            "the password is incorrect",
        ] {
            assert_eq!(find(text), None, "false positive in {text:?}");
        }
    }

    #[test]
    fn scan_reports_each_secret_with_its_line() {
        let token = "ghp_R8kT2mVq9XwLs4NbZc7Yd1PfHj6Ga3Ue5Qo0";
        let text = format!(
            "# notes\nuse gh, not curl\nGITHUB_TOKEN={token}\n\nDB_PASSWORD=Tr0ub4dor&3-prod\n"
        );
        let findings = scan(&text);
        assert_eq!(
            findings,
            vec![
                Finding {
                    kind: "a GitHub token",
                    line: 3,
                    excerpt: "GITHUB_TOKEN=ghp_****".to_string(),
                },
                Finding {
                    kind: "a password or secret",
                    line: 5,
                    excerpt: "DB_PASSWORD=Tr0u****".to_string(),
                },
            ]
        );
        assert_eq!(find(&text), Some("a GitHub token"));
        assert_eq!(scan("nothing to see here\n"), vec![]);
    }

    #[test]
    fn one_finding_per_line_and_kind_and_every_secret_masked() {
        let a = "AKIAZ4T7Q2WBXN5KD3LM";
        let b = "AKIAQ7M2N4B6V8C1X3Z5";
        let secret = "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";
        let text = format!("ids {a} and {b}; aws_secret_access_key = {secret}");
        let findings = scan(&text);
        let kinds: Vec<_> = findings.iter().map(|f| (f.line, f.kind)).collect();
        assert_eq!(
            kinds,
            vec![(1, "an AWS access key id"), (1, "an AWS secret access key")]
        );
        for f in &findings {
            for s in [a, b, secret] {
                assert!(!f.excerpt.contains(s), "{s} shown in {:?}", f.excerpt);
            }
            assert!(f.excerpt.contains("****"), "{:?}", f.excerpt);
        }
    }

    #[test]
    fn long_lines_are_cut_around_the_secret() {
        let token = "glpat-Xq4r8TzK2mWn6PbV1sLd";
        let text = format!("{} then {token} {}", "word ".repeat(40), "more ".repeat(40));
        let findings = scan(&text);
        assert_eq!(findings.len(), 1);
        let excerpt = &findings[0].excerpt;
        assert!(excerpt.chars().count() <= 82, "{excerpt:?}");
        assert!(excerpt.contains("glpa****"), "{excerpt:?}");
        assert!(!excerpt.contains(token));
    }

    #[test]
    fn a_key_block_is_found_on_its_begin_line_and_its_body_never_shown() {
        let json = r#"{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"}"#;
        let findings = scan(json);
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0].kind, "a Google service account key");
        assert!(!findings[0].excerpt.contains("MIIEvQ"));

        let pem = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n";
        let findings = scan(pem);
        assert_eq!(findings.len(), 1);
        assert_eq!((findings[0].kind, findings[0].line), ("a private key", 2));
    }

    #[test]
    fn placeholders_and_references_are_not_secrets() {
        for text in [
            "DB_PASSWORD=changeme",
            "password = os.environ[\"DB_PASSWORD\"]",
            "password: process.env.DB_PASSWORD",
            "api_key = '********************'",
            "OPENAI_API_KEY=sk-...",
            "postgres://user:password@localhost:5432/app",
            "password_policy: at-least-12-characters",
            "PASSWORD_FILE=/run/secrets/db_password",
            "next_page_token: CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA",
            "密码至少 12 位，存放在 Vault 里",
        ] {
            assert_eq!(scan(text), vec![], "false positive in {text:?}");
        }
    }

    proptest::proptest! {
        /// Any text: no panic, `find` agrees with `scan`, lines exist, excerpts stay short.
        #[test]
        fn scan_and_find_agree_on_any_text(
            text in "(?s)(?:[a-zA-Z0-9_ :=\"'\n\t./@$<>{}-]|密码是|令牌|：|ghp_|sk-|AKIA|password|TOKEN|://|…){0,60}"
        ) {
            let findings = scan(&text);
            proptest::prop_assert_eq!(find(&text).is_some(), !findings.is_empty());
            let lines = text.split('\n').count();
            for f in &findings {
                proptest::prop_assert!((1..=lines).contains(&f.line));
                proptest::prop_assert!(f.excerpt.chars().count() <= 82);
            }
        }
    }

    #[test]
    fn every_kind_has_a_positive_in_the_fixture() {
        let positives = include_str!("../fixtures/secrets/positives.txt");
        for pattern in super::PATTERNS.iter() {
            let header = format!("=== {} |", pattern.kind);
            assert!(
                positives.contains(&header),
                "no positive case for {}",
                pattern.kind
            );
        }
        for kind in ["a password or secret", "a high-entropy token or key"] {
            assert!(positives.contains(&format!("=== {kind} |")), "{kind}");
        }
    }
}
