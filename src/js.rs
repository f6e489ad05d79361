//! JavaScript's idea of white space, which Claude Code's text handling follows wherever it trims
//! (`String.prototype.trim`, `trimStart`, `trimEnd`) or matches regex `\s`: the `WhiteSpace` and
//! `LineTerminator` code points of ECMAScript. Unlike Rust's `char::is_whitespace` it includes
//! U+FEFF (the byte-order mark) and excludes U+0085 (next line); every such character is a single
//! UTF-16 unit, so the same test serves text held as `str` and as UTF-16.
//!
//! Used by the memory index's load-time truncation (DESIGN §3) and by the instruction stack's
//! frontmatter, markdown and rendering passes (§5).

/// Whether the code point (or UTF-16 unit) `code` is JavaScript white space.
#[must_use]
pub const fn is_whitespace_code(code: u32) -> bool {
    matches!(
        code,
        0x09..=0x0D
            | 0x20
            | 0xA0
            | 0x1680
            | 0x2000..=0x200A
            | 0x2028
            | 0x2029
            | 0x202F
            | 0x205F
            | 0x3000
            | 0xFEFF
    )
}

/// Whether `c` is JavaScript white space.
#[must_use]
pub const fn is_whitespace(c: char) -> bool {
    is_whitespace_code(c as u32)
}

/// Whether the UTF-16 unit `unit` is JavaScript white space.
#[must_use]
pub const fn is_whitespace_unit(unit: u16) -> bool {
    is_whitespace_code(unit as u32)
}

/// `s.trim()`.
#[must_use]
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_whitespace)
}

/// `s.trimStart()`.
#[must_use]
pub fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_whitespace)
}

/// `s.trim()` on UTF-16 units.
#[must_use]
pub fn trim_units(s: &[u16]) -> &[u16] {
    trim_end_units(trim_start_units(s))
}

/// `s.trimStart()` on UTF-16 units.
#[must_use]
pub fn trim_start_units(s: &[u16]) -> &[u16] {
    let start = s
        .iter()
        .position(|&u| !is_whitespace_unit(u))
        .unwrap_or(s.len());
    &s[start..]
}

/// `s.trimEnd()` on UTF-16 units.
#[must_use]
pub fn trim_end_units(s: &[u16]) -> &[u16] {
    let end = s
        .iter()
        .rposition(|&u| !is_whitespace_unit(u))
        .map_or(0, |i| i + 1);
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_javascripts() {
        // JavaScript trims the byte-order mark and the ideographic space, not U+0085 or U+200B.
        assert_eq!(trim("\u{feff}\u{3000} a \u{a0}\n"), "a");
        assert_eq!(trim("\u{85}a\u{200b}"), "\u{85}a\u{200b}");
        assert_eq!(trim_start("\t\r\n a "), "a ");
        let units: Vec<u16> = " \u{2028}ab\u{205f} ".encode_utf16().collect();
        assert_eq!(trim_units(&units), &units[2..4]);
        assert_eq!(trim_start_units(&units), &units[2..]);
        assert_eq!(trim_end_units(&units), &units[..4]);
        assert!(trim_units(&[0x20, 0xFEFF]).is_empty());
        assert!(!is_whitespace_code(0x1_0000));
    }
}
