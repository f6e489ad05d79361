//! One JSON vocabulary (DESIGN §11, ARCHITECTURE.md "JSON field names"): every command that
//! takes `--json` is run with it, and what it prints is validated against
//! `json_vocabulary.schema.json` — the output's shape (`$defs/output-<command>`, built from one
//! schema per kind of object: memory, commit, proposal, problem, operation), and every occurrence
//! of a word of the vocabulary anywhere in it (`name`, `type`, `commit` and the commits `fixed`,
//! `merge` and `base`, `time`, `saved`, `last_sync`, `author`, `path`, `file`) against that
//! word's one meaning. The command line's own definition says which commands take `--json`: a
//! command added without it, or not run here, fails the test.

use std::collections::BTreeSet;
use std::path::Path;

use clap::CommandFactory;
use serde_json::{Value, json};

use crate::common::{Run, TestEnv, assert_git_clean, bare_remote, git, save_args};
use crate::extract::Transcript;

/// The words of the vocabulary, each with the definition it is checked against.
const WORDS: &[(&str, &str)] = &[
    ("name", "name"),
    ("type", "type"),
    ("commit", "commit"),
    ("fixed", "commit"),
    ("merge", "commit"),
    ("base", "commit"),
    ("time", "time"),
    ("saved", "time"),
    ("last_sync", "time"),
    ("author", "author"),
    ("path", "path"),
    ("file", "file"),
];

/// Keys whose values are another program's format, not memdir's vocabulary: Claude Code's hook
/// entries (`{"type": "command", …}`) as `hooks show` prints them.
const FOREIGN: &[&str] = &["hooks"];

/// Commands without `--json`, and why: nothing a script reads, or not memdir's output.
const WITHOUT_JSON: &[(&str, &str)] = &[
    ("mcp", "speaks JSON-RPC (MCP) itself"),
    ("merge-index", "git's merge driver: a file, not output"),
    ("completions", "prints a shell script"),
    ("man", "writes man pages"),
    ("help", "prints help"),
];

struct Vocabulary {
    defs: Value,
}

impl Vocabulary {
    fn load() -> Vocabulary {
        let text = include_str!("json_vocabulary.schema.json");
        let schema: Value = serde_json::from_str(text).expect("the schema is JSON");
        Vocabulary {
            defs: schema["$defs"].clone(),
        }
    }

    /// The errors of `value` against `$defs/<def>`, each with where it is.
    fn errors(&self, def: &str, value: &Value) -> Vec<String> {
        assert!(
            self.defs.get(def).is_some(),
            "the schema has no $defs/{def}"
        );
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": self.defs,
            "$ref": format!("#/$defs/{def}"),
        });
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("$defs/{def} is not a valid schema: {e}"));
        validator
            .iter_errors(value)
            .map(|e| match e.instance_path().to_string() {
                at if at.is_empty() => e.to_string(),
                at => format!("{at}: {e}"),
            })
            .collect()
    }

    /// Every word of the vocabulary anywhere in `value`, checked against its meaning.
    fn word_errors(&self, value: &Value, at: &str, errors: &mut Vec<String>) {
        match value {
            Value::Object(object) => {
                for (key, inner) in object {
                    let here = format!("{at}/{key}");
                    if let Some((_, def)) = WORDS.iter().find(|(word, _)| word == key) {
                        for e in self.errors(&format!("word-{def}"), inner) {
                            errors.push(format!("{here}: {e}"));
                        }
                    }
                    if !FOREIGN.contains(&key.as_str()) {
                        self.word_errors(inner, &here, errors);
                    }
                }
            }
            Value::Array(items) => {
                for (i, inner) in items.iter().enumerate() {
                    self.word_errors(inner, &format!("{at}/{i}"), errors);
                }
            }
            _ => {}
        }
    }
}

/// The commands run so far, and the checks.
struct Session<'a> {
    env: &'a TestEnv,
    vocabulary: Vocabulary,
    ran: BTreeSet<String>,
    /// What did not speak the vocabulary, every command's (all are reported at once).
    failures: std::cell::RefCell<Vec<String>>,
}

impl Session<'_> {
    /// Run `memdir ARGS --json` (the command's words: `command`) and require exit `code`, stdout
    /// valid as `$defs/output-<command>` (spaces as `-`) with every word meaning what it should,
    /// and stderr empty or one JSON error.
    fn run(&mut self, command: &str, args: &[&str], code: i32) -> Value {
        let mut args = args.to_vec();
        args.push("--json");
        let run = self.env.run(&args);
        assert_eq!(
            run.code, code,
            "memdir {args:?}: {}{}",
            run.stdout, run.stderr
        );
        let value = self.check(command, &args, &run);
        self.ran.insert(command.to_string());
        value
    }

    fn check(&self, command: &str, args: &[&str], run: &Run) -> Value {
        let mut errors = Vec::new();
        // A command that failed before it had anything to say prints only its error.
        let value = if run.stdout.is_empty() && run.code != 0 {
            Value::Null
        } else {
            let value: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
                panic!("memdir {args:?}: stdout is not JSON ({e}): {}", run.stdout)
            });
            errors = self
                .vocabulary
                .errors(&format!("output-{}", command.replace(' ', "-")), &value);
            self.vocabulary.word_errors(&value, "", &mut errors);
            value
        };
        // A command whose answer is its exit code (search, verify: 1) says nothing on stderr.
        if run.code != 0 && !run.stderr.is_empty() {
            let error: Value = serde_json::from_str(&run.stderr).unwrap_or_else(|e| {
                panic!(
                    "memdir {args:?}: stderr is not one JSON error ({e}): {}",
                    run.stderr
                )
            });
            errors.extend(self.vocabulary.errors("error", &error));
        }
        if !errors.is_empty() {
            self.failures.borrow_mut().push(format!(
                "memdir {} does not speak the vocabulary:\n  {}\n{}",
                args.join(" "),
                errors.join("\n  "),
                run.stdout
            ));
        }
        value
    }
}

/// Memory `name` saved three times (`flags`: `--team` or none) and its middle version reverted
/// after the third changed the same lines: both versions kept, a conflict to resolve.
fn conflict(s: &mut Session<'_>, flags: &[&str], dir: &Path, name: &str) {
    for body in [
        "Backend.\n\nLikes Rust.",
        "Frontend now.\n\nLikes Rust.",
        "Fullstack now.\n\nLikes Rust.",
    ] {
        let save = save_args("project", name, "Who does what", body);
        s.run("save", &[flags, &save[..]].concat(), 0);
    }
    let middle = git(dir, &["rev-parse", "HEAD~1"]);
    let reverted = s.run("revert", &[flags, &["revert", middle.trim()]].concat(), 0);
    assert_eq!(
        reverted["conflicts"][0]["file"],
        format!("{name}.md"),
        "{reverted}"
    );
}

/// Every command of the command line, as its words (`team sync`), and whether it takes `--json`.
fn commands() -> Vec<(String, bool)> {
    fn walk(command: &clap::Command, words: &str, out: &mut Vec<(String, bool)>) {
        for sub in command.get_subcommands() {
            let here = format!("{words} {}", sub.get_name()).trim().to_string();
            if sub.has_subcommands() {
                walk(sub, &here, out);
            } else {
                let json = sub.get_arguments().any(|a| a.get_long() == Some("json"));
                out.push((here, json));
            }
        }
    }
    let mut out = Vec::new();
    walk(&memdir::cli::Cli::command(), "", &mut out);
    out
}

#[test]
fn every_command_with_json_speaks_one_vocabulary() {
    let mut env = TestEnv::new();
    // Consolidation's today, fixed.
    env.set_var("MEMDIR_TODAY", "2026-12-04");
    let env = env;
    let mut s = Session {
        env: &env,
        vocabulary: Vocabulary::load(),
        ran: BTreeSet::new(),
        failures: Default::default(),
    };
    // An agent's file in the memory dir before it is under memdir: init adopts it.
    let dir = env.memory_dir();
    std::fs::create_dir_all(&dir).expect("memory dir");
    std::fs::write(
        dir.join("board.md"),
        "---\nname: board\ndescription: Where the board is\ntype: reference\n---\nThe board is in Linear, project BE.\n",
    )
    .expect("an agent's file");
    std::fs::write(
        dir.join("MEMORY.md"),
        "- [Board](board.md) — Where the board is\n",
    )
    .expect("its index line");
    let init = s.run("init", &["init"], 0);
    assert_eq!(init["memories"][0]["name"], "board", "{init}");

    let mut save = save_args(
        "user",
        "role",
        "Backend engineer",
        "I own the deploy scripts.",
    );
    let saved = s.run("save", &save, 0);
    assert_eq!(saved["memories"][0]["change"], "saved", "{saved}");
    save = save_args(
        "feedback",
        "pre-commit-lint",
        "Run the linter before every commit",
        "Run `npm run lint` before every commit.\n\n**Why:** an unlinted commit kept CI red.",
    );
    s.run("save", &save, 0);
    s.run(
        "edit",
        &["edit", "role", "--description", "Backend engineer, on call"],
        0,
    );
    s.run("list", &["list"], 0);
    s.run("show", &["show", "role"], 0);
    s.run("search", &["search", "deploy"], 0);
    s.run("search", &["search", "deploy", "--history"], 0);
    s.run("search", &["search", "kubernetes"], 1);
    s.run("recall", &["recall", "who owns the deploy scripts?"], 0);
    s.run("log", &["log"], 0);
    s.run("log", &["log", "role"], 0);
    s.run("diff", &["diff", "HEAD~1"], 0);
    s.run("index", &["index"], 0);
    s.run("path", &["path"], 0);
    s.run("context", &["context"], 0);
    s.run("verify", &["verify"], 0);
    s.run("review", &["review"], 0);

    // A project with a commit, for a promotion; then the proposals.
    std::fs::write(env.project.join("README.md"), "# proj\n").expect("readme");
    git(&env.project, &["add", "README.md"]);
    git(
        &env.project,
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "first",
        ],
    );
    s.run(
        "promote",
        &["promote", "pre-commit-lint", "--to", "project"],
        0,
    );
    s.run("proposals", &["proposals"], 0);
    s.run("proposals", &["proposals", "--reconcile"], 0);

    // What an agent wrote, adopted by snapshot; an interrupted file doctor reports.
    std::fs::write(
        dir.join("oncall.md"),
        "---\nname: oncall\ndescription: Who is on call\ntype: project\n---\nAda this week.\n",
    )
    .expect("an agent's file");
    std::fs::write(dir.join("MEMORY.md"), {
        let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
        index.push_str("- [Oncall](oncall.md) — Who is on call\n");
        index
    })
    .expect("index line");
    let snapshot = s.run("snapshot", &["snapshot"], 0);
    assert_eq!(
        snapshot["commits"].as_array().map(Vec::len),
        Some(1),
        "{snapshot}"
    );
    std::fs::write(dir.join("draft.md"), "no frontmatter\n").expect("a bad file");
    let doctor = s.run("doctor", &["doctor"], 1);
    assert!(
        doctor["findings"].as_array().is_some_and(|f| !f.is_empty()),
        "{doctor}"
    );
    // A valid file the index does not name: --fix indexes it, one commit it names.
    std::fs::write(
        dir.join("ci.md"),
        "---\nname: ci\ndescription: Where CI runs\ntype: reference\n---\nBuildkite.\n",
    )
    .expect("an orphan");
    let fixed = s.run("doctor", &["doctor", "--fix"], 1);
    let made: Vec<&Value> = fixed["commits"].as_array().into_iter().flatten().collect();
    assert!(!made.is_empty(), "{fixed}");
    assert_eq!(
        made.last().map(|c| c["commit"].clone()),
        Some(json!(git(&dir, &["rev-parse", "HEAD"]).trim())),
        "{fixed}"
    );
    std::fs::remove_file(dir.join("draft.md")).expect("the bad file goes");
    s.run("doctor", &["doctor", "--fix"], 0);

    let transcript = env.root.join("session.jsonl");
    Transcript::new("s-1", &env.project)
        .user("From now on, never reset the staging database: it is shared with QA.")
        .assistant("Noted.")
        .write(&transcript);
    let transcript = transcript.display().to_string();
    let extracted = s.run(
        "extract",
        &[
            "extract",
            "--transcript",
            &transcript,
            "--session",
            "s-1",
            "--extractor",
            "builtin",
        ],
        0,
    );
    let head = git(&dir, &["rev-parse", "HEAD"]);
    assert_eq!(
        extracted["commits"]
            .as_array()
            .and_then(|c| c.last())
            .map(|c| &c["commit"]),
        Some(&json!(head.trim())),
        "{extracted}"
    );

    let removed = s.run("rm", &["rm", "oncall", "board"], 0);
    assert_eq!(
        removed["memories"].as_array().map(Vec::len),
        Some(2),
        "{removed}"
    );
    s.run("pack", &["pack"], 0);

    // Going back: each is a write that says what it changed, and an operation of the log.
    let restored = s.run("restore", &["restore", "oncall"], 0);
    assert_eq!(restored["memories"][0]["change"], "added", "{restored}");
    s.run("undo", &["undo"], 0);
    s.run("redo", &["redo"], 0);
    let edit = git(
        &dir,
        &["log", "--format=%H", "--grep=update(user): role", "-1"],
    );
    let reverted = s.run("revert", &["revert", edit.trim()], 0);
    assert_eq!(reverted["memories"][0]["name"], "role", "{reverted}");
    s.run("rollback", &["rollback", "HEAD~1"], 0);
    let ops = s.run("op log", &["op", "log"], 0);
    assert_eq!(ops[0]["kind"], "rollback", "{ops}");
    let log = s.run("log", &["log", "-p", "-n", "3"], 0);
    assert_eq!(
        log[0]["subject"]
            .as_str()
            .map(|s| s.starts_with("rollback(")),
        Some(true)
    );
    assert_eq!(
        (&log[0]["type"], &log[0]["name"]),
        (&Value::Null, &Value::Null),
        "{log}"
    );

    // Consolidation: an expired memory, dropped on a branch, then applied.
    let freeze = save_args(
        "project",
        "merge-freeze",
        "Merge freeze until 2026-01-15; hotfixes only",
        "Merge freeze on main until 2026-01-15. Only hotfixes, approved in #release.",
    );
    s.run("save", &freeze, 0);
    let branch = s.run(
        "consolidate",
        &["consolidate", "--consolidator", "builtin"],
        0,
    );
    assert!(
        branch["commits"].as_array().is_some_and(|c| !c.is_empty()),
        "{branch}"
    );
    let applied = s.run(
        "consolidate",
        &["consolidate", "--apply", "--consolidator", "builtin"],
        0,
    );
    assert_eq!(
        applied["commit"],
        json!(git(&dir, &["rev-parse", "HEAD"]).trim()),
        "{applied}"
    );

    // A conflict kept by a revert, finished by resolve; in team memory, by team resolve.
    conflict(&mut s, &[], &dir, "stack");
    s.run("resolve", &["resolve", "stack", "--theirs"], 0);

    s.run("hooks show", &["hooks", "show"], 0);
    s.run("hooks install", &["hooks", "install", "--claude"], 0);
    s.run("hooks uninstall", &["hooks", "uninstall", "--claude"], 0);

    let remote = bare_remote(&env.root);
    let remote = remote.display().to_string();
    s.run("team init", &["team", "init", "--remote", &remote], 0);
    s.run(
        "save",
        &[
            &["--team"][..],
            &save_args("project", "deploys", "Deploy days", "Never on Fridays."),
        ]
        .concat(),
        0,
    );
    s.run("team sync", &["team", "sync"], 0);
    s.run("team status", &["team", "status"], 0);
    s.run("list", &["list", "--team"], 0);
    conflict(&mut s, &["--team"], &dir.join("team"), "rota");
    let resolved = s.run("team resolve", &["team", "resolve", "rota", "--ours"], 0);
    assert_eq!(resolved["memories"][0]["name"], "rota", "{resolved}");

    // Personal sync: a remote of one's own, then this project's memory, named.
    let own = env.root.join("own.git");
    git(
        &env.root,
        &["init", "-q", "--bare", &own.display().to_string()],
    );
    s.run("sync", &["sync", "--remote", &own.display().to_string()], 0);
    s.run("sync", &["sync", "--as", "proj"], 0);

    // An error, with --json, is JSON too.
    s.run("show", &["show", "nosuch"], 2);

    assert_git_clean(&dir);
    assert_git_clean(Path::new(&dir.join("team")));

    let failures = s.failures.borrow();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));

    let commands = commands();
    let without: Vec<&String> = commands
        .iter()
        .filter(|(name, json)| !json && !WITHOUT_JSON.iter().any(|(w, _)| w == name))
        .map(|(name, _)| name)
        .collect();
    assert!(without.is_empty(), "commands without --json: {without:?}");
    let unchecked: Vec<&String> = commands
        .iter()
        .filter(|(name, json)| *json && !s.ran.contains(name))
        .map(|(name, _)| name)
        .collect();
    assert!(
        unchecked.is_empty(),
        "commands with --json this test does not run: {unchecked:?}"
    );
}

#[test]
fn the_schema_catches_each_word_used_for_another_meaning() {
    // The failures this test exists for, each caught (a check that cannot fail checks nothing).
    let vocabulary = Vocabulary::load();
    let commit = "c68c31be61eb2be9ad7771efdb8915c7feae9d6c";
    for (def, value) in [
        // log of a rollback, as it was: a short commit as a name, "commit" as a type.
        (
            "output-log",
            json!([{"commit": commit, "time": "2026-03-05T10:00:00+00:00", "type": "commit", "name": "c784928"}]),
        ),
        // a time in seconds, not RFC 3339, with nanoseconds, in UTC as Z (not an offset).
        (
            "output-log",
            json!([{"commit": commit, "time": 1772704800}]),
        ),
        ("word-time", json!("2026-03-05 10:00:00")),
        ("word-time", json!("2026-03-05T10:00:00.123456789+00:00")),
        ("word-time", json!("2026-03-05T10:00:00Z")),
        // a short commit id; a relative path as `path`; an absolute one as `file`.
        ("word-commit", json!("c68c31b")),
        ("word-path", json!("role.md")),
        ("word-file", json!("/home/a/role.md")),
        // a removal of two memories as one name.
        (
            "output-log",
            json!([{"commit": commit, "time": "2026-03-05T10:00:00+00:00", "author": "A <a@b>", "subject": "delete(mixed): a, b", "names": ["a", "b"], "type": "mixed", "name": "a, b"}]),
        ),
        // review's proposal naming its memory `memory`.
        ("proposal", json!({"memory": "role", "reason": "r"})),
        // doctor's finding with a `subject`.
        (
            "problem",
            json!({"kind": "orphan", "subject": "a.md", "detail": "d", "fixed": null}),
        ),
        // a write that does not say its commit.
        (
            "written",
            json!({"memories": [{"name": "role", "type": "user", "file": "role.md", "change": "saved"}]}),
        ),
    ] {
        assert!(
            !vocabulary.errors(def, &value).is_empty(),
            "$defs/{def} accepts {value}"
        );
    }
    let mut errors = Vec::new();
    vocabulary.word_errors(
        &json!({"team": {"last_sync": "1772704800"}}),
        "",
        &mut errors,
    );
    assert!(!errors.is_empty(), "a time in seconds as last_sync");
}
