//! `memdir hooks show`: memdir's Claude Code hook entries, to paste into a settings file.

use crate::Error;
use crate::cli::hooks::ShowArgs;
use crate::cli::{Ctx, Output};
use crate::hooks::claude::{HookExtractor, claude_entries, pretty};

pub fn run(ctx: &Ctx, args: &ShowArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let extractor = args.extractor.resolve()?;
    let entries = claude_entries(
        &args.program.resolve(ctx)?,
        &extractor.unwrap_or(HookExtractor::Auto { cmd: None }),
    );
    if args.json {
        return output.json(&entries);
    }
    output.data(&pretty(&entries))
}
