//! How Claude Code reads the markdown of an instruction file (DESIGN §5): the block-level HTML
//! comments it strips before the text reaches the model, and the `@path` import candidates it
//! follows.
//!
//! Claude Code 2.1.332 does both over the tokens of its markdown lexer, created as
//! `new Lexer({ gfm: false })`. That lexer is not stock `marked`: the program ships its own
//! linear-time re-implementation of marked's `Lexer`/`Tokenizer` pair, whose tokens match
//! marked 15.0.0–15.0.10 on ordinary text and part from it in corner cases (lazy continuation
//! lines of block quotes and list items, mostly). This module is a port of the parts of that
//! lexer the two outputs depend on, written against the program itself: the fixtures under
//! `fixtures/markdown/` were produced by Claude Code 2.1.332's own lexer and cross-checked
//! against marked 15.0.10 (see `fixtures/markdown/README.md`).
//!
//! Everything works on UTF-16 code units, as JavaScript strings do, so that positions, lengths
//! and character classes come out as they do there. The port is linear in practice: every
//! look-ahead the original caches (closing backticks, `-->`, emphasis closers, setext
//! underlines) is cached the same way here. Nesting deeper than `MAX_DEPTH` (256) containers or
//! inline spans is not lexed further, to keep the stack bounded; the original goes on until its
//! own stack runs out (a few thousand levels, where it fails to load the file), so the two can
//! differ only on text nested deeper than that.

use std::borrow::Cow;
use std::collections::HashSet;
use std::rc::Rc;

use crate::js;

/// The file's text with block-level HTML comments removed, as Claude Code does.
///
/// A top-level HTML block whose source starts with `<!--` and contains `-->` loses every
/// `<!-- … -->` in it, and goes away entirely when only whitespace is left. When anything was
/// removed the result has LF line endings; otherwise the text comes back untouched.
pub fn strip_block_comments(text: &str) -> Cow<'_, str> {
    if !text.contains("<!--") {
        return Cow::Borrowed(text);
    }
    let src = normalize_newlines(text);
    let mut lexer = Lexer::new(src.len(), false);
    lexer.lex(&src);
    let mut out: Vec<u16> = Vec::new();
    let mut taken = 0usize;
    for t in children(&lexer.toks, ROOT) {
        let tok = &lexer.toks[t];
        let Some(start) = tok.span else { continue };
        let len = tok.len;
        let z = js::trim_start_units(tok.raw());
        if !(starts_at_str(z, 0, "<!--") && contains_str(z, "-->")) {
            continue;
        }
        let end = start + len;
        let kept = remove_comments(js_slice(&src, start as i64, end as i64));
        out.extend_from_slice(js_slice(&src, taken as i64, start as i64));
        if !js::trim_units(&kept).is_empty() {
            out.extend_from_slice(&kept);
        }
        taken = end;
    }
    if taken == 0 {
        return Cow::Borrowed(text);
    }
    out.extend_from_slice(js_slice(&src, taken as i64, src.len() as i64));
    Cow::Owned(utf16_to_string(&out))
}

/// The `@` import candidates in a file's text, in order, deduplicated.
///
/// These are the raw `@` targets Claude Code accepts (with any `#fragment` cut and `\ `
/// unescaped), before it resolves them against the file's directory; they come from text in
/// paragraphs, headings, list items, block quotes, emphasis and link text, and from what is
/// left of an HTML comment block, never from code.
pub fn import_candidates(text: &str) -> Vec<String> {
    if !text.contains('@') {
        return Vec::new();
    }
    let src = normalize_newlines(text);
    let mut lexer = Lexer::new(src.len(), true);
    lexer.lex(&src);
    lexer.run_inline_queue();
    let mut found = Imports::default();
    walk(&lexer.toks, ROOT, &mut found, 0);
    found.list
}

#[derive(Default)]
struct Imports {
    seen: HashSet<Vec<u16>>,
    list: Vec<String>,
}

fn walk(toks: &[Tok], owner: usize, found: &mut Imports, depth: usize) {
    if depth > 4 * MAX_DEPTH {
        return;
    }
    for id in children(toks, owner) {
        let t = &toks[id];
        match t.kind {
            Kind::Code | Kind::Codespan => continue,
            Kind::Html => {
                let z = js::trim_start_units(t.raw());
                if starts_at_str(z, 0, "<!--") && contains_str(z, "-->") {
                    let rest = remove_comments(t.raw());
                    if !js::trim_units(&rest).is_empty() {
                        scan_imports(&rest, found);
                    }
                }
                continue;
            }
            Kind::Text => scan_imports(t.text(), found),
            _ => {}
        }
        walk(toks, id, found, depth + 1);
    }
}

/// `/(?:^|\s)@((?:[^\s\\]|\\ )+)/g` over one string, then Claude Code's filters.
fn scan_imports(s: &[u16], found: &mut Imports) {
    let group_end = |mut q: usize| -> usize {
        loop {
            match s.get(q) {
                Some(&c) if c != BSL && !is_js_ws(c as i32) => q += 1,
                Some(&BSL) if s.get(q + 1) == Some(&SP) => q += 2,
                _ => return q,
            }
        }
    };
    // The regex's search: an `@` at the very start, or right after whitespace that lies at
    // or past where the search resumes; then a non-empty run of the path characters.
    let mut from = 0usize;
    loop {
        let mut hit = None;
        let mut q = from;
        while let Some(at_pos) = index_of_unit(s, AT, q) {
            let ok = if at_pos == 0 {
                from == 0
            } else {
                at_pos > from && is_js_ws(s[at_pos - 1] as i32)
            };
            if ok {
                let e = group_end(at_pos + 1);
                if e > at_pos + 1 {
                    hit = Some((at_pos + 1, e));
                    break;
                }
            }
            q = at_pos + 1;
        }
        let Some((a, b)) = hit else { break };
        from = b;
        let mut h: &[u16] = &s[a..b];
        if let Some(i) = h.iter().position(|&c| c == HASH) {
            h = &h[..i];
        }
        if h.is_empty() {
            continue;
        }
        let h: Cow<'_, [u16]> = if h.contains(&BSL) {
            Cow::Owned(replace_all(h, &[BSL, SP], &[SP]))
        } else {
            Cow::Borrowed(h)
        };
        if h.is_empty() || !accept_import(&h) || found.seen.contains(h.as_ref()) {
            continue;
        }
        found.seen.insert(h.to_vec());
        found.list.push(utf16_to_string(&h));
    }
}

fn accept_import(h: &[u16]) -> bool {
    let starts = |p: &str| starts_at_str(h, 0, p);
    if starts("./") || starts("~/") || (starts("/") && h.len() > 1) {
        return true;
    }
    let c = h[0];
    // `!H.startsWith("@") && !/^[#%^&*()]+/.test(H) && /^[a-zA-Z0-9._-]/.test(H)`
    c < 128 && ((c as u8).is_ascii_alphanumeric() || matches!(c as u8, b'.' | b'_' | b'-'))
}

/// `/<!--[\s\S]*?-->/g` replaced by nothing.
fn remove_comments(s: &[u16]) -> Vec<u16> {
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
fn utf16_to_string(s: &[u16]) -> String {
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
fn normalize_newlines(text: &str) -> Vec<u16> {
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

// ---------------------------------------------------------------------------------------------
// UTF-16 text helpers, with JavaScript's meaning of whitespace, `trim`, `slice` and so on.
// ---------------------------------------------------------------------------------------------

const LF: u16 = 0x0A;
const TAB: u16 = 0x09;
const SP: u16 = 0x20;
const BSL: u16 = b'\\' as u16;
const AT: u16 = b'@' as u16;
const HASH: u16 = b'#' as u16;
const LT: u16 = b'<' as u16;
const GT: u16 = b'>' as u16;
const LBR: u16 = b'[' as u16;
const RBR: u16 = b']' as u16;
const LPAR: u16 = b'(' as u16;
const RPAR: u16 = b')' as u16;
const TICK: u16 = b'`' as u16;
const TILDE: u16 = b'~' as u16;
const STAR: u16 = b'*' as u16;
const UNDER: u16 = b'_' as u16;
const BANG: u16 = b'!' as u16;

/// "Infinity" for the lexer's remaining-length bookkeeping.
const INF: usize = usize::MAX;

/// How deep containers (block quotes, list items) and inline spans (emphasis, links) are
/// lexed before the rest of a nested part is left as it is.
const MAX_DEPTH: usize = 256;

/// `s.indexOf(pat, from)` for an ASCII `pat`.
fn index_of_str(s: &[u16], pat: &str, from: usize) -> Option<usize> {
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

fn contains_str(s: &[u16], pat: &str) -> bool {
    index_of_str(s, pat, 0).is_some()
}

/// Whether `s` equals the ASCII `w`.
fn eq_str(s: &[u16], w: &str) -> bool {
    s.len() == w.len() && s.iter().zip(w.bytes()).all(|(&a, b)| a == b as u16)
}

fn c16(c: u8) -> i32 {
    c as i32
}

/// `s.charCodeAt(i)`, or -1 past the end.
#[inline]
fn at(s: &[u16], i: usize) -> i32 {
    s.get(i).map_or(-1, |&c| c as i32)
}

/// `s.codePointAt(i)`, or -1 past the end.
fn cp_at(s: &[u16], i: usize) -> i32 {
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
fn is_js_ws(c: i32) -> bool {
    u32::try_from(c).is_ok_and(crate::js::is_whitespace_code)
}

/// The lexer's character class: 0 whitespace, 1 punctuation or symbol (`\p{P}|\p{S}`),
/// 2 anything else. `c` is a code unit or a code point, never -1.
fn char_class(c: i32) -> u8 {
    if c < 128 {
        return match c {
            9..=13 | 32 => 0,
            33..=47 | 58..=64 | 91..=96 | 123..=126 => 1,
            _ => 2,
        };
    }
    if is_js_ws(c) {
        return 0;
    }
    if (0xD800..0xE000).contains(&c) {
        return 2;
    }
    if in_ranges32(PUNCT_OR_SYMBOL, c as u32) {
        1
    } else {
        2
    }
}

fn is_punct(c: i32) -> bool {
    c != -1 && char_class(c) == 1
}

fn is_space_class(c: i32) -> bool {
    c != -1 && char_class(c) == 0
}

/// `/^[\p{L}\p{N}]/u` on a one-unit string.
fn is_letter_or_number_unit(c: u16) -> bool {
    let r = LETTER_OR_NUMBER_BMP.binary_search_by(|&(a, b)| {
        if b < c {
            std::cmp::Ordering::Less
        } else if a > c {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    r.is_ok()
}

fn in_ranges32(t: &[(u32, u32)], c: u32) -> bool {
    t.binary_search_by(|&(a, b)| {
        if b < c {
            std::cmp::Ordering::Less
        } else if a > c {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    })
    .is_ok()
}

/// Line terminators for `.` in JavaScript regular expressions.
#[inline]
fn is_line_term(c: i32) -> bool {
    matches!(c, 10 | 13 | 0x2028 | 0x2029)
}

#[inline]
fn is_line_term_unit(c: u16) -> bool {
    c == LF || c == 13 || (c | 1) == 0x2029
}

fn is_ascii_alpha(c: i32) -> bool {
    (65..=90).contains(&c) || (97..=122).contains(&c)
}

fn is_digit(c: i32) -> bool {
    (48..=57).contains(&c)
}

/// `\w` without the `u` flag.
fn is_word(c: i32) -> bool {
    is_ascii_alpha(c) || is_digit(c) || c == 95
}

/// Skips a run of `ch` from `n`.
fn run_of(s: &[u16], n: usize, ch: u16) -> usize {
    let mut h = n;
    while h < s.len() && s[h] == ch {
        h += 1;
    }
    h.max(n)
}

/// Skips `[\t ]*`.
fn skip_tabs_spaces(s: &[u16], n: usize) -> usize {
    let mut h = n;
    while h < s.len() && (s[h] == SP || s[h] == TAB) {
        h += 1;
    }
    h
}

/// Skips `\s*`.
fn skip_ws(s: &[u16], n: usize) -> usize {
    let mut h = n;
    while h < s.len() && is_js_ws(s[h] as i32) {
        h += 1;
    }
    h
}

/// Skips at most three spaces.
fn skip_indent(s: &[u16], n: usize) -> usize {
    let mut h = n;
    while h < s.len() && h < n + 3 && s[h] == SP {
        h += 1;
    }
    h
}

/// Counts the spaces from `n`.
fn count_spaces(s: &[u16], n: usize) -> usize {
    run_of(s, n, SP) - n
}

/// Index of the next `\n` from `n`, or the length.
fn line_end(s: &[u16], n: usize) -> usize {
    if n >= s.len() {
        return s.len();
    }
    s[n..]
        .iter()
        .position(|&c| c == LF)
        .map_or(s.len(), |p| n + p)
}

/// Index of the next `\n`, `\r`, U+2028 or U+2029 from `n`, or the length.
fn any_line_end(s: &[u16], n: usize) -> usize {
    if n >= s.len() {
        return s.len();
    }
    s[n..]
        .iter()
        .position(|&c| is_line_term_unit(c))
        .map_or(s.len(), |p| n + p)
}

/// At a line end (or past the text).
fn at_eol(s: &[u16], n: usize) -> bool {
    n >= s.len() || s[n] == LF
}

fn trim_end_ch(s: &[u16], ch: u16) -> &[u16] {
    let mut e = s.len();
    while e > 0 && s[e - 1] == ch {
        e -= 1;
    }
    &s[..e]
}

fn is_blank_js(s: &[u16]) -> bool {
    s.iter().all(|&c| is_js_ws(c as i32))
}

/// `s.slice(a, b)` with JavaScript's clamping and negative indices.
fn js_slice(s: &[u16], a: i64, b: i64) -> &[u16] {
    let n = s.len() as i64;
    let fix = |x: i64| if x < 0 { (n + x).max(0) } else { x.min(n) };
    let (a, b) = (fix(a), fix(b));
    if a >= b {
        &[]
    } else {
        &s[a as usize..b as usize]
    }
}

fn from(s: &[u16], a: usize) -> &[u16] {
    if a >= s.len() { &[] } else { &s[a..] }
}

fn upto(s: &[u16], b: usize) -> &[u16] {
    &s[..b.min(s.len())]
}

fn index_of(s: &[u16], pat: &[u16], from: usize) -> Option<usize> {
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

fn index_of_unit(s: &[u16], c: u16, from: usize) -> Option<usize> {
    if from >= s.len() {
        return None;
    }
    s[from..].iter().position(|&x| x == c).map(|p| from + p)
}

/// `s.lastIndexOf(c, from)`.
fn last_index_of_unit(s: &[u16], c: u16, from: i64) -> i64 {
    if s.is_empty() || from < 0 {
        return -1;
    }
    let top = (from as usize).min(s.len() - 1);
    s[..=top]
        .iter()
        .rposition(|&x| x == c)
        .map_or(-1, |p| p as i64)
}

fn contains(s: &[u16], pat: &[u16]) -> bool {
    index_of(s, pat, 0).is_some()
}

fn starts_at(s: &[u16], pos: usize, pat: &[u16]) -> bool {
    pos <= s.len() && s[pos..].starts_with(pat)
}

fn starts_at_str(s: &[u16], pos: usize, pat: &str) -> bool {
    (pos..).zip(pat.bytes()).all(|(i, b)| at(s, i) == b as i32)
}

/// `s.replaceAll(a, b)`.
fn replace_all(s: &[u16], a: &[u16], b: &[u16]) -> Vec<u16> {
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

fn concat(a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut v = Vec::with_capacity(a.len() + b.len());
    v.extend_from_slice(a);
    v.extend_from_slice(b);
    v
}

fn ascii_lower(c: u16) -> u16 {
    if (65..=90).contains(&c) { c + 32 } else { c }
}

/// Case-insensitive (ASCII only, as JavaScript's `i` flag without `u` is here) comparison of
/// `s[pos..]` with the lowercase ASCII word `w`.
fn starts_at_ci(s: &[u16], pos: usize, w: &str) -> bool {
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
fn js_lower(s: &[u16]) -> Vec<u16> {
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
struct View {
    buf: Rc<[u16]>,
    start: usize,
    end: usize,
}

impl View {
    fn new(v: Vec<u16>) -> View {
        let end = v.len();
        View {
            buf: Rc::from(v),
            start: 0,
            end,
        }
    }
    fn s(&self) -> &[u16] {
        &self.buf[self.start..self.end]
    }
    fn len(&self) -> usize {
        self.end - self.start
    }
    fn is_empty(&self) -> bool {
        self.end == self.start
    }
    fn sub(&self, a: usize, b: usize) -> View {
        let start = (self.start + a).min(self.end);
        View {
            buf: self.buf.clone(),
            start,
            end: (self.start + b).clamp(start, self.end),
        }
    }
    fn skip(&self, n: usize) -> View {
        View {
            buf: self.buf.clone(),
            start: (self.start + n).min(self.end),
            end: self.end,
        }
    }
    /// JavaScript `===` on the two strings.
    fn same(&self, other: &View) -> bool {
        (Rc::ptr_eq(&self.buf, &other.buf) && self.start == other.start && self.end == other.end)
            || (self.len() == other.len() && self.s() == other.s())
    }
}

// ---------------------------------------------------------------------------------------------
// Block-level recognisers. Each takes the rest of the text (or a line) and answers where the
// construct ends, mirroring the lexer's regular expressions (noted above each function).
// ---------------------------------------------------------------------------------------------

/// Tag names that open an HTML block of CommonMark's kind 6.
const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "meta",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];

/// Tags whose HTML block runs to the closing tag.
const RAW_TAGS: &[&str] = &["script", "pre", "style", "textarea"];

fn is_block_tag(name: &[u16]) -> bool {
    BLOCK_TAGS
        .iter()
        .any(|t| t.len() == name.len() && t.bytes().zip(name).all(|(b, &c)| b as u16 == c))
}

/// `/(?:[\n >]|\/>)/y` at `k`.
fn tag_name_end(s: &[u16], k: usize) -> bool {
    let c = at(s, k);
    c == 10 || c == 32 || c == 62 || (c == 47 && at(s, k + 1) == 62)
}

/// `/<(?:!--|script|pre|style|textarea|\/?(?:TAGS)(?:[\n >]|\/>))/y` (case-sensitive).
fn html_interrupts_at(s: &[u16], p: usize) -> bool {
    if at(s, p) != LT as i32 {
        return false;
    }
    let q = p + 1;
    if starts_at_str(s, q, "!--") || RAW_TAGS.iter().any(|t| starts_at_str(s, q, t)) {
        return true;
    }
    let q = if at(s, q) == 47 { q + 1 } else { q };
    BLOCK_TAGS
        .iter()
        .any(|t| starts_at_str(s, q, t) && tag_name_end(s, q + t.len()))
}

/// `/ {0,3}<(?:!--|(?:script|pre|style|textarea)[\s>]|\/?(?:TAGS)(?:[\n >]|\/>))/iy`.
fn html_block_starts_at(s: &[u16], p: usize) -> bool {
    let k = skip_indent(s, p);
    if at(s, k) != LT as i32 {
        return false;
    }
    let q = k + 1;
    if starts_at_str(s, q, "!--") {
        return true;
    }
    for t in RAW_TAGS {
        if starts_at_ci(s, q, t) {
            let c = at(s, q + t.len());
            if c == 62 || (c != -1 && is_js_ws(c)) {
                return true;
            }
        }
    }
    let q = if at(s, q) == 47 { q + 1 } else { q };
    BLOCK_TAGS
        .iter()
        .any(|t| starts_at_ci(s, q, t) && tag_name_end(s, q + t.len()))
}

/// `/[A-Z][-\w]*/iy` at `n`: the end of a tag name, or `n`.
fn tag_name(s: &[u16], n: usize) -> usize {
    if !is_ascii_alpha(at(s, n)) {
        return n;
    }
    let mut i = n + 1;
    while i < s.len() && (is_word(s[i] as i32) || s[i] == b'-' as u16) {
        i += 1;
    }
    i
}

/// After `pat` found from `from`, or the length.
fn past_pattern(s: &[u16], pat: &str, from: usize) -> usize {
    index_of_str(s, pat, from).map_or(s.len(), |i| i + pat.len())
}

/// `/\n[\t\n ]*\n/g` from `n`: the end of the first blank line, or the length.
fn past_blank_line(s: &[u16], n: usize) -> usize {
    let mut i = n;
    while let Some(p) = index_of_unit(s, LF, i) {
        let mut r = p + 1;
        let mut last_nl = None;
        while r < s.len() && (s[r] == LF || s[r] == TAB || s[r] == SP) {
            if s[r] == LF {
                last_nl = Some(r);
            }
            r += 1;
        }
        if let Some(q) = last_nl {
            return q + 1;
        }
        i = r.max(p + 1);
    }
    s.len()
}

/// One attribute, `/ +[:A-Z_][-.:\w]*(?: *= *(?:[^\s"'<=>`]+|'[^\n']*'|"[^\n"]*"))?/iy`
/// (`ws` false) or its inline form with `\s` and multi-line quotes (`ws` true).
fn attribute(s: &[u16], p: usize, ws: bool) -> Option<usize> {
    let is_gap = |c: i32| if ws { c != -1 && is_js_ws(c) } else { c == 32 };
    let mut i = p;
    while is_gap(at(s, i)) {
        i += 1;
    }
    if i == p {
        return None;
    }
    let c = at(s, i);
    if !(c == 58 || c == 95 || is_ascii_alpha(c)) {
        return None;
    }
    i += 1;
    while i < s.len() && (is_word(s[i] as i32) || matches!(s[i], 45 | 46 | 58)) {
        i += 1;
    }
    let name_end = i;
    let mut j = i;
    while is_gap(at(s, j)) {
        j += 1;
    }
    if at(s, j) != 61 {
        return Some(name_end);
    }
    j += 1;
    while is_gap(at(s, j)) {
        j += 1;
    }
    let c = at(s, j);
    if c == 39 || c == 34 {
        let mut k = j + 1;
        while k < s.len() && s[k] as i32 != c && (ws || s[k] != LF) {
            k += 1;
        }
        return Some(if at(s, k) == c { k + 1 } else { name_end });
    }
    let plain = |c: i32| c != -1 && !is_js_ws(c) && !matches!(c, 34 | 39 | 60 | 61 | 62 | 96);
    if !plain(c) {
        return Some(name_end);
    }
    let mut k = j;
    while plain(at(s, k)) {
        k += 1;
    }
    Some(k)
}

/// Repeats `attribute` while it advances.
fn attributes(s: &[u16], p: usize, ws: bool) -> usize {
    let mut h = p;
    while let Some(e) = attribute(s, h, ws) {
        if e <= h {
            break;
        }
        h = e;
    }
    h
}

/// The length of a block-level HTML token at the start of `e`, if there is one.
fn html_block_len(e: &[u16]) -> Option<usize> {
    let n = skip_indent(e, 0);
    if at(e, n) != LT as i32 {
        return None;
    }
    let o = n + 1;
    let h = at(e, o);
    let eat_newlines = |x: usize| run_of(e, x, LF);
    if h == c16(b'?') {
        return Some(eat_newlines(past_pattern(e, "?>", o + 1)));
    }
    if h == c16(b'!') {
        if starts_at_str(e, o + 1, "--") {
            return Some(eat_newlines(line_end(e, past_pattern(e, "-->", o + 1))));
        }
        if tag_name(e, o + 1) > o + 1 {
            return Some(eat_newlines(past_pattern(e, ">", o)));
        }
        if starts_at_ci(e, o + 1, "[cdata[") {
            return Some(eat_newlines(past_pattern(e, "]]>", o + 8)));
        }
        return None;
    }
    let closing = h == 47;
    let y = if closing { o + 1 } else { o };
    let k = tag_name(e, y);
    let name: Vec<u16> = e[y..k].iter().map(|&c| ascii_lower(c)).collect();
    let after = at(e, k);
    if RAW_TAGS.iter().any(|t| starts_at_str(&name, 0, t)) {
        let exact = RAW_TAGS.iter().any(|t| eq_str(&name, t));
        if !closing && exact && (after == 62 || is_space_class(after)) {
            return Some(raw_tag_block_end(e, &name, k));
        }
        return None;
    }
    if is_block_tag(&name) && tag_name_end(e, k) {
        return Some(past_blank_line(e, k + 1));
    }
    if name.is_empty() {
        return None;
    }
    let d = if closing {
        // `/\s*>/y`
        let q = skip_ws(e, k);
        (at(e, q) == 62).then_some(q + 1)
    } else {
        // `/ *\/?>/y` after the attributes
        let q = run_of(e, attributes(e, k, false), SP);
        let q = if at(e, q) == 47 { q + 1 } else { q };
        (at(e, q) == 62).then_some(q + 1)
    };
    match d {
        Some(d) if at_eol(e, skip_tabs_spaces(e, d)) => Some(past_blank_line(e, d)),
        _ => None,
    }
}

/// A `<pre>`/`<script>`/`<style>`/`<textarea>` block: to the end of the line holding the
/// closing tag (and the newlines after it), or to the end of the text.
fn raw_tag_block_end(e: &[u16], name: &[u16], from: usize) -> usize {
    let mut close = vec![LT, b'/' as u16];
    close.extend_from_slice(name);
    close.push(GT);
    let mut g = index_of(e, &[LT, b'/' as u16], from);
    while let Some(p) = g {
        let cand = &e[p..(p + close.len()).min(e.len())];
        if cand.len() == close.len() && cand.iter().zip(&close).all(|(&a, &b)| ascii_lower(a) == b)
        {
            return run_of(e, line_end(e, p), LF);
        }
        g = index_of(e, &[LT, b'/' as u16], p + 2);
    }
    e.len()
}

/// `/ {0,3}\t| {4}/y` at `o`.
fn code_indent(s: &[u16], o: usize) -> Option<usize> {
    let sp = count_spaces(s, o);
    if sp >= 4 {
        return Some(o + 4);
    }
    (at(s, o + sp) == TAB as i32).then_some(o + sp + 1)
}

/// `/[\t\n ]*$|[\t\n ]*\n|/y` at `p`.
fn blank_tail(s: &[u16], p: usize) -> usize {
    let mut r = p;
    let mut last_nl = None;
    while r < s.len() && matches!(s[r], LF | TAB | SP) {
        if s[r] == LF {
            last_nl = Some(r);
        }
        r += 1;
    }
    if r >= s.len() {
        return s.len().max(p);
    }
    last_nl.map_or(p, |q| q + 1)
}

/// The length of an indented code block at the start of `e`.
fn indented_code_len(e: &[u16]) -> Option<usize> {
    let mut n: Option<usize> = None;
    let mut o = 0;
    loop {
        let Some(h) = code_indent(e, o) else { return n };
        if at_eol(e, h) {
            return n;
        }
        let g = line_end(e, h);
        let next = if g < e.len() { blank_tail(e, g + 1) } else { g };
        n = Some(next);
        o = next;
    }
}

/// The text of an indented code block (what a paragraph gets when one is merged into it).
fn indented_code_text(e: &[u16]) -> Vec<u16> {
    let mut n = Vec::new();
    let mut o = 0;
    while o < e.len() {
        let h = any_line_end(e, o) + 1;
        let g = skip_indent(e, o);
        let y = if g - o == 3 {
            at(e, g) == SP as i32
        } else {
            g == o && at(e, g) == TAB as i32
        };
        n.extend_from_slice(js_slice(e, (if y { g + 1 } else { g }) as i64, h as i64));
        o = h;
    }
    trim_end_ch(&n, LF).to_vec()
}

/// `/ {0,3}(?:`{3,}(?![^\n`]*`)|~{3,})/y`: the end of an opening fence.
fn fence_open(e: &[u16]) -> Option<usize> {
    let k = skip_indent(e, 0);
    let c = at(e, k);
    if c == TICK as i32 {
        let r = run_of(e, k, TICK);
        if r - k < 3 || e[r..line_end(e, r)].contains(&TICK) {
            return None;
        }
        return Some(r);
    }
    if c == TILDE as i32 {
        let r = run_of(e, k, TILDE);
        return (r - k >= 3).then_some(r);
    }
    None
}

/// Where the closing fence's line starts, if the fence is closed.
fn fence_close(e: &[u16], n: usize) -> Option<usize> {
    let fence = js::trim_start_units(&e[..n]).to_vec();
    let mut h = n;
    loop {
        // `/\n {0,3}(?=[`~])/g` from `h`
        let mut found = None;
        let mut i = h;
        while let Some(p) = index_of_unit(e, LF, i) {
            let sp = count_spaces(e, p + 1);
            let c = at(e, p + 1 + sp);
            if sp <= 3 && (c == TICK as i32 || c == TILDE as i32) {
                found = Some((p, p + 1 + sp));
                break;
            }
            i = p + 1;
        }
        let (nl, pos) = found?;
        if starts_at(e, pos, &fence) {
            // `/[`~]* *(?![^\n])/y`
            let mut q = pos + fence.len();
            while q < e.len() && (e[q] == TICK || e[q] == TILDE) {
                q += 1;
            }
            q = run_of(e, q, SP);
            if at_eol(e, q) {
                return Some(nl + 1);
            }
        }
        h = pos;
    }
}

/// The length of a fenced code block at the start of `e`.
fn fenced_code_len(e: &[u16]) -> Option<usize> {
    let n = fence_open(e)?;
    Some(match fence_close(e, n) {
        None => e.len(),
        Some(o) => line_end(e, o),
    })
}

/// `/^ {0,3}#{1,6}(?!\S).*(?![^\n])\n*/`.
fn atx_heading_len(e: &[u16]) -> Option<usize> {
    let k = skip_indent(e, 0);
    let r = run_of(e, k, HASH);
    if r == k || r - k > 6 {
        return None;
    }
    let c = at(e, r);
    if c != -1 && !is_js_ws(c) {
        return None;
    }
    let t = any_line_end(e, r);
    if t < e.len() && e[t] != LF {
        return None;
    }
    Some(run_of(e, t, LF))
}

/// The text of an ATX heading.
fn atx_heading_text(raw: &[u16]) -> Vec<u16> {
    let o = raw.iter().position(|&c| c == HASH).unwrap_or(0);
    let h = run_of(raw, o, HASH);
    let s = js::trim_units(from(raw, h));
    // `.replace(/(?:^| )#+$/, "")`
    let mut r = s.len();
    while r > 0 && s[r - 1] == HASH {
        r -= 1;
    }
    let s = if r == s.len() {
        s
    } else if r == 0 {
        &s[..0]
    } else if s[r - 1] == SP {
        &s[..r - 1]
    } else {
        s
    };
    js::trim_units(s).to_vec()
}

/// The thematic break `-[\t ]*-[\t ]*-[-\t ]*` (or with `_`, `*`) followed by a line end, at
/// `k`; answers the end of the line.
fn hr_body(s: &[u16], k: usize) -> Option<usize> {
    let c = at(s, k);
    if !(c == 45 || c == 95 || c == 42) {
        return None;
    }
    let mut count = 0;
    let mut j = k;
    while j < s.len() && (s[j] as i32 == c || s[j] == SP || s[j] == TAB) {
        if s[j] as i32 == c {
            count += 1;
        }
        j += 1;
    }
    (count >= 3 && at_eol(s, j)).then_some(j)
}

/// `/^ {0,3}HR\n*/` at `p`: the end of the line (the token's raw leaves the newlines out).
fn hr_at(s: &[u16], p: usize) -> Option<usize> {
    hr_body(s, skip_indent(s, p))
}

/// `/^(?:[\t\n ]*$|[\t ]*\n(?:[\t\n ]*\n)?)/`.
fn space_len(e: &[u16]) -> usize {
    let mut r = 0;
    let mut last_nl = None;
    while r < e.len() && matches!(e[r], LF | TAB | SP) {
        if e[r] == LF {
            last_nl = Some(r);
        }
        r += 1;
    }
    if r >= e.len() {
        return e.len();
    }
    let j = skip_tabs_spaces(e, 0);
    if at(e, j) != LF as i32 {
        return 0;
    }
    match last_nl {
        Some(q) if q > j => q + 1,
        _ => j + 1,
    }
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*])/` at `p`: the end of a list marker.
fn marker_at(s: &[u16], p: usize) -> Option<usize> {
    let k = skip_indent(s, p);
    let c = at(s, k);
    if c == 45 || c == 43 || c == 42 {
        return Some(k + 1);
    }
    if !is_digit(c) {
        return None;
    }
    let mut d = k;
    while is_digit(at(s, d)) {
        d += 1;
    }
    (d - k <= 9 && matches!(at(s, d), 41 | 46)).then_some(d + 1)
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*])(?![^\t\n ])/y` at `p`.
fn list_marker(s: &[u16], p: usize) -> Option<usize> {
    let m = marker_at(s, p)?;
    matches!(at(s, m), -1 | 9 | 10 | 32).then_some(m)
}

/// `/^ {0,3}(?:\d{1,9}[).]|[-+*])(?:[\t ][^\n]+)?(?![^\n])\n?/.test(e)`.
fn list_starts(e: &[u16]) -> bool {
    let Some(m) = marker_at(e, 0) else {
        return false;
    };
    match at(e, m) {
        -1 | 10 => true,
        9 | 32 => !matches!(at(e, m + 1), -1 | 10),
        _ => false,
    }
}

/// `/ {0,3}(?:>|[-+*] |1[).] |#{1,6}(?!\S)|`{3,}[^\n`]*\n|~~~[^\n]*\n|HR)| *\n|HTML/y`: a
/// line that ends a paragraph.
fn interrupts_paragraph(s: &[u16], p: usize) -> bool {
    let k = skip_indent(s, p);
    let c = at(s, k);
    let hit = match c {
        62 => true,
        45 | 43 | 42 if at(s, k + 1) == 32 => true,
        49 if matches!(at(s, k + 1), 41 | 46) && at(s, k + 2) == 32 => true,
        35 => {
            let r = run_of(s, k, HASH);
            let n = at(s, r);
            r - k <= 6 && (n == -1 || is_js_ws(n))
        }
        96 => {
            let r = run_of(s, k, TICK);
            let t = line_end(s, r);
            r - k >= 3 && t < s.len() && !s[r..t].contains(&TICK)
        }
        126 => starts_at_str(s, k, "~~~") && line_end(s, k) < s.len(),
        _ => false,
    };
    if hit || hr_body(s, k).is_some() {
        return true;
    }
    let sp = count_spaces(s, p);
    if at(s, p + sp) == LF as i32 {
        return true;
    }
    html_interrupts_at(s, p)
}

/// The end of a paragraph at the start of `e` (0 for none).
fn paragraph_len(e: &[u16]) -> usize {
    let mut h = line_end(e, 0);
    if h == 0 {
        return 0;
    }
    while h + 1 < e.len() {
        let g = line_end(e, h + 1);
        if interrupts_paragraph(e, h + 1) {
            break;
        }
        h = g;
    }
    h
}

/// `/ {0,3}(?:-+|=+) *(?![^\n])\n*/y` at `n`.
fn setext_underline(e: &[u16], n: usize) -> Option<usize> {
    let k = skip_indent(e, n);
    let c = at(e, k);
    if c != 45 && c != 61 {
        return None;
    }
    let r = run_of(e, k, c as u16);
    let q = run_of(e, r, SP);
    at_eol(e, q).then(|| run_of(e, q, LF))
}

/// `/(?![-+*] |\d{1,9}[).] | {0,3}(?:[\t#>]|```|~~~|<[^\n>]+>\n)| {4}).*\n/y` at `n`: a line
/// that can be part of a setext heading's text.
fn setext_text_line(e: &[u16], n: usize) -> Option<usize> {
    let c = at(e, n);
    if matches!(c, 45 | 43 | 42) && at(e, n + 1) == 32 {
        return None;
    }
    if is_digit(c) {
        let mut d = n;
        while is_digit(at(e, d)) {
            d += 1;
        }
        if d - n <= 9 && matches!(at(e, d), 41 | 46) && at(e, d + 1) == 32 {
            return None;
        }
    }
    let sp = count_spaces(e, n);
    if sp >= 4 {
        return None;
    }
    let k = n + sp;
    match at(e, k) {
        9 | 35 | 62 => return None,
        96 if starts_at_str(e, k, "```") => return None,
        126 if starts_at_str(e, k, "~~~") => return None,
        60 => {
            let mut j = k + 1;
            while j < e.len() && e[j] != LF && e[j] != GT {
                j += 1;
            }
            if j > k + 1 && at(e, j) == GT as i32 && at(e, j + 1) == LF as i32 {
                return None;
            }
        }
        _ => {}
    }
    let t = any_line_end(e, n);
    (at(e, t) == LF as i32).then_some(t + 1)
}

/// `/[^\S\n]*\n/y` at `n`.
fn blank_line_at(e: &[u16], n: usize) -> bool {
    let mut i = n;
    while i < e.len() && e[i] != LF && is_js_ws(e[i] as i32) {
        i += 1;
    }
    at(e, i) == LF as i32
}

/// Where a setext underline could start (positive), or `!(how far the text lines go)`.
fn setext_scan(e: &[u16]) -> i64 {
    let mut n = 0usize;
    while let Some(o) = setext_text_line(e, n) {
        n = o;
        if n > 1 && setext_underline(e, n).is_some() {
            return n as i64;
        }
        if blank_line_at(e, n) {
            break;
        }
    }
    !(n as i64)
}

/// The length of a setext heading at the start of `e`.
fn setext_len(e: &[u16]) -> Option<usize> {
    let n = setext_scan(e);
    if n < 0 {
        return None;
    }
    setext_underline(e, n as usize)
}

/// Strips `/ {0,3}>[\t ]?/` from the start of every line.
fn strip_quote_markers(e: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(e.len());
    let mut o = 0;
    while o < e.len() {
        let mut h = o;
        let k = skip_indent(e, o);
        if at(e, k) == GT as i32 {
            h = k + 1;
            if matches!(at(e, h), 9 | 32) {
                h += 1;
            }
        }
        let next = any_line_end(e, h) + 1;
        out.extend_from_slice(js_slice(e, h as i64, next as i64));
        o = next;
    }
    out
}

/// `/^ {0,3}>/` at `p` (`p` may be past the end).
fn quote_marker_at(s: &[u16], p: usize) -> bool {
    p <= s.len() && at(s, skip_indent(s, p)) == GT as i32
}

/// `/[\t ]*(?![^\n])| {0,3}(?:\d{1,9}[).]|[-+*])(?:[\t ][^\n]|\n)/y` at `p`.
fn blank_or_marker_line(s: &[u16], p: usize) -> bool {
    if at_eol(s, skip_tabs_spaces(s, p)) {
        return true;
    }
    let Some(m) = marker_at(s, p) else {
        return false;
    };
    match at(s, m) {
        10 => true,
        9 | 32 => !matches!(at(s, m + 1), -1 | 10),
        _ => false,
    }
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*]|`{3,}[^\n`]*|~~~[^\n]*)$/y` at `p` (`$` being the end of `s`).
fn last_line_opens_block(s: &[u16], p: usize) -> bool {
    if let Some(m) = marker_at(s, p)
        && m == s.len()
    {
        return true;
    }
    let k = skip_indent(s, p);
    if starts_at_str(s, k, "```") {
        let r = run_of(s, k, TICK);
        return !s[r..].iter().any(|&c| c == TICK || c == LF);
    }
    starts_at_str(s, k, "~~~") && !s[k..].contains(&LF)
}

/// `#|```|~~~|(?:- *- *-[- ]*|_ *_ *_[_ ]*|[*] *[*] *[*][* ]*)$` at `w` of a line.
fn opens_block_line(y: &[u16], w: usize) -> bool {
    let c = at(y, w);
    if c == HASH as i32 || starts_at_str(y, w, "```") || starts_at_str(y, w, "~~~") {
        return true;
    }
    if !(c == 45 || c == 95 || c == 42) {
        return false;
    }
    let mut count = 0;
    for &u in &y[w..] {
        if u as i32 == c {
            count += 1;
        } else if u != SP {
            return false;
        }
    }
    count >= 3
}

/// The first non-space index (tabs count as non-space), or the length.
fn first_non_space(y: &[u16]) -> usize {
    y.iter().position(|&c| c != SP).unwrap_or(y.len())
}

/// `/^[\t ]*$/`.
fn only_tabs_spaces(y: &[u16]) -> bool {
    y.iter().all(|&c| c == SP || c == TAB)
}

/// A line that ends a list item when it starts within `D` columns: the case-insensitive
/// `#|```|~~~|HR$|<!--|<[A-Z].*>|(?:\d{1,9}[).]|[-+*])(?![^\t ])` at `w`.
fn ends_list_item(y: &[u16], w: usize) -> bool {
    if opens_block_line(y, w) || starts_at_str(y, w, "<!--") {
        return true;
    }
    if at(y, w) == LT as i32 && is_ascii_alpha(at(y, w + 1)) {
        let t = any_line_end(y, w + 2);
        if y[(w + 2).min(t)..t].contains(&GT) {
            return true;
        }
    }
    // `w` is at the line's first non-space, so `marker_at` finds no indentation to skip.
    matches!(marker_at(y, w), Some(m) if matches!(at(y, m), -1 | 9 | 32))
}

/// `/^(?: {0,3}\t| {4})[\t ]*[^\t ]/`.
fn indented_code_line(y: &[u16]) -> bool {
    match code_indent(y, 0) {
        Some(p) => skip_tabs_spaces(y, p) < y.len(),
        None => false,
    }
}

/// Whether a line under-indented for the item may still continue its paragraph lazily.
fn lazy_allowed(previous: &[u16], limit: usize) -> bool {
    let o = first_non_space(previous);
    !indented_code_line(previous) && (o > limit || !opens_block_line(previous, o))
}

fn expand_tabs(y: &[u16]) -> Vec<u16> {
    let mut x = Vec::with_capacity(y.len());
    for &c in y {
        if c == TAB {
            x.extend_from_slice(&[SP; 4]);
        } else {
            x.push(c);
        }
    }
    x
}

/// `/\n[\t ]*$/`.
fn ends_in_blank_line(raw: &[u16]) -> bool {
    let t = raw.iter().rposition(|&c| c != SP && c != TAB);
    matches!(t, Some(i) if raw[i] == LF)
}

/// `s.replace(/\n[\t ]+/g, "\n")`.
fn dedent_continuations(s: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        out.push(s[i]);
        if s[i] == LF {
            let j = skip_tabs_spaces(s, i + 1);
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// `s.replace(/^[\t\n ]+/, "")`.
fn strip_leading_blank(s: &[u16]) -> &[u16] {
    let n = s
        .iter()
        .take_while(|&&c| matches!(c, LF | TAB | SP))
        .count();
    &s[n..]
}

// ---------------------------------------------------------------------------------------------
// Link reference definitions.
// ---------------------------------------------------------------------------------------------

/// `/(?:[^[\\\]]+|\\.)*/` from `n`, then `]` with some non-space in between: the `]` index.
fn label_end(e: &[u16], n: usize) -> Option<usize> {
    let mut o = n;
    loop {
        let c = at(e, o);
        if c == -1 || c == LBR as i32 || c == RBR as i32 {
            break;
        }
        if c == BSL as i32 {
            let d = at(e, o + 1);
            if d == -1 || is_line_term(d) {
                break;
            }
            o += 2;
        } else {
            o += 1;
        }
    }
    (at(e, o) == RBR as i32 && skip_ws(e, n) < o).then_some(o)
}

/// Spaces, then at most one newline and the next line's indentation.
fn def_gap(e: &[u16], n: usize) -> usize {
    let o = run_of(e, n, SP);
    if at(e, o) == LF as i32 {
        skip_tabs_spaces(e, o + 1)
    } else {
        o
    }
}

/// Spaces to the end of the line, then the newlines: the end, or -1.
fn def_line_end(e: &[u16], n: usize) -> i64 {
    let o = run_of(e, n, SP);
    if at_eol(e, o) {
        run_of(e, o, LF) as i64
    } else {
        -1
    }
}

/// The last `close` after `n` (the first unescaped one, stepping back while `ok` fails).
fn closing_quote(e: &[u16], n: usize, close: u16, ok: impl Fn(&[u16], usize) -> i64) -> i64 {
    let mut g = index_of_unit(e, close, n + 1);
    let mut y: i64 = -1;
    while let Some(p) = g {
        y = p as i64;
        if p == n + 1 || e[p - 1] != BSL {
            break;
        }
        g = index_of_unit(e, close, p + 1);
    }
    while y > n as i64 && ok(e, (y + 1) as usize) == -1 {
        y = last_index_of_unit(e, close, y - 1);
    }
    if y > n as i64 { y } else { -1 }
}

/// What follows a definition's destination ending at `h`: an optional title, then the line
/// end. Answers the definition's length.
fn def_tail(e: &[u16], h: usize) -> Option<usize> {
    let g = def_gap(e, h);
    let mut y: i64 = -1;
    if g > h {
        match at(e, g) {
            34 => y = closing_quote(e, g, b'"' as u16, def_line_end),
            39 => {
                y = index_of_unit(e, b'\'' as u16, g + 1).map_or(-1, |p| p as i64);
                if y > g as i64 && contains(&e[g..y as usize], &[LF, LF]) {
                    y = -1;
                }
            }
            40 => {
                let p = (g + 1..e.len())
                    .find(|&i| e[i] == LPAR || e[i] == RPAR)
                    .unwrap_or(e.len());
                y = if at(e, p) == RPAR as i32 {
                    p as i64
                } else {
                    -1
                };
            }
            _ => {}
        }
    }
    let k = if y == -1 {
        -1
    } else {
        def_line_end(e, (y + 1) as usize)
    };
    if k != -1 {
        return Some(k as usize);
    }
    let c = def_line_end(e, h);
    (c != -1).then_some(c as usize)
}

/// A link reference definition at the start of `e`: its length and raw label.
fn link_definition(e: &[u16]) -> Option<(usize, Vec<u16>)> {
    let n = skip_indent(e, 0);
    if at(e, n) != LBR as i32 {
        return None;
    }
    let o = label_end(e, n + 1)?;
    if o <= n + 1 || at(e, o + 1) != c16(b':') {
        return None;
    }
    let label = e[n + 1..o].to_vec();
    let g = def_gap(e, o + 2);
    if at(e, g) != LT as i32 {
        let k = (g..e.len())
            .find(|&i| is_js_ws(e[i] as i32))
            .unwrap_or(e.len());
        if k == g {
            return None;
        }
        return def_tail(e, k).map(|len| (len, label));
    }
    let y = any_line_end(e, g);
    let mut k = index_of_unit(e, GT, g);
    while let Some(p) = k {
        if p >= y {
            break;
        }
        if let Some(len) = def_tail(e, p + 1) {
            return Some((len, label));
        }
        k = index_of_unit(e, GT, p + 1);
    }
    None
}

/// A label as a key of the link map: whitespace runs collapsed to one space, lower-cased.
fn normalize_label(label: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(label.len());
    let mut i = 0;
    while i < label.len() {
        if is_js_ws(label[i] as i32) {
            while i < label.len() && is_js_ws(label[i] as i32) {
                i += 1;
            }
            out.push(SP);
        } else {
            out.push(label[i]);
            i += 1;
        }
    }
    js_lower(&out)
}

// ---------------------------------------------------------------------------------------------
// Tokens and lexer state.
// ---------------------------------------------------------------------------------------------

const ROOT: usize = 0;
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Root,
    Space,
    Code,
    Heading,
    Hr,
    Blockquote,
    List,
    ListItem,
    Html,
    Def,
    Paragraph,
    Text,
    Escape,
    Br,
    Codespan,
    Em,
    Strong,
    Link,
    Image,
}

struct Tok {
    kind: Kind,
    /// The source's length when the token was made.
    len: usize,
    /// Whether the source ends in a newline and blanks (`/\n[\t ]*$/`).
    ends_blank: bool,
    /// The text (for a definition: its normalized label).
    text: Vec<u16>,
    /// Shared with the string being lexed: an inline text token's text, or the source of an
    /// HTML block or a definition (then `text` is not used for it).
    shared: Option<View>,
    /// The tokens inside (a list's items), as a linked list: first, last, and each one's next.
    first: u32,
    last: u32,
    next: u32,
    /// For block HTML: where the token's source starts in the whole text (it is `len` long).
    span: Option<usize>,
}

impl Tok {
    fn new(kind: Kind, len: usize, ends_blank: bool, text: Vec<u16>) -> Tok {
        Tok {
            kind,
            len,
            ends_blank,
            text,
            shared: None,
            first: NONE,
            last: NONE,
            next: NONE,
            span: None,
        }
    }
    /// The source of an HTML block or a definition.
    fn raw(&self) -> &[u16] {
        self.shared.as_ref().map_or(&[], View::s)
    }
    /// The token's text.
    fn text(&self) -> &[u16] {
        match &self.shared {
            Some(v) => v.s(),
            None => &self.text,
        }
    }
}

/// The tokens inside `owner`, in order.
fn children(toks: &[Tok], owner: usize) -> impl Iterator<Item = usize> + '_ {
    let mut c = toks[owner].first;
    std::iter::from_fn(move || {
        if c == NONE {
            return None;
        }
        let id = c as usize;
        c = toks[id].next;
        Some(id)
    })
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Method {
    Space,
    Code,
    Fences,
    Heading,
    Hr,
    Blockquote,
    List,
    Html,
    Def,
    Lheading,
    Paragraph,
    Text,
}

/// The block rules tried, in order, for the character after up to three spaces.
fn block_methods(c: i32) -> &'static [Method] {
    use Method::*;
    const TAIL: [Method; 3] = [Lheading, Paragraph, Text];
    match c {
        -1 | 10 => &[Space, Lheading, Paragraph, Text],
        32 | 9 => &[Space, Code, Lheading, Paragraph, Text],
        96 | 126 => &[Fences, Lheading, Paragraph, Text],
        35 => &[Heading, Lheading, Paragraph, Text],
        95 => &[Hr, Lheading, Paragraph, Text],
        45 | 42 => &[Hr, List, Lheading, Paragraph, Text],
        43 | 48..=57 => &[List, Lheading, Paragraph, Text],
        62 => &[Blockquote, Lheading, Paragraph, Text],
        60 => &[Html, Lheading, Paragraph, Text],
        91 => &[Def, Lheading, Paragraph, Text],
        _ => &TAIL,
    }
}

/// A list item's geometry while its lines are gathered.
#[derive(Clone)]
struct Item {
    indent: usize,
    previous: Vec<u16>,
    saw_blank: bool,
    ends_in_blank: bool,
    stop: usize,
    end: usize,
    kind: u16,
}

/// A container (block quote or list item) being lexed: its source and how much of it is used.
struct Ctx {
    src: View,
    before: Vec<u16>,
    end: usize,
    taken: usize,
    item: Option<Item>,
    cut: Vec<u16>,
}

/// One run of block lexing (the whole text, or one container's text).
struct Level {
    has_text: bool,
    rest: View,
    owner: usize,
    last: Option<usize>,
    tried: usize,
    method: Method,
    paragraph_open: bool,
    container: Option<usize>,
    outer: Option<usize>,
    passed: Vec<u16>,
    owed: Vec<u16>,
    outer_no_setext: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Absent {
    Backticks(usize),
    Pi,
    Comment,
    Cdata,
    Gt,
}

/// Look-ahead results remembered during one inline run, as distances from the text's end.
struct Notes {
    absent: Vec<(Absent, usize)>,
    ahead_paren: Option<usize>,
    ahead_gt: Option<usize>,
    after_marks: usize,
    end_space: Option<usize>,
    closers: [Option<(usize, usize)>; 2],
}

impl Notes {
    fn new() -> Notes {
        Notes {
            absent: Vec::new(),
            ahead_paren: None,
            ahead_gt: None,
            after_marks: INF,
            end_space: None,
            closers: [None, None],
        }
    }
    fn is_absent(&self, e: &[u16], key: Absent, o: usize) -> bool {
        let rem = e.len() as i64 - o as i64;
        self.absent
            .iter()
            .find(|(k, _)| *k == key)
            .is_some_and(|&(_, v)| rem <= v as i64)
    }
    fn note_absent(&mut self, e: &[u16], key: Absent, o: usize) {
        let v = e.len().saturating_sub(o);
        match self.absent.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = v,
            None => self.absent.push((key, v)),
        }
    }
    /// Whether `ch` occurs at or after `o`.
    fn is_ahead(&mut self, e: &[u16], ch: u16, o: usize) -> bool {
        let slot = if ch == RPAR {
            &mut self.ahead_paren
        } else {
            &mut self.ahead_gt
        };
        let h = *slot.get_or_insert_with(|| {
            e.iter()
                .rposition(|&c| c == ch)
                .map_or(INF, |p| e.len() - p)
        });
        h != INF && e.len() - o.min(e.len()) >= h
    }
    /// The end of `pat` searched from `o`, remembering when there is none.
    fn past(&mut self, e: &[u16], key: Absent, pat: &str, o: usize) -> Option<usize> {
        if self.is_absent(e, key, o) {
            return None;
        }
        match index_of_str(e, pat, o) {
            Some(i) => Some(i + pat.len()),
            None => {
                self.note_absent(e, key, o);
                None
            }
        }
    }
    /// Whether position `n` lies before the text's trailing whitespace.
    fn before_end_space(&mut self, e: &[u16], n: usize) -> bool {
        let end_space = *self.end_space.get_or_insert_with(|| {
            let last = e
                .iter()
                .rposition(|&c| !is_js_ws(c as i32))
                .map_or(0, |p| p + 1);
            e.len() - last
        });
        e.len() as i64 - n as i64 > end_space as i64
    }
}

struct Lexer {
    /// Every token; `ROOT` holds the top-level ones.
    toks: Vec<Tok>,
    /// The block runs in progress, outermost first.
    levels: Vec<Level>,
    /// The containers being lexed, outermost first.
    ctxs: Vec<Ctx>,
    /// Tokens whose inline children are still to be lexed, in order.
    queue: Vec<usize>,
    /// The labels of the link reference definitions seen (normalized).
    links: HashSet<Vec<u16>>,
    /// Whether paragraphs are paragraphs (true) or bare text (in list items).
    top: bool,
    /// The rest of the text at the last block dispatch (setext headings look at it).
    block_rest: Option<View>,
    /// No setext heading starts while more than this much text is left (`INF`: no bound).
    no_setext_until: usize,
    /// The innermost block run.
    cur_level: Option<usize>,
    /// The current inline run's remembered look-aheads.
    notes: Notes,
    /// The length of the whole (newline-normalized) text.
    total: usize,
    /// How many containers and inline spans enclose the current run.
    depth: usize,
    /// False when only the block structure is wanted (no inline pass follows).
    keep_text: bool,
}

impl Lexer {
    fn new(total: usize, keep_text: bool) -> Lexer {
        let root = Tok::new(Kind::Root, 0, false, Vec::new());
        let mut toks = Vec::with_capacity(64);
        toks.push(root);
        Lexer {
            toks,
            levels: Vec::with_capacity(8),
            ctxs: Vec::with_capacity(8),
            queue: Vec::new(),
            links: HashSet::new(),
            top: true,
            block_rest: None,
            no_setext_until: INF,
            cur_level: None,
            notes: Notes::new(),
            total,
            depth: 0,
            keep_text,
        }
    }

    fn lex(&mut self, src: &[u16]) {
        self.block_tokens(View::new(src.to_vec()), ROOT, None);
    }

    fn run_inline_queue(&mut self) {
        let queue = std::mem::take(&mut self.queue);
        for t in queue {
            // Only a block text token's own text is read afterwards.
            let text: Rc<[u16]> = if self.toks[t].kind == Kind::Text {
                Rc::from(self.toks[t].text.as_slice())
            } else {
                Rc::from(std::mem::take(&mut self.toks[t].text))
            };
            self.inline_tokens(text, t);
        }
    }

    fn tok(&mut self, kind: Kind, raw: &[u16], text: &[u16]) -> usize {
        let keep = self.keep_text || !matches!(kind, Kind::Paragraph | Kind::Text | Kind::Heading);
        let text = if keep { text.to_vec() } else { Vec::new() };
        let ends_blank = ends_in_blank_line(raw);
        self.toks.push(Tok::new(kind, raw.len(), ends_blank, text));
        self.toks.len() - 1
    }

    /// An inline token: only its source's length is kept.
    fn itok(&mut self, kind: Kind, len: usize) -> usize {
        self.toks.push(Tok::new(kind, len, false, Vec::new()));
        self.toks.len() - 1
    }

    /// An inline text token holding `src[a..b]`.
    fn text_tok(&mut self, src: &Rc<[u16]>, a: usize, b: usize) -> usize {
        let t = self.itok(Kind::Text, b - a);
        self.toks[t].shared = Some(View {
            buf: src.clone(),
            start: a,
            end: b,
        });
        t
    }

    fn push_child(&mut self, owner: usize, t: usize) {
        let id = t as u32;
        match self.toks[owner].last {
            NONE => self.toks[owner].first = id,
            l => self.toks[l as usize].next = id,
        }
        self.toks[owner].last = id;
    }

    /// A token whose text gets inline tokens later.
    fn tok_inline(&mut self, kind: Kind, raw: &[u16], text: &[u16]) -> usize {
        let t = self.tok(kind, raw, text);
        if self.keep_text {
            self.queue.push(t);
        }
        t
    }

    /// Appends to a paragraph or text token, keeping its pending inline run in step (and
    /// dropping any queued after it, as the original does).
    fn merge(&mut self, t: usize, text: &[u16], sep: &[u16]) {
        if !self.keep_text {
            return;
        }
        let tok = &mut self.toks[t];
        tok.text.extend_from_slice(sep);
        tok.text.extend_from_slice(text);
        if let Some(g) = self.queue.iter().rposition(|&q| q == t) {
            self.queue.truncate(g + 1);
        }
    }

    fn last_child(&self, owner: usize) -> Option<usize> {
        match self.toks[owner].last {
            NONE => None,
            l => Some(l as usize),
        }
    }

    fn is_para_or_text(&self, t: Option<usize>) -> bool {
        t.is_some_and(|t| matches!(self.toks[t].kind, Kind::Paragraph | Kind::Text))
    }

    // ----- the block driver -----

    fn block_tokens(&mut self, text: View, owner: usize, container: Option<usize>) {
        // Levels (and containers) live on stacks: only a level's ancestors are ever looked at.
        let lv = self.levels.len();
        self.levels.push(Level {
            has_text: !text.is_empty(),
            rest: text,
            owner,
            last: self.last_child(owner),
            tried: 0,
            method: Method::Text,
            paragraph_open: false,
            container,
            outer: self.cur_level,
            passed: Vec::new(),
            owed: Vec::new(),
            outer_no_setext: self.no_setext_until,
        });
        self.no_setext_until = INF;
        self.cur_level = Some(lv);
        let mut produced = None;
        while self.next_block(lv, produced) {
            let rest = self.levels[lv].rest.clone();
            produced = match self.levels[lv].method {
                Method::Blockquote => self.blockquote(&rest),
                Method::List => self.list(&rest),
                _ => None,
            };
        }
        self.cur_level = self.levels[lv].outer;
        self.no_setext_until = self.levels[lv].outer_no_setext;
        self.top = true;
        self.levels.truncate(lv);
    }

    /// Files the token just produced and lexes on until a container (block quote or list) is
    /// to be tried; answers false when the level is done.
    fn next_block(&mut self, lv: usize, produced: Option<usize>) -> bool {
        let mut o = self.levels[lv].rest.clone();
        let mut h = self.levels[lv].tried;
        let mut g = self.levels[lv].method;
        let mut y = self.levels[lv].last;
        let mut k = produced;
        let owner = self.levels[lv].owner;
        if k.is_none() && !self.levels[lv].passed.is_empty() {
            let passed = std::mem::take(&mut self.levels[lv].passed);
            o = View::new(concat(&passed, o.s()));
            self.no_setext_until = INF;
        }
        loop {
            if let Some(kt) = k {
                let d = y.map(|t| self.toks[t].kind);
                let klen = self.toks[kt].len;
                let merges = if matches!(g, Method::Code | Method::Def) {
                    matches!(d, Some(Kind::Paragraph | Kind::Text))
                } else {
                    (g == Method::Text && d == Some(Kind::Text))
                        || (g == Method::Paragraph
                            && d == Some(Kind::Paragraph)
                            && self.levels[lv].paragraph_open)
                };
                if g == Method::Space && y.is_some() && klen == 1 {
                    // (the original appends the newline to the last token's source; nothing
                    // reads a source that way again, an HTML block's trailing newline included)
                } else if merges {
                    if let Some(yt) = y {
                        let text = if g == Method::Def {
                            self.toks[kt].raw().to_vec()
                        } else {
                            self.toks[kt].text.clone()
                        };
                        self.merge(yt, &text, &[LF]);
                    }
                } else if g != Method::Def {
                    self.push_child(owner, kt);
                    y = Some(kt);
                } else {
                    let tag = self.toks[kt].text.clone();
                    self.links.insert(tag);
                }
                let passed = std::mem::take(&mut self.levels[lv].passed);
                if !passed.is_empty() {
                    o = if klen < passed.len() {
                        View::new(concat(&passed, o.s())).skip(klen)
                    } else {
                        o.skip(klen - passed.len())
                    };
                    self.no_setext_until = INF;
                } else {
                    o = o.skip(klen);
                }
                if g == Method::Paragraph {
                    self.levels[lv].paragraph_open = false;
                }
                h = 0;
            }
            if o.is_empty()
                && self.levels[lv].container.is_some()
                && self.wants_lazy_lines(lv, g, k, y)
            {
                o = self.lazy_lines(lv);
                y = self.last_child(owner);
            }
            if o.is_empty() {
                return false;
            }
            self.block_rest = Some(o.clone());
            let methods = block_methods(at(o.s(), skip_indent(o.s(), 0)));
            k = None;
            while k.is_none() {
                let Some(&m) = methods.get(h) else {
                    return false;
                };
                h += 1;
                g = m;
                if m == Method::Blockquote || m == Method::List {
                    let l = &mut self.levels[lv];
                    l.rest = o;
                    l.tried = h;
                    l.method = m;
                    l.last = y;
                    return true;
                }
                if m != Method::Paragraph || self.top {
                    k = self.block_method(m, &o);
                }
            }
        }
    }

    /// Whether a container whose text ran out should look for lazy continuation lines.
    fn wants_lazy_lines(&self, _lv: usize, g: Method, k: Option<usize>, y: Option<usize>) -> bool {
        let Some(kt) = k else { return false };
        let ok = if g == Method::Code {
            y != Some(kt)
        } else {
            matches!(g, Method::Paragraph | Method::Text | Method::Def)
        };
        ok && !self.toks[kt].ends_blank
    }

    fn block_method(&mut self, m: Method, rest: &View) -> Option<usize> {
        let s = rest.s();
        match m {
            Method::Space => {
                let n = space_len(s);
                (n > 0).then(|| self.tok(Kind::Space, &s[..n], &[]))
            }
            Method::Code => {
                let n = indented_code_len(s).filter(|&n| n > 0)?;
                let text = indented_code_text(&s[..n]);
                Some(self.tok(Kind::Code, &s[..n], &text))
            }
            Method::Fences => {
                let n = fenced_code_len(s).filter(|&n| n > 0)?;
                Some(self.tok(Kind::Code, &s[..n], &[]))
            }
            Method::Heading => {
                let n = atx_heading_len(s)?;
                let text = if self.keep_text {
                    atx_heading_text(&s[..n])
                } else {
                    Vec::new()
                };
                Some(self.tok_inline(Kind::Heading, &s[..n], &text))
            }
            Method::Hr => {
                let j = hr_at(s, 0)?;
                Some(self.tok(Kind::Hr, &s[..j], &[]))
            }
            Method::Html => {
                let n = html_block_len(s).filter(|&n| n > 0)?;
                let t = self.tok(Kind::Html, &s[..n], &[]);
                self.toks[t].shared = Some(rest.sub(0, n));
                self.toks[t].span = Some(self.total.saturating_sub(s.len()));
                Some(t)
            }
            Method::Def => self.definition(rest),
            Method::Lheading => self.setext(s, true),
            Method::Paragraph => {
                let n = paragraph_len(s);
                (n > 0).then(|| self.tok_inline(Kind::Paragraph, &s[..n], &s[..n]))
            }
            Method::Text => {
                let n = line_end(s, 0);
                (n > 0).then(|| self.tok_inline(Kind::Text, &s[..n], &s[..n]))
            }
            Method::Blockquote | Method::List => None,
        }
    }

    fn definition(&mut self, rest: &View) -> Option<usize> {
        let s = rest.s();
        let (len, label) = link_definition(s)?;
        let tag = normalize_label(&label);
        let t = self.tok(Kind::Def, &s[..len], &tag);
        self.toks[t].shared = Some(rest.sub(0, len));
        Some(t)
    }

    /// A setext heading; `is_rest` when `s` is the level's rest (not a made-up string).
    fn setext(&mut self, s: &[u16], is_rest: bool) -> Option<usize> {
        if is_rest && s.len() > self.no_setext_until {
            return None;
        }
        let h = if is_rest { setext_scan(s) } else { 0 };
        if h < 0 {
            self.no_setext_until = s.len().saturating_sub((!h) as usize);
            return None;
        }
        let g = setext_len(s)?;
        let whole = &s[..g];
        let o = trim_end_ch(whole, LF);
        let h = o.iter().rposition(|&c| c == LF).map_or(0, |p| p + 1);
        let text = js_slice(o, 0, h as i64 - 1).to_vec();
        Some(self.tok_inline(Kind::Heading, whole, &text))
    }

    // ----- containers -----

    fn blockquote(&mut self, rest: &View) -> Option<usize> {
        let s = rest.s();
        if !quote_marker_at(s, 0) || self.depth >= MAX_DEPTH {
            return None;
        }
        let n = line_end(s, 0);
        let mut text = strip_quote_markers(&s[..n]);
        let tok = self.tok(Kind::Blockquote, &[], &[]);
        let c = self.ctxs.len();
        self.ctxs.push(Ctx {
            src: rest.clone(),
            before: Vec::new(),
            end: n,
            taken: 0,
            item: None,
            cut: Vec::new(),
        });
        let more = self.gather(c);
        text.extend_from_slice(&more);
        let text = View::new(text);
        let saved_top = self.top;
        self.top = true;
        self.depth += 1;
        self.block_tokens(text, tok, Some(c));
        self.depth -= 1;
        self.top = saved_top;
        let ctx = &self.ctxs[c];
        self.toks[tok].len = ctx.before.len() + js_slice(ctx.src.s(), 0, ctx.end as i64).len();
        self.ctxs.truncate(c);
        Some(tok)
    }

    fn list(&mut self, rest: &View) -> Option<usize> {
        let s0 = rest.s();
        if !list_starts(s0) || self.depth >= MAX_DEPTH {
            return None;
        }
        let kind = list_marker(s0, 0).map_or(0, |m| s0[m - 1]);
        let list = self.tok(Kind::List, &[], &[]);
        let mut l_before: Vec<u16> = Vec::new();
        let mut l_src = rest.clone();
        let mut l_end = 0usize;
        let mut l_taken = 0usize;
        while let Some(y) = next_item_marker(l_src.s(), l_end, kind) {
            let (item, mut z) = item_start(l_src.s(), l_end, y);
            let keep = if item_is_last(&item, l_src.s()) {
                js::trim_end_units(&z).len()
            } else {
                z.len()
            };
            let cut = z[keep..].to_vec();
            z.truncate(keep);
            let it = self.tok(Kind::ListItem, &[], &[]);
            self.push_child(list, it);
            let c = self.ctxs.len();
            let stop = item.stop;
            self.ctxs.push(Ctx {
                src: l_src.clone(),
                before: Vec::new(),
                end: stop,
                taken: 0,
                item: Some(item),
                cut,
            });
            self.top = false;
            self.depth += 1;
            self.block_tokens(View::new(z), it, Some(c));
            self.depth -= 1;
            // (an item's own source is never read again; only the list's length matters)
            let ctx = &self.ctxs[c];
            let item_end = ctx.item.as_ref().map_or(0, |i| i.end);
            if !ctx.before.is_empty() {
                l_before.extend_from_slice(&ctx.before);
                l_src = ctx.src.clone();
                l_taken = ctx.taken;
            }
            l_end = item_end;
            self.ctxs.truncate(c);
        }
        self.last_child(list)?;
        let s = l_src.s();
        let keep = l_taken.max(js::trim_end_units(js_slice(s, 0, l_end as i64)).len());
        self.toks[list].len = l_before.len() + js_slice(s, 0, keep as i64).len();
        Some(list)
    }

    /// The container's next lines: for a block quote the lines that start with `>`, for a
    /// list item the lines indented under it (its geometry updated).
    fn gather(&mut self, c: usize) -> Vec<u16> {
        let src = self.ctxs[c].src.clone();
        let s = src.s();
        let end = self.ctxs[c].end;
        if let Some(mut item) = self.ctxs[c].item.take() {
            let whole = !under_indented(s, end + 1, item.indent);
            item.previous.clear();
            let body = if whole {
                s
            } else {
                js_slice(s, 0, end as i64 + 1)
            };
            let mut y = Vec::new();
            item_lines(&mut item, body, end, &mut y);
            let k = if item_is_last(&item, s) {
                js::trim_end_units(&y)
            } else {
                &y[..]
            };
            let klen = k.len();
            let ctx = &mut self.ctxs[c];
            ctx.end = item.stop;
            ctx.cut = y[klen..].to_vec();
            ctx.item = Some(item);
            return y[..klen].to_vec();
        }
        let mut h = Vec::new();
        let mut e = end;
        let mut g = e + 1;
        while quote_marker_at(s, g) {
            e = line_end(s, g);
            h.push(LF);
            h.extend(strip_quote_markers(&s[g..e]));
            g = e + 1;
        }
        self.ctxs[c].end = e;
        h
    }

    /// Lazy continuation lines for the container `c` (nested in a container when `nested`).
    fn lazy_take(&mut self, c: usize, nested: bool) -> Option<Vec<u16>> {
        let ctx = &self.ctxs[c];
        let s = ctx.src.s();
        let g = ctx.end;
        let found = match &ctx.item {
            None => lazy_run(s, g, nested),
            Some(item) => {
                if !ctx.before.is_empty() && !item.ends_in_blank && !ctx.cut.contains(&LF) {
                    item_lazy_run(s, g, item.indent)
                } else {
                    None
                }
            }
        }?;
        let taken = js_slice(s, g as i64 + 1, found as i64).to_vec();
        let ctx = &mut self.ctxs[c];
        ctx.end = found;
        ctx.taken = found;
        Some(taken)
    }

    /// When a container's text runs out inside a paragraph, pulls in the lazy continuation
    /// lines that follow it (in it or in the containers around it) and answers the new rest.
    fn lazy_lines(&mut self, e: usize) -> View {
        let mut chain: Vec<usize> = vec![e];
        let mut o = 0usize;
        // Every round takes at least one line or returns; the bound only guards against a bug.
        let mut rounds = 0usize;
        loop {
            rounds += 1;
            if rounds > 2 * self.total + 8 {
                return View::new(Vec::new());
            }
            let mut g = o;
            let h = loop {
                let lv = chain[g];
                let Some(c) = self.levels[lv].container else {
                    break None;
                };
                let outer = self.levels[lv].outer;
                let outer_container = outer.and_then(|i| self.levels[i].container).is_some();
                let h = self.lazy_take(c, outer_container);
                let ctx = &self.ctxs[c];
                let stop = h.is_some()
                    || !outer_container
                    || ctx.end < ctx.src.len()
                    || ctx.item.as_ref().is_some_and(|i| i.ends_in_blank)
                    || ctx.cut.contains(&LF)
                    || outer.is_none_or(|i| !ctx.src.same(&self.levels[i].rest));
                if stop {
                    break h;
                }
                let Some(next) = outer else { break None };
                g += 1;
                if g < chain.len() {
                    chain[g] = next;
                } else {
                    chain.push(next);
                }
            };
            let mut y: Vec<u16> = Vec::new();
            let mut k: Vec<u16> = Vec::new();
            if let Some(hh) = &h {
                o = g;
                let Some(c) = self.levels[chain[o]].container else {
                    return View::new(Vec::new());
                };
                y = concat(&self.ctxs[c].cut, &[LF]);
                y.extend_from_slice(hh);
                // (the container's token text grows by `y + k` in the original; it is not read
                // again, its nested lexing having started from a copy)
                k = self.gather(c);
            }
            while !k.is_empty() || h.is_none() {
                let lv = chain[o];
                if !self.levels[lv].owed.is_empty() {
                    let owed = std::mem::take(&mut self.levels[lv].owed);
                    y = concat(&owed, &y);
                }
                if o == 0 {
                    let i = if y.is_empty() {
                        Vec::new()
                    } else {
                        self.continue_paragraph(e, &y, &k)
                    };
                    let last = self.last_child(self.levels[e].owner);
                    if !i.is_empty()
                        || h.is_none()
                        || !self.is_para_or_text(last)
                        || ends_in_blank_line(&k)
                    {
                        return View::new(i);
                    }
                    y.clear();
                    break;
                }
                if !y.is_empty() {
                    let Some(ic) = self.levels[chain[o - 1]].container else {
                        return View::new(Vec::new());
                    };
                    if let Some(item) = &self.ctxs[ic].item
                        && !k.is_empty()
                        && let Some(d) = item_lazy_run(&k, 0, item.indent)
                    {
                        let d = d.min(k.len());
                        y.extend_from_slice(&k[..d]);
                        k = k[d..].to_vec();
                    }
                    let rest = self.levels[lv].rest.clone();
                    self.levels[lv].passed.extend_from_slice(rest.s());
                    self.ctxs[ic].before.extend_from_slice(rest.s());
                    let joined = View::new(if k.is_empty() {
                        y.clone()
                    } else {
                        concat(&y, &k)
                    });
                    self.ctxs[ic].src = joined.clone();
                    self.levels[lv].rest = joined;
                    self.ctxs[ic].end = y.len();
                    self.ctxs[ic].taken = y.len();
                    if !self.ctxs[ic].cut.is_empty() {
                        y = concat(&self.ctxs[ic].cut, &y);
                    }
                    k = self.gather(ic);
                }
                o -= 1;
            }
            let lv = chain[o];
            self.levels[lv].owed.extend_from_slice(&y);
        }
    }

    /// Adds lazy continuation text `n` to the level's last paragraph (or starts one), then
    /// sees whether what follows (`o`) continues it or makes it a setext heading; answers the
    /// level's new rest.
    fn continue_paragraph(&mut self, e: usize, n: &[u16], o: &[u16]) -> Vec<u16> {
        let owner = self.levels[e].owner;
        let last = self.last_child(owner);
        self.no_setext_until = INF;
        let g = match last {
            Some(t) if self.is_para_or_text(Some(t)) => {
                let text = if self.toks[t].kind == Kind::Text {
                    dedent_continuations(n)
                } else {
                    n.to_vec()
                };
                self.merge(t, &text, &[]);
                t
            }
            _ => {
                let mut i: Vec<u16> = strip_leading_blank(n).to_vec();
                while self.levels[e].has_text {
                    let Some((len, label)) = link_definition(&i) else {
                        break;
                    };
                    self.links.insert(normalize_label(&label));
                    i = strip_leading_blank(&i[len.min(i.len())..]).to_vec();
                }
                if i.is_empty() {
                    return o.iter().copied().skip_while(|&c| c == LF).collect();
                }
                let (kind, text) = if self.top {
                    (Kind::Paragraph, i.clone())
                } else {
                    (Kind::Text, dedent_continuations(&i))
                };
                let t = self.tok_inline(kind, &i, &text);
                self.push_child(owner, t);
                t
            }
        };
        self.levels[e].paragraph_open = true;
        if o.is_empty() {
            return Vec::new();
        }
        let y = concat(&[b'x' as u16], o);
        let is_rest = self
            .block_rest
            .as_ref()
            .is_some_and(|b| b.len() == y.len() && b.s() == &y[..]);
        let heading = self.setext(&y, is_rest);
        let c = match heading {
            Some(hd) => Some(hd),
            None if self.toks[g].kind == Kind::Paragraph => {
                let n = paragraph_len(&y);
                (n > 0).then(|| self.tok_inline(Kind::Paragraph, &y[..n], &y[..n]))
            }
            None => None,
        };
        let Some(c) = c else { return o.to_vec() };
        let text = from(&self.toks[c].text, 1).to_vec();
        let used = self.toks[c].len;
        self.merge(g, &text, &[]);
        if heading.is_some() {
            self.toks[g].kind = Kind::Heading;
        }
        from(&y, used).to_vec()
    }
}

// ----- list-item geometry -----

/// Where the next item of the list (marker kind `kind`) starts its content, from `n`.
fn next_item_marker(e: &[u16], n: usize, kind: u16) -> Option<usize> {
    let h = list_marker(e, n)?;
    if e[h - 1] != kind || hr_at(e, n).is_some() {
        return None;
    }
    Some(h)
}

fn item_is_last(item: &Item, src: &[u16]) -> bool {
    next_item_marker(src, item.end, item.kind).is_none()
}

/// A list item starting at line `n` with its marker ending at `o`: its geometry and the
/// content gathered so far.
fn item_start(e: &[u16], n: usize, o: usize) -> (Item, Vec<u16>) {
    let h = line_end(e, o);
    let g = run_of(e, o, TAB);
    let mut y: Vec<u16> = Vec::new();
    if g > o {
        y.resize(3 * (g - o), SP);
    }
    y.extend_from_slice(js_slice(e, g as i64, h as i64));
    let blank = is_blank_js(&y);
    let mut indent = o - n;
    let mut content: Vec<u16> = Vec::new();
    if blank {
        indent += 1;
    } else {
        let z = count_spaces(e, o);
        let w = if z > 4 { 1 } else { z };
        content = from(&y, w).to_vec();
        indent += w;
    }
    let d = if blank {
        let p = (h + 1).min(e.len());
        let q = skip_tabs_spaces(e, p);
        at_eol(e, q).then(|| if at(e, q) == LF as i32 { q + 1 } else { q })
    } else {
        None
    };
    let mut item = Item {
        indent,
        previous: y,
        saw_blank: blank,
        ends_in_blank: true,
        stop: h,
        end: d.unwrap_or(0),
        kind: e[o - 1],
    };
    if d.is_none() {
        item_lines(&mut item, e, h, &mut content);
    }
    (item, content)
}

/// Gathers the item's following lines from `o` (a line end) in `n`, appending them to `k`.
fn item_lines(item: &mut Item, n: &[u16], o: usize, k: &mut Vec<u16>) {
    let h = item.indent;
    let mut g = std::mem::take(&mut item.previous);
    let mut y = item.saw_blank;
    let mut c = o;
    let mut last: Option<(usize, usize)> = None;
    let limit = 3.min(h.saturating_sub(1));
    let mut hh = c + 1;
    while hh < n.len() {
        let z = line_end(n, hh);
        let line = &n[hh..z];
        let w = first_non_space(line);
        if w <= limit && ends_list_item(line, w) {
            break;
        }
        let x: Cow<'_, [u16]> = if line.contains(&TAB) {
            Cow::Owned(expand_tabs(line))
        } else {
            Cow::Borrowed(line)
        };
        let blank = is_blank_js(line);
        let q = from(&x, h);
        if blank || first_non_space(&x) >= h {
            k.push(LF);
            k.extend_from_slice(q);
        } else if y || !lazy_allowed(&g, limit) {
            break;
        } else {
            k.push(LF);
            k.extend_from_slice(line);
        }
        y = y || blank;
        last = Some((hh, z));
        g.clear();
        g.extend_from_slice(q);
        c = z;
        hh = c + 1;
    }
    item.previous = g;
    item.saw_blank = y;
    item.ends_in_blank = last.is_some_and(|(a, b)| only_tabs_spaces(&n[a..b]));
    item.stop = c;
    item.end = (c + 1).min(n.len());
}

/// A non-blank line at `n` indented less than `indent` columns (tabs as four).
fn under_indented(e: &[u16], n: usize, indent: usize) -> bool {
    let h = skip_tabs_spaces(e, n.min(e.len()));
    if n > e.len() || at_eol(e, h) {
        return false;
    }
    e[n..h]
        .iter()
        .map(|&c| if c == TAB { 4 } else { 1 })
        .sum::<usize>()
        < indent
}

/// Lazy continuation lines from the line after `n`: where the last one ends.
fn lazy_run(e: &[u16], n: usize, nested: bool) -> Option<usize> {
    let mut h: Option<usize> = None;
    let mut g = n + 1;
    while g < e.len() {
        if interrupts_paragraph(e, g)
            || blank_or_marker_line(e, g)
            || html_block_starts_at(e, g)
            || (nested && last_line_opens_block(e, g))
        {
            break;
        }
        let end = line_end(e, g);
        h = Some(end);
        g = end + 1;
    }
    h
}

/// Lazy continuation lines for a list item: under-indented lines that are not list markers.
fn item_lazy_run(e: &[u16], n: usize, indent: usize) -> Option<usize> {
    let mut h = n;
    while under_indented(e, h + 1, indent) && list_marker(e, h + 1).is_none() {
        h = line_end(e, h + 1);
    }
    lazy_run(upto(e, h), n, true)
}

// ---------------------------------------------------------------------------------------------
// Inline lexing.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum InlineMethod {
    Escape,
    Br,
    Tag,
    Autolink,
    Link,
    Reflink,
    EmStrong,
    Codespan,
    Text,
}

/// The inline rules tried, in order, for a first character.
fn inline_methods(c: u16) -> &'static [InlineMethod] {
    use InlineMethod::*;
    match c {
        0x5C => &[Escape, Br, Text],
        0x20 => &[Br, Text],
        0x3C => &[Tag, Autolink, Text],
        0x21 | 0x5B => &[Link, Reflink, Text],
        0x2A | 0x5F => &[EmStrong, Text],
        0x60 => &[Codespan, Text],
        _ => &[Text],
    }
}

/// What an inline rule produced: plain text (`len` units of the rest) or a finished token.
enum Piece {
    Text(usize),
    Tok(usize),
}

struct InlineState {
    pos: usize,
    tried: usize,
    before: Option<u16>,
    last: Option<usize>,
    mask: Option<Vec<u16>>,
}

impl Lexer {
    fn inline_tokens(&mut self, text: Rc<[u16]>, owner: usize) {
        if self.depth >= MAX_DEPTH {
            // Too deep to lex further: keep the text as one text token.
            if !text.is_empty() {
                let t = self.text_tok(&text, 0, text.len());
                self.push_child(owner, t);
            }
            return;
        }
        self.depth += 1;
        let saved = std::mem::replace(&mut self.notes, Notes::new());
        let mut st = InlineState {
            pos: 0,
            tried: 0,
            before: None,
            last: self.last_child(owner),
            mask: None,
        };
        let mut produced = None;
        while self.inline_step(&text, owner, &mut st, produced) {
            produced = self.em_strong(&text, &st);
        }
        self.notes = saved;
        self.depth -= 1;
    }

    /// Files what was produced and lexes on until emphasis is to be tried; false when done.
    fn inline_step(
        &mut self,
        src: &Rc<[u16]>,
        owner: usize,
        st: &mut InlineState,
        produced: Option<usize>,
    ) -> bool {
        let text: &[u16] = src;
        let mut pos = st.pos;
        let mut k = st.tried;
        let mut before = st.before;
        let mut last = st.last;
        let mut d = produced.map(Piece::Tok);
        let mut method: Option<InlineMethod> = None;
        loop {
            if let Some(piece) = d.take() {
                let by_text = method == Some(InlineMethod::Text);
                let (raw_len, is_text) = match piece {
                    Piece::Text(n) => (n, true),
                    Piece::Tok(t) => (self.toks[t].len, false),
                };
                let merge = last.is_some_and(|l| self.toks[l].kind == Kind::Text)
                    && (by_text || (method == Some(InlineMethod::Reflink) && is_text));
                let raw = &text[pos..pos + raw_len];
                match (merge, piece, last) {
                    (true, _, Some(l)) => {
                        // text pieces are consecutive, so the last one ends where this starts
                        if let Some(v) = &mut self.toks[l].shared {
                            v.end = pos + raw_len;
                        }
                    }
                    (_, Piece::Text(_), _) => {
                        let t = self.text_tok(src, pos, pos + raw_len);
                        self.push_child(owner, t);
                        last = Some(t);
                    }
                    (_, Piece::Tok(t), _) => {
                        self.push_child(owner, t);
                        last = Some(t);
                    }
                }
                if !by_text || raw.last() != Some(&UNDER) {
                    before = if by_text { raw.last().copied() } else { None };
                }
                pos += raw_len;
                k = 0;
            }
            if pos >= text.len() {
                return false;
            }
            let methods = inline_methods(text[pos]);
            loop {
                let Some(&m) = methods.get(k) else {
                    return false;
                };
                k += 1;
                method = Some(m);
                if m == InlineMethod::EmStrong {
                    if st.mask.is_none() {
                        st.mask = Some(self.emphasis_mask(text));
                    }
                    *st = InlineState {
                        pos,
                        tried: k,
                        before,
                        last,
                        mask: st.mask.take(),
                    };
                    return true;
                }
                if let Some(p) = self.inline_method(m, src, pos) {
                    d = Some(p);
                    break;
                }
            }
        }
    }

    fn inline_method(&mut self, m: InlineMethod, src: &Rc<[u16]>, pos: usize) -> Option<Piece> {
        let e = &src[pos..];
        match m {
            InlineMethod::Escape => {
                let c = at(e, 1);
                let ok = at(e, 0) == BSL as i32
                    && (33..=126).contains(&c)
                    && !is_ascii_alpha(c)
                    && !is_digit(c);
                ok.then(|| Piece::Tok(self.itok(Kind::Escape, 2)))
            }
            InlineMethod::Br => {
                // `/(?:\\|  +)\n/y`, before the text's trailing whitespace
                let o = if at(e, 0) == BSL as i32 {
                    (at(e, 1) == LF as i32).then_some(2)
                } else {
                    let s = count_spaces(e, 0);
                    (s >= 2 && at(e, s) == LF as i32).then_some(s + 1)
                }?;
                self.notes
                    .before_end_space(e, o)
                    .then(|| Piece::Tok(self.itok(Kind::Br, o)))
            }
            InlineMethod::Tag => {
                let n = self.inline_html(e)?;
                Some(Piece::Tok(self.tok(Kind::Html, &e[..n], &[])))
            }
            InlineMethod::Autolink => {
                let (n, inner) = autolink(e)?;
                let link = self.itok(Kind::Link, n);
                let t = self.text_tok(src, pos + inner.start, pos + inner.end);
                self.push_child(link, t);
                Some(Piece::Tok(link))
            }
            InlineMethod::Link => {
                let n = usize::from(at(e, 0) == BANG as i32);
                if at(e, n) != LBR as i32 {
                    return None;
                }
                let o = label_close(e, n + 1)?;
                if at(e, o + 1) != LPAR as i32 {
                    return None;
                }
                let end = self.link_destination(e, o + 1)?;
                let label = e[n + 1..o].to_vec();
                Some(Piece::Tok(self.link_token(&e[..end], &label)))
            }
            InlineMethod::Reflink => {
                let o = usize::from(at(e, 0) == BANG as i32);
                if at(e, o) != LBR as i32 {
                    return None;
                }
                let r = reference(e, o)?;
                if !self.links.contains(&normalize_label(&e[r.label.clone()])) {
                    return Some(Piece::Text(1));
                }
                let label = e[r.text].to_vec();
                Some(Piece::Tok(self.link_token(&e[..r.end], &label)))
            }
            InlineMethod::Codespan => {
                let n = run_of(e, 0, TICK);
                if n == 0 {
                    return None;
                }
                let o = self.code_span_end(e, n)?;
                Some(Piece::Tok(self.itok(Kind::Codespan, o)))
            }
            InlineMethod::Text => {
                let n = self.text_len(e);
                (n > 0).then_some(Piece::Text(n))
            }
            InlineMethod::EmStrong => None,
        }
    }

    fn link_token(&mut self, raw: &[u16], label: &[u16]) -> usize {
        if at(raw, 0) == BANG as i32 {
            return self.itok(Kind::Image, raw.len());
        }
        let text = replace_all(
            &replace_all(label, &[BSL, LBR], &[LBR]),
            &[BSL, RBR],
            &[RBR],
        );
        let t = self.itok(Kind::Link, raw.len());
        self.inline_tokens(Rc::from(text), t);
        t
    }

    /// The end of a code span opened by `n` backticks.
    fn code_span_end(&mut self, e: &[u16], n: usize) -> Option<usize> {
        let key = Absent::Backticks(n);
        if self.notes.is_absent(e, key, n) {
            return None;
        }
        let mut g = index_of_unit(e, TICK, n);
        while let Some(p) = g {
            let y = run_of(e, p, TICK);
            if y - p == n {
                return Some(y);
            }
            g = index_of_unit(e, TICK, y);
        }
        self.notes.note_absent(e, key, n);
        None
    }

    /// Raw inline HTML at the start of `e`: its length.
    fn inline_html(&mut self, e: &[u16]) -> Option<usize> {
        if at(e, 0) != LT as i32 {
            return None;
        }
        match at(e, 1) {
            0x3F => self.notes.past(e, Absent::Pi, "?>", 2),
            0x21 => {
                if starts_at_str(e, 2, "--") {
                    return self.notes.past(e, Absent::Comment, "-->", 2);
                }
                if starts_at_str(e, 2, "[CDATA[") {
                    return self.notes.past(e, Absent::Cdata, "]]>", 9);
                }
                // `/[A-Z]+\s/iy`
                let mut i = 2;
                while is_ascii_alpha(at(e, i)) {
                    i += 1;
                }
                let c = at(e, i);
                if i == 2 || c == -1 || !is_js_ws(c) {
                    return None;
                }
                self.notes.past(e, Absent::Gt, ">", i + 1)
            }
            0x2F => {
                // `/[A-Z][-:\w]*\s*>/iy` at 2
                if !is_ascii_alpha(at(e, 2)) {
                    return None;
                }
                let mut i = 3;
                while i < e.len()
                    && (is_word(e[i] as i32) || e[i] == b'-' as u16 || e[i] == b':' as u16)
                {
                    i += 1;
                }
                let i = skip_ws(e, i);
                (at(e, i) == GT as i32).then_some(i + 1)
            }
            _ => {
                let o = tag_name(e, 1);
                if o == 1 || !self.notes.is_ahead(e, GT, o) {
                    return None;
                }
                // attributes, then `/\s*\/?>/y`
                let q = skip_ws(e, attributes(e, o, true));
                let q = if at(e, q) == b'/' as i32 { q + 1 } else { q };
                (at(e, q) == GT as i32).then_some(q + 1)
            }
        }
    }

    /// The end of an inline link's `(destination "title")` opening at `n`.
    fn link_destination(&mut self, e: &[u16], n: usize) -> Option<usize> {
        // `/\([!-'*-;=-[\]-~]+\)/y`
        let simple = |c: u16| (0x21..=0x7E).contains(&c) && !matches!(c, 0x28 | 0x29 | 0x3C | 0x5C);
        let mut i = n + 1;
        while i < e.len() && simple(e[i]) {
            i += 1;
        }
        if i > n + 1 && at(e, i) == RPAR as i32 {
            return Some(i + 1);
        }
        if !self.notes.is_ahead(e, RPAR, n) {
            return None;
        }
        let g = skip_ws(e, n + 1);
        let angle = at(e, g) == LT as i32;
        if angle && !self.notes.is_ahead(e, GT, g) {
            return None;
        }
        let k = (g..e.len())
            .find(|&i| e[i] < 0x21 || is_js_ws(e[i] as i32))
            .unwrap_or(e.len());
        let mut found: Option<(usize, i64, i64)> = None;
        let first = if angle { 0 } else { 1 };
        for attempt in first..3 {
            if found.is_some() {
                break;
            }
            let mut z = g as i64;
            let mut y = k as i64;
            if attempt == 0 {
                let mut q = g + 1;
                loop {
                    match at(e, q) {
                        -1 | 10 | 0x3C | 0x3E => break,
                        0x5C => {
                            let d = at(e, q + 1);
                            if d == -1 || is_line_term(d) {
                                break;
                            }
                            q += 2;
                        }
                        _ => q += 1,
                    }
                }
                y = if q > g + 1 && at(e, q) == GT as i32 {
                    q as i64 + 1
                } else {
                    -1
                };
            } else if attempt == 2 {
                y = last_index_of_unit(e, RPAR, k as i64 - 1);
                if y < g as i64 {
                    z = n as i64 + 1;
                    y = z;
                }
            }
            found = link_tail(e, z, y);
        }
        let (end, dz, dy) = found?;
        let dest = js_slice(e, dz, dy);
        if !angle {
            let h = unbalanced_paren(dest);
            if h == -1 {
                return Some(end);
            }
            return Some(js::trim_end_units(js_slice(e, 0, n as i64 + h + 2)).len());
        }
        let mut d = dest.len() as i64 - 1;
        while d >= 1 && dest[(d - 1) as usize] == BSL {
            d -= 1;
        }
        if dest.last() != Some(&GT) || (dest.len() as i64 - 1 - d) % 2 == 1 {
            return None;
        }
        Some(end)
    }

    /// Where a text run starting at `e` ends.
    fn text_len(&mut self, e: &[u16]) -> usize {
        // `/`+|[^]/y`
        let h = if at(e, 0) == TICK as i32 {
            run_of(e, 0, TICK)
        } else {
            1
        };
        let mut y = h;
        while y < e.len() {
            let c = e[y];
            if matches!(c, 0x21 | 0x2A | 0x3C | 0x5B | 0x5C | 0x5F | 0x60) {
                return y;
            }
            if c == SP && at(e, y + 1) == SP as i32 {
                // `  \n`, found at its first two spaces
                let mut j = y;
                while at(e, j) == SP as i32 {
                    j += 1;
                }
                if at(e, j) == LF as i32 {
                    if !self.notes.before_end_space(e, j) {
                        return e.len();
                    }
                    let mut k = j;
                    while k > h && e[k - 1] == SP {
                        k -= 1;
                    }
                    return k;
                }
                y = j;
                continue;
            }
            y += 1;
        }
        e.len()
    }

    /// Emphasis or strong emphasis opening the rest, with its inner tokens.
    fn em_strong(&mut self, text: &Rc<[u16]>, st: &InlineState) -> Option<usize> {
        let n = &text[st.pos..];
        let mask = st.mask.as_deref()?;
        let y = at(n, 0);
        if y != STAR as i32 && y != UNDER as i32 {
            return None;
        }
        if n.len() <= self.notes.after_marks {
            self.notes.after_marks = n.len() - run_of(n, 1, y as u16);
        }
        let c = n.len().checked_sub(self.notes.after_marks)?;
        if c == n.len() || is_space_class(at(n, c)) {
            return None;
        }
        if !can_open(n, c, st.before) {
            return None;
        }
        let abs = (mask.len() as i64 - n.len() as i64 + c as i64).max(0) as usize;
        let (start, size) = self.find_closer(mask, abs, y as u16, c)?;
        let raw_len = c as i64 + start as i64 + size;
        let z = 2 - ((c as i64).min(size) & 1);
        if raw_len <= 0 {
            return None;
        }
        let raw = js_slice(n, 0, raw_len);
        let inner: Vec<u16> = js_slice(raw, z, -z).to_vec();
        let kind = if z == 1 { Kind::Em } else { Kind::Strong };
        let t = self.itok(kind, raw.len());
        self.inline_tokens(Rc::from(inner), t);
        Some(t)
    }

    /// Searches the mask from `n` (just after an opening run of `c_len` `ch`) for the closing
    /// run; answers its start (relative to `n`) and how many of its marks close.
    fn find_closer(&mut self, e: &[u16], n: usize, ch: u16, c_len: usize) -> Option<(usize, i64)> {
        let star = ch == STAR;
        let slot = usize::from(!star);
        let cached = self.notes.closers[slot];
        if let Some((last, _)) = cached
            && ((e.len() - n.min(e.len())) as i64) < last as i64
            && at(e, n + 1) != ch as i32
        {
            return None;
        }
        let mut h = c_len as i64;
        let mut z: i64 = 0;
        let y0 = skip_orphans(e, n, star);
        let mut w: i64 = y0 as i64 - 1;
        let mut x: usize = 1;
        let mut te = index_of_unit(e, ch, y0);
        while let Some(t) = te {
            let q = run_of(e, t + 1, ch);
            if t == n {
                te = index_of_unit(e, ch, q);
                continue;
            }
            if let Some((last, _)) = cached
                && t > n + 1
                && ((e.len() - t) as i64) < last as i64
            {
                return None;
            }
            let mut ie = at(e, t - 1);
            if (0xDC00..=0xDFFF).contains(&ie) && t >= n + 2 {
                let se = cp_at(e, t - 2);
                if se > 0xFFFF {
                    ie = se;
                }
            }
            let after = cp_at(e, q);
            let ce = if ie == -1 { 0 } else { char_class(ie) };
            let ae = if after == -1 { 0 } else { char_class(after) };
            let both = if ce == ae {
                ce == 1 || (star && ce == 2)
            } else {
                false
            };
            let len = (q - t) as i64;
            if ce < ae && !both {
                h += len;
                if let Some((_, marks)) = cached
                    && h > marks as i64
                {
                    return None;
                }
            } else if ce > ae || both {
                w = t as i64;
                x += q - t;
                if both && !c_len.is_multiple_of(3) && (c_len as i64 + len) % 3 == 0 {
                    z += len;
                } else {
                    h -= len;
                    if h <= 0 {
                        return Some((t - n, len + (h + z).min(0)));
                    }
                }
            }
            te = index_of_unit(e, ch, q);
        }
        self.notes.closers[slot] = Some(((e.len() as i64 - w).max(0) as usize, x));
        None
    }

    /// The mask emphasis is matched on: the text with defined reference links, inline links,
    /// autolinks/HTML, code spans and escapes blanked out (same length).
    fn emphasis_mask(&self, text: &[u16]) -> Vec<u16> {
        let s = if self.links.is_empty() {
            text.to_vec()
        } else {
            mask_references(text, &self.links)
        };
        mask_escapes(&mask_spans(&s))
    }
}

/// Whether a run of `c` emphasis marks at the start of `n` can open, given the character
/// before it.
fn can_open(n: &[u16], c: usize, before: Option<u16>) -> bool {
    let Some(b) = before else { return true };
    let next = cp_at(n, c);
    let next_class = if next == -1 { 0 } else { char_class(next) };
    if next_class == 2 {
        return n[0] == STAR || !is_letter_or_number_unit(b);
    }
    b != STAR && b != UNDER && char_class(b as i32) != 2
}

/// Skips an orphan `*` inside `__strong__` (or `_` inside `**strong**`), as marked does.
fn skip_orphans(e: &[u16], n: usize, star: bool) -> usize {
    let (outer, inner) = if star { (UNDER, STAR) } else { (STAR, UNDER) };
    let plain = |c: u16| c != STAR && c != UNDER;
    let mut i = n;
    while i < e.len() && plain(e[i]) {
        i += 1;
    }
    if !(at(e, i) == outer as i32 && at(e, i + 1) == outer as i32) {
        return n;
    }
    i += 2;
    while i < e.len() && plain(e[i]) {
        i += 1;
    }
    if at(e, i) != inner as i32 {
        return n;
    }
    i += 1;
    while i < e.len() && plain(e[i]) {
        i += 1;
    }
    if at(e, i) == outer as i32 && at(e, i + 1) == outer as i32 {
        return i.max(n);
    }
    n
}

/// `[…]` / `[…][…]` at `n`, the `]` closing a link text (one level of nested brackets,
/// code spans and escapes skipped).
fn label_close(e: &[u16], n: usize) -> Option<usize> {
    let mut nested = false;
    let special = |c: u16| matches!(c, LBR | RBR | BSL | TICK);
    let mut h = (n..e.len()).find(|&i| special(e[i])).unwrap_or(e.len());
    while h < e.len() {
        match e[h] {
            BSL => {
                h += 1;
                if h == e.len() || is_line_term(e[h] as i32) {
                    return None;
                }
            }
            TICK => {
                if !nested {
                    h = index_of_unit(e, TICK, h + 1)?;
                }
            }
            LBR => {
                if nested {
                    return None;
                }
                nested = true;
            }
            _ => {
                if !nested {
                    return Some(h);
                }
                nested = false;
            }
        }
        h = (h + 1..e.len()).find(|&i| special(e[i])).unwrap_or(e.len());
    }
    None
}

struct Reference {
    end: usize,
    text: std::ops::Range<usize>,
    label: std::ops::Range<usize>,
    short: bool,
}

/// A reference link `[text][label]`, `[label][]` or `[label]` opening at `n`.
fn reference(e: &[u16], n: usize) -> Option<Reference> {
    if let Some(o) = label_close(e, n + 1) {
        let k = o + 1;
        if at(e, k) == LBR as i32
            && let Some(c) = label_end(e, k + 1)
        {
            let label = if c > k + 1 { k + 1..c } else { n + 1..o };
            return Some(Reference {
                end: c + 1,
                text: n + 1..o,
                label,
                short: false,
            });
        }
    }
    let h = label_end(e, n + 1)?;
    let end = if starts_at(e, h + 1, &[LBR, RBR]) {
        h + 3
    } else {
        h + 1
    };
    Some(Reference {
        end,
        text: n + 1..h,
        label: n + 1..h,
        short: true,
    })
}

/// What follows a link destination `e[n..o]`: `)` or a title then `)`. Answers the link's
/// end and the destination's bounds.
fn link_tail(e: &[u16], n: i64, o: i64) -> Option<(usize, i64, i64)> {
    if o < 0 {
        return None;
    }
    let o_u = o as usize;
    let h = skip_ws(e, o_u);
    let g = at(e, h);
    if g == RPAR as i32 {
        return Some((h + 1, n, o));
    }
    if h == o_u || g == -1 || !matches!(g, 0x22 | 0x27 | 0x28) {
        return None;
    }
    let close = if g == LPAR as i32 { RPAR } else { g as u16 };
    let k = closing_quote(e, h, close, paren_after);
    if k == -1 {
        return None;
    }
    let end = paren_after(e, (k + 1) as usize);
    (end >= 0).then_some((end as usize, n, o))
}

/// `\s*)` at `n`: past the `)`, or -1.
fn paren_after(e: &[u16], n: usize) -> i64 {
    let o = skip_ws(e, n);
    if at(e, o) == RPAR as i32 {
        o as i64 + 1
    } else {
        -1
    }
}

/// The index of the first `)` in a destination not matched by a `(` (escapes skipped).
fn unbalanced_paren(e: &[u16]) -> i64 {
    let mut depth: i64 = 0;
    let find = |from: usize| {
        (from..e.len())
            .find(|&i| matches!(e[i], LPAR | RPAR | BSL))
            .unwrap_or(e.len())
    };
    let mut o = find(0);
    while o < e.len() {
        let h = e[o];
        if h == RPAR && depth == 0 {
            return o as i64;
        }
        let esc = h == BSL;
        if !esc {
            depth += if h == LPAR { 1 } else { -1 };
        }
        o = find(o + if esc { 2 } else { 1 });
    }
    -1
}

/// An autolink `<scheme:…>` or `<local@domain>` at the start of `e`: its length and the
/// inner range.
fn autolink(e: &[u16]) -> Option<(usize, std::ops::Range<usize>)> {
    if at(e, 0) != LT as i32 {
        return None;
    }
    // `/<[A-Z][-+.\dA-Z]{1,31}:[!-;=?-\uffff]*>/iy`, with no whitespace inside
    if is_ascii_alpha(at(e, 1)) {
        let mut i = 2;
        while is_ascii_alpha(at(e, i)) || is_digit(at(e, i)) || matches!(at(e, i), 43 | 45 | 46) {
            i += 1;
        }
        if (3..=33).contains(&i) && at(e, i) == c16(b':') {
            let mut j = i + 1;
            while j < e.len() && e[j] >= 0x21 && e[j] != LT && e[j] != GT {
                j += 1;
            }
            if at(e, j) == GT as i32 && !e[..=j].iter().any(|&c| is_js_ws(c as i32)) {
                return Some((j + 1, 1..j));
            }
        }
    }
    // `/<[-!#-'*+./=?\w`{-~]+@/y`, then `label.`+, then `label>`
    let local = |c: u16| {
        is_word(c as i32)
            || matches!(c, 0x2D | 0x21 | 0x23..=0x27 | 0x2A | 0x2B | 0x2E | 0x2F | 0x3D | 0x3F | 0x60 | 0x7B..=0x7E)
    };
    let mut i = 1;
    while i < e.len() && local(e[i]) {
        i += 1;
    }
    if i == 1 || at(e, i) != AT as i32 {
        return None;
    }
    let o = i + 1;
    let mut h = o;
    while let Some(next) = domain_label(e, h, b'.' as u16) {
        h = next;
    }
    if h <= o {
        return None;
    }
    let g = domain_label(e, h, GT)?;
    Some((g, 1..g - 1))
}

/// `(?!-|[-\dA-Z]{64})[-\dA-Z]*[\dA-Z]` then `end` (case-insensitive) at `p`.
fn domain_label(e: &[u16], p: usize, end: u16) -> Option<usize> {
    let label = |c: i32| is_ascii_alpha(c) || is_digit(c) || c == 45;
    if at(e, p) == 45 {
        return None;
    }
    let mut r = p;
    while label(at(e, r)) {
        r += 1;
    }
    if r - p >= 64 || r == p {
        return None;
    }
    let last = at(e, r - 1);
    (last != 45 && at(e, r) == end as i32).then_some(r + 1)
}

fn blank_mask(len: usize) -> Vec<u16> {
    let mut v = vec![LBR];
    v.resize(len.saturating_sub(1).max(1), b'a' as u16);
    v.push(RBR);
    v
}

/// Blanks out reference links whose (raw) label is defined.
fn mask_references(e: &[u16], links: &HashSet<Vec<u16>>) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::new();
    let mut h = 0usize;
    let mut g = index_of_unit(e, LBR, 0);
    while let Some(gi) = g {
        let r = reference(e, gi);
        let mut k: i64 = r.as_ref().map_or(-1, |r| r.end as i64);
        if let Some(r) = &r
            && r.short
            && at(e, r.end) == LPAR as i32
        {
            let ku = r.end;
            k = if ku >= 2 && e[ku - 2] == LBR && ku - gi == r.label.len() + 4 {
                ku as i64 - 2
            } else {
                -1
            };
        }
        if k == -1 {
            g = index_of_unit(e, LBR, gi + 1);
            continue;
        }
        let k = k as usize;
        let open = last_index_of_unit(e, LBR, k as i64 - 1) + 1;
        let key = js_slice(e, open, k as i64 - 1);
        if links.contains(key) {
            let c = if gi > h && e[gi - 1] == BANG {
                gi - 1
            } else {
                gi
            };
            out.extend_from_slice(js_slice(e, h as i64, c as i64));
            out.extend(blank_mask(k - c));
            h = k;
        }
        g = index_of_unit(e, LBR, k);
    }
    if h == 0 {
        return e.to_vec();
    }
    out.extend_from_slice(from(e, h));
    out
}

/// Blanks out `[…](…)`, `<…>` and `` `…` `` (the `/\[[^[\]]*]\(|<[^<>]*>|`[^`]*`/g` scan).
fn mask_spans(e: &[u16]) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::new();
    let mut o = 0usize;
    let mut last_index = 0usize;
    let mut p = last_index;
    while p < e.len() {
        let matched = match e[p] {
            LBR => {
                let mut q = p + 1;
                while q < e.len() && e[q] != LBR && e[q] != RBR {
                    q += 1;
                }
                (at(e, q) == RBR as i32 && at(e, q + 1) == LPAR as i32).then_some(q + 2)
            }
            LT => {
                let mut q = p + 1;
                while q < e.len() && e[q] != LT && e[q] != GT {
                    q += 1;
                }
                (at(e, q) == GT as i32).then_some(q + 1)
            }
            TICK => index_of_unit(e, TICK, p + 1).map(|q| q + 1),
            _ => None,
        };
        let Some(m_end) = matched else {
            p += 1;
            continue;
        };
        let y: i64 = if e[p] == LBR {
            paren_group_end(e, m_end)
        } else {
            m_end as i64
        };
        if y != -1 {
            out.extend_from_slice(js_slice(e, o as i64, p as i64));
            out.extend(blank_mask(y as usize - p));
            o = y as usize;
        }
        last_index = (y.max(p as i64 + 1)) as usize;
        p = last_index;
    }
    out.extend_from_slice(from(e, o));
    out
}

/// The end of `(…)` (at most one nested pair) whose `(` ends just before `n`, or -1.
fn paren_group_end(e: &[u16], n: usize) -> i64 {
    let mut depth = 1;
    let mut h = n;
    while h < e.len() {
        let g = e[h];
        if g == BSL {
            h += 1;
            if h == e.len() || is_line_term(e[h] as i32) {
                return -1;
            }
        } else if g == LPAR {
            depth += 1;
            if depth > 2 {
                return -1;
            }
        } else if g == RPAR {
            depth -= 1;
            if depth == 0 {
                return h as i64 + 1;
            }
        }
        h += 1;
    }
    -1
}

/// Blanks out backslash escapes of punctuation.
fn mask_escapes(e: &[u16]) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::with_capacity(e.len());
    let mut o = 0usize;
    let mut h = index_of_unit(e, BSL, 0);
    while let Some(hh) = h {
        let g = cp_at(e, hh + 1);
        if is_punct(g) {
            let astral = g > 0xFFFF;
            out.extend_from_slice(&e[o..hh]);
            out.extend(std::iter::repeat_n(b'+' as u16, if astral { 3 } else { 2 }));
            o = hh + if astral { 3 } else { 2 };
        }
        h = index_of_unit(e, BSL, o.max(hh + 1));
    }
    out.extend_from_slice(from(e, o));
    out
}

// ---------------------------------------------------------------------------------------------
// Unicode tables.
// ---------------------------------------------------------------------------------------------

// Generated with node 20 (Unicode 17.0) by testing every code point against `/\p{S}|\p{P}/u`
// and every BMP code unit against `/^[\p{L}\p{N}]/u`.

/// `\p{P}` ∪ `\p{S}` from U+0080 up, as ranges.
#[rustfmt::skip]
const PUNCT_OR_SYMBOL: &[(u32, u32)] = &[
    (0xA1, 0xA9), (0xAB, 0xAC), (0xAE, 0xB1), (0xB4, 0xB4), (0xB6, 0xB8), (0xBB, 0xBB),
    (0xBF, 0xBF), (0xD7, 0xD7), (0xF7, 0xF7), (0x2C2, 0x2C5), (0x2D2, 0x2DF), (0x2E5, 0x2EB),
    (0x2ED, 0x2ED), (0x2EF, 0x2FF), (0x375, 0x375), (0x37E, 0x37E), (0x384, 0x385), (0x387, 0x387),
    (0x3F6, 0x3F6), (0x482, 0x482), (0x55A, 0x55F), (0x589, 0x58A), (0x58D, 0x58F), (0x5BE, 0x5BE),
    (0x5C0, 0x5C0), (0x5C3, 0x5C3), (0x5C6, 0x5C6), (0x5F3, 0x5F4), (0x606, 0x60F), (0x61B, 0x61B),
    (0x61D, 0x61F), (0x66A, 0x66D), (0x6D4, 0x6D4), (0x6DE, 0x6DE), (0x6E9, 0x6E9), (0x6FD, 0x6FE),
    (0x700, 0x70D), (0x7F6, 0x7F9), (0x7FE, 0x7FF), (0x830, 0x83E), (0x85E, 0x85E), (0x888, 0x888),
    (0x964, 0x965), (0x970, 0x970), (0x9F2, 0x9F3), (0x9FA, 0x9FB), (0x9FD, 0x9FD), (0xA76, 0xA76),
    (0xAF0, 0xAF1), (0xB70, 0xB70), (0xBF3, 0xBFA), (0xC77, 0xC77), (0xC7F, 0xC7F), (0xC84, 0xC84),
    (0xD4F, 0xD4F), (0xD79, 0xD79), (0xDF4, 0xDF4), (0xE3F, 0xE3F), (0xE4F, 0xE4F), (0xE5A, 0xE5B),
    (0xF01, 0xF17), (0xF1A, 0xF1F), (0xF34, 0xF34), (0xF36, 0xF36), (0xF38, 0xF38), (0xF3A, 0xF3D),
    (0xF85, 0xF85), (0xFBE, 0xFC5), (0xFC7, 0xFCC), (0xFCE, 0xFDA), (0x104A, 0x104F),
    (0x109E, 0x109F), (0x10FB, 0x10FB), (0x1360, 0x1368), (0x1390, 0x1399), (0x1400, 0x1400),
    (0x166D, 0x166E), (0x169B, 0x169C), (0x16EB, 0x16ED), (0x1735, 0x1736), (0x17D4, 0x17D6),
    (0x17D8, 0x17DB), (0x1800, 0x180A), (0x1940, 0x1940), (0x1944, 0x1945), (0x19DE, 0x19FF),
    (0x1A1E, 0x1A1F), (0x1AA0, 0x1AA6), (0x1AA8, 0x1AAD), (0x1B4E, 0x1B4F), (0x1B5A, 0x1B6A),
    (0x1B74, 0x1B7F), (0x1BFC, 0x1BFF), (0x1C3B, 0x1C3F), (0x1C7E, 0x1C7F), (0x1CC0, 0x1CC7),
    (0x1CD3, 0x1CD3), (0x1FBD, 0x1FBD), (0x1FBF, 0x1FC1), (0x1FCD, 0x1FCF), (0x1FDD, 0x1FDF),
    (0x1FED, 0x1FEF), (0x1FFD, 0x1FFE), (0x2010, 0x2027), (0x2030, 0x205E), (0x207A, 0x207E),
    (0x208A, 0x208E), (0x20A0, 0x20C1), (0x2100, 0x2101), (0x2103, 0x2106), (0x2108, 0x2109),
    (0x2114, 0x2114), (0x2116, 0x2118), (0x211E, 0x2123), (0x2125, 0x2125), (0x2127, 0x2127),
    (0x2129, 0x2129), (0x212E, 0x212E), (0x213A, 0x213B), (0x2140, 0x2144), (0x214A, 0x214D),
    (0x214F, 0x214F), (0x218A, 0x218B), (0x2190, 0x2429), (0x2440, 0x244A), (0x249C, 0x24E9),
    (0x2500, 0x2775), (0x2794, 0x2B73), (0x2B76, 0x2BFF), (0x2CE5, 0x2CEA), (0x2CF9, 0x2CFC),
    (0x2CFE, 0x2CFF), (0x2D70, 0x2D70), (0x2E00, 0x2E2E), (0x2E30, 0x2E5D), (0x2E80, 0x2E99),
    (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x2FF0, 0x2FFF), (0x3001, 0x3004), (0x3008, 0x3020),
    (0x3030, 0x3030), (0x3036, 0x3037), (0x303D, 0x303F), (0x309B, 0x309C), (0x30A0, 0x30A0),
    (0x30FB, 0x30FB), (0x3190, 0x3191), (0x3196, 0x319F), (0x31C0, 0x31E5), (0x31EF, 0x31EF),
    (0x3200, 0x321E), (0x322A, 0x3247), (0x3250, 0x3250), (0x3260, 0x327F), (0x328A, 0x32B0),
    (0x32C0, 0x33FF), (0x4DC0, 0x4DFF), (0xA490, 0xA4C6), (0xA4FE, 0xA4FF), (0xA60D, 0xA60F),
    (0xA673, 0xA673), (0xA67E, 0xA67E), (0xA6F2, 0xA6F7), (0xA700, 0xA716), (0xA720, 0xA721),
    (0xA789, 0xA78A), (0xA828, 0xA82B), (0xA836, 0xA839), (0xA874, 0xA877), (0xA8CE, 0xA8CF),
    (0xA8F8, 0xA8FA), (0xA8FC, 0xA8FC), (0xA92E, 0xA92F), (0xA95F, 0xA95F), (0xA9C1, 0xA9CD),
    (0xA9DE, 0xA9DF), (0xAA5C, 0xAA5F), (0xAA77, 0xAA79), (0xAADE, 0xAADF), (0xAAF0, 0xAAF1),
    (0xAB5B, 0xAB5B), (0xAB6A, 0xAB6B), (0xABEB, 0xABEB), (0xFB29, 0xFB29), (0xFBB2, 0xFBD2),
    (0xFD3E, 0xFD4F), (0xFD90, 0xFD91), (0xFDC8, 0xFDCF), (0xFDFC, 0xFDFF), (0xFE10, 0xFE19),
    (0xFE30, 0xFE52), (0xFE54, 0xFE66), (0xFE68, 0xFE6B), (0xFF01, 0xFF0F), (0xFF1A, 0xFF20),
    (0xFF3B, 0xFF40), (0xFF5B, 0xFF65), (0xFFE0, 0xFFE6), (0xFFE8, 0xFFEE), (0xFFFC, 0xFFFD),
    (0x10100, 0x10102), (0x10137, 0x1013F), (0x10179, 0x10189), (0x1018C, 0x1018E),
    (0x10190, 0x1019C), (0x101A0, 0x101A0), (0x101D0, 0x101FC), (0x1039F, 0x1039F),
    (0x103D0, 0x103D0), (0x1056F, 0x1056F), (0x10857, 0x10857), (0x10877, 0x10878),
    (0x1091F, 0x1091F), (0x1093F, 0x1093F), (0x10A50, 0x10A58), (0x10A7F, 0x10A7F),
    (0x10AC8, 0x10AC8), (0x10AF0, 0x10AF6), (0x10B39, 0x10B3F), (0x10B99, 0x10B9C),
    (0x10D6E, 0x10D6E), (0x10D8E, 0x10D8F), (0x10EAD, 0x10EAD), (0x10ED0, 0x10ED8),
    (0x10F55, 0x10F59), (0x10F86, 0x10F89), (0x11047, 0x1104D), (0x110BB, 0x110BC),
    (0x110BE, 0x110C1), (0x11140, 0x11143), (0x11174, 0x11175), (0x111C5, 0x111C8),
    (0x111CD, 0x111CD), (0x111DB, 0x111DB), (0x111DD, 0x111DF), (0x11238, 0x1123D),
    (0x112A9, 0x112A9), (0x113D4, 0x113D5), (0x113D7, 0x113D8), (0x1144B, 0x1144F),
    (0x1145A, 0x1145B), (0x1145D, 0x1145D), (0x114C6, 0x114C6), (0x115C1, 0x115D7),
    (0x11641, 0x11643), (0x11660, 0x1166C), (0x116B9, 0x116B9), (0x1173C, 0x1173F),
    (0x1183B, 0x1183B), (0x11944, 0x11946), (0x119E2, 0x119E2), (0x11A3F, 0x11A46),
    (0x11A9A, 0x11A9C), (0x11A9E, 0x11AA2), (0x11B00, 0x11B09), (0x11BE1, 0x11BE1),
    (0x11C41, 0x11C45), (0x11C70, 0x11C71), (0x11EF7, 0x11EF8), (0x11F43, 0x11F4F),
    (0x11FD5, 0x11FF1), (0x11FFF, 0x11FFF), (0x12470, 0x12474), (0x12FF1, 0x12FF2),
    (0x16A6E, 0x16A6F), (0x16AF5, 0x16AF5), (0x16B37, 0x16B3F), (0x16B44, 0x16B45),
    (0x16D6D, 0x16D6F), (0x16E97, 0x16E9A), (0x16FE2, 0x16FE2), (0x1BC9C, 0x1BC9C),
    (0x1BC9F, 0x1BC9F), (0x1CC00, 0x1CCEF), (0x1CCFA, 0x1CCFC), (0x1CD00, 0x1CEB3),
    (0x1CEBA, 0x1CED0), (0x1CEE0, 0x1CEF0), (0x1CF50, 0x1CFC3), (0x1D000, 0x1D0F5),
    (0x1D100, 0x1D126), (0x1D129, 0x1D164), (0x1D16A, 0x1D16C), (0x1D183, 0x1D184),
    (0x1D18C, 0x1D1A9), (0x1D1AE, 0x1D1EA), (0x1D200, 0x1D241), (0x1D245, 0x1D245),
    (0x1D300, 0x1D356), (0x1D6C1, 0x1D6C1), (0x1D6DB, 0x1D6DB), (0x1D6FB, 0x1D6FB),
    (0x1D715, 0x1D715), (0x1D735, 0x1D735), (0x1D74F, 0x1D74F), (0x1D76F, 0x1D76F),
    (0x1D789, 0x1D789), (0x1D7A9, 0x1D7A9), (0x1D7C3, 0x1D7C3), (0x1D800, 0x1D9FF),
    (0x1DA37, 0x1DA3A), (0x1DA6D, 0x1DA74), (0x1DA76, 0x1DA83), (0x1DA85, 0x1DA8B),
    (0x1E14F, 0x1E14F), (0x1E2FF, 0x1E2FF), (0x1E5FF, 0x1E5FF), (0x1E95E, 0x1E95F),
    (0x1ECAC, 0x1ECAC), (0x1ECB0, 0x1ECB0), (0x1ED2E, 0x1ED2E), (0x1EEF0, 0x1EEF1),
    (0x1F000, 0x1F02B), (0x1F030, 0x1F093), (0x1F0A0, 0x1F0AE), (0x1F0B1, 0x1F0BF),
    (0x1F0C1, 0x1F0CF), (0x1F0D1, 0x1F0F5), (0x1F10D, 0x1F1AD), (0x1F1E6, 0x1F202),
    (0x1F210, 0x1F23B), (0x1F240, 0x1F248), (0x1F250, 0x1F251), (0x1F260, 0x1F265),
    (0x1F300, 0x1F6D8), (0x1F6DC, 0x1F6EC), (0x1F6F0, 0x1F6FC), (0x1F700, 0x1F7D9),
    (0x1F7E0, 0x1F7EB), (0x1F7F0, 0x1F7F0), (0x1F800, 0x1F80B), (0x1F810, 0x1F847),
    (0x1F850, 0x1F859), (0x1F860, 0x1F887), (0x1F890, 0x1F8AD), (0x1F8B0, 0x1F8BB),
    (0x1F8C0, 0x1F8C1), (0x1F8D0, 0x1F8D8), (0x1F900, 0x1FA57), (0x1FA60, 0x1FA6D),
    (0x1FA70, 0x1FA7C), (0x1FA80, 0x1FA8A), (0x1FA8E, 0x1FAC6), (0x1FAC8, 0x1FAC8),
    (0x1FACD, 0x1FADC), (0x1FADF, 0x1FAEA), (0x1FAEF, 0x1FAF8), (0x1FB00, 0x1FB92),
    (0x1FB94, 0x1FBEF), (0x1FBFA, 0x1FBFA),
];

/// `[\p{L}\p{N}]` in the BMP, as ranges.
#[rustfmt::skip]
const LETTER_OR_NUMBER_BMP: &[(u16, u16)] = &[
    (0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0xAA, 0xAA), (0xB2, 0xB3), (0xB5, 0xB5),
    (0xB9, 0xBA), (0xBC, 0xBE), (0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x2C1), (0x2C6, 0x2D1),
    (0x2E0, 0x2E4), (0x2EC, 0x2EC), (0x2EE, 0x2EE), (0x370, 0x374), (0x376, 0x377), (0x37A, 0x37D),
    (0x37F, 0x37F), (0x386, 0x386), (0x388, 0x38A), (0x38C, 0x38C), (0x38E, 0x3A1), (0x3A3, 0x3F5),
    (0x3F7, 0x481), (0x48A, 0x52F), (0x531, 0x556), (0x559, 0x559), (0x560, 0x588), (0x5D0, 0x5EA),
    (0x5EF, 0x5F2), (0x620, 0x64A), (0x660, 0x669), (0x66E, 0x66F), (0x671, 0x6D3), (0x6D5, 0x6D5),
    (0x6E5, 0x6E6), (0x6EE, 0x6FC), (0x6FF, 0x6FF), (0x710, 0x710), (0x712, 0x72F), (0x74D, 0x7A5),
    (0x7B1, 0x7B1), (0x7C0, 0x7EA), (0x7F4, 0x7F5), (0x7FA, 0x7FA), (0x800, 0x815), (0x81A, 0x81A),
    (0x824, 0x824), (0x828, 0x828), (0x840, 0x858), (0x860, 0x86A), (0x870, 0x887), (0x889, 0x88F),
    (0x8A0, 0x8C9), (0x904, 0x939), (0x93D, 0x93D), (0x950, 0x950), (0x958, 0x961), (0x966, 0x96F),
    (0x971, 0x980), (0x985, 0x98C), (0x98F, 0x990), (0x993, 0x9A8), (0x9AA, 0x9B0), (0x9B2, 0x9B2),
    (0x9B6, 0x9B9), (0x9BD, 0x9BD), (0x9CE, 0x9CE), (0x9DC, 0x9DD), (0x9DF, 0x9E1), (0x9E6, 0x9F1),
    (0x9F4, 0x9F9), (0x9FC, 0x9FC), (0xA05, 0xA0A), (0xA0F, 0xA10), (0xA13, 0xA28), (0xA2A, 0xA30),
    (0xA32, 0xA33), (0xA35, 0xA36), (0xA38, 0xA39), (0xA59, 0xA5C), (0xA5E, 0xA5E), (0xA66, 0xA6F),
    (0xA72, 0xA74), (0xA85, 0xA8D), (0xA8F, 0xA91), (0xA93, 0xAA8), (0xAAA, 0xAB0), (0xAB2, 0xAB3),
    (0xAB5, 0xAB9), (0xABD, 0xABD), (0xAD0, 0xAD0), (0xAE0, 0xAE1), (0xAE6, 0xAEF), (0xAF9, 0xAF9),
    (0xB05, 0xB0C), (0xB0F, 0xB10), (0xB13, 0xB28), (0xB2A, 0xB30), (0xB32, 0xB33), (0xB35, 0xB39),
    (0xB3D, 0xB3D), (0xB5C, 0xB5D), (0xB5F, 0xB61), (0xB66, 0xB6F), (0xB71, 0xB77), (0xB83, 0xB83),
    (0xB85, 0xB8A), (0xB8E, 0xB90), (0xB92, 0xB95), (0xB99, 0xB9A), (0xB9C, 0xB9C), (0xB9E, 0xB9F),
    (0xBA3, 0xBA4), (0xBA8, 0xBAA), (0xBAE, 0xBB9), (0xBD0, 0xBD0), (0xBE6, 0xBF2), (0xC05, 0xC0C),
    (0xC0E, 0xC10), (0xC12, 0xC28), (0xC2A, 0xC39), (0xC3D, 0xC3D), (0xC58, 0xC5A), (0xC5C, 0xC5D),
    (0xC60, 0xC61), (0xC66, 0xC6F), (0xC78, 0xC7E), (0xC80, 0xC80), (0xC85, 0xC8C), (0xC8E, 0xC90),
    (0xC92, 0xCA8), (0xCAA, 0xCB3), (0xCB5, 0xCB9), (0xCBD, 0xCBD), (0xCDC, 0xCDE), (0xCE0, 0xCE1),
    (0xCE6, 0xCEF), (0xCF1, 0xCF2), (0xD04, 0xD0C), (0xD0E, 0xD10), (0xD12, 0xD3A), (0xD3D, 0xD3D),
    (0xD4E, 0xD4E), (0xD54, 0xD56), (0xD58, 0xD61), (0xD66, 0xD78), (0xD7A, 0xD7F), (0xD85, 0xD96),
    (0xD9A, 0xDB1), (0xDB3, 0xDBB), (0xDBD, 0xDBD), (0xDC0, 0xDC6), (0xDE6, 0xDEF), (0xE01, 0xE30),
    (0xE32, 0xE33), (0xE40, 0xE46), (0xE50, 0xE59), (0xE81, 0xE82), (0xE84, 0xE84), (0xE86, 0xE8A),
    (0xE8C, 0xEA3), (0xEA5, 0xEA5), (0xEA7, 0xEB0), (0xEB2, 0xEB3), (0xEBD, 0xEBD), (0xEC0, 0xEC4),
    (0xEC6, 0xEC6), (0xED0, 0xED9), (0xEDC, 0xEDF), (0xF00, 0xF00), (0xF20, 0xF33), (0xF40, 0xF47),
    (0xF49, 0xF6C), (0xF88, 0xF8C), (0x1000, 0x102A), (0x103F, 0x1049), (0x1050, 0x1055),
    (0x105A, 0x105D), (0x1061, 0x1061), (0x1065, 0x1066), (0x106E, 0x1070), (0x1075, 0x1081),
    (0x108E, 0x108E), (0x1090, 0x1099), (0x10A0, 0x10C5), (0x10C7, 0x10C7), (0x10CD, 0x10CD),
    (0x10D0, 0x10FA), (0x10FC, 0x1248), (0x124A, 0x124D), (0x1250, 0x1256), (0x1258, 0x1258),
    (0x125A, 0x125D), (0x1260, 0x1288), (0x128A, 0x128D), (0x1290, 0x12B0), (0x12B2, 0x12B5),
    (0x12B8, 0x12BE), (0x12C0, 0x12C0), (0x12C2, 0x12C5), (0x12C8, 0x12D6), (0x12D8, 0x1310),
    (0x1312, 0x1315), (0x1318, 0x135A), (0x1369, 0x137C), (0x1380, 0x138F), (0x13A0, 0x13F5),
    (0x13F8, 0x13FD), (0x1401, 0x166C), (0x166F, 0x167F), (0x1681, 0x169A), (0x16A0, 0x16EA),
    (0x16EE, 0x16F8), (0x1700, 0x1711), (0x171F, 0x1731), (0x1740, 0x1751), (0x1760, 0x176C),
    (0x176E, 0x1770), (0x1780, 0x17B3), (0x17D7, 0x17D7), (0x17DC, 0x17DC), (0x17E0, 0x17E9),
    (0x17F0, 0x17F9), (0x1810, 0x1819), (0x1820, 0x1878), (0x1880, 0x1884), (0x1887, 0x18A8),
    (0x18AA, 0x18AA), (0x18B0, 0x18F5), (0x1900, 0x191E), (0x1946, 0x196D), (0x1970, 0x1974),
    (0x1980, 0x19AB), (0x19B0, 0x19C9), (0x19D0, 0x19DA), (0x1A00, 0x1A16), (0x1A20, 0x1A54),
    (0x1A80, 0x1A89), (0x1A90, 0x1A99), (0x1AA7, 0x1AA7), (0x1B05, 0x1B33), (0x1B45, 0x1B4C),
    (0x1B50, 0x1B59), (0x1B83, 0x1BA0), (0x1BAE, 0x1BE5), (0x1C00, 0x1C23), (0x1C40, 0x1C49),
    (0x1C4D, 0x1C7D), (0x1C80, 0x1C8A), (0x1C90, 0x1CBA), (0x1CBD, 0x1CBF), (0x1CE9, 0x1CEC),
    (0x1CEE, 0x1CF3), (0x1CF5, 0x1CF6), (0x1CFA, 0x1CFA), (0x1D00, 0x1DBF), (0x1E00, 0x1F15),
    (0x1F18, 0x1F1D), (0x1F20, 0x1F45), (0x1F48, 0x1F4D), (0x1F50, 0x1F57), (0x1F59, 0x1F59),
    (0x1F5B, 0x1F5B), (0x1F5D, 0x1F5D), (0x1F5F, 0x1F7D), (0x1F80, 0x1FB4), (0x1FB6, 0x1FBC),
    (0x1FBE, 0x1FBE), (0x1FC2, 0x1FC4), (0x1FC6, 0x1FCC), (0x1FD0, 0x1FD3), (0x1FD6, 0x1FDB),
    (0x1FE0, 0x1FEC), (0x1FF2, 0x1FF4), (0x1FF6, 0x1FFC), (0x2070, 0x2071), (0x2074, 0x2079),
    (0x207F, 0x2089), (0x2090, 0x209C), (0x2102, 0x2102), (0x2107, 0x2107), (0x210A, 0x2113),
    (0x2115, 0x2115), (0x2119, 0x211D), (0x2124, 0x2124), (0x2126, 0x2126), (0x2128, 0x2128),
    (0x212A, 0x212D), (0x212F, 0x2139), (0x213C, 0x213F), (0x2145, 0x2149), (0x214E, 0x214E),
    (0x2150, 0x2189), (0x2460, 0x249B), (0x24EA, 0x24FF), (0x2776, 0x2793), (0x2C00, 0x2CE4),
    (0x2CEB, 0x2CEE), (0x2CF2, 0x2CF3), (0x2CFD, 0x2CFD), (0x2D00, 0x2D25), (0x2D27, 0x2D27),
    (0x2D2D, 0x2D2D), (0x2D30, 0x2D67), (0x2D6F, 0x2D6F), (0x2D80, 0x2D96), (0x2DA0, 0x2DA6),
    (0x2DA8, 0x2DAE), (0x2DB0, 0x2DB6), (0x2DB8, 0x2DBE), (0x2DC0, 0x2DC6), (0x2DC8, 0x2DCE),
    (0x2DD0, 0x2DD6), (0x2DD8, 0x2DDE), (0x2E2F, 0x2E2F), (0x3005, 0x3007), (0x3021, 0x3029),
    (0x3031, 0x3035), (0x3038, 0x303C), (0x3041, 0x3096), (0x309D, 0x309F), (0x30A1, 0x30FA),
    (0x30FC, 0x30FF), (0x3105, 0x312F), (0x3131, 0x318E), (0x3192, 0x3195), (0x31A0, 0x31BF),
    (0x31F0, 0x31FF), (0x3220, 0x3229), (0x3248, 0x324F), (0x3251, 0x325F), (0x3280, 0x3289),
    (0x32B1, 0x32BF), (0x3400, 0x4DBF), (0x4E00, 0xA48C), (0xA4D0, 0xA4FD), (0xA500, 0xA60C),
    (0xA610, 0xA62B), (0xA640, 0xA66E), (0xA67F, 0xA69D), (0xA6A0, 0xA6EF), (0xA717, 0xA71F),
    (0xA722, 0xA788), (0xA78B, 0xA7DC), (0xA7F1, 0xA801), (0xA803, 0xA805), (0xA807, 0xA80A),
    (0xA80C, 0xA822), (0xA830, 0xA835), (0xA840, 0xA873), (0xA882, 0xA8B3), (0xA8D0, 0xA8D9),
    (0xA8F2, 0xA8F7), (0xA8FB, 0xA8FB), (0xA8FD, 0xA8FE), (0xA900, 0xA925), (0xA930, 0xA946),
    (0xA960, 0xA97C), (0xA984, 0xA9B2), (0xA9CF, 0xA9D9), (0xA9E0, 0xA9E4), (0xA9E6, 0xA9FE),
    (0xAA00, 0xAA28), (0xAA40, 0xAA42), (0xAA44, 0xAA4B), (0xAA50, 0xAA59), (0xAA60, 0xAA76),
    (0xAA7A, 0xAA7A), (0xAA7E, 0xAAAF), (0xAAB1, 0xAAB1), (0xAAB5, 0xAAB6), (0xAAB9, 0xAABD),
    (0xAAC0, 0xAAC0), (0xAAC2, 0xAAC2), (0xAADB, 0xAADD), (0xAAE0, 0xAAEA), (0xAAF2, 0xAAF4),
    (0xAB01, 0xAB06), (0xAB09, 0xAB0E), (0xAB11, 0xAB16), (0xAB20, 0xAB26), (0xAB28, 0xAB2E),
    (0xAB30, 0xAB5A), (0xAB5C, 0xAB69), (0xAB70, 0xABE2), (0xABF0, 0xABF9), (0xAC00, 0xD7A3),
    (0xD7B0, 0xD7C6), (0xD7CB, 0xD7FB), (0xF900, 0xFA6D), (0xFA70, 0xFAD9), (0xFB00, 0xFB06),
    (0xFB13, 0xFB17), (0xFB1D, 0xFB1D), (0xFB1F, 0xFB28), (0xFB2A, 0xFB36), (0xFB38, 0xFB3C),
    (0xFB3E, 0xFB3E), (0xFB40, 0xFB41), (0xFB43, 0xFB44), (0xFB46, 0xFBB1), (0xFBD3, 0xFD3D),
    (0xFD50, 0xFD8F), (0xFD92, 0xFDC7), (0xFDF0, 0xFDFB), (0xFE70, 0xFE74), (0xFE76, 0xFEFC),
    (0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A), (0xFF66, 0xFFBE), (0xFFC2, 0xFFC7),
    (0xFFCA, 0xFFCF), (0xFFD2, 0xFFD7), (0xFFDA, 0xFFDC),
];

#[cfg(test)]
mod tests {
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
}
