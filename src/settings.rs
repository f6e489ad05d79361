//! Claude Code's `settings.json` layers, as far as memory is concerned (DESIGN §2):
//! `autoMemoryDirectory` (never from project settings) and the auto-memory enable switch.

use std::path::{Path, PathBuf};

use crate::env::{EnvError, Environment};
use crate::input::MAX_SETTINGS_BYTES;

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

/// The memory-related keys of one settings file.
#[derive(Debug, Clone)]
struct LayerValues {
    layer: SettingsLayer,
    file: PathBuf,
    memory_directory: Option<String>,
    memory_enabled: Option<bool>,
    claude_md_excludes: Vec<String>,
    extract_every: Option<u32>,
    /// `memdir.extract.model`: the model Claude Code runs for extraction.
    extract_model: Option<String>,
    /// `memdir.recall` (all of recall) or `memdir.recall.prompt`: whether the prompt hook adds
    /// memories.
    recall_prompt: Option<bool>,
    /// `memdir.recall` or `memdir.recall.sessionStart`: whether SessionStart adds the team index.
    recall_session_start: Option<bool>,
    /// `memdir.sync.auto`: whether the SessionStart and SessionEnd hooks run personal sync.
    sync_auto: Option<bool>,
    /// `memdir.recall.{memories,bodies,sensitivity}`: what the prompt hook may add.
    recall_limits: RecallLimits,
    /// `enabledPlugins` sets the memdir plugin (`memdir@<marketplace>`) on (`Some(true)`) or off.
    memdir_plugin: Option<bool>,
    /// `memdir.consolidate`: `Some(None)` says off, `Some(Some(every))` on.
    consolidate: Option<Option<ConsolidateEvery>>,
    /// A local settings file that git tracks: anyone who can push to the project wrote it, so
    /// it is read as project settings (DESIGN §10).
    tracked_by_git: bool,
}

/// What the prompt hook may add (DESIGN §12), as settings give it (`memdir.recall`): each key
/// from the first layer that sets it; `None` for the default.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RecallLimits {
    /// `memories`: at most this many memories a prompt (0 to [`MAX_RECALL_MEMORIES`]),
    pub memories: Option<usize>,
    /// `bodies`: at most this many of them with their body (0 to [`MAX_RECALL_BODIES`]),
    pub bodies: Option<usize>,
    /// `sensitivity`: how readily a memory clears the bar, 0 (quiet) to 1 (eager).
    pub sensitivity: Option<f32>,
}

/// The most memories settings may let recall add to one prompt,
pub const MAX_RECALL_MEMORIES: usize = 20;
/// and with their body.
pub const MAX_RECALL_BODIES: usize = 10;

/// When the background consolidation runs (`memdir.consolidate`, DESIGN §7): at a session's
/// end, once this many sessions ended and this many hours passed since the last one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConsolidateEvery {
    pub sessions: u32,
    pub hours: u32,
}

impl Default for ConsolidateEvery {
    /// As Claude Code's own background consolidation waits: five sessions and a day.
    fn default() -> Self {
        ConsolidateEvery {
            sessions: 5,
            hours: 24,
        }
    }
}

/// Every settings layer that exists, highest precedence first.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    layers: Vec<LayerValues>,
    /// Files and keys that were skipped, one line each (`path: why`), for a warning.
    pub skipped: Vec<String>,
}

impl Settings {
    /// Read the policy, local, project and user settings files that exist. Any settings file can
    /// come from a cloned repository, so one that cannot be read (not a regular file, over
    /// [`MAX_SETTINGS_BYTES`], not UTF-8, not a JSON object) is skipped and named in
    /// [`Settings::skipped`], as Claude Code skips it; a key of the wrong type is skipped alike.
    pub fn load(env: &Environment, project: &Path) -> Result<Self, EnvError> {
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
        let mut settings = Settings::default();
        for (layer, file) in files {
            if let Some(values) = read_layer(layer, file, &mut settings.skipped) {
                settings.layers.push(values);
            }
        }
        Ok(settings)
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

    /// Whether `file` is a local settings file read as project settings because git tracks it.
    pub fn is_tracked_local(&self, file: &Path) -> bool {
        self.layers
            .iter()
            .any(|l| l.tracked_by_git && l.file == file)
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

    /// The model memdir has Claude Code run for extraction (DESIGN §6): from the first layer
    /// but project settings that sets `memdir.extract.model` (a cloned repository does not pick
    /// what the person pays for); [`crate::model::claude::DEFAULT_MODEL`] when none does.
    pub fn extract_model(&self) -> String {
        self.layers
            .iter()
            .filter(|l| l.layer != SettingsLayer::Project)
            .find_map(|l| l.extract_model.clone())
            .unwrap_or_else(|| crate::model::claude::DEFAULT_MODEL.to_string())
    }

    /// Whether the UserPromptSubmit hook adds memories to prompts (DESIGN §12): from the first
    /// layer that sets `memdir.recall` (`false` turns all of recall off) or
    /// `memdir.recall.prompt`; on when none does.
    pub fn recall_prompt(&self) -> bool {
        self.layers
            .iter()
            .find_map(|l| l.recall_prompt)
            .unwrap_or(true)
    }

    /// Whether the SessionStart hook adds the team memory index: from the first layer that sets
    /// `memdir.recall` or `memdir.recall.sessionStart`; on when none does.
    pub fn recall_session_start(&self) -> bool {
        self.layers
            .iter()
            .find_map(|l| l.recall_session_start)
            .unwrap_or(true)
    }

    /// Whether the SessionStart and SessionEnd hooks run personal sync (DESIGN §8): from the
    /// first layer that sets `memdir.sync.auto`, never a project's (a cloned repository must
    /// not send memory over the network: a tracked local settings file counts as a project's);
    /// off when none does.
    pub fn sync_auto(&self) -> bool {
        self.layers
            .iter()
            .filter(|l| l.layer != SettingsLayer::Project)
            .find_map(|l| l.sync_auto)
            .unwrap_or(false)
    }

    /// What the prompt hook may add: `memdir.recall.memories`, `.bodies` and `.sensitivity`,
    /// each from the first layer that sets it.
    pub fn recall_limits(&self) -> RecallLimits {
        RecallLimits {
            memories: self.layers.iter().find_map(|l| l.recall_limits.memories),
            bodies: self.layers.iter().find_map(|l| l.recall_limits.bodies),
            sensitivity: self.layers.iter().find_map(|l| l.recall_limits.sensitivity),
        }
    }

    /// When the background consolidation runs, from the first layer that sets
    /// `memdir.consolidate`; `None` (off) when none does.
    pub fn consolidate(&self) -> Option<ConsolidateEvery> {
        self.layers.iter().find_map(|l| l.consolidate).flatten()
    }

    /// The settings file that turns the memdir plugin on, when the first layer that names it
    /// (`enabledPlugins`: `"memdir@<marketplace>": true`) does.
    pub fn memdir_plugin_enabled(&self) -> Option<&Path> {
        self.layers
            .iter()
            .find_map(|l| Some((l.memdir_plugin?, l.file.as_path())))
            .and_then(|(on, file)| on.then_some(file))
    }

    /// `autoMemoryEnabled` from the first layer that sets it.
    fn memory_enabled(&self) -> Option<(bool, &Path)> {
        self.layers
            .iter()
            .find_map(|l| Some((l.memory_enabled?, l.file.as_path())))
    }
}

/// One settings file's values; `None` when it does not exist or is skipped (said in `skipped`).
fn read_layer(
    mut layer: SettingsLayer,
    file: PathBuf,
    skipped: &mut Vec<String>,
) -> Option<LayerValues> {
    let text = match crate::input::read_regular_text(&file, MAX_SETTINGS_BYTES) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => return None,
        Err(e) => {
            skipped.push(format!("skipped settings file {e}"));
            return None;
        }
    };
    let json: serde_json::Map<String, serde_json::Value> = match serde_json::from_str(&text) {
        Ok(json) => json,
        Err(e) if text.trim().is_empty() => {
            skipped.push(format!(
                "skipped settings file {}: it is empty ({e})",
                file.display()
            ));
            return None;
        }
        Err(e) => {
            skipped.push(format!(
                "skipped settings file {}: it is not a JSON object ({e})",
                file.display()
            ));
            return None;
        }
    };
    let mut wrong_type = |key: &str, expected: &str| {
        skipped.push(format!(
            "skipped {key} in settings file {}: it must be {expected}",
            file.display()
        ));
    };
    let memory_directory = match json.get("autoMemoryDirectory") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(_) => {
            wrong_type("autoMemoryDirectory", "a string");
            None
        }
    };
    let memory_enabled = match json.get("autoMemoryEnabled") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Bool(b)) => Some(*b),
        Some(_) => {
            wrong_type("autoMemoryEnabled", "true or false");
            None
        }
    };
    let claude_md_excludes = match json.get("claudeMdExcludes") {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    let extract_every = match json.get("memdir").and_then(|m| m.get("extractEveryTurns")) {
        None | Some(serde_json::Value::Null) => None,
        Some(value) => match value.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) if n >= 1 => Some(n),
            _ => {
                wrong_type(
                    "memdir.extractEveryTurns",
                    "a whole number of turns, 1 or more",
                );
                None
            }
        },
    };
    let extract_model = match json
        .get("memdir")
        .and_then(|m| m.get("extract"))
        .and_then(|e| e.get("model"))
    {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(model)) if is_model_name(model) => Some(model.clone()),
        Some(_) => {
            wrong_type(
                "memdir.extract.model",
                "a model's alias or name (letters, digits, '.', '-', '_', ':', '[', ']'; at most 100)",
            );
            None
        }
    };
    let mut recall_limits = RecallLimits::default();
    let (recall_prompt, recall_session_start) = match json
        .get("memdir")
        .and_then(|m| m.get("recall"))
    {
        None | Some(serde_json::Value::Null) => (None, None),
        Some(serde_json::Value::Bool(b)) => (Some(*b), Some(*b)),
        Some(serde_json::Value::Object(parts)) => {
            let mut part = |key: &str| match parts.get(key) {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::Bool(b)) => Some(*b),
                Some(_) => {
                    wrong_type(&format!("memdir.recall.{key}"), "true or false");
                    None
                }
            };
            let switches = (part("prompt"), part("sessionStart"));
            let mut count = |key: &str, most: usize| match parts.get(key) {
                None | Some(serde_json::Value::Null) => None,
                Some(value) => match value.as_u64().and_then(|n| usize::try_from(n).ok()) {
                    Some(n) if n <= most => Some(n),
                    _ => {
                        wrong_type(
                            &format!("memdir.recall.{key}"),
                            &format!("a whole number from 0 to {most}"),
                        );
                        None
                    }
                },
            };
            recall_limits.memories = count("memories", MAX_RECALL_MEMORIES);
            recall_limits.bodies = count("bodies", MAX_RECALL_BODIES);
            recall_limits.sensitivity = match parts.get("sensitivity") {
                None | Some(serde_json::Value::Null) => None,
                Some(value) => match value.as_f64() {
                    Some(x) if (0.0..=1.0).contains(&x) => Some(x as f32),
                    _ => {
                        wrong_type("memdir.recall.sensitivity", "a number from 0 to 1");
                        None
                    }
                },
            };
            switches
        }
        Some(_) => {
            wrong_type(
                "memdir.recall",
                "true, false or {\"prompt\": …, \"sessionStart\": …, \"memories\": …, \"bodies\": …, \"sensitivity\": …}",
            );
            (None, None)
        }
    };
    let consolidate = match json.get("memdir").and_then(|m| m.get("consolidate")) {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Bool(on)) => Some(on.then(ConsolidateEvery::default)),
        Some(serde_json::Value::Object(parts)) => {
            let mut every = ConsolidateEvery::default();
            let mut fine = true;
            for (key, slot) in [
                ("sessions", &mut every.sessions),
                ("hours", &mut every.hours),
            ] {
                match parts.get(key) {
                    None | Some(serde_json::Value::Null) => {}
                    Some(value) => match value.as_u64().and_then(|n| u32::try_from(n).ok()) {
                        Some(n) => *slot = n,
                        None => {
                            wrong_type(
                                &format!("memdir.consolidate.{key}"),
                                "a whole number, 0 or more",
                            );
                            fine = false;
                        }
                    },
                }
            }
            fine.then_some(Some(every))
        }
        Some(_) => {
            wrong_type(
                "memdir.consolidate",
                "true, false or {\"sessions\": N, \"hours\": H}",
            );
            None
        }
    };
    let sync_auto = match json.get("memdir").and_then(|m| m.get("sync")) {
        None | Some(serde_json::Value::Null) => None,
        Some(sync) => match sync.get("auto") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Bool(b)) => Some(*b),
            Some(_) => {
                wrong_type("memdir.sync.auto", "true or false");
                None
            }
        },
    };
    // A plugin entry that is not true or false is Claude Code's to judge; it reads as unset here.
    let memdir_plugin = json
        .get("enabledPlugins")
        .and_then(serde_json::Value::as_object)
        .and_then(|plugins| {
            plugins
                .iter()
                .filter(|(key, _)| key.starts_with("memdir@"))
                .find_map(|(_, on)| on.as_bool())
        });
    let tracked_by_git = layer == SettingsLayer::Local && crate::repo::is_tracked(&file);
    if tracked_by_git {
        layer = SettingsLayer::Project;
    }
    if layer == SettingsLayer::Project && extract_model.is_some() {
        skipped.push(format!(
            "skipped memdir.extract.model in project settings file {}: the model you pay for \
             is set in user or local settings, never by a repository",
            file.display()
        ));
    }

    Some(LayerValues {
        layer,
        file,
        memory_directory,
        memory_enabled,
        claude_md_excludes,
        extract_every,
        extract_model,
        recall_prompt,
        recall_session_start,
        sync_auto,
        recall_limits,
        memdir_plugin,
        consolidate,
        tracked_by_git,
    })
}

/// A model's alias or name as `claude --model` takes it (`haiku`, `claude-haiku-4-5`,
/// `claude-sonnet-4-5[1m]`): nothing a shell or an argument parser would read otherwise.
fn is_model_name(model: &str) -> bool {
    !model.is_empty()
        && model.len() <= 100
        && !model.starts_with('-')
        && model
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-:[]".contains(c))
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
    use proptest::prelude::*;

    proptest! {
        /// Whatever a cloned repository puts in a settings file, reading it never panics: the
        /// file is used, or skipped with a reason, and a memory dir it names is a string.
        #[test]
        fn any_settings_file_is_read_or_skipped(bytes in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..200),
            "\\PC{0,100}".prop_map(String::into_bytes),
            prop::collection::vec(prop_oneof![
                Just(r#""autoMemoryDirectory": "~/m""#.to_string()),
                Just(r#""autoMemoryDirectory": 5"#.to_string()),
                Just(r#""autoMemoryEnabled": "no""#.to_string()),
                Just(r#""autoMemoryEnabled": false"#.to_string()),
                Just(r#""memdir": {"extractEveryTurns": -1}"#.to_string()),
                Just(r#""memdir": [1, 2]"#.to_string()),
                Just(r#""claudeMdExcludes": [1, "a", null]"#.to_string()),
                "\"[a-z]{1,8}\": [0-9]{1,3}",
            ], 0..6).prop_map(|keys| format!("{{{}}}", keys.join(", ")).into_bytes()),
        ]) {
            let dir = tempfile::tempdir().expect("tempdir");
            let file = dir.path().join("settings.json");
            std::fs::write(&file, &bytes).expect("write");
            let mut skipped = Vec::new();
            let read = read_layer(SettingsLayer::User, file, &mut skipped);
            prop_assert!(read.is_some() || !skipped.is_empty());
            if let Some(values) = read {
                prop_assert!(values.extract_every.is_none_or(|n| n >= 1));
            }
        }
    }

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
