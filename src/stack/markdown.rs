//! Placeholder: replaced by the marked-compatible port.

/// The file's text with block-level HTML comments removed, as Claude Code does.
pub fn strip_block_comments(text: &str) -> std::borrow::Cow<'_, str> {
    std::borrow::Cow::Borrowed(text)
}

/// The `@` import candidates in a file's text, in order, deduplicated.
pub fn import_candidates(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        for (i, _) in line.match_indices('@') {
            if i > 0 && !line[..i].ends_with(char::is_whitespace) {
                continue;
            }
            let rest = &line[i + 1..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let mut h = &rest[..end];
            if let Some(hash) = h.find('#') {
                h = &h[..hash];
            }
            if h.is_empty() {
                continue;
            }
            let ok = h.starts_with("./")
                || h.starts_with("~/")
                || (h.starts_with('/') && h != "/")
                || h.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
            if ok && !out.iter().any(|o| o == h) {
                out.push(h.to_string());
            }
        }
    }
    out
}
