//! The fuzz targets' bodies, one per parser; `fuzz_targets/*.rs` hand them libFuzzer's
//! inputs, and the project's test suite replays the committed corpora through the same
//! functions (`tests/fuzz.rs` includes `targets.rs` and `host_targets.rs`).
#[cfg(feature = "host")]
pub mod host_targets;
pub mod targets;
