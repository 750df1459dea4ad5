//! MCP and ranking benchmarks (figures in docs/performance.md):
//! - `mcp_start_to_initialized`: spawn `dossier mcp`, send `initialize`, read the result
//!   (a minimal JSON-RPC client over the real stdio pipes; goal ≤ 20 ms median);
//! - `mcp_list_1000_warm`: `tools/call dossier_list` round trip on a running server over a
//!   store of 1,000 Dossiers (goal ≤ 10 ms median);
//! - `rank_1000_component` vs `rank_1000_native`: suggestion ranking of 1,000 candidates
//!   through the wasm component and natively (goal ≤ 10 ms, within 2× of native), on a
//!   dense and a sparse input (see `candidates`); `rank_1000_crossing` is the fixed cost of
//!   a call (instantiate + copy the candidates in).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

use divan::Bencher;
use dossier::policy::{Candidate, CompileCache, Interface, LifecycleStatus, Limits, Policies, RankingOptions};

fn main() {
    divan::main();
}

fn store(n: usize) -> &'static Path {
    static S: OnceLock<PathBuf> = OnceLock::new();
    S.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let out = Command::new(env!("CARGO_BIN_EXE_dossier")).arg("init").env("DOSSIER_HOME", &dir).output().unwrap();
        assert!(out.status.success());
        let spec = dossier_store::generate::Spec { dossiers: n, artifacts_per_dossier: 0, body_bytes: 4_000, seed: 5 };
        dossier_store::generate::generate(&dir, &spec).unwrap();
        dir
    })
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Server {
    fn start(root: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dossier"))
            .arg("mcp")
            .env("DOSSIER_HOME", root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Server { child, stdin, stdout, next_id: 1 }
    }

    fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        let msg = serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        writeln!(self.stdin, "{msg}").unwrap();
        self.stdin.flush().unwrap();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "server closed");
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    }

    fn initialize(&mut self) {
        let r = self.request(
            "initialize",
            serde_json::json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "bench", "version": "0" } }),
        );
        assert!(r.get("result").is_some(), "{r}");
        writeln!(self.stdin, "{}", serde_json::json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .unwrap();
        self.stdin.flush().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[divan::bench(sample_count = 50)]
fn mcp_start_to_initialized(bencher: Bencher) {
    let root = store(1_000);
    bencher.bench_local(|| {
        let mut s = Server::start(root);
        s.initialize();
        s
    });
}

#[divan::bench(sample_count = 50)]
fn mcp_list_1000_warm(bencher: Bencher) {
    let root = store(1_000);
    let mut s = Server::start(root);
    s.initialize();
    let args = serde_json::json!({ "name": "dossier_list", "arguments": { "status": ["active", "waiting", "blocked", "resolved", "archived"], "limit": 50 } });
    let first = s.request("tools/call", args.clone());
    assert_eq!(first["result"]["structuredContent"]["ok"], true, "{first}");
    bencher.bench_local(|| s.request("tools/call", args.clone()));
}

/// Candidate inputs for ranking, ≈ 4.5 KB of body each:
/// - `dense`: every field drawn from a 12-word vocabulary that the query mostly shares, so
///   almost every word is a query term (each scan stops early once all terms are found);
/// - `sparse`: bodies drawn from 2,000 generated words, query terms rare, so nearly every
///   body is scanned to its end (the realistic worst case).
fn candidates(n: usize, input: &str) -> Vec<Candidate> {
    const QUERY_WORDS: [&str; 12] = [
        "pricing",
        "renewal",
        "enterprise",
        "latency",
        "migration",
        "customer",
        "contract",
        "forecast",
        "cache",
        "tier",
        "launch",
        "hiring",
    ];
    let mut x: u64 = 9;
    let mut next = move || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 33) as usize
    };
    let syllables = ["ka", "ro", "ven", "tal", "mi", "do", "ser", "qua", "lin", "pe", "stor", "gu", "na", "ble"];
    let generated: Vec<String> =
        (0..2_000).map(|_| (0..2 + next() % 3).map(|_| syllables[next() % syllables.len()]).collect()).collect();
    let mut words = |k: usize, rare: bool| {
        (0..k)
            .map(|_| {
                if input == "sparse" && (rare || next() % 8 != 0) && next() % 2_000 != 0 {
                    generated[next() % generated.len()].as_str()
                } else {
                    QUERY_WORDS[next() % QUERY_WORDS.len()]
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    (0..n)
        .map(|i| Candidate {
            name: format!("{} {i}", words(3, false)),
            slug: format!("d-{i}"),
            status: LifecycleStatus::Active,
            next_action: words(8, false),
            open_questions: vec![words(6, false)],
            body: words(600, true),
            artifact_titles: vec![words(3, false), words(3, false)],
            last_touched_at: i as i64 * 3_600_000,
        })
        .collect()
}

const QUERY: &str = "enterprise renewal pricing tier for the customer contract forecast";

/// The policies under test: the embedded component, or the ranking component named by
/// `DOSSIER_BENCH_RANKING` (to compare builds of the policy without rebuilding the host).
fn policies() -> Policies {
    // As in the MCP server, where promote and link rank candidates.
    dossier::policy::use_pooled_instances();
    let cache = CompileCache::new(Some(store(1_000).join(".cache/policy")));
    let overrides: HashMap<Interface, PathBuf> =
        std::env::var_os("DOSSIER_BENCH_RANKING").map(|p| (Interface::Ranking, PathBuf::from(p))).into_iter().collect();
    Policies::new(cache, &overrides, Limits::default()).unwrap()
}

#[divan::bench(sample_count = 30, args = ["dense", "sparse"])]
fn rank_1000_component(bencher: Bencher, input: &str) {
    let p = policies();
    let c = candidates(1_000, input);
    bencher.bench_local(|| p.rank(QUERY, &c, RankingOptions { limit: 3, now: 0 }).unwrap());
}

/// The fixed cost of a call: the same candidates, a query of stop words only (the policy
/// returns at once), so this is instantiation plus copying 4.5 MB into the component.
#[divan::bench(sample_count = 30)]
fn rank_1000_crossing(bencher: Bencher) {
    let p = policies();
    let c = candidates(1_000, "sparse");
    bencher.bench_local(|| p.rank("the and of", &c, RankingOptions { limit: 3, now: 0 }).unwrap());
}

#[divan::bench(sample_count = 30, args = ["dense", "sparse"])]
fn rank_1000_native(bencher: Bencher, input: &str) {
    let c: Vec<dossier_core::ranking::Candidate> = candidates(1_000, input)
        .into_iter()
        .map(|c| dossier_core::ranking::Candidate {
            name: c.name,
            slug: c.slug,
            next_action: c.next_action,
            open_questions: c.open_questions,
            body: c.body,
            artifact_titles: c.artifact_titles,
            last_touched_at: c.last_touched_at,
        })
        .collect();
    bencher.bench_local(|| dossier_core::ranking::rank(QUERY, &c, 3, 0));
}
