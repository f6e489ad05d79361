//! The recall cache (`.git/memdir/recall-cache`, DESIGN §12): `search` and the prompt hook read each
//! memory's terms from it once the files have settled, and what they find is what reading every
//! file finds — after an edit by hand, a deletion, or with the cache torn, planted or gone.

use std::path::Path;

use crate::common::{TestEnv, assert_git_clean};

/// Names and scores of `search --json QUERY`, best first.
fn search(env: &TestEnv, query: &str) -> Vec<(String, f64)> {
    let run = env.run(&["search", "--json", "-n", "20", "--", query]);
    // No hit is exit 1 (as grep), with an empty list.
    let hits = run.json();
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (if hits == serde_json::json!([]) { 1 } else { 0 }, ""),
        "search {query:?}"
    );
    hits.as_array()
        .expect("an array")
        .iter()
        .map(|hit| {
            (
                hit["name"].as_str().expect("name").to_string(),
                hit["score"].as_f64().expect("score"),
            )
        })
        .collect()
}

fn cache(dir: &Path) -> std::path::PathBuf {
    dir.join(".git/memdir/recall-cache")
}

#[test]
fn what_the_cache_finds_is_what_the_files_say() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    for (name, description, body) in [
        (
            "deploy-window",
            "Deploys happen on weekdays before 4pm",
            "Never deploy on Fridays.",
        ),
        (
            "lint-first",
            "Run the linter before each commit",
            "CI failed for a day without it.",
        ),
        (
            "grafana-latency",
            "API latency dashboards are in Grafana",
            "See the p99 panel.",
        ),
        (
            "code-freeze",
            "下周三开始封版，只合并 P0 修复",
            "封版期间只合并 P0 修复。",
        ),
    ] {
        env.save("project", name, description, body);
    }
    let queries = [
        "when can we deploy",
        "linter commit",
        "grafana p99 latency",
        "封版期间能合并吗",
    ];
    // Files changed in the last two seconds are read every time, never recorded.
    let fresh: Vec<_> = queries.iter().map(|q| search(&env, q)).collect();
    assert!(!cache(&dir).exists(), "a file this new is not recorded");
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let first: Vec<_> = queries.iter().map(|q| search(&env, q)).collect();
    assert!(cache(&dir).is_file(), "the settled files are recorded");
    let cached: Vec<_> = queries.iter().map(|q| search(&env, q)).collect();
    assert_eq!(fresh, first);
    assert_eq!(
        first, cached,
        "read from the cache, the same hits and scores"
    );
    assert_eq!(cached[0][0].0, "deploy-window");
    // The prompt hook reads it too, and keeps its session record beside it.
    let payload = serde_json::json!({
        "session_id": "f963f83a-cb94-426d-8d53-023945f76728",
        "cwd": env.project,
        "hook_event_name": "UserPromptSubmit",
        "prompt": "deploy window: do deploys happen on weekdays before 4pm?",
    })
    .to_string();
    let run = env.run_with_stdin(&["recall", "--hook"], &payload);
    assert!(run.stdout.contains("## deploy-window"), "{}", run.stdout);
    let again = env.run_with_stdin(&["recall", "--hook"], &payload);
    assert_eq!(
        (again.code, again.stdout.as_str()),
        (0, ""),
        "{}",
        again.stderr
    );

    // An edit by hand, in place, keeping the size: found at once, the old words no longer.
    let file = dir.join("lint-first.md");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, text.replace("linter", "zanzib")).expect("edit");
    assert_eq!(search(&env, "zanzib")[0].0, "lint-first");
    assert!(
        search(&env, "linter")
            .iter()
            .all(|(n, _)| n != "lint-first")
    );

    // A deleted memory is gone from the hits.
    env.ok(&["rm", "grafana-latency"]);
    assert!(search(&env, "grafana p99 latency").is_empty());

    // A cache torn, altered, planted as a huge or foreign file, or a symlink: the same hits.
    let expected = search(&env, "when can we deploy");
    let good = std::fs::read(cache(&dir)).expect("the cache");
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x5a;
    for bad in [
        good[..good.len() / 2].to_vec(),
        flipped,
        b"memdir recall cache 1\n\xff\xff\xff\xff".to_vec(),
        Vec::new(),
    ] {
        std::fs::write(cache(&dir), &bad).expect("plant");
        assert_eq!(search(&env, "when can we deploy"), expected);
    }
    std::fs::remove_file(cache(&dir)).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", cache(&dir)).expect("symlink");
    assert_eq!(search(&env, "when can we deploy"), expected);
    std::fs::remove_file(cache(&dir)).expect("rm");
    // A FIFO is never opened (no hang), a folder never written into.
    let fifo = std::process::Command::new("mkfifo")
        .arg(cache(&dir))
        .status()
        .expect("mkfifo runs");
    assert!(fifo.success());
    assert_eq!(search(&env, "when can we deploy"), expected);
    std::fs::remove_file(cache(&dir)).expect("rm");
    std::fs::create_dir(cache(&dir)).expect("a folder");
    assert_eq!(search(&env, "when can we deploy"), expected);
    assert_eq!(std::fs::read_dir(cache(&dir)).expect("folder").count(), 0);
    std::fs::remove_dir(cache(&dir)).expect("rmdir");
    assert_eq!(search(&env, "when can we deploy"), expected);
    // The cache is no file of the memory dir's: the hand edit is all there is to adopt.
    env.ok(&["snapshot", "-q"]);
    assert_git_clean(&dir);
}
