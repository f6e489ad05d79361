//! What a person at a terminal sees (DESIGN §11), through a pseudo-terminal (util-linux's
//! `script`), against what a pipe gets: colour (`--color`, `NO_COLOR`, `CLICOLOR_FORCE`), one
//! style for `error:`, `warning:` and `hint:` (clap's), and the pager for long output.

use crate::common::{Run, TestEnv};

const ESC: char = '\u{1b}';
/// clap's `error:`: bold red.
const ERROR: &str = "\u{1b}[1m\u{1b}[31merror:\u{1b}[0m";
/// clap's `tip:` style, memdir's `hint:`: green.
const HINT: &str = "\u{1b}[32mhint:\u{1b}[0m";
const WARNING: &str = "\u{1b}[1m\u{1b}[33mwarning:\u{1b}[0m";

/// A terminal that shows colour.
const TERM: (&str, &str) = ("TERM", "xterm-256color");

/// A store with one memory saved, then updated: a log of two commits and a diff between them.
fn store() -> TestEnv {
    let env = TestEnv::new();
    env.save_role();
    env.save(
        "user",
        "role",
        "Backend engineer",
        "I own the deploy scripts and CI.",
    );
    env
}

/// A pager that marks what went through it: `[pager LESS=…]`, the text, `[/pager]`.
fn marking_pager(env: &TestEnv) -> String {
    env.script(
        "pager",
        "#!/bin/sh\necho \"[pager LESS=$LESS]\"\ncat\necho \"[/pager]\"\n",
    )
}

/// `text` with its escape character shown as `␛`, for a snapshot a person can read.
fn visible(text: &str) -> String {
    text.replace(ESC, "␛").replace("\r\n", "\n")
}

fn terminal(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> Run {
    let mut all = vec![TERM];
    all.extend_from_slice(vars);
    env.on_terminal_with(args, &all, "")
}

#[test]
fn a_terminal_gets_coloured_diffs_log_and_review_and_a_pipe_none() {
    let env = store();
    let diff = terminal(&env, &["--no-pager", "diff", "HEAD~1", "HEAD"], &[]);
    assert_eq!(diff.code, 0, "{}", diff.stdout);
    insta::assert_snapshot!("diff_on_a_terminal", visible(&diff.stdout));
    let log = terminal(&env, &["--no-pager", "log"], &[]);
    assert!(
        log.stdout
            .lines()
            .all(|l| l.starts_with("\u{1b}[33m") && l.contains("(user): role")),
        "each commit id in yellow: {:?}",
        log.stdout
    );
    // log -p: each commit's diff painted as diff paints it.
    let patch = terminal(&env, &["--no-pager", "log", "-p", "-n", "1"], &[]);
    assert!(
        patch
            .stdout
            .contains("\u{1b}[32m+I own the deploy scripts and CI.\u{1b}[0m")
            && patch
                .stdout
                .contains("\u{1b}[31m-I own the deploy scripts.\u{1b}[0m"),
        "{:?}",
        patch.stdout
    );
    let review = terminal(&env, &["--no-pager", "review", "-v"], &[]);
    assert!(
        review
            .stdout
            .contains("\u{1b}[1mPromote to personal instructions (1)\u{1b}[0m"),
        "{:?}",
        review.stdout
    );
    // The same commands piped: not one escape code.
    for args in [
        &["diff", "HEAD~1", "HEAD"][..],
        &["log"],
        &["log", "-p"],
        &["review", "-v"],
    ] {
        let piped = env.ok(args);
        assert!(!piped.stdout.contains(ESC), "{args:?}: {:?}", piped.stdout);
        assert!(!piped.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn no_color_and_color_never_turn_it_off_on_a_terminal_and_color_always_turns_it_on_in_a_pipe() {
    let env = store();
    let args = ["--no-pager", "diff", "HEAD~1", "HEAD"];
    let no_color = terminal(&env, &args, &[("NO_COLOR", "1")]);
    assert!(!no_color.stdout.contains(ESC), "{:?}", no_color.stdout);
    assert!(
        no_color
            .stdout
            .contains("+I own the deploy scripts and CI.")
    );
    let never = terminal(&env, &["--color", "never", "diff", "HEAD~1", "HEAD"], &[]);
    assert!(!never.stdout.contains(ESC), "{:?}", never.stdout);
    // Without TERM a terminal is not known to show colour.
    let dumb = env.on_terminal_with(&args, &[("TERM", "dumb")], "");
    assert!(!dumb.stdout.contains(ESC), "{:?}", dumb.stdout);

    let always = env.ok(&["--color=always", "diff", "HEAD~1", "HEAD"]);
    assert!(
        always
            .stdout
            .contains("\u{1b}[32m+I own the deploy scripts and CI.\u{1b}[0m"),
        "{:?}",
        always.stdout
    );
    // CLICOLOR_FORCE colours a pipe; NO_COLOR beats it; --color never beats both.
    let mut forced = TestEnv::new();
    forced.set_var("CLICOLOR_FORCE", "1");
    forced.save_role();
    assert!(forced.ok(&["log"]).stdout.starts_with("\u{1b}[33m"));
    assert!(!forced.ok(&["log", "--color", "never"]).stdout.contains(ESC));
    forced.set_var("NO_COLOR", "1");
    assert!(!forced.ok(&["log"]).stdout.contains(ESC));
    assert!(
        forced
            .ok(&["log", "--color", "always"])
            .stdout
            .contains(ESC)
    );
}

#[test]
fn error_warning_and_hint_look_the_same_as_claps_usage_errors() {
    let env = store();
    // memdir's own error, with its hint.
    let mine = terminal(&env, &["show", "nope"], &[]);
    assert_eq!(mine.code, 2, "{:?}", mine.stdout);
    assert!(
        mine.stdout
            .starts_with(&format!("{ERROR} no memory named \"nope\"\r\n{HINT} ")),
        "{:?}",
        mine.stdout
    );
    // clap's usage error: the same `error:`.
    let claps = terminal(&env, &["shw"], &[]);
    assert_eq!(claps.code, 2);
    assert!(claps.stdout.starts_with(ERROR), "{:?}", claps.stdout);
    // A warning.
    let warned = terminal(
        &env,
        &[
            "save",
            "--type",
            "user",
            "--name",
            "key",
            "--description",
            "A key",
            "--body",
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        ],
        &[],
    );
    assert_eq!(warned.code, 0, "{:?}", warned.stdout);
    assert!(
        warned
            .stdout
            .starts_with(&format!("{WARNING} this memory holds a GitHub")),
        "{:?}",
        warned.stdout
    );
    // `--color never` and NO_COLOR reach clap's errors too.
    for run in [
        terminal(&env, &["--color", "never", "shw"], &[]),
        terminal(&env, &["shw"], &[("NO_COLOR", "1")]),
        terminal(&env, &["show", "nope"], &[("NO_COLOR", "1")]),
    ] {
        assert!(run.stdout.starts_with("error: "), "{:?}", run.stdout);
        assert!(!run.stdout.contains(ESC), "{:?}", run.stdout);
    }
    // Piped stderr: plain.
    let piped = env.fails(&["show", "nope"], 2, "no memory named");
    assert!(!piped.stderr.contains(ESC), "{:?}", piped.stderr);
}

#[test]
fn long_output_goes_through_the_pager_on_a_terminal_only() {
    let env = store();
    let pager = marking_pager(&env);
    for args in [
        &["log"][..],
        &["diff", "HEAD~1"],
        &["show", "role"],
        &["review"],
    ] {
        let paged = terminal(&env, args, &[("MEMDIR_PAGER", &pager)]);
        assert_eq!(paged.code, 0, "{args:?}: {:?}", paged.stdout);
        let text = paged.stdout.replace("\r\n", "\n");
        assert!(
            text.starts_with("[pager LESS=FRX]\n") && text.ends_with("[/pager]\n"),
            "{args:?}: {text:?}"
        );
        // `--no-pager`, a pipe, or JSON: never.
        let direct = terminal(
            &env,
            &[&["--no-pager"], args].concat(),
            &[("MEMDIR_PAGER", &pager)],
        );
        assert!(
            !direct.stdout.contains("[pager"),
            "{args:?}: {:?}",
            direct.stdout
        );
    }
    let mut piped_env = store();
    piped_env.set_var("MEMDIR_PAGER", &marking_pager(&piped_env));
    assert!(!piped_env.ok(&["log"]).stdout.contains("[pager"));
    let json = terminal(&env, &["log", "--json"], &[("MEMDIR_PAGER", &pager)]);
    assert!(!json.stdout.contains("[pager"), "{:?}", json.stdout);
    // PAGER when MEMDIR_PAGER is unset; LESS as the person set it; PAGER= or cat: none.
    let users = terminal(&env, &["log"], &[("PAGER", &pager), ("LESS", "R")]);
    assert!(
        users.stdout.starts_with("[pager LESS=R]"),
        "{:?}",
        users.stdout
    );
    for none in ["", "cat"] {
        let run = terminal(&env, &["log"], &[("PAGER", none), ("MEMDIR_PAGER", none)]);
        assert!(
            run.stdout.starts_with("\u{1b}[33m"),
            "{none:?}: {:?}",
            run.stdout
        );
    }
    // A command that is not long never pages.
    let list = terminal(&env, &["list"], &[("MEMDIR_PAGER", &pager)]);
    assert!(!list.stdout.contains("[pager"), "{:?}", list.stdout);
}

#[test]
fn a_pager_that_cannot_start_is_said_once_and_the_text_still_printed() {
    let env = store();
    let run = terminal(&env, &["log"], &[("MEMDIR_PAGER", "no-such-pager -R")]);
    assert_eq!(run.code, 0, "{:?}", run.stdout);
    let text = run.stdout.replace("\r\n", "\n");
    assert!(text.contains("update(user): role  by memdir\n"), "{text:?}");
    assert!(
        text.ends_with(&format!(
            "{WARNING} cannot start the pager `no-such-pager -R` (no-such-pager is not found); printed without it (MEMDIR_PAGER or PAGER sets it, --no-pager turns it off)\n"
        )),
        "{text:?}"
    );
    // With no pager set and no `less` on PATH, the text is printed and nothing said.
    let bare = terminal(&env, &["log"], &[("PATH", "/nonexistent")]);
    assert!(!bare.stdout.contains("warning"), "{:?}", bare.stdout);
    assert!(bare.stdout.contains("save(user): role"));
}

#[test]
fn an_error_is_not_paged_and_comes_after_the_pager() {
    let env = store();
    let pager = marking_pager(&env);
    let run = terminal(&env, &["show", "nope"], &[("MEMDIR_PAGER", &pager)]);
    assert_eq!(run.code, 2);
    assert!(!run.stdout.contains("[pager"), "{:?}", run.stdout);
}

#[test]
fn ctrl_c_in_the_pager_is_the_pagers_and_memdir_waits_for_it() {
    let env = store();
    // A pager that, like less, takes Ctrl-C itself: the terminal sends it to the whole
    // foreground group, memdir included.
    let pager = env.script(
        "pager",
        "#!/bin/sh\ntrap '' INT\ncat\nkill -INT 0\nsleep 0.2\necho '[pager still there]'\n",
    );
    let run = terminal(&env, &["log"], &[("MEMDIR_PAGER", &pager)]);
    assert_eq!(run.code, 0, "memdir waited for its pager: {:?}", run.stdout);
    assert!(
        run.stdout.trim_end().ends_with("[pager still there]"),
        "{:?}",
        run.stdout
    );
}
