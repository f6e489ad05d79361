//! Words for the POSIX shell: quoting what memdir writes into hook scripts, git config and the
//! commands it prints for people to run, and splitting a simple command line as bash would.

/// `word` as one shell word: as it is when that is safe, else in single quotes.
pub fn quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// One word of a command line: its text after quote removal, and where it was.
#[derive(Debug, Clone)]
pub struct Word {
    pub text: String,
    pub span: std::ops::Range<usize>,
}

/// Split a simple command line as bash would (quotes, backslashes, blanks). `None` for anything
/// a shell would do more with (operators, expansions, globs, comments, an open quote): such a
/// command is the user's own and is never taken for memdir's nor rewritten.
pub fn words(command: &str) -> Option<Vec<Word>> {
    let mut words = Vec::new();
    let mut current: Option<(String, usize)> = None;
    let mut chars = command.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some((text, start)) = current.take() {
                    words.push(Word {
                        text,
                        span: start..i,
                    });
                }
                continue;
            }
            '#' if current.is_none() => return None,
            ';' | '&' | '|' | '<' | '>' | '(' | ')' | '$' | '`' | '*' | '?' | '\n' | '\r' => {
                return None;
            }
            _ => {}
        }
        let (text, _) = current.get_or_insert_with(|| (String::new(), i));
        match c {
            '\'' => loop {
                match chars.next()? {
                    (_, '\'') => break,
                    (_, c) => text.push(c),
                }
            },
            '"' => loop {
                match chars.next()? {
                    (_, '"') => break,
                    (_, '$' | '`') => return None,
                    (_, '\\') => match chars.next()? {
                        (_, c @ ('"' | '\\' | '$' | '`')) => text.push(c),
                        (_, '\n') => {}
                        (_, c) => {
                            text.push('\\');
                            text.push(c);
                        }
                    },
                    (_, c) => text.push(c),
                }
            },
            '\\' => match chars.next()? {
                (_, '\n') => {}
                (_, c) => text.push(c),
            },
            c => text.push(c),
        }
    }
    if let Some((text, start)) = current {
        words.push(Word {
            text,
            span: start..command.len(),
        });
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::{quote, words};

    fn texts(command: &str) -> Option<Vec<String>> {
        words(command).map(|w| w.into_iter().map(|w| w.text).collect())
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            texts(r#"'/a b/memdir' extract  "--ho"ok x\ y"#),
            Some(vec![
                "/a b/memdir".into(),
                "extract".into(),
                "--hook".into(),
                "x y".into()
            ])
        );
        assert_eq!(texts("it's"), None);
        assert_eq!(texts("memdir extract --hook || true"), None);
        assert_eq!(texts("$HOME/bin/memdir extract"), None);
        assert_eq!(texts("\"$HOME\"/memdir"), None);
        let words = words("  'x y'/memdir snapshot").expect("simple");
        assert_eq!(words[0].span, 2..14);
        for word in ["memdir", "/a b/c", "it's", "", "a\"b"] {
            assert_eq!(texts(&quote(word)), Some(vec![word.to_string()]), "{word}");
        }
    }

    #[test]
    fn safe_words_stay_and_others_are_single_quoted() {
        assert_eq!(quote("/usr/bin/memdir"), "/usr/bin/memdir");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
