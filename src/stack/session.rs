//! The stack a session in a project loads (DESIGN §5): its inputs read from the environment and
//! the settings as Claude Code reads them (the memory dir Claude Code resolves, which is not
//! always where memdir writes; the auto-memory switch; `claudeMdExcludes`; whether imports from
//! outside the project are approved), then loaded, with the warnings about settings.

use std::path::{Path, PathBuf};

use crate::env::{EnvError, Environment};
use crate::memory::store::INDEX_FILE;
use crate::paths::{LocationRule, PathError, Resolution, resolve_memory_dir_with};
use crate::settings::{AutoMemory, Settings, SettingsLayer, auto_memory};
use crate::stack::loader::{MemoryIndex, StackInputs, load_stack};
use crate::stack::{Stack, Warning};

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("project dir {}: {source}", .dir.display())]
    Project {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Env(#[from] EnvError),
    #[error(transparent)]
    Path(#[from] PathError),
}

impl SessionError {
    /// Whether the request was refused (exit 2), not the machine failing (exit 1).
    pub fn is_refusal(&self) -> bool {
        match self {
            SessionError::Project { .. } => false,
            SessionError::Env(_) => true,
            SessionError::Path(e) => e.is_refusal(),
        }
    }
}

/// Resolve the inputs (cwd, config, memory) and load the stack, with the conditional rules for
/// the `touched` files.
pub fn load(
    env: &Environment,
    project: &Path,
    memory_dir_flag: Option<&Path>,
    touched: Vec<PathBuf>,
) -> Result<Stack, SessionError> {
    let cwd = project
        .canonicalize()
        .map_err(|source| SessionError::Project {
            dir: project.to_path_buf(),
            source,
        })?;
    // Where Claude Code looks, which is not always where memdir writes (see Resolution).
    let settings = Settings::load(env, project)?;
    let location = resolve_memory_dir_with(
        env,
        &settings,
        memory_dir_flag,
        project,
        Resolution::AsClaudeCode,
    )?;
    let index_path = location.dir.join(INDEX_FILE);
    let memory = match auto_memory(env, &settings) {
        AutoMemory::Off(switch) => MemoryIndex::Off(switch),
        AutoMemory::On => match env.var_raw("CLAUDE_COWORK_MEMORY_INDEX_CONTENT") {
            Some(text) if text.is_empty() => MemoryIndex::Suppressed,
            Some(text) => MemoryIndex::Given {
                path: index_path,
                text: text.to_string_lossy().into_owned(),
            },
            None => MemoryIndex::File(index_path),
        },
    };
    let inputs = StackInputs {
        home: env.home()?,
        config_dir: env.config_dir()?,
        managed_dir: env.managed_dir(),
        memory,
        touched,
        excludes: settings.claude_md_excludes(),
        disabled: env.var("CLAUDE_CODE_DISABLE_CLAUDE_MDS").is_some()
            || env
                .var_str("CLAUDE_CODE_SIMPLE")
                .is_some_and(|v| crate::settings::truthy(&v)),
        external_includes_approved: external_includes_approved(env, &cwd),
        cwd,
    };
    let mut stack = load_stack(&inputs);
    if let LocationRule::Setting {
        layer: SettingsLayer::Project,
        file,
    } = &location.rule
    {
        stack
            .warnings
            .push(Warning::ProjectSettingIgnored { file: file.clone() });
    }
    for problem in settings.skipped.iter().cloned().chain(location.passed_over) {
        stack.warnings.push(Warning::SettingPassedOver { problem });
    }
    Ok(stack)
}

/// Whether Claude Code's global config (`.claude.json` in `CLAUDE_CONFIG_DIR`, else in the home
/// folder) approves imports from outside this project.
fn external_includes_approved(env: &Environment, cwd: &Path) -> bool {
    let file = match env.var("CLAUDE_CONFIG_DIR") {
        Some(dir) => PathBuf::from(dir).join(".claude.json"),
        None => match env.home() {
            Ok(home) => home.join(".claude.json"),
            Err(_) => return false,
        },
    };
    // Claude Code's own global config grows with every project it has seen.
    const CONFIG_BYTES: u64 = 64 * 1024 * 1024;
    let Ok(text) = crate::input::read_regular_text(&file, CONFIG_BYTES) else {
        return false;
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    let key = crate::paths::project_key(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    [cwd.to_path_buf(), key].iter().any(|project| {
        json["projects"][project.to_string_lossy().as_ref()]["hasClaudeMdExternalIncludesApproved"]
            .as_bool()
            .unwrap_or(false)
    })
}
