//! Carrying out what an extractor asks (DESIGN §6, §10): every save and delete checked — name,
//! type, size, secrets, a file planted where the memory would go — then done through the store's
//! two-step save and removal, or, in a dry run, only said. Whoever asked (the builtin extractor
//! or a model), a refusal is an outcome, not an error.
//!
//! An update never destroys a different fact: a save under an existing name that drops most of
//! what that memory said is an update only when the person corrects it in the range (they name
//! what it said, or correct the same subject: "actually", "no longer", "moved to"). Otherwise the
//! new statement is saved as a memory of its own beside the old one, and the outcome says so.

use std::collections::BTreeMap;
use std::path::Path;

use gix::ObjectId;

use crate::extract::{Action, Draft, MAX_BODY_BYTES, Outcome, builtin};
use crate::memory::catalog::read_memory;
use crate::memory::statement::{dropped_words, words};
use crate::memory::store::{INDEX_FILE, Op, SaveRequest, Store, StoreError};
use crate::memory::taxonomy::MemoryType;

/// Carries out one run's actions, for real or (`dry_run`) only saying what would change.
pub struct Carrier<'a> {
    dir: &'a Path,
    session: Option<&'a str>,
    dry_run: bool,
    /// The person's words in the range: what tells a correction from a different fact.
    said: String,
    /// Held while actions come in a row; let go while a model thinks ([`Carrier::release`]).
    store: Option<Store>,
    /// A dry run's changes so far, by name (`None`: removed), so that later actions see them.
    planned: BTreeMap<String, Option<Memory>>,
    /// The commits made so far, oldest first (what a save adopted before it, then the save).
    commits: Vec<ObjectId>,
}

/// A memory's words, as the update check compares them.
#[derive(Debug, Clone)]
struct Memory {
    memory_type: MemoryType,
    description: String,
    body: String,
}

impl<'a> Carrier<'a> {
    pub fn new(dir: &'a Path, session: Option<&'a str>, said: String, dry_run: bool) -> Self {
        Carrier {
            dir,
            session,
            dry_run,
            said,
            store: None,
            planned: BTreeMap::new(),
            commits: Vec::new(),
        }
    }

    /// The commits its actions made, oldest first.
    pub fn commits(&self) -> &[ObjectId] {
        &self.commits
    }

    /// Let go of the store's lock (other writers may go ahead while a model thinks).
    pub fn release(&mut self) {
        self.store = None;
    }

    /// Check an action and carry it out (or, in a dry run, say what it would do).
    pub fn carry(&mut self, action: &Action) -> Result<Outcome, StoreError> {
        match action {
            Action::Save(draft) => self.save(draft),
            Action::Delete { name } => self.delete(name),
        }
    }

    fn save(&mut self, draft: &Draft) -> Result<Outcome, StoreError> {
        let request = SaveRequest {
            name: &draft.name,
            memory_type: draft.memory_type,
            description: &draft.description,
            title: draft.title.as_deref(),
            body: &draft.body,
            session: self.session,
        };
        if let Some(kind) = request.secret_kind() {
            // Not even the name is echoed: it may be the secret.
            return Ok(Outcome::Refused {
                what: format!("a {} memory", draft.memory_type),
                why: format!("it holds {kind}; secrets are never saved"),
            });
        }
        let what = format!("save {}", draft.name);
        if draft.body.len() > MAX_BODY_BYTES {
            return Ok(Outcome::Refused {
                what,
                why: format!(
                    "the body is {} bytes; a memory holds one fact, under {MAX_BODY_BYTES}",
                    draft.body.len()
                ),
            });
        }
        if let Err(e) = request.validate() {
            return Ok(Outcome::Refused {
                what,
                why: e.to_string(),
            });
        }
        if let Some(why) = planted(self.dir, &format!("{}.md", draft.name))
            .or_else(|| planted(self.dir, INDEX_FILE))
        {
            return Ok(Outcome::Refused { what, why });
        }
        if let Some(old) = self.current(&draft.name)
            && let Some(dropped) = dropped_words(
                &format!("{} {}", old.description, old.body),
                &format!("{} {}", draft.description, draft.body),
            )
            && !corrects(&self.said, &old, &dropped)
        {
            let apart = Draft {
                name: self.free_name(draft),
                ..draft.clone()
            };
            return Ok(match self.save_checked(&apart)? {
                Outcome::Saved {
                    name,
                    r#type,
                    description,
                } => Outcome::SavedApart {
                    name,
                    r#type,
                    description,
                    not_updated: draft.name.clone(),
                    why: format!(
                        "it would have dropped what {} says ({}) and nothing said in the session corrects that",
                        draft.name,
                        dropped
                            .iter()
                            .take(5)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                },
                other => other,
            });
        }
        self.save_checked(draft)
    }

    /// Save a draft that passed every check.
    fn save_checked(&mut self, draft: &Draft) -> Result<Outcome, StoreError> {
        let name = draft.name.clone();
        let r#type = draft.memory_type.as_str().to_string();
        let description = draft.description.clone();
        let op = if self.dry_run {
            let old = self.current(&name);
            self.planned.insert(
                name.clone(),
                Some(Memory {
                    memory_type: draft.memory_type,
                    description: draft.description.clone(),
                    body: draft.body.clone(),
                }),
            );
            match old {
                None => Some(Op::Save),
                Some(old)
                    if old.memory_type == draft.memory_type
                        && old.description == draft.description
                        && old.body.trim() == draft.body.trim() =>
                {
                    None
                }
                Some(_) => Some(Op::Update),
            }
        } else {
            let session = self.session;
            let saved = self.store()?.save(&SaveRequest {
                name: &draft.name,
                memory_type: draft.memory_type,
                description: &draft.description,
                title: draft.title.as_deref(),
                body: &draft.body,
                session,
            })?;
            self.commits
                .extend(saved.adoption.commits.iter().map(|(id, _)| *id));
            self.commits.extend(saved.commit);
            saved.commit.map(|_| saved.op)
        };
        Ok(match op {
            None => Outcome::Unchanged { name },
            Some(Op::Update) => Outcome::Updated {
                name,
                r#type,
                description,
            },
            Some(_) => Outcome::Saved {
                name,
                r#type,
                description,
            },
        })
    }

    fn delete(&mut self, name: &str) -> Result<Outcome, StoreError> {
        let what = format!("delete {name}");
        if let Err(e) = crate::memory::taxonomy::validate_name(name) {
            return Ok(Outcome::Refused {
                what,
                why: e.to_string(),
            });
        }
        if let Some(why) =
            planted(self.dir, &format!("{name}.md")).or_else(|| planted(self.dir, INDEX_FILE))
        {
            return Ok(Outcome::Refused { what, why });
        }
        let exists = match self.planned.get(name) {
            Some(planned) => planned.is_some(),
            None => self.dir.join(format!("{name}.md")).is_file(),
        };
        if !exists {
            return Ok(Outcome::Refused {
                what,
                why: "there is no such memory".into(),
            });
        }
        if self.dry_run {
            self.planned.insert(name.to_string(), None);
        } else {
            let session = self.session;
            let removed = self.store()?.remove(name, session)?;
            self.commits
                .extend(removed.adoption.commits.iter().map(|(id, _)| *id));
            self.commits.push(removed.commit);
        }
        Ok(Outcome::Removed {
            name: name.to_string(),
        })
    }

    fn store(&mut self) -> Result<&mut Store, StoreError> {
        match &mut self.store {
            Some(store) => Ok(store),
            slot => Ok(slot.insert(Store::open(self.dir)?)),
        }
    }

    /// The memory under `name` now (a dry run's plans first); `None` when there is none or it
    /// cannot be read.
    fn current(&self, name: &str) -> Option<Memory> {
        if let Some(planned) = self.planned.get(name) {
            return planned.clone();
        }
        let (memory, _, topic) = read_memory(self.dir, name).ok()?;
        Some(Memory {
            memory_type: memory.memory_type?,
            description: memory.description.unwrap_or_default(),
            body: topic.body,
        })
    }

    /// A name for a draft kept apart from the memory it would have replaced: from the words of
    /// its description, made unique.
    fn free_name(&self, draft: &Draft) -> String {
        let base = builtin::name_for(&draft.description, draft.memory_type);
        let base = if base == draft.name {
            format!("{base}-2")
        } else {
            base
        };
        let taken = |name: &str| {
            self.current(name).is_some() || self.dir.join(format!("{name}.md")).exists()
        };
        let mut name = base.clone();
        let mut n = 2;
        while taken(&name) {
            let suffix = format!("-{n}");
            let keep = base.len().min(64 - suffix.len());
            name = format!("{}{suffix}", base[..keep].trim_end_matches('-'));
            n += 1;
        }
        name
    }
}

/// Whether the person's words correct the memory `old`: one of their sentences corrects
/// ("actually", "no longer", "moved to", "X, not Y") and is about what the memory says or
/// names what the update drops. Naming the old value alone is no correction ("the rota is in
/// PagerDuty; the runbook stays in Notion").
fn corrects(said: &str, old: &Memory, dropped: &[String]) -> bool {
    let about: Vec<String> = words(&format!("{} {}", old.description, old.body));
    said.split(['.', '!', '?', '\n', '。', '！', '？', '；', ';'])
        .filter(|sentence| builtin::is_correction(sentence))
        .any(|sentence| {
            let sentence_words = words(sentence);
            sentence_words
                .iter()
                .any(|w| about.contains(w) || dropped.contains(w))
                || dropped
                    .iter()
                    .any(|d| !d.is_ascii() && sentence.contains(d.as_str()))
        })
}

/// Why `file` of the memory dir, when it is there but is not a regular file: a symlink (to
/// `/etc/passwd`, `~/.bashrc`), a FIFO, a directory. An agent can plant one; memdir neither reads
/// nor writes through it (DESIGN §10).
pub fn planted(dir: &Path, file: &str) -> Option<String> {
    let meta = std::fs::symlink_metadata(dir.join(file)).ok()?;
    (!meta.is_file()).then(|| {
        format!(
            "{file} in the memory dir is not a regular file ({}); memdir neither reads nor writes through it",
            crate::input::describe_kind(&meta)
        )
    })
}
