//! `memdir team sync`: commit what is pending, fetch, merge, push (never forced), and say what
//! happened (the library is [`crate::team::sync`]).

use std::path::Path;

use crate::Error;
use crate::cli::Output;
use crate::cli::sync::{counts, report, to_json};
use crate::team::sync;

pub fn run(dir: &Path, json: bool, output: &mut Output<'_>) -> Result<(), Error> {
    super::require(dir)?;
    let synced = sync::sync(dir)?;
    crate::sync::state::record_sync(&dir.join(".git"), crate::team::status::STATE)?;
    if json {
        return output.json(&to_json(&synced)?);
    }
    for subject in &synced.adopted {
        output.info(&format!("committed {subject}"))?;
    }
    for found in &synced.incoming_secrets {
        output.warn(&format!(
            "{found}: a secret came from the team remote; it is the teammate's to remove (memdir review lists it)"
        ))?;
    }
    report(
        output,
        &synced.foreign,
        &synced.dropped,
        &synced.conflicts,
        "memdir team resolve",
    )?;
    output.info(&format!(
        "{}{}{}",
        synced.integrated,
        counts(&synced.changed),
        if synced.pushed { "; pushed" } else { "" }
    ))
}
