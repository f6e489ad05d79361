//! The claims a memory makes about the project (DESIGN §9): the file paths it names and the code
//! symbols in its code spans, read from its markdown.
//!
//! Extraction is deliberately conservative, because a false "stale" sends a person to delete a
//! good memory while a miss costs nothing: fenced code blocks, URLs, home and environment paths,
//! globs, placeholders (`path/to/foo.rs`), shell commands and flags, plain words, acronyms,
//! product names and library APIs (`std::fs::read`) are never claims; a line that tells of a
//! removal or a rename ("src/old.rs was deleted") is not read; a path without an extension counts
//! only in a code span or with a trailing slash, and is judged only when its first directory
//! exists. Nothing here looks at the project: [`super::project`] does.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// What a memory's text claims about the project.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Claims {
    pub paths: Vec<PathClaim>,
    pub symbols: Vec<SymbolClaim>,
}

/// A file path a memory names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PathClaim {
    /// As written, without a leading `./`, a trailing `/` or a `:line` suffix.
    pub text: String,
    pub kind: PathKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathKind {
    /// Relative, with a directory and a known extension: `src/lib.rs`.
    File,
    /// Relative, with a directory and no extension (`src/review`): judged only when its first
    /// segment is a directory of the project, since `and/or` or `origin/main` are no paths.
    Directory,
    /// A file name alone (`lib.rs`), named in a code span: found anywhere in the project.
    Bare,
    /// An absolute path: judged only when it is inside the project.
    Absolute,
}

/// A code symbol a memory names in a code span.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SymbolClaim {
    /// As written: `Store::open`, `parse_args()`.
    pub written: String,
    /// The identifier searched for: the last segment (`open`, `parse_args`).
    pub term: String,
}

/// Known file extensions: a word with one of these after its last dot is taken for a file name.
#[rustfmt::skip]
const EXTENSIONS: &[&str] = &[
    "rs", "toml", "lock", "md", "mdx", "markdown", "txt", "rst", "adoc", "json", "jsonc",
    "json5", "yaml", "yml", "xml", "ini", "cfg", "conf", "properties", "sql", "sh", "bash",
    "zsh", "fish", "ps1", "bat", "py", "pyi", "ipynb", "rb", "erb", "go", "mod", "sum", "js",
    "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte", "astro", "css", "scss",
    "sass", "less", "html", "htm", "java", "kt", "kts", "scala", "groovy", "gradle", "swift",
    "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "php", "pl", "pm", "lua", "dart", "ex",
    "exs", "erl", "hrl", "hs", "elm", "clj", "cljs", "edn", "ml", "mli", "nim", "zig", "tf",
    "tfvars", "hcl", "proto", "graphql", "gql", "prisma", "nix", "cmake", "mk", "csv", "tsv",
    "svg", "png", "jpg", "jpeg", "gif", "webp", "ico", "pdf", "tex", "bib", "tmpl", "j2",
    "patch", "diff",
];

/// File names that are products, sites or Claude Code's own files, not files of the project,
/// when written alone (compared case-insensitively).
#[rustfmt::skip]
const NOT_PROJECT_FILES: &[&str] = &[
    "docs.rs", "node.js", "next.js", "vue.js", "nuxt.js", "express.js", "three.js", "chart.js",
    "d3.js", "react.js", "angular.js", "ember.js", "backbone.js", "alpine.js", "socket.io",
    "claude.md", "claude.local.md", "memory.md", "settings.json", "settings.local.json",
];

/// Segments that mark an example, not a file of the project (`path/to/foo.rs`).
#[rustfmt::skip]
const PLACEHOLDERS: &[&str] = &[
    "foo", "bar", "baz", "qux", "quux", "xxx", "yyy", "zzz", "example", "file", "filename",
    "something", "name",
];

/// Words with inner capitals that are product names, not symbols of the project.
#[rustfmt::skip]
const PRODUCT_NAMES: &[&str] = &[
    "GitHub", "GitLab", "BitBucket", "JavaScript", "TypeScript", "CoffeeScript", "PostgreSQL",
    "MySQL", "SQLite", "MongoDB", "DynamoDB", "MariaDB", "CockroachDB", "ClickHouse", "GraphQL",
    "OpenAI", "ChatGPT", "YouTube", "LinkedIn", "PowerShell", "macOS", "iOS", "iPadOS",
    "watchOS", "tvOS", "iPhone", "iPad", "VSCode", "LaTeX", "PyPI", "NuGet", "PyTorch",
    "TensorFlow", "NumPy", "SciPy", "FastAPI", "DevOps", "OAuth", "CircleCI", "TravisCI",
    "JetBrains", "IntelliJ", "WebStorm", "PhpStorm", "PyCharm", "DockerHub", "HuggingFace",
    "LangChain", "WordPress", "DigitalOcean", "CloudFlare", "FreeBSD", "OpenBSD", "NixOS",
    "OpenSSL", "OpenSSH", "LibreSSL", "WebAssembly", "WebKit", "YAML", "JSON",
];

/// The first segments of qualified names that belong to a language's or a library's API.
#[rustfmt::skip]
const LIBRARY_ROOTS: &[&str] = &[
    "std", "core", "alloc", "serde", "serde_json", "tokio", "anyhow", "thiserror", "clap", "regex",
    "chrono", "tracing", "log", "futures", "os", "sys", "fs", "path", "io", "fmt", "subprocess",
    "json", "re", "np", "pd", "torch", "JSON", "Math", "Object", "Array", "Promise", "console",
    "process", "window", "document", "React", "Buffer", "Date", "Intl", "Reflect", "Number",
    "Deno", "Bun", "http", "strings", "errors", "time", "context", "sync", "collections",
];

/// Commands whose path arguments name files they create, move or delete: not claims.
#[rustfmt::skip]
const CREATING_COMMANDS: &[&str] = &[
    "touch", "mkdir", "cp", "mv", "ln", "rm", "tee", "echo", "printf", "curl", "wget", "scp",
    "rsync", "git", "install", "unzip", "tar",
];

/// The paths and symbols a memory's text names.
pub fn extract(text: &str) -> Claims {
    let mut claims = Claims::default();
    for piece in pieces(text) {
        match piece {
            Piece::Prose(prose) => {
                claims.paths.extend(prose_paths(prose));
            }
            Piece::Code(code) => code_claims(code, &mut claims),
        }
    }
    // Each claim once, where it first appears.
    let mut seen_paths = HashSet::new();
    claims.paths.retain(|p| seen_paths.insert(p.clone()));
    let mut seen_symbols = HashSet::new();
    claims.symbols.retain(|s| seen_symbols.insert(s.clone()));
    claims
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'a> {
    Prose(&'a str),
    /// The content of an inline code span.
    Code(&'a str),
}

/// A line that says something is gone names it on purpose: "src/old.rs was deleted".
static TELLS_OF_REMOVAL: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b(?:removed|deleted|renamed|no longer|gone|dropped|deprecated|replaced|moved|obsolete|used to|formerly|previously)\b|删除|删掉|移除|重命名|改名|不再|废弃|替换|迁移",
    )
    .expect("a valid literal pattern")
});

/// Whether a line tells of a removal in words (not in a path like `src/gone/`).
fn tells_of_removal(line: &str) -> bool {
    let part_of_a_name = |c: char| matches!(c, '/' | '.' | '_' | '-' | '`');
    TELLS_OF_REMOVAL.find_iter(line).any(|m| {
        !line[..m.start()]
            .chars()
            .next_back()
            .is_some_and(part_of_a_name)
            && !line[m.end()..].chars().next().is_some_and(part_of_a_name)
    })
}

/// Split markdown into prose and inline code spans; fenced code blocks and lines that tell of a
/// removal are dropped (examples, commands and history, not claims).
fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(c) = marker {
            let run = trimmed.chars().take_while(|x| *x == c).count();
            if run >= 3 {
                match fence {
                    None => {
                        fence = Some((c, run));
                        continue;
                    }
                    Some((open, len)) if open == c && run >= len => {
                        fence = None;
                        continue;
                    }
                    Some(_) => {}
                }
            }
        }
        if fence.is_some() || tells_of_removal(line) {
            continue;
        }
        split_code_spans(line, &mut out);
    }
    out
}

/// One line into prose and code spans: a run of n backticks opens a span that the next run of
/// exactly n backticks closes; an unmatched run is prose. Linear in the line's length, whatever
/// the backticks.
fn split_code_spans<'a>(line: &'a str, out: &mut Vec<Piece<'a>>) {
    let bytes = line.as_bytes();
    // Every run of backticks: (start, end).
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let start = i;
            while i < bytes.len() && bytes[i] == b'`' {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    // For each length, the runs of that length in order, and how far they have been consumed.
    let mut by_length: HashMap<usize, (Vec<usize>, usize)> = HashMap::new();
    for (k, (start, end)) in runs.iter().enumerate() {
        by_length.entry(end - start).or_default().0.push(k);
    }
    let mut prose_start = 0;
    let mut k = 0;
    while k < runs.len() {
        let (open_start, open_end) = runs[k];
        let Some((same, cursor)) = by_length.get_mut(&(open_end - open_start)) else {
            k += 1;
            continue;
        };
        while *cursor < same.len() && same[*cursor] <= k {
            *cursor += 1;
        }
        let Some(&close) = same.get(*cursor) else {
            k += 1;
            continue;
        };
        let (close_start, close_end) = runs[close];
        if open_start > prose_start {
            out.push(Piece::Prose(&line[prose_start..open_start]));
        }
        out.push(Piece::Code(&line[open_end..close_start]));
        prose_start = close_end;
        k = close + 1;
    }
    if prose_start < line.len() {
        out.push(Piece::Prose(&line[prose_start..]));
    }
}

/// A character that can be part of a path as memories write them.
fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '+')
}

/// Where a path was written; prose names no bare file (`the README.md` is too often generic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Prose,
    /// A code span that is one word.
    CodeWord,
    /// A word of a code span with several (a command line).
    CodeCommand,
}

/// The paths in prose: runs of path characters, with URLs removed first.
fn prose_paths(prose: &str) -> Vec<PathClaim> {
    let blanked = blank_urls(prose);
    path_runs(&blanked)
        .into_iter()
        .filter_map(|run| classify_run(&run, Origin::Prose))
        .collect()
}

/// URLs (`scheme://…`, `www.…`, `mailto:…`) replaced by spaces. URL characters are ASCII, so
/// the byte offsets of everything else stay put.
fn blank_urls(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut blank = |from: usize, to: usize| {
        for b in &mut out[from..to] {
            *b = b' ';
        }
    };
    let url_end = |from: usize| {
        let mut end = from;
        while end < bytes.len() && bytes[end].is_ascii_graphic() {
            end += 1;
        }
        end
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let at_word_start = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if rest.starts_with("://") {
            let mut start = i;
            while start > 0
                && (bytes[start - 1].is_ascii_alphanumeric()
                    || matches!(bytes[start - 1], b'+' | b'.' | b'-'))
            {
                start -= 1;
            }
            let end = url_end(i);
            blank(start, end);
            i = end;
        } else if at_word_start && (rest.starts_with("www.") || rest.starts_with("mailto:")) {
            let end = url_end(i);
            blank(i, end);
            i = end;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    // Only ASCII bytes were replaced, by ASCII: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// A maximal run of path characters and what surrounds it.
struct PathRun<'a> {
    text: &'a str,
    prev: Option<char>,
    next: Option<char>,
    after_next: Option<char>,
}

/// Maximal runs of path characters, each with the character before it, after it, and after that.
fn path_runs(text: &str) -> Vec<PathRun<'_>> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        if !is_path_char(chars[k].1) {
            k += 1;
            continue;
        }
        let start = k;
        while k < chars.len() && is_path_char(chars[k].1) {
            k += 1;
        }
        let from = chars[start].0;
        let to = chars.get(k).map_or(text.len(), |(i, _)| *i);
        let prev = start.checked_sub(1).map(|p| chars[p].1);
        let next = chars.get(k).map(|(_, c)| *c);
        let after_next = chars.get(k + 1).map(|(_, c)| *c);
        out.push(PathRun {
            text: &text[from..to],
            prev,
            next,
            after_next,
        });
    }
    out
}

/// Whether a run of path characters, given what surrounds it, is a path the memory claims.
fn classify_run(run: &PathRun<'_>, origin: Origin) -> Option<PathClaim> {
    let PathRun {
        text: run,
        prev,
        next,
        after_next,
    } = *run;
    // Home, environment, scoped packages, e-mail and scp addresses, flags' values, Windows paths,
    // placeholders and templates: `~/x`, `$HOME/x`, `@types/x`, `host:x`, `--out=x`, `<dir>/x`.
    if prev.is_some_and(|c| "~$@%\\=<>{}:".contains(c)) {
        return None;
    }
    if next.is_some_and(|c| "~$@%\\=<>{}[(".contains(c)) {
        return None;
    }
    // `src/lib.rs:42` is a line; `host:path` or `file:symbol` is not a path we can judge.
    if next == Some(':')
        && after_next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '/' || c == '.')
        && !after_next.is_some_and(|c| c.is_ascii_digit())
    {
        return None;
    }
    // Globs: `*.rs`, `src/*`, `**/x`, `src/foo*`. Emphasis (`**src/lib.rs**`) is fine.
    if prev == Some('*') && (run.starts_with('.') || run.starts_with('/')) {
        return None;
    }
    if next == Some('*') && (run.ends_with('/') || after_next.is_some_and(is_path_char)) {
        return None;
    }
    // An absolute path glued to punctuation is the tail of something else (`[id]/page.tsx`).
    if run.starts_with('/')
        && prev.is_some_and(|c| c.is_ascii_punctuation() && !"(\"'[*`|,".contains(c))
    {
        return None;
    }
    classify_path(run, origin)
}

/// Whether a word is a path the memory claims, and which kind.
fn classify_path(word: &str, origin: Origin) -> Option<PathClaim> {
    let mut text = word.trim_end_matches('.');
    if text.starts_with('-') || text.contains("//") {
        return None;
    }
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    let written_as_directory = text.ends_with('/');
    let text = text.strip_suffix('/').unwrap_or(text);
    if text.is_empty() || text.contains('*') {
        return None;
    }
    let absolute = text.starts_with('/');
    let segments: Vec<&str> = text.trim_start_matches('/').split('/').collect();
    if segments
        .iter()
        .any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return None;
    }
    let last = *segments.last()?;
    if !last.chars().any(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let lower: Vec<String> = segments.iter().map(|s| s.to_ascii_lowercase()).collect();
    if lower.iter().any(|s| {
        let stem = s.split('.').next().unwrap_or(s);
        PLACEHOLDERS.contains(&stem) || s.starts_with("your") || s.starts_with("my-")
    }) || text.contains("path/to/")
    {
        return None;
    }
    let claim = |kind| {
        Some(PathClaim {
            text: text.to_string(),
            kind,
        })
    };
    if absolute {
        return claim(PathKind::Absolute);
    }
    let has_extension = known_extension(last);
    if segments.len() > 1 {
        // `github.com/org/repo`, `docs.rs/regex`: a host, not a directory.
        if segments[0].get(1..).is_some_and(|rest| rest.contains('.')) {
            return None;
        }
        // Without an extension, prose must mark a directory with its trailing slash: `A/B`,
        // `I/O`, `api/users` are words or routes.
        return if has_extension {
            claim(PathKind::File)
        } else if origin == Origin::CodeWord || (origin == Origin::Prose && written_as_directory) {
            claim(PathKind::Directory)
        } else {
            None
        };
    }
    if origin == Origin::CodeWord
        && has_extension
        && !NOT_PROJECT_FILES.contains(&lower[0].as_str())
        // `Node.js`, `Vue.js`: products, however they are spelled.
        && !(last.ends_with(".js") && last.starts_with(|c: char| c.is_ascii_uppercase()))
    {
        return claim(PathKind::Bare);
    }
    None
}

/// Whether a file name ends in a known extension after a stem with a letter (`lib.rs`,
/// `.eslintrc.json`; not `.rs`, `v1.2` or `e.g`).
fn known_extension(name: &str) -> bool {
    match name.rsplit_once('.') {
        Some((stem, ext)) => {
            stem.chars().any(|c| c.is_ascii_alphabetic()) && EXTENSIONS.contains(&ext)
        }
        None => false,
    }
}

/// The claims of one inline code span.
fn code_claims(code: &str, claims: &mut Claims) {
    let code = code.trim();
    if code.is_empty() || code.contains("://") {
        return;
    }
    let words: Vec<&str> = code.split_whitespace().collect();
    if words.len() > 1 {
        // A command line: only its file paths, and not where a command creates, moves or
        // deletes files (`rm src/old.rs`, `cargo run > out/report.json`).
        let command = if words[0] == "sudo" {
            words[1]
        } else {
            words[0]
        };
        if CREATING_COMMANDS.contains(&command) || words.iter().any(|w| w.contains('>')) {
            return;
        }
        for word in &words {
            if let Some(path) = code_path(word, Origin::CodeCommand)
                && path.kind == PathKind::File
            {
                claims.paths.push(path);
            }
        }
        return;
    }
    if code.starts_with('-') {
        return;
    }
    if let Some(path) = code_path(code, Origin::CodeWord) {
        claims.paths.push(path);
        return;
    }
    if code.contains('/') {
        return;
    }
    if let Some(symbol) = symbol(code) {
        claims.symbols.push(symbol);
    }
}

/// A code span's word as a path: all path characters, after an optional `:line[:col]` or `#L…`.
fn code_path(word: &str, origin: Origin) -> Option<PathClaim> {
    let word = word.trim_matches(|c| matches!(c, '"' | '\''));
    let word = match word.split_once("#L") {
        Some((path, _)) => path,
        None => word,
    };
    let word = strip_line_suffix(word);
    if word.is_empty() || !word.chars().all(is_path_char) {
        return None;
    }
    if !word.contains('/') && !known_extension(word.trim_end_matches('.')) {
        return None;
    }
    classify_path(word, origin)
}

/// `src/lib.rs:42:7` → `src/lib.rs`.
fn strip_line_suffix(word: &str) -> &str {
    let mut word = word;
    for _ in 0..2 {
        match word.rsplit_once(':') {
            Some((head, tail)) if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) => {
                word = head;
            }
            _ => break,
        }
    }
    word
}

/// A code span's word as a symbol: `snake_case`, `camelCase`, `CamelCase` with an inner capital,
/// `fn_name()`, `Type::method`, `value.field_name`; never a plain word, an acronym, a number, a
/// product name or a very short token.
fn symbol(code: &str) -> Option<SymbolClaim> {
    let written = code;
    let mut core = code.trim_start_matches('@');
    core = core.strip_prefix("::").unwrap_or(core);
    core = core.strip_prefix('.').unwrap_or(core);
    let mut called = false;
    if let Some(open) = core.find('(')
        && core.ends_with(')')
    {
        core = &core[..open];
        called = true;
    } else if let Some(name) = core.strip_suffix('!') {
        core = name;
        called = true;
    }
    let by_path = core.contains("::");
    let segments: Vec<&str> = if by_path {
        core.split("::").collect()
    } else {
        core.split('.').collect()
    };
    if !segments.iter().all(|s| is_identifier(s)) {
        return None;
    }
    let term = *segments.last()?;
    let dotted = segments.len() > 1 && !by_path;
    // Very short tokens (`id`, `x_y`) only count when they are called or qualified.
    if term.len() < 3
        || (term.len() == 3 && !called && !by_path)
        || !term.chars().any(|c| c.is_ascii_alphabetic())
    {
        return None;
    }
    let has_lower = term.chars().any(|c| c.is_ascii_lowercase());
    let has_underscore = term.trim_matches('_').contains('_')
        || (term.starts_with('_') && term.len() > 3)
        || term.ends_with("__");
    // An inner capital after a lowercase letter: `parseArgs`, `VerifyArgs`, `HashMap`.
    let camel = term
        .as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let code_looking = (has_underscore && has_lower) || camel;
    // `std::fs::read_to_string`, `fs.readFileSync`: a library's API, which advice may name
    // before the project uses it.
    if segments.len() > 1 && LIBRARY_ROOTS.contains(&segments[0]) {
        return None;
    }
    // `foo_bar`, `fooBaz`: an example.
    if name_parts(term)
        .iter()
        .any(|part| matches!(part.as_str(), "foo" | "baz" | "qux" | "quux"))
    {
        return None;
    }
    let accepted = if !has_lower {
        // `MAX_LEN` or `RUST_LOG`: a constant or someone else's environment variable; judged
        // only when qualified (`Limits::MAX_LEN`).
        by_path && segments.len() > 1
    } else if PRODUCT_NAMES.contains(&term) {
        false
    } else if dotted {
        code_looking || called
    } else {
        code_looking || called || (by_path && segments.len() > 1)
    };
    accepted.then(|| SymbolClaim {
        written: written.to_string(),
        term: term.to_string(),
    })
}

/// The words of an identifier, lower-cased: `parseArgs` and `parse_args` → `parse`, `args`.
fn name_parts(name: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '_' {
            previous_lower = false;
            parts.push(String::new());
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower {
            parts.push(String::new());
        }
        match parts.last_mut() {
            Some(part) => part.push(c.to_ascii_lowercase()),
            None => parts.push(c.to_ascii_lowercase().to_string()),
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    parts.retain(|p| !p.is_empty());
    parts
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests;
