//! Load-time truncation of the `MEMORY.md` index: what Claude Code actually puts in the model's
//! context for a given index text, and how big it measures the index to be (DESIGN §3).
//!
//! This module owns the exact port of Claude Code's truncation: trim; keep at most
//! [`MAX_INDEX_LINES`] lines; then at most [`MAX_INDEX_UNITS`] UTF-16 code units, cut at the last
//! newline at or before that unit; then append a warning that says what was too big and where
//! loading stopped. The reference is `fixtures/truncate/truncate.js` (copied from the project's
//! shared cc-oracle), checked against Claude Code 2.1.332; `fixtures/truncate/*.expected` are its
//! outputs and the tests below require ours to be identical, character for character.
//!
//! Claude Code works on JavaScript strings, so every length, index and cap here is in UTF-16 code
//! units, and "whitespace" is JavaScript's (`String.prototype.trim` / regex `\s`), not Rust's.
//! A cut at unit 25,000 may split a surrogate pair; Node then writes the lone surrogate as U+FFFD,
//! and so do we.

/// Claude Code keeps at most this many lines of `MEMORY.md`.
pub const MAX_INDEX_LINES: usize = 200;
/// Claude Code keeps at most this many UTF-16 code units of `MEMORY.md`.
pub const MAX_INDEX_UNITS: usize = 25_000;

/// Length of the quote of the first dropped line in the warning, in UTF-16 units (with the `…`).
const QUOTE_UNITS: usize = 80;

use crate::js;
use crate::memory::index::IndexLine;

const NEWLINE: u16 = b'\n' as u16;

/// Line count and UTF-16 size of the trimmed index, as Claude Code measures them (for write-time
/// warnings at 80 % of either cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexSize {
    /// Newlines in the trimmed text plus one (so an empty index counts as 1 line, as in Claude
    /// Code).
    pub lines: usize,
    /// Length of the trimmed text in UTF-16 code units.
    pub units: usize,
}

/// Line count and UTF-16 size of the trimmed index, as Claude Code measures them (for write-time
/// warnings at 80 % of either cap).
#[must_use]
pub fn measure_index(index: &str) -> IndexSize {
    let text = js::trim(index);
    IndexSize {
        lines: text.bytes().filter(|&b| b == b'\n').count() + 1,
        units: text.encode_utf16().count(),
    }
}

/// What Claude Code shows the model for this MEMORY.md text.
#[must_use]
pub fn load_index_for_context(index: &str) -> String {
    let trimmed = js::trim(index);
    let size = measure_index(trimmed);
    let too_many_lines = size.lines > MAX_INDEX_LINES;
    let too_large = size.units > MAX_INDEX_UNITS;
    if !too_many_lines && !too_large {
        return trimmed.to_owned();
    }

    let text: Vec<u16> = trimmed.encode_utf16().collect();

    let kept_len = kept_units(&text, too_many_lines);
    let kept = &text[..kept_len];

    let kept_lines = if text.get(kept_len) == Some(&NEWLINE) {
        count_newlines(kept) + 1
    } else {
        0
    };
    let which = if kept_lines == 0 {
        format!("everything after the first {kept_len} characters of line 1 was cut off")
    } else {
        let rest = text.get(kept_len + 1..).unwrap_or(&[]);
        let line = match rest.iter().position(|&u| u == NEWLINE) {
            Some(end) => &rest[..end],
            None => rest,
        };
        let first_dropped = js::trim_units(line);
        let mut which = format!(
            "{} of {} lines were cut off, starting at line {}",
            size.lines - kept_lines,
            size.lines,
            kept_lines + 1
        );
        if !first_dropped.is_empty() {
            which.push_str(" (\"");
            which.push_str(&String::from_utf16_lossy(&shorten(
                first_dropped,
                QUOTE_UNITS,
            )));
            which.push_str("\")");
        }
        which
    };
    let what = match (too_many_lines, too_large) {
        (false, _) => format!(
            "{} (limit: {}) \u{2014} index entries are too long",
            format_size(size.units),
            format_size(MAX_INDEX_UNITS)
        ),
        (true, false) => format!("{} lines (limit: {MAX_INDEX_LINES})", size.lines),
        (true, true) => format!("{} lines and {}", size.lines, format_size(size.units)),
    };

    // Node writes a lone surrogate (a pair split by the cut) as U+FFFD; so does the lossy decode.
    let mut out = String::from_utf16_lossy(kept);
    out.push_str("\n\n> WARNING: MEMORY.md is ");
    out.push_str(&what);
    out.push_str(". Only part of it was loaded: ");
    out.push_str(&which);
    out.push_str(
        ". Keep index entries to one line under ~200 chars; move detail into topic files.",
    );
    out
}

/// How many UTF-16 units of the trimmed index Claude Code keeps.
fn kept_units(text: &[u16], too_many_lines: bool) -> usize {
    // `text.split("\n").slice(0, 200).join("\n")`: everything before the 200th newline.
    let mut kept_len = if too_many_lines {
        text.iter()
            .enumerate()
            .filter(|&(_, &u)| u == NEWLINE)
            .nth(MAX_INDEX_LINES - 1)
            .map_or(text.len(), |(i, _)| i)
    } else {
        text.len()
    };
    if kept_len > MAX_INDEX_UNITS {
        // `kept.lastIndexOf("\n", 25000)` looks at unit 25,000 itself too; a miss (or a hit at 0)
        // cuts at exactly 25,000 units, even inside a surrogate pair.
        let nl = text[..=MAX_INDEX_UNITS].iter().rposition(|&u| u == NEWLINE);
        kept_len = match nl {
            Some(i) if i > 0 => i,
            _ => MAX_INDEX_UNITS,
        };
    }
    kept_len
}

/// The index entries Claude Code does not load in full: those on lines past the kept part, parsed
/// as they are read (a store of thousands has most of them here).
pub fn invisible_entries(index: &str) -> impl Iterator<Item = IndexLine> + '_ {
    let trimmed = js::trim(index);
    let size = measure_index(trimmed);
    let whole_lines = if size.lines <= MAX_INDEX_LINES && size.units <= MAX_INDEX_UNITS {
        size.lines
    } else {
        // The cut falls within the first MAX_INDEX_UNITS + 1 units; none past them matter.
        let text: Vec<u16> = trimmed.encode_utf16().take(MAX_INDEX_UNITS + 1).collect();
        let kept_len = kept_units(&text, size.lines > MAX_INDEX_LINES);
        count_newlines(&text[..kept_len])
            + usize::from(text.get(kept_len).is_none_or(|&u| u == NEWLINE))
    };
    trimmed
        .split('\n')
        .skip(whole_lines)
        .filter_map(IndexLine::parse)
}

fn count_newlines(s: &[u16]) -> usize {
    s.iter().filter(|&&u| u == NEWLINE).count()
}

/// The first `n` units of `s`, minus a trailing high surrogate (never splits a pair).
fn cut_units(s: &[u16], n: usize) -> &[u16] {
    if s.len() <= n {
        return s;
    }
    let head = &s[..n];
    match head.last() {
        Some(&u) if (0xD800..=0xDBFF).contains(&u) => &head[..n - 1],
        _ => head,
    }
}

/// Quote of the first dropped line: at most `max - 1` units, cut at the last whitespace if that
/// keeps more than half of `max`, then `…`.
/// Claude Code's quote shortening on text: at most `max` UTF-16 units, cut at a word when that
/// keeps more than half, with `…`.
pub fn shorten_str(s: &str, max: usize) -> String {
    let units: Vec<u16> = s.encode_utf16().collect();
    String::from_utf16_lossy(&shorten(&units, max))
}

fn shorten(s: &[u16], max: usize) -> Vec<u16> {
    if s.len() <= max {
        return s.to_vec();
    }
    let head = cut_units(s, max.saturating_sub(1));
    // `head.search(/\s\S*$/)` is the position of the last whitespace unit.
    let at_word = match head.iter().rposition(|&u| js::is_whitespace_unit(u)) {
        Some(i) => js::trim_end_units(&head[..i]),
        None => &[],
    };
    // `atWord.length > max / 2` with JS (floating-point) division.
    let mut out = if at_word.len() * 2 > max {
        at_word.to_vec()
    } else {
        js::trim_end_units(head).to_vec()
    };
    out.push(0x2026);
    out
}

/// `formatSize`: "N bytes" below 1 KB, else KB/MB/GB with JS `toFixed(1)` and a trailing ".0"
/// dropped. `toFixed` rounds the exact value of the double half up; `units / 1024^k` is exact
/// here, so the rounding is done in integers.
fn format_size(units: usize) -> String {
    const KB: u128 = 1024;
    let u = units as u128;
    if u < KB {
        return format!("{units} bytes");
    }
    let (div, suffix) = if u < KB * KB {
        (KB, "KB")
    } else if u < KB * KB * KB {
        (KB * KB, "MB")
    } else {
        (KB * KB * KB, "GB")
    };
    let tenths = (u * 10 + div / 2) / div;
    match tenths % 10 {
        0 => format!("{}{suffix}", tenths / 10),
        d => format!("{}.{d}{suffix}", tenths / 10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::path::Path;

    #[test]
    fn matches_claude_code_on_every_fixture() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/truncate");
        let mut cases = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("fixtures/truncate exists") {
            let path = entry.expect("readable directory entry").path();
            if path.extension().is_some_and(|e| e == "md") {
                cases.push(path);
            }
        }
        cases.sort();
        let mut failures = Vec::new();
        for input_path in &cases {
            let name = input_path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let input = std::fs::read_to_string(input_path)
                .unwrap_or_else(|e| panic!("case {name}: reading input: {e}"));
            let expected = std::fs::read_to_string(input_path.with_extension("expected"))
                .unwrap_or_else(|e| panic!("case {name}: reading {name}.expected: {e}"));
            let got = load_index_for_context(&input);
            if got != expected {
                let at = got
                    .chars()
                    .zip(expected.chars())
                    .take_while(|(a, b)| a == b)
                    .count();
                let around = |s: &str| {
                    s.chars()
                        .skip(at.saturating_sub(40))
                        .take(120)
                        .collect::<String>()
                };
                failures.push(format!(
                    "case {name}: first difference at char {at} (got {} chars, expected {})\n  got:      {:?}\n  expected: {:?}",
                    got.chars().count(),
                    expected.chars().count(),
                    around(&got),
                    around(&expected),
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(
            cases.len() >= 20,
            "only {} cases in {}; run fixtures/truncate/generate.sh",
            cases.len(),
            dir.display()
        );
    }

    #[test]
    fn format_size_matches_js() {
        // Values printed by the formatSize of truncate.js under Node 20 (1.25 and 25.25 are exact
        // ties, which toFixed rounds up).
        for (units, js) in [
            (1023, "1023 bytes"),
            (1024, "1KB"),
            (25_000, "24.4KB"),
            (25_036, "24.4KB"),
            (25_037, "24.5KB"),
            (25_600, "25KB"),
            (25_650, "25KB"),
            (25_651, "25KB"),
            (25_652, "25.1KB"),
            (1_280, "1.3KB"),
            (25_856, "25.3KB"),
            (1_048_524, "1023.9KB"),
            (1_048_525, "1024KB"),
            (1_048_576, "1MB"),
            (1_153_434, "1.1MB"),
            (1_073_741_824, "1GB"),
            (1_127_428_915, "1GB"),
            (1_127_428_916, "1.1GB"),
        ] {
            assert_eq!(format_size(units), js, "formatSize({units})");
        }
    }

    #[test]
    fn measures_like_claude_code() {
        assert_eq!(measure_index(""), IndexSize { lines: 1, units: 0 });
        assert_eq!(
            measure_index("\u{feff} a\nb😀 \u{3000}\n"),
            IndexSize { lines: 2, units: 5 }
        );
        // U+0085 is whitespace to Rust but not to JavaScript.
        assert_eq!(measure_index("\u{85}x"), IndexSize { lines: 1, units: 2 });
    }

    const TOKENS: &[&str] = &[
        "a", "word ", "é", "中文", "😀", " ", "\u{a0}", "\u{3000}", "\r", "\t",
    ];

    fn line() -> impl Strategy<Value = String> {
        (0..TOKENS.len(), 0usize..400, 0..TOKENS.len(), 0usize..40).prop_map(|(a, n, b, m)| {
            let mut s = TOKENS[a].repeat(n);
            s.push_str(&TOKENS[b].repeat(m));
            s
        })
    }

    proptest! {
        #[test]
        fn output_is_a_capped_prefix_plus_warning(lines in prop::collection::vec(line(), 0..320)) {
            let input = lines.join("\n");
            let trimmed = js::trim(&input);
            let out = load_index_for_context(&input);
            match out.rfind("\n\n> WARNING: MEMORY.md is ") {
                None => prop_assert_eq!(out.as_str(), trimmed),
                Some(at) => {
                    let (kept, warning) = out.split_at(at);
                    let kept_units: Vec<u16> = kept.encode_utf16().collect();
                    prop_assert!(kept_units.len() <= MAX_INDEX_UNITS);
                    prop_assert!(out.encode_utf16().count() <= MAX_INDEX_UNITS + warning.encode_utf16().count());
                    prop_assert!(kept.matches('\n').count() < MAX_INDEX_LINES);
                    // A pair split at unit 25,000 shows as U+FFFD; compare units before it.
                    let input_units: Vec<u16> = trimmed.encode_utf16().collect();
                    let exact = match kept.strip_suffix('\u{fffd}') {
                        Some(head) => {
                            let n = head.encode_utf16().count();
                            prop_assert_eq!(n + 1, MAX_INDEX_UNITS);
                            prop_assert!((0xD800..=0xDBFF).contains(&input_units[n]));
                            n
                        }
                        None => kept_units.len(),
                    };
                    prop_assert!(input_units.len() > kept_units.len());
                    prop_assert_eq!(&kept_units[..exact], &input_units[..exact]);
                }
            }
        }

        /// The entries `invisible_entries` names are exactly those on lines the loaded text does
        /// not hold whole (it reads only as far as the cut; the loaded text is built from all).
        #[test]
        fn invisible_entries_are_the_lines_not_loaded_whole(
            hooks in prop::collection::vec(line(), 0..320)
        ) {
            let input: String = hooks
                .iter()
                .enumerate()
                .map(|(i, hook)| format!("- [M {i}](m-{i}.md) \u{2014} {hook}\n"))
                .collect();
            let trimmed = js::trim(&input);
            let out = load_index_for_context(&input);
            let whole = match out.rfind("\n\n> WARNING: MEMORY.md is ") {
                None => trimmed.split('\n').count(),
                Some(at) => {
                    let kept = &out[..at];
                    let rest = kept
                        .strip_suffix('\u{fffd}')
                        .map_or(&trimmed[kept.len()..], |_| "x");
                    kept.matches('\n').count() + usize::from(rest.is_empty() || rest.starts_with('\n'))
                }
            };
            let want: Vec<IndexLine> = trimmed.split('\n').skip(whole).filter_map(IndexLine::parse).collect();
            prop_assert_eq!(invisible_entries(&input).collect::<Vec<_>>(), want);
        }

        /// Claude Code's load-time truncation never panics on any text (lone surrogates aside,
        /// which a Rust string cannot hold), whatever its lines or sizes.
        #[test]
        fn any_text_loads(text in "\\PC{0,400}", repeat in 0usize..300) {
            let text = text.repeat(repeat.max(1));
            let loaded = load_index_for_context(&text);
            prop_assert!(loaded.len() <= text.len() + 400);
            let _ = invisible_entries(&text).count();
        }
    }
}
