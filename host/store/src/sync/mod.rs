//! Sync (issue 23, docs/sync.md): one set of Dossiers on several machines, through the user's
//! own git. `git` runs git, `machine` says what is this machine's and never syncs, `merge` is
//! Dossier's merge semantics over three trees, `recover` what a killed sync left behind, `run`
//! the use cases (`init`, `clone`, `sync`).
//!
//! Not for: the command line (`dossier sync` in the binary) or hooks (`sync.auto`: the
//! binary's `ops::sync` starts a background sync).

pub mod git;
pub mod machine;
pub mod merge;
pub mod recover;
pub mod run;

pub use run::{CloneOutcome, InitOutcome, SyncOutcome, clone, init, sync};
