//! `memdir hooks`: the Claude Code hook entries memdir needs and their installation into a
//! `settings.json` (DESIGN §11), merged into what is there and never clobbering it; and the git
//! `post-merge` hook (`hooks/post-merge`) that reconciles merged promotions (§7), merged into a
//! repository's existing hook the same way.
//!
//! The entries are `hooks/claude-settings.json`, compiled into the binary so that an installed
//! memdir can write them without the repository. Their shape is Claude Code's settings schema,
//! checked against 2.1.332: `hooks` maps an event name to a list of `{matcher?, hooks: [{type,
//! command, …}]}` groups, and a `command` hook runs through a shell (bash on POSIX) unless it
//! has an exec-form `args` list.

use std::path::Path;

use serde_json::{Map, Value};

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::paths::{absolute_from, normalize};
use crate::shell::quote as shell_quote;

/// The entries memdir needs in Claude Code's settings, as users would paste them.
const CLAUDE_ENTRIES: &str = include_str!("../../hooks/claude-settings.json");

/// An existing hook longer than this is not a script memdir edits.
const MAX_HOOK_BYTES: u64 = 1024 * 1024;

/// The git post-merge hook, compiled in like the entries.
const POST_MERGE: &str = include_str!("../../hooks/post-merge");

/// What identifies memdir's line in a post-merge hook.
const POST_MERGE_MARK: &str = "proposals --reconcile";

/// The program name the embedded entries use; `--command` replaces it.
const DEFAULT_PROGRAM: &str = "memdir";

/// Install or print the hook entries that keep memory committed and extracted.
#[derive(Debug, clap::Args)]
pub struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum HooksAction {
    Install(InstallArgs),
    Show(ShowArgs),
}

/// Merge memdir's hook entries into a Claude Code settings file, and its git hook into the
/// project's repository.
///
/// --claude: Stop, SessionEnd and PreCompact run `memdir extract --hook`; PostToolUse on
/// Write|Edit|MultiEdit|NotebookEdit runs `memdir snapshot --hook`. Every other key and hook in
/// the file is kept; an entry that is already there is left alone, so installing twice changes
/// nothing. A memdir command of another path or older arguments is updated in place.
///
/// --git: a post-merge hook running `memdir proposals --reconcile -q` (it never fails a merge),
/// in the project repository's hooks folder (`core.hooksPath` if set, else `.git/hooks`). An
/// existing post-merge hook keeps everything it has: memdir's line is added to it if absent.
#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Install Claude Code's hook entries (into settings.json).
    #[arg(long)]
    pub claude: bool,
    /// Install the git post-merge hook into the project's repository.
    #[arg(long)]
    pub git: bool,
    /// Which settings file to merge into.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    #[command(flatten)]
    pub program: ProgramArg,
    /// Print JSON: with --claude {file, added: [{event, matcher?, command}], replaced: [{event,
    /// from, to}], unchanged}; with --git, a "git" key {file, action: created|appended|updated|
    /// unchanged}.
    #[arg(long)]
    pub json: bool,
}

/// Print memdir's Claude Code hook entries, to paste into a settings file by hand.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub program: ProgramArg,
    /// Print the entries on one line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ProgramArg {
    /// The memdir executable the hook commands run. A relative path is made absolute (hooks run
    /// in the session's directory); a bare name is looked up on PATH.
    #[arg(long = "command", value_name = "PATH", default_value = DEFAULT_PROGRAM)]
    pub program: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// `<config dir>/settings.json`: every project of this user.
    User,
    /// `<project>/.claude/settings.local.json`: this project, this machine, not committed.
    ProjectLocal,
}

pub fn run(ctx: &Ctx, args: &HooksArgs, output: &mut Output<'_>) -> Result<(), Error> {
    match &args.action {
        HooksAction::Install(args) => install(ctx, args, output),
        HooksAction::Show(args) => show(ctx, args, output),
    }
}

fn show(ctx: &Ctx, args: &ShowArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let entries = claude_entries(&program(ctx, &args.program)?);
    if args.json {
        return output.json(&entries);
    }
    output.data(&pretty(&entries))
}

fn install(ctx: &Ctx, args: &InstallArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if !args.claude && !args.git {
        return Err(Error::Usage(
            "say which hooks to install: --claude merges memdir's entries into Claude Code's \
             settings.json, --git installs the post-merge hook into the project's repository"
                .into(),
        ));
    }
    let mut json = Map::new();
    if args.claude {
        install_claude(ctx, args, output, &mut json)?;
    }
    if args.git {
        let git = install_git(ctx, args, output)?;
        json.insert("git".into(), git);
    }
    if args.json {
        return output.json(&Value::Object(json));
    }
    Ok(())
}

/// `--claude`: merge the entries into settings.json; with `--json`, its report goes in `json`.
fn install_claude(
    ctx: &Ctx,
    args: &InstallArgs,
    output: &mut Output<'_>,
    json: &mut Map<String, Value>,
) -> Result<(), Error> {
    let program = program(ctx, &args.program)?;
    let file = match args.scope {
        Scope::User => ctx.env.config_dir()?.join("settings.json"),
        Scope::ProjectLocal => ctx.project().join(".claude").join("settings.local.json"),
    };
    let existing = SettingsText::read(&file)?;
    let mut settings = existing.parse(&file)?;
    let merge =
        merge_entries(&mut settings, &claude_entries(&program), &program).map_err(|problem| {
            Error::Usage(format!(
                "{}: {problem}; fix it by hand, nothing was written",
                file.display()
            ))
        })?;
    if !merge.is_unchanged() {
        let mut text = pretty(&settings);
        if existing.bom {
            text.insert(0, '\u{feff}');
        }
        write_atomic(&file, text.as_bytes())?;
    }
    if args.json {
        let added: Vec<Value> = merge
            .added
            .iter()
            .map(|a| {
                let mut entry = serde_json::json!({"event": a.event, "command": a.command});
                if let Some(matcher) = &a.matcher {
                    entry["matcher"] = Value::from(matcher.as_str());
                }
                entry
            })
            .collect();
        let replaced: Vec<Value> = merge
            .replaced
            .iter()
            .map(|r| serde_json::json!({"event": r.event, "from": r.from, "to": r.to}))
            .collect();
        json.insert("file".into(), file.display().to_string().into());
        json.insert("added".into(), added.into());
        json.insert("replaced".into(), replaced.into());
        json.insert("unchanged".into(), merge.is_unchanged().into());
        return Ok(());
    }
    if merge.is_unchanged() {
        return output.info(&format!(
            "already installed in {}: nothing changed",
            file.display()
        ));
    }
    for added in &merge.added {
        let event = match &added.matcher {
            Some(matcher) => format!("{} [{matcher}]", added.event),
            None => added.event.clone(),
        };
        output.info(&format!("{event}: added `{}`", added.command))?;
    }
    for replaced in &merge.replaced {
        output.info(&format!(
            "{}: replaced `{}` with `{}`",
            replaced.event, replaced.from, replaced.to
        ))?;
    }
    let verb = if existing.text.is_some() {
        "updated"
    } else {
        "created"
    };
    output.info(&format!("{verb} {}", file.display()))
}

/// `--git`: install (or merge in) the post-merge hook; returns the JSON report.
fn install_git(ctx: &Ctx, args: &InstallArgs, output: &mut Output<'_>) -> Result<Value, Error> {
    let program = program(ctx, &args.program)?;
    let project = ctx.project();
    let repo = crate::repo::TargetRepo::discover(&project)?.ok_or_else(|| {
        Error::Usage(format!(
            "{} is in no git repository: there is nowhere to install the post-merge hook",
            project.display()
        ))
    })?;
    let file = repo.hooks_dir()?.join("post-merge");
    // A hook that is a symlink could lead anywhere (`~/.bashrc`, a script the project tracks):
    // memdir neither writes through it nor replaces it.
    if let Ok(target) = std::fs::read_link(&file) {
        return Err(Error::Usage(format!(
            "{} is a symlink to {}; memdir writes only a regular hook file, so nothing was written: add its line where the link leads, by hand: {}",
            file.display(),
            target.display(),
            post_merge_line(&program)
        )));
    }
    let existing = match crate::input::read_regular(&file, MAX_HOOK_BYTES) {
        Ok(bytes) => Some(String::from_utf8(bytes).map_err(|_| {
            Error::Usage(format!(
                "{} is not UTF-8 text; add memdir's line to it by hand: {}",
                file.display(),
                post_merge_line(&program)
            ))
        })?),
        Err(e) if e.is_not_found() => None,
        Err(e) if e.is_refusal() => {
            return Err(Error::Usage(format!(
                "{e}; add memdir's line to the hook by hand: {}",
                post_merge_line(&program)
            )));
        }
        Err(e) => return Err(crate::memory::store::StoreError::from(e).into()),
    };
    let merged = merge_post_merge(existing.as_deref(), &program).map_err(|problem| {
        Error::Usage(format!(
            "{}: {problem}; add memdir's line to it by hand, nothing was written: {}",
            file.display(),
            post_merge_line(&program)
        ))
    })?;
    let action = match &merged {
        Some((text, action)) => {
            write_atomic(&file, text.as_bytes())?;
            *action
        }
        None => "unchanged",
    };
    let made_executable = make_executable(&file)?;
    let action = if action == "unchanged" && made_executable {
        "made executable"
    } else {
        action
    };
    let verb = match action {
        "created" => "installed the post-merge hook",
        "appended" => "added memdir's line to the existing post-merge hook",
        "updated" => "updated memdir's line in the post-merge hook",
        "made executable" => "made the post-merge hook executable",
        _ => "the post-merge hook is already installed: nothing changed",
    };
    if !args.json {
        output.info(&format!("{verb}: {}", file.display()))?;
    }
    Ok(serde_json::json!({"file": file.display().to_string(), "action": action}))
}

/// memdir's line of the post-merge hook, running `program`.
fn post_merge_line(program: &str) -> String {
    let line = POST_MERGE
        .lines()
        .find(|l| is_post_merge_line(l))
        .expect("hooks/post-merge has memdir's line (a unit test checks it)");
    if program == DEFAULT_PROGRAM {
        return line.to_string();
    }
    let quoted = shell_quote(program);
    line.replace(
        &format!("command -v {DEFAULT_PROGRAM} "),
        &format!("command -v {quoted} "),
    )
    .replace(
        &format!("; {DEFAULT_PROGRAM} proposals"),
        &format!("; {quoted} proposals"),
    )
}

fn is_post_merge_line(line: &str) -> bool {
    !line.trim_start().starts_with('#') && line.contains(POST_MERGE_MARK)
}

/// The post-merge hook with memdir's line in it, and what changed (`created`, `appended`,
/// `updated`); `None` when it is already there. An existing hook keeps every line: memdir's is
/// added before a final top-level `exit` (which would end the script before it), else at the
/// end. A hook that is not a shell script is refused (memdir's line is shell).
fn merge_post_merge(
    existing: Option<&str>,
    program: &str,
) -> Result<Option<(String, &'static str)>, String> {
    let wanted = post_merge_line(program);
    let Some(text) = existing.filter(|t| !t.trim().is_empty()) else {
        let script = POST_MERGE.replace(
            POST_MERGE
                .lines()
                .find(|l| is_post_merge_line(l))
                .unwrap_or_default(),
            &wanted,
        );
        return Ok(Some((script, "created")));
    };
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(found) = lines.iter().position(|l| is_post_merge_line(l)) {
        if lines[found] == wanted {
            return Ok(None);
        }
        lines[found] = wanted;
        return Ok(Some((
            with_final_newline(lines.join(
                "
",
            )),
            "updated",
        )));
    }
    if let Some(shebang) = lines.first().filter(|l| l.starts_with("#!")) {
        let shell = ["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"];
        let runs_a_shell = shebang
            .trim_start_matches("#!")
            .split([' ', '/'])
            .any(|word| shell.contains(&word.trim()));
        if !runs_a_shell {
            return Err(format!("it is not a shell script ({shebang})"));
        }
    }
    let last = lines
        .iter()
        .rposition(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let at = match last {
        Some(i) if is_exit(&lines[i]) => i,
        _ => lines.len(),
    };
    lines.insert(at, wanted);
    Ok(Some((
        with_final_newline(lines.join(
            "
",
        )),
        "appended",
    )))
}

/// A top-level `exit` statement (`exit`, `exit 0`, `exit $?`).
fn is_exit(line: &str) -> bool {
    let line = line.trim();
    line == "exit" || line.starts_with("exit ") || line.starts_with("exit	")
}

fn with_final_newline(mut text: String) -> String {
    text.push('\n');
    text
}

/// Make a hook executable (git skips one that is not, with only a hint); whether it changed.
#[cfg(unix)]
fn make_executable(file: &Path) -> Result<bool, Error> {
    use std::os::unix::fs::PermissionsExt;
    let io = |source| Error::Io {
        context: format!("making {} executable", file.display()),
        source,
    };
    let mode = std::fs::metadata(file).map_err(io)?.permissions().mode();
    // Execute for whoever may read it, as `chmod +x` does under the usual umask.
    let wanted = mode | 0o100 | ((mode & 0o044) >> 2);
    if wanted == mode {
        return Ok(false);
    }
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(wanted)).map_err(io)?;
    Ok(true)
}

#[cfg(not(unix))]
fn make_executable(_file: &Path) -> Result<bool, Error> {
    Ok(false)
}

/// The executable the commands run: `--command`, a relative path made absolute.
fn program(ctx: &Ctx, arg: &ProgramArg) -> Result<String, Error> {
    let given = arg.program.as_str();
    if given.trim().is_empty() || given.contains(['\n', '\r', '\0']) {
        return Err(Error::Usage(format!(
            "--command {given:?} is not an executable name or path"
        )));
    }
    let path = Path::new(given);
    if path.is_absolute() || path.components().count() == 1 {
        return Ok(given.to_string());
    }
    let joined = absolute_from(&ctx.env.cwd, path);
    let absolute = normalize(&joined).unwrap_or(joined);
    absolute.to_str().map(str::to_string).ok_or_else(|| {
        Error::Usage(format!(
            "--command {given:?} resolves to {}, which is not UTF-8",
            absolute.display()
        ))
    })
}

/// The embedded entries, with `program` as the executable of every command.
fn claude_entries(program: &str) -> Value {
    let mut entries: Value = serde_json::from_str(CLAUDE_ENTRIES)
        .expect("hooks/claude-settings.json is valid JSON (a unit test parses it)");
    let quoted = shell_quote(program);
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
            *command = Value::from(format!("{quoted}{rest}"));
        }
    }
    entries
}

/// JSON as Claude Code writes its settings: 2-space indentation and a final newline.
fn pretty(value: &Value) -> String {
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
    fn read(file: &Path) -> Result<SettingsText, Error> {
        match crate::input::read_regular(file, crate::input::MAX_SETTINGS_BYTES) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|_| {
                    Error::Usage(format!(
                        "{} is not UTF-8 text; fix it by hand, nothing was written",
                        file.display()
                    ))
                })?;
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
            Err(e) if e.is_refusal() => Err(Error::Usage(format!(
                "{e}; fix it by hand, nothing was written"
            ))),
            Err(e) => Err(crate::memory::store::StoreError::from(e).into()),
        }
    }

    /// The settings object; a missing or blank file is `{}`, anything but an object refuses.
    fn parse(&self, file: &Path) -> Result<Value, Error> {
        let text = match self.text.as_deref() {
            Some(text) if !text.trim().is_empty() => text,
            _ => return Ok(Value::Object(Map::new())),
        };
        let value: Value = serde_json::from_str(text).map_err(|e| {
            Error::Usage(format!(
                "{} is not valid JSON ({e}); fix it by hand, nothing was written",
                file.display()
            ))
        })?;
        if !value.is_object() {
            return Err(Error::Usage(format!(
                "{} is not a JSON object; fix it by hand, nothing was written",
                file.display()
            )));
        }
        Ok(value)
    }
}

/// What an install changed.
#[derive(Debug, Default, PartialEq, Eq)]
struct Merge {
    added: Vec<Added>,
    replaced: Vec<Replaced>,
}

impl Merge {
    fn is_unchanged(&self) -> bool {
        self.added.is_empty() && self.replaced.is_empty()
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Added {
    event: String,
    matcher: Option<String>,
    command: String,
}

#[derive(Debug, PartialEq, Eq)]
struct Replaced {
    event: String,
    from: String,
    to: String,
}

/// Merge `entries` (`{"hooks": {event: [group…]}}`) into `settings`, in place.
///
/// Each wanted command is looked for under its event, in any group: if it is there (or the same
/// memdir subcommand with `--hook` and the wanted program, whatever else the user added, such as
/// `--extractor agent`), nothing changes; a memdir command for the same subcommand with another
/// program is updated to `program`, keeping its arguments if it has `--hook`, replaced whole if
/// not; otherwise a group with the wanted matcher is appended to the event's list. Existing keys,
/// groups and hooks keep their values and their order.
fn merge_entries(settings: &mut Value, entries: &Value, program: &str) -> Result<Merge, String> {
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
                    Some(Value::Array(groups)) => install_command(groups, command, program),
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
fn install_command(groups: &mut [Value], command: &str, program: &str) -> Found {
    let Some(wanted) = MemdirCommand::parse(&shell_words(command).unwrap_or_default(), program)
    else {
        return Found::Absent;
    };
    let mut outdated = None;
    for (g, group) in groups.iter().enumerate() {
        let hooks = group.get("hooks").and_then(Value::as_array);
        for (h, hook) in hooks.into_iter().flatten().enumerate() {
            let Some(found) = CommandHook::read(hook) else {
                continue;
            };
            let Some(memdir) = MemdirCommand::parse(&found.words, program) else {
                continue;
            };
            if memdir.subcommand != wanted.subcommand {
                continue;
            }
            let same_program = found.words[0].text == program;
            if same_program && (memdir.arguments == wanted.arguments || memdir.has_hook_flag) {
                return Found::Present;
            }
            outdated.get_or_insert((g, h, found, memdir.has_hook_flag));
        }
    }
    let Some((g, h, found, has_hook_flag)) = outdated else {
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
    let to = if found.exec_form && has_hook_flag {
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
    } else if has_hook_flag {
        // Keep the user's arguments and quoting; swap only the program word.
        let span = found.words[0].span.clone();
        let mut text = found.command.clone();
        text.replace_range(span, &shell_quote(program));
        hook.insert("command".into(), Value::from(text.clone()));
        text
    } else {
        hook.shift_remove("args");
        hook.insert("command".into(), Value::from(command));
        command.to_string()
    };
    Found::Replaced { from, to }
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
                words: shell_words(&command)?,
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
        let words: Vec<String> = self.words.iter().map(|w| shell_quote(&w.text)).collect();
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

/// One word of a command line: its text after quote removal, and where it was.
#[derive(Debug, Clone)]
struct Word {
    text: String,
    span: std::ops::Range<usize>,
}

/// Split a simple command line as bash would (quotes, backslashes, blanks). `None` for anything
/// a shell would do more with (operators, expansions, globs, comments, an open quote): such a
/// command is the user's own and is never taken for memdir's nor rewritten.
fn shell_words(command: &str) -> Option<Vec<Word>> {
    let mut words = Vec::new();
    let mut current: Option<(String, usize)> = None;
    let mut chars = command.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some((text, start)) = current.take() {
                    words.push(Word {
                        text,
                        span: start..i,
                    });
                }
                continue;
            }
            '#' if current.is_none() => return None,
            ';' | '&' | '|' | '<' | '>' | '(' | ')' | '$' | '`' | '*' | '?' | '\n' | '\r' => {
                return None;
            }
            _ => {}
        }
        let (text, _) = current.get_or_insert_with(|| (String::new(), i));
        match c {
            '\'' => loop {
                match chars.next()? {
                    (_, '\'') => break,
                    (_, c) => text.push(c),
                }
            },
            '"' => loop {
                match chars.next()? {
                    (_, '"') => break,
                    (_, '$' | '`') => return None,
                    (_, '\\') => match chars.next()? {
                        (_, c @ ('"' | '\\' | '$' | '`')) => text.push(c),
                        (_, '\n') => {}
                        (_, c) => {
                            text.push('\\');
                            text.push(c);
                        }
                    },
                    (_, c) => text.push(c),
                }
            },
            '\\' => match chars.next()? {
                (_, '\n') => {}
                (_, c) => text.push(c),
            },
            c => text.push(c),
        }
    }
    if let Some((text, start)) = current {
        words.push(Word {
            text,
            span: start..command.len(),
        });
    }
    Some(words)
}

/// Replace `file` so that Claude Code reads the old or the new settings, never a mix: a temp
/// file in the same folder, synced, renamed over it. A symlinked settings file (dotfiles) is
/// written through, not replaced by a plain file; the old file's permissions are kept.
fn write_atomic(file: &Path, bytes: &[u8]) -> Result<(), Error> {
    let target = match std::fs::symlink_metadata(file) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(file).map_err(|source| Error::Io {
                context: format!("{} is a symlink that cannot be followed", file.display()),
                source,
            })?
        }
        _ => file.to_path_buf(),
    };
    crate::atomic::write(&target, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(command: &str) -> Option<Vec<String>> {
        shell_words(command).map(|w| w.into_iter().map(|w| w.text).collect())
    }

    #[test]
    fn embedded_entries_are_claude_code_hooks() {
        let entries = claude_entries("memdir");
        let events: Vec<&str> = entries["hooks"]
            .as_object()
            .expect("hooks object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(events, ["Stop", "SessionEnd", "PreCompact", "PostToolUse"]);
        assert_eq!(
            entries["hooks"]["PostToolUse"][0]["matcher"],
            "Write|Edit|MultiEdit|NotebookEdit"
        );
        assert_eq!(
            entries["hooks"]["Stop"][0]["hooks"][0],
            serde_json::json!({"type": "command", "command": "memdir extract --hook"})
        );
        let spaced = claude_entries("/opt/my tools/memdir");
        assert_eq!(
            spaced["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
            "'/opt/my tools/memdir' snapshot --hook"
        );
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            texts(r#"'/a b/memdir' extract  "--ho"ok x\ y"#),
            Some(vec![
                "/a b/memdir".into(),
                "extract".into(),
                "--hook".into(),
                "x y".into()
            ])
        );
        assert_eq!(texts("it's"), None);
        assert_eq!(texts("memdir extract --hook || true"), None);
        assert_eq!(texts("$HOME/bin/memdir extract"), None);
        assert_eq!(texts("\"$HOME\"/memdir"), None);
        let words = shell_words("  'x y'/memdir snapshot").expect("simple");
        assert_eq!(words[0].span, 2..14);
        for word in ["memdir", "/a b/c", "it's", "", "a\"b"] {
            assert_eq!(
                texts(&shell_quote(word)),
                Some(vec![word.to_string()]),
                "{word}"
            );
        }
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
        let merge =
            merge_entries(&mut settings, &claude_entries("memdir"), "memdir").expect("merges");
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
        assert_eq!(merge.added.len(), 1, "{merge:?}");
        assert_eq!(settings["hooks"]["Stop"].as_array().map(Vec::len), Some(1));

        let again =
            merge_entries(&mut settings, &claude_entries("memdir"), "memdir").expect("merges");
        assert!(again.is_unchanged(), "{again:?}");
    }

    #[test]
    fn a_users_own_pipeline_is_left_alone() {
        let mut settings = serde_json::json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "memdir extract --hook 2>/dev/null || true"},
        ]}]}});
        let merge =
            merge_entries(&mut settings, &claude_entries("memdir"), "memdir").expect("merges");
        assert_eq!(
            settings["hooks"]["Stop"][0]["hooks"][0]["command"],
            "memdir extract --hook 2>/dev/null || true"
        );
        assert_eq!(settings["hooks"]["Stop"].as_array().map(Vec::len), Some(2));
        assert!(merge.replaced.is_empty());
    }

    #[test]
    fn post_merge_hook_is_merged_never_clobbered() {
        assert!(POST_MERGE.starts_with("#!/bin/sh\n"));
        let line = post_merge_line("memdir");
        assert!(line.contains("memdir proposals --reconcile -q"), "{line}");
        let spaced = post_merge_line("/opt/my tools/memdir");
        assert!(
            spaced.contains("command -v '/opt/my tools/memdir' ")
                && spaced.contains("; '/opt/my tools/memdir' proposals --reconcile -q"),
            "{spaced}"
        );
        let (created, action) = merge_post_merge(None, "memdir").expect("ok").expect("new");
        assert_eq!((created.as_str(), action), (POST_MERGE, "created"));
        assert_eq!(merge_post_merge(Some(POST_MERGE), "memdir"), Ok(None));

        let users = "#!/bin/bash\nset -e\necho merged\nexit 0\n";
        let (text, action) = merge_post_merge(Some(users), "memdir")
            .expect("ok")
            .expect("changed");
        assert_eq!(action, "appended");
        assert_eq!(
            text,
            format!("#!/bin/bash\nset -e\necho merged\n{line}\nexit 0\n")
        );
        assert_eq!(merge_post_merge(Some(&text), "memdir"), Ok(None));
        let (moved, action) = merge_post_merge(Some(&text), "/usr/local/bin/memdir")
            .expect("ok")
            .expect("changed");
        assert_eq!(action, "updated");
        assert!(moved.contains("echo merged\n") && !moved.contains("; memdir proposals"));

        let no_exit = "#!/bin/sh\necho hi";
        let (text, _) = merge_post_merge(Some(no_exit), "memdir")
            .expect("ok")
            .expect("changed");
        assert_eq!(text, format!("#!/bin/sh\necho hi\n{line}\n"));
        assert!(merge_post_merge(Some("#!/usr/bin/env python3\nprint(1)\n"), "memdir").is_err());
    }

    #[test]
    fn wrong_shapes_refuse() {
        for bad in [
            serde_json::json!({"hooks": []}),
            serde_json::json!({"hooks": {"Stop": {}}}),
        ] {
            let mut settings = bad.clone();
            assert!(merge_entries(&mut settings, &claude_entries("memdir"), "memdir").is_err());
        }
    }
}
