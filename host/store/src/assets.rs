//! Every shipped text file the binary embeds, in one place (the files live in `assets/` at the
//! repository root): the Distillation Guide, the default `config.yaml`, and Claude Code's
//! `/codecall` command.
//!
//! Not for: codecall's prompt templates (`dossier-codecall` embeds and versions them itself, and
//! records their hashes in each session's log), the policy component (a build product,
//! embedded by `host/build.rs`), or the sample Dossiers (`assets/examples/`, documentation only).

/// The Distillation Guide (SPEC §10), installed as `context/guide.md`.
pub const GUIDE: &str = include_str!("../../../assets/guide.md");

/// The default `config.yaml`, written once by `dossier init`.
pub const DEFAULT_CONFIG: &str = include_str!("../../../assets/config.yaml");

/// Claude Code's `/codecall` slash command (`dossier init` installs it; the plugin ships it).
pub const CODECALL_COMMAND: &str = include_str!("../../../assets/claude/commands/codecall.md");
