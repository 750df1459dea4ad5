//! libFuzzer target: the `conflict_file` parser (see `dossier_fuzz::targets::conflict_file`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dossier_fuzz::targets::conflict_file(data));
