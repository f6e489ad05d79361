//! `memdir search` (DESIGN §12): what it finds, whose it says it is, and what it refuses.

use crate::common::TestEnv;

#[test]
fn search_ranks_personal_and_team_memories_and_says_whose() {
    let env = TestEnv::new();
    env.save(
        "feedback",
        "pre-commit-lint",
        "Run the linter before every commit",
        "Run `npm run lint` before every commit; CI stayed red for a day without it.",
    );
    env.save(
        "reference",
        "latency-dashboard",
        "API latency dashboards are in Grafana",
        "https://grafana.example.com/d/api-latency",
    );
    env.save(
        "project",
        "code-freeze",
        "下周三开始封版，只合并 P0 修复",
        "封版期间只合并 P0 修复。",
    );
    let team = env.memory_dir().join("team");
    std::fs::create_dir_all(&team).unwrap();
    std::fs::write(
        team.join("release-train.md"),
        "---\nname: release-train\ndescription: Releases go out on Tuesdays with the release train\ntype: project\n---\nCut the release branch on Monday; deploy on Tuesday.\n",
    )
    .unwrap();
    std::fs::write(
        team.join("MEMORY.md"),
        "- [Release train](release-train.md) — Releases go out on Tuesdays\n",
    )
    .unwrap();

    let run = env.ok(&["search", "should", "I", "lint", "before", "committing?"]);
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("feedback  pre-commit-lint"),
        "{}",
        run.stdout
    );
    assert!(first.ends_with("months ago)"), "{}", run.stdout);

    let hits = env
        .ok(&[
            "search", "--json", "when", "do", "we", "deploy", "a", "release",
        ])
        .json();
    assert_eq!(hits[0]["name"], "release-train");
    assert_eq!(hits[0]["scope"], "team");
    assert!(hits[0]["score"].as_f64().unwrap() > 0.0);
    assert!(hits[0]["saved"].is_null(), "team/ here has no history");

    let hits = env.ok(&["search", "--json", "封版期间能合并吗"]).json();
    assert_eq!(hits[0]["name"], "code-freeze");
    assert_eq!(hits[0]["scope"], "personal");

    let hits = env
        .ok(&["search", "--json", "-n", "1", "grafana", "lint", "release"])
        .json();
    assert_eq!(hits.as_array().unwrap().len(), 1);
}

#[test]
fn search_with_nothing_to_find_says_so_and_bad_usage_is_refused() {
    let env = TestEnv::new();
    env.save(
        "user",
        "role",
        "Staff engineer on payments",
        "Works on the payments API.",
    );
    let run = env.ok(&["search", "quantum", "entanglement"]);
    assert_eq!(run.stdout, "no memory matches \"quantum entanglement\"\n");
    assert_eq!(
        env.ok(&["search", "--json", "the"]).json(),
        serde_json::json!([])
    );
    env.fails(&["search"], 2, "QUERY");
    env.fails(&["search", "-n", "x", "role"], 2, "invalid value");
}
