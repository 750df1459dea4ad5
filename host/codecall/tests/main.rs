//! dossier-codecall's one integration-test binary (one module per concern, as ripgrep, cargo and
//! jj do): the runtime driven through its public API over fixture repositories, by a scripted
//! agent and user.
//!
//! - `contracts`: every rejection rule at the worker boundary.
//! - `documentation`: documentation resolved before lessons, citation rules, replay without providers.
//! - `idempotency`: retried operation ids record nothing more.
//! - `redaction`: planted secrets appear in no output.
//! - `reducer`: the whole state machine, table-driven.
//! - `replay`: recorded logs re-derive to identical decisions.
//! - `resume_cancel`: crashes, torn logs, cancel in every state.
//! - `session`: full sessions from `start` to `completed`.
//! - `common`: fixtures, the scripted agent and user, helpers.

mod common;

mod contracts;
mod documentation;
mod idempotency;
mod redaction;
mod reducer;
mod replay;
mod resume_cancel;
mod session;
