//! The git `post-merge` hook (`hooks/post-merge`, DESIGN §7): after a merge it runs
//! `memdir proposals --reconcile -q`, which retires the memories whose promotion was merged, and
//! never fails a merge. It goes into the project repository's hooks folder (`core.hooksPath` if
//! set, else `.git/hooks`), merged into an existing hook the way the settings entries are.

use std::path::{Path, PathBuf};

use crate::hooks::{DEFAULT_PROGRAM, HooksError};
use crate::shell::quote;

/// The git post-merge hook, compiled in like the entries.
const POST_MERGE: &str = include_str!("../../hooks/post-merge");

/// What identifies memdir's line in a post-merge hook.
const POST_MERGE_MARK: &str = "proposals --reconcile";

/// An existing hook longer than this is not a script memdir edits.
const MAX_HOOK_BYTES: u64 = 1024 * 1024;

/// What installing the hook did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Created,
    /// memdir's line was added to the user's hook.
    Appended,
    /// memdir's line was there with another program; it now runs this one.
    Updated,
    /// It was all there but the execute bit.
    MadeExecutable,
    Unchanged,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Created => "created",
            Action::Appended => "appended",
            Action::Updated => "updated",
            Action::MadeExecutable => "made executable",
            Action::Unchanged => "unchanged",
        }
    }
}

/// Install (or merge in) the post-merge hook of the repository holding `project`, running
/// `program`; the hook file and what was done.
pub fn install(project: &Path, program: &str) -> Result<(PathBuf, Action), HooksError> {
    let file = hook_file(project)?;
    let by_hand = |problem: String| HooksError::HookUnmergeable {
        file: file.clone(),
        problem,
        line: post_merge_line(program),
    };
    let existing = read_hook(&file, &by_hand)?;
    let merged = merge_post_merge(existing.as_deref(), program).map_err(by_hand)?;
    let action = match merged {
        Some((text, action)) => {
            write_hook(&file, &text)?;
            action
        }
        None => Action::Unchanged,
    };
    let made_executable = make_executable(&file)?;
    let action = if action == Action::Unchanged && made_executable {
        Action::MadeExecutable
    } else {
        action
    };
    Ok((file, action))
}

/// What uninstalling the hook did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    /// memdir's line was taken out; the rest of the hook is the user's and stays.
    Removed,
    /// The hook was the one memdir created, and nothing else: the file is gone.
    Deleted,
    /// No hook, or none with memdir's line.
    Unchanged,
}

impl Removal {
    pub fn as_str(self) -> &'static str {
        match self {
            Removal::Removed => "removed",
            Removal::Deleted => "deleted",
            Removal::Unchanged => "unchanged",
        }
    }
}

/// Take memdir's line (whatever program it runs) out of the post-merge hook of the repository
/// holding `project`: the inverse of [`install`]. A hook that was memdir's alone is deleted.
pub fn uninstall(project: &Path) -> Result<(PathBuf, Removal), HooksError> {
    let file = hook_file(project)?;
    let by_hand = |problem: String| HooksError::HookNotRemovable {
        file: file.clone(),
        problem,
    };
    let Some(existing) = read_hook(&file, &by_hand)? else {
        return Ok((file, Removal::Unchanged));
    };
    let removal = match unmerge_post_merge(&existing) {
        None => Removal::Unchanged,
        Some(None) => {
            std::fs::remove_file(&file).map_err(|source| HooksError::Io {
                path: file.clone(),
                source,
            })?;
            Removal::Deleted
        }
        Some(Some(rest)) => {
            write_hook(&file, &rest)?;
            Removal::Removed
        }
    };
    Ok((file, removal))
}

/// The post-merge hook file of the repository holding `project`.
fn hook_file(project: &Path) -> Result<PathBuf, HooksError> {
    let repo = crate::repo::TargetRepo::discover(project)?
        .ok_or_else(|| HooksError::NoRepository(project.to_path_buf()))?;
    Ok(repo.hooks_dir()?.join("post-merge"))
}

/// The hook's text, `None` when there is no hook; a hook memdir does not edit is refused with
/// `by_hand(why)`.
fn read_hook(
    file: &Path,
    by_hand: &dyn Fn(String) -> HooksError,
) -> Result<Option<String>, HooksError> {
    // A hook that is a symlink could lead anywhere (`~/.bashrc`, a script the project tracks):
    // memdir neither writes through it nor replaces it.
    if let Ok(target) = std::fs::read_link(file) {
        return Err(by_hand(format!(
            "it is a symlink to {}, and memdir writes only a regular hook file",
            target.display()
        )));
    }
    match crate::input::read_regular(file, MAX_HOOK_BYTES) {
        Ok(bytes) => Ok(Some(
            String::from_utf8(bytes).map_err(|_| by_hand("it is not UTF-8 text".into()))?,
        )),
        Err(e) if e.is_not_found() => Ok(None),
        Err(crate::input::InputError::NotRegular { kind, .. }) => {
            Err(by_hand(format!("it is not a regular file ({kind})")))
        }
        Err(crate::input::InputError::TooLarge { cap, .. }) => Err(by_hand(format!(
            "it is over {}",
            crate::input::format_bytes(cap)
        ))),
        Err(e) => Err(HooksError::Io {
            path: file.to_path_buf(),
            source: std::io::Error::other(e),
        }),
    }
}

fn write_hook(file: &Path, text: &str) -> Result<(), HooksError> {
    crate::atomic::replace(file, text.as_bytes()).map_err(|source| HooksError::Io {
        path: file.to_path_buf(),
        source,
    })
}

/// memdir's line of the post-merge hook, running `program`.
pub fn post_merge_line(program: &str) -> String {
    let line = POST_MERGE
        .lines()
        .find(|l| is_post_merge_line(l))
        .expect("hooks/post-merge has memdir's line (a unit test checks it)");
    if program == DEFAULT_PROGRAM {
        return line.to_string();
    }
    let quoted = quote(program);
    line.replace(
        &format!("command -v {DEFAULT_PROGRAM} "),
        &format!("command -v {quoted} "),
    )
    .replace(
        &format!("; {DEFAULT_PROGRAM} proposals"),
        &format!("; {quoted} proposals"),
    )
}

fn is_post_merge_line(line: &str) -> bool {
    !line.trim_start().starts_with('#') && line.contains(POST_MERGE_MARK)
}

/// The post-merge hook with memdir's line in it, and what changed (`created`, `appended`,
/// `updated`); `None` when it is already there. An existing hook keeps every line: memdir's is
/// added before a final top-level `exit` (which would end the script before it), else at the
/// end. A hook that is not a shell script is refused (memdir's line is shell).
fn merge_post_merge(
    existing: Option<&str>,
    program: &str,
) -> Result<Option<(String, Action)>, String> {
    let wanted = post_merge_line(program);
    let Some(text) = existing.filter(|t| !t.trim().is_empty()) else {
        let script = POST_MERGE.replace(
            POST_MERGE
                .lines()
                .find(|l| is_post_merge_line(l))
                .unwrap_or_default(),
            &wanted,
        );
        return Ok(Some((script, Action::Created)));
    };
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(found) = lines.iter().position(|l| is_post_merge_line(l)) {
        if lines[found] == wanted {
            return Ok(None);
        }
        lines[found] = wanted;
        return Ok(Some((
            with_final_newline(lines.join(
                "
",
            )),
            Action::Updated,
        )));
    }
    if let Some(shebang) = lines.first().filter(|l| l.starts_with("#!")) {
        let shell = ["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"];
        let runs_a_shell = shebang
            .trim_start_matches("#!")
            .split([' ', '/'])
            .any(|word| shell.contains(&word.trim()));
        if !runs_a_shell {
            return Err(format!("it is not a shell script ({shebang})"));
        }
    }
    let last = lines
        .iter()
        .rposition(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let at = match last {
        Some(i) if is_exit(&lines[i]) => i,
        _ => lines.len(),
    };
    lines.insert(at, wanted);
    Ok(Some((
        with_final_newline(lines.join(
            "
",
        )),
        Action::Appended,
    )))
}

/// The hook without memdir's line: `None` when it has none, `Some(None)` when what is left is
/// what memdir's own hook has besides its line (then the hook was memdir's alone).
fn unmerge_post_merge(text: &str) -> Option<Option<String>> {
    let without = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !is_post_merge_line(l))
            .map(str::to_string)
            .collect()
    };
    let rest = without(text);
    if rest.len() == text.lines().count() {
        return None;
    }
    if rest == without(POST_MERGE) {
        return Some(None);
    }
    Some(Some(with_final_newline(rest.join("\n"))))
}

/// A top-level `exit` statement (`exit`, `exit 0`, `exit $?`).
fn is_exit(line: &str) -> bool {
    let line = line.trim();
    line == "exit" || line.starts_with("exit ") || line.starts_with("exit	")
}

fn with_final_newline(mut text: String) -> String {
    text.push('\n');
    text
}

/// Make a hook executable (git skips one that is not, with only a hint); whether it changed.
#[cfg(unix)]
fn make_executable(file: &Path) -> Result<bool, HooksError> {
    use std::os::unix::fs::PermissionsExt;
    let io = |source| HooksError::Io {
        path: file.to_path_buf(),
        source,
    };
    let mode = std::fs::metadata(file).map_err(io)?.permissions().mode();
    // Execute for whoever may read it, as `chmod +x` does under the usual umask.
    let wanted = mode | 0o100 | ((mode & 0o044) >> 2);
    if wanted == mode {
        return Ok(false);
    }
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(wanted)).map_err(io)?;
    Ok(true)
}

#[cfg(not(unix))]
fn make_executable(_file: &Path) -> Result<bool, HooksError> {
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_merge_hook_is_merged_never_clobbered() {
        assert!(POST_MERGE.starts_with("#!/bin/sh\n"));
        let line = post_merge_line("memdir");
        assert!(line.contains("memdir proposals --reconcile -q"), "{line}");
        let spaced = post_merge_line("/opt/my tools/memdir");
        assert!(
            spaced.contains("command -v '/opt/my tools/memdir' ")
                && spaced.contains("; '/opt/my tools/memdir' proposals --reconcile -q"),
            "{spaced}"
        );
        let (created, action) = merge_post_merge(None, "memdir").expect("ok").expect("new");
        assert_eq!((created.as_str(), action), (POST_MERGE, Action::Created));
        assert_eq!(merge_post_merge(Some(POST_MERGE), "memdir"), Ok(None));

        let users = "#!/bin/bash\nset -e\necho merged\nexit 0\n";
        let (text, action) = merge_post_merge(Some(users), "memdir")
            .expect("ok")
            .expect("changed");
        assert_eq!(action, Action::Appended);
        assert_eq!(
            text,
            format!("#!/bin/bash\nset -e\necho merged\n{line}\nexit 0\n")
        );
        assert_eq!(merge_post_merge(Some(&text), "memdir"), Ok(None));
        let (moved, action) = merge_post_merge(Some(&text), "/usr/local/bin/memdir")
            .expect("ok")
            .expect("changed");
        assert_eq!(action, Action::Updated);
        assert!(moved.contains("echo merged\n") && !moved.contains("; memdir proposals"));

        let no_exit = "#!/bin/sh\necho hi";
        let (text, _) = merge_post_merge(Some(no_exit), "memdir")
            .expect("ok")
            .expect("changed");
        assert_eq!(text, format!("#!/bin/sh\necho hi\n{line}\n"));
        assert!(merge_post_merge(Some("#!/usr/bin/env python3\nprint(1)\n"), "memdir").is_err());
    }

    #[test]
    fn uninstalling_gives_back_the_users_hook_or_none() {
        let merged = |existing: Option<&str>, program: &str| {
            merge_post_merge(existing, program)
                .expect("ok")
                .expect("changed")
                .0
        };
        assert_eq!(unmerge_post_merge(&merged(None, "memdir")), Some(None));
        assert_eq!(
            unmerge_post_merge(&merged(None, "/opt/my tools/memdir")),
            Some(None)
        );
        for users in ["#!/bin/bash\nset -e\necho merged\nexit 0\n", "#!/bin/sh\n"] {
            assert_eq!(
                unmerge_post_merge(&merged(Some(users), "/usr/bin/memdir")),
                Some(Some(users.to_string()))
            );
            assert_eq!(unmerge_post_merge(users), None);
        }
        // memdir's hook with a line of the user's added stays, without memdir's line.
        let edited = format!("{POST_MERGE}echo mine\n");
        let rest = unmerge_post_merge(&edited).expect("changed").expect("kept");
        assert!(rest.ends_with("exit 0\necho mine\n"), "{rest}");
        assert!(!rest.lines().any(is_post_merge_line), "{rest}");
    }
}
