//! Wall-clock deadlines for policy calls, through wasmtime's epoch interruption.
//!
//! What this is for: bounding how long one call into an *alternate* policy component (one
//! named in config.yaml) may run. Its engine is built with `epoch_interruption`; each call's
//! store gets a deadline of `ticks(time_ms)` epochs, and
//! a [`Ticker`] thread advances the engine's epoch every [`TICK`] while at least one call
//! is running. A call past its deadline traps with `Trap::Interrupt`.
//!
//! Why epochs and not fuel: fuel instruments every basic block with a counter update and
//! cost ranking 1,000 candidates ~20% (docs/performance.md); an epoch check is one load and
//! compare at function entries and loop headers. The bound is wall-clock rather than an
//! instruction count, which is what a user waiting on a command cares about. The embedded
//! default component is part of this binary and runs on an engine without the checks.
//!
//! What it is not for: limiting memory (the store's `ResourceLimiter` does that) or
//! deciding what a timeout means to the caller (`PolicyError::TimedOut`).
//!
//! Invariant: the ticker thread wakes only while a call is running; an idle process (the
//! MCP server between requests) has no periodic wake-ups. It exits when its `Ticker` is
//! dropped.

use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use wasmtime::Engine;

/// Epoch granularity: a deadline is honoured within about one tick.
pub const TICK: Duration = Duration::from_millis(5);

/// Epochs a call may run for a limit of `time_ms` milliseconds. One extra tick because
/// the first tick can come right after the deadline is set.
pub fn ticks(time_ms: u64) -> u64 {
    time_ms.div_ceil(TICK.as_millis() as u64).max(1) + 1
}

#[derive(Default)]
struct State {
    running: usize,
    closed: bool,
}

type Shared = Arc<(Mutex<State>, Condvar)>;

/// Advances one engine's epoch while calls run. Started on the first call.
pub struct Ticker {
    shared: Shared,
    thread: OnceLock<()>,
}

/// Held for the duration of one call; the ticker parks when the last one is dropped.
pub struct Running(Shared);

impl Ticker {
    pub fn new() -> Self {
        Ticker { shared: Arc::default(), thread: OnceLock::new() }
    }

    /// Mark a call as running on `engine` (whose epoch this ticker advances).
    pub fn enter(&self, engine: &Engine) -> Running {
        self.thread.get_or_init(|| {
            let shared = self.shared.clone();
            let engine = engine.clone();
            std::thread::Builder::new()
                .name("dossier-policy-epoch".into())
                .spawn(move || tick(&shared, &engine))
                .map(drop)
                // Without a ticker no deadline fires; calls still run, unbounded in time.
                .unwrap_or(())
        });
        let (lock, wake) = &*self.shared;
        lock.lock().unwrap_or_else(|e| e.into_inner()).running += 1;
        wake.notify_one();
        Running(self.shared.clone())
    }
}

impl Default for Ticker {
    fn default() -> Self {
        Ticker::new()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut state = self.0.0.lock().unwrap_or_else(|e| e.into_inner());
        state.running = state.running.saturating_sub(1);
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        let (lock, wake) = &*self.shared;
        lock.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        wake.notify_one();
    }
}

fn tick(shared: &Shared, engine: &Engine) {
    let (lock, wake) = &**shared;
    loop {
        {
            let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
            while state.running == 0 && !state.closed {
                state = wake.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.closed {
                return;
            }
        }
        std::thread::sleep(TICK);
        engine.increment_epoch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_round_up_and_add_one() {
        assert_eq!(ticks(0), 2);
        assert_eq!(ticks(1), 2);
        assert_eq!(ticks(5), 2);
        assert_eq!(ticks(6), 3);
        assert_eq!(ticks(5_000), 1_001);
    }
}
