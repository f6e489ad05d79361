//! Emphasis and strong emphasis: the mask the delimiters are matched on (links, code spans,
//! HTML and escapes blanked out), whether a run of `*` or `_` can open, and where it closes.

use std::collections::HashSet;
use std::rc::Rc;

use super::inline::InlineState;
use super::lexer::Lexer;
use super::links::reference;
use super::token::Kind;
use super::unicode::{CharClass, char_class, is_letter_or_number_unit, is_punct, is_space_class};
use super::utf16::{
    BACKSLASH, BACKTICK, BANG, CLOSE_BRACKET, CLOSE_PAREN, GT, LT, OPEN_BRACKET, OPEN_PAREN, STAR,
    UNDERSCORE, code_at, code_point_at, index_of_unit, is_line_term, js_slice, last_index_of_unit,
    run_of, slice_from,
};

impl Lexer {
    /// Emphasis or strong emphasis opening the rest, with its inner tokens.
    pub(super) fn em_strong(&mut self, text: &Rc<[u16]>, state: &InlineState) -> Option<usize> {
        let rest = &text[state.pos..];
        let mask = state.mask.as_deref()?;
        let mark = code_at(rest, 0);
        if mark != STAR as i32 && mark != UNDERSCORE as i32 {
            return None;
        }
        if rest.len() <= self.notes.after_marks {
            self.notes.after_marks = rest.len() - run_of(rest, 1, mark as u16);
        }
        let open_len = rest.len().checked_sub(self.notes.after_marks)?;
        if open_len == rest.len() || is_space_class(code_at(rest, open_len)) {
            return None;
        }
        if !can_open(rest, open_len, state.before) {
            return None;
        }
        let mask_pos = (mask.len() as i64 - rest.len() as i64 + open_len as i64).max(0) as usize;
        let (start, size) = self.find_closer(mask, mask_pos, mark as u16, open_len)?;
        let raw_len = open_len as i64 + start as i64 + size;
        let mark_width = 2 - ((open_len as i64).min(size) & 1);
        if raw_len <= 0 {
            return None;
        }
        let raw = js_slice(rest, 0, raw_len);
        let inner: Vec<u16> = js_slice(raw, mark_width, -mark_width).to_vec();
        let kind = if mark_width == 1 {
            Kind::Em
        } else {
            Kind::Strong
        };
        let token = self.inline_token(kind, raw.len());
        self.inline_tokens(Rc::from(inner), token);
        Some(token)
    }

    /// Searches the mask from `from` (just after an opening run of `left_len` `ch`) for the closing
    /// run; answers its start (relative to `from`) and how many of its marks close.
    ///
    /// marked's `emStrong` loop, whose names are kept: `left_len` is its `lLength`, `right_len`
    /// its `rLength`, `delim_total` and `mid_delim_total` its `delimTotal` and
    /// `midDelimTotal`. What a failed search saw (`last_closer`, `closer_marks`) is remembered,
    /// as Claude Code's rewrite does, so that later openers need not search again.
    pub(super) fn find_closer(
        &mut self,
        mask: &[u16],
        from: usize,
        ch: u16,
        left_len: usize,
    ) -> Option<(usize, i64)> {
        let star = ch == STAR;
        let slot = usize::from(!star);
        let cached = self.notes.closers[slot];
        if let Some((last, _)) = cached
            && ((mask.len() - from.min(mask.len())) as i64) < last as i64
            && code_at(mask, from + 1) != ch as i32
        {
            return None;
        }
        let mut delim_total = left_len as i64;
        let mut mid_delim_total: i64 = 0;
        let search_from = skip_orphans(mask, from, star);
        let mut last_closer: i64 = search_from as i64 - 1;
        let mut closer_marks: usize = 1;
        let mut next_run = index_of_unit(mask, ch, search_from);
        while let Some(run_start) = next_run {
            let run_end = run_of(mask, run_start + 1, ch);
            if run_start == from {
                next_run = index_of_unit(mask, ch, run_end);
                continue;
            }
            if let Some((last, _)) = cached
                && run_start > from + 1
                && ((mask.len() - run_start) as i64) < last as i64
            {
                return None;
            }
            let mut before = code_at(mask, run_start - 1);
            if (0xDC00..=0xDFFF).contains(&before) && run_start >= from + 2 {
                let pair = code_point_at(mask, run_start - 2);
                if pair > 0xFFFF {
                    before = pair;
                }
            }
            let after = code_point_at(mask, run_end);
            let before_class = char_class(before);
            let after_class = char_class(after);
            let both = if before_class == after_class {
                before_class == CharClass::Punctuation || (star && before_class == CharClass::Other)
            } else {
                false
            };
            let right_len = (run_end - run_start) as i64;
            if before_class < after_class && !both {
                delim_total += right_len;
                if let Some((_, marks)) = cached
                    && delim_total > marks as i64
                {
                    return None;
                }
            } else if before_class > after_class || both {
                last_closer = run_start as i64;
                closer_marks += run_end - run_start;
                if both && !left_len.is_multiple_of(3) && (left_len as i64 + right_len) % 3 == 0 {
                    mid_delim_total += right_len;
                } else {
                    delim_total -= right_len;
                    if delim_total <= 0 {
                        return Some((
                            run_start - from,
                            right_len + (delim_total + mid_delim_total).min(0),
                        ));
                    }
                }
            }
            next_run = index_of_unit(mask, ch, run_end);
        }
        self.notes.closers[slot] = Some((
            (mask.len() as i64 - last_closer).max(0) as usize,
            closer_marks,
        ));
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

/// Whether a run of `open_len` emphasis marks at the start of `rest` can open, given the character
/// before it.
pub(super) fn can_open(rest: &[u16], open_len: usize, before: Option<u16>) -> bool {
    let Some(prev) = before else { return true };
    let next = code_point_at(rest, open_len);
    if char_class(next) == CharClass::Other {
        return rest[0] == STAR || !is_letter_or_number_unit(prev);
    }
    prev != STAR && prev != UNDERSCORE && char_class(prev as i32) != CharClass::Other
}

/// Skips an orphan `*` inside `__strong__` (or `_` inside `**strong**`), as marked does.
pub(super) fn skip_orphans(mask: &[u16], from: usize, star: bool) -> usize {
    let (outer, inner) = if star {
        (UNDERSCORE, STAR)
    } else {
        (STAR, UNDERSCORE)
    };
    let plain = |c: u16| c != STAR && c != UNDERSCORE;
    let mut i = from;
    while i < mask.len() && plain(mask[i]) {
        i += 1;
    }
    if !(code_at(mask, i) == outer as i32 && code_at(mask, i + 1) == outer as i32) {
        return from;
    }
    i += 2;
    while i < mask.len() && plain(mask[i]) {
        i += 1;
    }
    if code_at(mask, i) != inner as i32 {
        return from;
    }
    i += 1;
    while i < mask.len() && plain(mask[i]) {
        i += 1;
    }
    if code_at(mask, i) == outer as i32 && code_at(mask, i + 1) == outer as i32 {
        return i.max(from);
    }
    from
}

pub(super) fn blank_mask(len: usize) -> Vec<u16> {
    let mut mask = vec![OPEN_BRACKET];
    mask.resize(len.saturating_sub(1).max(1), b'a' as u16);
    mask.push(CLOSE_BRACKET);
    mask
}

/// Blanks out reference links whose (raw) label is defined.
pub(super) fn mask_references(text: &[u16], links: &HashSet<Vec<u16>>) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::new();
    let mut copied = 0usize;
    let mut next_open = index_of_unit(text, OPEN_BRACKET, 0);
    while let Some(open_pos) = next_open {
        let found = reference(text, open_pos);
        let mut end: i64 = found.as_ref().map_or(-1, |found| found.end as i64);
        if let Some(found) = &found
            && found.short
            && code_at(text, found.end) == OPEN_PAREN as i32
        {
            let found_end = found.end;
            end = if found_end >= 2
                && text[found_end - 2] == OPEN_BRACKET
                && found_end - open_pos == found.label.len() + 4
            {
                found_end as i64 - 2
            } else {
                -1
            };
        }
        if end == -1 {
            next_open = index_of_unit(text, OPEN_BRACKET, open_pos + 1);
            continue;
        }
        let end = end as usize;
        let open = last_index_of_unit(text, OPEN_BRACKET, end as i64 - 1) + 1;
        let key = js_slice(text, open, end as i64 - 1);
        if links.contains(key) {
            let start = if open_pos > copied && text[open_pos - 1] == BANG {
                open_pos - 1
            } else {
                open_pos
            };
            out.extend_from_slice(js_slice(text, copied as i64, start as i64));
            out.extend(blank_mask(end - start));
            copied = end;
        }
        next_open = index_of_unit(text, OPEN_BRACKET, end);
    }
    if copied == 0 {
        return text.to_vec();
    }
    out.extend_from_slice(slice_from(text, copied));
    out
}

/// Blanks out `[…](…)`, `<…>` and `` `…` `` (the `/\[[^[\]]*]\(|<[^<>]*>|`[^`]*`/g` scan).
pub(super) fn mask_spans(text: &[u16]) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::new();
    let mut copied = 0usize;
    let mut last_index = 0usize;
    let mut pos = last_index;
    while pos < text.len() {
        let matched = match text[pos] {
            OPEN_BRACKET => {
                let mut close = pos + 1;
                while close < text.len()
                    && text[close] != OPEN_BRACKET
                    && text[close] != CLOSE_BRACKET
                {
                    close += 1;
                }
                (code_at(text, close) == CLOSE_BRACKET as i32
                    && code_at(text, close + 1) == OPEN_PAREN as i32)
                    .then_some(close + 2)
            }
            LT => {
                let mut close = pos + 1;
                while close < text.len() && text[close] != LT && text[close] != GT {
                    close += 1;
                }
                (code_at(text, close) == GT as i32).then_some(close + 1)
            }
            BACKTICK => index_of_unit(text, BACKTICK, pos + 1).map(|close| close + 1),
            _ => None,
        };
        let Some(match_end) = matched else {
            pos += 1;
            continue;
        };
        let span_end: i64 = if text[pos] == OPEN_BRACKET {
            paren_group_end(text, match_end)
        } else {
            match_end as i64
        };
        if span_end != -1 {
            out.extend_from_slice(js_slice(text, copied as i64, pos as i64));
            out.extend(blank_mask(span_end as usize - pos));
            copied = span_end as usize;
        }
        last_index = (span_end.max(pos as i64 + 1)) as usize;
        pos = last_index;
    }
    out.extend_from_slice(slice_from(text, copied));
    out
}

/// The end of `(…)` (at most one nested pair) whose `(` ends just before `from`, or -1.
pub(super) fn paren_group_end(text: &[u16], from: usize) -> i64 {
    let mut depth = 1;
    let mut pos = from;
    while pos < text.len() {
        let unit = text[pos];
        if unit == BACKSLASH {
            pos += 1;
            if pos == text.len() || is_line_term(text[pos] as i32) {
                return -1;
            }
        } else if unit == OPEN_PAREN {
            depth += 1;
            if depth > 2 {
                return -1;
            }
        } else if unit == CLOSE_PAREN {
            depth -= 1;
            if depth == 0 {
                return pos as i64 + 1;
            }
        }
        pos += 1;
    }
    -1
}

/// Blanks out backslash escapes of punctuation.
pub(super) fn mask_escapes(text: &[u16]) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::with_capacity(text.len());
    let mut copied = 0usize;
    let mut next_backslash = index_of_unit(text, BACKSLASH, 0);
    while let Some(backslash) = next_backslash {
        let escaped = code_point_at(text, backslash + 1);
        if is_punct(escaped) {
            let astral = escaped > 0xFFFF;
            out.extend_from_slice(&text[copied..backslash]);
            out.extend(std::iter::repeat_n(b'+' as u16, if astral { 3 } else { 2 }));
            copied = backslash + if astral { 3 } else { 2 };
        }
        next_backslash = index_of_unit(text, BACKSLASH, copied.max(backslash + 1));
    }
    out.extend_from_slice(slice_from(text, copied));
    out
}
