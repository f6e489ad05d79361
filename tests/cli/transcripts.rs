//! Every real transcript in `fixtures/transcripts/` (Claude Code 2.0.76, 2.1.38–39 and 2.1.332,
//! with sub-agent files and compactions) reads to its end without an unreadable line, and
//! yields exactly the person's prompts: never tool results, meta or command records, compaction
//! summaries, interruptions, or a sub-agent's prompt.

use std::path::Path;

use crate::common::{TestEnv, assert_git_clean};

/// The person's prompts in each file, counted by hand from the files (sub-agent files: none).
const PROMPTS: &[(&str, u64)] = &[
    ("cc-2.1.332/agent-writes-memory.jsonl", 1),
    ("fasthooks/sample_main_transcript.jsonl", 5),
    ("fasthooks/sample_agent_sidechain.jsonl", 0),
    ("spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl", 2),
    ("spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl", 2),
    ("spotter/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl", 1),
    ("spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl", 2),
    ("spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl", 2),
    ("spotter/short.jsonl", 1),
    ("spotter/subagent.jsonl", 1),
    ("spotter/tool_heavy.jsonl", 2),
];

#[test]
fn every_real_transcript_reads_to_the_end() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/transcripts");
    let mut files = Vec::new();
    for folder in ["cc-2.1.332", "fasthooks", "spotter"] {
        for entry in std::fs::read_dir(root.join(folder)).expect("fixture folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 23);
    let env = TestEnv::new();
    let dir = env.root.join("memory");
    let dir_arg = dir.to_str().expect("utf-8");
    let project = env.project.to_str().expect("utf-8");
    for file in &files {
        let name = file
            .strip_prefix(&root)
            .expect("under root")
            .to_str()
            .expect("utf-8");
        let report = env
            .ok(&[
                "extract",
                "--transcript",
                file.to_str().expect("utf-8"),
                "--memory-dir",
                dir_arg,
                "--project",
                project,
                "--session",
                &name.replace(['/', '.'], "-"),
                "--json",
            ])
            .json();
        let len = std::fs::metadata(file).expect("file").len();
        assert_eq!(report["to"], len, "{name} was read to its end");
        assert_eq!(report["unreadable_lines"], 0, "{name}");
        let sub_agent = name.contains("_subagents_") || name.contains("sidechain");
        let want = PROMPTS
            .iter()
            .find(|(f, _)| *f == name)
            .map(|(_, n)| *n)
            .unwrap_or_else(|| {
                assert!(sub_agent, "{name} needs a count in PROMPTS");
                0
            });
        assert_eq!(report["turns"], want, "{name}");
    }
    // None of these sessions says anything worth remembering but the 2.1.332 one, whose agent
    // saved its memory itself (in another memory dir, so here the builtin extractor does).
    let saved: Vec<_> = std::fs::read_dir(&dir)
        .expect("memory dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".md") && f != "MEMORY.md")
        .collect();
    let mut saved = saved;
    saved.sort();
    assert_eq!(
        saved,
        ["package-manager.md", "staging-deploys-release-branch.md"]
    );
    assert_git_clean(&dir);
}
