//! The layering rules of CONVENTIONS.md and ARCHITECTURE.md, checked on the source: top to
//! bottom `cli` → capabilities → `memory` → git access and the process environment → small
//! utilities; an arrow never points up, capabilities never import each other, the library never
//! imports `cli`, and no two files import each other in a cycle (a folder's `mod.rs` with its own
//! files excepted). A `crate::…` path in code counts wherever it is (`use`, a call, a type);
//! comments do not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layer of each top-level module, highest first. A module missing here fails the test: a
/// new module must be given its place.
const LAYERS: &[(&str, &[&str])] = &[
    ("the command line", &["cli"]),
    (
        "capabilities",
        &[
            "review", "extract", "team", "stack", "hooks", "recall", "mcp", "personal", "history",
        ],
    ),
    ("what capabilities share", &["sync"]),
    ("memory", &["memory"]),
    (
        "git access and the process environment",
        &[
            "repo", "paths", "settings", "env", "process", "model", "log_file",
        ],
    ),
    (
        "utilities",
        &[
            "atomic", "input", "fault", "secrets", "shell", "lexical", "glob", "walk", "js",
        ],
    ),
];

/// Capabilities: same layer, but none may import another.
const CAPABILITIES: &str = "capabilities";

fn layer_of(module: &str) -> Option<(usize, &'static str)> {
    LAYERS
        .iter()
        .enumerate()
        .find(|(_, (_, modules))| modules.contains(&module))
        .map(|(rank, (name, _))| (LAYERS.len() - rank, *name))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src/`, as a path relative to it.
fn files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![src()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path.strip_prefix(src()).expect("under src").to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// A file's module path: `memory/store/mod.rs` → `["memory", "store"]`.
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The file that holds the longest existing module prefix of `path`.
fn resolve(path: &[String]) -> Option<PathBuf> {
    (1..=path.len()).rev().find_map(|n| {
        let module = path[..n].join("/");
        [format!("{module}.rs"), format!("{module}/mod.rs")]
            .into_iter()
            .map(PathBuf::from)
            .find(|candidate| src().join(candidate).is_file())
    })
}

/// The code of a file without its comments (line comments and doc comments).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            // `"//"` inside a string stays; a comment starts the rest of the line otherwise.
            Some(at) if line[..at].matches('"').count() % 2 == 0 => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module path a file refers to: `crate::a::b`, `super::x` (made absolute).
fn references(file: &Path, text: &str) -> BTreeSet<Vec<String>> {
    let module = module_of(file);
    let mut out = BTreeSet::new();
    let code = code(text);
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let rest: String = code[at + start.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let mut path: Vec<String> = if start == "crate::" {
                Vec::new()
            } else {
                // `super` is the module above: of `a/b/c.rs` and of `a/b/c/mod.rs` alike, `a::b`.
                let mut parent = module.clone();
                parent.pop();
                parent
            };
            path.extend(
                rest.split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
            if !path.is_empty() {
                out.insert(path);
            }
        }
    }
    out
}

#[test]
fn the_layers_hold_and_no_files_import_each_other_in_a_cycle() {
    let mut violations = Vec::new();
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for file in files() {
        if file == Path::new("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(src().join(&file)).expect("readable");
        let module = module_of(&file);
        let Some(top) = module.first().cloned() else {
            continue; // lib.rs declares the modules
        };
        let Some((rank, layer)) = layer_of(&top) else {
            violations.push(format!(
                "src/{}: module `{top}` has no layer in tests/cli/layers.rs",
                file.display()
            ));
            continue;
        };
        for path in references(&file, &text) {
            if path.first().is_some_and(|p| p == "Error") && top != "cli" {
                violations.push(format!(
                    "src/{} uses crate::Error, the command line's error: a module returns its own",
                    file.display()
                ));
            }
            let Some(target) = resolve(&path) else {
                continue;
            };
            let target_top = module_of(&target).first().cloned();
            if let Some(target_top) = &target_top
                && *target_top != top
            {
                match layer_of(target_top) {
                    Some((target_rank, target_layer)) if target_rank > rank => {
                        violations.push(format!(
                            "src/{} ({layer}) imports crate::{} ({target_layer}), a layer above",
                            file.display(),
                            path.join("::")
                        ))
                    }
                    Some((target_rank, _)) if target_rank == rank && layer == CAPABILITIES => {
                        violations.push(format!(
                            "src/{} imports crate::{}: capabilities never import each other",
                            file.display(),
                            path.join("::")
                        ))
                    }
                    _ => {}
                }
            }
            if target != file {
                edges.entry(file.clone()).or_default().insert(target);
            }
        }
    }
    violations.extend(cycles(&edges));
    assert!(
        violations.is_empty(),
        "{} layering violation(s):\n{}",
        violations.len(),
        violations.join("\n")
    );
}

/// Whether the edge between `a` and `b` is a folder's `mod.rs` and one of its own files.
fn within_folder(a: &Path, b: &Path) -> bool {
    let folder_of = |mod_rs: &Path, file: &Path| {
        mod_rs.ends_with("mod.rs") && mod_rs.parent().is_some_and(|dir| file.starts_with(dir))
    };
    folder_of(a, b) || folder_of(b, a)
}

/// The cycles between files (Tarjan's strongly connected components), each as one line.
fn cycles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<String> {
    let nodes: Vec<&PathBuf> = edges
        .keys()
        .chain(edges.values().flatten())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let index_of: BTreeMap<&PathBuf, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let next: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges
                .get(*n)
                .into_iter()
                .flatten()
                .filter(|t| !within_folder(n, t))
                .map(|t| index_of[t])
                .collect()
        })
        .collect();
    struct Tarjan<'a> {
        next: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        components: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.counter);
            self.low[v] = self.counter;
            self.counter += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.next[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(index) if self.on_stack[w] => self.low[v] = self.low[v].min(index),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.components.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        next: &next,
        index: vec![None; nodes.len()],
        low: vec![0; nodes.len()],
        on_stack: vec![false; nodes.len()],
        stack: Vec::new(),
        counter: 0,
        components: Vec::new(),
    };
    for v in 0..nodes.len() {
        if tarjan.index[v].is_none() {
            tarjan.visit(v);
        }
    }
    tarjan
        .components
        .iter()
        .map(|component| {
            let names: Vec<String> = component
                .iter()
                .map(|&i| format!("src/{}", nodes[i].display()))
                .collect();
            format!("an import cycle between {}", names.join(", "))
        })
        .collect()
}

#[test]
fn no_file_under_src_is_over_800_lines_but_generated_tables() {
    let long: Vec<String> = files()
        .into_iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(src().join(&file)).expect("readable");
            let generated = text.lines().take(5).any(|l| l.contains("@generated"));
            let lines = text.lines().count();
            (lines > 800 && !generated).then(|| format!("src/{} has {lines} lines", file.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}
