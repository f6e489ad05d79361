//! Block-level recognisers other than HTML: each takes the rest of the text (or a line) and
//! answers where the construct ends, mirroring one of the lexer's regular expressions (quoted
//! above each function): code blocks, fences, headings, thematic breaks, list markers,
//! paragraphs, setext headings, block quote markers, and the line tests lazy continuation uses.

use crate::js;

use super::html::html_interrupts_at;
use super::utf16::{
    BACKTICK, GT, HASH, LF, LT, SPACE, TAB, TILDE, any_line_end, at_eol, code_at, count_spaces,
    index_of_unit, is_ascii_alpha, is_digit, is_js_space, js_slice, line_end, run_of, skip_indent,
    skip_tabs_spaces, slice_from, starts_at, starts_at_str, trim_end_ch,
};

/// `/ {0,3}\t| {4}/y` at `from`.
pub(super) fn code_indent(s: &[u16], from: usize) -> Option<usize> {
    let spaces = count_spaces(s, from);
    if spaces >= 4 {
        return Some(from + 4);
    }
    (code_at(s, from + spaces) == TAB as i32).then_some(from + spaces + 1)
}

/// `/[\t\n ]*$|[\t\n ]*\n|/y` at `from`.
pub(super) fn blank_tail(s: &[u16], from: usize) -> usize {
    let mut end = from;
    let mut last_nl = None;
    while end < s.len() && matches!(s[end], LF | TAB | SPACE) {
        if s[end] == LF {
            last_nl = Some(end);
        }
        end += 1;
    }
    if end >= s.len() {
        return s.len().max(from);
    }
    last_nl.map_or(from, |last| last + 1)
}

/// The length of an indented code block at the start of `src`.
pub(super) fn indented_code_len(src: &[u16]) -> Option<usize> {
    let mut len: Option<usize> = None;
    let mut line_start = 0;
    loop {
        let Some(content_start) = code_indent(src, line_start) else {
            return len;
        };
        if at_eol(src, content_start) {
            return len;
        }
        let eol = line_end(src, content_start);
        let next = if eol < src.len() {
            blank_tail(src, eol + 1)
        } else {
            eol
        };
        len = Some(next);
        line_start = next;
    }
}

/// The text of an indented code block (what a paragraph gets when one is merged into it).
pub(super) fn indented_code_text(src: &[u16]) -> Vec<u16> {
    let mut text = Vec::new();
    let mut line_start = 0;
    while line_start < src.len() {
        let next_line = any_line_end(src, line_start) + 1;
        let indent_end = skip_indent(src, line_start);
        let one_more = if indent_end - line_start == 3 {
            code_at(src, indent_end) == SPACE as i32
        } else {
            indent_end == line_start && code_at(src, indent_end) == TAB as i32
        };
        text.extend_from_slice(js_slice(
            src,
            (if one_more { indent_end + 1 } else { indent_end }) as i64,
            next_line as i64,
        ));
        line_start = next_line;
    }
    trim_end_ch(&text, LF).to_vec()
}

/// `/ {0,3}(?:`{3,}(?![^\n`]*`)|~{3,})/y`: the end of an opening fence.
pub(super) fn fence_open(src: &[u16]) -> Option<usize> {
    let fence_start = skip_indent(src, 0);
    let c = code_at(src, fence_start);
    if c == BACKTICK as i32 {
        let fence_end = run_of(src, fence_start, BACKTICK);
        if fence_end - fence_start < 3
            || src[fence_end..line_end(src, fence_end)].contains(&BACKTICK)
        {
            return None;
        }
        return Some(fence_end);
    }
    if c == TILDE as i32 {
        let fence_end = run_of(src, fence_start, TILDE);
        return (fence_end - fence_start >= 3).then_some(fence_end);
    }
    None
}

/// Where the closing fence's line starts, if the fence is closed.
pub(super) fn fence_close(src: &[u16], open_end: usize) -> Option<usize> {
    let fence = js::trim_start_units(&src[..open_end]).to_vec();
    let mut from = open_end;
    loop {
        // `/\n {0,3}(?=[`~])/g` from `from`
        let mut found = None;
        let mut i = from;
        while let Some(newline) = index_of_unit(src, LF, i) {
            let spaces = count_spaces(src, newline + 1);
            let c = code_at(src, newline + 1 + spaces);
            if spaces <= 3 && (c == BACKTICK as i32 || c == TILDE as i32) {
                found = Some((newline, newline + 1 + spaces));
                break;
            }
            i = newline + 1;
        }
        let (closing_newline, fence_pos) = found?;
        if starts_at(src, fence_pos, &fence) {
            // `/[`~]* *(?![^\n])/y`
            let mut end = fence_pos + fence.len();
            while end < src.len() && (src[end] == BACKTICK || src[end] == TILDE) {
                end += 1;
            }
            end = run_of(src, end, SPACE);
            if at_eol(src, end) {
                return Some(closing_newline + 1);
            }
        }
        from = fence_pos;
    }
}

/// The length of a fenced code block at the start of `src`.
pub(super) fn fenced_code_len(src: &[u16]) -> Option<usize> {
    let open_end = fence_open(src)?;
    Some(match fence_close(src, open_end) {
        None => src.len(),
        Some(close_line) => line_end(src, close_line),
    })
}

/// `/^ {0,3}#{1,6}(?!\S).*(?![^\n])\n*/`.
pub(super) fn atx_heading_len(src: &[u16]) -> Option<usize> {
    let hashes_start = skip_indent(src, 0);
    let hashes_end = run_of(src, hashes_start, HASH);
    if hashes_end == hashes_start || hashes_end - hashes_start > 6 {
        return None;
    }
    let c = code_at(src, hashes_end);
    if c != -1 && !is_js_space(c) {
        return None;
    }
    let eol = any_line_end(src, hashes_end);
    if eol < src.len() && src[eol] != LF {
        return None;
    }
    Some(run_of(src, eol, LF))
}

/// The text of an ATX heading.
pub(super) fn atx_heading_text(raw: &[u16]) -> Vec<u16> {
    let hashes_start = raw.iter().position(|&c| c == HASH).unwrap_or(0);
    let hashes_end = run_of(raw, hashes_start, HASH);
    let text = js::trim_units(slice_from(raw, hashes_end));
    // `.replace(/(?:^| )#+$/, "")`
    let mut end = text.len();
    while end > 0 && text[end - 1] == HASH {
        end -= 1;
    }
    let text = if end == text.len() {
        text
    } else if end == 0 {
        &text[..0]
    } else if text[end - 1] == SPACE {
        &text[..end - 1]
    } else {
        text
    };
    js::trim_units(text).to_vec()
}

/// The thematic break `-[\t ]*-[\t ]*-[-\t ]*` (or with `_`, `*`) followed by a line end, at
/// `pos`; answers the end of the line.
pub(super) fn hr_body(s: &[u16], pos: usize) -> Option<usize> {
    let c = code_at(s, pos);
    if !(c == 45 || c == 95 || c == 42) {
        return None;
    }
    let mut count = 0;
    let mut end = pos;
    while end < s.len() && (s[end] as i32 == c || s[end] == SPACE || s[end] == TAB) {
        if s[end] as i32 == c {
            count += 1;
        }
        end += 1;
    }
    (count >= 3 && at_eol(s, end)).then_some(end)
}

/// `/^ {0,3}HR\n*/` at `line_start`: the end of the line (the token's raw leaves the newlines out).
pub(super) fn hr_at(s: &[u16], line_start: usize) -> Option<usize> {
    hr_body(s, skip_indent(s, line_start))
}

/// `/^(?:[\t\n ]*$|[\t ]*\n(?:[\t\n ]*\n)?)/`.
pub(super) fn space_len(src: &[u16]) -> usize {
    let mut end = 0;
    let mut last_nl = None;
    while end < src.len() && matches!(src[end], LF | TAB | SPACE) {
        if src[end] == LF {
            last_nl = Some(end);
        }
        end += 1;
    }
    if end >= src.len() {
        return src.len();
    }
    let blank_end = skip_tabs_spaces(src, 0);
    if code_at(src, blank_end) != LF as i32 {
        return 0;
    }
    match last_nl {
        Some(last) if last > blank_end => last + 1,
        _ => blank_end + 1,
    }
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*])/` at `line_start`: the end of a list marker.
pub(super) fn marker_at(s: &[u16], line_start: usize) -> Option<usize> {
    let marker_start = skip_indent(s, line_start);
    let c = code_at(s, marker_start);
    if c == 45 || c == 43 || c == 42 {
        return Some(marker_start + 1);
    }
    if !is_digit(c) {
        return None;
    }
    let mut digits_end = marker_start;
    while is_digit(code_at(s, digits_end)) {
        digits_end += 1;
    }
    (digits_end - marker_start <= 9 && matches!(code_at(s, digits_end), 41 | 46))
        .then_some(digits_end + 1)
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*])(?![^\t\n ])/y` at `line_start`.
pub(super) fn list_marker(s: &[u16], line_start: usize) -> Option<usize> {
    let marker_end = marker_at(s, line_start)?;
    matches!(code_at(s, marker_end), -1 | 9 | 10 | 32).then_some(marker_end)
}

/// `/^ {0,3}(?:\d{1,9}[).]|[-+*])(?:[\t ][^\n]+)?(?![^\n])\n?/.test(e)`.
pub(super) fn list_starts(src: &[u16]) -> bool {
    let Some(marker_end) = marker_at(src, 0) else {
        return false;
    };
    match code_at(src, marker_end) {
        -1 | 10 => true,
        9 | 32 => !matches!(code_at(src, marker_end + 1), -1 | 10),
        _ => false,
    }
}

/// `/ {0,3}(?:>|[-+*] |1[).] |#{1,6}(?!\S)|`{3,}[^\n`]*\n|~~~[^\n]*\n|HR)| *\n|HTML/y`: a
/// line that ends a paragraph.
pub(super) fn interrupts_paragraph(s: &[u16], line_start: usize) -> bool {
    let first = skip_indent(s, line_start);
    let c = code_at(s, first);
    let hit = match c {
        62 => true,
        45 | 43 | 42 if code_at(s, first + 1) == 32 => true,
        49 if matches!(code_at(s, first + 1), 41 | 46) && code_at(s, first + 2) == 32 => true,
        35 => {
            let run_end = run_of(s, first, HASH);
            let next = code_at(s, run_end);
            run_end - first <= 6 && (next == -1 || is_js_space(next))
        }
        96 => {
            let run_end = run_of(s, first, BACKTICK);
            let eol = line_end(s, run_end);
            run_end - first >= 3 && eol < s.len() && !s[run_end..eol].contains(&BACKTICK)
        }
        126 => starts_at_str(s, first, "~~~") && line_end(s, first) < s.len(),
        _ => false,
    };
    if hit || hr_body(s, first).is_some() {
        return true;
    }
    let spaces = count_spaces(s, line_start);
    if code_at(s, line_start + spaces) == LF as i32 {
        return true;
    }
    html_interrupts_at(s, line_start)
}

/// The end of a paragraph at the start of `src` (0 for none).
pub(super) fn paragraph_len(src: &[u16]) -> usize {
    let mut end = line_end(src, 0);
    if end == 0 {
        return 0;
    }
    while end + 1 < src.len() {
        let next_end = line_end(src, end + 1);
        if interrupts_paragraph(src, end + 1) {
            break;
        }
        end = next_end;
    }
    end
}

/// `/ {0,3}(?:-+|=+) *(?![^\n])\n*/y` at `line_start`.
pub(super) fn setext_underline(src: &[u16], line_start: usize) -> Option<usize> {
    let first = skip_indent(src, line_start);
    let c = code_at(src, first);
    if c != 45 && c != 61 {
        return None;
    }
    let run_end = run_of(src, first, c as u16);
    let end = run_of(src, run_end, SPACE);
    at_eol(src, end).then(|| run_of(src, end, LF))
}

/// `/(?![-+*] |\d{1,9}[).] | {0,3}(?:[\t#>]|```|~~~|<[^\n>]+>\n)| {4}).*\n/y` at `line_start`: a line
/// that can be part of a setext heading's text.
pub(super) fn setext_text_line(src: &[u16], line_start: usize) -> Option<usize> {
    let c = code_at(src, line_start);
    if matches!(c, 45 | 43 | 42) && code_at(src, line_start + 1) == 32 {
        return None;
    }
    if is_digit(c) {
        let mut digits_end = line_start;
        while is_digit(code_at(src, digits_end)) {
            digits_end += 1;
        }
        if digits_end - line_start <= 9
            && matches!(code_at(src, digits_end), 41 | 46)
            && code_at(src, digits_end + 1) == 32
        {
            return None;
        }
    }
    let spaces = count_spaces(src, line_start);
    if spaces >= 4 {
        return None;
    }
    let first = line_start + spaces;
    match code_at(src, first) {
        9 | 35 | 62 => return None,
        96 if starts_at_str(src, first, "```") => return None,
        126 if starts_at_str(src, first, "~~~") => return None,
        60 => {
            let mut close = first + 1;
            while close < src.len() && src[close] != LF && src[close] != GT {
                close += 1;
            }
            if close > first + 1
                && code_at(src, close) == GT as i32
                && code_at(src, close + 1) == LF as i32
            {
                return None;
            }
        }
        _ => {}
    }
    let eol = any_line_end(src, line_start);
    (code_at(src, eol) == LF as i32).then_some(eol + 1)
}

/// `/[^\S\n]*\n/y` at `line_start`.
pub(super) fn blank_line_at(src: &[u16], line_start: usize) -> bool {
    let mut i = line_start;
    while i < src.len() && src[i] != LF && is_js_space(src[i] as i32) {
        i += 1;
    }
    code_at(src, i) == LF as i32
}

/// Where a setext underline could start (positive), or `!(how far the text lines go)`.
pub(super) fn setext_scan(src: &[u16]) -> i64 {
    let mut pos = 0usize;
    while let Some(next) = setext_text_line(src, pos) {
        pos = next;
        if pos > 1 && setext_underline(src, pos).is_some() {
            return pos as i64;
        }
        if blank_line_at(src, pos) {
            break;
        }
    }
    !(pos as i64)
}

/// The length of a setext heading at the start of `src`.
pub(super) fn setext_len(src: &[u16]) -> Option<usize> {
    let underline = setext_scan(src);
    if underline < 0 {
        return None;
    }
    setext_underline(src, underline as usize)
}

/// Strips `/ {0,3}>[\t ]?/` from the start of every line.
pub(super) fn strip_quote_markers(src: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(src.len());
    let mut line_start = 0;
    while line_start < src.len() {
        let mut content_start = line_start;
        let marker = skip_indent(src, line_start);
        if code_at(src, marker) == GT as i32 {
            content_start = marker + 1;
            if matches!(code_at(src, content_start), 9 | 32) {
                content_start += 1;
            }
        }
        let next = any_line_end(src, content_start) + 1;
        out.extend_from_slice(js_slice(src, content_start as i64, next as i64));
        line_start = next;
    }
    out
}

/// `/^ {0,3}>/` at `line_start` (`line_start` may be past the end).
pub(super) fn quote_marker_at(s: &[u16], line_start: usize) -> bool {
    line_start <= s.len() && code_at(s, skip_indent(s, line_start)) == GT as i32
}

/// `/[\t ]*(?![^\n])| {0,3}(?:\d{1,9}[).]|[-+*])(?:[\t ][^\n]|\n)/y` at `line_start`.
pub(super) fn blank_or_marker_line(s: &[u16], line_start: usize) -> bool {
    if at_eol(s, skip_tabs_spaces(s, line_start)) {
        return true;
    }
    let Some(marker_end) = marker_at(s, line_start) else {
        return false;
    };
    match code_at(s, marker_end) {
        10 => true,
        9 | 32 => !matches!(code_at(s, marker_end + 1), -1 | 10),
        _ => false,
    }
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*]|`{3,}[^\n`]*|~~~[^\n]*)$/y` at `line_start` (`$` being the end of `s`).
pub(super) fn last_line_opens_block(s: &[u16], line_start: usize) -> bool {
    if let Some(marker_end) = marker_at(s, line_start)
        && marker_end == s.len()
    {
        return true;
    }
    let first = skip_indent(s, line_start);
    if starts_at_str(s, first, "```") {
        let run_end = run_of(s, first, BACKTICK);
        return !s[run_end..].iter().any(|&c| c == BACKTICK || c == LF);
    }
    starts_at_str(s, first, "~~~") && !s[first..].contains(&LF)
}

/// `#|```|~~~|(?:- *- *-[- ]*|_ *_ *_[_ ]*|[*] *[*] *[*][* ]*)$` at `first` of a line.
pub(super) fn opens_block_line(line: &[u16], first: usize) -> bool {
    let c = code_at(line, first);
    if c == HASH as i32 || starts_at_str(line, first, "```") || starts_at_str(line, first, "~~~") {
        return true;
    }
    if !(c == 45 || c == 95 || c == 42) {
        return false;
    }
    let mut count = 0;
    for &unit in &line[first..] {
        if unit as i32 == c {
            count += 1;
        } else if unit != SPACE {
            return false;
        }
    }
    count >= 3
}

/// The first non-space index (tabs count as non-space), or the length.
pub(super) fn first_non_space(line: &[u16]) -> usize {
    line.iter().position(|&c| c != SPACE).unwrap_or(line.len())
}

/// `/^[\t ]*$/`.
pub(super) fn only_tabs_spaces(line: &[u16]) -> bool {
    line.iter().all(|&c| c == SPACE || c == TAB)
}

/// A line that ends a list item when it starts within `D` columns: the case-insensitive
/// `#|```|~~~|HR$|<!--|<[A-Z].*>|(?:\d{1,9}[).]|[-+*])(?![^\t ])` at `first`.
pub(super) fn ends_list_item(line: &[u16], first: usize) -> bool {
    if opens_block_line(line, first) || starts_at_str(line, first, "<!--") {
        return true;
    }
    if code_at(line, first) == LT as i32 && is_ascii_alpha(code_at(line, first + 1)) {
        let eol = any_line_end(line, first + 2);
        if line[(first + 2).min(eol)..eol].contains(&GT) {
            return true;
        }
    }
    // `first` is at the line's first non-space, so `marker_at` finds no indentation to skip.
    matches!(marker_at(line, first), Some(marker_end) if matches!(code_at(line, marker_end), -1 | 9 | 32))
}

/// `/^(?: {0,3}\t| {4})[\t ]*[^\t ]/`.
pub(super) fn indented_code_line(line: &[u16]) -> bool {
    match code_indent(line, 0) {
        Some(content) => skip_tabs_spaces(line, content) < line.len(),
        None => false,
    }
}

/// Whether a line under-indented for the item may still continue its paragraph lazily.
pub(super) fn lazy_allowed(previous: &[u16], limit: usize) -> bool {
    let first = first_non_space(previous);
    !indented_code_line(previous) && (first > limit || !opens_block_line(previous, first))
}

pub(super) fn expand_tabs(line: &[u16]) -> Vec<u16> {
    let mut expanded = Vec::with_capacity(line.len());
    for &c in line {
        if c == TAB {
            expanded.extend_from_slice(&[SPACE; 4]);
        } else {
            expanded.push(c);
        }
    }
    expanded
}

/// `/\n[\t ]*$/`.
pub(super) fn ends_in_blank_line(raw: &[u16]) -> bool {
    let last = raw.iter().rposition(|&c| c != SPACE && c != TAB);
    matches!(last, Some(i) if raw[i] == LF)
}

/// `s.replace(/\n[\t ]+/g, "\n")`.
pub(super) fn dedent_continuations(s: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        out.push(s[i]);
        if s[i] == LF {
            let next = skip_tabs_spaces(s, i + 1);
            i = next;
        } else {
            i += 1;
        }
    }
    out
}

/// `s.replace(/^[\t\n ]+/, "")`.
pub(super) fn strip_leading_blank(s: &[u16]) -> &[u16] {
    let blank = s
        .iter()
        .take_while(|&&c| matches!(c, LF | TAB | SPACE))
        .count();
    &s[blank..]
}
