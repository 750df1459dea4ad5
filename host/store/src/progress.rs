//! Progress of long operations (a large search, a merge's artifact copy, a large capture) as
//! a handle the caller passes in: operations report phases and increments to a [`Progress`];
//! what, if anything, is drawn is the caller's choice (the CLI's bar lives in the binary).
//!
//! Not for: drawing anything, or deciding whether an operation is long (every instrumented
//! operation reports; drawing is rate-limited by the implementation).

/// What a phase counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Files,
    Bytes,
    Steps,
}

/// Where operations report progress. Implementations are cheap to call from many threads.
pub trait Progress: Sync {
    /// Begin a phase named `what` of `total` units (0: unknown, a spinner).
    fn start(&self, what: &str, total: u64, unit: Unit);
    /// `n` more units of the current phase are done.
    fn advance(&self, n: u64);
    /// The operation is over: remove what was drawn.
    fn finish(&self);
}

/// Reports nothing (MCP, hooks, tests, and the CLI off a terminal or with `--quiet`).
pub struct Silent;

/// The no-op progress every non-CLI path uses.
pub static SILENT: Silent = Silent;

impl Progress for Silent {
    fn start(&self, _: &str, _: u64, _: Unit) {}
    fn advance(&self, _: u64) {}
    fn finish(&self) {}
}
