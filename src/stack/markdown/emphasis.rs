//! Emphasis and strong emphasis: the mask the delimiters are matched on (links, code spans,
//! HTML and escapes blanked out), whether a run of `*` or `_` can open, and where it closes.

use std::collections::HashSet;
use std::rc::Rc;

use super::inline::InlineState;
use super::lexer::Lexer;
use super::links::reference;
use super::token::Kind;
use super::unicode::{char_class, is_letter_or_number_unit, is_punct, is_space_class};
use super::utf16::{
    BACKSLASH, BACKTICK, BANG, CLOSE_BRACKET, CLOSE_PAREN, GT, LT, OPEN_BRACKET, OPEN_PAREN, STAR,
    UNDERSCORE, code_at, code_point_at, index_of_unit, is_line_term, js_slice, last_index_of_unit,
    run_of, slice_from,
};

impl Lexer {
    /// Emphasis or strong emphasis opening the rest, with its inner tokens.
    pub(super) fn em_strong(&mut self, text: &Rc<[u16]>, st: &InlineState) -> Option<usize> {
        let n = &text[st.pos..];
        let mask = st.mask.as_deref()?;
        let y = code_at(n, 0);
        if y != STAR as i32 && y != UNDERSCORE as i32 {
            return None;
        }
        if n.len() <= self.notes.after_marks {
            self.notes.after_marks = n.len() - run_of(n, 1, y as u16);
        }
        let c = n.len().checked_sub(self.notes.after_marks)?;
        if c == n.len() || is_space_class(code_at(n, c)) {
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
        let t = self.inline_token(kind, raw.len());
        self.inline_tokens(Rc::from(inner), t);
        Some(t)
    }

    /// Searches the mask from `n` (just after an opening run of `c_len` `ch`) for the closing
    /// run; answers its start (relative to `n`) and how many of its marks close.
    pub(super) fn find_closer(
        &mut self,
        e: &[u16],
        n: usize,
        ch: u16,
        c_len: usize,
    ) -> Option<(usize, i64)> {
        let star = ch == STAR;
        let slot = usize::from(!star);
        let cached = self.notes.closers[slot];
        if let Some((last, _)) = cached
            && ((e.len() - n.min(e.len())) as i64) < last as i64
            && code_at(e, n + 1) != ch as i32
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
            let mut ie = code_at(e, t - 1);
            if (0xDC00..=0xDFFF).contains(&ie) && t >= n + 2 {
                let se = code_point_at(e, t - 2);
                if se > 0xFFFF {
                    ie = se;
                }
            }
            let after = code_point_at(e, q);
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
    pub(super) fn emphasis_mask(&self, text: &[u16]) -> Vec<u16> {
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
pub(super) fn can_open(n: &[u16], c: usize, before: Option<u16>) -> bool {
    let Some(b) = before else { return true };
    let next = code_point_at(n, c);
    let next_class = if next == -1 { 0 } else { char_class(next) };
    if next_class == 2 {
        return n[0] == STAR || !is_letter_or_number_unit(b);
    }
    b != STAR && b != UNDERSCORE && char_class(b as i32) != 2
}

/// Skips an orphan `*` inside `__strong__` (or `_` inside `**strong**`), as marked does.
pub(super) fn skip_orphans(e: &[u16], n: usize, star: bool) -> usize {
    let (outer, inner) = if star {
        (UNDERSCORE, STAR)
    } else {
        (STAR, UNDERSCORE)
    };
    let plain = |c: u16| c != STAR && c != UNDERSCORE;
    let mut i = n;
    while i < e.len() && plain(e[i]) {
        i += 1;
    }
    if !(code_at(e, i) == outer as i32 && code_at(e, i + 1) == outer as i32) {
        return n;
    }
    i += 2;
    while i < e.len() && plain(e[i]) {
        i += 1;
    }
    if code_at(e, i) != inner as i32 {
        return n;
    }
    i += 1;
    while i < e.len() && plain(e[i]) {
        i += 1;
    }
    if code_at(e, i) == outer as i32 && code_at(e, i + 1) == outer as i32 {
        return i.max(n);
    }
    n
}

pub(super) fn blank_mask(len: usize) -> Vec<u16> {
    let mut v = vec![OPEN_BRACKET];
    v.resize(len.saturating_sub(1).max(1), b'a' as u16);
    v.push(CLOSE_BRACKET);
    v
}

/// Blanks out reference links whose (raw) label is defined.
pub(super) fn mask_references(e: &[u16], links: &HashSet<Vec<u16>>) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::new();
    let mut h = 0usize;
    let mut g = index_of_unit(e, OPEN_BRACKET, 0);
    while let Some(gi) = g {
        let r = reference(e, gi);
        let mut k: i64 = r.as_ref().map_or(-1, |r| r.end as i64);
        if let Some(r) = &r
            && r.short
            && code_at(e, r.end) == OPEN_PAREN as i32
        {
            let ku = r.end;
            k = if ku >= 2 && e[ku - 2] == OPEN_BRACKET && ku - gi == r.label.len() + 4 {
                ku as i64 - 2
            } else {
                -1
            };
        }
        if k == -1 {
            g = index_of_unit(e, OPEN_BRACKET, gi + 1);
            continue;
        }
        let k = k as usize;
        let open = last_index_of_unit(e, OPEN_BRACKET, k as i64 - 1) + 1;
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
        g = index_of_unit(e, OPEN_BRACKET, k);
    }
    if h == 0 {
        return e.to_vec();
    }
    out.extend_from_slice(slice_from(e, h));
    out
}

/// Blanks out `[…](…)`, `<…>` and `` `…` `` (the `/\[[^[\]]*]\(|<[^<>]*>|`[^`]*`/g` scan).
pub(super) fn mask_spans(e: &[u16]) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::new();
    let mut o = 0usize;
    let mut last_index = 0usize;
    let mut p = last_index;
    while p < e.len() {
        let matched = match e[p] {
            OPEN_BRACKET => {
                let mut q = p + 1;
                while q < e.len() && e[q] != OPEN_BRACKET && e[q] != CLOSE_BRACKET {
                    q += 1;
                }
                (code_at(e, q) == CLOSE_BRACKET as i32 && code_at(e, q + 1) == OPEN_PAREN as i32)
                    .then_some(q + 2)
            }
            LT => {
                let mut q = p + 1;
                while q < e.len() && e[q] != LT && e[q] != GT {
                    q += 1;
                }
                (code_at(e, q) == GT as i32).then_some(q + 1)
            }
            BACKTICK => index_of_unit(e, BACKTICK, p + 1).map(|q| q + 1),
            _ => None,
        };
        let Some(m_end) = matched else {
            p += 1;
            continue;
        };
        let y: i64 = if e[p] == OPEN_BRACKET {
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
    out.extend_from_slice(slice_from(e, o));
    out
}

/// The end of `(…)` (at most one nested pair) whose `(` ends just before `n`, or -1.
pub(super) fn paren_group_end(e: &[u16], n: usize) -> i64 {
    let mut depth = 1;
    let mut h = n;
    while h < e.len() {
        let g = e[h];
        if g == BACKSLASH {
            h += 1;
            if h == e.len() || is_line_term(e[h] as i32) {
                return -1;
            }
        } else if g == OPEN_PAREN {
            depth += 1;
            if depth > 2 {
                return -1;
            }
        } else if g == CLOSE_PAREN {
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
pub(super) fn mask_escapes(e: &[u16]) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::with_capacity(e.len());
    let mut o = 0usize;
    let mut h = index_of_unit(e, BACKSLASH, 0);
    while let Some(hh) = h {
        let g = code_point_at(e, hh + 1);
        if is_punct(g) {
            let astral = g > 0xFFFF;
            out.extend_from_slice(&e[o..hh]);
            out.extend(std::iter::repeat_n(b'+' as u16, if astral { 3 } else { 2 }));
            o = hh + if astral { 3 } else { 2 };
        }
        h = index_of_unit(e, BACKSLASH, o.max(hh + 1));
    }
    out.extend_from_slice(slice_from(e, o));
    out
}
