//! The evidence pack: what a collection returns, as serde types (schema version 1).
//!
//! A pack says what it contains *and* what it left out: each ladder level's status, the budget
//! used against its limits, the first limit that stopped the ladder, every omission, redaction
//! counts by kind, and the sensitive paths that were withheld. Every string in it has been
//! through the redactor.
//!
//! Verification lives here too: [`verify`] checks an [`EvidenceRef`] against the pack's excerpts
//! and hits. A ref verified here proves the pack says what the ref claims; whether the repository
//! still does is for the caller to decide (a worktree ref is only as stable as the working tree).
//!
//! Not for: building a pack (that is `collect/`), the citation type itself (`refs.rs`), or
//! judging its learning value (the host's opportunity detector does that).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::budget::{BudgetReport, Limit};
use crate::level::Level;
use crate::refs::{EvidenceRef, content_hash, sub_lines};

pub const SCHEMA_VERSION: u32 = 1;

/// The result of [`collect`](crate::collect).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidencePack {
    pub schema_version: u32,
    pub locator: LocatorRecord,
    /// Changed files in diff order (level 1), including sensitive ones (names only).
    pub files: Vec<ChangedFile>,
    /// Excerpts of changed files (level 2) and slice files (level 4).
    pub excerpts: Vec<Excerpt>,
    /// Level 3.
    pub search: SearchRecord,
    /// Level 4.
    pub slice: SliceRecord,
    /// One record per ladder level, in order.
    pub levels: Vec<LevelRecord>,
    /// The highest level that contributed (complete or partial).
    pub level_reached: Option<Level>,
    pub budget: BudgetReport,
    /// Replacements made by the redactor, by kind.
    pub redactions: BTreeMap<String, u64>,
    /// Changed paths withheld as sensitive (listed in `files` too, with no content).
    pub sensitive_paths: Vec<String>,
}

impl EvidencePack {
    /// A ref to lines `start..=end` of `path` at `revision`, if an excerpt or hit in this pack
    /// covers them: the way to cite a sub-span of an excerpt.
    pub fn cite(&self, path: &str, revision: &str, start: u32, end: u32) -> Option<EvidenceRef> {
        let text = cited_text(self, path, revision, start, end)?;
        Some(EvidenceRef::for_text(path, revision, start, text))
    }

    /// [`crate::verify`] as a method.
    pub fn verify<'p>(&'p self, r: &EvidenceRef) -> Result<&'p str, VerifyError> {
        verify(self, r)
    }
}

/// The resolved locator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocatorRecord {
    /// The work tree's root, as git reports it.
    pub repo_root: String,
    /// `"revisions"` or `"worktree"`.
    pub mode: String,
    /// The base: the requested name and the commit it resolved to (in worktree mode `HEAD`, or
    /// git's empty tree in a repository without commits).
    pub base: ResolvedRevision,
    /// The head (revisions mode only).
    pub head: Option<ResolvedRevision>,
    /// The revision that refs to the new side carry: the head commit id, or `"worktree"`.
    pub revision: String,
    /// The task text, redacted (absent when not given or not within budget).
    pub task: Option<String>,
    /// The locate rule that chose these changes, as the host gave it (redacted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub located: Option<crate::request::Located>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedRevision {
    pub requested: String,
    pub commit: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    Added,
    Modified,
    Deleted,
    Renamed,
    Copied,
    TypeChanged,
    Unmerged,
    /// Not tracked and not ignored (worktree mode).
    Untracked,
    Unknown,
}

/// What kind of tree entry the new (or, when deleted, old) side is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    File,
    Symlink,
    Submodule,
}

/// One changed file (level 1), with the symbols level 2 found in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedFile {
    pub path: String,
    /// The source of a rename or copy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    pub status: FileStatus,
    /// Rename/copy similarity, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<u8>,
    pub entry: EntryKind,
    /// Lines added/removed; `None` when not counted (binary, sensitive, too large, not a file).
    pub added: Option<u64>,
    pub removed: Option<u64>,
    pub binary: bool,
    /// A sensitive path: listed by name only, never read.
    pub sensitive: bool,
    /// Why content is missing, e.g. `"sensitive path, not read"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Changed line ranges (`git diff -U0`), old and new side.
    pub hunks: Vec<Hunk>,
    /// Symbols defined on changed lines or enclosing them (level 2).
    pub symbols: Vec<String>,
}

/// A `@@ -old_start,old_lines +new_start,new_lines @@` hunk with no context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hunk {
    pub old_start: u32,
    pub old_lines: u32,
    pub new_start: u32,
    pub new_lines: u32,
}

/// A 1-based inclusive line range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LineSpan {
    pub start: u32,
    pub end: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExcerptReason {
    /// Around changed lines of a modified, renamed or copied file.
    ChangedLines,
    /// A new file (added or untracked): its beginning.
    AddedFile,
    /// A deleted file, at the base revision.
    DeletedFile,
    /// A file of the consented slice (level 4).
    ConsentSlice,
}

/// A contiguous run of lines with its citation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excerpt {
    pub evidence: EvidenceRef,
    pub level: Level,
    pub reason: ExcerptReason,
    /// The lines, each with its terminator, redacted.
    pub text: String,
    /// Changed (added or modified) lines inside the excerpt.
    pub changed: Vec<LineSpan>,
    /// Symbols defined in, or enclosing, the excerpt's changed lines.
    pub symbols: Vec<String>,
    /// Cut short by the per-file line cap or the budget (see the budget report's omissions).
    pub truncated: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitKind {
    /// The line looks like the symbol's definition.
    Definition,
    /// Any other mention: a call, an import, a use.
    Reference,
}

/// One matching line (level 3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchHit {
    pub evidence: EvidenceRef,
    pub symbol: String,
    pub kind: HitKind,
    /// The line with its terminator, redacted.
    pub text: String,
}

/// Level 3's queries and results.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchRecord {
    /// The symbols searched for, in priority order.
    pub symbols: Vec<String>,
    pub hits: Vec<SearchHit>,
    /// Files read and searched.
    pub files_scanned: u64,
    /// Lines that matched, kept or not.
    pub lines_matched: u64,
}

/// Level 4's request and outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SliceRecord {
    pub requested: bool,
    pub consent: bool,
    pub paths: Vec<String>,
    pub reason: Option<String>,
    pub files_included: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LevelStatus {
    /// Ran to the end.
    Complete,
    /// Stopped by a limit (see `stopped_by`); what it added is in the pack.
    Partial,
    /// Not run because a limit was already exhausted (`stopped_by`) or consent was missing.
    Skipped,
    /// Above the request's `max_level`, or nothing to do.
    NotRequested,
}

/// What one level did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelRecord {
    pub level: Level,
    pub status: LevelStatus,
    pub stopped_by: Option<Limit>,
    pub detail: Option<String>,
    /// Items added (file records, excerpts, hits, slice excerpts).
    pub items: u64,
    pub bytes: u64,
    pub tokens: u64,
    pub elapsed_ms: u64,
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
fn cited_text<'p>(pack: &'p EvidencePack, path: &str, revision: &str, start: u32, end: u32) -> Option<&'p str> {
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
