//! Time-bound memories whose date has passed (DESIGN §7): "Merge freeze until 2026-01-15",
//! "PCI evidence due 13 Mar 2026", "9月11日 offsite，当天不发布". A date counts when the memory
//! is bound by it (until, by, due, deadline, before, a freeze, a slot, an event on that day;
//! 之前, 为止, 截止, 当天) and passed before today; a date that is history ("migrated on",
//! "since", "joined on", 起) never does, and a memory that still names a day to come is kept.

use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;

use crate::memory::calendar::{DateMention, absolute_dates};

/// Words before a date that bind a memory to it.
static BOUND_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:until|till|untill|up to|by|due(?: on| by)?|deadline(?: is)?|before|no later than|ends?(?: on)?|expires?(?: on)?|lock(?:ed)?(?: is| on)?|freeze|frozen|slot|window|cut-?off|cut|target(?:ed)?(?: for)?|scheduled(?: for)?|planned(?: for)?|closed|offsite|maintenance|demo|talk|booth|presenting|session|meeting|workshop|visit|trip|event|review|audit|go(?:es)? live|launch(?:es)?|held|happens?)\b|到|截止|截至|在",
    )
    .unwrap_or_else(|e| panic!("expiry pattern: {e}"))
});

/// Words after a date that bind a memory to it.
static BOUND_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\W{0,3}(?:and no later|at the latest|or earlier|deadline)|之前|以前|前(?:完成|交|提交|不|别)|为止|截止|到期|当天|那天|届时|before then|until then")
        .unwrap_or_else(|e| panic!("expiry pattern: {e}"))
});

/// Words near a date that make it history, or the start of something still true.
static HISTORY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:since|as of|starting|effective|from|joined|join|hired|migrated|moved|switched|upgraded|happened|occurred|incident|outage|post-?mortem|broke|fixed|was|were|did|had|went|took place|introduced|started|began|founded|released|shipped|launched|rotated|renamed|created|born|ago|last)\b|起|以来|开始|自从|事故|加入|迁移了|上线了|发生",
    )
    .unwrap_or_else(|e| panic!("expiry pattern: {e}"))
});

/// How far from a date its binding words may stand, in characters.
const BEFORE_CHARS: usize = 48;
const AFTER_CHARS: usize = 24;

/// Why a memory is no longer true: the day after which it stopped mattering, and the words
/// that say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expiry {
    pub date: NaiveDate,
    /// The date as written, with the word that binds the memory to it.
    pub evidence: String,
}

/// Where the clause holding `at` starts and ends (sentences and clauses end at `.;!?。；！？`
/// and line ends; a comma is not an end: "until the migration finishes, on March 3").
fn clause(text: &str, start: usize, end: usize) -> (usize, usize) {
    let is_end = |c: char| matches!(c, ';' | '!' | '?' | '\n' | '。' | '；' | '！' | '？');
    let from = text[..start]
        .char_indices()
        .rev()
        .find(|(i, c)| is_end(*c) || *c == '.' && text[i + 1..].starts_with(char::is_whitespace))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let to = text[end..]
        .char_indices()
        .find(|(i, c)| {
            is_end(*c)
                || *c == '.' && text[end + i + 1..].starts_with(char::is_whitespace)
                || *c == '.' && end + i + 1 == text.len()
        })
        .map_or(text.len(), |(i, _)| end + i);
    (from, to)
}

/// The last `n` characters of `s`.
fn tail(s: &str, n: usize) -> &str {
    let skip = s.chars().count().saturating_sub(n);
    s.char_indices().nth(skip).map_or(s, |(i, _)| &s[i..])
}

/// The first `n` characters of `s`.
fn head(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

/// Whether `mention` binds the memory (`Some(evidence)`), judged by the words around it.
fn binding(text: &str, mention: &DateMention) -> Option<String> {
    let (from, to) = clause(text, mention.start, mention.end);
    let before = tail(&text[from..mention.start], BEFORE_CHARS);
    let after = head(&text[mention.end..to], AFTER_CHARS);
    if HISTORY.is_match(before) || HISTORY.is_match(after) {
        return None;
    }
    let written = &text[mention.start..mention.end];
    if let Some(word) = BOUND_BEFORE.find_iter(before).last() {
        return Some(
            format!("{}{written}", &before[word.start()..])
                .trim()
                .to_string(),
        );
    }
    BOUND_AFTER.find(after).map(|word| {
        format!("{written}{}", &after[..word.end()])
            .trim()
            .to_string()
    })
}

/// Whether a memory (its description and body, written on `written`) is time-bound and its
/// date passed before `today`.
pub fn expired(text: &str, written: NaiveDate, today: NaiveDate) -> Option<Expiry> {
    let mentions = absolute_dates(text, written);
    // A day still to come keeps the memory: "from Dec 18 until January", a date that moved.
    if mentions.is_empty() || mentions.iter().any(|m| m.date >= today) {
        return None;
    }
    mentions
        .iter()
        .filter_map(|m| Some((m.date, binding(text, m)?)))
        .max_by_key(|(date, _)| *date)
        .map(|(date, evidence)| Expiry { date, evidence })
}

#[cfg(test)]
mod tests {
    use super::*;
    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    fn check(text: &str, written: &str) -> Option<String> {
        expired(text, day(written), day("2026-12-04")).map(|e| format!("{} {}", e.date, e.evidence))
    }

    #[test]
    fn a_passed_date_the_memory_is_bound_by_expires_it() {
        assert_eq!(
            check(
                "Merge freeze until 2026-01-15; hotfixes only.",
                "2025-12-20"
            )
            .as_deref(),
            Some("2026-01-15 until 2026-01-15")
        );
        assert_eq!(
            check("PCI DSS audit evidence is due 13 Mar 2026.", "2026-02-20").as_deref(),
            Some("2026-03-13 due 13 Mar 2026")
        );
        assert_eq!(
            check(
                "Don't touch recon-worker until the refactor lands, targeted for Apr 10.",
                "2026-03-16"
            )
            .as_deref(),
            Some("2026-04-10 targeted for Apr 10")
        );
        assert_eq!(
            check("fx-rates-svc 在2026年7月31日之前保持双写", "2026-06-15").as_deref(),
            Some("2026-07-31 在2026年7月31日")
        );
        assert_eq!(
            check(
                "9月11日全公司 offsite，当天不要排任何生产发布",
                "2026-08-20"
            )
            .as_deref(),
            Some("2026-09-11 9月11日全公司 offsite，当天")
        );
    }

    proptest::proptest! {
        /// Any text is judged without a panic.
        #[test]
        fn any_text_is_judged(text in "\\PC{0,160}") {
            let _ = expired(&text, day("2026-01-01"), day("2026-12-04"));
        }
    }

    #[test]
    fn history_a_start_and_a_day_to_come_do_not() {
        for (text, written) in [
            (
                "Ledger was migrated from MySQL to Postgres on 2025-03-02.",
                "2025-11-13",
            ),
            (
                "Since the incident on 2026-02-11, dedup on event_id.",
                "2026-02-13",
            ),
            (
                "从2026年4月1日起，所有新建的表都必须带 created_at",
                "2026-04-01",
            ),
            ("Tomasz joined the team on 2026-09-07.", "2026-09-09"),
            (
                "No deploys from Dec 18, 2026 until the first working day of January.",
                "2026-11-20",
            ),
            ("GA moved to 2027-03-03.", "2026-10-07"),
            ("The cert expires 2027-02-09.", "2026-10-19"),
            ("Standup is at 10:00 SGT daily.", "2026-01-01"),
        ] {
            assert_eq!(check(text, written), None, "{text}");
        }
    }
}
