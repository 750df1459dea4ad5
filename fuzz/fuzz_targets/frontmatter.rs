//! libFuzzer target: the `frontmatter` parser (see `dossier_fuzz::targets::frontmatter`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dossier_fuzz::targets::frontmatter(data));
