//! Keeping a project's local Claude Code settings out of git (DESIGN §2, §11): the file
//! `hooks install --scope project-local` writes, `.claude/settings.local.json`, is this machine's
//! (Claude Code's own name for settings never committed), and memdir's hook entries in it name
//! this machine's paths. When the project's repository does not ignore it yet, its path goes into
//! the repository's `info/exclude`, which git never shares; a tracked `.gitignore` is never edited.

use std::path::{Path, PathBuf};

use crate::hooks::HooksError;

/// An `info/exclude` over this is not a file memdir adds to.
const MAX_EXCLUDE_BYTES: u64 = 1024 * 1024;

/// What keeping a settings file out of git did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exclude {
    /// No git repository holds it: nothing to do.
    NoRepository,
    /// Git ignores it already.
    Ignored,
    /// The index tracks it: an ignore rule does not apply to it (it is to `git rm --cached`).
    Tracked { relative: String },
    /// `line` was added to the repository's `info/exclude` at `file`.
    Added { file: PathBuf, line: String },
}

impl Exclude {
    /// The word `--json` reports; `None` outside a repository.
    pub fn as_str(&self) -> Option<&'static str> {
        match self {
            Exclude::NoRepository => None,
            Exclude::Ignored => Some("ignored"),
            Exclude::Tracked { .. } => Some("tracked"),
            Exclude::Added { .. } => Some("added"),
        }
    }
}

/// Make the repository holding `file` ignore it, unless it does already or tracks it.
pub fn keep_out_of_git(file: &Path) -> Result<Exclude, HooksError> {
    let Some(found) = crate::repo::project::exclusion(file)? else {
        return Ok(Exclude::NoRepository);
    };
    if found.tracked {
        return Ok(Exclude::Tracked {
            relative: found.relative,
        });
    }
    if found.ignored {
        return Ok(Exclude::Ignored);
    }
    let exclude_file = found.exclude_file;
    // One line of `info/exclude` is one pattern: a folder whose name holds a line break (`a\n*`)
    // would add patterns of its own, `*` ignoring every new file of the repository.
    if found.relative.chars().any(char::is_control) {
        return Err(HooksError::Unmergeable {
            file: exclude_file,
            problem: format!(
                "the path {:?} holds a control character, which no gitignore pattern can match",
                found.relative
            ),
        });
    }
    let io = |source| HooksError::Io {
        path: exclude_file.clone(),
        source,
    };
    let mut text = match crate::input::read_regular_text(&exclude_file, MAX_EXCLUDE_BYTES) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => String::new(),
        Err(e) => return Err(io(std::io::Error::other(e))),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    let line = format!("/{}", escape_pattern(&found.relative));
    text.push_str("# memdir hooks install: Claude Code's settings for this machine only\n");
    text.push_str(&line);
    text.push('\n');
    crate::atomic::replace(&exclude_file, text.as_bytes()).map_err(io)?;
    Ok(Exclude::Added {
        file: exclude_file,
        line,
    })
}

/// `path` as a gitignore pattern matching only itself: glob characters and backslashes escaped.
fn escape_pattern(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '\\' | '*' | '?' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_a_pattern_of_itself_alone() {
        assert_eq!(
            escape_pattern("my [x] proj*/.claude/settings.local.json"),
            "my \\[x\\] proj\\*/.claude/settings.local.json"
        );
    }
}
