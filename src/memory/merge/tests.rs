//! The merge engine's tests: index unions, topic diff3, tree merges, and a property test.

use std::collections::BTreeSet;

use crate::memory::index::Index;
use crate::memory::topic::TopicFile;

use super::tree::with_frontmatter_name;
use super::*;
use proptest::prelude::*;

const BASE: &str = "# Memory\n\n- [Lint](lint.md) — run lint first\n- [Deploy](deploy.md) — staging from release\n- [Tone](tone.md) — be brief\n";

#[test]
fn index_merge_is_a_union_that_reads_the_same_whichever_side_merges() {
    let ours = format!("{BASE}- [Ours](ours.md) — added here\n");
    let theirs = format!("{BASE}- [Theirs](theirs.md) — added there\n- [Two](two.md) — also\n");
    let merged = merge_index(BASE, &ours, &theirs);
    assert_eq!(
        merged,
        format!(
            "{BASE}- [Ours](ours.md) — added here\n- [Theirs](theirs.md) — added there\n- [Two](two.md) — also\n"
        )
    );
    // The other way round, the same bytes: two clones that merge the same changes agree.
    assert_eq!(merge_index(BASE, &theirs, &ours), merged);
    // An entry added in the middle stays where its side put it, not at the end.
    let middle = BASE.replace(
        "- [Tone]",
        "- [Middle](middle.md) — between deploy and tone\n- [Tone]",
    );
    let merged = merge_index(BASE, &ours, &middle);
    assert_eq!(
        merged,
        format!(
            "{}- [Ours](ours.md) — added here\n",
            BASE.replace(
                "- [Tone]",
                "- [Middle](middle.md) — between deploy and tone\n- [Tone]"
            )
        )
    );
    assert_eq!(merge_index(BASE, &middle, &ours), merged);
}

#[test]
fn index_entry_changed_on_one_side_takes_that_side() {
    let theirs = BASE.replace("be brief", "be brief and kind");
    let ours = BASE.replace("[Lint]", "[Linting]");
    let merged = merge_index(BASE, &ours, &theirs);
    assert_eq!(
        merged,
        BASE.replace("be brief", "be brief and kind")
            .replace("[Lint]", "[Linting]")
    );
    assert_eq!(merge_index(BASE, BASE, &theirs), theirs);
    assert_eq!(merge_index(BASE, &ours, BASE), ours);
}

#[test]
fn index_entry_changed_on_both_sides_keeps_ours() {
    let ours = BASE.replace("be brief", "be terse");
    let theirs = BASE.replace("be brief", "be short");
    assert_eq!(merge_index(BASE, &ours, &theirs), ours);
    // A change to the same text on both sides is no conflict at all.
    assert_eq!(merge_index(BASE, &ours, &ours), ours);
}

#[test]
fn index_deletes_win_over_no_change_and_lose_to_a_change() {
    let without_tone = BASE.replace("- [Tone](tone.md) — be brief\n", "");
    // Deleted on one side, unchanged on the other: deleted, whichever side deleted it.
    assert_eq!(merge_index(BASE, &without_tone, BASE), without_tone);
    assert_eq!(merge_index(BASE, BASE, &without_tone), without_tone);
    // Deleted on one side, changed on the other: kept as changed.
    let changed = BASE.replace("be brief", "be brief, always");
    assert_eq!(
        merge_index(BASE, &without_tone, &changed),
        format!("{without_tone}- [Tone](tone.md) — be brief, always\n")
    );
    assert_eq!(merge_index(BASE, &changed, &without_tone), changed);
    // Deleted on both: gone.
    assert_eq!(
        merge_index(BASE, &without_tone, &without_tone),
        without_tone
    );
}

#[test]
fn index_keeps_ours_order_and_other_lines() {
    let base = "# Memory\n- [A](a.md) — a\n- [B](b.md) — b\n\nFooter note\n";
    let ours = "# Memory\n- [B](b.md) — b\n- [A](a.md) — a\n\nFooter note\n";
    let theirs =
        "# Memory\n## Team\n- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n\nFooter note\n";
    let merged = merge_index(base, ours, theirs);
    // Ours' order of what both have; theirs' heading after the title and C after B, as theirs
    // has them; the footer last.
    assert_eq!(
        merged,
        "# Memory\n## Team\n- [B](b.md) — b\n- [C](c.md) — c\n- [A](a.md) — a\n\nFooter note\n"
    );
    // A note ours removed is not brought back by theirs, which still has it.
    let ours_without_footer = "# Memory\n- [A](a.md) — a\n- [B](b.md) — b\n";
    assert_eq!(
        merge_index(base, ours_without_footer, base),
        ours_without_footer
    );
}

#[test]
fn index_merge_keeps_line_endings_and_a_missing_last_newline() {
    let crlf = "# Memory\r\n- [A](a.md) — a";
    assert_eq!(merge_index(crlf, crlf, crlf), crlf);
    let theirs = "# Memory\r\n- [A](a.md) — a\r\n- [B](b.md) — b\r\n";
    assert_eq!(
        merge_index(crlf, crlf, theirs),
        "# Memory\r\n- [A](a.md) — a\r\n- [B](b.md) — b\r\n"
    );
    assert_eq!(merge_index("", "", "- [A](a.md)\n"), "- [A](a.md)\n");
    assert_eq!(merge_index("", "", ""), "");
}

#[test]
fn index_entries_are_keyed_by_link_not_by_text() {
    let ours = "- [A](./a.md) -- a\n";
    let theirs = "- [A](a.md) — a\n- [B](b.md) — b\n";
    let merged = merge_index("", ours, theirs);
    // Both sides added a.md (written differently): ours' spelling, once.
    assert_eq!(merged, "- [A](./a.md) -- a\n- [B](b.md) — b\n");
}

#[test]
fn index_merge_is_idempotent_on_a_real_index() {
    let real = "# Project memory\n\n- [Lint](lint.md) — run lint first\n* [Old](./old.md) - legacy bullet\n- [Lint again](lint.md) — a duplicate stays\n\nSee also CLAUDE.md.\n";
    assert_eq!(merge_index(real, real, real), real);
    assert_eq!(merge_index("", real, real), real);
}

#[test]
fn topic_merge_combines_edits_to_different_lines() {
    let base = "---\nname: lint\ndescription: run lint\ntype: feedback\n---\nRun lint.\n\n**Why:** CI broke.\n";
    let ours = base.replace("description: run lint", "description: run lint first");
    let theirs = base.replace("**Why:** CI broke.", "**Why:** CI broke for a day.");
    let TopicMerge::Clean(merged) = merge_topic(Some(base), &ours, &theirs) else {
        panic!("non-overlapping edits conflict");
    };
    assert_eq!(
        merged,
        "---\nname: lint\ndescription: run lint first\ntype: feedback\n---\nRun lint.\n\n**Why:** CI broke for a day.\n"
    );
    // Additions at both ends.
    let ours = format!("Intro.\n{base}");
    let theirs = format!("{base}Outro.\n");
    assert_eq!(
        merge_topic(Some(base), &ours, &theirs),
        TopicMerge::Clean(format!("Intro.\n{base}Outro.\n"))
    );
    // One side unchanged: the other side, exactly.
    assert_eq!(
        merge_topic(Some(base), base, &theirs),
        TopicMerge::Clean(theirs.clone())
    );
    // The same change on both sides.
    assert_eq!(
        merge_topic(Some(base), &theirs, &theirs),
        TopicMerge::Clean(theirs)
    );
}

#[test]
fn topic_merge_conflicts_on_the_same_lines() {
    let base = "a\nb\nc\nd\n";
    assert_eq!(
        merge_topic(Some(base), "a\nB\nc\nd\n", "a\nb2\nc\nd\n"),
        TopicMerge::Conflict
    );
    // Different lines inserted at the same place.
    assert_eq!(
        merge_topic(Some(base), "a\nx\nb\nc\nd\n", "a\ny\nb\nc\nd\n"),
        TopicMerge::Conflict
    );
    // A deletion against an edit of the same line.
    assert_eq!(
        merge_topic(Some(base), "a\nc\nd\n", "a\nB\nc\nd\n"),
        TopicMerge::Conflict
    );
    // Added on both sides with different text (no base).
    assert_eq!(merge_topic(None, "one\n", "two\n"), TopicMerge::Conflict);
    assert_eq!(
        merge_topic(None, "same\n", "same\n"),
        TopicMerge::Clean("same\n".into())
    );
    // Neighbouring lines are no conflict.
    assert_eq!(
        merge_topic(Some(base), "a\nB\nc\nd\n", "a\nb\nC\nd\n"),
        TopicMerge::Clean("a\nB\nC\nd\n".into())
    );
}

#[test]
fn conflict_copy_gets_its_own_name() {
    let text = "---\nname: lint\ndescription: d\ntype: feedback\n---\nbody\n";
    let copy = with_frontmatter_name(text, "lint.conflict-abc1234");
    assert_eq!(
        copy,
        "---\nname: lint.conflict-abc1234\ndescription: d\ntype: feedback\n---\nbody\n"
    );
    let parsed = TopicFile::parse(&copy).expect("parses");
    assert_eq!(parsed.name.as_deref(), Some("lint.conflict-abc1234"));
    assert_eq!(
        with_frontmatter_name("---\ntype: user\n---\nx\n", "n"),
        "---\nname: n\ntype: user\n---\nx\n"
    );
    assert_eq!(with_frontmatter_name("x\n", "n"), "---\nname: n\n---\nx\n");
}

/// An index of entries drawn from a small set of links, with titles, hooks and other lines.
fn index_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        4 => ("[a-f]", "[A-Z][a-z]{0,6}", "[a-z ]{0,12}")
            .prop_map(|(f, t, h)| format!("- [{t}]({f}.md) — {h}")),
        1 => "(# [A-Z][a-z]{0,5}|[A-Z][a-z ]{0,10}|)",
    ];
    prop::collection::vec(line, 0..10).prop_map(|lines| {
        let mut text = lines.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text
    })
}

fn keys(text: &str) -> BTreeSet<String> {
    Index::parse(text)
        .entries()
        .map(|(_, e)| e.file_name().to_string())
        .collect()
}

proptest! {
    #[test]
    fn index_merge_never_drops_an_entry_both_sides_have(
        base in index_text(),
        ours in index_text(),
        theirs in index_text(),
    ) {
        let merged = merge_index(&base, &ours, &theirs);
        let merged_keys = keys(&merged);
        for key in keys(&ours).intersection(&keys(&theirs)) {
            prop_assert!(merged_keys.contains(key), "{key} lost:\n{merged}");
        }
        // Nothing appears that neither side has.
        let either: BTreeSet<String> = keys(&ours).union(&keys(&theirs)).cloned().collect();
        prop_assert!(merged_keys.is_subset(&either));
        // Ours' lines keep their order; entries are never listed twice unless ours did.
        prop_assert_eq!(merge_index(&base, &ours, &theirs), merged.clone());
        prop_assert_eq!(merge_index(&merged, &merged, &merged), merged);
    }

    /// Two sides that each added entries anywhere to the same index merge to the same bytes,
    /// whichever side merges: the base's lines in the base's order, and each side's additions
    /// in its own order, next to the line they follow there.
    #[test]
    fn index_merges_of_additions_agree_whichever_side_merges(
        base_keys in prop::collection::btree_set("[a-h]", 0..6),
        ours_adds in prop::collection::vec((0usize..8, "[o-r][a-z]?"), 0..4),
        theirs_adds in prop::collection::vec((0usize..8, "[s-v][a-z]?"), 0..4),
    ) {
        let base_lines: Vec<String> = base_keys
            .iter()
            .map(|k| format!("- [{k}]({k}.md) — base {k}"))
            .collect();
        let side = |adds: &[(usize, String)]| {
            let mut lines = base_lines.clone();
            let mut seen = BTreeSet::new();
            for (at, key) in adds {
                if seen.insert(key.clone()) {
                    let at = (*at).min(lines.len());
                    lines.insert(at, format!("- [{key}]({key}.md) — added {key}"));
                }
            }
            lines.iter().map(|l| format!("{l}\n")).collect::<String>()
        };
        let base: String = base_lines.iter().map(|l| format!("{l}\n")).collect();
        let (ours, theirs) = (side(&ours_adds), side(&theirs_adds));
        let merged = merge_index(&base, &ours, &theirs);
        prop_assert_eq!(&merge_index(&base, &theirs, &ours), &merged);
        let position = |text: &str, line: &str| text.lines().position(|l| l == line);
        for side in [&ours, &theirs] {
            let lines: Vec<&str> = side.lines().collect();
            for pair in lines.windows(2) {
                prop_assert!(
                    position(&merged, pair[0]) < position(&merged, pair[1]),
                    "{:?} before {:?} in {}, not in {}", pair[0], pair[1], side, merged
                );
            }
        }
    }

    #[test]
    fn index_merge_of_identical_sides_is_identity(text in "\\PC{0,200}", lines in index_text()) {
        prop_assert_eq!(merge_index(&text, &text, &text), text.clone());
        prop_assert_eq!(merge_index("", &lines, &lines), lines.clone());
        prop_assert_eq!(merge_index(&text, &lines, &lines), lines);
    }

    #[test]
    fn index_merge_with_one_side_unchanged_keeps_every_entry_of_the_other(
        base in index_text(),
        theirs in index_text(),
    ) {
        let merged = merge_index(&base, &base, &theirs);
        prop_assert_eq!(keys(&merged), keys(&theirs));
    }

    #[test]
    fn clean_topic_merges_apply_both_sides(
        base in prop::collection::vec("[a-c]{1,2}", 0..12),
        ours_edit in (0usize..12, "[x-z]{1,2}"),
        theirs_edit in (0usize..12, "[x-z]{1,2}"),
    ) {
        let text = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        let edit = |(at, new): &(usize, String)| {
            let mut lines = base.clone();
            if *at < lines.len() { lines[*at] = new.clone(); }
            lines
        };
        let (o, t) = (edit(&ours_edit), edit(&theirs_edit));
        let outcome = merge_topic(Some(&text(&base)), &text(&o), &text(&t));
        if let TopicMerge::Clean(merged) = &outcome {
            // Both sides' edited lines are in the result.
            for (at, new) in [&ours_edit, &theirs_edit] {
                if *at < base.len() && base[*at] != *new {
                    prop_assert!(merged.lines().any(|l| l == new), "{new} missing from {merged:?}");
                }
            }
        }
        if ours_edit.0.abs_diff(theirs_edit.0) >= 2 {
            prop_assert!(matches!(outcome, TopicMerge::Clean(_)));
        }
    }
}
