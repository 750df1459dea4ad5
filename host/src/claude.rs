//! Claude Code registration (SPEC §7.2, §13.1; verified facts in DESIGN.md §4): detect
//! Claude Code, register the `dossier` MCP server in `~/.claude.json` and the lifecycle hooks
//! in `~/.claude/settings.json`, remove exactly those again (`dossier init --remove`), and say
//! what is registered right now ([`inspect`]) so every surface can warn about what is missing
//! (SPEC §6.1).
//!
//! Invariants:
//! - **Never clobber.** Only our entries are added, changed or removed: the MCP server named
//!   `dossier` that runs `… mcp`, and hook commands `<…/dossier…> hook <event>`. Everything else
//!   in both files (other servers and hooks, unknown keys, comments, whitespace, key order)
//!   survives byte for byte; edits go through jsonc-parser's CST. (One CST limit: an object or
//!   array written on a single line that we add to is re-flowed onto several lines.)
//! - **Recognised by command, updated in place.** A changed binary path rewrites our entry
//!   instead of adding a second; an older build's entry in the wrong file is moved.
//! - **Backup, then atomic write.** Every write is preceded by a timestamped copy next to the
//!   file; a run that would change nothing writes nothing (no backup either).
//! - **A file that does not parse is left alone**, with a warning naming it; the other file
//!   may still be updated.
//! - [`inspect`] reads the two files and spawns nothing, so hooks may call it.
//!
//! Not for: handling hook events (`hooks`), serving MCP (`mcp`), the store part of `init`
//! (`init`), or talking to the terminal (the CLI passes an `ask` function in).

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode};
use serde::Serialize;
use serde_json::{Value, json};

use crate::config::{self, ClaudeCodeRecord, HarnessConfig};
use crate::error::{DossierError, Result};
use crate::files::{self, FileOutcome};

/// The MCP server's name in `mcpServers` (tools appear as `mcp__dossier__…`).
pub const SERVER_NAME: &str = "dossier";
/// How long `claude --version` may take before the version counts as unknown.
const VERSION_TIMEOUT: Duration = Duration::from_secs(3);
/// Where a volatile binary installs itself, relative to the home directory.
const INSTALL_DIR: &str = ".local/bin";

/// The hook events dossier registers.
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

/// The files Claude Code reads, under one home directory.
#[derive(Clone, Debug, Serialize)]
pub struct Paths {
    pub home: PathBuf,
    /// `~/.claude.json`: user-scope MCP servers (and much of Claude Code's own state).
    pub claude_json: PathBuf,
    /// `~/.claude/settings.json`: hooks.
    pub settings_json: PathBuf,
}

impl Paths {
    pub fn new(home: &Path) -> Paths {
        Paths {
            home: home.to_path_buf(),
            claude_json: home.join(".claude.json"),
            settings_json: home.join(".claude").join("settings.json"),
        }
    }

    /// `~/.claude/commands/codecall.md`: the `/codecall` user command.
    pub fn codecall_command(&self) -> PathBuf {
        self.home.join(".claude").join("commands").join("codecall.md")
    }

    /// From `$HOME`; `None` when it is unset or empty.
    pub fn from_env() -> Option<Paths> {
        std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| Paths::new(Path::new(&h)))
    }

    pub fn claude_dir(&self) -> PathBuf {
        self.home.join(".claude")
    }

    /// Where a binary running from a volatile path installs itself.
    pub fn install_target(&self) -> PathBuf {
        self.home.join(INSTALL_DIR).join("dossier")
    }
}

// ---------------------------------------------------------------------------------------
// Detection

/// Whether Claude Code is installed for this user.
#[derive(Clone, Debug, Serialize)]
pub struct Detection {
    pub detected: bool,
    /// `~/.claude/` exists.
    pub claude_dir: bool,
    /// `~/.claude.json` exists.
    pub claude_json: bool,
    /// `claude` found on PATH.
    pub executable: Option<PathBuf>,
    /// First line of `claude --version`; `None` when it could not be run in time.
    pub version: Option<String>,
}

impl Detection {
    /// The report's first line after "Claude Code integration:" (without the "- ").
    pub fn describe(&self) -> String {
        if !self.detected {
            return "not detected (no ~/.claude, no ~/.claude.json, no `claude` on PATH)".to_string();
        }
        match (&self.version, &self.executable) {
            (Some(v), _) => format!("detected (claude {v})"),
            (None, Some(_)) => "detected (version unknown)".to_string(),
            (None, None) => "detected (`claude` is not on PATH)".to_string(),
        }
    }
}

/// Look for Claude Code under `paths.home` and on PATH; runs `claude --version` (at most a
/// few seconds; a failure is just "version unknown").
pub fn detect(paths: &Paths) -> Detection {
    let claude_dir = paths.claude_dir().is_dir();
    let claude_json = paths.claude_json.is_file();
    let executable = find_on_path("claude");
    let version = executable.as_deref().and_then(|e| version_of(e, VERSION_TIMEOUT));
    Detection {
        detected: claude_dir || claude_json || executable.is_some(),
        claude_dir,
        claude_json,
        executable,
        version,
    }
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).filter(|d| d.is_absolute()).map(|d| d.join(name)).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    match fs::metadata(p) {
        #[cfg(unix)]
        Ok(m) => {
            use std::os::unix::fs::PermissionsExt;
            m.is_file() && m.permissions().mode() & 0o111 != 0
        }
        #[cfg(not(unix))]
        Ok(m) => m.is_file(),
        Err(_) => false,
    }
}

fn version_of(exe: &Path, timeout: Duration) -> Option<String> {
    let mut child = Command::new(exe)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    // Read on a thread: a wrapper script's grandchild may keep the pipe open after exit.
    let mut stdout = child.stdout.take()?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        let _ = tx.send(s);
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    if !status.success() {
        return None;
    }
    let out = rx.recv_timeout(timeout.saturating_sub(start.elapsed()).max(Duration::from_millis(100))).ok()?;
    let line = out.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(line.chars().take(200).collect())
}

// ---------------------------------------------------------------------------------------
// What is registered now

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

/// A Claude Code config file dossier could not read or edit; it is left alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileProblem {
    pub file: PathBuf,
    pub problem: String,
}

impl FileProblem {
    pub fn warning(&self) -> String {
        format!(
            "{} {}; dossier did not change it and cannot register anything in it. Fix the file (or move it aside), \
             then run `dossier init` again.",
            self.file.display(),
            self.problem
        )
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
    pub plugin_installs: Vec<crate::plugin::Install>,
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
        plugin_installs: crate::plugin::installs(paths),
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
    Paths::from_env().map(|p| inspect_with(&p, crate::plugin::launched_from()))
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

/// A JSON (or JSONC) object file: `Ok(None)` when absent.
pub(crate) fn read_value(path: &Path) -> Result<Option<Value>, FileProblem> {
    let problem = |p: String| FileProblem { file: path.to_path_buf(), problem: p };
    let text = match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| problem("is not UTF-8 text".into()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(problem(format!("could not be read ({e})"))),
    };
    if text.trim().is_empty() {
        return Ok(Some(json!({})));
    }
    let value: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(_) => jsonc_parser::parse_to_serde_value(&text, &parse_options())
            .map_err(|e| problem(format!("does not parse as JSON ({e})")))?,
    };
    if !value.is_object() {
        return Err(problem("does not hold a JSON object".into()));
    }
    Ok(Some(value))
}

/// `mcpServers.dossier` is ours when it runs `… mcp`.
fn is_our_server(entry: &Value) -> bool {
    entry.get("args").and_then(Value::as_array).is_some_and(|a| a.len() == 1 && a[0] == "mcp")
}

/// Whether the binary a registration runs exists (a bare name is looked up on PATH).
fn binary_exists(binary: &str) -> bool {
    if binary.is_empty() {
        return false;
    }
    if let Some(rest) = binary.strip_prefix("~/")
        && let Some(home) = std::env::var_os("HOME")
    {
        return is_executable(&Path::new(&home).join(rest));
    }
    if binary.contains('/') { is_executable(Path::new(binary)) } else { find_on_path(binary).is_some() }
}

// ---------------------------------------------------------------------------------------
// Recognising our hook commands

/// A shell word of a hook command, with its byte span in the command.
#[derive(Debug, PartialEq)]
struct Word {
    text: String,
    start: usize,
    end: usize,
}

/// Split a command into shell words (quotes and backslashes as POSIX sh reads them);
/// `None` for an unterminated quote.
fn shell_words(s: &str) -> Option<Vec<Word>> {
    let mut words = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut text = String::new();
        let mut end = start;
        while let Some(&(i, c)) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            chars.next();
            match c {
                '\'' => loop {
                    let (j, c) = chars.next()?;
                    if c == '\'' {
                        end = j + 1;
                        break;
                    }
                    text.push(c);
                },
                '"' => loop {
                    let (j, c) = chars.next()?;
                    match c {
                        '"' => {
                            end = j + 1;
                            break;
                        }
                        '\\' if matches!(chars.peek(), Some((_, '"' | '\\' | '$' | '`'))) => {
                            text.push(chars.next()?.1);
                        }
                        c => text.push(c),
                    }
                },
                '\\' => {
                    let (j, c) = chars.next()?;
                    text.push(c);
                    end = j + c.len_utf8();
                }
                c => {
                    text.push(c);
                    end = i + c.len_utf8();
                }
            }
        }
        words.push(Word { text, start, end });
    }
    Some(words)
}

/// Quote `s` for the shell when it has anything but plainly safe characters.
fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+@%,:=".contains(c);
    if !s.is_empty() && s.chars().all(safe) { s.to_string() } else { format!("'{}'", s.replace('\'', r"'\''")) }
}

/// One of our hook commands, taken apart.
#[derive(Debug, PartialEq)]
struct OurHook {
    /// The binary as the shell sees it (unquoted).
    binary: String,
    /// Byte span of the binary's word in the command.
    span: (usize, usize),
    /// The `dossier hook` argument (`session-start`, ...).
    event: String,
}

/// `[NAME=value ...] <path>/dossier… hook <event>` (nothing else) is ours.
fn our_hook(command: &str) -> Option<OurHook> {
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

// ---------------------------------------------------------------------------------------
// Planning edits

/// What `dossier init` is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Register the MCP server and hooks running `binary`.
    Register { binary: PathBuf },
    /// Remove our entries (`init --remove`).
    Remove,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Add,
    Update,
    Remove,
}

/// One planned (or applied) change to one of our entries.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    pub file: PathBuf,
    pub action: Action,
    /// Where, as a JSON path: `mcpServers.dossier`, `hooks.SessionStart`, ....
    pub at: String,
    /// The entry added or removed, or an update's new value.
    pub value: Value,
    /// An update's previous value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<Value>,
    /// Why, when it is not plain (`moved to ...`, `duplicate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Change {
    /// One line: `+ mcpServers.dossier = {...}`, `~ ... : "old" -> "new"`, `- ...`.
    pub fn describe(&self) -> String {
        let value = compact(&self.value);
        let reason = self.reason.as_ref().map(|r| format!(" ({r})")).unwrap_or_default();
        match self.action {
            Action::Add => format!("+ {} = {value}{reason}", self.at),
            Action::Update => {
                format!("~ {}: {} -> {value}{reason}", self.at, self.previous.as_ref().map(compact).unwrap_or_default())
            }
            Action::Remove => format!("- {} = {value}{reason}", self.at),
        }
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).expect("JSON values serialize")
}

/// Planned edits of both files.
#[derive(Debug, Default)]
pub struct Plan {
    pub files: Vec<FilePlan>,
    /// Files left alone because they could not be read or edited.
    pub problems: Vec<FileProblem>,
    /// Things the plan deliberately does not touch (e.g. a foreign `mcpServers.dossier`).
    pub warnings: Vec<String>,
}

impl Plan {
    pub fn changes(&self) -> Vec<Change> {
        self.files.iter().flat_map(|f| f.changes.iter().cloned()).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.files.iter().all(|f| f.changes.is_empty())
    }

    /// The plan as people read it: per file, one line per change.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for f in self.files.iter().filter(|f| !f.changes.is_empty()) {
            let note = if f.original.is_none() { " (will be created)" } else { "" };
            s.push_str(&format!("  {}{note}\n", f.path.display()));
            for c in &f.changes {
                s.push_str(&format!("    {}\n", c.describe()));
            }
        }
        s
    }
}

/// One file's edit.
#[derive(Debug)]
pub struct FilePlan {
    /// The path Claude Code reads.
    pub path: PathBuf,
    /// The file actually replaced (a symlink's target).
    pub write_to: PathBuf,
    /// `None`: the file does not exist yet.
    pub original: Option<String>,
    pub text: String,
    pub changes: Vec<Change>,
    permissions: Option<fs::Permissions>,
}

fn parse_options() -> ParseOptions {
    // JSON plus comments and trailing commas (what people put in settings files); anything
    // looser Claude Code would not read either.
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// A parsed file, ready to edit.
struct Doc {
    path: PathBuf,
    write_to: PathBuf,
    original: Option<String>,
    permissions: Option<fs::Permissions>,
    root: CstRootNode,
}

enum Loaded {
    Missing,
    Doc(Doc),
    Problem(FileProblem),
}

fn load(path: &Path) -> Loaded {
    let problem = |p: String| Loaded::Problem(FileProblem { file: path.to_path_buf(), problem: p });
    let text = match fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => return problem("is not UTF-8 text".into()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::Missing,
        Err(e) => return problem(format!("could not be read ({e})")),
    };
    let root = match CstRootNode::parse(if text.trim().is_empty() { "{}\n" } else { &text }, &parse_options()) {
        Ok(r) => r,
        Err(e) => return problem(format!("does not parse as JSON ({e})")),
    };
    if root.object_value().is_none() {
        return problem("does not hold a JSON object".into());
    }
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let write_to =
        if is_link { fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()) } else { path.to_path_buf() };
    Loaded::Doc(Doc {
        path: path.to_path_buf(),
        write_to,
        permissions: fs::metadata(path).ok().map(|m| m.permissions()),
        original: Some(text),
        root,
    })
}

fn new_doc(path: &Path) -> Doc {
    Doc {
        path: path.to_path_buf(),
        write_to: path.to_path_buf(),
        original: None,
        permissions: None,
        root: CstRootNode::parse("{}\n", &parse_options()).expect("an empty object parses"),
    }
}

/// Edits of one document, collected.
struct Edits<'a> {
    file: &'a Path,
    changes: Vec<Change>,
    warnings: Vec<String>,
}

impl Edits<'_> {
    fn push(&mut self, action: Action, at: String, value: Value, previous: Option<Value>, reason: Option<String>) {
        self.changes.push(Change { file: self.file.to_path_buf(), action, at, value, previous, reason });
    }
}

type EditResult<T = ()> = std::result::Result<T, String>;

fn input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(input).collect()),
        Value::Object(o) => CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), input(v))).collect()),
    }
}

fn prop_value(prop: &CstObjectProp) -> Value {
    prop.value().and_then(|v| v.to_serde_value()).unwrap_or(Value::Null)
}

fn string_of(node: Option<CstNode>) -> Option<String> {
    node?.as_string_lit()?.decoded_value().ok()
}

/// The object under `key`: `None` if absent, an error if it is something else.
fn object_at(obj: &CstObject, key: &str, path: &str) -> EditResult<Option<(CstObjectProp, CstObject)>> {
    match obj.get(key) {
        None => Ok(None),
        Some(prop) => match prop.object_value() {
            Some(o) => Ok(Some((prop, o))),
            None => Err(format!("has `{path}` that is not a JSON object")),
        },
    }
}

/// `mcpServers.dossier` added, or its command updated in place.
fn ensure_mcp(obj: &CstObject, binary: &str, carried_env: Option<Value>, edits: &mut Edits) -> EditResult {
    let mut entry = mcp_entry(Path::new(binary));
    if let Some(env) = carried_env {
        entry["env"] = env;
    }
    let at = format!("mcpServers.{SERVER_NAME}");
    let Some((_, servers)) = object_at(obj, "mcpServers", "mcpServers")? else {
        obj.append("mcpServers", CstInputValue::Object(vec![(SERVER_NAME.to_string(), input(&entry))]));
        edits.push(Action::Add, at, entry, None, None);
        return Ok(());
    };
    let Some(prop) = servers.get(SERVER_NAME) else {
        servers.append(SERVER_NAME, input(&entry));
        edits.push(Action::Add, at, entry, None, None);
        return Ok(());
    };
    if !is_our_server(&prop_value(&prop)) {
        edits.warnings.push(format!(
            "{}: mcpServers.{SERVER_NAME} is not an entry dossier wrote (it does not run `dossier mcp`), so it was left \
             alone and the dossier MCP server is not registered. Rename or remove it, then run `dossier init` again.",
            edits.file.display()
        ));
        return Ok(());
    }
    let server = prop.object_value().expect("is_our_server saw an object");
    match server.get("command") {
        Some(c) if string_of(c.value()).as_deref() == Some(binary) => {}
        Some(c) => {
            let previous = prop_value(&c);
            c.set_value(CstInputValue::String(binary.to_string()));
            edits.push(Action::Update, format!("{at}.command"), json!(binary), Some(previous), None);
        }
        None => {
            server.append("command", CstInputValue::String(binary.to_string()));
            edits.push(Action::Add, format!("{at}.command"), json!(binary), None, None);
        }
    }
    Ok(())
}

/// Remove our `mcpServers.dossier`; returns its `env` (carried over when it moves).
fn remove_mcp(obj: &CstObject, reason: Option<String>, edits: &mut Edits) -> Option<Value> {
    let servers_prop = obj.get("mcpServers")?;
    let servers = servers_prop.object_value()?;
    let prop = servers.get(SERVER_NAME)?;
    let value = prop_value(&prop);
    if !is_our_server(&value) {
        return None;
    }
    prop.remove();
    if servers.properties().is_empty() {
        servers_prop.remove();
    }
    let env = value.get("env").cloned();
    edits.push(Action::Remove, format!("mcpServers.{SERVER_NAME}"), value, None, reason);
    env
}

/// One of our commands inside a hook entry of an event's array.
struct FoundHook {
    entry: CstObject,
    inner: CstArray,
    item: CstObject,
    command_prop: CstObjectProp,
    command: String,
    parsed: OurHook,
}

fn our_hooks_in(arr: &CstArray) -> Vec<FoundHook> {
    let mut found = Vec::new();
    for el in arr.elements() {
        let Some(entry) = el.as_object() else { continue };
        let Some(inner) = entry.get("hooks").and_then(|p| p.array_value()) else { continue };
        for it in inner.elements() {
            let Some(item) = it.as_object() else { continue };
            let Some(command_prop) = item.get("command") else { continue };
            let Some(command) = string_of(command_prop.value()) else { continue };
            if let Some(parsed) = our_hook(&command) {
                found.push(FoundHook {
                    entry: entry.clone(),
                    inner: inner.clone(),
                    item,
                    command_prop,
                    command,
                    parsed,
                });
            }
        }
    }
    found
}

/// Remove one of our commands; drop its entry if that left the entry's `hooks` empty.
/// Returns what was removed (the entry, or just the command's object).
fn remove_found(f: FoundHook) -> Value {
    let entry = f.entry.to_serde_value().unwrap_or(Value::Null);
    let item = f.item.to_serde_value().unwrap_or(Value::Null);
    f.item.remove();
    if f.inner.elements().is_empty() {
        f.entry.remove();
        entry
    } else {
        item
    }
}

/// One entry of a hook event's array, as both settings.json and the plugin's hooks.json hold it.
pub fn hook_entry(command: &str) -> Value {
    json!({"matcher": "", "hooks": [{"type": "command", "command": command}]})
}

/// Our hook for `event` added, or its binary updated in place; duplicates removed.
fn ensure_hook(obj: &CstObject, event: HookEvent, binary: &str, edits: &mut Edits) -> EditResult {
    let command = hook_command(Path::new(binary), event);
    let entry = hook_entry(&command);
    let at = format!("hooks.{}", event.key());
    let Some((_, hooks)) = object_at(obj, "hooks", "hooks")? else {
        obj.append("hooks", CstInputValue::Object(vec![(event.key().to_string(), input(&json!([entry])))]));
        edits.push(Action::Add, at, entry, None, None);
        return Ok(());
    };
    let arr = match hooks.get(event.key()) {
        None => {
            hooks.append(event.key(), input(&json!([entry])));
            edits.push(Action::Add, at, entry, None, None);
            return Ok(());
        }
        Some(prop) => prop.array_value().ok_or_else(|| format!("has `{at}` that is not a JSON array"))?,
    };
    let mut found = our_hooks_in(&arr).into_iter().filter(|f| f.parsed.event == event.arg());
    let Some(first) = found.next() else {
        arr.append(input(&entry));
        edits.push(Action::Add, at, entry, None, None);
        return Ok(());
    };
    let duplicates: Vec<FoundHook> = found.collect();
    if first.parsed.binary != binary {
        let (a, b) = first.parsed.span;
        let updated = format!("{}{}{}", &first.command[..a], shell_quote(binary), &first.command[b..]);
        first.command_prop.set_value(CstInputValue::String(updated.clone()));
        edits.push(Action::Update, format!("{at}[].hooks[].command"), json!(updated), Some(json!(first.command)), None);
    }
    let mut removed: Vec<Value> = duplicates.into_iter().rev().map(remove_found).collect();
    removed.reverse();
    for value in removed {
        edits.push(Action::Remove, at.clone(), value, None, Some("duplicate".into()));
    }
    Ok(())
}

/// Remove every one of our hook commands (any event) under `hooks`, dropping what that
/// empties: the entry, the event's array, `hooks` itself.
fn remove_hooks(obj: &CstObject, reason: Option<String>, edits: &mut Edits) {
    let Some(hooks_prop) = obj.get("hooks") else { return };
    let Some(hooks) = hooks_prop.object_value() else { return };
    let mut removed_any = false;
    for prop in hooks.properties() {
        let Some(arr) = prop.array_value() else { continue };
        let key = prop.decoded_name().unwrap_or_default();
        let found = our_hooks_in(&arr);
        if found.is_empty() {
            continue;
        }
        removed_any = true;
        let mut removed: Vec<Value> = found.into_iter().rev().map(remove_found).collect();
        removed.reverse();
        for value in removed {
            edits.push(Action::Remove, format!("hooks.{key}"), value, None, reason.clone());
        }
        if arr.elements().is_empty() {
            prop.remove();
        }
    }
    if removed_any && hooks.properties().is_empty() {
        hooks_prop.remove();
    }
}

/// Plan the edits of both files for `mode`. Reads the files; writes nothing.
pub fn plan(paths: &Paths, mode: &Mode) -> Plan {
    let first = plan_once(paths, mode, true, true);
    // A move needs both ends: if either file cannot be edited, keep what is in the other.
    let failed = |f: &Path| first.problems.iter().any(|p| p.file == f);
    let (claude_failed, settings_failed) = (failed(&paths.claude_json), failed(&paths.settings_json));
    if matches!(mode, Mode::Register { .. }) && (claude_failed || settings_failed) {
        plan_once(paths, mode, !claude_failed, !settings_failed)
    } else {
        first
    }
}

/// One planning pass. `move_mcp`: take our server out of settings.json (it goes to
/// ~/.claude.json); `move_hooks`: take our hooks out of ~/.claude.json (they go to
/// settings.json).
fn plan_once(paths: &Paths, mode: &Mode, move_mcp: bool, move_hooks: bool) -> Plan {
    let mut plan = Plan::default();
    let settings = load(&paths.settings_json);
    let claude = load(&paths.claude_json);
    let mut carried_env = None;

    // settings.json first: an MCP entry an older build put there moves to ~/.claude.json.
    let settings_doc = match (settings, mode) {
        (Loaded::Problem(p), _) => {
            plan.problems.push(p);
            None
        }
        (Loaded::Missing, Mode::Remove) => None,
        (Loaded::Missing, Mode::Register { .. }) => Some(new_doc(&paths.settings_json)),
        (Loaded::Doc(d), _) => Some(d),
    };
    if let Some(doc) = settings_doc {
        let mut edits = Edits { file: &paths.settings_json, changes: Vec::new(), warnings: Vec::new() };
        let obj = doc.root.object_value_or_set();
        let result: EditResult<Option<Value>> = (|| {
            let moved = format!("moved to {}", paths.claude_json.display());
            match mode {
                Mode::Register { binary } => {
                    let env = if move_mcp { remove_mcp(&obj, Some(moved), &mut edits) } else { None };
                    let binary = binary.to_string_lossy();
                    for event in HookEvent::ALL {
                        ensure_hook(&obj, event, &binary, &mut edits)?;
                    }
                    Ok(env)
                }
                Mode::Remove => {
                    remove_mcp(&obj, None, &mut edits);
                    remove_hooks(&obj, None, &mut edits);
                    Ok(None)
                }
            }
        })();
        match result {
            Ok(env) => {
                carried_env = env;
                plan.warnings.append(&mut edits.warnings);
                plan.files.push(finish(doc, edits.changes));
            }
            Err(problem) => plan.problems.push(FileProblem { file: paths.settings_json.clone(), problem }),
        }
    }

    let claude_doc = match (claude, mode) {
        (Loaded::Problem(p), _) => {
            plan.problems.push(p);
            None
        }
        (Loaded::Missing, Mode::Remove) => None,
        (Loaded::Missing, Mode::Register { .. }) => Some(new_doc(&paths.claude_json)),
        (Loaded::Doc(d), _) => Some(d),
    };
    if let Some(doc) = claude_doc {
        let mut edits = Edits { file: &paths.claude_json, changes: Vec::new(), warnings: Vec::new() };
        let obj = doc.root.object_value_or_set();
        let result: EditResult = (|| {
            match mode {
                Mode::Register { binary } => {
                    // Hooks an older build put here move to settings.json.
                    if move_hooks {
                        remove_hooks(&obj, Some(format!("moved to {}", paths.settings_json.display())), &mut edits);
                    }
                    ensure_mcp(&obj, &binary.to_string_lossy(), carried_env, &mut edits)?;
                }
                Mode::Remove => {
                    remove_hooks(&obj, None, &mut edits);
                    remove_mcp(&obj, None, &mut edits);
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => {
                plan.warnings.append(&mut edits.warnings);
                plan.files.push(finish(doc, edits.changes));
            }
            Err(problem) => plan.problems.push(FileProblem { file: paths.claude_json.clone(), problem }),
        }
    }
    // ~/.claude.json first in every listing: it is the file people know.
    plan.files.reverse();
    plan
}

fn finish(doc: Doc, changes: Vec<Change>) -> FilePlan {
    let mut text = doc.root.to_string();
    if doc.original.is_none() && !text.ends_with('\n') {
        text.push('\n');
    }
    let changes = if doc.original.as_deref() == Some(text.as_str()) { Vec::new() } else { changes };
    FilePlan {
        path: doc.path,
        write_to: doc.write_to,
        original: doc.original,
        text,
        changes,
        permissions: doc.permissions,
    }
}

/// The backup file name for `path` at `stamp` (`<file>.dossier-backup-<stamp>`), one that
/// does not exist yet.
fn backup_path(path: &Path, stamp: &str) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let base = path.with_file_name(format!("{name}.dossier-backup-{stamp}"));
    let mut candidate = base.clone();
    let mut n = 1;
    while fs::symlink_metadata(&candidate).is_ok() {
        n += 1;
        candidate = PathBuf::from(format!("{}-{n}", base.display()));
    }
    candidate
}

/// `20261130T072300Z`: the current UTC time for backup names.
pub fn backup_stamp() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.format(time::macros::format_description!("[year][month][day]T[hour][minute][second]Z"))
        .expect("UTC timestamps format")
}

/// What [`apply`] wrote.
#[derive(Debug, Default, Serialize)]
pub struct Applied {
    pub changes: Vec<Change>,
    pub backups: Vec<PathBuf>,
    /// Files that could not be written (the other file may still have been).
    pub failures: Vec<String>,
}

/// Write `plan`: per changed file, a backup of the current content next to it, then the new
/// content atomically (keeping the file's permissions).
pub fn apply(plan: &Plan, stamp: &str) -> Applied {
    let mut applied = Applied::default();
    for f in plan.files.iter().filter(|f| !f.changes.is_empty()) {
        let result = (|| -> Result<Option<PathBuf>> {
            let mut backup = None;
            if let Some(original) = &f.original {
                let b = backup_path(&f.path, stamp);
                files::write_atomic(&b, original.as_bytes())?;
                backup = Some(b);
            } else if let Some(dir) = f.write_to.parent() {
                fs::create_dir_all(dir).map_err(|e| DossierError::io("create", dir, e))?;
            }
            files::write_atomic_with_permissions(&f.write_to, f.text.as_bytes(), f.permissions.clone())?;
            Ok(backup)
        })();
        match result {
            Ok(backup) => {
                applied.backups.extend(backup);
                applied.changes.extend(f.changes.iter().cloned());
            }
            Err(e) => applied.failures.push(format!("{} was not updated: {}", f.path.display(), e.message)),
        }
    }
    applied
}

// ---------------------------------------------------------------------------------------
// Self-install

/// The running binary's path. On Linux a binary replaced while running (a rebuild) reads
/// as `<path> (deleted)`; then the path itself, which holds the new build, is used.
pub fn running_binary() -> Result<PathBuf> {
    let exe = std::env::current_exe()
        .map_err(|e| DossierError::new(crate::error::Code::Io, format!("cannot locate the running binary: {e}")))?;
    if let Some(s) = exe.to_str()
        && let Some(stripped) = s.strip_suffix(" (deleted)")
        && Path::new(stripped).is_file()
    {
        return Ok(PathBuf::from(stripped));
    }
    Ok(exe)
}

/// Why `exe` is a volatile place to register (under the temp dir, or in a cargo `target/`).
pub fn volatile_reason(exe: &Path) -> Option<String> {
    let exe = fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let temp = std::env::temp_dir();
    let temp = fs::canonicalize(&temp).unwrap_or(temp);
    if exe.starts_with(&temp) {
        return Some(format!("under the temporary directory {}", temp.display()));
    }
    exe.ancestors()
        .skip(1)
        .find(|d| d.join("CACHEDIR.TAG").is_file() && (d.ends_with("target") || d.join(".rustc_info.json").is_file()))
        .map(|d| format!("inside the cargo build directory {}", d.display()))
}

/// Copy `exe` to `target` atomically with mode 755 (unchanged when it is already there).
pub fn self_install(exe: &Path, target: &Path) -> Result<FileOutcome> {
    if same_contents(exe, target) {
        return Ok(FileOutcome::Unchanged);
    }
    let existed = target.exists();
    let dir = target.parent().expect("the install target has a parent");
    fs::create_dir_all(dir).map_err(|e| DossierError::io("create", dir, e))?;
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| DossierError::io("create a temp file in", dir, e))?;
    let mut src = fs::File::open(exe).map_err(|e| DossierError::io("read", exe, e))?;
    std::io::copy(&mut src, tmp.as_file_mut()).map_err(|e| DossierError::io("write", tmp.path(), e))?;
    tmp.as_file().sync_all().map_err(|e| DossierError::io("sync", tmp.path(), e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(0o755))
            .map_err(|e| DossierError::io("set permissions of", tmp.path(), e))?;
    }
    tmp.persist(target).map_err(|e| DossierError::io("replace", target, e.error))?;
    Ok(if existed { FileOutcome::Updated } else { FileOutcome::Created })
}

fn same_contents(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else { return false };
    if ma.len() != mb.len() {
        return false;
    }
    let (Ok(mut fa), Ok(mut fb)) = (fs::File::open(a), fs::File::open(b)) else { return false };
    let (mut ba, mut bb) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let Ok(n) = fa.read(&mut ba) else { return false };
        if n == 0 {
            return true;
        }
        if fb.read_exact(&mut bb[..n]).is_err() || ba[..n] != bb[..n] {
            return false;
        }
    }
}

/// Whether `dir` is one of PATH's directories.
pub fn on_path(dir: &Path) -> bool {
    let Some(path) = std::env::var_os("PATH") else { return false };
    let canon = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = canon(dir);
    std::env::split_paths(&path).any(|d| canon(&d) == dir)
}

// ---------------------------------------------------------------------------------------
// The registration step of `dossier init`

/// How init may change things.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consent {
    /// `--yes`: change without asking.
    Yes,
    /// A terminal: show the plan and ask.
    Ask,
    /// Neither: print the plan, change nothing.
    PlanOnly,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub mode_remove: bool,
    pub consent: Consent,
    /// Offer to install a volatile binary to ~/.local/bin first (`--no-self-install` turns it off).
    pub self_install: bool,
    /// The running binary.
    pub exe: PathBuf,
}

/// How the registration step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Changes were written.
    Applied,
    /// Nothing to change.
    UpToDate,
    /// The user said no.
    Declined,
    /// No terminal and no `--yes`: the plan was printed, nothing changed.
    PlanOnly,
    /// Claude Code is not installed; nothing registered.
    NotDetected,
    /// The dossier plugin is installed and enabled for this user; nothing registered (it
    /// would run every hook twice).
    PluginInstalled,
    /// The files changed while the user was deciding; nothing written.
    Changed,
}

#[derive(Clone, Debug, Serialize)]
pub struct SelfInstall {
    pub from: PathBuf,
    pub to: PathBuf,
    /// Why `from` is volatile.
    pub reason: String,
    /// `installed`, `updated`, `unchanged`, `planned`, `declined` or `failed`.
    pub outcome: String,
    /// Whether `to`'s directory is on PATH.
    pub on_path: bool,
}

/// Everything the registration step did, for the CLI to print (and `--json`).
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// `register` or `remove`.
    pub mode: &'static str,
    pub detection: Detection,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_install: Option<SelfInstall>,
    /// The binary the registration runs (register mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<PathBuf>,
    /// The changes planned from the files as they were.
    pub plan: Vec<Change>,
    /// The plan as printed.
    #[serde(skip)]
    pub plan_text: String,
    pub decision: Decision,
    /// The changes written.
    pub changes: Vec<Change>,
    pub backups: Vec<PathBuf>,
    /// What is registered now.
    pub registration: Registration,
    /// The `/codecall` user command (`~/.claude/commands/codecall.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<CommandInstall>,
    /// The SPEC §13.1 lines.
    pub report: Vec<String>,
    pub warnings: Vec<String>,
    pub next_actions: Vec<String>,
}

/// Detect, (self-install,) plan, ask per `opts.consent`, apply, and report. Never fails:
/// anything that goes wrong is a warning (SPEC §7.2). `ask` shows a question and returns
/// the answer (only called with [`Consent::Ask`]).
pub fn run(paths: &Paths, opts: &Options, ask: &mut dyn FnMut(&str) -> bool) -> Outcome {
    let detection = detect(paths);
    let mut warnings = Vec::new();
    let mut next_actions = Vec::new();
    let mut self_install = None;
    let register = !opts.mode_remove;
    let mut binary = fs::canonicalize(&opts.exe).unwrap_or_else(|_| opts.exe.clone());

    // The plugin, installed and enabled for this user, already provides everything.
    let plugin = if register {
        crate::plugin::installs(paths).into_iter().find(crate::plugin::Install::serves_everywhere)
    } else {
        None
    };
    if let Some(p) = &plugin {
        warnings.push(format!(
            "The dossier plugin {} is installed and enabled for this user, so dossier init registered nothing with \
             Claude Code (both would run every hook twice). To use dossier init's registration instead: `claude \
             plugin uninstall {}`, then `dossier init`.",
            p.id, p.id
        ));
    }
    let skip = register && (!detection.detected || plugin.is_some());
    if register && !detection.detected {
        warnings.push(
            "Claude Code was not found (no ~/.claude, no ~/.claude.json, no `claude` on PATH), so nothing was registered. \
             Install Claude Code, then run `dossier init` again."
                .to_string(),
        );
    }

    if register
        && !skip
        && let Some(reason) = volatile_reason(&binary)
    {
        if opts.self_install {
            let to = paths.install_target();
            let question = format!(
                "dossier is running from {} ({reason}), which may disappear.\nInstall it to {} and register that path? \
                 [y/N] ",
                binary.display(),
                to.display()
            );
            let outcome = match opts.consent {
                Consent::PlanOnly => "planned".to_string(),
                Consent::Yes => install(&binary, &to, &mut warnings),
                Consent::Ask if ask(&question) => install(&binary, &to, &mut warnings),
                Consent::Ask => "declined".to_string(),
            };
            let on_path = to.parent().is_some_and(on_path);
            if matches!(outcome.as_str(), "installed" | "updated" | "unchanged" | "planned") {
                if !on_path {
                    warnings.push(format!(
                        "{} is not on your PATH: add it (e.g. `export PATH=\"$HOME/{INSTALL_DIR}:$PATH\"`) to run \
                         `dossier` by name. Claude Code runs it by its full path either way.",
                        to.parent().unwrap_or(&to).display()
                    ));
                }
                binary = to.clone();
            } else {
                warnings.push(format!(
                    "Registering {} ({reason}): Claude Code's MCP server and hooks break when it disappears. \
                     Install dossier somewhere stable and run `dossier init` from there.",
                    binary.display()
                ));
            }
            self_install = Some(SelfInstall { from: opts.exe.clone(), to, reason, outcome, on_path });
        } else {
            warnings.push(format!(
                "Registering {} ({reason}) as is (--no-self-install): Claude Code's MCP server and hooks break when it \
                 disappears.",
                binary.display()
            ));
        }
    }

    let mode = if register { Mode::Register { binary: binary.clone() } } else { Mode::Remove };
    let planned = if skip { Plan::default() } else { plan(paths, &mode) };
    warnings.extend(planned.warnings.iter().cloned());
    let plan_changes = planned.changes();
    let plan_text = planned.render();

    let mut applied = Applied::default();
    let decision = if plugin.is_some() {
        Decision::PluginInstalled
    } else if skip {
        Decision::NotDetected
    } else if planned.is_empty() {
        Decision::UpToDate
    } else {
        match opts.consent {
            Consent::PlanOnly => {
                next_actions
                    .push(if register { "dossier init --yes" } else { "dossier init --remove --yes" }.to_string());
                Decision::PlanOnly
            }
            Consent::Yes => {
                applied = apply(&planned, &backup_stamp());
                Decision::Applied
            }
            Consent::Ask => {
                let verb = if register { "Register dossier with" } else { "Remove dossier from" };
                let question = format!(
                    "{verb} Claude Code by making these changes (a backup of each file comes first)?\n{plan_text}Apply? [y/N] "
                );
                if !ask(&question) {
                    Decision::Declined
                } else {
                    // Claude Code rewrites ~/.claude.json often: plan again from the files as
                    // they are now, and write only if that is still what was approved.
                    let fresh = plan(paths, &mode);
                    if fresh.changes() == plan_changes {
                        applied = apply(&fresh, &backup_stamp());
                        Decision::Applied
                    } else {
                        warnings.push(
                            "The Claude Code config files changed while you were deciding; nothing was written. Run \
                             `dossier init` again."
                                .to_string(),
                        );
                        Decision::Changed
                    }
                }
            }
        }
    };
    warnings.append(&mut applied.failures);

    if let Ok(store_home) = std::env::var("DOSSIER_HOME")
        && !store_home.is_empty()
        && register
        && !skip
        && Path::new(&store_home) != paths.home.join(".dossier")
    {
        warnings.push(format!(
            "DOSSIER_HOME is {store_home}, but Claude Code starts `dossier mcp` and the hooks without it, so they use {}. \
             Add DOSSIER_HOME to mcpServers.dossier.env and the hook commands, or use the default location.",
            paths.home.join(".dossier").display()
        ));
    }

    let command = match decision {
        Decision::Applied | Decision::UpToDate => Some(codecall_command(paths, register, &mut warnings)),
        Decision::PlanOnly if register => Some(CommandInstall { path: paths.codecall_command(), outcome: "planned" }),
        _ => None,
    };
    let registration = inspect(paths);
    let mut report = registration.report_lines(Some(&detection));
    if let Some(c) = &command {
        report.push(format!("/codecall command: {} ({})", c.outcome, c.path.display()));
    }
    // Files the plan could not edit (a section of the wrong shape) that still parse.
    for p in planned.problems.iter().filter(|p| !registration.problems.iter().any(|q| q.file == p.file)) {
        warnings.push(p.warning());
    }
    if register {
        warnings.extend(registration.warnings());
        if plugin.is_some() && registration.init_registered() {
            next_actions.push("dossier init --remove --yes".to_string());
        }
    } else {
        // After a removal, what is missing is what was asked for; only file problems matter.
        warnings.extend(registration.problems.iter().map(FileProblem::warning));
    }
    Outcome {
        mode: if register { "register" } else { "remove" },
        detection,
        self_install,
        binary: register.then_some(binary),
        plan: plan_changes,
        plan_text,
        decision,
        changes: applied.changes,
        backups: applied.backups,
        registration,
        command,
        report,
        warnings,
        next_actions,
    }
}

/// What init did with the `/codecall` user command.
#[derive(Clone, Debug, Serialize)]
pub struct CommandInstall {
    pub path: PathBuf,
    /// `installed`, `present` (ours, unchanged), `kept` (someone else's file: never
    /// overwritten), `removed` (ours, on `--remove`), `absent`, `planned` or `failed`.
    pub outcome: &'static str,
}

/// Install (or, on `--remove`, remove) `~/.claude/commands/codecall.md`. A file of that name
/// that is not byte-for-byte ours is never touched: it is the user's.
fn codecall_command(paths: &Paths, register: bool, warnings: &mut Vec<String>) -> CommandInstall {
    let path = paths.codecall_command();
    let ours = crate::mcp::codecall::COMMAND.as_bytes();
    let outcome = match (fs::read(&path), register) {
        (Ok(bytes), true) if bytes == ours => "present",
        (Ok(bytes), false) if bytes == ours => match fs::remove_file(&path) {
            Ok(()) => {
                // The directory too if that left it empty (init created it; an empty
                // directory holds nothing of anyone's).
                if let Some(dir) = path.parent() {
                    let _ = fs::remove_dir(dir);
                }
                "removed"
            }
            Err(e) => {
                warnings.push(format!("could not remove {}: {e}", path.display()));
                "failed"
            }
        },
        (Ok(_), _) => {
            if register {
                warnings.push(format!(
                    "{} exists and is not dossier's, so it was left alone: `/codecall` runs your file. dossier's                      is also available as the MCP prompt /mcp__dossier__codecall.",
                    path.display()
                ));
            }
            "kept"
        }
        (Err(_), false) => "absent",
        (Err(_), true) => {
            let written = path
                .parent()
                .map_or(Ok(()), |d| fs::create_dir_all(d).map_err(|e| DossierError::io("create", d, e)))
                .and_then(|()| files::write_atomic(&path, ours));
            match written {
                Ok(()) => "installed",
                Err(e) => {
                    warnings.push(format!(
                        "could not install the /codecall command at {}: {}",
                        path.display(),
                        e.message
                    ));
                    "failed"
                }
            }
        }
    };
    CommandInstall { path, outcome }
}

fn install(exe: &Path, to: &Path, warnings: &mut Vec<String>) -> String {
    match self_install(exe, to) {
        Ok(FileOutcome::Unchanged) => "unchanged".to_string(),
        Ok(FileOutcome::Updated) => "updated".to_string(),
        Ok(_) => "installed".to_string(),
        Err(e) => {
            warnings.push(format!("could not install dossier to {}: {}", to.display(), e.message));
            "failed".to_string()
        }
    }
}

/// Record the capability report in `config.yaml`'s machine block (the user's part above it
/// is never touched). Unchanged when the recorded state is the same (whenever it was
/// checked); skipped with a warning when the user's part has its own `harness:` key.
pub fn record(config_path: &Path, record: ClaudeCodeRecord) -> Result<(FileOutcome, Option<String>)> {
    let text = match fs::read_to_string(config_path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(DossierError::io("read", config_path, e)),
    };
    let (user, block) = config::split_harness_block(&text);
    if block.is_none() && config::user_defines_harness(user) {
        return Ok((
            FileOutcome::KeptUserEdits,
            Some(format!(
                "{} has its own `harness:` key, so the Claude Code capability report was not recorded there",
                config_path.display()
            )),
        ));
    }
    let existing = config::Config::parse(&text, config_path).ok().and_then(|c| c.harness).and_then(|h| h.claude_code);
    if block.is_some() && existing.as_ref().is_some_and(|e| e.same_state(&record)) {
        return Ok((FileOutcome::Unchanged, None));
    }
    let new = config::with_harness_block(&text, &HarnessConfig { claude_code: Some(record) });
    if let Err(e) = config::Config::parse(&new, config_path) {
        return Ok((
            FileOutcome::Unchanged,
            Some(format!("the capability report was not recorded in {}: {}", config_path.display(), e.message)),
        ));
    }
    files::write_if_changed(config_path, &new).map(|o| (o, None))
}

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

    #[test]
    fn asking_shows_the_plan_and_a_no_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::new(dir.path());
        std::fs::create_dir_all(paths.claude_dir()).unwrap();
        std::fs::write(&paths.claude_json, "{\n  \"theme\": \"dark\"\n}\n").unwrap();
        // A binary named dossier (never run here); in the temp dir, so self-install is off.
        let exe = dir.path().join("bin").join("dossier");
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
        }
        let opts = Options { mode_remove: false, consent: Consent::Ask, self_install: false, exe: exe.clone() };
        let mut questions = Vec::new();
        let out = run(&paths, &opts, &mut |q| {
            questions.push(q.to_string());
            false
        });
        assert_eq!(out.decision, Decision::Declined);
        assert_eq!(questions.len(), 1);
        assert!(questions[0].contains("+ mcpServers.dossier = ") && questions[0].contains("hook session-start"));
        assert_eq!(std::fs::read_to_string(&paths.claude_json).unwrap(), "{\n  \"theme\": \"dark\"\n}\n");
        assert!(!paths.settings_json.exists());

        let out = run(&paths, &opts, &mut |_| true);
        assert_eq!(out.decision, Decision::Applied);
        assert_eq!(out.backups.len(), 1);
        let r = inspect(&paths);
        assert!(r.complete() && r.transcript_capture && r.warnings().is_empty(), "{r:?}");
        let canonical = std::fs::canonicalize(&exe).unwrap();
        assert_eq!(r.mcp, Capability::Available { command: canonical.display().to_string() });
    }

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
            crate::plugin::installed_plugins_file(&paths),
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
