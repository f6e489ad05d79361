//! The `memdir` binary: parse arguments, run the library, map errors to exit codes.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use memdir::cli::{Cli, Output, run};
use memdir::error::{EXIT_FAILURE, EXIT_OK};
use memdir::paths::Environment;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let env = match Environment::from_process() {
        Ok(env) => env,
        Err(e) => {
            eprintln!("error: cannot read the current directory: {e}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let mut output = Output {
        out: &mut out,
        err: &mut err,
        quiet: cli.global.quiet,
        verbose: cli.global.verbose,
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
            let _ = writeln!(err, "error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
