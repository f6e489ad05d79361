//! UTF-16 text as the lexer sees it, with JavaScript's meaning of `indexOf`, `slice`, `trim`,
//! `toLowerCase` and line terminators: the code-unit constants, the search and slice helpers, the
//! conversions to and from Rust strings, and [`View`], a cheap slice of a shared buffer (the
//! lexer's "rest of the text" strings).

use std::rc::Rc;

/// `/<!--[\s\S]*?-->/g` replaced by nothing.
pub(super) fn remove_comments(s: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len());
    let mut from = 0usize;
    while let Some(p) = index_of_str(s, "<!--", from) {
        let Some(q) = index_of_str(s, "-->", p + 4) else {
            break;
        };
        out.extend_from_slice(&s[from..p]);
        from = q + 3;
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
    let mut v = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        // a run of plain ASCII goes over in one step
        let run = bytes[i..]
            .iter()
            .take_while(|&&b| b < 0x80 && b != b'\r')
            .count();
        v.extend(bytes[i..i + run].iter().map(|&b| b as u16));
        i += run;
        if i >= bytes.len() {
            break;
        }
        let b = bytes[i];
        if b < 0x80 {
            if b == b'\r' {
                v.push(LF);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            } else {
                v.push(b as u16);
            }
            i += 1;
            continue;
        }
        // `i` is on a character boundary: it only ever moves past whole characters
        let Some(ch) = text.get(i..).and_then(|t| t.chars().next()) else {
            break;
        };
        let mut buf = [0u16; 2];
        v.extend_from_slice(ch.encode_utf16(&mut buf));
        i += ch.len_utf8();
    }
    v
}

pub(super) const LF: u16 = 0x0A;
pub(super) const TAB: u16 = 0x09;
pub(super) const SP: u16 = 0x20;
pub(super) const BSL: u16 = b'\\' as u16;
pub(super) const AT: u16 = b'@' as u16;
pub(super) const HASH: u16 = b'#' as u16;
pub(super) const LT: u16 = b'<' as u16;
pub(super) const GT: u16 = b'>' as u16;
pub(super) const LBR: u16 = b'[' as u16;
pub(super) const RBR: u16 = b']' as u16;
pub(super) const LPAR: u16 = b'(' as u16;
pub(super) const RPAR: u16 = b')' as u16;
pub(super) const TICK: u16 = b'`' as u16;
pub(super) const TILDE: u16 = b'~' as u16;
pub(super) const STAR: u16 = b'*' as u16;
pub(super) const UNDER: u16 = b'_' as u16;
pub(super) const BANG: u16 = b'!' as u16;

/// JavaScript's `Infinity` in the lexer's remaining-length bookkeeping ("no bound").
pub(super) const INFINITY: usize = usize::MAX;

/// `s.indexOf(pat, from)` for an ASCII `pat`.
pub(super) fn index_of_str(s: &[u16], pat: &str, from: usize) -> Option<usize> {
    let p = pat.as_bytes();
    let first = *p.first()? as u16;
    let mut i = from;
    while i + p.len() <= s.len() {
        i += s[i..=s.len() - p.len()].iter().position(|&c| c == first)?;
        if s[i..i + p.len()]
            .iter()
            .zip(p)
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

/// Whether `s` equals the ASCII `w`.
pub(super) fn eq_str(s: &[u16], w: &str) -> bool {
    s.len() == w.len() && s.iter().zip(w.bytes()).all(|(&a, b)| a == b as u16)
}

pub(super) fn c16(c: u8) -> i32 {
    c as i32
}

/// `s.charCodeAt(i)`, or -1 past the end.
#[inline]
pub(super) fn at(s: &[u16], i: usize) -> i32 {
    s.get(i).map_or(-1, |&c| c as i32)
}

/// `s.codePointAt(i)`, or -1 past the end.
pub(super) fn cp_at(s: &[u16], i: usize) -> i32 {
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
pub(super) fn is_js_ws(c: i32) -> bool {
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

/// Skips a run of `ch` from `n`.
pub(super) fn run_of(s: &[u16], n: usize, ch: u16) -> usize {
    let mut h = n;
    while h < s.len() && s[h] == ch {
        h += 1;
    }
    h.max(n)
}

/// Skips `[\t ]*`.
pub(super) fn skip_tabs_spaces(s: &[u16], n: usize) -> usize {
    let mut h = n;
    while h < s.len() && (s[h] == SP || s[h] == TAB) {
        h += 1;
    }
    h
}

/// Skips `\s*`.
pub(super) fn skip_ws(s: &[u16], n: usize) -> usize {
    let mut h = n;
    while h < s.len() && is_js_ws(s[h] as i32) {
        h += 1;
    }
    h
}

/// Skips at most three spaces.
pub(super) fn skip_indent(s: &[u16], n: usize) -> usize {
    let mut h = n;
    while h < s.len() && h < n + 3 && s[h] == SP {
        h += 1;
    }
    h
}

/// Counts the spaces from `n`.
pub(super) fn count_spaces(s: &[u16], n: usize) -> usize {
    run_of(s, n, SP) - n
}

/// Index of the next `\n` from `n`, or the length.
pub(super) fn line_end(s: &[u16], n: usize) -> usize {
    if n >= s.len() {
        return s.len();
    }
    s[n..]
        .iter()
        .position(|&c| c == LF)
        .map_or(s.len(), |p| n + p)
}

/// Index of the next `\n`, `\r`, U+2028 or U+2029 from `n`, or the length.
pub(super) fn any_line_end(s: &[u16], n: usize) -> usize {
    if n >= s.len() {
        return s.len();
    }
    s[n..]
        .iter()
        .position(|&c| is_line_term_unit(c))
        .map_or(s.len(), |p| n + p)
}

/// At a line end (or past the text).
pub(super) fn at_eol(s: &[u16], n: usize) -> bool {
    n >= s.len() || s[n] == LF
}

pub(super) fn trim_end_ch(s: &[u16], ch: u16) -> &[u16] {
    let mut e = s.len();
    while e > 0 && s[e - 1] == ch {
        e -= 1;
    }
    &s[..e]
}

pub(super) fn is_blank_js(s: &[u16]) -> bool {
    s.iter().all(|&c| is_js_ws(c as i32))
}

/// `s.slice(a, b)` with JavaScript's clamping and negative indices.
pub(super) fn js_slice(s: &[u16], a: i64, b: i64) -> &[u16] {
    let n = s.len() as i64;
    let fix = |x: i64| if x < 0 { (n + x).max(0) } else { x.min(n) };
    let (a, b) = (fix(a), fix(b));
    if a >= b {
        &[]
    } else {
        &s[a as usize..b as usize]
    }
}

pub(super) fn slice_from(s: &[u16], a: usize) -> &[u16] {
    if a >= s.len() { &[] } else { &s[a..] }
}

pub(super) fn slice_to(s: &[u16], b: usize) -> &[u16] {
    &s[..b.min(s.len())]
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
            Some(p) => i += p,
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
    s[from..].iter().position(|&x| x == c).map(|p| from + p)
}

/// `s.lastIndexOf(c, from)`.
pub(super) fn last_index_of_unit(s: &[u16], c: u16, from: i64) -> i64 {
    if s.is_empty() || from < 0 {
        return -1;
    }
    let top = (from as usize).min(s.len() - 1);
    s[..=top]
        .iter()
        .rposition(|&x| x == c)
        .map_or(-1, |p| p as i64)
}

pub(super) fn contains(s: &[u16], pat: &[u16]) -> bool {
    index_of(s, pat, 0).is_some()
}

pub(super) fn starts_at(s: &[u16], pos: usize, pat: &[u16]) -> bool {
    pos <= s.len() && s[pos..].starts_with(pat)
}

pub(super) fn starts_at_str(s: &[u16], pos: usize, pat: &str) -> bool {
    (pos..).zip(pat.bytes()).all(|(i, b)| at(s, i) == b as i32)
}

/// `s.replaceAll(a, b)`.
pub(super) fn replace_all(s: &[u16], a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i..].starts_with(a) {
            out.extend_from_slice(b);
            i += a.len();
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

pub(super) fn concat(a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut v = Vec::with_capacity(a.len() + b.len());
    v.extend_from_slice(a);
    v.extend_from_slice(b);
    v
}

pub(super) fn ascii_lower(c: u16) -> u16 {
    if (65..=90).contains(&c) { c + 32 } else { c }
}

/// Case-insensitive (ASCII only, as JavaScript's `i` flag without `u` is here) comparison of
/// `s[pos..]` with the lowercase ASCII word `w`.
pub(super) fn starts_at_ci(s: &[u16], pos: usize, w: &str) -> bool {
    let mut i = pos;
    for b in w.bytes() {
        match s.get(i) {
            Some(&c) if ascii_lower(c) == b as u16 => i += 1,
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
    for r in char::decode_utf16(s.iter().copied()) {
        match r {
            Ok(ch) => run.push(ch),
            Err(e) => {
                out.extend(run.to_lowercase().encode_utf16());
                run.clear();
                out.push(e.unpaired_surrogate());
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
    pub(super) fn new(v: Vec<u16>) -> View {
        let end = v.len();
        View {
            buf: Rc::from(v),
            start: 0,
            end,
        }
    }
    pub(super) fn s(&self) -> &[u16] {
        &self.buf[self.start..self.end]
    }
    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }
    pub(super) fn is_empty(&self) -> bool {
        self.end == self.start
    }
    pub(super) fn sub(&self, a: usize, b: usize) -> View {
        let start = (self.start + a).min(self.end);
        View {
            buf: self.buf.clone(),
            start,
            end: (self.start + b).clamp(start, self.end),
        }
    }
    pub(super) fn skip(&self, n: usize) -> View {
        View {
            buf: self.buf.clone(),
            start: (self.start + n).min(self.end),
            end: self.end,
        }
    }
    /// JavaScript `===` on the two strings.
    pub(super) fn same(&self, other: &View) -> bool {
        (Rc::ptr_eq(&self.buf, &other.buf) && self.start == other.start && self.end == other.end)
            || (self.len() == other.len() && self.s() == other.s())
    }
}
