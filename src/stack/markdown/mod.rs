//! How Claude Code reads the markdown of an instruction file (DESIGN §5): the block-level HTML
//! comments it strips before the text reaches the model, and the `@path` import candidates it
//! follows.
//!
//! Claude Code 2.1.332 does both over the tokens of its markdown lexer, created as
//! `new Lexer({ gfm: false })`. That lexer is not stock `marked`: the program ships its own
//! linear-time re-implementation of marked's `Lexer`/`Tokenizer` pair, whose tokens match
//! marked 15.0.0–15.0.10 on ordinary text and part from it in corner cases (lazy continuation
//! lines of block quotes and list items, mostly). This module is a port of the parts of that
//! lexer the two outputs depend on, written against the program itself: the fixtures under
//! `fixtures/markdown/` were produced by Claude Code 2.1.332's own lexer and cross-checked
//! against marked 15.0.10 (see `fixtures/markdown/README.md`).
//!
//! Everything works on UTF-16 code units, as JavaScript strings do, so that positions, lengths
//! and character classes come out as they do there. The port is linear in practice: every
//! look-ahead the original caches (closing backticks, `-->`, emphasis closers, setext
//! underlines) is cached the same way here. Nesting deeper than `MAX_DEPTH` (256) containers or
//! inline spans is not lexed further, to keep the stack bounded; the original goes on until its
//! own stack runs out (a few thousand levels, where it fails to load the file), so the two can
//! differ only on text nested deeper than that.
//!
//! The port is cut along the lexer's own seams: [`utf16`] (JavaScript string semantics),
//! [`html`] and [`block`] (the block rules), [`links`] (link definitions and link syntax),
//! [`token`] and [`lexer`] (the token tree and the block driver), [`containers`] and
//! [`list_item`] (block quotes and list items), [`inline`], [`lookahead`] and [`emphasis`] (the
//! inline pass), [`unicode`] (character classes) and [`imports`] (the `@path` scan).
//!
//! The program's lexer is minified JavaScript: its one-letter names (`e` for the rest of the
//! text, `n`, `o`, `h` for positions, …) carry nothing, so the names here say what a value is
//! (`src`, `line_start`, `marker_end`, …), and each recogniser's doc comment quotes the regular
//! expression it stands for. Where the code follows marked's own source, marked's names are
//! kept: the rules of `Method` and `InlineMethod` are its `Tokenizer` methods, and
//! `find_closer` keeps `emStrong`'s `lLength`, `rLength`, `delimTotal` and `midDelimTotal`.

mod block;
mod containers;
mod emphasis;
mod html;
mod imports;
mod inline;
mod lexer;
mod links;
mod list_item;
mod lookahead;
#[cfg(test)]
mod tests;
mod token;
mod unicode;
mod unicode_tables;
mod utf16;

use std::borrow::Cow;

use crate::js;
use imports::{Imports, walk};
use lexer::Lexer;
use token::{ROOT, children};
use utf16::{
    contains_str, js_slice, normalize_newlines, remove_comments, starts_at_str, utf16_to_string,
};

/// The file's text with block-level HTML comments removed, as Claude Code does.
///
/// A top-level HTML block whose source starts with `<!--` and contains `-->` loses every
/// `<!-- … -->` in it, and goes away entirely when only whitespace is left. When anything was
/// removed the result has LF line endings; otherwise the text comes back untouched.
pub fn strip_block_comments(text: &str) -> Cow<'_, str> {
    if !text.contains("<!--") {
        return Cow::Borrowed(text);
    }
    let src = normalize_newlines(text);
    let mut lexer = Lexer::new(src.len(), false);
    lexer.lex(&src);
    let mut out: Vec<u16> = Vec::new();
    let mut taken = 0usize;
    for id in children(&lexer.tokens, ROOT) {
        let tok = &lexer.tokens[id];
        let Some(start) = tok.span else { continue };
        let len = tok.len;
        let trimmed = js::trim_start_units(tok.raw());
        if !(starts_at_str(trimmed, 0, "<!--") && contains_str(trimmed, "-->")) {
            continue;
        }
        let end = start + len;
        let kept = remove_comments(js_slice(&src, start as i64, end as i64));
        out.extend_from_slice(js_slice(&src, taken as i64, start as i64));
        if !js::trim_units(&kept).is_empty() {
            out.extend_from_slice(&kept);
        }
        taken = end;
    }
    if taken == 0 {
        return Cow::Borrowed(text);
    }
    out.extend_from_slice(js_slice(&src, taken as i64, src.len() as i64));
    Cow::Owned(utf16_to_string(&out))
}

/// The `@` import candidates in a file's text, in order, deduplicated.
///
/// These are the raw `@` targets Claude Code accepts (with any `#fragment` cut and `\ `
/// unescaped), before it resolves them against the file's directory; they come from text in
/// paragraphs, headings, list items, block quotes, emphasis and link text, and from what is
/// left of an HTML comment block, never from code.
pub fn import_candidates(text: &str) -> Vec<String> {
    if !text.contains('@') {
        return Vec::new();
    }
    let src = normalize_newlines(text);
    let mut lexer = Lexer::new(src.len(), true);
    lexer.lex(&src);
    lexer.run_inline_queue();
    let mut found = Imports::default();
    walk(&lexer.tokens, ROOT, &mut found, 0);
    found.list
}
