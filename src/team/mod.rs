//! Team memory (DESIGN §8): a memory dir shared through a git remote, and how it merges.

pub use error::TeamError;

pub mod error;
pub mod guard;
pub mod init;
pub mod merge;
pub mod remote;
pub mod status;
pub mod sync;
