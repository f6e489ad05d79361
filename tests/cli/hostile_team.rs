//! Team sync against a hostile or broken remote (issue 11; DESIGN §8, §10): two syncs racing to
//! push, a sync killed while `git` talks to a remote that never answers, and a remote that never
//! answers at all.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::common::{
    Mate, Run, TestEnv, assert_git_clean, assert_only_fast_forwards, bare_remote, git,
};

/// A bare remote, a teammate who saved a memory there, and me, who joined after.
fn a_teammate_and_me() -> (TestEnv, PathBuf, Mate, Mate) {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let mate = Mate::join(&remote);
    mate.save("deploy-window", "Deploys happen Tuesday to Thursday only.");
    mate.sync();
    let me = Mate::join(&remote);
    (root, remote, mate, me)
}

/// `memdir team sync` started in the background.
fn spawn_sync(mate: &Mate) -> Child {
    mate.env
        .command()
        .args(["team", "sync"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("memdir starts")
}

fn finish(child: Child) -> Run {
    let output = child.wait_with_output().expect("memdir ends");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[test]
fn two_syncs_racing_to_push_both_succeed() {
    const ROUNDS: usize = 6;
    let (_root, remote, a, b) = a_teammate_and_me();
    for round in 0..ROUNDS {
        a.save(&format!("a-{round}"), &format!("From a, round {round}."));
        b.save(&format!("b-{round}"), &format!("From b, round {round}."));
        let (first, second) = (spawn_sync(&a), spawn_sync(&b));
        for (who, run) in [("a", finish(first)), ("b", finish(second))] {
            assert_eq!(
                run.code, 0,
                "round {round}, {who}: {}{}",
                run.stdout, run.stderr
            );
        }
    }
    a.sync();
    b.sync();
    let files = a.files();
    assert_eq!(files, b.files());
    for round in 0..ROUNDS {
        for who in ["a", "b"] {
            assert!(
                files.contains_key(&format!("{who}-{round}.md")),
                "{who}-{round} is missing: {:?}",
                files.keys()
            );
        }
    }
    assert_git_clean(&a.team);
    assert_git_clean(&b.team);
    git(&remote, &["fsck", "--strict"]);
    assert_only_fast_forwards(&remote);
}

/// A stand-in for ssh that records its pid, its parent's and grandparent's (git, or the shell
/// git started it with, and memdir), then never answers.
fn hanging_ssh(root: &Path) -> (PathBuf, PathBuf) {
    let pids = root.join("ssh.pids");
    let script = root.join("fake-ssh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nparent=$(cut -d' ' -f4 /proc/$PPID/stat)\necho \"$$ $PPID $parent\" > '{}'\nexec sleep 600\n",
            pids.display()
        ),
    )
    .expect("script");
    std::process::Command::new("chmod")
        .args(["+x"])
        .arg(&script)
        .status()
        .expect("chmod");
    (script, pids)
}

/// Whether a process is running (a zombie nobody reaped yet is not).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit_once(") ")?.1.chars().next()?;
            Some(!matches!(state, 'Z' | 'X'))
        })
        .unwrap_or(false)
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "{what} after {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A teammate whose remote is `ssh://` through `ssh`, and that ssh's pid file.
fn behind_a_hanging_remote() -> (TestEnv, Mate, PathBuf) {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let mut mate = Mate::join(&remote);
    let (ssh, pids) = hanging_ssh(&root.root);
    git(
        &mate.team,
        &[
            "config",
            "remote.origin.url",
            "ssh://team.invalid/memory.git",
        ],
    );
    mate.env
        .set_var("GIT_SSH_COMMAND", ssh.to_str().expect("utf-8"));
    (root, mate, pids)
}

#[test]
fn a_killed_sync_leaves_no_git_behind() {
    for signal in ["KILL", "TERM"] {
        let (_root, mate, pids) = behind_a_hanging_remote();
        let mut sync = spawn_sync(&mate);
        wait_for("ssh never started", Duration::from_secs(30), || {
            std::fs::read_to_string(&pids).is_ok_and(|p| p.ends_with('\n'))
        });
        let recorded = std::fs::read_to_string(&pids).expect("pids");
        let started: Vec<&str> = recorded.split_whitespace().collect();
        assert!(started.iter().all(|pid| alive(pid)), "{recorded}");
        let status = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(sync.id().to_string())
            .status()
            .expect("kill");
        assert!(status.success());
        let _ = sync.wait();
        wait_for(
            &format!("git and ssh outlived memdir killed by SIG{signal}"),
            Duration::from_secs(10),
            || started.iter().all(|pid| !alive(pid)),
        );
        assert_git_clean(&mate.team);
    }
}

#[test]
fn a_remote_that_never_answers_is_given_up_on() {
    let (_root, mut mate, pids) = behind_a_hanging_remote();
    mate.env.set_var("MEMDIR_GIT_TIMEOUT", "2");
    let sync = spawn_sync(&mate);
    let started = Instant::now();
    let mut sync = Some(sync);
    let mut run = None;
    wait_for("sync hung", Duration::from_secs(60), || {
        if let Some(child) = sync.as_mut()
            && child.try_wait().expect("try_wait").is_some()
        {
            run = sync.take().map(finish);
        }
        run.is_some()
    });
    let run = run.expect("sync ended");
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("2 s"), "{}", run.stderr);
    let recorded = std::fs::read_to_string(&pids).expect("pids");
    for pid in recorded.split_whitespace() {
        wait_for(
            "ssh outlived the time limit",
            Duration::from_secs(10),
            || !alive(pid),
        );
    }
    assert_git_clean(&mate.team);
}
