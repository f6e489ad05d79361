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
pub(super) struct Ctx {
    pub(super) src: View,
    pub(super) before: Vec<u16>,
    pub(super) end: usize,
    pub(super) taken: usize,
    pub(super) item: Option<ItemGeometry>,
    pub(super) cut: Vec<u16>,
}

/// One run of block lexing (the whole text, or one container's text).
pub(super) struct Level {
    pub(super) has_text: bool,
    pub(super) rest: View,
    pub(super) owner: usize,
    pub(super) last: Option<usize>,
    pub(super) tried: usize,
    pub(super) method: Method,
    pub(super) paragraph_open: bool,
    pub(super) container: Option<usize>,
    pub(super) outer: Option<usize>,
    pub(super) passed: Vec<u16>,
    pub(super) owed: Vec<u16>,
    pub(super) outer_no_setext: usize,
}

pub(super) struct Lexer {
    /// Every token; `ROOT` holds the top-level ones.
    pub(super) tokens: Vec<Token>,
    /// The block runs in progress, outermost first.
    pub(super) levels: Vec<Level>,
    /// The containers being lexed, outermost first.
    pub(super) ctxs: Vec<Ctx>,
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
            ctxs: Vec::with_capacity(8),
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
        for t in queue {
            // Only a block text token's own text is read afterwards.
            let text: Rc<[u16]> = if self.tokens[t].kind == Kind::Text {
                Rc::from(self.tokens[t].text.as_slice())
            } else {
                Rc::from(std::mem::take(&mut self.tokens[t].text))
            };
            self.inline_tokens(text, t);
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
    pub(super) fn text_token(&mut self, src: &Rc<[u16]>, a: usize, b: usize) -> usize {
        let t = self.inline_token(Kind::Text, b - a);
        self.tokens[t].shared = Some(View {
            buf: src.clone(),
            start: a,
            end: b,
        });
        t
    }

    pub(super) fn push_child(&mut self, owner: usize, t: usize) {
        let id = t as u32;
        match self.tokens[owner].last {
            NONE => self.tokens[owner].first = id,
            l => self.tokens[l as usize].next = id,
        }
        self.tokens[owner].last = id;
    }

    /// A token whose text gets inline tokens later.
    pub(super) fn token_with_inline(&mut self, kind: Kind, raw: &[u16], text: &[u16]) -> usize {
        let t = self.block_token(kind, raw, text);
        if self.keep_text {
            self.queue.push(t);
        }
        t
    }

    /// Appends to a paragraph or text token, keeping its pending inline run in step (and
    /// dropping any queued after it, as the original does).
    pub(super) fn merge(&mut self, t: usize, text: &[u16], sep: &[u16]) {
        if !self.keep_text {
            return;
        }
        let tok = &mut self.tokens[t];
        tok.text.extend_from_slice(sep);
        tok.text.extend_from_slice(text);
        if let Some(g) = self.queue.iter().rposition(|&q| q == t) {
            self.queue.truncate(g + 1);
        }
    }

    pub(super) fn last_child(&self, owner: usize) -> Option<usize> {
        match self.tokens[owner].last {
            NONE => None,
            l => Some(l as usize),
        }
    }

    pub(super) fn is_para_or_text(&self, t: Option<usize>) -> bool {
        t.is_some_and(|t| matches!(self.tokens[t].kind, Kind::Paragraph | Kind::Text))
    }

    // ----- the block driver -----

    pub(super) fn block_tokens(&mut self, text: View, owner: usize, container: Option<usize>) {
        // Levels (and containers) live on stacks: only a level's ancestors are ever looked at.
        let lv = self.levels.len();
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
        self.cur_level = Some(lv);
        let mut produced = None;
        while self.next_block(lv, produced) {
            let rest = self.levels[lv].rest.clone();
            produced = match self.levels[lv].method {
                Method::Blockquote => self.blockquote(&rest),
                Method::List => self.list(&rest),
                _ => None,
            };
        }
        self.cur_level = self.levels[lv].outer;
        self.no_setext_until = self.levels[lv].outer_no_setext;
        self.top = true;
        self.levels.truncate(lv);
    }

    /// Files the token just produced and lexes on until a container (block quote or list) is
    /// to be tried; answers false when the level is done.
    pub(super) fn next_block(&mut self, lv: usize, produced: Option<usize>) -> bool {
        let mut o = self.levels[lv].rest.clone();
        let mut h = self.levels[lv].tried;
        let mut g = self.levels[lv].method;
        let mut y = self.levels[lv].last;
        let mut k = produced;
        let owner = self.levels[lv].owner;
        if k.is_none() && !self.levels[lv].passed.is_empty() {
            let passed = std::mem::take(&mut self.levels[lv].passed);
            o = View::new(concat(&passed, o.units()));
            self.no_setext_until = INFINITY;
        }
        loop {
            if let Some(kt) = k {
                let d = y.map(|t| self.tokens[t].kind);
                let klen = self.tokens[kt].len;
                let merges = if matches!(g, Method::Code | Method::Def) {
                    matches!(d, Some(Kind::Paragraph | Kind::Text))
                } else {
                    (g == Method::Text && d == Some(Kind::Text))
                        || (g == Method::Paragraph
                            && d == Some(Kind::Paragraph)
                            && self.levels[lv].paragraph_open)
                };
                if g == Method::Space && y.is_some() && klen == 1 {
                    // (the original appends the newline to the last token's source; nothing
                    // reads a source that way again, an HTML block's trailing newline included)
                } else if merges {
                    if let Some(yt) = y {
                        let text = if g == Method::Def {
                            self.tokens[kt].raw().to_vec()
                        } else {
                            self.tokens[kt].text.clone()
                        };
                        self.merge(yt, &text, &[LF]);
                    }
                } else if g != Method::Def {
                    self.push_child(owner, kt);
                    y = Some(kt);
                } else {
                    let tag = self.tokens[kt].text.clone();
                    self.links.insert(tag);
                }
                let passed = std::mem::take(&mut self.levels[lv].passed);
                if !passed.is_empty() {
                    o = if klen < passed.len() {
                        View::new(concat(&passed, o.units())).skip(klen)
                    } else {
                        o.skip(klen - passed.len())
                    };
                    self.no_setext_until = INFINITY;
                } else {
                    o = o.skip(klen);
                }
                if g == Method::Paragraph {
                    self.levels[lv].paragraph_open = false;
                }
                h = 0;
            }
            if o.is_empty()
                && self.levels[lv].container.is_some()
                && self.wants_lazy_lines(lv, g, k, y)
            {
                o = self.lazy_lines(lv);
                y = self.last_child(owner);
            }
            if o.is_empty() {
                return false;
            }
            self.block_rest = Some(o.clone());
            let methods = block_methods(code_at(o.units(), skip_indent(o.units(), 0)));
            k = None;
            while k.is_none() {
                let Some(&m) = methods.get(h) else {
                    return false;
                };
                h += 1;
                g = m;
                if m == Method::Blockquote || m == Method::List {
                    let l = &mut self.levels[lv];
                    l.rest = o;
                    l.tried = h;
                    l.method = m;
                    l.last = y;
                    return true;
                }
                if m != Method::Paragraph || self.top {
                    k = self.block_method(m, &o);
                }
            }
        }
    }

    /// Whether a container whose text ran out should look for lazy continuation lines.
    pub(super) fn wants_lazy_lines(
        &self,
        _lv: usize,
        g: Method,
        k: Option<usize>,
        y: Option<usize>,
    ) -> bool {
        let Some(kt) = k else { return false };
        let ok = if g == Method::Code {
            y != Some(kt)
        } else {
            matches!(g, Method::Paragraph | Method::Text | Method::Def)
        };
        ok && !self.tokens[kt].ends_blank
    }

    pub(super) fn block_method(&mut self, m: Method, rest: &View) -> Option<usize> {
        let s = rest.units();
        match m {
            Method::Space => {
                let n = space_len(s);
                (n > 0).then(|| self.block_token(Kind::Space, &s[..n], &[]))
            }
            Method::Code => {
                let n = indented_code_len(s).filter(|&n| n > 0)?;
                let text = indented_code_text(&s[..n]);
                Some(self.block_token(Kind::Code, &s[..n], &text))
            }
            Method::Fences => {
                let n = fenced_code_len(s).filter(|&n| n > 0)?;
                Some(self.block_token(Kind::Code, &s[..n], &[]))
            }
            Method::Heading => {
                let n = atx_heading_len(s)?;
                let text = if self.keep_text {
                    atx_heading_text(&s[..n])
                } else {
                    Vec::new()
                };
                Some(self.token_with_inline(Kind::Heading, &s[..n], &text))
            }
            Method::Hr => {
                let j = hr_at(s, 0)?;
                Some(self.block_token(Kind::Hr, &s[..j], &[]))
            }
            Method::Html => {
                let n = html_block_len(s).filter(|&n| n > 0)?;
                let t = self.block_token(Kind::Html, &s[..n], &[]);
                self.tokens[t].shared = Some(rest.sub(0, n));
                self.tokens[t].span = Some(self.total.saturating_sub(s.len()));
                Some(t)
            }
            Method::Def => self.definition(rest),
            Method::Lheading => self.setext(s, true),
            Method::Paragraph => {
                let n = paragraph_len(s);
                (n > 0).then(|| self.token_with_inline(Kind::Paragraph, &s[..n], &s[..n]))
            }
            Method::Text => {
                let n = line_end(s, 0);
                (n > 0).then(|| self.token_with_inline(Kind::Text, &s[..n], &s[..n]))
            }
            Method::Blockquote | Method::List => None,
        }
    }

    pub(super) fn definition(&mut self, rest: &View) -> Option<usize> {
        let s = rest.units();
        let (len, label) = link_definition(s)?;
        let tag = normalize_label(&label);
        let t = self.block_token(Kind::Def, &s[..len], &tag);
        self.tokens[t].shared = Some(rest.sub(0, len));
        Some(t)
    }

    /// A setext heading; `is_rest` when `s` is the level's rest (not a made-up string).
    pub(super) fn setext(&mut self, s: &[u16], is_rest: bool) -> Option<usize> {
        if is_rest && s.len() > self.no_setext_until {
            return None;
        }
        let h = if is_rest { setext_scan(s) } else { 0 };
        if h < 0 {
            self.no_setext_until = s.len().saturating_sub((!h) as usize);
            return None;
        }
        let g = setext_len(s)?;
        let whole = &s[..g];
        let o = trim_end_ch(whole, LF);
        let h = o.iter().rposition(|&c| c == LF).map_or(0, |p| p + 1);
        let text = js_slice(o, 0, h as i64 - 1).to_vec();
        Some(self.token_with_inline(Kind::Heading, whole, &text))
    }
}
