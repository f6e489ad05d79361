//! Credential assignments (`DB_PASSWORD=…`, `"client_secret": "…"`, `密码是 …`): which names hold
//! a credential, where the value is, and whether it is a real secret rather than a placeholder, a
//! reference to where the secret lives, or prose.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::prefilter::Needs;

/// `NAME = value`, `"name": value`, `the password is value`, `密码是 value`, `密码 value` where the
/// name holds a credential word; [`classify_key`] decides on the whole name, [`assigned_value`]
/// reads the value. (A space alone assigns only after a Chinese name: `token abc` is English.)
pub(super) static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r#"(?P<key>(?i:[a-z0-9_.\-]*(?:pass|pwd|secret|token|key|auth|credential|bearer)[a-z0-9_.\-]*)|密码|口令|密钥|秘钥|令牌)(?:\\?["'\]]){0,2}(?P<op>[ \t]*(?::=|=>|=|:|：)|[ \t]+(?i:is)\b[ \t]*:?|[ \t]*(?:是|为|為)[ \t]*[:：]?|[ \t]+)"#,
    )
});

/// A text [`ASSIGNMENT`] can match holds one of its names.
pub(super) const ASSIGNMENT_NEEDS: Needs = Needs::any_of(&[
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "auth",
    "credential",
    "bearer",
    "密码",
    "口令",
    "密钥",
    "秘钥",
    "令牌",
]);

/// A value said after a colon in a sentence about a credential: `here's my key for the .env,
/// don't commit it: 3f9c…`, the colon at most [`MAX_TOLD_GAP`] bytes after the word (`gap`;
/// measured in code: a counted repetition of a Unicode class makes the regex slow to build).
/// The word must name a credential as [`classify_key`] reads it (`public key:` does not), and
/// the value counts only when it looks random ([`looks_random`]).
pub(super) static TOLD: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(?P<key>api[ _-]?key|keys?|tokens?|secrets?|passwords?|passwd|pwd|credentials?|creds)\b(?P<gap>[^\n:：]*)[:：]",
    )
});

/// A text [`TOLD`] can match holds one of its words and a value of [`told_token`]'s 20
/// characters.
///
/// [`told_token`]: super::told_token
pub(super) const TOLD_NEEDS: Needs = Needs::any_of(&[
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "pwd",
    "credential",
    "creds",
])
.with_run(20);

/// A user name and its password given as a pair: `login is svc_readonly / Rb7#qLm2!vTz9w`,
/// `creds: admin/Hunter22x`, `账号 dev / Emqx#2026`, the `gap` after the word at most
/// [`MAX_PAIR_GAP`] bytes and the `user` at most 64. The password (`v`) counts when it is one
/// ([`is_password_value`]) and is not a plain word.
pub(super) static PAIR: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)(?:\b(?:logins?|credentials?|creds|sign[ -]?in)\b|账号|帐号|登录)(?P<gap>[^\n/]*?)(?:\bis\b|\bare\b|[:：=]|[ \t])[ \t]*(?P<user>[^\s/]+)[ \t]*/[ \t]*(?P<v>[^\s/]+)",
    )
});

/// A text [`PAIR`] can match holds one of its words.
pub(super) const PAIR_NEEDS: Needs = Needs::any_of(&[
    "login",
    "credential",
    "creds",
    "sign",
    "账号",
    "帐号",
    "登录",
]);

/// The most bytes between a credential word and the colon of [`TOLD`].
pub(super) const MAX_TOLD_GAP: usize = 80;
/// The most bytes between a login word and the pair of [`PAIR`].
pub(super) const MAX_PAIR_GAP: usize = 20;

/// Compiles one of the scanner's patterns, with ASCII word boundaries: `\b` in Unicode (the
/// default) stops the regex crate's fast engines on any non-ASCII text, which made a scan of
/// 40 KB of notes with some Chinese take milliseconds; and `令牌ghp_…` should count the token as
/// starting at a boundary.
pub(super) fn compile(pattern: &str) -> Regex {
    Regex::new(&pattern.replace(r"\b", r"(?-u:\b)"))
        .unwrap_or_else(|e| panic!("secret pattern {pattern}: {e}"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tier {
    /// A password or secret: any real value is one.
    Password,
    /// A token or key: a value is one when it looks random.
    Token,
}

/// Whether an assignment to `key` (after `word_before`, in prose) holds a credential. By its last
/// word: `DB_PASSWORD`, `clientSecret`, `SECRET_KEY_BASE` hold passwords, `GITHUB_TOKEN`,
/// `apiKey`, `_authToken` tokens; `password_policy`, `PASSWORD_FILE`, `token_count`,
/// `primary_key`, `next_page_token` nothing.
pub(super) fn classify_key(key: &str, word_before: Option<&str>) -> Option<Tier> {
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
pub(super) const NOT_CREDENTIAL_TOKEN: &str = "\
    page next prev previous continuation pagination sync cursor csrf xsrf resume \
    cancellation cancel lexer parser syntax design max input output special eos bos pad";

/// `primary_key`, `public_key`, `cache_key`: keys that are not credentials.
pub(super) const NOT_CREDENTIAL_KEY: &str = "\
    primary foreign sort partition cache idempotency public publishable pub lookup hash \
    map row range hot shortcut registry translation i18n message config setting settings \
    unique composite natural surrogate search index group order dedup dedupe join routing \
    shard tag label env field json yaml object s3 bucket blob file dict keyboard react \
    list item query cursor page version schema ssh gpg pgp request trace correlation music";

/// Whether `word` is one of the space-separated `list`.
pub(super) fn is_listed(list: &str, word: &str) -> bool {
    list.split_whitespace().any(|w| w == word)
}

/// The word right before `at` in `text`, separated from it by spaces only.
pub(super) fn word_before(text: &str, at: usize) -> Option<&str> {
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
pub(super) fn key_words(key: &str) -> Vec<String> {
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
pub(super) fn assigned_value(text: &str, from: usize) -> Option<Assigned> {
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
pub(super) struct Assigned {
    pub(super) range: Range<usize>,
    pub(super) quoted: bool,
}

/// Whether `value`, assigned to a password or secret name, is a real one.
pub(super) fn is_password_value(value: &str, prose: bool, quoted: bool) -> bool {
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
pub(super) fn looks_random(value: &str) -> bool {
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
pub(super) fn entropy(value: &str) -> f64 {
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
pub(super) fn token_like(value: &str) -> bool {
    let has = |f: fn(&char) -> bool| value.chars().any(|c| f(&c));
    has(char::is_ascii_alphabetic)
        && (has(char::is_ascii_digit)
            || has(char::is_ascii_uppercase) && has(char::is_ascii_lowercase))
        && !is_placeholder(value)
}

/// The text after a key header: empty (the body is on the next lines) or the rest of the key,
/// unless that is a placeholder (`\n<your key>\n`, `...`). Only long markers: a key body is
/// kilobytes of base64, where a four-letter marker turns up by chance.
pub(super) fn key_block(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.trim().is_empty()
        || !(value.contains(['<', '$', '…'])
            || ["...", "example", "redacted", "placeholder"]
                .iter()
                .any(|m| lower.contains(m)))
}

pub(super) fn url_password(value: &str) -> bool {
    !is_placeholder(value) && !is_stop_value(value)
}

pub(super) fn not_placeholder(value: &str) -> bool {
    !is_placeholder(value)
}

/// Documented example values that are published as such (the jwt.io token's signature, the key
/// in Stripe's documentation); AWS's end in `EXAMPLE`, which any value containing "example" is.
pub(super) const DOCUMENTED_EXAMPLES: &[&str] = &[
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "4eC39HqLyjWDarjtT1zdp7dc",
];

/// Instructions and masks, not secrets: `<your-token>`, `${TOKEN}`, `$TOKEN`, `{{ token }}`,
/// `xxxx`, `****`, `REDACTED`, `changeme`, `sk-...`, values containing "example", and values of
/// one or two repeated characters.
pub(super) fn is_placeholder(value: &str) -> bool {
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
pub(super) fn is_stop_value(value: &str) -> bool {
    const STOP: &str = "\
        password passwd pass pwd pw secret secrets token apikey api_key key value string \
        str required optional none null nil undefined empty true false hidden masked blank \
        default unset todo tbd n/a x-oauth-basic";
    is_listed(STOP, &value.to_ascii_lowercase())
}

/// Where a secret comes from, not the secret: a path, a URL, a cloud secret reference, code
/// (`os.environ["X"]`, `process.env.X`, `get_password()`), an environment variable's name, or a
/// variable named after the secret (`db_password`).
pub(super) fn is_reference(value: &str) -> bool {
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
