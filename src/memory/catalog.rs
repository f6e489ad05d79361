//! Reading the memory dir as it stands (DESIGN §2, §3): which memories there are, in index order,
//! and one memory's file. Reads take no lock and change nothing.

use std::path::{Path, PathBuf};

use crate::memory::index::Index;
use crate::memory::store::{INDEX_FILE, StoreError, check_inside, read_index};
use crate::memory::taxonomy::{MemoryType, validate_name, validate_stored_name};
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
}

/// Folders and files in the memory dir that are not topic files (§2).
fn is_topic_file(name: &str) -> bool {
    name.ends_with(".md") && name != INDEX_FILE && !name.starts_with('.')
}

/// Read and parse one topic file; malformed frontmatter is an error naming the file, and so is a
/// FIFO or a device in its place (never opened in a way that waits on it).
fn read_topic(dir: &Path, file: &str) -> Result<(String, TopicFile), StoreError> {
    let path = dir.join(file);
    check_inside(dir, &path)?;
    let mut bytes = Vec::new();
    crate::regular_file::open(&path)
        .and_then(|mut f| std::io::Read::read_to_end(&mut f, &mut bytes))
        .map_err(|source| StoreError::Io {
            path: path.clone(),
            source,
        })?;
    parse_topic(path, bytes)
}

/// A topic file's bytes as text and parsed; errors name the file.
fn parse_topic(path: PathBuf, bytes: Vec<u8>) -> Result<(String, TopicFile), StoreError> {
    let text = String::from_utf8(bytes).map_err(|_| StoreError::NotUtf8(path.clone()))?;
    let topic =
        TopicFile::parse(&text).map_err(|source| StoreError::Topic { file: path, source })?;
    Ok((text, topic))
}

/// Every topic file, those the index names first (in its order), then the rest by name.
pub fn list_memories(dir: &Path) -> Result<Vec<Memory>, StoreError> {
    let index = Index::parse(&read_index(&dir.join(INDEX_FILE))?);
    topic_files(dir, &index)?
        .into_iter()
        .map(|file| summary(dir, file, &index))
        .collect()
}

/// [`list_memories`], leaving out every topic file that cannot be read (a symlink that leaves
/// the memory dir, a FIFO, malformed frontmatter) and an index that cannot (then in name order):
/// what an extractor is shown, so that nothing an agent planted in the memory dir stops it or
/// is read through.
pub fn readable_memories(dir: &Path) -> Result<Vec<Memory>, StoreError> {
    let index_path = dir.join(INDEX_FILE);
    let index = check_inside(dir, &index_path)
        .and_then(|()| read_index(&index_path))
        .map(|text| Index::parse(&text))
        .unwrap_or_default();
    Ok(topic_files(dir, &index)?
        .into_iter()
        .filter_map(|file| summary(dir, file, &index).ok())
        .collect())
}

/// The names of the topic files, in index order.
fn topic_files(dir: &Path, index: &Index) -> Result<Vec<String>, StoreError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(StoreError::Io {
                path: dir.to_path_buf(),
                source,
            });
        }
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if is_topic_file(&name) && !entry.path().is_dir() {
            files.push(name);
        }
    }
    files.sort();
    // The first index line naming a file gives its place.
    let mut position = std::collections::HashMap::new();
    for (n, line) in index.entries().enumerate() {
        position.entry(line.1.file_name().to_string()).or_insert(n);
    }
    files.sort_by_key(|f| (position.get(f).copied().unwrap_or(usize::MAX), f.clone()));
    Ok(files)
}

/// One topic file's summary.
fn summary(dir: &Path, file: String, index: &Index) -> Result<Memory, StoreError> {
    let (_, topic) = read_topic(dir, &file)?;
    let name = file.trim_end_matches(".md").to_string();
    let path = dir.join(&file);
    Ok(Memory::new(&name, file, path, &topic, index))
}

/// One memory by name: its summary and its file's text.
pub fn read_memory(dir: &Path, name: &str) -> Result<(Memory, String, TopicFile), StoreError> {
    validate_stored_name(name)?;
    let file = format!("{name}.md");
    let path = dir.join(&file);
    if !path.is_file() {
        return Err(StoreError::NotFound(name.to_string()));
    }
    let (text, topic) = read_topic(dir, &file)?;
    let index = Index::parse(&read_index(&dir.join(INDEX_FILE))?);
    Ok((Memory::new(name, file, path, &topic, &index), text, topic))
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
    Ok((Memory::new(name, file, path, &topic, &index), text, topic))
}

impl Memory {
    /// A memory's summary from its parsed file and the index that may name it.
    fn new(name: &str, file: String, path: PathBuf, topic: &TopicFile, index: &Index) -> Memory {
        Memory {
            name: name.to_string(),
            memory_type: topic.memory_type,
            description: topic.description.clone(),
            title: index.entry_for(&file).map(|e| e.title),
            file,
            path,
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
