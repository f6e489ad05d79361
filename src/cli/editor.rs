//! The person's editor (DESIGN §11): a memory's topic file opened in `$VISUAL`, else `$EDITOR`,
//! else `vi`, as `git commit` opens its message. The text is edited in a file of its own (in a
//! new private folder under the temp dir, named `<name>.md` so the editor knows it is
//! markdown), never in the memory dir, so an agent's write meanwhile is neither clobbered nor
//! half-read; what the person saves is checked, and on a terminal a text that does not pass is
//! opened again. A text that is refused, or whose commit fails, is kept and its file named.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

use crate::Error;
use crate::cli::Output;
use crate::cli::program::user_command;
use crate::env::Environment;
use crate::input::{MAX_TOPIC_FILE_BYTES, read_regular_text};

/// The editor when none is set (git's).
const DEFAULT_EDITOR: &str = "vi";

/// The editor's command line: `$VISUAL` (unless `TERM=dumb`, as git), else `$EDITOR`, else `vi`.
pub fn editor_command(env: &Environment) -> String {
    let dumb = env.var_str("TERM").as_deref() == Some("dumb");
    env.var_str("VISUAL")
        .filter(|_| !dumb)
        .or_else(|| env.var_str("EDITOR"))
        .unwrap_or_else(|| DEFAULT_EDITOR.to_string())
}

/// The file being edited: removed when dropped, unless kept.
pub struct Buffer {
    dir: tempfile::TempDir,
    file: PathBuf,
}

impl Buffer {
    /// Keep the file (the text was refused, or its commit failed): where it is.
    pub fn keep(self) -> PathBuf {
        let _ = self.dir.keep();
        self.file
    }
}

/// What became of an edit.
pub enum Edited<T> {
    /// The person left the memory as it was: nothing to do.
    Unchanged,
    /// The text as saved, and what `check` made of it.
    Checked { value: T, buffer: Buffer },
}

/// Open `text`, the topic file of the memory `name`, in the person's editor; read back what
/// they save and, unless it is the memory's `original` text, give it to `check`. When `check`
/// refuses it and stdin is a terminal, the error is shown and the person is asked whether to
/// edit it again; otherwise (or when they say no) the edit is refused with the file kept
/// ([`Error::Kept`]).
pub fn edit<T>(
    env: &Environment,
    name: &str,
    text: &str,
    original: Option<&str>,
    output: &mut Output<'_>,
    mut check: impl FnMut(&str) -> Result<T, Error>,
) -> Result<Edited<T>, Error> {
    let dir = tempfile::Builder::new()
        .prefix("memdir-edit-")
        .tempdir()
        .map_err(|source| Error::Io {
            context: "making a folder for the editor's file".into(),
            source,
        })?;
    let file = dir.path().join(format!("{name}.md"));
    std::fs::write(&file, text).map_err(|source| Error::Io {
        context: format!("writing {}", file.display()),
        source,
    })?;
    let buffer = Buffer { dir, file };
    let line = editor_command(env);
    loop {
        if let Err(e) = run_editor(&line, &buffer, env) {
            return Err(kept(e, buffer));
        }
        let edited = match read_regular_text(&buffer.file, MAX_TOPIC_FILE_BYTES) {
            Ok(edited) => edited,
            Err(e) => return Err(kept(Error::Usage(e.to_string()), buffer)),
        };
        if Some(edited.as_str()) == original {
            return Ok(Edited::Unchanged);
        }
        let error = match check(&edited) {
            Ok(value) => return Ok(Edited::Checked { value, buffer }),
            Err(error) => error,
        };
        if !std::io::stdin().is_terminal() {
            return Err(kept(error, buffer));
        }
        let report = error.report_for(output.err_color, output.progress);
        let _ = write!(output.err, "{report}\nedit it again? [Y/n] ");
        let _ = output.err.flush();
        let mut answer = String::new();
        let read = std::io::stdin().lock().read_line(&mut answer);
        let again = matches!(read, Ok(n) if n > 0)
            && matches!(
                answer.trim().to_ascii_lowercase().as_str(),
                "" | "y" | "yes"
            );
        if !again {
            // The reason was just shown: the error says only that nothing changed.
            let declined = Error::Usage(format!("{name} was not changed"));
            return Err(kept(declined, buffer));
        }
    }
}

/// Run the editor on the buffer's file and wait for it.
fn run_editor(line: &str, buffer: &Buffer, env: &Environment) -> Result<(), Error> {
    let mut command = user_command(line, &[buffer.file.as_os_str()], env)
        .map_err(|why| Error::Failed(format!("cannot start the editor `{line}`: {why}")))?;
    let status = command
        .status()
        .map_err(|e| Error::Failed(format!("cannot start the editor `{line}`: {e}")))?;
    if !status.success() {
        let how = status
            .code()
            .map_or_else(|| "was killed".to_string(), |c| format!("exited with {c}"));
        return Err(Error::Failed(format!(
            "the editor `{line}` {how}; nothing was saved"
        )));
    }
    Ok(())
}

/// `error`, with the edited text kept and its file named.
pub fn kept(error: Error, buffer: Buffer) -> Error {
    Error::Kept {
        error: Box::new(error),
        file: buffer.keep(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_is_visual_then_editor_then_vi() {
        let env = |vars: &[(&str, &str)]| {
            Environment::from_vars(vars.iter().copied(), PathBuf::from("/"))
        };
        assert_eq!(editor_command(&env(&[])), "vi");
        assert_eq!(editor_command(&env(&[("EDITOR", "nano")])), "nano");
        assert_eq!(
            editor_command(&env(&[("EDITOR", "nano"), ("VISUAL", "code --wait")])),
            "code --wait"
        );
        assert_eq!(
            editor_command(&env(&[
                ("EDITOR", "ed"),
                ("VISUAL", "vim"),
                ("TERM", "dumb")
            ])),
            "ed"
        );
    }
}
