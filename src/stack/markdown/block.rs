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

/// `/ {0,3}\t| {4}/y` at `o`.
pub(super) fn code_indent(s: &[u16], o: usize) -> Option<usize> {
    let sp = count_spaces(s, o);
    if sp >= 4 {
        return Some(o + 4);
    }
    (code_at(s, o + sp) == TAB as i32).then_some(o + sp + 1)
}

/// `/[\t\n ]*$|[\t\n ]*\n|/y` at `p`.
pub(super) fn blank_tail(s: &[u16], p: usize) -> usize {
    let mut r = p;
    let mut last_nl = None;
    while r < s.len() && matches!(s[r], LF | TAB | SPACE) {
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
pub(super) fn indented_code_len(e: &[u16]) -> Option<usize> {
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
pub(super) fn indented_code_text(e: &[u16]) -> Vec<u16> {
    let mut n = Vec::new();
    let mut o = 0;
    while o < e.len() {
        let h = any_line_end(e, o) + 1;
        let g = skip_indent(e, o);
        let y = if g - o == 3 {
            code_at(e, g) == SPACE as i32
        } else {
            g == o && code_at(e, g) == TAB as i32
        };
        n.extend_from_slice(js_slice(e, (if y { g + 1 } else { g }) as i64, h as i64));
        o = h;
    }
    trim_end_ch(&n, LF).to_vec()
}

/// `/ {0,3}(?:`{3,}(?![^\n`]*`)|~{3,})/y`: the end of an opening fence.
pub(super) fn fence_open(e: &[u16]) -> Option<usize> {
    let k = skip_indent(e, 0);
    let c = code_at(e, k);
    if c == BACKTICK as i32 {
        let r = run_of(e, k, BACKTICK);
        if r - k < 3 || e[r..line_end(e, r)].contains(&BACKTICK) {
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
pub(super) fn fence_close(e: &[u16], n: usize) -> Option<usize> {
    let fence = js::trim_start_units(&e[..n]).to_vec();
    let mut h = n;
    loop {
        // `/\n {0,3}(?=[`~])/g` from `h`
        let mut found = None;
        let mut i = h;
        while let Some(p) = index_of_unit(e, LF, i) {
            let sp = count_spaces(e, p + 1);
            let c = code_at(e, p + 1 + sp);
            if sp <= 3 && (c == BACKTICK as i32 || c == TILDE as i32) {
                found = Some((p, p + 1 + sp));
                break;
            }
            i = p + 1;
        }
        let (nl, pos) = found?;
        if starts_at(e, pos, &fence) {
            // `/[`~]* *(?![^\n])/y`
            let mut q = pos + fence.len();
            while q < e.len() && (e[q] == BACKTICK || e[q] == TILDE) {
                q += 1;
            }
            q = run_of(e, q, SPACE);
            if at_eol(e, q) {
                return Some(nl + 1);
            }
        }
        h = pos;
    }
}

/// The length of a fenced code block at the start of `e`.
pub(super) fn fenced_code_len(e: &[u16]) -> Option<usize> {
    let n = fence_open(e)?;
    Some(match fence_close(e, n) {
        None => e.len(),
        Some(o) => line_end(e, o),
    })
}

/// `/^ {0,3}#{1,6}(?!\S).*(?![^\n])\n*/`.
pub(super) fn atx_heading_len(e: &[u16]) -> Option<usize> {
    let k = skip_indent(e, 0);
    let r = run_of(e, k, HASH);
    if r == k || r - k > 6 {
        return None;
    }
    let c = code_at(e, r);
    if c != -1 && !is_js_space(c) {
        return None;
    }
    let t = any_line_end(e, r);
    if t < e.len() && e[t] != LF {
        return None;
    }
    Some(run_of(e, t, LF))
}

/// The text of an ATX heading.
pub(super) fn atx_heading_text(raw: &[u16]) -> Vec<u16> {
    let o = raw.iter().position(|&c| c == HASH).unwrap_or(0);
    let h = run_of(raw, o, HASH);
    let s = js::trim_units(slice_from(raw, h));
    // `.replace(/(?:^| )#+$/, "")`
    let mut r = s.len();
    while r > 0 && s[r - 1] == HASH {
        r -= 1;
    }
    let s = if r == s.len() {
        s
    } else if r == 0 {
        &s[..0]
    } else if s[r - 1] == SPACE {
        &s[..r - 1]
    } else {
        s
    };
    js::trim_units(s).to_vec()
}

/// The thematic break `-[\t ]*-[\t ]*-[-\t ]*` (or with `_`, `*`) followed by a line end, at
/// `k`; answers the end of the line.
pub(super) fn hr_body(s: &[u16], k: usize) -> Option<usize> {
    let c = code_at(s, k);
    if !(c == 45 || c == 95 || c == 42) {
        return None;
    }
    let mut count = 0;
    let mut j = k;
    while j < s.len() && (s[j] as i32 == c || s[j] == SPACE || s[j] == TAB) {
        if s[j] as i32 == c {
            count += 1;
        }
        j += 1;
    }
    (count >= 3 && at_eol(s, j)).then_some(j)
}

/// `/^ {0,3}HR\n*/` at `p`: the end of the line (the token's raw leaves the newlines out).
pub(super) fn hr_at(s: &[u16], p: usize) -> Option<usize> {
    hr_body(s, skip_indent(s, p))
}

/// `/^(?:[\t\n ]*$|[\t ]*\n(?:[\t\n ]*\n)?)/`.
pub(super) fn space_len(e: &[u16]) -> usize {
    let mut r = 0;
    let mut last_nl = None;
    while r < e.len() && matches!(e[r], LF | TAB | SPACE) {
        if e[r] == LF {
            last_nl = Some(r);
        }
        r += 1;
    }
    if r >= e.len() {
        return e.len();
    }
    let j = skip_tabs_spaces(e, 0);
    if code_at(e, j) != LF as i32 {
        return 0;
    }
    match last_nl {
        Some(q) if q > j => q + 1,
        _ => j + 1,
    }
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*])/` at `p`: the end of a list marker.
pub(super) fn marker_at(s: &[u16], p: usize) -> Option<usize> {
    let k = skip_indent(s, p);
    let c = code_at(s, k);
    if c == 45 || c == 43 || c == 42 {
        return Some(k + 1);
    }
    if !is_digit(c) {
        return None;
    }
    let mut d = k;
    while is_digit(code_at(s, d)) {
        d += 1;
    }
    (d - k <= 9 && matches!(code_at(s, d), 41 | 46)).then_some(d + 1)
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*])(?![^\t\n ])/y` at `p`.
pub(super) fn list_marker(s: &[u16], p: usize) -> Option<usize> {
    let m = marker_at(s, p)?;
    matches!(code_at(s, m), -1 | 9 | 10 | 32).then_some(m)
}

/// `/^ {0,3}(?:\d{1,9}[).]|[-+*])(?:[\t ][^\n]+)?(?![^\n])\n?/.test(e)`.
pub(super) fn list_starts(e: &[u16]) -> bool {
    let Some(m) = marker_at(e, 0) else {
        return false;
    };
    match code_at(e, m) {
        -1 | 10 => true,
        9 | 32 => !matches!(code_at(e, m + 1), -1 | 10),
        _ => false,
    }
}

/// `/ {0,3}(?:>|[-+*] |1[).] |#{1,6}(?!\S)|`{3,}[^\n`]*\n|~~~[^\n]*\n|HR)| *\n|HTML/y`: a
/// line that ends a paragraph.
pub(super) fn interrupts_paragraph(s: &[u16], p: usize) -> bool {
    let k = skip_indent(s, p);
    let c = code_at(s, k);
    let hit = match c {
        62 => true,
        45 | 43 | 42 if code_at(s, k + 1) == 32 => true,
        49 if matches!(code_at(s, k + 1), 41 | 46) && code_at(s, k + 2) == 32 => true,
        35 => {
            let r = run_of(s, k, HASH);
            let n = code_at(s, r);
            r - k <= 6 && (n == -1 || is_js_space(n))
        }
        96 => {
            let r = run_of(s, k, BACKTICK);
            let t = line_end(s, r);
            r - k >= 3 && t < s.len() && !s[r..t].contains(&BACKTICK)
        }
        126 => starts_at_str(s, k, "~~~") && line_end(s, k) < s.len(),
        _ => false,
    };
    if hit || hr_body(s, k).is_some() {
        return true;
    }
    let sp = count_spaces(s, p);
    if code_at(s, p + sp) == LF as i32 {
        return true;
    }
    html_interrupts_at(s, p)
}

/// The end of a paragraph at the start of `e` (0 for none).
pub(super) fn paragraph_len(e: &[u16]) -> usize {
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
pub(super) fn setext_underline(e: &[u16], n: usize) -> Option<usize> {
    let k = skip_indent(e, n);
    let c = code_at(e, k);
    if c != 45 && c != 61 {
        return None;
    }
    let r = run_of(e, k, c as u16);
    let q = run_of(e, r, SPACE);
    at_eol(e, q).then(|| run_of(e, q, LF))
}

/// `/(?![-+*] |\d{1,9}[).] | {0,3}(?:[\t#>]|```|~~~|<[^\n>]+>\n)| {4}).*\n/y` code_at `n`: a line
/// that can be part of a setext heading's text.
pub(super) fn setext_text_line(e: &[u16], n: usize) -> Option<usize> {
    let c = code_at(e, n);
    if matches!(c, 45 | 43 | 42) && code_at(e, n + 1) == 32 {
        return None;
    }
    if is_digit(c) {
        let mut d = n;
        while is_digit(code_at(e, d)) {
            d += 1;
        }
        if d - n <= 9 && matches!(code_at(e, d), 41 | 46) && code_at(e, d + 1) == 32 {
            return None;
        }
    }
    let sp = count_spaces(e, n);
    if sp >= 4 {
        return None;
    }
    let k = n + sp;
    match code_at(e, k) {
        9 | 35 | 62 => return None,
        96 if starts_at_str(e, k, "```") => return None,
        126 if starts_at_str(e, k, "~~~") => return None,
        60 => {
            let mut j = k + 1;
            while j < e.len() && e[j] != LF && e[j] != GT {
                j += 1;
            }
            if j > k + 1 && code_at(e, j) == GT as i32 && code_at(e, j + 1) == LF as i32 {
                return None;
            }
        }
        _ => {}
    }
    let t = any_line_end(e, n);
    (code_at(e, t) == LF as i32).then_some(t + 1)
}

/// `/[^\S\n]*\n/y` at `n`.
pub(super) fn blank_line_at(e: &[u16], n: usize) -> bool {
    let mut i = n;
    while i < e.len() && e[i] != LF && is_js_space(e[i] as i32) {
        i += 1;
    }
    code_at(e, i) == LF as i32
}

/// Where a setext underline could start (positive), or `!(how far the text lines go)`.
pub(super) fn setext_scan(e: &[u16]) -> i64 {
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
pub(super) fn setext_len(e: &[u16]) -> Option<usize> {
    let n = setext_scan(e);
    if n < 0 {
        return None;
    }
    setext_underline(e, n as usize)
}

/// Strips `/ {0,3}>[\t ]?/` from the start of every line.
pub(super) fn strip_quote_markers(e: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(e.len());
    let mut o = 0;
    while o < e.len() {
        let mut h = o;
        let k = skip_indent(e, o);
        if code_at(e, k) == GT as i32 {
            h = k + 1;
            if matches!(code_at(e, h), 9 | 32) {
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
pub(super) fn quote_marker_at(s: &[u16], p: usize) -> bool {
    p <= s.len() && code_at(s, skip_indent(s, p)) == GT as i32
}

/// `/[\t ]*(?![^\n])| {0,3}(?:\d{1,9}[).]|[-+*])(?:[\t ][^\n]|\n)/y` at `p`.
pub(super) fn blank_or_marker_line(s: &[u16], p: usize) -> bool {
    if at_eol(s, skip_tabs_spaces(s, p)) {
        return true;
    }
    let Some(m) = marker_at(s, p) else {
        return false;
    };
    match code_at(s, m) {
        10 => true,
        9 | 32 => !matches!(code_at(s, m + 1), -1 | 10),
        _ => false,
    }
}

/// `/ {0,3}(?:\d{1,9}[).]|[-+*]|`{3,}[^\n`]*|~~~[^\n]*)$/y` at `p` (`$` being the end of `s`).
pub(super) fn last_line_opens_block(s: &[u16], p: usize) -> bool {
    if let Some(m) = marker_at(s, p)
        && m == s.len()
    {
        return true;
    }
    let k = skip_indent(s, p);
    if starts_at_str(s, k, "```") {
        let r = run_of(s, k, BACKTICK);
        return !s[r..].iter().any(|&c| c == BACKTICK || c == LF);
    }
    starts_at_str(s, k, "~~~") && !s[k..].contains(&LF)
}

/// `#|```|~~~|(?:- *- *-[- ]*|_ *_ *_[_ ]*|[*] *[*] *[*][* ]*)$` code_at `w` of a line.
pub(super) fn opens_block_line(y: &[u16], w: usize) -> bool {
    let c = code_at(y, w);
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
        } else if u != SPACE {
            return false;
        }
    }
    count >= 3
}

/// The first non-space index (tabs count as non-space), or the length.
pub(super) fn first_non_space(y: &[u16]) -> usize {
    y.iter().position(|&c| c != SPACE).unwrap_or(y.len())
}

/// `/^[\t ]*$/`.
pub(super) fn only_tabs_spaces(y: &[u16]) -> bool {
    y.iter().all(|&c| c == SPACE || c == TAB)
}

/// A line that ends a list item when it starts within `D` columns: the case-insensitive
/// `#|```|~~~|HR$|<!--|<[A-Z].*>|(?:\d{1,9}[).]|[-+*])(?![^\t ])` code_at `w`.
pub(super) fn ends_list_item(y: &[u16], w: usize) -> bool {
    if opens_block_line(y, w) || starts_at_str(y, w, "<!--") {
        return true;
    }
    if code_at(y, w) == LT as i32 && is_ascii_alpha(code_at(y, w + 1)) {
        let t = any_line_end(y, w + 2);
        if y[(w + 2).min(t)..t].contains(&GT) {
            return true;
        }
    }
    // `w` is at the line's first non-space, so `marker_at` finds no indentation to skip.
    matches!(marker_at(y, w), Some(m) if matches!(code_at(y, m), -1 | 9 | 32))
}

/// `/^(?: {0,3}\t| {4})[\t ]*[^\t ]/`.
pub(super) fn indented_code_line(y: &[u16]) -> bool {
    match code_indent(y, 0) {
        Some(p) => skip_tabs_spaces(y, p) < y.len(),
        None => false,
    }
}

/// Whether a line under-indented for the item may still continue its paragraph lazily.
pub(super) fn lazy_allowed(previous: &[u16], limit: usize) -> bool {
    let o = first_non_space(previous);
    !indented_code_line(previous) && (o > limit || !opens_block_line(previous, o))
}

pub(super) fn expand_tabs(y: &[u16]) -> Vec<u16> {
    let mut x = Vec::with_capacity(y.len());
    for &c in y {
        if c == TAB {
            x.extend_from_slice(&[SPACE; 4]);
        } else {
            x.push(c);
        }
    }
    x
}

/// `/\n[\t ]*$/`.
pub(super) fn ends_in_blank_line(raw: &[u16]) -> bool {
    let t = raw.iter().rposition(|&c| c != SPACE && c != TAB);
    matches!(t, Some(i) if raw[i] == LF)
}

/// `s.replace(/\n[\t ]+/g, "\n")`.
pub(super) fn dedent_continuations(s: &[u16]) -> Vec<u16> {
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
pub(super) fn strip_leading_blank(s: &[u16]) -> &[u16] {
    let n = s
        .iter()
        .take_while(|&&c| matches!(c, LF | TAB | SPACE))
        .count();
    &s[n..]
}
