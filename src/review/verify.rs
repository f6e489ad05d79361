//! Checking memories against the project as it is now (DESIGN §9: memory is a clue, not a fact).
//!
//! A memory's description and body are read for two kinds of claim: the file paths it names and
//! the code symbols in its code spans. A path must exist; a symbol must still occur somewhere in
//! the project. A memory with a claim that fails is stale, and the evidence says which claim.
//!
//! Extraction is deliberately conservative, because a false "stale" sends a person to delete a
//! good memory while a miss costs nothing: fenced code blocks, URLs, home and environment paths,
//! globs, placeholders (`path/to/foo.rs`), shell commands and flags, plain words, acronyms,
//! product names and library APIs (`std::fs::read`) are never claims; a line that tells of a
//! removal or a rename ("src/old.rs was deleted") is not read; a path without an extension counts
//! only in a code span or with a trailing slash, and is judged only when its first directory
//! exists.
//!
//! Where the project is looked at:
//! - paths: the work tree, relative to the repository's root and to the project dir (an
//!   untracked or ignored file that is there counts as there), and the tracked files by their
//!   trailing segments, so `verify.rs` or `cli/verify.rs` is found at `src/cli/verify.rs`;
//! - symbols: the content of the files the repository's index tracks (read with gix), in one pass
//!   over the files with one pattern for every symbol. Untracked files (build output, vendored
//!   copies) are not searched. Without a repository, the project dir is walked instead, skipping
//!   `.git`, `node_modules`, `target` and hidden directories.
//!
//! Nothing is changed anywhere.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::bytes::{Regex, RegexBuilder};

use crate::Error;
use crate::memory::catalog::{FileProblem, list_memories};
use crate::repo::{TrackedFile, tracked_files};

/// Files larger than this are not searched for symbols (generated bundles, data).
pub const MAX_SEARCHED_FILE_BYTES: u64 = 2 * 1024 * 1024;
/// A project dir that is no git repository is walked up to this many files; past it, a symbol
/// that was not found is not judged.
pub const MAX_WALKED_FILES: usize = 50_000;
/// A file with a NUL byte in its first this-many bytes is binary (as git and ripgrep decide).
const BINARY_PROBE_BYTES: usize = 8000;
/// Symbols per compiled pattern: one alternation stays well within the regex size limit.
const TERMS_PER_PATTERN: usize = 2000;

/// One memory to verify: its name and the text whose claims are checked (description and body).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    pub name: String,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every path it names exists and every symbol it names is found.
    Ok,
    /// A path it names is missing or a symbol it names is found nowhere.
    Stale,
    /// It names no path or symbol that can be checked.
    NothingToCheck,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Stale => "stale",
            Status::NothingToCheck => "nothing_to_check",
        }
    }
}

/// What verification found for one memory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    pub name: String,
    pub status: Status,
    /// One sentence per failed claim, e.g. ``names src/parse.rs, which does not exist``.
    pub evidence: Vec<String>,
    /// The paths that were checked, as the memory writes them (`./` and `:line` dropped).
    pub paths: Vec<String>,
    /// The symbols that were checked, as the memory writes them (`Store::open`, `parse()`).
    pub symbols: Vec<String>,
}

/// Verification of many memories, with how much of the project was searched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub verdicts: Vec<Verdict>,
    /// Text files searched for symbols (0 when no memory names a symbol).
    pub checked_files: usize,
    /// False when the walk of a project that is no git repository stopped at
    /// [`MAX_WALKED_FILES`]; symbols not found were then not judged.
    pub complete: bool,
}

/// Check each memory against the project at `project` (DESIGN §9).
pub fn verify(project: &Path, memories: &[Subject]) -> Result<Vec<Verdict>, Error> {
    Ok(verify_report(project, memories)?.verdicts)
}

/// Every memory in `memory_dir` (index order) as a subject: its description, then its body;
/// and the files that could not be read as memories. A missing memory dir has none.
pub fn subjects(memory_dir: &Path) -> Result<(Vec<Subject>, Vec<FileProblem>), Error> {
    let listing = list_memories(memory_dir)?;
    let subjects = listing
        .memories
        .into_iter()
        .map(|memory| Subject {
            text: match &memory.description {
                Some(d) => format!("{d}\n\n{}", memory.body),
                None => memory.body,
            },
            name: memory.name,
        })
        .collect();
    Ok((subjects, listing.problems))
}

/// [`verify`], with the number of files searched.
pub fn verify_report(project: &Path, memories: &[Subject]) -> Result<Report, Error> {
    if !project.is_dir() {
        return Err(Error::Usage(format!(
            "the project {} is not a directory",
            project.display()
        )));
    }
    let claims: Vec<Claims> = memories.iter().map(|m| extract(&m.text)).collect();
    let tree = ProjectTree::open(project);

    let presence = tree.presence(claims.iter().flat_map(|c| &c.paths));
    let terms: Vec<&str> = claims
        .iter()
        .flat_map(|c| c.symbols.iter().map(|s| s.term.as_str()))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let search = tree.search(&terms)?;
    let where_searched = if tree.from_index {
        "tracked"
    } else {
        "project"
    };

    let verdicts = memories
        .iter()
        .zip(&claims)
        .map(|(memory, claims)| {
            let mut verdict = Verdict {
                name: memory.name.clone(),
                status: Status::NothingToCheck,
                evidence: Vec::new(),
                paths: Vec::new(),
                symbols: Vec::new(),
            };
            for path in &claims.paths {
                let Some(exists) = presence.get(path).copied().flatten() else {
                    continue;
                };
                verdict.paths.push(path.text.clone());
                if !exists {
                    verdict
                        .evidence
                        .push(format!("names {}, which does not exist", path.text));
                }
            }
            for symbol in &claims.symbols {
                let found = search.found.contains(symbol.term.as_str());
                if !found && !tree.complete {
                    continue;
                }
                verdict.symbols.push(symbol.written.clone());
                if !found {
                    let n = search.files;
                    let files = if n == 1 { "file" } else { "files" };
                    verdict.evidence.push(format!(
                        "`{}` is not found in any of {n} {where_searched} {files}",
                        symbol.written
                    ));
                }
            }
            verdict.status = if !verdict.evidence.is_empty() {
                Status::Stale
            } else if verdict.paths.is_empty() && verdict.symbols.is_empty() {
                Status::NothingToCheck
            } else {
                Status::Ok
            };
            verdict
        })
        .collect();
    Ok(Report {
        verdicts,
        checked_files: search.files,
        complete: tree.complete,
    })
}

// ---------------------------------------------------------------------------------------------
// Extraction

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

// ---------------------------------------------------------------------------------------------
// The project

/// The project's files: from its repository's index, or a walk.
struct ProjectTree {
    /// The repository's work tree, or the project dir.
    root: PathBuf,
    project: PathBuf,
    files: Vec<TrackedFile>,
    from_index: bool,
    complete: bool,
}

/// What one pass over the files found.
struct Search<'a> {
    found: HashSet<&'a str>,
    files: usize,
}

impl ProjectTree {
    fn open(project: &Path) -> ProjectTree {
        let project = project.to_path_buf();
        if let Some((root, files)) = tracked_files(&project)
            && !files.is_empty()
        {
            return ProjectTree {
                root,
                project,
                files,
                from_index: true,
                complete: true,
            };
        }
        // No repository, or one that tracks nothing yet: the files that are there.
        let (files, complete) = walk(&project);
        ProjectTree {
            root: project.clone(),
            project,
            files,
            from_index: false,
            complete,
        }
    }

    /// For each path claim, whether it exists; `None` when it is not judged (an absolute path
    /// outside the project, a directory-like path whose first segment is no directory).
    fn presence<'c>(
        &self,
        claims: impl Iterator<Item = &'c PathClaim>,
    ) -> HashMap<&'c PathClaim, Option<bool>> {
        let claims: Vec<&PathClaim> = claims.collect();
        let wanted: HashSet<&str> = claims
            .iter()
            .filter(|c| c.kind != PathKind::Absolute)
            .map(|c| c.text.as_str())
            .collect();
        let in_files = self.segment_ranges(&wanted);
        let bases = self.bases();
        let in_tree = |rel: &str| {
            bases
                .iter()
                .any(|base| std::fs::symlink_metadata(base.join(rel)).is_ok())
        };
        let mut out = HashMap::new();
        for claim in claims {
            let verdict = match claim.kind {
                PathKind::Absolute => self
                    .inside(Path::new(&claim.text))
                    .then(|| std::fs::symlink_metadata(&claim.text).is_ok()),
                PathKind::Directory => {
                    let first = claim.text.split('/').next().unwrap_or_default();
                    bases
                        .iter()
                        .any(|base| base.join(first).is_dir())
                        .then(|| in_files.contains(claim.text.as_str()) || in_tree(&claim.text))
                }
                PathKind::File | PathKind::Bare => {
                    Some(in_files.contains(claim.text.as_str()) || in_tree(&claim.text))
                }
            };
            out.insert(claim, verdict);
        }
        out
    }

    /// The directories relative paths are read from: the repository's root and the project dir.
    fn bases(&self) -> Vec<&Path> {
        let mut bases = vec![self.root.as_path()];
        if self.project != self.root {
            bases.push(&self.project);
        }
        bases
    }

    /// Whether an absolute path lies inside the repository or the project dir (as given or
    /// canonical).
    fn inside(&self, path: &Path) -> bool {
        self.bases().iter().any(|base| {
            path.starts_with(base)
                || base
                    .canonicalize()
                    .is_ok_and(|canonical| path.starts_with(canonical))
        })
    }

    /// Which wanted paths match a run of whole segments of some file's path: a file by its
    /// trailing segments (`cli/verify.rs` in `src/cli/verify.rs`), a directory by any
    /// (`src/cli`, `cli`).
    fn segment_ranges<'w>(&self, wanted: &HashSet<&'w str>) -> HashSet<&'w str> {
        let mut found = HashSet::new();
        if wanted.is_empty() {
            return found;
        }
        let mut starts = Vec::new();
        let mut ends = Vec::new();
        for file in &self.files {
            let path = file.path.as_str();
            starts.clear();
            ends.clear();
            starts.push(0);
            for (i, b) in path.bytes().enumerate() {
                if b == b'/' {
                    ends.push(i);
                    starts.push(i + 1);
                }
            }
            ends.push(path.len());
            for &s in &starts {
                for &e in ends.iter().filter(|e| **e > s) {
                    if let Some(hit) = wanted.get(&path[s..e]) {
                        found.insert(*hit);
                    }
                }
            }
        }
        found
    }

    /// One pass over the searchable files for every term at once, the files split between a few
    /// threads.
    fn search<'t>(&self, terms: &[&'t str]) -> Result<Search<'t>, Error> {
        let mut search = Search {
            found: HashSet::new(),
            files: 0,
        };
        if terms.is_empty() {
            return Ok(search);
        }
        let mut sorted: Vec<&str> = terms.to_vec();
        sorted.sort_unstable();
        let patterns = sorted
            .chunks(TERMS_PER_PATTERN)
            .map(symbol_pattern)
            .collect::<Result<Vec<Regex>, Error>>()?;
        let by_bytes: HashMap<&[u8], &'t str> = terms.iter().map(|t| (t.as_bytes(), *t)).collect();
        let files: Vec<&TrackedFile> = self.files.iter().filter(|f| f.is_file).collect();
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_SEARCH_THREADS)
            .min(files.len().div_ceil(FILES_PER_THREAD))
            .max(1);
        let part = files.len().div_ceil(threads).max(1);
        let parts: Vec<std::thread::Result<Search<'t>>> = std::thread::scope(|scope| {
            let workers: Vec<_> = files
                .chunks(part)
                .map(|files| {
                    let (patterns, by_bytes) = (&patterns, &by_bytes);
                    scope.spawn(move || search_files(&self.root, files, patterns, by_bytes))
                })
                .collect();
            workers.into_iter().map(|w| w.join()).collect()
        });
        for part in parts {
            let part =
                part.map_err(|_| Error::Failed("the search for symbols stopped".to_string()))?;
            search.files += part.files;
            search.found.extend(part.found);
        }
        Ok(search)
    }
}

/// At most this many threads read and search the project's files.
const MAX_SEARCH_THREADS: usize = 8;
/// A thread is worth starting for this many files.
const FILES_PER_THREAD: usize = 128;

/// Search some files of the project for every term.
fn search_files<'t>(
    root: &Path,
    files: &[&TrackedFile],
    patterns: &[Regex],
    by_bytes: &HashMap<&[u8], &'t str>,
) -> Search<'t> {
    let mut search = Search {
        found: HashSet::new(),
        files: 0,
    };
    let mut buffer = Vec::new();
    for file in files {
        if !read_text(&root.join(&file.path), &mut buffer) {
            continue;
        }
        search.files += 1;
        if search.found.len() == by_bytes.len() {
            // Everything is found; the rest are only counted.
            continue;
        }
        for pattern in patterns {
            for m in pattern.find_iter(&buffer) {
                if let Some(term) = by_bytes.get(m.as_bytes()) {
                    search.found.insert(*term);
                }
            }
        }
    }
    search
}

/// `\b(?:a|b|…)\b` over bytes, with ASCII word boundaries (which the fast engines support on any
/// input, unlike Unicode ones).
fn symbol_pattern(terms: &[&str]) -> Result<Regex, Error> {
    let alternation = terms
        .iter()
        .map(|t| regex::escape(t))
        .collect::<Vec<_>>()
        .join("|");
    RegexBuilder::new(&format!(r"(?-u:\b)(?:{alternation})(?-u:\b)"))
        .unicode(false)
        .size_limit(64 * 1024 * 1024)
        .dfa_size_limit(64 * 1024 * 1024)
        .build()
        .map_err(|e| Error::Failed(format!("cannot build the symbol search: {e}")))
}

/// Read a regular text file of at most [`MAX_SEARCHED_FILE_BYTES`] into `buffer`; false for
/// anything else (gone, a symlink now, too large, binary, unreadable).
fn read_text(path: &Path, buffer: &mut Vec<u8>) -> bool {
    buffer.clear();
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.is_file() || meta.len() > MAX_SEARCHED_FILE_BYTES {
        return false;
    }
    // Opened non-blocking and checked again on the handle: a file swapped for a FIFO since the
    // look above cannot hang the search.
    let Ok(file) = crate::input::open_regular(path, MAX_SEARCHED_FILE_BYTES) else {
        return false;
    };
    if file
        .take(MAX_SEARCHED_FILE_BYTES + 1)
        .read_to_end(buffer)
        .is_err()
        || buffer.len() as u64 > MAX_SEARCHED_FILE_BYTES
    {
        return false;
    }
    !buffer[..buffer.len().min(BINARY_PROBE_BYTES)].contains(&0)
}

/// The files under a project dir that is no repository, without following symlinks, skipping
/// `.git`, `node_modules`, `target` and hidden directories; false when it stopped at
/// [`MAX_WALKED_FILES`].
fn walk(project: &Path) -> (Vec<TrackedFile>, bool) {
    let mut files = Vec::new();
    let mut stack = vec![(project.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let rel = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            if kind.is_dir() {
                if !(name.starts_with('.') || name == "node_modules" || name == "target") {
                    stack.push((entry.path(), rel));
                }
                continue;
            }
            if files.len() == MAX_WALKED_FILES {
                return (files, false);
            }
            files.push(TrackedFile {
                path: rel,
                is_file: kind.is_file(),
            });
        }
    }
    (files, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<(String, PathKind)> {
        extract(text)
            .paths
            .into_iter()
            .map(|p| (p.text, p.kind))
            .collect()
    }

    fn symbols(text: &str) -> Vec<String> {
        extract(text).symbols.into_iter().map(|s| s.term).collect()
    }

    fn file(p: &str) -> (String, PathKind) {
        (p.to_string(), PathKind::File)
    }

    #[test]
    fn paths_in_prose() {
        assert_eq!(
            paths("The parser lives in src/parse.rs, see docs/setup.md."),
            vec![file("src/parse.rs"), file("docs/setup.md")]
        );
        assert_eq!(
            paths("Edit ./src/lib.rs:42 first"),
            vec![file("src/lib.rs")]
        );
        assert_eq!(
            paths("Config is in **config/app.toml** and (scripts/run.sh)"),
            vec![file("config/app.toml"), file("scripts/run.sh")]
        );
        assert_eq!(
            paths("the review code is under src/review/"),
            vec![("src/review".to_string(), PathKind::Directory)]
        );
        assert_eq!(
            paths("配置在src/config.rs里，文档在 docs/setup.md。"),
            vec![file("src/config.rs"), file("docs/setup.md")]
        );
        assert_eq!(
            paths("see /work/proj/src/lib.rs"),
            vec![("/work/proj/src/lib.rs".to_string(), PathKind::Absolute)]
        );
        assert_eq!(paths("| src/a.rs | the entry |"), vec![file("src/a.rs")]);
        assert_eq!(
            paths("[the guide](docs/guide.md#install)"),
            vec![file("docs/guide.md")]
        );
    }

    #[test]
    fn not_paths_in_prose() {
        for text in [
            "See https://example.com/docs/setup.md for details",
            "www.example.com/a/b.md",
            "mail me: mailto:a@b.com",
            "Settings go in ~/.claude/settings.json",
            "$HOME/.config/app.toml and ${XDG}/x.json",
            "Install @types/node and lodash@4.17.21",
            "git@github.com:org/repo.git",
            "Run with --config=config/dev.toml",
            "All *.rs files, src/**/*.ts and src/*.md and lib/foo*.rs",
            "v1.2 and 3.14, e.g. this, i.e. that, etc.",
            "read/write access, and/or, 2024/03/05, 1/2",
            "We use Node.js and Vue.js; see github.com/org/repo/blob/main/src/lib.rs",
            "a path/to/file.rs or foo/bar.rs or src/<name>.rs or app/[id]/page.tsx",
            "the README.md and lib.rs and Cargo.toml in prose",
            "C:\\Users\\me\\file.txt",
            "../other/project/x.rs",
            "-o/dev/null",
            "/usr/local/bin/tool",
        ] {
            let found = paths(text);
            assert!(
                found
                    .iter()
                    .all(|(_, k)| *k == PathKind::Absolute || *k == PathKind::Directory),
                "{text:?} → {found:?}"
            );
            // Directory-like words are only candidates; `and/or` is judged by whether `and` is a
            // directory of the project (it is not), which the integration tests cover.
        }
        assert_eq!(
            paths("/usr/local/bin/tool"),
            vec![("/usr/local/bin/tool".to_string(), PathKind::Absolute)]
        );
        assert!(
            paths("read/write and 2024/03/05")
                .iter()
                .all(|(p, _)| p == "read/write")
        );
    }

    #[test]
    fn paths_in_code_spans() {
        assert_eq!(paths("see `src/lib.rs:10:3`"), vec![file("src/lib.rs")]);
        assert_eq!(
            paths("edit `lib.rs` and `package.json` and `.eslintrc.json`"),
            vec![
                ("lib.rs".to_string(), PathKind::Bare),
                ("package.json".to_string(), PathKind::Bare),
                (".eslintrc.json".to_string(), PathKind::Bare),
            ]
        );
        assert_eq!(
            paths("run `python scripts/migrate.py --dry-run` or `./bin/setup.sh --fast`"),
            vec![file("scripts/migrate.py"), file("bin/setup.sh")]
        );
        assert_eq!(
            paths("`src/review`"),
            vec![("src/review".to_string(), PathKind::Directory)]
        );
        for text in [
            "`rm src/old.rs`",
            "`cargo run > out/report.json`",
            "`touch notes/new.md`",
            "`https://example.com/a.md`",
            "`~/.claude/CLAUDE.md`",
            "`Node.js`",
            "`docs.rs`",
            "`MEMORY.md`",
            "`settings.json`",
            "`src/*.rs`",
            "`npm run lint`",
            "`--full-refresh`",
            "`origin/main docs`",
        ] {
            assert_eq!(paths(text), vec![], "{text}");
        }
    }

    #[test]
    fn lines_that_tell_of_a_removal_are_not_read() {
        let text = "src/parse.rs was removed; `parse_argv` is renamed.\n\
                    旧的 src/old.rs 已删除。\n\
                    Keep docs/setup.md, src/gone/ and `parse_args` and `gone_fn`.";
        assert_eq!(
            paths(text),
            vec![
                file("docs/setup.md"),
                ("src/gone".to_string(), PathKind::Directory)
            ]
        );
        assert_eq!(symbols(text), vec!["parse_args", "gone_fn"]);
    }

    #[test]
    fn fenced_blocks_are_not_read() {
        let text = "Build with:\n```sh\ncat src/gone.rs\nparse_args()\n```\nand `real_fn` too";
        assert_eq!(paths(text), vec![]);
        assert_eq!(symbols(text), vec!["real_fn"]);
        let tilde = "~~~\n`inside_fence`\n~~~\n";
        assert_eq!(symbols(tilde), Vec::<String>::new());
    }

    #[test]
    fn symbols_in_code_spans() {
        assert_eq!(
            symbols(
                "Use `parse_args` then `VerifyArgs`, `parseArgs`, `run()`, `Store::open`, \
                 `self.memory_dir`, `Limits::MAX_LEN`, `__init__`, `println!`, `@lru_cache`, \
                 `.to_json()`"
            ),
            vec![
                "parse_args",
                "VerifyArgs",
                "parseArgs",
                "run",
                "open",
                "memory_dir",
                "MAX_LEN",
                "__init__",
                "println",
                "lru_cache",
                "to_json"
            ]
        );
        assert_eq!(
            extract("`Type::method`").symbols,
            vec![SymbolClaim {
                written: "Type::method".into(),
                term: "method".into()
            }]
        );
    }

    #[test]
    fn not_symbols() {
        for text in [
            "`npm run lint`",
            "`--full-refresh`",
            "`-v`",
            "`cargo`",
            "`parse`",
            "`Config`",
            "`README`",
            "`RUST_LOG`",
            "`JSON`",
            "`TypeScript` and `GitHub` and `macOS`",
            "`42`",
            "`v1.2`",
            "`e.g.`",
            "`ab`",
            "`x_y`",
            "`example.com`",
            "`os.path`",
            "`Vec<String>`",
            "`let x = foo()`",
            "`#[derive(Debug)]`",
            "`a == b`",
            "`foo::bar::*`",
            "`foo_bar` and `fooBaz()` and `FooBar`",
            "`std::fs::read_to_string` and `fs.readFileSync()` and `JSON.parse()`",
            "parse_args in plain prose is not a span",
            "规范：提交前运行测试，不要直接推送到主分支。",
        ] {
            assert_eq!(symbols(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn identifier_words() {
        assert_eq!(name_parts("parseArgs"), vec!["parse", "args"]);
        assert_eq!(name_parts("parse_args"), vec!["parse", "args"]);
        assert_eq!(name_parts("HTTPServer2go"), vec!["httpserver2go"]);
        assert_eq!(name_parts("__init__"), vec!["init"]);
        assert_eq!(name_parts("FooBar"), vec!["foo", "bar"]);
    }

    #[test]
    fn code_spans_with_double_backticks() {
        assert_eq!(symbols("``a `b` c`` and `real_name`"), vec!["real_name"]);
        assert_eq!(
            symbols("`one` `` `two_fn` ``` `three_fn`"),
            vec!["two_fn", "three_fn"]
        );
        // Many unmatched runs stay fast.
        let line = "`a``b".repeat(20_000);
        assert_eq!(extract(&line).symbols.len(), 0);
        assert_eq!(
            symbols("an unmatched ` backtick and parse_args"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn status_from_claims() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::write(root.join("src/lib.rs"), "pub fn parse_args() {}\n").expect("write");
        std::fs::write(root.join("blob.bin"), b"gone_symbol\0").expect("write");
        let subject = |name: &str, text: &str| Subject {
            name: name.into(),
            text: text.into(),
        };
        let report = verify_report(
            root,
            &[
                subject("a", "see src/lib.rs and `parse_args`"),
                subject("b", "see src/gone.rs and `gone_symbol`"),
                subject("c", "nothing here"),
            ],
        )
        .expect("verify");
        assert_eq!(report.checked_files, 1, "the binary file is skipped");
        assert_eq!(report.verdicts[0].status, Status::Ok);
        assert_eq!(report.verdicts[1].status, Status::Stale);
        assert_eq!(
            report.verdicts[1].evidence,
            vec![
                "names src/gone.rs, which does not exist".to_string(),
                "`gone_symbol` is not found in any of 1 project file".to_string()
            ]
        );
        assert_eq!(report.verdicts[2].status, Status::NothingToCheck);
    }
}
