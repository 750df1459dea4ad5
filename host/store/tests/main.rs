//! `dossier-store`'s integration tests: one binary (as ripgrep and cargo do), one module per
//! concern. The Save path and store behaviour run in-process, on real files in temp
//! directories, with the native policy (`native`) where the binary uses the component.

mod common;
mod concurrency;
mod conflicts;
mod deps;
mod fuzz_props;
mod listing;
mod merge;
mod native;
mod recall;
mod redact;
mod save;
mod sessions;
mod symlinks;
