//! The token shapes the scanner knows (48 kinds), most specific first: a matched value is a secret
//! when its `accept` check says so (not a placeholder, random enough, a real key block). Each
//! pattern compiles on its first use, and only a text that has what it [`Needs`] uses it.

use std::sync::{LazyLock, OnceLock};

use regex::Regex;

use super::prefilter::Needs;
use super::values::{compile, key_block, looks_random, not_placeholder, token_like, url_password};

/// Whether a matched value really is a secret (and not a placeholder or a look-alike).
pub(super) type Accept = fn(&str) -> bool;

pub(super) struct Pattern {
    pub(super) kind: &'static str,
    /// What a text must hold before the pattern can match it.
    pub(super) needs: Needs,
    /// The secret's shape; a group named `v`, where there is one, is the secret value itself.
    source: &'static str,
    regex: OnceLock<Regex>,
    pub(super) accept: Accept,
}

impl Pattern {
    /// The compiled pattern (compiled now if this is its first use).
    pub(super) fn regex(&self) -> &Regex {
        self.regex.get_or_init(|| compile(self.source))
    }
}

pub(super) static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    const PRIVATE_KEY: &str = "a private key";
    // Token shapes: a service prefix and a body of letters and digits (`token_like`).
    let table: &[(&str, Needs, &str, Accept)] = &[
        // A service account file keeps its key as a one-line JSON string.
        (
            "a Google service account key",
            Needs::any_of(&["\"private_key\""]),
            r#""private_key"[ \t]*:[ \t]*"(?P<v>-----BEGIN[ A-Z]*PRIVATE KEY-----[^"\n]*)"#,
            key_block,
        ),
        (
            PRIVATE_KEY,
            Needs::any_of(&["-----begin"]),
            r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?P<v>[^\n\x22]*)",
            key_block,
        ),
        (
            PRIVATE_KEY,
            Needs::any_of(&["putty-user-key-file-"]),
            r"PuTTY-User-Key-File-[0-9]+:[^\n]*(?P<v>)",
            key_block,
        ),
        (
            "an Anthropic API key",
            Needs::any_of(&["sk-ant-"]).with_run(23),
            r"\bsk-ant-[A-Za-z0-9_\-]{16,}",
            token_like,
        ),
        (
            "an OpenAI API key",
            Needs::any_of(&["sk-"]).with_run(23),
            r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
            token_like,
        ),
        (
            "an AWS access key id",
            Needs::any_of(&["akia", "asia"]).with_run(20),
            r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
            token_like,
        ),
        (
            "an AWS secret access key",
            Needs::any_of(&["access"]).with_run(40),
            r#"(?i)(?:aws_?)?secret_?access_?key["']?[ \t]*(?::=|=>|=|:)[ \t]*["']?(?P<v>[A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
            token_like,
        ),
        (
            "a Google API key",
            Needs::any_of(&["aiza"]).with_run(39),
            r"\bAIza[0-9A-Za-z_\-]{35}",
            token_like,
        ),
        (
            "a Google OAuth client secret",
            Needs::any_of(&["gocspx-"]).with_run(35),
            r"\bGOCSPX-[A-Za-z0-9_\-]{28}",
            token_like,
        ),
        (
            "a Google OAuth token",
            Needs::any_of(&["ya29."]).with_run(35),
            r"\bya29\.[0-9A-Za-z_\-]{30,}",
            token_like,
        ),
        (
            "an Azure storage key",
            Needs::any_of(&["accountkey="]).with_run(40),
            r"(?i)AccountKey=(?P<v>[A-Za-z0-9+/]{40,}={0,2})",
            token_like,
        ),
        (
            "an Azure shared access key",
            Needs::any_of(&["sharedaccesskey="]).with_run(30),
            r"(?i)SharedAccessKey=(?P<v>[A-Za-z0-9+/]{30,}={0,2})",
            token_like,
        ),
        (
            "an Azure SAS token",
            Needs::any_of(&["sig="]).with_run(30),
            r"[?&]sv=[0-9]{4}-[0-9]{2}-[0-9]{2}&[^\s]*?\bsig=(?P<v>[A-Za-z0-9%+/=]{30,})",
            token_like,
        ),
        (
            "an Azure client secret",
            Needs::any_of(&["q~"]).with_run(37),
            r"\b[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}",
            token_like,
        ),
        (
            "a GitHub token",
            Needs::any_of(&["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]).with_run(34),
            r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}",
            token_like,
        ),
        (
            "a GitHub token",
            Needs::any_of(&["github_pat_"]).with_run(41),
            r"\bgithub_pat_[A-Za-z0-9_]{30,}",
            token_like,
        ),
        (
            "a GitLab token",
            Needs::any_of(&[
                "glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-", "glsoat-", "glft-",
                "glimt-", "glagent-",
            ])
            .with_run(24),
            r"\bgl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_\-]{20,}",
            token_like,
        ),
        (
            "a Slack token",
            Needs::any_of(&["xox"]).with_run(15),
            r"\bxox[abposre]-[A-Za-z0-9\-]{10,}",
            token_like,
        ),
        (
            "a Slack token",
            Needs::any_of(&["xapp-"]).with_run(27),
            r"\bxapp-[0-9]-[A-Za-z0-9\-]{20,}",
            token_like,
        ),
        (
            "a Slack webhook",
            Needs::any_of(&["hooks.slack.com/"]),
            r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>T[A-Za-z0-9]+/[A-Za-z0-9]+/[A-Za-z0-9]+)",
            token_like,
        ),
        (
            "a Stripe key",
            Needs::any_of(&["_live_", "_test_"]).with_run(24),
            r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
            token_like,
        ),
        (
            "a Stripe webhook secret",
            Needs::any_of(&["whsec_"]).with_run(30),
            r"\bwhsec_[A-Za-z0-9]{24,}",
            token_like,
        ),
        (
            "a Hugging Face token",
            Needs::any_of(&["hf_"]).with_run(33),
            r"\bhf_[A-Za-z0-9]{30,}",
            token_like,
        ),
        (
            "an npm token",
            Needs::any_of(&["npm_"]).with_run(40),
            r"\bnpm_[A-Za-z0-9]{36}\b",
            token_like,
        ),
        (
            "a PyPI token",
            Needs::any_of(&["pypi-age"]).with_run(58),
            r"\bpypi-AgE[A-Za-z0-9_\-]{50,}",
            token_like,
        ),
        (
            "a Twilio API key",
            Needs::any_of(&["sk"]).with_run(34),
            r"\bSK[0-9a-fA-F]{32}\b",
            token_like,
        ),
        // An account SID is public; with an auth token next to it, the token is the secret.
        (
            "a Twilio auth token",
            Needs::any_of(&["ac"]).with_run(34),
            r"\bAC[0-9a-f]{32}\b[^\n]{0,80}?\b(?P<v>[0-9a-f]{32})\b",
            token_like,
        ),
        (
            "a SendGrid API key",
            Needs::any_of(&["sg."]).with_run(69),
            r"\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}",
            token_like,
        ),
        (
            "a Mailgun API key",
            Needs::any_of(&["key-"]).with_run(36),
            r"\bkey-[0-9a-zA-Z]{32}\b",
            token_like,
        ),
        (
            "a Discord bot token",
            Needs::any_of(&[]).with_run(59),
            r"\b[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}",
            token_like,
        ),
        (
            "a Discord webhook",
            Needs::any_of(&["/api/webhooks/"]).with_run(60),
            r"discord(?:app)?\.com/api/webhooks/[0-9]{15,20}/(?P<v>[A-Za-z0-9_\-]{60,})",
            token_like,
        ),
        (
            "a Telegram bot token",
            Needs::any_of(&[":aa"]).with_run(35),
            r"\b[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}",
            token_like,
        ),
        (
            "a Shopify token",
            Needs::any_of(&["shpat_", "shpss_", "shpca_", "shppa_"]).with_run(38),
            r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b",
            token_like,
        ),
        (
            "a DigitalOcean token",
            Needs::any_of(&["_v1_"]).with_run(71),
            r"\bdo[por]_v1_[a-f0-9]{64}\b",
            token_like,
        ),
        (
            "a Databricks token",
            Needs::any_of(&["dapi"]).with_run(36),
            r"\bdapi[a-f0-9]{32}(?:-[0-9])?\b",
            token_like,
        ),
        (
            "a Linear API key",
            Needs::any_of(&["lin_api_"]).with_run(48),
            r"\blin_api_[A-Za-z0-9]{40}\b",
            token_like,
        ),
        (
            "a Postman API key",
            Needs::any_of(&["pmak-"]).with_run(64),
            r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b",
            token_like,
        ),
        (
            "a Sentry token",
            Needs::any_of(&["sntrys_", "sntryu_"]).with_run(67),
            r"\b(?:sntrys_[A-Za-z0-9+/=_\-]{60,}|sntryu_[a-f0-9]{64}\b)",
            token_like,
        ),
        (
            "a Vault token",
            Needs::any_of(&["hvs.", "hvb."]).with_run(94),
            r"\bhv[sb]\.[A-Za-z0-9_\-]{90,}",
            token_like,
        ),
        (
            "an age secret key",
            Needs::any_of(&["age-secret-key-1"]).with_run(74),
            r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b",
            token_like,
        ),
        (
            "a Docker Hub token",
            Needs::any_of(&["dckr_pat_"]).with_run(36),
            r"\bdckr_pat_[A-Za-z0-9_\-]{27,}",
            token_like,
        ),
        (
            "a Grafana token",
            Needs::any_of(&["glsa_", "glc_"]).with_run(36),
            r"\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|glc_[A-Za-z0-9+/]{32,}={0,2})",
            token_like,
        ),
        (
            "a Doppler token",
            Needs::any_of(&["dp."]).with_run(46),
            r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b",
            token_like,
        ),
        (
            "a New Relic key",
            Needs::any_of(&["nrak-"]).with_run(32),
            r"\bNRAK-[A-Z0-9]{27}\b",
            token_like,
        ),
        (
            "a JSON web token",
            Needs::any_of(&["eyj"]).with_run(32),
            r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
            token_like,
        ),
        (
            "a password in a URL",
            Needs::any_of(&["://"]),
            r#"\b[a-zA-Z][a-zA-Z0-9+.\-]*://(?P<u>[^\s/:@"'\\<>{}|^`]*):(?P<v>[^\s/@"'\\<>{}|^`]{3,})@[^\s/@"\\]+"#,
            url_password,
        ),
        (
            "a password on a command line",
            Needs::any_of(&["curl"]),
            r#"\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]+["']?[^\s:"']+:(?P<v>[^\s"']+)"#,
            url_password,
        ),
        (
            "basic auth credentials",
            Needs::any_of(&["authorization"]).with_run(8),
            r#"(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?basic[ \t]+(?P<v>[A-Za-z0-9+/]{8,}={0,2})"#,
            not_placeholder,
        ),
        (
            "a bearer token",
            Needs::any_of(&["bearer"]).with_run(16),
            r"(?i)\bbearer[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)",
            looks_random,
        ),
    ];
    table
        .iter()
        .map(|&(kind, needs, source, accept)| Pattern {
            kind,
            needs,
            source,
            regex: OnceLock::new(),
            accept,
        })
        .collect()
});
