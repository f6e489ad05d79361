//! Claude Code's `settings.json` layers, as far as memory is concerned (DESIGN §2):
//! `autoMemoryDirectory` (never from project settings) and the auto-memory enable switch.

use std::path::{Path, PathBuf};

use crate::paths::{Environment, PathError};

/// A settings file's place in Claude Code's precedence, highest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsLayer {
    Policy,
    Local,
    Project,
    User,
}

impl SettingsLayer {
    pub fn name(self) -> &'static str {
        match self {
            SettingsLayer::Policy => "policy",
            SettingsLayer::Local => "local",
            SettingsLayer::Project => "project",
            SettingsLayer::User => "user",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read settings file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("settings file {path} is not valid JSON: {source}")]
    Malformed {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("settings file {path}: {key} must be {expected}")]
    WrongType {
        path: PathBuf,
        key: &'static str,
        expected: &'static str,
    },
    #[error(transparent)]
    Path(#[from] PathError),
}

/// The memory-related keys of one settings file.
#[derive(Debug, Clone)]
struct LayerValues {
    layer: SettingsLayer,
    file: PathBuf,
    memory_directory: Option<String>,
    memory_enabled: Option<bool>,
    claude_md_excludes: Vec<String>,
    extract_every: Option<u32>,
}

/// Every settings layer that exists, highest precedence first.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    layers: Vec<LayerValues>,
}

impl Settings {
    /// Read the policy, local, project and user settings files that exist. A file that exists
    /// but is not valid JSON is an error: guessing past it could send writes elsewhere.
    pub fn load(env: &Environment, project: &Path) -> Result<Self, SettingsError> {
        let files = [
            (
                SettingsLayer::Policy,
                env.managed_dir().join("managed-settings.json"),
            ),
            (
                SettingsLayer::Local,
                project.join(".claude").join("settings.local.json"),
            ),
            (
                SettingsLayer::Project,
                project.join(".claude").join("settings.json"),
            ),
            (SettingsLayer::User, env.config_dir()?.join("settings.json")),
        ];
        let mut layers = Vec::new();
        for (layer, file) in files {
            if let Some(values) = read_layer(layer, file)? {
                layers.push(values);
            }
        }
        Ok(Settings { layers })
    }

    /// Every layer's `autoMemoryDirectory`, highest precedence first (project included).
    pub fn memory_directories(&self) -> impl Iterator<Item = (SettingsLayer, &Path, &str)> {
        self.layers
            .iter()
            .filter_map(|l| Some((l.layer, l.file.as_path(), l.memory_directory.as_deref()?)))
    }

    /// A project settings file that sets `autoMemoryDirectory`, which is never honoured.
    pub fn project_memory_directory(&self) -> Option<(&Path, &str)> {
        self.layers
            .iter()
            .filter(|l| l.layer == SettingsLayer::Project)
            .find_map(|l| Some((l.file.as_path(), l.memory_directory.as_deref()?)))
    }

    /// `claudeMdExcludes` from every layer: globs of instruction files not to load.
    pub fn claude_md_excludes(&self) -> Vec<String> {
        self.layers
            .iter()
            .flat_map(|l| l.claude_md_excludes.iter().cloned())
            .collect()
    }

    /// memdir's throttle (DESIGN §6): extract every N eligible turns, from the first layer that
    /// sets `memdir.extractEveryTurns`; 1 when none does.
    pub fn extract_every(&self) -> u32 {
        self.layers
            .iter()
            .find_map(|l| l.extract_every)
            .unwrap_or(1)
    }

    /// `autoMemoryEnabled` from the first layer that sets it.
    fn memory_enabled(&self) -> Option<(bool, &Path)> {
        self.layers
            .iter()
            .find_map(|l| Some((l.memory_enabled?, l.file.as_path())))
    }
}

fn read_layer(layer: SettingsLayer, file: PathBuf) -> Result<Option<LayerValues>, SettingsError> {
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(SettingsError::Read { path: file, source }),
    };
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|source| SettingsError::Malformed {
            path: file.clone(),
            source,
        })?;
    let memory_directory = match json.get("autoMemoryDirectory") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(_) => {
            return Err(SettingsError::WrongType {
                path: file,
                key: "autoMemoryDirectory",
                expected: "a string",
            });
        }
    };
    let memory_enabled = match json.get("autoMemoryEnabled") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Bool(b)) => Some(*b),
        Some(_) => {
            return Err(SettingsError::WrongType {
                path: file,
                key: "autoMemoryEnabled",
                expected: "true or false",
            });
        }
    };
    let claude_md_excludes = match json.get("claudeMdExcludes") {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    let extract_every = match json.pointer("/memdir/extractEveryTurns") {
        None | Some(serde_json::Value::Null) => None,
        Some(value) => match value.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) if n >= 1 => Some(n),
            _ => {
                return Err(SettingsError::WrongType {
                    path: file,
                    key: "memdir.extractEveryTurns",
                    expected: "a whole number of turns, 1 or more",
                });
            }
        },
    };
    Ok(Some(LayerValues {
        layer,
        file,
        memory_directory,
        memory_enabled,
        claude_md_excludes,
        extract_every,
    }))
}

/// Whether auto memory (and with it extraction and team memory) is on, and which switch said so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AutoMemory {
    On,
    /// Off; the text names the switch, e.g. `CLAUDE_CODE_DISABLE_AUTO_MEMORY=1`.
    Off(String),
}

/// `1`, `true`, `yes` or `on`, in any case (Claude Code's reading of a switch variable).
pub fn truthy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

fn falsy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "0" | "false" | "no" | "off"
    )
}

/// The enable switch, in Claude Code's order: the explicit env switch either way, simple mode,
/// a remote session without a memory dir of its own, then `autoMemoryEnabled`.
pub fn auto_memory(env: &Environment, settings: &Settings) -> AutoMemory {
    const DISABLE: &str = "CLAUDE_CODE_DISABLE_AUTO_MEMORY";
    if let Some(value) = env.var_str(DISABLE) {
        if truthy(&value) {
            return AutoMemory::Off(format!("{DISABLE}={value}"));
        }
        if falsy(&value) {
            return AutoMemory::On;
        }
    }
    if let Some(value) = env.var_str("CLAUDE_CODE_SIMPLE").filter(|v| truthy(v)) {
        return AutoMemory::Off(format!("CLAUDE_CODE_SIMPLE={value}"));
    }
    if let Some(value) = env.var_str("CLAUDE_CODE_REMOTE").filter(|v| truthy(v))
        && env.var("CLAUDE_CODE_REMOTE_MEMORY_DIR").is_none()
        && env.var("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE").is_none()
    {
        return AutoMemory::Off(format!(
            "CLAUDE_CODE_REMOTE={value} without CLAUDE_CODE_REMOTE_MEMORY_DIR"
        ));
    }
    match settings.memory_enabled() {
        Some((false, file)) => {
            AutoMemory::Off(format!("autoMemoryEnabled: false in {}", file.display()))
        }
        _ => AutoMemory::On,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> Environment {
        Environment::from_vars(vars.iter().copied(), PathBuf::from("/"))
    }

    #[test]
    fn switch_order() {
        let none = Settings::default();
        assert_eq!(auto_memory(&env(&[]), &none), AutoMemory::On);
        assert_eq!(
            auto_memory(&env(&[("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "yes")]), &none),
            AutoMemory::Off("CLAUDE_CODE_DISABLE_AUTO_MEMORY=yes".into())
        );
        // Forced on beats simple mode.
        assert_eq!(
            auto_memory(
                &env(&[
                    ("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "0"),
                    ("CLAUDE_CODE_SIMPLE", "1")
                ]),
                &none
            ),
            AutoMemory::On
        );
        assert!(matches!(
            auto_memory(&env(&[("CLAUDE_CODE_SIMPLE", "true")]), &none),
            AutoMemory::Off(s) if s.starts_with("CLAUDE_CODE_SIMPLE")
        ));
        assert!(matches!(
            auto_memory(&env(&[("CLAUDE_CODE_REMOTE", "1")]), &none),
            AutoMemory::Off(s) if s.starts_with("CLAUDE_CODE_REMOTE")
        ));
        assert_eq!(
            auto_memory(
                &env(&[
                    ("CLAUDE_CODE_REMOTE", "1"),
                    ("CLAUDE_CODE_REMOTE_MEMORY_DIR", "/srv/m")
                ]),
                &none
            ),
            AutoMemory::On
        );
    }
}
