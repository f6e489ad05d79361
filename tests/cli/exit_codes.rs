//! Exit codes as grep and git users expect them (DESIGN §11), in one table (`memdir --help`,
//! README): a search with no hit and a verify with stale memories exit 1 and print nothing more;
//! an empty listing names the memory dir it read, on a terminal; a folder where a file is
//! expected is bad input (2) and changes nothing.

use crate::common::{TestEnv, assert_git_clean, git, tree_snapshot};

#[test]
fn the_exit_codes_are_one_table_in_help_and_in_the_readme() {
    let env = TestEnv::new();
    let help = env.ok(&["--help"]).stdout;
    let table = help
        .split_once("Exit codes:\n")
        .map(|(_, table)| table)
        .expect("memdir --help has the table");
    for (code, says) in [
        ("0", "success"),
        ("1", "search found nothing"),
        ("2", "bad usage or invalid input"),
        ("3", "auto memory is disabled"),
    ] {
        assert!(table.contains(&format!("  {code}  ")), "{code}: {table}");
        assert!(table.contains(says), "{says}: {table}");
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    for row in [
        "| 0 | success |",
        "| 1 |",
        "| 2 | bad usage or invalid input",
        "| 3 | auto memory is disabled",
    ] {
        assert!(readme.contains(row), "README lacks {row:?}");
    }
}

#[test]
fn a_search_with_no_hit_and_a_verify_with_stale_memories_exit_1() {
    let env = TestEnv::new();
    env.save(
        "project",
        "parser",
        "Where the parser is",
        "The parser is in src/parse.rs.",
    );
    assert_eq!(env.ok(&["search", "parser"]).code, 0);
    assert_eq!(env.exits(&["search", "kubernetes"], 1).stdout, "");
    // Stale: the project has no src/parse.rs.
    let stale = env.exits(&["verify"], 1);
    assert!(
        stale.stdout.contains("parser: names src/parse.rs"),
        "{}",
        stale.stdout
    );
    std::fs::create_dir_all(env.project.join("src")).expect("src");
    std::fs::write(env.project.join("src/parse.rs"), "fn parse() {}\n").expect("parse.rs");
    git(&env.project, &["add", "src/parse.rs"]);
    assert_eq!(env.ok(&["verify"]).code, 0);
}

#[test]
fn an_empty_listing_names_the_memory_dir_on_a_terminal_and_prints_nothing_in_a_pipe() {
    let env = TestEnv::new();
    for args in [&["list"][..], &["log"]] {
        let piped = env.ok(args);
        assert_eq!((piped.stdout.as_str(), piped.stderr.as_str()), ("", ""));
        let shown = env.on_terminal_with(args, &[], "");
        assert_eq!(shown.code, 0);
        let what = if args == ["list"] {
            "no memories"
        } else {
            "no history yet"
        };
        assert_eq!(
            env.normalised(&shown.stdout),
            format!("{what} in [ROOT]/home/.claude/projects/[SANITISED-ROOT]-proj/memory\r\n"),
            "{args:?}"
        );
    }
    env.save_role();
    let shown = env.on_terminal_with(&["list", "--type", "feedback"], &[], "");
    assert!(
        env.normalised(&shown.stdout)
            .starts_with("no feedback memories in [ROOT]/home/.claude/projects/"),
        "{:?}",
        shown.stdout
    );
    let shown = env.on_terminal_with(&["log", "--op", "delete"], &[], "");
    assert!(
        shown.stdout.starts_with("no commit matches in "),
        "{:?}",
        shown.stdout
    );
    // -q: not a word.
    let quiet = env.on_terminal_with(&["-q", "list", "--type", "feedback"], &[], "");
    assert_eq!(quiet.stdout, "");
}

#[test]
fn a_folder_where_a_file_is_expected_is_bad_input_and_changes_nothing() {
    let env = TestEnv::new();
    env.save(
        "project",
        "lint",
        "Lint first",
        "Run the linter before every commit.",
    );
    git(
        &env.project,
        &["commit", "-q", "--allow-empty", "-m", "init"],
    );
    let dir = env.memory_dir();
    std::fs::create_dir_all(env.project.join("docs")).expect("docs");
    let memories = tree_snapshot(&dir);
    let project = tree_snapshot(&env.project);
    let folder = env.root.display().to_string();
    env.fails(
        &[
            "save",
            "--type",
            "user",
            "--name",
            "x",
            "--description",
            "d",
            "--body-file",
            &folder,
        ],
        2,
        "is a folder: give a file",
    );
    env.fails(
        &["promote", "lint", "--to", "project", "--target", "docs"],
        2,
        "--target docs is a folder: give the instruction file (such as docs/CLAUDE.md)",
    );
    env.fails(
        &["extract", "--transcript", &folder],
        2,
        "is not a regular file (a directory)",
    );
    assert_eq!(tree_snapshot(&dir), memories);
    assert_eq!(tree_snapshot(&env.project), project);
    assert_git_clean(&dir);
}
