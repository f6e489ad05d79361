//! The transcripts Claude Code kept of a project's past sessions, for `memdir extract --all`
//! (DESIGN §6): `<config dir>/projects/<sanitized cwd>/<session>.jsonl`, one folder per
//! directory a session started in. A session that started at the project's root is in the
//! root's folder; one that started in a subfolder is in a folder whose name only begins like
//! the root's (as does a sibling project's, `/src/app-old` beside `/src/app`), so there the
//! transcript's own `cwd` decides. Only regular files in real folders are listed: a symlink is
//! followed by nothing here. Oldest session first (by when its file was created, else last
//! written), so a later correction lands after what it corrects.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::extract::transcript_origin;

/// The transcripts of the sessions of the project whose root is `root` (canonical), oldest
/// first.
pub fn of_project(config_dir: &Path, root: &Path) -> Vec<PathBuf> {
    let Some(key) = root.to_str().map(crate::paths::sanitize) else {
        return Vec::new();
    };
    let Ok(folders) = std::fs::read_dir(config_dir.join("projects")) else {
        return Vec::new();
    };
    let mut found: Vec<(SystemTime, PathBuf)> = Vec::new();
    for folder in folders.filter_map(Result::ok) {
        let name = folder.file_name();
        let Some(name) = name.to_str() else { continue };
        let own = name == key;
        let nested =
            name.len() > key.len() && name.starts_with(&key) && name[key.len()..].starts_with('-');
        if !(own || nested) || !folder.file_type().is_ok_and(|kind| kind.is_dir()) {
            continue;
        }
        let Ok(files) = std::fs::read_dir(folder.path()) else {
            continue;
        };
        for file in files.filter_map(Result::ok) {
            let path = file.path();
            let Ok(meta) = file.metadata() else { continue };
            if !meta.is_file() || path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            if nested && !started_under(&path, root) {
                continue;
            }
            let born = meta
                .created()
                .or_else(|_| meta.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            found.push((born, path));
        }
    }
    found.sort();
    found.into_iter().map(|(_, path)| path).collect()
}

/// Whether the session of `transcript` ran in `root` or below it.
fn started_under(transcript: &Path, root: &Path) -> bool {
    matches!(transcript_origin(transcript), Ok((Some(cwd), _)) if cwd.starts_with(root))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(cwd: &Path) -> String {
        format!(
            "{{\"type\":\"user\",\"sessionId\":\"s\",\"cwd\":{},\"message\":{{\"role\":\"user\",\"content\":\"hi\"}}}}\n",
            serde_json::Value::from(cwd.to_str().expect("utf-8"))
        )
    }

    #[test]
    fn the_roots_folder_and_sessions_started_below_it_in_age_order() {
        let temp = tempfile::tempdir().expect("tempdir");
        let config = temp.path().join("config");
        let root = temp.path().join("src").join("app");
        let projects = config.join("projects");
        let own = projects.join(crate::paths::sanitize(root.to_str().expect("utf-8")));
        let sub = projects.join(crate::paths::sanitize(
            root.join("web").to_str().expect("utf-8"),
        ));
        let sibling = projects.join(crate::paths::sanitize(
            temp.path().join("src/app-old").to_str().expect("utf-8"),
        ));
        for dir in [&own, &sub, &sibling, &own.join("subagents")] {
            std::fs::create_dir_all(dir).expect("mkdir");
        }
        let write = |path: &Path, cwd: &Path| {
            std::fs::write(path, transcript(cwd)).expect("write");
            // Creation times one apart at least: the order is theirs.
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        write(&own.join("first.jsonl"), &root);
        write(&sub.join("second.jsonl"), &root.join("web"));
        write(
            &sibling.join("other.jsonl"),
            &temp.path().join("src/app-old"),
        );
        write(&own.join("third.jsonl"), &root);
        write(&own.join("subagents/agent-1.jsonl"), &root);
        std::fs::write(own.join("notes.txt"), "x").expect("write");
        std::os::unix::fs::symlink(own.join("first.jsonl"), own.join("linked.jsonl"))
            .expect("symlink");
        let names: Vec<String> = of_project(&config, &root)
            .iter()
            .map(|p| {
                p.file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(names, ["first.jsonl", "second.jsonl", "third.jsonl"]);
        assert!(of_project(&temp.path().join("nowhere"), &root).is_empty());
    }
}
