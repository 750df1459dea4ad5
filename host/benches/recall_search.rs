//! Recall and search benchmarks (figures in docs/performance.md):
//! - `recall_100k_tokens`: the whole `dossier recall --json` process for a Distilled State of
//!   ~100,000 estimated tokens, token estimate included (goal: ≤ 60 ms);
//! - `search_1gb` vs `rg_1gb`: `dossier search --literal` and `rg -c` for the same literal over
//!   the same generated ~1 GB archive, page cache warm (goal: dossier ≥ 0.5× rg's throughput,
//!   i.e. at most 2× its time);
//! - `ranked_rare_1gb` vs `rg_rare_1gb`, `ranked_frequent_1gb` vs `rg_frequent_1gb`: ranked
//!   search (the default) for a word in 10 files and for one in nearly every file, against
//!   `rg -c -i -F` for the same word (issue 22: the same ≥ 0.5× goal). Needs `rg` on PATH.

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

/// Append a line with [`RARE`] to the first artifact of every 100th Dossier (10 files).
fn plant_rare_word(dir: &Path) {
    let mut slugs: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("dossier.md").is_file()).collect();
    slugs.sort();
    for d in slugs.iter().step_by(100) {
        let mut arts: Vec<PathBuf> = std::fs::read_dir(d.join("artifacts"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md" || e == "txt"))
            .collect();
        arts.sort();
        let mut text = std::fs::read_to_string(&arts[0]).unwrap();
        text.push_str("\nThe Zephyrine cutover is scheduled.\n");
        std::fs::write(&arts[0], text).unwrap();
    }
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
        plant_rare_word(&dir);
        let size = Command::new("du").args(["-sb"]).arg(&dir).output().unwrap();
        eprintln!("search store: {}", String::from_utf8_lossy(&size.stdout).trim());
        dir
    })
}

const QUERY: &str = "failover replica";
/// Ranked search, a word in a handful of files (planted after generation).
const RARE: &str = "zephyrine";
/// Ranked search, a word in nearly every file of the generated store.
const FREQUENT: &str = "failover";

/// `dossier search <args> --json` over the 1 GB store.
fn dossier_search(args: &[&str]) {
    let out = Command::new(bin()).arg("search").args(args).arg("--json").env("DOSSIER_HOME", search_store()).output();
    assert!(out.unwrap().status.success());
}

/// `rg <args>` over the same directory (exit 1, no match, is fine).
fn rg(args: &[&str]) {
    let out = Command::new("rg").args(args).arg(search_store()).output().expect("rg on PATH");
    assert!(out.status.code().is_some_and(|c| c <= 1));
}

/// Exact lookup, literal (today's semantics) vs `rg -c -F`.
#[divan::bench(sample_count = 10)]
fn search_1gb(bencher: Bencher) {
    search_store();
    bencher.bench(|| dossier_search(&[QUERY, "--literal"]));
}

#[divan::bench(sample_count = 10)]
fn rg_1gb(bencher: Bencher) {
    search_store();
    bencher.bench(|| rg(&["-c", "-F", QUERY]));
}

/// Ranked (the default), a rare word, vs `rg -c -i -F` for it (case-insensitive like ranked).
#[divan::bench(sample_count = 10)]
fn ranked_rare_1gb(bencher: Bencher) {
    search_store();
    bencher.bench(|| dossier_search(&[RARE]));
}

#[divan::bench(sample_count = 10)]
fn rg_rare_1gb(bencher: Bencher) {
    search_store();
    bencher.bench(|| rg(&["-c", "-i", "-F", RARE]));
}

/// Ranked, a word in nearly every file (every file is tokenised and scored).
#[divan::bench(sample_count = 10)]
fn ranked_frequent_1gb(bencher: Bencher) {
    search_store();
    bencher.bench(|| dossier_search(&[FREQUENT]));
}

#[divan::bench(sample_count = 10)]
fn rg_frequent_1gb(bencher: Bencher) {
    search_store();
    bencher.bench(|| rg(&["-c", "-i", "-F", FREQUENT]));
}
