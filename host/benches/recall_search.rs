//! Recall and search benchmarks (figures in docs/performance.md):
//! - `recall_100k_tokens`: the whole `dossier recall --json` process for a Distilled State of
//!   ~100,000 estimated tokens, token estimate included (goal: ≤ 60 ms);
//! - `search_1gb` vs `rg_1gb`: `dossier search` and `rg -c` for the same literal over the
//!   same generated ~1 GB archive, page cache warm (goal: dossier ≥ 0.5× rg's throughput,
//!   i.e. at most 2× its time). Needs `rg` on PATH.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use divan::Bencher;

fn main() {
    divan::main();
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dossier")
}

fn init(dir: &Path) {
    let out = Command::new(bin()).arg("init").env("DOSSIER_HOME", dir).output().unwrap();
    assert!(out.status.success());
}

fn recall_store() -> &'static Path {
    static S: OnceLock<PathBuf> = OnceLock::new();
    S.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        init(&dir);
        let store =
            dossier::app::with(dossier_store::layout::Store::at(dir.clone()), dossier_store::config::Config::default());
        let created = dossier_store::save::create(
            &store,
            dossier_store::save::CreateRequest {
                name: "Big state".into(),
                actor: "bench".into(),
                ..Default::default()
            },
            &dossier_store::progress::SILENT,
        )
        .unwrap();
        let words = ["pricing", "renewal", "enterprise", "latency", "migration", "customer", "contract", "forecast"];
        let mut body = String::from("# Big state\n\n## Situation\n\n");
        let mut n = 0usize;
        // ~100,000 estimated tokens (cl100k tokens x 1.4).
        while dossier_store::tokens::estimate(&body, 1.4).tokens < 100_000 {
            for _ in 0..200 {
                body.push_str(&format!(
                    "- Claim {n}: the {} {} changed the {} plan by {} percent. [src:art_0000000000000#L{}-L{}]\n",
                    words[n % 8],
                    words[(n / 8) % 8],
                    words[(n / 64) % 8],
                    n % 97,
                    n % 500 + 1,
                    n % 500 + 4
                ));
                n += 1;
            }
        }
        body.push_str("\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n");
        let req = dossier_store::save::SaveRequest {
            base_revision: Some(created.revision.clone()),
            distilled_state: Some(body),
            actor: "bench".into(),
            ..Default::default()
        };
        dossier_store::save::save(&store, &created.slug, req, &dossier_store::progress::SILENT).unwrap();
        dir
    })
}

#[divan::bench(sample_count = 30)]
fn recall_100k_tokens(bencher: Bencher) {
    let dir = recall_store();
    bencher.bench(|| {
        let out =
            Command::new(bin()).args(["recall", "big-state", "--json"]).env("DOSSIER_HOME", dir).output().unwrap();
        assert!(out.status.success());
        out
    });
}

fn search_store() -> &'static Path {
    static S: OnceLock<PathBuf> = OnceLock::new();
    S.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        init(&dir);
        // 1,000 Dossiers x 50 artifacts of 1–40 KB ≈ 1 GB.
        let spec =
            dossier_store::generate::Spec { dossiers: 1_000, artifacts_per_dossier: 50, body_bytes: 4_000, seed: 3 };
        dossier_store::generate::generate(&dir, &spec).unwrap();
        let size = Command::new("du").args(["-sb"]).arg(&dir).output().unwrap();
        eprintln!("search store: {}", String::from_utf8_lossy(&size.stdout).trim());
        dir
    })
}

const QUERY: &str = "failover replica";

#[divan::bench(sample_count = 10)]
fn search_1gb(bencher: Bencher) {
    let dir = search_store();
    bencher.bench(|| {
        let out = Command::new(bin()).args(["search", QUERY, "--json"]).env("DOSSIER_HOME", dir).output().unwrap();
        assert!(out.status.success());
        out
    });
}

#[divan::bench(sample_count = 10)]
fn rg_1gb(bencher: Bencher) {
    let dir = search_store();
    bencher.bench(|| {
        let out = Command::new("rg").args(["-c", "-F", QUERY]).arg(dir).output().expect("rg on PATH");
        assert!(out.status.success());
        out
    });
}
