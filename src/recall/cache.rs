//! The recall cache (DESIGN §12, issue 14): what recall reads of each memory file — what a
//! listing keeps of it and its counted terms — kept in `.git/memdir/recall-cache` beside the file's
//! stat data, so that a search or a prompt hook reads one file and stats the others instead of
//! reading, parsing and stemming every memory.
//!
//! It is a cache: deleting it loses nothing, and nothing else reads it. A file is taken from it
//! only when its stat data (size, modification and change times to the nanosecond, inode,
//! device) are the ones recorded, so a save, an adoption, a rollback, a sync or an edit by hand
//! shows as a changed file, which is read again. A file changed in the last two seconds is not
//! recorded (a change in the same clock tick would keep its times), nor one that is not a plain
//! file, nor one that changed while it was read. A cache that is torn, planted or of another
//! version fails its checks and is rebuilt; one that cannot be written is not an error.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::rank::{Counted, Fields, Vocabulary};
use crate::memory::catalog::{
    Listing, Topic, list_memories, list_memories_with, read_topic_summary,
};
use crate::memory::store::StoreError;
use crate::memory::taxonomy::MemoryType;

const MAGIC: &[u8] = b"memdir recall cache 2\n";

/// The most the cache is read (a planted file of gigabytes is not).
const MAX_BYTES: u64 = 256 << 20;

/// A file changed this recently is read every time until it is older.
const SETTLE: Duration = Duration::from_secs(2);

/// The weights the counted fields are read with: name, description, body.
pub type Weights = [f32; 3];

/// A file's stat data, as far as a change shows in them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key([i64; 7]);

impl Key {
    #[cfg(unix)]
    fn of(meta: &std::fs::Metadata) -> Option<Key> {
        use std::os::unix::fs::MetadataExt;
        meta.file_type().is_file().then(|| {
            Key([
                meta.size() as i64,
                meta.mtime(),
                meta.mtime_nsec(),
                meta.ctime(),
                meta.ctime_nsec(),
                meta.ino() as i64,
                meta.dev() as i64,
            ])
        })
    }

    #[cfg(not(unix))]
    fn of(_meta: &std::fs::Metadata) -> Option<Key> {
        None
    }

    /// Whether the file changed so recently that a change in the same tick could keep its
    /// times (then it is not recorded).
    fn settled(&self, now: SystemTime) -> bool {
        let at = |secs: i64, nanos: i64| {
            SystemTime::UNIX_EPOCH
                + Duration::from_secs(secs.max(0) as u64)
                + Duration::from_nanos(nanos.max(0) as u64)
        };
        let newest = at(self.0[1], self.0[2]).max(at(self.0[3], self.0[4]));
        now.duration_since(newest).is_ok_and(|age| age >= SETTLE)
    }
}

/// One file as the cache records it.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    key: Key,
    topic: Topic,
    counted: Counted,
}

/// The memories of `dir` (as [`list_memories`] gives them) and each one's counted terms, in
/// `vocabulary`; through the cache of `dir`'s repository when it has one.
pub fn read(
    dir: &Path,
    weights: Weights,
    vocabulary: &mut Vocabulary,
) -> Result<(Listing, Vec<Counted>), StoreError> {
    read_at(dir, weights, vocabulary, SystemTime::now())
}

/// [`read`], `now` being the time files are judged settled by.
fn read_at(
    dir: &Path,
    weights: Weights,
    vocabulary: &mut Vocabulary,
    now: SystemTime,
) -> Result<(Listing, Vec<Counted>), StoreError> {
    let git_dir = dir.join(".git");
    let cache = std::fs::symlink_metadata(&git_dir)
        .is_ok_and(|m| m.is_dir())
        .then(|| git_dir.join("memdir").join("recall-cache"));
    let Some(cache) = cache else {
        let listing = list_memories(dir)?;
        let counted = listing
            .memories
            .iter()
            .map(|m| {
                count(
                    &m.name,
                    m.description.as_deref(),
                    &m.body,
                    weights,
                    vocabulary,
                )
            })
            .collect();
        return Ok((listing, counted));
    };
    let mut known = load(&cache, weights, vocabulary).unwrap_or_default();
    let before = known.len();
    // The files recorded (unchanged since, or read now and settled), and every file's counts.
    let mut keys: HashMap<String, Key> = HashMap::new();
    let mut counted_of: HashMap<String, Counted> = HashMap::new();
    let mut added = false;
    let listing = list_memories_with(dir, |files| {
        files
            .iter()
            .map(|(file, plain)| {
                let path = dir.join(file);
                let key = std::fs::symlink_metadata(&path)
                    .ok()
                    .and_then(|m| Key::of(&m))
                    .filter(|_| *plain);
                if let (Some(key), Some(entry)) = (key, known.remove(file))
                    && entry.key == key
                {
                    keys.insert(file.clone(), key);
                    counted_of.insert(file.clone(), entry.counted);
                    return Ok(entry.topic);
                }
                let topic = read_topic_summary(dir, file, *plain)?;
                let name = file.trim_end_matches(".md");
                let counted = count(
                    name,
                    topic.description.as_deref(),
                    &topic.body,
                    weights,
                    vocabulary,
                );
                let after = std::fs::symlink_metadata(&path)
                    .ok()
                    .and_then(|m| Key::of(&m));
                if let Some(key) = key.filter(|k| after == Some(*k) && k.settled(now)) {
                    added = true;
                    keys.insert(file.clone(), key);
                }
                counted_of.insert(file.clone(), counted);
                Ok(topic)
            })
            .collect()
    })?;
    // A file recorded now, or one recorded before that changed or went.
    if added || keys.len() != before {
        let entries: Vec<Record<'_>> = listing
            .memories
            .iter()
            .filter_map(|m| {
                Some(Record {
                    file: &m.file,
                    key: *keys.get(&m.file)?,
                    memory_type: m.memory_type,
                    description: m.description.as_deref(),
                    body: &m.body,
                    counted: counted_of.get(&m.file)?,
                })
            })
            .collect();
        save(&cache, weights, vocabulary, &entries);
    }
    let counted = listing
        .memories
        .iter()
        .map(|m| counted_of.remove(&m.file).unwrap_or_default())
        .collect();
    Ok((listing, counted))
}

/// A memory's name, description and body counted, by `weights`.
fn count(
    name: &str,
    description: Option<&str>,
    body: &str,
    weights: Weights,
    vocabulary: &mut Vocabulary,
) -> Counted {
    let fields: Fields<'_> = vec![
        (name, weights[0]),
        (description.unwrap_or(""), weights[1]),
        (body, weights[2]),
    ];
    vocabulary.count(&fields)
}

/// The entries the cache at `path` holds, their term ids moved into `vocabulary`; `None` when
/// there is no cache or it is not one this version wrote with these weights, whole.
fn load(
    path: &Path,
    weights: Weights,
    vocabulary: &mut Vocabulary,
) -> Option<HashMap<String, Entry>> {
    let bytes = crate::input::read_regular_with(path, MAX_BYTES, crate::input::Follow::No).ok()?;
    let (content, sum) = bytes.split_last_chunk::<8>()?;
    if u64::from_le_bytes(*sum) != fnv(content) {
        return None;
    }
    let mut r = Reader(content.strip_prefix(MAGIC)?);
    for w in weights {
        if r.f32()? != w {
            return None;
        }
    }
    let n_terms = r.count(4)?;
    let mut ids = Vec::with_capacity(n_terms);
    for _ in 0..n_terms {
        ids.push(vocabulary.intern(r.str()?)?);
    }
    // An entry's least size: its file name's length, the key, the type and description flags,
    // the body's length, the counted length and the number of terms.
    let n_entries = r.count(4 + 7 * 8 + 1 + 1 + 4 + 4 + 4)?;
    let mut entries = HashMap::with_capacity(n_entries);
    for _ in 0..n_entries {
        let file = r.str()?.to_string();
        let mut key = [0i64; 7];
        for k in &mut key {
            *k = r.i64()?;
        }
        let memory_type = match r.u8()? {
            0 => None,
            n => Some(*MemoryType::ALL.get(usize::from(n) - 1)?),
        };
        let description = match r.u8()? {
            0 => None,
            _ => Some(r.str()?.to_string()),
        };
        let body = r.str()?.to_string();
        let len = r.f32()?;
        let n_pairs = r.count(8)?;
        let mut terms = Vec::with_capacity(n_pairs);
        for _ in 0..n_pairs {
            let id = *ids.get(usize::try_from(r.u32()?).ok()?)?;
            terms.push((id, r.f32()?));
        }
        entries.insert(
            file,
            Entry {
                key: Key(key),
                topic: Topic {
                    memory_type,
                    description,
                    body,
                },
                counted: Counted { terms, len },
            },
        );
    }
    r.0.is_empty().then_some(entries)
}

/// One file as the cache records it, to write.
struct Record<'a> {
    file: &'a str,
    key: Key,
    memory_type: Option<MemoryType>,
    description: Option<&'a str>,
    body: &'a str,
    counted: &'a Counted,
}

/// Write `entries` as the cache at `path` (their terms renumbered to those they use): a temp
/// file renamed over it, not fsynced (a torn cache fails its checksum). Failing is no error.
fn save(path: &Path, weights: Weights, vocabulary: &Vocabulary, entries: &[Record<'_>]) {
    let mut local: HashMap<u32, u32> = HashMap::new();
    let mut terms: Vec<&str> = Vec::new();
    for entry in entries {
        for (id, _) in &entry.counted.terms {
            if !local.contains_key(id) {
                let Some(term) = vocabulary.term(*id) else {
                    return;
                };
                local.insert(*id, terms.len() as u32);
                terms.push(term);
            }
        }
    }
    let mut out = MAGIC.to_vec();
    for w in weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&(terms.len() as u32).to_le_bytes());
    for term in terms {
        put_str(&mut out, term);
    }
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for entry in entries {
        put_str(&mut out, entry.file);
        for k in entry.key.0 {
            out.extend_from_slice(&k.to_le_bytes());
        }
        let memory_type = entry
            .memory_type
            .and_then(|t| MemoryType::ALL.iter().position(|a| *a == t))
            .map_or(0, |n| n as u8 + 1);
        out.push(memory_type);
        match entry.description {
            Some(d) => {
                out.push(1);
                put_str(&mut out, d);
            }
            None => out.push(0),
        }
        put_str(&mut out, entry.body);
        out.extend_from_slice(&entry.counted.len.to_le_bytes());
        out.extend_from_slice(&(entry.counted.terms.len() as u32).to_le_bytes());
        for (id, w) in &entry.counted.terms {
            out.extend_from_slice(&local[id].to_le_bytes());
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    let sum = fnv(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    let _ = crate::atomic::replace_unsynced(path, &out);
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// FNV-1a, 64 bits: a torn or altered cache shows.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads the cache's fields, `None` past its end.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|[b]| b)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }

    fn i64(&mut self) -> Option<i64> {
        self.take().map(i64::from_le_bytes)
    }

    fn f32(&mut self) -> Option<f32> {
        self.take()
            .map(f32::from_le_bytes)
            .filter(|f| f.is_finite())
    }

    /// A count of items of at least `size` bytes each, no more than the rest could hold.
    fn count(&mut self, size: usize) -> Option<usize> {
        let n = usize::try_from(self.u32()?).ok()?;
        (n.checked_mul(size)? <= self.0.len()).then_some(n)
    }

    fn str(&mut self) -> Option<&'a str> {
        let len = self.count(1)?;
        let (s, rest) = self.0.split_at(len);
        self.0 = rest;
        std::str::from_utf8(s).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEIGHTS: Weights = [3.0, 3.0, 1.0];

    fn store() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path();
        std::fs::create_dir(dir.join(".git")).expect(".git");
        std::fs::write(
            dir.join("MEMORY.md"),
            "- [Deploys](deploys.md) — when to deploy\n",
        )
        .expect("index");
        for (name, description) in [
            ("deploys", "Deploy on weekdays before 4pm"),
            ("lint", "Run the linter before each commit"),
            ("freeze", "下周三开始封版"),
        ] {
            std::fs::write(
                dir.join(format!("{name}.md")),
                format!("---\nname: {name}\ndescription: {description}\ntype: project\n---\nBody of {name}.\n"),
            )
            .expect("topic");
        }
        tmp
    }

    fn later() -> SystemTime {
        SystemTime::now() + Duration::from_secs(10)
    }

    /// What a listing says of a memory: name, description and the terms it counted.
    type Seen = (String, Option<String>, Vec<(String, f32)>);

    fn seen(dir: &Path, now: SystemTime) -> Vec<Seen> {
        let mut vocabulary = Vocabulary::default();
        let (listing, counted) = read_at(dir, WEIGHTS, &mut vocabulary, now).expect("read");
        listing
            .memories
            .iter()
            .zip(counted)
            .map(|(m, c)| {
                let terms = c
                    .terms
                    .iter()
                    .map(|(id, w)| (vocabulary.term(*id).expect("named").to_string(), *w))
                    .collect();
                (m.name.clone(), m.description.clone(), terms)
            })
            .collect()
    }

    #[test]
    fn settled_files_are_read_from_the_cache_and_changed_ones_from_disk() {
        let tmp = store();
        let dir = tmp.path();
        let path = dir.join(".git/memdir/recall-cache");
        let fresh = seen(dir, SystemTime::now());
        assert!(!path.exists(), "files this new are not recorded");
        assert_eq!(seen(dir, later()), fresh);
        assert!(path.is_file());
        // What the cache says of an unchanged file is what a listing gives: alter it in the
        // cache alone and the listing follows.
        let mut vocabulary = Vocabulary::default();
        let entries = load(&path, WEIGHTS, &mut vocabulary).expect("the cache loads");
        assert_eq!(entries.len(), 3);
        let records: Vec<Record<'_>> = entries
            .iter()
            .map(|(file, e)| Record {
                file,
                key: e.key,
                memory_type: e.topic.memory_type,
                description: if file == "lint.md" {
                    Some("From the cache")
                } else {
                    e.topic.description.as_deref()
                },
                body: &e.topic.body,
                counted: &e.counted,
            })
            .collect();
        save(&path, WEIGHTS, &vocabulary, &records);
        let cached = seen(dir, later());
        assert_eq!(cached[2].1.as_deref(), Some("From the cache"), "{cached:?}");
        assert_eq!(cached[0], fresh[0]);
        // A file changed since is read again.
        std::fs::write(
            dir.join("lint.md"),
            "---\nname: lint\ndescription: Lint in CI only\ntype: project\n---\nNew.\n",
        )
        .expect("edit");
        assert_eq!(seen(dir, later())[2].1.as_deref(), Some("Lint in CI only"));
        // Another version's weights: the cache is not used (and is rewritten).
        let mut vocabulary = Vocabulary::default();
        assert!(load(&path, [1.0, 1.0, 1.0], &mut vocabulary).is_none());
    }

    #[test]
    fn a_damaged_cache_is_never_trusted_and_never_panics() {
        let tmp = store();
        let dir = tmp.path();
        let path = dir.join(".git/memdir/recall-cache");
        seen(dir, later());
        let good = std::fs::read(&path).expect("cache");
        let mut vocabulary = Vocabulary::default();
        assert!(load(&path, WEIGHTS, &mut vocabulary).is_some());
        // Torn at any length, or one byte changed: the checksum tells.
        for len in 0..good.len() {
            std::fs::write(&path, &good[..len]).expect("write");
            assert!(
                load(&path, WEIGHTS, &mut vocabulary).is_none(),
                "torn at {len}"
            );
        }
        // Bytes changed and the checksum made right (a planted file): read to its end or
        // refused, never a panic or an allocation the file does not back.
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..3000 {
            let mut bad = good[..good.len() - 8].to_vec();
            for _ in 0..(x % 3 + 1) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let at = (x as usize) % bad.len();
                bad[at] = (x >> 32) as u8;
            }
            let sum = fnv(&bad);
            bad.extend_from_slice(&sum.to_le_bytes());
            std::fs::write(&path, &bad).expect("write");
            if let Some(entries) = load(&path, WEIGHTS, &mut vocabulary) {
                assert!(entries.len() <= 3);
            }
        }
    }
}
