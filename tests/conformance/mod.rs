//! The SPEC as executable clauses (issue 18): one test per acceptance criterion of §14 and per
//! behaviour of the sections the conformance table (docs/conformance.md) lists, each named
//! after its clause (`spec_14_3_b_…` is §14.3's second bullet), each through the real binary,
//! the official Python MCP client ([`support::mcp`]) and real files in a temp store. A change
//! that breaks a clause fails the test that names it.
//!
//! Not for: the detailed behaviour of one module (the other test modules), or speed (the
//! benchmarks, docs/performance.md).

mod s05_s08;
mod s07_s12;
mod s14;

use serde_json::Value;
use support::TempStore;

/// An initialised temp store (no Claude Code registration: `init --yes --no-self-install` in a
/// home without `~/.claude`).
pub fn store() -> TempStore {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    s
}

/// `dossier <args> --json`, its envelope (whatever the exit code).
pub fn cli(s: &TempStore, args: &[&str]) -> Value {
    let out = s.cmd().args(args).arg("--json").output().unwrap();
    support::json_of(&out)
}

/// `dossier <args> --json`, which must succeed; its `data`.
pub fn cli_ok(s: &TempStore, args: &[&str]) -> Value {
    let v = cli(s, args);
    assert_eq!(v["ok"], true, "dossier {args:?} failed: {v:#}");
    v["data"].clone()
}

/// Promote a Dossier named `name` from the CLI; its slug.
pub fn promote(s: &TempStore, name: &str) -> String {
    cli_ok(s, &["promote", "--name", name, "--create"])["slug"].as_str().unwrap().to_string()
}

/// The Dossier's current revision.
pub fn rev(s: &TempStore, t: &str) -> String {
    cli_ok(s, &["show", t])["revision"].as_str().unwrap().to_string()
}

/// A Distilled State named `name` with the given Decisions / Findings bodies.
pub fn state(name: &str, decisions: &str, findings: &str) -> String {
    format!(
        "# {name}\n\n## Situation\n\nWhat {name} is about.\n\n## Decisions\n\n{decisions}\n\n## Findings\n\n\
         {findings}\n\n## Current State\n\n- Assumption: in progress.\n\n## Next Steps\n\n- Carry on.\n"
    )
}

/// Every audit event name of a Dossier, in order.
pub fn audit_events(s: &TempStore, slug: &str) -> Vec<String> {
    std::fs::read_to_string(s.root().join(slug).join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].as_str().unwrap().to_string())
        .collect()
}

/// Set the store's `token_target` in config.yaml (replacing the default's line).
pub fn set_token_target(s: &TempStore, target: u64) {
    let config = std::fs::read_to_string(s.root().join("config.yaml")).unwrap();
    let kept: String = config.lines().filter(|l| !l.starts_with("token_target:")).map(|l| format!("{l}\n")).collect();
    s.write_config(&format!("{kept}token_target: {target}\n"));
}
