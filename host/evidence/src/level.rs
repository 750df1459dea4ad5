//! The rungs of the acquisition ladder (codecall ARCHITECTURE §7) as one enum: what a request
//! names as `max_level`, what budget omissions and stop records are attributed to, and what the
//! pack reports per level.
//!
//! It sits below both `request.rs` and `budget.rs` (a request holds a budget; the budget's
//! records name levels), so neither has to use the other's module for it.
//!
//! Not for: running a level (`collect/`), or deciding whether a level is needed (the host sets
//! `max_level`).

use serde::{Deserialize, Serialize};

/// The rungs of the acquisition ladder (codecall ARCHITECTURE §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// 1: task text, changed-file metadata, diff summary (status, renames, line counts, hunks).
    Metadata = 1,
    /// 2: bounded excerpts around changed hunks and the symbols they touch.
    Excerpts = 2,
    /// 3: definitions and references of the changed symbols across the repository.
    Search = 3,
    /// 4: a declared, bounded repository slice; only with explicit consent.
    Slice = 4,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Metadata, Level::Excerpts, Level::Search, Level::Slice];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Metadata => "metadata",
            Level::Excerpts => "excerpts",
            Level::Search => "search",
            Level::Slice => "slice",
        }
    }
}
