//! The error vocabulary shared by the CLI, and later the MCP tools and hooks: the SPEC's
//! error codes (§8.2) plus a few documented host codes, a message that says what happened
//! and what to do next, optional structured details, and a stable process exit code.
//!
//! Not for: deciding whether something is an error — callers do that.

use serde::Serialize;
use serde_json::Value;

use crate::next::{Next, Surface};

/// Error codes. The first ten are the SPEC's (§8.2); the rest are host codes and codecall's
/// runtime codes, documented in `docs/cli.md`. Serialized in snake_case, identical in CLI `--json` and MCP envelopes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    NotFound,
    AmbiguousTarget,
    ConflictDetected,
    InvalidFrontmatter,
    ArtifactTooLarge,
    BinaryArtifactUnsupported,
    TranscriptUnavailable,
    OverTokenTarget,
    ConcurrentEdit,
    HarnessCapabilityUnavailable,
    /// `config.yaml` does not parse or names something invalid.
    InvalidConfig,
    /// A policy component failed to load or run (names the component and cause).
    PolicyUnavailable,
    /// The store does not exist or is not usable.
    StoreUnavailable,
    /// An argument is malformed.
    InvalidInput,
    /// A file-system operation failed.
    Io,
    // codecall's runtime codes, passed through verbatim (docs/codecall-runtime.md).
    /// A codecall request is malformed (empty operation id, unknown unit or choice, ...).
    InvalidRequest,
    /// The agent's worker result failed validation (`details.errors` lists every rule broken).
    InvalidWorkerResult,
    /// The codecall session does not accept this request in its current state.
    IllegalTransition,
    /// No codecall session with this id in the log.
    UnknownSession,
    /// The checkpoint named is no longer pending.
    StaleOperation,
    /// An operation id reused with a different request (or `start` on an existing session id).
    OperationConflict,
    /// The codecall session is completed, cancelled or failed.
    SessionEnded,
    /// Accepting a recommendation whose plan has no units.
    NothingToTeach,
    /// The learning policy failed or answered out of contract; the session is unchanged.
    PolicyError,
    /// The codecall event log cannot be read or written.
    LogError,
    /// The codecall event log has an event the reducer refuses.
    CorruptLog,
    /// A codecall session could not collect its evidence (unknown revision, not a repository,
    /// git missing or failing): the session failed at its start.
    UnavailableSource,
    // `dossier sync` (docs/sync.md).
    /// `git` is missing or older than sync needs.
    GitUnavailable,
    /// The sync remote could not be reached (network, authentication, URL).
    RemoteUnavailable,
    /// The sync remote refused the push, or kept moving past the retries.
    PushRejected,
    /// Another `dossier sync` holds the store's sync lock.
    SyncBusy,
    /// `dossier sync init` found secrets stored in plain text.
    SecretsInStore,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::NotFound => "not_found",
            Code::AmbiguousTarget => "ambiguous_target",
            Code::ConflictDetected => "conflict_detected",
            Code::InvalidFrontmatter => "invalid_frontmatter",
            Code::ArtifactTooLarge => "artifact_too_large",
            Code::BinaryArtifactUnsupported => "binary_artifact_unsupported",
            Code::TranscriptUnavailable => "transcript_unavailable",
            Code::OverTokenTarget => "over_token_target",
            Code::ConcurrentEdit => "concurrent_edit",
            Code::HarnessCapabilityUnavailable => "harness_capability_unavailable",
            Code::InvalidConfig => "invalid_config",
            Code::PolicyUnavailable => "policy_unavailable",
            Code::StoreUnavailable => "store_unavailable",
            Code::InvalidInput => "invalid_input",
            Code::Io => "io_error",
            Code::InvalidRequest => "invalid_request",
            Code::InvalidWorkerResult => "invalid_worker_result",
            Code::IllegalTransition => "illegal_transition",
            Code::UnknownSession => "unknown_session",
            Code::StaleOperation => "stale_operation",
            Code::OperationConflict => "operation_conflict",
            Code::SessionEnded => "session_ended",
            Code::NothingToTeach => "nothing_to_teach",
            Code::PolicyError => "policy_error",
            Code::LogError => "log_error",
            Code::CorruptLog => "corrupt_log",
            Code::UnavailableSource => "unavailable_source",
            Code::GitUnavailable => "git_unavailable",
            Code::RemoteUnavailable => "remote_unavailable",
            Code::PushRejected => "push_rejected",
            Code::SyncBusy => "sync_busy",
            Code::SecretsInStore => "secrets_in_store",
        }
    }

    /// The process exit code for this error (documented in `docs/cli.md`).
    pub fn exit_code(self) -> u8 {
        match self {
            Code::NotFound | Code::UnknownSession => 3,
            Code::AmbiguousTarget
            | Code::ConflictDetected
            | Code::ConcurrentEdit
            | Code::OperationConflict
            | Code::SecretsInStore => 4,
            Code::InvalidFrontmatter
            | Code::ArtifactTooLarge
            | Code::BinaryArtifactUnsupported
            | Code::InvalidConfig
            | Code::InvalidInput
            | Code::InvalidRequest
            | Code::InvalidWorkerResult => 5,
            Code::PolicyUnavailable | Code::PolicyError => 6,
            Code::StoreUnavailable => 7,
            Code::TranscriptUnavailable
            | Code::OverTokenTarget
            | Code::HarnessCapabilityUnavailable
            | Code::UnavailableSource
            | Code::GitUnavailable => 8,
            Code::IllegalTransition | Code::StaleOperation | Code::SessionEnded | Code::NothingToTeach => 9,
            Code::RemoteUnavailable => 10,
            Code::PushRejected => 11,
            Code::SyncBusy => 12,
            Code::CorruptLog => 65,
            Code::Io | Code::LogError => 74,
        }
    }
}

/// An error as the user and the agent see it.
#[derive(Clone, Debug, Serialize)]
pub struct DossierError {
    pub code: Code,
    pub message: String,
    /// Structured details (`null` when none). Boxed: an error travels in every `Result` of the
    /// store, and a `serde_json::Value` inline would make each of them large.
    #[serde(skip_serializing_if = "details_are_null")]
    pub details: Box<Value>,
    /// What to do next, rendered per surface ([`DossierError::next_actions`]).
    #[serde(skip)]
    pub next: Vec<Next>,
}

impl DossierError {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        DossierError { code, message: message.into(), details: Box::new(Value::Null), next: Vec::new() }
    }

    pub fn with_details(mut self, details: Value) -> Self {
        *self.details = details;
        self
    }

    /// Add a next step: a [`Next`] value, or a string for words that hold on every surface.
    pub fn with_next(mut self, action: impl Into<Next>) -> Self {
        self.next.push(action.into());
        self
    }

    /// The next steps in `surface`'s words.
    pub fn next_actions(&self, surface: Surface) -> Vec<String> {
        self.next.iter().map(|n| n.render(surface)).collect()
    }

    pub fn io(what: &str, path: &std::path::Path, err: std::io::Error) -> Self {
        DossierError::new(Code::Io, format!("could not {what} {}: {err}", path.display()))
    }
}

#[allow(clippy::borrowed_box)] // serde hands the field itself
fn details_are_null(details: &Box<Value>) -> bool {
    details.is_null()
}

impl std::fmt::Display for DossierError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for DossierError {}

pub type Result<T, E = DossierError> = std::result::Result<T, E>;
