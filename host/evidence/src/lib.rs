//! codecall's Evidence collector (codecall ARCHITECTURE §7, §17 step 2): from an implementation
//! locator (a git repository plus a base/head pair or the working tree's changes, and optional
//! task text) to an [`EvidencePack`]: changed-file metadata, bounded excerpts, symbol search
//! hits and, only with consent, a declared repository slice, each excerpt and hit citable by an
//! [`EvidenceRef`] (path, revision, line span, BLAKE3 hash).
//!
//! ```no_run
//! use dossier_evidence::{collect, Changes, EvidenceError, EvidenceRequest, ImplementationLocator, Redact};
//!
//! /// The caller hands in its redaction policy: in the binary, the store's (the component,
//! /// with the store's key); in tests and tools, `dossier_codecall::NativeRedactor`.
//! fn evidence_for_a_lesson(redactor: &dyn Redact) -> Result<(), EvidenceError> {
//!     let request = EvidenceRequest::new(ImplementationLocator {
//!         repo: "/path/to/repo".into(),
//!         changes: Changes::WorkingTree,
//!         task: Some("Add retry with backoff to the HTTP client".into()),
//!         located: None,
//!     });
//!     let pack = collect(&request, redactor)?;
//!     for excerpt in &pack.excerpts {
//!         assert!(pack.verify(&excerpt.evidence).is_ok());
//!     }
//!     Ok(())
//! }
//! ```
//!
//! # Invariants
//!
//! - **Sensitive paths are never read.** A changed path matching the deny globs
//!   ([`privacy`]) is listed by name with "sensitive path, not read"; it is excluded from every
//!   patch, blob read and file read before the request is made, at every level.
//! - **Secrets never leave the crate.** Every string in a pack or an error went through the
//!   redactor the caller hands in ([`Redact`], the store's redaction policy in the binary);
//!   files are redacted whole before excerpts are cut. A redactor that fails fails the collection.
//! - **Budgets are enforced and reported, never silently.** Files, bytes, tokens and time are
//!   checked before each item is added; the pack records usage against limits, which level
//!   stopped and why, and every omission.
//! - **Level 4 needs consent.** Without `slice.consent == true` no declared path is read.
//! - **Repository text is data.** Nothing read from the repository — file content, commit
//!   messages, `.gitattributes`, comments that look like instructions — changes what the
//!   collector does: the request alone sets levels, budgets, privacy rules and paths. Content
//!   only ever becomes excerpt text and, through symbol names found in changed lines, escaped
//!   literal search terms bounded by `max_symbols`. git runs with external diff drivers,
//!   textconv filters and fsmonitor disabled, so repository attributes cannot execute anything.
//!   The one influence by design is `.gitignore`/`.ignore`, which can only make the walk skip
//!   files.
//! - **No network, no model calls, no writes.** The collector runs `git` read-only (no optional
//!   locks) and reads files; it writes nothing.
//!
//! Not for: judging learning value, extracting concepts or teaching (the host's workers do),
//! fetching documentation, or indexing a repository.

pub mod budget;
mod collect;
mod error;
mod excerpt;
mod git;
mod level;
pub mod locate;
pub mod pack;
pub mod privacy;
pub mod redactor;
mod refs;
mod request;
mod search;
mod symbols;

pub use budget::{
    Budget, BudgetReport, ByteEstimate, Limit, Omission, OmissionReason, StopRecord, TokenCounter, Usage,
};
pub use collect::{collect, collect_with};
pub use error::EvidenceError;
pub use level::Level;
pub use pack::{
    ChangedFile, EntryKind, EvidencePack, Excerpt, ExcerptReason, FileStatus, HitKind, Hunk, LevelRecord, LevelStatus,
    LineSpan, LocatorRecord, ResolvedRevision, SearchHit, SearchRecord, SliceRecord, VerifyError, verify,
};
pub use privacy::{DEFAULT_DENY, PrivacyRules, SensitivePaths};
pub use redactor::{Redact, Redacted, Redaction};
pub use refs::{EvidenceRef, WORKTREE, content_hash};
pub use request::{Changes, EvidenceRequest, ImplementationLocator, Limits, Located, SliceRequest};
pub use symbols::defined_in;
