//! `memdir context`: the instruction stack exactly as Claude Code 2.1.x sends it to the model at
//! session start (DESIGN §5), and, with `--explain`, where every part came from.

use std::path::PathBuf;

use crate::Error;
use crate::cli::{Ctx, Output, hook_mode};
use crate::memory::store::INDEX_FILE;
use crate::paths::{LocationRule, Resolution, resolve_memory_dir_with};
use crate::settings::{AutoMemory, Settings, SettingsLayer, auto_memory};
use crate::stack::loader::{MemoryIndex, StackInputs, load_stack};
use crate::stack::{Stack, Warning};

/// Print the instructions Claude Code loads at session start, byte for byte.
#[derive(Debug, clap::Args)]
pub struct ContextArgs {
    /// Show the stack as a table in load order (priority grows downward), with every warning.
    #[arg(long, conflicts_with_all = ["json", "hook"])]
    pub explain: bool,
    /// Print the stack as JSON: files (scope, path, characters, imported_from, globs), text and
    /// warnings.
    #[arg(long, conflicts_with = "hook")]
    pub json: bool,
    /// Read a SessionStart hook payload (cwd, session_id, source) on stdin and print the hook's
    /// answer with the stack as additional context.
    #[arg(long)]
    pub hook: bool,
    /// A file the session touches: conditional rules whose `paths:` match it load too.
    #[arg(long, value_name = "FILE")]
    pub touch: Vec<PathBuf>,
}

pub fn run(ctx: &Ctx, args: &ContextArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if args.hook {
        // The answer is printed only once the stack is loaded: a failure prints nothing.
        return hook_mode::run(ctx, "context --hook", output, |ctx, _, output| {
            let text = load(ctx, touched(ctx, args))?.render();
            output.json(&serde_json::json!({
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": text,
                }
            }))
        });
    }
    let stack = load(ctx, touched(ctx, args))?;
    let text = stack.render();
    if args.json {
        return output.json(&to_json(&stack, &text));
    }
    if args.explain {
        return output.data(&explain(&stack));
    }
    output.data(&text)
}

/// The `--touch` files, absolute.
fn touched(ctx: &Ctx, args: &ContextArgs) -> Vec<PathBuf> {
    args.touch
        .iter()
        .map(|f| crate::paths::absolute_from(&ctx.env.cwd, f))
        .collect()
}

/// Resolve the inputs (cwd, config, memory) and load the stack, with the conditional rules for
/// the `touched` files.
pub fn load(ctx: &Ctx, touched: Vec<PathBuf>) -> Result<Stack, Error> {
    let project = ctx.project();
    let cwd = project.canonicalize().map_err(|source| Error::Io {
        context: format!("project dir {}", project.display()),
        source,
    })?;
    // Where Claude Code looks, which is not always where memdir writes (see Resolution).
    let settings = Settings::load(&ctx.env, &project)?;
    let location = resolve_memory_dir_with(
        &ctx.env,
        &settings,
        ctx.global.memory_dir.as_deref(),
        &project,
        Resolution::AsClaudeCode,
    )?;
    let index_path = location.dir.join(INDEX_FILE);
    let memory = match auto_memory(&ctx.env, &settings) {
        AutoMemory::Off(switch) => MemoryIndex::Off(switch),
        AutoMemory::On => match ctx.env.var_raw("CLAUDE_COWORK_MEMORY_INDEX_CONTENT") {
            Some(text) if text.is_empty() => MemoryIndex::Suppressed,
            Some(text) => MemoryIndex::Given {
                path: index_path,
                text: text.to_string_lossy().into_owned(),
            },
            None => MemoryIndex::File(index_path),
        },
    };
    let inputs = StackInputs {
        home: ctx.env.home()?,
        config_dir: ctx.env.config_dir()?,
        managed_dir: ctx.env.managed_dir(),
        memory,
        touched,
        excludes: settings.claude_md_excludes(),
        disabled: ctx.env.var("CLAUDE_CODE_DISABLE_CLAUDE_MDS").is_some()
            || ctx
                .env
                .var_str("CLAUDE_CODE_SIMPLE")
                .is_some_and(|v| crate::settings::truthy(&v)),
        external_includes_approved: external_includes_approved(ctx, &cwd),
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
fn external_includes_approved(ctx: &Ctx, cwd: &std::path::Path) -> bool {
    let file = match ctx.env.var("CLAUDE_CONFIG_DIR") {
        Some(dir) => PathBuf::from(dir).join(".claude.json"),
        None => match ctx.env.home() {
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

fn describe_warning(w: &Warning) -> String {
    match w {
        Warning::LargeFile { path, chars } => format!(
            "{} is {chars} characters, over {} (Claude Code warns about large instruction files)",
            path.display(),
            crate::stack::LARGE_FILE_CHARS
        ),
        Warning::IndexTruncated { path, dropped } => format!(
            "{} is truncated at load; {} entr{} fell off: {}",
            path.display(),
            dropped.len(),
            if dropped.len() == 1 { "y" } else { "ies" },
            dropped.join(", ")
        ),
        Warning::IndexBackfilled { path } => format!(
            "{} does not exist: Claude Code writes it from the topic files at session start (shown here as it will be; memdir writes nothing)",
            path.display()
        ),
        Warning::AutoMemoryOff { switch } => {
            format!("auto memory is off ({switch}): the memory index is not loaded")
        }
        Warning::ProjectSettingIgnored { file } => format!(
            "Claude Code loads the memory index from the dir named by project settings ({}); memdir never writes there (a cloned repository must not redirect memory)",
            file.display()
        ),
        Warning::SettingPassedOver { problem } => {
            format!("passed over, as Claude Code does: {problem}")
        }
        Warning::ImportSkipped {
            from,
            target,
            reason,
        } => format!(
            "import of {} from {} skipped: {}",
            target.display(),
            from.display(),
            reason.describe()
        ),
        Warning::FileSkipped { path, reason } => {
            format!("{} skipped: {}", path.display(), reason.describe())
        }
    }
}

/// The stack as a table, in load order: priority grows downward.
fn explain(stack: &Stack) -> String {
    let mut out = String::from("#   scope    chars  imported from / conditional  path\n");
    for (i, file) in stack.files.iter().enumerate() {
        let origin = match (&file.imported_from, &file.globs) {
            (Some(from), _) => format!("@ {}", from.display()),
            (None, Some(globs)) => format!("paths: {}", globs.join(", ")),
            (None, None) => "-".to_string(),
        };
        out.push_str(&format!(
            "{:<3} {:<8} {:>6}  {:<27}  {}\n",
            i + 1,
            file.scope.name(),
            crate::js::trim(&file.content).encode_utf16().count(),
            origin,
            file.path.display()
        ));
    }
    if stack.files.is_empty() {
        out.push_str("(nothing is loaded)\n");
    }
    for w in &stack.warnings {
        out.push_str(&format!("warning: {}\n", describe_warning(w)));
    }
    out
}

fn to_json(stack: &Stack, text: &str) -> serde_json::Value {
    let files: Vec<_> = stack
        .files
        .iter()
        .map(|f| {
            serde_json::json!({
                "scope": f.scope.name(),
                "path": f.path,
                "characters": crate::js::trim(&f.content).encode_utf16().count(),
                "imported_from": f.imported_from,
                "conditional": f.globs.is_some(),
                "globs": f.globs,
            })
        })
        .collect();
    let warnings: Vec<_> = stack.warnings.iter().map(describe_warning).collect();
    serde_json::json!({ "files": files, "text": text, "warnings": warnings })
}
