//! The token shapes the scanner knows (48 kinds), most specific first: a matched value is a secret
//! when its `accept` check says so (not a placeholder, random enough, a real key block).

use std::sync::LazyLock;

use regex::Regex;

use super::values::{compile, key_block, looks_random, not_placeholder, token_like, url_password};

/// Whether a matched value really is a secret (and not a placeholder or a look-alike).
pub(super) type Accept = fn(&str) -> bool;

pub(super) struct Pattern {
    pub(super) kind: &'static str,
    /// The secret's shape; a group named `v`, where there is one, is the secret value itself.
    pub(super) regex: Regex,
    pub(super) accept: Accept,
}

pub(super) static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
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
