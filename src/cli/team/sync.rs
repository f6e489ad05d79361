//! `memdir team sync`: commit what is pending, fetch, merge, push (never forced), and say what
//! happened (the library is [`crate::team::sync`]).

use std::path::Path;

use crate::Error;
use crate::cli::Output;
use crate::team::sync;

pub fn run(dir: &Path, json: bool, output: &mut Output<'_>) -> Result<(), Error> {
    super::require(dir)?;
    let synced = sync::sync(dir)?;
    crate::team::status::record_sync(dir)?;
    if json {
        let value = serde_json::to_value(&synced).map_err(|e| Error::Io {
            context: "encoding the sync report".into(),
            source: std::io::Error::other(e),
        })?;
        return output.json(&value);
    }
    for subject in &synced.adopted {
        output.info(&format!("committed {subject}"))?;
    }
    for found in &synced.incoming_secrets {
        output.warn(&format!(
            "{found}: a secret came from the team remote; it is the teammate's to remove (memdir review lists it)"
        ))?;
    }
    for conflict in &synced.conflicts {
        output.warn(&format!(
            "{} was changed on both sides: theirs is kept as {} (indexed); merge them by hand",
            conflict.file, conflict.kept_as
        ))?;
    }
    output.info(&format!(
        "{}{}",
        synced.integrated,
        if synced.pushed { "; pushed" } else { "" }
    ))
}
