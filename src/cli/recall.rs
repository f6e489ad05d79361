//! `memdir recall`: what the UserPromptSubmit hook adds to a prompt (DESIGN §12): the memories,
//! personal and team, that clear the bar for it and were not added earlier in the session.

use std::path::Path;

use crate::Error;
use crate::cli::{Ctx, Output, hook_mode};
use crate::memory::age::format_age;
use crate::recall::inject::{already_added, for_prompt, record_path};
use crate::recall::{Corpus, Scope};

/// Show what recall adds to a prompt: the few memories that speak to it, within 3 memories and
/// 4 KB.
#[derive(Debug, clap::Args)]
pub struct RecallArgs {
    /// The prompt (several words are one prompt).
    #[arg(
        value_name = "PROMPT",
        required_unless_present = "hook",
        conflicts_with = "hook"
    )]
    pub prompt: Vec<String>,
    /// Read a UserPromptSubmit hook payload (cwd, session_id, prompt) on stdin and answer with
    /// the memories as additional context, each at most once per session; nothing when none
    /// clears the bar.
    #[arg(long)]
    pub hook: bool,
}

pub fn run(ctx: &Ctx, args: &RecallArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if args.hook {
        return hook_mode::run(ctx, "recall --hook", output, |ctx, payload, output| {
            let Some(prompt) = payload.prompt.as_deref() else {
                return Err(Error::Usage("the payload has no prompt".into()));
            };
            let Some(text) = recall(ctx, prompt, payload.session_id.as_deref(), true, output)?
            else {
                return Ok(());
            };
            output.json(&serde_json::json!({
                "hookSpecificOutput": {
                    "hookEventName": "UserPromptSubmit",
                    "additionalContext": text,
                }
            }))
        });
    }
    match recall(ctx, &args.prompt.join(" "), None, false, output)? {
        Some(text) => output.data(&text),
        None => output.info("no memory clears the bar for this prompt"),
    }
}

/// The text recall adds to `prompt`, recorded for `session` (when given) so that it is added
/// once; for the `hook`, nothing when settings turn it off.
fn recall(
    ctx: &Ctx,
    prompt: &str,
    session: Option<&str>,
    hook: bool,
    output: &mut Output<'_>,
) -> Result<Option<String>, Error> {
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    if hook && !resolved.recall_prompt {
        // The hook is turned off in settings (`memdir.recall`); asked directly, it answers.
        return Ok(None);
    }
    let dir = resolved.dir();
    let team = dir.join("team");
    let sources: [(Scope, &Path); 2] = [(Scope::Personal, dir), (Scope::Team, &team)];
    let corpus = Corpus::read(&sources)?;
    let record = match session {
        Some(session) if crate::repo::has_repository(dir)? => {
            record_path(&dir.join(".git"), session)
        }
        _ => None,
    };
    let already = record.as_deref().map(already_added).unwrap_or_default();
    let saved = crate::recall::saved_times(&sources)?;
    let now = chrono::Utc::now().timestamp();
    let age = |scope: Scope, name: &str| {
        saved
            .get(&scope)
            .and_then(|s| s.get(name))
            .map(|(t, _)| format_age(*t, now))
    };
    let Some(added) = for_prompt(&corpus, prompt, &already, age) else {
        return Ok(None);
    };
    if let Some(record_file) = &record {
        // A record that cannot be written costs a repeat later, not this prompt's memories.
        if let Err(e) = crate::recall::inject::record(record_file, &added.labels) {
            output.warn(&format!("{}: {e}", record_file.display()))?;
        }
    }
    Ok(Some(added.text))
}
