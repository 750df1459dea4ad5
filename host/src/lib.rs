//! The `dossier` host: every side effect of the product (files, CLI, and later MCP over
//! stdio and Claude Code hooks) and the embedding of the policy component.
//!
//! Code map and invariants: `docs/ARCHITECTURE.md`.

pub mod app;
pub mod archive;
pub mod audit;
pub mod claude_code;
/// The old path of [`claude_code`], kept only because `sessions.rs` (not this change's file)
/// still calls `crate::claude::inspect_current`; remove it with that call (issue 17).
#[doc(hidden)]
pub use claude_code as claude;
pub mod cli;
pub mod codecall;
pub mod complete;
pub mod config;
pub mod conflicts;
pub mod context;
pub mod distill;
pub mod doctor;
pub mod error;
pub mod files;
pub mod generate;
pub mod hooks;
pub mod ids;
pub mod init;
pub mod learning;
pub mod listing;
pub mod mcp;
pub mod merge;
pub mod model;
pub mod policy;
pub mod progress;
pub mod recall;
pub mod save;
pub mod search;
pub mod sessions;
pub mod store;
pub mod suggest;
pub mod term;
pub mod tokens;
pub mod tui;
