//! Hook mode (`--hook` on `extract`, `snapshot`, `context`, `recall` and `sync`; DESIGN §11): what Claude Code runs
//! on its hook events. It never blocks or errors the agent: Claude Code reads exit 2 from a Stop
//! hook as "do not stop, keep going" and shows any other non-zero exit as a hook error after
//! every edit. So whatever goes wrong — a payload that is empty, not JSON, over its cap or
//! missing a field, a deleted `cwd`, a broken settings file, a bad flag in the hook's command
//! line, even a panic — the hook answers 0 and the problem goes to a log:
//!
//! - `<memory dir>/.git/memdir/worker.log` when the payload names a project whose memory dir
//!   resolves and has its repository (the log the background worker writes too);
//! - else `<config dir>/memdir/hooks.log` (`$CLAUDE_CONFIG_DIR`, else `~/.claude`).
//!
//! Auto memory being off is not a problem: the hook does nothing, quietly, and logs nothing.
//! Both logs are capped ([`crate::log_file`]).

use std::ffi::OsString;
use std::path::PathBuf;

use crate::Error;
use crate::cli::{Ctx, HookPayload, Output};
use crate::env::Environment;
use crate::paths::resolve_memory_dir;
use crate::settings::Settings;

/// The subcommands with a hook mode.
const HOOK_COMMANDS: &[&str] = &["extract", "snapshot", "context", "recall", "sync"];

/// Run `body` as the hook `name` (`"extract --hook"`): the payload read from stdin, the context
/// taken from it, every failure logged, and always `Ok`.
pub fn run(
    ctx: &Ctx,
    name: &str,
    output: &mut Output<'_>,
    body: impl FnOnce(&Ctx, HookPayload, &mut Output<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    let payload = match HookPayload::from_stdin() {
        Ok(payload) => payload,
        Err(e) => {
            // Which project the hook is about is in the payload: no memory dir to log in.
            log_fallback(&ctx.env, name, &e.to_string());
            return Ok(());
        }
    };
    let hook_ctx = ctx.for_hook(&payload);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        body(&hook_ctx, payload, output)
    }));
    let problem = match result {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(e)) if e.is_broken_pipe() => return Ok(()),
        Ok(Err(Error::Disabled(_))) => return Ok(()),
        Ok(Err(e)) => e.to_string(),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("memdir panicked: {message}")
        }
    };
    match worker_log(&hook_ctx) {
        Some(log) => crate::log_file::append(&log, &format!("{name}: {problem}")),
        None => log_fallback(&ctx.env, name, &problem),
    }
    Ok(())
}

/// The hook a command line runs (`"extract --hook"`), if it is one: `--hook` and a subcommand
/// that has a hook mode. For the binary, before its arguments are parsed.
pub fn command_line(args: &[OsString]) -> Option<String> {
    if !args.iter().any(|a| a == "--hook") {
        return None;
    }
    let command = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .find(|a| HOOK_COMMANDS.contains(a))?;
    Some(format!("{command} --hook"))
}

/// A hook whose command line did not parse (a flag memdir does not know, a value over its cap):
/// the payload is read and dropped (Claude Code is writing it) and the problem logged.
pub fn refuse(env: &Environment, name: &str, problem: &str) {
    let _ = HookPayload::from_stdin();
    log_fallback(env, name, problem);
}

/// The worker log of the memory dir the hook is about, when it resolves and has a repository.
fn worker_log(ctx: &Ctx) -> Option<PathBuf> {
    let project = ctx.project();
    let settings = Settings::load(&ctx.env, &project).ok()?;
    let location = resolve_memory_dir(
        &ctx.env,
        &settings,
        ctx.global.memory_dir.as_deref(),
        &project,
    )
    .ok()?;
    let git_dir = location.dir.join(".git");
    git_dir
        .is_dir()
        .then(|| crate::extract::worker::log_path(&git_dir))
}

/// `<config dir>/memdir/hooks.log`; nothing when there is no config dir (no home).
fn log_fallback(env: &Environment, name: &str, problem: &str) {
    if let Ok(config) = env.config_dir() {
        crate::log_file::append(
            &config.join("memdir").join("hooks.log"),
            &format!("{name}: {problem}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn hook_command_lines() {
        assert_eq!(
            command_line(&args("memdir extract --hook --bogus")).as_deref(),
            Some("extract --hook")
        );
        assert_eq!(
            command_line(&args("memdir -q context --hook")).as_deref(),
            Some("context --hook")
        );
        assert_eq!(command_line(&args("memdir extract --drain")), None);
        assert_eq!(command_line(&args("memdir save --hook")), None);
    }
}
