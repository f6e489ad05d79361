//! Team memory (DESIGN §8): a memory dir shared through a git remote (it merges with
//! [`crate::memory::merge`]).

pub use error::TeamError;

pub mod error;
pub mod guard;
pub mod init;
pub mod remote;
pub mod status;
pub mod sync;
