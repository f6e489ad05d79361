//! Link syntax: link reference definitions (`[label]: destination "title"`), the labels of
//! reference links, inline link destinations and titles, and autolinks.

use super::utf16::{
    AT, BACKSLASH, BACKTICK, CLOSE_BRACKET, CLOSE_PAREN, GT, LF, LT, OPEN_BRACKET, OPEN_PAREN,
    SPACE, any_line_end, ascii_code, at_eol, code_at, contains, index_of_unit, is_ascii_alpha,
    is_digit, is_js_space, is_line_term, is_word, js_lower, last_index_of_unit, run_of,
    skip_indent, skip_tabs_spaces, skip_ws, starts_at,
};

/// `/(?:[^[\\\]]+|\\.)*/` from `start`, then `]` with some non-space in between: the `]` index.
pub(super) fn label_end(src: &[u16], start: usize) -> Option<usize> {
    let mut pos = start;
    loop {
        let c = code_at(src, pos);
        if c == -1 || c == OPEN_BRACKET as i32 || c == CLOSE_BRACKET as i32 {
            break;
        }
        if c == BACKSLASH as i32 {
            let escaped = code_at(src, pos + 1);
            if escaped == -1 || is_line_term(escaped) {
                break;
            }
            pos += 2;
        } else {
            pos += 1;
        }
    }
    (code_at(src, pos) == CLOSE_BRACKET as i32 && skip_ws(src, start) < pos).then_some(pos)
}

/// Spaces, then at most one newline and the next line's indentation.
pub(super) fn def_gap(src: &[u16], from: usize) -> usize {
    let spaces_end = run_of(src, from, SPACE);
    if code_at(src, spaces_end) == LF as i32 {
        skip_tabs_spaces(src, spaces_end + 1)
    } else {
        spaces_end
    }
}

/// Spaces to the end of the line, then the newlines: the end, or -1.
pub(super) fn def_line_end(src: &[u16], from: usize) -> i64 {
    let spaces_end = run_of(src, from, SPACE);
    if at_eol(src, spaces_end) {
        run_of(src, spaces_end, LF) as i64
    } else {
        -1
    }
}

/// The last `close` after `open` (the first unescaped one, stepping back while `ok` fails).
pub(super) fn closing_quote(
    src: &[u16],
    open: usize,
    close: u16,
    ok: impl Fn(&[u16], usize) -> i64,
) -> i64 {
    let mut found = index_of_unit(src, close, open + 1);
    let mut close_pos: i64 = -1;
    while let Some(pos) = found {
        close_pos = pos as i64;
        if pos == open + 1 || src[pos - 1] != BACKSLASH {
            break;
        }
        found = index_of_unit(src, close, pos + 1);
    }
    while close_pos > open as i64 && ok(src, (close_pos + 1) as usize) == -1 {
        close_pos = last_index_of_unit(src, close, close_pos - 1);
    }
    if close_pos > open as i64 {
        close_pos
    } else {
        -1
    }
}

/// What follows a definition's destination ending at `destination_end`: an optional title, then the line
/// end. Answers the definition's length.
pub(super) fn def_tail(src: &[u16], destination_end: usize) -> Option<usize> {
    let title_start = def_gap(src, destination_end);
    let mut title_end: i64 = -1;
    if title_start > destination_end {
        match code_at(src, title_start) {
            34 => title_end = closing_quote(src, title_start, b'"' as u16, def_line_end),
            39 => {
                title_end = index_of_unit(src, b'\'' as u16, title_start + 1)
                    .map_or(-1, |paren| paren as i64);
                if title_end > title_start as i64
                    && contains(&src[title_start..title_end as usize], &[LF, LF])
                {
                    title_end = -1;
                }
            }
            40 => {
                let paren = (title_start + 1..src.len())
                    .find(|&i| src[i] == OPEN_PAREN || src[i] == CLOSE_PAREN)
                    .unwrap_or(src.len());
                title_end = if code_at(src, paren) == CLOSE_PAREN as i32 {
                    paren as i64
                } else {
                    -1
                };
            }
            _ => {}
        }
    }
    let with_title = if title_end == -1 {
        -1
    } else {
        def_line_end(src, (title_end + 1) as usize)
    };
    if with_title != -1 {
        return Some(with_title as usize);
    }
    let without_title = def_line_end(src, destination_end);
    (without_title != -1).then_some(without_title as usize)
}

/// A link reference definition at the start of `src`: its length and raw label.
pub(super) fn link_definition(src: &[u16]) -> Option<(usize, Vec<u16>)> {
    let open = skip_indent(src, 0);
    if code_at(src, open) != OPEN_BRACKET as i32 {
        return None;
    }
    let close = label_end(src, open + 1)?;
    if close <= open + 1 || code_at(src, close + 1) != ascii_code(b':') {
        return None;
    }
    let label = src[open + 1..close].to_vec();
    let destination = def_gap(src, close + 2);
    if code_at(src, destination) != LT as i32 {
        let destination_end = (destination..src.len())
            .find(|&i| is_js_space(src[i] as i32))
            .unwrap_or(src.len());
        if destination_end == destination {
            return None;
        }
        return def_tail(src, destination_end).map(|len| (len, label));
    }
    let eol = any_line_end(src, destination);
    let mut destination_end = index_of_unit(src, GT, destination);
    while let Some(gt) = destination_end {
        if gt >= eol {
            break;
        }
        if let Some(len) = def_tail(src, gt + 1) {
            return Some((len, label));
        }
        destination_end = index_of_unit(src, GT, gt + 1);
    }
    None
}

/// A label as a key of the link map: whitespace runs collapsed to one space, lower-cased.
pub(super) fn normalize_label(label: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(label.len());
    let mut i = 0;
    while i < label.len() {
        if is_js_space(label[i] as i32) {
            while i < label.len() && is_js_space(label[i] as i32) {
                i += 1;
            }
            out.push(SPACE);
        } else {
            out.push(label[i]);
            i += 1;
        }
    }
    js_lower(&out)
}

/// `[…]` / `[…][…]` at `start`, the `]` closing a link text (one level of nested brackets,
/// code spans and escapes skipped).
pub(super) fn label_close(src: &[u16], start: usize) -> Option<usize> {
    let mut nested = false;
    let special = |c: u16| matches!(c, OPEN_BRACKET | CLOSE_BRACKET | BACKSLASH | BACKTICK);
    let mut pos = (start..src.len())
        .find(|&i| special(src[i]))
        .unwrap_or(src.len());
    while pos < src.len() {
        match src[pos] {
            BACKSLASH => {
                pos += 1;
                if pos == src.len() || is_line_term(src[pos] as i32) {
                    return None;
                }
            }
            BACKTICK => {
                if !nested {
                    pos = index_of_unit(src, BACKTICK, pos + 1)?;
                }
            }
            OPEN_BRACKET => {
                if nested {
                    return None;
                }
                nested = true;
            }
            _ => {
                if !nested {
                    return Some(pos);
                }
                nested = false;
            }
        }
        pos = (pos + 1..src.len())
            .find(|&i| special(src[i]))
            .unwrap_or(src.len());
    }
    None
}

pub(super) struct Reference {
    pub(super) end: usize,
    pub(super) text: std::ops::Range<usize>,
    pub(super) label: std::ops::Range<usize>,
    pub(super) short: bool,
}

/// A reference link `[text][label]`, `[label][]` or `[label]` opening at `open`.
pub(super) fn reference(src: &[u16], open: usize) -> Option<Reference> {
    if let Some(text_close) = label_close(src, open + 1) {
        let label_open = text_close + 1;
        if code_at(src, label_open) == OPEN_BRACKET as i32
            && let Some(label_closing) = label_end(src, label_open + 1)
        {
            let label = if label_closing > label_open + 1 {
                label_open + 1..label_closing
            } else {
                open + 1..text_close
            };
            return Some(Reference {
                end: label_closing + 1,
                text: open + 1..text_close,
                label,
                short: false,
            });
        }
    }
    let close = label_end(src, open + 1)?;
    let end = if starts_at(src, close + 1, &[OPEN_BRACKET, CLOSE_BRACKET]) {
        close + 3
    } else {
        close + 1
    };
    Some(Reference {
        end,
        text: open + 1..close,
        label: open + 1..close,
        short: true,
    })
}

/// What follows a link destination `e[n..o]`: `)` or a title then `)`. Answers the link's
/// end and the destination's bounds.
pub(super) fn link_tail(
    src: &[u16],
    destination_start: i64,
    destination_end: i64,
) -> Option<(usize, i64, i64)> {
    if destination_end < 0 {
        return None;
    }
    let after_destination = destination_end as usize;
    let pos = skip_ws(src, after_destination);
    let next = code_at(src, pos);
    if next == CLOSE_PAREN as i32 {
        return Some((pos + 1, destination_start, destination_end));
    }
    if pos == after_destination || next == -1 || !matches!(next, 0x22 | 0x27 | 0x28) {
        return None;
    }
    let close = if next == OPEN_PAREN as i32 {
        CLOSE_PAREN
    } else {
        next as u16
    };
    let title_close = closing_quote(src, pos, close, paren_after);
    if title_close == -1 {
        return None;
    }
    let end = paren_after(src, (title_close + 1) as usize);
    (end >= 0).then_some((end as usize, destination_start, destination_end))
}

/// `\s*)` at `from`: past the `)`, or -1.
pub(super) fn paren_after(src: &[u16], from: usize) -> i64 {
    let pos = skip_ws(src, from);
    if code_at(src, pos) == CLOSE_PAREN as i32 {
        pos as i64 + 1
    } else {
        -1
    }
}

/// The index of the first `)` in a destination not matched by a `(` (escapes skipped).
pub(super) fn unbalanced_paren(destination: &[u16]) -> i64 {
    let mut depth: i64 = 0;
    let find = |from: usize| {
        (from..destination.len())
            .find(|&i| matches!(destination[i], OPEN_PAREN | CLOSE_PAREN | BACKSLASH))
            .unwrap_or(destination.len())
    };
    let mut pos = find(0);
    while pos < destination.len() {
        let unit = destination[pos];
        if unit == CLOSE_PAREN && depth == 0 {
            return pos as i64;
        }
        let escape = unit == BACKSLASH;
        if !escape {
            depth += if unit == OPEN_PAREN { 1 } else { -1 };
        }
        pos = find(pos + if escape { 2 } else { 1 });
    }
    -1
}

/// An autolink `<scheme:…>` or `<local@domain>` at the start of `src`: its length and the
/// inner range.
pub(super) fn autolink(src: &[u16]) -> Option<(usize, std::ops::Range<usize>)> {
    if code_at(src, 0) != LT as i32 {
        return None;
    }
    // `/<[A-Z][-+.\dA-Z]{1,31}:[!-;=?-\uffff]*>/iy`, with no whitespace inside
    if is_ascii_alpha(code_at(src, 1)) {
        let mut i = 2;
        while is_ascii_alpha(code_at(src, i))
            || is_digit(code_at(src, i))
            || matches!(code_at(src, i), 43 | 45 | 46)
        {
            i += 1;
        }
        if (3..=33).contains(&i) && code_at(src, i) == ascii_code(b':') {
            let mut j = i + 1;
            while j < src.len() && src[j] >= 0x21 && src[j] != LT && src[j] != GT {
                j += 1;
            }
            if code_at(src, j) == GT as i32 && !src[..=j].iter().any(|&c| is_js_space(c as i32)) {
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
    while i < src.len() && local(src[i]) {
        i += 1;
    }
    if i == 1 || code_at(src, i) != AT as i32 {
        return None;
    }
    let domain_start = i + 1;
    let mut last_dot_end = domain_start;
    while let Some(next) = domain_label(src, last_dot_end, b'.' as u16) {
        last_dot_end = next;
    }
    if last_dot_end <= domain_start {
        return None;
    }
    let end = domain_label(src, last_dot_end, GT)?;
    Some((end, 1..end - 1))
}

/// `(?!-|[-\dA-Z]{64})[-\dA-Z]*[\dA-Z]` then `end` (case-insensitive) at `start`.
pub(super) fn domain_label(src: &[u16], start: usize, end: u16) -> Option<usize> {
    let label = |c: i32| is_ascii_alpha(c) || is_digit(c) || c == 45;
    if code_at(src, start) == 45 {
        return None;
    }
    let mut end_pos = start;
    while label(code_at(src, end_pos)) {
        end_pos += 1;
    }
    if end_pos - start >= 64 || end_pos == start {
        return None;
    }
    let last = code_at(src, end_pos - 1);
    (last != 45 && code_at(src, end_pos) == end as i32).then_some(end_pos + 1)
}
