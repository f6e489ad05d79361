//! Team memory (DESIGN §8): a memory dir shared through a git remote the team owns: joining it
//! (`init`), syncing it (`sync`), where it stands (`status`). The transport, the guard and
//! the conflicts are [`crate::sync`]'s, shared with personal sync; it merges with
//! [`crate::memory::merge`].

pub use error::TeamError;

pub mod error;
pub mod init;
pub mod status;
pub mod sync;
