//! The store is a library with no adapters: `cargo metadata`'s resolved graph, walked from
//! `dossier-store` through its normal (non-dev, non-build) dependencies, reaches none of the
//! crates that belong to the binary's adapters.

use std::collections::{BTreeSet, HashMap};
use std::process::Command;

use serde_json::Value;

/// Crates of the CLI, MCP, TUI, terminal and wasm runtime: never in the store's tree.
const ADAPTERS: [&str; 12] = [
    "clap",
    "clap_complete",
    "clap_mangen",
    "rmcp",
    "tokio",
    "ratatui",
    "ratatui-textarea",
    "crossterm",
    "indicatif",
    "wasmtime",
    "jsonc-parser",
    "dossier",
];

/// The host's target triple (`rustc -vV`): metadata is filtered to it, so offline runs need
/// only the packages this platform builds (a fresh clone's `cargo test` never downloads the
/// Windows-only ones, and unfiltered `cargo metadata --offline` would ask for them).
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc).arg("-vV").output().expect("run rustc -vV");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc -vV names the host")
}

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline", "--filter-platform", &host_triple()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// Names of every package reachable from `root` through normal dependencies.
fn normal_closure(meta: &Value, root: &str) -> BTreeSet<String> {
    let names: HashMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let nodes: HashMap<&str, &Value> =
        meta["resolve"]["nodes"].as_array().unwrap().iter().map(|n| (n["id"].as_str().unwrap(), n)).collect();
    let start = names.iter().find(|(_, n)| **n == root).map(|(id, _)| *id).expect("the package is in the workspace");
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null());
            if normal {
                stack.push(dep["pkg"].as_str().unwrap());
            }
        }
    }
    seen.into_iter().map(|id| names[id].to_string()).collect()
}

#[test]
fn the_store_depends_on_no_adapter_crate() {
    let meta = metadata();
    let closure = normal_closure(&meta, "dossier-store");
    let found: Vec<&str> = ADAPTERS.iter().copied().filter(|a| closure.contains(*a)).collect();
    assert!(found.is_empty(), "dossier-store depends on adapter crates {found:?} (its tree: {closure:?})");
}

#[test]
fn the_walk_sees_the_adapters_of_the_binary() {
    // The same walk from the binary finds them: the check above can fail.
    let meta = metadata();
    let closure = normal_closure(&meta, "dossier");
    for a in ["clap", "rmcp", "ratatui", "indicatif", "wasmtime", "dossier-store"] {
        assert!(closure.contains(a), "{a} not found from dossier: {closure:?}");
    }
}
