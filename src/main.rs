//! The `memdir` binary: parse arguments, run the library, map errors to exit codes.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use memdir::cli::error::{EXIT_FAILURE, EXIT_OK};
use memdir::cli::{Cli, Output, hook_mode, printable, run};
use memdir::env::Environment;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
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
    let env = match env {
        Ok(env) => env,
        // Claude Code starts a hook in the session's cwd; gone, there is nowhere to log.
        Err(_) if hook.is_some() => return ExitCode::from(EXIT_OK),
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "error: cannot read the current directory: {e}"
            );
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let wants_json = cli.wants_json();
    let stderr = std::io::stderr();
    let err_is_terminal = std::io::IsTerminal::is_terminal(&stderr);
    // stdout is not held locked for the whole run: `memdir mcp` writes its replies to it from
    // another thread (the async runtime's), which would wait forever for the lock.
    let mut out = std::io::stdout();
    let mut err = stderr.lock();
    let mut output = Output {
        out: &mut out,
        err: &mut err,
        quiet: cli.global.quiet,
        verbose: cli.global.verbose,
        progress: err_is_terminal,
        terminal: std::io::IsTerminal::is_terminal(&std::io::stdout()),
    };
    let result = run(&cli, env, &mut output);
    let flushed = out.flush();
    match result {
        Ok(()) => match flushed {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                let _ = writeln!(err, "error: writing to stdout: {e}");
                ExitCode::from(EXIT_FAILURE)
            }
            _ => ExitCode::from(EXIT_OK),
        },
        Err(e) if e.is_broken_pipe() => ExitCode::from(EXIT_OK),
        Err(e) => {
            if wants_json {
                let _ = writeln!(err, "{}", e.to_json());
            } else {
                // What went wrong may quote a file's name or content: escaped on a terminal.
                let _ = writeln!(err, "{}", printable(&e.report(), err_is_terminal));
            }
            ExitCode::from(e.exit_code())
        }
    }
}
