//! `memdir sync`: this project's memory kept in step with a private git remote of the person's,
//! one remote for all their projects (DESIGN §8; the library is [`crate::personal`]).

use std::path::Path;

use crate::Error;
use crate::cli::{Ctx, HookPayload, Output};
use crate::memory::merge::Conflict;
use crate::memory::store::{Change, Changed};
use crate::personal::identity::{Identity, remember_name};
use crate::personal::{PersonalError, config};
use crate::repo::remote_url::{absolute, normalize, shown};
use crate::sync::guard::Dropped;

/// Keep this project's memory in step with your own git remote, on every machine.
///
/// `memdir sync --remote URL` once (a private repository of yours, any host; kept in
/// <config dir>/memdir/config.json), then `memdir sync` in any project: it commits what is
/// pending, fetches this project's branch of the remote, merges (the index as a union of
/// entries, topic files three-way, both versions kept on a conflict), writes the result where
/// Claude Code looks on this machine, and pushes, never forced. A project is known by its git
/// remote's address, so every clone of it, at any path, on any machine, in any worktree, shares
/// one memory, and a fork keeps its own; a project without a remote syncs under a name you give
/// (`--as NAME`). Nothing holding a secret is pushed.
#[derive(Debug, clap::Args)]
pub struct SyncArgs {
    /// Set the remote personal sync uses for every project (nothing is pushed yet); warns when
    /// it answers without credentials, as a public repository does.
    #[arg(long, value_name = "URL")]
    pub remote: Option<String>,
    /// Sync this project's memory under NAME (the same name on every machine), kept for later
    /// syncs: for a project without a git remote, or to choose the name yourself.
    #[arg(long = "as", value_name = "NAME")]
    pub as_name: Option<String>,
    /// Run from Claude Code's SessionStart and SessionEnd hooks: when `memdir.sync.auto` is on,
    /// start a sync in the background and return at once; never fails the hook.
    #[arg(long, conflicts_with_all = ["remote", "as_name", "json"])]
    pub hook: bool,
    /// Print JSON: {identity, source, remote, path, branch, integrated, adopted, commit, pushed,
    /// snapshot, changed, conflicts, foreign, dropped, attempts}; with --remote, {remote, path,
    /// public}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: &SyncArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if args.hook {
        return crate::cli::hook_mode::run(ctx, "sync --hook", output, hook);
    }
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let config_dir = ctx.env.config_dir()?;
    if let Some(url) = &args.remote {
        return set_remote(ctx, &config_dir, url, args.json, output);
    }
    let memory_dir = resolved.dir().to_path_buf();
    if let Some(name) = &args.as_name {
        crate::personal::identity::validate_name(name)?;
        crate::memory::store::Store::open(&memory_dir)?;
        remember_name(&memory_dir, name)?;
    }
    let url = config::remote(&config_dir)?.ok_or(PersonalError::NoRemote)?;
    let identity = Identity::of(&ctx.project(), &memory_dir, &resolved.location.rule)?;
    let branch = identity.branch()?;
    output.progress(&format!("syncing {branch} of {}", shown(&url)))?;
    let synced = crate::personal::sync::sync(&memory_dir, &url, &branch)?;
    crate::sync::state::record_sync(&memory_dir.join(".git"), crate::personal::sync::STATE)?;
    if args.json {
        let mut value = to_json(&synced)?;
        value["identity"] = identity.id.clone().into();
        value["source"] = identity.source_id().into();
        value["remote"] = shown(&url).into();
        value["path"] = memory_dir.display().to_string().into();
        return output.json(&value);
    }
    output.info(&format!(
        "{} (from {}): branch {branch} of {}",
        identity.id,
        identity.describe(),
        shown(&url)
    ))?;
    for subject in &synced.adopted {
        output.info(&format!("committed {subject}"))?;
    }
    report(
        output,
        &synced.foreign,
        &synced.dropped,
        &synced.conflicts,
        "memdir resolve",
    )?;
    // "pushed" and "first push" say it already.
    let pushed = if synced.pushed && matches!(synced.integrated.as_str(), "merged" | "fast-forward")
    {
        "; pushed"
    } else {
        ""
    };
    output.info(&format!(
        "{}{}{pushed}",
        synced.integrated,
        counts(&synced.changed)
    ))
}

/// Any serialisable report as JSON.
pub(crate) fn to_json(value: &impl serde::Serialize) -> Result<serde_json::Value, Error> {
    serde_json::to_value(value).map_err(|e| Error::Io {
        context: "encoding the sync report".into(),
        source: std::io::Error::other(e),
    })
}

/// `memdir sync --remote URL`: kept in the user config, with a warning when anyone can read it.
fn set_remote(
    ctx: &Ctx,
    config_dir: &Path,
    url: &str,
    json: bool,
    output: &mut Output<'_>,
) -> Result<(), Error> {
    let url = absolute(url, &ctx.env.cwd);
    if url.starts_with('-') || normalize(&url, &ctx.env.cwd).is_none() {
        return Err(PersonalError::InvalidRemote(url).into());
    }
    config::set_remote(config_dir, &url)?;
    let public = crate::sync::transport::answers_without_credentials(&ctx.env.cwd, &url);
    let file = config::path(config_dir);
    if json {
        return output.json(&serde_json::json!({
            "remote": shown(&url),
            "path": file,
            "public": public,
        }));
    }
    if public {
        output.warn(&format!(
            "{} answers without credentials: anyone can read what memdir sync pushes there; use a private repository (memdir sync --remote URL again), or go on knowing it",
            shown(&url)
        ))?;
    }
    output.info(&format!(
        "personal sync remote: {} (kept in {}); run memdir sync in a project to sync its memory",
        shown(&url),
        file.display()
    ))
}

/// The hook: a sync started in the background when `memdir.sync.auto` is on.
fn hook(ctx: &Ctx, _payload: HookPayload, output: &mut Output<'_>) -> Result<(), Error> {
    let project = ctx.project();
    let settings = crate::settings::Settings::load(&ctx.env, &project)?;
    if !settings.sync_auto() {
        return Ok(());
    }
    let resolved = ctx.resolve(output)?;
    resolved.check_enabled()?;
    let memory_dir = resolved.dir().to_path_buf();
    config::remote(&ctx.env.config_dir()?)?.ok_or(PersonalError::NoRemote)?;
    Identity::of(&project, &memory_dir, &resolved.location.rule)?.branch()?;
    let log = crate::extract::worker::log_path(&memory_dir.join(".git"));
    let file = crate::log_file::open(&log).map_err(|source| Error::Io {
        context: format!("opening {}", log.display()),
        source,
    })?;
    let mut args = vec![
        "sync".into(),
        "-q".into(),
        "--project".into(),
        project.into_os_string(),
    ];
    if let Some(dir) = &ctx.global.memory_dir {
        args.push("--memory-dir".into());
        args.push(dir.clone().into_os_string());
    }
    crate::process::spawn_detached(args, file).map_err(|source| Error::Io {
        context: "starting memdir sync in the background".into(),
        source,
    })
}

/// What a sync reports besides its outcome, for team and personal sync alike: the entries kept
/// in git only, those dropped, the conflicts kept (`resolve` is the command that finishes one).
pub(crate) fn report(
    output: &mut Output<'_>,
    foreign: &[String],
    dropped: &[Dropped],
    conflicts: &[Conflict],
    resolve: &str,
) -> Result<(), Error> {
    for entry in dropped {
        output.warn(&format!(
            "dropped {:?} from what the remote sent: {} (git refuses to check it out); the remote loses it with the next push",
            entry.file, entry.why
        ))?;
    }
    if !foreign.is_empty() {
        output.info(&format!(
            "kept {} {} memdir does not manage (in git only, never written): {}",
            foreign.len(),
            if foreign.len() == 1 {
                "entry"
            } else {
                "entries"
            },
            foreign.join(", ")
        ))?;
    }
    for conflict in conflicts {
        let name = conflict.file.trim_end_matches(".md");
        output.warn(&format!(
            "{} was changed on both sides: the other side is kept as {} (not in MEMORY.md); finish it with {resolve} {name} --ours|--theirs|--edit",
            conflict.file, conflict.kept_as
        ))?;
    }
    Ok(())
}

/// ` (2 added, 1 updated)`: what a sync changed, or nothing.
pub(crate) fn counts(changed: &[Changed]) -> String {
    let count = |kind: Change| changed.iter().filter(|c| c.change == kind).count();
    let parts: Vec<String> = [
        (Change::Added, "added"),
        (Change::Updated, "updated"),
        (Change::Removed, "removed"),
    ]
    .into_iter()
    .filter_map(|(kind, word)| {
        let n = count(kind);
        (n > 0).then(|| format!("{n} {word}"))
    })
    .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}
