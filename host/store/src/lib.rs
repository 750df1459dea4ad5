//! `dossier-store`: the Dossier domain and its file store (SPEC §3–§5, §7, §8, §11, §12).
//!
//! What this crate is for: everything a Dossier *is* and every change to one — the data model
//! (`model`), ids and slugs (`ids`), atomic file writes (`files`), the store's layout and
//! discovery (`layout`), the single Save path (`save`), the audit log (`audit`), the Archive
//! (`archive`), recall (`recall`), search (`search`), the open-work list (`listing`),
//! suggestions (`suggest`), session bindings (`sessions`), merges and conflict files (`merge`,
//! `conflicts`), next steps as values for every surface (`next`), context files (`context`), token estimates (`tokens`) and `config.yaml`
//! (`config`). Files are the truth; there is no database.
//!
//! What it is not for: any adapter. No CLI, MCP, TUI, terminal or wasm runtime: it depends on
//! no clap, rmcp, ratatui, crossterm, indicatif or wasmtime (a test reads `cargo metadata` to
//! keep it so). Policy decisions reach it through [`policy::Policy`], what the agent harness
//! provides through [`harness::Harness`], progress through [`progress::Progress`]; the binary
//! (`host/src/`) implements all three.

pub mod app;
pub mod archive;
pub mod assets;
pub mod audit;
pub mod config;
pub mod conflicts;
pub mod context;
pub mod distill;
pub mod error;
pub mod files;
pub mod generate;
pub mod harness;
pub mod ids;
pub mod layout;
pub mod listing;
pub mod merge;
pub mod model;
pub mod next;
pub mod policy;
pub mod progress;
pub mod recall;
pub mod redact;
pub mod save;
pub mod search;
pub mod sessions;
pub mod suggest;
pub mod sync;
pub mod tokens;

pub use app::App;
pub use error::{Code, DossierError, Result};
pub use layout::Store;
