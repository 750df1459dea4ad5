//! End to end with the real Claude Code CLI (pinned in tests/e2e/package.json, installed by
//! the README's test command), run offline: `claude -p` talks to a scripted Messages API on
//! loopback (tests/e2e/scripted_api.py, technique in ../shared/DESIGN.md §4) and to the real
//! `dossier mcp` registered in a temporary `~/.claude.json`. The scripted model loads the
//! tools with ToolSearch, promotes a Dossier, lists it, binds it with `dossier_session` and
//! saves with the base revision it was given. The test checks the files on disk and the tool
//! results Claude Code passed back to the model.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::TempStore;
use support::claude::{claude, run_claude, scripted_api};

/// A temporary Claude Code home beside `store` whose `~/.claude.json` registers `dossier mcp`
/// on that store (onboarding done, the project trusted), and a project directory. Returns
/// (home, project).
fn claude_home(store: &TempStore) -> (PathBuf, PathBuf) {
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
            "command": crate::DOSSIER,
            "args": ["mcp"],
            "env": { "DOSSIER_HOME": store.root().display().to_string() }
        } }
    });
    std::fs::write(home.join(".claude.json"), serde_json::to_vec_pretty(&config).unwrap()).unwrap();
    (home, project)
}

#[test]
fn claude_code_promotes_lists_binds_and_saves_through_dossier_mcp() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (home, project) = claude_home(&store);

    let log = store.dir.path().join("requests.jsonl");
    let (_api, port) = scripted_api(&log, &[]);
    let out = run_claude(
        &home,
        &project,
        &port,
        &["-p", "Track the pricing work in a Dossier and save it.", "--allowedTools", "mcp__dossier__*"],
    );
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
    let sessions: Vec<_> = std::fs::read_dir(store.root().join("sessions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json")) // not the card's `cards/`
        .collect();
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

/// The hooks as `dossier init --yes` registers them, with the real CLI: (a) an unbound
/// session's first model request carries the nudge; (c) when the session ends, its
/// transcript is archived as JSONL and audited; (b) the same session resumed with a large
/// bound state gets the header and the load instruction, never Claude Code's preview; (d)
/// the Stop hook asks once for a save when the state is stale.
#[test]
fn claude_code_runs_the_hooks_dossier_init_registered() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let seed = serde_json::json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        "projects": { project.display().to_string(): { "hasTrustDialogAccepted": true } },
    });
    std::fs::write(home.join(".claude.json"), serde_json::to_vec_pretty(&seed).unwrap()).unwrap();
    let dossier = |args: &[&str]| {
        let out = Command::new(crate::DOSSIER)
            .args(args)
            .env("HOME", &home)
            .env_remove("DOSSIER_HOME")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "dossier {args:?}: {}", String::from_utf8_lossy(&out.stdout));
        out
    };
    let init = dossier(&["init", "--yes", "--no-self-install"]);
    let init_text = String::from_utf8_lossy(&init.stdout);
    assert!(init_text.contains("Session-start hook: available"), "{init_text}");
    let store = home.join(".dossier");
    // Remind after any growth, so the resumed session's first stop is stale.
    let config = std::fs::read_to_string(store.join("config.yaml")).unwrap();
    std::fs::write(store.join("config.yaml"), config.replace("save_reminder_bytes: 150000", "save_reminder_bytes: 1"))
        .unwrap();
    dossier(&["promote", "--name", "Launch readiness", "--create"]);
    let slug = "launch-readiness";
    let shown: serde_json::Value = serde_json::from_slice(&dossier(&["show", slug, "--json"]).stdout).unwrap();
    let rev = shown["data"]["revision"].as_str().unwrap().to_string();
    let big = format!(
        "# Launch readiness\n\n## Situation\n\n{}\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n",
        "- Checklist item that makes this state larger than a hook can carry. [src:art_e2e]\n".repeat(200)
    );
    let state_file = dir.path().join("state.md");
    std::fs::write(&state_file, &big).unwrap();
    dossier(&["save", slug, "--base-revision", &rev, "--from-file", state_file.to_str().unwrap()]);

    // Session 1: unbound at start; the model binds the Dossier; the session ends.
    let log1 = dir.path().join("requests-1.jsonl");
    let (api, port) = scripted_api(&log1, &["bind", slug]);
    let out =
        run_claude(&home, &project, &port, &["-p", "Pick up the launch work.", "--allowedTools", "mcp__dossier__*"]);
    drop(api);
    let requests = std::fs::read_to_string(&log1).unwrap_or_default();
    assert!(out.status.success(), "claude failed: {}\n{}", String::from_utf8_lossy(&out.stderr), requests.len());
    let first = requests.lines().find(|l| l.contains("ToolSearch")).expect("a model request with tools");
    assert!(
        first.contains("1 open dossier(s): Launch readiness. Use dossier_list"),
        "(a) the nudge reached the model:\n{first}"
    );
    // The one binding file (the Stop hook's card keeps its own state in `sessions/cards/`).
    let binding_file = std::fs::read_dir(store.join("sessions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a session binding");
    let binding: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&binding_file).unwrap()).unwrap();
    let session_id = binding["session_id"].as_str().unwrap().to_string();
    assert!(binding["dossier_id"].as_str().unwrap().starts_with("dos_"), "bound by dossier_session: {binding}");
    // (c) SessionEnd archived the transcript.
    let artifacts: Vec<_> = std::fs::read_dir(store.join(slug).join("artifacts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    assert_eq!(artifacts.len(), 1, "one transcript artifact");
    let transcript = std::fs::read_to_string(&artifacts[0]).unwrap();
    assert!(transcript.lines().count() > 2);
    for line in transcript.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("the transcript artifact is JSONL");
    }
    assert!(transcript.contains(&session_id));
    let audit = std::fs::read_to_string(store.join(slug).join("audit.log")).unwrap();
    assert!(audit.contains("\"actor\":\"hook:session-end\""), "(c) the capture is audited:\n{audit}");

    // Session 2: the same session resumed, bound to a state too large for a hook.
    let log2 = dir.path().join("requests-2.jsonl");
    let (api, port) = scripted_api(&log2, &["bind", slug]);
    let out = run_claude(
        &home,
        &project,
        &port,
        &["-p", "Continue.", "--resume", &session_id, "--allowedTools", "mcp__dossier__*"],
    );
    drop(api);
    let requests = std::fs::read_to_string(&log2).unwrap_or_default();
    assert!(
        out.status.success(),
        "claude --resume failed ({}): stdout {} stderr {}; {} requests, last: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        requests.lines().count(),
        requests
            .lines()
            .last()
            .unwrap_or("")
            .chars()
            .rev()
            .take(3000)
            .collect::<String>()
            .chars()
            .rev()
            .collect::<String>()
    );
    let first = requests.lines().find(|l| l.contains("ToolSearch")).expect("a model request with tools");
    assert!(first.contains("# Dossier: Launch readiness (bound to this session)"), "(b) bound header:\n{first}");
    assert!(first.contains(&format!("call dossier_session with id `{slug}`")), "(b) load instruction");
    assert!(!first.contains("Output too large"), "(b) never Claude Code's preview");
    // (d) One save reminder, shown to the model once.
    let reminders = requests.lines().filter(|l| l.contains("has not been saved while this session")).count();
    assert!(reminders >= 1, "(d) the Stop hook asked for a save");
    let last = requests.lines().last().unwrap();
    // Claude Code shows one block twice (as feedback to the model and in its system text).
    assert_eq!(last.matches("Stop hook feedback:").count(), 1, "(d) asked exactly once");
}

/// A store with two Dossiers whose decisions contradict ("Queue store" keeps Postgres,
/// "Queue notes" wants Redis: a certain conflict) and whose Findings are two possible
/// conflicts (issue 19): "180 tenants are still on the cron jobs" / "Cron jobs disabled for
/// migrated tenants" (the scripted model's first review, a contradiction) and the annual
/// renewals next to a churn figure (compatible); and a Claude
/// Code home registering `dossier mcp` on it. (The decisions name a "task queue": "job
/// queue" would share the stem "job" with the cron-jobs finding, a third possible conflict
/// under the widened tier, and the scripted model marks the first review a contradiction.) Returns (store, source slug, target slug, home,
/// project).
fn queue_pair_with_claude_home() -> (TempStore, String, String, PathBuf, PathBuf) {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let make = |name: &str, decision: &str, findings: &str| {
        let out = store.cmd().args(["promote", "--json", "--create", "--name", name]).output().unwrap();
        let v = support::json_of(&out);
        let slug = v["data"]["slug"].as_str().unwrap().to_string();
        let rev = v["data"]["revision"].as_str().unwrap().to_string();
        let file = store.dir.path().join(format!("{slug}.md"));
        std::fs::write(
            &file,
            format!(
                "# {name}\n\n## Situation\n\nQueue design.\n\n## Decisions\n\n- {decision} Decided by Ana. [src:art_x]\n\n\
                 ## Findings\n\n{findings}\n## Current State\n\n## Next Steps\n\n- Ship.\n"
            ),
        )
        .unwrap();
        let out =
            store.cmd().args(["save", &slug, "--base-revision", &rev, "--from-file"]).arg(&file).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        slug
    };
    let target = make(
        "Queue store",
        "Use Postgres for the task queue because we need transactions.",
        "- 180 tenants are still on the cron jobs.\n- Enterprise renewals move to annual.\n",
    );
    let source = make(
        "Queue notes",
        "Use Redis for the task queue because latency matters most.",
        "- Cron jobs disabled for migrated tenants.\n- Monthly enterprise deals churn at 3x the annual rate.\n",
    );
    let (home, project) = claude_home(&store);
    (store, source, target, home, project)
}

/// `dossier_merge` from Claude Code (print mode): the merge form is cancelled there, so the
/// model gets `conflict_detected` with the conflicts, calls again with `resolved_conflicts`,
/// and the files show the resolution.
#[test]
fn claude_code_merges_with_conflicts_resolved_in_a_second_call() {
    let (store, source, target, home, project) = queue_pair_with_claude_home();
    let log = store.dir.path().join("requests.jsonl");
    let pair = format!("{source},{target}");
    let (_api, port) = scripted_api(&log, &["merge", &pair]);
    let out = run_claude(
        &home,
        &project,
        &port,
        &["-p", "Merge the queue notes into the queue store.", "--allowedTools", "mcp__dossier__*"],
    );
    let requests = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        out.status.success(),
        "claude failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        requests.lines().count()
    );

    let state = std::fs::read_to_string(store.root().join(&target).join("dossier.md")).unwrap();
    assert!(state.contains("Use Postgres for the task queue") && !state.contains("Redis"), "{state}");
    // Issue 19: the pair the model marked a contradiction went to the user (keep_target in
    // the fallback); the compatible one kept both.
    assert!(state.contains("still on the cron jobs") && !state.contains("Cron jobs disabled"), "{state}");
    assert!(state.contains("renewals move to annual") && state.contains("3x the annual rate"), "{state}");
    let source_md = std::fs::read_to_string(store.root().join(&source).join("dossier.md")).unwrap();
    assert!(source_md.contains("status: archived") && source_md.contains("merged_into:"), "{source_md}");
    let last = requests.lines().rev().find(|l| l.contains("tool_result")).expect("tool results reached the model");
    assert!(last.contains("conflict_detected"), "the model saw the conflicts");
    assert!(last.contains("\\\"review\\\""), "the model saw the review list first");
    assert!(last.contains("\\\"certainty\\\":\\\"possible\\\""), "the fallback lists both tiers");
    assert!(last.contains("\\\"target_slug\\\""), "the model saw the completed merge");
    assert!(last.contains("compatible and kept both claims"), "one line names the compatible pair");
    let audit: Vec<serde_json::Value> = std::fs::read_to_string(store.root().join(&target).join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let agent: Vec<&serde_json::Value> =
        audit.iter().filter(|e| e["event"] == "conflict_resolved" && e["verdict"] == "compatible").collect();
    // How many possible conflicts the pair raises is the policy's (docs/merge.md); each one
    // the model judged compatible is audited as the harness's verdict with its reason.
    assert!(!agent.is_empty(), "{audit:#?}");
    for a in &agent {
        assert_eq!(a["actor"], "agent:claude-code", "the harness's verdict: {a}");
        assert_eq!(a["reason"], "both can hold: additive figures");
    }
}

/// codecall's recommendation card from the real Claude Code: `dossier init` registers the Stop
/// hook; the scripted model writes and edits an OAuth middleware in a git project (and one edit
/// fails). Claude Code shows the hook's `systemMessage` to the user (in print mode with
/// stream-json: a `system`/`informational` line "Stop says: ..."), the stop is not blocked, and
/// a resumed turn with no new changes shows nothing.
#[test]
fn claude_code_shows_the_codecall_card_once_after_a_turn_that_changed_code() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    let git = Command::new("git").args(["init", "-q"]).current_dir(&project).status().unwrap();
    assert!(git.success());
    std::fs::create_dir_all(&home).unwrap();
    let seed = serde_json::json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        "projects": { project.display().to_string(): { "hasTrustDialogAccepted": true } },
    });
    std::fs::write(home.join(".claude.json"), serde_json::to_vec_pretty(&seed).unwrap()).unwrap();
    let init = Command::new(crate::DOSSIER)
        .args(["init", "--yes", "--no-self-install"])
        .env("HOME", &home)
        .env_remove("DOSSIER_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stdout));
    let args = ["--allowedTools", "Write", "Edit", "--output-format", "stream-json", "--verbose"];
    let cards = |out: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["type"] == "system" && v["subtype"] == "informational")
            .filter_map(|v| v["content"].as_str().map(str::to_string))
            .filter(|c| c.contains("codecall:"))
            .collect()
    };

    let log = dir.path().join("requests-1.jsonl");
    let (api, port) = scripted_api(&log, &["edit", project.to_str().unwrap()]);
    let mut first_args = vec!["-p", "Add the OAuth middleware."];
    first_args.extend(args);
    let out = run_claude(&home, &project, &port, &first_args);
    drop(api);
    assert!(out.status.success(), "claude failed: {}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read_to_string(project.join("src/auth/oauth_middleware.rs")).unwrap();
    assert!(written.contains("Bearer"), "the scripted edits ran: {written}");
    let shown = cards(&out);
    assert_eq!(shown.len(), 1, "one card: {}", String::from_utf8_lossy(&out.stdout));
    assert!(
        shown[0].starts_with("Stop says: codecall: authentication and authorization boundary, middleware and request pipeline — /codecall to start, ~"),
        "{}",
        shown[0]
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("Stop hook feedback"), "the card never blocks the stop");
    let session_id = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v["session_id"].as_str().map(str::to_string))
        .expect("a session id in the stream");
    let state = home.join(".dossier/sessions/cards").join(format!("{session_id}.json"));
    let state: serde_json::Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    assert_eq!(state["shown"].as_array().unwrap().len(), 1, "{state}");
    assert!(state["files"].get("src/missing.rs").is_none(), "a failed edit changed nothing: {state}");

    // The same session resumed: the model has nothing left to do; no new changes, no card.
    let log = dir.path().join("requests-2.jsonl");
    let (api, port) = scripted_api(&log, &["edit", project.to_str().unwrap()]);
    let mut resumed = vec!["-p", "Anything else?", "--resume", &session_id];
    resumed.extend(args);
    let out = run_claude(&home, &project, &port, &resumed);
    drop(api);
    assert!(out.status.success(), "claude --resume failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(cards(&out).is_empty(), "shown once per session: {}", String::from_utf8_lossy(&out.stdout));
}

/// A tmux server on its own socket, killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }
    fn send(&self, keys: &[&str]) {
        for k in keys {
            assert!(self.cmd().args(["send-keys", "-t", "cc", k]).status().unwrap().success());
            std::thread::sleep(Duration::from_millis(400));
        }
    }
    fn screen(&self) -> String {
        let out = self.cmd().args(["capture-pane", "-p", "-t", "cc"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
    fn wait_for(&self, text: &str, secs: u64) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(start.elapsed() < Duration::from_secs(secs), "never saw {text:?} on screen:\n{s}");
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

/// Interactive Claude Code in a tmux session `cc` on its own socket (`<name>-<pid>`), in
/// `project` with `home`, against the scripted API on `port` (DESIGN §4 recipe): accept the
/// custom API key, wait for the input box, type `prompt` and submit it.
fn interactive_claude(name: &str, home: &std::path::Path, project: &std::path::Path, port: &str, prompt: &str) -> Tmux {
    let tmux = Tmux { socket: format!("{name}-{}", std::process::id()) };
    let command = format!(
        "env -i HOME={} PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm-256color ANTHROPIC_BASE_URL=http://127.0.0.1:{port} \
         ANTHROPIC_API_KEY=sk-ant-e2e-dummy DISABLE_AUTOUPDATER=1 {} --allowedTools 'mcp__dossier__*'",
        home.display(),
        claude().display()
    );
    let started = tmux
        .cmd()
        .args(["new-session", "-d", "-s", "cc", "-x", "120", "-y", "40", "-c"])
        .arg(project)
        .arg(&command)
        .status()
        .unwrap();
    assert!(started.success(), "tmux new-session");
    tmux.wait_for("Detected a custom API key", 60);
    tmux.send(&["Up", "Enter"]);
    tmux.wait_for("auto mode", 60);
    // The input box takes keys a moment after it is drawn; the prompt is submitted once it
    // shows in the box.
    std::thread::sleep(Duration::from_secs(3));
    assert!(tmux.cmd().args(["send-keys", "-t", "cc", "-l", prompt]).status().unwrap().success());
    tmux.wait_for(prompt, 20);
    std::thread::sleep(Duration::from_secs(1));
    tmux.send(&["Enter"]);
    tmux
}

/// What a user sees (DESIGN §4 recipe): interactive Claude Code under tmux, the scripted
/// model calls `dossier_merge`, the merge form appears on screen, the user picks "Keep the
/// source's" and accepts, and the merge completes with that resolution.
#[test]
fn the_merge_form_appears_in_interactive_claude_code_and_its_choice_is_applied() {
    let (store, source, target, home, project) = queue_pair_with_claude_home();
    let log = store.dir.path().join("requests.jsonl");
    let pair = format!("{source},{target}");
    let (_api, port) = scripted_api(&log, &["merge", &pair]);

    let tmux = interactive_claude("dossier-e2e", &home, &project, &port, "Merge the queue notes into the queue store.");
    let start = Instant::now();
    let mut last_enter = Instant::now();
    let form = loop {
        let s = tmux.screen();
        if s.contains("requests your input") {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(90), "never saw the form:\n{s}");
        // An Enter swallowed while the box was still settling: the prompt is still in it.
        if last_enter.elapsed() > Duration::from_secs(8) && !s.contains("dossier") {
            tmux.send(&["Enter"]);
            last_enter = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    assert!(form.contains("Merge conflict (contradictory decision)") && form.contains("Redis"), "{form}");
    // Expand the choice, pick the second option, then Accept.
    tmux.send(&["Right", "Down", "Space"]);
    tmux.wait_for("Keep the source's", 10);
    tmux.send(&["Down", "Down", "Enter"]);
    // Issue 19: the scripted model reviewed the possible conflicts first; the pair it marked a
    // contradiction is the next form (the compatible one is kept both without asking).
    let form = tmux.wait_for("judged it a contradiction", 60);
    assert!(form.contains("Cron jobs disabled") && !form.contains("3x the annual rate"), "{form}");
    tmux.send(&["Right", "Down", "Space"]);
    tmux.wait_for("Keep the source's", 10);
    tmux.send(&["Down", "Down", "Enter"]);

    let state_file = store.root().join(&target).join("dossier.md");
    let start = Instant::now();
    while !std::fs::read_to_string(&state_file).unwrap().contains("Redis") {
        assert!(start.elapsed() < Duration::from_secs(60), "the merge never completed:\n{}", tmux.screen());
        std::thread::sleep(Duration::from_millis(250));
    }
    let state = std::fs::read_to_string(&state_file).unwrap();
    assert!(!state.contains("Postgres"), "the user's choice (keep the source's) was applied:\n{state}");
    assert!(
        state.contains("Cron jobs disabled") && !state.contains("still on the cron jobs"),
        "the second form's choice:\n{state}"
    );
    assert!(
        state.contains("renewals move to annual") && state.contains("3x the annual rate"),
        "compatible: both kept:\n{state}"
    );
    let conflicts: Vec<PathBuf> = std::fs::read_dir(store.root().join(&target).join("conflicts"))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(conflicts.is_empty(), "a form answered in time preserves no conflict file: {conflicts:?}");
    let audit = std::fs::read_to_string(store.root().join(&target).join("audit.log")).unwrap();
    assert!(audit.contains("\"conflict_resolved\"") && audit.contains("keep_source"), "{audit}");
}

/// A Claude Code home (as [`claude_home`]) whose project is a git repository with an
/// uncommitted change worth a codecall session (retries with exponential backoff), and a
/// Dossier to hand the summary to. Returns (store, Dossier slug, home, project).
fn codecall_project() -> (TempStore, String, PathBuf, PathBuf) {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let out = store.cmd().args(["promote", "--json", "--create", "--name", "HTTP client hardening"]).output().unwrap();
    let slug = support::json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
    let (home, project) = claude_home(&store);
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(&project)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let before = "pub async fn fetch(url: &str) -> Result<String, String> {\n    send(url).await\n}\n\n\
                  async fn send(url: &str) -> Result<String, String> {\n    Err(format!(\"unreachable {url}\"))\n}\n";
    let after = "use std::time::Duration;\n\npub async fn fetch(url: &str) -> Result<String, String> {\n    \
                 retry_with_backoff(url, 5, Duration::from_millis(100)).await\n}\n\n\
                 pub async fn retry_with_backoff(url: &str, attempts: u32, base: Duration) -> Result<String, String> {\n    \
                 let mut delay = base;\n    let mut last = String::new();\n    for _ in 0..attempts {\n        \
                 match send(url).await {\n            Ok(body) => return Ok(body),\n            Err(e) => last = e,\n        \
                 }\n        sleep(delay).await;\n        delay *= 2;\n    }\n    Err(last)\n}\n\n\
                 async fn sleep(_d: Duration) {}\n\n\
                 async fn send(url: &str) -> Result<String, String> {\n    Err(format!(\"unreachable {url}\"))\n}\n";
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/lib.rs"), "pub mod client;\n").unwrap();
    std::fs::write(project.join("src/client.rs"), before).unwrap();
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "base"]);
    std::fs::write(project.join("src/client.rs"), after).unwrap();
    // The `/codecall` command as `dossier init` installs it (init's part: tests/claude_init.rs).
    let commands = home.join(".claude/commands");
    std::fs::create_dir_all(&commands).unwrap();
    std::fs::write(commands.join("codecall.md"), include_str!("../assets/claude/commands/codecall.md")).unwrap();
    (store, slug, home, project)
}

/// The one codecall event log under the store, as JSON lines.
fn codecall_log(store: &TempStore) -> Vec<serde_json::Value> {
    let logs: Vec<PathBuf> = std::fs::read_dir(store.root().join("learning"))
        .expect("the learning log directory exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    assert_eq!(logs.len(), 1, "one session: {logs:?}");
    std::fs::read_to_string(&logs[0]).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The summary artifact the hand-off saved in the Dossier `slug` (a Markdown artifact: its
/// metadata is its frontmatter).
fn summary_artifact(store: &TempStore, slug: &str) -> String {
    let found: Vec<String> = std::fs::read_dir(store.root().join(slug).join("artifacts"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .filter(|t| t.contains("type: decision_evidence"))
        .collect();
    assert_eq!(found.len(), 1, "exactly one summary artifact: {found:?}");
    found.into_iter().next().unwrap()
}

/// A full codecall session from Claude Code in print mode (issue 10): the scripted model binds
/// a Dossier, starts a session with `save_summary`, loads the tools, does every work order
/// (its first concepts result is invalid, is rejected with the exact error, and the corrected
/// one is accepted), answers the gates whose forms print mode cancels (the results say what
/// to ask and which tool to call), and the session completes: the event log is on disk and
/// the summary is a `decision_evidence` artifact of the bound Dossier.
#[test]
fn claude_code_runs_a_full_codecall_session_and_hands_the_summary_to_the_bound_dossier() {
    let (store, slug, home, project) = codecall_project();
    let log = store.dir.path().join("requests.jsonl");
    let arg = format!("{slug},{}", project.display());
    let (_api, port) = scripted_api(&log, &["codecall", &arg]);
    let out = run_claude(
        &home,
        &project,
        &port,
        &["-p", "/codecall", "--allowedTools", "mcp__dossier__*", "--max-turns", "200"],
    );
    let requests = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        out.status.success(),
        "claude failed: {}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let events = codecall_log(&store);
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types.first(), Some(&"SESSION_STARTED"), "{types:?}");
    assert_eq!(types.last(), Some(&"SESSION_FINISHED"), "the session completed: {types:?}");
    for t in ["CONCEPTS_EXTRACTED", "DECISION_RECORDED", "CONFIDENCE_RECORDED", "LESSON_READY", "SUMMARY_READY"] {
        assert!(types.contains(&t), "{t} missing: {types:?}");
    }
    // The invalid result was rejected (recorded as such) before the corrected one was taken.
    let failed = types.iter().position(|t| *t == "OPERATION_FAILED").expect("the invalid result was rejected");
    let extracted = types.iter().position(|t| *t == "CONCEPTS_EXTRACTED").unwrap();
    assert!(failed < extracted, "{types:?}");
    assert_eq!(events[failed]["payload"]["code"], "invalid_worker_result");
    let started = &events[0];
    assert_eq!(started["payload"]["invocation"], "manual");

    // The hand-off: a decision_evidence artifact in the bound Dossier, saved through the Save
    // path (audited), with provenance naming the session.
    let sid = started["session_id"].as_str().unwrap();
    let content = summary_artifact(&store, &slug);
    assert!(content.contains(&format!("codecall_session: {sid}")), "{content}");
    assert!(
        content.contains("# codecall session summary") && content.contains("Estimated session mastery"),
        "{content}"
    );
    let audit = std::fs::read_to_string(store.root().join(&slug).join("audit.log")).unwrap();
    assert!(audit.lines().last().unwrap().contains("artifacts_added"), "{audit}");

    // What the model saw: the rejection with its exact error, the fallback for the gates
    // (print mode cancels forms), and the summary with the hand-off.
    let last = requests.lines().rev().find(|l| l.contains("tool_result")).expect("tool results reached the model");
    for expected in
        ["invalid_worker_result", "out_of_range", "ask the user", "codecall_answer session_id=", "\\\"hand_off\\\""]
    {
        assert!(last.contains(expected), "the model never saw {expected}");
    }
    // `/codecall` expanded to the command's instructions.
    assert!(requests.contains("Call the `codecall_start` tool"), "the /codecall command reached the model");
}

/// What a user sees of codecall (issue 10, DESIGN §4 recipe): interactive Claude Code under
/// tmux, the scripted model starts a session and does the work orders, and the user answers
/// the three kinds of form on screen — Start, a confidence level ("Heard of it"), and each
/// question (the first option shown) — and exactly those answers reach the event log as the
/// user's; the session completes with the summary in the bound Dossier.
#[test]
fn codecall_forms_appear_in_interactive_claude_code_and_the_answers_chosen_reach_the_log() {
    let (store, slug, home, project) = codecall_project();
    let log = store.dir.path().join("requests.jsonl");
    let arg = format!("{slug},{}", project.display());
    let (_api, port) = scripted_api(&log, &["codecall", &arg]);

    let tmux =
        interactive_claude("dossier-cc", &home, &project, &port, "Start a codecall session on what I just built.");

    // Answer every form until the session ends; remember what was chosen on screen.
    let finished = || {
        std::fs::read_dir(store.root().join("learning")).is_ok_and(|d| {
            d.flatten().any(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains("\"SESSION_FINISHED\"")))
        })
    };
    let to_accept = |tmux: &Tmux| {
        for _ in 0..12 {
            if tmux.screen().contains("❯ Accept") {
                break;
            }
            tmux.send(&["Down"]);
        }
        assert!(tmux.screen().contains("❯ Accept"), "never reached Accept:\n{}", tmux.screen());
        tmux.send(&["Enter"]);
    };
    let (mut decided, mut confided, mut chosen) = (0, 0, Vec::<String>::new());
    let start = Instant::now();
    let mut last_enter = Instant::now();
    while !finished() {
        assert!(start.elapsed() < Duration::from_secs(300), "the session never finished:\n{}", tmux.screen());
        let s = tmux.screen();
        if !s.contains("requests your input") {
            // An Enter swallowed while the box was still settling: the prompt is still in it.
            if decided == 0 && last_enter.elapsed() > Duration::from_secs(8) && !s.contains("dossier") {
                tmux.send(&["Enter"]);
                last_enter = Instant::now();
            }
            std::thread::sleep(Duration::from_millis(300));
            continue;
        }
        if s.contains("Start it now?") {
            assert!(s.contains("retries") && s.contains("minute(s)"), "the card shows the plan:\n{s}");
            tmux.send(&["Right", "Space"]); // the first option: Start
            tmux.wait_for("Start the session?: ▸ Start", 10);
            to_accept(&tmux);
            decided += 1;
        } else if s.contains("how well do you already know") {
            // Expanded, the cursor is on the current value ("Use a default", the last).
            tmux.send(&["Right", "Up", "Up", "Space"]);
            tmux.wait_for("Heard of it", 10);
            to_accept(&tmux);
            confided += 1;
        } else if s.contains("Your answer") {
            assert!(s.contains("codecall question on"), "{s}");
            tmux.send(&["Right", "Space"]); // the first option shown (choices are shuffled)
            let picked = tmux.wait_for("✔ Your answer: ", 10);
            let line = picked.lines().find(|l| l.contains("✔ Your answer: ")).unwrap();
            let id = line.split("✔ Your answer: ").nth(1).unwrap().trim_start_matches(['▸', ' ']);
            let id = id.split(')').next().unwrap().trim().to_string();
            chosen.push(id);
            to_accept(&tmux);
        } else {
            panic!("an unexpected form:\n{s}");
        }
        // Wait for this form to go before looking for the next one.
        let gone = Instant::now();
        while tmux.screen().contains("requests your input") && gone.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    assert_eq!((decided, confided), (1, 1), "one Start/Skip form and one confidence form");
    assert!(!chosen.is_empty(), "at least one question was asked by form");

    // The log records the user's answers, exactly as chosen on screen.
    let events = codecall_log(&store);
    let of = |t: &str| events.iter().filter(|e| e["type"] == t).collect::<Vec<_>>();
    let decision = of("DECISION_RECORDED");
    assert_eq!(decision.len(), 1);
    assert_eq!((decision[0]["actor"].as_str(), decision[0]["payload"]["accept"].as_bool()), (Some("user"), Some(true)));
    let confidence = of("CONFIDENCE_RECORDED");
    assert_eq!(confidence[0]["actor"], "user");
    let levels = confidence[0]["payload"]["levels"].as_object().unwrap();
    assert!(!levels.is_empty() && levels.values().all(|l| l == "heard_of_it"), "{levels:?}");
    let answered: Vec<String> = of("QUESTION_ANSWERED")
        .iter()
        .inspect(|e| assert_eq!(e["actor"], "user"))
        .map(|e| e["payload"]["display_label"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(answered, chosen, "the log holds the choices made on screen (their display labels), in order");
    let content = summary_artifact(&store, &slug);
    assert!(content.contains("# codecall session summary"), "{content}");
}

/// Issue 20 with the real Claude Code: a session whose transcript holds secrets (the user's
/// prompt carries a GitHub token, an AWS key id and a private key) is bound by the model, and
/// when it ends the SessionEnd hook archives the transcript through the redaction policy: no
/// file anywhere under the store holds any of the secrets, the archived transcript is still
/// JSONL with the markers in place, and the capture's audit event counts them. (Claude Code's
/// own transcript under `~/.claude/` still holds them: Dossier redacts its copy.)
#[test]
fn claude_code_session_end_archives_a_transcript_with_its_secrets_redacted() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let seed = serde_json::json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        "projects": { project.display().to_string(): { "hasTrustDialogAccepted": true } },
    });
    std::fs::write(home.join(".claude.json"), serde_json::to_vec_pretty(&seed).unwrap()).unwrap();
    let dossier = |args: &[&str]| {
        let out = Command::new(crate::DOSSIER)
            .args(args)
            .env("HOME", &home)
            .env_remove("DOSSIER_HOME")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "dossier {args:?}: {}", String::from_utf8_lossy(&out.stdout));
        out
    };
    dossier(&["init", "--yes", "--no-self-install"]);
    let store = home.join(".dossier");
    dossier(&["promote", "--name", "Deploy credentials", "--create"]);
    let slug = "deploy-credentials";

    let fakes = support::secrets::Fakes::new(2020);
    let prompt = format!(
        "Pick up the deploy work. CI pushes with GITHUB_TOKEN={} and AWS_ACCESS_KEY_ID={}; the deploy key is\n{}",
        fakes.github,
        fakes.aws_id,
        fakes.pem()
    );
    let log = dir.path().join("requests.jsonl");
    let (api, port) = scripted_api(&log, &["bind", slug]);
    let out = run_claude(&home, &project, &port, &["-p", &prompt, "--allowedTools", "mcp__dossier__*"]);
    drop(api);
    assert!(out.status.success(), "claude failed: {}", String::from_utf8_lossy(&out.stderr));

    let artifacts: Vec<_> = std::fs::read_dir(store.join(slug).join("artifacts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    assert_eq!(artifacts.len(), 1, "SessionEnd archived the transcript");
    let transcript = std::fs::read_to_string(&artifacts[0]).unwrap();
    for line in transcript.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("the transcript artifact is still JSONL");
    }
    for kind in ["github_token", "aws_access_key_id", "private_key"] {
        assert!(transcript.contains(&format!("[REDACTED:{kind}:")), "{kind} marker in the archived transcript");
    }
    let values = [vec![fakes.github.clone(), fakes.aws_id.clone()], fakes.key_lines.clone()].concat();
    assert_eq!(support::secrets::leaks(&store, &values), Vec::<(String, usize)>::new(), "a secret reached the store");
    let audit = std::fs::read_to_string(store.join(slug).join("audit.log")).unwrap();
    let capture: serde_json::Value = audit
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["actor"] == "hook:session-end")
        .expect("the capture is audited");
    assert!(capture["redactions"]["github_token"].as_u64() >= Some(1), "{capture}");
    assert!(capture["redactions"]["private_key"].as_u64() >= Some(1), "{capture}");
}
