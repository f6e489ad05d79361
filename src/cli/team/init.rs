//! `memdir team init --remote URL`: join a team (the library is [`crate::team::init`]).

use std::path::Path;

use crate::Error;
use crate::cli::Output;
use crate::repo::remote_url::shown;
use crate::team::init::Joined;

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
    let joined = crate::team::init::init(memory_dir, dir, url, &exe)?;
    if json {
        let (changed, foreign, dropped) = match &joined {
            Joined::Cloned {
                changed,
                foreign,
                dropped,
            } => (
                crate::cli::sync::to_json(changed)?,
                crate::cli::sync::to_json(foreign)?,
                crate::cli::sync::to_json(dropped)?,
            ),
            Joined::Already => Default::default(),
        };
        return output.json(&serde_json::json!({
            "path": dir,
            "remote": shown(url),
            "joined": matches!(joined, Joined::Cloned { .. }),
            "changed": changed,
            "foreign": foreign,
            "dropped": dropped,
        }));
    }
    match joined {
        Joined::Already => output.info(&format!(
            "team memory at {} already syncs with {}: nothing to do",
            dir.display(),
            shown(url)
        )),
        Joined::Cloned {
            changed,
            foreign,
            dropped,
        } => {
            crate::cli::sync::report(output, &foreign, &dropped, &[], "memdir team resolve")?;
            let memories = changed
                .iter()
                .filter(|c| c.file != crate::memory::store::INDEX_FILE)
                .count();
            output.info(&format!(
                "team memory at {} (remote {}): {memories} {}",
                dir.display(),
                shown(url),
                if memories == 1 { "memory" } else { "memories" }
            ))
        }
    }
}
