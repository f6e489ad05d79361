//! The scanner's tests: kinds, look-alikes, masking, the fixture of true positives.

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
        "测试环境 broker 账号 dev-admin，密码 Emqx#Dev2026!q，你自己连上去看下",
        "heres my key for the .env, dont commit it obviously: 3f9c1e7ab2d84c60e5f7a9b1c3d2e4f5a6b7c8d9",
        "the staging token, for now: Zq8vLr2mXw7Kp4Nt9Bs6",
        "the key we talked about last week, for the billing service and also the old dashboards, token here: Zq8vLr2mXw7Kp4Nt9Bs6",
        "login is svc_readonly / Rb7#qLm2!vTz9w if it asks",
        "creds: admin/Hunter22x",
        "测试账号 dev-admin / Emqx#2026q 先用着",
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
        "the key point for the reviewers: keep_it_simple_and_fast_2026",
        "token budget for this run: 4096 tokens",
        "login is handled by src/auth/session.ts",
        "the login page is at /account/login/redirect",
        "credentials are in 1Password / Engineering",
        "密码 至少 12 位",
        "password rotation is tracked in JIRA: SEC-1234",
        "my api key lives in the vault: vault://kv/team/openai",
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

    let pem =
        "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n";
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
    let positives = include_str!("../../fixtures/secrets/positives.txt");
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

/// The prefilter changes what runs, never what is found: on every text the fixtures hold (the
/// positives, the look-alikes, the labelled sessions), every pattern run over the whole text
/// finds the same as the prefiltered scan.
#[test]
fn the_prefilter_never_keeps_out_a_secret() {
    use super::NEEDLES;
    use super::prefilter::Present;
    fn read_all(dir: &std::path::Path, texts: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                read_all(&path, texts);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                texts.extend(text.split("\n===").map(str::to_owned));
            }
        }
    }
    let mut texts: Vec<String> = Vec::new();
    for dir in [
        "fixtures/secrets",
        "fixtures/extraction",
        "fixtures/transcripts",
    ] {
        read_all(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir),
            &mut texts,
        );
    }
    assert!(texts.len() > 300, "only {} texts", texts.len());
    let mut secrets = 0;
    let mut needles_found = 0;
    for text in &texts {
        // Short texts are searched needle by needle, long ones read by the automaton: both
        // find the same needles, in any case.
        for text in [text.clone(), text.to_uppercase(), swap_case(text)] {
            let searched = Present::searched(&text, &NEEDLES);
            assert_eq!(searched, Present::automaton_read(&text, &NEEDLES), "{text}");
            needles_found += searched.iter().filter(|&&found| found).count();
        }
        let filtered = scan(text);
        assert_eq!(
            super::findings(text, &Present::everything(&NEEDLES)),
            filtered,
            "{text}"
        );
        secrets += filtered.len();
    }
    assert!(secrets > 100, "only {secrets} secrets in the fixtures");
    assert!(needles_found > 1000, "only {needles_found} needles found");
}

/// `text` with the case of every other ASCII letter swapped.
fn swap_case(text: &str) -> String {
    text.chars()
        .enumerate()
        .map(|(i, c)| match i % 2 {
            0 if c.is_ascii_lowercase() => c.to_ascii_uppercase(),
            0 if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
            _ => c,
        })
        .collect()
}
