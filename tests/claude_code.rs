//! End to end with the real Claude Code CLI (pinned in tests/e2e/package.json, installed by
//! the README's test command), run offline: `claude -p` talks to a scripted Messages API on
//! loopback (tests/e2e/scripted_api.py, technique in ../shared/DESIGN.md §4) and to the real
//! `dossier mcp` registered in a temporary `~/.claude.json`. The scripted model loads the
//! tools with ToolSearch, promotes a Dossier, lists it, binds it with `dossier_session` and
//! saves with the base revision it was given. The test checks the files on disk and the tool
//! results Claude Code passed back to the model.

mod support;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::TempStore;

fn claude() -> PathBuf {
    let p = support::workspace_root().join("tests/e2e/node_modules/.bin/claude");
    assert!(p.exists(), "{} missing: run the README's test command (npm ci --prefix tests/e2e)", p.display());
    p
}

struct Api(std::process::Child);

impl Drop for Api {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn claude_code_promotes_lists_binds_and_saves_through_dossier_mcp() {
    let claude = claude();
    let store = TempStore::new();
    store.init();
    let home = store.dir.path().join("home");
    let project = store.dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let config = serde_json::json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        "projects": { project.display().to_string(): { "hasTrustDialogAccepted": true } },
        "mcpServers": { "dossier": {
            "type": "stdio",
            "command": env!("CARGO_BIN_EXE_dossier"),
            "args": ["mcp"],
            "env": { "DOSSIER_HOME": store.root().display().to_string() }
        } }
    });
    std::fs::write(home.join(".claude.json"), serde_json::to_vec_pretty(&config).unwrap()).unwrap();

    let port_file = store.dir.path().join("port");
    let log = store.dir.path().join("requests.jsonl");
    let _api = Api(Command::new("python3")
        .arg(support::workspace_root().join("tests/e2e/scripted_api.py"))
        .arg(&port_file)
        .arg(&log)
        .stdout(Stdio::null())
        .spawn()
        .expect("start the scripted API"));
    let start = Instant::now();
    let port = loop {
        if let Ok(p) = std::fs::read_to_string(&port_file)
            && !p.is_empty()
        {
            break p;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "scripted API did not start");
        std::thread::sleep(Duration::from_millis(50));
    };

    let out = Command::new(&claude)
        .args(["-p", "Track the pricing work in a Dossier and save it.", "--allowedTools", "mcp__dossier__*"])
        .current_dir(&project)
        .env_clear()
        .env("HOME", &home)
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}"))
        .env("ANTHROPIC_API_KEY", "sk-ant-e2e-dummy")
        .env("DISABLE_AUTOUPDATER", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run claude");
    let requests = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        out.status.success(),
        "claude failed: {}\nstdout: {}\nstderr: {}\nrequests: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        requests.lines().count()
    );

    // Files on disk, written through the Save path by the server Claude Code started.
    let dir = store.root().join("e2e-pricing-refresh");
    let state = std::fs::read_to_string(dir.join("dossier.md")).expect("the promoted Dossier exists");
    assert!(state.contains("Saved from Claude Code."), "the scripted save landed:\n{state}");
    let audit = std::fs::read_to_string(dir.join("audit.log")).unwrap();
    for event in ["\"create\"", "\"promote\"", "\"save\""] {
        assert!(audit.contains(event), "audit lacks {event}:\n{audit}");
    }
    let sessions: Vec<_> =
        std::fs::read_dir(store.root().join("sessions")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(sessions.len(), 1, "one binding, keyed by Claude Code's session id");
    let binding: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&sessions[0]).unwrap()).unwrap();
    assert!(binding["dossier_id"].as_str().unwrap().starts_with("dos_"));
    assert_eq!(binding["harness"], "claude-code");

    // The tool results Claude Code passed back to the model (the last request holds them all).
    let last = requests.lines().rev().find(|l| l.contains("tool_result")).expect("tool results reached the model");
    for expected in [
        "\\\"slug\\\":\\\"e2e-pricing-refresh\\\"",
        "\\\"dossiers\\\":[",
        "Distillation Guide",
        "\\\"event\\\":\\\"save\\\"",
    ] {
        assert!(last.contains(expected), "the model never saw {expected}");
    }
    assert!(!last.contains("\\\"ok\\\":false"), "a dossier tool failed: {last}");
    eprintln!(
        "{} requests; last carries {} tool results",
        requests.lines().count(),
        last.matches("tool_result").count()
    );
}
