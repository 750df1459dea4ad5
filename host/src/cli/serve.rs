//! The long-running front ends the CLI starts: `dossier tui` (interactive, no `--json`) and
//! `dossier mcp` (the MCP server over stdio, unless the plugin's server must stand down).
//!
//! Not for: the TUI or the MCP server themselves (`crate::tui`, `crate::mcp`), or hooks
//! (`cli::run` hands those to `crate::hooks` before dispatch).

use serde_json::json;

use dossier_store::error::{Code, DossierError, Result};

use super::plugin::plugin_mcp_stands_down;
use super::render::Output;

/// `dossier tui`.
pub(super) fn cmd_tui(session: Option<&str>, json: bool) -> Result<Output> {
    if json {
        return Err(DossierError::new(Code::InvalidInput, "`dossier tui` is interactive and has no --json form")
            .with_details(serde_json::json!({ "parameter": "--json", "expected": "no --json for `dossier tui`" }))
            .with_next("dossier ls --json"));
    }
    crate::tui::run(session)?;
    Ok(Output::new(json!({}), String::new()))
}

/// `dossier mcp`: serves until stdin closes, then exits the process.
pub(super) fn cmd_mcp() -> Result<Output> {
    plugin_mcp_stands_down()?;
    crate::policy::use_pooled_instances();
    crate::mcp::serve(crate::app::open()?)?;
    std::process::exit(0)
}
