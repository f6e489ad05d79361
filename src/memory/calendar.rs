//! Absolute dates as people write them in memories (DESIGN §3, §7), English and Chinese:
//! `2026-01-05`, `2026/01/05`, `January 30, 2026`, `Jan 30`, `13 Mar 2026`, `19 Jun`,
//! `6/18/2026` (month first, unless the first number cannot be a month), `2026年7月31日`,
//! `9月11日`, and months alone (`March 2026`, `2027年3月`, read as the month's last day). A date
//! written without its year is the first such date on or after the day the text was written.
//!
//! Times, versions and fractions are not dates: `10:00`, `5.4.4`, `1/2`, `1:1` are left alone,
//! and so is a month name that is also a word (`may`, `march`) unless it is capitalised.

use std::sync::LazyLock;

use chrono::{Datelike, NaiveDate};
use regex::{Captures, Regex};

/// How precisely a text names its date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    Day,
    /// A month alone; the date is its last day.
    Month,
}

/// One absolute date in a text: where it is (byte offsets) and which day it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateMention {
    pub start: usize,
    pub end: usize,
    pub date: NaiveDate,
    pub precision: Precision,
    /// The year was written (not inferred from when the text was written).
    pub year_given: bool,
}

const MONTHS: &str = "January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec|january|february|april|june|july|august|september|october|november|december";

fn month_number(name: &str) -> Option<u32> {
    let lower = name.to_ascii_lowercase();
    let key = lower.get(..3)?;
    Some(match key {
        "jan" => 1,
        "feb" => 2,
        "mar" => 3,
        "apr" => 4,
        "may" => 5,
        "jun" => 6,
        "jul" => 7,
        "aug" => 8,
        "sep" => 9,
        "oct" => 10,
        "nov" => 11,
        "dec" => 12,
        _ => return None,
    })
}

static DATES: LazyLock<Regex> = LazyLock::new(|| {
    let day = r"(?:0?[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)?";
    let pattern = format!(
        r"(?x)
        (?P<iso>\b(?P<iy>20[0-9]{{2}})[-/](?P<im>0?[1-9]|1[0-2])[-/](?P<id>0?[1-9]|[12][0-9]|3[01])\b)
      | (?P<zh>(?:(?P<zy>20[0-9]{{2}})\s*年\s*)?(?P<zm>1[0-2]|0?[1-9])\s*月(?:\s*(?P<zd>3[01]|[12][0-9]|0?[1-9])\s*[日号])?)
      | (?P<us>\b(?P<um>0?[1-9]|1[0-2])/(?P<ud>0?[1-9]|[12][0-9]|3[01])/(?P<uy>20[0-9]{{2}})\b)
      | (?P<eu>\b(?P<ed>1[3-9]|2[0-9]|3[01])/(?P<em>0?[1-9]|1[0-2])/(?P<ey>20[0-9]{{2}})\b)
      | (?P<mdy>\b(?P<m1>{MONTHS})\.?\s+(?P<d1>{day})\b(?:,?\s+(?P<y1>20[0-9]{{2}})\b)?)
      | (?P<dmy>\b(?P<d2>{day})(?:\s+of)?\s+(?P<m2>{MONTHS})\b\.?(?:,?\s+(?P<y2>20[0-9]{{2}})\b)?)
      | (?P<my>\b(?P<m3>{MONTHS})\.?,?\s+(?P<y3>20[0-9]{{2}})\b)
        "
    );
    Regex::new(&pattern).unwrap_or_else(|e| panic!("calendar pattern: {e}"))
});

fn number(c: &Captures<'_>, name: &str) -> Option<u32> {
    c.name(name)?
        .as_str()
        .trim_end_matches(|ch: char| ch.is_ascii_alphabetic())
        .parse()
        .ok()
}

fn year(c: &Captures<'_>, name: &str) -> Option<i32> {
    c.name(name)?.as_str().parse().ok()
}

/// The first `month`/`day` on or after `written`.
fn on_or_after(written: NaiveDate, month: u32, day: u32) -> Option<NaiveDate> {
    (written.year()..=written.year() + 4)
        .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
        .find(|d| *d >= written)
}

fn last_day_of(year: i32, month: u32) -> Option<NaiveDate> {
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    first.checked_add_months(chrono::Months::new(1))?.pred_opt()
}

/// Which date a match names, how precisely, and whether its year was written.
fn date_of(c: &Captures<'_>, written: NaiveDate) -> Option<(NaiveDate, Precision, bool)> {
    let day_of = |y: Option<i32>, m: u32, d: u32| match y {
        Some(y) => NaiveDate::from_ymd_opt(y, m, d).map(|date| (date, Precision::Day, true)),
        None => on_or_after(written, m, d).map(|date| (date, Precision::Day, false)),
    };
    if c.name("iso").is_some() {
        return day_of(year(c, "iy"), number(c, "im")?, number(c, "id")?);
    }
    if c.name("zh").is_some() {
        let month = number(c, "zm")?;
        return match (number(c, "zd"), year(c, "zy")) {
            (Some(d), y) => day_of(y, month, d),
            (None, Some(y)) => last_day_of(y, month).map(|date| (date, Precision::Month, true)),
            // "3月" alone is as often "in March, every year" as a date.
            (None, None) => None,
        };
    }
    if c.name("us").is_some() {
        return day_of(year(c, "uy"), number(c, "um")?, number(c, "ud")?);
    }
    if c.name("eu").is_some() {
        return day_of(year(c, "ey"), number(c, "em")?, number(c, "ed")?);
    }
    let names = [("mdy", "m1", "d1", "y1"), ("dmy", "m2", "d2", "y2")];
    for (form, m, d, y) in names {
        if c.name(form).is_some() {
            let month = month_number(c.name(m)?.as_str())?;
            return day_of(year(c, y), month, number(c, d)?);
        }
    }
    if c.name("my").is_some() {
        let y = year(c, "y3")?;
        let month = month_number(c.name("m3")?.as_str())?;
        return last_day_of(y, month).map(|date| (date, Precision::Month, true));
    }
    None
}

/// Every absolute date in `text`, in order, a year left out read as the first on or after
/// `written` (the day the text was written).
pub fn absolute_dates(text: &str, written: NaiveDate) -> Vec<DateMention> {
    DATES
        .captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            if is_part_of_a_number(text, whole.start(), whole.end()) {
                return None;
            }
            let (date, precision, year_given) = date_of(&c, written)?;
            Some(DateMention {
                start: whole.start(),
                end: whole.end(),
                date,
                precision,
                year_given,
            })
        })
        .collect()
}

/// Whether a match sits inside a longer number, version or path (`v1.6/18/2026`, `5.13 Mar`,
/// `2026-01-05.3`): then it is not a date.
fn is_part_of_a_number(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let mut after = text[end..].chars();
    let (next, then) = (after.next(), after.next());
    before.is_some_and(|c| c.is_ascii_digit() || matches!(c, '.' | '/' | '-'))
        || next == Some('/')
        || matches!(next, Some('.' | '-')) && then.is_some_and(|c| c.is_ascii_digit())
}

/// `YYYY-MM-DD`, the form memdir writes dates in.
pub fn format_date(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
    }

    fn dates(text: &str, written: &str) -> Vec<String> {
        absolute_dates(text, day(written))
            .iter()
            .map(|m| format!("{}={}", &text[m.start..m.end], format_date(m.date)))
            .collect()
    }

    #[test]
    fn every_form_a_memory_uses() {
        let w = "2026-03-16";
        assert_eq!(
            dates("freeze until 2026-01-05.", w),
            ["2026-01-05=2026-01-05"]
        );
        assert_eq!(dates("due 2026/5/15", w), ["2026/5/15=2026-05-15"]);
        assert_eq!(
            dates("finishes on January 30, 2026 — keep it", w),
            ["January 30, 2026=2026-01-30"]
        );
        assert_eq!(dates("due 13 Mar 2026", w), ["13 Mar 2026=2026-03-13"]);
        assert_eq!(dates("closed 19 Jun 2026.", w), ["19 Jun 2026=2026-06-19"]);
        assert_eq!(dates("slot on 6/18/2026 only", w), ["6/18/2026=2026-06-18"]);
        assert_eq!(dates("on 1/13/2026", w), ["1/13/2026=2026-01-13"]);
        assert_eq!(dates("on 13/1/2026", w), ["13/1/2026=2026-01-13"]);
        assert_eq!(
            dates("在2026年7月31日之前", w),
            ["2026年7月31日=2026-07-31"]
        );
        assert_eq!(dates("Dec 18, 2026 until", w), ["Dec 18, 2026=2026-12-18"]);
        assert_eq!(
            dates("the 20th of January 2027", w),
            ["20th of January 2027=2027-01-20"]
        );
        assert_eq!(
            dates("defense in August 2027", w),
            ["August 2027=2027-08-31"]
        );
        assert_eq!(dates("量产推到2027年5月", w), ["2027年5月=2027-05-31"]);
    }

    #[test]
    fn a_year_left_out_is_the_first_on_or_after_the_writing() {
        assert_eq!(
            dates("targeted for Apr 10", "2026-03-16"),
            ["Apr 10=2026-04-10"]
        );
        assert_eq!(dates("until Jan 5", "2025-12-15"), ["Jan 5=2026-01-05"]);
        assert_eq!(
            dates("9月11日公司 offsite", "2026-08-20"),
            ["9月11日=2026-09-11"]
        );
        assert_eq!(dates("10月9号团建", "2026-09-25"), ["10月9号=2026-10-09"]);
        assert_eq!(dates("on Nov 30", "2026-11-30"), ["Nov 30=2026-11-30"]);
    }

    proptest::proptest! {
        /// Any text is read without a panic, and every date found is where it says.
        #[test]
        fn any_text_is_read(text in "\\PC{0,120}") {
            for m in absolute_dates(&text, day("2026-03-16")) {
                proptest::prop_assert!(text.get(m.start..m.end).is_some());
            }
        }
    }

    #[test]
    fn times_versions_fractions_and_words_are_not_dates() {
        let w = "2026-03-16";
        for text in [
            "standup 10:00 SGT",
            "UE 5.4.4 and Go 1.22",
            "half of it, 1/2",
            "weekly 1:1 with Jay",
            "we may 10 times",
            "a march 3 abreast",
            "3个月后",
            "每月3号",
            "version 2.1.332",
            "port 8081",
        ] {
            assert_eq!(dates(text, w), Vec::<String>::new(), "{text}");
        }
    }
}
