//! `memdir pack`: put the memory dir's loose objects into a pack (issue 16). memdir runs it in
//! the background (`--auto`) once enough objects are loose; nothing is pruned.

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::repo::MemoryRepo;

/// Pack the memory dir's loose git objects.
///
/// Every loose object, reachable or not, goes into one new pack; the loose files are removed
/// once it is durable. Nothing is pruned. memdir runs this in the background by itself once
/// about 2,000 objects are loose.
#[derive(Debug, clap::Args)]
pub struct PackArgs {
    /// Only when about 2,000 objects or more are loose (what memdir runs after a commit).
    #[arg(long)]
    pub auto: bool,
    /// Print JSON: {objects, loose_removed}, or {busy: true}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &PackArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    if !crate::repo::has_repository(resolved.dir())? {
        return output.info("nothing to pack: the memory dir has no repository yet");
    }
    let repo = MemoryRepo::open(resolved.dir())?;
    let git_dir = repo.git_dir().to_path_buf();
    drop(repo);
    if args.auto && crate::repo::pack::failed_lately(&git_dir) {
        return output.info(
            "not packing: a pack run failed in the last day (.git/memdir/pack.failed says why); `memdir pack` tries now",
        );
    }
    if args.auto && !crate::repo::pack::due(&git_dir) {
        return output.info("nothing to pack: few objects are loose");
    }
    let Some(packed) = crate::repo::pack::pack_loose(&git_dir)? else {
        if args.json {
            return output.json(&serde_json::json!({"busy": true}));
        }
        return output.info("another memdir pack is running");
    };
    if args.json {
        return output.json(&serde_json::json!({
            "objects": packed.objects,
            "loose_removed": packed.loose_removed,
        }));
    }
    if packed.objects == 0 {
        return output.info("nothing to pack: no object is loose");
    }
    output.info(&format!(
        "packed {} objects; removed {} loose object files",
        packed.objects, packed.loose_removed
    ))
}
