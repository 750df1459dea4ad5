//! The runtime's errors: a stable code (the same string in CLI JSON and MCP envelopes), a message
//! that says what to do next, and — for a rejected worker result — the exact validation errors.
//!
//! [`ValidationError`] lives here, below `event.rs` and `validate.rs`, because both the
//! `OPERATION_FAILED` event and a call's error carry it; `validate.rs` re-exports it.
//!
//! Not for: failures that are part of a session's history (a collector error, a rejected result):
//! those are events (`OPERATION_FAILED`); an error here is what the *call* returns.

use serde::{Deserialize, Serialize};

use crate::contract::SessionState;

/// Stable error codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request itself is malformed (empty operation id, unknown unit, unknown choice, ...).
    InvalidRequest,
    /// The agent's worker result failed validation; it was recorded as a rejection only.
    InvalidWorkerResult,
    /// The request is not something the session accepts in its current state.
    IllegalTransition,
    /// No session with this id in the log.
    UnknownSession,
    /// The request names a work order, question or gate that is no longer pending.
    StaleOperation,
    /// The operation id was already used with a different input.
    OperationConflict,
    /// The session is completed, cancelled or failed.
    SessionEnded,
    /// Accepting a recommendation whose plan has no units.
    NothingToTeach,
    /// The learning policy failed (not the caller's fault).
    PolicyError,
    /// Reading or writing the event log failed.
    LogError,
    /// The log contains events the reducer refuses (a gap, an illegal sequence).
    CorruptLog,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::InvalidWorkerResult => "invalid_worker_result",
            ErrorCode::IllegalTransition => "illegal_transition",
            ErrorCode::UnknownSession => "unknown_session",
            ErrorCode::StaleOperation => "stale_operation",
            ErrorCode::OperationConflict => "operation_conflict",
            ErrorCode::SessionEnded => "session_ended",
            ErrorCode::NothingToTeach => "nothing_to_teach",
            ErrorCode::PolicyError => "policy_error",
            ErrorCode::LogError => "log_error",
            ErrorCode::CorruptLog => "corrupt_log",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a public operation returns on failure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct RuntimeError {
    pub code: ErrorCode,
    /// What went wrong and what to do next.
    pub message: String,
    /// For `invalid_worker_result`: every rule the result broke.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ValidationError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<SessionState>,
    /// The checkpoint to use next (the work order to resubmit, the gate to answer), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
}

impl RuntimeError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        RuntimeError {
            code,
            message: message.into(),
            errors: Vec::new(),
            session_id: None,
            state: None,
            checkpoint: None,
        }
    }

    pub fn in_session(mut self, id: &str, state: SessionState, checkpoint: Option<&str>) -> Self {
        self.session_id = Some(id.to_string());
        self.state = Some(state);
        self.checkpoint = checkpoint.map(str::to_string);
        self
    }

    pub fn invalid_request(message: impl Into<String>) -> Self {
        RuntimeError::new(ErrorCode::InvalidRequest, message)
    }

    pub fn log(what: &str, path: &std::path::Path, e: std::io::Error) -> Self {
        RuntimeError::new(
            ErrorCode::LogError,
            format!("could not {what} the event log {}: {e}; check the path and its permissions", path.display()),
        )
    }
}

pub type Result<T, E = RuntimeError> = std::result::Result<T, E>;

/// One reason a worker result was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationError {
    /// A stable code, e.g. `evidence_hash_mismatch`, `missing-rationale`.
    pub code: String,
    /// Where, as a JSON path into the result (`concepts[1].evidence[0]`); empty for the whole.
    pub path: String,
    pub message: String,
}

impl ValidationError {
    pub fn new(code: &str, path: impl Into<String>, message: impl Into<String>) -> Self {
        ValidationError { code: code.to_string(), path: path.into(), message: message.into() }
    }
}

impl std::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.code, self.message)
        } else {
            write!(f, "{} at {}: {}", self.code, self.path, self.message)
        }
    }
}
