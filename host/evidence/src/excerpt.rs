//! Excerpt geometry: which line windows of a file to show around its changes, and the symbols
//! those changes touch.
//!
//! A window is a changed span (or the anchor line of a pure deletion) widened by
//! `context_lines` on each side and, when the nearest enclosing definition starts at most
//! `max_enclosing_gap` lines above, extended up to that definition's first line. Overlapping or
//! adjacent windows are merged; the windows of one file together are capped at
//! `max_lines_per_file` lines, in file order.
//!
//! Not for: reading files or charging the budget (`collect/`), or recognising definitions
//! (`symbols.rs`).

use crate::pack::{Hunk, LineSpan};
use crate::symbols::{self, Lang};

/// A text split into lines, each keeping its terminator.
pub(crate) struct Lines<'t> {
    lines: Vec<&'t str>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Self {
        Lines { lines: text.split_inclusive('\n').collect() }
    }

    pub fn len(&self) -> u32 {
        self.lines.len() as u32
    }

    /// Line `n` (1-based) without its terminator.
    pub fn line(&self, n: u32) -> &'t str {
        self.lines[(n - 1) as usize].trim_end_matches(['\n', '\r'])
    }

    /// Lines `span.start..=span.end` joined, terminators kept.
    pub fn text(&self, span: LineSpan) -> String {
        self.lines[(span.start - 1) as usize..span.end as usize].concat()
    }
}

/// The new-side spans a file's hunks changed, and the anchors of pure deletions.
pub(crate) fn changed_spans(hunks: &[Hunk], n_lines: u32) -> (Vec<LineSpan>, Vec<u32>) {
    let mut changed = Vec::new();
    let mut anchors = Vec::new();
    for h in hunks {
        if h.new_lines > 0 {
            let end = h.new_start.saturating_add(h.new_lines - 1).min(n_lines);
            if h.new_start >= 1 && h.new_start <= end {
                changed.push(LineSpan { start: h.new_start, end });
            }
        } else if n_lines > 0 {
            // Lines were removed after new line `new_start` (0: at the top).
            anchors.push(h.new_start.clamp(1, n_lines));
        }
    }
    (changed, anchors)
}

/// A definition found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Definition {
    pub name: String,
    pub line: u32,
}

/// How far up to look for an enclosing definition.
const MAX_ENCLOSING_SCAN: u32 = 400;

/// The nearest definition at or above `line`.
pub(crate) fn enclosing(lines: &Lines<'_>, lang: Lang, line: u32) -> Option<Definition> {
    let low = line.saturating_sub(MAX_ENCLOSING_SCAN).max(1);
    (low..=line.min(lines.len())).rev().find_map(|n| {
        symbols::definition(lang, lines.line(n)).map(|(name, _)| Definition { name: name.to_owned(), line: n })
    })
}

/// Definitions on the lines of `span`.
pub(crate) fn defined_in(lines: &Lines<'_>, lang: Lang, span: LineSpan) -> Vec<Definition> {
    (span.start..=span.end.min(lines.len()))
        .filter_map(|n| {
            symbols::definition(lang, lines.line(n)).map(|(name, _)| Definition { name: name.to_owned(), line: n })
        })
        .collect()
}

/// The windows to excerpt for the given changed spans and deletion anchors.
pub(crate) fn windows(
    lines: &Lines<'_>,
    lang: Lang,
    changed: &[LineSpan],
    anchors: &[u32],
    context: u32,
    max_gap: u32,
) -> Vec<LineSpan> {
    let n = lines.len();
    if n == 0 {
        return Vec::new();
    }
    let mut raw: Vec<LineSpan> =
        changed.iter().copied().chain(anchors.iter().map(|&a| LineSpan { start: a, end: a })).collect();
    raw.sort();
    let mut out: Vec<LineSpan> = Vec::new();
    for span in raw {
        let mut start = span.start.saturating_sub(context).max(1);
        let end = span.end.saturating_add(context).min(n);
        if let Some(def) = enclosing(lines, lang, span.start)
            && def.line < start
            && span.start - def.line <= max_gap
        {
            start = def.line;
        }
        out.push(LineSpan { start, end });
    }
    merge(out)
}

/// Merge overlapping or adjacent spans (input in any order).
pub(crate) fn merge(mut spans: Vec<LineSpan>) -> Vec<LineSpan> {
    spans.sort();
    let mut out: Vec<LineSpan> = Vec::with_capacity(spans.len());
    for s in spans {
        match out.last_mut() {
            Some(last) if s.start <= last.end.saturating_add(1) => last.end = last.end.max(s.end),
            _ => out.push(s),
        }
    }
    out
}

/// Cap windows at `max_lines` in total, in order. Returns the kept windows (the last one
/// possibly shortened) and the number of lines dropped.
pub(crate) fn cap(windows: Vec<LineSpan>, max_lines: u32) -> (Vec<LineSpan>, u32, bool) {
    let mut left = max_lines;
    let mut kept = Vec::new();
    let mut dropped = 0u32;
    let mut cut = false;
    for w in windows {
        let len = w.end - w.start + 1;
        if left == 0 {
            dropped += len;
            continue;
        }
        if len <= left {
            left -= len;
            kept.push(w);
        } else {
            kept.push(LineSpan { start: w.start, end: w.start + left - 1 });
            dropped += len - left;
            left = 0;
            cut = true;
        }
    }
    (kept, dropped, cut)
}

/// Changed spans clipped to `window`.
pub(crate) fn clip(changed: &[LineSpan], window: LineSpan) -> Vec<LineSpan> {
    changed
        .iter()
        .filter(|c| c.end >= window.start && c.start <= window.end)
        .map(|c| LineSpan { start: c.start.max(window.start), end: c.end.min(window.end) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(start: u32, end: u32) -> LineSpan {
        LineSpan { start, end }
    }

    #[test]
    fn merges_overlapping_and_adjacent() {
        assert_eq!(merge(vec![s(10, 12), s(1, 3), s(4, 5), s(11, 20), s(30, 31)]), vec![s(1, 5), s(10, 20), s(30, 31)]);
    }

    #[test]
    fn windows_extend_to_enclosing_definition() {
        let mut text = String::from("use x;\n\nfn outer() {\n");
        for i in 0..30 {
            text.push_str(&format!("    let v{i} = {i};\n"));
        }
        text.push_str("}\n");
        let lines = Lines::new(&text);
        // Changed line 25 with 2 lines of context: the window reaches up to `fn outer` (line 3).
        let w = windows(&lines, Lang::Rust, &[s(25, 25)], &[], 2, 40);
        assert_eq!(w, vec![s(3, 27)]);
        // With a small gap it does not.
        let w = windows(&lines, Lang::Rust, &[s(25, 25)], &[], 2, 5);
        assert_eq!(w, vec![s(23, 27)]);
        assert_eq!(enclosing(&lines, Lang::Rust, 25).unwrap().name, "outer");
    }

    #[test]
    fn spans_and_anchors_from_hunks() {
        let hunks = [
            Hunk { old_start: 2, old_lines: 1, new_start: 2, new_lines: 1 },
            Hunk { old_start: 5, old_lines: 2, new_start: 4, new_lines: 0 },
            Hunk { old_start: 0, old_lines: 0, new_start: 9, new_lines: 3 },
        ];
        let (c, a) = changed_spans(&hunks, 10);
        assert_eq!(c, vec![s(2, 2), s(9, 10)]);
        assert_eq!(a, vec![4]);
    }

    #[test]
    fn cap_cuts_in_order() {
        let (k, dropped, cut) = cap(vec![s(1, 10), s(20, 29), s(40, 49)], 15);
        assert_eq!(k, vec![s(1, 10), s(20, 24)]);
        assert_eq!(dropped, 15);
        assert!(cut);
    }

    #[test]
    fn lines_keep_terminators() {
        let l = Lines::new("a\r\nb\nc");
        assert_eq!(l.len(), 3);
        assert_eq!(l.line(1), "a");
        assert_eq!(l.text(s(1, 2)), "a\r\nb\n");
        assert_eq!(l.text(s(3, 3)), "c");
    }
}
