//! Keeping the memory dir's repository packed (issue 16). Every save writes four loose objects,
//! and a store that is never packed slows down as they pile up (a folder read per object
//! lookup). After a commit, [`due`] estimates the loose objects from one fanout folder, as
//! `git gc --auto` does; when there are about [`AUTO_LOOSE`] of them, [`start`] runs `memdir pack
//! --auto` in the background, off the user's path.
//!
//! [`pack_loose`] writes every loose object, reachable or not, into one new pack (with gix's
//! pack writer, through a file, never all in memory), makes the pack and its index durable,
//! checks that the index names every one of those objects, and only then removes their loose
//! files. Nothing is ever pruned and no pack is ever removed: an object a reflog, an interrupted
//! save or a crash recovery may still need is kept, packed. A lock file keeps two packers apart;
//! saves go on meanwhile (what they write after the listing stays loose for the next run). Each
//! run packs only what is loose, so a store's packs grow by one per run and nothing is written
//! twice.
//!
//! Not done: delta compression. gix writes no deltas, so a pack is as large as the loose
//! objects it replaces (a save's tree lists every memory: at 10,000 memories each is about
//! 250 KB compressed).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use gix::ObjectId;
use gix_pack::data::output;

use super::RepoError;

/// About this many loose objects start a background pack after a commit.
pub const AUTO_LOOSE: usize = 2048;

/// What a pack run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Packed {
    /// Objects in the new pack.
    pub objects: usize,
    /// Loose object files removed (each is in the new pack).
    pub loose_removed: usize,
}

/// After a pack run fails (a corrupt loose object, a full disk), no background run starts for
/// this long: every commit would start one that fails the same way. `memdir pack` still runs.
const RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// The file whose age says when a pack run last failed.
fn failed_path(git_dir: &Path) -> PathBuf {
    git_dir.join("memdir").join("pack.failed")
}

/// Whether the repository at `git_dir` has about [`AUTO_LOOSE`] loose objects or more, from
/// the count in one fanout folder (objects are spread evenly over the 256), and no pack run
/// failed in the last day.
pub fn due(git_dir: &Path) -> bool {
    let sample =
        std::fs::read_dir(git_dir.join("objects").join("17")).map_or(0, |entries| entries.count());
    sample * 256 >= AUTO_LOOSE && !failed_lately(git_dir)
}

/// Whether a pack run failed in the last [`RETRY_AFTER`].
pub fn failed_lately(git_dir: &Path) -> bool {
    std::fs::symlink_metadata(failed_path(git_dir))
        .and_then(|meta| meta.modified())
        .is_ok_and(|at| at.elapsed().is_ok_and(|age| age < RETRY_AFTER))
}

/// Start `memdir pack --auto` for `memory_dir` in the background: its own process group, no
/// terminal, its output appended to `.git/memdir/pack.log`. Best effort: a failure to start is
/// logged there, and the next commit tries again.
pub fn start(git_dir: &Path, memory_dir: &Path) {
    let log_path = git_dir.join("memdir").join("pack.log");
    let started = crate::log_file::open(&log_path).and_then(|log| {
        let args = ["pack", "--auto", "--quiet", "--memory-dir"].map(std::ffi::OsStr::new);
        crate::process::spawn_detached(args.into_iter().chain([memory_dir.as_os_str()]), log)
    });
    if let Err(e) = started {
        crate::log_file::append(&log_path, &format!("could not start memdir pack: {e}"));
    }
}

/// Pack every loose object of the repository at `git_dir` into one new pack, then remove their
/// loose files. `None` when another packer holds the lock. A failure is remembered (no
/// background run for a day); a success forgets it.
pub fn pack_loose(git_dir: &Path) -> Result<Option<Packed>, RepoError> {
    let outcome = pack_loose_now(git_dir);
    let failed = failed_path(git_dir);
    match &outcome {
        Err(e) => {
            let _ = crate::atomic::replace(&failed, format!("{e}\n").as_bytes());
        }
        Ok(Some(_)) => {
            let _ = std::fs::remove_file(&failed);
        }
        Ok(None) => {}
    }
    outcome
}

fn pack_loose_now(git_dir: &Path) -> Result<Option<Packed>, RepoError> {
    let objects = git_dir.join("objects");
    let pack_dir = objects.join("pack");
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| RepoError::Io { path, source }
    };
    let lock_path = git_dir.join("memdir").join("pack.lock");
    std::fs::create_dir_all(git_dir.join("memdir")).map_err(io(&lock_path))?;
    let lock = crate::input::open_append(&lock_path, true).map_err(io(&lock_path))?;
    if lock.try_lock().is_err() {
        return Ok(None);
    }
    std::fs::create_dir_all(&pack_dir).map_err(io(&pack_dir))?;

    let loose = loose_objects(&objects);
    let mut ids: Vec<ObjectId> = loose.iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(Some(Packed::default()));
    }

    // gix names the pack and its index as it writes them: they are written in a folder of
    // their own and moved into the pack folder only once durable (a power cut never leaves a
    // torn pack under a name git reads). One left by a packer that died goes first: this
    // process holds the lock.
    let staging = git_dir.join("memdir").join("pack-staging");
    let _ = std::fs::remove_dir_all(&staging).or_else(|_| std::fs::remove_file(&staging));
    std::fs::create_dir(&staging).map_err(io(&staging))?;
    // The pack streams through a pipe from the writer (a thread) into gix's bundle writer,
    // which indexes it as it lands: never all in memory, never two copies.
    let (reader, writer) = std::io::pipe().map_err(io(&pack_dir))?;
    let written = std::thread::scope(|scope| {
        let producer = scope.spawn(|| write_pack(&objects, ids.clone(), writer));
        let indexed = gix_pack::Bundle::write_to_directory(
            &mut std::io::BufReader::new(reader),
            Some(&staging),
            &mut gix::progress::Discard,
            &AtomicBool::new(false),
            None::<gix::odb::Handle>,
            gix::hash::Kind::Sha1,
            gix_pack::bundle::write::Options::default(),
        );
        let produced = producer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        produced.and(indexed).map_err(|e| git_error(git_dir, e))
    })?;
    let (Some(data), Some(index)) = (written.data_path, written.index_path) else {
        // gix names no files for a pack of no objects (the listing above had some).
        let _ = std::fs::remove_dir_all(&staging);
        return Ok(Some(Packed::default()));
    };
    super::sync_files(&[data.clone(), index.clone()])?;
    crate::fault::point("pack-before-naming");
    let in_pack_dir = |file: &Path| pack_dir.join(file.file_name().unwrap_or_default());
    let (data_path, index_path) = (in_pack_dir(&data), in_pack_dir(&index));
    // The index last: git reads a pack only through its index.
    std::fs::rename(&data, &data_path).map_err(io(&data_path))?;
    std::fs::rename(&index, &index_path).map_err(io(&index_path))?;
    super::sync_dir(&pack_dir)?;
    let _ = std::fs::remove_dir_all(&staging); // and gix's .keep file with it

    // Nothing is removed unless the new index names every object it was to hold.
    let index = gix_pack::index::File::at(&index_path, gix::hash::Kind::Sha1)
        .map_err(|e| git_error(git_dir, e))?;
    if let Some(missing) = ids.iter().find(|id| index.lookup(id).is_none()) {
        return Err(RepoError::Io {
            path: index_path,
            source: std::io::Error::other(format!("the new pack lacks object {missing}")),
        });
    }
    let mut packed = Packed {
        objects: ids.len(),
        ..Packed::default()
    };
    for (_, path) in &loose {
        if std::fs::remove_file(path).is_ok() {
            packed.loose_removed += 1;
        }
    }
    for dir in fanout_dirs(&objects) {
        let _ = std::fs::remove_dir(dir); // only when empty
    }
    Ok(Some(packed))
}

/// Write a pack (version 2) of `ids`, from the objects at `objects`, to `out`.
fn write_pack(
    objects: &Path,
    ids: Vec<ObjectId>,
    out: impl std::io::Write,
) -> Result<(), gix::Error> {
    let store = gix::odb::Store::at_opts(
        objects.to_path_buf(),
        gix::hash::Kind::Sha1,
        &mut std::iter::empty(),
        gix::odb::store::init::Options::default(),
    )
    .map_err(gix::Error::from_error)?;
    let db = std::sync::Arc::new(store).to_cache_arc();
    let (counts, _) = output::count::objects(
        db.clone(),
        Box::new(ids.into_iter().map(Ok)),
        &gix::progress::Discard,
        &AtomicBool::new(false),
        output::count::objects::Options {
            thread_limit: Some(1),
            chunk_size: 256,
            input_object_expansion: output::count::objects::ObjectExpansion::AsIs,
        },
    )?;
    let entries = counts.len();
    let chunks = output::entry::iter_from_counts(
        counts,
        db,
        Box::new(gix::progress::Discard),
        output::entry::iter_from_counts::Options {
            thread_limit: Some(1),
            ..Default::default()
        },
    )?;
    let chunks = gix_parallel::InOrderIter::from(chunks);
    let mut writer = output::bytes::FromEntriesIter::new(
        chunks,
        std::io::BufWriter::new(out),
        u32::try_from(entries).unwrap_or(u32::MAX),
        gix_pack::data::Version::V2,
        gix::hash::Kind::Sha1,
    );
    for written in &mut writer {
        written?;
    }
    std::io::Write::flush(&mut writer.into_write()).map_err(gix::Error::from_error)
}

fn git_error(git_dir: &Path, source: gix::Error) -> RepoError {
    super::git_error(git_dir, source)
}

/// The 256 fanout folders `objects/00` … `objects/ff` that exist as folders (a symlink in
/// their place is never followed: nothing is packed from or removed through it).
fn fanout_dirs(objects: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(objects) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.len() == 2
                && name.bytes().all(|b| b.is_ascii_hexdigit())
                && e.file_type().is_ok_and(|t| t.is_dir())
        })
        .map(|e| e.path())
        .collect()
}

/// Every loose object: its id and its file.
fn loose_objects(objects: &Path) -> Vec<(ObjectId, PathBuf)> {
    let mut out = Vec::new();
    for dir in fanout_dirs(objects) {
        let prefix = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        let (Some(prefix), Ok(entries)) = (prefix, std::fs::read_dir(&dir)) else {
            continue;
        };
        // Only regular files: a FIFO or a device named like an object would hang the reader,
        // and a symlink is not this repository's to remove.
        for entry in entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        {
            let rest = entry.file_name();
            let hex = format!("{prefix}{}", rest.to_string_lossy());
            if let Ok(id) = ObjectId::from_hex(hex.as_bytes()) {
                out.push((id, entry.path()));
            }
        }
    }
    out
}
