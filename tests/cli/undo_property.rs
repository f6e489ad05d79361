//! The undo stack as a property (issue 28): any sequence of saves, removals, undos and redos run
//! through the CLI ends with the memory dir's files equal to replaying, in a fresh memory dir,
//! the operations not undone, and the real git finds the repository sound and clean.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proptest::prelude::*;

use crate::common::{TestEnv, assert_git_clean, save_args};

/// What a person asks for.
#[derive(Debug, Clone)]
enum Step {
    Save(usize),
    Rm(usize),
    Undo,
    Redo,
}

/// An operation that committed: a save of a memory with a body, or a removal.
#[derive(Debug, Clone)]
enum Op {
    Save { name: &'static str, body: String },
    Rm(&'static str),
}

const NAMES: [&str; 3] = ["alpha", "beta", "gamma"];

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0..NAMES.len()).prop_map(Step::Save),
        1 => (0..NAMES.len()).prop_map(Step::Rm),
        2 => Just(Step::Undo),
        1 => Just(Step::Redo),
    ]
}

fn run_op(env: &TestEnv, op: &Op) {
    match op {
        Op::Save { name, body } => {
            env.ok(&save_args("project", name, &format!("About {name}"), body));
        }
        Op::Rm(name) => {
            env.ok(&["rm", name]);
        }
    }
}

/// The memory files (topic files and the index) of `dir`, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".md"))
                .map(|n| {
                    let bytes = std::fs::read(dir.join(&n)).expect("read");
                    (n, bytes)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The names that exist after replaying `ops` in order.
fn present(ops: &[&Op]) -> BTreeSet<&'static str> {
    let mut names = BTreeSet::new();
    for op in ops {
        match op {
            Op::Save { name, .. } => names.insert(*name),
            Op::Rm(name) => names.remove(name),
        };
    }
    names
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn any_saves_rms_undos_and_redos_equal_replaying_what_is_not_undone(
        steps in proptest::collection::vec(step(), 1..14)
    ) {
        let env = TestEnv::new();
        // The model: every committed operation, which are done (oldest first), and the redo
        // stack (the newest undone last).
        let mut ops: Vec<Op> = Vec::new();
        let mut done: BTreeSet<usize> = BTreeSet::new();
        let mut redo: Vec<usize> = Vec::new();
        for (n, step) in steps.iter().enumerate() {
            let live: Vec<&Op> = done.iter().map(|&i| &ops[i]).collect();
            match step {
                Step::Save(k) => {
                    let op = Op::Save { name: NAMES[*k], body: format!("Body {n}.") };
                    run_op(&env, &op);
                    ops.push(op);
                    done.insert(ops.len() - 1);
                    redo.clear();
                }
                Step::Rm(k) => {
                    if !present(&live).contains(NAMES[*k]) {
                        continue;
                    }
                    let op = Op::Rm(NAMES[*k]);
                    run_op(&env, &op);
                    ops.push(op);
                    done.insert(ops.len() - 1);
                    redo.clear();
                }
                Step::Undo => match done.pop_last() {
                    Some(newest) => {
                        env.ok(&["undo"]);
                        redo.push(newest);
                    }
                    None => {
                        prop_assert_eq!(env.run(&["undo"]).code, 2);
                    }
                },
                Step::Redo => match redo.pop() {
                    Some(undone) => {
                        env.ok(&["redo"]);
                        done.insert(undone);
                    }
                    None => {
                        prop_assert_eq!(env.run(&["redo"]).code, 2);
                    }
                },
            }
        }
        let dir = env.memory_dir();
        let replay = TestEnv::new();
        for &i in &done {
            run_op(&replay, &ops[i]);
        }
        prop_assert_eq!(files(&dir), files(&replay.memory_dir()), "steps {:?}", steps);
        if dir.join(".git").is_dir() {
            assert_git_clean(&dir);
        }
    }
}
