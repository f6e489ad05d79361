//! What a project is known by across clones and machines (DESIGN §8), and where its memory is in
//! the person's remote.
//!
//! Claude Code keys memory by the project's path, so the same repository cloned at another path,
//! on another machine, or checked out in a linked worktree, has memory of its own that never
//! meets the others'. Personal sync knows a project instead by its git remote's address in one
//! spelling ([`crate::repo::remote_url::normalize`]): `origin`'s, else the only remote's. Every
//! clone of that repository is the same project, and a fork (another address) is another. A
//! project without a remote is known by its path, which is not the same anywhere else: it syncs
//! only under a name the person gives (`memdir sync --as NAME`, kept in the memory dir's
//! `.git/memdir/sync-as`). So is a memory dir that a setting or the override variable chose for
//! every project at once: its memory is no one project's.
//!
//! The remote holds one branch per project, `memdir/<readable>-<10 hex>`: the readable part is
//! the identity with every character but letters and digits turned into `-`, and the hex is of
//! the identity itself (git's blob id of its text), so that two identities that read the same
//! (`a-b/c`, `a/b-c`) still get two branches. Projects never share a branch, and a sync fetches
//! and pushes its own branch only.

use std::path::{Path, PathBuf};

use crate::paths::{LocationRule, project_key};
use crate::personal::PersonalError;
use crate::repo::remote_url::{normalize, shown};
use crate::settings::SettingsLayer;

/// Where a project's identity came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The project's git remote: its name and its address as configured (shown without a
    /// password).
    Remote { name: String, url: String },
    /// Named by the person (`memdir sync --as NAME`).
    Named,
    /// The project's path (or the memory dir's, shared by every project): not the same on
    /// another machine, so not synced; why.
    Path { why: String },
}

/// A project as personal sync knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// `github.com/alice/app`, `name:notes`, `path:/home/me/scratch`.
    pub id: String,
    pub source: Source,
}

/// The file in the memory dir's git dir that keeps the name `--as` gave.
fn name_file(memory_dir: &Path) -> PathBuf {
    memory_dir.join(".git").join("memdir").join("sync-as")
}

/// A name for `--as`: 1 to 64 of `a-z`, `0-9`, `.`, `_`, `-`, starting with a letter or digit.
pub fn validate_name(name: &str) -> Result<(), PersonalError> {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(PersonalError::InvalidName(name.to_string()))
    }
}

/// Keep `name` as what the memory dir syncs as, from now on.
pub fn remember_name(memory_dir: &Path, name: &str) -> Result<(), PersonalError> {
    validate_name(name)?;
    let file = name_file(memory_dir);
    Ok(crate::atomic::write(&file, format!("{name}\n").as_bytes())?)
}

/// The name `--as` gave the memory dir, if one did (and it is still a valid one).
fn remembered_name(memory_dir: &Path) -> Option<String> {
    let bytes = crate::input::read_regular(&name_file(memory_dir), 1024).ok()?;
    let name = String::from_utf8(bytes).ok()?.trim().to_string();
    validate_name(&name).is_ok().then_some(name)
}

impl Identity {
    /// The identity of the project at `project`, whose memory dir `memory_dir` was chosen by
    /// `rule`.
    pub fn of(
        project: &Path,
        memory_dir: &Path,
        rule: &LocationRule,
    ) -> Result<Identity, PersonalError> {
        if let Some(name) = remembered_name(memory_dir) {
            return Ok(Identity::named(&name));
        }
        let shared_by = match rule {
            LocationRule::EnvOverride => Some("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE".to_string()),
            LocationRule::Setting {
                layer: SettingsLayer::User | SettingsLayer::Policy,
                file,
            } => Some(format!("autoMemoryDirectory in {}", file.display())),
            _ => None,
        };
        if let Some(by) = shared_by {
            return Ok(Identity {
                id: format!("path:{}", memory_dir.display()),
                source: Source::Path {
                    why: format!(
                        "the memory dir {} is chosen by {by} for every project, so it is no one project's",
                        memory_dir.display()
                    ),
                },
            });
        }
        let root = project_key(project).map_err(|e| PersonalError::NoIdentity(e.to_string()))?;
        let remotes = crate::repo::project::remotes(&root);
        let chosen = match remotes.iter().find(|(name, _)| name == "origin") {
            Some(origin) => Some(origin),
            None if remotes.len() == 1 => remotes.first(),
            None => None,
        };
        let why = match (chosen, remotes.len()) {
            (Some((name, url)), _) => match normalize(url, &root) {
                Some(id) => {
                    return Ok(Identity {
                        id,
                        source: Source::Remote {
                            name: name.clone(),
                            url: shown(url),
                        },
                    });
                }
                None => format!("its remote {name} has an address git cannot use ({url:?})"),
            },
            (None, 0) => "the project has no git remote".to_string(),
            (None, n) => format!("the project has {n} git remotes and none is named origin"),
        };
        Ok(Identity {
            id: format!("path:{}", root.display()),
            source: Source::Path { why },
        })
    }

    /// The identity `--as NAME` gives.
    pub fn named(name: &str) -> Identity {
        Identity {
            id: format!("name:{name}"),
            source: Source::Named,
        }
    }

    /// Where it came from, in words: `the git remote origin (git@github.com:alice/app.git)`.
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Remote { name, url } => format!("the git remote {name}, {url}"),
            Source::Named => "the name given with memdir sync --as".to_string(),
            Source::Path { why } => format!("the path, not synced: {why}"),
        }
    }

    /// A short stable word for `--json`: `remote`, `name` or `path`.
    pub fn source_id(&self) -> &'static str {
        match self.source {
            Source::Remote { .. } => "remote",
            Source::Named => "name",
            Source::Path { .. } => "path",
        }
    }

    /// The branch of the person's remote that holds this project's memory; an error for an
    /// identity that does not sync (a path).
    pub fn branch(&self) -> Result<String, PersonalError> {
        if let Source::Path { why } = &self.source {
            return Err(PersonalError::NoIdentity(format!(
                "this project's memory has no name that is the same on another machine: {why}"
            )));
        }
        let mut readable = String::with_capacity(self.id.len());
        for c in self.id.chars() {
            let c = if c.is_ascii_alphanumeric() { c } else { '-' };
            if c != '-' || !readable.ends_with('-') {
                readable.push(c);
            }
        }
        let readable: String = readable.trim_matches('-').chars().take(80).collect();
        let hash = crate::repo::content_id(self.id.as_bytes())
            .ok_or_else(|| PersonalError::NoIdentity(format!("{:?} cannot be named", self.id)))?;
        Ok(format!(
            "memdir/{}-{}",
            readable.trim_end_matches('-'),
            hash.to_hex_with_len(10)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remote(id: &str) -> Identity {
        Identity {
            id: id.into(),
            source: Source::Remote {
                name: "origin".into(),
                url: String::new(),
            },
        }
    }

    #[test]
    fn each_identity_has_a_branch_of_its_own_that_git_takes() {
        let app = remote("github.com/alice/app").branch().expect("branch");
        assert!(app.starts_with("memdir/github-com-alice-app-"), "{app}");
        assert_eq!(app.len(), "memdir/github-com-alice-app-".len() + 10);
        // Identities that read the same still get two branches; so does a fork.
        let others = [
            remote("github.com/a-b/c"),
            remote("github.com/a/b-c"),
            remote("github.com/bob/app"),
            Identity::named("github.com-alice-app"),
        ];
        let mut branches: Vec<String> = others.iter().map(|i| i.branch().expect("b")).collect();
        branches.push(app);
        let count = branches.len();
        branches.sort();
        branches.dedup();
        assert_eq!(branches.len(), count, "{branches:?}");
        for branch in &branches {
            assert!(
                crate::repo::TargetRepo::is_valid_branch_name(branch),
                "{branch}"
            );
        }
        let odd = remote("host.example:2222/..~^:?*[\\/x.lock")
            .branch()
            .expect("b");
        assert!(crate::repo::TargetRepo::is_valid_branch_name(&odd), "{odd}");
        let path = Identity {
            id: "path:/tmp/x".into(),
            source: Source::Path {
                why: "no remote".into(),
            },
        };
        assert!(matches!(path.branch(), Err(PersonalError::NoIdentity(_))));
    }

    #[test]
    fn names_are_slugs() {
        for good in ["notes", "my-notes.v2", "a_b", "0"] {
            assert!(validate_name(good).is_ok(), "{good}");
        }
        for bad in ["", "Notes", "-x", "a/b", "a b", ".x", &"a".repeat(65)] {
            assert!(validate_name(bad).is_err(), "{bad:?}");
        }
    }
}
