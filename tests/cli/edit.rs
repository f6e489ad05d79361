//! `memdir edit` with a scripted `$EDITOR` (valid, invalid, unchanged, secret, failing, raced),
//! field by field, on a terminal that is asked again; and what `save` and `rm` gained with it:
//! the editor when a terminal gives no body, a type change only when asked for, `--body-file
//! -`, several names in one commit, `--json`. Every store is checked with the real git.

use std::path::{Path, PathBuf};

use crate::common::{Run, TestEnv, assert_git_clean, git, subjects, tree_snapshot};

const ROLE: &str =
    "---\nname: role\ndescription: Backend engineer\ntype: user\n---\nI own the deploy scripts.\n";

/// A store holding `role` (user), saved once, and an editor script `name` doing `body`.
fn store_with_editor(body: &str) -> (TestEnv, PathBuf) {
    let mut env = TestEnv::new();
    env.set_var("PATH", "/usr/bin:/bin");
    env.save_role();
    let editor = env.script("editor", &format!("#!/bin/sh\n{body}\n"));
    env.set_var("EDITOR", &editor);
    let dir = env.memory_dir();
    (env, dir)
}

/// The file the `hint:` line says the person's text is kept in.
fn kept_file(run: &Run) -> PathBuf {
    let line = run
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("hint: your text is kept in "))
        .unwrap_or_else(|| panic!("no kept file named: {}", run.stderr));
    PathBuf::from(line.trim_end_matches("; nothing in the memory dir changed"))
}

fn topic(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(format!("{name}.md"))).expect("the topic file")
}

#[test]
fn an_edit_in_the_editor_is_checked_and_committed_as_one_update() {
    let (env, dir) = store_with_editor(
        "sed -i -e 's/^description: .*/description: Backend engineer who runs CI/' \
         -e 's/^I own the deploy scripts.$/I own the deploy scripts and CI./' \"$1\"",
    );
    let run = env.ok(&["edit", "role"]);
    assert_eq!(run.stdout, "updated role (role.md)\n");
    assert_eq!(
        topic(&dir, "role"),
        "---\nname: role\ndescription: Backend engineer who runs CI\ntype: user\n---\nI own the deploy scripts and CI.\n"
    );
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    assert_eq!(index, "- [Role](role.md) — Backend engineer who runs CI\n");
    assert_eq!(subjects(&dir), ["update(user): role", "save(user): role"]);
    assert_git_clean(&dir);
    // The editor's file is gone once the text is committed.
    let leftovers: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .expect("temp dir")
        .flatten()
        .filter(|e| {
            e.file_name().to_string_lossy().starts_with("memdir-edit-")
                && e.path().join("role.md").is_file()
                && std::fs::read_to_string(e.path().join("role.md"))
                    .is_ok_and(|t| t.contains("who runs CI"))
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn an_edit_that_changes_nothing_commits_nothing() {
    for editor in ["exit 0", "cp \"$1\" \"$1.bak\" && mv \"$1.bak\" \"$1\""] {
        let (env, dir) = store_with_editor(editor);
        let before = tree_snapshot(&dir);
        let run = env.ok(&["edit", "role"]);
        assert_eq!(run.stdout, "role unchanged: nothing to commit\n");
        assert_eq!(tree_snapshot(&dir), before, "{editor}");
        assert_eq!(subjects(&dir), ["save(user): role"]);
        assert_git_clean(&dir);
        let json = env.ok(&["edit", "role", "--json"]).json();
        assert_eq!(json, serde_json::json!({"commits": [], "memories": []}));
    }
}

#[test]
fn an_invalid_edit_is_refused_with_its_error_and_the_text_kept() {
    for (editor, error) in [
        (
            "sed -i 's/^type: user/type: colleague/' \"$1\"",
            "the edited file: its type \"colleague\" is not one of user, feedback, project, reference",
        ),
        (
            "sed -i 's/^name: role/name: roles/' \"$1\"",
            "the edited file: its name is \"roles\", not \"role\"",
        ),
        (
            "printf 'Just text, no frontmatter\\n' > \"$1\"",
            "the edited file: it has no frontmatter",
        ),
        (
            "sed -i 's/^description: .*/description:/' \"$1\"",
            "the edited file: its description is empty",
        ),
        (
            "sed -i '/^type:/d' \"$1\"",
            "the edited file: it has no type",
        ),
        ("sed -i '/^I own/d' \"$1\"", "the body is empty"),
        (
            "sed -i 's/^---$/--/' \"$1\" && sed -i '1s/^--$/---/' \"$1\"",
            "the edited file: its frontmatter has no closing '---' line",
        ),
    ] {
        let (env, dir) = store_with_editor(editor);
        let before = tree_snapshot(&dir);
        let run = env.fails(&["edit", "role"], 2, error);
        assert!(
            run.stderr.starts_with(&format!("error: {error}")),
            "{}",
            run.stderr
        );
        assert_eq!(tree_snapshot(&dir), before, "{editor}: nothing changed");
        assert_git_clean(&dir);
        let kept = kept_file(&run);
        let text = std::fs::read_to_string(&kept).expect("the kept text");
        assert_ne!(text, ROLE, "{editor}: the person's text, not the memory's");
        std::fs::remove_dir_all(kept.parent().expect("its folder")).expect("clean up");
    }
}

#[test]
fn an_edit_that_adds_a_secret_is_refused_but_one_already_there_is_kept_with_a_warning() {
    let (env, dir) =
        store_with_editor("printf 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789\\n' >> \"$1\"");
    let before = tree_snapshot(&dir);
    let run = env.fails(
        &["edit", "role"],
        2,
        "refused: the edit adds a GitHub token on line 2 of the body (token ghp_****)",
    );
    assert!(
        !run.stderr.contains("abcdefghij"),
        "never the secret itself"
    );
    assert_eq!(tree_snapshot(&dir), before);
    assert_git_clean(&dir);
    let kept = kept_file(&run);
    assert!(
        std::fs::read_to_string(&kept)
            .expect("kept")
            .contains("ghp_abcdef")
    );

    // A memory saved with a secret (a warning then) can still be edited: the edit does not add
    // it.
    let (env, dir) =
        store_with_editor("sed -i 's/^description: .*/description: Keys for staging/' \"$1\"");
    env.save(
        "reference",
        "keys",
        "Keys",
        "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    );
    let run = env.ok(&["edit", "keys"]);
    assert!(
        run.stderr
            .starts_with("warning: this memory holds a GitHub token"),
        "{}",
        run.stderr
    );
    assert!(topic(&dir, "keys").contains("description: Keys for staging"));
    assert_git_clean(&dir);
}

#[test]
fn team_memory_refuses_any_secret_an_edit_would_keep() {
    let env = TestEnv::new();
    let remote = crate::common::bare_remote(&env.root);
    let mate = crate::common::Mate::join(&remote);
    mate.save("deploy", "Deploys go through the release branch.");
    let mut env = mate.env;
    env.set_var("PATH", "/usr/bin:/bin");
    let editor = env.script(
        "editor",
        "#!/bin/sh\nprintf 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789\\n' >> \"$1\"\n",
    );
    env.set_var("EDITOR", &editor);
    let before = tree_snapshot(&mate.team);
    env.fails(
        &["edit", "deploy", "--team"],
        2,
        "refused: team memory is shared",
    );
    assert_eq!(tree_snapshot(&mate.team), before);
    assert_git_clean(&mate.team);
}

#[test]
fn a_failing_editor_changes_nothing_and_keeps_the_text() {
    let (env, dir) = store_with_editor("echo 'half an edit' >> \"$1\"; exit 3");
    let before = tree_snapshot(&dir);
    let run = env.fails(&["edit", "role"], 1, "exited with 3; nothing was saved");
    assert_eq!(tree_snapshot(&dir), before);
    assert!(
        std::fs::read_to_string(kept_file(&run))
            .expect("kept")
            .ends_with("half an edit\n")
    );
    let mut env = env;
    env.set_var("EDITOR", "no-such-editor --wait");
    env.fails(
        &["edit", "role"],
        1,
        "cannot start the editor `no-such-editor --wait`: no-such-editor is not found",
    );
    assert_git_clean(&dir);
}

#[test]
fn a_memory_changed_by_someone_else_during_the_edit_is_not_overwritten() {
    let env = TestEnv::new();
    env.save_role();
    let dir = env.memory_dir();
    // The editor, and meanwhile an agent rewriting the memory itself.
    let editor = env.script(
        "editor",
        &format!(
            "#!/bin/sh\n/usr/bin/sed -i 's/^description: .*/description: mine/' \"$1\"\n\
             /usr/bin/sed -i 's/deploy scripts/deploy scripts (agent)/' '{}/role.md'\n",
            dir.display()
        ),
    );
    let mut env = env;
    env.set_var("EDITOR", &editor);
    let run = env.fails(&["edit", "role"], 1, "role changed since it was read");
    assert!(
        topic(&dir, "role").contains("(agent)"),
        "the agent's write stands"
    );
    assert!(
        std::fs::read_to_string(kept_file(&run))
            .expect("kept")
            .contains("description: mine")
    );
    env.ok(&["snapshot"]);
    assert_git_clean(&dir);
}

#[test]
fn on_a_terminal_a_refused_edit_is_opened_again_until_it_passes_or_the_person_gives_up() {
    // First the type is broken, then fixed.
    let twice = "n=$(cat \"$0.count\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$0.count\"\n\
                 if [ $n = 1 ]; then sed -i 's/^type: user/type: colleague/' \"$1\"; \
                 else sed -i -e 's/^type: colleague/type: user/' \
                 -e 's/^description: .*/description: fixed the second time/' \"$1\"; fi";
    let (env, dir) = store_with_editor(twice);
    let run = env.on_terminal_with(&["edit", "role"], &[], "y\n");
    assert_eq!(run.code, 0, "{}", run.stdout);
    let screen = run.stdout.replace("\r\n", "\n");
    assert!(
        screen.contains("error: the edited file: its type \"colleague\" is not one of user, feedback, project, reference\nedit it again? [Y/n] "),
        "{screen:?}"
    );
    assert!(screen.ends_with("updated role (role.md)\n"), "{screen:?}");
    assert!(topic(&dir, "role").contains("description: fixed the second time"));
    assert_eq!(subjects(&dir), ["update(user): role", "save(user): role"]);
    assert_git_clean(&dir);

    // Said no: refused, nothing changed.
    let (env, dir) = store_with_editor("sed -i 's/^type: user/type: colleague/' \"$1\"");
    let before = tree_snapshot(&dir);
    let run = env.on_terminal_with(&["edit", "role"], &[], "n\n");
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stdout.contains("error: role was not changed"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("hint: your text is kept in "),
        "{}",
        run.stdout
    );
    assert_eq!(tree_snapshot(&dir), before);
    assert_git_clean(&dir);
}

#[test]
fn edit_flags_change_one_field_and_keep_the_rest() {
    let env = TestEnv::new();
    env.save_role();
    let dir = env.memory_dir();
    env.ok(&["edit", "role", "--description", "Owns deploys"]);
    assert_eq!(
        topic(&dir, "role"),
        "---\nname: role\ndescription: Owns deploys\ntype: user\n---\nI own the deploy scripts.\n"
    );
    env.ok(&["edit", "role", "--title", "My role"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        "- [My role](role.md) — Owns deploys\n"
    );
    let json = env
        .ok(&["edit", "role", "--type", "project", "--json"])
        .json();
    assert_eq!(json["memories"][0]["type"], "project");
    assert_eq!(json["memories"][0]["change"], "updated");
    assert_eq!(
        json["commits"][0]["commit"],
        git(&dir, &["rev-parse", "HEAD"]).trim()
    );
    assert!(topic(&dir, "role").contains("type: project\n"));
    assert_eq!(
        subjects(&dir),
        [
            "update(project): role",
            "update(user): role",
            "update(user): role",
            "save(user): role"
        ]
    );
    assert_git_clean(&dir);
    env.fails(
        &["edit", "nope", "--description", "x"],
        2,
        "no memory named \"nope\"",
    );
    env.fails(&["edit", "role", "--type", "colleague"], 2, "colleague");
    assert_git_clean(&dir);
}

#[test]
fn a_save_that_would_change_a_type_says_so_and_needs_change_type() {
    let env = TestEnv::new();
    env.save_role();
    let dir = env.memory_dir();
    let before = tree_snapshot(&dir);
    let run = env.fails(
        &["save", "--name", "role", "--type", "project", "--body", "x"],
        2,
        "role is a user memory: saving it as project would change its type",
    );
    assert!(
        run.stderr.contains(
            "hint: give --change-type to change it, or run `memdir edit role --type project`"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(tree_snapshot(&dir), before);
    env.ok(&[
        "save",
        "--name",
        "role",
        "--type",
        "project",
        "--change-type",
        "--body",
        "x",
    ]);
    assert!(topic(&dir, "role").contains("type: project\n"));
    assert_git_clean(&dir);
}

#[test]
fn an_update_keeps_the_fields_not_given_and_a_new_memory_needs_them() {
    let env = TestEnv::new();
    env.save_role();
    let dir = env.memory_dir();
    env.ok(&["save", "--name", "role", "--body", "I own CI too."]);
    assert_eq!(
        topic(&dir, "role"),
        "---\nname: role\ndescription: Backend engineer\ntype: user\n---\nI own CI too.\n"
    );
    env.fails(
        &["save", "--name", "new", "--description", "d", "--body", "b"],
        2,
        "new is a new memory: give --type",
    );
    env.fails(
        &["save", "--name", "new", "--type", "user", "--body", "b"],
        2,
        "new is a new memory: give --description",
    );
    env.fails(
        &["save", "--name", "new", "--change-type", "--body", "b"],
        2,
        "--type",
    );
    assert!(!dir.join("new.md").exists());
    assert_git_clean(&dir);
}

#[test]
fn body_file_dash_reads_stdin() {
    let env = TestEnv::new();
    let run = env.run_with_stdin(
        &[
            "save",
            "--type",
            "user",
            "--name",
            "piped",
            "--description",
            "d",
            "--body-file",
            "-",
        ],
        "From stdin.\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let dir = env.memory_dir();
    assert!(topic(&dir, "piped").ends_with("---\nFrom stdin.\n"));
    assert_git_clean(&dir);
}

#[test]
fn save_on_a_terminal_with_no_body_opens_the_editor() {
    let mut env = TestEnv::new();
    env.set_var("PATH", "/usr/bin:/bin");
    let editor = env.script(
        "editor",
        "#!/bin/sh\nprintf 'Deploys go through the release branch.\\n' >> \"$1\"\n",
    );
    env.set_var("EDITOR", &editor);
    let run = env.on_terminal_with(
        &[
            "save",
            "--name",
            "deploy",
            "--type",
            "project",
            "--description",
            "How we deploy",
        ],
        &[],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.ends_with("saved deploy (deploy.md)\r\n"),
        "{:?}",
        run.stdout
    );
    let dir = env.memory_dir();
    assert_eq!(
        topic(&dir, "deploy"),
        "---\nname: deploy\ndescription: How we deploy\ntype: project\n---\nDeploys go through the release branch.\n"
    );
    assert_git_clean(&dir);
    // No type given for a new memory: the person writes it in the editor, or is told.
    let run = env.on_terminal_with(&["save", "--name", "other"], &[], "n\n");
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.contains("it has no type"), "{}", run.stdout);
    assert!(!dir.join("other.md").exists());
    assert_git_clean(&dir);
}

#[test]
fn rm_takes_several_names_in_one_commit_or_none() {
    let env = TestEnv::new();
    env.save_role();
    env.save("project", "deploy", "How we deploy", "Release branch.");
    env.save("project", "lint", "Lint first", "npm run lint.");
    let dir = env.memory_dir();
    let before = tree_snapshot(&dir);
    env.fails(
        &["rm", "role", "nope", "deploy"],
        2,
        "no memory named \"nope\"",
    );
    assert_eq!(tree_snapshot(&dir), before, "none removed");
    let json = env.ok(&["rm", "role", "deploy", "role", "--json"]).json();
    assert_eq!(
        json["memories"],
        serde_json::json!([
            {"name": "role", "type": "user", "file": "role.md", "change": "removed"},
            {"name": "deploy", "type": "project", "file": "deploy.md", "change": "removed"},
        ])
    );
    assert_eq!(json["commits"].as_array().map(Vec::len), Some(1));
    assert_eq!(subjects(&dir)[0], "delete(mixed): role, deploy");
    assert_eq!(
        std::fs::read_to_string(dir.join("MEMORY.md")).expect("index"),
        "- [Lint](lint.md) — Lint first\n"
    );
    assert_git_clean(&dir);
    // History reads each name back out of the one commit.
    let log = env.ok(&["log", "deploy", "--json"]).json();
    assert_eq!(log[0]["op"], "delete");
    let doctor = env.run(&["doctor", "--json"]).json();
    let restorable: Vec<&str> = doctor["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["kind"] == "restorable")
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(restorable, ["deploy", "role"]);
    env.ok(&["restore", "deploy"]);
    assert_eq!(
        topic(&dir, "deploy"),
        "---\nname: deploy\ndescription: How we deploy\ntype: project\n---\nRelease branch.\n"
    );
    let one = env.ok(&["rm", "lint"]);
    assert_eq!(one.stdout, "removed lint (lint.md)\n");
    assert_eq!(subjects(&dir)[0], "delete(project): lint");
    assert_git_clean(&dir);
}
