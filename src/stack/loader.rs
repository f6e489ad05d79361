//! Discovery and loading of every instruction file, in Claude Code 2.1.332's order (DESIGN §5):
//! managed, user, each folder from the filesystem root down to the cwd, then the auto-memory
//! index. Each file's `@imports` follow it, depth first.
//!
//! Details checked against recordings of the real program (`fixtures/cc-oracle/cases/`): a
//! folder's entries are taken in the order the operating system lists them (not sorted); an
//! import is relative to the importing file, and for every file but the user's own it must stay
//! inside the cwd; a file is loaded once, the first time it is reached; the root file is depth
//! 0 and depth 5 is refused.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::glob::Globs;
use crate::paths::{absolute_from, normalize};
use crate::stack::rules::{globs_match, split_frontmatter};
use crate::stack::{LARGE_FILE_CHARS, Scope, SkipReason, Stack, StackFile, Warning, markdown};

/// Files larger than this are not read (Claude Code's limit).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// The root file is depth 0; a file at this depth is refused.
pub const MAX_IMPORT_DEPTH: usize = 5;

/// The extensions an import may have (files without one are read too).
const TEXT_EXTENSIONS: &[&str] = &[
    "md",
    "txt",
    "text",
    "json",
    "yaml",
    "yml",
    "toml",
    "xml",
    "csv",
    "html",
    "htm",
    "css",
    "scss",
    "sass",
    "less",
    "js",
    "ts",
    "tsx",
    "jsx",
    "mjs",
    "cjs",
    "mts",
    "cts",
    "py",
    "pyi",
    "pyw",
    "rb",
    "erb",
    "rake",
    "go",
    "rs",
    "java",
    "kt",
    "kts",
    "scala",
    "c",
    "cpp",
    "cc",
    "cxx",
    "h",
    "hpp",
    "hxx",
    "cs",
    "swift",
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "bat",
    "cmd",
    "env",
    "ini",
    "cfg",
    "conf",
    "config",
    "properties",
    "sql",
    "graphql",
    "gql",
    "proto",
    "vue",
    "svelte",
    "astro",
    "ejs",
    "hbs",
    "pug",
    "jade",
    "php",
    "pl",
    "pm",
    "lua",
    "r",
    "dart",
    "ex",
    "exs",
    "erl",
    "hrl",
    "clj",
    "cljs",
    "cljc",
    "edn",
    "hs",
    "lhs",
    "elm",
    "ml",
    "mli",
    "f",
    "f90",
    "f95",
    "for",
    "cmake",
    "make",
    "makefile",
    "gradle",
    "sbt",
    "rst",
    "adoc",
    "asciidoc",
    "org",
    "tex",
    "latex",
    "lock",
    "log",
    "diff",
    "patch",
];

/// What the stack is loaded from.
#[derive(Debug, Clone)]
pub struct StackInputs {
    /// The folder Claude Code starts in; imports of project files must stay inside it.
    pub cwd: PathBuf,
    pub home: PathBuf,
    pub config_dir: PathBuf,
    pub managed_dir: PathBuf,
    /// The memory index to load, or why it is not loaded.
    pub memory: MemoryIndex,
    /// Files the session touched: conditional rules whose globs match them load too.
    pub touched: Vec<PathBuf>,
    /// `claudeMdExcludes`: user, project and local files matching these are not loaded.
    pub excludes: Vec<String>,
    /// `CLAUDE_CODE_DISABLE_CLAUDE_MDS` or simple mode: nothing is loaded at all.
    pub disabled: bool,
    /// `hasClaudeMdExternalIncludesApproved` for this project: project files may import files
    /// outside the cwd.
    pub external_includes_approved: bool,
}

/// Where the auto-memory index comes from.
#[derive(Debug, Clone)]
pub enum MemoryIndex {
    /// `MEMORY.md` in the memory dir.
    File(PathBuf),
    /// Text given in `CLAUDE_COWORK_MEMORY_INDEX_CONTENT`, shown under the index's path.
    Given { path: PathBuf, text: String },
    /// `CLAUDE_COWORK_MEMORY_INDEX_CONTENT` set but empty: no index at all.
    Suppressed,
    /// Auto memory is off; the text names the switch.
    Off(String),
}

struct Loader<'a> {
    inputs: &'a StackInputs,
    /// `inputs.excludes`, compiled.
    excludes: Globs,
    processed: HashSet<PathBuf>,
    stack: Stack,
}

/// Load the whole stack.
pub fn load_stack(inputs: &StackInputs) -> Stack {
    let mut loader = Loader {
        inputs,
        excludes: Globs::new(&inputs.excludes),
        processed: HashSet::new(),
        stack: Stack::default(),
    };
    loader.load_all();
    loader.stack
}

impl Loader<'_> {
    fn load_all(&mut self) {
        let inputs = self.inputs;
        if inputs.disabled {
            return;
        }
        // In a linked worktree, folders of the main repository above it give only their
        // CLAUDE.local.md: their checked-in files are the worktree's own copies.
        let worktree = crate::paths::linked_worktree(&inputs.cwd);
        let managed = inputs.managed_dir.clone();
        self.load_root(&managed.join("CLAUDE.md"), Scope::Managed);
        self.walk_rules(
            &managed.join(".claude").join("rules"),
            Scope::Managed,
            &managed,
        );

        let config = inputs.config_dir.clone();
        self.load_root(&config.join("CLAUDE.md"), Scope::User);
        self.walk_rules(&config.join("rules"), Scope::User, &config);

        for dir in ancestors_root_first(&inputs.cwd) {
            let main_repo_only = worktree
                .as_ref()
                .is_some_and(|(tree, main)| dir.starts_with(main) && !dir.starts_with(tree));
            if !main_repo_only {
                self.load_root(&dir.join("CLAUDE.md"), Scope::Project);
                self.load_root(&dir.join(".claude").join("CLAUDE.md"), Scope::Project);
                self.walk_rules(&dir.join(".claude").join("rules"), Scope::Project, &dir);
            }
            self.load_root(&dir.join("CLAUDE.local.md"), Scope::Local);
        }

        match &inputs.memory {
            MemoryIndex::File(index) => self.load_memory_index(index),
            MemoryIndex::Given { path, text } => {
                // Given text is truncated as the file would be, without the file's passes.
                let content = crate::memory::load::load_index_for_context(text);
                self.push_memory_index(path, content, text);
            }
            MemoryIndex::Suppressed => {}
            MemoryIndex::Off(switch) => self.stack.warnings.push(Warning::AutoMemoryOff {
                switch: switch.clone(),
            }),
        }
    }

    fn load_root(&mut self, path: &Path, scope: Scope) {
        let files = self.load_file(path, scope, 0, None);
        self.stack.files.extend(files);
    }

    /// A file and, after it, what it imports (depth first). Empty when it is not loaded.
    fn load_file(
        &mut self,
        path: &Path,
        scope: Scope,
        depth: usize,
        parent: Option<&Path>,
    ) -> Vec<StackFile> {
        let key = normalize(path).unwrap_or_else(|| path.to_path_buf());
        if depth >= MAX_IMPORT_DEPTH {
            self.skip(parent, path, SkipReason::TooDeep);
            return Vec::new();
        }
        if self.processed.contains(&key) {
            if parent.is_some() {
                self.skip(parent, path, SkipReason::AlreadyLoaded);
            }
            return Vec::new();
        }
        let include_external = scope == Scope::User || self.inputs.external_includes_approved;
        let resolved = path.canonicalize().unwrap_or_else(|_| key.clone());
        if depth > 0 && !include_external && !resolved.starts_with(&self.inputs.cwd) {
            self.skip(parent, path, SkipReason::OutsideProject);
            return Vec::new();
        }
        if resolved != key && self.processed.contains(&resolved) {
            return Vec::new();
        }
        // Claude Code matches `claudeMdExcludes` with picomatch against the absolute path,
        // backslashes turned into `/`.
        if scope != Scope::Managed
            && self
                .excludes
                .is_match(&path.to_string_lossy().replace('\\', "/"))
        {
            return Vec::new();
        }
        self.processed.insert(key);
        let raw = match read_instruction_file(path) {
            Ok(raw) => raw,
            Err(reason) => {
                if reason != SkipReason::Missing || parent.is_some() {
                    self.skip(parent, path, reason);
                }
                return Vec::new();
            }
        };
        self.processed.insert(resolved);
        if !has_text_extension(path) {
            self.skip(parent, path, SkipReason::NotText);
            return Vec::new();
        }
        let front = split_frontmatter(&raw);
        let content = markdown::strip_block_comments(&front.content).into_owned();
        let imports = if front.content.contains('@') {
            markdown::import_candidates(&front.content)
        } else {
            Vec::new()
        };
        if crate::js::trim(&content).is_empty() {
            return Vec::new();
        }
        let chars = content.encode_utf16().count();
        if chars > LARGE_FILE_CHARS {
            self.stack.warnings.push(Warning::LargeFile {
                path: path.to_path_buf(),
                chars,
            });
        }
        let mut files = vec![StackFile {
            path: path.to_path_buf(),
            scope,
            content,
            imported_from: parent.map(Path::to_path_buf),
            globs: front.paths,
        }];
        let dir = path.parent().unwrap_or(Path::new("/"));
        let mut targets: Vec<PathBuf> = Vec::new();
        for candidate in imports {
            // Network paths (`//host/share`) are never read.
            if candidate.starts_with("//") || candidate.starts_with("\\\\") {
                continue;
            }
            let target = self.resolve_import(&candidate, dir);
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
        for target in targets {
            if !include_external && !target.starts_with(&self.inputs.cwd) {
                self.skip(Some(path), &target, SkipReason::OutsideProject);
                continue;
            }
            files.extend(self.load_file(&target, scope, depth + 1, Some(path)));
        }
        files
    }

    /// `~/x` is in the home folder, `/x` is absolute, anything else is relative to the file.
    fn resolve_import(&self, candidate: &str, dir: &Path) -> PathBuf {
        let joined = match candidate.strip_prefix("~/") {
            Some(rest) => self.inputs.home.join(rest),
            None => absolute_from(dir, Path::new(candidate)),
        };
        normalize(&joined).unwrap_or(joined)
    }

    fn skip(&mut self, parent: Option<&Path>, target: &Path, reason: SkipReason) {
        let warning = match parent {
            Some(from) => Warning::ImportSkipped {
                from: from.to_path_buf(),
                target: target.to_path_buf(),
                reason,
            },
            None => Warning::FileSkipped {
                path: target.to_path_buf(),
                reason,
            },
        };
        self.stack.warnings.push(warning);
    }

    /// A rules folder: entries in the order the system lists them, folders walked where they
    /// stand, `.md` files loaded with their imports. Conditional rules (and what they import)
    /// load only when a touched file matches their globs, relative to `base`.
    fn walk_rules(&mut self, dir: &Path, scope: Scope, base: &Path) {
        let mut visited = HashSet::new();
        let files = self.walk_rules_in(dir, scope, base, &mut visited);
        self.stack.files.extend(files);
    }

    fn walk_rules_in(
        &mut self,
        dir: &Path,
        scope: Scope,
        base: &Path,
        visited: &mut HashSet<PathBuf>,
    ) -> Vec<StackFile> {
        let resolved = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        if !visited.insert(dir.to_path_buf())
            || !visited.insert(resolved.clone()) && resolved != dir
        {
            return Vec::new();
        }
        let Ok(entries) = std::fs::read_dir(&resolved) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let path = dir.join(entry.file_name());
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            // A link that leads out of the cwd is not followed, but in the user's own rules.
            if scope != Scope::User
                && entry.file_type().is_ok_and(|t| t.is_symlink())
                && !path
                    .canonicalize()
                    .is_ok_and(|target| target.starts_with(&self.inputs.cwd))
            {
                continue;
            }
            if meta.is_dir() {
                out.extend(self.walk_rules_in(&path, scope, base, visited));
            } else if meta.is_file() && entry.file_name().to_string_lossy().ends_with(".md") {
                let target = path.canonicalize().unwrap_or(path);
                let loaded = self.load_file(&target, scope, 0, None);
                let touched = loaded
                    .first()
                    .and_then(|rule| rule.globs.as_ref())
                    .is_some_and(|globs| {
                        self.inputs
                            .touched
                            .iter()
                            .any(|file| globs_match(globs, base, file))
                    });
                out.extend(loaded.into_iter().filter(|f| f.globs.is_none() || touched));
            }
        }
        out
    }

    /// `MEMORY.md`, truncated as Claude Code loads it, with its warning when it is cut.
    fn load_memory_index(&mut self, path: &Path) {
        let key = normalize(path).unwrap_or_else(|| path.to_path_buf());
        if !self.processed.insert(key) {
            return;
        }
        let raw = match read_instruction_file(path) {
            Ok(raw) => raw,
            Err(SkipReason::Missing) => match path.parent().and_then(backfill_index) {
                Some(backfill) => {
                    self.stack.warnings.push(Warning::IndexBackfilled {
                        path: path.to_path_buf(),
                    });
                    backfill
                }
                None => return,
            },
            Err(reason) => {
                self.stack.warnings.push(Warning::FileSkipped {
                    path: path.to_path_buf(),
                    reason,
                });
                return;
            }
        };
        // The index goes through the same frontmatter and comment passes as any instruction
        // file before it is truncated.
        let front = split_frontmatter(&raw);
        let stripped = markdown::strip_block_comments(&front.content);
        let loaded = crate::memory::load::load_index_for_context(&stripped);
        self.push_memory_index(path, loaded, &stripped);
    }

    /// The index as the model sees it, and a warning naming the entries that fell off.
    fn push_memory_index(&mut self, path: &Path, loaded: String, source: &str) {
        let content = model_visible_text(&loaded);
        if crate::js::trim(&content).is_empty() {
            return;
        }
        let dropped: Vec<String> = crate::memory::load::invisible_entries(source)
            .map(|e| e.file_name().to_string())
            .collect();
        if !dropped.is_empty() {
            self.stack.warnings.push(Warning::IndexTruncated {
                path: path.to_path_buf(),
                dropped,
            });
        }
        self.stack.files.push(StackFile {
            path: path.to_path_buf(),
            scope: Scope::AutoMemory,
            content,
            imported_from: None,
            globs: None,
        });
    }
}

/// The `MEMORY.md` Claude Code writes at session start when the memory dir has topic files but
/// no index (its "backfill"): one line per `*.md` file, newest first, `- [name](path) — hook`
/// with the frontmatter description as hook (white space collapsed, the line kept under 150
/// characters), none for a file without one. Dot folders, `team/`, `logs/`, `sessions/`,
/// `proposals/` and names holding `[]()` are left out. `None` when nothing is listable.
fn backfill_index(dir: &Path) -> Option<String> {
    const EXCLUDED_TOP: &[&str] = &["team", "logs", "sessions", "proposals"];
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let child = rel.join(&name);
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                let top = name.trim_end_matches(['.', ' ']).to_lowercase();
                if !(rel.as_os_str().is_empty() && EXCLUDED_TOP.contains(&top.as_str())) {
                    pending.push(child);
                }
            } else if kind.is_file()
                && name.ends_with(".md")
                && child != Path::new(crate::memory::store::INDEX_FILE)
            {
                let mtime = entry.metadata().and_then(|m| m.modified()).ok();
                found.push((mtime, child));
            }
        }
    }
    found.sort_by_key(|(mtime, _)| std::cmp::Reverse(*mtime));
    let mut index = String::new();
    for (_, rel) in found {
        let link = rel.to_string_lossy().replace('\\', "/");
        if link.contains(['[', ']', '(', ')']) {
            continue;
        }
        let title = rel
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let head = format!("- [{title}]({link})");
        let hook = crate::input::read_regular(&dir.join(&rel), MAX_FILE_BYTES)
            .ok()
            .and_then(|bytes| {
                crate::stack::rules::frontmatter_description(&String::from_utf8_lossy(&bytes))
            })
            .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|d| !d.is_empty());
        index.push_str(&head);
        if let Some(hook) = hook {
            let prefix = format!("{head} \u{2014} ");
            let room = 150usize.saturating_sub(prefix.encode_utf16().count());
            index.push_str(" \u{2014} ");
            index.push_str(&crate::memory::load::shorten_str(&hook, room));
        }
        index.push('\n');
    }
    (!index.is_empty()).then_some(index)
}

/// Every folder from the filesystem root (excluded) down to `cwd`, root first.
fn ancestors_root_first(cwd: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = cwd
        .ancestors()
        .filter(|d| d.parent().is_some())
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs
}

/// Read a file Claude Code would load: a regular file (symlinks followed) of at most 4 MiB,
/// decoded as UTF-8 with invalid bytes replaced, as Node's decoder does.
fn read_instruction_file(path: &Path) -> Result<String, SkipReason> {
    use crate::input::InputError;
    match crate::input::read_regular(path, MAX_FILE_BYTES) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) if e.is_not_found() => Err(SkipReason::Missing),
        Err(InputError::NotRegular { .. }) => Err(SkipReason::NotRegularFile),
        Err(InputError::TooLarge { .. }) => Err(SkipReason::TooLarge),
        Err(_) => Err(SkipReason::Unreadable),
    }
}

/// An extension from the text list, or none at all (Node's `extname`: a leading dot alone is
/// not an extension).
fn has_text_extension(path: &Path) -> bool {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy()) else {
        return true;
    };
    let trimmed = name.trim_start_matches('.');
    match trimmed.rfind('.') {
        None => true,
        Some(dot) => {
            let ext = trimmed[dot + 1..].to_lowercase();
            TEXT_EXTENSIONS.contains(&ext.as_str())
        }
    }
}

/// What Claude Code does to the memory index before the model sees it: line breaks made `\n`,
/// control, format and private-use characters removed (zero-width joiners and variation
/// selectors kept), then tag openers such as `<system-reminder>` neutralised. Unassigned code
/// points are not removed: that needs Unicode's tables.
pub fn model_visible_text(text: &str) -> String {
    let normalized = text
        .replace("\r\n", "\n")
        .replace(['\r', '\u{2028}', '\u{2029}'], "\n");
    let cleaned: String = normalized.chars().filter(|&c| !is_invisible(c)).collect();
    crate::stack::neutralize::neutralize_tags(&cleaned)
}

fn is_invisible(c: char) -> bool {
    let u = u32::from(c);
    if matches!(u, 0x200C | 0x200D | 0xFE0E | 0xFE0F) {
        return false;
    }
    matches!(u,
        0x00..=0x08 | 0x0B | 0x0C | 0x0E..=0x1F | 0x7F..=0x9F
        | 0xAD | 0x34F | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890 | 0x891 | 0x8E2
        | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F | 0x200B..=0x200F
        | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0
        | 0xFFF0..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF | 0xE000..=0xF8FF | 0xF0000..=0xFFFFD
        | 0x100000..=0x10FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_like_node() {
        assert!(has_text_extension(Path::new("/a/b.md")));
        assert!(has_text_extension(Path::new("/a/Makefile")));
        assert!(has_text_extension(Path::new("/a/.bashrc")));
        assert!(has_text_extension(Path::new("/a/X.MD")));
        assert!(!has_text_extension(Path::new("/a/logo.png")));
        assert!(!has_text_extension(Path::new("/a/archive.tar.gz")));
    }

    #[test]
    fn memory_text_is_normalised() {
        assert_eq!(
            model_visible_text("a\r\nb\rc\u{200b}d\u{200d}"),
            "a\nb\ncd\u{200d}"
        );
    }
}
