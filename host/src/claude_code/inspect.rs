//! What is registered with Claude Code right now ([`inspect`]), per capability (SPEC §6): the
//! MCP server and the four hooks, by `dossier init` (in `~/.claude.json` and
//! `~/.claude/settings.json`) or by an installed or launching dossier plugin; the SPEC §13.1
//! report lines and the SPEC §6.1 visible-degradation warnings for whatever is missing, live
//! or from the record `dossier init` keeps in `config.yaml`.
//!
//! Invariant: reads files and spawns nothing, so hooks may call it.
//!
//! Not for: changing registrations (`register`), detecting Claude Code itself (`detect`), or
//! writing the record (`init`).

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use crate::claude_code::detect::{Detection, binary_exists};
use crate::claude_code::entries::{HookEvent, SERVER_NAME, is_our_server, our_hook};
use crate::claude_code::jsonc::{FileProblem, read_value};
use crate::claude_code::paths::Paths;
use crate::claude_code::plugin;
use dossier_store::config::ClaudeCodeRecord;

/// One capability's registration state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Capability {
    /// Registered where Claude Code reads it, running an existing binary.
    Available {
        command: String,
    },
    NotRegistered,
    /// Our entry is in a file Claude Code does not read for it (an older build wrote it).
    WrongFile {
        file: PathBuf,
    },
    /// Registered, but the binary it runs does not exist.
    MissingBinary {
        binary: String,
    },
    /// The file that would hold it does not parse.
    Unreadable {
        file: PathBuf,
    },
    /// Something that is not ours holds our name (`mcpServers.dossier` not running `dossier mcp`).
    Conflict {
        detail: String,
    },
    /// Not registered by `dossier init`, but the dossier plugin provides it.
    Plugin {
        /// `dossier@<marketplace>`, or the directory a `--plugin-dir` session loaded it from.
        plugin: String,
    },
}

impl Capability {
    pub fn available(&self) -> bool {
        matches!(self, Capability::Available { .. } | Capability::Plugin { .. })
    }

    /// An entry `dossier init` wrote is there (working or not).
    pub fn init_entry(&self) -> bool {
        matches!(self, Capability::Available { .. } | Capability::WrongFile { .. } | Capability::MissingBinary { .. })
    }

    /// For the report: "available", "not registered", ...
    pub fn describe(&self) -> String {
        match self {
            Capability::Available { .. } => "available".to_string(),
            Capability::Plugin { plugin } => format!("available (plugin {plugin})"),
            Capability::NotRegistered => "not registered".to_string(),
            Capability::WrongFile { file } => {
                format!("not registered (an entry is in {}, where Claude Code does not read it)", file.display())
            }
            Capability::MissingBinary { binary } => format!("broken ({binary} does not exist)"),
            Capability::Unreadable { file } => format!("unknown ({} does not parse)", file.display()),
            Capability::Conflict { detail } => format!("not registered ({detail})"),
        }
    }
}

/// What is registered right now, per capability (SPEC §6), plus problems with the files.
#[derive(Clone, Debug, Serialize)]
pub struct Registration {
    pub claude_json: PathBuf,
    pub settings_json: PathBuf,
    pub mcp: Capability,
    pub session_start_hook: Capability,
    pub session_end_hook: Capability,
    pub pre_compaction_hook: Capability,
    pub stop_hook: Capability,
    /// Transcripts are captured by the session-end and pre-compaction hooks.
    pub transcript_capture: bool,
    pub problems: Vec<FileProblem>,
    /// Every installation of the dossier plugin Claude Code records (any scope).
    pub plugin_installs: Vec<plugin::Install>,
    /// The dossier plugin directory that started this process (a hook or MCP server the
    /// plugin runs, e.g. under `claude --plugin-dir`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launched_by_plugin: Option<PathBuf>,
}

impl Registration {
    pub fn hook(&self, event: HookEvent) -> &Capability {
        match event {
            HookEvent::SessionStart => &self.session_start_hook,
            HookEvent::SessionEnd => &self.session_end_hook,
            HookEvent::PreCompact => &self.pre_compaction_hook,
            HookEvent::Stop => &self.stop_hook,
        }
    }

    /// What provides the capabilities `dossier init` did not register: a user-scope enabled
    /// plugin install, else the plugin that started this process.
    pub fn serving_plugin(&self) -> Option<String> {
        self.plugin_installs
            .iter()
            .find(|i| i.serves_everywhere())
            .map(|i| i.id.clone())
            .or_else(|| self.launched_by_plugin.as_ref().map(|p| p.display().to_string()))
    }

    /// Entries `dossier init` wrote exist (MCP server or any hook, working or not).
    pub fn init_registered(&self) -> bool {
        self.mcp.init_entry() || HookEvent::ALL.iter().any(|e| self.hook(*e).init_entry())
    }

    /// Both `dossier init`'s registration and the plugin are present: every hook would run
    /// twice and there would be two MCP servers. One warning per place it happens, each with
    /// how to keep one. (At run time init's registration serves and the plugin stands down.)
    pub fn double_registration(&self) -> Vec<String> {
        if !self.init_registered() {
            return Vec::new();
        }
        let init = "`dossier init`'s registration (~/.claude.json, ~/.claude/settings.json)";
        let mut w = Vec::new();
        for i in self.plugin_installs.iter().filter(|i| i.enabled) {
            let place = match &i.project {
                Some(p) => format!("in {}", p.display()),
                None => "everywhere".to_string(),
            };
            w.push(format!(
                "Dossier is registered twice with Claude Code {place}: by {init} and by the plugin {} ({} scope). \
                 dossier init's hooks and MCP server serve; the plugin's stand down. Keep one: `dossier init --remove` \
                 (keep the plugin) or `claude plugin uninstall {}{}` (keep dossier init's).",
                i.id,
                i.scope,
                i.id,
                if i.scope == "user" { String::new() } else { format!(" --scope {}", i.scope) }
            ));
        }
        if let Some(root) = &self.launched_by_plugin
            && w.is_empty()
        {
            w.push(format!(
                "Dossier is registered twice in this session: by {init} and by the plugin loaded from {}. dossier \
                 init's hooks and MCP server serve; the plugin's stand down. Keep one: `dossier init --remove` (keep \
                 the plugin) or stop loading the plugin (keep dossier init's).",
                root.display()
            ));
        }
        w
    }

    /// Everything registered and working.
    pub fn complete(&self) -> bool {
        self.mcp.available() && HookEvent::ALL.iter().all(|e| self.hook(*e).available())
    }

    /// The SPEC §13.1 report lines (each starts with "- "), after "Claude Code integration:".
    pub fn report_lines(&self, detection: Option<&Detection>) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(d) = detection {
            lines.push(format!("- {}", d.describe()));
        }
        for i in &self.plugin_installs {
            lines.push(format!("- Plugin: {}", i.describe()));
        }
        lines.push(format!("- MCP: {}", self.mcp.describe()));
        lines.push(format!("- Session-start hook: {}", self.session_start_hook.describe()));
        lines.push(format!("- Session-end hook: {}", self.session_end_hook.describe()));
        lines.push(format!("- Pre-compaction hook: {}", self.pre_compaction_hook.describe()));
        lines.push(format!(
            "- Transcript capture: {}",
            if self.transcript_capture {
                "available"
            } else {
                "unavailable (needs the session-end and pre-compaction hooks)"
            }
        ));
        lines
    }

    /// The visible-degradation warnings (SPEC §6.1) for whatever is missing; empty when
    /// everything is registered. Short: session start repeats them on every session.
    pub fn warnings(&self) -> Vec<String> {
        let mut w: Vec<String> = self.problems.iter().map(FileProblem::warning).collect();
        w.extend(self.double_registration());
        let fix = |c: &Capability| match c {
            Capability::WrongFile { .. } => " Run `dossier init` to move it.",
            Capability::MissingBinary { .. } => " Run `dossier init` again from the installed binary.",
            Capability::Unreadable { .. } | Capability::Conflict { .. } | Capability::Plugin { .. } => "",
            _ => " Run `dossier init` to register it.",
        };
        if !self.mcp.available() {
            w.push(format!(
                "The dossier MCP server is {}: the dossier_* tools are unavailable in Claude Code.{}",
                self.mcp.describe(),
                fix(&self.mcp)
            ));
        }
        if !self.session_start_hook.available() {
            w.push(format!(
                "The session-start hook is {}: open work is not surfaced when a session starts.{}",
                self.session_start_hook.describe(),
                fix(&self.session_start_hook)
            ));
        }
        if !(self.session_end_hook.available() && self.pre_compaction_hook.available()) {
            let missing =
                if !self.session_end_hook.available() { &self.session_end_hook } else { &self.pre_compaction_hook };
            w.push(format!(
                "Deterministic save backstops (session-end, pre-compaction hooks) are unavailable: save at boundaries \
                 yourself.{}",
                fix(missing).replace("register it", "register them")
            ));
        }
        if !self.transcript_capture {
            w.push("Transcript archive is unavailable in this session.".to_string());
        }
        if !self.stop_hook.available() {
            w.push(format!(
                "The Stop hook is {}: no save reminders during long sessions.{}",
                self.stop_hook.describe(),
                fix(&self.stop_hook)
            ));
        }
        w
    }

    /// The record `dossier init` keeps in `config.yaml`.
    pub fn record(&self, detection: &Detection, checked_at: String) -> ClaudeCodeRecord {
        ClaudeCodeRecord {
            detected: detection.detected,
            version: detection.version.clone(),
            mcp: self.mcp.available(),
            session_start_hook: self.session_start_hook.available(),
            session_end_hook: self.session_end_hook.available(),
            pre_compaction_hook: self.pre_compaction_hook.available(),
            stop_hook: self.stop_hook.available(),
            transcript_capture: self.transcript_capture,
            checked_at,
        }
    }
}

/// What is registered under `paths` right now, by `dossier init` or an installed plugin.
/// Reads files; spawns nothing.
pub fn inspect(paths: &Paths) -> Registration {
    inspect_with(paths, None)
}

/// [`inspect`], for a process the dossier plugin at `launched_by_plugin` started.
pub fn inspect_with(paths: &Paths, launched_by_plugin: Option<PathBuf>) -> Registration {
    let claude = read_value(&paths.claude_json);
    let settings = read_value(&paths.settings_json);
    let mut problems = Vec::new();
    for r in [&claude, &settings] {
        if let Err(p) = r {
            problems.push(p.clone());
        }
    }

    let mcp = match &claude {
        Err(p) => Capability::Unreadable { file: p.file.clone() },
        Ok(value) => match value.as_ref().and_then(|v| v.get("mcpServers")).and_then(|s| s.get(SERVER_NAME)) {
            Some(entry) if is_our_server(entry) => {
                let command = entry.get("command").and_then(Value::as_str).unwrap_or_default().to_string();
                if binary_exists(&command) {
                    Capability::Available { command }
                } else {
                    Capability::MissingBinary { binary: command }
                }
            }
            Some(_) => Capability::Conflict {
                detail: format!(
                    "mcpServers.{SERVER_NAME} in {} does not run `dossier mcp`",
                    paths.claude_json.display()
                ),
            },
            None => match &settings {
                Ok(Some(s)) if s.get("mcpServers").and_then(|m| m.get(SERVER_NAME)).is_some_and(is_our_server) => {
                    Capability::WrongFile { file: paths.settings_json.clone() }
                }
                _ => Capability::NotRegistered,
            },
        },
    };

    let hook = |event: HookEvent| -> Capability {
        let found = |v: &Option<Value>| -> Option<String> {
            let entries = v.as_ref()?.get("hooks")?.get(event.key())?.as_array()?;
            entries
                .iter()
                .filter_map(|e| e.get("hooks")?.as_array())
                .flatten()
                .filter_map(|h| h.get("command")?.as_str())
                .find(|c| our_hook(c).is_some_and(|h| h.event == event.arg()))
                .map(str::to_string)
        };
        match &settings {
            Err(p) => Capability::Unreadable { file: p.file.clone() },
            Ok(v) => match found(v) {
                Some(command) => {
                    let binary = our_hook(&command).map(|h| h.binary).unwrap_or_default();
                    if binary_exists(&binary) {
                        Capability::Available { command }
                    } else {
                        Capability::MissingBinary { binary }
                    }
                }
                None if claude.as_ref().is_ok_and(|c| found(c).is_some()) => {
                    Capability::WrongFile { file: paths.claude_json.clone() }
                }
                None => Capability::NotRegistered,
            },
        }
    };

    let mut r = Registration {
        claude_json: paths.claude_json.clone(),
        settings_json: paths.settings_json.clone(),
        mcp,
        session_start_hook: hook(HookEvent::SessionStart),
        session_end_hook: hook(HookEvent::SessionEnd),
        pre_compaction_hook: hook(HookEvent::PreCompact),
        stop_hook: hook(HookEvent::Stop),
        transcript_capture: false,
        problems,
        plugin_installs: plugin::installs(paths),
        launched_by_plugin,
    };
    // What init did not register, a serving plugin provides (a broken or misplaced init
    // entry stays visible: it is a double registration to clean up).
    if let Some(plugin) = r.serving_plugin() {
        for cap in [
            &mut r.mcp,
            &mut r.session_start_hook,
            &mut r.session_end_hook,
            &mut r.pre_compaction_hook,
            &mut r.stop_hook,
        ] {
            if matches!(cap, Capability::NotRegistered | Capability::Conflict { .. } | Capability::Unreadable { .. }) {
                *cap = Capability::Plugin { plugin: plugin.clone() };
            }
        }
    }
    r.transcript_capture = r.session_end_hook.available() && r.pre_compaction_hook.available();
    r
}

/// [`inspect`] for `$HOME` and this process (started by the dossier plugin or not); `None`
/// when HOME is unset.
pub fn inspect_current() -> Option<Registration> {
    Paths::from_env().map(|p| inspect_with(&p, plugin::launched_from()))
}

/// The SPEC §6.1 warnings for the current user's registration (what context files, session
/// start and bindings should repeat). HOME unset is itself a warning.
pub fn current_warnings() -> Vec<String> {
    match inspect_current() {
        Some(r) => r.warnings(),
        None => vec![
            "HOME is not set, so dossier cannot tell whether Claude Code's MCP server and hooks are \
                      registered."
                .to_string(),
        ],
    }
}

/// The SPEC §6.1 warnings for the state `dossier init` last recorded in `config.yaml`
/// (`config.harness.claude_code`): what SPEC §9.3 wants in `context/library.md`, without
/// reading Claude Code's files on every refresh. `None` (never recorded) is itself a warning.
pub fn record_warnings(record: Option<&ClaudeCodeRecord>) -> Vec<String> {
    let Some(r) = record else {
        return vec!["No Claude Code capability report is recorded yet: run `dossier init`.".to_string()];
    };
    let cap = |ok: bool| if ok { Capability::Available { command: String::new() } } else { Capability::NotRegistered };
    let registration = Registration {
        claude_json: PathBuf::new(),
        settings_json: PathBuf::new(),
        mcp: cap(r.mcp),
        session_start_hook: cap(r.session_start_hook),
        session_end_hook: cap(r.session_end_hook),
        pre_compaction_hook: cap(r.pre_compaction_hook),
        stop_hook: cap(r.stop_hook),
        transcript_capture: r.transcript_capture,
        problems: Vec::new(),
        plugin_installs: Vec::new(),
        launched_by_plugin: None,
    };
    registration.warnings()
}

#[cfg(test)]
mod tests {
    use std::fs;

    use serde_json::json;

    use super::*;
    use crate::claude_code::entries::mcp_entry;

    #[test]
    fn recorded_state_gives_the_same_warnings_as_a_live_inspection() {
        let dir = tempfile::tempdir().unwrap();
        let live = inspect(&Paths::new(dir.path()));
        let detection =
            Detection { detected: true, claude_dir: true, claude_json: false, executable: None, version: None };
        let record = live.record(&detection, "2026-11-30T07:23:00Z".into());
        assert_eq!(record_warnings(Some(&record)), live.warnings());
        let all = ClaudeCodeRecord {
            mcp: true,
            session_start_hook: true,
            session_end_hook: true,
            pre_compaction_hook: true,
            stop_hook: true,
            transcript_capture: true,
            ..record
        };
        assert!(record_warnings(Some(&all)).is_empty());
        assert!(record_warnings(None)[0].contains("run `dossier init`"));
    }

    #[test]
    fn a_plugin_provides_what_init_did_not_and_both_present_is_a_double_registration() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::new(dir.path());
        // `claude --plugin-dir`: only this process knows the plugin started it.
        let r = inspect_with(&paths, Some(dir.path().join("plugin")));
        assert!(r.complete() && r.warnings().is_empty(), "{:?}", r.warnings());
        assert!(matches!(&r.mcp, Capability::Plugin { plugin } if plugin.ends_with("plugin")));
        assert!(!inspect(&paths).complete());

        // Installed and enabled for the user, as `claude plugin install` records it.
        fs::create_dir_all(paths.claude_dir().join("plugins")).unwrap();
        fs::write(
            plugin::installed_plugins_file(&paths),
            r#"{"version": 2, "plugins": {"dossier@dossier": [{"scope": "user", "installPath": "/x"}]}}"#,
        )
        .unwrap();
        fs::write(&paths.settings_json, r#"{"enabledPlugins": {"dossier@dossier": true}}"#).unwrap();
        let r = inspect(&paths);
        assert_eq!(r.mcp, Capability::Plugin { plugin: "dossier@dossier".into() });
        assert!(r.complete() && r.transcript_capture && r.double_registration().is_empty());
        assert!(r.report_lines(None)[0].contains("Plugin: dossier@dossier (user scope, enabled)"));

        // dossier init's server too: a double registration, with both ways out.
        let exe = dir.path().join("dossier");
        fs::write(&exe, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
        }
        fs::write(&paths.claude_json, json!({"mcpServers": {"dossier": mcp_entry(&exe)}}).to_string()).unwrap();
        let r = inspect(&paths);
        assert!(matches!(r.mcp, Capability::Available { .. }), "init's entry serves");
        let w = r.double_registration();
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("dossier init --remove") && w[0].contains("claude plugin uninstall dossier@dossier"));
        assert_eq!(r.warnings()[0], w[0]);

        // Disabled: no longer serving, no longer double.
        fs::write(&paths.settings_json, r#"{"enabledPlugins": {"dossier@dossier": false}}"#).unwrap();
        let r = inspect(&paths);
        assert!(r.double_registration().is_empty());
        assert_eq!(r.session_start_hook, Capability::NotRegistered);
    }

    #[test]
    fn registration_warnings_name_what_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::new(dir.path());
        let r = inspect(&paths);
        assert!(!r.mcp.available() && !r.transcript_capture);
        let w = r.warnings().join("\n");
        for needle in ["MCP server is not registered", "session-start hook", "Transcript archive is unavailable"] {
            assert!(w.contains(needle), "{w}");
        }
        std::fs::write(&paths.claude_json, "{ nope").unwrap();
        let r = inspect(&paths);
        assert!(matches!(r.mcp, Capability::Unreadable { .. }));
        assert!(r.warnings()[0].contains(".claude.json does not parse"), "{:?}", r.warnings());
    }
}
