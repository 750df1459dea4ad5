//! libFuzzer target: the `config` parser (see `dossier_fuzz::targets::config`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dossier_fuzz::targets::config(data));
