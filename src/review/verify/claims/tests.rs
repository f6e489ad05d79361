//! The claim extraction's unit tests: what is a path or a symbol a memory claims, and the many
//! things that are not.

use super::*;

fn paths(text: &str) -> Vec<(String, PathKind)> {
    extract(text)
        .paths
        .into_iter()
        .map(|p| (p.text, p.kind))
        .collect()
}

fn symbols(text: &str) -> Vec<String> {
    extract(text).symbols.into_iter().map(|s| s.term).collect()
}

fn file(p: &str) -> (String, PathKind) {
    (p.to_string(), PathKind::File)
}

#[test]
fn paths_in_prose() {
    assert_eq!(
        paths("The parser lives in src/parse.rs, see docs/setup.md."),
        vec![file("src/parse.rs"), file("docs/setup.md")]
    );
    assert_eq!(
        paths("Edit ./src/lib.rs:42 first"),
        vec![file("src/lib.rs")]
    );
    assert_eq!(
        paths("Config is in **config/app.toml** and (scripts/run.sh)"),
        vec![file("config/app.toml"), file("scripts/run.sh")]
    );
    assert_eq!(
        paths("the review code is under src/review/"),
        vec![("src/review".to_string(), PathKind::Directory)]
    );
    assert_eq!(
        paths("配置在src/config.rs里，文档在 docs/setup.md。"),
        vec![file("src/config.rs"), file("docs/setup.md")]
    );
    assert_eq!(
        paths("see /work/proj/src/lib.rs"),
        vec![("/work/proj/src/lib.rs".to_string(), PathKind::Absolute)]
    );
    assert_eq!(paths("| src/a.rs | the entry |"), vec![file("src/a.rs")]);
    assert_eq!(
        paths("[the guide](docs/guide.md#install)"),
        vec![file("docs/guide.md")]
    );
}

#[test]
fn not_paths_in_prose() {
    for text in [
        "See https://example.com/docs/setup.md for details",
        "www.example.com/a/b.md",
        "mail me: mailto:a@b.com",
        "Settings go in ~/.claude/settings.json",
        "$HOME/.config/app.toml and ${XDG}/x.json",
        "Install @types/node and lodash@4.17.21",
        "git@github.com:org/repo.git",
        "Run with --config=config/dev.toml",
        "All *.rs files, src/**/*.ts and src/*.md and lib/foo*.rs",
        "v1.2 and 3.14, e.g. this, i.e. that, etc.",
        "read/write access, and/or, 2024/03/05, 1/2",
        "We use Node.js and Vue.js; see github.com/org/repo/blob/main/src/lib.rs",
        "a path/to/file.rs or foo/bar.rs or src/<name>.rs or app/[id]/page.tsx",
        "the README.md and lib.rs and Cargo.toml in prose",
        "C:\\Users\\me\\file.txt",
        "../other/project/x.rs",
        "-o/dev/null",
        "/usr/local/bin/tool",
    ] {
        let found = paths(text);
        assert!(
            found
                .iter()
                .all(|(_, k)| *k == PathKind::Absolute || *k == PathKind::Directory),
            "{text:?} → {found:?}"
        );
        // Directory-like words are only candidates; `and/or` is judged by whether `and` is a
        // directory of the project (it is not), which the integration tests cover.
    }
    assert_eq!(
        paths("/usr/local/bin/tool"),
        vec![("/usr/local/bin/tool".to_string(), PathKind::Absolute)]
    );
    assert!(
        paths("read/write and 2024/03/05")
            .iter()
            .all(|(p, _)| p == "read/write")
    );
}

#[test]
fn paths_in_code_spans() {
    assert_eq!(paths("see `src/lib.rs:10:3`"), vec![file("src/lib.rs")]);
    assert_eq!(
        paths("edit `lib.rs` and `package.json` and `.eslintrc.json`"),
        vec![
            ("lib.rs".to_string(), PathKind::Bare),
            ("package.json".to_string(), PathKind::Bare),
            (".eslintrc.json".to_string(), PathKind::Bare),
        ]
    );
    assert_eq!(
        paths("run `python scripts/migrate.py --dry-run` or `./bin/setup.sh --fast`"),
        vec![file("scripts/migrate.py"), file("bin/setup.sh")]
    );
    assert_eq!(
        paths("`src/review`"),
        vec![("src/review".to_string(), PathKind::Directory)]
    );
    for text in [
        "`rm src/old.rs`",
        "`cargo run > out/report.json`",
        "`touch notes/new.md`",
        "`https://example.com/a.md`",
        "`~/.claude/CLAUDE.md`",
        "`Node.js`",
        "`docs.rs`",
        "`MEMORY.md`",
        "`settings.json`",
        "`src/*.rs`",
        "`npm run lint`",
        "`--full-refresh`",
        "`origin/main docs`",
    ] {
        assert_eq!(paths(text), vec![], "{text}");
    }
}

#[test]
fn lines_that_tell_of_a_removal_are_not_read() {
    let text = "src/parse.rs was removed; `parse_argv` is renamed.\n\
                旧的 src/old.rs 已删除。\n\
                Keep docs/setup.md, src/gone/ and `parse_args` and `gone_fn`.";
    assert_eq!(
        paths(text),
        vec![
            file("docs/setup.md"),
            ("src/gone".to_string(), PathKind::Directory)
        ]
    );
    assert_eq!(symbols(text), vec!["parse_args", "gone_fn"]);
}

#[test]
fn fenced_blocks_are_not_read() {
    let text = "Build with:\n```sh\ncat src/gone.rs\nparse_args()\n```\nand `real_fn` too";
    assert_eq!(paths(text), vec![]);
    assert_eq!(symbols(text), vec!["real_fn"]);
    let tilde = "~~~\n`inside_fence`\n~~~\n";
    assert_eq!(symbols(tilde), Vec::<String>::new());
}

#[test]
fn symbols_in_code_spans() {
    assert_eq!(
        symbols(
            "Use `parse_args` then `VerifyArgs`, `parseArgs`, `run()`, `Store::open`, \
             `self.memory_dir`, `Limits::MAX_LEN`, `__init__`, `println!`, `@lru_cache`, \
             `.to_json()`"
        ),
        vec![
            "parse_args",
            "VerifyArgs",
            "parseArgs",
            "run",
            "open",
            "memory_dir",
            "MAX_LEN",
            "__init__",
            "println",
            "lru_cache",
            "to_json"
        ]
    );
    assert_eq!(
        extract("`Type::method`").symbols,
        vec![SymbolClaim {
            written: "Type::method".into(),
            term: "method".into()
        }]
    );
}

#[test]
fn not_symbols() {
    for text in [
        "`npm run lint`",
        "`--full-refresh`",
        "`-v`",
        "`cargo`",
        "`parse`",
        "`Config`",
        "`README`",
        "`RUST_LOG`",
        "`JSON`",
        "`TypeScript` and `GitHub` and `macOS`",
        "`42`",
        "`v1.2`",
        "`e.g.`",
        "`ab`",
        "`x_y`",
        "`example.com`",
        "`os.path`",
        "`Vec<String>`",
        "`let x = foo()`",
        "`#[derive(Debug)]`",
        "`a == b`",
        "`foo::bar::*`",
        "`foo_bar` and `fooBaz()` and `FooBar`",
        "`std::fs::read_to_string` and `fs.readFileSync()` and `JSON.parse()`",
        "parse_args in plain prose is not a span",
        "规范：提交前运行测试，不要直接推送到主分支。",
    ] {
        assert_eq!(symbols(text), Vec::<String>::new(), "{text}");
    }
}

#[test]
fn identifier_words() {
    assert_eq!(name_parts("parseArgs"), vec!["parse", "args"]);
    assert_eq!(name_parts("parse_args"), vec!["parse", "args"]);
    assert_eq!(name_parts("HTTPServer2go"), vec!["httpserver2go"]);
    assert_eq!(name_parts("__init__"), vec!["init"]);
    assert_eq!(name_parts("FooBar"), vec!["foo", "bar"]);
}

#[test]
fn code_spans_with_double_backticks() {
    assert_eq!(symbols("``a `b` c`` and `real_name`"), vec!["real_name"]);
    assert_eq!(
        symbols("`one` `` `two_fn` ``` `three_fn`"),
        vec!["two_fn", "three_fn"]
    );
    // Many unmatched runs stay fast.
    let line = "`a``b".repeat(20_000);
    assert_eq!(extract(&line).symbols.len(), 0);
    assert_eq!(
        symbols("an unmatched ` backtick and parse_args"),
        Vec::<String>::new()
    );
}
