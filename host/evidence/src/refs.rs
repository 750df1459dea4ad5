//! `EvidenceRef`: a stable citation of lines in a pack (path, revision, 1-based inclusive line
//! span, BLAKE3 hash of the cited text), the hash, and the line arithmetic citing needs.
//!
//! The hash covers the exact bytes of the cited lines *as they appear in the pack*, each with its
//! line terminator when it has one: that is the file's own bytes, except where the redactor
//! replaced a secret (the pack never holds the original). `revision` is a full commit id, or
//! `"worktree"` for files read from the working tree. A ref may cite any sub-span of an excerpt
//! or hit in the pack.
//!
//! Not for: verifying a ref against a pack ([`verify`](crate::verify) and
//! [`VerifyError`](crate::VerifyError) are in `pack.rs`, which this module sits below), or
//! re-reading the repository.

use serde::{Deserialize, Serialize};

/// The revision name used for content read from the working tree.
pub const WORKTREE: &str = "worktree";

/// A citation of lines in a pack. Field names match WIT `dossier:policy/types.evidence-ref`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EvidenceRef {
    /// Repository-relative path with `/` separators.
    pub path: String,
    /// Full commit id, or [`WORKTREE`].
    pub revision: String,
    /// First cited line, 1-based.
    pub start_line: u32,
    /// Last cited line, inclusive.
    pub end_line: u32,
    /// Lowercase hex BLAKE3 of the cited text.
    pub content_hash: String,
}

impl EvidenceRef {
    /// A ref to `text`, which holds lines `start_line..` of `path` at `revision`.
    pub fn for_text(path: &str, revision: &str, start_line: u32, text: &str) -> EvidenceRef {
        let lines = line_count(text).max(1);
        EvidenceRef {
            path: path.to_owned(),
            revision: revision.to_owned(),
            start_line,
            end_line: start_line + lines - 1,
            content_hash: content_hash(text),
        }
    }
}

/// Lowercase hex BLAKE3 of `text`'s bytes.
pub fn content_hash(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex().to_string()
}

/// Lines in `text`: a final line without a terminator counts; an empty text has none.
pub(crate) fn line_count(text: &str) -> u32 {
    text.split_inclusive('\n').count() as u32
}

/// Lines `start..=end` (1-based, relative to `text`'s first line) of `text`, or `None` when the
/// span is empty or runs past the end.
pub(crate) fn sub_lines(text: &str, start: u32, end: u32) -> Option<&str> {
    if start == 0 || end < start {
        return None;
    }
    let mut offset = 0usize;
    let mut begin = None;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let n = i as u32 + 1;
        if n == start {
            begin = Some(offset);
        }
        offset += line.len();
        if n == end {
            return begin.map(|b| &text[b..offset]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_lines_keeps_terminators() {
        let t = "a\nb\r\nc";
        assert_eq!(sub_lines(t, 1, 1), Some("a\n"));
        assert_eq!(sub_lines(t, 2, 3), Some("b\r\nc"));
        assert_eq!(sub_lines(t, 3, 4), None);
        assert_eq!(sub_lines(t, 0, 1), None);
        assert_eq!(line_count(t), 3);
        assert_eq!(line_count("a\n"), 1);
        assert_eq!(line_count(""), 0);
    }

    #[test]
    fn for_text_spans_the_lines() {
        let r = EvidenceRef::for_text("a.rs", WORKTREE, 10, "x\ny\n");
        assert_eq!((r.start_line, r.end_line), (10, 11));
        assert_eq!(r.content_hash, blake3::hash(b"x\ny\n").to_hex().to_string());
    }
}
