//! The secret scanner against its fixture (`fixtures/secrets/`, DESIGN §8 and §10): every true
//! positive found with its kind, no look-alike reported, and no finding showing its secret.

use std::path::Path;

/// One case of a fixture file: its `=== …` header (after the marker) and its text.
struct Case {
    header: String,
    text: String,
}

/// Cases are `=== header` lines, each followed by its text up to the next header; lines before
/// the first header are the file's comments.
fn cases(file: &str) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/secrets")
        .join(file);
    let content = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let mut cases: Vec<Case> = Vec::new();
    for line in content.lines() {
        if let Some(header) = line.strip_prefix("=== ") {
            cases.push(Case {
                header: header.to_string(),
                text: String::new(),
            });
        } else if let Some(case) = cases.last_mut() {
            case.text.push_str(line);
            case.text.push('\n');
        }
    }
    for case in &mut cases {
        case.text.truncate(case.text.trim_end().len());
        assert!(
            !case.text.is_empty(),
            "{file}: empty case {:?}",
            case.header
        );
    }
    cases
}

#[test]
fn every_true_positive_is_found_with_its_kind() {
    let positives = cases("positives.txt");
    let mut misses = Vec::new();
    let mut kinds: Vec<&str> = Vec::new();
    for case in &positives {
        let (kind, what) = case
            .header
            .split_once(" | ")
            .unwrap_or_else(|| panic!("positive without a kind: {:?}", case.header));
        let findings = memdir::secrets::scan(&case.text);
        if !findings.iter().any(|f| f.kind == kind) {
            misses.push(format!("{kind} | {what}: found {findings:?}"));
        }
        if memdir::secrets::find(&case.text).is_none() {
            misses.push(format!("{kind} | {what}: find() says no secret"));
        }
        for f in &findings {
            assert!(
                f.excerpt.chars().count() <= 82,
                "{what}: excerpt {:?} is too long",
                f.excerpt
            );
        }
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    println!(
        "secrets: {} of {} true positives found, {} kinds",
        positives.len() - misses.len(),
        positives.len(),
        kinds.len()
    );
    for miss in &misses {
        println!("  missed: {miss}");
    }
    assert!(positives.len() >= 45, "too few positives");
    assert!(misses.is_empty(), "{} missed", misses.len());
}

#[test]
fn no_look_alike_is_reported() {
    let negatives = cases("negatives.txt");
    let mut hits = Vec::new();
    for case in &negatives {
        let findings = memdir::secrets::scan(&case.text);
        if !findings.is_empty() {
            hits.push(format!("{}: {findings:?}", case.header));
        } else if let Some(kind) = memdir::secrets::find(&case.text) {
            hits.push(format!("{}: find() says {kind}", case.header));
        }
    }
    println!(
        "secrets: {} of {} look-alikes reported",
        hits.len(),
        negatives.len()
    );
    for hit in &hits {
        println!("  false positive: {hit}");
    }
    assert!(negatives.len() >= 45, "too few look-alikes");
    assert!(hits.is_empty(), "{} false positives", hits.len());
}

#[test]
fn no_finding_shows_the_secret_it_found() {
    // Every token-shaped word of a positive's line (16+ characters, letters and digits) is either
    // masked or not the secret: the excerpt never holds one of them in full.
    for case in cases("positives.txt") {
        for f in memdir::secrets::scan(&case.text) {
            let line = case.text.lines().nth(f.line - 1).unwrap_or_default();
            for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || "+/_-".contains(c))) {
                let secret_like = word.len() >= 24
                    && word.chars().any(|c| c.is_ascii_digit())
                    && word.chars().any(|c| c.is_ascii_alphabetic())
                    && memdir::secrets::find(word).is_some();
                assert!(
                    !(secret_like && f.excerpt.contains(word)),
                    "{}: excerpt {:?} shows {word}",
                    case.header,
                    f.excerpt
                );
            }
        }
    }
}
