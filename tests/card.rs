//! codecall's recommendation card: the real `dossier hook stop`, driven as Claude Code drives it
//! (the Stop event's JSON on stdin), over a fixture git repository and a transcript written in
//! the JSONL format Claude Code 2.1.328 writes (assistant `tool_use` lines, user `tool_result`
//! lines with `toolUseResult`, and the bookkeeping lines around them).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use support::TempStore;

/// A store (initialised: the policy component's compile cache is warm) and a git project.
struct Fixture {
    store: TempStore,
    project: PathBuf,
    transcript: PathBuf,
    next_id: std::cell::Cell<u32>,
}

impl Fixture {
    fn new() -> Fixture {
        let store = TempStore::new(crate::DOSSIER);
        store.init();
        let project = store.dir.path().join("project");
        std::fs::create_dir_all(project.join("src")).unwrap();
        std::fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
        let git = |args: &[&str]| {
            let out = Command::new("git").args(args).current_dir(&project).output().expect("git");
            assert!(out.status.success(), "git {args:?}: {out:?}");
        };
        git(&["init", "-q"]);
        git(&["add", "."]);
        git(&["-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "init"]);
        let transcript = store.dir.path().join("transcript.jsonl");
        std::fs::write(&transcript, "").unwrap();
        let f = Fixture { store, project, transcript, next_id: std::cell::Cell::new(0) };
        f.line(json!({"type": "queue-operation", "operation": "enqueue", "content": "Add OAuth"}));
        f.line(json!({"type": "user", "message": {"role": "user", "content": "Add the OAuth middleware"},
                      "cwd": f.project, "sessionId": "s"}));
        f
    }

    fn line(&self, v: Value) {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new().append(true).open(&self.transcript).unwrap();
        writeln!(file, "{v}").unwrap();
    }

    /// A tool call as Claude Code records it: the assistant's `tool_use` line, then the user's
    /// `tool_result` line (an error result when `error` is given). The file on disk is changed
    /// as the tool would have changed it.
    fn tool(&self, name: &str, input: Value, error: Option<&str>) {
        let id = format!("toolu_{:02}", self.next_id.get());
        self.next_id.set(self.next_id.get() + 1);
        self.line(json!({
            "parentUuid": null, "isSidechain": false, "type": "assistant",
            "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-scripted",
                        "content": [{"type": "tool_use", "id": id, "name": name, "input": input}],
                        "stop_reason": "tool_use"},
            "cwd": self.project, "sessionId": "s", "version": "2.1.328"
        }));
        let result = match error {
            Some(e) => json!({"type": "tool_result", "content": format!("<tool_use_error>{e}</tool_use_error>"),
                              "is_error": true, "tool_use_id": id}),
            None => {
                json!({"tool_use_id": id, "type": "tool_result", "content": "The file has been updated successfully."})
            }
        };
        if error.is_none() {
            let path = PathBuf::from(input["file_path"].as_str().unwrap());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            match name {
                "Write" => std::fs::write(&path, input["content"].as_str().unwrap()).unwrap(),
                "Edit" => {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let (old, new) = (input["old_string"].as_str().unwrap(), input["new_string"].as_str().unwrap());
                    assert!(text.contains(old), "the fixture edit applies");
                    std::fs::write(&path, text.replacen(old, new, 1)).unwrap();
                }
                _ => {}
            }
        }
        self.line(json!({
            "parentUuid": null, "isSidechain": false, "type": "user",
            "message": {"role": "user", "content": [result]},
            "toolUseResult": {"filePath": input["file_path"], "structuredPatch": []},
            "cwd": self.project, "sessionId": "s", "version": "2.1.328"
        }));
        // Claude Code's own bookkeeping between calls mentions tool names too.
        self.line(json!({"type": "tools-used", "tools": [name], "sessionId": "s"}));
    }

    fn write(&self, rel: &str, content: &str) {
        let path = self.project.join(rel);
        self.tool("Write", json!({"file_path": path, "content": content}), None);
    }

    fn edit(&self, rel: &str, old: &str, new: &str) {
        let path = self.project.join(rel);
        self.tool("Edit", json!({"replace_all": false, "file_path": path, "old_string": old, "new_string": new}), None);
    }

    fn input(&self, session: &str) -> Value {
        json!({
            "session_id": session,
            "transcript_path": self.transcript,
            "cwd": self.project,
            "permission_mode": "default",
            "hook_event_name": "Stop",
            "stop_hook_active": false,
            "last_assistant_message": "Done."
        })
    }

    fn stop(&self, input: &Value) -> String {
        stop_raw(&self.store, &input.to_string())
    }

    fn card_state(&self, session: &str) -> Value {
        let p = self.store.root().join("sessions/cards").join(format!("{session}.json"));
        serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap()
    }
}

/// `dossier hook stop` with `stdin`: always exit 0, never a panic; stdout is empty or one JSON
/// object Claude Code accepts.
fn stop_raw(store: &TempStore, stdin: &str) -> String {
    let out = store.cmd().args(["hook", "stop"]).write_stdin(stdin.to_string()).output().unwrap();
    assert!(out.status.success(), "hooks always exit 0: {out:?}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    if !text.is_empty() {
        let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        assert!(v.is_object(), "{text}");
    }
    text
}

fn card_of(out: &str) -> String {
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("no card ({e}): {out:?}"));
    assert!(v.get("decision").is_none(), "a card never blocks the stop: {v}");
    v["systemMessage"].as_str().unwrap().to_string()
}

const MIDDLEWARE: &str = "pub struct OAuthMiddleware;\n\nimpl OAuthMiddleware {\n    pub fn check(token: &str) -> bool {\n        !token.is_empty()\n    }\n}\n";

#[test]
fn a_strong_change_shows_the_card_once_per_session() {
    let f = Fixture::new();
    f.write("src/auth/oauth_middleware.rs", MIDDLEWARE);
    f.edit("src/auth/oauth_middleware.rs", "        !token.is_empty()", "        token.starts_with(\"Bearer \")");
    let card = card_of(&f.stop(&f.input("s-1")));
    assert!(card.starts_with("codecall: authentication and authorization boundary, middleware and request pipeline — /codecall to start, ~"), "{card}");
    assert!(card.ends_with(" min") && !card.contains('\n'), "one line: {card}");
    let minutes: u32 = card.rsplit('~').next().unwrap().trim_end_matches(" min").parse().unwrap();
    assert!(minutes > 0, "{card}");
    let state = f.card_state("s-1");
    assert_eq!(state["shown"].as_array().unwrap().len(), 1, "{state}");
    assert!(state["shown"][0].as_str().unwrap().starts_with("fp-"), "{state}");

    // The same Stop again: nothing new, silent.
    assert_eq!(f.stop(&f.input("s-1")), "");
    // More work on the same concepts in a later turn: the same fingerprint, silent.
    f.edit(
        "src/auth/oauth_middleware.rs",
        "pub struct OAuthMiddleware;",
        "pub struct OAuthMiddleware {\n    pub realm: String,\n}",
    );
    assert_eq!(f.stop(&f.input("s-1")), "");
    assert_eq!(f.card_state("s-1")["shown"].as_array().unwrap().len(), 1);
    // Claude Code continuing because of a Stop hook: never a card.
    let mut active = f.input("s-2");
    active["stop_hook_active"] = json!(true);
    assert_eq!(f.stop(&active), "");
    // A new session over the same changes shows it again.
    let again = card_of(&f.stop(&f.input("s-2")));
    assert_eq!(again, card);
}

#[test]
fn a_new_concept_later_in_the_session_is_a_new_card() {
    let f = Fixture::new();
    f.write("src/auth/oauth_middleware.rs", MIDDLEWARE);
    let first = card_of(&f.stop(&f.input("s-grow")));
    f.write("src/net/retry.rs", "pub fn retry_with_backoff() {}\n");
    let second = card_of(&f.stop(&f.input("s-grow")));
    assert!(
        !first.contains("retries") && second.contains("retries, backoff and failure handling"),
        "{first}\n{second}"
    );
    assert_eq!(f.card_state("s-grow")["shown"].as_array().unwrap().len(), 2);
}

#[test]
fn formatting_and_comment_only_changes_show_nothing() {
    let f = Fixture::new();
    let path = f.project.join("src/auth/oauth_middleware.rs");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, MIDDLEWARE).unwrap();
    // Reformatted (whitespace only), then a comment added: neither is a learning opportunity.
    f.edit(
        "src/auth/oauth_middleware.rs",
        "impl OAuthMiddleware {\n    pub fn check(token: &str) -> bool {",
        "impl OAuthMiddleware\n{\n    pub fn check(token: &str)\n        -> bool {",
    );
    f.edit(
        "src/auth/oauth_middleware.rs",
        "pub struct OAuthMiddleware;",
        "// Checks bearer tokens.\npub struct OAuthMiddleware;",
    );
    assert_eq!(f.stop(&f.input("s-fmt")), "");
    let state = f.card_state("s-fmt");
    assert_eq!(state["files"]["src/auth/oauth_middleware.rs"]["change"], "comments", "{state}");
    assert!(state["shown"].as_array().unwrap().is_empty());
}

#[test]
fn failed_edits_tests_only_and_dependency_bumps_show_nothing() {
    let f = Fixture::new();
    // An edit the tool refused changed nothing.
    let missing = f.project.join("src/auth/oauth_missing.rs");
    f.tool("Edit", json!({"file_path": missing, "old_string": "a", "new_string": "b"}), Some("File does not exist."));
    assert_eq!(f.stop(&f.input("s-none")), "");
    // Tests only, no test infrastructure: no transferable strategy.
    f.write("tests/oauth_middleware_test.rs", "#[test]\nfn rejects_empty_tokens() {}\n");
    assert_eq!(f.stop(&f.input("s-none")), "");
    // An isolated dependency bump.
    let g = Fixture::new();
    g.write("Cargo.toml", "[package]\nname = \"x\"\n[dependencies]\noauth2 = \"5\"\n");
    g.write("Cargo.lock", "# generated\n");
    assert_eq!(g.stop(&g.input("s-bump")), "");
    // Generated code only (an `@generated` header).
    let h = Fixture::new();
    h.write("src/auth/session_client.rs", "// @generated by protoc. DO NOT EDIT.\npub struct SessionClient;\n");
    assert_eq!(h.stop(&h.input("s-gen")), "");
}

#[test]
fn cards_off_in_config_show_nothing_and_doctor_accepts_the_switch() {
    let f = Fixture::new();
    let config = std::fs::read_to_string(f.store.root().join("config.yaml")).unwrap();
    assert!(config.contains("recommendation_cards: true"), "documented in the shipped config");
    f.store.write_config(&config.replace("recommendation_cards: true", "recommendation_cards: false"));
    f.write("src/auth/oauth_middleware.rs", MIDDLEWARE);
    assert_eq!(f.stop(&f.input("s-off")), "");
    assert!(!f.store.root().join("sessions/cards/s-off.json").exists(), "nothing recorded when off");
    let out = f.store.cmd().args(["doctor", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let config_checks: Vec<&Value> =
        report["data"]["checks"].as_array().unwrap().iter().filter(|c| c["check"] == "config").collect();
    assert!(!config_checks.is_empty(), "{report}");
    for c in config_checks {
        assert_ne!(c["severity"], "error", "doctor accepts codecall.recommendation_cards: {c}");
    }
}

#[test]
fn the_card_joins_a_save_reminder_without_changing_it() {
    let f = Fixture::new();
    let config = std::fs::read_to_string(f.store.root().join("config.yaml")).unwrap();
    f.store.write_config(&config.replace("save_reminder_bytes: 150000", "save_reminder_bytes: 1"));
    let out = f.store.cmd().args(["promote", "--json", "--create", "--name", "OAuth rollout"]).output().unwrap();
    let slug = support::json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
    f.store.cmd().args(["switch", &slug, "--session", "s-bound"]).assert().success();
    // First stop records the save cadence's baseline (and sees no edits yet).
    assert_eq!(f.stop(&f.input("s-bound")), "");
    f.write("src/auth/oauth_middleware.rs", MIDDLEWARE);
    let v: Value = serde_json::from_str(f.stop(&f.input("s-bound")).trim()).unwrap();
    assert_eq!(v["decision"], "block", "the save reminder is unchanged: {v}");
    assert!(v["reason"].as_str().unwrap().contains("dossier_save"), "{v}");
    assert!(v["systemMessage"].as_str().unwrap().starts_with("codecall: "), "{v}");
}

#[test]
fn no_store_no_transcript_and_garbage_never_break_the_session() {
    let f = Fixture::new();
    f.write("src/auth/oauth_middleware.rs", MIDDLEWARE);
    // No store at all.
    let bare = TempStore::new(crate::DOSSIER);
    assert_eq!(stop_raw(&bare, &f.input("s-bare").to_string()), "");
    // No transcript, a missing one, a directory, garbage lines.
    let mut input = f.input("s-x");
    input.as_object_mut().unwrap().remove("transcript_path");
    assert_eq!(f.stop(&input), "");
    input["transcript_path"] = json!(f.store.dir.path().join("nope.jsonl"));
    assert_eq!(f.stop(&input), "");
    input["transcript_path"] = json!(f.store.dir.path());
    assert_eq!(f.stop(&input), "");
    let garbage = f.store.dir.path().join("garbage.jsonl");
    std::fs::write(&garbage, "not json\n{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Edit\"}]}}\n\u{0}\u{1}\n").unwrap();
    input["transcript_path"] = json!(garbage);
    assert_eq!(f.stop(&input), "");
    // A session id that is not a file name (the save cadence's usual warning line, no card),
    // and a corrupt state file.
    assert!(!f.stop(&f.input("../escape")).contains("codecall"));
    let cards = f.store.root().join("sessions/cards");
    std::fs::create_dir_all(&cards).unwrap();
    std::fs::write(cards.join("s-corrupt.json"), "{not json").unwrap();
    assert!(card_of(&f.stop(&f.input("s-corrupt"))).starts_with("codecall: "), "a corrupt state starts over");
    // Input that is not JSON: the hook's usual one warning line, exit 0.
    let out = stop_raw(&f.store, "not json");
    assert!(out.contains("dossier: "), "{out}");
}

#[test]
fn edits_outside_the_repository_and_to_sensitive_files_are_not_the_implementation() {
    let f = Fixture::new();
    let outside = f.store.dir.path().join("elsewhere/auth/oauth_middleware.rs");
    f.tool("Write", json!({"file_path": outside, "content": MIDDLEWARE}), None);
    f.write(".env", "OAUTH_SECRET=x\n");
    assert_eq!(f.stop(&f.input("s-out")), "");
    let state = f.card_state("s-out");
    let files = state["files"].as_object().unwrap();
    assert_eq!(files.keys().collect::<Vec<_>>(), [".env"], "{state}");
    assert_eq!(files[".env"]["sensitive"], true);
    assert!(!Path::new(&f.project).join("elsewhere").exists());
}

/// Issue 21 defect 10 ("the card's minutes differ from the recorded estimate"): the Stop card's
/// `~N min`, then `dossier codecall start` on the same Claude Code session (its work located by
/// the same edited files): the estimate the session records for its Start/Skip card
/// (`LEARNING_RECOMMENDATION_PRESENTED`, the plan's) and the card shows is the Stop card's —
/// when the plan is the evidence's own: an agent naming the derived signals' concepts as the
/// runtime does, and the degraded plan after three failed extractions. Three concepts of 7
/// minutes exceed the 20-minute default budget, so the number is the budget-fitted plan's.
#[test]
fn issue_21_defect_10_the_cards_minutes_are_the_sessions_estimate() {
    let f = Fixture::new();
    f.write("src/auth/oauth_middleware.rs", MIDDLEWARE);
    f.edit("src/auth/oauth_middleware.rs", "        !token.is_empty()", "        token.starts_with(\"Bearer \")");
    f.write("src/net/retry.rs", "pub fn retry_with_backoff(attempts: u32) -> u32 {\n    attempts * 2\n}\n");
    let card = card_of(&f.stop(&f.input("s-min")));
    let minutes: u64 = card.rsplit('~').next().unwrap().trim_end_matches(" min").parse().unwrap();

    let cc = |args: &[&str]| {
        let out = f
            .store
            .cmd()
            .env("CLAUDE_CODE_SESSION_ID", "s-min")
            .arg("codecall")
            .args(args)
            .arg("--json")
            .output()
            .unwrap();
        let v = support::json_of(&out);
        assert_eq!(v["ok"], true, "codecall {args:?}: {v:#}");
        v
    };
    let log_of = |v: &Value| -> Vec<Value> {
        std::fs::read_to_string(v["data"]["log"].as_str().unwrap())
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // The Start/Skip card's minutes, the recorded ones, and the plan's must all be the card's.
    let agree = |decided: &Value, log: &[Value], how: &str| {
        let decision = &decided["data"]["next"];
        assert_eq!(decision["kind"], "decision", "{how}: {decided:#}");
        let of = |t: &str| &log.iter().find(|e| e["type"] == t).unwrap_or_else(|| panic!("{t}"))["payload"];
        let presented = of("LEARNING_RECOMMENDATION_PRESENTED")["estimated_minutes"].as_u64();
        let planned = of("PLAN_CREATED")["plan"]["estimated_minutes"].as_u64();
        assert_eq!(
            (decision["estimated_minutes"].as_u64(), presented, planned),
            (Some(minutes), Some(minutes), Some(minutes)),
            "{how}: card {card}\nplan: {:#}",
            of("PLAN_CREATED")
        );
    };

    // An agent that names the evidence's concepts as the runtime derives them.
    let started = cc(&["start", "--repo", f.project.to_str().unwrap()]);
    let sid = started["data"]["session_id"].as_str().unwrap().to_string();
    let log = log_of(&started);
    let located = &log.iter().find(|e| e["type"] == "CONTEXT_READY").unwrap()["payload"]["pack"]["locator"]["located"];
    assert_eq!(located["rule"], "session_edits", "the session's work is the card's edited files");
    let order = &started["data"]["next"];
    assert_eq!(order["step"], "concepts", "{order:#}");
    let first_ref = order["evidence"]["excerpts"][0]["evidence"].clone();
    let concepts: Vec<Value> = order["input"]["derived_signals"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let c = d["concept"].as_str().unwrap();
            let kind = d["kind"].as_str().unwrap();
            let strong = [
                "external_contract",
                "architecture_flow",
                "security_boundary",
                "reliability_boundary",
                "consequential_tradeoff",
            ]
            .contains(&kind);
            let category = match kind {
                "architecture_flow" | "consequential_tradeoff" | "external_contract" => "architecture_decision",
                "reusable_pattern" => "pattern",
                _ => "concept",
            };
            let evidence = match d["evidence"].as_array() {
                Some(e) if !e.is_empty() => d["evidence"].clone(),
                _ => json!([first_ref]),
            };
            json!({"id": format!("c{i}"), "canonical_id": c, "label": c, "category": category,
                   "description": format!("How this change handles {c}"),
                   "objective": format!("Explain why the change needs {c}"),
                   "prerequisites": [], "difficulty": 3, "novelty": 0.5,
                   "implementation_relevance": if strong { 0.8 } else { 0.6 },
                   "evidence": evidence, "misconceptions": [format!("{c} only matters under load")]})
        })
        .collect();
    assert_eq!(concepts.len(), 3, "{order:#}");
    let file = f.store.dir.path().join("concepts.json");
    let result = json!({"concepts": concepts, "signals": [], "excluded": [], "disputed": []});
    std::fs::write(&file, result.to_string()).unwrap();
    let cp = order["id"].as_str().unwrap();
    let decided = cc(&["submit", &sid, "--checkpoint", cp, "--result-file", file.to_str().unwrap()]);
    agree(&decided, &log_of(&started), "the agent's plan");

    // The degraded plan (three failed extractions) over the same evidence.
    let started = cc(&["start", "--repo", f.project.to_str().unwrap()]);
    let sid = started["data"]["session_id"].as_str().unwrap().to_string();
    let mut v = started.clone();
    for _ in 0..3 {
        let cp = v["data"]["next"]["id"].as_str().unwrap().to_string();
        let out = f
            .store
            .cmd()
            .args(["codecall", "submit", &sid, "--checkpoint", &cp, "--failure", "cannot extract", "--json"])
            .output()
            .unwrap();
        v = support::json_of(&out);
    }
    let decided = cc(&["show", &sid]);
    assert_eq!(decided["data"]["next"]["degraded"], true, "{decided:#}");
    agree(&decided, &log_of(&started), "the degraded plan");
}
