//! dossier-evidence's one integration-test binary (one module per concern, as ripgrep, cargo and jj
//! do): the collector run against real fixture repositories, through the crate's public API only.
//!
//! - `budget`: each limit enforced at every level and reported.
//! - `modes`: revisions and worktree modes, renames, binaries, symlinks, searches.
//! - `privacy`: sensitive paths and planted secrets never reach the pack.
//! - `slice`: level 4 only with consent, within budget.
//! - `common`: fixture repositories with a hermetic git configuration.

mod common;

mod budget;
mod modes;
mod privacy;
mod slice;
