//! Hook benchmarks (figures in docs/performance.md):
//! - `session_start_unbound_1000`: the whole `dossier hook session-start` process for an
//!   unbound session over 1,000 Dossiers, warm compile cache, Claude Code registered (so no
//!   capability warnings): goal ≤ 15 ms median. Its output's token estimate is printed once.
//! - `process_spawn_floor`: spawning `true` (reference).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use divan::Bencher;

fn main() {
    divan::main();
}

/// A HOME with Claude Code "installed" (~/.claude), `dossier init --yes` run against it,
/// and 1,000 generated Dossiers in its default store.
fn home() -> &'static Path {
    static H: OnceLock<PathBuf> = OnceLock::new();
    H.get_or_init(|| {
        let home = tempfile::tempdir().unwrap().keep();
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        let store = home.join(".dossier");
        let out = Command::new(env!("CARGO_BIN_EXE_dossier"))
            .args(["init", "--yes", "--no-self-install"])
            .env("HOME", &home)
            .env_remove("DOSSIER_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        let spec = dossier::generate::Spec { dossiers: 1_000, artifacts_per_dossier: 0, body_bytes: 4_000, seed: 11 };
        dossier::generate::generate(&store, &spec).unwrap();
        let text = session_start(&home);
        let tokens = dossier::tokens::estimate(&text, dossier::tokens::DEFAULT_CALIBRATION);
        eprintln!("session-start output ({} bytes, ~{} tokens): {text}", text.len(), tokens.tokens);
        home
    })
}

fn session_start(home: &Path) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dossier"))
        .args(["hook", "session-start"])
        .env("HOME", home)
        .env_remove("DOSSIER_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"session_id":"bench-unbound","source":"startup","hook_event_name":"SessionStart"}"#)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[divan::bench(sample_count = 50)]
fn session_start_unbound_1000(bencher: Bencher) {
    let home = home();
    bencher.bench_local(|| session_start(home));
}

#[divan::bench(sample_count = 50)]
fn process_spawn_floor(bencher: Bencher) {
    bencher.bench_local(|| Command::new("true").output().unwrap());
}
