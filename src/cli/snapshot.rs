//! `memdir snapshot`: adopt what an agent wrote into the memory dir itself as commits (DESIGN §4).

use std::io::Read;

use crate::Error;
use crate::cli::{Ctx, Output, validate_session};

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

/// The fields of a hook payload that snapshot uses.
#[derive(Debug, Default, serde::Deserialize)]
struct HookPayload {
    session_id: Option<String>,
    cwd: Option<std::path::PathBuf>,
}

pub fn run(ctx: &Ctx, args: &SnapshotArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let mut session = args.session.clone();
    let mut hook_ctx = None;
    if args.hook {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|source| Error::Io {
                context: "reading the hook payload from stdin".into(),
                source,
            })?;
        let payload: HookPayload = serde_json::from_str(&text).map_err(|e| {
            Error::Usage(format!("the hook payload on stdin is not valid JSON: {e}"))
        })?;
        session = session.or(payload.session_id);
        if ctx.global.project.is_none()
            && let Some(cwd) = payload.cwd
        {
            let mut global = ctx.global.clone();
            global.project = Some(cwd);
            hook_ctx = Some(Ctx {
                env: ctx.env.clone(),
                global,
            });
        }
    }
    let ctx = hook_ctx.as_ref().unwrap_or(ctx);
    let session = validate_session(session.as_deref())?;
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
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
    if adoption.commits.is_empty() {
        output.info("nothing to adopt")?;
    }
    Ok(())
}
