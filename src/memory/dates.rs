//! Relative dates made absolute (DESIGN §3: dates in bodies are absolute), from the date the
//! person wrote the message. English and Chinese.
//!
//! Conventions: "this Friday" and "by Friday" mean the first Friday after the message's date;
//! "next Friday" means the same unless that Friday is in the message's own week (Monday-based),
//! then the one a week later ("on Fridays" and a bare "周五" are left alone: as often habits as dates); "下周五" means the Friday of the next calendar week (Monday-based), as
//! Chinese reads it; "next week" is "the week of <its Monday>", "last week" the one before;
//! "last/this/next quarter" is `Q4 2025` (上个季度: `2025年Q4`), "last month" `2026-02`, "end of
//! (next) month / quarter" (下个月底) its last day; "last Friday" is the latest Friday before the
//! message's date. The phrase is replaced by the date.

use std::sync::LazyLock;

use chrono::{Datelike, Days, Duration, Months, NaiveDate, Weekday};
use regex::{Captures, Regex};

const WEEKDAYS_EN: &str = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|weds|wed|thurs|thur|thu|fri|sat|sun";

fn weekday_en(name: &str) -> Option<Weekday> {
    let name = name.to_ascii_lowercase();
    let name = match name.as_str() {
        "tues" => "tue",
        "weds" => "wed",
        "thur" | "thurs" => "thu",
        other => other,
    };
    name.parse().ok()
}

fn weekday_zh(c: &str) -> Option<Weekday> {
    Some(match c {
        "一" => Weekday::Mon,
        "二" => Weekday::Tue,
        "三" => Weekday::Wed,
        "四" => Weekday::Thu,
        "五" => Weekday::Fri,
        "六" => Weekday::Sat,
        "日" | "天" => Weekday::Sun,
        _ => return None,
    })
}

/// The first `day` strictly after `from`.
fn next_weekday(from: NaiveDate, day: Weekday) -> NaiveDate {
    let ahead = match day.days_since(from.weekday()) {
        0 => 7,
        ahead => ahead,
    };
    from + Days::new(u64::from(ahead))
}

/// The Monday of the week `date` is in (weeks start on Monday, as ISO 8601 has them).
fn monday_of(date: NaiveDate) -> NaiveDate {
    // `None` only at chrono's first representable week, far from any message's date.
    date.week(Weekday::Mon).checked_first_day().unwrap_or(date)
}

fn last_of_month(date: NaiveDate) -> NaiveDate {
    date.with_day(u32::from(date.num_days_in_month()))
        .unwrap_or(date)
}

/// The month after `date`'s, as `2026-04` (`None` past chrono's last representable month).
fn next_month(date: NaiveDate) -> Option<String> {
    let next = date.checked_add_months(Months::new(1))?;
    Some(format!("{:04}-{:02}", next.year(), next.month()))
}

/// The month before `date`'s, as `2026-02`.
fn last_month(date: NaiveDate) -> Option<String> {
    let last = date.checked_sub_months(Months::new(1))?;
    Some(format!("{:04}-{:02}", last.year(), last.month()))
}

/// The quarter `delta` quarters from `date`'s: its year and number (1 to 4).
fn quarter(date: NaiveDate, delta: i32) -> (i32, u32) {
    let index = date.year() * 4 + (date.month0() / 3) as i32 + delta;
    (index.div_euclid(4), index.rem_euclid(4) as u32 + 1)
}

/// The last day of a quarter.
fn quarter_end((year, q): (i32, u32)) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(year, q * 3, 1).map(last_of_month)
}

fn ymd(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

static ENGLISH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:(?P<dayafter>the day after tomorrow)|(?P<today>today|tonight|this evening|this morning|end of (?:the )?day|eod)|(?P<tomorrow>(?:tomorrow|tmrw|tomorow|tommorow|tommorrow)(?:\s+(?:eod|end of (?:the )?day|morning|evening|night))?)|(?P<yesterday>yesterday)|(?P<rel>next|this|coming|on|by|until|till|before)\s+(?P<wd>{WEEKDAYS_EN})\b(?P<plural>s)?|(?P<last>last|previous)\s+(?P<lwd>{WEEKDAYS_EN})\b|(?P<quarter>(?P<qrel>last|previous|this|next|coming) quarter)|(?P<eoq>(?:the )?end of (?:the |this )?quarter|eoq)|(?P<eonm>(?:the )?end of next month)|(?P<lastmonth>last month)|(?P<lastweek>last week)|(?P<nextweek>next week)|(?P<thisweek>this week)|(?P<eow>(?:the )?end of (?:the |this )?week|eow)|(?P<nextmonth>next month)|(?P<eom>(?:the )?end of (?:the |this )?month|eom)|in (?P<n>\d{{1,3}}|one|two|three|four|five|six|seven|ten) (?P<unit>days?|weeks?))\b"
    ))
    .unwrap_or_else(|e| panic!("date pattern: {e}"))
});

static CHINESE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?P<dayafter>后天)|(?P<today>今天|今晚|今日)|(?P<tomorrow>明天|明日)|(?P<yesterday>昨天)|(?P<next>下个?(?:周|星期|礼拜))(?P<nwd>[一二三四五六日天])|(?P<this>(?:这|本)(?:个)?(?:周|星期|礼拜))(?P<twd>[一二三四五六日天])|(?P<prev>上个?(?:周|星期|礼拜))(?P<pwd>[一二三四五六日天])|(?P<lastweek>上(?:个)?(?:周|星期|礼拜))(?P<weekend>末)?|(?P<lastq>上(?:个)?季度)|(?P<thisq>(?:本|这个?)季度)|(?P<nextq>下(?:个)?季度)|(?P<eoq>季度末|季末)|(?P<lastmonth>上个月)|(?P<nextweek>下(?:个)?(?:周|星期|礼拜))|(?P<eonm>下(?:个)?月底)|(?P<nextmonth>下(?:个)?月)|(?P<eom>(?:本|这个?)?月底)|(?P<n>\d{1,3})\s*(?P<unit>天|周)(?:后|之后|以后)",
    )
    .unwrap_or_else(|e| panic!("date pattern: {e}"))
});

fn small_number(word: &str) -> Option<i64> {
    Some(match word.to_ascii_lowercase().as_str() {
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "ten" => 10,
        other => other.parse().ok()?,
    })
}

/// The first relative date in `text` ("tomorrow", "next Friday", "下周五"), if any: a memory
/// or a rule holding one reads wrong later. "On Friday" is not one here: in a rule it is as
/// often a habit ("never deploy on Friday") as a date.
pub fn relative_phrase(text: &str) -> Option<String> {
    // Any date will do: only whether the phrase would be replaced matters.
    let date = NaiveDate::from_ymd_opt(2026, 1, 1)?;
    ENGLISH
        .captures_iter(text)
        .filter(|c| {
            c.name("rel")
                .is_none_or(|rel| !rel.as_str().eq_ignore_ascii_case("on"))
        })
        .find(|c| english_date(c, date) != c[0] && !in_a_habit(text, c))
        .or_else(|| {
            CHINESE
                .captures_iter(text)
                .find(|c| chinese_date(c, date) != c[0] && !in_a_habit(text, c))
        })
        .map(|c| c[0].to_string())
}

/// A sentence that says what happens every time ("每周五发周报：本周完成、下周计划", "Who's
/// on call this week: check PagerDuty") names a week or a day of any week, not one date.
/// "Every" counts before a span of time or a day ("every Sunday", "each sprint"), not before
/// anything ("every training job").
static HABIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:every|each)\s+(?:other\s+|single\s+)?(?:day|morning|afternoon|evening|night|week(?:day|end)?|month|quarter|sprint|release|standup|time|(?:{WEEKDAYS_EN})s?)\b|\b(?:weekly|daily|nightly|monthly|who(?:'s| is)|whoever)\b|每周|每天|每日|每月|每次|周报|日报|月报"
    ))
    .unwrap_or_else(|e| panic!("date pattern: {e}"))
});

/// A text that names a day of every week ("refreshed every Sunday", "weekly"): a bare day of
/// the week anywhere in it ("gone by Monday") is that week's, whichever week it is.
static WEEKLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:every|each)\s+(?:other\s+)?(?:{WEEKDAYS_EN})s?\b|\bweekly\b|\bon (?:{WEEKDAYS_EN})s\b|每周"
    ))
    .unwrap_or_else(|e| panic!("date pattern: {e}"))
});

/// Whether the sentence a phrase stands in says what happens every time, or the phrase is a
/// bare day of the week ("by Monday") in a text about something every week.
fn in_a_habit(text: &str, c: &Captures<'_>) -> bool {
    let Some(whole) = c.get(0) else {
        return false;
    };
    if c.name("wd").is_some() && WEEKLY.is_match(text) {
        return true;
    }
    let ends = |ch: char| matches!(ch, '.' | '!' | '?' | '\n' | '。' | '！' | '？');
    let start = text[..whole.start()].rfind(ends).map_or(0, |i| i + 1);
    let end = text[whole.end()..]
        .find(ends)
        .map_or(text.len(), |i| whole.end() + i);
    HABIT.is_match(&text[start..end])
}

/// `text` with its relative dates replaced by absolute ones, as of `date`.
pub fn absolutize(text: &str, date: NaiveDate) -> String {
    let english = ENGLISH.replace_all(text, |c: &Captures<'_>| {
        if in_a_habit(text, c) {
            c[0].to_string()
        } else {
            english_date(c, date)
        }
    });
    CHINESE
        .replace_all(&english, |c: &Captures<'_>| {
            if in_a_habit(&english, c) {
                c[0].to_string()
            } else {
                chinese_date(c, date)
            }
        })
        .into_owned()
}

fn english_date(c: &Captures<'_>, date: NaiveDate) -> String {
    let whole = &c[0];
    if c.name("dayafter").is_some() {
        return ymd(date + Duration::days(2));
    }
    if c.name("today").is_some() {
        return ymd(date);
    }
    if c.name("tomorrow").is_some() {
        return ymd(date + Duration::days(1));
    }
    if c.name("yesterday").is_some() {
        return ymd(date - Duration::days(1));
    }
    if let (Some(rel), Some(wd)) = (c.name("rel"), c.name("wd")) {
        // "on Mondays" is a habit, not a date.
        if c.name("plural").is_some() {
            return whole.to_string();
        }
        let Some(day) = weekday_en(wd.as_str()) else {
            return whole.to_string();
        };
        let mut target = next_weekday(date, day);
        let rel = rel.as_str().to_ascii_lowercase();
        // "Next Thursday" said on a Tuesday is the Thursday of next week, not in two days.
        if rel == "next" && monday_of(target) == monday_of(date) {
            target += Duration::days(7);
        }
        return match rel.as_str() {
            "next" | "this" | "coming" => ymd(target),
            _ => format!("{} {}", rel, ymd(target)),
        };
    }
    if let Some(day) = c.name("lwd").and_then(|wd| weekday_en(wd.as_str())) {
        // "Last Tuesday" is the latest Tuesday before the day it was said.
        let back = match date.weekday().days_since(day) {
            0 => 7,
            back => back,
        };
        return ymd(date - Days::new(u64::from(back)));
    }
    if let Some(rel) = c.name("qrel") {
        let delta = match rel.as_str().to_ascii_lowercase().as_str() {
            "last" | "previous" => -1,
            "this" => 0,
            _ => 1,
        };
        let (year, q) = quarter(date, delta);
        return format!("Q{q} {year}");
    }
    if c.name("eoq").is_some() {
        return quarter_end(quarter(date, 0)).map_or_else(|| whole.to_string(), ymd);
    }
    if c.name("eonm").is_some() {
        return date
            .checked_add_months(Months::new(1))
            .map_or_else(|| whole.to_string(), |d| ymd(last_of_month(d)));
    }
    if c.name("lastmonth").is_some() {
        return last_month(date).unwrap_or_else(|| whole.to_string());
    }
    if c.name("lastweek").is_some() {
        return format!("the week of {}", ymd(monday_of(date) - Duration::days(7)));
    }
    if c.name("nextweek").is_some() {
        return format!("the week of {}", ymd(monday_of(date) + Duration::days(7)));
    }
    if c.name("thisweek").is_some() {
        return format!("the week of {}", ymd(monday_of(date)));
    }
    if c.name("eow").is_some() {
        return ymd(monday_of(date) + Duration::days(4));
    }
    if c.name("nextmonth").is_some() {
        return next_month(date).unwrap_or_else(|| whole.to_string());
    }
    if c.name("eom").is_some() {
        return ymd(last_of_month(date));
    }
    if let (Some(n), Some(unit)) = (c.name("n"), c.name("unit"))
        && let Some(n) = small_number(n.as_str())
    {
        let days = if unit.as_str().starts_with("week") {
            n * 7
        } else {
            n
        };
        return format!("by {}", ymd(date + Duration::days(days)));
    }
    whole.to_string()
}

fn chinese_date(c: &Captures<'_>, date: NaiveDate) -> String {
    let whole = &c[0];
    let found = if c.name("dayafter").is_some() {
        date + Duration::days(2)
    } else if c.name("today").is_some() {
        date
    } else if c.name("tomorrow").is_some() {
        date + Duration::days(1)
    } else if c.name("yesterday").is_some() {
        date - Duration::days(1)
    } else if let Some(wd) = c.name("nwd").and_then(|m| weekday_zh(m.as_str())) {
        monday_of(date) + Duration::days(7 + wd.num_days_from_monday() as i64)
    } else if let Some(wd) = c.name("twd").and_then(|m| weekday_zh(m.as_str())) {
        monday_of(date) + Duration::days(wd.num_days_from_monday() as i64)
    } else if let Some(wd) = c.name("pwd").and_then(|m| weekday_zh(m.as_str())) {
        monday_of(date) - Duration::days(7) + Duration::days(wd.num_days_from_monday() as i64)
    } else if c.name("weekend").is_some() {
        // "上周末" is last weekend; "马上周末" is "right away, this weekend": left alone.
        return whole.to_string();
    } else if c.name("lastweek").is_some() {
        return format!("{}当周", ymd(monday_of(date) - Duration::days(7)));
    } else if let Some(delta) = [("lastq", -1), ("thisq", 0), ("nextq", 1)]
        .iter()
        .find_map(|(name, delta)| c.name(name).map(|_| *delta))
    {
        let (year, q) = quarter(date, delta);
        return format!("{year}年Q{q}");
    } else if c.name("eoq").is_some() {
        match quarter_end(quarter(date, 0)) {
            Some(end) => end,
            None => return whole.to_string(),
        }
    } else if c.name("lastmonth").is_some() {
        return last_month(date).unwrap_or_else(|| whole.to_string());
    } else if c.name("eonm").is_some() {
        match date.checked_add_months(Months::new(1)) {
            Some(next) => last_of_month(next),
            None => return whole.to_string(),
        }
    } else if c.name("nextweek").is_some() {
        return format!("{}当周", ymd(monday_of(date) + Duration::days(7)));
    } else if c.name("nextmonth").is_some() {
        return next_month(date).unwrap_or_else(|| whole.to_string());
    } else if c.name("eom").is_some() {
        last_of_month(date)
    } else if let (Some(n), Some(unit)) = (c.name("n"), c.name("unit")) {
        let Ok(n) = n.as_str().parse::<i64>() else {
            return whole.to_string();
        };
        date + Duration::days(if unit.as_str() == "周" { n * 7 } else { n })
    } else {
        return whole.to_string();
    };
    ymd(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
    }

    #[test]
    fn english_relative_dates() {
        // 2026-03-05 is a Thursday.
        let d = day("2026-03-05");
        assert_eq!(
            absolutize("merge freeze next Friday", d),
            "merge freeze 2026-03-13"
        );
        assert_eq!(
            absolutize("merge freeze this Friday", d),
            "merge freeze 2026-03-06"
        );
        // Said on a Sunday: the coming Friday is already next week.
        assert_eq!(absolutize("next Friday", day("2026-03-08")), "2026-03-13");
        assert_eq!(
            absolutize("the demo is next Thursday", d),
            "the demo is 2026-03-12"
        );
        assert_eq!(absolutize("ship it by Monday", d), "ship it by 2026-03-09");
        assert_eq!(absolutize("Tomorrow we cut", d), "2026-03-06 we cut");
        assert_eq!(
            absolutize("we deploy on Mondays", d),
            "we deploy on Mondays"
        );
        assert_eq!(
            absolutize("launch next week", d),
            "launch the week of 2026-03-09"
        );
        assert_eq!(absolutize("due end of month", d), "due 2026-03-31");
        assert_eq!(absolutize("in 3 days", d), "by 2026-03-08");
        // Month and week arithmetic across a year's end and a leap day.
        let december = day("2026-12-31");
        assert_eq!(absolutize("ship next month", december), "ship 2027-01");
        assert_eq!(
            absolutize("launch next week", december),
            "launch the week of 2027-01-04"
        );
        assert_eq!(absolutize("next Monday", december), "2027-01-04");
        assert_eq!(
            absolutize("due end of month", day("2028-02-10")),
            "due 2028-02-29"
        );
        assert_eq!(absolutize("due eow", day("2026-03-08")), "due 2026-03-06");
        // Quarters, and months and weeks back.
        assert_eq!(
            absolutize("we chose Kafka last quarter", d),
            "we chose Kafka Q4 2025"
        );
        assert_eq!(absolutize("ship next quarter", december), "ship Q1 2027");
        assert_eq!(absolutize("this quarter's OKR", d), "Q1 2026's OKR");
        assert_eq!(absolutize("due end of quarter", d), "due 2026-03-31");
        assert_eq!(absolutize("due end of next month", d), "due 2026-04-30");
        assert_eq!(
            absolutize("since last month", day("2026-01-15")),
            "since 2025-12"
        );
        assert_eq!(
            absolutize("broke last week", d),
            "broke the week of 2026-02-23"
        );
        // The latest such day before it was said; "the end of" goes with its date.
        assert_eq!(absolutize("rotated last Tuesday", d), "rotated 2026-03-03");
        assert_eq!(absolutize("last Thursday", d), "2026-02-26");
        assert_eq!(
            absolutize("clean it up by the end of this month", d),
            "clean it up by 2026-03-31"
        );
        assert_eq!(
            absolutize("slot is at the end of next month", d),
            "slot is at 2026-04-30"
        );
    }

    #[test]
    fn abbreviations_and_typos_are_dates_too() {
        let tuesday = day("2026-03-10");
        assert_eq!(
            absolutize("v2.0 goes to app review this fri", tuesday),
            "v2.0 goes to app review 2026-03-13"
        );
        assert_eq!(
            absolutize("demo is next thurs", tuesday),
            "demo is 2026-03-19"
        );
        assert_eq!(absolutize("by weds", tuesday), "by 2026-03-11");
        assert_eq!(
            absolutize("freeze is tmrw eod", tuesday),
            "freeze is 2026-03-11"
        );
        assert_eq!(
            absolutize("ship it tomorrow morning", tuesday),
            "ship it 2026-03-11"
        );
        // A bare abbreviation, or one that is another word, stays.
        assert_eq!(
            absolutize("fri deploys are banned", tuesday),
            "fri deploys are banned"
        );
        assert_eq!(
            absolutize("on sundays we rest", tuesday),
            "on sundays we rest"
        );
        assert_eq!(relative_phrase("review this fri"), Some("this fri".into()));
    }

    #[test]
    fn relative_phrases_are_found_habits_are_not() {
        assert_eq!(relative_phrase("Deploy tomorrow."), Some("tomorrow".into()));
        assert_eq!(
            relative_phrase("Freeze starts next week"),
            Some("next week".into())
        );
        assert_eq!(relative_phrase("明天发布"), Some("明天".into()));
        assert_eq!(relative_phrase("下周五之前合并"), Some("下周五".into()));
        assert_eq!(
            relative_phrase("Never deploy on Fridays; since 2026-03-05."),
            None
        );
        assert_eq!(relative_phrase("Never deploy on Friday."), None);
        // What happens every week is no date; "every" before anything else is.
        assert_eq!(relative_phrase("每周五发周报：本周完成、下周计划"), None);
        assert_eq!(
            relative_phrase(
                "Staging is refreshed every Sunday, so seeds are gone by Monday.\n\n**Why:** Anything we seed there is gone by Monday."
            ),
            None
        );
        assert_eq!(
            relative_phrase(
                "Hive tables go read-only next Friday, so every training job must move before then."
            ),
            Some("next Friday".into())
        );
        assert_eq!(
            relative_phrase("Who's on call this week: check PagerDuty"),
            None
        );
        assert_eq!(
            absolutize(
                "Who's on call this week: check PagerDuty",
                day("2026-03-05")
            ),
            "Who's on call this week: check PagerDuty"
        );
        assert_eq!(
            relative_phrase("Never deploy on Friday; ship it by Friday"),
            Some("by Friday".into())
        );
    }

    #[test]
    fn chinese_relative_dates() {
        let d = day("2026-03-05");
        assert_eq!(absolutize("下周五发布", d), "2026-03-13发布");
        assert_eq!(absolutize("明天冻结代码", d), "2026-03-06冻结代码");
        // A bare weekday is as often a habit ("每周四发版") as a date: left alone.
        assert_eq!(absolutize("每周四发版", d), "每周四发版");
        assert_eq!(absolutize("本周五截止", d), "2026-03-06截止");
        assert_eq!(absolutize("下个月上线", day("2026-12-31")), "2027-01上线");
        assert_eq!(absolutize("月底交付", day("2026-02-03")), "2026-02-28交付");
        assert_eq!(
            absolutize("下个月底交付", day("2026-12-03")),
            "2027-01-31交付"
        );
        assert_eq!(
            absolutize("本月底交付", day("2026-02-03")),
            "2026-02-28交付"
        );
        assert_eq!(absolutize("上个季度定的方案", d), "2025年Q4定的方案");
        assert_eq!(absolutize("下季度上线", d), "2026年Q2上线");
        assert_eq!(
            absolutize("季度末交付", day("2026-05-03")),
            "2026-06-30交付"
        );
        assert_eq!(absolutize("上个月迁移的", d), "2026-02迁移的");
        assert_eq!(absolutize("上周五出的事故", d), "2026-02-27出的事故");
        assert_eq!(absolutize("上周回滚了", d), "2026-02-23当周回滚了");
        assert_eq!(absolutize("马上周末了", d), "马上周末了");
    }
}
