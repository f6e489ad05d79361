//! The commit-message format of DESIGN §4, written and parsed here only: `<op>(<type>): <name>`,
//! a blank line, the description, then `Memdir-Op:`, `Memdir-Session:` and other `Memdir-*`
//! trailers, which `log --json` and the operation log (§14) read back.

use gix::ObjectId;

/// What a commit did, for the message and for `log`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Save,
    Update,
    Delete,
    Adopt,
    Rollback,
    Restore,
    /// A memory retired because its rule was promoted and merged (DESIGN §7).
    Promote,
    /// What a sync brought from its remote: a merge, or a tree without entries git refuses
    /// (DESIGN §8). A fast-forward makes no commit.
    Sync,
    /// A conflict a sync kept both sides of, finished by a person (DESIGN §8).
    Resolve,
    /// One commit's change taken back (DESIGN §14).
    Revert,
    /// Operations taken back (DESIGN §14).
    Undo,
    /// An undo taken back (DESIGN §14).
    Redo,
}

impl Op {
    pub const ALL: [Op; 10] = [
        Op::Save,
        Op::Update,
        Op::Delete,
        Op::Adopt,
        Op::Rollback,
        Op::Restore,
        Op::Promote,
        Op::Revert,
        Op::Undo,
        Op::Redo,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Op::Save => "save",
            Op::Update => "update",
            Op::Delete => "delete",
            Op::Adopt => "adopt",
            Op::Rollback => "rollback",
            Op::Restore => "restore",
            Op::Promote => "promote",
            Op::Sync => "sync",
            Op::Resolve => "resolve",
            Op::Revert => "revert",
            Op::Undo => "undo",
            Op::Redo => "redo",
        }
    }
}

/// The commit message of §4: `<op>(<type>): <name>`, the description, then trailers.
pub fn commit_message(
    op: Op,
    memory_type: &str,
    name: &str,
    description: &str,
    session: Option<&str>,
) -> String {
    commit_message_with(op, memory_type, name, description, session, &[])
}

/// [`commit_message`] with more `Memdir-<key>: <value>` trailers after `Memdir-Op` and
/// `Memdir-Session`.
pub fn commit_message_with(
    op: Op,
    memory_type: &str,
    name: &str,
    description: &str,
    session: Option<&str>,
    trailers: &[(&str, &str)],
) -> String {
    let mut message = format!("{}({memory_type}): {name}\n\n", op.as_str());
    let description = description.trim();
    if !description.is_empty() {
        message.push_str(description);
        message.push_str("\n\n");
    }
    message.push_str(&format!("Memdir-Op: {}\n", op.as_str()));
    if let Some(session) = session {
        message.push_str(&format!("Memdir-Session: {session}\n"));
    }
    for (key, value) in trailers {
        message.push_str(&format!("Memdir-{key}: {value}\n"));
    }
    message
}

/// The trailers of the operation log (DESIGN §14), after `Memdir-`: a commit made inside an
/// operation scope names the operation's kind and description, and every one but the first
/// names the first commit, which is the operation's id.
pub const OPERATION: &str = "Operation";
pub const CONTINUES: &str = "Continues";
/// On an undo: each operation it took back, by id.
pub const UNDOES: &str = "Undo";
/// On a redo: the undo it took back, by id.
pub const REDOES: &str = "Redo";
/// On a revert: the commit whose change it took back.
pub const REVERTS: &str = "Reverts";
/// The session that made a commit.
pub const SESSION: &str = "Session";

/// `message` with `Memdir-<key>: <value>` trailers added to its trailer paragraph (or as a new
/// one). Each value is made one line of printable text, at most 200 characters.
pub fn with_trailers(message: &str, trailers: &[(&str, &str)]) -> String {
    let mut out = message.trim_end().to_string();
    let last = out.rsplit("\n\n").next().unwrap_or_default();
    let has_block = out.contains("\n\n")
        && !last.is_empty()
        && last
            .lines()
            .all(|l| l.starts_with("Memdir-") && l.contains(": "));
    out.push_str(if has_block { "\n" } else { "\n\n" });
    for (key, value) in trailers {
        let value: String = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(200)
            .collect();
        out.push_str(&format!("Memdir-{key}: {}\n", value.trim()));
    }
    out
}

/// The first line of a message: its subject.
pub fn subject_of(message: &str) -> String {
    message.lines().next().unwrap_or_default().to_string()
}

/// A parsed memdir commit, for `log`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    pub commit: ObjectId,
    pub subject: String,
    pub body: String,
    /// `Memdir-*` trailers, e.g. `("Op", "save")`.
    pub trailers: Vec<(String, String)>,
    /// Seconds since the epoch and the committer's UTC offset in seconds.
    pub time: (i64, i32),
    /// In the commit's order; empty for a root commit.
    pub parents: Vec<ObjectId>,
    /// `Name <email>`, as git shows an author.
    pub author: String,
}

impl HistoryEntry {
    /// The subject as memdir writes it, `op(type): name`, split; `None` for any other subject.
    pub fn op_type_name(&self) -> Option<(&str, &str, &str)> {
        let (head, name) = self.subject.split_once("): ")?;
        let (op, kind) = head.split_once('(')?;
        Some((op, kind, name))
    }

    /// The subject split as [`HistoryEntry::op_type_name`] does, when it is about a memory:
    /// not the index, a commit, an operation, a session, or a team or personal sync (the other
    /// kinds memdir writes in place of a type).
    pub fn memory_subject(&self) -> Option<(&str, &str, &str)> {
        self.op_type_name().filter(|(_, kind, _)| {
            !matches!(
                *kind,
                "index" | "commit" | "op" | "session" | "team" | "personal"
            )
        })
    }

    /// The memories the subject names: one, or several (`delete(mixed): a, b`, what `rm a b`
    /// writes); none when it is not about a memory.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.memory_subject()
            .map(|(_, _, names)| names)
            .into_iter()
            .flat_map(|names| names.split(", "))
    }

    /// A `Memdir-*` trailer's value, e.g. `trailer("Op")`.
    pub fn trailer(&self, key: &str) -> Option<&str> {
        self.trailers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of a trailer that may repeat, e.g. `trailers_of("Undo")`.
    pub fn trailers_of<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.trailers
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// An author's name, without the address: `Ada` of `Ada <ada@example.com>`.
pub fn author_name(author: &str) -> &str {
    author.split_once(" <").map_or(author, |(name, _)| name)
}

/// Split a commit message into subject, body and the trailing `Memdir-*` trailers.
pub(crate) fn parse_message(commit: ObjectId, message: &str, time: (i64, i32)) -> HistoryEntry {
    let message = message.trim_end();
    let (subject, rest) = message.split_once('\n').unwrap_or((message, ""));
    let mut paragraphs: Vec<&str> = rest.trim().split("\n\n").collect();
    let mut trailers = Vec::new();
    if let Some(last) = paragraphs.last()
        && last
            .lines()
            .all(|l| l.starts_with("Memdir-") && l.contains(": "))
        && !last.is_empty()
    {
        trailers = last
            .lines()
            .filter_map(|l| l.strip_prefix("Memdir-")?.split_once(": "))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        paragraphs.pop();
    }
    HistoryEntry {
        commit,
        subject: subject.to_string(),
        body: paragraphs.join("\n\n"),
        trailers,
        time,
        parents: Vec::new(),
        author: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_follow_design() {
        assert_eq!(
            commit_message(Op::Save, "feedback", "lint", "Run lint", Some("s1")),
            "save(feedback): lint\n\nRun lint\n\nMemdir-Op: save\nMemdir-Session: s1\n"
        );
        assert_eq!(
            commit_message(Op::Adopt, "index", "MEMORY.md", "", None),
            "adopt(index): MEMORY.md\n\nMemdir-Op: adopt\n"
        );
    }

    #[test]
    fn trailers_join_the_trailer_paragraph_one_line_each() {
        let message = commit_message(Op::Save, "user", "a", "A", None);
        assert_eq!(
            with_trailers(
                &message,
                &[(OPERATION, "extract: run\nof s1"), (SESSION, "s1")]
            ),
            "save(user): a\n\nA\n\nMemdir-Op: save\nMemdir-Operation: extract: run of s1\nMemdir-Session: s1\n"
        );
        assert_eq!(
            with_trailers("by hand\n", &[(UNDOES, "abc")]),
            "by hand\n\nMemdir-Undo: abc\n"
        );
        let e = parse_message(
            ObjectId::null(gix::hash::Kind::Sha1),
            &with_trailers(&message, &[(UNDOES, "x"), (UNDOES, "y")]),
            (0, 0),
        );
        assert_eq!(e.trailers_of(UNDOES).collect::<Vec<_>>(), ["x", "y"]);
    }

    #[test]
    fn message_trailers() {
        let e = parse_message(
            ObjectId::null(gix::hash::Kind::Sha1),
            "save(feedback): lint\n\nRun lint first\n\nMemdir-Op: save\nMemdir-Session: abc\n",
            (0, 0),
        );
        assert_eq!(e.subject, "save(feedback): lint");
        assert_eq!(e.body, "Run lint first");
        assert_eq!(
            e.trailers,
            vec![
                ("Op".into(), "save".into()),
                ("Session".into(), "abc".into())
            ]
        );
    }
}
