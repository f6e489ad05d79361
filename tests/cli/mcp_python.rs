//! `memdir mcp` spoken to by a client no one here wrote: the official Python MCP SDK from PyPI
//! (`tests/mcp-client/`, pinned in its `requirements.txt`). The SDK is installed once into a
//! virtual environment under the target dir (`target/py-mcp`; the first run needs PyPI, later
//! ones nothing). The client lists the tools, calls every one, reads the resources and makes
//! bad calls; this test checks what it saw, and the memory dir with the real git.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common::{TestEnv, assert_git_clean, subjects};

fn client_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mcp-client")
}

/// The virtual environment with the SDK, made (or repaired) when it cannot import it.
fn python_with_sdk() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    let venv = target.join("py-mcp");
    let python = venv.join("bin/python");
    let imports = |python: &Path| {
        Command::new(python)
            .args(["-c", "import mcp.client.stdio"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if imports(&python) {
        return python;
    }
    let made = Command::new("python3")
        .args(["-m", "venv", "--clear"])
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "python3 -m venv {} failed", venv.display());
    let installed = Command::new(venv.join("bin/pip"))
        .args(["install", "-q", "--disable-pip-version-check", "-r"])
        .arg(client_dir().join("requirements.txt"))
        .output()
        .expect("pip runs");
    assert!(
        installed.status.success(),
        "installing the Python MCP SDK from PyPI failed: {}",
        String::from_utf8_lossy(&installed.stderr)
    );
    assert!(
        imports(&python),
        "the SDK does not import after installing it"
    );
    python
}

#[test]
fn the_python_sdk_client_lists_and_calls_every_tool() {
    let python = python_with_sdk();
    let env = TestEnv::new();
    let out = env
        .command_for(&python)
        .arg(client_dir().join("client.py"))
        .arg(TestEnv::binary())
        .arg(&env.project)
        .output()
        .expect("the client runs");
    assert!(
        out.status.success(),
        "the Python client failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: Value = serde_json::from_slice(&out.stdout).expect("the client's JSON");
    assert_eq!(seen["server"], "memdir");
    assert_eq!(
        seen["tools"],
        serde_json::json!([
            "diff", "list", "log", "remove", "restore", "review", "save", "search", "show"
        ])
    );
    let calls = seen["calls"].as_object().expect("calls");
    assert_eq!(calls.len(), 9, "every tool was called: {calls:?}");
    for (tool, results) in calls {
        for result in results.as_array().expect("results") {
            assert_eq!(result["error"], false, "{tool}: {result}");
        }
    }
    let text = |tool: &str| {
        calls[tool][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let found: Value = serde_json::from_str(text("search").lines().next().unwrap_or_default())
        .expect("search's JSON");
    assert_eq!(found[0]["name"], "merge-freeze", "{found}");
    let shown: Value =
        serde_json::from_str(text("show").lines().next().unwrap_or_default()).expect("show's JSON");
    assert_eq!(
        shown["body"],
        "Explain frontend code in terms of Go where it helps.\n"
    );
    assert_eq!(
        seen["resources"],
        serde_json::json!([
            "memdir://memory/MEMORY.md",
            "memdir://memory/go-developer.md",
            "memdir://memory/merge-freeze.md"
        ])
    );

    // Each bad call was a tool error (not a broken session) saying what was wrong.
    for (label, needle) in [
        ("wrong type", "`name`"),
        ("missing field", "`description`"),
        ("unknown field", "`kind`"),
        ("unknown tool", "no tool"),
        ("invalid name", "Bad/Name"),
        ("10 MB body", "the body"),
    ] {
        let bad = &seen["bad"][label];
        assert_eq!(bad["error"], true, "{label}: {bad}");
        assert!(
            bad.get("protocol").is_none(),
            "{label}: not a tool error: {bad}"
        );
        let message = bad["text"].as_str().unwrap_or_default();
        assert!(
            message.contains(needle),
            "{label}: want {needle:?} in {message}"
        );
    }
    assert_eq!(seen["after"]["error"], false);

    let dir = env.memory_dir();
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    assert_eq!(seen["index"].as_str(), Some(index.as_str()));
    assert_eq!(
        subjects(&dir),
        [
            "restore(project): merge-freeze",
            "delete(project): merge-freeze",
            "save(project): merge-freeze",
            "save(user): go-developer"
        ]
    );
    assert_git_clean(&dir);
}
