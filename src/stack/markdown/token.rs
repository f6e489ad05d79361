//! The lexer's tokens: their kinds and the arena they live in (each token's children kept as a
//! linked list of ids, so that the tree is built without moving tokens).

use super::utf16::View;

pub(super) const ROOT: usize = 0;
pub(super) const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Root,
    Space,
    Code,
    Heading,
    Hr,
    Blockquote,
    List,
    ListItem,
    Html,
    Def,
    Paragraph,
    Text,
    Escape,
    Br,
    Codespan,
    Em,
    Strong,
    Link,
    Image,
}

pub(super) struct Token {
    pub(super) kind: Kind,
    /// The source's length when the token was made.
    pub(super) len: usize,
    /// Whether the source ends in a newline and blanks (`/\n[\t ]*$/`).
    pub(super) ends_blank: bool,
    /// The text (for a definition: its normalized label).
    pub(super) text: Vec<u16>,
    /// Shared with the string being lexed: an inline text token's text, or the source of an
    /// HTML block or a definition (then `text` is not used for it).
    pub(super) shared: Option<View>,
    /// The tokens inside (a list's items), as a linked list: first, last, and each one's next.
    pub(super) first: u32,
    pub(super) last: u32,
    pub(super) next: u32,
    /// For block HTML: where the token's source starts in the whole text (it is `len` long).
    pub(super) span: Option<usize>,
}

impl Token {
    pub(super) fn new(kind: Kind, len: usize, ends_blank: bool, text: Vec<u16>) -> Token {
        Token {
            kind,
            len,
            ends_blank,
            text,
            shared: None,
            first: NONE,
            last: NONE,
            next: NONE,
            span: None,
        }
    }
    /// The source of an HTML block or a definition.
    pub(super) fn raw(&self) -> &[u16] {
        self.shared.as_ref().map_or(&[], View::units)
    }
    /// The token's text.
    pub(super) fn text(&self) -> &[u16] {
        match &self.shared {
            Some(view) => view.units(),
            None => &self.text,
        }
    }
}

/// The tokens inside `owner`, in order.
pub(super) fn children(tokens: &[Token], owner: usize) -> impl Iterator<Item = usize> + '_ {
    let mut next = tokens[owner].first;
    std::iter::from_fn(move || {
        if next == NONE {
            return None;
        }
        let id = next as usize;
        next = tokens[id].next;
        Some(id)
    })
}
