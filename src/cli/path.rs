//! `memdir path`: where memory lives, and with `--explain`, which rule of DESIGN §2 chose it.

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::personal::identity::Identity;
use crate::settings::AutoMemory;

/// Print the memory dir.
#[derive(Debug, clap::Args)]
pub struct PathArgs {
    /// Also say which rule chose it, whether auto memory is on, and what was ignored.
    #[arg(long)]
    pub explain: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &PathArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    let location = &resolved.location;
    let disabled_by = match &resolved.auto_memory {
        AutoMemory::On => None,
        AutoMemory::Off(switch) => Some(switch.as_str()),
    };
    let identity = Identity::of(&ctx.project(), &location.dir, &location.rule).ok();
    let branch = identity.as_ref().and_then(|i| i.branch().ok());
    let remote = crate::personal::config::remote(&ctx.env.config_dir()?)
        .ok()
        .flatten()
        .map(|url| crate::repo::remote_url::shown(&url));
    if args.json {
        return output.json(&serde_json::json!({
            "path": location.dir,
            "rule": location.rule.id(),
            "explanation": location.rule.describe(),
            "auto_memory": disabled_by.is_none(),
            "disabled_by": disabled_by,
            "ignored_project_setting": location.ignored_project_setting,
            "identity": identity.as_ref().map(|i| serde_json::json!({
                "id": i.id,
                "source": i.source_id(),
                "explanation": i.describe(),
                "branch": branch,
            })),
            "sync_remote": remote,
        }));
    }
    output.data(&format!("{}\n", location.dir.display()))?;
    if args.explain {
        output.data(&format!("chosen by: {}\n", location.rule.describe()))?;
        match disabled_by {
            None => output.data("auto memory: on\n")?,
            Some(switch) => output.data(&format!(
                "auto memory: off ({switch}); team memory is off too\n"
            ))?,
        }
        if let Some(note) = location.ignored_setting_note() {
            output.data(&format!("{note}\n"))?;
        }
        if let Some(identity) = &identity {
            output.data(&format!(
                "identity: {} (from {})\n",
                identity.id,
                identity.describe()
            ))?;
        }
        match (&branch, &remote) {
            (Some(branch), Some(remote)) => {
                output.data(&format!("personal sync: branch {branch} of {remote}\n"))?
            }
            (Some(_), None) => {
                output.data("personal sync: no remote set (memdir sync --remote URL)\n")?
            }
            (None, _) => output.data(
                "personal sync: this project syncs only under a name (memdir sync --as NAME)\n",
            )?,
        }
    }
    Ok(())
}
