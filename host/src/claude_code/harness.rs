//! Claude Code as the store's [`Harness`]: the capabilities a session binding records, read from
//! Claude Code's own config files, and the recorded report's warnings for the context library.
//!
//! Not for: inspecting or registering anything itself (`claude`), or what the store does with
//! the answers (`dossier_store::sessions`, `dossier_store::context`).

use dossier_store::config::Config;
use dossier_store::harness::Harness;
use dossier_store::sessions::Capabilities;

/// The harness this binary serves. Inside `dossier mcp` started by Claude Code the variable
/// `CLAUDE_CODE_SESSION_ID` is set (DESIGN §4) and the MCP tools evidently work.
pub struct ClaudeCode;

impl ClaudeCode {
    fn in_claude_code() -> bool {
        std::env::var_os("CLAUDE_CODE_SESSION_ID").is_some()
    }

    /// What the current user's Claude Code registration provides (read from its config
    /// files, see `claude::inspect`); nothing when HOME is unset.
    pub fn registered() -> Capabilities {
        match super::inspect::inspect_current() {
            Some(r) => Capabilities {
                mcp: r.mcp.available(),
                session_start_hook: r.session_start_hook.available(),
                session_end_hook: r.session_end_hook.available(),
                pre_compaction_hook: r.pre_compaction_hook.available(),
                transcript_capture: r.transcript_capture,
            },
            None => Capabilities::none(),
        }
    }

    /// Inside the MCP server the tools evidently work, whatever the files say.
    pub fn in_mcp_server() -> Capabilities {
        Capabilities { mcp: true, ..ClaudeCode::registered() }
    }
}

impl Harness for ClaudeCode {
    fn name(&self) -> &str {
        if ClaudeCode::in_claude_code() { "claude-code" } else { "cli" }
    }

    fn capabilities(&self) -> Capabilities {
        if ClaudeCode::in_claude_code() { ClaudeCode::in_mcp_server() } else { ClaudeCode::registered() }
    }

    fn recorded_warnings(&self, config: &Config) -> Vec<String> {
        super::inspect::record_warnings(config.harness.as_ref().and_then(|h| h.claude_code.as_ref()))
    }
}
