//! `dossier init` registering with Claude Code (SPEC §7.2, §13.1): real `~/.claude.json` and
//! `~/.claude/settings.json` in a temporary HOME, holding third-party servers and hooks,
//! unknown keys and odd formatting; the real binary; a fake `claude` on PATH that prints a
//! version. Checks byte-level preservation of everything not ours, backups, idempotence,
//! migration from the wrong file, refusal of a file that does not parse, the non-TTY plan,
//! self-install from a volatile path, the config.yaml machine block and the report text.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::{json_of, snapshot};

/// Claude Code writes this file itself: 2-space JSON, much state we must not touch.
const CLAUDE_JSON: &str = r#"{
  "numStartups": 42,
  "installMethod": "npm",
  "projects": {
    "/work/app": {
      "allowedTools": [],
      "mcpServers": {},
      "hasTrustDialogAccepted": true
    }
  },
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {
        "GITHUB_TOKEN": "ghp_x"
      }
    }
  },
  "unknownFutureKey": {"nested": [1, 2.50, "x\u00e9"]},
  "userID": "abc"
}
"#;

/// Hand-edited: tabs, comments, trailing commas, a blank line, third-party hooks on the same
/// events we use (SessionStart, Stop) and on one we do not, unknown keys.
const SETTINGS_JSON: &str = "{\n\
\t// Personal settings: hand-edited.\n\
\t\"model\": \"opus\",\n\
\n\
\t\"permissions\": { \"allow\": [\"Bash(ls:*)\"], \"deny\": [] },\n\
\t\"hooks\": {\n\
\t\t/* third-party greeter */\n\
\t\t\"SessionStart\": [\n\
\t\t\t{\n\
\t\t\t\t\"matcher\": \"startup\",\n\
\t\t\t\t\"hooks\": [ { \"type\": \"command\", \"command\": \"~/bin/greet.sh\", \"timeout\": 5 } ],\n\
\t\t\t},\n\
\t\t],\n\
\t\t\"Stop\": [\n\
\t\t\t{ \"matcher\": \"\", \"hooks\": [ { \"type\": \"command\", \"command\": \"notify-send done\" } ] }\n\
\t\t],\n\
\t\t\"PostToolUse\": [\n\
\t\t\t{ \"matcher\": \"Write\", \"hooks\": [ { \"type\": \"command\", \"command\": \"prettier --write\" } ] }\n\
\t\t]\n\
\t},\n\
\t\"futureSetting\": null\n\
}\n";

const EVENTS: [(&str, &str); 4] =
    [("SessionStart", "session-start"), ("SessionEnd", "session-end"), ("PreCompact", "pre-compact"), ("Stop", "stop")];

/// A temporary HOME (with a fake `claude` on PATH) and a store beside it.
struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let env = Env { dir: tempfile::tempdir().unwrap() };
        std::fs::create_dir_all(env.home()).unwrap();
        let bin = env.dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let claude = bin.join("claude");
        std::fs::write(&claude, "#!/bin/sh\necho '2.1.328 (Claude Code)'\n").unwrap();
        chmod(&claude, 0o755);
        env
    }

    /// Claude Code installed and used: `~/.claude/` and both config files.
    fn with_fixtures() -> Env {
        let env = Env::new();
        env.write(".claude.json", CLAUDE_JSON);
        env.write(".claude/settings.json", SETTINGS_JSON);
        env
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn store(&self) -> PathBuf {
        self.dir.path().join("store")
    }

    fn path_var(&self) -> String {
        format!("{}:/usr/bin:/bin", self.dir.path().join("bin").display())
    }

    /// The binary under test, run from where cargo built it.
    fn cmd(&self) -> assert_cmd::Command {
        self.cmd_at(Path::new(crate::DOSSIER))
    }

    fn cmd_at(&self, exe: &Path) -> assert_cmd::Command {
        let mut c = assert_cmd::Command::new(exe);
        c.env("HOME", self.home())
            .env("DOSSIER_HOME", self.store())
            .env("PATH", self.path_var())
            .env_remove("NO_COLOR");
        c
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.home().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.home().join(rel)).unwrap()
    }

    fn json(&self, rel: &str) -> Value {
        jsonc_parser::parse_to_serde_value(&self.read(rel), &Default::default()).unwrap()
    }

    /// Backup files next to `rel`.
    fn backups(&self, rel: &str) -> Vec<PathBuf> {
        let p = self.home().join(rel);
        let prefix = format!("{}.dossier-backup-", p.file_name().unwrap().to_string_lossy());
        let mut v: Vec<PathBuf> = std::fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|b| b.file_name().unwrap().to_string_lossy().starts_with(&prefix))
            .collect();
        v.sort();
        v
    }

    /// `init` with the given args; asserts exit 0 and returns (stdout, stderr).
    fn init(&self, args: &[&str]) -> (String, String) {
        let out = self.cmd().arg("init").args(args).output().unwrap();
        let (stdout, stderr) =
            (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
        assert!(out.status.success(), "init {args:?} failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
        (stdout, stderr)
    }
}

fn chmod(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn bin() -> String {
    crate::DOSSIER.to_string()
}

/// Whether `command` is one of ours (`<…/dossier…> hook <event>`), as a test reads it.
fn is_our_command(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    words.len() >= 3 && words[words.len() - 2] == "hook" && command.contains("dossier")
}

/// `v` without our entries, and without the containers that held only them.
fn strip_ours(mut v: Value) -> Value {
    let obj = v.as_object_mut().unwrap();
    if let Some(servers) = obj.get_mut("mcpServers").and_then(Value::as_object_mut) {
        if servers.get("dossier").is_some_and(|d| d["args"] == json!(["mcp"])) {
            servers.remove("dossier");
        }
        if servers.is_empty() {
            obj.remove("mcpServers");
        }
    }
    if let Some(hooks) = obj.get_mut("hooks").and_then(Value::as_object_mut) {
        for entries in hooks.values_mut().filter_map(Value::as_array_mut) {
            for entry in entries.iter_mut() {
                if let Some(inner) = entry.get_mut("hooks").and_then(Value::as_array_mut) {
                    inner.retain(|h| !h["command"].as_str().is_some_and(is_our_command));
                }
            }
            entries.retain(|e| e.get("hooks").and_then(Value::as_array).is_none_or(|a| !a.is_empty()));
        }
        hooks.retain(|_, entries| entries.as_array().is_none_or(|a| !a.is_empty()));
        if hooks.is_empty() {
            obj.remove("hooks");
        }
    }
    v
}

/// Every line of `before` is still in `after`, in order, unchanged, or with a comma added
/// after it (an entry appended behind it): edits only ever insert our entries.
fn assert_lines_survive(before: &str, after: &str) {
    let after: Vec<&str> = after.lines().collect();
    let mut i = 0;
    for line in before.lines() {
        let found = after[i..].iter().position(|a| *a == line || *a == format!("{line},"));
        let Some(k) = found else {
            panic!("line {line:?} of the original is gone or changed; after:\n{}", after.join("\n"));
        };
        i += k + 1;
    }
}

/// Our commands registered for each event in settings.json.
fn our_commands(settings: &Value, event: &str) -> Vec<String> {
    settings["hooks"][event]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["hooks"].as_array())
        .flatten()
        .filter_map(|h| h["command"].as_str())
        .filter(|c| is_our_command(c))
        .map(str::to_string)
        .collect()
}

#[test]
fn register_keeps_everything_else_byte_for_byte_and_remove_restores_the_originals() {
    let env = Env::with_fixtures();
    let (stdout, stderr) = env.init(&["--yes", "--no-self-install"]);

    // Our entries, exactly as documented.
    let claude = env.json(".claude.json");
    assert_eq!(claude["mcpServers"]["dossier"], json!({"type": "stdio", "command": bin(), "args": ["mcp"], "env": {}}));
    let settings = env.json(".claude/settings.json");
    for (key, arg) in EVENTS {
        let entries = settings["hooks"][key].as_array().unwrap();
        let ours: Vec<&Value> =
            entries.iter().filter(|e| e["hooks"][0]["command"].as_str().is_some_and(is_our_command)).collect();
        assert_eq!(ours.len(), 1, "{key}: {entries:?}");
        assert_eq!(
            *ours[0],
            json!({"matcher": "", "hooks": [{"type": "command", "command": format!("{} hook {arg}", bin())}]})
        );
    }

    // Everything else: the same values, and every original line still there.
    let after_claude = env.read(".claude.json");
    let after_settings = env.read(".claude/settings.json");
    assert_eq!(strip_ours(claude), serde_json::from_str::<Value>(CLAUDE_JSON).unwrap());
    assert_eq!(
        strip_ours(settings),
        jsonc_parser::parse_to_serde_value::<Value>(SETTINGS_JSON, &Default::default()).unwrap()
    );
    assert_lines_survive(CLAUDE_JSON, &after_claude);
    assert_lines_survive(SETTINGS_JSON, &after_settings);
    assert!(
        after_settings.contains("\t// Personal settings: hand-edited.\n\t\"model\": \"opus\",\n\n\t\"permissions\"")
    );

    // A backup of each original, next to it.
    let b = env.backups(".claude.json");
    assert_eq!(b.len(), 1);
    assert_eq!(std::fs::read_to_string(&b[0]).unwrap(), CLAUDE_JSON);
    let b = env.backups(".claude/settings.json");
    assert_eq!(b.len(), 1);
    assert_eq!(std::fs::read_to_string(&b[0]).unwrap(), SETTINGS_JSON);
    assert!(stdout.contains("Updated Claude Code's configuration (backups: "), "{stdout}");
    assert!(!stderr.contains("not registered"), "{stderr}");

    // Remove: only ours goes, and the files are the originals again, byte for byte.
    let (stdout, _) = env.init(&["--remove", "--yes"]);
    assert!(stdout.contains("- mcpServers.dossier = "), "{stdout}");
    assert_eq!(env.read(".claude.json"), CLAUDE_JSON);
    assert_eq!(env.read(".claude/settings.json"), SETTINGS_JSON);
    assert_eq!(env.backups(".claude.json").len(), 2, "removal backs up first");
    assert!(stdout.contains("- MCP: not registered"), "{stdout}");

    // Removing again changes nothing.
    let before = snapshot(&env.home());
    let (stdout, _) = env.init(&["--remove", "--yes"]);
    assert!(stdout.contains("nothing to change"), "{stdout}");
    assert_eq!(snapshot(&env.home()), before);
}

#[test]
fn a_second_run_changes_nothing_and_makes_no_new_backup() {
    let env = Env::with_fixtures();
    env.init(&["--yes", "--no-self-install"]);
    let home = snapshot(&env.home());
    let config = std::fs::read(env.store().join("config.yaml")).unwrap();
    let (stdout, _) = env.init(&["--yes", "--no-self-install"]);
    assert!(stdout.contains("Claude Code registration with dossier: nothing to change."), "{stdout}");
    assert_eq!(snapshot(&env.home()), home, "second run changed a file or made a backup");
    assert_eq!(std::fs::read(env.store().join("config.yaml")).unwrap(), config, "the recorded state is the same");
}

#[test]
fn missing_files_are_created_with_only_our_entries() {
    let env = Env::new();
    std::fs::create_dir_all(env.home().join(".claude")).unwrap(); // Claude Code installed, never configured
    env.init(&["--yes", "--no-self-install"]);
    let claude = env.json(".claude.json");
    assert_eq!(
        claude,
        json!({"mcpServers": {"dossier": {"type": "stdio", "command": bin(), "args": ["mcp"], "env": {}}}})
    );
    let settings = env.json(".claude/settings.json");
    assert_eq!(settings["hooks"].as_object().unwrap().len(), 4);
    assert!(env.read(".claude/settings.json").ends_with("}\n"));
    assert!(env.backups(".claude.json").is_empty(), "nothing to back up");

    // Claude Code on PATH but never run: no ~/.claude at all; the directory is created.
    let env = Env::new();
    env.init(&["--yes", "--no-self-install"]);
    assert_eq!(our_commands(&env.json(".claude/settings.json"), "Stop").len(), 1);
}

#[test]
fn entries_in_the_wrong_file_move_and_a_changed_binary_updates_in_place() {
    let env = Env::new();
    // An older build: the MCP server in settings.json (with the user's env) and hooks in
    // ~/.claude.json, running a binary that has since moved.
    env.write(
        ".claude/settings.json",
        r#"{
  "mcpServers": {
    "dossier": {"type": "stdio", "command": "/old/dossier", "args": ["mcp"], "env": {"DOSSIER_HOME": "/data/dossier"}}
  },
  "hooks": {
    "PreCompact": [
      {"matcher": "", "hooks": [{"type": "command", "command": "'/old dir/dossier' hook pre-compact"}]},
      {"matcher": "", "hooks": [{"type": "command", "command": "/older/dossier hook pre-compact"}]}
    ]
  }
}
"#,
    );
    env.write(
        ".claude.json",
        r#"{
  "numStartups": 1,
  "hooks": {
    "Stop": [
      {"matcher": "", "hooks": [{"type": "command", "command": "/old/dossier hook stop"}, {"type": "command", "command": "say bye"}]}
    ]
  }
}
"#,
    );
    let (stdout, _) = env.init(&["--yes", "--no-self-install", "--json"]);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let changes = v["data"]["claude_code"]["changes"].as_array().unwrap();
    assert!(
        changes.iter().any(|c| c["action"] == "remove"
            && c["at"] == "mcpServers.dossier"
            && c["reason"].as_str().unwrap().starts_with("moved to")),
        "{changes:?}"
    );

    let claude = env.json(".claude.json");
    assert_eq!(claude["mcpServers"]["dossier"]["command"], bin());
    assert_eq!(claude["mcpServers"]["dossier"]["env"], json!({"DOSSIER_HOME": "/data/dossier"}), "env moves along");
    // Our Stop command left ~/.claude.json; the user's command in the same entry stayed.
    assert_eq!(
        claude["hooks"],
        json!({"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "say bye"}]}]})
    );
    let settings = env.json(".claude/settings.json");
    assert!(settings.get("mcpServers").is_none(), "{settings}");
    // The old PreCompact command was rewritten in place (one entry, the duplicate removed).
    assert_eq!(
        settings["hooks"]["PreCompact"],
        json!([{"matcher": "", "hooks": [{"type": "command", "command": format!("{} hook pre-compact", bin())}]}])
    );
    for (key, _) in EVENTS {
        assert_eq!(our_commands(&settings, key).len(), 1, "{key}");
    }
    let report = v["data"]["claude_code"]["report"].as_array().unwrap();
    assert_eq!(report[1], "- MCP: available");
    assert_eq!(report[5], "- Transcript capture: available");
}

#[test]
fn a_file_that_does_not_parse_is_left_alone_with_a_warning() {
    let env = Env::with_fixtures();
    let broken = "{\n  \"hooks\": {\n    \"SessionStart\": [\n"; // truncated
    env.write(".claude/settings.json", broken);
    // An older build's hook in ~/.claude.json cannot move to the broken file: it stays.
    let stale = r#"{"matcher": "", "hooks": [{"type": "command", "command": "/old/dossier hook stop"}]}"#;
    env.write(
        ".claude.json",
        &CLAUDE_JSON.replace("  \"userID\"", &format!("  \"hooks\": {{\"Stop\": [{stale}]}},\n  \"userID\"")),
    );
    let (stdout, stderr) = env.init(&["--yes", "--no-self-install"]);
    assert_eq!(env.read(".claude/settings.json"), broken);
    assert!(env.backups(".claude/settings.json").is_empty());
    let settings_path = env.home().join(".claude/settings.json");
    assert!(
        stderr.contains(&format!("warning: {} does not parse as JSON", settings_path.display()))
            && stderr.contains("Fix the file (or move it aside), then run `dossier init` again."),
        "{stderr}"
    );
    // The other file is still updated.
    assert_eq!(env.json(".claude.json")["mcpServers"]["dossier"]["command"], bin());
    assert_eq!(env.json(".claude.json")["hooks"]["Stop"][0], serde_json::from_str::<Value>(stale).unwrap());
    assert!(stdout.contains("- MCP: available"), "{stdout}");
    assert!(stdout.contains(&format!("- Session-start hook: unknown ({} does not parse)", settings_path.display())));

    // A hooks section of the wrong shape is refused the same way.
    let odd = "{\"hooks\": {\"SessionStart\": \"not a list\"}}\n";
    env.write(".claude/settings.json", odd);
    let (_, stderr) = env.init(&["--yes", "--no-self-install"]);
    assert_eq!(env.read(".claude/settings.json"), odd);
    assert!(stderr.contains("has `hooks.SessionStart` that is not a JSON array"), "{stderr}");
    assert_eq!(env.json(".claude.json")["hooks"]["Stop"][0], serde_json::from_str::<Value>(stale).unwrap());
}

#[test]
fn a_foreign_server_named_dossier_is_left_alone() {
    let env = Env::with_fixtures();
    let text = CLAUDE_JSON.replace(
        "\"mcpServers\": {\n",
        "\"mcpServers\": {\n    \"dossier\": {\"command\": \"/opt/other/dossier-server\", \"args\": [\"serve\"]},\n",
    );
    env.write(".claude.json", &text);
    let (stdout, stderr) = env.init(&["--yes", "--no-self-install"]);
    assert_eq!(env.read(".claude.json"), text);
    assert!(stderr.contains("mcpServers.dossier is not an entry dossier wrote"), "{stderr}");
    assert!(stdout.contains("- MCP: not registered (mcpServers.dossier in "), "{stdout}");
    assert_eq!(our_commands(&env.json(".claude/settings.json"), "SessionStart").len(), 1);
}

#[test]
fn without_a_terminal_or_yes_init_prints_the_plan_and_changes_nothing() {
    let env = Env::with_fixtures();
    let home = snapshot(&env.home());
    let out = env.cmd().arg("init").arg("--no-self-install").output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(snapshot(&env.home()), home, "nothing in HOME changed");
    assert!(env.store().join("config.yaml").is_file(), "the store part still ran");
    assert!(stdout.contains("run `dossier init --yes` to apply them"), "{stdout}");
    let claude_json = env.home().join(".claude.json");
    let expected = format!(
        "  {}\n    + mcpServers.dossier = {{\"type\":\"stdio\",\"command\":\"{}\",\"args\":[\"mcp\"],\"env\":{{}}}}\n",
        claude_json.display(),
        bin()
    );
    assert!(stdout.contains(&expected), "{stdout}");
    let hook = format!(
        "    + hooks.PreCompact = {{\"matcher\":\"\",\"hooks\":[{{\"type\":\"command\",\"command\":\"{} hook pre-compact\"}}]}}\n",
        bin()
    );
    assert!(stdout.contains(&hook), "{stdout}");
    assert!(stdout.contains("- MCP: not registered"), "{stdout}");

    // --json: the plan, no changes, and how to apply.
    let out = env.cmd().args(["init", "--no-self-install", "--json"]).output().unwrap();
    let v = json_of(&out);
    let cc = &v["data"]["claude_code"];
    assert_eq!(cc["decision"], "plan_only");
    assert_eq!(cc["plan"].as_array().unwrap().len(), 5);
    assert!(cc["changes"].as_array().unwrap().is_empty());
    assert_eq!(v["next_actions"], json!(["dossier init --yes"]));
    assert_eq!(snapshot(&env.home()), home);
}

#[test]
fn not_detected_registers_nothing() {
    let env = Env::new();
    let out = env.cmd().args(["init", "--yes"]).env("PATH", "/usr/bin:/bin").output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Claude Code integration:\n- not detected"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Claude Code was not found"));
    assert!(snapshot(&env.home()).is_empty(), "nothing written to HOME");
    let config = std::fs::read_to_string(env.store().join("config.yaml")).unwrap();
    assert!(config.contains("    detected: false\n"), "{config}");
}

#[test]
fn capability_report_and_config_block() {
    let env = Env::with_fixtures();
    let (stdout, _) = env.init(&["--yes", "--no-self-install"]);
    assert!(
        stdout.contains(
            "Claude Code integration:\n\
             - detected (claude 2.1.328 (Claude Code))\n\
             - MCP: available\n\
             - Session-start hook: available\n\
             - Session-end hook: available\n\
             - Pre-compaction hook: available\n\
             - Transcript capture: available\n"
        ),
        "{stdout}"
    );

    // The block at the end of config.yaml; the shipped default above it is not "your edit".
    let config_path = env.store().join("config.yaml");
    let config = std::fs::read_to_string(&config_path).unwrap();
    let marker = "# --- harness: written by dossier init; re-run init to refresh ---\n";
    let block = &config[config.find(marker).expect("marker")..];
    assert!(
        block.starts_with(&format!(
            "{marker}harness:\n  claude_code:\n    detected: true\n    version: \"2.1.328 (Claude Code)\"\n    mcp: true\n    \
             session_start_hook: true\n    session_end_hook: true\n    pre_compaction_hook: true\n    stop_hook: true\n    \
             transcript_capture: true\n    checked_at: \""
        )),
        "{block}"
    );
    let (stdout, _) = env.init(&["--yes", "--no-self-install"]);
    assert!(stdout.contains(&format!("unchanged              {}", config_path.display())), "{stdout}");

    // The user edits their part; removal refreshes only the block.
    let user = format!("# my notes\n{}", &config[..config.find(marker).unwrap()])
        .replace("token_target: 100000", "token_target: 7000");
    std::fs::write(&config_path, format!("{user}{block}")).unwrap();
    env.init(&["--remove", "--yes"]);
    let config = std::fs::read_to_string(&config_path).unwrap();
    assert!(config.starts_with(&user), "the user's part changed:\n{config}");
    assert_eq!(config.matches(marker).count(), 1);
    assert!(config[user.len()..].contains("    mcp: false\n    session_start_hook: false\n"), "{config}");
    // It still parses, with the user's value.
    let out = env.cmd().args(["doctor", "--json"]).output().unwrap();
    let v = json_of(&out);
    let check = v["data"]["checks"].as_array().unwrap().iter().find(|c| c["check"] == "config").unwrap().clone();
    assert_eq!(check["severity"], "ok", "{check}");

    // Without a terminal the report shows what is missing, with warnings.
    let out = env.cmd().args(["init", "--no-self-install"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("- Session-end hook: not registered\n"), "{stdout}");
    assert!(stdout.contains("- Transcript capture: unavailable (needs the session-end and pre-compaction hooks)\n"));
    for w in [
        "warning: The dossier MCP server is not registered",
        "warning: Deterministic save backstops (session-end, pre-compaction hooks) are unavailable",
        "warning: Transcript archive is unavailable in this session.",
    ] {
        assert!(stderr.contains(w), "missing {w:?} in {stderr}");
    }
}

/// A hard link (or copy) of the binary under test at `dir/name`.
fn place_binary(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let to = dir.join("dossier");
    if std::fs::hard_link(crate::DOSSIER, &to).is_err() {
        std::fs::copy(crate::DOSSIER, &to).unwrap();
    }
    to
}

#[test]
fn a_binary_path_with_spaces_is_quoted_for_the_shell() {
    let env = Env::with_fixtures();
    let scratch = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let exe = place_binary(&scratch.path().join("my bin"));
    let out = env.cmd_at(&exe).args(["init", "--yes", "--no-self-install"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let exe = std::fs::canonicalize(&exe).unwrap();
    let command = our_commands(&env.json(".claude/settings.json"), "SessionStart").remove(0);
    assert_eq!(command, format!("'{}' hook session-start", exe.display()));
    // The shell runs it as one word.
    let shell = std::process::Command::new("sh")
        .arg("-c")
        .arg(command.replace(" hook session-start", " --version"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&shell.stdout).starts_with("dossier "), "{shell:?}");
    assert_eq!(env.json(".claude.json")["mcpServers"]["dossier"]["command"], exe.display().to_string());
    assert!(String::from_utf8_lossy(&out.stdout).contains("- Session-start hook: available"));

    // The binary moves (back to cargo's path): our entries follow, none are added.
    env.init(&["--yes", "--no-self-install"]);
    let settings = env.json(".claude/settings.json");
    for (key, arg) in EVENTS {
        assert_eq!(our_commands(&settings, key), vec![format!("{} hook {arg}", bin())]);
    }
}

#[test]
fn self_install_from_a_volatile_path() {
    let env = Env::with_fixtures();
    let scratch = tempfile::tempdir().unwrap(); // under the system temp dir
    let exe = place_binary(scratch.path());
    let target = env.home().join(".local/bin/dossier");

    // No terminal, no --yes: the plan names the install and the stable path, nothing happens.
    let out = env.cmd_at(&exe).arg("init").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(&format!("Would install dossier to {}", target.display())), "{stdout}");
    assert!(stdout.contains(&format!("\"command\":\"{}\"", target.display())), "{stdout}");
    assert!(!target.exists());

    let out = env.cmd_at(&exe).args(["init", "--yes"]).output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains(&format!("Installed dossier to {}", target.display())), "{stdout}");
    assert!(std::fs::read(&target).unwrap() == std::fs::read(&exe).unwrap(), "an exact copy");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o755);
    assert!(stderr.contains(".local/bin is not on your PATH"), "{stderr}");
    assert_eq!(env.json(".claude.json")["mcpServers"]["dossier"]["command"], target.display().to_string());
    assert_eq!(
        our_commands(&env.json(".claude/settings.json"), "SessionEnd"),
        vec![format!("{} hook session-end", target.display())]
    );

    // Again from the same volatile binary: already installed, nothing changes.
    let home = snapshot(&env.home());
    let out = env.cmd_at(&exe).args(["init", "--yes"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("is installed at") && stdout.contains("nothing to change"), "{stdout}");
    assert_eq!(snapshot(&env.home()), home);
}

#[test]
fn a_symlinked_crlf_settings_file_stays_a_link_and_round_trips() {
    let env = Env::with_fixtures();
    // Dotfile managers link settings.json into a repository; Windows editors write CRLF.
    let text = "{\r\n  \"a\": 1,\r\n  \"hooks\": {\r\n    \"Stop\": [\r\n      {\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]}\r\n    ]\r\n  }\r\n}\r\n";
    let real = env.dir.path().join("dotfiles").join("settings.json");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, text).unwrap();
    let link = env.home().join(".claude/settings.json");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();

    env.init(&["--yes", "--no-self-install"]);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
    let written = std::fs::read_to_string(&real).unwrap();
    assert_eq!(our_commands(&env.json(".claude/settings.json"), "Stop").len(), 1);
    assert!(!written.replace("\r\n", "").contains('\n'), "every line ends in CRLF:\n{written:?}");

    env.init(&["--remove", "--yes"]);
    assert_eq!(std::fs::read_to_string(&real).unwrap(), text);
}

#[test]
fn doctor_reports_an_unregistered_hook_with_its_fix_and_init_repairs_it() {
    let env = Env::with_fixtures();
    env.init(&["--yes"]);
    let doctor = |env: &Env| json_of(&env.cmd().args(["doctor", "--json"]).output().unwrap());
    let v = doctor(&env);
    let harness: Vec<&Value> =
        v["data"]["checks"].as_array().unwrap().iter().filter(|c| c["check"] == "harness.claude_code").collect();
    assert!(harness.iter().all(|c| c["severity"] == "ok"), "{harness:?}");

    // Someone removes our SessionEnd hook from settings.json.
    let mut settings = env.json(".claude/settings.json");
    settings["hooks"].as_object_mut().unwrap().remove("SessionEnd");
    env.write(".claude/settings.json", &serde_json::to_string_pretty(&settings).unwrap());
    let v = doctor(&env);
    let problem = v["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "harness_capability_unavailable")
        .unwrap_or_else(|| panic!("unregistered hook not reported: {v}"))
        .clone();
    assert_eq!(problem["severity"], "warning");
    assert!(problem["message"].as_str().unwrap().contains("session-end"), "{problem}");
    assert_eq!(problem["fix"], "dossier init");

    env.init(&["--yes"]);
    let v = doctor(&env);
    assert!(
        !v["data"]["checks"].as_array().unwrap().iter().any(|c| c["code"] == "harness_capability_unavailable"),
        "{v}"
    );
}

/// Issue 10: init installs the `/codecall` user command, reports it, leaves it alone when it
/// is already ours, removes it on `--remove`, and never overwrites or removes a file of that
/// name that is not byte-for-byte ours.
#[test]
fn init_installs_the_codecall_command_and_never_clobbers_the_users_own() {
    let ours = include_str!("../assets/claude/commands/codecall.md");
    let rel = ".claude/commands/codecall.md";
    let env = Env::with_fixtures();
    let (stdout, _) = env.init(&["--yes", "--no-self-install"]);
    assert_eq!(env.read(rel), ours);
    assert!(stdout.contains("/codecall command: installed"), "{stdout}");
    let (stdout, _) = env.init(&["--yes", "--no-self-install"]);
    assert!(stdout.contains("/codecall command: present"), "{stdout}");
    env.init(&["--remove", "--yes"]);
    assert!(!env.home().join(rel).exists(), "ours is removed with the registration");
    assert!(!env.home().join(".claude/commands").exists(), "and the directory init made for it, now empty");

    // Someone else's /codecall: kept through register and remove, with a warning that says so.
    let mine = "---\ndescription: my own codecall\n---\nDo my thing.\n";
    env.write(rel, mine);
    let (stdout, stderr) = env.init(&["--yes", "--no-self-install"]);
    assert_eq!(env.read(rel), mine, "never overwritten");
    assert!(stdout.contains("/codecall command: kept"), "{stdout}");
    assert!(stderr.contains("left alone") || stdout.contains("left alone"), "{stdout}\n{stderr}");
    env.init(&["--remove", "--yes"]);
    assert_eq!(env.read(rel), mine, "never removed");

    // Without a terminal or --yes, init only plans it.
    let env = Env::with_fixtures();
    let out = env.cmd().arg("init").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("/codecall command: planned"));
    assert!(!env.home().join(rel).exists(), "nothing written without consent");
}
