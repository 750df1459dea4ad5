//! The Claude Code plugin (docs/plugin.md), against the real things: `dossier plugin export`
//! against the committed `plugin/` and against what the real `dossier init` writes; the pinned
//! `claude` CLI validating it, installing it from a local marketplace, and running it offline
//! with `--plugin-dir` (scripted Messages API, tests/e2e/scripted_api.py); `dossier init` and
//! `doctor` with the plugin installed, and a session where both are present.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use support::claude::{claude_cli, run_claude_env, scripted_api, seed_home};

/// Every file under `root` (relative path → (bytes, executable)).
fn tree(root: &Path) -> BTreeMap<String, (Vec<u8>, bool)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                use std::os::unix::fs::PermissionsExt;
                let exec = std::fs::metadata(&p).unwrap().permissions().mode() & 0o111 != 0;
                out.insert(p.strip_prefix(root).unwrap().display().to_string(), (std::fs::read(&p).unwrap(), exec));
            }
        }
    }
    out
}

/// `dossier` with `home` as HOME (the store at `~/.dossier`) and only system dirs on PATH.
fn dossier(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(crate::DOSSIER)
        .args(args)
        .env("HOME", home)
        .env("PATH", support::claude::PATH)
        .env_remove("DOSSIER_HOME")
        .env_remove("CLAUDE_PLUGIN_ROOT")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn json_ok(out: &std::process::Output) -> Value {
    let v = support::json_of(out);
    assert!(out.status.success(), "{v:#}");
    v
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))).unwrap()
}

/// The committed plugin is exactly what the generator writes, and its hooks and MCP server
/// are exactly what `dossier init` registers (read back from the files init wrote), with the
/// plugin's binary in place of init's. The real CLI validates it strictly.
/// `claude --plugin-dir plugin/ -p ...` offline (the pricing prompt, `allowed` tools), with the
/// built `dossier` first on PATH so the plugin's launcher runs it.
fn claude_with_plugin_dir(home: &Path, project: &Path, port: &str, allowed: &str) -> std::process::Output {
    let bin_dir = Path::new(crate::DOSSIER).parent().unwrap().display().to_string();
    let plugin_dir = support::workspace_root().join("assets/plugin");
    run_claude_env(
        home,
        project,
        port,
        &[
            "--plugin-dir",
            plugin_dir.to_str().unwrap(),
            "-p",
            "Track the pricing work in a Dossier and save it.",
            "--allowedTools",
            allowed,
        ],
        &[("PATH", format!("{bin_dir}:{}", support::claude::PATH))],
    )
}

#[test]
fn the_committed_plugin_is_the_export_and_matches_what_init_registers() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("export");
    let home = dir.path().join("home");
    seed_home(&home, &dir.path().join("project"), serde_json::json!({}));
    let exported = json_ok(&dossier(&home, &["--json", "plugin", "export", out_dir.to_str().unwrap()]));
    assert!(exported["data"]["files"].as_array().unwrap().iter().all(|f| f[1] == "created"));
    let committed = support::workspace_root().join("assets/plugin");
    let (want, got) = (tree(&out_dir), tree(&committed));
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        got.keys().collect::<Vec<_>>(),
        "assets/plugin/ is out of date: run `dossier plugin export assets/plugin`"
    );
    for (path, contents) in &want {
        assert!(
            got[path] == *contents,
            "assets/plugin/{path} is out of date: run `dossier plugin export assets/plugin`"
        );
    }
    // A second export changes nothing.
    let again = json_ok(&dossier(&home, &["--json", "plugin", "export", out_dir.to_str().unwrap()]));
    assert!(again["data"]["files"].as_array().unwrap().iter().all(|f| f[1] == "unchanged"), "{again:#}");

    // What init registers, from its files.
    let init = json_ok(&dossier(&home, &["--json", "init", "--yes", "--no-self-install"]));
    assert_eq!(init["data"]["claude_code"]["decision"], "applied");
    let binary = std::fs::canonicalize(crate::DOSSIER).unwrap().display().to_string();
    let settings = read_json(&home.join(".claude/settings.json"));
    let plugin_hooks = read_json(&committed.join("hooks/hooks.json"));
    let init_events: Vec<&String> = settings["hooks"].as_object().unwrap().keys().collect();
    let plugin_events: Vec<&String> = plugin_hooks["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(init_events, plugin_events, "the same hook events, in the same order");
    for event in init_events {
        let mut registered = settings["hooks"][event].clone();
        let command = registered[0]["hooks"][0]["command"].as_str().unwrap().to_string();
        assert!(command.starts_with(&binary), "{command}");
        registered[0]["hooks"][0]["command"] =
            command.replacen(&binary, "\"${CLAUDE_PLUGIN_ROOT}/bin/dossier\"", 1).into();
        assert_eq!(plugin_hooks["hooks"][event], registered, "{event}: the plugin's entry is init's");
    }
    let mut server = read_json(&home.join(".claude.json"))["mcpServers"]["dossier"].clone();
    assert_eq!(server["command"], binary.as_str());
    server["command"] = "${CLAUDE_PLUGIN_ROOT}/bin/dossier".into();
    let plugin_mcp = read_json(&committed.join(".mcp.json"));
    assert_eq!(plugin_mcp["mcpServers"].as_object().unwrap().len(), 1);
    assert_eq!(plugin_mcp["mcpServers"]["dossier"], server, "the plugin's MCP server is init's");
    assert_eq!(
        std::fs::read_to_string(committed.join("commands/codecall.md")).unwrap(),
        std::fs::read_to_string(support::workspace_root().join("assets/claude/commands/codecall.md")).unwrap()
    );

    // The real CLI accepts the plugin and the marketplace, warnings included (--strict).
    for target in [committed.join(".claude-plugin/plugin.json"), committed.join(".claude-plugin/marketplace.json")] {
        let text = claude_cli(&home, &["plugin", "validate", "--strict", target.to_str().unwrap()]);
        assert!(text.contains("Validation passed"), "{text}");
    }
}

/// `claude --plugin-dir plugin/` (the committed copy, its launcher finding `dossier` on PATH)
/// with no `dossier init` registration: the model loads the plugin's tools by the names Claude
/// Code gives them, promotes, lists, binds and saves; the plugin's SessionStart hook output
/// reaches the model without "not registered" warnings; SessionEnd archives the transcript.
#[test]
fn claude_code_runs_the_plugin_from_plugin_dir() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    // The store only: no ~/.claude.json yet and no `claude` on PATH, so nothing is registered.
    let init = json_ok(&dossier(&home, &["--json", "init", "--yes", "--no-self-install"]));
    assert_eq!(init["data"]["claude_code"]["decision"], "not_detected");
    seed_home(&home, &project, serde_json::json!({}));

    let log = dir.path().join("requests.jsonl");
    let (_api, port) = scripted_api(&log, &["plugin"]);
    let out = claude_with_plugin_dir(&home, &project, &port, "mcp__plugin_dossier_dossier__*");
    let requests = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        out.status.success(),
        "claude failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        requests.lines().count()
    );
    let first = requests.lines().find(|l| l.contains("ToolSearch")).expect("a model request with tools");
    // The plugin's server, under the plugin's tool names; no init-style server.
    assert!(first.contains("mcp__plugin_dossier_dossier__dossier_promote"), "plugin tool names in the tool list");
    assert!(!first.contains("mcp__dossier__"), "no second dossier server");
    // SessionStart (the plugin's hook) reached the model, with nothing "not registered".
    assert!(first.contains("No open dossiers. Use dossier_promote for a new thread"), "the nudge:\n{first}");
    assert!(!first.contains("not registered") && !first.contains("registered twice"), "no false warnings:\n{first}");

    let store = home.join(".dossier");
    let slug_dir = store.join("e2e-pricing-refresh");
    let state = std::fs::read_to_string(slug_dir.join("dossier.md")).expect("the promoted Dossier exists");
    assert!(state.contains("Saved from Claude Code."), "{state}");
    let last = requests.lines().rev().find(|l| l.contains("tool_result")).unwrap();
    assert!(last.contains("\\\"event\\\":\\\"save\\\"") && !last.contains("\\\"ok\\\":false"), "{last}");
    let audit = std::fs::read_to_string(slug_dir.join("audit.log")).unwrap();
    assert_eq!(audit.matches("\"actor\":\"hook:session-end\"").count(), 1, "SessionEnd captured once:\n{audit}");
    let binding_files: Vec<PathBuf> = std::fs::read_dir(store.join("sessions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json")) // not the card's `cards/`
        .collect();
    assert_eq!(binding_files.len(), 1);
    assert!(read_json(&binding_files[0])["dossier_id"].as_str().unwrap().starts_with("dos_"));
}

/// The switch, both ways, with the real `claude plugin` commands on a local marketplace:
/// plugin installed → `dossier init` registers nothing and doctor is content; init's
/// registration and the plugin both present → doctor and init report it with the fix;
/// `dossier init --remove` → only the plugin remains.
#[test]
fn init_and_doctor_never_let_the_plugin_and_init_both_register() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    seed_home(&home, &project, serde_json::json!({}));
    let market = dir.path().join("market");
    json_ok(&dossier(&home, &["--json", "plugin", "export", market.to_str().unwrap()]));
    claude_cli(&home, &["plugin", "marketplace", "add", market.to_str().unwrap()]);
    claude_cli(&home, &["plugin", "install", "dossier@dossier"]);
    let installed = read_json(&home.join(".claude/plugins/installed_plugins.json"));
    assert!(installed["plugins"]["dossier@dossier"].is_array(), "{installed:#}");

    // Plugin first: init makes the store and registers nothing.
    let init = json_ok(&dossier(&home, &["--json", "init", "--yes", "--no-self-install"]));
    let cc = &init["data"]["claude_code"];
    assert_eq!(cc["decision"], "plugin_installed", "{cc:#}");
    assert!(cc["changes"].as_array().unwrap().is_empty());
    assert!(read_json(&home.join(".claude.json")).get("mcpServers").is_none(), "no MCP server registered");
    assert!(read_json(&home.join(".claude/settings.json")).get("hooks").is_none(), "no hooks registered");
    let warnings = init["warnings"].to_string();
    assert!(warnings.contains("claude plugin uninstall dossier@dossier"), "says how to switch: {warnings}");
    assert!(!warnings.contains("not registered"), "{warnings}");
    assert!(cc["report"].to_string().contains("MCP: available (plugin dossier@dossier)"), "{cc:#}");
    let doctor = json_ok(&dossier(&home, &["--json", "doctor"]));
    let harness: Vec<&Value> =
        doctor["data"]["checks"].as_array().unwrap().iter().filter(|c| c["check"] == "harness.claude_code").collect();
    assert_eq!(harness.len(), 1, "{harness:#?}");
    assert_eq!(harness[0]["severity"], "ok");
    assert!(harness[0]["message"].as_str().unwrap().contains("by the plugin dossier@dossier"));

    // Both: init's registration made while the plugin was away, then the plugin back.
    claude_cli(&home, &["plugin", "uninstall", "dossier@dossier"]);
    let init = json_ok(&dossier(&home, &["--json", "init", "--yes", "--no-self-install"]));
    assert_eq!(init["data"]["claude_code"]["decision"], "applied");
    claude_cli(&home, &["plugin", "install", "dossier@dossier"]);
    let doctor = json_ok(&dossier(&home, &["--json", "doctor"]));
    let double: Vec<&Value> =
        doctor["data"]["checks"].as_array().unwrap().iter().filter(|c| c["code"] == "double_registration").collect();
    assert_eq!(double.len(), 1, "{:#}", doctor["data"]["checks"]);
    assert_eq!(double[0]["severity"], "warning");
    let fix = double[0]["fix"].as_str().unwrap();
    assert!(fix.contains("dossier init --remove") && fix.contains("claude plugin uninstall dossier@dossier"), "{fix}");
    let init = json_ok(&dossier(&home, &["--json", "init", "--yes", "--no-self-install"]));
    assert_eq!(init["data"]["claude_code"]["decision"], "plugin_installed");
    assert!(init["warnings"].to_string().contains("registered twice"), "{init:#}");
    assert!(init["next_actions"].to_string().contains("dossier init --remove --yes"));

    // Keep the plugin.
    let removed = json_ok(&dossier(&home, &["--json", "init", "--remove", "--yes"]));
    assert_eq!(removed["data"]["claude_code"]["decision"], "applied");
    let doctor = json_ok(&dossier(&home, &["--json", "doctor"]));
    let checks = doctor["data"]["checks"].as_array().unwrap();
    assert!(!checks.iter().any(|c| c["code"] == "double_registration"));
    assert!(checks.iter().any(|c| c["check"] == "harness.claude_code" && c["severity"] == "ok"), "{checks:#?}");
}

/// `dossier init`'s registration plus `claude --plugin-dir`: Claude Code starts both, and
/// the plugin stands down — one set of dossier tools (init's), the nudge once, one warning
/// saying how to keep one, and the transcript captured once.
#[test]
fn with_init_registered_a_plugin_dir_session_runs_everything_once() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    seed_home(&home, &project, serde_json::json!({}));
    let init = json_ok(&dossier(&home, &["--json", "init", "--yes", "--no-self-install"]));
    assert_eq!(init["data"]["claude_code"]["decision"], "applied");

    let log = dir.path().join("requests.jsonl");
    let (_api, port) = scripted_api(&log, &[]);
    let out = claude_with_plugin_dir(&home, &project, &port, "mcp__dossier__*");
    let requests = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(out.status.success(), "claude failed: {}", String::from_utf8_lossy(&out.stderr));
    let first = requests.lines().find(|l| l.contains("ToolSearch")).expect("a model request with tools");
    assert!(first.contains("mcp__dossier__dossier_promote"), "init's server serves");
    assert!(!first.contains("mcp__plugin_dossier_dossier__"), "the plugin's server stood down:\n{first}");
    assert_eq!(first.matches("No open dossiers. Use dossier_promote").count(), 1, "the nudge once:\n{first}");
    assert_eq!(first.matches("registered twice in this session").count(), 1, "one warning:\n{first}");
    assert!(first.contains("dossier init --remove"), "it says how to keep one");

    let slug_dir = home.join(".dossier").join("e2e-pricing-refresh");
    let state = std::fs::read_to_string(slug_dir.join("dossier.md")).expect("the promoted Dossier exists");
    assert!(state.contains("Saved from Claude Code."));
    let audit = std::fs::read_to_string(slug_dir.join("audit.log")).unwrap();
    assert_eq!(audit.matches("\"actor\":\"hook:session-end\"").count(), 1, "captured once, not twice:\n{audit}");
}
