//! `memdir completions SHELL`: each shell's completion script, generated from the command line
//! itself.

use crate::common::TestEnv;

#[test]
fn completions_name_the_commands_and_the_flags() {
    let env = TestEnv::new();
    let bash = env.ok(&["completions", "bash"]).stdout;
    assert!(bash.starts_with("_memdir() {"), "{bash}");
    for word in ["save", "--memory-dir", "uninstall", "completions"] {
        assert!(bash.contains(word), "{word} is not completed");
    }
    assert!(
        !bash.contains("merge-index"),
        "a hidden command is not offered"
    );
    for (shell, mark) in [
        ("zsh", "#compdef memdir"),
        ("fish", "complete -c memdir"),
        ("elvish", "edit:completion:arg-completer[memdir]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = env.ok(&["completions", shell]).stdout;
        assert!(script.contains(mark), "{shell}: {script}");
        assert!(script.contains("memory-dir"), "{shell}");
    }
    env.fails(&["completions", "tcsh"], 2, "tcsh");
}
