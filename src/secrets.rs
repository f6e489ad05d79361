//! The secret scanner (DESIGN §10): memory is plain text in git, so credentials never go in.
//!
//! Known token shapes (Anthropic, OpenAI, AWS, GitHub, GitLab, Slack, Stripe, Google, npm, private
//! keys, JWTs, credentials in URLs) and `password = …`-style assignments. Found secrets are named
//! by kind only, never echoed.

use std::sync::LazyLock;

use regex::Regex;

struct Pattern {
    kind: &'static str,
    regex: Regex,
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let table: &[(&str, &str)] = &[
        ("an Anthropic API key", r"sk-ant-[A-Za-z0-9_\-]{16,}"),
        (
            "an OpenAI API key",
            r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{20,}",
        ),
        ("an AWS access key id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
        (
            "an AWS secret access key",
            r"(?i)aws_?secret_?access_?key\W{0,4}[A-Za-z0-9/+=]{40}",
        ),
        (
            "a GitHub token",
            r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}",
        ),
        ("a GitHub token", r"\bgithub_pat_[A-Za-z0-9_]{30,}"),
        ("a GitLab token", r"\bglpat-[A-Za-z0-9_\-]{20,}"),
        ("a Slack token", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
        (
            "a Slack webhook",
            r"hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]+",
        ),
        (
            "a Stripe key",
            r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
        ),
        ("a Google API key", r"\bAIza[0-9A-Za-z_\-]{35}"),
        ("an npm token", r"\bnpm_[A-Za-z0-9]{36}"),
        ("a Hugging Face token", r"\bhf_[A-Za-z0-9]{30,}"),
        (
            "a credential in an environment variable",
            r#"\b[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)\s*[=:]\s*["']?[^\s"'$<{]{8,}"#,
        ),
        (
            "a private key",
            r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----",
        ),
        (
            "a JSON web token",
            r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        ),
        (
            "a password in a URL",
            r"\b[a-z][a-z0-9+.\-]*://[^\s/:@]+:[^\s/@]{3,}@[^\s/]+",
        ),
        (
            "a password or token",
            r#"(?i)(?:\b(?:password|passwd|pwd|secret|api[_\- ]?key|access[_\- ]?token|auth[_\- ]?token|token)\b|密码|密钥|口令)\s*(?:is|[:=：]|是)\s*["'`]?[^\s"'`]{8,}"#,
        ),
    ];
    table
        .iter()
        .map(|(kind, pattern)| Pattern {
            kind,
            regex: Regex::new(pattern).unwrap_or_else(|e| panic!("secret pattern {kind}: {e}")),
        })
        .collect()
});

/// What kind of secret `text` holds, if any.
pub fn find(text: &str) -> Option<&'static str> {
    PATTERNS
        .iter()
        .find(|p| p.regex.find_iter(text).any(|m| !is_placeholder(m.as_str())))
        .map(|p| p.kind)
}

/// `password: <your-password>` and `token=${TOKEN}` are instructions, not secrets.
fn is_placeholder(found: &str) -> bool {
    let value = found
        .rsplit([':', '=', ' ', '：'])
        .next()
        .unwrap_or(found)
        .trim_matches(|c| "\"'`".contains(c));
    value.starts_with('<')
        || value.starts_with("${")
        || value.starts_with('$')
        || value
            .chars()
            .all(|c| c == '*' || c == 'x' || c == 'X' || c == '.')
        || value.eq_ignore_ascii_case("redacted")
}

#[cfg(test)]
mod tests {
    use super::find;

    #[test]
    fn known_shapes_are_found() {
        for text in [
            "my key is sk-ant-api03-AbCdEf0123456789_xyzXYZ-0123456789",
            "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx12345",
            "AKIAIOSFODNN7EXAMPLE is the id",
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
    fn ordinary_text_is_not_a_secret() {
        for text in [
            "Run `npm run lint` before every commit.",
            "The dashboard is https://grafana.example.com/d/abc123/payments",
            "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f",
            "password: <your-password>",
            "set token=${GITHUB_TOKEN} in CI",
            "we use task-sk-runner for this",
            "the password policy needs 12 characters",
        ] {
            assert_eq!(find(text), None, "false positive in {text:?}");
        }
    }
}
