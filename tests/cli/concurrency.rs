//! Many writers at once: the per-dir lock serialises them and nothing is lost.

use crate::common::{TestEnv, assert_git_clean, assert_index_consistent, subjects};

#[test]
fn eight_processes_saving_twenty_five_memories_each() {
    const WRITERS: usize = 8;
    const EACH: usize = 25;
    let env = TestEnv::new();
    let dir = env.memory_dir();
    let children: Vec<_> = (0..WRITERS)
        .map(|w| {
            let mut script = String::new();
            for i in 0..EACH {
                script.push_str(&format!(
                    "\"$0\" save --type project --name w{w}-m{i} --description 'writer {w} memory {i}' --body 'body {w} {i}' -q || exit 1\n"
                ));
            }
            let mut cmd = env.command();
            cmd.env("PATH", std::env::var("PATH").unwrap_or_default());
            let program = cmd.get_program().to_owned();
            let mut sh = std::process::Command::new("sh");
            sh.arg("-c").arg(script).arg(program).current_dir(&env.project).env_clear();
            for (k, v) in cmd.get_envs() {
                if let Some(v) = v {
                    sh.env(k, v);
                }
            }
            // 200 memories pass 80 % of the index cap: the warnings are expected, not shown.
            sh.stderr(std::process::Stdio::null());
            sh.spawn().expect("writer starts")
        })
        .collect();
    for mut child in children {
        assert!(child.wait().expect("writer ends").success());
    }
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).expect("index");
    assert_eq!(index.lines().count(), WRITERS * EACH);
    let topics = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .filter(|e| {
            e.file_name().to_string_lossy().ends_with(".md") && e.file_name() != "MEMORY.md"
        })
        .count();
    assert_eq!(topics, WRITERS * EACH);
    let subjects = subjects(&dir);
    assert_eq!(subjects.len(), WRITERS * EACH);
    assert!(subjects.iter().all(|s| s.starts_with("save(project): w")));
    let mut unique = subjects.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), WRITERS * EACH);
    assert_index_consistent(&dir);
    assert_git_clean(&dir);
}
