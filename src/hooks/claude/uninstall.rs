//! memdir's hook entries taken out of a Claude Code settings file (DESIGN §11: `hooks uninstall`
//! is install's exact inverse). A hook goes when install would take it for memdir's own under an
//! event memdir hooks (the same recognition, [`memdir_hook`]: any program path, any extractor);
//! a group, an event's list and `hooks` itself go only when that removal emptied them. Every
//! other key, group and hook keeps its value and its place, and the file is written back as
//! install writes it, so installing then uninstalling gives back a file in that format byte for
//! byte.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{HookExtractor, MemdirCommand, SettingsText, claude_entries, memdir_hook, unmergeable};
use crate::hooks::{DEFAULT_PROGRAM, HooksError};

/// A memdir hook taken out of an event.
#[derive(Debug, PartialEq, Eq)]
pub struct Removed {
    pub event: String,
    /// The matcher of the group it was in.
    pub matcher: Option<String>,
    /// The command as a person would type it.
    pub command: String,
}

/// What uninstalling from one settings file did.
#[derive(Debug)]
pub struct Uninstalled {
    pub file: PathBuf,
    /// Empty: nothing of memdir's was there, and the file was not written.
    pub removed: Vec<Removed>,
}

/// Take memdir's hooks (those running memdir, or `program` under another name) out of the
/// settings file `file`, and write it back only when one was there. A missing file has none.
/// A symlinked file is written through as install does, within `boundary` when given.
pub fn uninstall(
    file: &Path,
    program: &str,
    boundary: Option<&Path>,
) -> Result<Uninstalled, HooksError> {
    let existing = SettingsText::read(file)?;
    let mut removed = Vec::new();
    if existing.text.is_some() {
        let mut settings = existing.parse(file)?;
        removed = remove_entries(&mut settings, program)
            .map_err(|problem| unmergeable(file, &problem))?;
        if !removed.is_empty() {
            existing.rewrite(file, &settings, boundary)?;
        }
    }
    Ok(Uninstalled {
        file: file.to_path_buf(),
        removed,
    })
}

/// Each event memdir hooks, with the memdir subcommands its entries run.
fn memdir_events(program: &str) -> Vec<(String, Vec<String>)> {
    let entries = claude_entries(DEFAULT_PROGRAM, &HookExtractor::Builtin);
    let events = entries["hooks"].as_object().into_iter().flatten();
    events
        .map(|(event, groups)| {
            let commands = groups
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|group| group.get("hooks").and_then(Value::as_array))
                .flatten()
                .filter_map(|hook| hook.get("command").and_then(Value::as_str));
            let subcommands = commands
                .filter_map(crate::shell::words)
                .filter_map(|words| MemdirCommand::parse(&words, program))
                .map(|memdir| memdir.subcommand)
                .collect();
            (event.clone(), subcommands)
        })
        .collect()
}

/// Remove memdir's hooks from `settings`, in place; what was removed, in file order.
fn remove_entries(settings: &mut Value, program: &str) -> Result<Vec<Removed>, String> {
    let Some(hooks) = settings.get_mut("hooks") else {
        return Ok(Vec::new());
    };
    let Some(hooks) = hooks.as_object_mut() else {
        return Err("\"hooks\" is not an object of events".into());
    };
    let mut removed = Vec::new();
    for (event, subcommands) in memdir_events(program) {
        let Some(groups) = hooks.get_mut(event.as_str()) else {
            continue;
        };
        let Some(groups) = groups.as_array_mut() else {
            return Err(format!("\"hooks\".\"{event}\" is not a list"));
        };
        let before = removed.len();
        groups.retain_mut(|group| {
            let matcher = group
                .get("matcher")
                .and_then(Value::as_str)
                .map(str::to_string);
            let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                return true;
            };
            let had = list.len();
            list.retain(|hook| {
                let found = subcommands
                    .iter()
                    .find_map(|subcommand| memdir_hook(hook, subcommand, program));
                let Some((found, _)) = found else {
                    return true;
                };
                removed.push(Removed {
                    event: event.clone(),
                    matcher: matcher.clone(),
                    command: found.display(),
                });
                false
            });
            // A group memdir's removal emptied goes; one that was empty already stays.
            !list.is_empty() || list.len() == had
        });
        if groups.is_empty() && removed.len() > before {
            hooks.shift_remove(event.as_str());
        }
    }
    if hooks.is_empty()
        && !removed.is_empty()
        && let Some(settings) = settings.as_object_mut()
    {
        settings.shift_remove("hooks");
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_memdirs_hooks_go_and_only_what_they_emptied() {
        let mut settings = serde_json::json!({"model": "opus", "hooks": {
            "Stop": [
                {"hooks": [{"type": "command", "command": "notify-send done"}]},
                {"hooks": [
                    {"type": "command", "command": "/opt/x/memdir extract --hook --extractor agent --agent-cmd /a/agent"},
                    {"type": "command", "command": "say stopped"},
                ]},
            ],
            "SessionEnd": [{"hooks": [{"type": "command", "command": "memdir extract --hook"}]}],
            "PreCompact": [],
            "PostToolUse": [
                {"matcher": "Bash", "hooks": []},
                {"matcher": "Write", "hooks": [{"type": "command", "command": "memdir", "args": ["snapshot", "--hook"]}]},
            ],
            "UserPromptSubmit": [{"hooks": [
                {"type": "command", "command": "memdir recall --hook 2>/dev/null || true"},
                {"type": "command", "command": "memdir snapshot --hook"},
            ]}],
            "Notification": [{"hooks": [{"type": "command", "command": "memdir extract --hook"}]}],
        }});
        let removed = remove_entries(&mut settings, "memdir").expect("removes");
        let commands: Vec<(&str, Option<&str>, &str)> = removed
            .iter()
            .map(|r| (r.event.as_str(), r.matcher.as_deref(), r.command.as_str()))
            .collect();
        assert_eq!(
            commands,
            [
                (
                    "Stop",
                    None,
                    "/opt/x/memdir extract --hook --extractor agent --agent-cmd /a/agent"
                ),
                ("SessionEnd", None, "memdir extract --hook"),
                ("PostToolUse", Some("Write"), "memdir snapshot --hook"),
            ]
        );
        assert_eq!(
            settings,
            serde_json::json!({"model": "opus", "hooks": {
                "Stop": [
                    {"hooks": [{"type": "command", "command": "notify-send done"}]},
                    {"hooks": [{"type": "command", "command": "say stopped"}]},
                ],
                "PreCompact": [],
                "PostToolUse": [{"matcher": "Bash", "hooks": []}],
                // A user's pipeline is not install's entry; snapshot is not a prompt hook.
                "UserPromptSubmit": [{"hooks": [
                    {"type": "command", "command": "memdir recall --hook 2>/dev/null || true"},
                    {"type": "command", "command": "memdir snapshot --hook"},
                ]}],
                // memdir hooks no Notification: not its entry.
                "Notification": [{"hooks": [{"type": "command", "command": "memdir extract --hook"}]}],
            }})
        );
        assert!(
            remove_entries(&mut settings, "memdir")
                .expect("removes")
                .is_empty()
        );
    }

    #[test]
    fn emptied_hooks_go_and_wrong_shapes_refuse() {
        let mut settings = serde_json::json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "memdir-dev extract --hook"},
        ]}]}, "model": "opus"});
        assert!(
            remove_entries(&mut settings.clone(), "memdir")
                .expect("removes")
                .is_empty(),
            "memdir-dev is not memdir unless --command names it"
        );
        let removed = remove_entries(&mut settings, "/usr/local/bin/memdir-dev").expect("removes");
        assert_eq!(removed.len(), 1);
        assert_eq!(settings, serde_json::json!({"model": "opus"}));

        for bad in [
            serde_json::json!({"hooks": []}),
            serde_json::json!({"hooks": {"Stop": {}}}),
        ] {
            assert!(remove_entries(&mut bad.clone(), "memdir").is_err(), "{bad}");
        }
    }
}
