//! `memdir path`: where memory lives, and with `--explain`, which rule of DESIGN §2 chose it.

use crate::Error;
use crate::cli::{Ctx, Output};
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
    if args.json {
        return output.json(&serde_json::json!({
            "path": location.dir,
            "rule": location.rule.id(),
            "explanation": location.rule.describe(),
            "auto_memory": disabled_by.is_none(),
            "disabled_by": disabled_by,
            "ignored_project_setting": location.ignored_project_setting,
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
    }
    Ok(())
}
