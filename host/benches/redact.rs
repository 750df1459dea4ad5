//! Redaction benchmarks (issue 20 item 7; figures in docs/performance.md): a realistic 24 MB
//! Claude Code JSONL transcript (tool results with source code, build output, JSON, prose,
//! usage records and a few secrets) redacted
//! - `redact_24mb_component`: through the embedded component (target ≥ 100 MB/s),
//! - `redact_24mb_native`: by the same policy natively (reference),
//! - `rg_24mb_same_rules`: `rg -c -f patterns.txt` over the same file, the patterns being the
//!   policy's own rule table (`dossier_core::redact::rg_patterns`): ripgrep runs every rule on
//!   every line, the policy only near its anchors. Compare within one run, as a ratio.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use divan::{Bencher, counter::BytesCount};
use dossier::policy::{CompileCache, Limits, Policies, RedactionOptions};

fn main() {
    divan::main();
}

#[path = "support/redact_transcript.rs"]
mod redact_transcript;
use redact_transcript::transcript;

fn options() -> RedactionOptions {
    RedactionOptions { key: vec![5; 32], allow: vec![] }
}

fn warm_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let status =
            Command::new(env!("CARGO_BIN_EXE_dossier")).arg("init").env("DOSSIER_HOME", &dir).output().unwrap();
        assert!(status.status.success());
        let text = transcript();
        std::fs::write(dir.join("transcript.jsonl"), text).unwrap();
        std::fs::write(dir.join("patterns.txt"), dossier_core::redact::rg_patterns().join("\n") + "\n").unwrap();
        dir
    })
}

#[divan::bench(sample_count = 10)]
fn redact_24mb_component(bencher: Bencher) {
    let cache = CompileCache::new(Some(warm_dir().join(".cache/policy")));
    let p = Policies::new(cache, &HashMap::new(), Limits::default()).unwrap();
    let text = transcript();
    let o = options();
    let r = p.redact(text, &o).unwrap();
    assert!(r.hits.len() >= 8, "{} hits", r.hits.len());
    bencher.counter(BytesCount::new(text.len())).bench(|| p.redact(text, &o).unwrap());
}

/// The fixed cost of a call: the first 64 KB of the transcript plus one secret, through a fresh
/// instance (instantiation, the prefilter's automaton, the regexes the secret's anchors need, and
/// copying in and out). `redact_24mb_component` minus this is what the bytes cost.
#[divan::bench(sample_count = 10)]
fn redact_64kb_component(bencher: Bencher) {
    let cache = CompileCache::new(Some(warm_dir().join(".cache/policy")));
    let p = Policies::new(cache, &HashMap::new(), Limits::default()).unwrap();
    let text = small_text();
    let o = options();
    assert_eq!(p.redact(&text, &o).unwrap().hits.len(), 1);
    bencher.counter(BytesCount::new(text.len())).bench(|| p.redact(&text, &o).unwrap());
}

fn small_text() -> String {
    let t = transcript();
    let cut = t[..64 << 10].rfind('\n').unwrap() + 1;
    format!("{}GITHUB_TOKEN=ghp_{}\n", &t[..cut], "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY2z4C")
}

#[divan::bench(sample_count = 10)]
fn redact_24mb_native(bencher: Bencher) {
    use dossier_core::redact as native;
    let text = transcript();
    let key = [5u8; 32];
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| native::redact(text, &native::Options { key: &key, allow: &[] }).unwrap());
}

#[divan::bench(sample_count = 10)]
fn rg_24mb_same_rules(bencher: Bencher) {
    let dir = warm_dir();
    bencher.counter(BytesCount::new(transcript().len())).bench(|| {
        let out = Command::new("rg")
            .args(["-c", "-f"])
            .arg(dir.join("patterns.txt"))
            .arg(dir.join("transcript.jsonl"))
            .output()
            .expect("ripgrep (`rg`) on PATH");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    });
}
