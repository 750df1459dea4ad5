//! libFuzzer target: the `provenance` parser (see `dossier_fuzz::targets::provenance`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dossier_fuzz::targets::provenance(data));
