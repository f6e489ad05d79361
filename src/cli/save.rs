//! `memdir save`: the two-step save (topic file, then index line) as one commit (DESIGN §4). On
//! a terminal with no body it opens the editor, as `git commit` does.

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::Error;
use crate::cli::edit::{Commit, check_secrets, in_editor, parse_type};
use crate::cli::{Ctx, Output, validate_session};
use crate::input::{MAX_BODY_BYTES, read_capped};
use crate::memory::catalog::read_memory;
use crate::memory::store::{Base, SaveRequest, StoreError};
use crate::memory::taxonomy::validate_name;
use crate::memory::topic::{TopicFile, yaml_scalar};

/// Save a memory, or update the one with this name.
///
/// The body comes from --body, --body-file (`-`: stdin), or stdin when it is not a terminal; on
/// a terminal with none of them, the memory opens in $VISUAL or $EDITOR (as `memdir edit`). An
/// update keeps the type, description and title not given. A save that would change a memory's
/// type is refused unless --change-type says so (or use `memdir edit NAME --type T`).
#[derive(Debug, clap::Args)]
pub struct SaveArgs {
    /// user, feedback, project or reference [needed for a new memory; kept on update].
    #[arg(long = "type", value_name = "TYPE", add = clap_complete::ArgValueCandidates::new(crate::cli::completions::types))]
    pub memory_type: Option<String>,
    /// The memory's name: kebab-case, the file is NAME.md.
    #[arg(long, add = clap_complete::ArgValueCandidates::new(crate::cli::completions::memory_names))]
    pub name: String,
    /// One line: what the memory is, shown as the index line's hook [needed for a new memory;
    /// kept on update].
    #[arg(long)]
    pub description: Option<String>,
    /// The index line's title [default: the name in words; kept on update].
    #[arg(long)]
    pub title: Option<String>,
    /// The memory's text [default: read from stdin when it is not a terminal, else written in
    /// your editor].
    #[arg(long, conflicts_with = "body_file")]
    pub body: Option<String>,
    /// Read the memory's text from this file (`-`: stdin).
    #[arg(long, value_name = "FILE")]
    pub body_file: Option<PathBuf>,
    /// Let --type change the type of the memory saved under this name.
    #[arg(long, requires = "memory_type")]
    pub change_type: bool,
    /// The Claude Code session this memory comes from (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}]}.
    #[arg(long)]
    pub json: bool,
}

/// Where the body comes from.
enum Body {
    Given(String),
    /// A person at a terminal writes it in their editor.
    Editor,
}

/// The body from `--body`, `--body-file` or stdin, at most [`MAX_BODY_BYTES`] (a stream is read
/// no further than one byte past it: `--body-file /dev/zero` ends at once); the editor when
/// there is none and stdin is a terminal.
fn read_body(args: &SaveArgs) -> Result<Body, Error> {
    let bytes = if let Some(body) = &args.body {
        return Ok(Body::Given(body.clone()));
    } else if let Some(file) = args.body_file.as_ref().filter(|f| f.as_os_str() != "-") {
        let what = format!("--body-file {}", file.display());
        let opened = std::fs::File::open(file)
            .map_err(|e| Error::Usage(format!("cannot read {what}: {e}")))?;
        if opened.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(Error::Usage(format!("{what} is a folder: give a file")));
        }
        read_capped(opened, MAX_BODY_BYTES, &what).map_err(StoreError::from)?
    } else {
        let stdin = std::io::stdin();
        if args.body_file.is_none() && stdin.is_terminal() {
            return Ok(Body::Editor);
        }
        read_capped(stdin.lock(), MAX_BODY_BYTES, "the body on stdin").map_err(StoreError::from)?
    };
    String::from_utf8(bytes)
        .map(Body::Given)
        .map_err(|_| Error::Usage("the body is not valid UTF-8".into()))
}

pub fn run(ctx: &Ctx, args: &SaveArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    validate_name(&args.name).map_err(StoreError::from)?;
    let given_type = parse_type(args.memory_type.as_deref())?;
    let body = read_body(args)?;
    let resolved = ctx.resolve(output)?;
    let existing = match read_memory(resolved.dir(), &args.name) {
        Ok((_, text, topic)) => Some((text, topic)),
        Err(StoreError::NotFound(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let old_type = existing.as_ref().and_then(|(_, topic)| topic.memory_type);
    if let (Some(from), Some(to)) = (old_type, given_type)
        && from != to
        && !args.change_type
    {
        return Err(StoreError::TypeChange {
            name: args.name.clone(),
            from,
            to,
        }
        .into());
    }
    let base = match &existing {
        Some((text, _)) => Base::Text(text),
        None => Base::Absent,
    };
    let body = match body {
        Body::Given(body) => body,
        Body::Editor => {
            resolved.check_enabled()?;
            let text = editor_text(
                &args.name,
                existing.as_ref(),
                given_type,
                args.description.as_deref(),
            );
            // The type line is the person's to change in the editor.
            let commit = Commit {
                base,
                change_type: true,
                json: args.json,
            };
            return in_editor(
                ctx,
                output,
                &args.name,
                &text,
                args.title.as_deref(),
                session,
                &commit,
            );
        }
    };
    let new = |what: &str| {
        let why = if existing.is_some() {
            "has none yet"
        } else {
            "is a new memory"
        };
        Error::Usage(format!("{} {why}: give --{what}", args.name))
    };
    let memory_type = given_type.or(old_type).ok_or_else(|| new("type"))?;
    let description = args
        .description
        .as_deref()
        .or(existing
            .as_ref()
            .and_then(|(_, t)| t.description.as_deref()))
        .ok_or_else(|| new("description"))?;
    let request = SaveRequest {
        name: &args.name,
        memory_type,
        description,
        title: args.title.as_deref(),
        body: &body,
        session,
    };
    // Bad input is refused before anything is created or locked.
    request.validate()?;
    if let Some(warning) = check_secrets(ctx, &request, None)? {
        output.warn(&warning)?;
    }
    let commit = Commit {
        base,
        change_type: args.change_type,
        json: args.json,
    };
    commit.save(ctx, output, &request, None)
}

/// What the editor shows for a save with no body: the memory as it is with the fields given
/// put in, or, for a new one, its frontmatter to fill in and an empty body.
fn editor_text(
    name: &str,
    existing: Option<&(String, TopicFile)>,
    memory_type: Option<crate::memory::taxonomy::MemoryType>,
    description: Option<&str>,
) -> String {
    if let Some((text, topic)) = existing {
        let memory_type = memory_type.or(topic.memory_type);
        let description = description.or(topic.description.as_deref());
        return match (memory_type, description) {
            (Some(t), Some(d)) => topic
                .updated(name, d, t, &topic.body)
                .map_or_else(|_| text.clone(), |t| t.render()),
            _ => text.clone(),
        };
    }
    format!(
        "---\nname: {name}\ndescription: {}\ntype: {}\n---\n",
        description.map(yaml_scalar).unwrap_or_default(),
        memory_type.map_or("", |t| t.as_str()),
    )
}
