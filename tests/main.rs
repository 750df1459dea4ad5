//! The `dossier` crate's integration tests, as one test binary (as ripgrep's tests/tests.rs,
//! cargo's testsuite and jj's runner do): one module per area, so the crate and wasmtime are
//! linked once. A test is named `<module>::<test>` (`cargo test -p dossier --test main --
//! cli::`). Shared helpers are the `dossier-test-support` crate (tests/support), named
//! `support` here.
//!
//! Every test runs in this one process alongside the others: none sets an environment
//! variable or the working directory of the process (what a `dossier` child needs is passed
//! to that child), each tmux server has its own socket (named by test and process id), and
//! the scripted API binds a free port.

/// The `dossier` binary under test (only an integration test knows its path: helpers in the
/// support crate are given it).
pub const DOSSIER: &str = env!("CARGO_BIN_EXE_dossier");

mod card;
mod claude_code;
mod claude_init;
mod cli;
mod codecall;
mod codecall_docs;
mod codecall_locate;
mod completions;
mod conformance;
mod fuzz;
mod hooks;
mod mcp;
mod merge;
mod plugin;
mod policy;
mod recall_search;
mod redaction;
mod redaction_eval;
mod search;
mod sessions;
mod snapshots;
mod store;
mod suggest;
mod sync;
mod sync_daemon;
mod sync_kill;
mod terminal;
mod tidy;
mod tui;
