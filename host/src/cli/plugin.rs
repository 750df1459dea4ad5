//! `dossier plugin export`, and the rule that the plugin's MCP server stands down when
//! `dossier init`'s registration serves the session too.
//!
//! Not for: the plugin's files (`crate::claude_code::plugin`) or inspecting Claude Code (`crate::claude_code`).

use std::path::Path;

use crate::claude_code as claude;
use dossier_store::error::{Code, DossierError, Result};

use super::render::Output;

pub(super) fn cmd_plugin_export(dir: &Path, binary: bool) -> Result<Output> {
    let exe = if binary { Some(claude::running_binary()?) } else { None };
    let exported = claude::plugin::export(dir, exe.as_deref())?;
    let mut human = format!("Claude Code plugin written to {}\n", dir.display());
    for (path, outcome) in &exported.files {
        human.push_str(&format!("  {outcome:<10} {path}\n"));
    }
    if let Some(b) = &exported.binary {
        human.push_str(&format!("bin/dossier is a copy of {}.\n", b.display()));
    } else {
        human.push_str("bin/dossier runs the dossier installed on this machine (--binary bundles this one).\n");
    }
    let shown = dir.display();
    human.push_str(&format!(
        "Install: claude plugin marketplace add {shown} && claude plugin install dossier@dossier\n\
         One session: claude --plugin-dir {shown}\n\
         Use either the plugin or `dossier init`'s registration (remove it with `dossier init --remove`).\n"
    ));
    let mut out = Output::new(serde_json::to_value(&exported).expect("export serializes"), human);
    out.next_actions = vec![
        format!("claude plugin marketplace add {shown}"),
        format!("claude plugin install {}@{}", claude::plugin::PLUGIN_NAME, claude::plugin::MARKETPLACE_NAME),
    ];
    if claude::inspect_current().is_some_and(|r| r.init_registered()) {
        out.warnings.push(
            "dossier init's registration is present: remove it (`dossier init --remove`) before installing the plugin, \
             or Claude Code runs every hook twice."
                .to_string(),
        );
    }
    Ok(out)
}

/// The dossier plugin's MCP server does not start when `dossier init`'s is registered and
/// working too (the session gets one set of dossier tools; docs/plugin.md).
pub(super) fn plugin_mcp_stands_down() -> Result<()> {
    let Some(root) = claude::plugin::launched_from() else { return Ok(()) };
    let Some(paths) = claude::Paths::from_env() else { return Ok(()) };
    let registration = claude::inspect_with(&paths, Some(root));
    if !matches!(registration.mcp, claude::Capability::Available { .. }) {
        return Ok(());
    }
    Err(DossierError::new(
        Code::HarnessCapabilityUnavailable,
        format!(
            "the dossier plugin's MCP server stands down: dossier init registered mcpServers.dossier in {} too, and \
             that one serves this session. {}",
            paths.claude_json.display(),
            registration.double_registration().join(" ")
        ),
    ))
}
