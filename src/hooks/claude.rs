//! Claude Code's `settings.json` with memdir's hook entries merged in (DESIGN §11): Stop,
//! SessionEnd and PreCompact run `memdir extract --hook`; PostToolUse on
//! Write|Edit|MultiEdit|NotebookEdit runs `memdir snapshot --hook`; UserPromptSubmit and
//! SessionStart run `memdir recall --hook`; SessionStart and SessionEnd run `memdir sync --hook`
//! (personal sync, which does nothing unless `memdir.sync.auto` is on). Every other key and hook in the file is kept; an entry already there
//! is left alone; a memdir command of another path or older arguments is updated in place.
//! Uninstalling removes exactly the hooks install recognises as memdir's ([`uninstall`]).
//!
//! The entries are `hooks/claude-settings.json`, compiled into the binary so that an installed
//! memdir can write them without the repository. Their shape is Claude Code's settings schema,
//! checked against 2.1.332: `hooks` maps an event name to a list of `{matcher?, hooks: [{type,
//! command, …}]}` groups, and a `command` hook runs through a shell (bash on POSIX) unless it
//! has an exec-form `args` list.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::hooks::{DEFAULT_PROGRAM, HooksError};
use crate::shell::{Word, quote};

mod uninstall;
pub use uninstall::{Removed, Uninstalled, uninstall};

/// The entries memdir needs in Claude Code's settings, as users would paste them.
const CLAUDE_ENTRIES: &str = include_str!("../../hooks/claude-settings.json");

fn unmergeable(file: &Path, problem: &str) -> HooksError {
    HooksError::Unmergeable {
        file: file.to_path_buf(),
        problem: problem.to_string(),
    }
}

/// What the Stop, SessionEnd and PreCompact hooks extract with (`memdir extract --hook`'s
/// `--extractor`, and `--agent-cmd` when a command of the person's is the model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookExtractor {
    /// A model when one answers, else the builtin extractor: `extract`'s default.
    Auto {
        cmd: Option<String>,
    },
    /// The model only (Claude Code, or `cmd`).
    Agent {
        cmd: Option<String>,
    },
    Builtin,
}

impl HookExtractor {
    /// The words `extract --hook` takes to use it (none for `auto` with Claude Code, the
    /// default).
    fn arguments(&self) -> Vec<String> {
        let (name, cmd) = match self {
            HookExtractor::Auto { cmd } => (None, cmd),
            HookExtractor::Agent { cmd } => (Some("agent"), cmd),
            HookExtractor::Builtin => (Some("builtin"), &None),
        };
        let mut words: Vec<String> = name
            .into_iter()
            .flat_map(|name| ["--extractor".to_string(), name.to_string()])
            .collect();
        if let Some(cmd) = cmd {
            words.extend(["--agent-cmd".to_string(), cmd.clone()]);
        }
        words
    }
}

/// The extractor a memdir command line asks for: `--extractor` and `--agent-cmd` (either as
/// `--flag value` or `--flag=value`), `auto` when it names none.
fn extractor_in(arguments: &[String]) -> (String, Option<String>) {
    let mut extractor = "auto".to_string();
    let mut cmd = None;
    let mut words = arguments.iter();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_string())),
            None => (word.as_str(), None),
        };
        let value = |words: &mut std::slice::Iter<'_, String>| {
            inline.clone().or_else(|| words.next().cloned())
        };
        match flag {
            "--extractor" => extractor = value(&mut words).unwrap_or_default(),
            "--agent-cmd" => cmd = value(&mut words),
            _ => {}
        }
    }
    (extractor, cmd)
}

/// What installing into one settings file did.
#[derive(Debug)]
pub struct Installed {
    pub file: PathBuf,
    pub merge: Merge,
    /// The file did not exist before.
    pub created: bool,
}

/// Merge memdir's entries, running `program`, into the settings file `file` (created when
/// missing), and write it only when something changed. With `extractor`, the extraction hooks
/// use it (an extraction hook that uses another is updated); without, they keep the extractor
/// they have (`auto` when they are new). A symlinked settings file (dotfiles) is
/// written through, not replaced; with `boundary`, only while its target stays inside it (a
/// project's local settings never lead memdir to write outside the project).
pub fn install(
    file: &Path,
    program: &str,
    extractor: Option<&HookExtractor>,
    boundary: Option<&Path>,
) -> Result<Installed, HooksError> {
    let existing = SettingsText::read(file)?;
    let mut settings = existing.parse(file)?;
    let entries = claude_entries(
        program,
        extractor.unwrap_or(&HookExtractor::Auto { cmd: None }),
    );
    let merge = merge_entries(&mut settings, &entries, program, extractor.is_some())
        .map_err(|problem| unmergeable(file, &problem))?;
    if !merge.is_unchanged() {
        existing.rewrite(file, &settings, boundary)?;
    }
    Ok(Installed {
        file: file.to_path_buf(),
        merge,
        created: existing.text.is_none(),
    })
}

/// The embedded entries, with `program` as the executable of every command and the extraction
/// hooks using `extractor`.
pub fn claude_entries(program: &str, extractor: &HookExtractor) -> Value {
    let mut entries: Value = serde_json::from_str(CLAUDE_ENTRIES)
        .expect("hooks/claude-settings.json is valid JSON (a unit test parses it)");
    let quoted = quote(program);
    let extractor_words: String = extractor
        .arguments()
        .iter()
        .map(|word| format!(" {}", quote(word)))
        .collect();
    let commands = entries["hooks"]
        .as_object_mut()
        .into_iter()
        .flat_map(|events| events.values_mut())
        .filter_map(Value::as_array_mut)
        .flatten()
        .filter_map(|group| group.get_mut("hooks").and_then(Value::as_array_mut))
        .flatten()
        .filter_map(|hook| hook.get_mut("command"));
    for command in commands {
        if let Some(rest) = command
            .as_str()
            .and_then(|c| c.strip_prefix(DEFAULT_PROGRAM))
        {
            let extra = if rest.starts_with(" extract ") {
                extractor_words.as_str()
            } else {
                ""
            };
            *command = Value::from(format!("{quoted}{rest}{extra}"));
        }
    }
    entries
}

/// JSON as Claude Code writes its settings: 2-space indentation and a final newline.
pub fn pretty(value: &Value) -> String {
    let mut text =
        serde_json::to_string_pretty(value).expect("a serde_json::Value always serialises");
    text.push('\n');
    text
}

/// A settings file as found on disk.
struct SettingsText {
    /// `None`: the file does not exist yet.
    text: Option<String>,
    /// The file starts with a byte-order mark, which a rewrite keeps.
    bom: bool,
}

impl SettingsText {
    fn read(file: &Path) -> Result<SettingsText, HooksError> {
        match crate::input::read_regular(file, crate::input::MAX_SETTINGS_BYTES) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes)
                    .map_err(|_| unmergeable(file, "it is not UTF-8 text"))?;
                let bom = text.starts_with('\u{feff}');
                let text = text.trim_start_matches('\u{feff}').to_string();
                Ok(SettingsText {
                    text: Some(text),
                    bom,
                })
            }
            Err(e) if e.is_not_found() => Ok(SettingsText {
                text: None,
                bom: false,
            }),
            Err(crate::input::InputError::NotRegular { kind, .. }) => Err(unmergeable(
                file,
                &format!("it is not a regular file ({kind})"),
            )),
            Err(crate::input::InputError::TooLarge { cap, .. }) => Err(unmergeable(
                file,
                &format!("it is over {}", crate::input::format_bytes(cap)),
            )),
            Err(e) => Err(HooksError::Io {
                path: file.to_path_buf(),
                source: std::io::Error::other(e),
            }),
        }
    }

    /// Write `settings` back to `file` in Claude Code's format ([`pretty`]), keeping the
    /// byte-order mark the file had.
    fn rewrite(
        &self,
        file: &Path,
        settings: &Value,
        boundary: Option<&Path>,
    ) -> Result<(), HooksError> {
        let mut text = pretty(settings);
        if self.bom {
            text.insert(0, '\u{feff}');
        }
        write_settings(file, text.as_bytes(), boundary)
    }

    /// The settings object; a missing or blank file is `{}`, anything but an object refuses.
    fn parse(&self, file: &Path) -> Result<Value, HooksError> {
        let text = match self.text.as_deref() {
            Some(text) if !text.trim().is_empty() => text,
            _ => return Ok(Value::Object(Map::new())),
        };
        let value: Value = serde_json::from_str(text)
            .map_err(|e| unmergeable(file, &format!("it is not valid JSON ({e})")))?;
        if !value.is_object() {
            return Err(unmergeable(file, "it is not a JSON object"));
        }
        Ok(value)
    }
}

/// What an install changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Merge {
    pub added: Vec<Added>,
    pub replaced: Vec<Replaced>,
}

impl Merge {
    pub fn is_unchanged(&self) -> bool {
        self.added.is_empty() && self.replaced.is_empty()
    }
}

/// A hook command added under an event (with the matcher of its new group).
#[derive(Debug, PartialEq, Eq)]
pub struct Added {
    pub event: String,
    pub matcher: Option<String>,
    pub command: String,
}

/// An outdated memdir command updated in place.
#[derive(Debug, PartialEq, Eq)]
pub struct Replaced {
    pub event: String,
    pub from: String,
    pub to: String,
}

/// Merge `entries` (`{"hooks": {event: [group…]}}`) into `settings`, in place.
///
/// Each wanted command is looked for under its event, in any group: if it is there (or the same
/// memdir subcommand with `--hook` and the wanted program, whatever else the user added, such as
/// `--extractor agent`, unless `pin_extractor` says the extractor must be the wanted one),
/// nothing changes; a memdir command for the same subcommand with another program is updated to
/// `program`, keeping its arguments if it has `--hook` (and the wanted extractor), replaced whole
/// if not; otherwise a group with the wanted matcher is appended to the event's list. Existing
/// keys, groups and hooks keep their values and their order.
fn merge_entries(
    settings: &mut Value,
    entries: &Value,
    program: &str,
    pin_extractor: bool,
) -> Result<Merge, String> {
    let mut merge = Merge::default();
    let Some(settings) = settings.as_object_mut() else {
        return Err("the settings are not a JSON object".into());
    };
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(hooks) = hooks.as_object_mut() else {
        return Err("\"hooks\" is not an object of events".into());
    };
    let wanted_events = entries["hooks"].as_object().into_iter().flatten();
    for (event, wanted_groups) in wanted_events {
        for wanted_group in wanted_groups.as_array().into_iter().flatten() {
            let matcher = wanted_group.get("matcher").and_then(Value::as_str);
            let wanted_hooks = wanted_group.get("hooks").and_then(Value::as_array);
            let mut missing = Vec::new();
            for wanted in wanted_hooks.into_iter().flatten() {
                let Some(command) = wanted.get("command").and_then(Value::as_str) else {
                    continue;
                };
                let found = match hooks.get_mut(event.as_str()) {
                    None => Found::Absent,
                    Some(Value::Array(groups)) => {
                        install_command(groups, command, program, pin_extractor)
                    }
                    Some(_) => return Err(format!("\"hooks\".\"{event}\" is not a list")),
                };
                match found {
                    Found::Present => {}
                    Found::Replaced { from, to } => merge.replaced.push(Replaced {
                        event: event.clone(),
                        from,
                        to,
                    }),
                    Found::Absent => {
                        missing.push(wanted.clone());
                        merge.added.push(Added {
                            event: event.clone(),
                            matcher: matcher.map(str::to_string),
                            command: command.to_string(),
                        });
                    }
                }
            }
            if missing.is_empty() {
                continue;
            }
            let mut group = Map::new();
            if let Some(matcher) = matcher {
                group.insert("matcher".into(), Value::from(matcher));
            }
            group.insert("hooks".into(), Value::Array(missing));
            let groups = hooks
                .entry(event.as_str())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(groups) = groups.as_array_mut() {
                groups.push(Value::Object(group));
            }
        }
    }
    Ok(merge)
}

enum Found {
    Present,
    Replaced { from: String, to: String },
    Absent,
}

/// Look for `command` among an event's groups; update an outdated memdir command in place.
fn install_command(
    groups: &mut [Value],
    command: &str,
    program: &str,
    pin_extractor: bool,
) -> Found {
    let Some(wanted) =
        MemdirCommand::parse(&crate::shell::words(command).unwrap_or_default(), program)
    else {
        return Found::Absent;
    };
    let mut outdated = None;
    for (g, group) in groups.iter().enumerate() {
        let hooks = group.get("hooks").and_then(Value::as_array);
        for (h, hook) in hooks.into_iter().flatten().enumerate() {
            let Some((found, memdir)) = memdir_hook(hook, &wanted.subcommand, program) else {
                continue;
            };
            let same_program = found.words[0].text == program;
            let keeps_arguments = memdir.has_hook_flag
                && (!pin_extractor
                    || extractor_in(&memdir.arguments) == extractor_in(&wanted.arguments));
            if same_program && (memdir.arguments == wanted.arguments || keeps_arguments) {
                return Found::Present;
            }
            outdated.get_or_insert((g, h, found, keeps_arguments));
        }
    }
    let Some((g, h, found, keeps_arguments)) = outdated else {
        return Found::Absent;
    };
    let Some(hook) = groups[g]
        .get_mut("hooks")
        .and_then(Value::as_array_mut)
        .and_then(|hooks| hooks.get_mut(h))
        .and_then(Value::as_object_mut)
    else {
        return Found::Absent;
    };
    let from = found.display();
    let to = if found.exec_form && keeps_arguments {
        // Exec form: `command` is the bare executable, `args` stay the user's.
        hook.insert("command".into(), Value::from(program));
        let mut words = found.words;
        words[0].text = program.to_string();
        CommandHook {
            command: program.to_string(),
            words,
            exec_form: true,
        }
        .display()
    } else if keeps_arguments {
        // Keep the user's arguments and quoting; swap only the program word.
        let span = found.words[0].span.clone();
        let mut text = found.command.clone();
        text.replace_range(span, &quote(program));
        hook.insert("command".into(), Value::from(text.clone()));
        text
    } else {
        hook.shift_remove("args");
        hook.insert("command".into(), Value::from(command));
        command.to_string()
    };
    Found::Replaced { from, to }
}

/// `hook`, read, when it is memdir's: a command running memdir's `subcommand` (any program path
/// whose file name is memdir's or `program`'s, any arguments). Install updates such a hook in
/// place and never adds a second one; uninstall removes it.
fn memdir_hook(
    hook: &Value,
    subcommand: &str,
    program: &str,
) -> Option<(CommandHook, MemdirCommand)> {
    let found = CommandHook::read(hook)?;
    let memdir = MemdirCommand::parse(&found.words, program)?;
    (memdir.subcommand == subcommand).then_some((found, memdir))
}

/// A `{"type": "command", …}` hook, split into shell words.
struct CommandHook {
    command: String,
    words: Vec<Word>,
    /// `args` given: `command` is the executable itself, never seen by a shell.
    exec_form: bool,
}

impl CommandHook {
    fn read(hook: &Value) -> Option<CommandHook> {
        if hook.get("type").and_then(Value::as_str) != Some("command") {
            return None;
        }
        let command = hook.get("command")?.as_str()?.to_string();
        match hook.get("args") {
            None => Some(CommandHook {
                words: crate::shell::words(&command)?,
                command,
                exec_form: false,
            }),
            Some(Value::Array(args)) => {
                let mut words = vec![Word {
                    text: command.clone(),
                    span: 0..command.len(),
                }];
                for arg in args {
                    words.push(Word {
                        text: arg.as_str()?.to_string(),
                        span: 0..0,
                    });
                }
                Some(CommandHook {
                    command,
                    words,
                    exec_form: true,
                })
            }
            Some(_) => None,
        }
    }

    /// The command as a person would type it.
    fn display(&self) -> String {
        if !self.exec_form {
            return self.command.clone();
        }
        let words: Vec<String> = self.words.iter().map(|w| quote(&w.text)).collect();
        words.join(" ")
    }
}

/// A command line that runs memdir: which subcommand, with which arguments.
#[derive(Debug)]
struct MemdirCommand {
    subcommand: String,
    /// Every word after the program.
    arguments: Vec<String>,
    has_hook_flag: bool,
}

impl MemdirCommand {
    /// Recognise memdir (any path whose file name is `memdir`, or `program`'s) and its
    /// subcommand, skipping the global flags that may come first.
    fn parse(words: &[Word], program: &str) -> Option<MemdirCommand> {
        let (first, rest) = words.split_first()?;
        let name = Path::new(&first.text).file_name()?.to_str()?;
        let program_name = Path::new(program).file_name().and_then(|n| n.to_str());
        let is_memdir = matches!(name, "memdir" | "memdir.exe") || Some(name) == program_name;
        if !is_memdir {
            return None;
        }
        let arguments: Vec<String> = rest.iter().map(|w| w.text.clone()).collect();
        let mut iter = arguments.iter();
        let subcommand = loop {
            let word = iter.next()?;
            match word.as_str() {
                "-q" | "--quiet" | "-v" | "--verbose" => {}
                "--memory-dir" | "--project" => {
                    iter.next()?;
                }
                w if w.starts_with("--memory-dir=") || w.starts_with("--project=") => {}
                w => break w.to_string(),
            }
        };
        Some(MemdirCommand {
            has_hook_flag: arguments.iter().any(|a| a == "--hook"),
            subcommand,
            arguments,
        })
    }
}

/// Replace `file` so that Claude Code reads the old or the new settings, never a mix: a temp
/// file in the same folder, synced, renamed over it. A symlinked settings file (dotfiles) is
/// written through, not replaced by a plain file (unless it leads out of `boundary`); the old
/// file's permissions are kept.
fn write_settings(file: &Path, bytes: &[u8], boundary: Option<&Path>) -> Result<(), HooksError> {
    let target = match std::fs::symlink_metadata(file) {
        Ok(meta) if meta.file_type().is_symlink() => {
            if let Some(boundary) = boundary
                && let Ok(Some(outside)) = crate::paths::symlink_escape(file, boundary)
            {
                return Err(unmergeable(
                    file,
                    &format!(
                        "it is a symlink to {}, outside {}",
                        outside.display(),
                        boundary.display()
                    ),
                ));
            }
            std::fs::canonicalize(file).map_err(|source| HooksError::Io {
                path: file.to_path_buf(),
                source,
            })?
        }
        _ => file.to_path_buf(),
    };
    crate::atomic::replace(&target, bytes).map_err(|source| HooksError::Io {
        path: target.clone(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default extractor: `auto`, with Claude Code as the model.
    const AUTO: HookExtractor = HookExtractor::Auto { cmd: None };

    /// Merge the default entries for `memdir`, naming no extractor.
    fn merge_default(settings: &mut Value) -> Merge {
        let entries = claude_entries("memdir", &AUTO);
        merge_entries(settings, &entries, "memdir", false).expect("merges")
    }

    #[test]
    fn embedded_entries_are_claude_code_hooks() {
        let entries = claude_entries("memdir", &AUTO);
        let events: Vec<&str> = entries["hooks"]
            .as_object()
            .expect("hooks object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            events,
            [
                "Stop",
                "SessionEnd",
                "PreCompact",
                "PostToolUse",
                "UserPromptSubmit",
                "SessionStart"
            ]
        );
        assert_eq!(
            entries["hooks"]["SessionStart"][0]["hooks"][0],
            serde_json::json!({"type": "command", "command": "memdir recall --hook"})
        );
        assert_eq!(
            entries["hooks"]["UserPromptSubmit"][0]["hooks"][0],
            serde_json::json!({"type": "command", "command": "memdir recall --hook"})
        );
        for event in ["SessionStart", "SessionEnd"] {
            assert_eq!(
                entries["hooks"][event][1]["hooks"][0],
                serde_json::json!({"type": "command", "command": "memdir sync --hook"}),
                "{event}"
            );
        }
        assert_eq!(
            entries["hooks"]["PostToolUse"][0]["matcher"],
            "Write|Edit|MultiEdit|NotebookEdit"
        );
        assert_eq!(
            entries["hooks"]["Stop"][0]["hooks"][0],
            serde_json::json!({"type": "command", "command": "memdir extract --hook"})
        );
        let spaced = claude_entries("/opt/my tools/memdir", &AUTO);
        assert_eq!(
            spaced["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
            "'/opt/my tools/memdir' snapshot --hook"
        );
    }

    #[test]
    fn outdated_memdir_commands_are_updated_not_duplicated() {
        let mut settings = serde_json::json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "/old/memdir extract --hook --extractor agent", "timeout": 30},
        ]}], "SessionEnd": [{"hooks": [
            {"type": "command", "command": "memdir extract"},
        ]}], "PreCompact": [{"hooks": [
            {"type": "command", "command": "/usr/bin/memdir", "args": ["extract", "--hook"]},
        ]}]}});
        let merge = merge_default(&mut settings);
        assert_eq!(
            settings["hooks"]["Stop"][0]["hooks"][0],
            serde_json::json!({"type": "command", "command": "memdir extract --hook --extractor agent", "timeout": 30})
        );
        assert_eq!(
            settings["hooks"]["SessionEnd"][0]["hooks"][0]["command"],
            "memdir extract --hook"
        );
        assert_eq!(
            settings["hooks"]["PreCompact"][0]["hooks"][0],
            serde_json::json!({"type": "command", "command": "memdir", "args": ["extract", "--hook"]})
        );
        assert_eq!(merge.replaced.len(), 3, "{merge:?}");
        assert_eq!(
            merge.added.len(),
            5,
            "SessionEnd's sync, PostToolUse, UserPromptSubmit, SessionStart's recall and sync: {merge:?}"
        );
        assert_eq!(settings["hooks"]["Stop"].as_array().map(Vec::len), Some(1));

        let again = merge_default(&mut settings);
        assert!(again.is_unchanged(), "{again:?}");
    }

    #[test]
    fn an_extractor_asked_for_replaces_another_and_is_kept_when_none_is() {
        let agent = HookExtractor::Agent {
            cmd: Some("/home/me/bin/my-model".into()),
        };
        let entries = claude_entries("memdir", &agent);
        let wanted = "memdir extract --hook --extractor agent --agent-cmd /home/me/bin/my-model";
        assert_eq!(entries["hooks"]["Stop"][0]["hooks"][0]["command"], wanted);
        assert_eq!(
            entries["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "memdir snapshot --hook",
            "only extraction takes an extractor"
        );
        let mut settings = serde_json::json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "memdir extract --hook", "timeout": 30},
        ]}]}});
        let merge = merge_entries(&mut settings, &entries, "memdir", true).expect("merges");
        assert_eq!(
            settings["hooks"]["Stop"][0]["hooks"][0],
            serde_json::json!({"type": "command", "command": wanted, "timeout": 30})
        );
        assert_eq!(merge.replaced.len(), 1, "{merge:?}");
        let again = merge_entries(&mut settings, &entries, "memdir", true).expect("merges");
        assert!(again.is_unchanged(), "{again:?}");
        // Installing without naming an extractor keeps the one the hooks have.
        let default = claude_entries("memdir", &AUTO);
        let kept = merge_entries(&mut settings, &default, "memdir", false).expect("merges");
        assert_eq!(settings["hooks"]["Stop"][0]["hooks"][0]["command"], wanted);
        assert!(kept.replaced.is_empty(), "{kept:?}");
        // Naming one puts it in: the builtin extractor is named, `auto` is the default.
        let builtin = claude_entries("memdir", &HookExtractor::Builtin);
        let back = merge_entries(&mut settings, &builtin, "memdir", true).expect("merges");
        assert_eq!(
            settings["hooks"]["Stop"][0]["hooks"][0]["command"],
            "memdir extract --hook --extractor builtin"
        );
        assert_eq!(
            back.replaced.len(),
            3,
            "Stop, SessionEnd, PreCompact: {back:?}"
        );
        merge_entries(&mut settings, &default, "memdir", true).expect("merges");
        assert_eq!(
            settings["hooks"]["Stop"][0]["hooks"][0]["command"],
            "memdir extract --hook"
        );
    }

    #[test]
    fn extractor_flags_are_read_in_both_spellings() {
        let words = |text: &str| -> Vec<String> { text.split(' ').map(str::to_string).collect() };
        assert_eq!(
            extractor_in(&words("extract --hook")),
            ("auto".into(), None)
        );
        assert_eq!(
            extractor_in(&words("extract --hook --extractor=agent --agent-cmd=x")),
            ("agent".into(), Some("x".into()))
        );
        assert_eq!(
            extractor_in(&words("extract --extractor agent --agent-cmd x --hook")),
            ("agent".into(), Some("x".into()))
        );
    }

    #[test]
    fn a_users_own_pipeline_is_left_alone() {
        let mut settings = serde_json::json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "memdir extract --hook 2>/dev/null || true"},
        ]}]}});
        let merge = merge_default(&mut settings);
        assert_eq!(
            settings["hooks"]["Stop"][0]["hooks"][0]["command"],
            "memdir extract --hook 2>/dev/null || true"
        );
        assert_eq!(settings["hooks"]["Stop"].as_array().map(Vec::len), Some(2));
        assert!(merge.replaced.is_empty());
    }

    #[test]
    fn wrong_shapes_refuse() {
        for bad in [
            serde_json::json!({"hooks": []}),
            serde_json::json!({"hooks": {"Stop": {}}}),
        ] {
            let mut settings = bad.clone();
            assert!(
                merge_entries(
                    &mut settings,
                    &claude_entries("memdir", &AUTO),
                    "memdir",
                    false
                )
                .is_err()
            );
        }
    }
}
