//! Reading the memory dir as it stands (DESIGN §2, §3): which memories there are, in index order,
//! and one memory's file. Reads take no lock and change nothing.

use std::path::{Path, PathBuf};

use crate::input::{InputError, MAX_INDEX_BYTES, MAX_TOPIC_FILE_BYTES};
use crate::memory::index::Index;
use crate::memory::store::{INDEX_FILE, StoreError, read_memory_file, read_memory_file_listed};
use crate::memory::taxonomy::{
    MemoryType, is_topic_file_name, validate_name, validate_stored_name,
};
use crate::memory::topic::TopicFile;

/// One memory, as `list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    /// The file name without `.md`.
    pub name: String,
    pub memory_type: Option<MemoryType>,
    pub description: Option<String>,
    /// The title of its index line; `None` when the index does not name it.
    pub title: Option<String>,
    pub file: String,
    pub path: PathBuf,
    /// The text after the frontmatter.
    pub body: String,
}

/// A file of the memory dir that could not be read as a memory, and why (one line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileProblem {
    pub file: String,
    pub problem: String,
}

impl std::fmt::Display for FileProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.problem)
    }
}

/// The memories of a dir that could be read, and the files that could not.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    pub memories: Vec<Memory>,
    pub problems: Vec<FileProblem>,
}

/// Read and parse one topic file: a regular file inside the memory dir, under the size cap,
/// UTF-8, with frontmatter that parses; errors name the file. `listed_plain`: the folder's
/// listing says it is no symlink ([`read_memory_file_listed`]).
fn read_topic(
    dir: &Path,
    file: &str,
    listed_plain: bool,
) -> Result<(String, TopicFile), StoreError> {
    let path = dir.join(file);
    let bytes = read_memory_file_listed(dir, file, MAX_TOPIC_FILE_BYTES, listed_plain)?
        .ok_or_else(|| StoreError::NotFound(file.trim_end_matches(".md").to_string()))?;
    parse_topic(path, bytes)
}

/// [`read_topic`], what a listing keeps of it.
pub(crate) fn read_topic_summary(
    dir: &Path,
    file: &str,
    listed_plain: bool,
) -> Result<Topic, StoreError> {
    Ok(read_topic(dir, file, listed_plain)?.1.into())
}

/// A topic file's bytes as text and parsed; errors name the file.
fn parse_topic(path: PathBuf, bytes: Vec<u8>) -> Result<(String, TopicFile), StoreError> {
    let text = String::from_utf8(bytes).map_err(|_| StoreError::NotUtf8(path.clone()))?;
    let topic =
        TopicFile::parse(&text).map_err(|source| StoreError::Topic { file: path, source })?;
    Ok((text, topic))
}

/// `MEMORY.md` as a reader sees it: invalid UTF-8 replaced, and one that memdir does not read
/// (a symlink out of the dir, a FIFO, over 4 MiB) empty, each said in `problems`; a missing
/// index empty. Writers use [`crate::memory::store::read_index`], which refuses such an index.
pub fn read_index_lossy(dir: &Path, problems: &mut Vec<FileProblem>) -> Result<String, StoreError> {
    let bytes = match read_memory_file(dir, INDEX_FILE, MAX_INDEX_BYTES) {
        Ok(bytes) => bytes.unwrap_or_default(),
        Err(e) if e.is_invalid_input() => {
            problems.push(FileProblem {
                file: INDEX_FILE.to_string(),
                problem: problem_text(&e),
            });
            Vec::new()
        }
        Err(e) => return Err(e),
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            problems.push(FileProblem {
                file: INDEX_FILE.to_string(),
                problem: format!(
                    "it is not valid UTF-8 at line {} (read with the bad bytes replaced; memdir never rewrites what it cannot read: fix that line by hand)",
                    crate::memory::store::not_utf8_line(e.as_bytes())
                ),
            });
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    };
    Ok(text)
}

/// Every topic file that can be read, those the index names first (in its order), then the rest
/// by name; a file that cannot be read (not a regular file, a symlink out of the dir, too big,
/// bad frontmatter) is a problem of the listing, never a failure of the whole.
pub fn list_memories(dir: &Path) -> Result<Listing, StoreError> {
    list_memories_with(dir, |files| read_topics(dir, files))
}

/// What a listing keeps of a topic file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    pub memory_type: Option<MemoryType>,
    pub description: Option<String>,
    pub body: String,
}

impl From<TopicFile> for Topic {
    fn from(topic: TopicFile) -> Topic {
        Topic {
            memory_type: topic.memory_type,
            description: topic.description,
            body: topic.body,
        }
    }
}

/// [`list_memories`], the topic files read by `read`: given each file's name and whether the
/// listing says it is a plain file, in the listing's order, it gives each one's reading in the
/// same order (the recall cache reads unchanged files from itself).
pub fn list_memories_with(
    dir: &Path,
    read: impl FnOnce(&[(String, bool)]) -> Vec<Result<Topic, StoreError>>,
) -> Result<Listing, StoreError> {
    let mut listing = Listing::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(listing),
        Err(source) => {
            return Err(StoreError::Io {
                path: dir.to_path_buf(),
                source,
            });
        }
    };
    // Each topic file's name, and whether the listing says it is a plain file (no symlink).
    let mut files: Vec<(String, bool)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let kind = entry.file_type().ok();
        if is_topic_file_name(&name) && !kind.is_some_and(|t| t.is_dir()) {
            files.push((name, kind.is_some_and(|t| t.is_file())));
        }
    }
    let index = Index::parse(&read_index_lossy(dir, &mut listing.problems)?);
    // The first index line naming a file gives its place and its title.
    let mut first = index.first_entries();
    files.sort_by_cached_key(|(f, _)| (first.get(f).map_or(usize::MAX, |(n, _)| *n), f.clone()));

    for ((file, _), read) in files.iter().zip(read(&files)) {
        match read {
            Ok(topic) => {
                let name = file.trim_end_matches(".md").to_string();
                let title = first.remove(file).map(|(_, line)| line.title);
                listing.memories.push(Memory::new(
                    &name,
                    file.clone(),
                    dir.join(file),
                    topic,
                    title,
                ));
            }
            Err(e) => listing.problems.push(FileProblem {
                problem: problem_text(&e),
                file: file.clone(),
            }),
        }
    }
    Ok(listing)
}

/// Read and parse `files` (name, and whether the listing says it is a plain file), in order;
/// a few thousand of them on every core.
fn read_topics(dir: &Path, files: &[(String, bool)]) -> Vec<Result<Topic, StoreError>> {
    const PER_THREAD: usize = 512;
    let read = |(file, plain): &(String, bool)| read_topic_summary(dir, file, *plain);
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files.len().div_ceil(PER_THREAD));
    if threads <= 1 {
        return files.iter().map(read).collect();
    }
    let chunk = files.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let read = &read;
        let parts: Vec<_> = files
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(read).collect::<Vec<_>>()))
            .collect();
        parts
            .into_iter()
            .flat_map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// What is wrong with a file, without repeating its path.
pub(crate) fn problem_text(e: &StoreError) -> String {
    match e {
        StoreError::Topic { source, .. } => source.to_string(),
        StoreError::NotUtf8(_) => "it is not valid UTF-8".into(),
        StoreError::Input(InputError::NotRegular { kind, .. }) => {
            format!("it is not a regular file ({kind}); memdir never opens it")
        }
        StoreError::Input(InputError::TooLarge { cap, .. }) => format!(
            "it is over the {} limit of a topic file; memdir does not read it",
            crate::input::format_bytes(*cap)
        ),
        StoreError::Outside { target, .. } => format!(
            "it is a symlink to {}, outside the memory dir; memdir never follows it",
            target.display()
        ),
        other => other.to_string(),
    }
}

/// One memory by name: its summary and its file's text.
pub fn read_memory(dir: &Path, name: &str) -> Result<(Memory, String, TopicFile), StoreError> {
    validate_stored_name(name)?;
    let file = format!("{name}.md");
    let path = dir.join(&file);
    let (text, topic) = read_topic(dir, &file, false)?;
    let index = Index::parse(&read_index_lossy(dir, &mut Vec::new())?);
    Ok(shown(name, file, path, text, topic, &index))
}

/// One memory to show: its summary (titled by `index`), its file's text, and the file parsed.
fn shown(
    name: &str,
    file: String,
    path: PathBuf,
    text: String,
    topic: TopicFile,
    index: &Index,
) -> (Memory, String, TopicFile) {
    let title = index.entry_for(&file).map(|e| e.title);
    (
        Memory::new(name, file, path, topic.clone(), title),
        text,
        topic,
    )
}

/// One memory as it was in a commit: its summary and its file's text.
pub fn read_memory_at(
    repo: &crate::repo::MemoryRepo,
    commit: gix::ObjectId,
    name: &str,
) -> Result<(Memory, String, TopicFile), StoreError> {
    validate_name(name)?;
    let file = format!("{name}.md");
    let tree = repo.commit_tree(commit)?;
    let Some((_, id)) = tree.get(file.as_bytes()) else {
        return Err(StoreError::NotFound(format!(
            "{name} (at {})",
            commit.to_hex_with_len(7)
        )));
    };
    let path = PathBuf::from(&file);
    let (text, topic) = parse_topic(path.clone(), repo.blob(*id)?)?;
    let index = match tree.get(INDEX_FILE.as_bytes()) {
        Some((_, id)) => Index::parse(&String::from_utf8_lossy(&repo.blob(*id)?)),
        None => Index::default(),
    };
    Ok(shown(name, file, path, text, topic, &index))
}

impl Memory {
    /// A memory's summary from its parsed file and the title its index line gives it.
    fn new(
        name: &str,
        file: String,
        path: PathBuf,
        topic: impl Into<Topic>,
        title: Option<String>,
    ) -> Memory {
        let topic = topic.into();
        Memory {
            name: name.to_string(),
            memory_type: topic.memory_type,
            description: topic.description,
            title,
            file,
            path,
            body: topic.body,
        }
    }

    /// The JSON object of `list --json` and `show --json`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "type": self.memory_type.map(MemoryType::as_str),
            "description": self.description,
            "title": self.title,
            "file": self.file,
        })
    }
}

/// A version of a memory that the memory dir does not hold now: an older version, or the last
/// versions of a memory since deleted.
#[derive(Debug, Clone)]
pub struct PastVersion {
    pub memory: Memory,
    /// The newest commit that holds this version (for `show NAME --at`, `restore NAME --at`).
    pub commit: gix::ObjectId,
    /// That commit's time: seconds since the epoch and UTC offset.
    pub time: (i64, i32),
    /// HEAD's tree has no file of this name.
    pub deleted: bool,
}

/// Every version of a topic file in the history of `dir` (merged work too) that HEAD's tree does
/// not hold, newest first, each at the newest commit holding it. A version over the size cap of
/// a topic file, or that does not parse, is left out.
pub fn past_versions(dir: &Path) -> Result<Vec<PastVersion>, StoreError> {
    if !crate::repo::has_repository(dir)? {
        return Ok(Vec::new());
    }
    let repo = crate::repo::MemoryRepo::open(dir)?;
    let head = repo.head_tree()?;
    let mut seen: std::collections::HashSet<gix::ObjectId> =
        head.values().map(|(_, id)| *id).collect();
    let mut last_tree = None;
    let mut out = Vec::new();
    for entry in repo.history()? {
        // A commit whose tree is its parent's (a merge that changed nothing) adds no version.
        let tree_id = repo.commit_tree_id(entry.commit)?;
        if last_tree.replace(tree_id) == Some(tree_id) {
            continue;
        }
        // Only an entry whose blob is new to the walk is looked at any further.
        let mut fresh = Vec::new();
        repo.each_tree_entry(tree_id, |name, kind, id| {
            if kind == gix::objs::tree::EntryKind::Blob && !seen.contains(&id) {
                fresh.push((name.to_vec(), id));
            }
        })?;
        for (name, id) in fresh {
            seen.insert(id);
            let Ok(file) = String::from_utf8(name) else {
                continue;
            };
            if !is_topic_file_name(&file) {
                continue;
            }
            let Some(bytes) = repo.blob_capped(id, MAX_TOPIC_FILE_BYTES)? else {
                continue;
            };
            let path = PathBuf::from(&file);
            let Ok((_, topic)) = parse_topic(path.clone(), bytes) else {
                continue;
            };
            let stem = file.trim_end_matches(".md").to_string();
            let deleted = !head.contains_key(file.as_bytes());
            out.push(PastVersion {
                memory: Memory::new(&stem, file, path, topic, None),
                commit: entry.commit,
                time: entry.time,
                deleted,
            });
        }
    }
    Ok(out)
}

/// The newest commit that holds the topic file `file`: HEAD, else the newest commit of
/// `history` (newest first) whose subject names that memory and whose tree has the file. Only
/// commits memdir described are looked at, one tree each: a walk of every tree would cost
/// seconds on a long history.
pub fn last_version_of(
    repo: &crate::repo::MemoryRepo,
    history: &[crate::repo::HistoryEntry],
    file: &str,
) -> Result<Option<gix::ObjectId>, crate::repo::RepoError> {
    let holds = |commit: gix::ObjectId| -> Result<bool, crate::repo::RepoError> {
        Ok(repo
            .commit_tree(commit)?
            .get(file.as_bytes())
            .is_some_and(|(kind, _)| {
                matches!(
                    kind,
                    gix::objs::tree::EntryKind::Blob | gix::objs::tree::EntryKind::BlobExecutable
                )
            }))
    };
    if let Some(head) = repo.head_commit()?
        && holds(head)?
    {
        return Ok(Some(head));
    }
    let name = file.trim_end_matches(".md");
    for entry in history {
        if entry.memory_subject().is_some_and(|(_, _, n)| n == name) && holds(entry.commit)? {
            return Ok(Some(entry.commit));
        }
    }
    Ok(None)
}
