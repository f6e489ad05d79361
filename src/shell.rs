//! Words for the POSIX shell: what memdir writes into hook scripts, git config and the commands
//! it prints for people to run.

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

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn safe_words_stay_and_others_are_single_quoted() {
        assert_eq!(quote("/usr/bin/memdir"), "/usr/bin/memdir");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
