//! memdir's user config (DESIGN §8): `<config dir>/memdir/config.json`, memdir's own file beside
//! Claude Code's settings (`$CLAUDE_CONFIG_DIR`, else `~/.claude`), holding the remote personal
//! sync uses for every project: `{"sync": {"remote": "git@github.com:me/memory.git"}}`. Keys
//! memdir does not know are kept as they are when it writes the file.

use std::path::{Path, PathBuf};

use crate::personal::PersonalError;

/// The file is a few lines; one past this is not memdir's.
const MAX_CONFIG_BYTES: u64 = 64 * 1024;

/// Where the user config is, in the config dir.
pub fn path(config_dir: &Path) -> PathBuf {
    config_dir.join("memdir").join("config.json")
}

/// The user config as a JSON object; empty when there is no file.
fn load(config_dir: &Path) -> Result<serde_json::Map<String, serde_json::Value>, PersonalError> {
    let file = path(config_dir);
    let bad = |why: String| PersonalError::Config {
        path: file.clone(),
        why,
    };
    let text = match crate::input::read_regular_text(&file, MAX_CONFIG_BYTES) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => return Ok(serde_json::Map::new()),
        Err(e) => return Err(bad(e.to_string())),
    };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        Ok(_) => Err(bad("not a JSON object".into())),
        Err(e) => Err(bad(e.to_string())),
    }
}

/// The remote personal sync uses, if one is set.
pub fn remote(config_dir: &Path) -> Result<Option<String>, PersonalError> {
    let config = load(config_dir)?;
    match config.get("sync").and_then(|s| s.get("remote")) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(url)) if !url.trim().is_empty() => Ok(Some(url.clone())),
        Some(_) => Err(PersonalError::Config {
            path: path(config_dir),
            why: "sync.remote must be a git address".into(),
        }),
    }
}

/// Keep `url` as the remote personal sync uses (the file written atomically, other keys kept).
pub fn set_remote(config_dir: &Path, url: &str) -> Result<(), PersonalError> {
    let mut config = load(config_dir)?;
    let sync = config
        .entry("sync")
        .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
    if !sync.is_object() {
        *sync = serde_json::Value::Object(serde_json::Map::new());
    }
    sync["remote"] = url.into();
    let file = path(config_dir);
    let mut text = serde_json::to_string_pretty(&config).map_err(|e| PersonalError::Config {
        path: file.clone(),
        why: e.to_string(),
    })?;
    text.push('\n');
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|source| PersonalError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    crate::atomic::replace(&file, text.as_bytes())
        .map_err(|source| PersonalError::Io { path: file, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remote_is_kept_with_the_keys_memdir_does_not_know() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(remote(dir.path()).expect("no file"), None);
        std::fs::create_dir_all(dir.path().join("memdir")).expect("dir");
        std::fs::write(
            path(dir.path()),
            r#"{"mine": [1, 2], "sync": {"other": true}}"#,
        )
        .expect("write");
        set_remote(dir.path(), "git@host:me/memory.git").expect("set");
        assert_eq!(
            remote(dir.path()).expect("read").as_deref(),
            Some("git@host:me/memory.git")
        );
        let text = std::fs::read_to_string(path(dir.path())).expect("read");
        assert!(
            text.contains("\"mine\"") && text.contains("\"other\": true"),
            "{text}"
        );
        std::fs::write(path(dir.path()), "[1]").expect("write");
        assert!(matches!(
            remote(dir.path()),
            Err(PersonalError::Config { .. })
        ));
    }
}
