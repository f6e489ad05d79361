//! The process environment memdir reads (DESIGN §2): the variables that change where memory
//! lives or whether it is on, and the working directory, captured once so that everything that
//! depends on them is a pure function of an [`Environment`].

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    #[error("HOME is not set, so the config dir (~/.claude) cannot be found")]
    NoHome,
    #[error("MEMDIR_TODAY={0:?} is not a date: write it as YYYY-MM-DD")]
    BadToday(String),
}

/// The variables memdir reads, captured once so that resolution is a pure function of them.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    vars: HashMap<String, OsString>,
    /// The process's working directory, the default `--project`.
    pub cwd: PathBuf,
}

/// Every variable that changes where memory lives or whether it is on, and a few others.
const VARIABLES: &[&str] = &[
    "HOME",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
    "CLAUDE_CODE_REMOTE_MEMORY_DIR",
    "CLAUDE_CODE_DISABLE_AUTO_MEMORY",
    "CLAUDE_CODE_SIMPLE",
    "CLAUDE_CODE_REMOTE",
    "MEMDIR_MANAGED_DIR",
    "CLAUDE_COWORK_MEMORY_INDEX_CONTENT",
    "CLAUDE_CODE_DISABLE_CLAUDE_MDS",
    // Not about where memory lives: the session Claude Code runs `memdir mcp` for, whose id the
    // server's commits carry; the memory stores Claude Code syncs and loads itself (recall does
    // not add a team index Claude Code loads).
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_MEMORY_STORES",
    // Not about memory: where `hooks install` looks for the program its hooks run (and memdir
    // for the pager and the editor).
    "PATH",
    // The command line's pager and editor (DESIGN §11).
    "MEMDIR_PAGER",
    "PAGER",
    "LESS",
    "VISUAL",
    "EDITOR",
    "TERM",
    // Today's date for consolidation and review (expired memories, the branch's name), fixed
    // by tests and evaluations.
    "MEMDIR_TODAY",
];

impl Environment {
    /// The environment of this process.
    pub fn from_process() -> std::io::Result<Self> {
        let vars = VARIABLES
            .iter()
            .filter_map(|name| std::env::var_os(name).map(|v| (name.to_string(), v)))
            .collect();
        Ok(Environment {
            vars,
            cwd: std::env::current_dir()?,
        })
    }

    /// An environment made of the given variables (for tests and embedding).
    pub fn from_vars<'a>(vars: impl IntoIterator<Item = (&'a str, &'a str)>, cwd: PathBuf) -> Self {
        Environment {
            vars: vars
                .into_iter()
                .map(|(k, v)| (k.to_string(), OsString::from(v)))
                .collect(),
            cwd,
        }
    }

    /// A variable's value; unset and empty are the same, as in Claude Code.
    pub fn var(&self, name: &str) -> Option<&OsString> {
        self.vars.get(name).filter(|v| !v.is_empty())
    }

    /// A variable's value, where set-but-empty differs from unset.
    pub fn var_raw(&self, name: &str) -> Option<&OsString> {
        self.vars.get(name)
    }

    /// A variable's value as text (lossy for non-UTF-8 values).
    pub fn var_str(&self, name: &str) -> Option<String> {
        self.var(name).map(|v| v.to_string_lossy().into_owned())
    }

    pub fn home(&self) -> Result<PathBuf, EnvError> {
        self.var("HOME").map(PathBuf::from).ok_or(EnvError::NoHome)
    }

    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub fn config_dir(&self) -> Result<PathBuf, EnvError> {
        match self.var("CLAUDE_CONFIG_DIR") {
            Some(dir) => Ok(crate::lexical::absolute_from(&self.cwd, Path::new(dir))),
            None => Ok(self.home()?.join(".claude")),
        }
    }

    /// Today's date: `MEMDIR_TODAY` (`YYYY-MM-DD`) when set, which tests and evaluations set to
    /// fix it, else the local date.
    pub fn today(&self) -> Result<chrono::NaiveDate, EnvError> {
        match self.var_str("MEMDIR_TODAY") {
            Some(text) => chrono::NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
                .map_err(|_| EnvError::BadToday(text)),
            None => Ok(chrono::Local::now().date_naive()),
        }
    }

    /// The folder of managed (policy) settings and instructions for this platform.
    /// `MEMDIR_MANAGED_DIR` replaces it, so that tests need not write to `/etc`.
    pub fn managed_dir(&self) -> PathBuf {
        if let Some(dir) = self.var("MEMDIR_MANAGED_DIR") {
            return PathBuf::from(dir);
        }
        if cfg!(target_os = "macos") {
            PathBuf::from("/Library/Application Support/ClaudeCode")
        } else if cfg!(windows) {
            PathBuf::from(r"C:\Program Files\ClaudeCode")
        } else {
            PathBuf::from("/etc/claude-code")
        }
    }
}
