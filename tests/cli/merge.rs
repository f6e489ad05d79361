//! Memory merges (DESIGN §8): `memdir merge-index` as git's merge driver under the real git,
//! and `merge_tree_maps` over commits that the real git made.

use std::path::{Path, PathBuf};

use memdir::memory::merge::{Conflict, merge_tree_maps};
use memdir::repo::MemoryRepo;

use crate::common::{TestEnv, assert_git_clean, git};

const BASE_INDEX: &str = "# Team memory\n\n- [Lint](lint.md) — run lint first\n- [Deploy](deploy.md) — staging deploys from release\n\nKeep each entry to one line.\n";

const LINT: &str = "---\nname: lint\ndescription: run lint first\ntype: feedback\n---\nRun `npm run lint` before every commit.\n\n**Why:** CI broke.\n";

const DEPLOY: &str = "---\nname: deploy\ndescription: staging deploys from release\ntype: project\n---\nStaging deploys from the release branch.\n";

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write fixture file");
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).expect("read file")
}

fn commit_all(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
}

/// A team repository on `main` with two memories, and the `memdir-index` merge driver
/// registered when `driver` is set.
fn team_repo(env: &TestEnv, driver: bool) -> PathBuf {
    let dir = env.root.join("team");
    std::fs::create_dir_all(&dir).expect("team dir");
    git(&dir, &["init", "-q", "-b", "main"]);
    if driver {
        write(&dir, ".gitattributes", "MEMORY.md merge=memdir-index\n");
        let command = format!("'{}' merge-index %O %A %B", env!("CARGO_BIN_EXE_memdir"));
        git(&dir, &["config", "merge.memdir-index.driver", &command]);
    }
    write(&dir, "MEMORY.md", BASE_INDEX);
    write(&dir, "lint.md", LINT);
    write(&dir, "deploy.md", DEPLOY);
    commit_all(&dir, "base");
    dir
}

/// On a branch `theirs` and on `main`, each adds a memory and its index line in the same place.
fn add_on_both_branches(dir: &Path) {
    git(dir, &["checkout", "-q", "-b", "theirs"]);
    write(
        dir,
        "tone.md",
        "---\nname: tone\ndescription: be brief\ntype: user\n---\nBe brief.\n",
    );
    write(
        dir,
        "MEMORY.md",
        &BASE_INDEX.replace("release\n\n", "release\n- [Tone](tone.md) — be brief\n\n"),
    );
    commit_all(dir, "save(user): tone");
    git(dir, &["checkout", "-q", "main"]);
    write(
        dir,
        "ci.md",
        "---\nname: ci\ndescription: CI runs on push\ntype: project\n---\nCI runs on push.\n",
    );
    write(
        dir,
        "MEMORY.md",
        &BASE_INDEX.replace(
            "release\n\n",
            "release\n- [CI](ci.md) — CI runs on push\n\n",
        ),
    );
    commit_all(dir, "save(project): ci");
}

fn parents(dir: &Path, rev: &str) -> Vec<String> {
    git(dir, &["rev-list", "--parents", "-n", "1", rev])
        .split_whitespace()
        .skip(1)
        .map(str::to_string)
        .collect()
}

#[test]
fn git_merge_with_the_driver_unions_index_entries() {
    let env = TestEnv::new();
    let dir = team_repo(&env, true);
    add_on_both_branches(&dir);
    git(&dir, &["merge", "--no-edit", "theirs"]);
    assert_eq!(
        read(&dir, "MEMORY.md"),
        "# Team memory\n\n- [Lint](lint.md) — run lint first\n- [Deploy](deploy.md) — staging deploys from release\n- [CI](ci.md) — CI runs on push\n- [Tone](tone.md) — be brief\n\nKeep each entry to one line.\n"
    );
    assert_eq!(parents(&dir, "HEAD").len(), 2, "a merge commit");
    assert_git_clean(&dir);
}

#[test]
fn git_merge_without_the_driver_conflicts_on_the_same_fixture() {
    // The control for the test above: the same histories conflict under git's own text merge.
    let env = TestEnv::new();
    let dir = team_repo(&env, false);
    add_on_both_branches(&dir);
    let merge = crate::common::git_output(&dir, &["merge", "--no-edit", "theirs"]);
    assert!(!merge.status.success());
    assert!(
        String::from_utf8_lossy(&merge.stdout).contains("Merge conflict in MEMORY.md"),
        "{}",
        String::from_utf8_lossy(&merge.stdout)
    );
}

#[test]
fn git_merge_with_the_driver_applies_deletes_and_keeps_ours_on_a_double_change() {
    let env = TestEnv::new();
    let dir = team_repo(&env, true);
    git(&dir, &["checkout", "-q", "-b", "theirs"]);
    // Theirs drops lint and rewords deploy's hook.
    std::fs::remove_file(dir.join("lint.md")).expect("rm");
    write(
        &dir,
        "MEMORY.md",
        &BASE_INDEX
            .replace("- [Lint](lint.md) — run lint first\n", "")
            .replace(
                "staging deploys from release",
                "staging is deployed from release",
            ),
    );
    commit_all(&dir, "theirs");
    git(&dir, &["checkout", "-q", "main"]);
    write(
        &dir,
        "MEMORY.md",
        &BASE_INDEX.replace(
            "staging deploys from release",
            "staging: the release branch",
        ),
    );
    commit_all(&dir, "ours");
    git(&dir, &["merge", "--no-edit", "theirs"]);
    assert_eq!(
        read(&dir, "MEMORY.md"),
        "# Team memory\n\n- [Deploy](deploy.md) — staging: the release branch\n\nKeep each entry to one line.\n"
    );
    assert_git_clean(&dir);
}

#[test]
fn merge_index_writes_the_union_into_ours() {
    let env = TestEnv::new();
    let p = &env.project;
    write(p, "base", "- [A](a.md) — a\n");
    write(p, "ours", "- [A](a.md) — a\n- [B](b.md) — b\n");
    write(p, "theirs", "- [A](a.md) — a, changed\n- [C](c.md) — c\n");
    let run = env.ok(&["merge-index", "base", "ours", "theirs"]);
    assert_eq!(run.stdout, "");
    assert_eq!(
        read(p, "ours"),
        "- [A](a.md) — a, changed\n- [B](b.md) — b\n- [C](c.md) — c\n"
    );
    assert_eq!(
        read(p, "theirs"),
        "- [A](a.md) — a, changed\n- [C](c.md) — c\n"
    );
    // Nothing but OURS was written (no temporary file left behind).
    let mut files: Vec<String> = std::fs::read_dir(p)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, [".git", "base", "ours", "theirs"]);
    // It is no command for people.
    assert!(!env.ok(&["--help"]).stdout.contains("merge-index"));
}

#[test]
fn merge_index_refuses_text_that_is_not_utf8_and_leaves_ours() {
    let env = TestEnv::new();
    let p = &env.project;
    let ours = "- [A](a.md) — a\n";
    write(p, "base", ours);
    write(p, "ours", ours);
    std::fs::write(p.join("theirs"), b"- [B](b.md) \xff\xfe\n").expect("write");
    env.fails(&["merge-index", "base", "ours", "theirs"], 1, "not UTF-8");
    assert_eq!(read(p, "ours"), ours);
    std::fs::write(p.join("ours"), b"\xff ours\n").expect("write");
    env.fails(&["merge-index", "base", "ours", "base"], 1, "not UTF-8");
    assert_eq!(std::fs::read(p.join("ours")).expect("read"), b"\xff ours\n");
    env.fails(&["merge-index", "missing", "ours", "base"], 1, "missing");
}

/// `main` and `theirs` branched from a base commit, with changes made by the real git.
struct Histories {
    env: TestEnv,
    dir: PathBuf,
}

impl Histories {
    fn new() -> Histories {
        let env = TestEnv::new();
        let dir = team_repo(&env, true);
        Histories { env, dir }
    }

    fn on(&self, branch: &str, change: impl FnOnce(&Path)) {
        let exists = git(&self.dir, &["branch", "--list", branch]);
        if exists.trim().is_empty() {
            git(&self.dir, &["checkout", "-q", "-b", branch]);
        } else {
            git(&self.dir, &["checkout", "-q", branch]);
        }
        change(&self.dir);
        commit_all(&self.dir, branch);
        git(&self.dir, &["checkout", "-q", "main"]);
    }

    /// Merge `theirs` into `main` with memdir's engine, write the work tree and commit.
    fn merge(&self) -> (memdir::memory::merge::Merged, String) {
        let mut repo = MemoryRepo::open(&self.dir).expect("open");
        let ours = repo.resolve_commit("main").expect("main");
        let theirs = repo.resolve_commit("theirs").expect("theirs");
        let base = repo.merge_base(ours, theirs).expect("merge base");
        let git_base = git(&self.dir, &["merge-base", "main", "theirs"]);
        assert_eq!(
            base.map(|b| b.to_string()),
            Some(git_base.trim().to_string())
        );
        let tree = |commit| repo.commit_tree(commit).expect("tree");
        let base_tree = base.map(tree).unwrap_or_default();
        let (ours_tree, theirs_tree) = (tree(ours), tree(theirs));
        let short = theirs.to_hex_with_len(7).to_string();
        let merged = merge_tree_maps(&mut repo, &base_tree, &ours_tree, &theirs_tree, &short)
            .expect("merge");
        // The work tree, as the caller (team sync) writes it.
        let old = repo.commit_tree(ours).expect("tree");
        for name in old.keys().filter(|n| !merged.tree.contains_key(*n)) {
            std::fs::remove_file(self.dir.join(name.to_string())).expect("remove");
        }
        for (name, (_, id)) in &merged.tree {
            let bytes = repo.blob(*id).expect("blob");
            std::fs::write(self.dir.join(name.to_string()), bytes).expect("write");
        }
        // The commit, as memdir writes it; the branch and `.git/index` moved with git.
        let commit = repo
            .write_commit(&merged.tree, &[ours, theirs], "sync(team): merge theirs\n")
            .expect("commit");
        git(
            &self.dir,
            &["update-ref", "refs/heads/main", &commit.to_string()],
        );
        git(&self.dir, &["reset", "-q"]);
        assert_eq!(
            parents(&self.dir, "HEAD"),
            [ours.to_string(), theirs.to_string()]
        );
        assert_git_clean(&self.dir);
        (merged, theirs.to_hex_with_len(7).to_string())
    }
}

#[test]
fn merge_trees_merges_topic_files_and_keeps_both_versions_of_a_conflict() {
    let h = Histories::new();
    h.on("theirs", |dir| {
        write(
            dir,
            "lint.md",
            &LINT.replace("CI broke.", "CI was red for a day."),
        );
        write(
            dir,
            "deploy.md",
            &DEPLOY.replace("from the release branch", "from main since March"),
        );
        write(
            dir,
            "tone.md",
            "---\nname: tone\ndescription: be brief\ntype: user\n---\nBe brief.\n",
        );
        write(
            dir,
            "MEMORY.md",
            &format!("{BASE_INDEX}- [Tone](tone.md) — be brief\n"),
        );
        write(
            dir,
            ".gitattributes",
            "MEMORY.md merge=memdir-index\n*.md text\n",
        );
    });
    h.on("main", |dir| {
        write(
            dir,
            "lint.md",
            &LINT.replace(
                "description: run lint first",
                "description: lint before each commit",
            ),
        );
        write(
            dir,
            "deploy.md",
            &DEPLOY.replace("release branch.", "release branch, every Monday."),
        );
        write(
            dir,
            ".gitattributes",
            "MEMORY.md merge=memdir-index\n*.md -text\n",
        );
    });
    let (merged, short) = h.merge();
    let copy = format!("deploy.conflict-{short}.md");
    assert_eq!(
        merged.conflicts,
        [Conflict {
            file: "deploy.md".into(),
            kept_as: copy.clone()
        }]
    );
    assert_eq!(merged.kept_ours, [".gitattributes"]);
    let dir = &h.dir;
    assert_eq!(
        read(dir, "lint.md"),
        LINT.replace(
            "description: run lint first",
            "description: lint before each commit"
        )
        .replace("CI broke.", "CI was red for a day.")
    );
    assert_eq!(
        read(dir, "deploy.md"),
        DEPLOY.replace("release branch.", "release branch, every Monday.")
    );
    assert_eq!(
        read(dir, &copy),
        format!(
            "---\nname: deploy.conflict-{short}\ndescription: staging deploys from release\ntype: project\n---\nStaging deploys from main since March.\n"
        )
    );
    // The copy is kept out of the index the model loads until a person resolves it.
    assert_eq!(
        read(dir, "MEMORY.md"),
        format!("{BASE_INDEX}- [Tone](tone.md) — be brief\n")
    );
    assert_eq!(
        read(dir, ".gitattributes"),
        "MEMORY.md merge=memdir-index\n*.md -text\n"
    );
    // memdir reads the merged dir: the copy is listed as a memory of its own.
    let list = h.env.ok(&[
        "--memory-dir",
        dir.to_str().expect("utf-8"),
        "list",
        "--json",
    ]);
    assert!(list.stdout.contains(&copy), "{}", list.stdout);
}

#[test]
fn merge_trees_keeps_a_memory_deleted_on_one_side_and_changed_on_the_other() {
    let h = Histories::new();
    // Theirs deletes both memories with their index lines.
    h.on("theirs", |dir| {
        std::fs::remove_file(dir.join("lint.md")).expect("rm");
        std::fs::remove_file(dir.join("deploy.md")).expect("rm");
        write(
            dir,
            "MEMORY.md",
            "# Team memory\n\nKeep each entry to one line.\n",
        );
    });
    // Ours changes lint's file only, and deploy's index line only.
    h.on("main", |dir| {
        write(
            dir,
            "lint.md",
            &LINT.replace("CI broke.", "CI broke twice."),
        );
        write(
            dir,
            "MEMORY.md",
            &BASE_INDEX.replace("staging deploys from release", "staging: release branch"),
        );
    });
    let (merged, _) = h.merge();
    assert!(merged.conflicts.is_empty());
    let dir = &h.dir;
    assert_eq!(
        read(dir, "lint.md"),
        LINT.replace("CI broke.", "CI broke twice.")
    );
    assert_eq!(read(dir, "deploy.md"), DEPLOY);
    let index = read(dir, "MEMORY.md");
    assert!(
        index.contains("- [Lint](lint.md) — run lint first\n"),
        "{index}"
    );
    assert!(
        index.contains("- [Deploy](deploy.md) — staging: release branch\n"),
        "{index}"
    );
}

#[test]
fn merge_trees_deletes_what_one_side_deleted_and_the_other_left() {
    let h = Histories::new();
    h.on("theirs", |dir| {
        std::fs::remove_file(dir.join("lint.md")).expect("rm");
        write(
            dir,
            "MEMORY.md",
            &BASE_INDEX.replace("- [Lint](lint.md) — run lint first\n", ""),
        );
    });
    h.on("main", |dir| {
        write(
            dir,
            "deploy.md",
            &DEPLOY.replace("release branch", "release branch (weekly)"),
        );
    });
    let (merged, _) = h.merge();
    assert!(merged.conflicts.is_empty() && merged.kept_ours.is_empty());
    assert!(!h.dir.join("lint.md").exists());
    assert_eq!(
        read(&h.dir, "MEMORY.md"),
        BASE_INDEX.replace("- [Lint](lint.md) — run lint first\n", "")
    );
    assert!(read(&h.dir, "deploy.md").contains("(weekly)"));
}

#[test]
fn the_other_side_of_a_conflict_copy_is_named_after_the_memory() {
    let h = Histories::new();
    let copy = "deploy.conflict-abc1234.md";
    let copy_text = |body: &str| {
        format!("---\nname: deploy.conflict-abc1234\ndescription: d\ntype: project\n---\n{body}\n")
    };
    h.on("main", |dir| {
        write(dir, copy, &copy_text("Staging deploys on Mondays."));
        write(
            dir,
            "MEMORY.md",
            &format!("{BASE_INDEX}- [Deploy (conflict)]({copy}) — d\n"),
        );
    });
    git(&h.dir, &["branch", "theirs"]);
    h.on("theirs", |dir| {
        write(dir, copy, &copy_text("Staging deploys on Fridays."))
    });
    h.on("main", |dir| {
        write(dir, copy, &copy_text("Staging deploys on Tuesdays."))
    });
    let (merged, _) = h.merge();
    let theirs_blob = git(&h.dir, &["rev-parse", &format!("theirs:{copy}")]);
    let kept_as = format!("deploy.conflict-{}.md", &theirs_blob[..7]);
    assert_eq!(
        merged.conflicts,
        [Conflict {
            file: copy.into(),
            kept_as: kept_as.clone()
        }]
    );
    // A name team sync takes from a remote: `show` and `rm` take it too.
    let name = kept_as.trim_end_matches(".md");
    let shown = h
        .env
        .ok(&["--memory-dir", h.dir.to_str().expect("utf-8"), "show", name]);
    assert!(shown.stdout.contains("Fridays"), "{}", shown.stdout);
}
