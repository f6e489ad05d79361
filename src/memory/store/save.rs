//! Save, update and remove (DESIGN §4): the two-step save as one commit, and removal of a
//! memory's index line and topic file as one commit.

use gix::ObjectId;

use crate::input::MAX_TOPIC_FILE_BYTES;
use crate::memory::index::{Index, IndexLine};
use crate::memory::load::{MAX_INDEX_LINES, MAX_INDEX_UNITS, measure_index};
use crate::memory::taxonomy::{MemoryType, validate_stored_name};
use crate::memory::topic::TopicFile;

use super::*;

/// The outcome of a save or update.
#[derive(Debug, Clone)]
pub struct Saved {
    /// `None` when the memory already held exactly this (nothing to commit).
    pub commit: Option<ObjectId>,
    pub op: Op,
    pub file: String,
    pub adoption: Adoption,
    pub warnings: Vec<String>,
}

/// The outcome of a removal.
#[derive(Debug, Clone)]
pub struct Removed {
    pub commit: ObjectId,
    pub file: String,
    pub adoption: Adoption,
}

/// The outcome of removing several memories in one commit.
#[derive(Debug, Clone)]
pub struct RemovedAll {
    pub commit: ObjectId,
    /// The memories removed, in the order given, with their types.
    pub removed: Vec<(String, Option<MemoryType>)>,
    pub adoption: Adoption,
}

/// What the topic file must be when a save begins, for the request to still be what its
/// caller meant: a person who edited a memory for minutes, or a command that filled in the
/// fields not given from the file it read, must not overwrite what an agent wrote meanwhile.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Base<'a> {
    /// Whatever it is.
    #[default]
    Any,
    /// Not there: the caller creates the memory.
    Absent,
    /// These bytes: the caller read them.
    Text(&'a str),
}

/// How a save treats what is there already.
#[derive(Debug, Clone, Copy, Default)]
pub struct SaveOptions<'a> {
    /// What the topic file must be (refused with [`StoreError::Changed`] otherwise).
    pub base: Base<'a>,
    /// The topic file as a person wrote it (in an editor): its frontmatter, every key, is what
    /// is kept, rather than the stored file's.
    pub edited: Option<&'a TopicFile>,
    /// Whether the save may change the memory's type (refused with
    /// [`StoreError::TypeChange`] otherwise).
    pub change_type: bool,
}

impl Store {
    /// The two-step save: topic file, then index line, then one commit. The memory as it is
    /// now is replaced whatever it holds, its type too (what an agent's save asks for).
    pub fn save(&mut self, request: &SaveRequest<'_>) -> Result<Saved, StoreError> {
        self.save_with(
            request,
            &SaveOptions {
                change_type: true,
                ..SaveOptions::default()
            },
        )
    }

    /// [`Store::save`], refused when the memory is not what `options` expects.
    pub fn save_with(
        &mut self,
        request: &SaveRequest<'_>,
        options: &SaveOptions<'_>,
    ) -> Result<Saved, StoreError> {
        request.validate()?;
        let file = format!("{}.md", request.name);
        let path = self.dir.join(&file);
        check_inside(&self.dir, &path)?;
        let index_path = self.dir.join(INDEX_FILE);
        check_inside(&self.dir, &index_path)?;
        let mut state = self.state(Scan::IfChanged, Some(&file))?;
        let mut warnings = Vec::new();

        // Everything that can refuse is checked before anything is adopted or written.
        let existing = match read_memory_file(&self.dir, &file, MAX_TOPIC_FILE_BYTES)? {
            Some(bytes) => {
                let text =
                    String::from_utf8(bytes).map_err(|_| StoreError::NotUtf8(path.clone()))?;
                let topic = TopicFile::parse(&text).map_err(|source| StoreError::Topic {
                    file: path.clone(),
                    source,
                })?;
                Some((text, topic))
            }
            None => None,
        };
        let current = existing.as_ref().map(|(text, _)| text.as_str());
        let expected = match options.base {
            Base::Any => current,
            Base::Absent => None,
            Base::Text(text) => Some(text),
        };
        if current != expected {
            return Err(StoreError::Changed(request.name.to_string()));
        }
        if let Some((_, topic)) = &existing
            && let Some(from) = topic.memory_type
            && from != request.memory_type
            && !options.change_type
        {
            return Err(StoreError::TypeChange {
                name: request.name.to_string(),
                from,
                to: request.memory_type,
            });
        }
        let base = options.edited.or(existing.as_ref().map(|(_, topic)| topic));
        let topic = match base {
            Some(topic) => topic
                .updated(
                    request.name,
                    request.description,
                    request.memory_type,
                    request.body,
                )
                .map_err(|source| StoreError::Topic {
                    file: path.clone(),
                    source,
                })?,
            None => TopicFile::new(
                request.name,
                request.description,
                request.memory_type,
                request.body,
            ),
        };
        let topic_text = topic.render();
        // Never write a file memdir itself could not read back.
        TopicFile::parse(&topic_text)
            .map_err(|e| StoreError::InvalidInput(format!("{file} would not read back: {e}")))?;
        if topic_text.len() as u64 > MAX_TOPIC_FILE_BYTES {
            return Err(StoreError::InvalidInput(format!(
                "{file} would be {} bytes, over the {} limit of a topic file",
                topic_text.len(),
                crate::input::format_bytes(MAX_TOPIC_FILE_BYTES)
            )));
        }

        let index_text = read_index(&self.dir)?;
        let mut index = Index::parse(&index_text);
        let title = match (request.title, index.entry_for(&file)) {
            (None, Some(entry)) => entry.title,
            _ => request.title(),
        };
        let (line, shortened) = IndexLine::for_memory(&title, &file, request.description)?;
        if shortened {
            warnings.push(format!(
                "the index line for {} was shortened to stay under 150 characters (the full description is in the topic file)",
                request.name
            ));
        }
        index.upsert(&line);
        let new_index_text = index.render();

        let mut adoption = self.adopt_in(&mut state, request.session)?;
        let tracked = state.tree.contains_key(file.as_bytes());
        if let Some((text, _)) = &existing
            && *text == topic_text
            && new_index_text == index_text
            && tracked
        {
            return Ok(Saved {
                commit: None,
                op: Op::Update,
                file,
                adoption,
                warnings,
            });
        }
        if let Some(kept) = self.keep_in_history(&mut state, &file, request.session)? {
            adoption.commits.push(kept);
        }
        let op = if existing.is_some() {
            Op::Update
        } else {
            Op::Save
        };
        let message = commit_message(
            op,
            request.memory_type.as_str(),
            request.name,
            request.description,
            request.session,
        );
        // The index's size is measured while the write waits on its fsyncs.
        let (commit, size_warnings) = self.write_and_commit_while(
            &mut state,
            &[
                (&file, Some(topic_text.as_bytes()), "after-topic"),
                (INDEX_FILE, Some(new_index_text.as_bytes()), "after-index"),
            ],
            &message,
            || index_size_warnings(&new_index_text),
        )?;
        warnings.extend(size_warnings);
        Ok(Saved {
            commit: Some(commit),
            op,
            file,
            adoption,
            warnings,
        })
    }

    /// Remove a memory: its index line, then its topic file, in one commit.
    pub fn remove(&mut self, name: &str, session: Option<&str>) -> Result<Removed, StoreError> {
        self.remove_as(name, session, Op::Delete, "", &[])
    }

    /// Retire a memory whose rule was promoted and merged (DESIGN §7): removed as by
    /// [`Store::remove`], in one `promote(<type>): <name>` commit whose body adds `note` (where
    /// the rule went) and whose trailers add `trailers` (`Merge`, `Target`).
    pub fn retire(
        &mut self,
        name: &str,
        note: &str,
        trailers: &[(&str, &str)],
    ) -> Result<Removed, StoreError> {
        self.remove_as(name, None, Op::Promote, note, trailers)
    }

    /// Remove a memory in one commit of `op`, `note` after the description in its body.
    pub(super) fn remove_as(
        &mut self,
        name: &str,
        session: Option<&str>,
        op: Op,
        note: &str,
        trailers: &[(&str, &str)],
    ) -> Result<Removed, StoreError> {
        let removed = self.remove_each(&[name], session, op, note, trailers)?;
        Ok(Removed {
            commit: removed.commit,
            file: format!("{name}.md"),
            adoption: removed.adoption,
        })
    }

    /// Remove several memories, their index lines and topic files, in one commit: all of them,
    /// or (when one does not exist) none. A name given twice is removed once.
    pub fn remove_all(
        &mut self,
        names: &[&str],
        session: Option<&str>,
    ) -> Result<RemovedAll, StoreError> {
        self.remove_each(names, session, Op::Delete, "", &[])
    }

    fn remove_each(
        &mut self,
        names: &[&str],
        session: Option<&str>,
        op: Op,
        note: &str,
        trailers: &[(&str, &str)],
    ) -> Result<RemovedAll, StoreError> {
        let mut unique: Vec<&str> = Vec::with_capacity(names.len());
        for name in names {
            validate_stored_name(name)?;
            if !unique.contains(name) {
                unique.push(name);
            }
        }
        let files: Vec<String> = unique.iter().map(|name| format!("{name}.md")).collect();
        for file in &files {
            check_inside(&self.dir, &self.dir.join(file))?;
        }
        let index_path = self.dir.join(INDEX_FILE);
        check_inside(&self.dir, &index_path)?;
        let mut state = match files.as_slice() {
            [file] => self.state(Scan::IfChanged, Some(file))?,
            _ => self.state(Scan::Full, None)?,
        };
        let index = Index::parse(&read_index(&self.dir)?);
        for (name, file) in unique.iter().zip(&files) {
            let exists = state.work.contains_key(file) || state.unreadable.contains(file);
            if !exists && index.entry_for(file).is_none() {
                // Refused before anything is adopted: exit 2 changes nothing.
                return Err(StoreError::NotFound(name.to_string()));
            }
        }
        let mut adoption = self.adopt_in(&mut state, session)?;
        for file in &files {
            if let Some(kept) = self.keep_in_history(&mut state, file, session)? {
                adoption.commits.push(kept);
            }
        }
        let mut index = Index::parse(&read_index(&self.dir)?);
        let mut had_line = false;
        let mut removed = Vec::new();
        let mut described = Vec::new();
        for (name, file) in unique.iter().zip(&files) {
            had_line |= index.remove(file);
            let (memory_type, description) = match read_memory_file(&self.dir, file, cap_of(file)) {
                Ok(Some(bytes)) => {
                    let topic = std::str::from_utf8(&bytes)
                        .ok()
                        .and_then(|t| TopicFile::parse(t).ok());
                    (
                        topic.as_ref().and_then(|t| t.memory_type),
                        topic.and_then(|t| t.description).unwrap_or_default(),
                    )
                }
                // Only the line is left, or the file is one memdir never reads (a FIFO, a file
                // over its cap): it goes unread.
                Ok(None) => (None, String::new()),
                Err(e) if e.is_invalid_input() => (None, String::new()),
                Err(e) => return Err(e),
            };
            removed.push((name.to_string(), memory_type));
            described.push(description);
        }
        let new_index_text = index.render();
        let mut steps: Vec<(&str, Option<&[u8]>, &str)> = Vec::new();
        if had_line {
            steps.push((INDEX_FILE, Some(new_index_text.as_bytes()), "after-index"));
        }
        for file in &files {
            steps.push((file, None, "after-topic"));
        }
        // One memory: its description; several: a line each, `name: description`.
        let description = match described.as_slice() {
            [one] => one.trim().to_string(),
            _ => unique
                .iter()
                .zip(&described)
                .map(|(name, d)| {
                    format!("{name}: {}", d.trim())
                        .trim_end_matches(": ")
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join("\n"),
        };
        let body = match (description.trim(), note.trim()) {
            (description, "") => description.to_string(),
            ("", note) => note.to_string(),
            (description, note) => format!("{description}\n\n{note}"),
        };
        let mut types: Vec<&str> = removed.iter().map(|(_, t)| type_label(*t)).collect();
        types.dedup();
        let memory_type = match types.as_slice() {
            [one] => one,
            _ => "mixed",
        };
        let message = commit_message_with(
            op,
            memory_type,
            &unique.join(", "),
            &body,
            session,
            trailers,
        );
        let commit = self.write_and_commit(&mut state, &steps, &message)?;
        Ok(RemovedAll {
            commit,
            removed,
            adoption,
        })
    }
}

/// Warnings when the index nears (80 %) or passes Claude Code's load caps.
pub fn index_size_warnings(index_text: &str) -> Vec<String> {
    let size = measure_index(index_text);
    let over = size.lines > MAX_INDEX_LINES || size.units > MAX_INDEX_UNITS;
    if over {
        const NAMED: usize = 10;
        let mut invisible = crate::memory::load::invisible_entries(index_text)
            .map(|e| e.file_name().trim_end_matches(".md").to_string());
        let named: Vec<String> = invisible.by_ref().take(NAMED).collect();
        let more = invisible.count();
        let count = named.len() + more;
        let mut names = named.join(", ");
        if more > 0 {
            names.push_str(&format!(
                " and {more} more (memdir index --json lists them)"
            ));
        }
        vec![format!(
            "MEMORY.md is {} lines and {} characters, over Claude Code's load limit ({MAX_INDEX_LINES} lines, {MAX_INDEX_UNITS} characters): {} entr{} no longer loaded: {names}",
            size.lines,
            size.units,
            count,
            if count == 1 { "y is" } else { "ies are" },
        )]
    } else if size.lines * 5 >= MAX_INDEX_LINES * 4 || size.units * 5 >= MAX_INDEX_UNITS * 4 {
        vec![format!(
            "MEMORY.md is {} lines and {} characters, past 80% of Claude Code's load limit ({MAX_INDEX_LINES} lines, {MAX_INDEX_UNITS} characters); entries past the limit will not be loaded",
            size.lines, size.units
        )]
    } else {
        Vec::new()
    }
}
