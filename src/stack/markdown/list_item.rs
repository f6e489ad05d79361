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
pub(super) struct ItemGeometry {
    /// How many columns the item's content is indented (marker and spaces after it).
    pub(super) indent: usize,
    /// The content of the last line gathered (what decides whether a lazy line may follow).
    pub(super) previous: Vec<u16>,
    /// Whether a blank line was gathered (no lazy continuation after one).
    pub(super) saw_blank: bool,
    /// Whether the last line gathered is blank.
    pub(super) ends_in_blank: bool,
    /// Where the last line gathered ends (its newline).
    pub(super) stop: usize,
    /// Where the next line starts: where the list's next item is looked for.
    pub(super) end: usize,
    /// The marker's last character (`-`, `+`, `*`, `.` or `)`): the list's items share it.
    pub(super) kind: u16,
}

/// Where the next item of the list (marker kind `kind`) starts its content, from `line_start`.
pub(super) fn next_item_marker(src: &[u16], line_start: usize, kind: u16) -> Option<usize> {
    let content_start = list_marker(src, line_start)?;
    if src[content_start - 1] != kind || hr_at(src, line_start).is_some() {
        return None;
    }
    Some(content_start)
}

pub(super) fn item_is_last(item: &ItemGeometry, src: &[u16]) -> bool {
    next_item_marker(src, item.end, item.kind).is_none()
}

/// A list item starting at line `line_start` with its marker ending at `marker_end`: its geometry and the
/// content gathered so far.
pub(super) fn item_start(
    src: &[u16],
    line_start: usize,
    marker_end: usize,
) -> (ItemGeometry, Vec<u16>) {
    let eol = line_end(src, marker_end);
    let tabs_end = run_of(src, marker_end, TAB);
    let mut first_line: Vec<u16> = Vec::new();
    if tabs_end > marker_end {
        first_line.resize(3 * (tabs_end - marker_end), SPACE);
    }
    first_line.extend_from_slice(js_slice(src, tabs_end as i64, eol as i64));
    let blank = is_blank_js(&first_line);
    let mut indent = marker_end - line_start;
    let mut content: Vec<u16> = Vec::new();
    if blank {
        indent += 1;
    } else {
        let spaces = count_spaces(src, marker_end);
        let content_offset = if spaces > 4 { 1 } else { spaces };
        content = slice_from(&first_line, content_offset).to_vec();
        indent += content_offset;
    }
    let blank_item_end = if blank {
        let next_line = (eol + 1).min(src.len());
        let pos = skip_tabs_spaces(src, next_line);
        at_eol(src, pos).then(|| {
            if code_at(src, pos) == LF as i32 {
                pos + 1
            } else {
                pos
            }
        })
    } else {
        None
    };
    let mut item = ItemGeometry {
        indent,
        previous: first_line,
        saw_blank: blank,
        ends_in_blank: true,
        stop: eol,
        end: blank_item_end.unwrap_or(0),
        kind: src[marker_end - 1],
    };
    if blank_item_end.is_none() {
        item_lines(&mut item, src, eol, &mut content);
    }
    (item, content)
}

/// Gathers the item's following lines from `from` (a line end) in `src`, appending them to `content`.
pub(super) fn item_lines(
    item: &mut ItemGeometry,
    src: &[u16],
    from: usize,
    content: &mut Vec<u16>,
) {
    let indent = item.indent;
    let mut previous = std::mem::take(&mut item.previous);
    let mut saw_blank = item.saw_blank;
    let mut stop = from;
    let mut last: Option<(usize, usize)> = None;
    let limit = 3.min(indent.saturating_sub(1));
    let mut line_start = stop + 1;
    while line_start < src.len() {
        let eol = line_end(src, line_start);
        let line = &src[line_start..eol];
        let first = first_non_space(line);
        if first <= limit && ends_list_item(line, first) {
            break;
        }
        let expanded: Cow<'_, [u16]> = if line.contains(&TAB) {
            Cow::Owned(expand_tabs(line))
        } else {
            Cow::Borrowed(line)
        };
        let blank = is_blank_js(line);
        let indented = slice_from(&expanded, indent);
        if blank || first_non_space(&expanded) >= indent {
            content.push(LF);
            content.extend_from_slice(indented);
        } else if saw_blank || !lazy_allowed(&previous, limit) {
            break;
        } else {
            content.push(LF);
            content.extend_from_slice(line);
        }
        saw_blank = saw_blank || blank;
        last = Some((line_start, eol));
        previous.clear();
        previous.extend_from_slice(indented);
        stop = eol;
        line_start = stop + 1;
    }
    item.previous = previous;
    item.saw_blank = saw_blank;
    item.ends_in_blank = last.is_some_and(|(start, end)| only_tabs_spaces(&src[start..end]));
    item.stop = stop;
    item.end = (stop + 1).min(src.len());
}

/// A non-blank line at `line_start` indented less than `indent` columns (tabs as four).
pub(super) fn under_indented(src: &[u16], line_start: usize, indent: usize) -> bool {
    let first = skip_tabs_spaces(src, line_start.min(src.len()));
    if line_start > src.len() || at_eol(src, first) {
        return false;
    }
    src[line_start..first]
        .iter()
        .map(|&c| if c == TAB { 4 } else { 1 })
        .sum::<usize>()
        < indent
}

/// Lazy continuation lines from the line after `from`: where the last one ends.
pub(super) fn lazy_run(src: &[u16], from: usize, nested: bool) -> Option<usize> {
    let mut last_end: Option<usize> = None;
    let mut line_start = from + 1;
    while line_start < src.len() {
        if interrupts_paragraph(src, line_start)
            || blank_or_marker_line(src, line_start)
            || html_block_starts_at(src, line_start)
            || (nested && last_line_opens_block(src, line_start))
        {
            break;
        }
        let end = line_end(src, line_start);
        last_end = Some(end);
        line_start = end + 1;
    }
    last_end
}

/// Lazy continuation lines for a list item: under-indented lines that are not list markers.
pub(super) fn item_lazy_run(src: &[u16], from: usize, indent: usize) -> Option<usize> {
    let mut end = from;
    while under_indented(src, end + 1, indent) && list_marker(src, end + 1).is_none() {
        end = line_end(src, end + 1);
    }
    lazy_run(slice_to(src, end), from, true)
}
