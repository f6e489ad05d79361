//! The agent's read-only sandbox (DESIGN §6, §10): `read`, `grep` and `glob` served from the
//! project and the memory dir only, after resolving `..` and symlinks, never inside `.git`, and
//! never the hidden entries of a home folder the project contains. It answers with what it found
//! or why not ([`Denied`]); the protocol's result is [`super::dispatch`]'s to build.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use regex::{Regex, RegexBuilder};

use super::protocol::{cut_chars, last_line};

/// `read` returns at most this much of a file.
const MAX_READ_BYTES: usize = 64 * 1024;
/// `grep` returns at most this many lines, and this many bytes.
const MAX_GREP_LINES: usize = 200;
const MAX_GREP_BYTES: usize = 64 * 1024;
/// One grep line's text is cut to this.
const MAX_GREP_LINE_CHARS: usize = 300;
/// `grep` skips files bigger than this (and binary files).
const MAX_GREP_FILE_BYTES: u64 = 1024 * 1024;
/// `glob` returns at most this many paths.
const MAX_GLOB_PATHS: usize = 500;
/// A grep or glob walk stops after this many directory entries.
const MAX_WALK_ENTRIES: usize = 20_000;
/// Regex and glob patterns longer than this are refused.
const MAX_PATTERN_LEN: usize = 1000;

/// Where reads may go: the project and the memory dir, resolved (`..` and symlinks), minus
/// `.git` internals and, when the project is the home folder (or above it), the hidden entries of
/// the home folder (`~/.ssh`, `~/.aws`, …).
#[derive(Clone)]
pub struct Sandbox {
    /// The project as given: relative paths are taken from it.
    project: Option<PathBuf>,
    /// The memory dir as given (the request names it so).
    memory: PathBuf,
    /// The project, resolved.
    project_real: Option<PathBuf>,
    /// The memory dir, resolved.
    memory_real: Option<PathBuf>,
    /// The home folder, resolved, when the project contains it.
    exposed_home: Option<PathBuf>,
}

/// What a read, grep or glob found.
#[derive(Debug, PartialEq, Eq)]
pub struct Found {
    pub output: String,
    /// Cut at a cap.
    pub truncated: bool,
}

/// Why a read, grep or glob gave nothing.
#[derive(Debug, PartialEq, Eq)]
pub enum Denied {
    /// Never allowed (outside, `.git`, `~`): a refusal.
    Refused(String),
    /// Allowed, but it did not work (it does not exist).
    Failed(String),
}

impl Sandbox {
    pub fn new(project: &Path, memory_dir: &Path, home: Option<&Path>) -> Sandbox {
        let project_real = project.canonicalize().ok().filter(|p| p.is_dir());
        let memory_real = memory_dir.canonicalize().ok().filter(|p| p.is_dir());
        let home = home.and_then(|h| h.canonicalize().ok());
        let exposed_home = match (&project_real, home) {
            (Some(project), Some(home)) if home.starts_with(project) => Some(home),
            _ => None,
        };
        Sandbox {
            project: project_real.as_ref().map(|_| project.to_path_buf()),
            memory: crate::paths::normalize(memory_dir).unwrap_or_else(|| memory_dir.to_path_buf()),
            project_real,
            memory_real,
            exposed_home,
        }
    }

    fn roots(&self) -> impl Iterator<Item = &PathBuf> {
        self.memory_real.iter().chain(self.project_real.iter())
    }

    /// A path the agent gave, resolved and checked.
    fn resolve(&self, given: &str) -> Result<PathBuf, Denied> {
        const WHERE: &str = "only the project and the memory dir can be read";
        if given.is_empty() {
            return Err(Denied::Refused("the path is empty".into()));
        }
        if given.contains('\0') {
            return Err(Denied::Refused("the path holds a NUL byte".into()));
        }
        if given.starts_with('~') {
            return Err(Denied::Refused(format!(
                "'~' is not expanded; {WHERE} (give a path relative to the project, or an absolute one inside either)"
            )));
        }
        let path = Path::new(given);
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            match &self.project {
                Some(project) => project.join(path),
                None => {
                    return Err(Denied::Refused(
                        "the project dir does not exist, so relative paths cannot be read".into(),
                    ));
                }
            }
        };
        // Said before touching the disk, so that nothing is learnt about what exists outside.
        let lexical = crate::paths::normalize(&absolute)
            .ok_or_else(|| Denied::Refused(format!("the path leaves the root; {WHERE}")))?;
        let inside_lexically = self
            .project
            .iter()
            .chain(std::iter::once(&self.memory))
            .chain(self.roots())
            .any(|root| lexical.starts_with(root));
        if !inside_lexically {
            return Err(Denied::Refused(format!(
                "{} is outside the project and the memory dir; {WHERE}",
                lexical.display()
            )));
        }
        match absolute.canonicalize() {
            Ok(real) => {
                self.check(&real)?;
                Ok(real)
            }
            Err(e) => {
                // Whatever exists of it must be inside too: a missing file below a symlink that
                // points out, or a dangling symlink, is refused rather than reported missing (which
                // would tell what exists outside).
                let mut existing = Some(absolute.as_path());
                while let Some(path) = existing {
                    if let Ok(meta) = std::fs::symlink_metadata(path) {
                        match path.canonicalize() {
                            Ok(real) => self.check(&real)?,
                            Err(_) if meta.file_type().is_symlink() => {
                                return Err(Denied::Refused(format!(
                                    "it goes through a symlink that leads nowhere; {WHERE}"
                                )));
                            }
                            Err(_) => {}
                        }
                        break;
                    }
                    existing = path.parent();
                }
                if e.kind() == std::io::ErrorKind::NotFound {
                    Err(Denied::Failed(format!(
                        "{given}: no such file or directory"
                    )))
                } else {
                    Err(Denied::Failed(format!("{given}: {e}")))
                }
            }
        }
    }

    /// A resolved path is inside a root, not in `.git`, not a hidden entry of an exposed home.
    fn check(&self, real: &Path) -> Result<(), Denied> {
        let Some(root) = self.roots().find(|root| real.starts_with(root)) else {
            return Err(Denied::Refused(format!(
                "it resolves to {}, outside the project and the memory dir (through a symlink or '..'); only those can be read",
                real.display()
            )));
        };
        let inside = real.strip_prefix(root).unwrap_or(real);
        if inside.components().any(|c| c.as_os_str() == ".git") {
            return Err(Denied::Refused(
                "git internals (.git) are not readable: they can hold credentials".into(),
            ));
        }
        if let Some(home) = &self.exposed_home {
            let in_memory_dir = self
                .memory_real
                .as_ref()
                .is_some_and(|m| real.starts_with(m));
            if !in_memory_dir
                && let Ok(rest) = real.strip_prefix(home)
                && rest
                    .components()
                    .next()
                    .is_some_and(|c| c.as_os_str().to_string_lossy().starts_with('.'))
            {
                return Err(Denied::Refused(
                    "hidden files of the home folder (~/.ssh, ~/.aws, …) are not readable".into(),
                ));
            }
        }
        Ok(())
    }

    /// How a resolved path is shown: relative to the project when inside it.
    fn display(&self, real: &Path) -> String {
        self.project_real
            .as_ref()
            .and_then(|p| real.strip_prefix(p).ok())
            .filter(|rest| !rest.as_os_str().is_empty())
            .map(|rest| rest.to_string_lossy().into_owned())
            .unwrap_or_else(|| real.to_string_lossy().into_owned())
    }

    /// Walk a resolved dir (see [`crate::walk::entries`]), skipping `.git` and what
    /// [`Self::check`] refuses; `visit` gets each entry's path and whether it is a dir, and
    /// returns false to stop. Returns true when the walk stopped early (a cap or `visit`).
    fn walk(&self, dir: &Path, visit: impl FnMut(&Path, bool) -> bool) -> bool {
        let sandbox = self.clone();
        crate::walk::entries(
            dir,
            MAX_WALK_ENTRIES,
            move |path, _| path.file_name() != Some(".git".as_ref()) && sandbox.check(path).is_ok(),
            visit,
        )
    }

    /// A file's text, its first [`MAX_READ_BYTES`].
    pub fn read(&self, path: &str) -> Result<Found, Denied> {
        let real = self.resolve(path)?;
        match std::fs::metadata(&real) {
            Ok(meta) if meta.is_dir() => {
                return Err(Denied::Failed(format!(
                    "{path} is a directory; use glob to list it"
                )));
            }
            // Checked before opening: opening a FIFO would wait for a writer.
            Ok(meta) if !meta.is_file() => {
                return Err(Denied::Refused(format!("{path} is not a regular file")));
            }
            Ok(_) => {}
            Err(e) => return Err(Denied::Failed(format!("{path}: {e}"))),
        }
        let mut bytes = Vec::new();
        match crate::input::open_regular(&real, u64::MAX) {
            Ok(file) => file
                .take(MAX_READ_BYTES as u64 + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        }
        .map_err(|e| Denied::Failed(format!("{path}: {e}")))?;
        let truncated = bytes.len() > MAX_READ_BYTES;
        bytes.truncate(MAX_READ_BYTES);
        Ok(Found {
            output: String::from_utf8_lossy(&bytes).into_owned(),
            truncated,
        })
    }

    /// Lines matching `pattern` in `path` (a file, or a dir searched recursively; the project
    /// when `None`), as `path:line:text`.
    pub fn grep(&self, pattern: &str, path: Option<&str>) -> Result<Found, Denied> {
        if pattern.len() > MAX_PATTERN_LEN {
            return Err(Denied::Refused(format!(
                "the pattern is over {MAX_PATTERN_LEN} characters"
            )));
        }
        let regex = RegexBuilder::new(pattern)
            .size_limit(1 << 20)
            .dfa_size_limit(1 << 20)
            .build()
            .map_err(|e| Denied::Failed(format!("bad regex: {}", last_line(&e.to_string()))))?;
        let real = match path {
            Some(path) => self.resolve(path)?,
            None => self.project_real.clone().ok_or_else(|| {
                Denied::Failed(
                    "the project dir does not exist; give a path in the memory dir".into(),
                )
            })?,
        };
        let mut matches = Matches::default();
        if real.is_dir() {
            let stopped = self.walk(&real, |file, is_dir| {
                is_dir || !is_regular(file) || matches.search(self, file, &regex)
            });
            matches.truncated |= stopped;
        } else if is_regular(&real) {
            matches.search(self, &real, &regex);
        } else {
            return Err(Denied::Refused("not a regular file".into()));
        }
        Ok(Found {
            output: matches.lines.join("\n"),
            truncated: matches.truncated,
        })
    }

    /// Paths under the project matching `pattern`, one a line, dirs with a trailing `/`.
    pub fn glob(&self, pattern: &str) -> Result<Found, Denied> {
        let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
        if pattern.len() > MAX_PATTERN_LEN {
            return Err(Denied::Refused(format!(
                "the pattern is over {MAX_PATTERN_LEN} characters"
            )));
        }
        if pattern.starts_with('/') || pattern.starts_with('~') || pattern.contains('\0') {
            return Err(Denied::Refused(
                "glob patterns are relative to the project; nothing outside it is listed".into(),
            ));
        }
        if Path::new(pattern)
            .components()
            .any(|c| matches!(c, Component::ParentDir))
        {
            return Err(Denied::Refused(
                "glob patterns cannot hold '..'; nothing outside the project is listed".into(),
            ));
        }
        let Some(project) = self.project_real.clone() else {
            return Err(Denied::Failed("the project dir does not exist".into()));
        };
        let glob = crate::glob::Glob::new(pattern)
            .map_err(|e| Denied::Failed(format!("bad glob: {}", last_line(&e.to_string()))))?;
        let mut paths = Vec::new();
        let truncated = self.walk(&project, |path, is_dir| {
            let Ok(rest) = path.strip_prefix(&project) else {
                return true;
            };
            let rest = rest.to_string_lossy().replace('\\', "/");
            if glob.is_match(&rest) {
                if paths.len() >= MAX_GLOB_PATHS {
                    return false;
                }
                paths.push(if is_dir { format!("{rest}/") } else { rest });
            }
            true
        });
        Ok(Found {
            output: paths.join("\n"),
            truncated,
        })
    }
}

fn is_regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

#[derive(Default)]
struct Matches {
    lines: Vec<String>,
    bytes: usize,
    truncated: bool,
}

impl Matches {
    /// Search one file; false once the caps are reached.
    fn search(&mut self, sandbox: &Sandbox, file: &Path, regex: &Regex) -> bool {
        // Over the cap, or not a regular file: skipped.
        let Ok(bytes) = crate::input::read_regular(file, MAX_GREP_FILE_BYTES) else {
            return true;
        };
        if bytes[..bytes.len().min(8192)].contains(&0) {
            return true; // binary
        }
        let text = String::from_utf8_lossy(&bytes);
        let shown = sandbox.display(file);
        for (number, line) in text.lines().enumerate() {
            if !regex.is_match(line) {
                continue;
            }
            let entry = format!(
                "{shown}:{}:{}",
                number + 1,
                cut_chars(line, MAX_GREP_LINE_CHARS)
            );
            if self.lines.len() >= MAX_GREP_LINES || self.bytes + entry.len() > MAX_GREP_BYTES {
                self.truncated = true;
                return false;
            }
            self.bytes += entry.len() + 1;
            self.lines.push(entry);
        }
        true
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A project, a memory dir, a home and a folder outside them all, resolved.
    /// A project, a memory dir, a home and a folder outside them all, resolved.
    pub(in crate::extract::agent) struct Dirs {
        _temp: tempfile::TempDir,
        pub(in crate::extract::agent) root: PathBuf,
        pub(in crate::extract::agent) project: PathBuf,
        pub(in crate::extract::agent) memory: PathBuf,
        outside: PathBuf,
    }

    pub(in crate::extract::agent) fn dirs() -> Dirs {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path().canonicalize().expect("canonical");
        let project = root.join("proj");
        let memory = root.join("home/.claude/projects/proj/memory");
        let outside = root.join("outside");
        for dir in [
            &project,
            &memory,
            &outside,
            &project.join(".git"),
            &memory.join(".git"),
        ] {
            std::fs::create_dir_all(dir).expect("mkdir");
        }
        std::fs::write(project.join("notes.md"), "inside\n").expect("write");
        std::fs::write(project.join(".git/config"), "[remote]\n").expect("write");
        std::fs::write(memory.join("a.md"), "memory\n").expect("write");
        std::fs::write(outside.join("secret.txt"), "secret\n").expect("write");
        std::os::unix::fs::symlink(&outside, project.join("escape")).expect("symlink");
        std::os::unix::fs::symlink(outside.join("secret.txt"), project.join("leak.txt"))
            .expect("symlink");
        std::os::unix::fs::symlink(outside.join("missing"), project.join("dangling"))
            .expect("symlink");
        std::os::unix::fs::symlink(project.join("notes.md"), project.join("alias.md"))
            .expect("symlink");
        Dirs {
            _temp: temp,
            root,
            project,
            memory,
            outside,
        }
    }

    fn refused(result: Result<PathBuf, Denied>) -> String {
        match result {
            Err(Denied::Refused(why)) => why,
            Err(Denied::Failed(why)) => panic!("failed, not refused: {why}"),
            Ok(path) => panic!("allowed: {}", path.display()),
        }
    }

    #[test]
    fn reads_stay_in_the_project_and_the_memory_dir() {
        let d = dirs();
        let sandbox = Sandbox::new(&d.project, &d.memory, Some(&d.root.join("home")));
        let ok = |p: &str| sandbox.resolve(p).ok();
        assert_eq!(ok("notes.md"), Some(d.project.join("notes.md")));
        assert_eq!(ok("./docs/../notes.md"), None, "docs does not exist");
        assert_eq!(ok("alias.md"), Some(d.project.join("notes.md")));
        assert_eq!(
            ok(d.memory.join("a.md").to_str().expect("utf-8")),
            Some(d.memory.join("a.md"))
        );
        assert!(refused(sandbox.resolve("leak.txt")).contains("outside"));
        assert!(refused(sandbox.resolve("escape/secret.txt")).contains("outside"));
        assert!(refused(sandbox.resolve("escape/nothing-here")).contains("outside"));
        assert!(refused(sandbox.resolve("dangling")).contains("leads nowhere"));
        assert!(refused(sandbox.resolve("dangling/x")).contains("leads nowhere"));
        assert!(refused(sandbox.resolve("../outside/secret.txt")).contains("outside"));
        assert!(refused(sandbox.resolve("../outside/not-there")).contains("outside"));
        assert!(refused(sandbox.resolve("/etc/passwd")).contains("outside"));
        let secret = d.outside.join("secret.txt");
        assert!(refused(sandbox.resolve(secret.to_str().expect("utf-8"))).contains("outside"));
        assert!(refused(sandbox.resolve("../../../../../../..")).contains("root"));
        assert!(refused(sandbox.resolve("~/.ssh/id_rsa")).contains('~'));
        assert!(refused(sandbox.resolve(".git/config")).contains(".git"));
        let memory_git = d.memory.join(".git");
        assert!(refused(sandbox.resolve(memory_git.to_str().expect("utf-8"))).contains(".git"));
        assert!(refused(sandbox.resolve("a\0b")).contains("NUL"));
        assert!(refused(sandbox.resolve("")).contains("empty"));
        match sandbox.resolve("missing.md") {
            Err(Denied::Failed(why)) => assert!(why.contains("no such file"), "{why}"),
            _ => panic!("a missing file inside is a failure, not a refusal"),
        }
    }

    #[test]
    fn a_project_that_holds_the_home_folder_does_not_expose_its_hidden_files() {
        let d = dirs();
        let home = d.root.join("home");
        std::fs::create_dir_all(home.join(".ssh")).expect("mkdir");
        std::fs::write(home.join(".ssh/id_rsa"), "key\n").expect("write");
        std::fs::write(home.join("todo.txt"), "todo\n").expect("write");
        // The project is the home folder itself.
        let sandbox = Sandbox::new(&home, &d.memory, Some(&home));
        assert!(refused(sandbox.resolve(".ssh/id_rsa")).contains("hidden files"));
        assert_eq!(
            sandbox.resolve("todo.txt").ok(),
            Some(home.join("todo.txt"))
        );
        // The memory dir under ~/.claude stays readable.
        let memory = d.memory.join("a.md");
        assert_eq!(
            sandbox.resolve(memory.to_str().expect("utf-8")).ok(),
            Some(memory)
        );
        // And a walk does not go in either.
        let mut seen = Vec::new();
        sandbox.walk(&home, |p, _| {
            seen.push(p.to_path_buf());
            true
        });
        assert!(seen.contains(&home.join("todo.txt")));
        assert!(
            !seen.iter().any(|p| p.starts_with(home.join(".ssh"))),
            "{seen:?}"
        );
    }

    #[test]
    fn walks_skip_git_and_do_not_follow_symlinks() {
        let d = dirs();
        let sandbox = Sandbox::new(&d.project, &d.memory, None);
        let found = |output: &str| {
            Ok(Found {
                output: output.into(),
                truncated: false,
            })
        };
        assert_eq!(
            sandbox.glob("**"),
            found("alias.md\ndangling\nescape\nleak.txt\nnotes.md")
        );
        assert_eq!(
            sandbox.grep("secret|inside|remote", None),
            found("notes.md:1:inside")
        );
        assert!(matches!(
            sandbox.grep("(unclosed", None),
            Err(Denied::Failed(why)) if why.starts_with("bad regex")
        ));
    }

    #[test]
    fn globs_list_matching_paths_in_name_order_dirs_with_a_slash() {
        let d = dirs();
        for file in [
            "src/a.rs",
            "src/x/a.rs",
            "Cargo.toml",
            "Cargo.lock",
            "docs/a/b.md",
        ] {
            let path = d.project.join(file);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(path, "x\n").expect("write");
        }
        let sandbox = Sandbox::new(&d.project, &d.memory, None);
        let glob = |pattern: &str| match sandbox.glob(pattern) {
            Ok(found) => found.output,
            Err(denied) => panic!("{pattern}: {denied:?}"),
        };
        assert_eq!(glob("**/*.rs"), "src/a.rs\nsrc/x/a.rs");
        assert_eq!(glob("src/*.rs"), "src/a.rs");
        assert_eq!(glob("*.{rs,toml}"), "Cargo.toml");
        assert_eq!(glob("docs/**"), "docs/\ndocs/a/\ndocs/a/b.md");
        assert_eq!(glob("?ocs"), "docs/");
        assert_eq!(glob("[!C]*.md"), "alias.md\nnotes.md");
        assert_eq!(glob("./notes.md"), "notes.md");
        assert!(matches!(
            sandbox.glob("../outside/*"),
            Err(Denied::Refused(_))
        ));
        assert!(matches!(sandbox.glob("/etc/*"), Err(Denied::Refused(_))));
    }
}
