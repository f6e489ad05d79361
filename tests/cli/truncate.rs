//! `memdir index` prints what Claude Code 2.1.x loads from MEMORY.md, character for character:
//! the node-generated cases in `fixtures/truncate/` and the recorded oracle cases.

use std::path::Path;

use crate::common::TestEnv;

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

#[test]
fn index_matches_claude_code_for_every_generated_case() {
    let env = TestEnv::new();
    let dir = env.root.join("mem");
    std::fs::create_dir_all(&dir).expect("dir");
    let mut cases = 0;
    let mut entries: Vec<_> = std::fs::read_dir(fixtures().join("truncate"))
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    entries.sort();
    for input in entries {
        let expected = std::fs::read(input.with_extension("expected")).expect("expected output");
        std::fs::copy(&input, dir.join("MEMORY.md")).expect("copy");
        let run = env
            .command()
            .args(["--memory-dir", dir.to_str().expect("utf-8"), "index"])
            .output()
            .expect("runs");
        assert!(run.status.success(), "{}", input.display());
        assert!(
            run.stdout == expected,
            "memdir index differs from Claude Code for {}",
            input.display()
        );
        cases += 1;
    }
    assert!(cases >= 40, "only {cases} cases");
}

#[test]
fn index_matches_the_recorded_oracle_cases() {
    const MARK: &str = "(user's auto-memory, persists across conversations):\n\n";
    for case in ["basic", "trunc-lines"] {
        let root = fixtures().join("cc-oracle/cases").join(case);
        let recorded = std::fs::read_to_string(root.join("expected.txt")).expect("recorded");
        let (_, want) = recorded
            .split_once(MARK)
            .expect("the stack holds the memory index");
        // Build the case's MEMORY.md with its own setup script, as the recorder did.
        let env = TestEnv::new();
        let status = std::process::Command::new("bash")
            .arg(root.join("setup.sh"))
            .current_dir(&env.project)
            .env("HOME", &env.home)
            .env("PROJ", &env.project)
            .env("ROOT", &env.root)
            .status()
            .expect("setup runs");
        assert!(status.success());
        let run = env.ok(&["index"]);
        assert_eq!(run.stdout, want, "case {case}");
    }
}
