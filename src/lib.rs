//! memdir: durable, git-native memory for AI coding agents, in the exact on-disk layout that
//! Claude Code 2.1.x reads (DESIGN §1).
//!
//! The library never prints and never exits: commands write to the [`cli::Output`] they are
//! given, and errors carry their exit code ([`Error::exit_code`]).
#![forbid(unsafe_code)]

pub mod atomic;
pub mod cli;
pub mod env;
pub mod extract;
pub mod fault;
pub mod glob;
pub mod history;
pub mod hooks;
pub mod input;
pub mod js;
pub mod lexical;
pub mod log_file;
pub mod memory;
pub mod model;
pub mod paths;
pub mod personal;
pub mod process;
pub mod recall;
pub mod repo;
pub mod review;
pub mod secrets;
pub mod settings;
pub mod shell;
pub mod stack;
pub mod sync;
pub mod team;
pub mod walk;

pub use cli::error::Error;
