//! Policy boundary benchmarks (figures in docs/performance.md):
//! - `load_warm_cache`: a new engine + loading the embedded component from a warm compile
//!   cache + instantiating it (target ≤ 2 ms);
//! - `sort_10k_component` vs `sort_10k_native`: ordering 10,000 Dossiers through the wasm
//!   component (target ≤ 20 ms) against the same policy run natively, as a ratio;
//! - `doctor_process`: the whole `dossier doctor` process on an empty store with a warm
//!   cache (target ≤ 30 ms), against `true` as the process-spawn floor;
//! - `distill_100k_component` vs `distill_100k_native`: validating a ~100,000-token Distilled
//!   State through the component (target ≤ 20 ms) and natively.
//! - `merge_100k_component`: conflict detection and convergence of two ~100,000-token states
//!   (half the claims shared, a tenth with changed values, the rest new) through the
//!   component (target ≤ 100 ms).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use divan::Bencher;
use dossier::policy::{CompileCache, Interface, Level, Limits, Policies, PriorityInput, Weights};

fn main() {
    divan::main();
}

fn warm_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let status =
            Command::new(env!("CARGO_BIN_EXE_dossier")).arg("init").env("DOSSIER_HOME", &dir).output().unwrap();
        assert!(status.status.success());
        dir
    })
}

fn policies() -> Policies {
    let cache = CompileCache::new(Some(warm_dir().join(".cache/policy")));
    Policies::new(cache, &HashMap::new(), Limits::default()).unwrap()
}

fn items(n: usize) -> Vec<PriorityInput> {
    let mut x: u64 = 42;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let r = x >> 33;
            PriorityInput {
                importance: if r & 1 == 0 { Level::High } else { Level::Low },
                urgency: if r & 2 == 0 { Level::High } else { Level::Low },
                due_date: (r & 4 == 0).then_some((r % 1_000_000) as i64),
                last_touched_at: (r % 100_000) as i64,
                updated_at: (r % 77_777) as i64,
            }
        })
        .collect()
}

const WEIGHTS: Weights = Weights { importance: 2, urgency: 1, due_window_days: Some(3) };

#[divan::bench(sample_count = 100)]
fn load_warm_cache(bencher: Bencher) {
    let _ = warm_dir();
    bencher.bench(|| {
        let p = policies();
        p.check(Interface::Priority).unwrap();
        p
    });
}

#[divan::bench(sample_count = 50)]
fn sort_10k_component(bencher: Bencher) {
    let p = policies();
    let items = items(10_000);
    bencher.bench(|| p.priority_sort(&items, 500_000, WEIGHTS).unwrap());
}

#[divan::bench(sample_count = 50)]
fn sort_10k_native(bencher: Bencher) {
    use dossier_core::priority as native;
    let items: Vec<native::PriorityInput> = items(10_000)
        .iter()
        .map(|i| native::PriorityInput {
            importance: if i.importance == Level::High { native::Level::High } else { native::Level::Low },
            urgency: if i.urgency == Level::High { native::Level::High } else { native::Level::Low },
            due_date: i.due_date,
            last_touched_at: i.last_touched_at,
            updated_at: i.updated_at,
        })
        .collect();
    let w = native::Weights { importance: 2, urgency: 1, due_window_days: Some(3) };
    bencher.bench(|| native::sort(&items, 500_000, &w));
}

#[divan::bench(sample_count = 50)]
fn doctor_process(bencher: Bencher) {
    let dir = warm_dir();
    bencher.bench(|| {
        let out = Command::new(env!("CARGO_BIN_EXE_dossier")).arg("doctor").env("DOSSIER_HOME", dir).output().unwrap();
        assert!(out.status.success());
    });
}

#[divan::bench(sample_count = 50)]
fn process_spawn_floor(bencher: Bencher) {
    bencher.bench(|| Command::new("true").output().unwrap());
}

/// A Distilled State of ~100,000 estimated tokens (~1,900 cited decisions and findings).
fn big_state() -> (String, Vec<dossier::policy::ArtifactInfo>) {
    let mut s = String::from("# Big topic\n\n## Situation\n\nA long-running topic.\n\n## Decisions\n\n");
    for i in 0..900 {
        s.push_str(&format!(
            "- Decision {i}: move tier {i} to annual commits because monthly churn was {i}% higher. Decided by Alice on 2026-06-12. [src:art_01bench{}#L{}-L{}]\n",
            i % 50,
            1 + i % 30,
            5 + i % 30
        ));
    }
    s.push_str("\n## Findings\n\n");
    for i in 0..1_000 {
        s.push_str(&format!(
            "- Finding {i}: renewal cohort {i} kept {}% of seats after the price change, per the sales export. [src:art_01bench{}#L{}-L{}]\n",
            i % 97,
            i % 50,
            1 + i % 20,
            2 + i % 20
        ));
    }
    s.push_str(
        "\n## Current State\n\nScenarios are with Sales. [src:art_01bench1]\n\n## Next Steps\n\n- Compare scenarios.\n",
    );
    let artifacts = (0..50)
        .map(|i| dossier::policy::ArtifactInfo { id: format!("art_01bench{i}"), line_count: Some(40) })
        .collect();
    (s, artifacts)
}

#[divan::bench(sample_count = 30)]
fn distill_100k_component(bencher: Bencher) {
    let p = policies();
    let (state, artifacts) = big_state();
    let findings = p.distill_validate(&state, &artifacts).unwrap();
    assert!(findings.is_empty(), "{findings:?}");
    eprintln!(
        "distill bench state: {} bytes, ~{} tokens",
        state.len(),
        dossier_store::tokens::estimate(&state, dossier_store::tokens::DEFAULT_CALIBRATION).tokens
    );
    bencher.bench_local(|| p.distill_validate(&state, &artifacts).unwrap());
}

#[divan::bench(sample_count = 30)]
fn distill_100k_native(bencher: Bencher) {
    let (state, artifacts) = big_state();
    let artifacts: Vec<dossier_core::distill::ArtifactInfo> = artifacts
        .into_iter()
        .map(|a| dossier_core::distill::ArtifactInfo { id: a.id, line_count: a.line_count })
        .collect();
    bencher.bench_local(|| dossier_core::distill::validate(&state, &artifacts));
}

/// The source side of the merge bench: `big_state` with every 10th finding's value changed
/// (incompatible values), every other finding restated as is, and new findings of its own.
fn big_source() -> String {
    let (target, _) = big_state();
    let mut out = String::new();
    for line in target.lines() {
        if let Some(rest) = line.strip_prefix("- Finding ")
            && let Some((n, _)) = rest.split_once(':')
            && let Ok(i) = n.parse::<usize>()
        {
            if i % 10 == 0 {
                out.push_str(&line.replacen(&format!("kept {}%", i % 97), &format!("kept {}%", i % 97 + 3), 1));
                out.push('\n');
                continue;
            }
            if i % 2 == 1 {
                out.push_str(&format!(
                    "- Finding {}: support cohort {i} closed {}% of tickets within a day, per the helpdesk export. [src:art_01bench{}#L1-L2]\n",
                    i + 5_000,
                    i % 89,
                    i % 50
                ));
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[divan::bench(sample_count = 20)]
fn merge_100k_component(bencher: Bencher) {
    use dossier::policy::{LifecycleStatus, MergeSide};
    let p = policies();
    let (target, _) = big_state();
    let side = |id: &str, state: String| MergeSide {
        id: id.into(),
        name: "Big topic".into(),
        status: LifecycleStatus::Active,
        next_action: "Compare scenarios.".into(),
        distilled_state: state,
    };
    let (s, t) = (side("dos_source", big_source()), side("dos_target", target));
    let plan = p.merge(&s, &t, &[], &[]).unwrap();
    eprintln!(
        "merge bench: {} + {} bytes, {} conflicts, converged {} bytes",
        s.distilled_state.len(),
        t.distilled_state.len(),
        plan.unresolved.len(),
        plan.converged_state.len()
    );
    assert!(!plan.unresolved.is_empty(), "the bench input has incompatible values");
    bencher.bench_local(|| p.merge(&s, &t, &[], &[]).unwrap());
}

#[divan::bench(sample_count = 20)]
fn merge_100k_native(bencher: Bencher) {
    use dossier_core::merge::{MergeSide, Status};
    let (target, _) = big_state();
    let side = |id: &str, state: String| MergeSide {
        id: id.into(),
        name: "Big topic".into(),
        status: Status::Active,
        next_action: "Compare scenarios.".into(),
        distilled_state: state,
    };
    let (s, t) = (side("dos_source", big_source()), side("dos_target", target));
    bencher.bench_local(|| dossier_core::merge::merge(&s, &t, &[]).unwrap());
}
