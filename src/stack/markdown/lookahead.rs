//! The look-ahead results remembered during one inline run (closing backticks, `-->`, `)` and
//! `>` ahead, emphasis closers), which keep inline lexing linear, as the original caches them.

use super::utf16::{CLOSE_PAREN, INFINITY, index_of_str, is_js_space};

#[derive(Clone, Copy, PartialEq, Eq)]
/// A search that found nothing, remembered so that it is not repeated from further on.
pub(super) enum Absent {
    /// A closing run of this many backticks (a code span).
    Backticks(usize),
    /// `?>`, closing a processing instruction.
    ProcessingInstruction,
    /// `-->`, closing a comment.
    Comment,
    /// `]]>`, closing a CDATA section.
    Cdata,
    /// `>`, closing a declaration.
    Declaration,
}

/// Look-ahead results remembered during one inline run, as distances from the text's end.
pub(super) struct Notes {
    /// Searches that failed, and how much text was left where they started.
    pub(super) absent: Vec<(Absent, usize)>,
    /// Where the last `)` is (its distance from the end; `INFINITY`: none), once looked for.
    pub(super) ahead_paren: Option<usize>,
    /// Likewise for the last `>`.
    pub(super) ahead_gt: Option<usize>,
    /// What is left after the current run of emphasis marks (`INFINITY`: not measured yet).
    pub(super) after_marks: usize,
    /// How long the text's trailing whitespace is, once measured.
    pub(super) end_space: Option<usize>,
    /// For `*` and `_`: where the last closer search stopped, and the marks it counted.
    pub(super) closers: [Option<(usize, usize)>; 2],
}

impl Notes {
    pub(super) fn new() -> Notes {
        Notes {
            absent: Vec::new(),
            ahead_paren: None,
            ahead_gt: None,
            after_marks: INFINITY,
            end_space: None,
            closers: [None, None],
        }
    }
    pub(super) fn is_absent(&self, text: &[u16], key: Absent, pos: usize) -> bool {
        let remaining = text.len() as i64 - pos as i64;
        self.absent
            .iter()
            .find(|(absent, _)| *absent == key)
            .is_some_and(|&(_, distance)| remaining <= distance as i64)
    }
    pub(super) fn note_absent(&mut self, text: &[u16], key: Absent, pos: usize) {
        let distance = text.len().saturating_sub(pos);
        match self.absent.iter_mut().find(|(absent, _)| *absent == key) {
            Some(slot) => slot.1 = distance,
            None => self.absent.push((key, distance)),
        }
    }
    /// Whether `ch` occurs at or after `pos`.
    pub(super) fn is_ahead(&mut self, text: &[u16], ch: u16, pos: usize) -> bool {
        let slot = if ch == CLOSE_PAREN {
            &mut self.ahead_paren
        } else {
            &mut self.ahead_gt
        };
        let distance = *slot.get_or_insert_with(|| {
            text.iter()
                .rposition(|&c| c == ch)
                .map_or(INFINITY, |index| text.len() - index)
        });
        distance != INFINITY && text.len() - pos.min(text.len()) >= distance
    }
    /// The end of `pat` searched from `pos`, remembering when there is none.
    pub(super) fn past(
        &mut self,
        text: &[u16],
        key: Absent,
        pat: &str,
        pos: usize,
    ) -> Option<usize> {
        if self.is_absent(text, key, pos) {
            return None;
        }
        match index_of_str(text, pat, pos) {
            Some(i) => Some(i + pat.len()),
            None => {
                self.note_absent(text, key, pos);
                None
            }
        }
    }
    /// Whether position `pos` lies before the text's trailing whitespace.
    pub(super) fn before_end_space(&mut self, text: &[u16], pos: usize) -> bool {
        let end_space = *self.end_space.get_or_insert_with(|| {
            let last = text
                .iter()
                .rposition(|&c| !is_js_space(c as i32))
                .map_or(0, |index| index + 1);
            text.len() - last
        });
        text.len() as i64 - pos as i64 > end_space as i64
    }
}
