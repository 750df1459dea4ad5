//! `EvidenceRef`: a stable citation of lines in a pack (path, revision, 1-based inclusive line
//! span, BLAKE3 hash of the cited text), and its verification against the pack.
//!
//! The hash covers the exact bytes of the cited lines *as they appear in the pack*, each with its
//! line terminator when it has one: that is the file's own bytes, except where the redactor
//! replaced a secret (the pack never holds the original). `revision` is a full commit id, or
//! `"worktree"` for files read from the working tree. A ref may cite any sub-span of an excerpt
//! or hit in the pack; [`verify`] checks that such a span exists and that the hash matches.
//!
//! Not for: re-reading the repository. A ref verified here proves the pack says what the ref
//! claims; whether the repository still does is for the caller to decide (a worktree ref is only
//! as stable as the working tree).

use serde::{Deserialize, Serialize};

use crate::pack::EvidencePack;

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

/// Why a ref does not verify against a pack.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("{path}@{revision} lines {start}-{end}: no excerpt or search hit in the pack covers these lines")]
    NotInPack { path: String, revision: String, start: u32, end: u32 },
    #[error("{path}@{revision} lines {start}-{end}: content hash does not match the pack")]
    HashMismatch { path: String, revision: String, start: u32, end: u32 },
}

/// Check that `r` cites lines present in `pack` and that its hash matches them. Returns the
/// cited text.
pub fn verify<'p>(pack: &'p EvidencePack, r: &EvidenceRef) -> Result<&'p str, VerifyError> {
    let text =
        cited_text(pack, &r.path, &r.revision, r.start_line, r.end_line).ok_or_else(|| VerifyError::NotInPack {
            path: r.path.clone(),
            revision: r.revision.clone(),
            start: r.start_line,
            end: r.end_line,
        })?;
    if content_hash(text) == r.content_hash {
        Ok(text)
    } else {
        Err(VerifyError::HashMismatch {
            path: r.path.clone(),
            revision: r.revision.clone(),
            start: r.start_line,
            end: r.end_line,
        })
    }
}

/// The pack's text for lines `start..=end` of `path` at `revision`, from the first excerpt or hit
/// that covers them all.
pub(crate) fn cited_text<'p>(
    pack: &'p EvidencePack,
    path: &str,
    revision: &str,
    start: u32,
    end: u32,
) -> Option<&'p str> {
    let items = pack
        .excerpts
        .iter()
        .map(|e| (&e.evidence, e.text.as_str()))
        .chain(pack.search.hits.iter().map(|h| (&h.evidence, h.text.as_str())));
    for (ev, text) in items {
        if ev.path == path && ev.revision == revision && ev.start_line <= start && end <= ev.end_line {
            let rel_start = start - ev.start_line + 1;
            let rel_end = end - ev.start_line + 1;
            if let Some(t) = sub_lines(text, rel_start, rel_end) {
                return Some(t);
            }
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
