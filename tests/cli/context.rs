//! `memdir context` against what the real Claude Code 2.1.332 loaded for each recorded case in
//! `fixtures/cc-oracle/cases/` (recorded with `shared/cc-oracle/record.sh`): byte for byte.

use std::path::{Path, PathBuf};

/// Cases where memdir knowingly prints something else, each with the reason.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// Cases whose order is the filesystem's own listing order (Claude Code does not sort a rules
/// folder): recorded on ext4 with this machine's hash seed, so elsewhere only the set of blocks
/// and the local listing order can be checked.
const ORDER_FROM_FILESYSTEM: &[&str] = &["rules-readdir-order"];

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cc-oracle/cases")
}

/// Where the recorder built every case: the paths in the recordings are under it.
const RECORDED_ROOT: &str = "/tmp/memdir-oracle";

/// Build a case in a fresh temp folder (two test runs never share one) and run `memdir context`
/// there; its output comes back with every path normalised to where the recorder built the case.
fn run_case(case: &str) -> Vec<u8> {
    run_case_with(case, |_| ())
}

/// [`run_case`], calling `inspect` with the built project before it is removed.
fn run_case_with(case: &str, inspect: impl FnOnce(&Path)) -> Vec<u8> {
    let dir = cases_dir().join(case);
    let temp = tempfile::tempdir().expect("tempdir");
    let base = temp.path().canonicalize().expect("canonical temp dir");
    let root = base.join("memdir-oracle").join(case);
    let recorded = PathBuf::from(RECORDED_ROOT).join(case);
    let home = root.join("home");
    let proj = root.join("proj");
    std::fs::create_dir_all(&home).expect("home");
    std::fs::create_dir_all(&proj).expect("proj");
    crate::common::git(&proj, &["init", "-q"]);
    let status = std::process::Command::new("bash")
        .arg(dir.join("setup.sh"))
        .current_dir(&proj)
        .env("ROOT", &root)
        .env("HOME", &home)
        .env("PROJ", &proj)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("setup runs");
    assert!(status.success(), "setup of {case}");
    let cwd = match std::fs::read_to_string(dir.join("cwd")) {
        Ok(rel) => proj.join(rel.trim()),
        Err(_) => proj.clone(),
    };
    let mut cmd = crate::common::TestEnv::binary_command();
    cmd.env_clear()
        .current_dir(&cwd)
        .env("HOME", &home)
        .env("MEMDIR_MANAGED_DIR", root.join("no-managed-dir"))
        .arg("context");
    if let Ok(vars) = std::fs::read_to_string(dir.join("env")) {
        for line in vars.lines().filter(|l| !l.trim().is_empty()) {
            if let Some((k, v)) = line.split_once('=') {
                let v = v.replace(&recorded.display().to_string(), &root.display().to_string());
                cmd.env(k, v);
            }
        }
    }
    let output = cmd.output().expect("memdir runs");
    assert!(
        output.status.success(),
        "memdir context failed for {case}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    inspect(&proj);
    let text = String::from_utf8(output.stdout).expect("context is UTF-8");
    normalise_paths(&text, &root, &recorded).into_bytes()
}

/// `text` with the paths under `root` written as under `recorded`: plain paths, and the
/// sanitised folder names Claude Code derives from a repository's path (projects/<sanitised>),
/// which change length and, past 200 characters, their hash with the path.
fn normalise_paths(text: &str, root: &Path, recorded: &Path) -> String {
    let mut repositories = vec![root.to_path_buf()];
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_name() == ".git" {
                repositories.push(dir.clone());
            } else if entry.file_type().is_ok_and(|t| t.is_dir()) {
                pending.push(path);
            }
        }
    }
    let moved = |path: &Path| recorded.join(path.strip_prefix(root).unwrap_or(path));
    let mut replacements: Vec<(String, String)> = repositories
        .iter()
        .map(|repo| {
            (
                memdir::paths::sanitize(&repo.display().to_string()),
                memdir::paths::sanitize(&moved(repo).display().to_string()),
            )
        })
        .collect();
    // The longest first: a repository's name holds its parent's as a prefix.
    replacements.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
    replacements.push((root.display().to_string(), recorded.display().to_string()));
    replacements
        .iter()
        .fold(text.to_string(), |text, (from, to)| text.replace(from, to))
}

/// The blocks of a rendered stack, split at each `Contents of`.
fn blocks(text: &str) -> Vec<String> {
    text.split("\n\nContents of ").map(str::to_string).collect()
}

/// The `.md` files under a rules folder in the order the system lists them, folders walked
/// where they stand: the order Claude Code loads them in.
fn listing_order(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("rules dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            listing_order(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn rules_follow_the_filesystem_listing_order() {
    for case in ORDER_FROM_FILESYSTEM {
        let want =
            std::fs::read_to_string(cases_dir().join(case).join("expected.txt")).expect("expected");
        let mut listed = Vec::new();
        let got = run_case_with(case, |proj| {
            listing_order(&proj.join(".claude/rules"), &mut listed);
            // As the (normalised) output names them.
            let recorded = Path::new(RECORDED_ROOT).join(case).join("proj");
            for path in &mut listed {
                *path = recorded.join(path.strip_prefix(proj).expect("under the project"));
            }
        });
        let got = String::from_utf8_lossy(&got).into_owned();
        let (mut want_sorted, mut got_sorted) = (blocks(&want), blocks(&got));
        want_sorted.sort();
        got_sorted.sort();
        assert_eq!(got_sorted, want_sorted, "{case}: the same blocks");
        let positions: Vec<usize> = listed
            .iter()
            .map(|p| {
                got.find(&format!("Contents of {} (", p.display()))
                    .expect("each rule is loaded")
            })
            .collect();
        assert!(
            positions.windows(2).all(|w| w[0] < w[1]),
            "{case}: rules in listing order:\n{got}"
        );
    }
}

/// The first line where two texts differ, for a readable failure.
fn first_difference(want: &str, got: &str) -> String {
    for (n, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}:\n  want {w:?}\n  got  {g:?}", n + 1);
        }
    }
    format!(
        "lengths differ: want {} lines, got {}",
        want.lines().count(),
        got.lines().count()
    )
}

#[test]
fn context_matches_every_recorded_case() {
    let mut names: Vec<String> = std::fs::read_dir(cases_dir())
        .expect("cases")
        .flatten()
        .filter(|e| e.path().join("expected.txt").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut failures = Vec::new();
    let mut compared = 0;
    for case in &names {
        let want = std::fs::read(cases_dir().join(case).join("expected.txt")).expect("expected");
        let got = run_case(case);
        if ORDER_FROM_FILESYSTEM.contains(&case.as_str()) {
            continue;
        }
        let known = KNOWN_DIFFERENCES.iter().any(|(name, _)| name == case);
        match (got == want, known) {
            (true, false) => compared += 1,
            (false, true) => {}
            (true, true) => failures.push(format!(
                "{case}: now matches; take it off KNOWN_DIFFERENCES"
            )),
            (false, false) => failures.push(format!(
                "{case}: {}",
                first_difference(
                    &String::from_utf8_lossy(&want),
                    &String::from_utf8_lossy(&got)
                )
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
    assert!(compared >= 100, "only {compared} cases compared");
}

/// `memdir context` in a test environment, with the project as cwd.
fn context(env: &crate::common::TestEnv, args: &[&str]) -> crate::common::Run {
    let mut all = vec!["context"];
    all.extend_from_slice(args);
    env.ok(&all)
}

#[test]
fn hostile_files_give_output_or_a_warning_never_a_hang() {
    let env = crate::common::TestEnv::new();
    let p = &env.project;
    let write = |rel: &str, bytes: &[u8]| {
        let path = p.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, bytes).expect("write");
    };
    // A directory named CLAUDE.md, a FIFO as CLAUDE.local.md (reading it would block).
    std::fs::create_dir_all(p.join("CLAUDE.md")).expect("dir");
    let fifo = std::process::Command::new("mkfifo")
        .arg(p.join("CLAUDE.local.md"))
        .status()
        .expect("mkfifo");
    assert!(fifo.success());
    // A symlink loop in rules/, a 10 MB import, invalid UTF-8, a 100-deep import chain.
    write(".claude/rules/ok.md", b"Rule ok.\n");
    std::os::unix::fs::symlink(".", p.join(".claude/rules/loop")).expect("loop");
    std::os::unix::fs::symlink("b-link", p.join(".claude/rules/a-link")).expect("a");
    std::os::unix::fs::symlink("a-link", p.join(".claude/rules/b-link")).expect("b");
    let mut main = b"Main.\n@big.md\n@bad-utf8.md\n@/dev/zero\n@chain/0.md\n".to_vec();
    main.extend_from_slice(b"\n");
    write(".claude/CLAUDE.md", &main);
    // Imports are relative to the importing file, here in .claude/.
    write(".claude/big.md", &vec![b'x'; 10 * 1024 * 1024]);
    write(".claude/bad-utf8.md", b"Valid then \xff\xfe invalid.\n");
    for i in 0..100 {
        write(
            &format!(".claude/chain/{i}.md"),
            format!("Chain {i}.\n@{}.md\n", i + 1).as_bytes(),
        );
    }
    // The user's own files may import anything, so /dev/zero is reached, and must not be read.
    let user = env.home.join(".claude/CLAUDE.md");
    std::fs::create_dir_all(user.parent().expect("parent")).expect("dir");
    std::fs::write(&user, "User.\n@/dev/zero\n@/dev/stdin\n").expect("user");
    let run = context(&env, &[]);
    let text = &run.stdout;
    assert!(text.contains("User."), "{text}");
    assert!(text.contains("Rule ok."), "{text}");
    assert_eq!(
        text.matches("Rule ok.").count(),
        1,
        "the loop is walked once: {text}"
    );
    assert!(
        text.contains("Valid then \u{fffd}\u{fffd} invalid."),
        "{text}"
    );
    assert!(!text.contains("xxxxxxxx"), "a 10 MB file is not loaded");
    // Depth 0 is .claude/CLAUDE.md, so the chain loads files at depths 1 to 4: chain 0..=3.
    assert!(
        text.contains("Chain 3.") && !text.contains("Chain 4."),
        "{text}"
    );
    let explain = context(&env, &["--explain"]).stdout;
    assert!(
        explain.contains("big.md from") && explain.contains("over the 4 MiB read limit"),
        "{explain}"
    );
    assert!(
        explain.contains("CLAUDE.local.md skipped: not a regular file"),
        "{explain}"
    );
    assert!(
        explain.contains("import of /dev/zero from") && explain.contains("not a regular file"),
        "{explain}"
    );
    assert!(explain.contains("import depth 5 reached"), "{explain}");
    assert!(explain.contains("outside the project"), "{explain}");
}

#[test]
fn ten_thousand_rules_load_in_order_once() {
    let env = crate::common::TestEnv::new();
    let rules = env.project.join(".claude/rules");
    std::fs::create_dir_all(&rules).expect("rules");
    for i in 0..10_000 {
        std::fs::write(rules.join(format!("r{i}.md")), format!("Rule {i}.\n")).expect("write");
    }
    let text = context(&env, &[]).stdout;
    assert_eq!(text.matches("Contents of ").count(), 10_000);
    let json = context(&env, &["--json"]).json();
    assert_eq!(json["files"].as_array().map(Vec::len), Some(10_000));
    assert_eq!(json["text"], text);
}

#[test]
fn explain_json_and_hook() {
    let env = crate::common::TestEnv::new();
    std::fs::write(
        env.project.join("CLAUDE.md"),
        "Project.\n@docs/a.md\n@../escape.md\n",
    )
    .expect("w");
    std::fs::create_dir_all(env.project.join("docs")).expect("docs");
    std::fs::write(env.project.join("docs/a.md"), "Imported.\n").expect("w");
    std::fs::create_dir_all(env.project.join(".claude/rules")).expect("rules");
    std::fs::write(
        env.project.join(".claude/rules/rs.md"),
        "---\npaths: \"src/**/*.rs\"\n---\nRust rule.\n",
    )
    .expect("w");
    env.save("user", "role", "Backend engineer", "Backend.");

    let plain = context(&env, &[]).stdout;
    assert!(plain.starts_with(
        "Codebase and user instructions are shown below. Be sure to adhere to these instructions."
    ));
    assert!(
        plain.contains("Imported.") && !plain.contains("Rust rule."),
        "{plain}"
    );
    assert!(
        plain.ends_with("- [Role](role.md) — Backend engineer"),
        "{plain}"
    );

    let touched = context(&env, &["--touch", "src/deep/main.rs"]).stdout;
    assert!(touched.contains("Rust rule."), "{touched}");
    assert!(
        !context(&env, &["--touch", "lib/main.rs"])
            .stdout
            .contains("Rust rule.")
    );

    let explain = context(&env, &["--explain"]).stdout;
    let lines: Vec<&str> = explain.lines().collect();
    assert!(
        lines[1].contains("project") && lines[1].ends_with("/CLAUDE.md"),
        "{explain}"
    );
    assert!(
        lines[2].contains("@ ") && lines[2].ends_with("docs/a.md"),
        "{explain}"
    );
    assert!(
        lines[3].contains("memory") && lines[3].ends_with("MEMORY.md"),
        "{explain}"
    );
    assert!(
        explain.contains("escape.md from") && explain.contains("outside the project"),
        "{explain}"
    );

    let json = context(&env, &["--json"]).json();
    assert_eq!(json["text"], plain);
    assert_eq!(
        json["files"][1]["imported_from"],
        env.project.join("CLAUDE.md").display().to_string()
    );
    assert_eq!(json["files"][2]["scope"], "memory");

    let payload = serde_json::json!({"cwd": env.project, "session_id": "s1", "source": "startup"});
    let hook = env.run_with_stdin(&["context", "--hook"], &payload.to_string());
    assert_eq!(hook.code, 0, "{}", hook.stderr);
    assert_eq!(
        hook.json(),
        serde_json::json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": plain}})
    );

    // Auto memory off: no index, and --explain says why.
    let mut off = env;
    off.set_var("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");
    assert!(!context(&off, &[]).stdout.contains("MEMORY.md"));
    assert!(
        context(&off, &["--explain"])
            .stdout
            .contains("auto memory is off (CLAUDE_CODE_DISABLE_AUTO_MEMORY=1)")
    );
}
