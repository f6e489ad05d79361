//! memdir's integration tests: the real binary in a hermetic environment, every repository it
//! writes checked with the real `git` program.

// The quality and review tests print their figures for `--nocapture`; the lints against stray
// output are for the product.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

mod adopt;
mod agent;
mod bad_input;
mod completions;
mod concurrency;
mod consolidate;
mod consolidate_quality;
mod context;
#[cfg(feature = "fault-injection")]
mod crash;
mod doctor;
mod edit;
mod exit_codes;
mod extract;
mod extract_calls;
mod extract_update;
mod history;
mod hooks;
mod hooks_uninstall;
mod hostile;
mod hostile_extract;
mod hostile_team;
mod json_vocabulary;
mod labels;
mod layers;
mod man;
mod mcp;
mod mcp_python;
mod merge;
mod pack;
mod paths;
mod personal;
mod plugin;
mod promote;
mod quality;
mod recall;
mod recall_cache;
mod recall_quality;
mod recall_tiers;
mod revert;
mod review;
mod save;
mod secrets;
mod snapshots;
mod team;
mod terminal;
mod transcripts;
mod truncate;
mod undo;
mod undo_property;
mod verify;
