//! Colour on the command line (DESIGN §11): whether a stream gets it, and the styles, one for
//! each kind of thing. The choice is anstream's, which clap's own errors make too: `--color
//! always|never` wins, then `NO_COLOR` (no colour), then `CLICOLOR_FORCE` (colour), else colour
//! only on a terminal that is not `TERM=dumb`. `error:` is clap's error style and `hint:` clap's
//! `tip:` style, so memdir's errors and clap's usage errors look the same.
//!
//! Colour goes round text, never into it: a [`Painted`] text is escaped for a terminal piece by
//! piece ([`crate::cli::printable`]) before its styles are put round the pieces, so an escape
//! sequence in a memory is shown as `\u{1b}` whatever the colour, and colour never depends on
//! what a memory says.

use std::ffi::OsString;

pub use clap::builder::styling::Style;
use clap::builder::styling::{AnsiColor, Styles};

const CLAP: Styles = Styles::styled();

/// `error:`, as clap prints it.
pub const ERROR: Style = *CLAP.get_error();
/// `warning:`.
pub const WARNING: Style = CLAP.get_invalid().bold();
/// `hint:`, as clap prints `tip:`.
pub const HINT: Style = *CLAP.get_valid();
/// A commit id (`log`, write reports), as git shows it.
pub const COMMIT: Style = AnsiColor::Yellow.on_default();
/// A heading (a review group, a diff's file header).
pub const HEADING: Style = Style::new().bold();
/// A diff's added line.
pub const ADDED: Style = AnsiColor::Green.on_default();
/// A diff's removed line.
pub const REMOVED: Style = AnsiColor::Red.on_default();
/// A diff's hunk header (`@@ -1,3 +1,4 @@`).
pub const HUNK: Style = AnsiColor::Cyan.on_default();
/// Something said in passing: a session, a time, a note.
pub const NOTE: Style = Style::new().dimmed();
/// A command to run next (`memdir promote …`).
pub const COMMAND: Style = AnsiColor::Cyan.on_default();

/// `--color`: when to use colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it).
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// Make this the choice of every stream, clap's error output included.
    pub fn apply(self) {
        match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        }
        .write_global();
    }

    /// `--color` as the command line gives it, read before clap parses it (so that clap's own
    /// errors follow it): the last `--color WHEN` or `--color=WHEN` before a `--`, if `WHEN` is
    /// one of the three; an invalid one is left for clap to refuse.
    pub fn from_args(args: &[OsString]) -> Option<ColorWhen> {
        let mut found = None;
        let mut words = args.iter().skip(1).map(|a| a.to_str());
        while let Some(word) = words.next() {
            let value = match word {
                Some("--") => break,
                Some("--color") => words.next().flatten(),
                Some(word) => word.strip_prefix("--color="),
                None => None,
            };
            if let Some(value) = value {
                found = <ColorWhen as clap::ValueEnum>::from_str(value, false)
                    .ok()
                    .or(found);
            }
        }
        found
    }
}

/// Whether what is written to `stream` gets colour, by the choice made with
/// [`ColorWhen::apply`] (auto by default).
pub fn colored(stream: &impl anstream::stream::RawStream) -> bool {
    anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never
}

/// `text` in `style` when `color`, else as it is.
pub fn paint(color: bool, style: Style, text: &str) -> String {
    if color && !text.is_empty() {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// Text for stdout made of pieces, some in a style; written by [`crate::cli::Output::painted`],
/// which escapes each piece for a terminal before it styles it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Painted {
    pieces: Vec<(Option<Style>, String)>,
}

impl Painted {
    pub fn new() -> Painted {
        Painted::default()
    }

    /// Add `text` as it is.
    pub fn plain(&mut self, text: &str) -> &mut Painted {
        self.pieces.push((None, text.to_string()));
        self
    }

    /// Add `text` in `style`.
    pub fn styled(&mut self, style: Style, text: &str) -> &mut Painted {
        self.pieces.push((Some(style), text.to_string()));
        self
    }

    /// Add another painted text.
    pub fn append(&mut self, other: Painted) -> &mut Painted {
        self.pieces.extend(other.pieces);
        self
    }

    /// The text with colour when `color`, each piece escaped for a terminal when `terminal`.
    pub fn render(&self, color: bool, terminal: bool) -> String {
        let mut out = String::new();
        for (style, text) in &self.pieces {
            let text = crate::cli::printable(text, terminal);
            match style {
                Some(style) => out.push_str(&paint(color, *style, &text)),
                None => out.push_str(&text),
            }
        }
        out
    }
}

/// A unified diff (one or more files', as `memory::diff` writes them) with its styles: header
/// lines bold, hunk headers cyan, removed lines red, added lines green. A hunk's header says how
/// many lines it holds, so a removed line that reads `--- a/x.md` is never taken for the next
/// file's header.
pub fn paint_diff(diff: &str) -> Painted {
    let mut out = Painted::new();
    // Lines still to come in the current hunk: (old, new).
    let mut left = (0usize, 0usize);
    for line in diff.split_inclusive('\n') {
        let (text, end) = match line.strip_suffix('\n') {
            Some(text) => (text, "\n"),
            None => (line, ""),
        };
        let in_hunk = left != (0, 0);
        let style = match text.as_bytes().first() {
            Some(b'+') if in_hunk => {
                left.1 = left.1.saturating_sub(1);
                Some(ADDED)
            }
            Some(b'-') if in_hunk => {
                left.0 = left.0.saturating_sub(1);
                Some(REMOVED)
            }
            Some(b' ') | None if in_hunk => {
                left = (left.0.saturating_sub(1), left.1.saturating_sub(1));
                None
            }
            Some(b'\\') => None,
            _ => match hunk_lengths(text) {
                Some(lengths) => {
                    left = lengths;
                    Some(HUNK)
                }
                None => Some(HEADING),
            },
        };
        match style {
            Some(style) => out.styled(style, text),
            None => out.plain(text),
        };
        out.plain(end);
    }
    out
}

/// The old and new line counts of a hunk header, `@@ -1,3 +1,4 @@` (a count left out is 1).
fn hunk_lengths(line: &str) -> Option<(usize, usize)> {
    let ranges = line.strip_prefix("@@ -")?.split(" @@").next()?;
    let (old, new) = ranges.split_once(" +")?;
    let length = |range: &str| match range.split_once(',') {
        Some((_, n)) => n.parse().ok(),
        None => range.parse::<usize>().ok().map(|_| 1),
    };
    Some((length(old)?, length(new)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn color_flag_is_read_before_parsing() {
        assert_eq!(ColorWhen::from_args(&args("memdir log")), None);
        assert_eq!(
            ColorWhen::from_args(&args("memdir --color never log")),
            Some(ColorWhen::Never)
        );
        assert_eq!(
            ColorWhen::from_args(&args("memdir log --color=always --color=never")),
            Some(ColorWhen::Never)
        );
        assert_eq!(
            ColorWhen::from_args(&args("memdir log --color=bogus")),
            None,
            "clap refuses it"
        );
        assert_eq!(
            ColorWhen::from_args(&args("memdir save -- --color never")),
            None
        );
    }

    #[test]
    fn diffs_are_painted_by_what_each_line_is() {
        let diff = "--- a/x.md\n+++ b/x.md\n@@ -1,2 +1,2 @@\n same\n--- a removed rule\n+++ an added one\n--- a/y.md\n+++ b/y.md\n@@ -0,0 +1 @@\n+new\n";
        let painted = paint_diff(diff).render(true, false);
        let lines: Vec<&str> = painted.lines().collect();
        assert_eq!(lines[0], paint(true, HEADING, "--- a/x.md"));
        assert_eq!(lines[1], paint(true, HEADING, "+++ b/x.md"));
        assert_eq!(lines[2], paint(true, HUNK, "@@ -1,2 +1,2 @@"));
        assert_eq!(lines[3], " same");
        assert_eq!(lines[4], paint(true, REMOVED, "--- a removed rule"));
        assert_eq!(lines[5], paint(true, ADDED, "+++ an added one"));
        assert_eq!(
            lines[6],
            paint(true, HEADING, "--- a/y.md"),
            "the next file"
        );
        assert_eq!(lines[8], paint(true, HUNK, "@@ -0,0 +1 @@"));
        assert_eq!(lines[9], paint(true, ADDED, "+new"));
        assert_eq!(paint_diff(diff).render(false, false), diff);
    }

    #[test]
    fn a_memorys_escape_sequence_is_escaped_inside_colour() {
        let mut text = Painted::new();
        text.styled(ADDED, "+\u{1b}[8mhidden");
        assert_eq!(
            text.render(true, true),
            paint(true, ADDED, "+\\u{1b}[8mhidden"),
            "on a terminal the memory's own sequence is shown, inside memdir's colour"
        );
        assert_eq!(
            text.render(false, false),
            "+\u{1b}[8mhidden",
            "piped: byte for byte"
        );
    }
}
