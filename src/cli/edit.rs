//! `memdir edit NAME`: a memory changed in the person's editor, as `git commit` edits its
//! message, or one field at a time (DESIGN §11); and what `save` shares with it: a save checked
//! for secrets, committed over the memory as it was read, and reported.

use crate::Error;
use crate::cli::editor::{self, Edited};
use crate::cli::written::{Changed, written_json};
use crate::cli::{Ctx, Output, short, validate_session};
use crate::memory::catalog::read_memory;
use crate::memory::store::{Base, Op, SaveOptions, SaveRequest, StoreError, read_edited};
use crate::memory::taxonomy::{MemoryType, validate_stored_name};

/// Edit a memory in your editor, or change one field of it.
///
/// With no field flags, the memory's topic file opens in $VISUAL (else $EDITOR, else vi). When
/// you save and quit, it is checked — the frontmatter, its name, type and description, and
/// secrets — and committed as one update. A file that does not pass is opened again on a
/// terminal, else refused with the error: nothing changes, and your text is kept in a file the
/// error names. Saved as it was, nothing is committed. With --description, --type or --title,
/// only those change (--type is how a memory's type is changed).
#[derive(Debug, clap::Args)]
pub struct EditArgs {
    /// The memory's name.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::completions::memory_names))]
    pub name: String,
    /// A new description (one line, the index line's hook).
    #[arg(long)]
    pub description: Option<String>,
    /// A new type: user, feedback, project or reference.
    #[arg(long = "type", value_name = "TYPE", add = clap_complete::ArgValueCandidates::new(crate::cli::completions::types))]
    pub memory_type: Option<String>,
    /// A new title for the index line.
    #[arg(long)]
    pub title: Option<String>,
    /// The Claude Code session asking for it (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change}]}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &EditArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let session = validate_session(args.session.as_deref())?;
    validate_stored_name(&args.name).map_err(StoreError::from)?;
    let given_type = parse_type(args.memory_type.as_deref())?;
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let (_, text, topic) = read_memory(resolved.dir(), &args.name)?;
    let commit = Commit {
        base: Base::Text(&text),
        change_type: true,
        json: args.json,
    };
    if args.description.is_none() && given_type.is_none() && args.title.is_none() {
        return in_editor(ctx, output, &args.name, &text, None, session, &commit);
    }
    let memory_type = given_type.or(topic.memory_type).ok_or_else(|| {
        Error::Usage(format!(
            "{} has no type: give --type (user, feedback, project or reference)",
            args.name
        ))
    })?;
    let description = args
        .description
        .as_deref()
        .or(topic.description.as_deref())
        .ok_or_else(|| {
            Error::Usage(format!(
                "{} has no description: give --description",
                args.name
            ))
        })?;
    let request = SaveRequest {
        name: &args.name,
        memory_type,
        description,
        title: args.title.as_deref(),
        body: &topic.body,
        session,
    };
    request.validate()?;
    if let Some(warning) = check_secrets(ctx, &request, Some(&text))? {
        output.warn(&warning)?;
    }
    commit.save(ctx, output, &request, None)
}

/// `--type`, read.
pub(crate) fn parse_type(given: Option<&str>) -> Result<Option<MemoryType>, Error> {
    given
        .map(|t| {
            t.parse()
                .map_err(|e: crate::memory::taxonomy::UnknownType| Error::Usage(e.to_string()))
        })
        .transpose()
}

/// How a save or edit is committed and reported.
pub(crate) struct Commit<'a> {
    /// The topic file as the command read it (refused if it changed since).
    pub base: Base<'a>,
    pub change_type: bool,
    pub json: bool,
}

impl Commit<'_> {
    /// Commit `request` (over `edited`, the topic file as a person wrote it) and say what
    /// happened.
    pub(crate) fn save(
        &self,
        ctx: &Ctx,
        output: &mut Output<'_>,
        request: &SaveRequest<'_>,
        edited: Option<&crate::memory::topic::TopicFile>,
    ) -> Result<(), Error> {
        let mut store = ctx.open_for_write(output)?;
        let saved = store.save_with(
            request,
            &SaveOptions {
                base: self.base,
                edited,
                change_type: self.change_type,
            },
        )?;
        if self.json {
            let change = match (saved.commit, saved.op) {
                (None, _) => "unchanged",
                (Some(_), Op::Update) => "updated",
                (Some(_), _) => "saved",
            };
            let value = written_json(
                &store.repo,
                &saved.adoption,
                saved.commit,
                &[Changed {
                    name: request.name,
                    memory_type: Some(request.memory_type),
                    change,
                }],
            )?;
            for warning in &saved.warnings {
                output.warn(warning)?;
            }
            return output.json(&value);
        }
        output.adoption(&saved.adoption)?;
        for warning in &saved.warnings {
            output.warn(warning)?;
        }
        match saved.commit {
            None => output.info(&format!("{} unchanged", request.name)),
            Some(id) => {
                let verb = if saved.op == Op::Update {
                    "updated"
                } else {
                    "saved"
                };
                output.info(&format!("{verb} {} ({})", request.name, saved.file))?;
                output.detail(&format!("commit {}", short(&id)))
            }
        }
    }
}

/// Secrets in what `request` writes: refused in team memory (it is pushed, DESIGN §8); in your
/// own memory a warning to give, but when the request comes from a person's edit of `before`
/// (the topic file as it was): then one the edit adds is refused, so it can be taken out again.
pub(crate) fn check_secrets(
    ctx: &Ctx,
    request: &SaveRequest<'_>,
    before: Option<&str>,
) -> Result<Option<String>, Error> {
    let found = request.secret_findings();
    if found.is_empty() {
        return Ok(None);
    }
    if ctx.global.team {
        return Err(Error::Usage(format!(
            "refused: team memory is shared, and this memory holds {}",
            found.join("; ")
        )));
    }
    if let Some(before) = before {
        let added = request.secret_findings_not_in(before);
        if !added.is_empty() {
            return Err(Error::Usage(format!(
                "refused: the edit adds {}; a secret in memory stays in its git history",
                added.join("; ")
            )));
        }
    }
    Ok(Some(format!(
        "this memory holds {}; it stays in this machine's git history",
        found.join("; ")
    )))
}

/// Open `text` (the topic file of `name` as the editor shows it) in the person's editor; check
/// what they save as a save of `name` (with `title`, when given) and commit it.
pub(crate) fn in_editor(
    ctx: &Ctx,
    output: &mut Output<'_>,
    name: &str,
    text: &str,
    title: Option<&str>,
    session: Option<&str>,
    commit: &Commit<'_>,
) -> Result<(), Error> {
    let original = match commit.base {
        Base::Text(before) => Some(before),
        Base::Any | Base::Absent => None,
    };
    let before = original.unwrap_or_default();
    let edited = editor::edit(&ctx.env, name, text, original, output, |edited| {
        let edited = read_edited(name, edited)?;
        let request = edited.request(name, title, session);
        request.validate()?;
        check_secrets(ctx, &request, Some(before))?;
        Ok(edited)
    })?;
    let (edited, buffer) = match edited {
        Edited::Unchanged => {
            if commit.json {
                return output.json(&serde_json::json!({"commits": [], "memories": []}));
            }
            return output.info(&format!("{name} unchanged: nothing to commit"));
        }
        Edited::Checked { value, buffer } => (value, buffer),
    };
    let request = edited.request(name, title, session);
    let saved = check_secrets(ctx, &request, Some(before))
        .and_then(|warning| match warning {
            Some(warning) => output.warn(&warning),
            None => Ok(()),
        })
        .and_then(|()| commit.save(ctx, output, &request, Some(&edited.topic)));
    saved.map_err(|e| editor::kept(e, buffer))
}
