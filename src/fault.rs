//! The test-only fault switch (issue 2's crash-safety tests): with the `fault-injection` feature,
//! `MEMDIR_FAULT=<point>` aborts the process at that point of a mutation, as a crash or a power
//! cut would. Without the feature (every release build) a point compiles to nothing.
//!
//! Points: `after-topic` (topic file written, index not), `after-index` (both written, nothing
//! committed), `before-ref` (objects written, branch not moved).

#[cfg(feature = "fault-injection")]
pub fn point(name: &str) {
    if std::env::var("MEMDIR_FAULT").is_ok_and(|v| v == name) {
        std::process::abort();
    }
}

#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn point(_name: &str) {}
