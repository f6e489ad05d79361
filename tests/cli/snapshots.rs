//! Rendered output a person reads, as insta snapshots (`tests/cli/snapshots/`): review's report,
//! doctor's findings, the log, a diff, the stack explained. Temp paths and ages are normalised, so
//! a snapshot changes only when what memdir prints changes; `cargo insta review` shows the diff.

use crate::common::{TestEnv, save_args};

/// A store with three memories of different types and one update.
fn store() -> TestEnv {
    let env = TestEnv::new();
    env.save(
        "user",
        "role",
        "Backend engineer, new to the frontend",
        "Backend engineer; new to React.",
    );
    env.save(
        "feedback",
        "pre-commit-lint",
        "Run the linter before every commit",
        "Run `make lint` before every commit.\n\n**Why:** CI broke for a day.\n**How to apply:** lint before `git commit`.",
    );
    env.save(
        "reference",
        "oncall-dashboard",
        "The on-call latency dashboard",
        "https://grafana.example.com/d/api-latency is what on-call watches.",
    );
    env.ok(&save_args(
        "user",
        "role",
        "Backend engineer who also owns the deploy scripts",
        "Backend engineer; owns deploy scripts.",
    ));
    env
}

#[test]
fn log() {
    let env = store();
    insta::assert_snapshot!(env.normalised(&env.ok(&["log"]).stdout));
}

#[test]
fn list() {
    let env = store();
    insta::assert_snapshot!(env.normalised(&env.ok(&["list"]).stdout));
}

#[test]
fn diff_of_an_agents_edit() {
    let env = store();
    let dir = env.memory_dir();
    let path = dir.join("role.md");
    let text = std::fs::read_to_string(&path).expect("role");
    std::fs::write(
        &path,
        text.replace("owns deploy scripts", "owns the deploy scripts and CI"),
    )
    .expect("edit");
    insta::assert_snapshot!(env.normalised(&env.ok(&["diff"]).stdout));
}

#[test]
fn doctor_findings() {
    let env = store();
    let dir = env.memory_dir();
    std::fs::write(
        dir.join("orphan.md"),
        "---\nname: orphan\ndescription: An orphan\ntype: project\n---\nNo index line.\n",
    )
    .expect("orphan");
    std::fs::write(dir.join("untyped.md"), "No frontmatter at all.\n").expect("untyped");
    let mut index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    index.push_str("- [Gone](gone.md) — a line for a file that is not there\n");
    index.push_str("- [Untyped](untyped.md) — a file without frontmatter\n");
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
    let run = env.run(&["doctor"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    insta::assert_snapshot!(env.normalised(&run.stdout));
}

#[test]
fn review_report() {
    let env = store();
    insta::assert_snapshot!(env.normalised(&env.ok(&["review"]).stdout));
}

#[test]
fn context_explained() {
    let env = store();
    std::fs::write(env.project.join("CLAUDE.md"), "# Project\n\nUse pnpm.\n").expect("claude");
    let rules = env.project.join(".claude/rules");
    std::fs::create_dir_all(&rules).expect("rules");
    std::fs::write(rules.join("style.md"), "Tabs, not spaces.\n").expect("rule");
    std::fs::write(
        rules.join("api.md"),
        "---\npaths: src/api/**\n---\nValidate every request body.\n",
    )
    .expect("rule");
    let team = env.memory_dir().join("team");
    std::fs::create_dir_all(&team).expect("team");
    std::fs::write(
        team.join("MEMORY.md"),
        "- [Release train](release-train.md) — Releases go out on Tuesdays\n",
    )
    .expect("team index");
    insta::assert_snapshot!(env.normalised(&env.ok(&["context", "--explain"]).stdout));
}

#[test]
fn an_error_with_its_hint_plain_and_as_json() {
    let env = store();
    let plain = env.run(&["show", "nope"]);
    assert_eq!(plain.code, 2);
    let json = env.run(&["show", "nope", "--json"]);
    assert_eq!(json.code, 2);
    assert_eq!(
        json.stdout, "",
        "a JSON error goes to stderr, never mixed into the result"
    );
    let parsed: serde_json::Value =
        serde_json::from_str(json.stderr.trim()).expect("one JSON line");
    assert_eq!(parsed["error"]["exit_code"], 2);
    insta::assert_snapshot!(format!("{}{}", plain.stderr, json.stderr));
}
