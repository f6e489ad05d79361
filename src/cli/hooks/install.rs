//! `memdir hooks install`: memdir's entries merged into Claude Code's `settings.json`
//! (`--claude`) and the post-merge hook into the project's repository (`--git`); says what changed.

use serde_json::{Map, Value};

use crate::Error;
use crate::cli::hooks::{InstallArgs, Scope, event_label, hook_json};
use crate::cli::{Ctx, Output};
use crate::hooks::claude::Installed;

pub fn run(ctx: &Ctx, args: &InstallArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if !args.claude && !args.git {
        return Err(Error::Usage(
            "say which hooks to install: --claude merges memdir's entries into Claude Code's \
             settings.json, --git installs the post-merge hook into the project's repository"
                .into(),
        ));
    }
    let program = args.program.resolve(ctx)?;
    let mut json = Map::new();
    if args.claude {
        claude(ctx, args, &program, output, &mut json)?;
    }
    if args.git {
        let (file, action) = crate::hooks::git::install(&ctx.project(), &program)?;
        use crate::hooks::git::Action;
        let verb = match action {
            Action::Created => "installed the post-merge hook",
            Action::Appended => "added memdir's line to the existing post-merge hook",
            Action::Updated => "updated memdir's line in the post-merge hook",
            Action::MadeExecutable => "made the post-merge hook executable",
            Action::Unchanged => "the post-merge hook is already installed: nothing changed",
        };
        if !args.json {
            output.info(&format!("{verb}: {}", file.display()))?;
        }
        json.insert(
            "git".into(),
            serde_json::json!({"path": file.display().to_string(), "action": action.as_str()}),
        );
    }
    // Said once the hooks are written: a refused install says only why.
    let unrunnable = unrunnable(ctx, &program);
    if let Some(warning) = &unrunnable {
        output.warn(warning)?;
    }
    if args.claude
        && let Some(file) =
            crate::settings::Settings::load(&ctx.env, &ctx.project())?.memdir_plugin_enabled()
    {
        output.warn(&format!(
            "the memdir plugin is enabled too ({}): Claude Code runs its hooks beside these, so \
             each runs twice; keep one (memdir hooks uninstall --claude, or /plugin to disable \
             the plugin)",
            file.display()
        ))?;
    }
    if args.json {
        json.insert("resolves".into(), unrunnable.is_none().into());
        return output.json(&Value::Object(json));
    }
    Ok(())
}

/// `--scope project-local`: the local settings file is this machine's, never committed. Said
/// when memdir made git ignore it; a tracked one, or a failure, is warned of (the hooks are
/// installed either way).
fn keep_out_of_git(
    file: &std::path::Path,
    report_json: bool,
    output: &mut Output<'_>,
    json: &mut Map<String, Value>,
) -> Result<(), Error> {
    use crate::hooks::exclude::Exclude;
    let exclude = match crate::hooks::exclude::keep_out_of_git(file) {
        Ok(exclude) => exclude,
        Err(e) => {
            return output.warn(&format!(
                "{} may get committed: it could not be added to the repository's excludes ({e})",
                file.display()
            ));
        }
    };
    let Some(action) = exclude.as_str() else {
        return Ok(());
    };
    let mut report = serde_json::json!({"action": action});
    match &exclude {
        Exclude::Added {
            file: exclude,
            line,
        } => {
            report["path"] = exclude.display().to_string().into();
            report["line"] = line.as_str().into();
            if !report_json {
                output.info(&format!(
                    "git ignores it now, on this machine only: added `{line}` to {}",
                    exclude.display()
                ))?;
            }
        }
        Exclude::Tracked { relative } => output.warn(&format!(
            "git tracks {relative}, so this machine's hooks in it get committed: \
             `git rm --cached {relative}`, then install again to keep it out of git"
        ))?,
        Exclude::Ignored | Exclude::NoRepository => {}
    }
    json.insert("exclude".into(), report);
    Ok(())
}

/// The warning to give when the hooks' program cannot be run from here (the hooks are written
/// anyway: memdir may be installed later).
fn unrunnable(ctx: &Ctx, program: &str) -> Option<String> {
    use crate::process::program::ProgramCheck;
    let why = match crate::process::program::check_program(
        program,
        ctx.env.var_raw("PATH").map(|p| p.as_os_str()),
    ) {
        ProgramCheck::Found(_) => return None,
        ProgramCheck::NotOnPath => "which is not on PATH",
        ProgramCheck::Missing => "which does not exist",
        ProgramCheck::NotExecutable => "which is not an executable file",
    };
    Some(format!(
        "the hooks run `{program}`, {why}; each hook fails until it is there: install memdir \
         (cargo install --locked --path .) or give --command PATH"
    ))
}

/// `--claude`: merge the entries into settings.json; with `--json`, its report goes in `json`.
fn claude(
    ctx: &Ctx,
    args: &InstallArgs,
    program: &str,
    output: &mut Output<'_>,
    json: &mut Map<String, Value>,
) -> Result<(), Error> {
    let (file, boundary) = args.scope.settings_file(ctx)?;
    let extractor = args.extractor.resolve()?;
    let installed =
        crate::hooks::claude::install(&file, program, extractor.as_ref(), boundary.as_deref())?;
    report(args.json, &installed, output, json)?;
    if args.scope == Scope::ProjectLocal {
        keep_out_of_git(&file, args.json, output, json)?;
    }
    Ok(())
}

/// What an install into a settings file did: in `json`, else printed.
fn report(
    report_json: bool,
    installed: &Installed,
    output: &mut Output<'_>,
    json: &mut Map<String, Value>,
) -> Result<(), Error> {
    let (file, merge) = (&installed.file, &installed.merge);
    if report_json {
        let added: Vec<Value> = merge
            .added
            .iter()
            .map(|a| hook_json(&a.event, a.matcher.as_deref(), &a.command))
            .collect();
        let replaced: Vec<Value> = merge
            .replaced
            .iter()
            .map(|r| serde_json::json!({"event": r.event, "from": r.from, "to": r.to}))
            .collect();
        json.insert("path".into(), file.display().to_string().into());
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
        let event = event_label(&added.event, added.matcher.as_deref());
        output.info(&format!("{event}: added `{}`", added.command))?;
    }
    for replaced in &merge.replaced {
        output.info(&format!(
            "{}: replaced `{}` with `{}`",
            replaced.event, replaced.from, replaced.to
        ))?;
    }
    let verb = if installed.created {
        "created"
    } else {
        "updated"
    };
    output.info(&format!("{verb} {}", file.display()))
}
