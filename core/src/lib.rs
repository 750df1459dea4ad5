//! `dossier-core`: Dossier's deterministic policy.
//!
//! What this crate is for: the decisions that must be reproducible and swappable —
//! priority scoring and ordering (SPEC §11.1), suggestion ranking (§11.2), merge with
//! conflict detection (§8.7), distillation validation (§4.2, §10), codecall's learning
//! policy, secret redaction (issue 20) and the lexical engine search and suggestion ranking share
//! (issue 22).
//! It is plain Rust, tested natively, and compiled to a `wasm32-wasip2` component that
//! implements the `dossier:policy` WIT package (`wit/` at the repository root). The host
//! embeds that component and calls it through wasmtime.
//!
//! What it is not for: any I/O. No files, clock, environment, network or randomness:
//! everything a policy needs (documents, `now`, weights) is an argument. The host grants
//! the component no capabilities, so a policy that tried would trap.

pub mod distill;
mod hash;
pub mod learning;
pub mod lexical;
pub mod maps;
pub mod merge;
pub mod priority;
pub mod ranking;
pub mod redact;

#[cfg(target_arch = "wasm32")]
mod component;
