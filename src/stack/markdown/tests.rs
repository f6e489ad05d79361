//! The markdown pass against the recorded cases of `fixtures/markdown/`, and inputs that must
//! never make it panic.

use super::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn fixture_cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("markdown");
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    let mut cases: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "md")
                && p.file_name().is_some_and(|n| n != "README.md")
        })
        .collect();
    cases.sort();
    cases
}

/// Every `fixtures/markdown/<case>.md` against its `<case>.json`, as Claude Code 2.1.332
/// computes them.
#[test]
fn fixtures_match_claude_code() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for md in fixture_cases() {
        let name = md
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let input = std::fs::read_to_string(&md).unwrap_or_else(|e| panic!("{name}: {e}"));
        let json_path = md.with_extension("json");
        let json = std::fs::read_to_string(&json_path)
            .unwrap_or_else(|e| panic!("{name}: {}: {e}", json_path.display()));
        let want: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: bad json: {e}"));
        let want_stripped = want["stripped"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: no \"stripped\""));
        let want_imports: Vec<&str> = want["imports"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no \"imports\""))
            .iter()
            .map(|v| {
                v.as_str()
                    .unwrap_or_else(|| panic!("{name}: an import is not a string"))
            })
            .collect();
        let stripped = strip_block_comments(&input);
        if stripped != want_stripped {
            failures.push(format!(
                "{name}: stripped\n  want {want_stripped:?}\n  got  {stripped:?}"
            ));
        }
        let imports = import_candidates(&input);
        if imports != want_imports {
            failures.push(format!(
                "{name}: imports\n  want {want_imports:?}\n  got  {imports:?}"
            ));
        }
        ran += 1;
    }
    assert!(
        failures.is_empty(),
        "{} fixture mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        ran >= 80,
        "only {ran} markdown fixture cases ran (expected at least 80)"
    );
}

#[test]
fn unchanged_text_is_borrowed() {
    let text = "# Title\n\n@a.md\n";
    assert!(matches!(strip_block_comments(text), Cow::Borrowed(t) if std::ptr::eq(t, text)));
    // a comment that is not a block of its own stays, and so does the original text
    let inline = "text <!-- c --> more\r\n";
    assert!(matches!(strip_block_comments(inline), Cow::Borrowed(t) if t == inline));
}

#[test]
fn strips_and_normalizes_line_endings() {
    assert_eq!(strip_block_comments("<!-- x -->\r\na\r\nb"), "a\nb");
    assert_eq!(strip_block_comments("<!-- x --> kept\n"), " kept\n");
}

#[test]
fn imports_basic_shapes() {
    let got = import_candidates(
        "@a.md @./b.md @~/c.md @/d.md @/ @#e @f.md#g `@h.md` \\@i.md @my\\ file.md\n",
    );
    assert_eq!(
        got,
        ["a.md", "./b.md", "~/c.md", "/d.md", "f.md", "my file.md"]
    );
}

#[test]
fn deep_nesting_is_safe() {
    for unit in ["> ", "- ", "1. ", "* ", "  - ", "> - "] {
        let deep = format!("{}@x.md\n", unit.repeat(5000));
        let _ = strip_block_comments(&deep);
        let _ = import_candidates(&deep);
    }
    for unit in [
        "*", "**", "_", "[", "[a](", "<", "`", "\\", "<!--", "*a ", "_a ", "[x]", "![", "<a ",
    ] {
        let long = format!("@a.md {} @b.md\n", unit.repeat(20_000));
        let _ = strip_block_comments(&long);
        let _ = import_candidates(&long);
    }
    let nested_em = format!("{}@x.md{}\n", "*a ".repeat(3000), " a*".repeat(3000));
    let _ = import_candidates(&nested_em);
}

fn markdownish() -> impl Strategy<Value = String> {
    let frag = prop_oneof![
        Just("@a.md"),
        Just(" @./x"),
        Just("@~/y"),
        Just("@/"),
        Just("<!--"),
        Just("-->"),
        Just("<!-- c -->"),
        Just("<div>"),
        Just("</div>"),
        Just("<pre>"),
        Just("\n"),
        Just("\n\n"),
        Just("\r\n"),
        Just("\r"),
        Just(" "),
        Just("  "),
        Just("\t"),
        Just("    "),
        Just("- "),
        Just("* "),
        Just("1. "),
        Just("> "),
        Just("# "),
        Just("```"),
        Just("~~~"),
        Just("`"),
        Just("**"),
        Just("*"),
        Just("_"),
        Just("\\"),
        Just("["),
        Just("]"),
        Just("("),
        Just(")"),
        Just("!["),
        Just("text"),
        Just("---"),
        Just("==="),
        Just("<"),
        Just(">"),
        Just("\u{a0}"),
        Just("\u{2028}"),
        Just("é"),
        Just("😀"),
        Just("[r]: /u\n"),
        Just("[r]"),
        Just("<?"),
        Just("?>"),
        Just("<a@b.cd>"),
        Just("<x:y>"),
        Just("#"),
        Just("@"),
        Just("\""),
        Just("'"),
    ];
    prop::collection::vec(frag, 0..48).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn markdownish_input_never_panics(s in markdownish()) {
        let stripped = strip_block_comments(&s);
        if !s.contains("<!--") {
            prop_assert!(matches!(stripped, Cow::Borrowed(t) if t == s));
        }
        let _ = import_candidates(&s);
    }

    #[test]
    fn any_input_never_panics(s in "\\PC{0,200}|[ -~\\n\\t\\r]{0,300}") {
        let stripped = strip_block_comments(&s);
        if !s.contains("<!--") {
            prop_assert!(matches!(stripped, Cow::Borrowed(t) if t == s));
        }
        let _ = import_candidates(&s);
    }
}
