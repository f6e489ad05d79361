//! The project as `verify` sees it (DESIGN §9): its files, whether the paths a memory names
//! exist, and one search of the files' content for every symbol at once.
//!
//! - paths: the work tree, relative to the repository's root and to the project dir (an
//!   untracked or ignored file that is there counts as there), and the tracked files by their
//!   trailing segments, so `verify.rs` or `cli/verify.rs` is found at `src/cli/verify.rs`;
//! - symbols: the content of the files the repository's index tracks (read with gix), in one pass
//!   over the files with one pattern for every symbol, split between a few threads. Untracked
//!   files (build output, vendored copies) are not searched. Without a repository, the project
//!   dir is walked instead ([`crate::walk`]), skipping `.git`, `node_modules`, `target` and
//!   hidden directories.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use regex::bytes::{Regex, RegexBuilder};

use super::VerifyError;
use super::claims::{PathClaim, PathKind};
use crate::repo::{TrackedFile, tracked_files};
use crate::walk::WalkOptions;

/// Files larger than this are not searched for symbols (generated bundles, data).
pub const MAX_SEARCHED_FILE_BYTES: u64 = 2 * 1024 * 1024;
/// A project dir that is no git repository is walked up to this many files; past it, a symbol
/// that was not found is not judged.
pub const MAX_WALKED_FILES: usize = 50_000;
/// A file with a NUL byte in its first this-many bytes is binary (as git and ripgrep decide).
const BINARY_PROBE_BYTES: usize = 8000;
/// Symbols per compiled pattern: one alternation stays well within the regex size limit.
const TERMS_PER_PATTERN: usize = 2000;

/// The walk of a project dir that is no repository: dependencies, build output and hidden
/// directories are not the project's own files.
const WALK: WalkOptions = WalkOptions {
    skip_dirs: &["node_modules", "target"],
    skip_hidden_dirs: true,
    max_files: MAX_WALKED_FILES,
};

/// The project's files: from its repository's index, or a walk.
pub(super) struct ProjectTree {
    /// The repository's work tree, or the project dir.
    root: PathBuf,
    project: PathBuf,
    files: Vec<TrackedFile>,
    /// Whether the files are those the repository's index tracks (else a walk found them).
    pub(super) from_index: bool,
    /// False when the walk stopped at [`MAX_WALKED_FILES`].
    pub(super) complete: bool,
}

/// What one pass over the files found.
pub(super) struct Search<'a> {
    /// The terms found in some file.
    pub(super) found: HashSet<&'a str>,
    /// The text files searched.
    pub(super) files: usize,
}

impl ProjectTree {
    pub(super) fn open(project: &Path) -> ProjectTree {
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
        let walked = crate::walk::files(&project, &WALK);
        let files = walked
            .files
            .into_iter()
            .map(|f| TrackedFile {
                path: f.path,
                is_file: f.is_file,
            })
            .collect();
        ProjectTree {
            root: project.clone(),
            project,
            files,
            from_index: false,
            complete: walked.complete,
        }
    }

    /// For each path claim, whether it exists; `None` when it is not judged (an absolute path
    /// outside the project, a directory-like path whose first segment is no directory).
    pub(super) fn presence<'c>(
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
    pub(super) fn search<'t>(&self, terms: &[&'t str]) -> Result<Search<'t>, VerifyError> {
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
            .collect::<Result<Vec<Regex>, VerifyError>>()?;
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
            // A worker only panics on a bug; the report must not pretend it searched.
            let part = part.map_err(|_| VerifyError::SearchStopped)?;
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
fn symbol_pattern(terms: &[&str]) -> Result<Regex, VerifyError> {
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
        .map_err(|source| VerifyError::SymbolPattern { source })
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
