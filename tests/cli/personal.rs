//! Personal memory across machines (issue 32; DESIGN §8): `memdir sync` against a real bare
//! remote, two machines as two HOMEs, the same repository cloned at different paths.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{
    TestEnv, assert_git_clean, assert_only_fast_forwards, bare_remote, git, save_args,
    tree_snapshot, wait_for,
};

/// One machine: its own HOME, and a project at a path of its own.
struct Machine {
    env: TestEnv,
    project: PathBuf,
}

impl Machine {
    /// A machine whose project is a clone of `upstream` at `path` (relative to its root).
    fn cloning(upstream: &Path, path: &str) -> Machine {
        let env = TestEnv::new();
        let project = env.root.join(path);
        std::fs::create_dir_all(project.parent().expect("parent")).expect("folders");
        git(
            &env.root,
            &[
                "clone",
                "-q",
                upstream.to_str().expect("utf-8"),
                project.to_str().expect("utf-8"),
            ],
        );
        Machine { env, project }
    }

    /// A machine whose project has no remote.
    fn without_remote(path: &str) -> Machine {
        let env = TestEnv::new();
        let project = env.root.join(path);
        std::fs::create_dir_all(&project).expect("project");
        git(&project, &["init", "-q"]);
        Machine { env, project }
    }

    fn args<'a>(&'a self, args: &[&'a str]) -> Vec<&'a str> {
        let mut all = vec!["--project", self.project.to_str().expect("utf-8")];
        all.extend_from_slice(args);
        all
    }

    fn ok(&self, args: &[&str]) -> crate::common::Run {
        self.env.ok(&self.args(args))
    }

    fn fails(&self, args: &[&str], code: i32, needle: &str) -> crate::common::Run {
        self.env.fails(&self.args(args), code, needle)
    }

    fn save(&self, name: &str, body: &str) {
        let description = format!("About {name}");
        self.ok(&save_args("project", name, &description, body));
    }

    fn sync(&self) -> serde_json::Value {
        self.ok(&["sync", "--json"]).json()
    }

    fn memory_dir(&self) -> PathBuf {
        PathBuf::from(self.ok(&["path"]).stdout.trim_end())
    }

    /// Every memory file of the project's memory dir, by name.
    fn files(&self) -> BTreeMap<String, String> {
        let dir = self.memory_dir();
        std::fs::read_dir(&dir)
            .expect("memory dir")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".md"))
            .map(|n| {
                let text = std::fs::read_to_string(dir.join(&n)).expect("read");
                (n, text)
            })
            .collect()
    }
}

/// An upstream repository with one commit, and a bare remote for personal sync.
fn upstream_and_remote(root: &Path) -> (PathBuf, PathBuf) {
    let upstream = root.join("upstream.git");
    git(
        root,
        &["init", "-q", "--bare", upstream.to_str().expect("utf-8")],
    );
    let seed = root.join("seed");
    git(root, &["init", "-q", seed.to_str().expect("utf-8")]);
    std::fs::write(seed.join("main.rs"), "fn main() {}\n").expect("seed");
    git(&seed, &["add", "-A"]);
    git(&seed, &["commit", "-q", "-m", "seed"]);
    git(
        &seed,
        &["push", "-q", upstream.to_str().expect("utf-8"), "HEAD:main"],
    );
    git(&upstream, &["symbolic-ref", "HEAD", "refs/heads/main"]);
    let personal = root.join("personal");
    std::fs::create_dir_all(&personal).expect("personal");
    (upstream, bare_remote(&personal))
}

fn set_remote(machine: &Machine, remote: &Path) {
    machine.ok(&["sync", "--remote", remote.to_str().expect("utf-8")]);
}

/// The remote's branches.
fn branches(remote: &Path) -> Vec<String> {
    git(
        remote,
        &["for-each-ref", "--format=%(refname:short)", "refs/heads"],
    )
    .lines()
    .map(str::to_string)
    .collect()
}

#[test]
fn two_machines_with_the_project_at_different_paths_share_its_memory() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    let laptop = Machine::cloning(&upstream, "work/app");
    let desktop = Machine::cloning(&upstream, "src/github/app-desktop");
    assert_ne!(laptop.memory_dir(), desktop.memory_dir());
    for machine in [&laptop, &desktop] {
        set_remote(machine, &remote);
    }
    laptop.save("deploy-window", "Deploys happen Tuesday to Thursday only.");
    let synced = laptop.sync();
    assert_eq!(synced["integrated"], "first push", "{synced}");
    assert_eq!(synced["pushed"], true, "{synced}");
    assert!(synced["snapshot"].is_string(), "{synced}");
    assert_eq!(branches(&remote).len(), 1);
    assert_eq!(synced["branch"], branches(&remote)[0].as_str());

    desktop.save("oncall", "Pages go to #payments-oncall.");
    let synced = desktop.sync();
    assert_eq!(synced["integrated"], "merged", "{synced}");
    // Written where Claude Code looks on that machine: the desktop's own memory dir.
    assert!(desktop.memory_dir().join("deploy-window.md").is_file());
    let synced = laptop.sync();
    assert_eq!(synced["integrated"], "fast-forward", "{synced}");
    assert_eq!(laptop.files(), desktop.files());
    assert!(laptop.files()["MEMORY.md"].contains("(oncall.md)"));

    // Concurrent edits, on different lines of one memory and in two others, merge.
    let body = "Deploys happen Tuesday to Thursday only.\n\nAsk in #deploys first.";
    laptop.save("deploy-window", body);
    laptop.sync();
    desktop.sync();
    laptop.save(
        "deploy-window",
        &body.replace("Tuesday to Thursday", "Monday to Wednesday"),
    );
    desktop.save("deploy-window", &body.replace("#deploys", "#release-train"));
    laptop.save("style", "The style guide is in the wiki.");
    desktop.save("owner", "Priya owns the release train.");
    laptop.sync();
    let synced = desktop.sync();
    assert_eq!(synced["integrated"], "merged", "{synced}");
    assert_eq!(synced["conflicts"], serde_json::json!([]), "{synced}");
    laptop.sync();
    let files = laptop.files();
    assert_eq!(files, desktop.files());
    let deploy = &files["deploy-window.md"];
    assert!(
        deploy.contains("Monday to Wednesday") && deploy.contains("#release-train"),
        "{deploy}"
    );
    for name in ["style.md", "owner.md", "oncall.md"] {
        assert!(files.contains_key(name), "{name}: {:?}", files.keys());
    }
    // A further round changes nothing and commits nothing.
    let heads = [&laptop, &desktop].map(|m| git(&m.memory_dir(), &["rev-parse", "HEAD"]));
    for machine in [&laptop, &desktop] {
        let synced = machine.sync();
        assert_eq!(synced["integrated"], "up to date", "{synced}");
        assert!(
            synced["commit"].is_null() && synced["pushed"] == false,
            "{synced}"
        );
    }
    assert_eq!(
        [&laptop, &desktop].map(|m| git(&m.memory_dir(), &["rev-parse", "HEAD"])),
        heads
    );
    for machine in [&laptop, &desktop] {
        assert_git_clean(&machine.memory_dir());
    }
    git(&remote, &["fsck", "--strict"]);
    assert_only_fast_forwards(&remote);
}

#[test]
fn a_conflict_keeps_both_versions_until_it_is_resolved() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    let laptop = Machine::cloning(&upstream, "app");
    let desktop = Machine::cloning(&upstream, "code/app");
    for machine in [&laptop, &desktop] {
        set_remote(machine, &remote);
    }
    laptop.save("deploy-window", "Deploys happen Tuesday.");
    laptop.sync();
    desktop.sync();
    laptop.save("deploy-window", "Deploys happen Monday.");
    desktop.save("deploy-window", "Deploys happen Friday.");
    laptop.sync();
    let synced = desktop.sync();
    let kept_as = synced["conflicts"][0]["kept_as"]
        .as_str()
        .unwrap_or_else(|| panic!("no conflict: {synced}"))
        .to_string();
    let files = desktop.files();
    assert!(files["deploy-window.md"].contains("Friday"));
    assert!(files[&kept_as].contains("Monday"));
    assert!(
        !files["MEMORY.md"].contains(".conflict-"),
        "{}",
        files["MEMORY.md"]
    );
    // Finished on the laptop, where the copy arrived too.
    laptop.sync();
    assert!(laptop.files().contains_key(&kept_as));
    let resolved = laptop
        .ok(&["resolve", "deploy-window", "--theirs", "--json"])
        .json();
    assert_eq!(resolved["kept"], "theirs", "{resolved}");
    assert_eq!(resolved["removed"][0], kept_as.as_str());
    let subject = git(&laptop.memory_dir(), &["log", "-1", "--format=%s%n%b"]);
    assert!(
        subject.starts_with("resolve(project): deploy-window"),
        "{subject}"
    );
    assert!(subject.contains("Memdir-Op: resolve"), "{subject}");
    laptop.sync();
    desktop.sync();
    for machine in [&laptop, &desktop] {
        let files = machine.files();
        assert!(files["deploy-window.md"].contains("Monday"), "{files:?}");
        assert!(!files.contains_key(&kept_as));
        assert_git_clean(&machine.memory_dir());
    }
    // Nothing left to resolve.
    laptop.fails(
        &["resolve", "deploy-window", "--ours"],
        2,
        "no conflict is kept",
    );
}

#[test]
fn a_fork_with_another_remote_keeps_its_own_memory() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    let fork = shared.root.join("fork.git");
    git(
        &shared.root,
        &[
            "clone",
            "-q",
            "--bare",
            upstream.to_str().expect("utf-8"),
            fork.to_str().expect("utf-8"),
        ],
    );
    let original = Machine::cloning(&upstream, "app");
    let forked = Machine::cloning(&fork, "app-fork");
    for machine in [&original, &forked] {
        set_remote(machine, &remote);
    }
    original.save("upstream-only", "Only the upstream project knows this.");
    original.sync();
    forked.save("fork-only", "Only the fork knows this.");
    let synced = forked.sync();
    assert_eq!(synced["integrated"], "first push", "{synced}");
    assert!(!forked.files().contains_key("upstream-only.md"));
    original.sync();
    assert!(!original.files().contains_key("fork-only.md"));
    assert_eq!(branches(&remote).len(), 2, "{:?}", branches(&remote));
}

#[test]
fn a_linked_worktree_and_its_main_checkout_share_one_memory() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    let machine = Machine::cloning(&upstream, "app");
    let worktree = machine.env.root.join("app-feature");
    git(
        &machine.project,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature",
            worktree.to_str().expect("utf-8"),
        ],
    );
    let path = |project: &Path| {
        PathBuf::from(
            machine
                .env
                .ok(&["--project", project.to_str().expect("utf-8"), "path"])
                .stdout
                .trim_end(),
        )
    };
    assert_eq!(path(&worktree), path(&machine.project));
    let explain = |project: &Path| {
        machine
            .env
            .ok(&[
                "--project",
                project.to_str().expect("utf-8"),
                "path",
                "--json",
            ])
            .json()["identity"]
            .clone()
    };
    assert_eq!(explain(&worktree), explain(&machine.project));
    assert_eq!(explain(&worktree)["source"], "remote");
    // Another machine's clone syncs with what the worktree saved.
    set_remote(&machine, &remote);
    machine.env.ok(&[
        "--project",
        worktree.to_str().expect("utf-8"),
        "save",
        "--type",
        "project",
        "--name",
        "feature-flag",
        "--description",
        "The flag",
        "--body",
        "The feature ships behind the new-checkout flag.",
    ]);
    machine
        .env
        .ok(&["--project", worktree.to_str().expect("utf-8"), "sync"]);
    let other = Machine::cloning(&upstream, "elsewhere/app");
    set_remote(&other, &remote);
    other.sync();
    assert!(other.files().contains_key("feature-flag.md"));
}

#[test]
fn a_project_without_a_remote_syncs_only_under_a_name() {
    let shared = TestEnv::new();
    let (_, remote) = upstream_and_remote(&shared.root);
    let laptop = Machine::without_remote("notes");
    let desktop = Machine::without_remote("Documents/notes");
    for machine in [&laptop, &desktop] {
        set_remote(machine, &remote);
    }
    laptop.save("reading-list", "Read the SRE book next.");
    let run = laptop.fails(&["sync"], 2, "memdir sync --as NAME");
    assert!(run.stderr.contains("no git remote"), "{}", run.stderr);
    assert!(branches(&remote).is_empty());
    let explained = laptop.ok(&["path", "--explain"]).stdout;
    assert!(explained.contains("identity: path:"), "{explained}");
    laptop.fails(&["sync", "--as", "Bad Name"], 2, "invalid name");
    let synced = laptop.ok(&["sync", "--as", "notes", "--json"]).json();
    assert_eq!(synced["identity"], "name:notes", "{synced}");
    // Kept: the next sync and the explanation know the name.
    assert_eq!(laptop.sync()["integrated"], "up to date");
    assert!(
        laptop
            .ok(&["path", "--explain"])
            .stdout
            .contains("identity: name:notes")
    );
    desktop.ok(&["sync", "--as", "notes"]);
    assert!(desktop.files().contains_key("reading-list.md"));
}

#[test]
fn nothing_holding_a_secret_is_pushed_even_from_history() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    let machine = Machine::cloning(&upstream, "app");
    set_remote(&machine, &remote);
    machine.save("deploy-window", "Deploys happen Tuesday.");
    machine.sync();
    let token = "ghp_R8kT2mVq9XwLs4NbZc7Yd1PfHj6Ga3Ue5Qo0";
    let saved = machine.ok(&save_args(
        "reference",
        "ci-token",
        "The CI token",
        &format!("token: {token}"),
    ));
    assert!(saved.stderr.contains("warning:"), "{}", saved.stderr);
    let before = git(&remote, &["for-each-ref"]);
    let run = machine.fails(&["sync"], 2, "your memory holds a secret");
    assert!(run.stderr.contains("ci-token.md:6"), "{}", run.stderr);
    assert!(run.stderr.contains("memdir rm"), "{}", run.stderr);
    assert!(!run.stderr.contains(token), "{}", run.stderr);
    assert_eq!(git(&remote, &["for-each-ref"]), before);
    // Removed (it stays in this machine's history): the next sync pushes, and the remote's
    // history never holds it.
    machine.ok(&["rm", "ci-token"]);
    machine.save("oncall", "Pages go to #payments-oncall.");
    assert_eq!(machine.sync()["pushed"], true);
    let everything = git(&remote, &["log", "--all", "-p"]);
    assert!(everything.contains("#payments-oncall"));
    assert!(!everything.contains(token), "the secret reached the remote");
    assert!(git(&machine.memory_dir(), &["log", "--all", "-p"]).contains(token));
}

#[test]
fn a_remote_anyone_can_read_is_warned_about_before_the_first_push() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    git(&remote, &["update-server-info"]);
    let server = std::process::Command::new("python3")
        .args(["-m", "http.server", "0", "--bind", "127.0.0.1"])
        .current_dir(remote.parent().expect("parent"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("python3 serves the folder");
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut server = Killed(server);
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.0.stdout.as_mut().expect("stdout")),
        &mut first,
    )
    .expect("the server says where it listens");
    let port = first
        .split("port ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    let url = format!("http://127.0.0.1:{port}/remote.git");
    let machine = Machine::cloning(&upstream, "app");
    let run = machine.ok(&["sync", "--remote", &url]);
    assert!(
        run.stderr.contains("answers without credentials"),
        "{}",
        run.stderr
    );
    assert!(branches(&remote).is_empty(), "pushed before the warning");
    // A private remote (here a path only this user reads) gets no warning.
    let run = machine.ok(&[
        "sync",
        "--remote",
        remote.to_str().expect("utf-8"),
        "--json",
    ]);
    assert_eq!(run.json()["public"], false);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn entries_in_the_remote_branch_that_are_not_memory_are_kept_and_never_written() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    let machine = Machine::cloning(&upstream, "app");
    set_remote(&machine, &remote);
    machine.save("deploy-window", "Deploys happen Tuesday.");
    let branch = machine.sync()["branch"]
        .as_str()
        .expect("branch")
        .to_string();
    // Someone adds a README, a folder and a `.git` folder to the branch by hand.
    let work = shared.root.join("by-hand");
    git(
        &shared.root,
        &[
            "clone",
            "-q",
            "-b",
            &branch,
            remote.to_str().expect("utf-8"),
            work.to_str().expect("utf-8"),
        ],
    );
    std::fs::write(work.join("README.md"), "# My memory\n").expect("readme");
    std::fs::create_dir_all(work.join("docs")).expect("docs");
    std::fs::write(work.join("docs/notes.txt"), "notes\n").expect("notes");
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "by hand"]);
    let tree = git(&work, &["write-tree"]);
    let blob =
        crate::common::git_stdin(&work, &["hash-object", "-w", "--stdin"], b"gitdir: /tmp\n");
    let listing = git(&work, &["ls-tree", tree.trim()]);
    let mut raw = listing.replace("040000", "40000");
    raw.push_str(&format!("100644 blob {}\t.GIT\n", blob.trim()));
    let bad_tree = crate::common::git_stdin(&work, &["mktree", "--missing"], raw.as_bytes());
    let head = git(&work, &["rev-parse", "HEAD"]);
    let bad = git(
        &work,
        &[
            "commit-tree",
            bad_tree.trim(),
            "-p",
            head.trim(),
            "-m",
            "bad",
        ],
    );
    git(
        &work,
        &[
            "push",
            "-q",
            "origin",
            &format!("{}:refs/heads/{branch}", bad.trim()),
        ],
    );
    let before = tree_snapshot(&machine.env.root);
    let synced = machine.sync();
    assert!(
        synced["foreign"].to_string().contains("README.md"),
        "{synced}"
    );
    assert!(synced["foreign"].to_string().contains("docs/"), "{synced}");
    assert!(synced["dropped"].to_string().contains(".GIT"), "{synced}");
    let dir = machine.memory_dir();
    let after = tree_snapshot(&machine.env.root);
    let written: Vec<&PathBuf> = after
        .keys()
        .filter(|p| before.get(*p) != after.get(*p) && !p.starts_with(dir.join(".git")))
        .collect();
    assert!(written.is_empty(), "written: {written:?}");
    let names = git(&remote, &["ls-tree", "--name-only", &branch]);
    assert!(
        names.contains("README.md") && names.contains("docs"),
        "{names}"
    );
    assert!(!names.contains(".GIT"), "{names}");
    let status = git(&dir, &["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "");
}

#[test]
fn the_hook_syncs_in_the_background_only_when_asked() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    let machine = Machine::cloning(&upstream, "app");
    set_remote(&machine, &remote);
    machine.save("deploy-window", "Deploys happen Tuesday.");
    let payload = serde_json::json!({
        "session_id": "s1",
        "hook_event_name": "SessionEnd",
        "cwd": machine.project,
    })
    .to_string();
    let hook = |settings_file: Option<(&Path, &str)>| {
        if let Some((file, text)) = settings_file {
            std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
            std::fs::write(file, text).expect("settings");
        }
        let run = machine.env.run_with_stdin(&["sync", "--hook"], &payload);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert_eq!(run.stdout, "");
        run
    };
    // Off by default; a project's own settings cannot turn it on.
    hook(None);
    let project_settings = machine.project.join(".claude/settings.json");
    hook(Some((
        &project_settings,
        r#"{"memdir": {"sync": {"auto": true}}}"#,
    )));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(branches(&remote).is_empty(), "synced without being asked");
    // Turned on in the user's settings: a sync runs in the background.
    let user_settings = machine.env.home.join(".claude/settings.json");
    hook(Some((
        &user_settings,
        r#"{"memdir": {"sync": {"auto": true}}}"#,
    )));
    wait_for(
        "the background sync",
        std::time::Duration::from_secs(60),
        || !branches(&remote).is_empty(),
    );
    // A payload that is no JSON, or a remote that is gone: still 0, and the problem logged.
    let run = machine.env.run_with_stdin(&["sync", "--hook"], "not json");
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::write(
        machine.env.home.join(".claude/memdir/config.json"),
        "{\"sync\": 5}",
    )
    .expect("config");
    hook(None);
    let log = std::fs::read_to_string(machine.memory_dir().join(".git/memdir/worker.log"))
        .unwrap_or_default();
    assert!(log.contains("sync --hook"), "{log}");
}

#[test]
fn path_explains_the_identity_and_where_it_came_from() {
    let shared = TestEnv::new();
    let (upstream, remote) = upstream_and_remote(&shared.root);
    let machine = Machine::cloning(&upstream, "app");
    git(
        &machine.project,
        &[
            "remote",
            "set-url",
            "origin",
            "git@GitHub.com:Alice/App.git",
        ],
    );
    let explained = machine.ok(&["path", "--explain"]).stdout;
    set_remote(&machine, &remote);
    let with_remote = machine.ok(&["path", "--explain"]).stdout;
    insta::assert_snapshot!(
        machine
            .env
            .normalised(&format!("{explained}---\n{with_remote}"))
            .replace(&shared.root.display().to_string(), "[SHARED]")
    );
}
