//! The lexer's state and its block driver: the loop that tries the block rules in order on the
//! rest of the text, files each token under its owner, and merges paragraph and text
//! continuations, as Claude Code's `Lexer.blockTokens` does.

use std::collections::HashSet;
use std::rc::Rc;

use super::block::{
    atx_heading_len, atx_heading_text, ends_in_blank_line, fenced_code_len, hr_at,
    indented_code_len, indented_code_text, paragraph_len, setext_len, setext_scan, space_len,
};
use super::html::html_block_len;
use super::links::{link_definition, normalize_label};
use super::list_item::ItemGeometry;
use super::lookahead::Notes;
use super::token::{Kind, NONE, ROOT, Token};
use super::utf16::{
    INFINITY, LF, View, code_at, concat, js_slice, line_end, skip_indent, trim_end_ch,
};

/// How deep containers (block quotes, list items) and inline spans (emphasis, links) are
/// lexed before the rest of a nested part is left as it is.
pub(super) const MAX_DEPTH: usize = 256;

/// The block rules, named after the methods of marked's `Tokenizer` they port (`Lheading` is
/// a setext heading, `Def` a link reference definition).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Method {
    Space,
    Code,
    Fences,
    Heading,
    Hr,
    Blockquote,
    List,
    Html,
    Def,
    Lheading,
    Paragraph,
    Text,
}

/// The block rules tried, in order, for the character after up to three spaces.
pub(super) fn block_methods(c: i32) -> &'static [Method] {
    use Method::*;
    const TAIL: [Method; 3] = [Lheading, Paragraph, Text];
    match c {
        -1 | 10 => &[Space, Lheading, Paragraph, Text],
        32 | 9 => &[Space, Code, Lheading, Paragraph, Text],
        96 | 126 => &[Fences, Lheading, Paragraph, Text],
        35 => &[Heading, Lheading, Paragraph, Text],
        95 => &[Hr, Lheading, Paragraph, Text],
        45 | 42 => &[Hr, List, Lheading, Paragraph, Text],
        43 | 48..=57 => &[List, Lheading, Paragraph, Text],
        62 => &[Blockquote, Lheading, Paragraph, Text],
        60 => &[Html, Lheading, Paragraph, Text],
        91 => &[Def, Lheading, Paragraph, Text],
        _ => &TAIL,
    }
}

/// A container (block quote or list item) being lexed: its source and how much of it is used.
pub(super) struct Container {
    /// The text the container's lines are read from (replaced when lazy lines join it).
    pub(super) src: View,
    /// Text read before `src` that still counts towards the container's length.
    pub(super) before: Vec<u16>,
    /// How far into `src` the container's lines have been gathered.
    pub(super) end: usize,
    /// How far into `src` lazy continuation lines have been taken.
    pub(super) taken: usize,
    /// A list item's geometry; `None` for a block quote.
    pub(super) item: Option<ItemGeometry>,
    /// The white space cut from the end of a last list item's content.
    pub(super) cut: Vec<u16>,
}

/// One run of block lexing (the whole text, or one container's text).
pub(super) struct Level {
    /// Whether the run started with any text.
    pub(super) has_text: bool,
    /// The text still to lex.
    pub(super) rest: View,
    /// The token the run's tokens are filed under.
    pub(super) owner: usize,
    /// The last token filed, when the driver stopped to try a container.
    pub(super) last: Option<usize>,
    /// How many of the block rules for the current character have been tried.
    pub(super) tried: usize,
    /// The rule being tried when the driver stopped.
    pub(super) method: Method,
    /// Whether the last paragraph may still take continuation text.
    pub(super) paragraph_open: bool,
    /// The container whose text this run lexes (an index into `Lexer::containers`).
    pub(super) container: Option<usize>,
    /// The enclosing run (an index into `Lexer::levels`).
    pub(super) outer: Option<usize>,
    /// Text lazy lines moved into a nested container that the run must still step over.
    pub(super) passed: Vec<u16>,
    /// Lazy continuation text waiting to be added to the run's text.
    pub(super) owed: Vec<u16>,
    /// The enclosing run's `no_setext_until`, restored when this run ends.
    pub(super) outer_no_setext: usize,
}

pub(super) struct Lexer {
    /// Every token; `ROOT` holds the top-level ones.
    pub(super) tokens: Vec<Token>,
    /// The block runs in progress, outermost first.
    pub(super) levels: Vec<Level>,
    /// The containers being lexed, outermost first.
    pub(super) containers: Vec<Container>,
    /// Tokens whose inline children are still to be lexed, in order.
    pub(super) queue: Vec<usize>,
    /// The labels of the link reference definitions seen (normalized).
    pub(super) links: HashSet<Vec<u16>>,
    /// Whether paragraphs are paragraphs (true) or bare text (in list items).
    pub(super) top: bool,
    /// The rest of the text at the last block dispatch (setext headings look at it).
    pub(super) block_rest: Option<View>,
    /// No setext heading starts while more than this much text is left (`INFINITY`: no bound).
    pub(super) no_setext_until: usize,
    /// The innermost block run.
    pub(super) cur_level: Option<usize>,
    /// The current inline run's remembered look-aheads.
    pub(super) notes: Notes,
    /// The length of the whole (newline-normalized) text.
    pub(super) total: usize,
    /// How many containers and inline spans enclose the current run.
    pub(super) depth: usize,
    /// False when only the block structure is wanted (no inline pass follows).
    pub(super) keep_text: bool,
}

impl Lexer {
    pub(super) fn new(total: usize, keep_text: bool) -> Lexer {
        let root = Token::new(Kind::Root, 0, false, Vec::new());
        let mut tokens = Vec::with_capacity(64);
        tokens.push(root);
        Lexer {
            tokens,
            levels: Vec::with_capacity(8),
            containers: Vec::with_capacity(8),
            queue: Vec::new(),
            links: HashSet::new(),
            top: true,
            block_rest: None,
            no_setext_until: INFINITY,
            cur_level: None,
            notes: Notes::new(),
            total,
            depth: 0,
            keep_text,
        }
    }

    pub(super) fn lex(&mut self, src: &[u16]) {
        self.block_tokens(View::new(src.to_vec()), ROOT, None);
    }

    pub(super) fn run_inline_queue(&mut self) {
        let queue = std::mem::take(&mut self.queue);
        for token in queue {
            // Only a block text token's own text is read afterwards.
            let text: Rc<[u16]> = if self.tokens[token].kind == Kind::Text {
                Rc::from(self.tokens[token].text.as_slice())
            } else {
                Rc::from(std::mem::take(&mut self.tokens[token].text))
            };
            self.inline_tokens(text, token);
        }
    }

    pub(super) fn block_token(&mut self, kind: Kind, raw: &[u16], text: &[u16]) -> usize {
        let keep = self.keep_text || !matches!(kind, Kind::Paragraph | Kind::Text | Kind::Heading);
        let text = if keep { text.to_vec() } else { Vec::new() };
        let ends_blank = ends_in_blank_line(raw);
        self.tokens
            .push(Token::new(kind, raw.len(), ends_blank, text));
        self.tokens.len() - 1
    }

    /// An inline token: only its source's length is kept.
    pub(super) fn inline_token(&mut self, kind: Kind, len: usize) -> usize {
        self.tokens.push(Token::new(kind, len, false, Vec::new()));
        self.tokens.len() - 1
    }

    /// An inline text token holding `src[a..b]`.
    pub(super) fn text_token(&mut self, src: &Rc<[u16]>, start: usize, end: usize) -> usize {
        let token = self.inline_token(Kind::Text, end - start);
        self.tokens[token].shared = Some(View {
            buf: src.clone(),
            start,
            end,
        });
        token
    }

    pub(super) fn push_child(&mut self, owner: usize, child: usize) {
        let id = child as u32;
        match self.tokens[owner].last {
            NONE => self.tokens[owner].first = id,
            last => self.tokens[last as usize].next = id,
        }
        self.tokens[owner].last = id;
    }

    /// A token whose text gets inline tokens later.
    pub(super) fn token_with_inline(&mut self, kind: Kind, raw: &[u16], text: &[u16]) -> usize {
        let token = self.block_token(kind, raw, text);
        if self.keep_text {
            self.queue.push(token);
        }
        token
    }

    /// Appends to a paragraph or text token, keeping its pending inline run in step (and
    /// dropping any queued after it, as the original does).
    pub(super) fn merge(&mut self, token: usize, text: &[u16], sep: &[u16]) {
        if !self.keep_text {
            return;
        }
        let merged = &mut self.tokens[token];
        merged.text.extend_from_slice(sep);
        merged.text.extend_from_slice(text);
        if let Some(index) = self.queue.iter().rposition(|&queued| queued == token) {
            self.queue.truncate(index + 1);
        }
    }

    pub(super) fn last_child(&self, owner: usize) -> Option<usize> {
        match self.tokens[owner].last {
            NONE => None,
            last => Some(last as usize),
        }
    }

    pub(super) fn is_para_or_text(&self, token: Option<usize>) -> bool {
        token.is_some_and(|token| matches!(self.tokens[token].kind, Kind::Paragraph | Kind::Text))
    }

    // ----- the block driver -----

    pub(super) fn block_tokens(&mut self, text: View, owner: usize, container: Option<usize>) {
        // Levels (and containers) live on stacks: only a level's ancestors are ever looked at.
        let level = self.levels.len();
        self.levels.push(Level {
            has_text: !text.is_empty(),
            rest: text,
            owner,
            last: self.last_child(owner),
            tried: 0,
            method: Method::Text,
            paragraph_open: false,
            container,
            outer: self.cur_level,
            passed: Vec::new(),
            owed: Vec::new(),
            outer_no_setext: self.no_setext_until,
        });
        self.no_setext_until = INFINITY;
        self.cur_level = Some(level);
        let mut produced = None;
        while self.next_block(level, produced) {
            let rest = self.levels[level].rest.clone();
            produced = match self.levels[level].method {
                Method::Blockquote => self.blockquote(&rest),
                Method::List => self.list(&rest),
                _ => None,
            };
        }
        self.cur_level = self.levels[level].outer;
        self.no_setext_until = self.levels[level].outer_no_setext;
        self.top = true;
        self.levels.truncate(level);
    }

    /// Files the token just produced and lexes on until a container (block quote or list) is
    /// to be tried; answers false when the level is done.
    pub(super) fn next_block(&mut self, level: usize, produced: Option<usize>) -> bool {
        let mut rest = self.levels[level].rest.clone();
        let mut tried = self.levels[level].tried;
        let mut method = self.levels[level].method;
        let mut last = self.levels[level].last;
        let mut produced = produced;
        let owner = self.levels[level].owner;
        if produced.is_none() && !self.levels[level].passed.is_empty() {
            let passed = std::mem::take(&mut self.levels[level].passed);
            rest = View::new(concat(&passed, rest.units()));
            self.no_setext_until = INFINITY;
        }
        loop {
            if let Some(token) = produced {
                let last_kind = last.map(|last| self.tokens[last].kind);
                let token_len = self.tokens[token].len;
                let merges = if matches!(method, Method::Code | Method::Def) {
                    matches!(last_kind, Some(Kind::Paragraph | Kind::Text))
                } else {
                    (method == Method::Text && last_kind == Some(Kind::Text))
                        || (method == Method::Paragraph
                            && last_kind == Some(Kind::Paragraph)
                            && self.levels[level].paragraph_open)
                };
                if method == Method::Space && last.is_some() && token_len == 1 {
                    // (the original appends the newline to the last token's source; nothing
                    // reads a source that way again, an HTML block's trailing newline included)
                } else if merges {
                    if let Some(last_token) = last {
                        let text = if method == Method::Def {
                            self.tokens[token].raw().to_vec()
                        } else {
                            self.tokens[token].text.clone()
                        };
                        self.merge(last_token, &text, &[LF]);
                    }
                } else if method != Method::Def {
                    self.push_child(owner, token);
                    last = Some(token);
                } else {
                    let tag = self.tokens[token].text.clone();
                    self.links.insert(tag);
                }
                let passed = std::mem::take(&mut self.levels[level].passed);
                if !passed.is_empty() {
                    rest = if token_len < passed.len() {
                        View::new(concat(&passed, rest.units())).skip(token_len)
                    } else {
                        rest.skip(token_len - passed.len())
                    };
                    self.no_setext_until = INFINITY;
                } else {
                    rest = rest.skip(token_len);
                }
                if method == Method::Paragraph {
                    self.levels[level].paragraph_open = false;
                }
                tried = 0;
            }
            if rest.is_empty()
                && self.levels[level].container.is_some()
                && self.wants_lazy_lines(method, produced, last)
            {
                rest = self.lazy_lines(level);
                last = self.last_child(owner);
            }
            if rest.is_empty() {
                return false;
            }
            self.block_rest = Some(rest.clone());
            let methods = block_methods(code_at(rest.units(), skip_indent(rest.units(), 0)));
            produced = None;
            while produced.is_none() {
                let Some(&rule) = methods.get(tried) else {
                    return false;
                };
                tried += 1;
                method = rule;
                if rule == Method::Blockquote || rule == Method::List {
                    let state = &mut self.levels[level];
                    state.rest = rest;
                    state.tried = tried;
                    state.method = rule;
                    state.last = last;
                    return true;
                }
                if rule != Method::Paragraph || self.top {
                    produced = self.block_method(rule, &rest);
                }
            }
        }
    }

    /// Whether a container whose text ran out should look for lazy continuation lines.
    pub(super) fn wants_lazy_lines(
        &self,
        method: Method,
        produced: Option<usize>,
        last: Option<usize>,
    ) -> bool {
        let Some(token) = produced else { return false };
        let ok = if method == Method::Code {
            last != Some(token)
        } else {
            matches!(method, Method::Paragraph | Method::Text | Method::Def)
        };
        ok && !self.tokens[token].ends_blank
    }

    pub(super) fn block_method(&mut self, method: Method, rest: &View) -> Option<usize> {
        let src = rest.units();
        match method {
            Method::Space => {
                let len = space_len(src);
                (len > 0).then(|| self.block_token(Kind::Space, &src[..len], &[]))
            }
            Method::Code => {
                let len = indented_code_len(src).filter(|&len| len > 0)?;
                let text = indented_code_text(&src[..len]);
                Some(self.block_token(Kind::Code, &src[..len], &text))
            }
            Method::Fences => {
                let len = fenced_code_len(src).filter(|&len| len > 0)?;
                Some(self.block_token(Kind::Code, &src[..len], &[]))
            }
            Method::Heading => {
                let len = atx_heading_len(src)?;
                let text = if self.keep_text {
                    atx_heading_text(&src[..len])
                } else {
                    Vec::new()
                };
                Some(self.token_with_inline(Kind::Heading, &src[..len], &text))
            }
            Method::Hr => {
                let end = hr_at(src, 0)?;
                Some(self.block_token(Kind::Hr, &src[..end], &[]))
            }
            Method::Html => {
                let len = html_block_len(src).filter(|&len| len > 0)?;
                let token = self.block_token(Kind::Html, &src[..len], &[]);
                self.tokens[token].shared = Some(rest.sub(0, len));
                self.tokens[token].span = Some(self.total.saturating_sub(src.len()));
                Some(token)
            }
            Method::Def => self.definition(rest),
            Method::Lheading => self.setext(src, true),
            Method::Paragraph => {
                let len = paragraph_len(src);
                (len > 0).then(|| self.token_with_inline(Kind::Paragraph, &src[..len], &src[..len]))
            }
            Method::Text => {
                let len = line_end(src, 0);
                (len > 0).then(|| self.token_with_inline(Kind::Text, &src[..len], &src[..len]))
            }
            Method::Blockquote | Method::List => None,
        }
    }

    pub(super) fn definition(&mut self, rest: &View) -> Option<usize> {
        let src = rest.units();
        let (len, label) = link_definition(src)?;
        let tag = normalize_label(&label);
        let token = self.block_token(Kind::Def, &src[..len], &tag);
        self.tokens[token].shared = Some(rest.sub(0, len));
        Some(token)
    }

    /// A setext heading; `is_rest` when `src` is the level's rest (not a made-up string).
    pub(super) fn setext(&mut self, src: &[u16], is_rest: bool) -> Option<usize> {
        if is_rest && src.len() > self.no_setext_until {
            return None;
        }
        let scan = if is_rest { setext_scan(src) } else { 0 };
        if scan < 0 {
            // No underline in reach: none until the text is shorter than where the scan stopped.
            self.no_setext_until = src.len().saturating_sub((!scan) as usize);
            return None;
        }
        let len = setext_len(src)?;
        let whole = &src[..len];
        let text_lines = trim_end_ch(whole, LF);
        let underline_start = text_lines
            .iter()
            .rposition(|&c| c == LF)
            .map_or(0, |p| p + 1);
        let text = js_slice(text_lines, 0, underline_start as i64 - 1).to_vec();
        Some(self.token_with_inline(Kind::Heading, whole, &text))
    }
}
