//! Link syntax: link reference definitions (`[label]: destination "title"`), the labels of
//! reference links, inline link destinations and titles, and autolinks.

use super::utf16::{
    AT, BACKSLASH, BACKTICK, CLOSE_BRACKET, CLOSE_PAREN, GT, LF, LT, OPEN_BRACKET, OPEN_PAREN,
    SPACE, any_line_end, ascii_code, at_eol, code_at, contains, index_of_unit, is_ascii_alpha,
    is_digit, is_js_space, is_line_term, is_word, js_lower, last_index_of_unit, run_of,
    skip_indent, skip_tabs_spaces, skip_ws, starts_at,
};

/// `/(?:[^[\\\]]+|\\.)*/` from `n`, then `]` with some non-space in between: the `]` index.
pub(super) fn label_end(e: &[u16], n: usize) -> Option<usize> {
    let mut o = n;
    loop {
        let c = code_at(e, o);
        if c == -1 || c == OPEN_BRACKET as i32 || c == CLOSE_BRACKET as i32 {
            break;
        }
        if c == BACKSLASH as i32 {
            let d = code_at(e, o + 1);
            if d == -1 || is_line_term(d) {
                break;
            }
            o += 2;
        } else {
            o += 1;
        }
    }
    (code_at(e, o) == CLOSE_BRACKET as i32 && skip_ws(e, n) < o).then_some(o)
}

/// Spaces, then at most one newline and the next line's indentation.
pub(super) fn def_gap(e: &[u16], n: usize) -> usize {
    let o = run_of(e, n, SPACE);
    if code_at(e, o) == LF as i32 {
        skip_tabs_spaces(e, o + 1)
    } else {
        o
    }
}

/// Spaces to the end of the line, then the newlines: the end, or -1.
pub(super) fn def_line_end(e: &[u16], n: usize) -> i64 {
    let o = run_of(e, n, SPACE);
    if at_eol(e, o) {
        run_of(e, o, LF) as i64
    } else {
        -1
    }
}

/// The last `close` after `n` (the first unescaped one, stepping back while `ok` fails).
pub(super) fn closing_quote(
    e: &[u16],
    n: usize,
    close: u16,
    ok: impl Fn(&[u16], usize) -> i64,
) -> i64 {
    let mut g = index_of_unit(e, close, n + 1);
    let mut y: i64 = -1;
    while let Some(p) = g {
        y = p as i64;
        if p == n + 1 || e[p - 1] != BACKSLASH {
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
pub(super) fn def_tail(e: &[u16], h: usize) -> Option<usize> {
    let g = def_gap(e, h);
    let mut y: i64 = -1;
    if g > h {
        match code_at(e, g) {
            34 => y = closing_quote(e, g, b'"' as u16, def_line_end),
            39 => {
                y = index_of_unit(e, b'\'' as u16, g + 1).map_or(-1, |p| p as i64);
                if y > g as i64 && contains(&e[g..y as usize], &[LF, LF]) {
                    y = -1;
                }
            }
            40 => {
                let p = (g + 1..e.len())
                    .find(|&i| e[i] == OPEN_PAREN || e[i] == CLOSE_PAREN)
                    .unwrap_or(e.len());
                y = if code_at(e, p) == CLOSE_PAREN as i32 {
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
pub(super) fn link_definition(e: &[u16]) -> Option<(usize, Vec<u16>)> {
    let n = skip_indent(e, 0);
    if code_at(e, n) != OPEN_BRACKET as i32 {
        return None;
    }
    let o = label_end(e, n + 1)?;
    if o <= n + 1 || code_at(e, o + 1) != ascii_code(b':') {
        return None;
    }
    let label = e[n + 1..o].to_vec();
    let g = def_gap(e, o + 2);
    if code_at(e, g) != LT as i32 {
        let k = (g..e.len())
            .find(|&i| is_js_space(e[i] as i32))
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

/// `[…]` / `[…][…]` at `n`, the `]` closing a link text (one level of nested brackets,
/// code spans and escapes skipped).
pub(super) fn label_close(e: &[u16], n: usize) -> Option<usize> {
    let mut nested = false;
    let special = |c: u16| matches!(c, OPEN_BRACKET | CLOSE_BRACKET | BACKSLASH | BACKTICK);
    let mut h = (n..e.len()).find(|&i| special(e[i])).unwrap_or(e.len());
    while h < e.len() {
        match e[h] {
            BACKSLASH => {
                h += 1;
                if h == e.len() || is_line_term(e[h] as i32) {
                    return None;
                }
            }
            BACKTICK => {
                if !nested {
                    h = index_of_unit(e, BACKTICK, h + 1)?;
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
                    return Some(h);
                }
                nested = false;
            }
        }
        h = (h + 1..e.len()).find(|&i| special(e[i])).unwrap_or(e.len());
    }
    None
}

pub(super) struct Reference {
    pub(super) end: usize,
    pub(super) text: std::ops::Range<usize>,
    pub(super) label: std::ops::Range<usize>,
    pub(super) short: bool,
}

/// A reference link `[text][label]`, `[label][]` or `[label]` opening at `n`.
pub(super) fn reference(e: &[u16], n: usize) -> Option<Reference> {
    if let Some(o) = label_close(e, n + 1) {
        let k = o + 1;
        if code_at(e, k) == OPEN_BRACKET as i32
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
    let end = if starts_at(e, h + 1, &[OPEN_BRACKET, CLOSE_BRACKET]) {
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
pub(super) fn link_tail(e: &[u16], n: i64, o: i64) -> Option<(usize, i64, i64)> {
    if o < 0 {
        return None;
    }
    let o_u = o as usize;
    let h = skip_ws(e, o_u);
    let g = code_at(e, h);
    if g == CLOSE_PAREN as i32 {
        return Some((h + 1, n, o));
    }
    if h == o_u || g == -1 || !matches!(g, 0x22 | 0x27 | 0x28) {
        return None;
    }
    let close = if g == OPEN_PAREN as i32 {
        CLOSE_PAREN
    } else {
        g as u16
    };
    let k = closing_quote(e, h, close, paren_after);
    if k == -1 {
        return None;
    }
    let end = paren_after(e, (k + 1) as usize);
    (end >= 0).then_some((end as usize, n, o))
}

/// `\s*)` at `n`: past the `)`, or -1.
pub(super) fn paren_after(e: &[u16], n: usize) -> i64 {
    let o = skip_ws(e, n);
    if code_at(e, o) == CLOSE_PAREN as i32 {
        o as i64 + 1
    } else {
        -1
    }
}

/// The index of the first `)` in a destination not matched by a `(` (escapes skipped).
pub(super) fn unbalanced_paren(e: &[u16]) -> i64 {
    let mut depth: i64 = 0;
    let find = |from: usize| {
        (from..e.len())
            .find(|&i| matches!(e[i], OPEN_PAREN | CLOSE_PAREN | BACKSLASH))
            .unwrap_or(e.len())
    };
    let mut o = find(0);
    while o < e.len() {
        let h = e[o];
        if h == CLOSE_PAREN && depth == 0 {
            return o as i64;
        }
        let esc = h == BACKSLASH;
        if !esc {
            depth += if h == OPEN_PAREN { 1 } else { -1 };
        }
        o = find(o + if esc { 2 } else { 1 });
    }
    -1
}

/// An autolink `<scheme:…>` or `<local@domain>` at the start of `e`: its length and the
/// inner range.
pub(super) fn autolink(e: &[u16]) -> Option<(usize, std::ops::Range<usize>)> {
    if code_at(e, 0) != LT as i32 {
        return None;
    }
    // `/<[A-Z][-+.\dA-Z]{1,31}:[!-;=?-\uffff]*>/iy`, with no whitespace inside
    if is_ascii_alpha(code_at(e, 1)) {
        let mut i = 2;
        while is_ascii_alpha(code_at(e, i))
            || is_digit(code_at(e, i))
            || matches!(code_at(e, i), 43 | 45 | 46)
        {
            i += 1;
        }
        if (3..=33).contains(&i) && code_at(e, i) == ascii_code(b':') {
            let mut j = i + 1;
            while j < e.len() && e[j] >= 0x21 && e[j] != LT && e[j] != GT {
                j += 1;
            }
            if code_at(e, j) == GT as i32 && !e[..=j].iter().any(|&c| is_js_space(c as i32)) {
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
    if i == 1 || code_at(e, i) != AT as i32 {
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
pub(super) fn domain_label(e: &[u16], p: usize, end: u16) -> Option<usize> {
    let label = |c: i32| is_ascii_alpha(c) || is_digit(c) || c == 45;
    if code_at(e, p) == 45 {
        return None;
    }
    let mut r = p;
    while label(code_at(e, r)) {
        r += 1;
    }
    if r - p >= 64 || r == p {
        return None;
    }
    let last = code_at(e, r - 1);
    (last != 45 && code_at(e, r) == end as i32).then_some(r + 1)
}
