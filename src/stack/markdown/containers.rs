//! Containers: block quotes and list items, whose text is lexed as a nested run, and the lazy
//! continuation lines that let a paragraph inside them run on past their markers.

use crate::js;

use super::block::{
    dedent_continuations, ends_in_blank_line, list_marker, list_starts, paragraph_len,
    quote_marker_at, strip_leading_blank, strip_quote_markers,
};
use super::lexer::{Ctx, Lexer, MAX_DEPTH};
use super::links::{link_definition, normalize_label};
use super::list_item::{
    item_is_last, item_lazy_run, item_lines, item_start, lazy_run, next_item_marker, under_indented,
};
use super::token::Kind;
use super::utf16::{INFINITY, LF, View, concat, js_slice, line_end, slice_from};

impl Lexer {
    pub(super) fn blockquote(&mut self, rest: &View) -> Option<usize> {
        let s = rest.units();
        if !quote_marker_at(s, 0) || self.depth >= MAX_DEPTH {
            return None;
        }
        let n = line_end(s, 0);
        let mut text = strip_quote_markers(&s[..n]);
        let tok = self.block_token(Kind::Blockquote, &[], &[]);
        let c = self.ctxs.len();
        self.ctxs.push(Ctx {
            src: rest.clone(),
            before: Vec::new(),
            end: n,
            taken: 0,
            item: None,
            cut: Vec::new(),
        });
        let more = self.gather(c);
        text.extend_from_slice(&more);
        let text = View::new(text);
        let saved_top = self.top;
        self.top = true;
        self.depth += 1;
        self.block_tokens(text, tok, Some(c));
        self.depth -= 1;
        self.top = saved_top;
        let ctx = &self.ctxs[c];
        self.tokens[tok].len =
            ctx.before.len() + js_slice(ctx.src.units(), 0, ctx.end as i64).len();
        self.ctxs.truncate(c);
        Some(tok)
    }

    pub(super) fn list(&mut self, rest: &View) -> Option<usize> {
        let s0 = rest.units();
        if !list_starts(s0) || self.depth >= MAX_DEPTH {
            return None;
        }
        let kind = list_marker(s0, 0).map_or(0, |m| s0[m - 1]);
        let list = self.block_token(Kind::List, &[], &[]);
        let mut l_before: Vec<u16> = Vec::new();
        let mut l_src = rest.clone();
        let mut l_end = 0usize;
        let mut l_taken = 0usize;
        while let Some(y) = next_item_marker(l_src.units(), l_end, kind) {
            let (item, mut z) = item_start(l_src.units(), l_end, y);
            let keep = if item_is_last(&item, l_src.units()) {
                js::trim_end_units(&z).len()
            } else {
                z.len()
            };
            let cut = z[keep..].to_vec();
            z.truncate(keep);
            let it = self.block_token(Kind::ListItem, &[], &[]);
            self.push_child(list, it);
            let c = self.ctxs.len();
            let stop = item.stop;
            self.ctxs.push(Ctx {
                src: l_src.clone(),
                before: Vec::new(),
                end: stop,
                taken: 0,
                item: Some(item),
                cut,
            });
            self.top = false;
            self.depth += 1;
            self.block_tokens(View::new(z), it, Some(c));
            self.depth -= 1;
            // (an item's own source is never read again; only the list's length matters)
            let ctx = &self.ctxs[c];
            let item_end = ctx.item.as_ref().map_or(0, |i| i.end);
            if !ctx.before.is_empty() {
                l_before.extend_from_slice(&ctx.before);
                l_src = ctx.src.clone();
                l_taken = ctx.taken;
            }
            l_end = item_end;
            self.ctxs.truncate(c);
        }
        self.last_child(list)?;
        let s = l_src.units();
        let keep = l_taken.max(js::trim_end_units(js_slice(s, 0, l_end as i64)).len());
        self.tokens[list].len = l_before.len() + js_slice(s, 0, keep as i64).len();
        Some(list)
    }

    /// The container's next lines: for a block quote the lines that start with `>`, for a
    /// list item the lines indented under it (its geometry updated).
    pub(super) fn gather(&mut self, c: usize) -> Vec<u16> {
        let src = self.ctxs[c].src.clone();
        let s = src.units();
        let end = self.ctxs[c].end;
        if let Some(mut item) = self.ctxs[c].item.take() {
            let whole = !under_indented(s, end + 1, item.indent);
            item.previous.clear();
            let body = if whole {
                s
            } else {
                js_slice(s, 0, end as i64 + 1)
            };
            let mut y = Vec::new();
            item_lines(&mut item, body, end, &mut y);
            let k = if item_is_last(&item, s) {
                js::trim_end_units(&y)
            } else {
                &y[..]
            };
            let klen = k.len();
            let ctx = &mut self.ctxs[c];
            ctx.end = item.stop;
            ctx.cut = y[klen..].to_vec();
            ctx.item = Some(item);
            return y[..klen].to_vec();
        }
        let mut h = Vec::new();
        let mut e = end;
        let mut g = e + 1;
        while quote_marker_at(s, g) {
            e = line_end(s, g);
            h.push(LF);
            h.extend(strip_quote_markers(&s[g..e]));
            g = e + 1;
        }
        self.ctxs[c].end = e;
        h
    }

    /// Lazy continuation lines for the container `c` (nested in a container when `nested`).
    pub(super) fn lazy_take(&mut self, c: usize, nested: bool) -> Option<Vec<u16>> {
        let ctx = &self.ctxs[c];
        let s = ctx.src.units();
        let g = ctx.end;
        let found = match &ctx.item {
            None => lazy_run(s, g, nested),
            Some(item) => {
                if !ctx.before.is_empty() && !item.ends_in_blank && !ctx.cut.contains(&LF) {
                    item_lazy_run(s, g, item.indent)
                } else {
                    None
                }
            }
        }?;
        let taken = js_slice(s, g as i64 + 1, found as i64).to_vec();
        let ctx = &mut self.ctxs[c];
        ctx.end = found;
        ctx.taken = found;
        Some(taken)
    }

    /// When a container's text runs out inside a paragraph, pulls in the lazy continuation
    /// lines that follow it (in it or in the containers around it) and answers the new rest.
    pub(super) fn lazy_lines(&mut self, e: usize) -> View {
        let mut chain: Vec<usize> = vec![e];
        let mut o = 0usize;
        // Every round takes at least one line or returns; the bound only guards against a bug.
        let mut rounds = 0usize;
        loop {
            rounds += 1;
            if rounds > 2 * self.total + 8 {
                return View::new(Vec::new());
            }
            let mut g = o;
            let h = loop {
                let lv = chain[g];
                let Some(c) = self.levels[lv].container else {
                    break None;
                };
                let outer = self.levels[lv].outer;
                let outer_container = outer.and_then(|i| self.levels[i].container).is_some();
                let h = self.lazy_take(c, outer_container);
                let ctx = &self.ctxs[c];
                let stop = h.is_some()
                    || !outer_container
                    || ctx.end < ctx.src.len()
                    || ctx.item.as_ref().is_some_and(|i| i.ends_in_blank)
                    || ctx.cut.contains(&LF)
                    || outer.is_none_or(|i| !ctx.src.same(&self.levels[i].rest));
                if stop {
                    break h;
                }
                let Some(next) = outer else { break None };
                g += 1;
                if g < chain.len() {
                    chain[g] = next;
                } else {
                    chain.push(next);
                }
            };
            let mut y: Vec<u16> = Vec::new();
            let mut k: Vec<u16> = Vec::new();
            if let Some(hh) = &h {
                o = g;
                let Some(c) = self.levels[chain[o]].container else {
                    return View::new(Vec::new());
                };
                y = concat(&self.ctxs[c].cut, &[LF]);
                y.extend_from_slice(hh);
                // (the container's token text grows by `y + k` in the original; it is not read
                // again, its nested lexing having started from a copy)
                k = self.gather(c);
            }
            while !k.is_empty() || h.is_none() {
                let lv = chain[o];
                if !self.levels[lv].owed.is_empty() {
                    let owed = std::mem::take(&mut self.levels[lv].owed);
                    y = concat(&owed, &y);
                }
                if o == 0 {
                    let i = if y.is_empty() {
                        Vec::new()
                    } else {
                        self.continue_paragraph(e, &y, &k)
                    };
                    let last = self.last_child(self.levels[e].owner);
                    if !i.is_empty()
                        || h.is_none()
                        || !self.is_para_or_text(last)
                        || ends_in_blank_line(&k)
                    {
                        return View::new(i);
                    }
                    y.clear();
                    break;
                }
                if !y.is_empty() {
                    let Some(ic) = self.levels[chain[o - 1]].container else {
                        return View::new(Vec::new());
                    };
                    if let Some(item) = &self.ctxs[ic].item
                        && !k.is_empty()
                        && let Some(d) = item_lazy_run(&k, 0, item.indent)
                    {
                        let d = d.min(k.len());
                        y.extend_from_slice(&k[..d]);
                        k = k[d..].to_vec();
                    }
                    let rest = self.levels[lv].rest.clone();
                    self.levels[lv].passed.extend_from_slice(rest.units());
                    self.ctxs[ic].before.extend_from_slice(rest.units());
                    let joined = View::new(if k.is_empty() {
                        y.clone()
                    } else {
                        concat(&y, &k)
                    });
                    self.ctxs[ic].src = joined.clone();
                    self.levels[lv].rest = joined;
                    self.ctxs[ic].end = y.len();
                    self.ctxs[ic].taken = y.len();
                    if !self.ctxs[ic].cut.is_empty() {
                        y = concat(&self.ctxs[ic].cut, &y);
                    }
                    k = self.gather(ic);
                }
                o -= 1;
            }
            let lv = chain[o];
            self.levels[lv].owed.extend_from_slice(&y);
        }
    }

    /// Adds lazy continuation text `n` to the level's last paragraph (or starts one), then
    /// sees whether what follows (`o`) continues it or makes it a setext heading; answers the
    /// level's new rest.
    pub(super) fn continue_paragraph(&mut self, e: usize, n: &[u16], o: &[u16]) -> Vec<u16> {
        let owner = self.levels[e].owner;
        let last = self.last_child(owner);
        self.no_setext_until = INFINITY;
        let g = match last {
            Some(t) if self.is_para_or_text(Some(t)) => {
                let text = if self.tokens[t].kind == Kind::Text {
                    dedent_continuations(n)
                } else {
                    n.to_vec()
                };
                self.merge(t, &text, &[]);
                t
            }
            _ => {
                let mut i: Vec<u16> = strip_leading_blank(n).to_vec();
                while self.levels[e].has_text {
                    let Some((len, label)) = link_definition(&i) else {
                        break;
                    };
                    self.links.insert(normalize_label(&label));
                    i = strip_leading_blank(&i[len.min(i.len())..]).to_vec();
                }
                if i.is_empty() {
                    return o.iter().copied().skip_while(|&c| c == LF).collect();
                }
                let (kind, text) = if self.top {
                    (Kind::Paragraph, i.clone())
                } else {
                    (Kind::Text, dedent_continuations(&i))
                };
                let t = self.token_with_inline(kind, &i, &text);
                self.push_child(owner, t);
                t
            }
        };
        self.levels[e].paragraph_open = true;
        if o.is_empty() {
            return Vec::new();
        }
        let y = concat(&[b'x' as u16], o);
        let is_rest = self
            .block_rest
            .as_ref()
            .is_some_and(|b| b.len() == y.len() && b.units() == &y[..]);
        let heading = self.setext(&y, is_rest);
        let c = match heading {
            Some(hd) => Some(hd),
            None if self.tokens[g].kind == Kind::Paragraph => {
                let n = paragraph_len(&y);
                (n > 0).then(|| self.token_with_inline(Kind::Paragraph, &y[..n], &y[..n]))
            }
            None => None,
        };
        let Some(c) = c else { return o.to_vec() };
        let text = slice_from(&self.tokens[c].text, 1).to_vec();
        let used = self.tokens[c].len;
        self.merge(g, &text, &[]);
        if heading.is_some() {
            self.tokens[g].kind = Kind::Heading;
        }
        slice_from(&y, used).to_vec()
    }
}
