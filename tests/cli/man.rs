//! `memdir man DIR`: a man page per command and subcommand, with the text of its --help,
//! generated into a folder.

use crate::common::TestEnv;

/// A man page's text as a reader sees it: roff's escaped hyphens and quotes plain.
fn page_text(path: &std::path::Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .replace("\\-", "-")
        .replace("\\(aq", "'")
}

#[test]
fn man_writes_a_page_per_command_into_a_folder_it_creates() {
    let env = TestEnv::new();
    let dir = env.root.join("share/man/man1");
    assert!(!dir.parent().expect("a parent").exists());
    let run = env.ok(&["man", dir.to_str().expect("UTF-8")]);
    assert!(
        run.stdout
            .contains(&format!("man pages to {}", dir.display())),
        "{}",
        run.stdout
    );
    let save = page_text(&dir.join("memdir-save.1"));
    let help = env.ok(&["save", "--help"]).stdout;
    let about = help.lines().next().expect("save --help's first line");
    assert!(about.starts_with("Save a memory"), "{help}");
    assert!(
        save.contains(about),
        "{about:?} not in memdir-save.1: {save}"
    );
    assert!(save.contains("--description"), "{save}");

    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .expect("the folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    for page in [
        "memdir.1",
        "memdir-hooks.1",
        "memdir-hooks-install.1",
        "memdir-hooks-uninstall.1",
        "memdir-team-sync.1",
        "memdir-man.1",
    ] {
        assert!(pages.iter().any(|p| p == page), "{page} in {pages:?}");
    }
    assert!(
        pages
            .iter()
            .all(|p| p.starts_with("memdir") && p.ends_with(".1")),
        "{pages:?}"
    );
    assert!(
        !pages
            .iter()
            .any(|p| p.contains("merge-index") || p.contains("help")),
        "hidden commands and clap's help get no page: {pages:?}"
    );
    // The top page lists the commands.
    assert!(page_text(&dir.join("memdir.1")).contains("memdir-save(1)"));

    // Again into the same folder: the pages are replaced, none added.
    env.ok(&["man", dir.to_str().expect("UTF-8")]);
    assert_eq!(
        std::fs::read_dir(&dir).expect("the folder").count(),
        pages.len()
    );

    // A file where the folder should be: refused, untouched.
    let file = env.root.join("not-a-folder");
    std::fs::write(&file, "mine\n").expect("write");
    env.fails(
        &["man", file.to_str().expect("UTF-8")],
        2,
        "is not a folder",
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "mine\n");
}

/// `memdir --help` and `-h` list every command with the first line of its own help, as
/// `memdir COMMAND -h` starts (a command's description lives on its arguments' struct, so a
/// listing made before that struct is applied would print bare names).
#[test]
fn help_lists_every_command_with_its_summary() {
    let env = TestEnv::new();
    for flag in ["--help", "-h"] {
        let help = env.ok(&[flag]).stdout;
        for command in ["save", "list", "context", "hooks", "team", "mcp"] {
            let own = env.ok(&[command, "-h"]).stdout;
            let summary = own.lines().next().expect("a first line");
            assert!(!summary.is_empty(), "{command} -h: {own}");
            let listed = help
                .lines()
                .find(|line| line.split_whitespace().next() == Some(command))
                .unwrap_or_else(|| panic!("{command} is not listed: {help}"));
            assert!(
                listed.ends_with(summary),
                "{flag}: {listed:?} vs {summary:?}"
            );
        }
    }
}
