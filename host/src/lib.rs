//! The `dossier` host: every side effect of the product (files, CLI, and later MCP over
//! stdio and Claude Code hooks) and the embedding of the policy component.
//!
//! Code map and invariants: `docs/ARCHITECTURE.md`.

pub mod app;
pub mod claude_code;
pub mod cli;
pub mod codecall;
pub mod complete;
pub mod doctor;
pub mod hooks;
pub mod init;
pub mod learning;
pub mod mcp;
pub mod ops;
pub mod policy;
pub mod progress;
pub mod term;
pub mod tui;

// The store's modules under their old paths, so the adapters' `crate::save`-style paths
// keep resolving while they move to `dossier_store::` (issue 17).
pub use dossier_store::layout as store;
pub use dossier_store::{
    archive, audit, config, conflicts, context, distill, error, files, generate, ids, listing, merge, model, recall,
    save, search, sessions, suggest, tokens,
};
