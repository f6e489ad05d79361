//! The promotion as a patch (DESIGN §7), where the target is in no git repository:
//! `<memory dir>/proposals/<name>.patch`, for `git apply` (or `patch -p1`) in the target's
//! folder. The target file itself is only read.

use std::path::Path;

use super::target::Target;
use super::{Outcome, PromoteError, Source, appended, file_diff, text_of};
use crate::review::proposals::Proposal;

/// The promotion as a patch under `<memory dir>/proposals/`, for a target in no repository.
pub(super) fn write(
    memory_dir: &Path,
    target: &Target,
    source: &Source,
    proposal: &mut Proposal,
) -> Result<(Outcome, String), PromoteError> {
    let path = target.path();
    let old = match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() => {
            let bytes = std::fs::read(&path).map_err(io_error(&path))?;
            Some(text_of(&bytes, &path.display().to_string())?)
        }
        Ok(_) => {
            return Err(PromoteError::Invalid(format!(
                "{} is not a regular file; promote into a file (--target)",
                path.display()
            )));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_error(&path)(e)),
    };
    if let Some(text) = &old
        && source.rule.is_in(text)
    {
        return Ok((Outcome::AlreadyPresent, String::new()));
    }
    let new = appended(
        old.as_deref().unwrap_or(""),
        &source.rule.block(&source.name),
    );
    let patch = file_diff(&target.file, old.as_deref(), &new);
    let dir = memory_dir.join("proposals");
    std::fs::create_dir_all(&dir).map_err(io_error(&dir))?;
    let file = dir.join(format!("{}.patch", source.name));
    let outcome = match std::fs::read(&file) {
        Ok(bytes) if bytes == patch.as_bytes() => Outcome::Unchanged,
        Ok(_) => Outcome::Updated,
        Err(_) => Outcome::Created,
    };
    if outcome != Outcome::Unchanged {
        crate::atomic::replace(&file, patch.as_bytes()).map_err(io_error(&file))?;
    }
    proposal.patch = Some(file);
    proposal.base_dir = Some(target.root.clone());
    Ok((outcome, patch))
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> PromoteError + '_ {
    move |source| PromoteError::Io {
        path: path.to_path_buf(),
        source,
    }
}
