//! Glob matching as Claude Code 2.1.332 does it, on `/`-separated paths, built on the `globset`
//! crate: the one glob engine of memdir.
//!
//! Claude Code matches `claudeMdExcludes` with picomatch (`picomatch(patterns, { dot: true })`,
//! checked in the program's own code), and a rule's `paths:` with a gitignore matcher built like
//! the `ignore` package, after it has expanded braces itself. Both read a glob the same way,
//! which is what [`Glob`] implements:
//!
//! - `*`, `?` and `[…]` never match `/` (globset's `literal_separator`);
//! - `**` as a whole path segment matches any number of segments, none included (`**/x` matches
//!   `x`, `a/**/b` matches `a/b`), and `a/**` also matches `a` itself, as in picomatch; a `**`
//!   glued to other characters (`a**b`, `**.md`) is a plain `*`;
//! - dot files are matched like any other name (`dot: true`): `*` matches `.hidden`;
//! - `{a,b}` is a set of alternatives; a `{` without its `}` (or `{}`) is a literal;
//! - `[abc]`, `[a-z]`, `[!a]` and `[^a]` are classes; a `[` without its `]` is a literal;
//! - `\x` is the character `x`;
//! - case matters; a trailing `/` only matches a path that ends in `/`;
//! - paths with empty segments (`a//b`, a trailing `/`) are not what Claude Code matches (it
//!   passes file paths), and picomatch's answers on them are not reproduced (`/a/*` matches
//!   `/a/` here, not in picomatch);
//! - a leading `./` is ignored, and a leading `!` negates the glob (picomatch's negation).
//!
//! What globset cannot say with its options is said by rewriting the pattern before it is
//! compiled ([`normalize`]): the lone `{` and `{}`, `**` glued to other characters, and the
//! `a/**` that also matches `a`. Not supported (picomatch's extensions beyond globs, which no
//! recorded case uses): extglobs (`+(a|b)`, `@(…)`), regex groups `(a|b)`, POSIX classes
//! (`[[:alpha:]]`) and numeric ranges in braces (`{1..3}`); they are matched literally or as
//! globset reads them.

use globset::{GlobBuilder, GlobMatcher};

/// A pattern that cannot be compiled (an unclosed class, nested braces, …).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad glob {pattern:?}: {reason}")]
pub struct GlobError {
    pub pattern: String,
    pub reason: String,
}

/// One compiled glob.
#[derive(Debug, Clone)]
pub struct Glob {
    /// The pattern as written, and (picomatch) the pattern with a trailing `/**` cut, since
    /// `a/**` also matches `a`.
    matchers: Vec<GlobMatcher>,
    negated: bool,
}

impl Glob {
    /// Compiles `pattern` as picomatch reads it (see the module documentation): what
    /// `claudeMdExcludes` holds.
    pub fn new(pattern: &str) -> Result<Glob, GlobError> {
        let (negated, pattern) = match pattern.strip_prefix('!') {
            Some(rest) if !rest.starts_with('(') => (true, rest),
            _ => (false, pattern),
        };
        let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
        let normalized = normalize(pattern, true);
        let mut matchers = vec![compile(pattern, &normalized)?];
        if let Some(parent) = normalized.strip_suffix("/**")
            && !parent.is_empty()
            && !parent.ends_with('/')
        {
            matchers.push(compile(pattern, parent)?);
        }
        Ok(Glob { matchers, negated })
    }

    /// Compiles one gitignore pattern's glob, as the `ignore` package reads it for a rule's
    /// `paths:`: the same as [`Glob::new`] except that braces, a leading `!` and a leading
    /// `./` are plain characters (Claude Code expands the braces itself, and the anchoring and
    /// folder rules of gitignore are its caller's) and `a/**` does not match `a`. Case matters,
    /// as it always has in memdir, although Claude Code's matcher ignores it by default.
    pub fn gitignore(pattern: &str) -> Result<Glob, GlobError> {
        Ok(Glob {
            matchers: vec![compile(pattern, &normalize(pattern, false))?],
            negated: false,
        })
    }

    /// Whether `path` (`/`-separated) matches.
    #[must_use]
    pub fn is_match(&self, path: &str) -> bool {
        self.matchers.iter().any(|m| m.is_match(path)) != self.negated
    }
}

/// Globs read with [`Glob::new`], compiled once, matched as one: a path matches when any of them
/// does (picomatch given a list). A pattern that does not compile matches nothing.
#[derive(Debug, Clone, Default)]
pub struct Globs(Vec<Glob>);

impl Globs {
    #[must_use]
    pub fn new(patterns: &[String]) -> Globs {
        Globs(
            patterns
                .iter()
                .filter_map(|pattern| Glob::new(pattern).ok())
                .collect(),
        )
    }

    /// Whether `path` (`/`-separated) matches one of the globs.
    #[must_use]
    pub fn is_match(&self, path: &str) -> bool {
        self.0.iter().any(|glob| glob.is_match(path))
    }
}

fn compile(pattern: &str, normalized: &str) -> Result<GlobMatcher, GlobError> {
    GlobBuilder::new(normalized)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(false)
        .build()
        .map(|glob| glob.compile_matcher())
        .map_err(|e| GlobError {
            pattern: pattern.to_string(),
            reason: e.kind().to_string(),
        })
}

/// The pattern rewritten so that globset reads it as picomatch does: a `{` that opens no
/// alternatives (no `}` after it, or `{}`) and a `}` that closes none are escaped (every brace,
/// without `braces`), and so are a `[` that opens no class and a trailing `\`; a `**` glued to anything but `/` or the pattern's
/// ends becomes `*`.
fn normalize(pattern: &str, braces: bool) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 4);
    let mut open_braces = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                match chars.get(i + 1) {
                    Some(&next) => {
                        out.push(c);
                        out.push(next);
                    }
                    None => out.push_str("\\\\"),
                }
                i += 2;
                continue;
            }
            '[' => {
                // `[]…]` and `[!]…]` hold a `]`; the class ends at the next one.
                let first = i + 1 + usize::from(matches!(chars.get(i + 1), Some('!' | '^')));
                match chars
                    .get(first + 1..)
                    .and_then(|rest| rest.iter().position(|&c| c == ']'))
                {
                    Some(len) => {
                        let end = first + 1 + len;
                        out.extend(&chars[i..=end]);
                        i = end + 1;
                    }
                    None => {
                        out.push_str("\\[");
                        i += 1;
                    }
                }
                continue;
            }
            '{' => {
                let closes = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '}')
                    .is_some_and(|len| len > 0);
                if braces && closes {
                    open_braces += 1;
                } else {
                    out.push_str("\\{");
                    i += 1;
                    continue;
                }
            }
            '}' if open_braces == 0 => {
                out.push_str("\\}");
                i += 1;
                continue;
            }
            '}' => open_braces -= 1,
            '*' => {
                let start = i;
                while chars.get(i) == Some(&'*') {
                    i += 1;
                }
                let segment_start = start == 0 || matches!(chars[start - 1], '/' | '{' | ',');
                let segment_end = i == chars.len() || matches!(chars[i], '/' | '}' | ',');
                let whole_segment = segment_start && segment_end;
                out.push_str(if i - start > 1 && whole_segment {
                    "**"
                } else {
                    "*"
                });
                continue;
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(pattern, path, matches)` as picomatch 4 answers `isMatch(path, [pattern], { dot: true })`.
    const PICOMATCH: &[(&str, &str, bool)] = &[
        // dot files
        ("*", ".hidden", true),
        ("**/CLAUDE.md", "/home/u/.claude/CLAUDE.md", true),
        ("/a/*/b", "/a/.x/b", true),
        ("**", "/a/.b/c", true),
        // `**` at the start, the end and in the middle
        ("**/x.md", "x.md", true),
        ("**/x.md", "/a/x.md", true),
        ("**/x.md", "a/b/x.md", true),
        ("**/x.md", "/x.md", true),
        ("a/**", "a", true),
        ("a/**", "a/", true),
        ("a/**", "a/b/c", true),
        ("a/**/b", "a/b", true),
        ("a/**/b", "a/x/y/b", true),
        ("**/rules/**", "/p/.claude/rules/x.md", true),
        ("**/rules/**", "/p/.claude/rules", true),
        (
            "**/.claude/rules/skip/**",
            "/p/.claude/rules/skip/s.md",
            true,
        ),
        // `**` glued to other characters is `*`
        ("a/**b", "a/xb", true),
        ("a/**b", "a/x/b", false),
        ("a**b", "ab", true),
        ("a**b", "a/x/b", false),
        ("**.md", "x.md", true),
        ("**.md", ".md", true),
        // `*` and `?` do not cross `/`
        ("/a/*.md", "/a/b/c.md", false),
        ("*.md", "/a/x.md", false),
        ("/a/*", "/a/b", true),
        ("?", "/", false),
        ("a?b", "a/b", false),
        // brace sets
        ("/a/{b,c}/x", "/a/c/x", true),
        ("/a/{b,c}/x", "/a/d/x", false),
        ("/a/{b,c/d}/x", "/a/c/d/x", true),
        ("{a", "{a", true),
        ("a{}b", "a{}b", true),
        ("a}b", "a}b", true),
        ("/a/{b,{c,d}}/x", "/a/d/x", true),
        // character classes
        ("[abc].md", "b.md", true),
        ("[^a].md", "a.md", false),
        ("[a-c]", "b", true),
        ("[]]", "]", true),
        ("[a", "[a", true),
        ("[a-", "[a-", true),
        // a trailing `/`
        ("/a/b/", "/a/b", false),
        ("/a/b/", "/a/b/", true),
        ("**/rules/", "/p/.claude/rules/x.md", false),
        ("/a/b", "/a/b/", false),
        // case
        ("/A/b", "/a/b", false),
        ("*.MD", "x.md", false),
        // escapes, literals, `./` and negation
        ("a\\*b", "a*b", true),
        ("a\\*b", "axb", false),
        ("a.b", "axb", false),
        ("a$b", "a$b", true),
        ("a^b", "a^b", true),
        ("./a", "a", true),
        ("a//b", "a/b", false),
        ("a\\", "a\\", true),
        ("!x", "y", true),
        ("!**/x.md", "/a/y.md", true),
        ("!**/x.md", "/a/x.md", false),
    ];

    #[test]
    fn matches_like_picomatch() {
        let wrong: Vec<String> = PICOMATCH
            .iter()
            .filter(|&&(pattern, path, want)| {
                Glob::new(pattern).map(|g| g.is_match(path)).ok() != Some(want)
            })
            .map(|(pattern, path, want)| format!("{pattern:?} on {path:?}: want {want}"))
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn gitignore_globs_take_braces_and_bangs_literally() {
        let glob = Glob::gitignore("{a,b}/!x").expect("glob");
        assert!(glob.is_match("{a,b}/!x"));
        assert!(!glob.is_match("a/!x"));
        assert!(Glob::gitignore("!x").expect("glob").is_match("!x"));
        assert!(!Glob::gitignore("a/**").expect("glob").is_match("a"));
        assert!(
            Glob::gitignore("src/**/*.rs")
                .expect("glob")
                .is_match("src/b.rs")
        );
        assert!(Glob::gitignore("*.md").expect("glob").is_match(".md"));
    }

    #[test]
    fn negated_classes() {
        // globset (like the shell and the `ignore` package) negates `[!a]`; picomatch 4 reads
        // `[!a]` differently, a case no recorded Claude Code run covers.
        let glob = Glob::new("[!a].md").expect("glob");
        assert!(glob.is_match("b.md"));
        assert!(!glob.is_match("a.md"));
    }

    #[test]
    fn bad_patterns_are_errors_and_match_nothing() {
        assert!(Glob::new("a[b-a]").is_err());
        assert!(!Globs::new(&["a[b-a]".to_string()]).is_match("ab"));
        let globs = Globs::new(&["a[b-a]".to_string(), "x".to_string(), "*.md".to_string()]);
        assert!(globs.is_match("a.md"));
        assert!(!globs.is_match("a.txt"));
    }
}
