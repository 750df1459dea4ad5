//! The collector's typed failures: the reasons a request cannot produce an evidence pack at all.
//!
//! Running out of budget is not an error (the pack reports which level stopped and why); neither
//! is a sensitive, binary or oversized file (the pack lists it as withheld). An error here means
//! there is nothing trustworthy to return: no git, no repository, a revision that does not exist,
//! a request that contradicts itself, or git failing in a way the collector cannot interpret.
//!
//! Not for: verification failures of an [`EvidenceRef`](crate::EvidenceRef) against a pack; those
//! are [`VerifyError`](crate::VerifyError).

use std::path::PathBuf;

/// Why [`collect`](crate::collect) returned no pack.
///
/// Every message that can carry text from outside the crate (git's stderr, a requested revision
/// name) goes through the caller's redactor before `collect` returns it.
#[derive(Debug, thiserror::Error)]
pub enum EvidenceError {
    /// The `git` program could not be started (not installed, or not at the configured path).
    #[error("git is not available: could not run `{program}`: {reason}")]
    GitNotFound { program: PathBuf, reason: String },

    /// The repository path does not exist, is not a directory, is not inside a git work tree,
    /// or is a bare repository (the collector needs a work tree).
    #[error("not a git repository: {path}: {reason}")]
    NotARepository { path: PathBuf, reason: String },

    /// A base or head revision does not name a commit in the repository.
    #[error("unknown revision `{rev}`: it does not name a commit in this repository")]
    UnknownRevision { rev: String },

    /// The request is malformed: an empty or option-like revision, a slice path that is absolute
    /// or climbs out of the repository, an invalid privacy glob.
    #[error("invalid evidence request: {reason}")]
    InvalidRequest { reason: String },

    /// git ran and failed in a way the collector does not classify further.
    #[error("git {command} failed (exit {code}): {stderr}")]
    GitFailed { command: String, code: String, stderr: String },

    /// The redactor could not run: nothing is returned rather than text that may hold secrets.
    #[error("the redaction policy failed, so no evidence is returned: {reason}")]
    Redaction { reason: String },

    /// Reading git's output or a file in the work tree failed.
    #[error("I/O error on {what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
}

impl EvidenceError {
    pub(crate) fn invalid(reason: impl Into<String>) -> Self {
        EvidenceError::InvalidRequest { reason: reason.into() }
    }

    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        EvidenceError::Io { what: what.into(), source }
    }

    /// This error with every message that can carry outside text redacted (what `collect`
    /// returns: errors leave the crate only through it).
    pub(crate) fn redacted(self, redactor: &dyn crate::Redact) -> Self {
        let clean = |s: String| -> Result<String, String> { redactor.redact(&s).map(|r| r.text) };
        let out = match self {
            EvidenceError::GitNotFound { program, reason } => {
                clean(reason).map(|reason| EvidenceError::GitNotFound { program, reason })
            }
            EvidenceError::NotARepository { path, reason } => {
                clean(reason).map(|reason| EvidenceError::NotARepository { path, reason })
            }
            EvidenceError::UnknownRevision { rev } => clean(rev).map(|rev| EvidenceError::UnknownRevision { rev }),
            EvidenceError::InvalidRequest { reason } => {
                clean(reason).map(|reason| EvidenceError::InvalidRequest { reason })
            }
            EvidenceError::GitFailed { command, code, stderr } => clean(command)
                .and_then(|command| clean(stderr).map(|stderr| EvidenceError::GitFailed { command, code, stderr })),
            EvidenceError::Io { what, source } => clean(what).map(|what| EvidenceError::Io { what, source }),
            e @ EvidenceError::Redaction { .. } => return e,
        };
        out.unwrap_or_else(|reason| EvidenceError::Redaction { reason })
    }
}
