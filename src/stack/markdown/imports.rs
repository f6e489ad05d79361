//! The `@path` import candidates: the text tokens a walk of the token tree reaches (never code),
//! scanned with Claude Code's `@` regular expression and filtered as it filters them.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::js;

use super::lexer::MAX_DEPTH;
use super::token::{Kind, Token, children};
use super::utf16::{
    AT, BACKSLASH, HASH, SPACE, contains_str, index_of_unit, is_js_space, remove_comments,
    replace_all, starts_at_str, utf16_to_string,
};

#[derive(Default)]
pub(super) struct Imports {
    pub(super) seen: HashSet<Vec<u16>>,
    pub(super) list: Vec<String>,
}

pub(super) fn walk(tokens: &[Token], owner: usize, found: &mut Imports, depth: usize) {
    if depth > 4 * MAX_DEPTH {
        return;
    }
    for id in children(tokens, owner) {
        let token = &tokens[id];
        match token.kind {
            Kind::Code | Kind::Codespan => continue,
            Kind::Html => {
                let trimmed = js::trim_start_units(token.raw());
                if starts_at_str(trimmed, 0, "<!--") && contains_str(trimmed, "-->") {
                    let rest = remove_comments(token.raw());
                    if !js::trim_units(&rest).is_empty() {
                        scan_imports(&rest, found);
                    }
                }
                continue;
            }
            Kind::Text => scan_imports(token.text(), found),
            _ => {}
        }
        walk(tokens, id, found, depth + 1);
    }
}

/// `/(?:^|\s)@((?:[^\s\\]|\\ )+)/g` over one string, then Claude Code's filters.
pub(super) fn scan_imports(text: &[u16], found: &mut Imports) {
    let group_end = |mut pos: usize| -> usize {
        loop {
            match text.get(pos) {
                Some(&c) if c != BACKSLASH && !is_js_space(c as i32) => pos += 1,
                Some(&BACKSLASH) if text.get(pos + 1) == Some(&SPACE) => pos += 2,
                _ => return pos,
            }
        }
    };
    // The regex's search: an `@` at the very start, or right after whitespace that lies at
    // or past where the search resumes; then a non-empty run of the path characters.
    let mut from = 0usize;
    loop {
        let mut hit = None;
        let mut search_from = from;
        while let Some(at_pos) = index_of_unit(text, AT, search_from) {
            let ok = if at_pos == 0 {
                from == 0
            } else {
                at_pos > from && is_js_space(text[at_pos - 1] as i32)
            };
            if ok {
                let path_stop = group_end(at_pos + 1);
                if path_stop > at_pos + 1 {
                    hit = Some((at_pos + 1, path_stop));
                    break;
                }
            }
            search_from = at_pos + 1;
        }
        let Some((path_start, path_end)) = hit else {
            break;
        };
        from = path_end;
        let mut path: &[u16] = &text[path_start..path_end];
        if let Some(hash) = path.iter().position(|&c| c == HASH) {
            path = &path[..hash];
        }
        if path.is_empty() {
            continue;
        }
        let path: Cow<'_, [u16]> = if path.contains(&BACKSLASH) {
            Cow::Owned(replace_all(path, &[BACKSLASH, SPACE], &[SPACE]))
        } else {
            Cow::Borrowed(path)
        };
        if path.is_empty() || !accept_import(&path) || found.seen.contains(path.as_ref()) {
            continue;
        }
        found.seen.insert(path.to_vec());
        found.list.push(utf16_to_string(&path));
    }
}

pub(super) fn accept_import(path: &[u16]) -> bool {
    let starts = |prefix: &str| starts_at_str(path, 0, prefix);
    if starts("./") || starts("~/") || (starts("/") && path.len() > 1) {
        return true;
    }
    let first = path[0];
    // `!H.startsWith("@") && !/^[#%^&*()]+/.test(H) && /^[a-zA-Z0-9._-]/.test(H)`
    first < 128
        && ((first as u8).is_ascii_alphanumeric() || matches!(first as u8, b'.' | b'_' | b'-'))
}
