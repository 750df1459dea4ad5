//! Session binding from the CLI (SPEC §5, §14.6): each session binds zero or one Dossier,
//! two sessions bind different ones, binding never modifies a Dossier.

use support::{TempStore, json_of};

#[test]
fn two_sessions_bind_different_dossiers_without_touching_them() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    for name in ["Alpha work", "Bravo work"] {
        store.cmd().args(["promote", "--name", name, "--create"]).assert().success();
    }
    let alpha = store.root().join("alpha-work/dossier.md");
    let before = std::fs::read(&alpha).unwrap();

    let out = store.cmd().args(["active", "--session", "s1", "--json"]).output().unwrap();
    assert!(out.status.success());
    assert!(json_of(&out)["data"]["binding"].is_null(), "unbound at first");

    let out = store.cmd().args(["switch", "alpha-work", "--session", "s1", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert!(v["data"]["token_estimate"]["tokens"].as_u64().unwrap() > 0);
    assert!(
        v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("Transcript archive is unavailable"))
    );
    store.cmd().args(["switch", "bravo-work", "--session", "s2"]).assert().success();
    // The session id can also come from Claude Code's environment.
    let out = store.cmd().env("CLAUDE_CODE_SESSION_ID", "s2").args(["active", "--json"]).output().unwrap();
    let b2 = json_of(&out)["data"]["binding"].clone();
    let out = store.cmd().args(["active", "--session", "s1", "--json"]).output().unwrap();
    let b1 = json_of(&out)["data"]["binding"].clone();
    assert_ne!(b1["dossier_id"], b2["dossier_id"]);
    assert!(b1["dossier_id"].as_str().unwrap().starts_with("dos_"));
    assert!(b1["session_binding_id"].as_str().unwrap().starts_with("sess_"));
    for key in ["harness", "bound_at", "last_seen_revision", "capabilities"] {
        assert!(b1.get(key).is_some(), "binding lacks {key}");
    }
    assert_eq!(std::fs::read(&alpha).unwrap(), before, "binding never modifies the Dossier");

    // Switching s1 replaces its binding: zero or one per session.
    store.cmd().args(["switch", "bravo-work", "--session", "s1"]).assert().success();
    let out = store.cmd().args(["active", "--session", "s1", "--json"]).output().unwrap();
    assert_eq!(json_of(&out)["data"]["binding"]["dossier_id"], b2["dossier_id"]);

    let out = store.cmd().args(["active", "--json"]).env_remove("CLAUDE_CODE_SESSION_ID").output().unwrap();
    assert_eq!(json_of(&out)["error"]["code"], "harness_capability_unavailable");
    let out = store.cmd().args(["switch", "alpha-work", "--session", "../x", "--json"]).output().unwrap();
    assert_eq!(json_of(&out)["error"]["code"], "invalid_input");
}

/// SPEC §5.2 step 4: `dossier switch` returns the new Distilled State, its token estimate and
/// the capability warnings, in human output and in `--json`.
#[test]
fn spec_5_2_switch_returns_the_distilled_state_token_estimate_and_warnings() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.cmd().args(["promote", "--name", "Alpha work", "--create"]).assert().success();
    let state = std::fs::read_to_string(store.root().join("alpha-work/dossier.md")).unwrap();

    let out = store.cmd().args(["switch", "alpha-work", "--session", "s1", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["data"]["distilled_state"].as_str(), Some(state.as_str()), "the state: {v}");
    assert!(v["data"]["token_estimate"]["tokens"].as_u64().unwrap() > 0, "{v}");
    assert!(v["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("unavailable")), "{v}");

    let out = store.cmd().args(["switch", "alpha-work", "--session", "s2"]).output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let all = format!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&state), "the state in human output: {stdout}");
    assert!(stdout.contains("tokens"), "the estimate: {stdout}");
    assert!(all.contains("Transcript archive is unavailable"), "the capability warnings: {all}");
}

/// A binding whose Dossier folder was removed by hand: `dossier active` says so, naming the
/// Dossier, and how to get out of it.
#[test]
fn spec_5_1_active_reports_a_binding_to_a_removed_dossier() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.cmd().args(["promote", "--name", "Gone work", "--create"]).assert().success();
    store.cmd().args(["switch", "gone-work", "--session", "s1"]).assert().success();
    std::fs::remove_dir_all(store.root().join("gone-work")).unwrap();
    let out = store.cmd().args(["active", "--session", "s1", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    let w = v["warnings"][0].as_str().unwrap();
    assert!(w.contains("\"Gone work\"") && w.contains("no longer exists"), "{v}");
    let next = v["next_actions"].to_string();
    assert!(next.contains("dossier switch") && next.contains("unbind"), "{v}");
}
