//! Frontmatter and `paths:` globs of instruction files (DESIGN §5), as Claude Code 2.1.332 reads
//! them: the frontmatter block is cut from every instruction file; a rule whose `paths:` names
//! anything but `**` is conditional, loaded only when a touched file matches (gitignore style,
//! relative to the folder that holds `.claude`).

use std::path::Path;

use serde::Deserialize;

use crate::glob::Glob;
use crate::js;

/// A file's text without its frontmatter, and its `paths:` globs when it is conditional.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontmatter<'a> {
    pub content: std::borrow::Cow<'a, str>,
    pub paths: Option<Vec<String>>,
}

/// Split frontmatter the way Claude Code does: a byte-order mark is ignored; the block opens
/// with `---` and white space up to a newline at the very start, and closes at the next `---`
/// anywhere (even mid-line), with any white space and one newline after it. Without a match the
/// text is returned as it was, BOM included. YAML that does not parse (even with leading tabs
/// turned into spaces) is dropped all the same, and the rule is then unconditional.
pub fn split_frontmatter(text: &str) -> Frontmatter<'_> {
    let Some((yaml, body)) = frontmatter_block(text) else {
        return Frontmatter {
            content: std::borrow::Cow::Borrowed(text),
            paths: None,
        };
    };
    Frontmatter {
        content: std::borrow::Cow::Borrowed(body),
        paths: parse_paths(yaml),
    }
}

/// The YAML and the body of a file's frontmatter block, a leading byte-order mark ignored;
/// `None` when the text has none (it must open with `---` and hold another `---`).
fn frontmatter_block(text: &str) -> Option<(&str, &str)> {
    let unmarked = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !unmarked.starts_with("---") || !unmarked[3..].contains("---") {
        return None;
    }
    match_block(unmarked)
}

/// `/^---\s*\n([\s\S]*?)---\s*\n?/` (JavaScript `\s`).
fn match_block(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---")?;
    // `\s*\n`: greedy white space, backing off to its last newline.
    let ws_end = rest
        .char_indices()
        .find(|&(_, c)| !js::is_whitespace(c))
        .map_or(rest.len(), |(i, _)| i);
    let newline = rest[..ws_end].rfind('\n')?;
    let yaml_start = 3 + newline + 1;
    let after_open = &text[yaml_start..];
    let close = after_open.find("---")?;
    let yaml = &after_open[..close];
    let mut tail = &after_open[close + 3..];
    // `\s*\n?`: all white space (newlines included) is consumed by `\s*`.
    tail = js::trim_start(tail);
    Some((yaml, tail))
}

#[derive(Deserialize)]
struct PathsOnly {
    paths: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct DescriptionOnly {
    description: Option<serde_json::Value>,
}

/// The `description:` of a file's frontmatter, when it is a string.
pub fn frontmatter_description(text: &str) -> Option<String> {
    let (yaml, _) = frontmatter_block(text)?;
    let parsed: DescriptionOnly = serde_saphyr::from_str(yaml).ok()?;
    match parsed.description? {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    }
}

/// The conditional globs of a frontmatter block: `paths:` as a list or a comma-separated
/// string, braces expanded, a trailing `/**` dropped; `None` when absent or only `**`.
fn parse_paths(yaml: &str) -> Option<Vec<String>> {
    let parsed: Option<PathsOnly> = serde_saphyr::from_str(yaml).ok().or_else(|| {
        let untabbed: String = yaml
            .lines()
            .map(|line| {
                let tabs = line.len() - line.trim_start_matches('\t').len();
                format!("{}{}\n", "  ".repeat(tabs), &line[tabs..])
            })
            .collect();
        serde_saphyr::from_str(&untabbed).ok()
    });
    let value = parsed?.paths?;
    let mut globs = Vec::new();
    collect_globs(&value, &mut globs);
    let globs: Vec<String> = globs
        .into_iter()
        .map(|g| g.strip_suffix("/**").map(str::to_string).unwrap_or(g))
        .filter(|g| !g.is_empty())
        .collect();
    if globs.iter().all(|g| g == "**") {
        None
    } else {
        Some(globs)
    }
}

/// Strings and lists of strings; anything else contributes nothing.
fn collect_globs(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_globs(v, out)),
        serde_json::Value::String(s) => {
            for part in split_top_level_commas(s) {
                out.extend(expand_braces(&part));
            }
        }
        _ => {}
    }
}

/// Split at commas outside braces, trimming each part and dropping empty ones.
fn split_top_level_commas(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// Expand `a{b,c}d` (innermost-first, as Claude Code does), within a budget of 1,000 results;
/// past it the pattern is used unexpanded.
fn expand_braces(pattern: &str) -> Vec<String> {
    const MAX_RESULTS: usize = 1000;
    if !pattern.contains('{') {
        return vec![pattern.to_string()];
    }
    let mut done = Vec::new();
    let mut pending = vec![pattern.to_string()];
    while let Some(p) = pending.pop() {
        let Some((head, alternatives, tail)) = first_brace_group(&p) else {
            done.push(p);
            continue;
        };
        let alternatives: Vec<&str> = alternatives.split(',').map(str::trim).collect();
        if done.len() + pending.len() + alternatives.len() > MAX_RESULTS {
            return vec![pattern.to_string()];
        }
        for alt in alternatives.iter().rev() {
            pending.push(format!("{head}{alt}{tail}"));
        }
    }
    done
}

/// `/^([^{]*)\{([^}]+)\}(.*)$/`: the first `{`, then the first `}` after it.
fn first_brace_group(p: &str) -> Option<(&str, &str, &str)> {
    let open = p.find('{')?;
    let close = open + 1 + p[open + 1..].find('}')?;
    let inner = &p[open + 1..close];
    if inner.is_empty() || p[close + 1..].contains('\n') {
        return None;
    }
    Some((&p[..open], inner, &p[close + 1..]))
}

/// Whether `file` (absolute) matches one of `globs`, gitignore style, relative to `base` (the
/// folder that holds `.claude`). A file outside `base` never matches.
pub fn globs_match(globs: &[String], base: &Path, file: &Path) -> bool {
    let Ok(relative) = file.strip_prefix(base) else {
        return false;
    };
    let relative = relative.to_string_lossy().replace('\\', "/");
    globs.iter().any(|glob| gitignore_match(glob, &relative))
}

/// One gitignore pattern against a relative path: a pattern without a slash (but a trailing
/// one) matches the name at any depth; with one, it is anchored to the base. A match of a
/// folder matches everything under it. A pattern that is not a valid glob matches nothing.
fn gitignore_match(pattern: &str, path: &str) -> bool {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    let (pattern, dir_only) = match pattern.strip_suffix('/') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let anchored = pattern.contains('/');
    let pattern = pattern.strip_prefix('/').unwrap_or(pattern);
    let Ok(glob) = Glob::gitignore(pattern) else {
        return false;
    };
    let parts: Vec<&str> = path.split('/').collect();
    // Every prefix of the path (a folder, or the file itself) can match.
    for end in 1..=parts.len() {
        let candidate = parts[..end].join("/");
        let is_file = end == parts.len();
        if dir_only && is_file {
            continue;
        }
        let hit = if anchored {
            glob.is_match(&candidate)
        } else {
            glob.is_match(parts[end - 1])
        };
        if hit {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_is_cut_like_claude_code() {
        let f = split_frontmatter("---\npaths: src/**/*.rs\n---\nRule.\n");
        assert_eq!(f.content, "Rule.\n");
        assert_eq!(f.paths, Some(vec!["src/**/*.rs".to_string()]));
        // Closed mid-line, and all white space after the closing dashes goes.
        assert_eq!(split_frontmatter("---\na: b---\n\n\nBody").content, "Body");
        assert_eq!(
            split_frontmatter("no frontmatter\n---\n").content,
            "no frontmatter\n---\n"
        );
        assert_eq!(
            split_frontmatter("---\nunclosed\n").content,
            "---\nunclosed\n"
        );
        assert_eq!(split_frontmatter("---\npaths: \"**\"\n---\nx").paths, None);
        assert_eq!(split_frontmatter("---\n: : [bad\n---\nx").content, "x");
    }

    #[test]
    fn paths_lists_commas_and_braces() {
        let f = split_frontmatter("---\npaths:\n  - \"src/*.{ts,tsx}\"\n  - docs/**\n---\nx");
        assert_eq!(
            f.paths,
            Some(vec!["src/*.ts".into(), "src/*.tsx".into(), "docs".into()])
        );
        let f = split_frontmatter("---\npaths: a/*.md, {b,c}/x\n---\nx");
        assert_eq!(
            f.paths,
            Some(vec!["a/*.md".into(), "b/x".into(), "c/x".into()])
        );
    }

    #[test]
    fn gitignore_style_matching() {
        let base = Path::new("/p");
        let m = |g: &str, f: &str| globs_match(&[g.to_string()], base, Path::new(f));
        assert!(m("src/**/*.rs", "/p/src/a/b.rs"));
        assert!(m("src/**/*.rs", "/p/src/b.rs"));
        assert!(!m("src/**/*.rs", "/p/lib/b.rs"));
        assert!(m("*.md", "/p/docs/deep/x.md"));
        assert!(m("docs", "/p/docs/deep/x.md"));
        assert!(!m("/x.md", "/p/a/x.md"));
        assert!(m("a/x.md", "/p/a/x.md"));
        assert!(m("file?.[ch]", "/p/file1.c"));
        assert!(!m("*.md", "/q/x.md"));
    }

    /// Cases checked against the gitignore matcher Claude Code 2.1.332 uses for `paths:` (the
    /// `ignore` package's rules): `**` glued to a name is `*`, braces left after expansion are
    /// literal, a trailing `/` matches folders only, dot files are plain names.
    #[test]
    fn gitignore_edges_match_the_ignore_package() {
        let base = Path::new("/p");
        let m = |g: &str, f: &str| globs_match(&[g.to_string()], base, Path::new(f));
        assert!(m("**.rs", "/p/src/a.rs"));
        assert!(m("src/**.rs", "/p/src/a.rs"));
        assert!(!m("src/**.rs", "/p/src/x/a.rs"));
        assert!(m("*.md", "/p/.hidden.md"));
        assert!(m("docs/", "/p/docs/a.md"));
        assert!(!m("docs/", "/p/docs"));
        assert!(m("{a,b}.md", "/p/{a,b}.md"));
        assert!(!m("{a,b}.md", "/p/a.md"));
        assert!(m("[!a].md", "/p/b.md"));
        assert!(!m("[!a].md", "/p/a.md"));
        assert!(m("src/*", "/p/src/x/y.rs"));
        assert!(!m("a?b", "/p/a/b"));
        // Claude Code's matcher ignores case (`ignorecase` defaults to true); memdir has always
        // matched case-sensitively, and still does.
        assert!(!m("A.md", "/p/a.md"));
    }
}
