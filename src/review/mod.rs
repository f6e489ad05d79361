//! Review and promotion (DESIGN §7, §9): check memories against the project (`verify`), audit
//! every layer and propose what should move where (`audit`), and turn an accepted proposal into a
//! branch a person merges with ordinary git (`promote`, `proposals`). Nothing here changes an
//! instruction file itself.

pub mod audit;
pub mod consolidate;
pub mod promote;
pub mod proposals;
pub mod rule;
pub mod verify;
