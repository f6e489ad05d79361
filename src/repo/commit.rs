//! The one commit writer (DESIGN §4, §7): a tree written from a flat map, a commit object with
//! git's identity (or memdir's), the loose-object files that must be fsynced before any ref may
//! name them, and a ref moved by compare-and-swap with a reflog line. The memory dir's
//! repository and a promotion's target both commit through it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::BString;
use gix::objs::tree::Entry as TreeEntry;
use gix::refs::Target;
use gix::refs::transaction::{Change, LogChange, PreviousValue, RefEdit, RefLog};

use crate::repo::TreeMap;
use crate::repo::loose::loose_path;

/// The author and committer used when git has no identity configured.
pub const FALLBACK_NAME: &str = "memdir";
pub const FALLBACK_EMAIL: &str = "memdir@localhost";

/// The tree object of `tree` (one level: memdir's trees are flat; entries it did not make are
/// carried over as they are).
pub(crate) fn tree_object(tree: &TreeMap) -> gix::objs::Tree {
    let mut entries: Vec<TreeEntry> = tree
        .iter()
        .map(|(name, (kind, id))| TreeEntry {
            mode: (*kind).into(),
            filename: name.clone(),
            oid: *id,
        })
        .collect();
    entries.sort();
    gix::objs::Tree { entries }
}

/// The commit object of `tree` on `parents` with `message`, and its committer (for the reflog
/// line of the ref that will name it).
pub(crate) fn commit_object(
    repo: &gix::Repository,
    tree: ObjectId,
    parents: &[ObjectId],
    message: &str,
) -> Result<(gix::objs::Commit, gix::actor::Signature), gix::Error> {
    let (author, committer) = signatures_of(repo)?;
    let commit = gix::objs::Commit {
        tree,
        parents: parents.iter().copied().collect(),
        author,
        committer: committer.clone(),
        encoding: None,
        message: message.into(),
        extra_headers: Vec::new(),
    };
    Ok((commit, committer))
}

/// The loose-object file of each of `ids`, once each.
pub(crate) fn loose_files(objects: &Path, ids: &[ObjectId]) -> Vec<PathBuf> {
    distinct(ids)
        .iter()
        .map(|id| loose_path(objects, id))
        .collect()
}

/// The fanout folders that hold the names of `ids`' loose files. One that holds nothing but
/// these objects was most likely made for them (packing removes emptied ones): then `objects/`,
/// which holds its name, is listed too.
pub(crate) fn fanout_folders(objects: &Path, ids: &[ObjectId]) -> Vec<PathBuf> {
    let mut dirs: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for id in distinct(ids) {
        let name = loose_path(objects, &id);
        let dir = name.parent().unwrap_or(objects);
        *dirs.entry(dir.to_path_buf()).or_default() += 1;
    }
    let new_folder = dirs.iter().any(|(dir, ours)| {
        std::fs::read_dir(dir).is_ok_and(|entries| entries.take(ours + 1).count() <= *ours)
    });
    let mut folders: Vec<PathBuf> = dirs.into_keys().collect();
    if new_folder {
        folders.push(objects.to_path_buf());
    }
    folders
}

fn distinct(ids: &[ObjectId]) -> Vec<ObjectId> {
    let mut ids = ids.to_vec();
    ids.sort();
    ids.dedup();
    ids
}

/// Move the ref `name` (through a symbolic ref when `deref`: HEAD to its branch) from
/// `expected` (compare-and-swap; `None`: it must not exist yet) to `new`, with `log` in the
/// reflog.
pub(crate) fn move_ref(
    repo: &gix::Repository,
    name: &str,
    deref: bool,
    expected: Option<ObjectId>,
    new: ObjectId,
    log: &str,
    committer: &gix::actor::Signature,
) -> Result<(), gix::Error> {
    let expected = match expected {
        Some(old) => PreviousValue::MustExistAndMatch(Target::Object(old)),
        None => PreviousValue::MustNotExist,
    };
    let edit = RefEdit {
        change: Change::Update {
            log: LogChange {
                mode: RefLog::AndReference,
                force_create_reflog: false,
                message: log.into(),
            },
            expected,
            new: Target::Object(new),
        },
        name: name.try_into().map_err(gix::Error::from_error)?,
        deref,
    };
    repo.edit_references_as(Some(edit), Some(committer.to_ref(&mut Default::default())))?;
    Ok(())
}

/// Author and committer for a commit in `repo`: git's identity where configured (the `GIT_*`
/// variables, then `author.*`/`committer.*`, then `user.*`), else `memdir <memdir@localhost>`;
/// dates from `GIT_AUTHOR_DATE`/`GIT_COMMITTER_DATE`, else now in the local offset.
///
/// Resolved here rather than through gix's personas, which look up the local time zone in the
/// whole zoneinfo database on every process start (a tenth of a save's time).
pub(crate) fn signatures_of(
    repo: &gix::Repository,
) -> Result<(gix::actor::Signature, gix::actor::Signature), gix::Error> {
    let config = repo.config_snapshot();
    let lookup = |env: &str, keys: [&str; 2], fallback: &str| -> BString {
        std::env::var(env)
            .ok()
            .filter(|v| !v.is_empty())
            .map(BString::from)
            .or_else(|| keys.iter().find_map(|key| config.string(*key)))
            .unwrap_or_else(|| fallback.into())
    };
    let now = {
        let local = chrono::Local::now();
        gix::date::Time::new(local.timestamp(), local.offset().local_minus_utc())
    };
    let time = |env: &str| -> Result<gix::date::Time, gix::Error> {
        match std::env::var(env).ok().filter(|v| !v.is_empty()) {
            Some(value) => gix::date::parse(&value, None).map_err(|e| {
                gix::Error::from_error(std::io::Error::other(format!(
                    "{env}={value:?} is not a date git understands: {e}"
                )))
            }),
            None => Ok(now),
        }
    };
    let committer = gix::actor::Signature {
        name: lookup(
            "GIT_COMMITTER_NAME",
            ["committer.name", "user.name"],
            FALLBACK_NAME,
        ),
        email: lookup(
            "GIT_COMMITTER_EMAIL",
            ["committer.email", "user.email"],
            FALLBACK_EMAIL,
        ),
        time: time("GIT_COMMITTER_DATE")?,
    };
    let author = gix::actor::Signature {
        name: lookup(
            "GIT_AUTHOR_NAME",
            ["author.name", "user.name"],
            FALLBACK_NAME,
        ),
        email: lookup(
            "GIT_AUTHOR_EMAIL",
            ["author.email", "user.email"],
            FALLBACK_EMAIL,
        ),
        time: time("GIT_AUTHOR_DATE")?,
    };
    Ok((author, committer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fanout_folder_made_for_these_objects_has_its_name_in_objects_fsynced_too() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let objects = tmp.path();
        let ours = ObjectId::from_hex(b"ab00000000000000000000000000000000000001").expect("hex");
        let theirs = "ab00000000000000000000000000000000000002";
        std::fs::create_dir(objects.join("ab")).expect("fanout");
        std::fs::write(objects.join("ab").join(&ours.to_string()[2..]), b"x").expect("object");
        assert_eq!(
            loose_files(objects, &[ours, ours]),
            [objects.join("ab").join(&ours.to_string()[2..])]
        );
        assert_eq!(
            fanout_folders(objects, &[ours, ours]),
            [objects.join("ab"), objects.to_path_buf()]
        );
        // A folder that held another object already was not made now: `objects/` is not
        // fsynced for it.
        std::fs::write(objects.join("ab").join(&theirs[2..]), b"y").expect("object");
        assert!(!fanout_folders(objects, &[ours]).contains(&objects.to_path_buf()));
    }
}
