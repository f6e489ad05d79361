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
    BLOCK_TAGS.iter().any(|tag| {
        tag.len() == name.len()
            && tag
                .bytes()
                .zip(name)
                .all(|(byte, &unit)| byte as u16 == unit)
    })
}

/// `/(?:[\n >]|\/>)/y` at `pos`.
pub(super) fn tag_name_end(s: &[u16], pos: usize) -> bool {
    let c = code_at(s, pos);
    c == 10 || c == 32 || c == 62 || (c == 47 && code_at(s, pos + 1) == 62)
}

/// `/<(?:!--|script|pre|style|textarea|\/?(?:TAGS)(?:[\n >]|\/>))/y` (case-sensitive).
pub(super) fn html_interrupts_at(s: &[u16], pos: usize) -> bool {
    if code_at(s, pos) != LT as i32 {
        return false;
    }
    let tag_start = pos + 1;
    if starts_at_str(s, tag_start, "!--")
        || RAW_TAGS.iter().any(|tag| starts_at_str(s, tag_start, tag))
    {
        return true;
    }
    block_tag_at(s, tag_start, starts_at_str)
}

/// `/ {0,3}<(?:!--|(?:script|pre|style|textarea)[\s>]|\/?(?:TAGS)(?:[\n >]|\/>))/iy`.
pub(super) fn html_block_starts_at(s: &[u16], line_start: usize) -> bool {
    let lt_pos = skip_indent(s, line_start);
    if code_at(s, lt_pos) != LT as i32 {
        return false;
    }
    let tag_start = lt_pos + 1;
    if starts_at_str(s, tag_start, "!--") {
        return true;
    }
    for tag in RAW_TAGS {
        if starts_at_ci(s, tag_start, tag) {
            let c = code_at(s, tag_start + tag.len());
            if c == 62 || (c != -1 && is_js_space(c)) {
                return true;
            }
        }
    }
    block_tag_at(s, tag_start, starts_at_ci)
}

/// `/\/?(?:TAGS)(?:[\n >]|\/>)/y` at `tag_start`, names compared with `starts`.
fn block_tag_at(s: &[u16], tag_start: usize, starts: fn(&[u16], usize, &str) -> bool) -> bool {
    let tag_start = if code_at(s, tag_start) == 47 {
        tag_start + 1
    } else {
        tag_start
    };
    BLOCK_TAGS
        .iter()
        .any(|tag| starts(s, tag_start, tag) && tag_name_end(s, tag_start + tag.len()))
}

/// `/[A-Z][-\w]*/iy` at `start`: the end of a tag name, or `start`.
pub(super) fn tag_name(s: &[u16], start: usize) -> usize {
    if !is_ascii_alpha(code_at(s, start)) {
        return start;
    }
    let mut i = start + 1;
    while i < s.len() && (is_word(s[i] as i32) || s[i] == b'-' as u16) {
        i += 1;
    }
    i
}

/// After `pat` found from `from`, or the length.
pub(super) fn past_pattern(s: &[u16], pat: &str, from: usize) -> usize {
    index_of_str(s, pat, from).map_or(s.len(), |i| i + pat.len())
}

/// `/\n[\t\n ]*\n/g` from `from`: the end of the first blank line, or the length.
pub(super) fn past_blank_line(s: &[u16], from: usize) -> usize {
    let mut i = from;
    while let Some(newline) = index_of_unit(s, LF, i) {
        let mut end = newline + 1;
        let mut last_nl = None;
        while end < s.len() && (s[end] == LF || s[end] == TAB || s[end] == SPACE) {
            if s[end] == LF {
                last_nl = Some(end);
            }
            end += 1;
        }
        if let Some(last) = last_nl {
            return last + 1;
        }
        i = end.max(newline + 1);
    }
    s.len()
}

/// One attribute, `/ +[:A-Z_][-.:\w]*(?: *= *(?:[^\s"'<=>`]+|'[^\n']*'|"[^\n"]*"))?/iy`
/// (`any_space` false) or its inline form with `\s` and multi-line quotes (`any_space` true).
pub(super) fn attribute(s: &[u16], pos: usize, any_space: bool) -> Option<usize> {
    let is_gap = |c: i32| {
        if any_space {
            c != -1 && is_js_space(c)
        } else {
            c == 32
        }
    };
    let mut i = pos;
    while is_gap(code_at(s, i)) {
        i += 1;
    }
    if i == pos {
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
    let mut value = i;
    while is_gap(code_at(s, value)) {
        value += 1;
    }
    if code_at(s, value) != 61 {
        return Some(name_end);
    }
    value += 1;
    while is_gap(code_at(s, value)) {
        value += 1;
    }
    let c = code_at(s, value);
    if c == 39 || c == 34 {
        let mut end = value + 1;
        while end < s.len() && s[end] as i32 != c && (any_space || s[end] != LF) {
            end += 1;
        }
        return Some(if code_at(s, end) == c {
            end + 1
        } else {
            name_end
        });
    }
    let plain = |c: i32| c != -1 && !is_js_space(c) && !matches!(c, 34 | 39 | 60 | 61 | 62 | 96);
    if !plain(c) {
        return Some(name_end);
    }
    let mut end = value;
    while plain(code_at(s, end)) {
        end += 1;
    }
    Some(end)
}

/// Repeats `attribute` while it advances.
pub(super) fn attributes(s: &[u16], pos: usize, any_space: bool) -> usize {
    let mut end = pos;
    while let Some(next) = attribute(s, end, any_space) {
        if next <= end {
            break;
        }
        end = next;
    }
    end
}

/// The length of a block-level HTML token at the start of `src`, if there is one.
pub(super) fn html_block_len(src: &[u16]) -> Option<usize> {
    let lt_pos = skip_indent(src, 0);
    if code_at(src, lt_pos) != LT as i32 {
        return None;
    }
    let after_lt = lt_pos + 1;
    let first = code_at(src, after_lt);
    let eat_newlines = |pos: usize| run_of(src, pos, LF);
    if first == ascii_code(b'?') {
        return Some(eat_newlines(past_pattern(src, "?>", after_lt + 1)));
    }
    if first == ascii_code(b'!') {
        if starts_at_str(src, after_lt + 1, "--") {
            return Some(eat_newlines(line_end(
                src,
                past_pattern(src, "-->", after_lt + 1),
            )));
        }
        if tag_name(src, after_lt + 1) > after_lt + 1 {
            return Some(eat_newlines(past_pattern(src, ">", after_lt)));
        }
        if starts_at_ci(src, after_lt + 1, "[cdata[") {
            return Some(eat_newlines(past_pattern(src, "]]>", after_lt + 8)));
        }
        return None;
    }
    let closing = first == 47;
    let name_start = if closing { after_lt + 1 } else { after_lt };
    let name_end = tag_name(src, name_start);
    let name: Vec<u16> = src[name_start..name_end]
        .iter()
        .map(|&c| ascii_lower(c))
        .collect();
    let after = code_at(src, name_end);
    if RAW_TAGS.iter().any(|tag| starts_at_str(&name, 0, tag)) {
        let exact = RAW_TAGS.iter().any(|tag| eq_str(&name, tag));
        if !closing && exact && (after == 62 || is_space_class(after)) {
            return Some(raw_tag_block_end(src, &name, name_end));
        }
        return None;
    }
    if is_block_tag(&name) && tag_name_end(src, name_end) {
        return Some(past_blank_line(src, name_end + 1));
    }
    if name.is_empty() {
        return None;
    }
    let tag_end = if closing {
        // `/\s*>/y`
        let pos = skip_ws(src, name_end);
        (code_at(src, pos) == 62).then_some(pos + 1)
    } else {
        // `/ *\/?>/y` after the attributes
        let pos = run_of(src, attributes(src, name_end, false), SPACE);
        let pos = if code_at(src, pos) == 47 {
            pos + 1
        } else {
            pos
        };
        (code_at(src, pos) == 62).then_some(pos + 1)
    };
    match tag_end {
        Some(tag_end) if at_eol(src, skip_tabs_spaces(src, tag_end)) => {
            Some(past_blank_line(src, tag_end))
        }
        _ => None,
    }
}

/// A `<pre>`/`<script>`/`<style>`/`<textarea>` block: to the end of the line holding the
/// closing tag (and the newlines after it), or to the end of the text.
pub(super) fn raw_tag_block_end(src: &[u16], name: &[u16], from: usize) -> usize {
    let mut close = vec![LT, b'/' as u16];
    close.extend_from_slice(name);
    close.push(GT);
    let mut found = index_of(src, &[LT, b'/' as u16], from);
    while let Some(pos) = found {
        let candidate = &src[pos..(pos + close.len()).min(src.len())];
        if candidate.len() == close.len()
            && candidate
                .iter()
                .zip(&close)
                .all(|(&a, &b)| ascii_lower(a) == b)
        {
            return run_of(src, line_end(src, pos), LF);
        }
        found = index_of(src, &[LT, b'/' as u16], pos + 2);
    }
    src.len()
}
