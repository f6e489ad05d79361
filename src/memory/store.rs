//! The store (DESIGN §4): the locked two-step save, removal, and adoption of what an agent wrote
//! into the memory dir itself, each mutation one commit.
//!
//! Crash windows, in order: the topic file is written atomically (temp file, fsync, rename, fsync
//! dir), then `MEMORY.md` likewise, then the commit. A crash after the topic file leaves an
//! orphan and a consistent index; a crash after the index leaves the work tree ahead of HEAD,
//! and every later write first adopts it as its own commit. Nothing written is ever lost.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::BString;
use gix::objs::tree::EntryKind;

use crate::input::{MAX_BODY_BYTES, MAX_INDEX_BYTES, MAX_TOPIC_FILE_BYTES};
use crate::memory::index::{Index, IndexLine, IndexLineError};
use crate::memory::load::{MAX_INDEX_LINES, MAX_INDEX_UNITS, measure_index};
use crate::memory::taxonomy::{InvalidName, MemoryType, validate_name, validate_stored_name};
use crate::memory::topic::{TopicError, TopicFile};
use crate::repo::message::subject_of;
pub use crate::repo::message::{Op, commit_message, commit_message_with};
use crate::repo::{CleanFiles, MemoryRepo, RepoError, TreeMap, WorktreeIndex};

/// The index file's name.
pub const INDEX_FILE: &str = "MEMORY.md";
/// Temp files end so; `.git/info/exclude` hides them and a locked writer removes stale ones.
use crate::atomic::TEMP_SUFFIX;
/// What `.git/info/exclude` holds: folders of the memory dir that are not memdir's to track.
const EXCLUDES: &str = "# memdir: not topic files (DESIGN §2)\n/team/\n/logs/\n/sessions/\n/proposals/\n.*.memdir-tmp\n";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{}: {source}", file.display())]
    Topic { file: PathBuf, source: TopicError },
    #[error("{0}")]
    InvalidInput(String),
    #[error(transparent)]
    InvalidName(#[from] InvalidName),
    #[error(transparent)]
    IndexLine(#[from] IndexLineError),
    #[error("no memory named {0:?}")]
    NotFound(String),
    #[error("{} resolves to {}, outside the memory dir", path.display(), target.display())]
    Outside { path: PathBuf, target: PathBuf },
    #[error("{} is not valid UTF-8", .0.display())]
    NotUtf8(PathBuf),
    #[error("{} is not valid UTF-8; memdir doctor --fix keeps it as it is in history and repairs it", .0.display())]
    IndexNotUtf8(PathBuf),
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Repo(#[from] RepoError),
}

impl StoreError {
    /// Whether the error is the caller's input (exit 2), not a failure of the machine (exit 1).
    pub fn is_invalid_input(&self) -> bool {
        match self {
            StoreError::Repo(e) => e.is_refusal(),
            StoreError::Input(e) => e.is_refusal(),
            StoreError::Io { .. } => false,
            _ => true,
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The type as written in a commit subject; `untyped` for a file without one.
fn type_label(memory_type: Option<MemoryType>) -> &'static str {
    memory_type.map_or("untyped", MemoryType::as_str)
}

/// A description is one line that says what the memory is (the index line shows its start).
pub const MAX_DESCRIPTION_CHARS: usize = 1000;
/// An index line's title.
pub const MAX_TITLE_CHARS: usize = 200;

/// A save or update as a user or an agent asks for it.
#[derive(Debug, Clone)]
pub struct SaveRequest<'a> {
    pub name: &'a str,
    pub memory_type: MemoryType,
    pub description: &'a str,
    pub title: Option<&'a str>,
    pub body: &'a str,
    pub session: Option<&'a str>,
}

impl SaveRequest<'_> {
    /// Every check that needs no file: bad input changes nothing.
    pub fn validate(&self) -> Result<(), StoreError> {
        validate_name(self.name)?;
        if self.description.contains(['\n', '\r']) {
            return Err(StoreError::InvalidInput(
                "the description holds a newline; it must be one line".into(),
            ));
        }
        if self.description.chars().any(char::is_control)
            || self.title.is_some_and(|t| t.chars().any(char::is_control))
        {
            return Err(StoreError::InvalidInput(
                "the description and title must not hold control characters".into(),
            ));
        }
        if self.description.trim().is_empty() {
            return Err(StoreError::InvalidInput("the description is empty".into()));
        }
        let too_long = |what: &str, len: usize, cap: usize| {
            StoreError::InvalidInput(format!(
                "the {what} is {len} characters; at most {cap} (the rest belongs in the body)"
            ))
        };
        let description_len = self.description.chars().count();
        if description_len > MAX_DESCRIPTION_CHARS {
            return Err(too_long(
                "description",
                description_len,
                MAX_DESCRIPTION_CHARS,
            ));
        }
        if let Some(title) = self.title
            && title.chars().count() > MAX_TITLE_CHARS
        {
            return Err(too_long("title", title.chars().count(), MAX_TITLE_CHARS));
        }
        if self.body.len() as u64 > MAX_BODY_BYTES {
            return Err(StoreError::Input(crate::input::InputError::TooLarge {
                what: format!("the body ({} bytes)", self.body.len()),
                cap: MAX_BODY_BYTES,
            }));
        }
        if self.body.trim().is_empty() {
            return Err(StoreError::InvalidInput("the body is empty".into()));
        }
        if let Some(title) = self.title
            && title.trim().is_empty()
        {
            return Err(StoreError::InvalidInput("the title is empty".into()));
        }
        IndexLine::for_memory(
            &self.title(),
            &format!("{}.md", self.name),
            self.description,
        )?;
        Ok(())
    }

    /// Every field this save writes somewhere (the file name, the index line, the frontmatter,
    /// the body), by name.
    fn written_fields(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("name", Some(self.name)),
            ("title", self.title),
            ("description", Some(self.description)),
            ("body", Some(self.body)),
        ]
        .into_iter()
        .filter_map(|(field, text)| Some((field, text?)))
    }

    /// Every secret in a field this save writes, as people read it: `a GitHub token in the
    /// title (ghp_****)`, `… on line 3 of the body (…)`. Never the value itself.
    pub fn secret_findings(&self) -> Vec<String> {
        let mut found = Vec::new();
        for (field, text) in self.written_fields() {
            for finding in crate::secrets::scan(text) {
                found.push(if field == "body" {
                    format!(
                        "{} on line {} of the body ({})",
                        finding.kind, finding.line, finding.excerpt
                    )
                } else {
                    format!("{} in the {field} ({})", finding.kind, finding.excerpt)
                });
            }
        }
        found
    }

    /// The first kind of secret in any field this save writes.
    pub fn secret_kind(&self) -> Option<&'static str> {
        self.written_fields()
            .find_map(|(_, text)| crate::secrets::find(text))
    }

    /// The title given, else one made from the name (`pre-commit-lint` → `Pre commit lint`).
    fn title(&self) -> String {
        match self.title {
            Some(title) => title.trim().to_string(),
            None => title_from_name(self.name),
        }
    }
}

/// `pre-commit-lint` → `Pre commit lint`: the title of a memory saved without one.
pub(crate) fn title_from_name(name: &str) -> String {
    let spaced = name.replace('-', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}

/// What happened to the work tree before or during a write, for the user to see.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Adoption {
    /// Commits made, with their subjects.
    pub commits: Vec<(ObjectId, String)>,
    /// Topic files not yet named by the index: a save in progress, or an interrupted one.
    pub unindexed: Vec<String>,
    /// Index lines naming a file that does not exist (yet).
    pub dangling: Vec<String>,
    /// Topic files deleted while the index still names them.
    pub deleted_but_indexed: Vec<String>,
    /// Adopted files whose frontmatter could not be read (adopted as they are, untyped).
    pub unreadable: Vec<String>,
}

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

/// The top-level work-tree files by name.
pub(crate) type WorkTree = std::collections::BTreeMap<String, WorkFile>;

/// Where a mutation starts: HEAD, its tree, and the work tree as scanned once.
pub(crate) struct State {
    pub(crate) parent: Option<ObjectId>,
    pub(crate) tree: TreeMap,
    pub(crate) work: WorkTree,
    /// `*.md` entries memdir will not read (a symlink, a FIFO, a file over its cap): never
    /// committed, never taken for deleted; `doctor` reports them.
    pub(crate) unreadable: BTreeSet<String>,
}

/// A top-level `*.md` entry of the work tree as a mutation sees it.
enum Entry {
    Missing,
    /// There, but not a regular file memdir reads.
    Unreadable,
    File(WorkFile),
}

/// How much of the work tree a mutation looks at before it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scan {
    /// Every file.
    Full,
    /// Only when the directory or `MEMORY.md` changed since `.git/index` was written.
    IfChanged,
}

/// A top-level work-tree file, with the blob id of its content.
pub(crate) struct WorkFile {
    pub(crate) id: ObjectId,
    stat: crate::repo::Stat,
}

/// The memory dir, locked for writing.
pub struct Store {
    pub(crate) dir: PathBuf,
    pub(crate) repo: MemoryRepo,
    /// Held for the store's lifetime: `.git/memdir.lock`, exclusive.
    _lock: File,
}

impl Store {
    /// Open the memory dir for writing, creating it and its repository if needed, and take the
    /// per-dir lock (waiting for other writers).
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(io_error(dir))?;
        let repo = {
            // Two first writers must not both create the repository: serialise on the dir itself.
            let dir_handle = File::open(dir).map_err(io_error(dir))?;
            dir_handle.lock().map_err(io_error(dir))?;
            let (repo, _) = MemoryRepo::open_or_init(dir)?;
            ensure_excludes(repo.git_dir())?;
            repo
        };
        let lock_path = repo.git_dir().join("memdir.lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io_error(&lock_path))?;
        lock.lock().map_err(io_error(&lock_path))?;
        Ok(Store {
            dir: dir.to_path_buf(),
            repo,
            _lock: lock,
        })
    }

    /// Top-level `*.md` regular files and their blob ids, hashing only those whose stat data
    /// does not prove them unchanged since `.git/index` was written (as `git status` does).
    /// Temp files left by a writer that died are removed on the way (the lock is held).
    fn scan(
        &self,
        index: Option<&WorktreeIndex>,
        unreadable: &mut BTreeSet<String>,
    ) -> Result<WorkTree, StoreError> {
        let mut out = WorkTree::new();
        for entry in std::fs::read_dir(&self.dir).map_err(io_error(&self.dir))? {
            let entry = entry.map_err(io_error(&self.dir))?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if name.starts_with('.') && name.ends_with(TEMP_SUFFIX) {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(io_error(&path))?;
                continue;
            }
            if !name.ends_with(".md") || name.starts_with('.') {
                continue;
            }
            match self.work_file(&name, index)? {
                Entry::File(file) => {
                    out.insert(name, file);
                }
                Entry::Unreadable => {
                    unreadable.insert(name);
                }
                Entry::Missing => {}
            }
        }
        Ok(out)
    }

    /// One top-level file as it is now. Its content is hashed unless `.git/index` proves it
    /// unchanged; anything but a regular file under its cap is never read.
    fn work_file(&self, name: &str, index: Option<&WorktreeIndex>) -> Result<Entry, StoreError> {
        let path = self.dir.join(name);
        let (stat, is_file) = match crate::repo::file_stat(&path) {
            Ok(found) => found,
            Err(RepoError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Entry::Missing);
            }
            Err(e) => return Err(e.into()),
        };
        if !is_file {
            return Ok(Entry::Unreadable);
        }
        let id = match index.and_then(|index| index.unchanged_id(name, &stat)) {
            Some(id) => id,
            None => match read_memory_file(&self.dir, name, cap_of(name)) {
                Ok(Some(bytes)) => self.repo.blob_id(&bytes)?,
                Ok(None) => return Ok(Entry::Missing),
                Err(StoreError::Input(e)) if e.is_refusal() => return Ok(Entry::Unreadable),
                Err(e) => return Err(e),
            },
        };
        Ok(Entry::File(WorkFile { id, stat }))
    }

    /// HEAD and the work tree, read once at the start of a mutation. With `Scan::IfChanged`
    /// the directory is not listed when `.git/index` proves nothing was added, removed or
    /// renamed in it since (its mtime is older than the index's) and `MEMORY.md` is unchanged:
    /// then the work tree is what the index records, but for `target` (the file the mutation
    /// is about), which is always looked at. An in-place edit of another tracked topic file is
    /// not seen that way; `snapshot` (run by the hooks after each agent write) always scans in
    /// full.
    pub(crate) fn state(&self, scan: Scan, target: Option<&str>) -> Result<State, StoreError> {
        let index = self.repo.open_index();
        let mut unreadable = BTreeSet::new();
        let work = match (&index, scan) {
            (Some(index), Scan::IfChanged) if self.unchanged_since(index)? => {
                let mut work: WorkTree = index
                    .work_files()
                    .into_iter()
                    .map(|(name, id, stat)| (name, WorkFile { id, stat }))
                    .collect();
                // Never update or delete a file whose latest content is not in history.
                if let Some(target) = target {
                    work.remove(target);
                    match self.work_file(target, Some(index))? {
                        Entry::File(file) => {
                            work.insert(target.to_string(), file);
                        }
                        Entry::Unreadable => {
                            unreadable.insert(target.to_string());
                        }
                        Entry::Missing => {}
                    }
                }
                work
            }
            _ => self.scan(index.as_ref(), &mut unreadable)?,
        };
        Ok(State {
            parent: self.repo.head_commit()?,
            tree: self.repo.head_tree()?,
            work,
            unreadable,
        })
    }

    /// Whether the memory dir provably holds what `.git/index` records, but for in-place edits
    /// of topic files: the racy-git rule applied to the directory and to `MEMORY.md`.
    fn unchanged_since(&self, index: &WorktreeIndex) -> Result<bool, StoreError> {
        let path = self.dir.join(INDEX_FILE);
        let index_file_unchanged = match crate::repo::file_stat(&path) {
            Ok((stat, true)) => index.unchanged_id(INDEX_FILE, &stat).is_some(),
            Ok((_, false)) => false,
            Err(_) => !index.tracks(INDEX_FILE),
        };
        if !index_file_unchanged {
            return Ok(false);
        }
        let dir_mtime = std::fs::metadata(&self.dir)
            .and_then(|m| m.modified())
            .map_err(io_error(&self.dir))?;
        if index
            .mtime()
            .is_some_and(|index_mtime| dir_mtime < index_mtime)
        {
            return Ok(true);
        }
        // The directory changed in the same clock tick as the index, or later: compare its
        // names and inode numbers (from one directory listing, no stat per file) with the
        // index. A file added, removed or replaced by rename shows; a temp file means a writer
        // died, and the full scan removes it.
        let mut seen = 0;
        for entry in std::fs::read_dir(&self.dir).map_err(io_error(&self.dir))? {
            let entry = entry.map_err(io_error(&self.dir))?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if name.ends_with(TEMP_SUFFIX) {
                return Ok(false);
            }
            if !name.ends_with(".md") || name.starts_with('.') {
                continue;
            }
            if !entry_inode(&entry).is_some_and(|ino| index.has_inode(&name, ino)) {
                return Ok(false);
            }
            seen += 1;
        }
        Ok(seen == index.work_files().len())
    }

    /// A work-tree file memdir is about to commit: a regular file inside the memory dir.
    fn read(&self, file: &str) -> Result<Vec<u8>, StoreError> {
        read_memory_file(&self.dir, file, cap_of(file))?.ok_or_else(|| StoreError::Io {
            path: self.dir.join(file),
            source: std::io::ErrorKind::NotFound.into(),
        })
    }

    /// Commit what an agent (or an interrupted save) left in the work tree: one `adopt` commit
    /// per topic file whose index line is there too, then one for remaining index edits.
    pub fn adopt(&mut self, session: Option<&str>) -> Result<Adoption, StoreError> {
        let mut state = self.state(Scan::Full, None)?;
        self.adopt_in(&mut state, session)
    }

    /// [`Store::adopt`] from a state already read; `state` follows the commits it makes.
    pub(crate) fn adopt_in(
        &mut self,
        state: &mut State,
        session: Option<&str>,
    ) -> Result<Adoption, StoreError> {
        let mut adoption = Adoption::default();
        let work = &state.work;
        if state.unreadable.contains(INDEX_FILE) {
            // Never take an index memdir will not read for a deleted one.
            return Err(self.index_refusal());
        }
        if work_matches_tree(work, &state.tree) {
            return Ok(adoption);
        }
        let head_index_text = match state.tree.get(INDEX_FILE.as_bytes()) {
            Some((_, id)) => String::from_utf8_lossy(&self.repo.blob(*id)?).into_owned(),
            None => String::new(),
        };
        let work_index_text = match work.get(INDEX_FILE) {
            Some(w) if state.tree.get(INDEX_FILE.as_bytes()).map(|e| e.1) == Some(w.id) => {
                head_index_text.clone()
            }
            Some(_) => String::from_utf8(self.read(INDEX_FILE)?)
                .map_err(|_| StoreError::IndexNotUtf8(self.dir.join(INDEX_FILE)))?,
            None => String::new(),
        };
        let linked: BTreeSet<String> = Index::parse(&work_index_text)
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .collect();

        let mut names: BTreeSet<&str> = work.keys().map(String::as_str).collect();
        names.extend(
            state
                .tree
                .iter()
                .filter(|(name, (kind, _))| *kind == EntryKind::Blob && name.ends_with(b".md"))
                .filter_map(|(name, _)| std::str::from_utf8(name).ok()),
        );
        names.remove(INDEX_FILE);
        let mut complete = Vec::new();
        for name in names {
            if state.unreadable.contains(name) {
                // Neither adopted nor taken for deleted: doctor reports it.
                continue;
            }
            let in_work = work.get(name).map(|w| w.id);
            let in_head = state.tree.get(name.as_bytes()).map(|(_, id)| *id);
            if in_work == in_head {
                continue;
            }
            match (in_work, in_head) {
                (Some(_), None) if !linked.contains(name) => adoption.unindexed.push(name.into()),
                (None, Some(_)) if linked.contains(name) => {
                    adoption.deleted_but_indexed.push(name.into())
                }
                _ => complete.push(name.to_string()),
            }
        }

        let mut tree = state.tree.clone();
        let mut parent = state.parent;
        let has_index = work.contains_key(INDEX_FILE);
        for name in &complete {
            let (memory_type, description, op_name) = match work.get(name.as_str()) {
                Some(_) => {
                    let bytes = self.read(name)?;
                    let id = self.repo.write_blob(&bytes)?;
                    tree.insert(name.as_str().into(), (EntryKind::Blob, id));
                    self.describe(name, &bytes, &mut adoption)
                }
                None => {
                    let Some((_, id)) = tree.remove(name.as_bytes()) else {
                        continue;
                    };
                    let bytes = self.repo.blob(id)?;
                    self.describe(name, &bytes, &mut adoption)
                }
            };
            let index_text = index_for_tree(&work_index_text, &head_index_text, &tree);
            self.stage_index(&mut tree, has_index.then_some(index_text.as_str()))?;
            let message = commit_message(Op::Adopt, memory_type, &op_name, &description, session);
            let id = self.commit(&tree, parent, &message, work)?;
            adoption.commits.push((id, subject_of(&message)));
            parent = Some(id);
        }

        let before = tree.clone();
        let index_text = index_for_tree(&work_index_text, &head_index_text, &tree);
        self.stage_index(&mut tree, has_index.then_some(index_text.as_str()))?;
        if tree != before {
            let message = commit_message(Op::Adopt, "index", INDEX_FILE, "", session);
            let id = self.commit(&tree, parent, &message, work)?;
            adoption.commits.push((id, subject_of(&message)));
            parent = Some(id);
        }
        let index = Index::parse(&work_index_text);
        adoption.dangling = index
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .filter(|f| is_topic_name(f) && !tree.contains_key(f.as_bytes()))
            .collect();
        state.tree = tree;
        state.parent = parent;
        Ok(adoption)
    }

    /// Why the work tree's `MEMORY.md` cannot be read: the reader's own refusal, or a symlink.
    pub(crate) fn index_refusal(&self) -> StoreError {
        match self.read(INDEX_FILE) {
            Err(e) => e,
            Ok(_) => StoreError::InvalidInput(format!(
                "{} is a symlink: memdir reads and commits only a regular MEMORY.md",
                self.dir.join(INDEX_FILE).display()
            )),
        }
    }

    /// The type, description and name of a topic file for an adopt commit.
    pub(crate) fn describe(
        &self,
        file: &str,
        bytes: &[u8],
        adoption: &mut Adoption,
    ) -> (&'static str, String, String) {
        let name = file.strip_suffix(".md").unwrap_or(file).to_string();
        match std::str::from_utf8(bytes)
            .ok()
            .and_then(|text| TopicFile::parse(text).ok())
        {
            Some(topic) => (
                type_label(topic.memory_type),
                topic.description.unwrap_or_default(),
                name,
            ),
            None => {
                adoption.unreadable.push(file.to_string());
                ("untyped", String::new(), name)
            }
        }
    }

    /// Put `MEMORY.md` with `text` into `tree`, or take it out when the work tree has none.
    fn stage_index(&mut self, tree: &mut TreeMap, text: Option<&str>) -> Result<(), StoreError> {
        match text {
            None => {
                tree.remove(INDEX_FILE.as_bytes());
            }
            Some(text) => {
                let id = self.repo.blob_id(text.as_bytes())?;
                if tree.get(INDEX_FILE.as_bytes()).map(|(_, old)| *old) != Some(id) {
                    self.repo.write_blob(text.as_bytes())?;
                    tree.insert(INDEX_FILE.into(), (EntryKind::Blob, id));
                }
            }
        }
        Ok(())
    }

    /// Commit `tree`; stat data goes to `.git/index` for files whose work content is in it.
    fn commit(
        &mut self,
        tree: &TreeMap,
        parent: Option<ObjectId>,
        message: &str,
        work: &WorkTree,
    ) -> Result<ObjectId, StoreError> {
        Ok(self
            .repo
            .commit(tree, parent, message, &clean_files(tree, work))?)
    }

    /// Write `files` (name and new bytes, or `None` to delete) in this order and commit them
    /// on top of `state` with `message`; `state` follows the commit.
    ///
    /// Durability costs one batch of fsyncs: the temp files and the commit's loose objects are
    /// written first and fsynced together, then each file is renamed into place in order (the
    /// directory fsynced after each, so a crash keeps the order: topic file before index line),
    /// with a fault point after each, and only then does the branch move.
    pub(crate) fn write_and_commit(
        &mut self,
        state: &mut State,
        files: &[(&str, Option<&[u8]>, &str)],
        message: &str,
    ) -> Result<ObjectId, StoreError> {
        let mut tree = state.tree.clone();
        let mut temps = Vec::new();
        let result = (|| {
            for (name, bytes, _) in files {
                match bytes {
                    Some(bytes) => {
                        temps.push(write_temp(&self.dir, name, bytes)?);
                        let id = self.repo.write_blob(bytes)?;
                        tree.insert((*name).into(), (EntryKind::Blob, id));
                    }
                    None => {
                        tree.remove(name.as_bytes());
                    }
                }
            }
            let prepared = self.repo.prepare_commit(&tree, state.parent, message)?;
            let mut to_sync = temps.clone();
            to_sync.extend(prepared.files_to_sync.iter().cloned());
            crate::repo::sync_files(&to_sync)?;
            let mut temps = temps.iter();
            for (name, bytes, fault) in files {
                let target = self.dir.join(name);
                // A temp file stands for each file with content, in order; deletions have none.
                let tmp = if bytes.is_some() { temps.next() } else { None };
                match tmp {
                    Some(tmp) => {
                        std::fs::rename(tmp, &target).map_err(io_error(&target))?;
                        sync_dir(&self.dir)?;
                        let stat = crate::repo::file_stat(&target)?.0;
                        let id = tree.get(name.as_bytes()).map(|(_, id)| *id);
                        if let Some(id) = id {
                            state.work.insert(name.to_string(), WorkFile { id, stat });
                        }
                    }
                    None => {
                        match std::fs::remove_file(&target) {
                            Ok(()) => sync_dir(&self.dir)?,
                            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                            Err(e) => return Err(io_error(&target)(e)),
                        }
                        state.work.remove(*name);
                    }
                }
                crate::fault::point(fault);
            }
            let clean = clean_files(&tree, &state.work);
            Ok(self.repo.publish(prepared, &tree, message, &clean)?)
        })();
        if result.is_err() {
            for tmp in &temps {
                let _ = std::fs::remove_file(tmp);
            }
        }
        let commit = result?;
        state.tree = tree;
        state.parent = Some(commit);
        Ok(commit)
    }

    /// The two-step save: topic file, then index line, then one commit.
    pub fn save(&mut self, request: &SaveRequest<'_>) -> Result<Saved, StoreError> {
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
        let topic = match &existing {
            Some((_, topic)) => topic
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
        let commit = self.write_and_commit(
            &mut state,
            &[
                (&file, Some(topic_text.as_bytes()), "after-topic"),
                (INDEX_FILE, Some(new_index_text.as_bytes()), "after-index"),
            ],
            &message,
        )?;
        warnings.extend(index_size_warnings(&new_index_text));
        Ok(Saved {
            commit: Some(commit),
            op,
            file,
            adoption,
            warnings,
        })
    }

    /// Commit `file` as it stands in the work tree when HEAD does not hold that content (an
    /// interrupted save, or an agent's file still waiting for its index line), so that
    /// replacing or deleting it next loses nothing. The file itself is not rewritten.
    pub(crate) fn keep_in_history(
        &mut self,
        state: &mut State,
        file: &str,
        session: Option<&str>,
    ) -> Result<Option<(ObjectId, String)>, StoreError> {
        let Some(work) = state.work.get(file) else {
            return Ok(None);
        };
        if state.tree.get(file.as_bytes()).map(|(_, id)| *id) == Some(work.id) {
            return Ok(None);
        }
        let bytes = self.read(file)?;
        let (memory_type, description, name) =
            self.describe(file, &bytes, &mut Adoption::default());
        let message = commit_message(Op::Adopt, memory_type, &name, &description, session);
        let mut tree = state.tree.clone();
        let id = self.repo.write_blob(&bytes)?;
        tree.insert(file.into(), (EntryKind::Blob, id));
        let commit = self.commit(&tree, state.parent, &message, &state.work)?;
        state.tree = tree;
        state.parent = Some(commit);
        Ok(Some((commit, subject_of(&message))))
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
    fn remove_as(
        &mut self,
        name: &str,
        session: Option<&str>,
        op: Op,
        note: &str,
        trailers: &[(&str, &str)],
    ) -> Result<Removed, StoreError> {
        validate_stored_name(name)?;
        let file = format!("{name}.md");
        let path = self.dir.join(&file);
        check_inside(&self.dir, &path)?;
        let index_path = self.dir.join(INDEX_FILE);
        check_inside(&self.dir, &index_path)?;
        let mut state = self.state(Scan::IfChanged, Some(&file))?;
        let exists = state.work.contains_key(&file) || state.unreadable.contains(&file);
        if !exists
            && Index::parse(&read_index(&self.dir)?)
                .entry_for(&file)
                .is_none()
        {
            // Refused before anything is adopted: exit 2 changes nothing.
            return Err(StoreError::NotFound(name.to_string()));
        }
        let mut adoption = self.adopt_in(&mut state, session)?;
        if let Some(kept) = self.keep_in_history(&mut state, &file, session)? {
            adoption.commits.push(kept);
        }
        let mut index = Index::parse(&read_index(&self.dir)?);
        let had_line = index.remove(&file);
        let (memory_type, description) = match read_memory_file(&self.dir, &file, cap_of(&file)) {
            Ok(Some(bytes)) => {
                let topic = std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|t| TopicFile::parse(t).ok());
                (
                    type_label(topic.as_ref().and_then(|t| t.memory_type)),
                    topic.and_then(|t| t.description).unwrap_or_default(),
                )
            }
            // Only the line is left, or the file is one memdir never reads (a FIFO, a file over
            // its cap): it goes unread.
            Ok(None) => ("untyped", String::new()),
            Err(e) if e.is_invalid_input() => ("untyped", String::new()),
            Err(e) => return Err(e),
        };
        let new_index_text = index.render();
        let mut steps: Vec<(&str, Option<&[u8]>, &str)> = Vec::new();
        if had_line {
            steps.push((INDEX_FILE, Some(new_index_text.as_bytes()), "after-index"));
        }
        steps.push((&file, None, "after-topic"));
        let body = match (description.trim(), note.trim()) {
            (description, "") => description.to_string(),
            ("", note) => note.to_string(),
            (description, note) => format!("{description}\n\n{note}"),
        };
        let message = commit_message_with(op, memory_type, name, &body, session, trailers);
        let commit = self.write_and_commit(&mut state, &steps, &message)?;
        Ok(Removed {
            commit,
            file,
            adoption,
        })
    }
}

/// The work index as it may be committed with `tree`: entry lines naming a top-level file that
/// `tree` does not hold are left out (a save in progress), unless HEAD's index had them too.
/// Nothing else is touched, so when nothing is left out the bytes are the work file's own.
fn index_for_tree(work_index: &str, head_index: &str, tree: &TreeMap) -> String {
    let head_lines: BTreeSet<&str> = head_index.lines().collect();
    work_index
        .split_inclusive('\n')
        .filter(|line| match IndexLine::parse(line) {
            Some(entry) => {
                let file = entry.file_name();
                !is_topic_name(file)
                    || tree.contains_key(file.as_bytes())
                    || head_lines.contains(line.trim_end_matches(['\n', '\r']))
            }
            None => true,
        })
        .collect()
}

/// A file name that could be a topic file: top level, `.md`, not the index.
fn is_topic_name(file: &str) -> bool {
    file.ends_with(".md") && !file.contains('/') && !file.contains('\\') && file != INDEX_FILE
}

/// The size cap of a memory-dir file memdir reads: the index's, or a topic file's.
fn cap_of(file: &str) -> u64 {
    if file == INDEX_FILE {
        MAX_INDEX_BYTES
    } else {
        MAX_TOPIC_FILE_BYTES
    }
}

/// `MEMORY.md`'s text, for a writer; empty when it does not exist. An index that is not a
/// regular file inside the memory dir, is over Claude Code's 4 MiB read limit or is not UTF-8
/// is refused (`memdir doctor` says what is wrong; `--fix` repairs bad UTF-8).
pub fn read_index(dir: &Path) -> Result<String, StoreError> {
    let bytes = read_memory_file(dir, INDEX_FILE, MAX_INDEX_BYTES)?.unwrap_or_default();
    String::from_utf8(bytes).map_err(|_| StoreError::IndexNotUtf8(dir.join(INDEX_FILE)))
}

/// A file of the memory dir, or `None` when there is none: only a regular file (a FIFO or a
/// device is refused without a blocking open), only inside the memory dir (a symlink that
/// leaves it is refused), and only up to `cap` bytes.
pub fn read_memory_file(dir: &Path, file: &str, cap: u64) -> Result<Option<Vec<u8>>, StoreError> {
    let path = dir.join(file);
    check_inside(dir, &path)?;
    match crate::input::read_regular(&path, cap) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A path in the memory dir that is a symlink must resolve inside it (§10).
pub fn check_inside(dir: &Path, path: &Path) -> Result<(), StoreError> {
    match crate::paths::symlink_escape(path, dir).map_err(io_error(path))? {
        None => Ok(()),
        Some(target) => Err(StoreError::Outside {
            path: path.to_path_buf(),
            target,
        }),
    }
}

/// A directory entry's inode number, where the platform has one.
#[cfg(unix)]
fn entry_inode(entry: &std::fs::DirEntry) -> Option<u64> {
    Some(std::os::unix::fs::DirEntryExt::ino(entry))
}

#[cfg(not(unix))]
fn entry_inode(_entry: &std::fs::DirEntry) -> Option<u64> {
    None
}

/// Whether every `*.md` file of the work tree is exactly what `tree` holds, and vice versa.
pub(crate) fn work_matches_tree(work: &WorkTree, tree: &TreeMap) -> bool {
    let tracked = tree
        .iter()
        .filter(|(name, (kind, _))| *kind == EntryKind::Blob && name.ends_with(b".md"));
    tracked.clone().count() == work.len()
        && tracked.into_iter().all(|(name, (_, id))| {
            std::str::from_utf8(name)
                .ok()
                .and_then(|name| work.get(name))
                .is_some_and(|w| w.id == *id)
        })
}

/// The stat data for `.git/index` of the work-tree files whose content `tree` holds.
fn clean_files(tree: &TreeMap, work: &WorkTree) -> CleanFiles {
    work.iter()
        .filter(|(name, w)| tree.get(name.as_bytes()).is_some_and(|(_, id)| *id == w.id))
        .map(|(name, w)| (BString::from(name.as_str()), w.stat))
        .collect()
}

/// Write `bytes` to a temp file beside `dir/file` (not yet fsynced); the caller fsyncs it and
/// renames it into place.
fn write_temp(dir: &Path, file: &str, bytes: &[u8]) -> Result<PathBuf, StoreError> {
    let tmp = crate::atomic::temp_path(&dir.join(file));
    let written = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&tmp)
        .and_then(|mut out| out.write_all(bytes));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_error(&tmp)(e));
    }
    Ok(tmp)
}

fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    Ok(crate::repo::sync_dir(dir)?)
}

/// Add memdir's lines to `.git/info/exclude` once.
fn ensure_excludes(git_dir: &Path) -> Result<(), StoreError> {
    let info = git_dir.join("info");
    let path = info.join("exclude");
    let current = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io_error(&path)(e)),
    };
    if current.contains(EXCLUDES) {
        return Ok(());
    }
    std::fs::create_dir_all(&info).map_err(io_error(&info))?;
    let mut text = current;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(EXCLUDES);
    std::fs::write(&path, text).map_err(io_error(&path))
}

/// Warnings when the index nears (80 %) or passes Claude Code's load caps.
pub fn index_size_warnings(index_text: &str) -> Vec<String> {
    let size = measure_index(index_text);
    let over = size.lines > MAX_INDEX_LINES || size.units > MAX_INDEX_UNITS;
    if over {
        const NAMED: usize = 10;
        let invisible: Vec<String> = crate::memory::load::invisible_entries(index_text)
            .into_iter()
            .map(|e| e.file_name().trim_end_matches(".md").to_string())
            .collect();
        let mut names = invisible[..invisible.len().min(NAMED)].join(", ");
        if invisible.len() > NAMED {
            names.push_str(&format!(
                " and {} more (memdir index --json lists them)",
                invisible.len() - NAMED
            ));
        }
        vec![format!(
            "MEMORY.md is {} lines and {} characters, over Claude Code's load limit ({MAX_INDEX_LINES} lines, {MAX_INDEX_UNITS} characters): {} entr{} no longer loaded: {names}",
            size.lines,
            size.units,
            invisible.len(),
            if invisible.len() == 1 {
                "y is"
            } else {
                "ies are"
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_from_names() {
        assert_eq!(title_from_name("pre-commit-lint"), "Pre commit lint");
        assert_eq!(title_from_name("x"), "X");
    }

    #[test]
    fn in_progress_lines_are_held_back() {
        let mut tree = TreeMap::new();
        let id = ObjectId::null(gix::hash::Kind::Sha1);
        tree.insert("a.md".into(), (EntryKind::Blob, id));
        let work =
            "# Index\n- [A](a.md) — one\n- [B](b.md) — two\n- [Web](https://x.y/z.md) — link\n";
        assert_eq!(
            index_for_tree(work, "", &tree),
            "# Index\n- [A](a.md) — one\n- [Web](https://x.y/z.md) — link\n"
        );
        // A dangling line that HEAD already had stays.
        assert_eq!(index_for_tree(work, "- [B](b.md) — two\n", &tree), work);
    }
}
