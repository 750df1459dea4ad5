//! Where evidence comes from: the [`EvidenceSource`] trait the runtime collects through, and
//! [`GitEvidence`], the product's source (the `dossier-evidence` collector over a git repository).
//!
//! The trait exists so replay can answer a collection with the pack recorded in the log (no
//! repository access at all), and so tests can inject failures.
//!
//! Not for: building the request (the runtime does, from the recorded start options) or judging
//! the pack (`derive.rs`).

use dossier_evidence::{EvidenceError, EvidencePack, EvidenceRequest, Redact};

/// Why a collection produced no pack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectFailure {
    /// `git_not_found`, `not_a_repository`, `unknown_revision`, `invalid_request`,
    /// `git_failed`, `io`, `redaction_failed`.
    pub code: String,
    /// Redacted by the collector.
    pub message: String,
    /// A narrower retry may succeed (a git or I/O failure, not a missing repository).
    pub retryable: bool,
}

pub trait EvidenceSource {
    fn collect(&self, request: &EvidenceRequest) -> Result<EvidencePack, CollectFailure>;
}

/// `dossier_evidence::collect`: git, read-only, budgeted, redacted with `redactor` (the
/// runtime's).
#[derive(Clone, Copy)]
pub struct GitEvidence<'r> {
    pub redactor: &'r dyn Redact,
}

impl EvidenceSource for GitEvidence<'_> {
    fn collect(&self, request: &EvidenceRequest) -> Result<EvidencePack, CollectFailure> {
        dossier_evidence::collect(request, self.redactor).map_err(|e| classify(&e))
    }
}

/// The failure code and whether a narrower retry makes sense.
pub fn classify(e: &EvidenceError) -> CollectFailure {
    let (code, retryable) = match e {
        EvidenceError::GitNotFound { .. } => ("git_not_found", false),
        EvidenceError::NotARepository { .. } => ("not_a_repository", false),
        EvidenceError::UnknownRevision { .. } => ("unknown_revision", false),
        EvidenceError::InvalidRequest { .. } => ("invalid_request", false),
        EvidenceError::GitFailed { .. } => ("git_failed", true),
        EvidenceError::Io { .. } => ("io", true),
        EvidenceError::Redaction { .. } => ("redaction_failed", false),
    };
    CollectFailure { code: code.to_string(), message: e.to_string(), retryable }
}
