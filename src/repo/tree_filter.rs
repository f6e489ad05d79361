//! Trees from elsewhere without the entries git refuses to check out (DESIGN §8, §10): a name
//! that stands for git's own folder in any spelling a file system takes for it (`.git`, `.GIT`,
//! `.git.`, `GIT~1`, `.g\u{200c}it`), `.` or `..`, an empty name or one holding a `/`, a
//! symlinked `.gitmodules`, at any depth. Judged with gix's own path validation, HFS+ and NTFS
//! protections on, as git's fsck judges every tree whatever the platform.

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;

use crate::repo::{MemoryRepo, RepoError};

/// Why git refuses to check out a tree entry of this name and kind; `None` when it takes it.
pub fn refused_name(name: &[u8], kind: EntryKind) -> Option<&'static str> {
    use gix::validate::path::component::{Error, Mode, Options};
    let mode = (kind == EntryKind::Link).then_some(Mode::Symlink);
    let options = Options {
        protect_windows: false,
        protect_hfs: true,
        protect_ntfs: true,
    };
    let error = gix::validate::path::component(name.as_bstr(), mode, options).err()?;
    Some(match error {
        Error::DotGitDir => "a name that stands for git's own folder",
        Error::SymlinkedGitModules => "a .gitmodules that is a symbolic link",
        Error::Relative => "a path that leads out of its folder",
        Error::Empty => "an empty name",
        Error::PathSeparator => "a name holding a path separator",
        _ => "a name git refuses",
    })
}

impl MemoryRepo {
    /// The folder `tree` without its entries, at any depth, whose names git refuses: the tree
    /// to use in its place (`tree` itself when nothing was dropped) and, in `dropped`, each
    /// dropped entry's path below `prefix` with why. `None` once more than `budget` entries were
    /// looked at (a folder that big is no memory's). New trees are staged for the next commit.
    pub fn without_refused(
        &mut self,
        tree: ObjectId,
        prefix: &str,
        budget: &mut usize,
        dropped: &mut Vec<(String, &'static str)>,
    ) -> Result<Option<ObjectId>, RepoError> {
        let mut entries: Vec<gix::objs::tree::Entry> = {
            let found = self.repo.find_tree(tree).map_err(|e| self.err(e))?;
            let decoded = found.decode().map_err(|e| self.err(e))?;
            decoded.entries.iter().map(|e| (*e).into()).collect()
        };
        if entries.len() > *budget {
            return Ok(None);
        }
        *budget -= entries.len();
        let mut changed = false;
        let mut kept = Vec::with_capacity(entries.len());
        for mut entry in entries.drain(..) {
            let kind = entry.mode.kind();
            let path = format!("{prefix}/{}", entry.filename.to_str_lossy());
            if let Some(why) = refused_name(&entry.filename, kind) {
                dropped.push((path, why));
                changed = true;
                continue;
            }
            if kind == EntryKind::Tree {
                let Some(inner) = self.without_refused(entry.oid, &path, budget, dropped)? else {
                    return Ok(None);
                };
                changed |= inner != entry.oid;
                entry.oid = inner;
            }
            kept.push(entry);
        }
        if !changed {
            return Ok(Some(tree));
        }
        self.stage_tree(&gix::objs::Tree { entries: kept })
            .map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_refuses_its_own_folder_in_every_spelling() {
        let blob = EntryKind::Blob;
        for name in [
            ".git",
            ".GIT",
            ".Git ",
            ".git.",
            "git~1",
            "GIT~1",
            ".g\u{200c}it",
            ".git::$INDEX_ALLOCATION",
        ] {
            assert_eq!(
                refused_name(name.as_bytes(), blob),
                Some("a name that stands for git's own folder"),
                "{name:?}"
            );
        }
        for name in [&b".."[..], b".", b"", b"a/b"] {
            assert!(refused_name(name, EntryKind::Tree).is_some(), "{name:?}");
        }
        assert!(refused_name(b".gitmodules", EntryKind::Link).is_some());
        // What git checks out, however unwelcome in a memory dir.
        for name in [
            ".gitmodules",
            ".gitattributes",
            "README.md",
            "a\\b.md",
            "con",
            "x.md",
        ] {
            assert_eq!(refused_name(name.as_bytes(), blob), None, "{name:?}");
        }
    }
}
