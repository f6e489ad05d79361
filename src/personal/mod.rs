//! Personal memory across machines (DESIGN §8, `memdir sync`): the memory of each project kept in
//! step with a private git remote of the person's, one remote for all their projects, through
//! the merge engine, transport and guard team memory uses ([`crate::sync`]).
//!
//! - [`config`]: memdir's user config, where the remote is kept;
//! - [`identity`]: what a project is known by across clones and machines, and its branch in the
//!   remote;
//! - [`sync`]: one sync of a memory dir with its branch.

pub use error::PersonalError;

pub mod config;
pub mod error;
pub mod identity;
pub mod sync;
