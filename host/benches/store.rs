//! Store benchmarks (figures in docs/performance.md):
//! - `ls_json_500`, `ls_json_10k`: the whole `dossier ls --json` process over generated
//!   stores (SPEC: 500 under 2 s; goal: 10,000 within 1.5× of ripgrep);
//! - `rg_status_10k`: `rg -l '^status:' -g dossier.md` over the same 10,000-Dossier store,
//!   the reference for the ratio (needs `rg` on PATH);
//! - `save_100kb`: one Save of a 100 KB Distilled State through the Save path, in process
//!   (goal: ≤ 10 ms median).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use divan::Bencher;

fn main() {
    divan::main();
}

fn store(n: usize) -> &'static Path {
    static S500: OnceLock<PathBuf> = OnceLock::new();
    static S10K: OnceLock<PathBuf> = OnceLock::new();
    let cell = if n == 500 { &S500 } else { &S10K };
    cell.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let init = Command::new(env!("CARGO_BIN_EXE_dossier")).arg("init").env("DOSSIER_HOME", &dir).output().unwrap();
        assert!(init.status.success());
        let spec = dossier_store::generate::Spec { dossiers: n, artifacts_per_dossier: 0, body_bytes: 4_000, seed: 7 };
        dossier_store::generate::generate(&dir, &spec).unwrap();
        dir
    })
}

fn ls(root: &Path) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_dossier")).args(["ls", "--json"]).env("DOSSIER_HOME", root).output().unwrap();
    assert!(out.status.success());
}

#[divan::bench(sample_count = 20)]
fn ls_json_500(bencher: Bencher) {
    let root = store(500);
    bencher.bench(|| ls(root));
}

#[divan::bench(sample_count = 20)]
fn ls_json_10k(bencher: Bencher) {
    let root = store(10_000);
    bencher.bench(|| ls(root));
}

#[divan::bench(sample_count = 20)]
fn rg_status_10k(bencher: Bencher) {
    let root = store(10_000);
    bencher.bench(|| {
        let out =
            Command::new("rg").args(["-l", "^status:", "-g", "dossier.md"]).arg(root).output().expect("rg on PATH");
        assert!(out.status.success());
    });
}

#[divan::bench(sample_count = 50)]
fn save_100kb(bencher: Bencher) {
    let root = store(500);
    let s = dossier::app::with(
        dossier_store::layout::Store::at(root.to_path_buf()),
        dossier_store::config::Config::default(),
    );
    let created = dossier_store::save::create(
        &s,
        dossier_store::save::CreateRequest { name: "Bench save".into(), actor: "bench".into(), ..Default::default() },
        &dossier_store::progress::SILENT,
    )
    .unwrap();
    let filler = "- A material claim with provenance for the benchmark. [src:art_0000000000000#L1-L9]\n".repeat(1_200);
    let mut n = 0u64;
    bencher.bench_local(|| {
        n += 1;
        let rev = dossier_store::save::revision(&created.path).unwrap();
        let req = dossier_store::save::SaveRequest {
            base_revision: Some(rev),
            distilled_state: Some(format!("# Bench save\n\n## Situation\n\n{n}\n{filler}")),
            actor: "bench".into(),
            ..Default::default()
        };
        dossier_store::save::save(&s, &created.slug, req, &dossier_store::progress::SILENT).unwrap()
    });
}
