//! Refs of the memory dir's repository read and set by name (DESIGN §8): the remote-tracking
//! refs a sync reads, and memdir's own bookkeeping outside `refs/heads/` (where personal sync
//! keeps the tip it last synced with, `refs/memdir/sync/`).

use gix::ObjectId;

use crate::repo::commit::signatures_of;
use crate::repo::{MemoryRepo, RepoError};

impl MemoryRepo {
    /// The commit a full ref name points to, if the ref exists.
    pub fn ref_commit(&self, name: &str) -> Result<Option<ObjectId>, RepoError> {
        let Some(mut reference) = self
            .repo
            .try_find_reference(name)
            .map_err(|e| self.err(e))?
        else {
            return Ok(None);
        };
        let id = reference.peel_to_id().map_err(|e| self.err(e))?;
        Ok(Some(id.detach()))
    }

    /// Point the ref `name` (a full name outside `refs/heads/`: memdir's own bookkeeping) at
    /// `commit`, whatever it pointed to; `None` deletes it.
    pub fn set_ref(&self, name: &str, commit: Option<ObjectId>) -> Result<(), RepoError> {
        use gix::refs::transaction::{Change, LogChange, PreviousValue, RefEdit, RefLog};
        let change = match commit {
            Some(id) => Change::Update {
                log: LogChange {
                    mode: RefLog::AndReference,
                    force_create_reflog: false,
                    message: "memdir sync".into(),
                },
                expected: PreviousValue::Any,
                new: gix::refs::Target::Object(id),
            },
            None => Change::Delete {
                expected: PreviousValue::Any,
                log: RefLog::AndReference,
            },
        };
        let edit = RefEdit {
            change,
            name: name
                .try_into()
                .map_err(|e| self.err(gix::Error::from_error(e)))?,
            deref: false,
        };
        let (_, committer) = signatures_of(&self.repo).map_err(|e| self.err(e))?;
        self.repo
            .edit_references_as(Some(edit), Some(committer.to_ref(&mut Default::default())))
            .map_err(|e| self.err(e))?;
        Ok(())
    }
}
