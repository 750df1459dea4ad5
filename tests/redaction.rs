//! Issue 20 through the real binary: every capture path goes through the redaction policy —
//! `dossier save --artifact`, the MCP tools driven by the official Python client, the
//! SessionEnd/PreCompact hooks through `dossier hook` — and no file of the store holds a secret
//! afterwards (each test walks every file for every fake value); each capture says how many
//! secrets it redacted and audits the counts. With `privacy.redact: false`, SessionStart and
//! doctor warn; doctor finds what was stored (file, line, kind — never the value) and
//! `dossier redact` fixes it, once.
//!
//! The secrets are synthetic (`support::secrets`).

use std::path::PathBuf;

use serde_json::{Value, json};
use support::secrets::{Fakes, leaks};
use support::{TempStore, json_of, snapshot};

fn store() -> TempStore {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    s
}

fn promote(s: &TempStore, name: &str) -> String {
    let out = s.cmd().args(["promote", "--json", "--create", "--name", name]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    json_of(&out)["data"]["slug"].as_str().unwrap().to_string()
}

fn audit(s: &TempStore, slug: &str) -> Vec<Value> {
    std::fs::read_to_string(s.root().join(slug).join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn redaction_off(s: &TempStore) {
    let path = s.root().join("config.yaml");
    let config = std::fs::read_to_string(&path).unwrap();
    assert!(config.contains("  redact: true\n"), "{config}");
    std::fs::write(&path, config.replace("  redact: true\n", "  redact: false\n")).unwrap();
}

fn no_leaks(s: &TempStore, fakes: &Fakes) {
    assert_eq!(leaks(s.root(), &fakes.values()), Vec::<(String, usize)>::new(), "a secret reached the store");
}

fn write(s: &TempStore, name: &str, text: &str) -> PathBuf {
    let p = s.dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn issue_20_cli_save_artifact_stores_markers_audits_counts_and_says_so() {
    let s = store();
    let fakes = Fakes::new(101);
    let slug = promote(&s, "Billing");
    let env = write(&s, ".env", &fakes.env_file());
    let out = s.cmd().args(["save", &slug, "--artifact"]).arg(&env).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("secrets redacted (") && stdout.contains("private_key"), "{stdout}");
    no_leaks(&s, &fakes);
    let last = audit(&s, &slug).pop().unwrap();
    let counts = last["redactions"].as_object().unwrap_or_else(|| panic!("no counts: {last}"));
    assert!(counts.values().map(|n| n.as_u64().unwrap()).sum::<u64>() >= 4, "{last}");
    let id = last["artifacts_added"][0].as_str().unwrap();
    let art = std::fs::read_dir(s.root().join(&slug).join("artifacts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name().unwrap().to_string_lossy().starts_with(id) && !p.to_string_lossy().ends_with(".meta.yaml")
        })
        .unwrap();
    let stored = std::fs::read_to_string(&art).unwrap();
    assert!(stored.contains("[REDACTED:private_key:"), "{stored}");
    assert!(stored.contains("APP_NAME=billing"), "what is not a secret stays: {stored}");

    // --json: the same counts in data.redactions; the Distilled State from a file too.
    let state = write(
        &s,
        "state.md",
        &format!(
            "# Billing\n\n## Situation\n\nDeploy with {}.\n\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n",
            fakes.url()
        ),
    );
    let show = json_of(&s.cmd().args(["show", &slug, "--json"]).output().unwrap());
    let rev = show["data"]["revision"].as_str().unwrap().to_string();
    let out =
        s.cmd().args(["save", &slug, "--json", "--base-revision", &rev, "--from-file"]).arg(&state).output().unwrap();
    let v = json_of(&out);
    assert_eq!(v["data"]["redactions"]["url_credentials"], 1, "{v:#}");
    no_leaks(&s, &fakes);
}

#[test]
fn issue_20_mcp_artifacts_session_content_and_transcripts_are_redacted() {
    let s = store();
    let fakes = Fakes::new(202);
    let r = support::mcp::McpSession::new(&s, "s-mcp")
        .call(
            "dossier_promote",
            json!({
                "name": "Deploy keys",
                "create": true,
                "session_content": format!("We set GITHUB_TOKEN={} for CI.", fakes.github),
                "transcript": format!("{}\n", json!({"type": "user", "message": {"content": fakes.env_file()}})),
            }),
        )
        .run();
    let d = r[0].data();
    assert!(d["redactions"]["github_token"].as_u64() >= Some(1), "{d:#}");
    let slug = d["slug"].as_str().unwrap().to_string();
    let rev = d["revision"].as_str().unwrap().to_string();
    let r = support::mcp::McpSession::new(&s, "s-mcp")
        .call(
            "dossier_save",
            json!({
                "id": slug,
                "base_revision": rev,
                "artifacts": [{"type": "source_snapshot", "title": "creds", "content_format": "json",
                    "content": json!({"aws_access_key_id": fakes.aws_id, "db_password": fakes.password}).to_string()}],
                "frontmatter_updates": {"next_action": format!("clone {}", fakes.url())},
            }),
        )
        .run();
    let d = r[0].data();
    assert!(d["redactions"]["aws_access_key_id"] == 1 && d["redactions"]["url_credentials"] == 1, "{d:#}");
    no_leaks(&s, &fakes);
    // The JSON artifact is still JSON.
    let id = d["artifacts_added"][0].as_str().unwrap();
    let text = std::fs::read_to_string(s.root().join(&slug).join("artifacts").join(format!("{id}.json"))).unwrap();
    serde_json::from_str::<Value>(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
}

#[test]
fn issue_20_session_end_hook_captures_a_transcript_with_its_secrets_redacted() {
    let s = store();
    let fakes = Fakes::new(303);
    let slug = promote(&s, "Capture");
    s.cmd().args(["switch", &slug, "--session", "s-cap"]).assert().success();
    let t = s.dir.path().join("transcript.jsonl");
    let lines = [
        json!({"type": "user", "message": {"content": format!("push with {}", fakes.github)}}),
        json!({"type": "user", "toolUseResult": {"stdout": fakes.env_file()}}),
    ];
    std::fs::write(&t, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let input = json!({ "session_id": "s-cap", "transcript_path": t, "reason": "other" });
    let out = s.cmd().args(["hook", "session-end"]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("secrets redacted"), "the hook says so: {said}");
    no_leaks(&s, &fakes);
    let last = audit(&s, &slug).pop().unwrap();
    assert_eq!(last["actor"], "hook:session-end");
    assert!(last["redactions"]["private_key"] == 1, "{last}");
    let art =
        s.root().join(&slug).join("artifacts").join(format!("{}.txt", last["artifacts_added"][0].as_str().unwrap()));
    let text = std::fs::read_to_string(&art).unwrap();
    assert_eq!(text.lines().count(), 2);
    for line in text.lines() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("JSONL stays JSONL ({e}): {line}"));
    }

    // An incremental capture (PreCompact) of new lines is redacted too.
    let more = Fakes::new(304);
    use std::io::Write as _;
    let mut f = std::fs::OpenOptions::new().append(true).open(&t).unwrap();
    writeln!(f, "{}", json!({"type": "assistant", "message": {"content": format!("AWS key {}", more.aws_id)}}))
        .unwrap();
    drop(f);
    let input = json!({ "session_id": "s-cap", "transcript_path": t });
    s.cmd().args(["hook", "pre-compact"]).write_stdin(input.to_string()).assert().success();
    assert_eq!(audit(&s, &slug).pop().unwrap()["redactions"]["aws_access_key_id"], 1);
    no_leaks(&s, &more);
}

#[test]
fn issue_20_with_redaction_off_doctor_finds_stored_secrets_and_redact_fixes_them_once() {
    let s = store();
    redaction_off(&s);
    let fakes = Fakes::new(404);
    let slug = promote(&s, "Old secrets");
    let env = write(&s, ".env", &fakes.env_file());
    let out = s.cmd().args(["save", &slug, "--artifact"]).arg(&env).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(!leaks(s.root(), &fakes.values()).is_empty(), "stored verbatim while off");

    // Off is never silent: SessionStart's injected text and doctor say so.
    let start =
        s.cmd().args(["hook", "session-start"]).write_stdin(json!({"session_id": "s1"}).to_string()).output().unwrap();
    let said = String::from_utf8_lossy(&start.stdout);
    assert!(said.contains("privacy.redact is false"), "{said}");
    let v = json_of(&s.cmd().args(["doctor", "--json"]).output().unwrap());
    let checks = v["data"]["checks"].as_array().unwrap();
    assert!(checks.iter().any(|c| c["code"] == "redaction_off"), "{v:#}");
    let found: Vec<&Value> = checks.iter().filter(|c| c["code"] == "secret_stored").collect();
    assert!(found.len() >= 4, "{v:#}");
    for c in &found {
        assert_eq!(c["fix"], format!("dossier redact {slug}"));
        assert!(c["file"].as_str().unwrap().contains("/artifacts/art_"), "{c}");
        assert!(c["line"].as_u64().is_some(), "{c}");
    }
    assert!(found.iter().any(|c| c["line"] == 5 && c["message"].as_str().unwrap().contains("private_key")), "{v:#}");
    let text = String::from_utf8_lossy(&s.cmd().arg("doctor").output().unwrap().stdout).into_owned();
    assert!(!fakes.values().iter().any(|f| text.contains(f.as_str())), "doctor never prints a value: {text}");

    // `dossier redact` rewrites through the Save path: a new revision, audited; then clean.
    let out = s.cmd().args(["redact", &slug]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with(&format!("redacted {slug} (rev_")) && said.contains("secrets redacted"), "{said}");
    no_leaks(&s, &fakes);
    let ev = audit(&s, &slug).pop().unwrap();
    assert_eq!(ev["event"], "artifact_redacted");
    assert!(ev["redactions"]["private_key"] == 1, "{ev}");
    let v = json_of(&s.cmd().args(["doctor", "--json"]).output().unwrap());
    assert!(!v["data"]["checks"].as_array().unwrap().iter().any(|c| c["code"] == "secret_stored"), "{v:#}");

    // Idempotent: nothing left, nothing written, and it says so.
    let before = snapshot(s.root());
    let out = s.cmd().args(["redact", "--all", "--json"]).output().unwrap();
    let v = json_of(&out);
    assert_eq!(v["data"]["dossiers"][0]["changed"], false, "{v:#}");
    let out = s.cmd().args(["redact", &slug]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(&format!("nothing to redact in {slug}")), "{out:?}");
    assert_eq!(snapshot(s.root()), before);
}

#[test]
fn issue_20_redact_refuses_an_unknown_dossier_and_writes_nothing() {
    let s = store();
    promote(&s, "Known");
    let before = snapshot(s.root());
    let out = s.cmd().args(["redact", "unknown", "--json"]).output().unwrap();
    assert!(!out.status.success());
    assert_eq!(json_of(&out)["error"]["code"], "not_found");
    assert_eq!(snapshot(s.root()), before);
    // Neither a target nor --all: a usage error.
    assert!(!s.cmd().arg("redact").output().unwrap().status.success());
}

/// Issue 20: doctor's `secret_stored` scan covers every file of the store that can hold
/// captured or model-written text, not only a Dossier's own files: its `audit.log` (the create
/// event's name), `context/` (the library lists names), the frontmatter cache. A store written
/// with redaction off holds a token in a Dossier's name in all of them; doctor names each
/// file (never the value) with the fix that applies to it (the audit log is append-only:
/// rotate; the rest is regenerated after `dossier redact`).
#[test]
fn issue_20_doctor_scans_the_audit_log_context_and_store_files_for_secrets() {
    let s = store();
    redaction_off(&s);
    let fakes = Fakes::new(2020);
    let slug = promote(&s, &format!("Deploy with {}", fakes.github));
    // `ls` fills the frontmatter cache and the library, as any read does.
    assert!(s.cmd().arg("ls").output().unwrap().status.success());
    let held: Vec<String> = leaks(s.root(), std::slice::from_ref(&fakes.github)).into_iter().map(|(p, _)| p).collect();
    for f in [format!("{slug}/audit.log"), "context/library.md".into()] {
        assert!(held.contains(&f), "{f} holds the name: {held:?}");
    }
    let v = json_of(&s.cmd().args(["doctor", "--json"]).output().unwrap());
    let checks = v["data"]["checks"].as_array().unwrap();
    let found: Vec<&Value> = checks.iter().filter(|c| c["code"] == "secret_stored").collect();
    let file_of = |c: &Value| c["file"].as_str().unwrap().to_string();
    for f in &held {
        assert!(found.iter().any(|c| file_of(c).ends_with(f.as_str())), "doctor reports {f}: {v:#}");
    }
    let audit_check = found.iter().find(|c| file_of(c).ends_with("audit.log")).unwrap();
    assert!(audit_check["fix"].as_str().unwrap().contains("rotate"), "{audit_check}");
    assert!(audit_check["line"].as_u64().is_some(), "{audit_check}");
    let text = String::from_utf8_lossy(&s.cmd().arg("doctor").output().unwrap().stdout).into_owned();
    assert!(!text.contains(fakes.github.as_str()), "doctor never prints a value: {text}");

    // `dossier redact` rewrites the Dossier and the context regenerates; the audit log keeps
    // its line (append-only), and doctor still says so, and only that.
    assert!(s.cmd().args(["redact", &slug]).output().unwrap().status.success());
    assert!(s.cmd().arg("ls").output().unwrap().status.success());
    let held: Vec<String> = leaks(s.root(), std::slice::from_ref(&fakes.github)).into_iter().map(|(p, _)| p).collect();
    assert_eq!(held, [format!("{slug}/audit.log")]);
    let v = json_of(&s.cmd().args(["doctor", "--json"]).output().unwrap());
    let files: Vec<String> = v["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["code"] == "secret_stored")
        .map(|c| c["file"].as_str().unwrap().to_string())
        .collect();
    assert!(!files.is_empty() && files.iter().all(|f| f.ends_with("audit.log")), "{files:?}");
}
