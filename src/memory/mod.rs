//! The memory formats (DESIGN §3): taxonomy, topic files, the `MEMORY.md` index and its
//! load-time truncation, and the store that turns every two-step save into one commit (§4).

pub mod age;
pub mod calendar;
pub mod catalog;
pub mod dates;
pub mod diff;
pub mod doctor;
pub mod index;
pub mod load;
pub mod merge;
pub mod statement;
pub mod store;
pub mod taxonomy;
pub mod topic;
