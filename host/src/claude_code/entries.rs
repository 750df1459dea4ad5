//! What dossier registers with Claude Code, and how it recognises its own entries: the MCP
//! server's name and `mcpServers` entry, the four lifecycle [`HookEvent`]s and their hook
//! commands (`<binary> hook <event>`), the entry shape a hook event's array holds, and the
//! `/codecall` command's text. `dossier init` (settings files) and the plugin (`plugin.rs`)
//! both build from these, so the two install paths cannot drift.
//!
//! Invariant: an entry is ours by its shape (a server running `… mcp`, a command
//! `[NAME=value ...] <path>/dossier… hook <event>`), never by position or by a marker key.
//!
//! Not for: reading or editing the files (`jsonc`, `register`), saying what is registered
//! (`inspect`), or handling hook events (`crate::hooks`).

use std::path::Path;

use serde::Serialize;
use serde_json::{Value, json};

use crate::claude_code::shell_words::{Word, shell_quote, shell_words};

/// The MCP server's name in `mcpServers` (tools appear as `mcp__dossier__…`).
pub const SERVER_NAME: &str = "dossier";

/// The hook events dossier registers, and the events `dossier hook` handles (one list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HookEvent {
    SessionStart,
    SessionEnd,
    PreCompact,
    Stop,
}

impl HookEvent {
    pub const ALL: [HookEvent; 4] =
        [HookEvent::SessionStart, HookEvent::SessionEnd, HookEvent::PreCompact, HookEvent::Stop];

    /// Claude Code's name (the key under `"hooks"` in settings.json).
    pub fn key(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "SessionStart",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::Stop => "Stop",
        }
    }

    /// The event `dossier hook <name>` names (the inverse of [`HookEvent::arg`]).
    pub fn parse(name: &str) -> Option<HookEvent> {
        HookEvent::ALL.into_iter().find(|e| e.arg() == name)
    }

    /// The argument of `dossier hook`.
    pub fn arg(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "session-start",
            HookEvent::SessionEnd => "session-end",
            HookEvent::PreCompact => "pre-compact",
            HookEvent::Stop => "stop",
        }
    }
}

/// The hook command registered for `event`: `<binary> hook <event>`, the binary quoted for
/// the shell when it needs it.
pub fn hook_command(binary: &Path, event: HookEvent) -> String {
    hook_line(&shell_quote(&binary.to_string_lossy()), event)
}

/// `<binary_word> hook <event>`, the binary already written as shell text (the plugin's
/// `"${CLAUDE_PLUGIN_ROOT}/bin/dossier"`, left for the shell to expand).
pub fn hook_line(binary_word: &str, event: HookEvent) -> String {
    format!("{binary_word} hook {}", event.arg())
}

/// The `mcpServers.dossier` entry registered for `binary`.
pub fn mcp_entry(binary: &Path) -> Value {
    json!({"type": "stdio", "command": binary.to_string_lossy(), "args": ["mcp"], "env": {}})
}

/// `mcpServers.dossier` is ours when it runs `… mcp`.
pub(crate) fn is_our_server(entry: &Value) -> bool {
    entry.get("args").and_then(Value::as_array).is_some_and(|a| a.len() == 1 && a[0] == "mcp")
}

/// One of our hook commands, taken apart.
#[derive(Debug, PartialEq)]
pub(crate) struct OurHook {
    /// The binary as the shell sees it (unquoted).
    pub binary: String,
    /// Byte span of the binary's word in the command.
    pub span: (usize, usize),
    /// The `dossier hook` argument (`session-start`, ...).
    pub event: String,
}

/// `[NAME=value ...] <path>/dossier… hook <event>` (nothing else) is ours.
pub(crate) fn our_hook(command: &str) -> Option<OurHook> {
    let words = shell_words(command)?;
    let is_assignment = |w: &str| {
        w.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    let rest: Vec<&Word> = words.iter().skip_while(|w| is_assignment(&w.text)).collect();
    let [binary, hook, event] = rest.as_slice() else { return None };
    let name = Path::new(&binary.text).file_name()?.to_str()?;
    let event_ok = !event.text.is_empty() && event.text.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    (name.starts_with("dossier") && hook.text == "hook" && event_ok).then(|| OurHook {
        binary: binary.text.clone(),
        span: (binary.start, binary.end),
        event: event.text.clone(),
    })
}

/// One entry of a hook event's array, as both settings.json and the plugin's hooks.json hold it.
pub fn hook_entry(command: &str) -> Value {
    json!({"matcher": "", "hooks": [{"type": "command", "command": command}]})
}

/// The `/codecall` slash command: `~/.claude/commands/codecall.md` as `dossier init` installs
/// it, the plugin's `commands/codecall.md` (shown as `/dossier:codecall`), and the body of the
/// MCP prompt `codecall`.
pub use dossier_store::assets::CODECALL_COMMAND;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_commands_are_recognised_by_shape() {
        let h = our_hook("/usr/local/bin/dossier hook session-start").unwrap();
        assert_eq!((h.binary.as_str(), h.event.as_str()), ("/usr/local/bin/dossier", "session-start"));
        let h = our_hook("'/home/a b/.local/bin/dossier' hook stop").unwrap();
        assert_eq!(h.binary, "/home/a b/.local/bin/dossier");
        assert_eq!(h.span, (0, 30));
        let h = our_hook("DOSSIER_HOME=/x \"/p/dossier-dev\" hook pre-compact").unwrap();
        assert_eq!((h.binary.as_str(), h.event.as_str()), ("/p/dossier-dev", "pre-compact"));
        assert!(our_hook("dossier hook").is_none());
        assert!(our_hook("/bin/other hook stop").is_none());
        assert!(our_hook("dossier hook stop && rm -rf x").is_none());
        assert!(our_hook("dossier mcp").is_none());
        assert!(our_hook("'unterminated hook stop").is_none());
    }

    #[test]
    fn binary_paths_are_quoted_only_when_needed() {
        assert_eq!(hook_command(Path::new("/a/dossier"), HookEvent::SessionEnd), "/a/dossier hook session-end");
        let cmd = hook_command(Path::new("/a b/it's/dossier"), HookEvent::Stop);
        assert_eq!(cmd, r"'/a b/it'\''s/dossier' hook stop");
        let h = our_hook(&cmd).unwrap();
        assert_eq!(h.binary, "/a b/it's/dossier");
        assert_eq!(h.span, (0, cmd.len() - " hook stop".len()));
    }
}
