//! The Claude Code plugin in `plugin/` (DESIGN §13): its hooks are the entries `hooks install
//! --claude` writes, its MCP server is `memdir mcp`, the marketplace names it, and its launcher
//! finds memdir on PATH or says clearly that it is missing without failing a session.
//! `scripts/cc-e2e.sh` (sessions P, P2) runs it in the real Claude Code.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::common::{Run, TestEnv};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The plugin's launcher, as its hooks run it.
const LAUNCHER: &str = "\"${CLAUDE_PLUGIN_ROOT}/bin/memdir-plugin\"";

#[test]
fn the_plugin_hooks_are_the_entries_hooks_install_writes() {
    let env = TestEnv::new();
    let installed = env.ok(&["hooks", "show", "--json"]).json();
    let mut plugin = read_json(&repo().join("plugin/hooks/hooks.json"));
    // Each command runs memdir through the launcher; otherwise the entries are the same.
    fn unlaunch(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    match value {
                        Value::String(command) if key == "command" => {
                            let rest = command
                                .strip_prefix(LAUNCHER)
                                .unwrap_or_else(|| panic!("{command} does not run the launcher"));
                            *command = format!("memdir{rest}");
                        }
                        other => unlaunch(other),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(unlaunch),
            _ => {}
        }
    }
    unlaunch(&mut plugin);
    assert_eq!(plugin["hooks"], installed["hooks"]);
}

#[test]
fn the_plugin_serves_memdir_mcp_and_the_marketplace_names_it() {
    let mcp = read_json(&repo().join("plugin/.mcp.json"));
    assert_eq!(
        mcp["mcpServers"]["memdir"],
        json!({"command": "${CLAUDE_PLUGIN_ROOT}/bin/memdir-plugin", "args": ["mcp"]})
    );
    let manifest = read_json(&repo().join("plugin/.claude-plugin/plugin.json"));
    let marketplace = read_json(&repo().join(".claude-plugin/marketplace.json"));
    let entry = &marketplace["plugins"][0];
    assert_eq!(entry["name"], manifest["name"]);
    assert_eq!(entry["name"], "memdir");
    assert_eq!(entry["version"], manifest["version"]);
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    let source = entry["source"].as_str().expect("a relative source");
    assert!(
        repo()
            .join(source)
            .join(".claude-plugin/plugin.json")
            .is_file()
    );
    let skill = std::fs::read_to_string(repo().join("plugin/skills/memory-review/SKILL.md"))
        .expect("the review skill");
    assert!(skill.starts_with("---\nname: memory-review\ndescription: "));
    assert!(skill.contains("memdir review --json") && skill.contains("memdir promote NAME --to"));
}

/// Run the launcher with `args`, `payload` on stdin and PATH set to `path`.
fn launch(path: &str, args: &[&str], payload: &str) -> Run {
    let mut child = Command::new(repo().join("plugin/bin/memdir-plugin"))
        .args(args)
        .env_clear()
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the launcher runs");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), payload.as_bytes())
        .expect("payload");
    Run::from_output(child.wait_with_output().expect("wait"))
}

#[test]
fn the_launcher_runs_memdir_from_path_or_says_it_is_missing() {
    let env = TestEnv::new();
    let bin = env.root.join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    std::os::unix::fs::symlink(TestEnv::binary(), bin.join("memdir")).expect("symlink");
    let with = format!("{}:/usr/bin:/bin", bin.display());
    let run = launch(&with, &["--version"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout.trim(),
        format!("memdir {}", env!("CARGO_PKG_VERSION"))
    );

    let without = "/usr/bin:/bin";
    let start = json!({"session_id": "s", "hook_event_name": "SessionStart", "source": "startup"});
    let run = launch(without, &["recall", "--hook"], &start.to_string());
    assert_eq!(
        run.code, 0,
        "a hook never fails the session: {}",
        run.stderr
    );
    let message: Value = serde_json::from_str(&run.stdout).expect("a hook's JSON answer");
    let message = message["systemMessage"]
        .as_str()
        .expect("a message for the person");
    assert!(message.contains("memdir is not on PATH"), "{message}");
    assert!(
        message.contains("cargo install --locked --path ."),
        "{message}"
    );

    let stop = json!({"session_id": "s", "hook_event_name": "Stop"});
    let run = launch(without, &["extract", "--hook"], &stop.to_string());
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );

    let run = launch(without, &["mcp"], "");
    assert_eq!(run.code, 127);
    assert!(
        run.stderr.contains("memdir is not on PATH"),
        "{}",
        run.stderr
    );
}
