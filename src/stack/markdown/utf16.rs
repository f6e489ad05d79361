//! UTF-16 text as the lexer sees it, with JavaScript's meaning of `indexOf`, `slice`, `trim`,
//! `toLowerCase` and line terminators: the code-unit constants, the search and slice helpers, the
//! conversions to and from Rust strings, and [`View`], a cheap slice of a shared buffer (the
//! lexer's "rest of the text" strings).

use std::rc::Rc;

/// `/<!--[\s\S]*?-->/g` replaced by nothing.
pub(super) fn remove_comments(s: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len());
    let mut from = 0usize;
    while let Some(open) = index_of_str(s, "<!--", from) {
        let Some(close) = index_of_str(s, "-->", open + 4) else {
            break;
        };
        out.extend_from_slice(&s[from..open]);
        from = close + 3;
    }
    out.extend_from_slice(&s[from..]);
    out
}

/// UTF-16 to a string (lone surrogates become U+FFFD, as when JavaScript writes UTF-8).
pub(super) fn utf16_to_string(s: &[u16]) -> String {
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let run = s[i..].iter().take_while(|&&c| c < 0x80).count();
        let ascii: Vec<u8> = s[i..i + run].iter().map(|&c| c as u8).collect();
        out.push_str(std::str::from_utf8(&ascii).unwrap_or_default());
        i += run;
        let rest = s[i..].iter().take_while(|&&c| c >= 0x80).count();
        out.extend(
            char::decode_utf16(s[i..i + rest].iter().copied()).map(|r| r.unwrap_or('\u{FFFD}')),
        );
        i += rest;
    }
    out
}

/// The text as the lexer sees it: UTF-16, with CRLF and lone CR turned into LF.
pub(super) fn normalize_newlines(text: &str) -> Vec<u16> {
    let bytes = text.as_bytes();
    let mut units = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        // a run of plain ASCII goes over in one step
        let run = bytes[i..]
            .iter()
            .take_while(|&&byte| byte < 0x80 && byte != b'\r')
            .count();
        units.extend(bytes[i..i + run].iter().map(|&byte| byte as u16));
        i += run;
        if i >= bytes.len() {
            break;
        }
        let byte = bytes[i];
        if byte < 0x80 {
            if byte == b'\r' {
                units.push(LF);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            } else {
                units.push(byte as u16);
            }
            i += 1;
            continue;
        }
        // `i` is on a character boundary: it only ever moves past whole characters
        let Some(ch) = text.get(i..).and_then(|t| t.chars().next()) else {
            break;
        };
        let mut buf = [0u16; 2];
        units.extend_from_slice(ch.encode_utf16(&mut buf));
        i += ch.len_utf8();
    }
    units
}

pub(super) const LF: u16 = 0x0A;
pub(super) const TAB: u16 = 0x09;
pub(super) const SPACE: u16 = 0x20;
pub(super) const BACKSLASH: u16 = b'\\' as u16;
pub(super) const AT: u16 = b'@' as u16;
pub(super) const HASH: u16 = b'#' as u16;
pub(super) const LT: u16 = b'<' as u16;
pub(super) const GT: u16 = b'>' as u16;
pub(super) const OPEN_BRACKET: u16 = b'[' as u16;
pub(super) const CLOSE_BRACKET: u16 = b']' as u16;
pub(super) const OPEN_PAREN: u16 = b'(' as u16;
pub(super) const CLOSE_PAREN: u16 = b')' as u16;
pub(super) const BACKTICK: u16 = b'`' as u16;
pub(super) const TILDE: u16 = b'~' as u16;
pub(super) const STAR: u16 = b'*' as u16;
pub(super) const UNDERSCORE: u16 = b'_' as u16;
pub(super) const BANG: u16 = b'!' as u16;

/// JavaScript's `Infinity` in the lexer's remaining-length bookkeeping ("no bound").
pub(super) const INFINITY: usize = usize::MAX;

/// `s.indexOf(pat, from)` for an ASCII `pat`.
pub(super) fn index_of_str(s: &[u16], pat: &str, from: usize) -> Option<usize> {
    let bytes = pat.as_bytes();
    let first = *bytes.first()? as u16;
    let mut i = from;
    while i + bytes.len() <= s.len() {
        i += s[i..=s.len() - bytes.len()]
            .iter()
            .position(|&c| c == first)?;
        if s[i..i + bytes.len()]
            .iter()
            .zip(bytes)
            .all(|(&a, &b)| a == b as u16)
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

pub(super) fn contains_str(s: &[u16], pat: &str) -> bool {
    index_of_str(s, pat, 0).is_some()
}

/// Whether `s` equals the ASCII `word`.
pub(super) fn eq_str(s: &[u16], word: &str) -> bool {
    s.len() == word.len() && s.iter().zip(word.bytes()).all(|(&a, b)| a == b as u16)
}

pub(super) fn ascii_code(c: u8) -> i32 {
    c as i32
}

/// `s.charCodeAt(i)`, or -1 past the end.
#[inline]
pub(super) fn code_at(s: &[u16], i: usize) -> i32 {
    s.get(i).map_or(-1, |&c| c as i32)
}

/// `s.codePointAt(i)`, or -1 past the end.
pub(super) fn code_point_at(s: &[u16], i: usize) -> i32 {
    let Some(&hi) = s.get(i) else { return -1 };
    if (0xD800..0xDC00).contains(&hi)
        && let Some(&lo) = s.get(i + 1)
        && (0xDC00..0xE000).contains(&lo)
    {
        return 0x10000 + ((hi as i32 - 0xD800) << 10) + (lo as i32 - 0xDC00);
    }
    hi as i32
}

/// JavaScript's `\s` (and what `trim` removes) for a code unit or code point, or -1.
#[inline]
pub(super) fn is_js_space(c: i32) -> bool {
    u32::try_from(c).is_ok_and(crate::js::is_whitespace_code)
}

/// Line terminators for `.` in JavaScript regular expressions.
#[inline]
pub(super) fn is_line_term(c: i32) -> bool {
    matches!(c, 10 | 13 | 0x2028 | 0x2029)
}

#[inline]
pub(super) fn is_line_term_unit(c: u16) -> bool {
    c == LF || c == 13 || (c | 1) == 0x2029
}

pub(super) fn is_ascii_alpha(c: i32) -> bool {
    (65..=90).contains(&c) || (97..=122).contains(&c)
}

pub(super) fn is_digit(c: i32) -> bool {
    (48..=57).contains(&c)
}

/// `\w` without the `u` flag.
pub(super) fn is_word(c: i32) -> bool {
    is_ascii_alpha(c) || is_digit(c) || c == 95
}

/// Skips a run of `ch` from `from`.
pub(super) fn run_of(s: &[u16], from: usize, ch: u16) -> usize {
    let mut end = from;
    while end < s.len() && s[end] == ch {
        end += 1;
    }
    end.max(from)
}

/// Skips `[\t ]*`.
pub(super) fn skip_tabs_spaces(s: &[u16], from: usize) -> usize {
    let mut end = from;
    while end < s.len() && (s[end] == SPACE || s[end] == TAB) {
        end += 1;
    }
    end
}

/// Skips `\s*`.
pub(super) fn skip_ws(s: &[u16], from: usize) -> usize {
    let mut end = from;
    while end < s.len() && is_js_space(s[end] as i32) {
        end += 1;
    }
    end
}

/// Skips at most three spaces.
pub(super) fn skip_indent(s: &[u16], from: usize) -> usize {
    let mut end = from;
    while end < s.len() && end < from + 3 && s[end] == SPACE {
        end += 1;
    }
    end
}

/// Counts the spaces from `from`.
pub(super) fn count_spaces(s: &[u16], from: usize) -> usize {
    run_of(s, from, SPACE) - from
}

/// Index of the next `\n` from `from`, or the length.
pub(super) fn line_end(s: &[u16], from: usize) -> usize {
    if from >= s.len() {
        return s.len();
    }
    s[from..]
        .iter()
        .position(|&c| c == LF)
        .map_or(s.len(), |offset| from + offset)
}

/// Index of the next `\n`, `\r`, U+2028 or U+2029 from `from`, or the length.
pub(super) fn any_line_end(s: &[u16], from: usize) -> usize {
    if from >= s.len() {
        return s.len();
    }
    s[from..]
        .iter()
        .position(|&c| is_line_term_unit(c))
        .map_or(s.len(), |offset| from + offset)
}

/// At a line end (or past the text).
pub(super) fn at_eol(s: &[u16], pos: usize) -> bool {
    pos >= s.len() || s[pos] == LF
}

pub(super) fn trim_end_ch(s: &[u16], ch: u16) -> &[u16] {
    let mut end = s.len();
    while end > 0 && s[end - 1] == ch {
        end -= 1;
    }
    &s[..end]
}

pub(super) fn is_blank_js(s: &[u16]) -> bool {
    s.iter().all(|&c| is_js_space(c as i32))
}

/// `s.slice(a, b)` with JavaScript's clamping and negative indices.
pub(super) fn js_slice(s: &[u16], start: i64, end: i64) -> &[u16] {
    let len = s.len() as i64;
    let fix = |index: i64| {
        if index < 0 {
            (len + index).max(0)
        } else {
            index.min(len)
        }
    };
    let (start, end) = (fix(start), fix(end));
    if start >= end {
        &[]
    } else {
        &s[start as usize..end as usize]
    }
}

pub(super) fn slice_from(s: &[u16], start: usize) -> &[u16] {
    if start >= s.len() { &[] } else { &s[start..] }
}

pub(super) fn slice_to(s: &[u16], end: usize) -> &[u16] {
    &s[..end.min(s.len())]
}

pub(super) fn index_of(s: &[u16], pat: &[u16], from: usize) -> Option<usize> {
    if pat.is_empty() {
        return Some(from.min(s.len()));
    }
    if from >= s.len() || s.len() - from < pat.len() {
        return None;
    }
    let first = pat[0];
    let last_start = s.len() - pat.len();
    let mut i = from;
    while i <= last_start {
        match s[i..=last_start].iter().position(|&c| c == first) {
            None => return None,
            Some(skip) => i += skip,
        }
        if s[i..i + pat.len()] == *pat {
            return Some(i);
        }
        i += 1;
    }
    None
}

pub(super) fn index_of_unit(s: &[u16], c: u16, from: usize) -> Option<usize> {
    if from >= s.len() {
        return None;
    }
    s[from..]
        .iter()
        .position(|&unit| unit == c)
        .map(|offset| from + offset)
}

/// `s.lastIndexOf(c, from)`.
pub(super) fn last_index_of_unit(s: &[u16], c: u16, from: i64) -> i64 {
    if s.is_empty() || from < 0 {
        return -1;
    }
    let top = (from as usize).min(s.len() - 1);
    s[..=top]
        .iter()
        .rposition(|&unit| unit == c)
        .map_or(-1, |index| index as i64)
}

pub(super) fn contains(s: &[u16], pat: &[u16]) -> bool {
    index_of(s, pat, 0).is_some()
}

pub(super) fn starts_at(s: &[u16], pos: usize, pat: &[u16]) -> bool {
    pos <= s.len() && s[pos..].starts_with(pat)
}

pub(super) fn starts_at_str(s: &[u16], pos: usize, pat: &str) -> bool {
    (pos..)
        .zip(pat.bytes())
        .all(|(i, byte)| code_at(s, i) == byte as i32)
}

/// `s.replaceAll(a, b)`.
pub(super) fn replace_all(s: &[u16], pattern: &[u16], replacement: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i..].starts_with(pattern) {
            out.extend_from_slice(replacement);
            i += pattern.len();
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

pub(super) fn concat(first: &[u16], second: &[u16]) -> Vec<u16> {
    let mut joined = Vec::with_capacity(first.len() + second.len());
    joined.extend_from_slice(first);
    joined.extend_from_slice(second);
    joined
}

pub(super) fn ascii_lower(c: u16) -> u16 {
    if (65..=90).contains(&c) { c + 32 } else { c }
}

/// Case-insensitive (ASCII only, as JavaScript's `i` flag without `u` is here) comparison of
/// `s[pos..]` with the lowercase ASCII word `word`.
pub(super) fn starts_at_ci(s: &[u16], pos: usize, word: &str) -> bool {
    let mut i = pos;
    for byte in word.bytes() {
        match s.get(i) {
            Some(&c) if ascii_lower(c) == byte as u16 => i += 1,
            _ => return false,
        }
    }
    true
}

/// `s.toLowerCase()` (full Unicode mapping; lone surrogates are kept).
pub(super) fn js_lower(s: &[u16]) -> Vec<u16> {
    if s.iter().all(|&c| c < 128) {
        return s.iter().map(|&c| ascii_lower(c)).collect();
    }
    let mut out = Vec::with_capacity(s.len());
    let mut run = String::new();
    for decoded in char::decode_utf16(s.iter().copied()) {
        match decoded {
            Ok(ch) => run.push(ch),
            Err(err) => {
                out.extend(run.to_lowercase().encode_utf16());
                run.clear();
                out.push(err.unpaired_surrogate());
            }
        }
    }
    out.extend(run.to_lowercase().encode_utf16());
    out
}

/// A cheap view of a shared UTF-16 buffer (the lexer's "rest of the text" strings).
#[derive(Clone)]
pub(super) struct View {
    pub(super) buf: Rc<[u16]>,
    pub(super) start: usize,
    pub(super) end: usize,
}

impl View {
    pub(super) fn new(units: Vec<u16>) -> View {
        let end = units.len();
        View {
            buf: Rc::from(units),
            start: 0,
            end,
        }
    }
    pub(super) fn units(&self) -> &[u16] {
        &self.buf[self.start..self.end]
    }
    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }
    pub(super) fn is_empty(&self) -> bool {
        self.end == self.start
    }
    pub(super) fn sub(&self, from: usize, to: usize) -> View {
        let start = (self.start + from).min(self.end);
        View {
            buf: self.buf.clone(),
            start,
            end: (self.start + to).clamp(start, self.end),
        }
    }
    pub(super) fn skip(&self, count: usize) -> View {
        View {
            buf: self.buf.clone(),
            start: (self.start + count).min(self.end),
            end: self.end,
        }
    }
    /// JavaScript `===` on the two strings.
    pub(super) fn same(&self, other: &View) -> bool {
        (Rc::ptr_eq(&self.buf, &other.buf) && self.start == other.start && self.end == other.end)
            || (self.len() == other.len() && self.units() == other.units())
    }
}
