//! `memdir save`: the two-step save (topic file, then index line) as one commit (DESIGN §4).

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::Error;
use crate::cli::{Ctx, Output, short, validate_session};
use crate::input::{MAX_BODY_BYTES, read_capped};
use crate::memory::store::{Op, SaveRequest, StoreError};
use crate::memory::taxonomy::MemoryType;

/// Save a memory, or update the one with this name.
#[derive(Debug, clap::Args)]
pub struct SaveArgs {
    /// user, feedback, project or reference.
    #[arg(long = "type", value_name = "TYPE")]
    pub memory_type: String,
    /// The memory's name: kebab-case, the file is NAME.md.
    #[arg(long)]
    pub name: String,
    /// One line: what the memory is, shown as the index line's hook.
    #[arg(long)]
    pub description: String,
    /// The index line's title [default: the name in words; kept on update].
    #[arg(long)]
    pub title: Option<String>,
    /// The memory's text [default: read from stdin when it is not a terminal].
    #[arg(long, conflicts_with = "body_file")]
    pub body: Option<String>,
    /// Read the memory's text from this file.
    #[arg(long, value_name = "FILE")]
    pub body_file: Option<PathBuf>,
    /// The Claude Code session this memory comes from (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
}

/// The body from `--body`, `--body-file` or stdin, at most [`MAX_BODY_BYTES`] (a stream is read
/// no further than one byte past it: `--body-file /dev/zero` ends at once).
fn read_body(args: &SaveArgs) -> Result<String, Error> {
    let bytes = if let Some(body) = &args.body {
        return Ok(body.clone());
    } else if let Some(file) = &args.body_file {
        let what = format!("--body-file {}", file.display());
        let opened = std::fs::File::open(file)
            .map_err(|e| Error::Usage(format!("cannot read {what}: {e}")))?;
        read_capped(opened, MAX_BODY_BYTES, &what).map_err(StoreError::from)?
    } else {
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            return Err(Error::Usage(
                "no body: give --body TEXT, --body-file FILE, or pipe it on stdin".into(),
            ));
        }
        read_capped(stdin.lock(), MAX_BODY_BYTES, "the body on stdin").map_err(StoreError::from)?
    };
    String::from_utf8(bytes).map_err(|_| Error::Usage("the body is not valid UTF-8".into()))
}

pub fn run(ctx: &Ctx, args: &SaveArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let memory_type: MemoryType = args
        .memory_type
        .parse()
        .map_err(|e: crate::memory::taxonomy::UnknownType| Error::Usage(e.to_string()))?;
    let body = read_body(args)?;
    let request = SaveRequest {
        name: &args.name,
        memory_type,
        description: &args.description,
        title: args.title.as_deref(),
        body: &body,
        session: validate_session(args.session.as_deref())?,
    };
    // Bad input is refused before anything is created or locked.
    request.validate()?;
    // Team memory is pushed to a remote: a secret never goes in (DESIGN §8).
    let found = request.secret_findings();
    if !found.is_empty() {
        if ctx.global.team {
            return Err(Error::Usage(format!(
                "refused: team memory is shared, and this memory holds {}",
                found.join("; ")
            )));
        }
        output.warn(&format!(
            "this memory holds {}; it stays in this machine's git history",
            found.join("; ")
        ))?;
    }
    let mut store = ctx.open_for_write(output)?;
    let saved = store.save(&request)?;
    output.adoption(&saved.adoption)?;
    for warning in &saved.warnings {
        output.warn(warning)?;
    }
    match saved.commit {
        None => output.info(&format!("{} unchanged", args.name)),
        Some(id) => {
            let verb = if saved.op == Op::Update {
                "updated"
            } else {
                "saved"
            };
            output.info(&format!("{verb} {} ({})", args.name, saved.file))?;
            output.detail(&format!("commit {}", short(&id)))
        }
    }
}
