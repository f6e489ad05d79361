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

/// The inline rules, named after the methods of marked's `Tokenizer` they port (`Tag` is
/// inline HTML, `Reflink` a reference link, `Br` a hard line break).
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

/// Where an inline run stopped to try emphasis, and what it carries on with.
pub(super) struct InlineState {
    /// The position in the run's text.
    pub(super) pos: usize,
    /// How many of the inline rules for the character at `pos` have been tried.
    pub(super) tried: usize,
    /// The last unit of the text before `pos` when it was plain text (emphasis looks at it).
    pub(super) before: Option<u16>,
    /// The last token filed.
    pub(super) last: Option<usize>,
    /// The text emphasis is matched on (see `emphasis_mask`), made when first needed.
    pub(super) mask: Option<Vec<u16>>,
}

impl Lexer {
    pub(super) fn inline_tokens(&mut self, text: Rc<[u16]>, owner: usize) {
        if self.depth >= MAX_DEPTH {
            // Too deep to lex further: keep the text as one text token.
            if !text.is_empty() {
                let token = self.text_token(&text, 0, text.len());
                self.push_child(owner, token);
            }
            return;
        }
        self.depth += 1;
        let saved = std::mem::replace(&mut self.notes, Notes::new());
        let mut state = InlineState {
            pos: 0,
            tried: 0,
            before: None,
            last: self.last_child(owner),
            mask: None,
        };
        let mut produced = None;
        while self.inline_step(&text, owner, &mut state, produced) {
            produced = self.em_strong(&text, &state);
        }
        self.notes = saved;
        self.depth -= 1;
    }

    /// Files what was produced and lexes on until emphasis is to be tried; false when done.
    pub(super) fn inline_step(
        &mut self,
        src: &Rc<[u16]>,
        owner: usize,
        state: &mut InlineState,
        produced: Option<usize>,
    ) -> bool {
        let text: &[u16] = src;
        let mut pos = state.pos;
        let mut tried = state.tried;
        let mut before = state.before;
        let mut last = state.last;
        let mut pending = produced.map(Piece::Token);
        let mut method: Option<InlineMethod> = None;
        loop {
            if let Some(piece) = pending.take() {
                let by_text = method == Some(InlineMethod::Text);
                let (raw_len, is_text) = match piece {
                    Piece::Text(len) => (len, true),
                    Piece::Token(token) => (self.tokens[token].len, false),
                };
                let merge = last
                    .is_some_and(|last_token| self.tokens[last_token].kind == Kind::Text)
                    && (by_text || (method == Some(InlineMethod::Reflink) && is_text));
                let raw = &text[pos..pos + raw_len];
                match (merge, piece, last) {
                    (true, _, Some(last_token)) => {
                        // text pieces are consecutive, so the last one ends where this starts
                        if let Some(view) = &mut self.tokens[last_token].shared {
                            view.end = pos + raw_len;
                        }
                    }
                    (_, Piece::Text(_), _) => {
                        let token = self.text_token(src, pos, pos + raw_len);
                        self.push_child(owner, token);
                        last = Some(token);
                    }
                    (_, Piece::Token(token), _) => {
                        self.push_child(owner, token);
                        last = Some(token);
                    }
                }
                if !by_text || raw.last() != Some(&UNDERSCORE) {
                    before = if by_text { raw.last().copied() } else { None };
                }
                pos += raw_len;
                tried = 0;
            }
            if pos >= text.len() {
                return false;
            }
            let methods = inline_methods(text[pos]);
            loop {
                let Some(&rule) = methods.get(tried) else {
                    return false;
                };
                tried += 1;
                method = Some(rule);
                if rule == InlineMethod::EmStrong {
                    if state.mask.is_none() {
                        state.mask = Some(self.emphasis_mask(text));
                    }
                    *state = InlineState {
                        pos,
                        tried,
                        before,
                        last,
                        mask: state.mask.take(),
                    };
                    return true;
                }
                if let Some(piece) = self.inline_method(rule, src, pos) {
                    pending = Some(piece);
                    break;
                }
            }
        }
    }

    /// Tries one inline rule on the text from `pos`.
    pub(super) fn inline_method(
        &mut self,
        method: InlineMethod,
        src: &Rc<[u16]>,
        pos: usize,
    ) -> Option<Piece> {
        let rest = &src[pos..];
        match method {
            InlineMethod::Escape => {
                let escaped = code_at(rest, 1);
                let ok = code_at(rest, 0) == BACKSLASH as i32
                    && (33..=126).contains(&escaped)
                    && !is_ascii_alpha(escaped)
                    && !is_digit(escaped);
                ok.then(|| Piece::Token(self.inline_token(Kind::Escape, 2)))
            }
            InlineMethod::Br => {
                // `/(?:\\|  +)\n/y`, before the text's trailing whitespace
                let len = if code_at(rest, 0) == BACKSLASH as i32 {
                    (code_at(rest, 1) == LF as i32).then_some(2)
                } else {
                    let spaces = count_spaces(rest, 0);
                    (spaces >= 2 && code_at(rest, spaces) == LF as i32).then_some(spaces + 1)
                }?;
                self.notes
                    .before_end_space(rest, len)
                    .then(|| Piece::Token(self.inline_token(Kind::Br, len)))
            }
            InlineMethod::Tag => {
                let len = self.inline_html(rest)?;
                Some(Piece::Token(self.block_token(
                    Kind::Html,
                    &rest[..len],
                    &[],
                )))
            }
            InlineMethod::Autolink => {
                let (len, inner) = autolink(rest)?;
                let link = self.inline_token(Kind::Link, len);
                let text = self.text_token(src, pos + inner.start, pos + inner.end);
                self.push_child(link, text);
                Some(Piece::Token(link))
            }
            InlineMethod::Link => {
                let open = usize::from(code_at(rest, 0) == BANG as i32);
                if code_at(rest, open) != OPEN_BRACKET as i32 {
                    return None;
                }
                let close = label_close(rest, open + 1)?;
                if code_at(rest, close + 1) != OPEN_PAREN as i32 {
                    return None;
                }
                let end = self.link_destination(rest, close + 1)?;
                let label = rest[open + 1..close].to_vec();
                Some(Piece::Token(self.link_token(&rest[..end], &label)))
            }
            InlineMethod::Reflink => {
                let open = usize::from(code_at(rest, 0) == BANG as i32);
                if code_at(rest, open) != OPEN_BRACKET as i32 {
                    return None;
                }
                let found = reference(rest, open)?;
                if !self
                    .links
                    .contains(&normalize_label(&rest[found.label.clone()]))
                {
                    return Some(Piece::Text(1));
                }
                let label = rest[found.text].to_vec();
                Some(Piece::Token(self.link_token(&rest[..found.end], &label)))
            }
            InlineMethod::Codespan => {
                let ticks = run_of(rest, 0, BACKTICK);
                if ticks == 0 {
                    return None;
                }
                let end = self.code_span_end(rest, ticks)?;
                Some(Piece::Token(self.inline_token(Kind::Codespan, end)))
            }
            InlineMethod::Text => {
                let len = self.text_len(rest);
                (len > 0).then_some(Piece::Text(len))
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
        let token = self.inline_token(Kind::Link, raw.len());
        self.inline_tokens(Rc::from(text), token);
        token
    }

    /// The end of a code span opened by `ticks` backticks.
    pub(super) fn code_span_end(&mut self, rest: &[u16], ticks: usize) -> Option<usize> {
        let key = Absent::Backticks(ticks);
        if self.notes.is_absent(rest, key, ticks) {
            return None;
        }
        let mut found = index_of_unit(rest, BACKTICK, ticks);
        while let Some(run_start) = found {
            let run_end = run_of(rest, run_start, BACKTICK);
            if run_end - run_start == ticks {
                return Some(run_end);
            }
            found = index_of_unit(rest, BACKTICK, run_end);
        }
        self.notes.note_absent(rest, key, ticks);
        None
    }

    /// Raw inline HTML at the start of `rest`: its length.
    pub(super) fn inline_html(&mut self, rest: &[u16]) -> Option<usize> {
        if code_at(rest, 0) != LT as i32 {
            return None;
        }
        match code_at(rest, 1) {
            0x3F => self
                .notes
                .past(rest, Absent::ProcessingInstruction, "?>", 2),
            0x21 => {
                if starts_at_str(rest, 2, "--") {
                    return self.notes.past(rest, Absent::Comment, "-->", 2);
                }
                if starts_at_str(rest, 2, "[CDATA[") {
                    return self.notes.past(rest, Absent::Cdata, "]]>", 9);
                }
                // `/[A-Z]+\s/iy`
                let mut i = 2;
                while is_ascii_alpha(code_at(rest, i)) {
                    i += 1;
                }
                let c = code_at(rest, i);
                if i == 2 || c == -1 || !is_js_space(c) {
                    return None;
                }
                self.notes.past(rest, Absent::Declaration, ">", i + 1)
            }
            0x2F => {
                // `/[A-Z][-:\w]*\s*>/iy` at 2
                if !is_ascii_alpha(code_at(rest, 2)) {
                    return None;
                }
                let mut i = 3;
                while i < rest.len()
                    && (is_word(rest[i] as i32) || rest[i] == b'-' as u16 || rest[i] == b':' as u16)
                {
                    i += 1;
                }
                let i = skip_ws(rest, i);
                (code_at(rest, i) == GT as i32).then_some(i + 1)
            }
            _ => {
                let name_end = tag_name(rest, 1);
                if name_end == 1 || !self.notes.is_ahead(rest, GT, name_end) {
                    return None;
                }
                // attributes, then `/\s*\/?>/y`
                let end = skip_ws(rest, attributes(rest, name_end, true));
                let end = if code_at(rest, end) == b'/' as i32 {
                    end + 1
                } else {
                    end
                };
                (code_at(rest, end) == GT as i32).then_some(end + 1)
            }
        }
    }

    /// The end of an inline link's `(destination "title")` opening at `open`.
    pub(super) fn link_destination(&mut self, rest: &[u16], open: usize) -> Option<usize> {
        // `/\([!-'*-;=-[\]-~]+\)/y`
        let simple = |c: u16| (0x21..=0x7E).contains(&c) && !matches!(c, 0x28 | 0x29 | 0x3C | 0x5C);
        let mut i = open + 1;
        while i < rest.len() && simple(rest[i]) {
            i += 1;
        }
        if i > open + 1 && code_at(rest, i) == CLOSE_PAREN as i32 {
            return Some(i + 1);
        }
        if !self.notes.is_ahead(rest, CLOSE_PAREN, open) {
            return None;
        }
        let dest_start = skip_ws(rest, open + 1);
        let angle = code_at(rest, dest_start) == LT as i32;
        if angle && !self.notes.is_ahead(rest, GT, dest_start) {
            return None;
        }
        let dest_space = (dest_start..rest.len())
            .find(|&i| rest[i] < 0x21 || is_js_space(rest[i] as i32))
            .unwrap_or(rest.len());
        let mut found: Option<(usize, i64, i64)> = None;
        let first = if angle { 0 } else { 1 };
        for attempt in first..3 {
            if found.is_some() {
                break;
            }
            let mut from = dest_start as i64;
            let mut to = dest_space as i64;
            if attempt == 0 {
                let mut pos = dest_start + 1;
                loop {
                    match code_at(rest, pos) {
                        -1 | 10 | 0x3C | 0x3E => break,
                        0x5C => {
                            let escaped = code_at(rest, pos + 1);
                            if escaped == -1 || is_line_term(escaped) {
                                break;
                            }
                            pos += 2;
                        }
                        _ => pos += 1,
                    }
                }
                to = if pos > dest_start + 1 && code_at(rest, pos) == GT as i32 {
                    pos as i64 + 1
                } else {
                    -1
                };
            } else if attempt == 2 {
                to = last_index_of_unit(rest, CLOSE_PAREN, dest_space as i64 - 1);
                if to < dest_start as i64 {
                    from = open as i64 + 1;
                    to = from;
                }
            }
            found = link_tail(rest, from, to);
        }
        let (end, dest_from, dest_to) = found?;
        let dest = js_slice(rest, dest_from, dest_to);
        if !angle {
            let unbalanced = unbalanced_paren(dest);
            if unbalanced == -1 {
                return Some(end);
            }
            return Some(js::trim_end_units(js_slice(rest, 0, open as i64 + unbalanced + 2)).len());
        }
        let mut backslashes_from = dest.len() as i64 - 1;
        while backslashes_from >= 1 && dest[(backslashes_from - 1) as usize] == BACKSLASH {
            backslashes_from -= 1;
        }
        if dest.last() != Some(&GT) || (dest.len() as i64 - 1 - backslashes_from) % 2 == 1 {
            return None;
        }
        Some(end)
    }

    /// Where a text run starting at `rest` ends.
    pub(super) fn text_len(&mut self, rest: &[u16]) -> usize {
        // `/`+|[^]/y`
        let start = if code_at(rest, 0) == BACKTICK as i32 {
            run_of(rest, 0, BACKTICK)
        } else {
            1
        };
        let mut pos = start;
        while pos < rest.len() {
            let c = rest[pos];
            if matches!(c, 0x21 | 0x2A | 0x3C | 0x5B | 0x5C | 0x5F | 0x60) {
                return pos;
            }
            if c == SPACE && code_at(rest, pos + 1) == SPACE as i32 {
                // `  \n`, found at its first two spaces
                let mut spaces_end = pos;
                while code_at(rest, spaces_end) == SPACE as i32 {
                    spaces_end += 1;
                }
                if code_at(rest, spaces_end) == LF as i32 {
                    if !self.notes.before_end_space(rest, spaces_end) {
                        return rest.len();
                    }
                    let mut end = spaces_end;
                    while end > start && rest[end - 1] == SPACE {
                        end -= 1;
                    }
                    return end;
                }
                pos = spaces_end;
                continue;
            }
            pos += 1;
        }
        rest.len()
    }
}
