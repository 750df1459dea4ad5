//! Loading and calling policy components (the `dossier:policy@2.3.0` WIT package).
//!
//! What this is for: the host side of the one contract between policy and host. It picks
//! the component for each interface (the embedded default, or a file named in
//! `config.yaml`), checks that the component exports that interface at a compatible
//! version, compiles it at most once per machine (see [`cache`]), and runs every call in a
//! fresh store with no capabilities, a wall-clock deadline (see [`deadline`]) and a memory cap. Outputs are checked
//! before use (a sort must return a permutation of its input, a redacted text keeps its line count).
//!
//! What it is not for: deciding anything. Priority, ranking, merge, distillation, learning
//! and redaction decisions live in `dossier-core` (or an alternate component); this module
//! only moves data across the boundary and reports failures precisely.
//!
//! Invariant: a component that fails to load or run is an error naming the component and
//! the cause. There is no silent fallback to the default component.

mod adapter;
mod bindings;
pub mod cache;
mod deadline;
mod learning;
mod runtime;

pub use adapter::ComponentPolicy;
pub use cache::{CacheOutcome, CompileCache};
pub use learning::ComponentLearningPolicy;
pub use runtime::*;
