//! List-item geometry: where each item of a list starts, how far its content is indented, and
//! which following lines belong to it (indented, blank, or lazy continuations).

use std::borrow::Cow;

use super::block::{
    blank_or_marker_line, ends_list_item, expand_tabs, first_non_space, hr_at,
    interrupts_paragraph, last_line_opens_block, lazy_allowed, list_marker, only_tabs_spaces,
};
use super::html::html_block_starts_at;
use super::utf16::{
    LF, SPACE, TAB, at_eol, code_at, count_spaces, is_blank_js, js_slice, line_end, run_of,
    skip_tabs_spaces, slice_from, slice_to,
};

/// A list item's geometry while its lines are gathered.
#[derive(Clone)]
pub(super) struct Item {
    pub(super) indent: usize,
    pub(super) previous: Vec<u16>,
    pub(super) saw_blank: bool,
    pub(super) ends_in_blank: bool,
    pub(super) stop: usize,
    pub(super) end: usize,
    pub(super) kind: u16,
}

/// Where the next item of the list (marker kind `kind`) starts its content, from `n`.
pub(super) fn next_item_marker(e: &[u16], n: usize, kind: u16) -> Option<usize> {
    let h = list_marker(e, n)?;
    if e[h - 1] != kind || hr_at(e, n).is_some() {
        return None;
    }
    Some(h)
}

pub(super) fn item_is_last(item: &Item, src: &[u16]) -> bool {
    next_item_marker(src, item.end, item.kind).is_none()
}

/// A list item starting at line `n` with its marker ending at `o`: its geometry and the
/// content gathered so far.
pub(super) fn item_start(e: &[u16], n: usize, o: usize) -> (Item, Vec<u16>) {
    let h = line_end(e, o);
    let g = run_of(e, o, TAB);
    let mut y: Vec<u16> = Vec::new();
    if g > o {
        y.resize(3 * (g - o), SPACE);
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
        content = slice_from(&y, w).to_vec();
        indent += w;
    }
    let d = if blank {
        let p = (h + 1).min(e.len());
        let q = skip_tabs_spaces(e, p);
        at_eol(e, q).then(|| if code_at(e, q) == LF as i32 { q + 1 } else { q })
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
pub(super) fn item_lines(item: &mut Item, n: &[u16], o: usize, k: &mut Vec<u16>) {
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
        let q = slice_from(&x, h);
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
pub(super) fn under_indented(e: &[u16], n: usize, indent: usize) -> bool {
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
pub(super) fn lazy_run(e: &[u16], n: usize, nested: bool) -> Option<usize> {
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
pub(super) fn item_lazy_run(e: &[u16], n: usize, indent: usize) -> Option<usize> {
    let mut h = n;
    while under_indented(e, h + 1, indent) && list_marker(e, h + 1).is_none() {
        h = line_end(e, h + 1);
    }
    lazy_run(slice_to(e, h), n, true)
}
