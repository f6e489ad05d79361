//! The hermetic test environment (after jj's): a temp HOME and project, no git identity, fixed
//! commit dates, no inherited `CLAUDE_*` variables, and helpers that ask the real `git`.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

pub struct TestEnv {
    _root: TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
    vars: Vec<(String, String)>,
    /// An address-space limit (KiB) every run of memdir is held to, when set.
    limit_kb: Option<u64>,
}

/// The address-space limit (KiB, `ulimit -v`) of every run in the hostile-input tests: a run
/// that reads without bound fails instead of eating the machine.
pub const HOSTILE_LIMIT_KB: u64 = 1_000_000;

/// The result of one memdir run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn from_output(output: Output) -> Run {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// stderr's lines but the `hint:` lines that follow an error.
    pub fn error_lines(&self) -> Vec<&str> {
        self.stderr
            .lines()
            .filter(|l| !l.starts_with("hint: "))
            .collect()
    }

    /// The error's message, printed plain (`error: …`) or, for a `--json` command, as JSON.
    pub fn error_message(&self) -> String {
        let first = self.stderr.lines().next().unwrap_or_default();
        match serde_json::from_str::<serde_json::Value>(first) {
            Ok(json) => json["error"]["message"]
                .as_str()
                .unwrap_or_else(|| panic!("a JSON error without a message: {first}"))
                .to_string(),
            Err(_) => first.trim_start_matches("error: ").to_string(),
        }
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

/// The arguments of `memdir save --type T --name N --description D --body B`.
pub fn save_args<'a>(
    t: &'a str,
    name: &'a str,
    description: &'a str,
    body: &'a str,
) -> Vec<&'a str> {
    vec![
        "save",
        "--type",
        t,
        "--name",
        name,
        "--description",
        description,
        "--body",
        body,
    ]
}

/// `git -C dir args…` with a hermetic configuration.
fn git_command(dir: &Path, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new("git");
    command
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com");
    command
}

/// `memdir extract --transcript T --extractor agent --agent-cmd CMD --json`.
pub fn agent_extract_args<'a>(transcript: &'a Path, cmd: &'a str) -> Vec<&'a str> {
    vec![
        "extract",
        "--transcript",
        transcript.to_str().expect("a UTF-8 path"),
        "--extractor",
        "agent",
        "--agent-cmd",
        cmd,
        "--json",
    ]
}

/// Run `git` with a hermetic configuration, whatever its exit status.
pub fn git_output(dir: &Path, args: &[&str]) -> Output {
    git_command(dir, args).output().expect("git runs")
}

/// Run `command` with `input` on its stdin and its output captured.
fn output_with_stdin(mut command: std::process::Command, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the program starts");
    // The program may stop reading early (a body over its cap is refused after one byte too
    // many): a broken pipe here is its answer, not the test's failure.
    let written = child.stdin.take().expect("stdin").write_all(input);
    if let Err(e) = written {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing stdin: {e}"
        );
    }
    child.wait_with_output().expect("the program ends")
}

/// `git`'s stdout; it must have succeeded.
fn succeeded(output: Output, dir: &Path, args: &[&str]) -> String {
    assert!(
        output.status.success(),
        "git {args:?} in {} failed: {}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Run `git` with `input` on its stdin; it must succeed. Its stdout.
pub fn git_stdin(dir: &Path, args: &[&str], input: &[u8]) -> String {
    succeeded(output_with_stdin(git_command(dir, args), input), dir, args)
}

/// Run `git` with a hermetic configuration; it must succeed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    succeeded(git_output(dir, args), dir, args)
}

/// The real git agrees the repository is sound and the work tree matches HEAD.
pub fn assert_git_clean(dir: &Path) {
    git(dir, &["fsck", "--strict", "--no-progress"]);
    let status = git(dir, &["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "", "git status in {} is not clean", dir.display());
}

/// Commit subjects, newest first: none when there is no repository or no commit yet; any other
/// failure of git fails the test.
pub fn subjects(dir: &Path) -> Vec<String> {
    if !dir.join(".git").exists() {
        return Vec::new();
    }
    let output = git_output(dir, &["log", "--format=%s"]);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("does not have any commits yet"),
            "git log in {} failed: {stderr}",
            dir.display()
        );
        return Vec::new();
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Run `command` with `input` on stdin; kill it when `limit` passes (then `None`).
pub fn run_with_deadline(mut command: Command, input: &[u8], limit: Duration) -> Option<Run> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("memdir starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stdout.read_to_end(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    status.map(|status| Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    })
}

/// Every file under `dir` (`.git` included) and its bytes: a picture of "nothing changed".
pub fn tree_snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path).expect("stat");
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                out.insert(path.clone(), std::fs::read(&path).expect("read"));
            } else {
                out.insert(path.clone(), Vec::new());
            }
        }
    }
    out
}

/// Every line of `index` that is an entry names a file that exists in `dir`.
pub fn assert_index_consistent(dir: &Path) {
    let index = std::fs::read_to_string(dir.join("MEMORY.md")).unwrap_or_default();
    for line in index.lines() {
        let file = line
            .split_once("](")
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(f, _)| f)
            .unwrap_or_else(|| panic!("malformed index line {line:?}"));
        assert!(
            dir.join(file).is_file(),
            "index names missing {file}: {index}"
        );
    }
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let root_dir = tempfile::tempdir().expect("tempdir");
        let root = root_dir.path().canonicalize().expect("canonical temp dir");
        let home = root.join("home");
        let project = root.join("proj");
        std::fs::create_dir_all(&home).expect("home");
        std::fs::create_dir_all(&project).expect("project");
        git(&project, &["init", "-q"]);
        let vars = vec![
            ("HOME".to_string(), home.display().to_string()),
            ("GIT_CONFIG_GLOBAL".to_string(), "/dev/null".to_string()),
            ("GIT_CONFIG_NOSYSTEM".to_string(), "1".to_string()),
            (
                "GIT_AUTHOR_DATE".to_string(),
                "2026-03-05T10:00:00+00:00".to_string(),
            ),
            (
                "GIT_COMMITTER_DATE".to_string(),
                "2026-03-05T10:00:00+00:00".to_string(),
            ),
            (
                "MEMDIR_MANAGED_DIR".to_string(),
                root.join("managed").display().to_string(),
            ),
            // Today, for what judges dates (expired memories, a consolidation's branch).
            ("MEMDIR_TODAY".to_string(), "2026-03-05".to_string()),
        ];
        TestEnv {
            _root: root_dir,
            root,
            home,
            project,
            vars,
            limit_kb: None,
        }
    }

    /// Hold every later run of memdir to `kb` KiB of address space (`ulimit -v`).
    pub fn limit_memory(&mut self, kb: u64) {
        self.limit_kb = Some(kb);
    }

    /// Set (or replace) a variable for every later run.
    pub fn set_var(&mut self, name: &str, value: &str) {
        self.vars.retain(|(k, _)| k != name);
        self.vars.push((name.to_string(), value.to_string()));
    }

    /// The memdir binary under test: `MEMDIR_TEST_BIN` (e.g. the release build), else the one
    /// cargo built for these tests.
    pub fn binary() -> PathBuf {
        std::env::var_os("MEMDIR_TEST_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_memdir")))
    }

    /// The binary under test as a bare command, for a test that builds its own environment.
    pub fn binary_command() -> std::process::Command {
        std::process::Command::new(Self::binary())
    }

    /// `program` with this environment's variables and nothing else, in the project.
    pub fn command_for(&self, program: &Path) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.env_clear().current_dir(&self.project);
        for (k, v) in &self.vars {
            cmd.env(k, v);
        }
        cmd
    }

    pub fn command(&self) -> std::process::Command {
        let mut cmd = match self.limit_kb {
            None => std::process::Command::new(Self::binary()),
            Some(kb) => {
                let mut sh = std::process::Command::new("/bin/sh");
                sh.arg("-c")
                    .arg(format!("ulimit -v {kb} && exec \"$0\" \"$@\""))
                    .arg(Self::binary());
                sh
            }
        };
        cmd.env_clear().current_dir(&self.project);
        for (k, v) in &self.vars {
            cmd.env(k, v);
        }
        cmd
    }

    /// Run memdir with `args` with its stdout and stderr on a pseudo-terminal (util-linux's
    /// `script`), as a person at a terminal sees it; what the terminal was sent. It must succeed.
    pub fn on_terminal(&self, args: &[&str]) -> String {
        let run = self.on_terminal_with(args, &[], "");
        assert_eq!(run.code, 0, "memdir {args:?} on a terminal: {}", run.stdout);
        run.stdout
    }

    /// Run memdir with `args` on a pseudo-terminal (util-linux's `script`: stdin, stdout and
    /// stderr all the terminal), `vars` added to the environment and `typed` sent as keystrokes:
    /// its exit code and what the terminal was sent (stdout and stderr as they interleave, line
    /// ends as `\r\n`).
    pub fn on_terminal_with(&self, args: &[&str], vars: &[(&str, &str)], typed: &str) -> Run {
        let quote = |word: &str| format!("'{}'", word.replace('\'', "'\\''"));
        // `exec`: memdir is the terminal's process, not a shell waiting for it.
        let mut line = format!("exec {}", quote(&Self::binary().display().to_string()));
        for arg in args {
            line.push(' ');
            line.push_str(&quote(arg));
        }
        let mut script = std::process::Command::new("/usr/bin/script");
        script
            .args(["-qec", &line, "/dev/null"])
            .env_clear()
            .current_dir(&self.project);
        for (k, v) in &self.vars {
            script.env(k, v);
        }
        for (k, v) in vars {
            script.env(k, v);
        }
        Run::from_output(output_with_stdin(script, typed.as_bytes()))
    }

    /// An executable shell script `name` in the test's root (a pager, an editor): its path.
    pub fn script(&self, name: &str, text: &str) -> String {
        let path = self.root.join(name);
        std::fs::write(&path, text).expect("write the script");
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .expect("make it executable");
        path.display().to_string()
    }

    /// Run memdir with `args` and no stdin.
    pub fn run(&self, args: &[&str]) -> Run {
        Run::from_output(
            self.command()
                .args(args)
                .stdin(std::process::Stdio::null())
                .output()
                .expect("memdir runs"),
        )
    }

    /// Run memdir with `input` on stdin.
    pub fn run_with_stdin(&self, args: &[&str], input: &str) -> Run {
        let mut command = self.command();
        command.args(args);
        Run::from_output(output_with_stdin(command, input.as_bytes()))
    }

    /// Run memdir with `input` on stdin and give up after `limit`: `None` when it had to be
    /// killed (a hang fails the test instead of the suite).
    pub fn run_within(
        &self,
        args: &[&str],
        input: &[u8],
        limit: std::time::Duration,
    ) -> Option<Run> {
        let mut command = self.command();
        command.args(args);
        run_with_deadline(command, input, limit)
    }

    /// Run memdir and require success.
    pub fn ok(&self, args: &[&str]) -> Run {
        let run = self.run(args);
        assert_eq!(
            run.code, 0,
            "memdir {args:?} failed: {}{}",
            run.stdout, run.stderr
        );
        run
    }

    /// Run memdir and require exit `code` with nothing on stderr: a command whose answer is its
    /// exit code (a search with no hit, a verify with stale memories: 1).
    pub fn exits(&self, args: &[&str], code: i32) -> Run {
        let run = self.run(args);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (code, ""),
            "memdir {args:?}: {}",
            run.stdout
        );
        run
    }

    /// Run memdir and require exit `code` with `needle` in its one-line error.
    pub fn fails(&self, args: &[&str], code: i32, needle: &str) -> Run {
        let run = self.run(args);
        assert_eq!(
            run.code, code,
            "memdir {args:?}: {}{}",
            run.stdout, run.stderr
        );
        assert!(
            run.stderr.contains(needle),
            "memdir {args:?}: want {needle:?} in {}",
            run.stderr
        );
        run
    }

    /// `text` as it reads the same on every machine and every day: this test's temp root as
    /// `[ROOT]` (also inside the sanitised project folder name), ages as `[AGE]`.
    pub fn normalised(&self, text: &str) -> String {
        let root = self.root.display().to_string();
        let text = text
            .replace(&memdir::paths::sanitize(&root), "[SANITISED-ROOT]")
            .replace(&root, "[ROOT]");
        let ages = regex::Regex::new(r"\(saved [^)]*\)").expect("a valid pattern");
        ages.replace_all(&text, "(saved [AGE])").into_owned()
    }

    /// The memory dir memdir resolves for this environment.
    pub fn memory_dir(&self) -> PathBuf {
        PathBuf::from(self.ok(&["path"]).stdout.trim_end())
    }

    /// `memdir save` of the memory many tests start from: `role`, a user memory, "Backend
    /// engineer", "I own the deploy scripts."
    pub fn save_role(&self) -> Run {
        self.save(
            "user",
            "role",
            "Backend engineer",
            "I own the deploy scripts.",
        )
    }

    /// `memdir save` (with `--title` when given) committed at `time` (RFC 3339), as if saved
    /// then; required to succeed.
    pub fn save_at(
        &self,
        time: &str,
        memory_type: &str,
        name: &str,
        description: &str,
        body: &str,
        title: Option<&str>,
    ) {
        let mut args = save_args(memory_type, name, description, body);
        if let Some(title) = title {
            args.extend(["--title", title]);
        }
        let out = self
            .command()
            .args(&args)
            .env("GIT_AUTHOR_DATE", time)
            .env("GIT_COMMITTER_DATE", time)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("memdir runs");
        assert!(
            out.status.success(),
            "save {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `memdir save` with a body, required to succeed.
    pub fn save(&self, memory_type: &str, name: &str, description: &str, body: &str) -> Run {
        self.ok(&save_args(memory_type, name, description, body))
    }
}

/// The case folders (those with an `expected.json`) of a labelled fixture set, in name order.
pub fn labelled_cases(set: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(set);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{set}: {e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    cases.sort();
    cases
}

/// A labelled case's name (its folder's) and what its `expected.json` says.
pub fn expected_of<T: serde::de::DeserializeOwned>(case: &Path) -> (String, T) {
    let name = case
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let expected =
        serde_json::from_slice(&std::fs::read(case.join("expected.json")).expect("expected.json"))
            .unwrap_or_else(|e| panic!("{name}/expected.json: {e}"));
    (name, expected)
}

/// One teammate: a hermetic environment with team memory cloned from `remote`.
pub struct Mate {
    pub env: TestEnv,
    pub team: PathBuf,
}

impl Mate {
    /// Hold every later run of this teammate's memdir to `kb` KiB of address space.
    pub fn limited(mut self, kb: u64) -> Mate {
        self.env.limit_memory(kb);
        self
    }

    pub fn join(remote: &Path) -> Mate {
        let env = TestEnv::new();
        env.ok(&["team", "init", "--remote", remote.to_str().expect("utf-8")]);
        let team = env.memory_dir().join("team");
        Mate { env, team }
    }

    pub fn save(&self, name: &str, body: &str) {
        let description = format!("About {name}");
        let mut args = save_args("project", name, &description, body);
        args.push("--team");
        self.env.ok(&args);
    }

    pub fn sync(&self) -> serde_json::Value {
        self.env.ok(&["team", "sync", "--json"]).json()
    }

    /// The texts of the team memory files whose names start with `prefix` (a memory and its
    /// conflict copies), one after the other in name order.
    pub fn texts_of(&self, prefix: &str) -> String {
        self.files()
            .into_iter()
            .filter(|(f, _)| f.starts_with(prefix))
            .map(|(_, t)| t)
            .collect()
    }

    /// Every memory file of the team work tree, by name.
    pub fn files(&self) -> BTreeMap<String, String> {
        std::fs::read_dir(&self.team)
            .expect("team dir")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".md"))
            .map(|n| {
                let text = std::fs::read_to_string(self.team.join(&n)).expect("read");
                (n, text)
            })
            .collect()
    }
}

/// A bare repository to serve as the team remote, recording every update of its branches.
pub fn bare_remote(root: &Path) -> PathBuf {
    let remote = root.join("remote.git");
    git(
        root,
        &["init", "-q", "--bare", remote.to_str().expect("utf-8")],
    );
    // Record every update of the remote's branches, to check none was a rewrite.
    git(&remote, &["config", "core.logAllRefUpdates", "always"]);
    remote
}

/// Every update of every branch of `remote` moved it forward.
pub fn assert_only_fast_forwards(remote: &Path) {
    // Every branch's reflog, `memdir/…` branches' in folders included.
    let logs = tree_snapshot(&remote.join("logs/refs/heads"));
    assert!(!logs.is_empty(), "the remote has no reflogs");
    let mut updates = 0;
    for bytes in logs.values() {
        let log = String::from_utf8_lossy(bytes);
        for line in log.lines() {
            let mut fields = line.split_whitespace();
            let (Some(old), Some(new)) = (fields.next(), fields.next()) else {
                continue;
            };
            updates += 1;
            if old.chars().all(|c| c == '0') {
                continue;
            }
            let status = std::process::Command::new("git")
                .current_dir(remote)
                .args(["merge-base", "--is-ancestor", old, new])
                .status()
                .expect("git merge-base");
            assert!(
                status.success(),
                "the remote's branch was rewritten: {line}"
            );
        }
    }
    assert!(updates >= 3, "{updates} updates recorded");
}

/// Wait, polling every 10 ms, until `done`; fails with `what` if it is not done within `limit`.
/// (Tests wait on what they can observe, never for a fixed time.)
pub fn wait_for(what: &str, limit: std::time::Duration, mut done: impl FnMut() -> bool) {
    let started = std::time::Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "{what} after {limit:?}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Copy the folder `from` to `to`, recursively (fixtures into a test's temp dir).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy fixture file");
        }
    }
}
