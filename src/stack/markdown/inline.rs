//! Inline lexing: the rules tried at each position of a paragraph's or heading's text (escapes,
//! line breaks, inline HTML, autolinks, links, reference links, code spans, plain text), as
//! Claude Code's `Lexer.inlineTokens` runs them.

use std::rc::Rc;

use crate::js;

use super::html::{attributes, tag_name};
use super::lexer::{Lexer, MAX_DEPTH};
use super::links::{
    autolink, label_close, link_tail, normalize_label, reference, unbalanced_paren,
};
use super::lookahead::{Absent, Notes};
use super::token::Kind;
use super::utf16::{
    BACKSLASH, BACKTICK, BANG, CLOSE_BRACKET, CLOSE_PAREN, GT, LF, LT, OPEN_BRACKET, OPEN_PAREN,
    SPACE, UNDERSCORE, code_at, count_spaces, index_of_unit, is_ascii_alpha, is_digit, is_js_space,
    is_line_term, is_word, js_slice, last_index_of_unit, replace_all, run_of, skip_ws,
    starts_at_str,
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum InlineMethod {
    Escape,
    Br,
    Tag,
    Autolink,
    Link,
    Reflink,
    EmStrong,
    Codespan,
    Text,
}

/// The inline rules tried, in order, for a first character.
pub(super) fn inline_methods(c: u16) -> &'static [InlineMethod] {
    use InlineMethod::*;
    match c {
        0x5C => &[Escape, Br, Text],
        0x20 => &[Br, Text],
        0x3C => &[Tag, Autolink, Text],
        0x21 | 0x5B => &[Link, Reflink, Text],
        0x2A | 0x5F => &[EmStrong, Text],
        0x60 => &[Codespan, Text],
        _ => &[Text],
    }
}

/// What an inline rule produced: plain text (`len` units of the rest) or a finished token.
pub(super) enum Piece {
    Text(usize),
    Token(usize),
}

pub(super) struct InlineState {
    pub(super) pos: usize,
    pub(super) tried: usize,
    pub(super) before: Option<u16>,
    pub(super) last: Option<usize>,
    pub(super) mask: Option<Vec<u16>>,
}

impl Lexer {
    pub(super) fn inline_tokens(&mut self, text: Rc<[u16]>, owner: usize) {
        if self.depth >= MAX_DEPTH {
            // Too deep to lex further: keep the text as one text token.
            if !text.is_empty() {
                let t = self.text_token(&text, 0, text.len());
                self.push_child(owner, t);
            }
            return;
        }
        self.depth += 1;
        let saved = std::mem::replace(&mut self.notes, Notes::new());
        let mut st = InlineState {
            pos: 0,
            tried: 0,
            before: None,
            last: self.last_child(owner),
            mask: None,
        };
        let mut produced = None;
        while self.inline_step(&text, owner, &mut st, produced) {
            produced = self.em_strong(&text, &st);
        }
        self.notes = saved;
        self.depth -= 1;
    }

    /// Files what was produced and lexes on until emphasis is to be tried; false when done.
    pub(super) fn inline_step(
        &mut self,
        src: &Rc<[u16]>,
        owner: usize,
        st: &mut InlineState,
        produced: Option<usize>,
    ) -> bool {
        let text: &[u16] = src;
        let mut pos = st.pos;
        let mut k = st.tried;
        let mut before = st.before;
        let mut last = st.last;
        let mut d = produced.map(Piece::Token);
        let mut method: Option<InlineMethod> = None;
        loop {
            if let Some(piece) = d.take() {
                let by_text = method == Some(InlineMethod::Text);
                let (raw_len, is_text) = match piece {
                    Piece::Text(n) => (n, true),
                    Piece::Token(t) => (self.tokens[t].len, false),
                };
                let merge = last.is_some_and(|l| self.tokens[l].kind == Kind::Text)
                    && (by_text || (method == Some(InlineMethod::Reflink) && is_text));
                let raw = &text[pos..pos + raw_len];
                match (merge, piece, last) {
                    (true, _, Some(l)) => {
                        // text pieces are consecutive, so the last one ends where this starts
                        if let Some(v) = &mut self.tokens[l].shared {
                            v.end = pos + raw_len;
                        }
                    }
                    (_, Piece::Text(_), _) => {
                        let t = self.text_token(src, pos, pos + raw_len);
                        self.push_child(owner, t);
                        last = Some(t);
                    }
                    (_, Piece::Token(t), _) => {
                        self.push_child(owner, t);
                        last = Some(t);
                    }
                }
                if !by_text || raw.last() != Some(&UNDERSCORE) {
                    before = if by_text { raw.last().copied() } else { None };
                }
                pos += raw_len;
                k = 0;
            }
            if pos >= text.len() {
                return false;
            }
            let methods = inline_methods(text[pos]);
            loop {
                let Some(&m) = methods.get(k) else {
                    return false;
                };
                k += 1;
                method = Some(m);
                if m == InlineMethod::EmStrong {
                    if st.mask.is_none() {
                        st.mask = Some(self.emphasis_mask(text));
                    }
                    *st = InlineState {
                        pos,
                        tried: k,
                        before,
                        last,
                        mask: st.mask.take(),
                    };
                    return true;
                }
                if let Some(p) = self.inline_method(m, src, pos) {
                    d = Some(p);
                    break;
                }
            }
        }
    }

    pub(super) fn inline_method(
        &mut self,
        m: InlineMethod,
        src: &Rc<[u16]>,
        pos: usize,
    ) -> Option<Piece> {
        let e = &src[pos..];
        match m {
            InlineMethod::Escape => {
                let c = code_at(e, 1);
                let ok = code_at(e, 0) == BACKSLASH as i32
                    && (33..=126).contains(&c)
                    && !is_ascii_alpha(c)
                    && !is_digit(c);
                ok.then(|| Piece::Token(self.inline_token(Kind::Escape, 2)))
            }
            InlineMethod::Br => {
                // `/(?:\\|  +)\n/y`, before the text's trailing whitespace
                let o = if code_at(e, 0) == BACKSLASH as i32 {
                    (code_at(e, 1) == LF as i32).then_some(2)
                } else {
                    let s = count_spaces(e, 0);
                    (s >= 2 && code_at(e, s) == LF as i32).then_some(s + 1)
                }?;
                self.notes
                    .before_end_space(e, o)
                    .then(|| Piece::Token(self.inline_token(Kind::Br, o)))
            }
            InlineMethod::Tag => {
                let n = self.inline_html(e)?;
                Some(Piece::Token(self.block_token(Kind::Html, &e[..n], &[])))
            }
            InlineMethod::Autolink => {
                let (n, inner) = autolink(e)?;
                let link = self.inline_token(Kind::Link, n);
                let t = self.text_token(src, pos + inner.start, pos + inner.end);
                self.push_child(link, t);
                Some(Piece::Token(link))
            }
            InlineMethod::Link => {
                let n = usize::from(code_at(e, 0) == BANG as i32);
                if code_at(e, n) != OPEN_BRACKET as i32 {
                    return None;
                }
                let o = label_close(e, n + 1)?;
                if code_at(e, o + 1) != OPEN_PAREN as i32 {
                    return None;
                }
                let end = self.link_destination(e, o + 1)?;
                let label = e[n + 1..o].to_vec();
                Some(Piece::Token(self.link_token(&e[..end], &label)))
            }
            InlineMethod::Reflink => {
                let o = usize::from(code_at(e, 0) == BANG as i32);
                if code_at(e, o) != OPEN_BRACKET as i32 {
                    return None;
                }
                let r = reference(e, o)?;
                if !self.links.contains(&normalize_label(&e[r.label.clone()])) {
                    return Some(Piece::Text(1));
                }
                let label = e[r.text].to_vec();
                Some(Piece::Token(self.link_token(&e[..r.end], &label)))
            }
            InlineMethod::Codespan => {
                let n = run_of(e, 0, BACKTICK);
                if n == 0 {
                    return None;
                }
                let o = self.code_span_end(e, n)?;
                Some(Piece::Token(self.inline_token(Kind::Codespan, o)))
            }
            InlineMethod::Text => {
                let n = self.text_len(e);
                (n > 0).then_some(Piece::Text(n))
            }
            InlineMethod::EmStrong => None,
        }
    }

    pub(super) fn link_token(&mut self, raw: &[u16], label: &[u16]) -> usize {
        if code_at(raw, 0) == BANG as i32 {
            return self.inline_token(Kind::Image, raw.len());
        }
        let text = replace_all(
            &replace_all(label, &[BACKSLASH, OPEN_BRACKET], &[OPEN_BRACKET]),
            &[BACKSLASH, CLOSE_BRACKET],
            &[CLOSE_BRACKET],
        );
        let t = self.inline_token(Kind::Link, raw.len());
        self.inline_tokens(Rc::from(text), t);
        t
    }

    /// The end of a code span opened by `n` backticks.
    pub(super) fn code_span_end(&mut self, e: &[u16], n: usize) -> Option<usize> {
        let key = Absent::Backticks(n);
        if self.notes.is_absent(e, key, n) {
            return None;
        }
        let mut g = index_of_unit(e, BACKTICK, n);
        while let Some(p) = g {
            let y = run_of(e, p, BACKTICK);
            if y - p == n {
                return Some(y);
            }
            g = index_of_unit(e, BACKTICK, y);
        }
        self.notes.note_absent(e, key, n);
        None
    }

    /// Raw inline HTML at the start of `e`: its length.
    pub(super) fn inline_html(&mut self, e: &[u16]) -> Option<usize> {
        if code_at(e, 0) != LT as i32 {
            return None;
        }
        match code_at(e, 1) {
            0x3F => self.notes.past(e, Absent::ProcessingInstruction, "?>", 2),
            0x21 => {
                if starts_at_str(e, 2, "--") {
                    return self.notes.past(e, Absent::Comment, "-->", 2);
                }
                if starts_at_str(e, 2, "[CDATA[") {
                    return self.notes.past(e, Absent::Cdata, "]]>", 9);
                }
                // `/[A-Z]+\s/iy`
                let mut i = 2;
                while is_ascii_alpha(code_at(e, i)) {
                    i += 1;
                }
                let c = code_at(e, i);
                if i == 2 || c == -1 || !is_js_space(c) {
                    return None;
                }
                self.notes.past(e, Absent::Declaration, ">", i + 1)
            }
            0x2F => {
                // `/[A-Z][-:\w]*\s*>/iy` at 2
                if !is_ascii_alpha(code_at(e, 2)) {
                    return None;
                }
                let mut i = 3;
                while i < e.len()
                    && (is_word(e[i] as i32) || e[i] == b'-' as u16 || e[i] == b':' as u16)
                {
                    i += 1;
                }
                let i = skip_ws(e, i);
                (code_at(e, i) == GT as i32).then_some(i + 1)
            }
            _ => {
                let o = tag_name(e, 1);
                if o == 1 || !self.notes.is_ahead(e, GT, o) {
                    return None;
                }
                // attributes, then `/\s*\/?>/y`
                let q = skip_ws(e, attributes(e, o, true));
                let q = if code_at(e, q) == b'/' as i32 {
                    q + 1
                } else {
                    q
                };
                (code_at(e, q) == GT as i32).then_some(q + 1)
            }
        }
    }

    /// The end of an inline link's `(destination "title")` opening at `n`.
    pub(super) fn link_destination(&mut self, e: &[u16], n: usize) -> Option<usize> {
        // `/\([!-'*-;=-[\]-~]+\)/y`
        let simple = |c: u16| (0x21..=0x7E).contains(&c) && !matches!(c, 0x28 | 0x29 | 0x3C | 0x5C);
        let mut i = n + 1;
        while i < e.len() && simple(e[i]) {
            i += 1;
        }
        if i > n + 1 && code_at(e, i) == CLOSE_PAREN as i32 {
            return Some(i + 1);
        }
        if !self.notes.is_ahead(e, CLOSE_PAREN, n) {
            return None;
        }
        let g = skip_ws(e, n + 1);
        let angle = code_at(e, g) == LT as i32;
        if angle && !self.notes.is_ahead(e, GT, g) {
            return None;
        }
        let k = (g..e.len())
            .find(|&i| e[i] < 0x21 || is_js_space(e[i] as i32))
            .unwrap_or(e.len());
        let mut found: Option<(usize, i64, i64)> = None;
        let first = if angle { 0 } else { 1 };
        for attempt in first..3 {
            if found.is_some() {
                break;
            }
            let mut z = g as i64;
            let mut y = k as i64;
            if attempt == 0 {
                let mut q = g + 1;
                loop {
                    match code_at(e, q) {
                        -1 | 10 | 0x3C | 0x3E => break,
                        0x5C => {
                            let d = code_at(e, q + 1);
                            if d == -1 || is_line_term(d) {
                                break;
                            }
                            q += 2;
                        }
                        _ => q += 1,
                    }
                }
                y = if q > g + 1 && code_at(e, q) == GT as i32 {
                    q as i64 + 1
                } else {
                    -1
                };
            } else if attempt == 2 {
                y = last_index_of_unit(e, CLOSE_PAREN, k as i64 - 1);
                if y < g as i64 {
                    z = n as i64 + 1;
                    y = z;
                }
            }
            found = link_tail(e, z, y);
        }
        let (end, dz, dy) = found?;
        let dest = js_slice(e, dz, dy);
        if !angle {
            let h = unbalanced_paren(dest);
            if h == -1 {
                return Some(end);
            }
            return Some(js::trim_end_units(js_slice(e, 0, n as i64 + h + 2)).len());
        }
        let mut d = dest.len() as i64 - 1;
        while d >= 1 && dest[(d - 1) as usize] == BACKSLASH {
            d -= 1;
        }
        if dest.last() != Some(&GT) || (dest.len() as i64 - 1 - d) % 2 == 1 {
            return None;
        }
        Some(end)
    }

    /// Where a text run starting at `e` ends.
    pub(super) fn text_len(&mut self, e: &[u16]) -> usize {
        // `/`+|[^]/y`
        let h = if code_at(e, 0) == BACKTICK as i32 {
            run_of(e, 0, BACKTICK)
        } else {
            1
        };
        let mut y = h;
        while y < e.len() {
            let c = e[y];
            if matches!(c, 0x21 | 0x2A | 0x3C | 0x5B | 0x5C | 0x5F | 0x60) {
                return y;
            }
            if c == SPACE && code_at(e, y + 1) == SPACE as i32 {
                // `  \n`, found at its first two spaces
                let mut j = y;
                while code_at(e, j) == SPACE as i32 {
                    j += 1;
                }
                if code_at(e, j) == LF as i32 {
                    if !self.notes.before_end_space(e, j) {
                        return e.len();
                    }
                    let mut k = j;
                    while k > h && e[k - 1] == SPACE {
                        k -= 1;
                    }
                    return k;
                }
                y = j;
                continue;
            }
            y += 1;
        }
        e.len()
    }
}
