//! The files Claude Code reads under one home directory (`~/.claude.json`,
//! `~/.claude/settings.json`, `~/.claude/commands/`), and where a volatile dossier binary
//! installs itself.
//!
//! Not for: reading or writing those files (`jsonc`, `register`, `inspect`).

use std::path::{Path, PathBuf};

use serde::Serialize;

/// Where a volatile binary installs itself, relative to the home directory.
pub(crate) const INSTALL_DIR: &str = ".local/bin";

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
