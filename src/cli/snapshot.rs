//! `memdir snapshot`: adopt what an agent wrote into the memory dir itself as commits (DESIGN §4).

use crate::Error;
use crate::cli::{Ctx, HookPayload, Output, validate_session};

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
    /// Print JSON: {commits: [{commit, subject}], unindexed, dangling, deleted_but_indexed}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &SnapshotArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let mut session = args.session.clone();
    let mut written = None;
    let hook_ctx = if args.hook {
        let payload = HookPayload::from_stdin()?;
        session = session.or(payload.session_id.clone());
        written = payload.written_path();
        Some(ctx.for_hook(&payload))
    } else {
        None
    };
    let ctx = hook_ctx.as_ref().unwrap_or(ctx);
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
            return output.json(&serde_json::json!({"commits": [], "unindexed": [], "dangling": [], "deleted_but_indexed": []}));
        }
        return output.info("nothing to adopt: no memory dir yet");
    }
    let mut store = crate::memory::store::Store::open(resolved.dir())?;
    let adoption = store.adopt(session)?;
    if args.json {
        let commits: Vec<_> = adoption
            .commits
            .iter()
            .map(|(id, subject)| serde_json::json!({"commit": id.to_string(), "subject": subject}))
            .collect();
        return output.json(&serde_json::json!({
            "commits": commits,
            "unindexed": adoption.unindexed,
            "dangling": adoption.dangling,
            "deleted_but_indexed": adoption.deleted_but_indexed,
            "unreadable": adoption.unreadable,
        }));
    }
    output.adoption(&adoption)?;
    if !adoption.commits.is_empty() {
        // What an agent wrote is adopted as it is; a secret in it is worth a word (DESIGN §8).
        for finding in crate::team::guard::secret_findings(resolved.dir())? {
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
