//! The rule a promotion carries (DESIGN §7): a memory's body as it goes into an instruction file
//! (a heading naming the memory, the rule, its reason), and how to find it again in a file, which
//! is how a merged or squashed promotion is recognised.

/// The rule a memory states, as it goes into an instruction file: a heading that says where it
/// came from, the rule, and its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    title: String,
    text: String,
    why: Option<String>,
}

impl Rule {
    /// The rule of a memory's body: everything but its `**Why:**` line, which becomes the
    /// reason; `**How to apply:**`-style labels lose their bold.
    pub fn from_memory(title: &str, body: &str) -> Rule {
        let mut why = None;
        let mut lines: Vec<String> = Vec::new();
        for line in body.lines() {
            if let Some(reason) = strip_label(line.trim(), "why") {
                if why.is_none() && !reason.is_empty() {
                    why = Some(reason.to_string());
                }
                continue;
            }
            let line = unbold_label(line.trim_end());
            // One blank line between paragraphs, none at the ends.
            if line.is_empty() && lines.last().is_none_or(String::is_empty) {
                continue;
            }
            lines.push(line);
        }
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        Rule {
            title: one_line(title),
            text: lines.join("\n"),
            why,
        }
    }

    /// A rule as recorded (its text only), for finding it in a file.
    pub fn from_recorded(text: &str) -> Rule {
        Rule {
            title: String::new(),
            text: text.to_string(),
            why: None,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The heading that marks a promoted rule.
    pub fn heading(&self, name: &str) -> String {
        format!("## {} (from memdir memory {name})", self.title)
    }

    /// The block added to the instruction file, ending in a newline.
    pub fn block(&self, name: &str) -> String {
        let mut block = format!("{}\n\n{}\n", self.heading(name), self.text);
        if let Some(why) = &self.why {
            block.push_str(&format!("\nWhy: {why}\n"));
        }
        block
    }

    /// Whether `text` already holds the rule (whitespace and line breaks aside).
    pub fn is_in(&self, text: &str) -> bool {
        let needle = one_line(&self.text);
        !needle.is_empty() && one_line(text).contains(&needle)
    }
}

/// `line` without a leading `**Label:**` (or `**Label**:`, `Label:`), case-insensitive.
fn strip_label<'a>(line: &'a str, label: &str) -> Option<&'a str> {
    for pattern in [
        format!("**{label}:**"),
        format!("**{label}**:"),
        format!("__{label}:__"),
        format!("{label}:"),
    ] {
        if line
            .get(..pattern.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(&pattern))
        {
            return Some(line[pattern.len()..].trim());
        }
    }
    None
}

/// `**How to apply:** x` → `How to apply: x`; any other line as it is.
fn unbold_label(line: &str) -> String {
    let trimmed = line.trim_start();
    if let Some(rest) = trimmed.strip_prefix("**")
        && let Some(end) = rest.find(":**")
        && end > 0
        && end <= 40
        && !rest[..end].contains('*')
    {
        return format!("{}:{}", &rest[..end], &rest[end + 3..]);
    }
    line.to_string()
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_keep_the_instruction_and_its_reason() {
        let rule = Rule::from_memory(
            "Lint first",
            "Run `npm run lint` before every commit.\n\n**Why:** CI was red for a day.\n**How to apply:** lint changed files.\n",
        );
        assert_eq!(
            rule.block("pre-commit-lint"),
            "## Lint first (from memdir memory pre-commit-lint)\n\nRun `npm run lint` before every commit.\n\nHow to apply: lint changed files.\n\nWhy: CI was red for a day.\n"
        );
        assert!(rule.is_in(
            "x\nRun `npm run lint`\nbefore every commit.\n\nHow to apply:   lint changed files.\n"
        ));
        assert!(!rule.is_in("Run `npm run lint` before every commit."));
        let plain = Rule::from_memory("T", "Use tabs.");
        assert_eq!(
            plain.block("t"),
            "## T (from memdir memory t)\n\nUse tabs.\n"
        );
    }
}
