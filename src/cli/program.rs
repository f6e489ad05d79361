//! The programs a person chooses through the environment — the pager (`$MEMDIR_PAGER`,
//! `$PAGER`) and the editor (`$VISUAL`, `$EDITOR`) — and how their command lines are run, as git
//! runs them: a simple one (words, quotes) as it is, its program looked up on `PATH`, so that a
//! missing one is said by name; anything a shell does more with (`less | tee x`,
//! `$HOME/bin/ed`) through `sh -c`, with the arguments after it as `"$@"`.

use std::ffi::OsStr;
use std::process::Command;

use crate::env::Environment;

/// `line` with `args` after it, as a process to start; `Err` says why it cannot run.
pub fn user_command(line: &str, args: &[&OsStr], env: &Environment) -> Result<Command, String> {
    let Some(words) = crate::shell::words(line) else {
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(format!("{line} \"$@\""))
            .arg(line)
            .args(args);
        return Ok(command);
    };
    let Some((program, rest)) = words.split_first() else {
        return Err("it is empty".into());
    };
    let path = env.var_raw("PATH").map(|p| p.as_os_str());
    let found = match crate::process::program::check_program(&program.text, path) {
        crate::process::program::ProgramCheck::Found(found) => found,
        crate::process::program::ProgramCheck::NotExecutable => {
            return Err(format!("{} is not an executable file", program.text));
        }
        crate::process::program::ProgramCheck::NotOnPath
        | crate::process::program::ProgramCheck::Missing => {
            return Err(format!("{} is not found", program.text));
        }
    };
    let mut command = Command::new(found);
    command.args(rest.iter().map(|w| &w.text)).args(args);
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> Environment {
        Environment::from_vars(vars.iter().copied(), std::path::PathBuf::from("/"))
    }

    #[test]
    fn a_program_that_is_not_there_is_said_so() {
        let e = env(&[("PATH", "/nonexistent")]);
        let why = user_command("no-such-pager -R", &[], &e).err();
        assert_eq!(why.as_deref(), Some("no-such-pager is not found"));
    }

    #[test]
    fn a_shell_command_line_gets_its_arguments_as_its_own() {
        let e = env(&[("PATH", "/usr/bin:/bin")]);
        let file = OsStr::new("it's a file.md");
        let output = user_command("printf '%s|' \"$0\" >&2; echo", &[file], &e)
            .expect("through sh")
            .output()
            .expect("sh runs");
        assert_eq!(String::from_utf8_lossy(&output.stdout), "it's a file.md\n");
        let output = user_command("echo 'one word'", &[file], &e)
            .expect("found on PATH")
            .output()
            .expect("echo runs");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "one word it's a file.md\n"
        );
    }
}
