//! What the agent harness provides (SPEC §5, §6.1), as the store needs to know it: the
//! capabilities a session binding records and the warnings the context library shows.
//!
//! What this is for: the trait the binary implements by inspecting Claude Code's own config
//! files (`host/src/claude_code/`), so the store never reads `~/.claude.json` or knows where
//! a harness keeps its settings. [`Detached`] is the implementation for code that runs with no
//! harness at all (tests, benchmarks, the store used as a library).
//!
//! What it is not for: registering anything with a harness, or the wording of the live
//! inspection's problems (both the binary's).

use serde::{Deserialize, Serialize};

use crate::config::Config;

/// What the harness provides (docs/harness-capabilities.md). Recorded with each binding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capabilities {
    pub mcp: bool,
    pub session_start_hook: bool,
    pub session_end_hook: bool,
    pub pre_compaction_hook: bool,
    pub transcript_capture: bool,
}

impl Capabilities {
    /// Nothing provided (no harness, or it could not be inspected).
    pub fn none() -> Capabilities {
        Capabilities {
            mcp: false,
            session_start_hook: false,
            session_end_hook: false,
            pre_compaction_hook: false,
            transcript_capture: false,
        }
    }

    /// The same warnings as [`Capabilities::warnings`], each in a few words (a table cell).
    pub fn labels(&self) -> Vec<&'static str> {
        let mut l = Vec::new();
        if !self.transcript_capture {
            l.push("no transcript");
        }
        if !(self.session_end_hook && self.pre_compaction_hook) {
            l.push("no save hooks");
        }
        l
    }

    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        if !self.transcript_capture {
            w.push("Transcript archive is unavailable in this session.".to_string());
        }
        if !(self.session_end_hook && self.pre_compaction_hook) {
            w.push(
                "Deterministic save backstops (session-end, pre-compaction hooks) are unavailable: save at boundaries yourself."
                    .to_string(),
            );
        }
        w
    }
}

pub trait Harness: Send {
    /// The harness this process runs under, as recorded in a binding (`claude-code`, `cli`).
    fn name(&self) -> &str;
    /// What this session's harness provides right now.
    fn capabilities(&self) -> Capabilities;
    /// The capability warnings of SPEC §6.1 from the report `dossier init` (or `doctor`) last
    /// recorded in `config.yaml` (SPEC §9.3: the context library shows these).
    fn recorded_warnings(&self, config: &Config) -> Vec<String>;
    /// Whether this process runs inside a known harness session (SPEC §7.2: `ls` then shows
    /// the capability warnings); a harness named `cli` is none.
    fn in_session(&self) -> bool {
        self.name() != "cli"
    }
}

/// No harness: nothing is registered, nothing was recorded.
pub struct Detached;

impl Harness for Detached {
    fn name(&self) -> &str {
        "cli"
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities::none()
    }
    fn recorded_warnings(&self, _: &Config) -> Vec<String> {
        Vec::new()
    }
}
