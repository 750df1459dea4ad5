//! The single Save path (SPEC §8.4, §11.5, §12.1): every mutation of a Dossier — creation,
//! field edits, Distilled State saves, archive — from the CLI now and from MCP, hooks and
//! merge later, goes through [`create`] or [`save`].
//!
//! Order of a save: validate everything (a rejected input writes nothing) → take the
//! Dossier's lock → read the current revision → read and check the artifacts → redact
//! everything the save writes, once, through `crate::redact` (Distilled State, free-text
//! fields, artifact contents and metadata; the counts per kind go to the outcome and the audit
//! line) → compare with `base_revision` → write new artifacts atomically → write `dossier.md`
//! atomically → append one audit line. `redact_stored` (`dossier redact`) rewrites what a
//! Dossier already holds the same way.
//!
//! Concurrency (SPEC §11.5): if the current revision is not the caller's base, and the
//! request only changes frontmatter fields that nobody changed since the base (known from
//! the audit log), the edit is auto-merged and audited; a new Distilled State auto-merges
//! too when the audit log accounts for every write since the base and none of them changed
//! the body. Otherwise the proposal is written to `conflicts/<conf-id>.md`,
//! `conflict_created` is audited, and `concurrent_edit` is returned. The Distilled State is
//! never last-write-wins.
//!
//! A save that would change nothing (same state, fields at their values, no artifacts)
//! writes nothing, audits nothing and returns the current revision with a warning.
//!
//! Not for: deciding what goes in a Distilled State (the agent, guided by the guide) or
//! validating its content beyond structure (the distill policy).

mod artifacts;
mod conflict_file;
mod create;
mod edit;
mod merge;
mod redact;
mod request;
mod revision;

pub use artifacts::artifact_too_large;
pub use conflict_file::{mark_conflict_resolved, open_conflict_count, split_conflict};
pub use create::create;
pub use edit::save;
pub use merge::{
    Flagged, MERGED_FROM, MERGED_INTO, MergeDecision, MergeOutcome, MergeWritten, Reviewed, conflict_kind_name, merge,
    resolution_json,
};
pub use redact::{RedactOutcome, redact_stored};
pub use request::{
    ArtifactContent, CreateRequest, FrontmatterUpdates, MAX_ARTIFACT_BYTES, NewArtifact, SaveOutcome, SaveRequest,
};
pub use revision::{DossierLock, event, lock_dossier, revision, revision_from};
