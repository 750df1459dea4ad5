//! The operation layer: each use case of the memory layer — promote, link, switch, save,
//! update, merge, resolve, list, suggest, recall, search, redact — written once and called by the CLI,
//! the MCP tools and the TUI alike.
//!
//! What this is for: composing the store's calls into a use case (the duplicate guard before a
//! promote, the distillation findings and context refresh after a save, the Distilled State on a
//! switch) and returning one outcome shape, [`Outcome`]: the data, the warnings, and the next
//! steps as [`Next`] values that each adapter renders in its own terms (the CLI as a command
//! line, MCP as a tool call).
//!
//! What it is not for: parsing an adapter's input (arguments, tool parameters, key presses) or
//! rendering its output (tables, envelopes, screens), and no file is touched here except
//! through `dossier_store` (every mutation goes through its single Save path).

pub mod link;
pub mod list;
pub mod merge;
pub mod promote;
pub mod recall;
pub mod redact;
pub mod resolve;
pub mod save;
pub mod search;
pub mod session;
pub mod suggest;
pub mod sync;

pub use dossier_store::next::{Arg, Next, Op, Surface};

use dossier_store::App;

/// The audit log's actor for each surface.
pub mod actor {
    pub const CLI: &str = "user:cli";
    pub const TUI: &str = "user:tui";
    pub const MCP: &str = "agent:mcp";
}

/// Who calls an operation: the audit actor, the harness session (when there is one), and the
/// surface that will render the next steps.
#[derive(Clone, Debug)]
pub struct Caller {
    pub actor: &'static str,
    pub session_id: Option<String>,
    pub surface: Surface,
}

impl Caller {
    /// The user at the terminal (`dossier <command>`).
    pub fn cli() -> Caller {
        Caller { actor: actor::CLI, session_id: None, surface: Surface::Cli }
    }

    /// The user in `dossier tui` (next steps read as commands).
    pub fn tui() -> Caller {
        Caller { actor: actor::TUI, session_id: None, surface: Surface::Cli }
    }

    /// The agent through `dossier mcp`; Claude Code gives its server the session id (DESIGN §4).
    pub fn mcp() -> Caller {
        Caller { actor: actor::MCP, session_id: std::env::var("CLAUDE_CODE_SESSION_ID").ok(), surface: Surface::Mcp }
    }

    /// A Save request from this caller with the store's token settings.
    pub fn save_request(&self, app: &App) -> dossier_store::save::SaveRequest {
        dossier_store::save::SaveRequest {
            actor: self.actor.to_string(),
            session_id: self.session_id.clone(),
            calibration: app.config.tokens.calibration,
            token_target: app.config.token_target,
            ..Default::default()
        }
    }
}

/// What every operation returns: its data, what the caller should know, and what to do next.
#[derive(Debug)]
pub struct Outcome<T> {
    pub data: T,
    pub warnings: Vec<String>,
    pub next: Vec<Next>,
}

impl<T> Outcome<T> {
    pub fn new(data: T) -> Outcome<T> {
        Outcome { data, warnings: Vec::new(), next: Vec::new() }
    }

    /// The next steps in `surface`'s words.
    pub fn next_actions(&self, surface: Surface) -> Vec<String> {
        self.next.iter().map(|n| n.render(surface)).collect()
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Outcome<U> {
        Outcome { data: f(self.data), warnings: self.warnings, next: self.next }
    }
}
