//! `memdir merge-index BASE OURS THEIRS`: git's merge driver for `MEMORY.md` (DESIGN §8), so a
//! plain `git pull` of a team repository merges the index as `memdir team sync` does.
//!
//! Registered as `merge.memdir-index.driver = memdir merge-index %O %A %B` with
//! `MEMORY.md merge=memdir-index` in `.gitattributes`. git runs it from the work tree's root with
//! three temporary files and takes the result from OURS (`%A`).

use std::path::{Path, PathBuf};

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::memory::merge::merge_index;
use crate::paths::absolute_from;

/// Merge three versions of MEMORY.md as a union of entries (git's merge-driver protocol).
///
/// Writes the merged index into OURS and exits 0: an index merge never conflicts (an entry
/// both sides changed keeps ours; the topic files carry the content).
#[derive(Debug, clap::Args)]
pub struct MergeIndexArgs {
    /// The common ancestor's version (git's %O).
    pub base: PathBuf,
    /// Our version (git's %A); the merged index replaces it.
    pub ours: PathBuf,
    /// Their version (git's %B).
    pub theirs: PathBuf,
}

pub fn run(ctx: &Ctx, args: &MergeIndexArgs, _output: &mut Output<'_>) -> Result<(), Error> {
    let path = |p: &Path| absolute_from(&ctx.env.cwd, p);
    let (base, ours, theirs) = (path(&args.base), path(&args.ours), path(&args.theirs));
    let merged = merge_index(&read_text(&base)?, &read_text(&ours)?, &read_text(&theirs)?);
    crate::atomic::replace(&ours, merged.as_bytes()).map_err(|source| Error::Io {
        context: format!("writing the merged index to {}", ours.display()),
        source,
    })
}

/// A version of the index as text; one that is not UTF-8, or over Claude Code's 4 MiB read
/// limit, is no index memdir can merge (git then reports the conflict and leaves OURS as it was).
fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = crate::input::read_regular(path, crate::input::MAX_INDEX_BYTES).map_err(|e| {
        Error::Failed(format!(
            "{e}: cannot merge it as MEMORY.md (nothing was written)"
        ))
    })?;
    String::from_utf8(bytes).map_err(|_| {
        Error::Failed(format!(
            "{} is not UTF-8 text: cannot merge it as MEMORY.md (nothing was written)",
            path.display()
        ))
    })
}
