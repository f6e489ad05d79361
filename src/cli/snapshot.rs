//! `memdir snapshot`: adopt what an agent wrote into the memory dir itself as commits (DESIGN §4).

use std::path::PathBuf;

use crate::Error;
use crate::cli::{Ctx, Output, hook_mode, validate_session};

/// Adopt what an agent wrote into the memory dir as commits.
///
/// One `adopt` commit per topic file whose index line is there too. A topic file without its
/// line (or a line without its file) is a save in progress and is left alone.
#[derive(Debug, clap::Args)]
pub struct SnapshotArgs {
    /// The Claude Code session that wrote the files (a commit trailer).
    #[arg(long)]
    pub session: Option<String>,
    /// Read a Claude Code hook payload (session_id, cwd) on stdin.
    #[arg(long)]
    pub hook: bool,
    /// Print JSON: {commits: [commit], memories: [{name, type, file, change: "adopted"}],
    /// unindexed, dangling, deleted_but_indexed, unreadable}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &SnapshotArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if args.hook {
        return hook_mode::run(ctx, "snapshot --hook", output, |ctx, payload, output| {
            let session = args.session.clone().or(payload.session_id.clone());
            snapshot(ctx, args, session, payload.written_path(), output)
        });
    }
    snapshot(ctx, args, args.session.clone(), None, output)
}

/// Adopt for `session`; `written` is the file a PostToolUse hook's tool wrote (nothing to do
/// when it is outside memory).
fn snapshot(
    ctx: &Ctx,
    args: &SnapshotArgs,
    session: Option<String>,
    written: Option<PathBuf>,
    output: &mut Output<'_>,
) -> Result<(), Error> {
    let session = validate_session(session.as_deref())?;
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    if let Some(written) = &written {
        // PostToolUse runs after every edit the agent makes: one outside memory costs nothing.
        if !crate::extract::is_inside(resolved.dir(), written) {
            return Ok(());
        }
    }
    if !resolved.dir().is_dir() {
        if args.json {
            return output.json(&serde_json::json!({"commits": [], "memories": [], "unindexed": [], "dangling": [], "deleted_but_indexed": [], "unreadable": []}));
        }
        return output.info("nothing to adopt: no memory dir yet");
    }
    let mut store = crate::memory::store::Store::open(resolved.dir())?;
    let adoption = store.adopt(session)?;
    if args.json {
        let mut value = crate::cli::written::adoption_json(&store.repo, &adoption)?;
        value["unindexed"] = adoption.unindexed.clone().into();
        value["dangling"] = adoption.dangling.clone().into();
        value["deleted_but_indexed"] = adoption.deleted_but_indexed.clone().into();
        value["unreadable"] = adoption.unreadable.clone().into();
        return output.json(&value);
    }
    output.adoption(&adoption)?;
    if !adoption.commits.is_empty() {
        // What an agent wrote is adopted as it is; a secret in it is worth a word (DESIGN §8).
        for finding in crate::sync::guard::secret_findings(resolved.dir())? {
            output.warn(&format!(
                "{finding}: a secret in memory stays in its git history; remove it (memdir rm)"
            ))?;
        }
    }
    if adoption.commits.is_empty() {
        output.info("nothing to adopt")?;
    }
    Ok(())
}
