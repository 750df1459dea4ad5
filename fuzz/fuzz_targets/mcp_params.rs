//! libFuzzer target: the `mcp_params` parser (see `dossier_fuzz::host_targets::mcp_params`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dossier_fuzz::host_targets::mcp_params(data));
