//! `memdir team`: team memory through a git remote the team already owns (DESIGN §8).

use std::path::Path;

use crate::Error;
use crate::cli::{Ctx, Output};
use crate::memory::store::Store;
use crate::team::remote::{self, Fetched};
use crate::team::sync::{self, is_team_repo, register_merge_driver, team_dir};

/// Share memory with a team through a git remote: `<memory dir>/team/`.
#[derive(Debug, clap::Args)]
pub struct TeamArgs {
    #[command(subcommand)]
    pub command: TeamCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum TeamCommand {
    /// Clone the team's remote into <memory dir>/team (an empty remote starts an empty team
    /// memory) and register memdir's MEMORY.md merge driver.
    Init {
        /// The remote, as git takes it (ssh, https, a path).
        #[arg(long, value_name = "URL")]
        remote: String,
    },
    /// Ahead, behind, conflicts kept, last sync (no network).
    Status {
        /// Print JSON: {remote, branch, ahead, behind, conflicts, last_sync}.
        #[arg(long)]
        json: bool,
    },
    /// Commit what is pending, fetch, merge, push (never forced).
    Sync {
        /// Print JSON: {adopted, integrated, conflicts, pushed, attempts, incoming_secrets}.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(ctx: &Ctx, args: &TeamArgs, output: &mut Output<'_>) -> Result<(), Error> {
    let resolved = ctx.resolve(output)?;
    // Team memory lives and dies with auto memory.
    resolved.check_enabled()?;
    let memory_dir = resolved.location.dir.clone();
    let dir = team_dir(&memory_dir);
    match &args.command {
        TeamCommand::Init { remote } => init(&memory_dir, &dir, remote, output),
        TeamCommand::Status { json } => status(&dir, *json, output),
        TeamCommand::Sync { json } => {
            require(&dir)?;
            let synced = sync::sync(&dir)?;
            record_sync(&dir)?;
            if *json {
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
    }
}

fn require(dir: &Path) -> Result<(), Error> {
    if is_team_repo(dir) {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "no team memory at {}: run memdir team init --remote URL",
            dir.display()
        )))
    }
}

fn init(memory_dir: &Path, dir: &Path, url: &str, output: &mut Output<'_>) -> Result<(), Error> {
    if is_team_repo(dir) {
        return Err(Error::Usage(format!(
            "team memory already exists at {}",
            dir.display()
        )));
    }
    if dir.exists() {
        return Err(Error::Usage(format!(
            "{} exists and is not a team memory repository; move it away first",
            dir.display()
        )));
    }
    // The personal memory repository must not track the team's files.
    Store::open(memory_dir)?;
    if let Fetched::Refused(reason) = remote::clone(url, dir)? {
        return Err(Error::Usage(format!(
            "the team remote {url} holds objects git refuses ({reason}), so nothing was cloned; its branch must be reset to a sound commit by whoever owns it"
        )));
    }
    sync::check_out_clone(dir)?;
    let exe = std::env::current_exe().map_err(|source| Error::Io {
        context: "finding the memdir executable".into(),
        source,
    })?;
    register_merge_driver(dir, &exe)?;
    output.info(&format!("team memory at {} (remote {url})", dir.display()))
}

fn state_file(dir: &Path) -> std::path::PathBuf {
    dir.join(".git").join("memdir").join("team-sync.json")
}

fn record_sync(dir: &Path) -> Result<(), Error> {
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    crate::atomic::write(
        &state_file(dir),
        serde_json::json!({ "last_sync": now })
            .to_string()
            .as_bytes(),
    )
}

fn status(dir: &Path, json: bool, output: &mut Output<'_>) -> Result<(), Error> {
    require(dir)?;
    let repo = crate::repo::MemoryRepo::open(dir)?;
    let branch = repo.head_branch()?.unwrap_or_default();
    let ours = repo.head_commit()?;
    let theirs = repo.ref_commit(&format!("refs/remotes/{}/{branch}", remote::REMOTE))?;
    let (ahead, behind) = match (ours, theirs) {
        (Some(o), Some(t)) => (repo.count_not_in(o, t)?, repo.count_not_in(t, o)?),
        // Nothing pushed yet: every commit is ahead.
        (Some(o), None) => (repo.count_commits(o)?, 0),
        (None, Some(_)) | (None, None) => (0, 0),
    };
    let conflicts: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            let mut names: Vec<String> = entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains(".conflict-") && n.ends_with(".md"))
                .collect();
            names.sort();
            names
        })
        .unwrap_or_default();
    // The sync-state file is memdir's own, a few bytes long.
    const STATE_FILE_BYTES: u64 = 64 * 1024;
    let last_sync = crate::input::read_regular(&state_file(dir), STATE_FILE_BYTES)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v["last_sync"].as_str().map(str::to_string));
    if json {
        return output.json(&serde_json::json!({
            "branch": branch,
            "ahead": ahead,
            "behind": behind,
            "conflicts": conflicts,
            "last_sync": last_sync,
        }));
    }
    output.info(&format!(
        "team memory on {branch}: {ahead} ahead, {behind} behind (as of the last fetch); last sync {}",
        last_sync.as_deref().unwrap_or("never")
    ))?;
    for conflict in &conflicts {
        output.warn(&format!(
            "{conflict} holds the other side of a conflict: merge it by hand"
        ))?;
    }
    Ok(())
}
