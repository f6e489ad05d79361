//! memdir's integration tests: the real binary in a hermetic environment, every repository it
//! writes checked with the real `git` program.

mod common;

mod adopt;
mod agent;
mod bad_input;
mod concurrency;
mod context;
#[cfg(feature = "fault-injection")]
mod crash;
mod doctor;
mod extract;
mod history;
mod hooks;
mod hostile;
mod hostile_extract;
mod hostile_team;
mod merge;
mod paths;
mod promote;
mod quality;
mod review;
mod save;
mod secrets;
mod team;
mod transcripts;
mod truncate;
mod verify;
