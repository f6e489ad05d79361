//! When memories were saved (DESIGN §9: ages come from git history, never from a field someone
//! must maintain): the last commit of each memory, a time in the committer's offset, an age in
//! words ("3 days ago").

use crate::repo::HistoryEntry;

/// A date (`2026-03-05`, its midnight UTC) or an RFC 3339 time, as seconds since the epoch.
pub fn parse_since(text: &str) -> Option<i64> {
    if let Ok(time) = chrono::DateTime::parse_from_rfc3339(text) {
        return Some(time.timestamp());
    }
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc().timestamp())
}

/// How long ago, in words: "just now", "5 minutes ago", "3 days ago", "2 years ago".
pub fn format_age(seconds: i64, now: i64) -> String {
    let ago = (now - seconds).max(0);
    let (n, unit) = match ago {
        0..60 => return "just now".to_string(),
        60..3_600 => (ago / 60, "minute"),
        3_600..86_400 => (ago / 3_600, "hour"),
        86_400..5_184_000 => (ago / 86_400, "day"),
        5_184_000..63_072_000 => (ago / 2_592_000, "month"),
        _ => (ago / 31_536_000, "year"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

/// When each memory was last committed, by name, from the history's subjects (newest wins).
pub fn last_saved(history: &[HistoryEntry]) -> std::collections::HashMap<String, (i64, i32)> {
    let mut out = std::collections::HashMap::new();
    for entry in history {
        for name in entry.names() {
            out.entry(name.to_string()).or_insert(entry.time);
        }
    }
    out
}

/// Now, as every time memdir writes is written (ARCHITECTURE.md, "JSON field names"): RFC 3339
/// to the second, in this machine's offset, as git records a commit's time.
pub fn now() -> String {
    chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
}

/// `text`, a time as memdir wrote it before it wrote every time as [`now`] does (in UTC as `Z`,
/// or to the nanosecond), as `now` writes it; `None` when it is not RFC 3339.
pub fn as_written_now(text: &str) -> Option<String> {
    chrono::DateTime::parse_from_rfc3339(text).ok().map(|t| {
        t.with_timezone(&chrono::Local)
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
    })
}

/// RFC 3339 in the committer's own offset.
pub fn format_time((seconds, offset): (i64, i32)) -> String {
    chrono::FixedOffset::east_opt(offset)
        .and_then(|tz| chrono::DateTime::from_timestamp(seconds, 0).map(|t| t.with_timezone(&tz)))
        .map_or_else(|| seconds.to_string(), |t| t.to_rfc3339())
}
