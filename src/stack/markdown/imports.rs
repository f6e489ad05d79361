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
        let t = &tokens[id];
        match t.kind {
            Kind::Code | Kind::Codespan => continue,
            Kind::Html => {
                let z = js::trim_start_units(t.raw());
                if starts_at_str(z, 0, "<!--") && contains_str(z, "-->") {
                    let rest = remove_comments(t.raw());
                    if !js::trim_units(&rest).is_empty() {
                        scan_imports(&rest, found);
                    }
                }
                continue;
            }
            Kind::Text => scan_imports(t.text(), found),
            _ => {}
        }
        walk(tokens, id, found, depth + 1);
    }
}

/// `/(?:^|\s)@((?:[^\s\\]|\\ )+)/g` over one string, then Claude Code's filters.
pub(super) fn scan_imports(s: &[u16], found: &mut Imports) {
    let group_end = |mut q: usize| -> usize {
        loop {
            match s.get(q) {
                Some(&c) if c != BACKSLASH && !is_js_space(c as i32) => q += 1,
                Some(&BACKSLASH) if s.get(q + 1) == Some(&SPACE) => q += 2,
                _ => return q,
            }
        }
    };
    // The regex's search: an `@` at the very start, or right after whitespace that lies at
    // or past where the search resumes; then a non-empty run of the path characters.
    let mut from = 0usize;
    loop {
        let mut hit = None;
        let mut q = from;
        while let Some(at_pos) = index_of_unit(s, AT, q) {
            let ok = if at_pos == 0 {
                from == 0
            } else {
                at_pos > from && is_js_space(s[at_pos - 1] as i32)
            };
            if ok {
                let e = group_end(at_pos + 1);
                if e > at_pos + 1 {
                    hit = Some((at_pos + 1, e));
                    break;
                }
            }
            q = at_pos + 1;
        }
        let Some((a, b)) = hit else { break };
        from = b;
        let mut h: &[u16] = &s[a..b];
        if let Some(i) = h.iter().position(|&c| c == HASH) {
            h = &h[..i];
        }
        if h.is_empty() {
            continue;
        }
        let h: Cow<'_, [u16]> = if h.contains(&BACKSLASH) {
            Cow::Owned(replace_all(h, &[BACKSLASH, SPACE], &[SPACE]))
        } else {
            Cow::Borrowed(h)
        };
        if h.is_empty() || !accept_import(&h) || found.seen.contains(h.as_ref()) {
            continue;
        }
        found.seen.insert(h.to_vec());
        found.list.push(utf16_to_string(&h));
    }
}

pub(super) fn accept_import(h: &[u16]) -> bool {
    let starts = |p: &str| starts_at_str(h, 0, p);
    if starts("./") || starts("~/") || (starts("/") && h.len() > 1) {
        return true;
    }
    let c = h[0];
    // `!H.startsWith("@") && !/^[#%^&*()]+/.test(H) && /^[a-zA-Z0-9._-]/.test(H)`
    c < 128 && ((c as u8).is_ascii_alphanumeric() || matches!(c as u8, b'.' | b'_' | b'-'))
}
