//! The shell words of a hook command as POSIX `sh` reads them (quotes and backslashes),
//! each with its byte span in the command, and quoting a path for the shell.
//!
//! Hand-rolled rather than the `shell-words` crate: recognising our hook commands needs the
//! binary word's byte span, so that a changed binary path is rewritten in place and the rest
//! of the command (`NAME=value` prefixes, the quoting style) survives byte for byte;
//! `shell-words` returns only the unquoted strings.
//!
//! Not for: deciding which commands are ours (`entries`), or running anything (no expansion,
//! no operators: a word is split at whitespace only).

/// A shell word of a hook command, with its byte span in the command.
#[derive(Debug, PartialEq)]
pub(crate) struct Word {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// Split a command into shell words (quotes and backslashes as POSIX sh reads them);
/// `None` for an unterminated quote.
pub(crate) fn shell_words(s: &str) -> Option<Vec<Word>> {
    let mut words = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut text = String::new();
        let mut end = start;
        while let Some(&(i, c)) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            chars.next();
            match c {
                '\'' => loop {
                    let (j, c) = chars.next()?;
                    if c == '\'' {
                        end = j + 1;
                        break;
                    }
                    text.push(c);
                },
                '"' => loop {
                    let (j, c) = chars.next()?;
                    match c {
                        '"' => {
                            end = j + 1;
                            break;
                        }
                        '\\' if matches!(chars.peek(), Some((_, '"' | '\\' | '$' | '`'))) => {
                            text.push(chars.next()?.1);
                        }
                        c => text.push(c),
                    }
                },
                '\\' => {
                    let (j, c) = chars.next()?;
                    text.push(c);
                    end = j + c.len_utf8();
                }
                c => {
                    text.push(c);
                    end = i + c.len_utf8();
                }
            }
        }
        words.push(Word { text, start, end });
    }
    Some(words)
}

/// Quote `s` for the shell when it has anything but plainly safe characters.
pub(crate) fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+@%,:=".contains(c);
    if !s.is_empty() && s.chars().all(safe) { s.to_string() } else { format!("'{}'", s.replace('\'', r"'\''")) }
}
