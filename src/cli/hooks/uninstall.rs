//! `memdir hooks uninstall`: memdir's entries taken out of Claude Code's `settings.json`
//! (`--claude`) and its line out of the project's post-merge hook (`--git`), the inverse of
//! `hooks install`; says what was removed.

use serde_json::{Map, Value};

use crate::Error;
use crate::cli::hooks::{UninstallArgs, event_label, hook_json};
use crate::cli::{Ctx, Output};
use crate::hooks::DEFAULT_PROGRAM;
use crate::hooks::git::Removal;

pub fn run(ctx: &Ctx, args: &UninstallArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if !args.claude && !args.git {
        return Err(Error::Usage(
            "say which hooks to uninstall: --claude takes memdir's entries out of Claude Code's \
             settings.json, --git takes memdir's line out of the project's post-merge hook"
                .into(),
        ));
    }
    let given = args.program.as_deref().unwrap_or(DEFAULT_PROGRAM);
    let program = crate::hooks::program_path(&ctx.env.cwd, given)?;
    let mut json = Map::new();
    if args.claude {
        claude(ctx, args, &program, output, &mut json)?;
    }
    if args.git {
        let (file, removal) = crate::hooks::git::uninstall(&ctx.project())?;
        let verb = match removal {
            Removal::Removed => "removed memdir's line from the post-merge hook",
            Removal::Deleted => "deleted the post-merge hook, which was memdir's alone",
            Removal::Unchanged => "memdir's line is not in the post-merge hook: nothing changed",
        };
        if !args.json {
            output.info(&format!("{verb}: {}", file.display()))?;
        }
        json.insert(
            "git".into(),
            serde_json::json!({"path": file.display().to_string(), "action": removal.as_str()}),
        );
    }
    if args.json {
        return output.json(&Value::Object(json));
    }
    Ok(())
}

/// `--claude`: take memdir's entries out of settings.json; with `--json`, its report goes in
/// `json`.
fn claude(
    ctx: &Ctx,
    args: &UninstallArgs,
    program: &str,
    output: &mut Output<'_>,
    json: &mut Map<String, Value>,
) -> Result<(), Error> {
    let (file, boundary) = args.scope.settings_file(ctx)?;
    let uninstalled = crate::hooks::claude::uninstall(&file, program, boundary.as_deref())?;
    let removed = &uninstalled.removed;
    if args.json {
        let list: Vec<Value> = removed
            .iter()
            .map(|r| hook_json(&r.event, r.matcher.as_deref(), &r.command))
            .collect();
        json.insert("path".into(), file.display().to_string().into());
        json.insert("removed".into(), list.into());
        json.insert("unchanged".into(), removed.is_empty().into());
        return Ok(());
    }
    if removed.is_empty() {
        return output.info(&format!(
            "memdir's hooks are not in {}: nothing changed",
            file.display()
        ));
    }
    for hook in removed {
        let event = event_label(&hook.event, hook.matcher.as_deref());
        output.info(&format!("{event}: removed `{}`", hook.command))?;
    }
    output.info(&format!("updated {}", file.display()))?;
    Ok(())
}
