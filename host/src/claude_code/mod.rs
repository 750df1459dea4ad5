//! Claude Code integration (SPEC §7.2, §13.1; verified facts in DESIGN.md §4): detect Claude
//! Code, register the `dossier` MCP server in `~/.claude.json` and the lifecycle hooks in
//! `~/.claude/settings.json`, remove exactly those again (`dossier init --remove`), say what
//! is registered right now ([`inspect`]) so every surface can warn about what is missing
//! (SPEC §6.1), and the Claude Code plugin ([`plugin`]) built from the same definitions.
//!
//! This file is the API: it declares the concerns and re-exports what the rest of the host
//! calls. It defines nothing, and no child module uses it (children name their siblings,
//! `crate::claude_code::<module>::<item>`), so there is no parent ↔ child cycle. Modules, low
//! to high:
//! - `shell_words`: a hook command's shell words with byte spans; quoting a path.
//! - `entries`: what dossier registers ([`HookEvent`], the MCP entry, hook commands, the
//!   `/codecall` command) and recognising our own entries.
//! - `paths`: the files Claude Code reads under one home directory.
//! - `jsonc`: reading the JSONC files, and their CST for in-place edits.
//! - `detect`: is Claude Code installed; does a registered binary exist.
//! - `install`: the running binary, volatile paths, self-install.
//! - [`plugin`]: the plugin directory `dossier plugin export` writes, and the installs
//!   Claude Code records.
//! - `inspect`: what is registered now, the report lines and warnings.
//! - `register`: planning and applying the edits of both files.
//! - `init`: the Claude Code step of `dossier init` (consent, self-install, plan, apply,
//!   report) and the capability record in `config.yaml`.
//!
//! Invariants (each module's doc has its own):
//! - **Never clobber.** Only our entries are added, changed or removed: the MCP server named
//!   `dossier` that runs `… mcp`, and hook commands `<…/dossier…> hook <event>`. Everything else
//!   in both files (other servers and hooks, unknown keys, comments, whitespace, key order)
//!   survives byte for byte; edits go through jsonc-parser's CST.
//! - **Backup, then atomic write**; a run that would change nothing writes nothing.
//! - **A file that does not parse is left alone**, with a warning naming it.
//! - [`inspect()`] reads files and spawns nothing, so hooks may call it.
//!
//! Not for: handling hook events (`crate::hooks`), serving MCP (`crate::mcp`), the store part
//! of `init` (`crate::init`), or talking to the terminal (the CLI passes an `ask` function in).

mod detect;
mod entries;
mod harness;
mod init;
mod inspect;
mod install;
mod jsonc;
mod paths;
pub mod plugin;
mod register;
mod shell_words;

pub use detect::{Detection, detect};
pub use entries::{CODECALL_COMMAND, HookEvent, SERVER_NAME, hook_command, hook_entry, hook_line, mcp_entry};
pub use harness::ClaudeCode;
pub use init::{CommandInstall, Consent, Decision, Options, Outcome, SelfInstall, record, run};
pub use inspect::{
    Capability, Registration, current_warnings, inspect, inspect_current, inspect_with, record_warnings,
};
pub use install::{on_path, running_binary, self_install, volatile_reason};
pub use jsonc::FileProblem;
pub use paths::Paths;
pub use register::{Action, Applied, Change, FilePlan, Mode, Plan, apply, backup_stamp, plan};
