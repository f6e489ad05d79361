//! A new memory's name (DESIGN §3: a kebab-case slug) made of the person's own content words,
//! in the order they said them: stop words dropped, a negation kept where they said it
//! ("don't log patient names" → `never-log-patient-names`), never from a URL. Chinese is named
//! in pinyin ("别用 npm，用 pnpm" → `npm-pnpm-bie-yong`, its Latin words first); a statement with
//! no word to name it by is `<type>-note`. Never a hash: a name is what a person reads in the
//! index and types in `memdir show`.

use pinyin::ToPinyin;

use super::cues::URL;
use crate::memory::statement::is_significant;
use crate::memory::taxonomy::{MemoryType, validate_name};

/// The longest name this makes; the index line keeps room for the description.
const MAX_NAME: usize = 32;

/// Chinese characters that carry no content for a name (particles, pronouns, fillers).
const CJK_STOP: &str = "的了在是我你他她它们把给要就都也还这那个一下帮请吧呢啊哦嗯和与及或以后前时候得着过来去上中里对吗么";

/// The name for a statement whose `slot` (a project choice such as `package-manager`) names it
/// when it has one, unless it forbids something ("Never npm in this repo" is
/// `never-npm-repo`: a name keeps the negation).
pub(super) fn name_for(text: &str, slot: Option<&str>, memory_type: MemoryType) -> String {
    if let Some(slot) = slot.filter(|_| !forbids(text)) {
        return slot.to_string();
    }
    let text = URL.replace_all(text, " ");
    let latin = latin_words(&text);
    let mut name = String::new();
    for word in &latin {
        push(&mut name, word);
    }
    // Chinese is named by its own words too, its negation (别, 不要) included.
    let mut previous = String::new();
    for syllable in cjk_syllables(&text) {
        if syllable != previous && !latin.contains(&syllable) {
            push(&mut name, &syllable);
        }
        previous = syllable;
    }
    if name.len() < 3 || validate_name(&name).is_err() {
        return format!("{}-note", memory_type.as_str());
    }
    name
}

/// Whether a statement forbids something: it opens with a negation ("Never npm in this repo",
/// "don't …", "别用 …").
pub(super) fn forbids(text: &str) -> bool {
    latin_words(text).first().is_some_and(|w| is_negation(w))
        || text.trim_start().starts_with(['别', '不', '勿', '禁'])
}

/// Append `word` to a name when it fits.
fn push(name: &mut String, word: &str) {
    if word.is_empty() || name.len() + word.len() + 1 > MAX_NAME {
        return;
    }
    if !name.is_empty() {
        name.push('-');
    }
    name.push_str(word);
}

fn is_negation(word: &str) -> bool {
    matches!(word, "never" | "no" | "not" | "without")
}

/// The significant Latin words in order (at most four besides a negation): "don't", "dont",
/// "do not" and "never" become `never`, "no", "not" and "without" are kept; once each.
fn latin_words(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let tokens: Vec<String> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '\''))
        .map(|t| t.trim_matches(|c| c == '-' || c == '\'').replace('\'', ""))
        .filter(|t| !t.is_empty())
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut negated = false;
    let mut content = 0;
    let mut i = 0;
    while i < tokens.len() && content < 4 {
        let token = tokens[i].as_str();
        let negation = match token {
            "dont" | "never" => Some("never"),
            "do" if tokens.get(i + 1).is_some_and(|t| t == "not") => {
                i += 1;
                Some("never")
            }
            "no" | "not" | "without" => Some(token),
            _ => None,
        };
        match negation {
            // A negation counts only before a word it negates.
            Some(word) if !negated && content < 3 => {
                negated = true;
                out.push(word.to_string());
            }
            Some(_) => {}
            // A long number or a hash (an id, a commit) names nothing a person reads back.
            None if token.len() > 1 && is_significant(token) && !looks_like_an_id(token) => {
                let word: String = token
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                if !word.is_empty() && !out.contains(&word) {
                    out.push(word);
                    content += 1;
                }
            }
            None => {}
        }
        i += 1;
    }
    if out.last().is_some_and(|w| is_negation(w)) {
        out.pop();
    }
    out
}

/// Six or more hex digits holding a digit (`1187654321098765432`, `4e1a9c0`): an id, not a word.
fn looks_like_an_id(token: &str) -> bool {
    token.len() >= 6
        && token.chars().all(|c| c.is_ascii_hexdigit())
        && token.chars().any(|c| c.is_ascii_digit())
}

/// The Chinese characters of `text` in pinyin, content characters only, in ASCII (`ü` is
/// written `v`, as pinyin keyboards do: 绿 → `lv`).
fn cjk_syllables(text: &str) -> Vec<String> {
    text.chars()
        .filter(|c| !CJK_STOP.contains(*c))
        .filter_map(|c| c.to_pinyin())
        .map(|p| p.plain().replace('ü', "v"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_content_words_in_order_with_their_negation() {
        let name = |text: &str| name_for(text, None, MemoryType::Feedback);
        assert_eq!(
            name("Never put an MRN, patient name or DOB in any log line"),
            "never-put-mrn-patient-name"
        );
        assert_eq!(
            name("please don't mock the database in tests"),
            "never-mock-database-tests"
        );
        assert_eq!(name("We do not deploy on Fridays"), "never-deploy-fridays");
        assert_eq!(
            name("no emojis in commit messages"),
            "no-emojis-commit-messages"
        );
        assert_eq!(
            name("The dashboard is https://grafana.example.com/d/abc"),
            "dashboard",
            "a URL names nothing"
        );
        assert_eq!(name("Use pnpm, not npm"), "pnpm-not-npm");
        assert_eq!(
            name("The test server is 1187654321098765432 now"),
            "test-server",
            "an id is no word of a name"
        );
        assert_eq!(name("别用 npm，用 pnpm"), "npm-pnpm-bie-yong");
        assert_eq!(
            name("永远不要在日志里记录病人姓名"),
            "yong-yuan-bu-ri-zhi-ji-lu-bing"
        );
        assert_eq!(name("。。!"), "feedback-note");
        // ü is no letter of a memory name: 绿 is `lv`, and the name is one the store takes.
        let green = name("绿色按钮别改");
        assert_eq!(green, "lv-se-an-niu-bie-gai");
        assert!(validate_name(&green).is_ok());
        assert_eq!(
            name_for("use pnpm", Some("package-manager"), MemoryType::Project),
            "package-manager"
        );
        // A prohibition is named by its words, the negation first, whatever its slot.
        for (text, want) in [
            ("Never npm in this repo", "never-npm-repo"),
            ("don't sudo pip on the pi", "never-sudo-pip-pi"),
            ("别用 npm", "npm-bie-yong"),
        ] {
            assert_eq!(
                name_for(text, Some("package-manager"), MemoryType::Feedback),
                want
            );
        }
    }
}
