//! `memdir save`: the two-step save (topic file, then index line) as one commit (DESIGN §4).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use crate::Error;
use crate::cli::{Ctx, Output, short, validate_session};
use crate::memory::store::{Op, SaveRequest};
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

fn read_body(args: &SaveArgs) -> Result<String, Error> {
    if let Some(body) = &args.body {
        return Ok(body.clone());
    }
    if let Some(file) = &args.body_file {
        let bytes = std::fs::read(file).map_err(|e| {
            Error::Usage(format!("cannot read --body-file {}: {e}", file.display()))
        })?;
        return String::from_utf8(bytes).map_err(|_| {
            Error::Usage(format!("--body-file {} is not valid UTF-8", file.display()))
        });
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(Error::Usage(
            "no body: give --body TEXT, --body-file FILE, or pipe it on stdin".into(),
        ));
    }
    let mut bytes = Vec::new();
    stdin
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Io {
            context: "reading the body from stdin".into(),
            source,
        })?;
    String::from_utf8(bytes)
        .map_err(|_| Error::Usage("the body on stdin is not valid UTF-8".into()))
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
    let findings = crate::secrets::scan(&format!("{}\n{}", args.description, body));
    if !findings.is_empty() {
        let found: Vec<String> = findings
            .iter()
            .map(|f| format!("{} on line {} ({})", f.kind, f.line, f.excerpt))
            .collect();
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
