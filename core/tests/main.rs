//! dossier-core's integration tests: one test binary (as ripgrep, cargo and jj do), one module
//! per policy, each through the crate's public API.
//!
//! - `learning`: codecall's learning policy.
//! - `item_eval`: `check_item` scored on sets of MCQ items labelled with their item-writing
//!   flaws (`tests/item_eval/<set>/`, issue 21); the development set is used for tuning.
//! - `merge_fixtures`: the merge policy's calibration fixtures (`tests/merge/<fixture>/`),
//!   resolutions, ids and proptests; its timing run is `--ignored`.
//! - `merge_eval`: the merge policy's held-out evaluation set (`tests/merge_eval/heldout/`,
//!   issue 19), scored per kind against a recorded baseline; never used for tuning. Also the
//!   development sets (`tests/merge_dev/`, `tests/merge_dev2/`, `tests/merge_dev3/`), scored
//!   the same way and used for tuning.
//! - `redaction`: the redaction policy on its calibration corpus
//!   (`tests/fixtures/redaction/calibration/`, issue 20): recall and near-misses redacted.
//!
//! Not for: unit tests of private items (they live next to the code, in `src/`).

mod item_eval;
mod learning;
mod merge_eval;
mod merge_fixtures;
mod redaction;
