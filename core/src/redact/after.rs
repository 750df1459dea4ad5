//! Round 7: a secret named *after* its value, not before it. The cheap look the prefilter
//! takes at a secret word before the trailing-comment rule runs (`rules.rs`, "Round 7"):
//! the word is inside a comment that closes the value's line (`"…"  # the stripe key`,
//! `'…', -- admin password`, `X = …  // deploy token`).
//!
//! The other round-7 classes of a name after or beside the value have literal anchors and
//! need no look: SQL's `SET value = '…' WHERE name = 'x_token'` and `VALUES ('api_token',
//! '…')`, a debugger frame's parameter list (`password=0x7ffd… "…"`).
//!
//! Not for: matching or gating the values (`scan.rs`, `checks.rs`), or a name before its
//! value (the generic rules').

/// `Pre::Trailing` at a secret word starting at `a`: back over at most 48 bytes of a
/// comment's words (letters, digits, blanks, `-`, `_`, `'`, parentheses) to a comment marker
/// (`#`, `//`, `--`, `/*`) that follows a blank and is followed by one — a comment after code,
/// not a heading, a shell comment line (whose value would be on another line), or a command
/// line's `--flag` (`upload dist/app-2.3.1.whl --api-token …`: the word before the flag is an
/// argument, not a value the flag names).
pub(super) fn trailing_plausible(bytes: &[u8], a: usize) -> bool {
    let lo = a.saturating_sub(48);
    // Most hits (prose, `"api_key":`) have no marker byte within reach: one SIMD look.
    if memchr::memrchr3(b'#', b'/', b'-', &bytes[lo..a]).is_none() {
        return false;
    }
    let blank = |q: usize| matches!(bytes.get(q), Some(b' ' | b'\t'));
    let blank_before = |q: usize| q >= 1 && blank(q - 1);
    let mut p = a;
    while p > lo {
        match bytes[p - 1] {
            b'#' => return blank_before(p - 1) && blank(p) && p >= 3,
            b'/' if p >= 2 && bytes[p - 2] == b'/' => return blank_before(p - 2) && blank(p) && p >= 4,
            b'*' if p >= 2 && bytes[p - 2] == b'/' => return blank_before(p - 2) && blank(p) && p >= 4,
            b'-' if p >= 2 && bytes[p - 2] == b'-' => return blank_before(p - 2) && blank(p) && p >= 4,
            c if c.is_ascii_alphanumeric() || matches!(c, b' ' | b'\t' | b'-' | b'_' | b'\'' | b'(' | b')') => p -= 1,
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_closing_the_line_is_plausible() {
        let at = |t: &str, w: &str| trailing_plausible(t.as_bytes(), t.find(w).unwrap());
        assert!(at("x = 'Hq7…'  # old billing token", "token"));
        assert!(at("'abc', -- the admin password", "password"));
        assert!(at("v: q  // ci key", "key"));
        assert!(!at("# the admin password is rotated", "password"));
        assert!(!at("api_token = \"x\"", "token"));
        assert!(!at("see https://x.test/#token", "token"));
        // A command line's flag after an argument is not a comment naming the argument.
        assert!(!at("twine upload dist/app-2.3.1.whl --api-token abc", "token"));
        assert!(!at("deploy build.zip --password-file p.txt", "password"));
    }
}
