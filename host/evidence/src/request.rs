//! What the host asks for: the implementation locator (repository + which changes + task text),
//! how far up the acquisition ladder to go, the budget, shape limits, privacy rules, and the
//! consent-gated repository slice.
//!
//! All of it comes from the host, never from the repository: the collector reads no
//! configuration file, attribute or comment in the repository that could widen what it reads.
//!
//! Not for: validating against the repository (revisions are resolved, slice paths checked
//! against the tree, in `collect/`).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::budget::Budget;
use crate::level::Level;
use crate::privacy::PrivacyRules;

/// Which changes make up the implementation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "mode")]
pub enum Changes {
    /// Committed work: the diff from `base` to `head` (any revision git resolves to a commit).
    Revisions { base: String, head: String },
    /// Uncommitted work: the working tree against `HEAD` — staged, unstaged, and untracked files
    /// that are not ignored. In a repository without commits, everything is new.
    WorkingTree,
    /// The work since a commit: the working tree against `base` — the commits made since `base`
    /// plus the uncommitted changes (and untracked files). With `paths`, only those
    /// repository-relative files (the files a session's transcript shows it edited).
    Since {
        base: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        paths: Vec<String>,
    },
}

/// How the host chose the changes (codecall's locate rules, docs/codecall.md): recorded in the
/// pack so a reader knows why these changes are the implementation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Located {
    /// `explicit`, `session_head`, `session_edits`, `working_tree`, `last_commit` or `none`.
    pub rule: String,
    /// What the rule saw, and any caveat (e.g. "the last commit, not necessarily this session's").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Where the implementation is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplementationLocator {
    /// Any directory inside the repository's work tree; paths are reported relative to its root.
    pub repo: PathBuf,
    pub changes: Changes,
    /// The conversation's task/result text, if the host has it (redacted, charged to level 1).
    #[serde(default)]
    pub task: Option<String>,
    /// Which locate rule chose `changes` (the host's; copied into the pack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub located: Option<Located>,
}

/// Level 4: a repository slice the host declares, with the user's consent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SliceRequest {
    /// The user agreed to this slice. Without it, nothing under `paths` is read.
    pub consent: bool,
    /// Repository-relative files or directories (no `..`, not absolute).
    pub paths: Vec<String>,
    /// Why the slice is needed (recorded in the pack, e.g. the unresolved dependency).
    #[serde(default)]
    pub reason: Option<String>,
}

/// Shape limits: how excerpts and searches are cut. They bound work and output per item; the
/// [`Budget`] bounds the whole pack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Context lines on each side of a changed span.
    pub context_lines: u32,
    /// An excerpt is extended up to its enclosing definition when that is at most this many
    /// lines above the changed span.
    pub max_enclosing_gap: u32,
    /// Excerpt lines per file (all its windows together).
    pub max_lines_per_file: u32,
    /// Files larger than this are not read (nor diffed for hunks).
    pub max_file_read_bytes: u64,
    /// Changed symbols searched for at level 3.
    pub max_symbols: u32,
    /// Search hits kept per symbol (definitions first).
    pub max_hits_per_symbol: u32,
    /// Files searched at level 3.
    pub max_scan_files: u64,
    /// Matching lines longer than this are not included.
    pub max_line_bytes: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            context_lines: 8,
            max_enclosing_gap: 40,
            max_lines_per_file: 400,
            max_file_read_bytes: 1024 * 1024,
            max_symbols: 24,
            max_hits_per_symbol: 6,
            max_scan_files: 20_000,
            max_line_bytes: 400,
        }
    }
}

/// One collection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceRequest {
    pub locator: ImplementationLocator,
    /// Highest level to attempt (default: [`Level::Search`]). Level 4 also needs `slice` with
    /// `consent: true`.
    #[serde(default = "default_max_level")]
    pub max_level: Level,
    #[serde(default)]
    pub budget: Budget,
    #[serde(default)]
    pub limits: Limits,
    #[serde(default)]
    pub privacy: PrivacyRules,
    #[serde(default)]
    pub slice: Option<SliceRequest>,
    /// The git program (default `git` on `PATH`).
    #[serde(default)]
    pub git_program: Option<PathBuf>,
}

fn default_max_level() -> Level {
    Level::Search
}

impl EvidenceRequest {
    /// A request with default level, budget, limits and privacy rules.
    pub fn new(locator: ImplementationLocator) -> Self {
        EvidenceRequest {
            locator,
            max_level: default_max_level(),
            budget: Budget::default(),
            limits: Limits::default(),
            privacy: PrivacyRules::default(),
            slice: None,
            git_program: None,
        }
    }
}
