//! The look-ahead results remembered during one inline run (closing backticks, `-->`, `)` and
//! `>` ahead, emphasis closers), which keep inline lexing linear, as the original caches them.

use super::utf16::{CLOSE_PAREN, INFINITY, index_of_str, is_js_space};

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Absent {
    Backticks(usize),
    Pi,
    Comment,
    Cdata,
    Gt,
}

/// Look-ahead results remembered during one inline run, as distances from the text's end.
pub(super) struct Notes {
    pub(super) absent: Vec<(Absent, usize)>,
    pub(super) ahead_paren: Option<usize>,
    pub(super) ahead_gt: Option<usize>,
    pub(super) after_marks: usize,
    pub(super) end_space: Option<usize>,
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
    pub(super) fn is_absent(&self, e: &[u16], key: Absent, o: usize) -> bool {
        let rem = e.len() as i64 - o as i64;
        self.absent
            .iter()
            .find(|(k, _)| *k == key)
            .is_some_and(|&(_, v)| rem <= v as i64)
    }
    pub(super) fn note_absent(&mut self, e: &[u16], key: Absent, o: usize) {
        let v = e.len().saturating_sub(o);
        match self.absent.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = v,
            None => self.absent.push((key, v)),
        }
    }
    /// Whether `ch` occurs at or after `o`.
    pub(super) fn is_ahead(&mut self, e: &[u16], ch: u16, o: usize) -> bool {
        let slot = if ch == CLOSE_PAREN {
            &mut self.ahead_paren
        } else {
            &mut self.ahead_gt
        };
        let h = *slot.get_or_insert_with(|| {
            e.iter()
                .rposition(|&c| c == ch)
                .map_or(INFINITY, |p| e.len() - p)
        });
        h != INFINITY && e.len() - o.min(e.len()) >= h
    }
    /// The end of `pat` searched from `o`, remembering when there is none.
    pub(super) fn past(&mut self, e: &[u16], key: Absent, pat: &str, o: usize) -> Option<usize> {
        if self.is_absent(e, key, o) {
            return None;
        }
        match index_of_str(e, pat, o) {
            Some(i) => Some(i + pat.len()),
            None => {
                self.note_absent(e, key, o);
                None
            }
        }
    }
    /// Whether position `n` lies before the text's trailing whitespace.
    pub(super) fn before_end_space(&mut self, e: &[u16], n: usize) -> bool {
        let end_space = *self.end_space.get_or_insert_with(|| {
            let last = e
                .iter()
                .rposition(|&c| !is_js_space(c as i32))
                .map_or(0, |p| p + 1);
            e.len() - last
        });
        e.len() as i64 - n as i64 > end_space as i64
    }
}
