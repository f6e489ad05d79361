//! `memdir context`: the instruction stack exactly as Claude Code 2.1.x sends it to the model at
//! session start (DESIGN §5), and, with `--explain`, where every part came from and what
//! memdir's own hooks add beside it (§12).

use std::path::PathBuf;

use crate::Error;
use crate::cli::style::{self, Painted};
use crate::cli::{Ctx, Output, hook_mode};
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
        let mut text = explain(&stack);
        text.plain(&explain_additions(ctx, output)?);
        return output.painted(&text);
    }
    output.data(&text)
}

/// The stack for the command's project, with the conditional rules for the `touched` files.
pub fn load(ctx: &Ctx, touched: Vec<PathBuf>) -> Result<Stack, Error> {
    Ok(crate::stack::session::load(
        &ctx.env,
        &ctx.project(),
        ctx.global.memory_dir.as_deref(),
        touched,
    )?)
}

/// The `--touch` files, absolute.
fn touched(ctx: &Ctx, args: &ContextArgs) -> Vec<PathBuf> {
    args.touch
        .iter()
        .map(|f| crate::paths::absolute_from(&ctx.env.cwd, f))
        .collect()
}

/// The stack as a table, in load order: priority grows downward.
fn explain(stack: &Stack) -> Painted {
    let mut table = String::from("#   scope    chars  imported from / conditional  path\n");
    for (i, file) in stack.files.iter().enumerate() {
        let origin = match (&file.imported_from, &file.globs) {
            (Some(from), _) => format!("@ {}", from.display()),
            (None, Some(globs)) => format!("paths: {}", globs.join(", ")),
            (None, None) => "-".to_string(),
        };
        table.push_str(&format!(
            "{:<3} {:<8} {:>6}  {:<27}  {}\n",
            i + 1,
            file.scope.name(),
            crate::js::trim(&file.content).encode_utf16().count(),
            origin,
            file.path.display()
        ));
    }
    if stack.files.is_empty() {
        table.push_str("(nothing is loaded)\n");
    }
    let mut out = Painted::new();
    out.plain(&table);
    for w in &stack.warnings {
        out.styled(style::WARNING, "warning:")
            .plain(&format!(" {}\n", w.describe()));
    }
    out
}

/// What memdir's hooks add to a session beside the stack (DESIGN §12), marked as memdir's: the
/// team memory index at SessionStart, and memories at each prompt; empty when auto memory is off
/// or `memdir.recall` turns both off.
fn explain_additions(ctx: &Ctx, output: &mut Output<'_>) -> Result<String, Error> {
    let resolved = ctx.resolve(output)?;
    if resolved.check_enabled().is_err() {
        return Ok(String::new());
    }
    let mut out = String::new();
    if resolved.recall_session_start
        && let Some(index) = crate::recall::inject::team_index(resolved.dir())?
    {
        out.push_str(&format!(
            "+   memdir   {:>6}  {:<27}  {}\n",
            index.encode_utf16().count(),
            "SessionStart: recall --hook",
            crate::paths::team_dir(resolved.dir())
                .join(crate::memory::taxonomy::INDEX_FILE)
                .display()
        ));
    }
    if resolved.recall_prompt {
        out.push_str(&format!(
            "+   memdir   {:>6}  {:<27}  {}\n",
            "-",
            "each prompt: recall --hook",
            "the memories that clear the bar for the prompt, at most 3 and 4 KB \
             (memdir recall PROMPT shows them)"
        ));
    }
    if !out.is_empty() {
        out.insert_str(
            0,
            "added by memdir's hooks (memdir hooks install --claude), not by Claude Code:\n",
        );
    }
    Ok(out)
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
    let warnings: Vec<_> = stack.warnings.iter().map(Warning::describe).collect();
    serde_json::json!({ "files": files, "text": text, "warnings": warnings })
}
