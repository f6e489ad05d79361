//! `memdir completions SHELL`: the script that registers memdir with a shell, after which each
//! Tab asks memdir (clap_complete's engine) for commands, flags, and values it knows from the
//! memory dir: memory names (team memory's with `--team`), deleted ones for `restore`,
//! revisions, types. Run under the real bash.

use crate::common::{Mate, TestEnv, bare_remote, git};

/// What bash completes for `line` (the last word is the one being completed; an empty one when
/// `line` ends with a space), with memdir's script sourced, in `env`'s environment.
fn bash_completes(env: &TestEnv, line: &str) -> Vec<String> {
    let mut words: Vec<&str> = line.split(' ').collect();
    if words.last() == Some(&"") {
        words.pop();
        words.push("");
    }
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let script = format!(
        "source <(\"$MEMDIR\" completions bash) || exit 9\n\
         COMP_WORDS=({words})\n\
         COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n\
         COMP_LINE='{line}'\n\
         COMP_POINT=${{#COMP_LINE}}\n\
         COMP_TYPE=9\n\
         complete -p memdir >/dev/null || exit 8\n\
         _clap_complete_memdir memdir \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words = quoted.join(" "),
    );
    let output = env
        .command_for(std::path::Path::new("/usr/bin/bash"))
        .args(["--norc", "--noprofile", "-c", &script])
        .env("MEMDIR", TestEnv::binary())
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

fn store() -> TestEnv {
    let env = TestEnv::new();
    env.save_role();
    env.save(
        "project",
        "release-freeze",
        "No merges on Fridays",
        "Freeze.",
    );
    env.save(
        "feedback",
        "run-lint",
        "Lint before committing",
        "npm run lint.",
    );
    env
}

#[test]
fn bash_completes_memory_names_for_the_commands_that_take_one() {
    let env = store();
    for line in [
        "memdir show r",
        "memdir rm r",
        "memdir log r",
        "memdir edit r",
        "memdir promote r",
        "memdir save --name r",
        "memdir --memory-dir elsewhere show r",
    ] {
        let want: &[&str] = if line.contains("elsewhere") {
            &[]
        } else {
            &["role", "release-freeze", "run-lint"]
        };
        let mut got = bash_completes(&env, line);
        got.sort();
        let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(got, want, "{line}");
    }
    assert_eq!(bash_completes(&env, "memdir show rel"), ["release-freeze"]);
    // A second word of rm is a name too.
    assert_eq!(bash_completes(&env, "memdir rm role ru"), ["run-lint"]);
}

#[test]
fn bash_completes_team_memory_names_with_team() {
    let origin = TestEnv::new();
    let remote = bare_remote(&origin.root);
    let mate = Mate::join(&remote);
    mate.save("deploy-window", "Deploys happen on Tuesdays.");
    mate.env.save_role();
    for line in [
        "memdir --team show d",
        "memdir show --team d",
        "memdir --team rm d",
    ] {
        assert_eq!(bash_completes(&mate.env, line), ["deploy-window"], "{line}");
    }
    assert_eq!(
        bash_completes(&mate.env, "memdir show d"),
        Vec::<String>::new()
    );
    assert_eq!(bash_completes(&mate.env, "memdir show r"), ["role"]);
}

#[test]
fn bash_completes_revisions_types_operations_and_deleted_memories() {
    let env = store();
    env.ok(&["rm", "run-lint"]);
    let dir = env.memory_dir();
    let head = git(&dir, &["rev-parse", "--short=7", "HEAD"])
        .trim()
        .to_string();
    let first = git(&dir, &["rev-list", "--max-parents=0", "HEAD"])[..7].to_string();
    for line in [
        "memdir diff ",
        "memdir show role --at ",
        "memdir rollback ",
        "memdir revert ",
        "memdir restore role --at ",
    ] {
        let got = bash_completes(&env, line);
        assert_eq!(got.first().map(String::as_str), Some("HEAD"), "{line}");
        assert_eq!(got.get(1), Some(&head), "{line}: the newest commit next");
        assert!(got.contains(&first), "{line}: {got:?}");
    }
    assert_eq!(
        bash_completes(&env, &format!("memdir diff {}", &first[..4])),
        [first]
    );
    assert_eq!(
        bash_completes(&env, "memdir save --type "),
        ["user", "feedback", "project", "reference"]
    );
    assert_eq!(bash_completes(&env, "memdir list --type f"), ["feedback"]);
    assert_eq!(
        bash_completes(&env, "memdir edit role --type p"),
        ["project"]
    );
    assert_eq!(bash_completes(&env, "memdir log --op de"), ["delete"]);
    assert_eq!(
        bash_completes(&env, "memdir log --op re"),
        ["restore", "revert", "redo"]
    );
    // restore offers what was deleted, not what is there.
    assert_eq!(bash_completes(&env, "memdir restore r"), ["run-lint"]);
}

#[test]
fn bash_completes_commands_and_flags_but_no_hidden_command() {
    let env = TestEnv::new();
    assert_eq!(bash_completes(&env, "memdir sh"), ["show"]);
    assert_eq!(bash_completes(&env, "memdir m"), ["mcp", "man"]);
    assert_eq!(bash_completes(&env, "memdir e"), ["edit", "extract"]);
    assert!(bash_completes(&env, "memdir --no-").contains(&"--no-pager".to_string()));
    assert_eq!(
        bash_completes(&env, "memdir --color "),
        ["auto", "always", "never"]
    );
    // No memory dir yet: no names, and no error.
    assert_eq!(
        bash_completes(&env, "memdir show "),
        bash_completes(&env, "memdir show --")
    );
}

#[test]
fn every_shell_gets_a_script_that_asks_memdir() {
    let env = TestEnv::new();
    let binary = TestEnv::binary().display().to_string();
    for (shell, mark) in [
        (
            "bash",
            "complete -o nospace -o bashdefault -o nosort -F _clap_complete_memdir memdir",
        ),
        ("zsh", "#compdef memdir"),
        ("fish", "complete --keep-order --exclusive --command memdir"),
        ("elvish", "edit:completion:arg-completer[memdir]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = env.ok(&["completions", shell]).stdout;
        assert!(script.contains(mark), "{shell}: {script}");
        assert!(script.contains("MEMDIR_COMPLETE"), "{shell}: {script}");
        assert!(
            script.contains(&binary),
            "{shell} runs this memdir: {script}"
        );
    }
    env.fails(&["completions", "tcsh"], 2, "tcsh");
    // zsh asks memdir the same way, and gets descriptions.
    let store = store();
    let asked = store
        .command()
        .env("MEMDIR_COMPLETE", "zsh")
        .env("_CLAP_COMPLETE_INDEX", "2")
        .env("_CLAP_IFS", "\n")
        .args(["--", "memdir", "show", "ro"])
        .output()
        .expect("memdir runs");
    assert_eq!(
        String::from_utf8_lossy(&asked.stdout),
        "role:Backend engineer"
    );
}
