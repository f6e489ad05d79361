//! `memdir team init --remote URL`: join a team (the library is [`crate::team::init`]).

use std::path::Path;

use crate::Error;
use crate::cli::Output;

pub fn run(
    memory_dir: &Path,
    dir: &Path,
    url: &str,
    json: bool,
    output: &mut Output<'_>,
) -> Result<(), Error> {
    let exe = std::env::current_exe().map_err(|source| Error::Io {
        context: "finding the memdir executable".into(),
        source,
    })?;
    crate::team::init::init(memory_dir, dir, url, &exe)?;
    if json {
        return output.json(&serde_json::json!({"path": dir.display().to_string(), "remote": url}));
    }
    output.info(&format!("team memory at {} (remote {url})", dir.display()))
}
