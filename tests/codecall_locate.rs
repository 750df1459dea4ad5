//! codecall grounded in the session's real work (issue 21, "What to build" 1 and 2, defects 1
//! and 7), through the real binary and the official MCP client: the SessionStart hook records
//! the session's starting HEAD; `dossier codecall start` and `codecall_start` locate the work
//! by the rules of docs/codecall.md (session HEAD, the transcript's edited files, the
//! uncommitted changes, the last commit with a note, or nothing); an empty pack is never taught
//! from; a large change still gets excerpts; an unknown revision fails the start visibly.
//!
//! Real git repositories in temp dirs; real hook entry points (`dossier hook session-start`,
//! `dossier hook stop`) with Claude Code's JSON on stdin.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use support::{TempStore, json_of};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const CLIENT: &str = "pub async fn fetch(url: &str) -> Result<String, String> {\n    send(url).await\n}\n\nasync fn send(url: &str) -> Result<String, String> {\n    Err(format!(\"unreachable {url}\"))\n}\n";
const RETRY: &str = "use std::time::Duration;\n\npub async fn fetch(url: &str) -> Result<String, String> {\n    retry_with_backoff(url, 5, Duration::from_millis(100)).await\n}\n\npub async fn retry_with_backoff(url: &str, attempts: u32, base: Duration) -> Result<String, String> {\n    let mut delay = base;\n    let mut last = String::new();\n    for _ in 0..attempts {\n        match send(url).await {\n            Ok(body) => return Ok(body),\n            Err(e) => last = e,\n        }\n        delay *= 2;\n    }\n    Err(last)\n}\n\nasync fn send(url: &str) -> Result<String, String> {\n    Err(format!(\"unreachable {url}\"))\n}\n";

/// An initialised store (warm policy cache) and a repository with one base commit.
struct World {
    store: TempStore,
    repo: PathBuf,
}

impl World {
    fn new() -> World {
        let store = TempStore::new(crate::DOSSIER);
        store.init();
        let repo = store.dir.path().join("project");
        std::fs::create_dir_all(&repo).unwrap();
        git(&repo, &["init", "-q", "-b", "main"]);
        write(&repo, "src/lib.rs", "pub mod client;\n");
        write(&repo, "src/client.rs", CLIENT);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", "base"]);
        World { store, repo }
    }

    fn head(&self) -> String {
        git(&self.repo, &["rev-parse", "HEAD"])
    }

    /// The agent's change, committed (as a scripted agent that commits its work does).
    fn commit_retry(&self) {
        write(&self.repo, "src/client.rs", RETRY);
        git(&self.repo, &["commit", "-q", "-am", "retry with backoff"]);
    }

    fn hook(&self, event: &str, input: Value) -> std::process::Output {
        let out = self.store.cmd().args(["hook", event]).write_stdin(input.to_string()).output().unwrap();
        assert!(out.status.success(), "hooks always exit 0: {out:?}");
        out
    }

    fn session_start(&self, session: &str, transcript: Option<&Path>) {
        self.hook(
            "session-start",
            json!({"session_id": session, "transcript_path": transcript, "cwd": self.repo,
                   "hook_event_name": "SessionStart", "source": "startup"}),
        );
    }

    /// `dossier codecall start --repo R --json` (with `CLAUDE_CODE_SESSION_ID` when given).
    fn start(&self, session: Option<&str>, extra: &[&str]) -> (bool, Value) {
        let mut cmd = self.store.cmd();
        cmd.args(["codecall", "start", "--repo", self.repo.to_str().unwrap(), "--json"]).args(extra);
        match session {
            Some(s) => cmd.env("CLAUDE_CODE_SESSION_ID", s),
            None => cmd.env_remove("CLAUDE_CODE_SESSION_ID"),
        };
        let out = cmd.output().unwrap();
        let v = json_of(&out);
        assert_eq!(out.status.success(), v["ok"] == true, "{v:#}");
        (v["ok"] == true, v)
    }

    fn log(&self, started: &Value) -> Vec<Value> {
        let path = started["data"]["log"].as_str().unwrap();
        std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }
}

fn event<'a>(log: &'a [Value], kind: &str) -> &'a Value {
    log.iter().find(|e| e["type"] == kind).unwrap_or_else(|| panic!("no {kind} in {log:#?}"))
}

fn pack(log: &[Value]) -> &Value {
    &event(log, "CONTEXT_READY")["payload"]["pack"]
}

fn pack_paths(log: &[Value]) -> Vec<String> {
    pack(log)["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap().to_string()).collect()
}

/// The rule in both places it is recorded: the pack and `SESSION_STARTED`.
fn rule(log: &[Value]) -> String {
    let in_pack = pack(log)["locator"]["located"]["rule"].as_str().unwrap().to_string();
    let started = event(log, "SESSION_STARTED")["payload"]["locator"]["located"]["rule"].as_str().unwrap();
    assert_eq!(in_pack, started);
    in_pack
}

#[test]
fn issue_21_the_session_start_hook_records_head_and_dirtiness_and_never_fails() {
    let w = World::new();
    w.session_start("s-rec", None);
    let binding: Value =
        serde_json::from_slice(&std::fs::read(w.store.root().join("sessions/s-rec.json")).unwrap()).unwrap();
    let start = &binding["work_start"];
    assert_eq!(start["head"], json!(w.head()));
    assert_eq!(start["dirty"], false);
    assert_eq!(binding["dossier_id"], Value::Null, "recording binds nothing");
    // A resume of the same session keeps the first record, even after the HEAD moved.
    w.commit_retry();
    w.hook("session-start", json!({"session_id": "s-rec", "cwd": w.repo, "source": "resume"}));
    let again: Value =
        serde_json::from_slice(&std::fs::read(w.store.root().join("sessions/s-rec.json")).unwrap()).unwrap();
    assert_eq!(again["work_start"], *start);
    // A dirty tree is recorded as dirty; an untracked file alone is not looked for (the hook's
    // git query skips the untracked walk, docs/performance.md).
    write(&w.repo, "notes.txt", "scratch\n");
    w.session_start("s-untracked", None);
    let untracked: Value =
        serde_json::from_slice(&std::fs::read(w.store.root().join("sessions/s-untracked.json")).unwrap()).unwrap();
    assert_eq!(untracked["work_start"]["dirty"], false);
    write(&w.repo, "src/lib.rs", "pub mod client;\npub mod more;\n");
    w.session_start("s-dirty", None);
    let dirty: Value =
        serde_json::from_slice(&std::fs::read(w.store.root().join("sessions/s-dirty.json")).unwrap()).unwrap();
    assert_eq!(dirty["work_start"]["dirty"], true);
    // No repository: nothing recorded, and the hook still answers.
    let elsewhere = w.store.dir.path().join("not-a-repo");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = w.hook("session-start", json!({"session_id": "s-none", "cwd": elsewhere, "source": "startup"}));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Dossier Library"));
    assert!(!w.store.root().join("sessions/s-none.json").exists());
}

/// The SessionStart hook reads HEAD from the repository's files (no git process): it must be
/// the commit git itself names, for a loose ref, packed refs, a detached HEAD, a linked
/// worktree, and an unborn branch.
#[test]
fn issue_21_the_session_start_hook_reads_head_as_git_does_in_every_layout() {
    let w = World::new();
    let recorded = |session: &str, cwd: &Path| -> Value {
        w.hook("session-start", json!({"session_id": session, "cwd": cwd, "source": "startup"}));
        let p = w.store.root().join(format!("sessions/{session}.json"));
        serde_json::from_slice::<Value>(&std::fs::read(p).unwrap()).unwrap()["work_start"].clone()
    };
    assert_eq!(recorded("s-loose", &w.repo)["head"], json!(w.head()));
    w.commit_retry();
    git(&w.repo, &["pack-refs", "--all"]);
    assert!(!w.repo.join(".git/refs/heads/main").exists(), "the branch is only in packed-refs");
    assert_eq!(recorded("s-packed", &w.repo.join("src"))["head"], json!(w.head()));
    let first = git(&w.repo, &["rev-parse", "HEAD~1"]);
    git(&w.repo, &["checkout", "-q", "--detach", &first]);
    assert_eq!(recorded("s-detached", &w.repo)["head"], json!(first));
    git(&w.repo, &["checkout", "-q", "main"]);
    let linked = w.store.dir.path().join("linked");
    git(&w.repo, &["worktree", "add", "-q", "-b", "side", linked.to_str().unwrap(), &first]);
    write(&linked, "src/lib.rs", "pub mod client;\npub mod side;\n");
    git(&linked, &["commit", "-q", "-am", "side work"]);
    let side = git(&linked, &["rev-parse", "HEAD"]);
    let start = recorded("s-linked", &linked);
    assert_eq!((start["head"].clone(), start["dirty"].clone()), (json!(side), json!(false)));
    let empty = w.store.dir.path().join("unborn");
    std::fs::create_dir_all(&empty).unwrap();
    git(&empty, &["init", "-q", "-b", "main"]);
    let start = recorded("s-unborn", &empty);
    assert_eq!((start.get("head"), start["dirty"].clone()), (None, json!(false)), "{start}");
}

#[test]
fn issue_21_a_committed_change_is_found_from_the_sessions_starting_head() {
    let w = World::new();
    w.session_start("s-head", None);
    w.commit_retry();
    let (ok, started) = w.start(Some("s-head"), &["--task", "Retry failed calls with backoff"]);
    assert!(ok, "{started:#}");
    let log = w.log(&started);
    assert_eq!(rule(&log), "session_head");
    assert_eq!(pack_paths(&log), ["src/client.rs"]);
    assert!(!pack(&log)["excerpts"].as_array().unwrap().is_empty());
    assert_eq!(started["data"]["next"]["kind"], "work_order", "a concepts work order over real evidence");
    // A dirty tree on top: committed and uncommitted work together.
    write(&w.repo, "src/lib.rs", "pub mod client;\npub mod retry_policy;\n");
    let (_, again) = w.start(Some("s-head"), &[]);
    assert_eq!(pack_paths(&w.log(&again)), ["src/client.rs", "src/lib.rs"]);
}

#[test]
fn issue_21_without_a_session_record_a_dirty_tree_is_the_working_tree() {
    let w = World::new();
    write(&w.repo, "src/client.rs", RETRY);
    let (ok, started) = w.start(None, &[]);
    assert!(ok);
    let log = w.log(&started);
    assert_eq!(rule(&log), "working_tree");
    assert_eq!(pack_paths(&log), ["src/client.rs"]);
}

#[test]
fn issue_21_a_clean_tree_after_a_commit_with_no_session_head_uses_the_last_commit_with_a_note() {
    let w = World::new();
    w.commit_retry();
    let (ok, started) = w.start(None, &[]);
    assert!(ok, "{started:#}");
    let log = w.log(&started);
    assert_eq!(rule(&log), "last_commit");
    assert_eq!(pack_paths(&log), ["src/client.rs"]);
    let warnings = started["warnings"].to_string();
    assert!(warnings.contains("HEAD~1..HEAD") && warnings.contains("may not be the work"), "{warnings}");
    assert!(pack(&log)["locator"]["located"]["note"].as_str().unwrap().contains("HEAD~1..HEAD"));
}

#[test]
fn issue_21_the_files_the_transcript_shows_edited_are_the_work_when_no_start_was_recorded() {
    let w = World::new();
    // The session started before the store knew of it: only the Stop hook saw its edits.
    let transcript = w.store.dir.path().join("transcript.jsonl");
    let path = w.repo.join("src/client.rs");
    let lines = [
        json!({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "Write", "input": {"file_path": path, "content": RETRY}}]}}),
        json!({"type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": "toolu_1", "type": "tool_result", "content": "File written."}]}}),
    ];
    std::fs::write(&transcript, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    w.hook(
        "stop",
        json!({"session_id": "s-edits", "transcript_path": transcript, "cwd": w.repo,
               "hook_event_name": "Stop", "stop_hook_active": false}),
    );
    assert!(w.store.root().join("sessions/cards/s-edits.json").exists(), "the card read the transcript");
    // The agent committed its change together with someone else's file; then another commit
    // that is not the session's.
    write(&w.repo, "src/client.rs", RETRY);
    write(&w.repo, "docs/unrelated.md", "# Someone else's notes\n");
    git(&w.repo, &["add", "-A"]);
    git(&w.repo, &["commit", "-q", "-m", "retry and notes"]);
    let (ok, started) = w.start(Some("s-edits"), &[]);
    assert!(ok, "{started:#}");
    let log = w.log(&started);
    assert_eq!(rule(&log), "session_edits");
    assert_eq!(pack_paths(&log), ["src/client.rs"], "only the files the session edited");
    let note = pack(&log)["locator"]["located"]["note"].as_str().unwrap();
    assert!(note.contains("src/client.rs"), "{note}");
}

#[test]
fn issue_21_with_nothing_changed_the_session_is_skip_with_a_cause_and_no_concepts_work_order() {
    // A repository whose only commit has no parent, a clean tree, no session: nothing to find.
    let w = World::new();
    let (ok, started) = w.start(None, &[]);
    assert!(ok, "{started:#}");
    let log = w.log(&started);
    assert_eq!(rule(&log), "none");
    let degraded = &event(&log, "CONTEXT_DEGRADED")["payload"];
    assert_eq!(degraded["cause"], "insufficient_evidence");
    let details = degraded["details"].to_string();
    assert!(details.contains("no qualifying evidence") && details.contains("no changed files"), "{details}");
    let opportunity = &event(&log, "OPPORTUNITY_DETECTED")["payload"];
    assert_eq!(opportunity["recommendation"], "skip");
    assert!(opportunity["reasons"][0].as_str().unwrap().starts_with("no qualifying evidence"), "{opportunity:#}");
    assert!(!log.iter().any(|e| e["type"] == "CONCEPTS_EXTRACTED"));
    let next = &started["data"]["next"];
    assert_eq!(next["kind"], "decision", "{next:#}");
    assert_eq!(next["teachable"], false);
    let help = next["help"].to_string();
    assert!(help.contains("base") && help.contains("task") && help.contains("repo"), "{help}");
    assert!(started["warnings"].to_string().contains("no changes found"), "{started:#}");
    // Said to a person too, and over MCP the agent is told to pass the help on.
    let out =
        w.store.cmd().args(["codecall", "show", started["data"]["session_id"].as_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no qualifying evidence") && text.contains("What would help"), "{text}");
    let replies =
        support::mcp::McpSession::new(&w.store, "s-none").call("codecall_start", json!({"repo": w.repo})).run();
    let next = replies[0].next_actions().join("\n");
    assert!(next.contains("data.next.help") && next.contains("accept=false"), "{next}");
    assert_eq!(replies[0].data()["next"]["recommendation"], "skip");
    // An explicit empty range: the same.
    let (_, explicit) = w.start(None, &["--base", "HEAD", "--head", "HEAD"]);
    let log = w.log(&explicit);
    assert_eq!(rule(&log), "explicit");
    assert_eq!(event(&log, "CONTEXT_DEGRADED")["payload"]["cause"], "insufficient_evidence");
    assert_eq!(explicit["data"]["next"]["kind"], "decision");
}

#[test]
fn issue_21_defect_7_an_unknown_base_fails_the_start_with_unavailable_source_and_what_to_do() {
    let w = World::new();
    let (ok, v) = w.start(None, &["--base", "nosuchrev", "--head", "HEAD"]);
    assert!(!ok);
    assert_eq!(v["error"]["code"], "unavailable_source", "{v:#}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("unknown revision") && message.contains("nosuchrev"), "{message}");
    assert!(message.contains("git log --oneline"), "{message}");
    assert!(!v["next_actions"].as_array().unwrap().is_empty(), "{v:#}");
    // The log keeps what happened.
    let log_path = v["error"]["details"]["log"].as_str().unwrap();
    assert!(std::fs::read_to_string(log_path).unwrap().contains("SESSION_FAILED"));

    // The same through the official MCP client.
    let replies = support::mcp::McpSession::new(&w.store, "s-mcp")
        .call("codecall_start", json!({"repo": w.repo, "base": "nosuchrev", "head": "HEAD"}))
        .run();
    let r = &replies[0];
    assert_eq!(r.code(), "unavailable_source", "{:#}", r.envelope);
    let message = r.envelope["error"]["message"].as_str().unwrap();
    assert!(message.contains("unknown revision") && message.contains("git log --oneline"), "{message}");
    assert!(!r.next_actions().is_empty());
}

#[test]
fn issue_21_codecall_start_over_mcp_uses_the_same_rules() {
    let w = World::new();
    w.session_start("s-mcp-head", None);
    w.commit_retry();
    let replies = support::mcp::McpSession::new(&w.store, "s-mcp-head")
        .call("codecall_start", json!({"repo": w.repo, "task": "Retry with backoff"}))
        .call("codecall_start", json!({"repo": w.store.dir.path().join("empty")}))
        .run();
    let data = replies[0].data();
    assert_eq!(data["next"]["kind"], "work_order", "{data:#}");
    let log: Vec<Value> = std::fs::read_to_string(data["log"].as_str().unwrap())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rule(&log), "session_head");
    assert_eq!(pack_paths(&log), ["src/client.rs"]);
    assert!(!replies[1].ok(), "a path that does not exist is refused: {:#}", replies[1].envelope);
}

#[test]
fn issue_21_defect_1_a_300_file_change_gives_a_pack_with_excerpts_and_no_lesson_loop() {
    let w = World::new();
    let module = |i: usize, word: &str| {
        (0..60)
            .map(|f| format!("pub fn m{i}_step_{f}({word}: &str) -> usize {{\n    {word}.len() * {f}\n}}\n\n"))
            .collect::<String>()
    };
    for i in 0..300 {
        write(&w.repo, &format!("src/retry/m{i:03}.rs"), &module(i, "input"));
    }
    git(&w.repo, &["add", "-A"]);
    git(&w.repo, &["commit", "-q", "-m", "modules"]);
    let base = w.head();
    for i in 0..300 {
        write(&w.repo, &format!("src/retry/m{i:03}.rs"), &module(i, "text_with_a_longer_name"));
    }
    git(&w.repo, &["commit", "-q", "-am", "rename the parameter everywhere"]);
    let (ok, started) = w.start(None, &["--base", &base, "--head", "HEAD"]);
    assert!(ok, "{started:#}");
    let log = w.log(&started);
    let p = pack(&log);
    assert!(!p["excerpts"].as_array().unwrap().is_empty(), "excerpts in the pack: {:#}", p["levels"]);
    assert!(p["budget"]["omission_counts"]["metadata/listing_cap"].as_u64().unwrap() > 0);
    // The agent gets a concepts work order with excerpts to cite, not a pack of file listings.
    let order = &started["data"]["next"];
    assert_eq!(order["step"], "concepts");
    assert!(!order["evidence"]["excerpts"].as_array().unwrap().is_empty(), "{:#}", order["evidence"]);

    // Three failed extractions: the degraded plan teaches only what the pack can ground, and a
    // teachable card leads to a lesson work order with evidence (never a loop of rejections).
    let sid = started["data"]["session_id"].as_str().unwrap().to_string();
    let cc = |args: &[&str]| {
        let out = w.store.cmd().arg("codecall").args(args).arg("--json").output().unwrap();
        json_of(&out)
    };
    let mut v = started.clone();
    for _ in 0..3 {
        let cp = v["data"]["next"]["id"].as_str().unwrap().to_string();
        v = cc(&["submit", &sid, "--checkpoint", &cp, "--failure", "cannot extract concepts"]);
    }
    let v = cc(&["show", &sid]);
    let card = &v["data"]["next"];
    assert_eq!(card["kind"], "decision", "{v:#}");
    assert_eq!(card["degraded"], true);
    assert_eq!(card["teachable"], true, "the retry files' excerpts ground the degraded plan: {card:#}");
    let cp = card["checkpoint"].as_str().unwrap();
    let v = cc(&["answer", &sid, "--checkpoint", cp, "--accept"]);
    let cp = v["data"]["next"]["checkpoint"].as_str().unwrap().to_string();
    let v = cc(&["answer", &sid, "--checkpoint", &cp, "--default-confidence"]);
    let lesson = &v["data"]["next"];
    assert_eq!(lesson["step"], "lesson", "{v:#}");
    assert!(lesson["evidence"].to_string().contains("content_hash"), "the lesson order has evidence: {lesson:#}");
}

#[test]
fn issue_21_defect_1_a_degraded_plan_drops_a_unit_without_evidence_and_says_skip() {
    // The only file that signals a concept (a binary `retry` blob) has no excerpt; the file that
    // has one signals nothing. After three failed extractions the degraded plan would teach
    // "retries" with nothing to cite: it is omitted instead, and the card says skip.
    let w = World::new();
    std::fs::write(w.repo.join("src/retry_table.bin"), [0u8, 1, 2, 3, 0, 9, 9]).unwrap();
    write(&w.repo, "src/lib.rs", "pub mod client;\npub fn version() -> u32 {\n    2\n}\n");
    let (ok, started) = w.start(None, &[]);
    assert!(ok, "{started:#}");
    let sid = started["data"]["session_id"].as_str().unwrap().to_string();
    let cc = |args: &[&str]| {
        let out = w.store.cmd().arg("codecall").args(args).arg("--json").output().unwrap();
        json_of(&out)
    };
    let mut v = started.clone();
    assert_eq!(v["data"]["next"]["step"], "concepts", "{v:#}");
    for _ in 0..3 {
        let cp = v["data"]["next"]["id"].as_str().unwrap().to_string();
        v = cc(&["submit", &sid, "--checkpoint", &cp, "--failure", "cannot extract concepts"]);
    }
    let card = &cc(&["show", &sid])["data"]["next"];
    assert_eq!(card["kind"], "decision", "{card:#}");
    assert_eq!((card["teachable"].clone(), card["recommendation"].clone()), (json!(false), json!("skip")), "{card:#}");
    assert!(card["reasons"][0].as_str().unwrap().starts_with("no qualifying evidence"), "{card:#}");
    assert_eq!(card["omitted"][0]["kind"], "no_evidence", "{card:#}");
}

/// What a two-turn real Claude Code run left behind: the temp dirs, the one learning log's
/// events, and the second turn's API requests.
struct ClaudeRun {
    _dir: tempfile::TempDir,
    events: Vec<Value>,
    requests: String,
}

/// The real Claude Code in print mode (DESIGN §4, offline against the scripted API `scenario`):
/// in a repository holding `docs` besides the client, the scripted agent writes a retry change
/// and commits it with Bash; then, resumed, the user types `/codecall` and the agent calls
/// `codecall_start` (and whatever `scenario` goes on to call).
fn claude_commit_then_codecall(scenario: &str, docs: &[(&str, &str)]) -> ClaudeRun {
    use support::claude::{run_claude, scripted_api};
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    git(&project, &["init", "-q", "-b", "main"]);
    write(&project, "src/lib.rs", "pub mod client;\n");
    write(&project, "src/client.rs", CLIENT);
    for (path, text) in docs {
        write(&project, path, text);
    }
    git(&project, &["add", "-A"]);
    git(&project, &["commit", "-q", "-m", "base"]);
    let base = git(&project, &["rev-parse", "HEAD"]);
    let seed = json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        "projects": { project.display().to_string(): { "hasTrustDialogAccepted": true } },
    });
    std::fs::write(home.join(".claude.json"), serde_json::to_vec_pretty(&seed).unwrap()).unwrap();
    let init = Command::new(crate::DOSSIER)
        .args(["init", "--yes", "--no-self-install"])
        .env("HOME", &home)
        .env_remove("DOSSIER_HOME")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stdout));
    let args = ["--allowedTools", "Write", "Bash", "mcp__dossier__*", "--output-format", "stream-json", "--verbose"];

    let log = dir.path().join("requests-1.jsonl");
    let (api, port) = scripted_api(&log, &[scenario, project.to_str().unwrap()]);
    let mut first = vec!["-p", "Add retries with backoff to the client, and commit."];
    first.extend(args);
    let out = run_claude(&home, &project, &port, &first);
    drop(api);
    assert!(out.status.success(), "claude failed: {}", String::from_utf8_lossy(&out.stderr));
    assert_ne!(git(&project, &["rev-parse", "HEAD"]), base, "the agent committed its change");
    assert_eq!(git(&project, &["status", "--porcelain"]), "", "and the tree is clean");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let session_id = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| v["session_id"].as_str().map(str::to_string))
        .expect("a session id in the stream");

    let log = dir.path().join("requests-2.jsonl");
    let (api, port) = scripted_api(&log, &[scenario, project.to_str().unwrap()]);
    let mut second = vec!["-p", "/codecall", "--resume", &session_id];
    second.extend(args);
    let out = run_claude(&home, &project, &port, &second);
    drop(api);
    assert!(out.status.success(), "claude failed: {}", String::from_utf8_lossy(&out.stderr));
    let learning = home.join(".dossier/learning");
    let logs: Vec<PathBuf> = std::fs::read_dir(&learning)
        .unwrap_or_else(|e| panic!("no learning log ({e}): {}", String::from_utf8_lossy(&out.stdout)))
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let events: Vec<Value> =
        std::fs::read_to_string(&logs[0]).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let requests = std::fs::read_to_string(&log).unwrap();
    ClaudeRun { _dir: dir, events, requests }
}

/// The hooks `dossier init` registered recorded the session's starting HEAD, so the evidence is
/// the committed change (rule `session_head`), not the clean working tree.
#[test]
fn claude_code_codecall_after_the_agent_committed_its_change_teaches_that_change() {
    let run = claude_commit_then_codecall("commit", &[]);
    let events = &run.events;
    assert_eq!(rule(events), "session_head", "{:#}", pack(events)["locator"]);
    assert_eq!(pack_paths(events), ["src/client.rs"], "the evidence names the changed file");
    assert!(pack(events)["excerpts"].to_string().contains("retry_with_backoff"));
    assert!(run.requests.contains("retry_with_backoff"), "the concepts work order reached the model");
}

const RETRY_DOC: &str = "# Retries\n\nEvery outgoing call goes through `retry_with_backoff`: a failed attempt is \
retried up to five times, and the delay between attempts doubles (exponential backoff) so a struggling \
server gets time to recover. Give up after the last attempt and report its error.\n";

/// Issue 21, "Tests and figures": `/codecall` after the scripted agent committed its change,
/// driven by the real Claude Code through the MCP codecall tools up to the first lesson, in a
/// repository whose `docs/retries.md` documents the change's concept. The evidence names the
/// changed file, `DOCUMENTATION_RESOLVED` names the project-local source, a lesson citing a
/// source nobody resolved is refused (`citation_not_resolved`) through the same client, and the
/// lesson citing the resolved source (its id read from the work order) is accepted.
#[test]
fn claude_code_codecall_after_a_commit_teaches_a_lesson_citing_the_projects_own_docs() {
    let run = claude_commit_then_codecall("commit_docs", &[("docs/retries.md", RETRY_DOC)]);
    let events = &run.events;
    assert_eq!(rule(events), "session_head", "{:#}", pack(events)["locator"]);
    assert_eq!(pack_paths(events), ["src/client.rs"], "the evidence names the changed file");
    let resolved = &event(events, "DOCUMENTATION_RESOLVED")["payload"];
    let ids: Vec<&str> =
        resolved["sources"].as_array().unwrap().iter().map(|s| s["source_id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"project:docs/retries.md"), "{resolved:#}");
    assert_eq!(resolved["network"], false);
    // The refusal reached the model as the tool's result.
    assert!(run.requests.contains("citation_not_resolved"), "the unresolved citation was refused");
    assert!(run.requests.contains("project:docs/no-such-page.md"));
    let ready = &event(events, "LESSON_READY")["payload"];
    let cited: Vec<&str> =
        ready["lesson"]["citations"].as_array().unwrap().iter().filter_map(|c| c["source_id"].as_str()).collect();
    assert_eq!(cited, ["project:docs/retries.md"], "{ready:#}");
    assert_eq!(
        events.iter().filter(|e| e["type"] == "LESSON_READY").count(),
        1,
        "one lesson accepted: the refused one was not recorded"
    );
}
