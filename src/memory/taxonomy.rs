//! The closed set of memory types and the rules for memory names (DESIGN §3).

use std::fmt;
use std::str::FromStr;

/// What kind of fact a memory holds ([`MemoryType::purpose`] says it in words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MemoryType {
    User,
    Feedback,
    Project,
    Reference,
}

impl MemoryType {
    pub const ALL: [MemoryType; 4] = [
        MemoryType::User,
        MemoryType::Feedback,
        MemoryType::Project,
        MemoryType::Reference,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MemoryType::User => "user",
            MemoryType::Feedback => "feedback",
            MemoryType::Project => "project",
            MemoryType::Reference => "reference",
        }
    }

    /// What memories of this type hold, in a few words (shown beside a completed `--type`).
    pub fn purpose(self) -> &'static str {
        match self {
            MemoryType::User => "who the user is: role, expertise, preferences",
            MemoryType::Feedback => {
                "how the user wants the agent to work: corrections, confirmed approaches"
            }
            MemoryType::Project => "facts about the project that the code and history do not show",
            MemoryType::Reference => "where to find things: dashboards, docs, trackers, channels",
        }
    }
}

impl fmt::Display for MemoryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown memory type {0:?} (expected one of: user, feedback, project, reference)")]
pub struct UnknownType(pub String);

impl FromStr for MemoryType {
    type Err = UnknownType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MemoryType::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| UnknownType(s.to_string()))
    }
}

/// The index file's name.
pub const INDEX_FILE: &str = "MEMORY.md";

/// Whether `file` names a topic file: a top-level `*.md` file of the memory dir other than the
/// index (nor `memory.md`, the same file on a case-insensitive file system), not hidden
/// (memdir's temp files and the system's dotfiles are not memories), not starting with a
/// capital (`README.md`, `LICENSE.md`, `CHANGELOG.md`, which hosted repositories are created
/// with, are not memories; memdir's names and Claude Code's, `user_role.md`, are lower case),
/// with no control character. The one rule for the listing, adoption, index links, doctor, the
/// merges and what a sync writes into the work tree (DESIGN §8).
pub fn is_topic_file_name(file: &str) -> bool {
    file.ends_with(".md")
        && !file.eq_ignore_ascii_case(INDEX_FILE)
        && file
            .chars()
            .next()
            .is_some_and(|first| first != '.' && !first.is_ascii_uppercase())
        && !file.contains(['/', '\\'])
        && !file.chars().any(char::is_control)
}

/// Whether `file` names a memory file: the index or a topic file.
pub fn is_memory_file_name(file: &str) -> bool {
    file == INDEX_FILE || is_topic_file_name(file)
}

/// The longest name a memory can have.
pub const MAX_NAME_LEN: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid memory name {name:?}: {problem} (names are kebab-case: a-z, 0-9 and '-', 1 to 64 characters, not starting with '-')"
)]
pub struct InvalidName {
    pub name: String,
    pub problem: &'static str,
}

/// A memory name is a slug, `^[a-z0-9][a-z0-9-]{0,63}$`: it can never hold a path separator or
/// `..`, so `<name>.md` always stays inside the memory dir (§10).
/// A name that may exist in a memory dir: a valid name, or the other side of a team-sync
/// conflict kept as `<name>.conflict-<7 hex>` (DESIGN §8), which can be read and removed but is
/// never saved under.
pub fn validate_stored_name(name: &str) -> Result<(), InvalidName> {
    if conflict_copy_of(name).is_some_and(|base| validate_name(base).is_ok()) {
        return Ok(());
    }
    validate_name(name)
}

/// The memory a conflict copy keeps the other side of: `deploy-window` for
/// `deploy-window.conflict-1a2b3c4` (a name or its file's, `….md`); `None` for any other name.
pub fn conflict_copy_of(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".md").unwrap_or(name);
    let (base, id) = stem.rsplit_once(".conflict-")?;
    let hex = id.len() == 7
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (hex && !base.is_empty()).then_some(base)
}

pub fn validate_name(name: &str) -> Result<(), InvalidName> {
    let problem = if name.is_empty() {
        Some("it is empty")
    } else if name.len() > MAX_NAME_LEN {
        Some("it is longer than 64 characters")
    } else if name.contains('/') || name.contains('\\') {
        Some("it holds a path separator")
    } else if name.contains("..") {
        Some("it holds '..'")
    } else if name.chars().any(char::is_whitespace) {
        Some("it holds white space")
    } else if name.chars().any(|c| c.is_ascii_uppercase()) {
        Some("it holds upper-case letters")
    } else if name.starts_with('-') {
        Some("it starts with '-'")
    } else if name.eq_ignore_ascii_case("memory") {
        // memory.md and MEMORY.md are one file on case-insensitive file systems.
        Some("memory.md would collide with the index, MEMORY.md")
    } else if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        Some("it holds a character other than a-z, 0-9 and '-'")
    } else {
        None
    };
    match problem {
        Some(problem) => Err(InvalidName {
            name: name.to_string(),
            problem,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn conflict_copies_can_be_read_and_removed() {
        assert!(validate_stored_name("deploy-window.conflict-1a2b3c4").is_ok());
        assert_eq!(
            conflict_copy_of("deploy-window.conflict-1a2b3c4.md"),
            Some("deploy-window")
        );
        assert_eq!(
            conflict_copy_of("user_role.conflict-0000000"),
            Some("user_role")
        );
        assert_eq!(conflict_copy_of("deploy-window.md"), None);
        assert!(validate_name("deploy-window.conflict-1a2b3c4").is_err());
        for bad in [
            "x.conflict-1a2b3c",
            "x.conflict-1A2B3C4",
            "../x.conflict-1a2b3c4",
            ".conflict-1a2b3c4",
        ] {
            assert!(validate_stored_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names() {
        for good in ["a", "pre-commit-lint", "x1", &"a".repeat(64), "0-start"] {
            assert!(validate_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "a/b",
            "..",
            "a..b",
            "has space",
            "Upper",
            &"a".repeat(65),
            "-lead",
            "dot.md",
            "ünï",
        ] {
            assert!(validate_name(bad).is_err(), "{bad}");
            assert!(validate_stored_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn topic_files_are_what_memdir_and_claude_code_name_them() {
        for memory in [
            "deploy-window.md",
            "user_role.md",
            "x.conflict-1a2b3c4.md",
            "9.md",
        ] {
            assert!(is_topic_file_name(memory), "{memory}");
            assert!(is_memory_file_name(memory), "{memory}");
        }
        assert!(is_memory_file_name(INDEX_FILE) && !is_topic_file_name(INDEX_FILE));
        // What a hosted repository is created with, and what no file should be called.
        for other in [
            "README.md",
            "LICENSE.md",
            "CHANGELOG.md",
            "memory.md",
            ".hidden.md",
            "notes.txt",
            "a/b.md",
            "a\\b.md",
            "a\nb.md",
            "",
        ] {
            assert!(!is_memory_file_name(other), "{other:?}");
        }
    }

    #[test]
    fn types_round_trip() {
        for t in MemoryType::ALL {
            assert_eq!(t.as_str().parse::<MemoryType>(), Ok(t));
        }
        assert!("Feedback".parse::<MemoryType>().is_err());
    }

    proptest! {
        #[test]
        fn valid_names_match_the_slug_pattern(name in "\\PC{0,70}") {
            let slug = name.len() <= 64
                && name.bytes().next().is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !name.contains("..");
            prop_assert_eq!(validate_name(&name).is_ok(), slug);
        }
    }
}
