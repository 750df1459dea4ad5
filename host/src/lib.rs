//! `dossier`, the binary: the adapters over the Dossier store and codecall — the CLI (`cli`),
//! the MCP server (`mcp`), the Claude Code hooks (`hooks`), the TUI (`tui`) — the operation
//! layer they share (`ops`), Claude Code's registration and inspection (`claude_code`), and the
//! wasm policy runtime (`policy`).
//!
//! Not for: the Dossier domain and its files (`dossier_store`), codecall's session runtime
//! (`dossier_codecall`), evidence collection (`dossier_evidence`), or any policy rule
//! (`dossier_core`, run inside the component).
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
pub mod mcp;
pub mod ops;
pub mod policy;
pub mod progress;
pub mod term;
pub mod tui;
