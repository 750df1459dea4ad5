//! `dossier-codecall`: codecall's session runtime (ARCHITECTURE §4–§12) — an event-sourced,
//! resumable orchestration of one post-implementation learning session, in which **the host agent
//! is the LLM** (DESIGN §3): wherever judgment is needed, the runtime returns a work order
//! (evidence, a versioned prompt template, the JSON Schema of the result) and validates what comes
//! back before anything of it is recorded; the deterministic learning policy decides every next
//! step.
//!
//! ```no_run
//! use dossier_codecall::{LogTarget, NativePolicy, NativeRedactor, Runtime, StartRequest, Next};
//! use dossier_evidence::{Changes, ImplementationLocator};
//!
//! // The product passes its component-backed policy and the store's redaction instead.
//! let (policy, redactor) = (NativePolicy, NativeRedactor);
//! let mut rt = Runtime::open(LogTarget::Directory("/tmp/learning".into()), &policy, &redactor)?;
//! let step = rt.start(StartRequest {
//!     operation_id: "op-1".into(),
//!     session_id: None,
//!     invocation: Default::default(),
//!     locator: ImplementationLocator { repo: ".".into(), changes: Changes::WorkingTree, task: None, located: None },
//!     completed: true,
//!     options: Default::default(),
//!     actor: dossier_codecall::Actor::User,
//! })?;
//! if let Next::WorkOrder(order) = &step.next {
//!     // hand `order` to the agent; it answers through `rt.submit(..)`
//! }
//! # Ok::<(), dossier_codecall::RuntimeError>(())
//! ```
//!
//! Code map:
//! - [`runtime`]: the public operations over a log (`start`, `submit`, `answer`, `cancel`,
//!   `resume`, `show`), idempotency, locking.
//! - [`decide`]: the one event each input causes, and the runtime's own steps.
//! - [`state`]: the §6 state machine and the reducer, the only code that changes a session.
//! - [`event`]: the §12 envelope and payloads. [`log`]: the JSONL log.
//! - [`contract`]: the §9 contracts with their JSON Schemas. [`validate`]: the boundary checks.
//! - [`work_order`], [`prompts`]: what the agent is asked. [`step`]: what callers get back.
//! - [`derive`]: signals and views derived from the evidence pack. [`summary`]: the summary.
//! - [`policy`]: the `LearningPolicy` trait and `NativePolicy`. [`source`]: evidence sources.
//! - [`docs`]: documentation for lessons (`DocumentationSource`, `LocalDocs`, over `dossier-docs`).
//! - [`replay`]: re-deriving a log's decisions.
//!
//! Invariants:
//! - **One reducer.** Only [`Session::apply`] changes a session, and only after checking the
//!   event against the transition table and the pending item.
//! - **Append, then apply.** An event is in the log before it is in memory; nothing is ever
//!   rewritten.
//! - **A rejected input records at most its rejection.** An invalid worker result becomes one
//!   `OPERATION_FAILED` event with the exact errors, and nothing of its content.
//! - **Retries are free.** The same operation id returns what it recorded the first time.
//! - **Nothing leaves unredacted.** Repository text is redacted by the collector; task text,
//!   worker results and notes by the runtime, before any event is built — both with the
//!   redactor the runtime is handed (the store's redaction policy in the product); one that
//!   fails fails the operation.
//! - **No model calls; no network of its own.** The agent does the judging; the runtime only
//!   validates. Documentation comes from an injected source: offline by default; a host's
//!   network provider is asked only for a session recorded as not `offline`.
//!
//! Not for: transport (the host's CLI, MCP tools and hooks), the policy's rules
//! (`dossier-core`), reading repositories (`dossier-evidence`), or finding documentation
//! (`dossier-docs`; deciding whether a session may use the network is the host's).

pub mod contract;
pub mod decide;
pub mod derive;
pub mod docs;
pub mod error;
pub mod event;
pub mod log;
pub mod policy;
pub mod prompts;
pub mod replay;
pub mod runtime;
pub mod source;
pub mod state;
pub mod step;
pub mod summary;
pub mod validate;
pub mod work_order;

pub use contract::CONTRACT_VERSION;
pub use decide::{Answer, SubmitOutcome};
pub use error::{ErrorCode, RuntimeError};
pub use event::{Actor, CancelReason, Event, EventBody, EventKind, Invocation, RecoveryCause, StartOptions};
pub use log::{LogIssue, LogTarget};
pub use policy::{ItemFinding, LearningPolicy, NativePolicy, NativeRedactor, PolicyFailure};
pub use replay::{ReplayReport, replay, replay_events};
pub use runtime::{
    AnswerRequest, CancelRequest, Clock, ResumeRequest, Runtime, StartRequest, SubmitRequest, SystemClock,
    new_session_id, valid_session_id,
};
pub use source::{CollectFailure, EvidenceSource, GitEvidence};
pub use state::{Pending, Session, SessionState};
pub use step::{Feedback, Next, Step};
pub use validate::ValidationError;
pub use work_order::WorkOrder;
