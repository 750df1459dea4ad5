//! `dossier-store`'s integration tests: one binary (as ripgrep and cargo do), one module per
//! concern.

mod deps;
