//! Tag-opener neutralisation applied to the auto-memory index.
//!
//! Before Claude Code 2.1.332 puts the auto-memory index (`MEMORY.md`) into
//! the model's context it "neutralises" every opener that starts one of the
//! tags the harness itself uses, so that the file cannot fake a
//! `<system-reminder>`, a `<channel source="…">` message, an `antml:` tag and
//! so on. This module reproduces that step for the memory index before it is
//! put on the stack. Claude Code first normalises line endings and drops
//! control and invisible characters from the index, then neutralises it,
//! then trims it; this module is only the middle step. The behaviour was
//! checked against Claude Code 2.1.332, by running its own neutraliser on
//! more than a million generated inputs and by comparing with a recorded
//! session.
//!
//! The rule, as it behaves:
//!
//! * An *opener* is `<` or one of 29 look-alikes (`‹`, `〈`, `＜`, `﹤`, `≪`,
//!   `❮`, `⟨`, …, see [`OPENERS`]). The *closers* are `>` and its 19
//!   look-alikes ([`CLOSERS`]).
//! * An opener is neutralised when the character right after it is not `\`,
//!   and after any run of *filler* (every character except ASCII letters and
//!   digits, `_`, `-`, `ſ`, `K` (Kelvin sign), openers and closers; so `/`,
//!   `!`, spaces and line breaks included) one of the protected tag names
//!   follows:
//!   * the 34 names in [`PLAIN_TAGS`], which must be followed by a
//!     character that cannot continue a name (or by the end of the text), so
//!     `<tick>` is neutralised but `<ticket>` is not;
//!   * `channel`, but only when a `source=` attribute follows within 120
//!     characters and before any closer (`<channel source="s">` yes,
//!     `</channel>` and `<channel>` no);
//!   * `antml` followed by `:` or a colon look-alike such as `：` (the
//!     namespace prefix of the model's own tags).
//! * Names match case-insensitively; `-` and `_` stand for each other;
//!   invisible characters (format characters, most combining marks, C0/C1
//!   controls other than tab, line feed and carriage return, …) may sit
//!   between the letters; and letters can be written with look-alikes
//!   (Cyrillic, Greek, full-width, mathematical alphanumerics, accented
//!   letters, ligatures, …). The text is compared through a "reading" in
//!   which each such character is replaced by a private-use code standing
//!   for the Latin letter(s) it resembles (see [`Reading`]).
//! * The opener, whatever look-alike it was, is replaced by the two
//!   characters `<\`; nothing else changes. Closing tags are caught by the
//!   filler rule (`</system-reminder>` becomes `<\/system-reminder>`), and
//!   because `<\` is never matched again the step is idempotent.
//!
//! The tables (openers, closers, tag names, invisible characters, look-alikes) are in
//! `tables.rs`, generated from `fixtures/neutralize/source.json` by `generate.rs`; the cases the
//! tests check, recorded from the program, are in `fixtures/neutralize/pairs.json`.

#[cfg(test)]
mod generate;
mod tables;
#[cfg(test)]
mod tests;

pub use tables::{CLOSERS, OPENERS, PLAIN_TAGS};
use tables::{COLONS, EQUALS, FOLD, INVISIBLE, SEPARATORS};

/// Neutralised only when a `source=` attribute follows (see `CHANNEL_SPAN`).
const CHANNEL_TAG: &str = "channel";
/// The attribute that makes a `channel` opener count.
const CHANNEL_ATTRIBUTE: &str = "source";
/// At most this many characters (not counting the continuation codes of the
/// reading) may separate `channel` from `source`.
const CHANNEL_SPAN: usize = 120;
/// Neutralised only when a colon (or look-alike, `COLONS`) follows.
const ANTML_TAG: &str = "antml";

/// The reading writes a look-alike of the ASCII character `c` as
/// `FIRST_BASE + c`, and the further letters of a look-alike that stands for
/// several (`ﬀ` reads as "ff") as `NEXT_BASE + c`.
const FIRST_BASE: u32 = 0xe000;
const NEXT_BASE: u32 = 0xe200;
/// Reading codes for characters that look like either `n` or `v`, either `u`
/// or `y`, and `=` or `-`.
const LOOKS_LIKE_N_OR_V: char = '\u{e100}';
const LOOKS_LIKE_U_OR_Y: char = '\u{e101}';
const LOOKS_LIKE_EQUALS: char = '\u{e1f0}';

/// How a non-ASCII look-alike reads (the `fold` of `fixtures/neutralize/source.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// As the look-alike code of each of these ASCII characters (`ﬀ` reads as "ff").
    Letters(&'static str),
    /// As either `n` or `v`.
    NOrV,
    /// As either `u` or `y`.
    UOrY,
    /// As `=` (and `-`).
    Equals,
}

/// Private-use characters that the reading uses for its own codes are read
/// as U+FFFD so that they cannot pose as look-alikes.
fn reads_as_replacement(c: char) -> bool {
    matches!(c, '\u{e020}'..='\u{e07e}' | '\u{e100}'..='\u{e1ff}' | '\u{e220}'..='\u{e27e}')
}

/// How `c` reads, when it is a non-ASCII look-alike.
fn reading_of(c: char) -> Option<Reading> {
    let code = u32::from(c);
    let index = FOLD.partition_point(|&(first, _, _)| first <= code);
    let &(_, last, reading) = FOLD.get(index.checked_sub(1)?)?;
    (code <= last).then_some(reading)
}

fn push_code(reading: &mut Vec<char>, base: u32, ascii: char) {
    if let Some(code) = char::from_u32(base + u32::from(ascii)) {
        reading.push(code);
    }
}

/// Appends how `c` reads; returns how many reading characters it became.
fn push_reading(reading: &mut Vec<char>, c: char) -> usize {
    let before = reading.len();
    if c.is_ascii() {
        reading.push(c);
    } else if let Some(read) = reading_of(c) {
        match read {
            Reading::NOrV => reading.push(LOOKS_LIKE_N_OR_V),
            Reading::UOrY => reading.push(LOOKS_LIKE_U_OR_Y),
            Reading::Equals => reading.push(LOOKS_LIKE_EQUALS),
            Reading::Letters(letters) => {
                for (index, ascii) in letters.chars().enumerate() {
                    let base = if index == 0 { FIRST_BASE } else { NEXT_BASE };
                    push_code(reading, base, ascii);
                }
            }
        }
    } else if reads_as_replacement(c) {
        reading.push('\u{fffd}');
    } else {
        reading.push(c);
    }
    reading.len() - before
}

fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let code = u32::from(c);
    let index = ranges.partition_point(|&(start, _)| start <= code);
    index
        .checked_sub(1)
        .and_then(|i| ranges.get(i))
        .is_some_and(|&(_, end)| code <= end)
}

fn is_opener(c: char) -> bool {
    OPENERS.binary_search(&c).is_ok()
}

fn is_closer(c: char) -> bool {
    CLOSERS.binary_search(&c).is_ok()
}

/// A character that can continue a tag name (case-insensitively, so `ſ`
/// and the Kelvin sign count as `s` and `k`).
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '\u{17f}' | '\u{212a}')
}

fn is_filler(c: char) -> bool {
    !is_name_char(c) && !is_opener(c) && !is_closer(c)
}

fn is_invisible(c: char) -> bool {
    in_ranges(c, INVISIBLE)
}

/// What may separate `source` from its `=`.
fn is_assign_gap(c: char) -> bool {
    crate::js::is_whitespace(c) || c == '\u{2800}' || is_invisible(c)
}

/// Continuation codes of the reading (the later letters of a ligature),
/// which do not count towards `CHANNEL_SPAN`.
fn is_continuation(c: char) -> bool {
    ('\u{e220}'..='\u{e27e}').contains(&c)
}

/// A character that reads as `letter` (an ASCII lowercase letter, `-` or
/// `_`), case-insensitively.
fn reads_as(letter: char, c: char) -> bool {
    let code = |base: u32, ascii: char| char::from_u32(base + u32::from(ascii));
    let pua = |ascii: char| code(FIRST_BASE, ascii) == Some(c) || code(NEXT_BASE, ascii) == Some(c);
    match letter {
        '-' | '_' => matches!(c, '-' | '_') || pua('-') || pua('_') || c == LOOKS_LIKE_EQUALS,
        _ => {
            c.to_ascii_lowercase() == letter
                || pua(letter)
                || (letter == 's' && c == '\u{17f}')
                || (letter == 'k' && c == '\u{212a}')
                || (matches!(letter, 'n' | 'v') && c == LOOKS_LIKE_N_OR_V)
                || (matches!(letter, 'u' | 'y') && c == LOOKS_LIKE_U_OR_Y)
        }
    }
}

fn skip_while(reading: &[char], mut at: usize, keep: fn(char) -> bool) -> usize {
    while reading.get(at).is_some_and(|&c| keep(c)) {
        at += 1;
    }
    at
}

/// Where `name` ends if it is spelled at `at` (invisible characters allowed
/// between its letters).
fn spelled(reading: &[char], at: usize, name: &str) -> Option<usize> {
    let mut at = at;
    for (index, letter) in name.chars().enumerate() {
        if index > 0 {
            at = skip_while(reading, at, is_invisible);
        }
        if !reading.get(at).is_some_and(|&c| reads_as(letter, c)) {
            return None;
        }
        at += 1;
    }
    Some(at)
}

/// `source` (not glued to a preceding word character or `-`) followed by
/// `=` or a look-alike.
fn source_attribute_at(reading: &[char], at: usize) -> bool {
    let glued = at
        .checked_sub(1)
        .and_then(|before| reading.get(before))
        .is_some_and(|&c| is_name_char(c));
    if glued {
        return false;
    }
    let Some(end) = spelled(reading, at, CHANNEL_ATTRIBUTE) else {
        return false;
    };
    let end = skip_while(reading, end, is_assign_gap);
    reading
        .get(end)
        .is_some_and(|c| EQUALS.binary_search(c).is_ok())
}

/// What must follow `channel` (ending at `end`): a `source=` attribute
/// within `CHANNEL_SPAN` characters and before any closer.
fn channel_rest(reading: &[char], end: usize) -> bool {
    let after = skip_while(reading, end, is_invisible);
    let separated = reading.get(after).is_none_or(|&c| !is_name_char(c))
        || reading
            .get(end..after)
            .is_some_and(|gap| gap.iter().any(|c| SEPARATORS.binary_search(c).is_ok()));
    if !separated {
        return false;
    }
    let mut at = after;
    let mut counted = 0;
    loop {
        if source_attribute_at(reading, at) {
            return true;
        }
        let Some(&c) = reading.get(at) else {
            return false;
        };
        if is_closer(c) {
            return false;
        }
        if !is_continuation(c) {
            counted += 1;
            if counted > CHANNEL_SPAN {
                return false;
            }
        }
        at += 1;
    }
}

/// Whether a protected tag name (with what must follow it) starts at `at`.
fn tag_at(reading: &[char], at: usize) -> bool {
    let plain = PLAIN_TAGS.iter().any(|tag| {
        spelled(reading, at, tag)
            .is_some_and(|end| reading.get(end).is_none_or(|&c| !is_name_char(c)))
    });
    plain
        || spelled(reading, at, CHANNEL_TAG).is_some_and(|end| channel_rest(reading, end))
        || spelled(reading, at, ANTML_TAG).is_some_and(|end| {
            let end = skip_while(reading, end, is_invisible);
            reading
                .get(end)
                .is_some_and(|c| COLONS.binary_search(c).is_ok())
        })
}

/// Whether the opener at `at` in the reading starts a protected tag.
fn opens_tag(reading: &[char], at: usize) -> bool {
    let mut at = at + 1;
    if reading.get(at) == Some(&'\\') {
        return false;
    }
    loop {
        if tag_at(reading, at) {
            return true;
        }
        if !reading.get(at).is_some_and(|&c| is_filler(c)) {
            return false;
        }
        at += 1;
    }
}

/// The text with tag openers neutralised exactly as Claude Code 2.1.332 does before the memory index reaches the model.
pub fn neutralize_tags(text: &str) -> String {
    if !text.chars().any(is_opener) {
        return text.to_string();
    }
    let mut reading = Vec::with_capacity(text.len());
    // Byte offset in `text` of the character each reading character came from.
    let mut origin = Vec::with_capacity(text.len());
    for (offset, c) in text.char_indices() {
        let added = push_reading(&mut reading, c);
        origin.extend(std::iter::repeat_n(offset, added));
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut copied = 0;
    for (at, &c) in reading.iter().enumerate() {
        if !is_opener(c) || !opens_tag(&reading, at) {
            continue;
        }
        let Some(&offset) = origin.get(at) else {
            continue;
        };
        let Some(opener) = text.get(offset..).and_then(|rest| rest.chars().next()) else {
            continue;
        };
        out.push_str(text.get(copied..offset).unwrap_or_default());
        out.push_str("<\\");
        copied = offset + opener.len_utf8();
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    out
}
