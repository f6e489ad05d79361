//! The commit-message format of DESIGN §4, written and parsed here only: `<op>(<type>): <name>`,
//! a blank line, the description, then `Memdir-Op:`, `Memdir-Session:` and other `Memdir-*`
//! trailers, which `log --json` reads back.

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
}

impl Op {
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
}

impl HistoryEntry {
    /// The subject as memdir writes it, `op(type): name`, split; `None` for any other subject.
    pub fn op_type_name(&self) -> Option<(&str, &str, &str)> {
        let (head, name) = self.subject.split_once("): ")?;
        let (op, kind) = head.split_once('(')?;
        Some((op, kind, name))
    }

    /// A `Memdir-*` trailer's value, e.g. `trailer("Op")`.
    pub fn trailer(&self, key: &str) -> Option<&str> {
        self.trailers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
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
