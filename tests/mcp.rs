//! The MCP server through the official Python MCP SDK (a real client over stdio):
//! `tests/mcp/client_check.py` lists the tools, calls each, and checks envelopes, error
//! codes, the conflict file, session binding and robustness. Python's `mcp` package is
//! installed by the README's test command; if it is missing this test fails, never skips.
//! A second run, without a session id, checks the binding kept in context only (SPEC §5.1).

use support::TempStore;

#[test]
fn official_python_client_drives_every_tool() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let script = support::workspace_root().join("tests/mcp/client_check.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(crate::DOSSIER)
        .arg(store.root())
        .env("HOME", store.dir.path())
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "client checks failed:\nstdout:\n{}\nstderr:\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("mcp client checks passed"));
    // The server's writes are real files through the Save path.
    let dir = store.root().join("pricing-model-refresh");
    let log = std::fs::read_to_string(dir.join("audit.log")).unwrap();
    for event in ["\"create\"", "\"promote\"", "\"save\"", "\"conflict_created\"", "\"link\""] {
        assert!(log.contains(event), "audit lacks {event}:\n{log}");
    }
    assert_eq!(std::fs::read_dir(dir.join("conflicts")).unwrap().count(), 1);
}

/// SPEC §5.1: a harness without a durable session id still gets `dossier_session` — report,
/// bind (switch, saving the previous Dossier first) and clear answer with the binding held in
/// context only and a warning saying so; nothing is written under `sessions/`.
#[test]
fn spec_5_1_session_works_without_a_session_id() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let script = support::workspace_root().join("tests/mcp/client_check.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(crate::DOSSIER)
        .arg(store.root())
        .arg("context-only")
        .env("HOME", store.dir.path())
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "context-only session checks failed:\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("mcp context-only session checks passed"));
    // Only the binding asked for explicitly at the end is on disk.
    let files: Vec<_> = std::fs::read_dir(store.root().join("sessions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(files, ["sess-explicit.json"]);
}

/// SPEC §5.1 with a binding whose Dossier folder was removed by hand: `dossier_session`
/// reports the binding with a warning that its Dossier no longer exists (name and id) and
/// next actions to bind another or clear it (docs/mcp.md).
#[test]
fn spec_5_1_session_reports_a_binding_to_a_removed_dossier() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let script = support::workspace_root().join("tests/mcp/client_check.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(crate::DOSSIER)
        .arg(store.root())
        .arg("dead-binding")
        .env("HOME", store.dir.path())
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "dead binding checks failed:\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("mcp dead binding checks passed"));
}

/// SPEC §7.2 and §8.3: inside a known harness session (Claude Code's session variable set, no
/// hooks installed) every `dossier_list` item carries the session's capability warnings;
/// `include_warnings: false` leaves them out; outside a session there are none.
#[test]
fn spec_8_3_dossier_list_items_carry_capability_warnings_inside_a_session() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let script = support::workspace_root().join("tests/mcp/client_check.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(crate::DOSSIER)
        .arg(store.root())
        .arg("list-warnings")
        .env("HOME", store.dir.path())
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "list warning checks failed:\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("mcp list warning checks passed"));
}

/// SPEC §8.2 / issue 18 defect 4: every reply stays under Claude Code's ~48 KB cap — a save
/// of a 5.5 KB+ state with 300 uncited claims and of a 500 KB state group their findings (the
/// first three with lines, then a count and the `dossier_recall` call that shows them), the
/// 500 KB state's recall is paged to its last page, and a search for 5,000 hits keeps what
/// fits with a `reply_capped:` warning saying how to get the rest.
#[test]
fn spec_8_2_replies_stay_under_the_cap() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let script = support::workspace_root().join("tests/mcp/client_check.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(crate::DOSSIER)
        .arg(store.root())
        .arg("reply-cap")
        .env("HOME", store.dir.path())
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "reply cap checks failed:\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("mcp reply cap checks passed"));
}
