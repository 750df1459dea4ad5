//! The inputs of the public operations (ARCHITECTURE §4): [`StartRequest`], [`SubmitRequest`],
//! [`AnswerRequest`], [`CancelRequest`] and [`ResumeRequest`], as serde types, so the CLI and the
//! MCP tools decode the same shapes with the same defaults.
//!
//! Not for: running the operations (`runtime/mod.rs`) or validating an input against a session
//! (`decide.rs` and the reducer).

use dossier_evidence::ImplementationLocator;
use serde::{Deserialize, Serialize};

use crate::decide::{Answer, SubmitOutcome};
use crate::event::{Actor, CancelReason, Invocation, StartOptions};

fn default_true() -> bool {
    true
}

fn default_user() -> Actor {
    Actor::User
}

fn default_cancel_reason() -> CancelReason {
    CancelReason::UserCancelled
}

/// `start`: a new session for an implementation (§4 `StartSessionInput`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    /// Idempotency key: the same id again returns the same session.
    pub operation_id: String,
    /// A caller-chosen id (`lrn_<ulid>`), e.g. to name the log file first; generated otherwise.
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub invocation: Invocation,
    pub locator: ImplementationLocator,
    /// The implementation is finished (§10: only finished work is eligible).
    #[serde(default = "default_true")]
    pub completed: bool,
    #[serde(default)]
    pub options: StartOptions,
    /// `user` for a manual start, `host` for an automatic one.
    #[serde(default = "default_user")]
    pub actor: Actor,
}

/// `submit`: the agent's result for a work order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmitRequest {
    pub session_id: String,
    pub operation_id: String,
    /// The work order's `id`.
    pub checkpoint: String,
    #[serde(flatten)]
    pub outcome: SubmitOutcome,
}

/// `answer`: the user's input at a gate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerRequest {
    pub session_id: String,
    pub operation_id: String,
    /// The gate's checkpoint (from the step's `next`).
    pub checkpoint: String,
    #[serde(flatten)]
    pub answer: Answer,
}

/// `cancel`: stop a session in any non-terminal state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CancelRequest {
    pub session_id: String,
    pub operation_id: String,
    #[serde(default = "default_cancel_reason")]
    pub reason: CancelReason,
    #[serde(default)]
    pub note: Option<String>,
    #[serde(default = "default_user")]
    pub actor: Actor,
}

/// `resume`: reconnect to a session, finishing a step a crash interrupted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResumeRequest {
    pub session_id: String,
    /// The last sequence the caller saw: later events are returned. `None`: only the events the
    /// resume itself recorded.
    #[serde(default)]
    pub after_sequence: Option<u64>,
}
