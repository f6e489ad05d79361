//! Test helpers: the real git program, run on repositories the tests made.

use std::path::Path;
use std::process::Output;

/// `git -C dir args…`, with no user or system config and a fixed identity, as run.
pub(crate) fn git_output(dir: &Path, args: &[&str]) -> Output {
    git_output_with(dir, args, &[])
}

/// [`git_output`] with more environment (dates, for one).
fn git_output_with(dir: &Path, args: &[&str], vars: &[(&str, &str)]) -> Output {
    std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@localhost")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@localhost")
        .envs(vars.iter().copied())
        .output()
        .expect("git runs")
}

/// What `git -C dir args…` printed; the test fails if git does.
pub(crate) fn git(dir: &Path, args: &[&str]) -> Vec<u8> {
    git_with(dir, args, &[])
}

/// [`git`] with more environment.
pub(crate) fn git_with(dir: &Path, args: &[&str], vars: &[(&str, &str)]) -> Vec<u8> {
    let out = git_output_with(dir, args, vars);
    assert!(out.status.success(), "git {args:?}: {out:?}");
    out.stdout
}
