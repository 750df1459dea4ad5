//! libFuzzer target: the `transcript` parser (see `dossier_fuzz::host_targets::transcript`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dossier_fuzz::host_targets::transcript(data));
