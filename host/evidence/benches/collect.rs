//! Collection on a generated 2,000-file repository with a 50-file diff (target: ≤ 300 ms,
//! release build, levels 1–3 run to completion: default budget except `max_files`).
//!
//! The repository is generated once per run in a temp dir with real `git` commits: 40
//! directories × 50 Rust modules, each defining five functions and calling functions of two
//! other modules (so level 3 finds definitions and references). The diff changes two lines and
//! adds a function in 50 modules spread over the tree. `revisions` collects `base..head`;
//! `worktree` collects the same change left uncommitted in a second copy.

use std::path::Path;
use std::process::Command;
use std::sync::LazyLock;

use divan::Bencher;
use dossier_evidence::{Changes, EvidencePack, EvidenceRequest, ImplementationLocator};

/// The collector with the redaction policy's rules natively, as the tests hand them in (one
/// adapter, `tests/common`).
#[path = "../tests/common/mod.rs"]
mod common;
use common::collect;

const DIRS: usize = 40;
const PER_DIR: usize = 50;
const CHANGED: usize = 50;

fn main() {
    report(&REVISIONS.1, "revisions");
    report(&WORKTREE.1, "worktree");
    divan::main();
}

fn report(req: &EvidenceRequest, name: &str) {
    let pack: EvidencePack = collect(req).expect("collect");
    let levels: Vec<String> =
        pack.levels.iter().map(|l| format!("{}={:?}/{}ms", l.level.as_str(), l.status, l.elapsed_ms)).collect();
    eprintln!(
        "{name}: {} changed files, {} excerpts, {} symbols, {} hits, {} files scanned, {} bytes, {} tokens; {}",
        pack.files.len(),
        pack.excerpts.len(),
        pack.search.symbols.len(),
        pack.search.hits.len(),
        pack.search.files_scanned,
        pack.budget.used.bytes,
        pack.budget.used.tokens,
        levels.join(" ")
    );
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn module(d: usize, m: usize, changed: bool) -> String {
    let id = d * PER_DIR + m;
    let a = (id * 7 + 3) % (DIRS * PER_DIR);
    let b = (id * 13 + 5) % (DIRS * PER_DIR);
    let mut s = format!("//! Module {id}.\n\nuse crate::shared::Context;\n\n");
    for f in 0..5 {
        let k = if changed && f == 2 { 1000 + f } else { f };
        s.push_str(&format!(
            "pub fn mod{id}_op{f}(ctx: &Context, input: &[u8]) -> usize {{\n    let mut acc = {k};\n    for byte in input {{\n        acc = acc.wrapping_mul(31).wrapping_add(*byte as usize);\n    }}\n    if ctx.verbose {{\n        acc += mod{a}_op{f}(ctx, input);\n    }}\n    acc + mod{b}_op1(ctx, input)\n}}\n\n"
        ));
    }
    if changed {
        s.push_str(&format!(
            "pub fn mod{id}_retry_delay(attempt: u32) -> u64 {{\n    let base = 100u64;\n    base.saturating_mul(1u64 << attempt.min(10))\n}}\n"
        ));
    }
    s
}

fn write_tree(dir: &Path, changed: bool) {
    for d in 0..DIRS {
        let sub = dir.join(format!("src/area{d:02}"));
        std::fs::create_dir_all(&sub).unwrap();
        for m in 0..PER_DIR {
            let is_changed = changed && is_changed(d, m);
            std::fs::write(sub.join(format!("mod{m:02}.rs")), module(d, m, is_changed)).unwrap();
        }
    }
}

/// 50 modules spread across the tree.
fn is_changed(d: usize, m: usize) -> bool {
    let id = d * PER_DIR + m;
    id % ((DIRS * PER_DIR) / CHANGED) == 7
}

fn locator(dir: &Path, changes: Changes) -> EvidenceRequest {
    let mut req = EvidenceRequest::new(ImplementationLocator {
        repo: dir.to_owned(),
        changes,
        task: Some("Add retry delays to the modules' operations".to_owned()),
        located: None,
    });
    // The default 60 files would stop level 3 after ten hit files (50 are excerpted): measure
    // the whole ladder instead.
    req.budget.max_files = 200;
    req
}

static REVISIONS: LazyLock<(tempfile::TempDir, EvidenceRequest)> = LazyLock::new(|| {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    write_tree(dir.path(), false);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    write_tree(dir.path(), true);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "head"]);
    let req = locator(dir.path(), Changes::Revisions { base: "HEAD~1".into(), head: "HEAD".into() });
    (dir, req)
});

static WORKTREE: LazyLock<(tempfile::TempDir, EvidenceRequest)> = LazyLock::new(|| {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    write_tree(dir.path(), false);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    write_tree(dir.path(), true);
    // Refresh the index's stat data so the benchmark measures collection, not a first refresh.
    git(dir.path(), &["update-index", "-q", "--refresh"]);
    let req = locator(dir.path(), Changes::WorkingTree);
    (dir, req)
});

#[divan::bench(sample_count = 20, sample_size = 1)]
fn revisions(bencher: Bencher) {
    let req = &REVISIONS.1;
    bencher.bench(|| collect(req).expect("collect"));
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn worktree(bencher: Bencher) {
    let req = &WORKTREE.1;
    bencher.bench(|| collect(req).expect("collect"));
}
