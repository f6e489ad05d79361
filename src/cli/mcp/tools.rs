//! The MCP server's tools: each one's arguments (their JSON schema is what a client is shown;
//! their doc comments are written for a model) and the command it runs. A call's arguments are
//! read strictly — a missing, unknown or mistyped field is an error naming it — and then handed
//! to the command line's own code, so a tool validates, scans for secrets, locks and commits
//! exactly as the command does.

use std::path::PathBuf;

use rmcp::handler::server::common::schema_for_type;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::cli::mcp::{Server, captured};
use crate::cli::{diff, list, log, restore, review, rm, save, search, show};

/// Find memories relevant to a question or topic.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Search {
    /// What to look for, in words (e.g. "how do we run the linter before committing").
    query: String,
    /// At most this many memories (1 to 100) [default: 5].
    #[schemars(range(min = 1, max = 100))]
    limit: Option<u64>,
    /// Also search history: older versions and deleted memories, each with the commit to pass
    /// to `show` or `restore` as `at`.
    #[serde(default)]
    history: bool,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// The memories as they stand.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct List {
    /// Only memories of this type.
    #[serde(rename = "type")]
    memory_type: Option<MemoryType>,
    /// At most this many, in index order (1 to 10000) [default: 200].
    #[schemars(range(min = 1, max = 10000))]
    limit: Option<u64>,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// One memory in full.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Show {
    /// The memory's name (kebab-case, as `list` and `search` give it).
    name: String,
    /// Show it as it was in this commit (a commit id from `log` or `search`, or `HEAD~3`).
    at: Option<String>,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// The four kinds of memory.
#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum MemoryType {
    /// Who the user is: role, expertise, preferences.
    User,
    /// How the user wants the agent to work: corrections and confirmed approaches.
    Feedback,
    /// Facts about the project that the code does not say: decisions, deadlines, owners.
    Project,
    /// Where to find things outside the repository: dashboards, trackers, channels.
    Reference,
}

impl MemoryType {
    fn as_str(self) -> &'static str {
        match self {
            MemoryType::User => "user",
            MemoryType::Feedback => "feedback",
            MemoryType::Project => "project",
            MemoryType::Reference => "reference",
        }
    }
}

/// Save a memory, or update the one with this name.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Save {
    /// The kind of memory.
    #[serde(rename = "type")]
    memory_type: MemoryType,
    /// Kebab-case name made of content words (e.g. "run-lint-before-commit"); the file is
    /// NAME.md. Saving an existing name updates that memory.
    name: String,
    /// One line saying what the memory is; it becomes the index line Claude Code loads.
    description: String,
    /// The memory itself, in markdown. For feedback and project memories, add a `**Why:**` line
    /// and a `**How to apply:**` line when the user said them.
    body: String,
    /// The index line's title [default: the name in words; an update keeps the old one].
    title: Option<String>,
    /// Saving an existing name under another type is refused unless this is true.
    #[serde(default)]
    change_type: bool,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// Remove a memory (its topic file and index line, in one commit; `restore` brings it back).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Remove {
    /// The memory's name.
    name: String,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// The memory dir's history, newest first.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Log {
    /// Only commits about this memory.
    name: Option<String>,
    /// Only commits made on or after this date (`2026-03-05`) or time (RFC 3339).
    since: Option<String>,
    /// Only commits of this operation: save, update, delete, adopt, rollback, restore, …
    op: Option<String>,
    /// Only commits made for this session.
    session: Option<String>,
    /// At most this many commits (1 to 1000) [default: 50].
    #[schemars(range(min = 1, max = 1000))]
    limit: Option<u64>,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// What changed in the memory dir between two commits.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Diff {
    /// The older commit (an id from `log`, or `HEAD~3`) [default: the work tree against HEAD].
    from: Option<String>,
    /// The newer commit [default: the work tree]; needs `from`.
    to: Option<String>,
    /// At most this many files' diffs, the index last (1 to 1000) [default: 50].
    #[schemars(range(min = 1, max = 1000))]
    limit: Option<u64>,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// Bring back a removed memory, or an older version of one, as a new commit.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Restore {
    /// The memory's name.
    name: String,
    /// Restore it as it was in this commit [default: its last version before it was removed].
    at: Option<String>,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// Review the memories against the instruction files (CLAUDE.md and its rules): what to
/// promote into which file, what is stale, duplicated or contradicted. Read-only: it changes
/// nothing; `memdir promote` (a person's decision) acts on it.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Review {
    /// At most this many proposals, the groups to act on first (1 to 10000) [default: 100].
    #[schemars(range(min = 1, max = 10000))]
    limit: Option<u64>,
    /// The project whose memory to use [default: the server's].
    project: Option<PathBuf>,
}

/// Each tool: its name, description for the model, arguments, whether it writes, and what it
/// runs.
struct Def {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    schema: fn() -> std::sync::Arc<JsonObject>,
    writes: bool,
    run: fn(&Server, &str, JsonObject) -> Result<String, String>,
}

const TOOLS: &[Def] = &[
    Def {
        name: "search",
        title: "Search memory",
        description: "Search this project's memories (personal and team) for what speaks to a \
                      question or task; best first. Use it before relying on assumptions about \
                      the user or the project. Returns JSON: [{name, type, description, file, \
                      scope, score, relevant, saved, …}]; read one in full with `show`.",
        schema: schema_for_type::<Search>,
        writes: false,
        run: run_search,
    },
    Def {
        name: "list",
        title: "List memories",
        description: "List the memories as they stand, in index order, optionally of one type \
                      (at most `limit`, 200 unless given). Returns JSON: [{name, type, \
                      description, title, file}].",
        schema: schema_for_type::<List>,
        writes: false,
        run: run_list,
    },
    Def {
        name: "show",
        title: "Show a memory",
        description: "One memory in full: its type, description and body, now or as it was at a \
                      commit. Returns JSON: {name, type, description, title, file, body}.",
        schema: schema_for_type::<Show>,
        writes: false,
        run: run_show,
    },
    Def {
        name: "save",
        title: "Save a memory",
        description: "Save something worth remembering across sessions: who the user is (user), \
                      how they want you to work (feedback), project facts the code does not say \
                      (project), or where to find things (reference). Saving an existing name \
                      updates it. One git commit; a secret is warned about, and refused in team \
                      memory. Do not save what the repository or git history already says.",
        schema: schema_for_type::<Save>,
        writes: true,
        run: run_save,
    },
    Def {
        name: "remove",
        title: "Remove a memory",
        description: "Remove a memory that is wrong or no longer true (one commit; `restore` \
                      brings it back).",
        schema: schema_for_type::<Remove>,
        writes: true,
        run: run_remove,
    },
    Def {
        name: "log",
        title: "Memory history",
        description: "The memory dir's commits, newest first: who saved, updated or removed what \
                      and when. Returns JSON: [{commit, op, type, name, session, time}].",
        schema: schema_for_type::<Log>,
        writes: false,
        run: run_log,
    },
    Def {
        name: "diff",
        title: "Memory diff",
        description: "What changed in the memory files between two commits (or uncommitted). \
                      Returns JSON: [{file, status, diff}].",
        schema: schema_for_type::<Diff>,
        writes: false,
        run: run_diff,
    },
    Def {
        name: "restore",
        title: "Restore a memory",
        description: "Bring back a removed memory, or an older version of one (`at`: a commit \
                      from `log` or `search` with history), as a new commit.",
        schema: schema_for_type::<Restore>,
        writes: true,
        run: run_restore,
    },
    Def {
        name: "review",
        title: "Review memory",
        description: "Review the memories against the instruction files (CLAUDE.md, rules): \
                      which to promote into which file, which are stale, duplicated or \
                      contradicted. Read-only. Returns JSON: {proposals: [{group, kind, layer, \
                      memory | path, target, reason}]}.",
        schema: schema_for_type::<Review>,
        writes: false,
        run: run_review,
    },
];

/// The tools as a client lists them.
pub fn list() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|def| {
            Tool::new(def.name, def.description, (def.schema)()).with_annotations(
                ToolAnnotations::with_title(def.title)
                    .read_only(!def.writes)
                    .destructive(def.name == "remove")
                    .open_world(false),
            )
        })
        .collect()
}

/// Run tool `name` with `arguments`: the command's output, or the error to show the client.
pub fn call(
    server: &Server,
    session: &str,
    name: &str,
    arguments: Option<JsonObject>,
) -> Result<String, String> {
    let Some(def) = TOOLS.iter().find(|def| def.name == name) else {
        let names: Vec<&str> = TOOLS.iter().map(|def| def.name).collect();
        return Err(format!(
            "error: no tool {:?}: the tools are {}",
            crate::cli::mcp::clip(name),
            names.join(", ")
        ));
    };
    (def.run)(server, session, arguments.unwrap_or_default())
}

/// The arguments as `T`, or an error naming the field that is missing, unknown or of the wrong
/// type.
fn arguments<T: DeserializeOwned>(arguments: JsonObject) -> Result<T, String> {
    serde_path_to_error::deserialize(serde_json::Value::Object(arguments)).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner().to_string();
        let inner = crate::cli::mcp::clip(&inner);
        if field == "." {
            format!("error: invalid arguments: {inner}")
        } else {
            format!("error: invalid argument `{field}`: {inner}")
        }
    })
}

/// A count argument within `1..=max`, or an error naming it.
fn count(field: &str, value: Option<u64>, default: usize, max: u64) -> Result<usize, String> {
    match value {
        None => Ok(default),
        Some(n) if (1..=max).contains(&n) => Ok(n as usize),
        Some(n) => Err(format!(
            "error: invalid argument `{field}`: {n} is not between 1 and {max}"
        )),
    }
}

fn run_search(server: &Server, _session: &str, args: JsonObject) -> Result<String, String> {
    let args: Search = arguments(args)?;
    if args.query.trim().is_empty() {
        return Err("error: invalid argument `query`: it is empty".into());
    }
    let limit = count("limit", args.limit, 5, 100)?;
    let ctx = server.ctx(args.project.as_deref());
    let command = search::SearchArgs {
        query: vec![args.query],
        limit,
        history: args.history,
        json: true,
    };
    captured(|output| search::run(&ctx, &command, output))
}

fn run_list(server: &Server, _session: &str, args: JsonObject) -> Result<String, String> {
    let args: List = arguments(args)?;
    let ctx = server.ctx(args.project.as_deref());
    let limit = count("limit", args.limit, 200, 10_000)?;
    let command = list::ListArgs {
        memory_type: args.memory_type.map(|t| t.as_str().to_string()),
        json: true,
    };
    let text = captured(|output| list::run(&ctx, &command, output))?;
    Ok(first(text, "", limit, "more"))
}

fn run_show(server: &Server, _session: &str, args: JsonObject) -> Result<String, String> {
    let args: Show = arguments(args)?;
    let ctx = server.ctx(args.project.as_deref());
    let command = show::ShowArgs {
        name: args.name,
        at: args.at,
        json: true,
    };
    captured(|output| show::run(&ctx, &command, output))
}

fn run_save(server: &Server, session: &str, args: JsonObject) -> Result<String, String> {
    let args: Save = arguments(args)?;
    let ctx = server.ctx(args.project.as_deref());
    let command = save::SaveArgs {
        memory_type: Some(args.memory_type.as_str().to_string()),
        name: args.name,
        description: Some(args.description),
        title: args.title,
        // Always given: the body is never read from stdin, which is the client's channel.
        body: Some(args.body),
        body_file: None,
        change_type: args.change_type,
        session: Some(session.to_string()),
        json: false,
    };
    captured(|output| save::run(&ctx, &command, output))
}

fn run_remove(server: &Server, session: &str, args: JsonObject) -> Result<String, String> {
    let args: Remove = arguments(args)?;
    let ctx = server.ctx(args.project.as_deref());
    let command = rm::RmArgs {
        names: vec![args.name],
        session: Some(session.to_string()),
        json: false,
    };
    captured(|output| rm::run(&ctx, &command, output))
}

fn run_log(server: &Server, _session: &str, args: JsonObject) -> Result<String, String> {
    let args: Log = arguments(args)?;
    let limit = count("limit", args.limit, 50, 1000)?;
    let ctx = server.ctx(args.project.as_deref());
    let command = log::LogArgs {
        name: args.name,
        since: args.since,
        op: args.op,
        session: args.session,
        author: None,
        limit: None,
        oneline: false,
        patch: false,
        first_parent: false,
        json: true,
    };
    let text = captured(|output| log::run(&ctx, &command, output))?;
    // The newest `limit` commits: a store's whole history is more than a model should read.
    Ok(first(text, "", limit, "older commits"))
}

/// A command's JSON (its first line) with the array at `pointer` (`""`: the whole value) cut to
/// its first `limit` items, saying how many were left out; the lines after it (warnings) kept.
/// A client (Claude Code: about 25,000 tokens) refuses or truncates a longer result itself,
/// where the model can no longer tell.
fn first(text: String, pointer: &str, limit: usize, what: &str) -> String {
    let (json, warnings) = text.split_once('\n').unwrap_or((&text, ""));
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(json) else {
        return text;
    };
    let Some(items) = value.pointer_mut(pointer).and_then(|v| v.as_array_mut()) else {
        return text;
    };
    let more = items.len().saturating_sub(limit);
    items.truncate(limit);
    let mut cut = value.to_string();
    if more > 0 {
        cut.push_str(&format!("\n({more} {what} not shown: give `limit`)"));
    }
    format!("{cut}\n{warnings}")
}

fn run_diff(server: &Server, _session: &str, args: JsonObject) -> Result<String, String> {
    let args: Diff = arguments(args)?;
    let revs = match (args.from, args.to) {
        (None, Some(_)) => {
            return Err("error: invalid argument `to`: it needs `from`".into());
        }
        (from, to) => from.into_iter().chain(to).collect(),
    };
    let limit = count("limit", args.limit, 50, 1000)?;
    let ctx = server.ctx(args.project.as_deref());
    let command = diff::DiffArgs { revs, json: true };
    let text = captured(|output| diff::run(&ctx, &command, output))?;
    Ok(first(text, "", limit, "more files"))
}

fn run_restore(server: &Server, session: &str, args: JsonObject) -> Result<String, String> {
    let args: Restore = arguments(args)?;
    let ctx = server.ctx(args.project.as_deref());
    let command = restore::RestoreArgs {
        name: args.name,
        at: args.at,
        session: Some(session.to_string()),
        json: false,
    };
    captured(|output| restore::run(&ctx, &command, output))
}

fn run_review(server: &Server, _session: &str, args: JsonObject) -> Result<String, String> {
    let args: Review = arguments(args)?;
    let limit = count("limit", args.limit, 100, 10_000)?;
    let ctx = server.ctx(args.project.as_deref());
    let text = captured(|output| review::run(&ctx, &review::ReviewArgs { json: true }, output))?;
    Ok(first(text, "/proposals", limit, "more proposals"))
}
