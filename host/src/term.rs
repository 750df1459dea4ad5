//! Fitting human output to the terminal: the width of stdout when it is a terminal
//! (`COLUMNS`, else the terminal's size), and shortening display text to a width with an
//! ellipsis.
//!
//! The rule this module exists to keep: only human tables on a terminal are ever shortened,
//! and only their display columns (a next action, a snippet, a summary), never an
//! identifier a user copies. Piped output has no width ([`stdout_width`] is `None`), so it
//! and `--json` stay complete.
//!
//! Identifiers that must be shortened (a name or slug on a narrow terminal) keep both ends
//! ([`fit_middle`]), so two similar ones stay distinguishable.
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

/// `s` shortened to at most `max` columns by cutting its middle: the start and the end, which
/// tell similar names apart (`pricing-mo…enterprise`), are kept.
pub fn fit_middle(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let keep = max - 1;
    let tail_w = keep / 2;
    let head_w = keep - tail_w;
    let take = |chars: &mut dyn Iterator<Item = char>, room: usize| {
        let (mut out, mut used) = (Vec::new(), 0);
        for c in chars {
            let w = c.width().unwrap_or(0);
            if used + w > room {
                break;
            }
            out.push(c);
            used += w;
        }
        out
    };
    let head: String = take(&mut s.chars(), head_w).into_iter().collect();
    let tail: String = take(&mut s.chars().rev(), tail_w).into_iter().rev().collect();
    format!("{head}…{tail}")
}

/// `s` as one line of a table cell: each line break shown as ` ⏎ `, tabs and other control
/// characters as spaces (a value with newlines, which MCP accepts, must not break the table).
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => out.push_str(" ⏎ "),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Widths of a table's flexible columns in `room` columns: each starts at its full width
/// (`full`); while the total is over `room`, columns are shrunk in the order of `steps` —
/// `(column, floor)`: that column down to no less than `floor` — so what the order puts last
/// (what tells rows apart) is shortened last. The total stays over `room` only when every
/// step is spent.
pub fn allocate(full: &[usize], room: usize, steps: &[(usize, usize)]) -> Vec<usize> {
    let mut w = full.to_vec();
    for &(i, floor) in steps {
        let total: usize = w.iter().sum();
        if total <= room {
            break;
        }
        let cut = (total - room).min(w[i].saturating_sub(floor));
        w[i] -= cut;
    }
    w
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

/// `!N ` before the name of a Dossier with N open conflicts, nothing otherwise (`dossier ls`
/// and the TUI list mark them alike).
pub fn conflict_mark(open: usize) -> String {
    if open == 0 { String::new() } else { format!("!{open} ") }
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
    fn fit_middle_keeps_both_ends() {
        assert_eq!(fit_middle("pricing-model-enterprise", 24), "pricing-model-enterprise");
        assert_eq!(fit_middle("pricing-model-enterprise", 9), "pric…rise");
        assert_eq!(width(&fit_middle("pricing-model-startups", 9)), 9);
        assert_eq!(fit_middle("abc", 1), "…");
        assert!(width(&fit_middle("日本語のテキスト", 7)) <= 7);
    }

    #[test]
    fn one_line_shows_line_breaks_as_a_return_sign() {
        assert_eq!(one_line("first\nsecond\r\nthird\tend"), "first ⏎ second ⏎ third end");
        assert_eq!(one_line("plain"), "plain");
    }

    #[test]
    fn allocate_shrinks_in_order_down_to_the_floors() {
        assert_eq!(allocate(&[10, 10, 40], 100, &[(2, 16)]), vec![10, 10, 40]);
        assert_eq!(allocate(&[10, 10, 40], 40, &[(2, 16), (0, 5)]), vec![10, 10, 20]);
        assert_eq!(allocate(&[10, 10, 40], 30, &[(2, 16), (0, 5), (1, 5)]), vec![5, 9, 16]);
    }

    #[test]
    fn pad_fills_to_the_width_and_never_cuts() {
        assert_eq!(pad("ab", 4), "ab  ");
        assert_eq!(pad("abcdef", 4), "abcdef");
    }
}
