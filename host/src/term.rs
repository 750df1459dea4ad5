//! Fitting human output to the terminal: the width of stdout when it is a terminal
//! (`COLUMNS`, else the terminal's size), and shortening display text to a width with an
//! ellipsis.
//!
//! The rule this module exists to keep: only human tables on a terminal are ever shortened,
//! and only their display columns (a next action, a snippet, a summary), never an
//! identifier a user copies. Piped output has no width ([`stdout_width`] is `None`), so it
//! and `--json` stay complete.
//!
//! Not for: deciding what a table shows (the CLI renders it) or colour (nothing is coloured).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The width to fit human output to: `None` unless stdout is a terminal; then `COLUMNS`
/// when it is a positive number, else the terminal's width (else 80).
pub fn stdout_width() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    if let Some(n) = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok()).filter(|&n| n > 0) {
        return Some(n);
    }
    Some(terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| usize::from(w.0)).unwrap_or(80))
}

/// Columns `s` takes on a terminal.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// `s` shortened to at most `max` columns, ending in `…` when shortened.
pub fn fit(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// `s` padded with spaces to `w` columns (never shortened).
pub fn pad(s: &str, w: usize) -> String {
    let mut out = s.to_string();
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(width(s))));
    out
}

/// Each line of `text` fitted to `max` columns (for free-form human lines under a width).
pub fn fit_lines(text: &str, max: Option<usize>) -> String {
    let Some(max) = max else { return text.to_string() };
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        out.push_str(&fit(body, max));
        out.push_str(nl);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_shortens_with_an_ellipsis_to_exactly_the_width() {
        assert_eq!(fit("abcdef", 6), "abcdef");
        assert_eq!(fit("abcdefg", 6), "abcde…");
        assert_eq!(width(&fit("abcdefg", 6)), 6);
        assert_eq!(fit("abc", 1), "…");
        assert_eq!(fit("abc", 0), "");
    }

    #[test]
    fn fit_counts_wide_characters_as_two_columns() {
        let s = fit("日本語のテキスト", 7);
        assert!(width(&s) <= 7, "{s}");
        assert!(s.ends_with('…'));
    }

    #[test]
    fn fit_lines_keeps_newlines_and_every_line_within_the_width() {
        let out = fit_lines("short\na much longer line than ten\n", Some(10));
        assert_eq!(out, "short\na much lo…\n");
        assert_eq!(fit_lines("unchanged long line", None), "unchanged long line");
    }

    #[test]
    fn pad_fills_to_the_width_and_never_cuts() {
        assert_eq!(pad("ab", 4), "ab  ");
        assert_eq!(pad("abcdef", 4), "abcdef");
    }
}
