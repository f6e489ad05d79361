//! The `MEMORY.md` index (DESIGN §3): one `- [Title](file.md) — hook` line per memory.
//!
//! Lines memdir does not understand (headings, notes, blank lines) are kept verbatim and in place;
//! an entry is updated where it stands and new entries are appended.

/// Index lines memdir writes stay under this many characters (UTF-16 units, as Claude Code counts).
pub const MAX_LINE_UNITS: usize = 150;

/// One parsed index entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLine {
    pub title: String,
    /// The link target as written, e.g. `pre-commit-lint.md`.
    pub file: String,
    pub hook: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexLineError {
    #[error("the title {0:?} holds a newline, '[' or ']'")]
    BadTitle(String),
    #[error("the title {0:?} is too long: an index line must stay under 150 characters")]
    TitleTooLong(String),
}

fn units(s: &str) -> usize {
    s.encode_utf16().count()
}

impl IndexLine {
    /// Parse `- [Title](file.md) — hook` (also `--` or `-` as separator, `*` as bullet, no hook).
    pub fn parse(line: &str) -> Option<IndexLine> {
        let rest = line.trim();
        let rest = rest
            .strip_prefix("- ")
            .or_else(|| rest.strip_prefix("* "))?
            .trim_start();
        let rest = rest.strip_prefix('[')?;
        let close = rest.find("](")?;
        let title = &rest[..close];
        let after = &rest[close + 2..];
        let end = after.find(')')?;
        let file = after[..end].trim();
        if file.is_empty() {
            return None;
        }
        let tail = after[end + 1..].trim();
        let hook = ["\u{2014}", "--", "-", ":"]
            .iter()
            .find_map(|sep| tail.strip_prefix(sep))
            .unwrap_or(tail)
            .trim();
        Some(IndexLine {
            title: title.to_string(),
            file: file.to_string(),
            hook: (!hook.is_empty()).then(|| hook.to_string()),
        })
    }

    /// The link target as a file name in the memory dir, if it is one (`./x.md` is `x.md`).
    pub fn file_name(&self) -> &str {
        self.file.strip_prefix("./").unwrap_or(&self.file)
    }

    /// `- [Title](file.md) — hook`.
    pub fn render(&self) -> String {
        match &self.hook {
            Some(hook) => format!("- [{}]({}) \u{2014} {hook}", self.title, self.file),
            None => format!("- [{}]({})", self.title, self.file),
        }
    }

    /// A line for a memory, its hook shortened with `…` so that the line stays under
    /// [`MAX_LINE_UNITS`]. The second value tells whether the hook was shortened.
    pub fn for_memory(
        title: &str,
        file: &str,
        hook: &str,
    ) -> Result<(IndexLine, bool), IndexLineError> {
        if title.contains(['\n', '\r', '[', ']']) {
            return Err(IndexLineError::BadTitle(title.to_string()));
        }
        let hook = hook.trim();
        let mut line = IndexLine {
            title: title.to_string(),
            file: file.to_string(),
            hook: (!hook.is_empty()).then(|| hook.to_string()),
        };
        let full = units(&line.render());
        if full < MAX_LINE_UNITS {
            return Ok((line, false));
        }
        // Room for the hook: the line without it, the separator, and one unit for "…".
        let fixed = units(&line.render()) - units(hook);
        let room = (MAX_LINE_UNITS - 1)
            .checked_sub(fixed + 1)
            .filter(|&r| r >= 1)
            .ok_or_else(|| IndexLineError::TitleTooLong(title.to_string()))?;
        line.hook = Some(format!("{}\u{2026}", shorten_at_word(hook, room)));
        Ok((line, true))
    }
}

/// At most `max` UTF-16 units of `s`, cut at the last space when that keeps over half of it.
fn shorten_at_word(s: &str, max: usize) -> &str {
    let mut end = 0;
    let mut used = 0;
    for (i, c) in s.char_indices() {
        if used + c.len_utf16() > max {
            break;
        }
        used += c.len_utf16();
        end = i + c.len_utf8();
    }
    let head = &s[..end];
    match head.rfind(char::is_whitespace) {
        Some(space) if units(&head[..space]) > max / 2 => head[..space].trim_end(),
        _ => head.trim_end(),
    }
}

/// The whole index as lines, entries and everything else alike.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Index {
    lines: Vec<String>,
}

impl Index {
    pub fn parse(text: &str) -> Index {
        Index {
            lines: text.lines().map(str::to_string).collect(),
        }
    }

    /// The entries in order, with their line numbers (0-based).
    pub fn entries(&self) -> impl Iterator<Item = (usize, IndexLine)> + '_ {
        self.lines
            .iter()
            .enumerate()
            .filter_map(|(n, l)| IndexLine::parse(l).map(|e| (n, e)))
    }

    /// The first entry for each file the index links to, with its place among the entries.
    pub fn first_entries(&self) -> std::collections::HashMap<String, (usize, IndexLine)> {
        let mut first = std::collections::HashMap::new();
        for (n, (_, line)) in self.entries().enumerate() {
            first
                .entry(line.file_name().to_string())
                .or_insert((n, line));
        }
        first
    }

    /// The first entry that links to `file`.
    pub fn entry_for(&self, file: &str) -> Option<IndexLine> {
        self.entries()
            .find(|(_, e)| e.file_name() == file)
            .map(|(_, e)| e)
    }

    /// Put `line` where the first entry for its file stands (dropping any other entry for that
    /// file, so a name is never listed twice), or append it.
    pub fn upsert(&mut self, line: &IndexLine) {
        let file = line.file_name().to_string();
        let mut placed = false;
        let mut out = Vec::with_capacity(self.lines.len() + 1);
        for l in self.lines.drain(..) {
            match IndexLine::parse(&l) {
                Some(e) if e.file_name() == file => {
                    if !placed {
                        out.push(line.render());
                        placed = true;
                    }
                }
                _ => out.push(l),
            }
        }
        self.lines = out;
        if !placed {
            self.append([line]);
        }
    }

    /// Add `lines` at the end, after the last entry (trailing blank lines dropped first, so
    /// entries stay together). Each must link to a file the index does not list yet.
    pub fn append<'a>(&mut self, lines: impl IntoIterator<Item = &'a IndexLine>) {
        while self.lines.last().is_some_and(|l| l.trim().is_empty()) {
            self.lines.pop();
        }
        self.lines.extend(lines.into_iter().map(IndexLine::render));
    }

    /// Put `line` where the entry for its file stands, or, when there is none, where it stood in
    /// `old` (an earlier version of this index): after the nearest entry before it there that is
    /// here too, else before the nearest after it, else at the end.
    pub fn place(&mut self, line: &IndexLine, old: &Index) {
        let file = line.file_name();
        if self.entry_for(file).is_some() {
            return self.upsert(line);
        }
        let here: std::collections::HashMap<String, usize> = self
            .entries()
            .map(|(n, e)| (e.file_name().to_string(), n))
            .collect();
        let old_files: Vec<String> = old
            .entries()
            .map(|(_, e)| e.file_name().to_string())
            .collect();
        let Some(at) = old_files.iter().position(|f| f == file) else {
            return self.upsert(line);
        };
        let before = old_files[..at].iter().rev().find_map(|f| here.get(f));
        let after = old_files[at + 1..].iter().find_map(|f| here.get(f));
        match (before, after) {
            (Some(&n), _) => self.lines.insert(n + 1, line.render()),
            (None, Some(&n)) => self.lines.insert(n, line.render()),
            (None, None) => self.upsert(line),
        }
    }

    /// Remove every entry that links to `file`; tells whether there was one.
    pub fn remove(&mut self, file: &str) -> bool {
        let before = self.lines.len();
        self.lines
            .retain(|l| IndexLine::parse(l).is_none_or(|e| e.file_name() != file));
        self.lines.len() != before
    }

    pub fn render(&self) -> String {
        let mut out = self.lines.join("\n");
        if !out.is_empty() {
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_every_separator() {
        for (line, hook) in [
            ("- [Lint](lint.md) — run lint first", Some("run lint first")),
            (
                "- [Lint](lint.md) -- run lint first",
                Some("run lint first"),
            ),
            ("- [Lint](lint.md) - run lint first", Some("run lint first")),
            (
                "* [Lint](./lint.md) - run lint first",
                Some("run lint first"),
            ),
            ("- [Lint](lint.md)", None),
        ] {
            let e = IndexLine::parse(line).expect(line);
            assert_eq!(e.title, "Lint");
            assert_eq!(e.file_name(), "lint.md");
            assert_eq!(e.hook.as_deref(), hook, "{line}");
        }
        assert_eq!(IndexLine::parse("# Memory index"), None);
        assert_eq!(IndexLine::parse("- plain bullet"), None);
    }

    #[test]
    fn long_hooks_are_shortened_under_the_cap() {
        let hook = "word ".repeat(60);
        let (line, shortened) = IndexLine::for_memory("Title", "title.md", &hook).expect("fits");
        assert!(shortened);
        let text = line.render();
        assert!(units(&text) < MAX_LINE_UNITS, "{} units", units(&text));
        assert!(units(&text) > 130, "cut too early: {text}");
        assert!(text.ends_with("word\u{2026}"), "{text}");
        let (_, shortened) = IndexLine::for_memory("T", "t.md", "short").expect("fits");
        assert!(!shortened);
        assert!(IndexLine::for_memory(&"T".repeat(150), "t.md", "h").is_err());
        assert!(IndexLine::for_memory("a]b", "t.md", "h").is_err());
    }

    #[test]
    fn upsert_replaces_in_place_and_never_duplicates() {
        let mut index = Index::parse(
            "# Index\n- [A](a.md) — one\n- [B](b.md) — two\n- [A again](a.md) — dup\n",
        );
        let (a, _) = IndexLine::for_memory("A", "a.md", "new hook").expect("fits");
        index.upsert(&a);
        assert_eq!(
            index.render(),
            "# Index\n- [A](a.md) — new hook\n- [B](b.md) — two\n"
        );
        let (c, _) = IndexLine::for_memory("C", "c.md", "three").expect("fits");
        index.upsert(&c);
        assert!(index.render().ends_with("- [C](c.md) — three\n"));
        assert!(index.remove("b.md"));
        assert!(!index.remove("b.md"));
        assert_eq!(index.entries().count(), 2);
    }

    #[test]
    fn a_line_is_placed_back_where_it_stood() {
        let old = Index::parse("# I\n- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n");
        let line = |f: &str| IndexLine::parse(&format!("- [X]({f}) — x")).expect("line");
        let mut index = Index::parse("# I\n- [A](a.md) — a\n- [C](c.md) — c\n- [D](d.md) — d\n");
        index.place(&line("b.md"), &old);
        assert_eq!(
            index.render(),
            "# I\n- [A](a.md) — a\n- [X](b.md) — x\n- [C](c.md) — c\n- [D](d.md) — d\n"
        );
        // Its neighbour before is gone: before the one after it.
        let mut index = Index::parse("# I\n- [C](c.md) — c\n");
        index.place(&line("b.md"), &old);
        assert_eq!(index.render(), "# I\n- [X](b.md) — x\n- [C](c.md) — c\n");
        // Already there: replaced in place; never there: appended.
        index.place(&line("c.md"), &old);
        assert_eq!(index.render(), "# I\n- [X](b.md) — x\n- [X](c.md) — x\n");
        index.place(&line("z.md"), &old);
        assert!(index.render().ends_with("- [X](z.md) — x\n"));
    }

    proptest! {
        #[test]
        fn written_lines_parse_back(
            title in "[^\\[\\]\n\r]{1,40}",
            file in "[a-z0-9][a-z0-9-]{0,30}\\.md",
            hook in "[^\n\r]{0,200}",
        ) {
            prop_assume!(!title.trim().is_empty() && title == title.trim());
            let (line, _) = IndexLine::for_memory(&title, &file, &hook).expect("fits");
            let text = line.render();
            prop_assert!(units(&text) < MAX_LINE_UNITS);
            let back = IndexLine::parse(&text).expect("parses");
            prop_assert_eq!(back.title, title);
            prop_assert_eq!(back.file, file);
        }

        /// Any text a person, an agent or a teammate's merge leaves in MEMORY.md parses and
        /// renders without a panic, and each entry names a file.
        #[test]
        fn any_index_text_parses(text in prop::collection::vec(prop_oneof![
            "\\PC{0,60}",
            "- \\[[^\\]]{0,10}\\]\\([^)]{0,20}\\) ?(—|--|-)? ?[^\\n]{0,20}",
            Just("- [a](b.md) — c".to_string()),
            Just("- [](../x.md)".to_string()),
            Just("- [x]()".to_string()),
        ], 0..20)) {
            let text = text.join("\n");
            let index = Index::parse(&text);
            for (_, entry) in index.entries() {
                let _ = entry.file_name();
                let _ = entry.render();
            }
            let _ = index.render();
        }
    }
}
