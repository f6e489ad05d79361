//! Containers: block quotes and list items, whose text is lexed as a nested run, and the lazy
//! continuation lines that let a paragraph inside them run on past their markers.

use crate::js;

use super::block::{
    dedent_continuations, ends_in_blank_line, list_marker, list_starts, paragraph_len,
    quote_marker_at, strip_leading_blank, strip_quote_markers,
};
use super::lexer::{Container, Lexer, MAX_DEPTH};
use super::links::{link_definition, normalize_label};
use super::list_item::{
    item_is_last, item_lazy_run, item_lines, item_start, lazy_run, next_item_marker, under_indented,
};
use super::token::Kind;
use super::utf16::{INFINITY, LF, View, concat, js_slice, line_end, slice_from};

impl Lexer {
    pub(super) fn blockquote(&mut self, rest: &View) -> Option<usize> {
        let src = rest.units();
        if !quote_marker_at(src, 0) || self.depth >= MAX_DEPTH {
            return None;
        }
        let first_eol = line_end(src, 0);
        let mut text = strip_quote_markers(&src[..first_eol]);
        let quote = self.block_token(Kind::Blockquote, &[], &[]);
        let container = self.containers.len();
        self.containers.push(Container {
            src: rest.clone(),
            before: Vec::new(),
            end: first_eol,
            taken: 0,
            item: None,
            cut: Vec::new(),
        });
        let more = self.gather(container);
        text.extend_from_slice(&more);
        let text = View::new(text);
        let saved_top = self.top;
        self.top = true;
        self.depth += 1;
        self.block_tokens(text, quote, Some(container));
        self.depth -= 1;
        self.top = saved_top;
        let ctx = &self.containers[container];
        self.tokens[quote].len =
            ctx.before.len() + js_slice(ctx.src.units(), 0, ctx.end as i64).len();
        self.containers.truncate(container);
        Some(quote)
    }

    pub(super) fn list(&mut self, rest: &View) -> Option<usize> {
        let src = rest.units();
        if !list_starts(src) || self.depth >= MAX_DEPTH {
            return None;
        }
        let kind = list_marker(src, 0).map_or(0, |marker_end| src[marker_end - 1]);
        let list = self.block_token(Kind::List, &[], &[]);
        let mut list_before: Vec<u16> = Vec::new();
        let mut list_src = rest.clone();
        let mut list_end = 0usize;
        let mut list_taken = 0usize;
        while let Some(content_start) = next_item_marker(list_src.units(), list_end, kind) {
            let (item, mut content) = item_start(list_src.units(), list_end, content_start);
            let keep = if item_is_last(&item, list_src.units()) {
                js::trim_end_units(&content).len()
            } else {
                content.len()
            };
            let cut = content[keep..].to_vec();
            content.truncate(keep);
            let item_token = self.block_token(Kind::ListItem, &[], &[]);
            self.push_child(list, item_token);
            let container = self.containers.len();
            let stop = item.stop;
            self.containers.push(Container {
                src: list_src.clone(),
                before: Vec::new(),
                end: stop,
                taken: 0,
                item: Some(item),
                cut,
            });
            self.top = false;
            self.depth += 1;
            self.block_tokens(View::new(content), item_token, Some(container));
            self.depth -= 1;
            // (an item's own source is never read again; only the list's length matters)
            let ctx = &self.containers[container];
            let item_end = ctx.item.as_ref().map_or(0, |geometry| geometry.end);
            if !ctx.before.is_empty() {
                list_before.extend_from_slice(&ctx.before);
                list_src = ctx.src.clone();
                list_taken = ctx.taken;
            }
            list_end = item_end;
            self.containers.truncate(container);
        }
        self.last_child(list)?;
        let final_src = list_src.units();
        let keep =
            list_taken.max(js::trim_end_units(js_slice(final_src, 0, list_end as i64)).len());
        self.tokens[list].len = list_before.len() + js_slice(final_src, 0, keep as i64).len();
        Some(list)
    }

    /// The container's next lines: for a block quote the lines that start with `>`, for a
    /// list item the lines indented under it (its geometry updated).
    pub(super) fn gather(&mut self, container: usize) -> Vec<u16> {
        let src = self.containers[container].src.clone();
        let units = src.units();
        let end = self.containers[container].end;
        if let Some(mut item) = self.containers[container].item.take() {
            let whole = !under_indented(units, end + 1, item.indent);
            item.previous.clear();
            let body = if whole {
                units
            } else {
                js_slice(units, 0, end as i64 + 1)
            };
            let mut lines = Vec::new();
            item_lines(&mut item, body, end, &mut lines);
            let kept = if item_is_last(&item, units) {
                js::trim_end_units(&lines)
            } else {
                &lines[..]
            };
            let kept_len = kept.len();
            let ctx = &mut self.containers[container];
            ctx.end = item.stop;
            ctx.cut = lines[kept_len..].to_vec();
            ctx.item = Some(item);
            return lines[..kept_len].to_vec();
        }
        let mut quoted = Vec::new();
        let mut eol = end;
        let mut line_start = eol + 1;
        while quote_marker_at(units, line_start) {
            eol = line_end(units, line_start);
            quoted.push(LF);
            quoted.extend(strip_quote_markers(&units[line_start..eol]));
            line_start = eol + 1;
        }
        self.containers[container].end = eol;
        quoted
    }

    /// Lazy continuation lines for the container `container` (nested in a container when `nested`).
    pub(super) fn lazy_take(&mut self, container: usize, nested: bool) -> Option<Vec<u16>> {
        let ctx = &self.containers[container];
        let units = ctx.src.units();
        let end = ctx.end;
        let found = match &ctx.item {
            None => lazy_run(units, end, nested),
            Some(item) => {
                if !ctx.before.is_empty() && !item.ends_in_blank && !ctx.cut.contains(&LF) {
                    item_lazy_run(units, end, item.indent)
                } else {
                    None
                }
            }
        }?;
        let taken = js_slice(units, end as i64 + 1, found as i64).to_vec();
        let ctx = &mut self.containers[container];
        ctx.end = found;
        ctx.taken = found;
        Some(taken)
    }

    /// When a container's text runs out inside a paragraph, pulls in the lazy continuation
    /// lines that follow it (in it or in the containers around it) and answers the new rest.
    pub(super) fn lazy_lines(&mut self, level: usize) -> View {
        let mut chain: Vec<usize> = vec![level];
        let mut taken_at = 0usize;
        // Every round takes at least one line or returns; the bound only guards against a bug.
        let mut rounds = 0usize;
        loop {
            rounds += 1;
            if rounds > 2 * self.total + 8 {
                return View::new(Vec::new());
            }
            let mut at = taken_at;
            let taken = loop {
                let level_id = chain[at];
                let Some(container) = self.levels[level_id].container else {
                    break None;
                };
                let outer = self.levels[level_id].outer;
                let outer_container = outer.and_then(|i| self.levels[i].container).is_some();
                let taken = self.lazy_take(container, outer_container);
                let ctx = &self.containers[container];
                let stop = taken.is_some()
                    || !outer_container
                    || ctx.end < ctx.src.len()
                    || ctx.item.as_ref().is_some_and(|i| i.ends_in_blank)
                    || ctx.cut.contains(&LF)
                    || outer.is_none_or(|i| !ctx.src.same(&self.levels[i].rest));
                if stop {
                    break taken;
                }
                let Some(next) = outer else { break None };
                at += 1;
                if at < chain.len() {
                    chain[at] = next;
                } else {
                    chain.push(next);
                }
            };
            let mut pending: Vec<u16> = Vec::new();
            let mut gathered: Vec<u16> = Vec::new();
            if let Some(lines) = &taken {
                taken_at = at;
                let Some(container) = self.levels[chain[taken_at]].container else {
                    return View::new(Vec::new());
                };
                pending = concat(&self.containers[container].cut, &[LF]);
                pending.extend_from_slice(lines);
                // (the container's token text grows by `y + k` in the original; it is not read
                // again, its nested lexing having started from a copy)
                gathered = self.gather(container);
            }
            while !gathered.is_empty() || taken.is_none() {
                let level_id = chain[taken_at];
                if !self.levels[level_id].owed.is_empty() {
                    let owed = std::mem::take(&mut self.levels[level_id].owed);
                    pending = concat(&owed, &pending);
                }
                if taken_at == 0 {
                    let new_rest = if pending.is_empty() {
                        Vec::new()
                    } else {
                        self.continue_paragraph(level, &pending, &gathered)
                    };
                    let last = self.last_child(self.levels[level].owner);
                    if !new_rest.is_empty()
                        || taken.is_none()
                        || !self.is_para_or_text(last)
                        || ends_in_blank_line(&gathered)
                    {
                        return View::new(new_rest);
                    }
                    pending.clear();
                    break;
                }
                if !pending.is_empty() {
                    let Some(inner) = self.levels[chain[taken_at - 1]].container else {
                        return View::new(Vec::new());
                    };
                    if let Some(item) = &self.containers[inner].item
                        && !gathered.is_empty()
                        && let Some(lazy_end) = item_lazy_run(&gathered, 0, item.indent)
                    {
                        let lazy_end = lazy_end.min(gathered.len());
                        pending.extend_from_slice(&gathered[..lazy_end]);
                        gathered = gathered[lazy_end..].to_vec();
                    }
                    let rest = self.levels[level_id].rest.clone();
                    self.levels[level_id].passed.extend_from_slice(rest.units());
                    self.containers[inner]
                        .before
                        .extend_from_slice(rest.units());
                    let joined = View::new(if gathered.is_empty() {
                        pending.clone()
                    } else {
                        concat(&pending, &gathered)
                    });
                    self.containers[inner].src = joined.clone();
                    self.levels[level_id].rest = joined;
                    self.containers[inner].end = pending.len();
                    self.containers[inner].taken = pending.len();
                    if !self.containers[inner].cut.is_empty() {
                        pending = concat(&self.containers[inner].cut, &pending);
                    }
                    gathered = self.gather(inner);
                }
                taken_at -= 1;
            }
            let level_id = chain[taken_at];
            self.levels[level_id].owed.extend_from_slice(&pending);
        }
    }

    /// Adds lazy continuation text `lazy` to the level's last paragraph (or starts one), then
    /// sees whether what follows (`following`) continues it or makes it a setext heading; answers the
    /// level's new rest.
    pub(super) fn continue_paragraph(
        &mut self,
        level: usize,
        lazy: &[u16],
        following: &[u16],
    ) -> Vec<u16> {
        let owner = self.levels[level].owner;
        let last = self.last_child(owner);
        self.no_setext_until = INFINITY;
        let paragraph = match last {
            Some(token) if self.is_para_or_text(Some(token)) => {
                let text = if self.tokens[token].kind == Kind::Text {
                    dedent_continuations(lazy)
                } else {
                    lazy.to_vec()
                };
                self.merge(token, &text, &[]);
                token
            }
            _ => {
                let mut lines: Vec<u16> = strip_leading_blank(lazy).to_vec();
                while self.levels[level].has_text {
                    let Some((len, label)) = link_definition(&lines) else {
                        break;
                    };
                    self.links.insert(normalize_label(&label));
                    lines = strip_leading_blank(&lines[len.min(lines.len())..]).to_vec();
                }
                if lines.is_empty() {
                    return following
                        .iter()
                        .copied()
                        .skip_while(|&continuation| continuation == LF)
                        .collect();
                }
                let (kind, text) = if self.top {
                    (Kind::Paragraph, lines.clone())
                } else {
                    (Kind::Text, dedent_continuations(&lines))
                };
                let token = self.token_with_inline(kind, &lines, &text);
                self.push_child(owner, token);
                token
            }
        };
        self.levels[level].paragraph_open = true;
        if following.is_empty() {
            return Vec::new();
        }
        let probe = concat(&[b'x' as u16], following);
        let is_rest = self.block_rest.as_ref().is_some_and(|block_rest| {
            block_rest.len() == probe.len() && block_rest.units() == &probe[..]
        });
        let heading = self.setext(&probe, is_rest);
        let continuation = match heading {
            Some(heading_token) => Some(heading_token),
            None if self.tokens[paragraph].kind == Kind::Paragraph => {
                let len = paragraph_len(&probe);
                (len > 0)
                    .then(|| self.token_with_inline(Kind::Paragraph, &probe[..len], &probe[..len]))
            }
            None => None,
        };
        let Some(continuation) = continuation else {
            return following.to_vec();
        };
        let text = slice_from(&self.tokens[continuation].text, 1).to_vec();
        let used = self.tokens[continuation].len;
        self.merge(paragraph, &text, &[]);
        if heading.is_some() {
            self.tokens[paragraph].kind = Kind::Heading;
        }
        slice_from(&probe, used).to_vec()
    }
}
