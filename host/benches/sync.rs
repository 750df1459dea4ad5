//! Sync benchmarks (issue 23; figures in docs/performance.md, "Sync"):
//! - `sync_noop_1k`: the whole `dossier sync` process with nothing to do, on a store of 1,000
//!   generated Dossiers × 3 artifacts synced once (in setup) to a bare repository on local disk;
//! - `git_status_fetch_1k`: `git status` then `git fetch` in the same repository, the
//!   reference for the ratio (target: `sync_noop_1k` ≤ 2×).
//!
//! Setup also times `dossier sync init` on that store (its secret scan of every stored file
//! first) and prints it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use divan::Bencher;

fn main() {
    divan::main();
}

/// The synced store (its own HOME beside it, no user git identity or system config).
fn store() -> &'static (PathBuf, PathBuf) {
    static S: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    S.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let (root, home, remote) = (dir.join("store"), dir.join("home"), dir.join("remote.git"));
        std::fs::create_dir_all(&home).unwrap();
        let st = git(&dir, &["init", "-q", "--bare", "-b", "main"]).arg(&remote).status().unwrap();
        assert!(st.success());
        let init = dossier(&root, &home).arg("init").output().unwrap();
        assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stderr));
        let spec =
            dossier_store::generate::Spec { dossiers: 1_000, artifacts_per_dossier: 3, body_bytes: 4_000, seed: 23 };
        dossier_store::generate::generate(&root, &spec).unwrap();
        let t = Instant::now();
        let url = format!("file://{}", remote.display());
        let out = dossier(&root, &home).args(["sync", "init", &url, "--allow-secrets"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        eprintln!(
            "setup: `dossier sync init` of 1,000 Dossiers x 3 artifacts (secret scan, commit, push): {:?}",
            t.elapsed()
        );
        let out = dossier(&root, &home).arg("sync").output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (root, home)
    })
}

fn dossier(root: &Path, home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dossier"));
    c.env("DOSSIER_HOME", root).env("HOME", home).env("GIT_CONFIG_NOSYSTEM", "1");
    c
}

fn git(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(dir).args(args).env("GIT_CONFIG_NOSYSTEM", "1").env("HOME", dir);
    c
}

#[divan::bench(sample_count = 30)]
fn sync_noop_1k(bencher: Bencher) {
    let (root, home) = store();
    bencher.bench(|| {
        let out = dossier(root, home).arg("sync").output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    });
}

#[divan::bench(sample_count = 30)]
fn git_status_fetch_1k(bencher: Bencher) {
    let (root, home) = store();
    bencher.bench(|| {
        let status = git(root, &["status"]).env("HOME", home).output().unwrap();
        assert!(status.status.success());
        let fetch = git(root, &["fetch", "-q", "origin"]).env("HOME", home).output().unwrap();
        assert!(fetch.status.success(), "{}", String::from_utf8_lossy(&fetch.stderr));
    });
}
