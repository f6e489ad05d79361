//! Loose objects written as git writes them (zlib at level 1 over `<kind> <size>\0<bytes>`, a
//! `tmp_obj_` file in the fanout folder renamed to the id's name, read-only), with one deflate
//! stream for the process. gix sets one up per object: about 380 KB of state allocated and
//! cleared each time, a tenth of a save's page faults for its four objects. The stream keeps a
//! 4 KB window and a small symbol buffer (zlib's 32 KB and 16 K symbols touch about 50 pages
//! more): a save's objects are an index and a tree whose lines repeat their neighbours', which
//! compress as well that way (a 1,000-memory index: 12.1 KB against 12.8 KB).
//!
//! An object is staged (its temp file written) and placed (renamed to its name) in two steps, so
//! that the caller fsyncs the temp files before any takes its name: a power cut then never
//! leaves an empty or torn file under an object's name (which git, finding the name, would take
//! for the object). The folders that hold the names are fsynced after, before a ref names them.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::objs::Kind;
use gix::zlib::{Decompress, FlushDecompress, Status};
use zlib_rs::{Deflate, DeflateConfig, DeflateFlush};

use crate::repo::RepoError;

/// A loose-object writer; its deflate stream is made on first use and reset for each object.
#[derive(Default)]
pub(crate) struct LooseWriter {
    compress: Option<Deflate>,
    out: Vec<u8>,
    /// Temp files written and not yet renamed to their object's name: (temp, name).
    staged: Vec<(PathBuf, PathBuf)>,
}

impl Drop for LooseWriter {
    /// Objects staged but never placed (their commit failed) leave no temp file.
    fn drop(&mut self) {
        for (tmp, _) in self.staged.drain(..) {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

impl LooseWriter {
    /// Stage `data` as an object of `kind` in `repo` unless it is there already (or staged); its
    /// id. The object can be read once [`LooseWriter::place`] has run.
    pub(crate) fn stage(
        &mut self,
        repo: &gix::Repository,
        kind: Kind,
        data: &[u8],
    ) -> Result<ObjectId, RepoError> {
        let objects = repo.objects.store_ref().path();
        let git = |source: gix::Error| RepoError::Git {
            dir: objects.to_path_buf(),
            source,
        };
        let id = gix::objs::compute_hash(repo.object_hash(), kind, data)
            .map_err(|e| git(gix::Error::from_error(e)))?;
        let header = gix::objs::encode::loose_header(kind, data.len() as u64);
        let path = loose_path(objects, &id);
        match std::fs::symlink_metadata(&path) {
            // A power cut before a save's fsyncs can leave a file named by the id but empty
            // or torn; a later save of the same content must not take it for the object.
            Ok(meta) if meta.is_file() && holds(&path, &header, data) => return Ok(id),
            Ok(_) => {}
            Err(_) if repo.objects.exists_without_refresh(&id) => return Ok(id),
            Err(_) => {}
        }
        if self.staged.iter().any(|(_, name)| *name == path) {
            return Ok(id);
        }
        self.deflate(&header, data)
            .map_err(|e| git(gix::Error::from_error(e)))?;
        let tmp = write_temp(path.parent().unwrap_or(objects), &self.out)?;
        self.staged.push((tmp, path));
        Ok(id)
    }

    /// Stage `object`, encoded as git encodes it; its id.
    pub(crate) fn stage_object(
        &mut self,
        repo: &gix::Repository,
        object: &impl gix::objs::WriteTo,
    ) -> Result<ObjectId, RepoError> {
        let mut data = Vec::with_capacity(object.size() as usize);
        object
            .write_to(&mut data)
            .map_err(|source| RepoError::Git {
                dir: repo.objects.store_ref().path().to_path_buf(),
                source: gix::Error::from_error(source),
            })?;
        self.stage(repo, object.kind(), &data)
    }

    /// The temp files of the staged objects: what to fsync before [`LooseWriter::place`].
    pub(crate) fn staged_files(&self) -> Vec<PathBuf> {
        self.staged.iter().map(|(tmp, _)| tmp.clone()).collect()
    }

    /// Rename each staged object's temp file to its name (their folders are the caller's to
    /// fsync before a ref names them).
    pub(crate) fn place(&mut self) -> Result<(), RepoError> {
        while let Some((tmp, name)) = self.staged.first() {
            std::fs::rename(tmp, name).map_err(|source| RepoError::Io {
                path: name.clone(),
                source,
            })?;
            self.staged.remove(0);
        }
        Ok(())
    }

    /// `header` then `data` as one zlib stream, into `self.out`.
    fn deflate(&mut self, header: &[u8], data: &[u8]) -> Result<(), std::io::Error> {
        let compress = self.compress.get_or_insert_with(|| {
            let mut config = DeflateConfig::new(1); // git's core.looseCompression
            config.window_bits = 12;
            config.mem_level = 4;
            Deflate::new_with_config(config)
        });
        compress.reset();
        self.out.clear();
        let (start_in, start_out) = (compress.total_in(), compress.total_out());
        let len = header.len() + data.len();
        // zlib's compressBound: one call with this much room finishes the stream.
        let bound = len + (len >> 12) + (len >> 14) + (len >> 25) + 13;
        self.out.resize(bound, 0);
        for (input, flush) in [
            (header, DeflateFlush::NoFlush),
            (data, DeflateFlush::Finish),
        ] {
            let mut consumed = 0;
            loop {
                let written = (compress.total_out() - start_out) as usize;
                if written == self.out.len() {
                    self.out.resize(self.out.len() + 4096, 0);
                }
                let before = compress.total_in();
                let status = compress
                    .compress(&input[consumed..], &mut self.out[written..], flush)
                    .map_err(|e| std::io::Error::other(format!("zlib: {e:?}")))?;
                consumed += (compress.total_in() - before) as usize;
                let done = match flush {
                    DeflateFlush::Finish => status == zlib_rs::Status::StreamEnd,
                    _ => consumed == input.len(),
                };
                if done {
                    break;
                }
            }
        }
        debug_assert_eq!((compress.total_in() - start_in) as usize, len);
        let written = (compress.total_out() - start_out) as usize;
        self.out.truncate(written);
        Ok(())
    }
}

/// Whether the loose object file at `path` inflates to exactly `header` then `data`.
fn holds(path: &Path, header: &[u8], data: &[u8]) -> bool {
    use std::io::Read;
    let len = header.len() + data.len();
    // No zlib stream of `len` bytes is longer, stored blocks and all: a longer file (a hostile
    // one of gigabytes) is not the object and is not read.
    let most = (len + len / 1024 + 1024) as u64;
    let mut compressed = Vec::new();
    let read =
        std::fs::File::open(path).and_then(|file| file.take(most + 1).read_to_end(&mut compressed));
    if read.is_err() || compressed.len() as u64 > most {
        return false;
    }
    // One byte of room past the object shows a file that holds more than it.
    let mut out = vec![0; len + 1];
    let mut inflate = Decompress::new();
    matches!(
        inflate.decompress(&compressed, &mut out, FlushDecompress::Finish),
        Ok(Status::StreamEnd)
    ) && inflate.total_out() as usize == len
        && out[..header.len()] == *header
        && out[header.len()..len] == *data
}

/// The name of the loose object `id` in `objects`: `xx/<the rest of its hex>`.
pub(crate) fn loose_path(objects: &Path, id: &ObjectId) -> PathBuf {
    let hex = id.to_hex().to_string();
    objects.join(&hex[..2]).join(&hex[2..])
}

/// A temp file holding `compressed` in the fanout folder `dir` (made when missing), named with
/// git's `tmp_obj_` prefix, which `git fsck` and `git gc` know.
fn write_temp(dir: &Path, compressed: &[u8]) -> Result<PathBuf, RepoError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| RepoError::Io { path, source }
    };
    // `memdir pack`, running beside the save, removes a fanout folder it emptied: one that
    // goes between making it and opening the temp file in it is made again.
    let mut tries = 3;
    let (tmp, mut file) = loop {
        match std::fs::create_dir(dir) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(io(dir)(e)),
            _ => {}
        }
        tries -= 1;
        match temp_in(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && tries > 0 => {}
            opened => break opened.map_err(io(dir))?,
        }
    };
    let written = file.write_all(compressed);
    drop(file);
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(io(&tmp)).map(|()| tmp)
}

/// A new read-only temp file in `dir`, unique per process and call.
fn temp_in(dir: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    loop {
        let tmp = dir.join(format!("tmp_obj_memdir_{}", crate::atomic::unique()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o444)
            .open(&tmp)
        {
            // A file of a process that had this id and died: take the next name.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            opened => return opened.map(|file| (tmp, file)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo::testing::git;
    use gix::objs::tree::EntryKind;

    /// Stage `data` and place it at once.
    fn write(
        writer: &mut LooseWriter,
        repo: &gix::Repository,
        kind: Kind,
        data: &[u8],
    ) -> Result<ObjectId, RepoError> {
        let id = writer.stage(repo, kind, data)?;
        writer.place()?;
        Ok(id)
    }

    /// What the writer makes is what git makes: the same ids, objects the real git reads back
    /// byte for byte and `fsck --strict` accepts, one file per object, no temp file left.
    #[test]
    fn objects_are_what_git_writes() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path();
        let repo = gix::init(dir).expect("init");
        let mut writer = LooseWriter::default();
        // Incompressible bytes need more room than their own size.
        let mut noise = Vec::with_capacity(1 << 20);
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        while noise.len() < 1 << 20 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            noise.extend_from_slice(&x.to_le_bytes());
        }
        let texts: [&[u8]; 4] = [b"", b"one line\n", &b"abc".repeat(100_000), &noise];
        let mut entries = Vec::new();
        for (n, data) in texts.iter().enumerate() {
            let id = writer.stage(&repo, Kind::Blob, data).expect("stage");
            writer.place().expect("place");
            std::fs::write(dir.join("probe"), data).expect("probe");
            let git_id = git(dir, &["hash-object", "probe"]);
            assert_eq!(id.to_string(), String::from_utf8_lossy(&git_id).trim());
            assert_eq!(git(dir, &["cat-file", "blob", &id.to_string()]), *data);
            entries.push(gix::objs::tree::Entry {
                mode: EntryKind::Blob.into(),
                filename: format!("f{n}").into(),
                oid: id,
            });
        }
        // The same object again: nothing new is written.
        let again = write(&mut writer, &repo, Kind::Blob, b"one line\n").expect("write");
        let mut tree = Vec::new();
        gix::objs::WriteTo::write_to(&gix::objs::Tree { entries }, &mut tree).expect("encode");
        let tree_id = write(&mut writer, &repo, Kind::Tree, &tree).expect("tree");
        assert_eq!(
            git(dir, &["ls-tree", &tree_id.to_string()])
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
            4
        );
        assert!(git(dir, &["cat-file", "-t", &again.to_string()]).starts_with(b"blob"));
        std::fs::remove_file(dir.join("probe")).expect("rm probe");
        git(dir, &["fsck", "--strict", "--no-dangling"]);
        let mut files = 0;
        for fanout in std::fs::read_dir(dir.join(".git/objects")).expect("objects") {
            let fanout = fanout.expect("entry").path();
            if fanout.file_name().is_some_and(|n| n.len() == 2) {
                for file in std::fs::read_dir(&fanout).expect("fanout") {
                    let name = file.expect("entry").file_name();
                    assert!(
                        !name.to_string_lossy().starts_with("tmp_obj"),
                        "{name:?} left"
                    );
                    files += 1;
                }
            }
        }
        assert_eq!(files, 5);
    }

    /// A file named by the id that does not hold the object (a power cut before the save's
    /// fsyncs can leave one empty or torn) is written anew, not taken for the object.
    #[test]
    fn a_torn_object_file_is_written_anew() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path();
        let repo = gix::init(dir).expect("init");
        let data = b"remember this\n".repeat(1000);
        let id = written(&repo, &data);
        let hex = id.to_string();
        let path = dir.join(".git/objects").join(&hex[..2]).join(&hex[2..]);
        let sound = std::fs::read(&path).expect("object");
        for torn in [
            &[][..],
            &sound[..sound.len() / 2],
            &sound[..sound.len() - 1],
        ] {
            std::fs::remove_file(&path).expect("rm");
            std::fs::write(&path, torn).expect("torn");
            let again = written(&repo, &data);
            assert_eq!(again, id);
            assert_eq!(git(dir, &["cat-file", "blob", &hex]), data);
        }
        git(dir, &["fsck", "--strict", "--no-dangling"]);
    }

    /// What someone else put under an object's name that is not a file: a symlink is replaced
    /// by the object even when it leads to a sound copy (git would follow a link out of the
    /// repository; its target is left as it was), a folder stops the write with its path and
    /// nothing else changes.
    #[test]
    fn a_symlink_or_folder_under_the_name_is_never_taken_for_the_object() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path();
        let repo = gix::init(dir).expect("init");
        let data = b"the object\n";
        let id = written(&repo, data);
        let path = loose_path(&dir.join(".git/objects"), &id);
        let sound = std::fs::read(&path).expect("object");
        let target = dir.join("elsewhere");
        std::fs::write(&target, &sound).expect("target");
        std::fs::remove_file(&path).expect("rm");
        std::os::unix::fs::symlink(&target, &path).expect("symlink");
        assert_eq!(written(&repo, data), id);
        assert!(std::fs::symlink_metadata(&path).expect("stat").is_file());
        assert_eq!(std::fs::read(&path).expect("object"), sound);
        assert_eq!(std::fs::read(&target).expect("target"), sound);

        std::fs::remove_file(&path).expect("rm");
        std::fs::create_dir(&path).expect("folder");
        let mut writer = LooseWriter::default();
        let err =
            write(&mut writer, &repo, Kind::Blob, data).expect_err("a folder is not replaced");
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert!(path.is_dir());
        drop(writer);
        let fanout = path.parent().expect("fanout");
        let left: Vec<_> = std::fs::read_dir(fanout)
            .expect("fanout")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }

    /// `data` written as a blob and placed, by a writer of its own (as by a new process).
    fn written(repo: &gix::Repository, data: &[u8]) -> ObjectId {
        let mut writer = LooseWriter::default();
        write(&mut writer, repo, Kind::Blob, data).expect("write")
    }

    /// A staged object has no name until it is placed; one never placed (its commit failed)
    /// leaves no temp file behind.
    #[test]
    fn an_object_is_named_only_when_placed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path();
        let repo = gix::init(dir).expect("init");
        let mut writer = LooseWriter::default();
        let id = writer.stage(&repo, Kind::Blob, b"staged\n").expect("stage");
        let hex = id.to_string();
        let name = dir.join(".git/objects").join(&hex[..2]).join(&hex[2..]);
        let staged = writer.staged_files();
        assert_eq!(staged.len(), 1);
        assert!(staged[0].exists() && !name.exists());
        drop(writer);
        assert!(!staged[0].exists() && !name.exists());
        git(dir, &["fsck", "--strict", "--no-dangling"]);
    }
}
