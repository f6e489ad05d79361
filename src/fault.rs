//! The test-only fault switch (issue 2's crash-safety tests): with the `fault-injection` feature,
//! `MEMDIR_FAULT=<point>` aborts the process at that point of a mutation, as a crash or a power
//! cut would. Without the feature (every release build) a point compiles to nothing.
//!
//! Points: `after-topic` (topic file written, index not), `after-index` (both written, nothing
//! committed), `before-ref` (objects written, branch not moved), `extract-mid-run` (an extraction
//! run has carried out its first action, its cursor not moved), `pack-before-naming` (a pack and
//! its index written and fsynced, not yet in the pack folder). `MEMDIR_FAULT=panic-in-tool`
//! panics inside an MCP tool call instead (a bug the server must survive).
//! `MEMDIR_FAULT_DELAY_MS=<n>` makes each extraction run take at least that long (to test the
//! background worker's coalescing).

#[cfg(feature = "fault-injection")]
pub fn point(name: &str) {
    if std::env::var("MEMDIR_FAULT").is_ok_and(|v| v == name) {
        std::process::abort();
    }
}

#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn point(_name: &str) {}

/// Panic at this point when `MEMDIR_FAULT=<name>` (with the feature; nothing without it).
#[cfg(feature = "fault-injection")]
pub fn panic_point(name: &str) {
    if std::env::var("MEMDIR_FAULT").is_ok_and(|v| v == name) {
        panic!("MEMDIR_FAULT={name}");
    }
}

#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn panic_point(_name: &str) {}

/// Slow an extraction run down by `MEMDIR_FAULT_DELAY_MS` (tests of the background worker).
#[cfg(feature = "fault-injection")]
pub fn delay() {
    if let Some(ms) = std::env::var("MEMDIR_FAULT_DELAY_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn delay() {}
