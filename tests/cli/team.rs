//! Team memory through a git remote (DESIGN §8): three people, three HOMEs, one bare remote.

use std::path::Path;

use crate::common::{
    Mate, TestEnv, assert_git_clean, assert_only_fast_forwards, bare_remote, git, save_args,
};

#[test]
fn three_teammates_syncing_in_every_order_end_identical_and_nothing_is_lost() {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let [a, b, c] = [0, 1, 2].map(|_| Mate::join(&remote));

    a.save("deploy-window", "Deploys happen Tuesday to Thursday only.");
    assert_eq!(a.sync()["pushed"], true);
    b.save("oncall-channel", "Pages go to #payments-oncall.");
    let synced = b.sync();
    assert_eq!(synced["integrated"], "merged", "{synced}");
    c.sync();
    // The same memory changed on two sides, on the same lines.
    c.save("deploy-window", "Deploys happen Monday to Wednesday only.");
    c.save(
        "style-guide",
        "The style guide is in the wiki under Engineering.",
    );
    c.sync();
    a.save(
        "deploy-window",
        "Deploys happen Tuesday and Thursday, never Friday.",
    );
    a.save("release-owner", "Priya owns the release train.");
    let synced = a.sync();
    assert_eq!(
        synced["conflicts"].as_array().map(Vec::len),
        Some(1),
        "{synced}"
    );
    b.save("runbook", "The payments runbook is in Notion under Ops.");
    // Everyone syncs, in every order, until nothing moves.
    for order in [[&a, &b, &c], [&c, &b, &a], [&b, &a, &c], [&a, &c, &b]] {
        for mate in order {
            mate.sync();
        }
    }
    let files = a.files();
    assert_eq!(files, b.files(), "a and b differ");
    assert_eq!(files, c.files(), "a and c differ");
    for name in [
        "deploy-window",
        "oncall-channel",
        "style-guide",
        "release-owner",
        "runbook",
    ] {
        assert!(
            files.contains_key(&format!("{name}.md")),
            "{name} is missing: {:?}",
            files.keys()
        );
    }
    // Both versions of the memory changed on both sides are there, and indexed.
    let conflict = files
        .keys()
        .find(|f| f.starts_with("deploy-window.conflict-"))
        .expect("the other side of the conflict is kept");
    // Kept out of the index the model loads until someone resolves it.
    let index = &files["MEMORY.md"];
    assert!(!index.contains(".conflict-"), "{index}");
    let both = a.texts_of("deploy-window");
    assert!(
        both.contains("never Friday") && both.contains("Monday to Wednesday"),
        "{both}"
    );
    for mate in [&a, &b, &c] {
        assert_eq!(git(&mate.team, &["status", "--porcelain"]), "");
        git(&mate.team, &["fsck", "--strict"]);
    }
    git(&remote, &["fsck", "--strict"]);
    assert_only_fast_forwards(&remote);
    let status = a.env.ok(&["team", "status", "--json"]).json();
    assert_eq!(
        (status["ahead"].as_u64(), status["behind"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(status["conflicts"][0], conflict.as_str());
    // Resolved by hand: keep one version, remove the other by name; everyone follows.
    let copy = conflict.trim_end_matches(".md");
    let shown = a.env.ok(&["show", copy, "--team"]);
    assert!(
        shown.stdout.contains("Monday to Wednesday") || shown.stdout.contains("never Friday"),
        "{}",
        shown.stdout
    );
    a.env.ok(&["rm", copy, "--team"]);
    for mate in [&a, &b, &c, &a] {
        mate.sync();
    }
    for mate in [&a, &b, &c] {
        let files = mate.files();
        assert!(!files.contains_key(conflict), "{:?}", files.keys());
        assert!(
            !files["MEMORY.md"].contains(".conflict-"),
            "{}",
            files["MEMORY.md"]
        );
    }
    assert_eq!(a.files(), c.files());
    git(&remote, &["fsck", "--strict"]);
    assert_only_fast_forwards(&remote);
}

#[test]
fn a_secret_is_never_committed_or_pushed() {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let a = Mate::join(&remote);
    a.save("base", "A first memory.");
    a.sync();
    let mut args = save_args(
        "reference",
        "ci-token",
        "The CI token",
        "token: ghp_R8kT2mVq9XwLs4NbZc7Yd1PfHj6Ga3Ue5Qo0",
    );
    args.push("--team");
    a.env.fails(&args, 2, "refused: team memory is shared");
    // Written into the team dir by hand (or by an agent): sync refuses, nothing moves.
    std::fs::write(
        a.team.join("leak.md"),
        "---\nname: leak\ndescription: x\ntype: reference\n---\nAKIAZ3MPLE7Q2RSTUVWX and aws_secret_access_key = 9f8Qx/Lm2+Zt7Vb4Nc1Rd6We3Ty5Ui8Op0As2Df\n",
    )
    .expect("write");
    let before = git(&remote, &["rev-parse", "--all"]);
    let run = a
        .env
        .fails(&["team", "sync"], 2, "team memory holds a secret");
    assert!(run.stderr.contains("leak.md:6"), "{}", run.stderr);
    assert_eq!(git(&remote, &["rev-parse", "--all"]), before);
    assert_eq!(
        git(&a.team, &["log", "--format=%s"]).lines().count(),
        1,
        "nothing was committed"
    );
    // In personal memory a secret is only a warning.
    let personal = a.env.ok(&save_args(
        "reference",
        "ci-token",
        "The CI token",
        "token: ghp_R8kT2mVq9XwLs4NbZc7Yd1PfHj6Ga3Ue5Qo0",
    ));
    assert!(personal.stderr.contains("warning:"), "{}", personal.stderr);
}

#[test]
fn team_commands_refuse_clearly() {
    let mut env = TestEnv::new();
    env.fails(&["team", "sync"], 2, "no team memory");
    env.fails(&["list", "--team"], 2, "no team memory");
    env.fails(
        &["team", "init", "--remote", "/nonexistent/remote.git"],
        1,
        "cannot clone the team remote /nonexistent/remote.git",
    );
    env.set_var("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");
    env.fails(&["team", "sync"], 3, "auto memory is disabled");
    env.fails(&["team", "status"], 3, "auto memory is disabled");
}

#[test]
fn an_unreachable_remote_is_a_clear_failure_and_nothing_is_lost() {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let a = Mate::join(&remote);
    a.save("kept", "Kept even when the remote is gone.");
    std::fs::rename(&remote, root.root.join("moved.git")).expect("move the remote away");
    let run = a
        .env
        .fails(&["team", "sync"], 1, "cannot fetch from the team remote");
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    // The pending save was committed locally before the fetch failed.
    assert!(a.files().contains_key("kept.md"));
    assert_eq!(git(&a.team, &["status", "--porcelain"]), "");
    let status = a.env.ok(&["team", "status", "--json"]).json();
    assert_eq!(status["ahead"], 1);
}

/// One race of `mates`: each saves a memory of its own and all sync at once; then each syncs
/// once more, in turn. Every clone then holds the remote's tree, no memory of any race so far is
/// lost, and a further round of syncs commits nothing and moves nothing.
fn race(mates: &[Mate], remote: &Path, round: usize) {
    for (i, mate) in mates.iter().enumerate() {
        mate.save(
            &format!("r{round}-m{i}"),
            &format!("Race {round}, teammate {i}."),
        );
    }
    let racing: Vec<std::process::Child> = mates
        .iter()
        .map(|mate| {
            mate.env
                .command()
                .args(["team", "sync", "-q"])
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("memdir starts")
        })
        .collect();
    for (i, child) in racing.into_iter().enumerate() {
        let output = child.wait_with_output().expect("memdir ends");
        assert!(
            output.status.success(),
            "race {round}, teammate {i}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    for mate in mates {
        mate.sync();
    }
    let tree = |dir: &Path| git(dir, &["rev-parse", "HEAD^{tree}"]);
    let remote_tree = tree(remote);
    for (i, mate) in mates.iter().enumerate() {
        assert_eq!(
            tree(&mate.team),
            remote_tree,
            "race {round}: teammate {i} differs"
        );
    }
    let files = mates[0].files();
    for r in 0..=round {
        for i in 0..mates.len() {
            let name = format!("r{r}-m{i}.md");
            assert!(files.contains_key(&name), "race {round}: {name} lost");
            assert!(
                files["MEMORY.md"].contains(&format!("({name})")),
                "race {round}: {name} unindexed"
            );
        }
    }
    let heads: Vec<String> = mates
        .iter()
        .map(|m| git(&m.team, &["rev-parse", "HEAD"]))
        .collect();
    let remote_head = git(remote, &["rev-parse", "HEAD"]);
    for mate in mates {
        let synced = mate.sync();
        assert_eq!(synced["integrated"], "up to date", "race {round}: {synced}");
        assert!(
            synced["commit"].is_null() && synced["pushed"] == false,
            "{synced}"
        );
    }
    let after: Vec<String> = mates
        .iter()
        .map(|m| git(&m.team, &["rev-parse", "HEAD"]))
        .collect();
    assert_eq!(after, heads, "race {round}: a further round committed");
    assert_eq!(git(remote, &["rev-parse", "HEAD"]), remote_head);
}

/// Eight teammates who raced `races` times.
fn eight_teammates_race(races: usize) {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let mates: Vec<Mate> = (0..8).map(|_| Mate::join(&remote)).collect();
    for round in 0..races {
        race(&mates, &remote, round);
    }
    for mate in &mates {
        assert_git_clean(&mate.team);
    }
    git(&remote, &["fsck", "--strict"]);
    assert_only_fast_forwards(&remote);
}

/// The size the suite runs; `eight_teammates_racing_twenty_times` is the full run.
#[test]
fn eight_teammates_racing_end_with_one_tree_and_nothing_lost() {
    eight_teammates_race(3);
}

/// The twenty races (about a minute): `cargo test --features fault-injection --test cli
/// -- --ignored eight_teammates_racing_twenty_times`.
#[test]
#[ignore = "twenty races take about a minute; the suite runs three"]
fn eight_teammates_racing_twenty_times() {
    eight_teammates_race(20);
}

#[test]
fn a_conflict_is_listed_proposed_and_finished_with_resolve() {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let [a, mut b] = [0, 1].map(|_| Mate::join(&remote));
    a.save(
        "deploy-window",
        "Deploys happen Tuesday.\n\nAsk in #deploys.",
    );
    a.sync();
    b.sync();
    a.save(
        "deploy-window",
        "Deploys happen Monday.\n\nAsk in #deploys.",
    );
    b.save(
        "deploy-window",
        "Deploys happen Friday.\n\nAsk in #release.",
    );
    a.sync();
    let synced = b.sync();
    let copy = synced["conflicts"][0]["kept_as"]
        .as_str()
        .unwrap_or_else(|| panic!("no conflict: {synced}"))
        .to_string();
    let status = b.env.ok(&["team", "status"]);
    assert!(
        status.stderr.contains(&copy)
            && status.stderr.contains("memdir team resolve deploy-window"),
        "{}",
        status.stderr
    );
    let doctor = b.env.run(&["doctor", "--team"]);
    assert_eq!(doctor.code, 1, "{}", doctor.stdout);
    assert!(
        doctor.stdout.contains(&copy) && doctor.stdout.contains("resolve deploy-window"),
        "{}",
        doctor.stdout
    );
    // review proposes how: each side says something the other does not.
    let review = b.env.ok(&["review", "--json"]).json();
    let proposal = review["proposals"]
        .as_array()
        .expect("proposals")
        .iter()
        .find(|p| p["kind"] == "conflict")
        .unwrap_or_else(|| panic!("no conflict proposal: {review}"))
        .clone();
    assert_eq!(proposal["name"], copy.trim_end_matches(".md"));
    assert!(
        proposal["reason"]
            .as_str()
            .is_some_and(|r| r.ends_with("memdir team resolve deploy-window --edit")),
        "{proposal}"
    );
    // Finished in an editor: what the person saves is kept, the copy goes, one commit.
    let editor = root.root.join("editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\ngrep -q '<<<<<<< yours' \"$1\" || exit 1\nprintf -- '---\\nname: deploy-window\\ndescription: About deploy-window\\ntype: project\\n---\\nDeploys happen Monday or Friday.\\n\\nAsk in #release.\\n' > \"$1\"\n",
    )
    .expect("editor");
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&editor)
        .status()
        .expect("chmod");
    b.env
        .fails(&["team", "resolve", "deploy-window"], 2, "--ours");
    b.env.set_var("EDITOR", editor.to_str().expect("utf-8"));
    let resolved = b
        .env
        .ok(&["team", "resolve", "deploy-window", "--edit", "--json"])
        .json();
    assert_eq!(resolved["kept"], "edited", "{resolved}");
    let subject = git(&b.team, &["log", "-1", "--format=%s"]);
    assert_eq!(subject.trim(), "resolve(project): deploy-window");
    assert_git_clean(&b.team);
    b.sync();
    a.sync();
    for mate in [&a, &b] {
        let files = mate.files();
        assert!(!files.contains_key(&copy), "{:?}", files.keys());
        assert!(files["deploy-window.md"].contains("Monday or Friday"));
    }
    // Nothing is left to resolve, and an unfinished edit changes nothing.
    b.env.fails(
        &["team", "resolve", "deploy-window", "--ours"],
        2,
        "no conflict is kept",
    );
}

#[test]
fn an_edit_in_place_waits_for_snapshot_and_is_never_overwritten_by_a_sync() {
    let root = TestEnv::new();
    let remote = bare_remote(&root.root);
    let [a, b] = [0, 1].map(|_| Mate::join(&remote));
    a.save("deploy-window", "Deploys happen Tuesday.");
    a.sync();
    b.sync();
    // Edited in place (same file, same folder entry), as an editor that truncates and writes.
    let path = b.team.join("deploy-window.md");
    let edited = std::fs::read_to_string(&path)
        .expect("read")
        .replace("Tuesday", "Wednesday, after the freeze");
    {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&path)
            .expect("open");
        file.write_all(edited.as_bytes()).expect("write");
    }
    a.save("deploy-window", "Deploys happen Thursday.");
    a.sync();
    let run = b.env.fails(
        &["team", "sync"],
        2,
        "holds a change memdir has not committed",
    );
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited);
    // Committed by a snapshot (what the hooks run after an agent's write), it merges.
    b.env.ok(&["snapshot", "--team"]);
    let synced = b.sync();
    assert_eq!(synced["integrated"], "merged", "{synced}");
    let both = b.texts_of("deploy-window");
    assert!(
        both.contains("after the freeze") && both.contains("Thursday"),
        "{both}"
    );
    assert_git_clean(&b.team);
}
