//! Block-level HTML (CommonMark's kinds 1 to 7, as marked recognises them): where an HTML block
//! starts, whether it interrupts a paragraph, and where it ends; also the tag-name and attribute
//! scanners that inline HTML reuses.

use super::unicode::is_space_class;
use super::utf16::{
    GT, LF, LT, SPACE, TAB, ascii_code, ascii_lower, at_eol, code_at, eq_str, index_of,
    index_of_str, index_of_unit, is_ascii_alpha, is_js_space, is_word, line_end, run_of,
    skip_indent, skip_tabs_spaces, skip_ws, starts_at_ci, starts_at_str,
};

/// Tag names that open an HTML block of CommonMark's kind 6.
pub(super) const BLOCK_TAGS: &[&str] = &[
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
pub(super) const RAW_TAGS: &[&str] = &["script", "pre", "style", "textarea"];

pub(super) fn is_block_tag(name: &[u16]) -> bool {
    BLOCK_TAGS
        .iter()
        .any(|t| t.len() == name.len() && t.bytes().zip(name).all(|(b, &c)| b as u16 == c))
}

/// `/(?:[\n >]|\/>)/y` at `k`.
pub(super) fn tag_name_end(s: &[u16], k: usize) -> bool {
    let c = code_at(s, k);
    c == 10 || c == 32 || c == 62 || (c == 47 && code_at(s, k + 1) == 62)
}

/// `/<(?:!--|script|pre|style|textarea|\/?(?:TAGS)(?:[\n >]|\/>))/y` (case-sensitive).
pub(super) fn html_interrupts_at(s: &[u16], p: usize) -> bool {
    if code_at(s, p) != LT as i32 {
        return false;
    }
    let q = p + 1;
    if starts_at_str(s, q, "!--") || RAW_TAGS.iter().any(|t| starts_at_str(s, q, t)) {
        return true;
    }
    let q = if code_at(s, q) == 47 { q + 1 } else { q };
    BLOCK_TAGS
        .iter()
        .any(|t| starts_at_str(s, q, t) && tag_name_end(s, q + t.len()))
}

/// `/ {0,3}<(?:!--|(?:script|pre|style|textarea)[\s>]|\/?(?:TAGS)(?:[\n >]|\/>))/iy`.
pub(super) fn html_block_starts_at(s: &[u16], p: usize) -> bool {
    let k = skip_indent(s, p);
    if code_at(s, k) != LT as i32 {
        return false;
    }
    let q = k + 1;
    if starts_at_str(s, q, "!--") {
        return true;
    }
    for t in RAW_TAGS {
        if starts_at_ci(s, q, t) {
            let c = code_at(s, q + t.len());
            if c == 62 || (c != -1 && is_js_space(c)) {
                return true;
            }
        }
    }
    let q = if code_at(s, q) == 47 { q + 1 } else { q };
    BLOCK_TAGS
        .iter()
        .any(|t| starts_at_ci(s, q, t) && tag_name_end(s, q + t.len()))
}

/// `/[A-Z][-\w]*/iy` at `n`: the end of a tag name, or `n`.
pub(super) fn tag_name(s: &[u16], n: usize) -> usize {
    if !is_ascii_alpha(code_at(s, n)) {
        return n;
    }
    let mut i = n + 1;
    while i < s.len() && (is_word(s[i] as i32) || s[i] == b'-' as u16) {
        i += 1;
    }
    i
}

/// After `pat` found from `from`, or the length.
pub(super) fn past_pattern(s: &[u16], pat: &str, from: usize) -> usize {
    index_of_str(s, pat, from).map_or(s.len(), |i| i + pat.len())
}

/// `/\n[\t\n ]*\n/g` from `n`: the end of the first blank line, or the length.
pub(super) fn past_blank_line(s: &[u16], n: usize) -> usize {
    let mut i = n;
    while let Some(p) = index_of_unit(s, LF, i) {
        let mut r = p + 1;
        let mut last_nl = None;
        while r < s.len() && (s[r] == LF || s[r] == TAB || s[r] == SPACE) {
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
pub(super) fn attribute(s: &[u16], p: usize, ws: bool) -> Option<usize> {
    let is_gap = |c: i32| {
        if ws {
            c != -1 && is_js_space(c)
        } else {
            c == 32
        }
    };
    let mut i = p;
    while is_gap(code_at(s, i)) {
        i += 1;
    }
    if i == p {
        return None;
    }
    let c = code_at(s, i);
    if !(c == 58 || c == 95 || is_ascii_alpha(c)) {
        return None;
    }
    i += 1;
    while i < s.len() && (is_word(s[i] as i32) || matches!(s[i], 45 | 46 | 58)) {
        i += 1;
    }
    let name_end = i;
    let mut j = i;
    while is_gap(code_at(s, j)) {
        j += 1;
    }
    if code_at(s, j) != 61 {
        return Some(name_end);
    }
    j += 1;
    while is_gap(code_at(s, j)) {
        j += 1;
    }
    let c = code_at(s, j);
    if c == 39 || c == 34 {
        let mut k = j + 1;
        while k < s.len() && s[k] as i32 != c && (ws || s[k] != LF) {
            k += 1;
        }
        return Some(if code_at(s, k) == c { k + 1 } else { name_end });
    }
    let plain = |c: i32| c != -1 && !is_js_space(c) && !matches!(c, 34 | 39 | 60 | 61 | 62 | 96);
    if !plain(c) {
        return Some(name_end);
    }
    let mut k = j;
    while plain(code_at(s, k)) {
        k += 1;
    }
    Some(k)
}

/// Repeats `attribute` while it advances.
pub(super) fn attributes(s: &[u16], p: usize, ws: bool) -> usize {
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
pub(super) fn html_block_len(e: &[u16]) -> Option<usize> {
    let n = skip_indent(e, 0);
    if code_at(e, n) != LT as i32 {
        return None;
    }
    let o = n + 1;
    let h = code_at(e, o);
    let eat_newlines = |x: usize| run_of(e, x, LF);
    if h == ascii_code(b'?') {
        return Some(eat_newlines(past_pattern(e, "?>", o + 1)));
    }
    if h == ascii_code(b'!') {
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
    let after = code_at(e, k);
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
        (code_at(e, q) == 62).then_some(q + 1)
    } else {
        // `/ *\/?>/y` after the attributes
        let q = run_of(e, attributes(e, k, false), SPACE);
        let q = if code_at(e, q) == 47 { q + 1 } else { q };
        (code_at(e, q) == 62).then_some(q + 1)
    };
    match d {
        Some(d) if at_eol(e, skip_tabs_spaces(e, d)) => Some(past_blank_line(e, d)),
        _ => None,
    }
}

/// A `<pre>`/`<script>`/`<style>`/`<textarea>` block: to the end of the line holding the
/// closing tag (and the newlines after it), or to the end of the text.
pub(super) fn raw_tag_block_end(e: &[u16], name: &[u16], from: usize) -> usize {
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
