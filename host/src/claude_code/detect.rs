//! Whether Claude Code is installed for this user: `~/.claude/`, `~/.claude.json`, `claude`
//! on PATH and its version (`claude --version`, with a deadline); and whether the binary a
//! registration runs exists.
//!
//! Not for: what is registered (`inspect`). Only [`detect`] spawns a process; the binary
//! checks read file metadata only (hooks call them).

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::claude_code::paths::Paths;

/// How long `claude --version` may take before the version counts as unknown.
const VERSION_TIMEOUT: Duration = Duration::from_secs(3);

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

/// Whether the binary a registration runs exists (a bare name is looked up on PATH).
pub(crate) fn binary_exists(binary: &str) -> bool {
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
