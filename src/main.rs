//! The `memdir` binary: parse arguments, run the library, map errors to exit codes.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use memdir::cli::error::{EXIT_FAILURE, EXIT_OK};
use memdir::cli::pager::PagedStdout;
use memdir::cli::style::{self, ColorWhen};
use memdir::cli::{Cli, Output, completions, hook_mode, run};
use memdir::env::Environment;

fn main() -> ExitCode {
    // A Tab in a shell (`memdir completions`): answered, then exit.
    clap_complete::CompleteEnv::with_factory(completions::command)
        .var(completions::VAR)
        .complete();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Before clap parses: its own errors follow `--color` too.
    if let Some(when) = ColorWhen::from_args(&args) {
        when.apply();
    }
    // A hook never errors the agent (DESIGN §11), not even on its own command line.
    let hook = hook_mode::command_line(&args);
    let env = Environment::from_process();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => match &hook {
            Some(hook) if e.use_stderr() => {
                if let Ok(env) = &env {
                    let message = e.to_string();
                    let first = message.lines().next().unwrap_or_default();
                    hook_mode::refuse(env, hook, first.trim_start_matches("error: "));
                }
                return ExitCode::from(EXIT_OK);
            }
            _ => e.exit(),
        },
    };
    cli.global.color.apply();
    let stderr = std::io::stderr();
    let err_is_terminal = stderr.is_terminal();
    // Hooks answer Claude Code, whatever CLICOLOR_FORCE says.
    let err_color = hook.is_none() && style::colored(&stderr);
    let env = match env {
        Ok(env) => env,
        // Claude Code starts a hook in the session's cwd; gone, there is nowhere to log.
        Err(_) if hook.is_some() => return ExitCode::from(EXIT_OK),
        Err(e) => {
            let error = style::paint(err_color, style::ERROR, "error:");
            let _ = writeln!(
                std::io::stderr(),
                "{error} cannot read the current directory: {e}"
            );
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let wants_json = cli.wants_json();
    let stdout_is_terminal = std::io::stdout().is_terminal();
    let color = hook.is_none() && style::colored(&std::io::stdout());
    // stdout is not held locked for the whole run: `memdir mcp` writes its replies to it from
    // another thread (the async runtime's), which would wait forever for the lock.
    let mut stdout = std::io::stdout();
    let mut paged = (cli.pages() && stdout_is_terminal).then(|| PagedStdout::new(&env));
    let out: &mut dyn Write = match &mut paged {
        Some(paged) => paged,
        None => &mut stdout,
    };
    let mut err = stderr.lock();
    let (result, flushed) = {
        let mut output = Output {
            out,
            err: &mut err,
            quiet: cli.global.quiet,
            verbose: cli.global.verbose,
            progress: err_is_terminal,
            // Paged, the text still ends on the terminal: escaped as there.
            terminal: stdout_is_terminal,
            color,
            err_color,
        };
        let result = run(&cli, env, &mut output);
        (result, output.out.flush())
    };
    // The pager is left before anything more is said, so that it ends up below the text.
    if let Some(problem) = paged.and_then(PagedStdout::finish) {
        let warning = style::paint(err_color, style::WARNING, "warning:");
        let _ = writeln!(err, "{warning} {problem}");
    }
    match result {
        Ok(()) => match flushed {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                let error = style::paint(err_color, style::ERROR, "error:");
                let _ = writeln!(err, "{error} writing to stdout: {e}");
                ExitCode::from(EXIT_FAILURE)
            }
            _ => ExitCode::from(EXIT_OK),
        },
        Err(e) if e.is_broken_pipe() => ExitCode::from(EXIT_OK),
        Err(e) if e.is_verdict() => ExitCode::from(e.exit_code()),
        Err(e) => {
            if wants_json {
                let _ = writeln!(err, "{}", e.to_json());
            } else {
                // What went wrong may quote a file's name or content: escaped on a terminal.
                let _ = writeln!(err, "{}", e.report_for(err_color, err_is_terminal));
            }
            ExitCode::from(e.exit_code())
        }
    }
}
