//! `dossier hook <event>`: the Claude Code hook handlers, driven as Claude Code drives them
//! (the event JSON on stdin, a real store in a temp dir), asserting stdout and the files.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::{DossierSpec, TempStore};

fn hook(s: &TempStore, event: &str, input: &Value) -> (String, std::process::Output) {
    let out = s.cmd().args(["hook", event]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success(), "hooks always exit 0: {out:?}");
    assert!(out.stderr.is_empty() || !String::from_utf8_lossy(&out.stderr).contains("panicked"), "{out:?}");
    (String::from_utf8(out.stdout.clone()).unwrap(), out)
}

fn promote(s: &TempStore, name: &str) -> String {
    let out = s.cmd().args(["promote", "--json", "--create", "--name", name]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    support::json_of(&out)["data"]["slug"].as_str().unwrap().to_string()
}

fn bind(s: &TempStore, session: &str, slug: &str) {
    s.cmd().args(["switch", slug, "--session", session]).assert().success();
}

fn transcript(s: &TempStore, lines: &[Value]) -> PathBuf {
    let p = s.dir.path().join("transcript.jsonl");
    let mut text = String::new();
    for l in lines {
        text.push_str(&format!("{l}\n"));
    }
    std::fs::write(&p, text).unwrap();
    p
}

fn append(p: &Path, text: &str) {
    use std::io::Write;
    std::fs::OpenOptions::new().append(true).open(p).unwrap().write_all(text.as_bytes()).unwrap();
}

fn artifacts(s: &TempStore, slug: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(s.root().join(slug).join("artifacts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

fn audit(s: &TempStore, slug: &str) -> Vec<Value> {
    std::fs::read_to_string(s.root().join(slug).join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The unbound nudge line of SPEC §9.1 (the line after the header and warnings).
fn nudge_line(out: &str) -> &str {
    out.lines().find(|l| l.contains(" open dossier(s): ")).unwrap_or_else(|| panic!("no nudge in {out}"))
}

#[test]
fn unbound_session_start_is_one_short_line_in_priority_order() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let names = [
        "Pricing refresh",
        "Q3 launch",
        "Postgres migration",
        "Hiring loop",
        "Search latency",
        "Renewal playbook",
        "SSO review",
        "Data retention",
        "Onboarding tests",
        "Board deck",
        "Vendor audit",
        "Office move",
    ];
    for (i, n) in names.iter().enumerate() {
        let mut d = DossierSpec::new(Box::leak(n.to_lowercase().replace(' ', "-").into_boxed_str()), "low", "low");
        d.name = n;
        if i == 4 {
            d.importance = "high";
            d.urgency = "high";
        }
        s.write_dossier(&d);
    }
    // As installed, the store is under HOME and the guide path is written `~/...`.
    let out = s
        .cmd()
        .env("HOME", s.dir.path())
        .args(["hook", "session-start"])
        .write_stdin(json!({ "session_id": "s-unbound", "source": "startup" }).to_string())
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    let line = nudge_line(&out);
    assert!(line.starts_with("12 open dossier(s): Search latency, "), "priority order: {line}");
    for tool in ["dossier_list", "dossier_session", "dossier_promote", "Guide: ~/"] {
        assert!(line.contains(tool), "{line}");
    }
    let tokens = dossier_store::tokens::estimate(line, dossier_store::tokens::DEFAULT_CALIBRATION).tokens;
    assert!(tokens <= dossier::hooks::NUDGE_TOKENS, "the nudge is paid on every session: {tokens} tokens: {line}");
    assert!(line.contains(" more. Use dossier_list"), "names that do not fit are counted: {line}");
}

/// SPEC §9.1: the unbound payload is the `# Dossier Library` header, the capability warnings,
/// and one line naming the open Dossiers, in the SPEC's shape.
#[test]
fn spec_9_1_unbound_session_start_is_the_library_header_warnings_and_one_line() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let names = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"];
    for n in names {
        promote(&s, n);
    }
    let out = s
        .cmd()
        .env("HOME", s.dir.path())
        .args(["hook", "session-start"])
        .write_stdin(json!({ "session_id": "s-unbound", "source": "startup" }).to_string())
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "# Dossier Library", "{out}");
    assert_eq!(lines[1], "", "{out}");
    // No hooks are registered in this HOME: the capability warnings come next, one a line.
    let warnings: Vec<&&str> = lines.iter().filter(|l| l.starts_with("Warning: ")).collect();
    assert!(!warnings.is_empty(), "capability warnings: {out}");
    let line = nudge_line(&out);
    assert_eq!(lines.last().unwrap(), &line, "the nudge line ends the payload: {out}");
    let (count, rest) = line.split_once(" open dossier(s): ").unwrap();
    assert_eq!(count, "5");
    let (listed, tail) = rest.split_once(". Use ").unwrap();
    let mut listed: Vec<&str> = listed.split(", ").collect();
    listed.sort();
    assert_eq!(listed, ["Alpha", "Beta", "Delta", "Epsilon", "Gamma"], "every open Dossier by name: {line}");
    assert_eq!(
        tail,
        "dossier_list for details, dossier_session to resume one, or dossier_promote for a new thread (it flags likely duplicates automatically). Guide: ~/home-store/context/guide.md"
            .replace("~/home-store", &format!("~/{}", s.root().strip_prefix(s.dir.path()).unwrap().display())),
        "{line}"
    );
}

fn save_state(s: &TempStore, slug: &str, body: &str) {
    let file = s.dir.path().join("state.md");
    std::fs::write(&file, body).unwrap();
    let shown = support::json_of(&s.cmd().args(["show", slug, "--json"]).output().unwrap());
    let rev = shown["data"]["revision"].as_str().expect("show --json has the revision").to_string();
    s.cmd().args(["save", slug, "--base-revision", &rev, "--from-file"]).arg(&file).assert().success();
}

fn state_of(title: &str, lines: usize) -> String {
    format!(
        "# {title}\n\n## Situation\n\n{}\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n",
        "- a long finding line that repeats to make the state large [src:art_x]\n".repeat(lines)
    )
}

/// SPEC §9.1: a bound session gets the Distillation Guide and the Distilled State in full when
/// both fit under the hook cap.
#[test]
fn spec_9_1_bound_session_start_injects_the_guide_and_the_state_when_they_fit() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let slug = promote(&s, "Pricing refresh");
    bind(&s, "s-small", &slug);
    let (out, _) = hook(&s, "session-start", &json!({ "session_id": "s-small", "source": "compact" }));
    let state = std::fs::read_to_string(s.root().join(&slug).join("dossier.md")).unwrap();
    assert!(out.starts_with("# Dossier Library\n"), "{out}");
    assert!(out.contains(&state), "the whole Distilled State: {out}");
    assert!(out.contains(dossier_store::context::GUIDE.trim()), "the whole guide, not its path: {out}");
    assert!(out.contains("base_revision `rev_"), "{out}");
    assert!(out.chars().count() <= dossier::hooks::HOOK_OUTPUT_CAP);
}

/// SPEC §9.1 under the hook cap: what does not fit is replaced by the explicit pointer (what
/// to call to load it), never cut silently. A state that fits alone comes whole with a pointer
/// to the guide; a larger one gives a header and the calls that load guide and state.
#[test]
fn spec_9_1_bound_session_start_too_big_gives_the_explicit_pointer() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let guide = dossier_store::context::GUIDE.trim();
    let first_guide_rule = guide.lines().nth(2).unwrap();

    // Fits alone, not with the guide.
    let slug = promote(&s, "Mid topic");
    save_state(&s, &slug, &state_of("Mid topic", 80));
    bind(&s, "s-mid", &slug);
    let (out, _) = hook(&s, "session-start", &json!({ "session_id": "s-mid", "source": "resume" }));
    let state = std::fs::read_to_string(s.root().join(&slug).join("dossier.md")).unwrap();
    assert!(state.len() + guide.len() > dossier::hooks::HOOK_OUTPUT_CAP, "the case is real");
    assert!(out.chars().count() <= dossier::hooks::HOOK_OUTPUT_CAP, "never cut to a preview: {} chars", out.len());
    assert!(out.contains(&state), "the state whole: {out}");
    assert!(!out.contains(first_guide_rule), "no part of the guide: {out}");
    assert!(out.contains("guide.md"), "the guide's path: {out}");
    assert!(out.contains(&format!("call dossier_session with id `{slug}`")), "how to load the guide: {out}");

    // Too big even alone.
    let slug = promote(&s, "Big topic");
    save_state(&s, &slug, &state_of("Big topic", 400));
    bind(&s, "s-large", &slug);
    let (out, _) = hook(&s, "session-start", &json!({ "session_id": "s-large", "source": "resume" }));
    assert!(out.chars().count() <= dossier::hooks::HOOK_OUTPUT_CAP, "never cut to a preview: {} chars", out.len());
    assert!(out.contains("# Dossier: Big topic"), "{out}");
    assert!(out.contains("Next action:"), "{out}");
    assert!(!out.contains(first_guide_rule), "no part of the guide: {out}");
    assert!(out.contains("guide.md"), "the guide's path: {out}");
    assert!(out.contains(&format!("call dossier_session with id `{slug}`")), "{out}");
    assert!(out.contains("dossier_recall"), "{out}");
    assert!(out.contains("is larger than"), "says why: {out}");
}

/// SPEC §9.1 with a binding whose Dossier folder was removed by hand: session start says the
/// binding points at a Dossier that no longer exists (name and id) and what to do.
#[test]
fn spec_9_1_session_start_with_a_dead_binding_says_so() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let slug = promote(&s, "Gone topic");
    promote(&s, "Kept topic");
    bind(&s, "s-dead", &slug);
    let binding: Value =
        serde_json::from_str(&std::fs::read_to_string(s.root().join("sessions/s-dead.json")).unwrap()).unwrap();
    let id = binding["dossier_id"].as_str().unwrap().to_string();
    std::fs::remove_dir_all(s.root().join(&slug)).unwrap();
    let (out, _) = hook(&s, "session-start", &json!({ "session_id": "s-dead", "source": "resume" }));
    let warning = out
        .lines()
        .find(|l| l.starts_with("Warning: ") && l.contains("no longer exists"))
        .unwrap_or_else(|| panic!("the dead binding is said: {out}"));
    assert!(warning.contains("Gone topic") && warning.contains(&id), "names it: {warning}");
    assert!(warning.contains("dossier_session with id"), "bind another: {warning}");
    assert!(warning.contains("clear"), "or clear: {warning}");
    assert!(nudge_line(&out).starts_with("1 open dossier(s): Kept topic."), "{out}");
}

#[test]
fn session_end_captures_the_transcript_incrementally_and_audits_it() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let slug = promote(&s, "Capture me");
    bind(&s, "s-cap", &slug);
    let t = transcript(&s, &[json!({"type": "user", "n": 1}), json!({"type": "assistant", "n": 2})]);
    let input = json!({ "session_id": "s-cap", "transcript_path": t, "reason": "other" });
    let (out, _) = hook(&s, "session-end", &input);
    assert_eq!(out, "", "success is silent");
    let arts = artifacts(&s, &slug);
    assert_eq!(arts.len(), 1);
    let text = std::fs::read_to_string(&arts[0]).unwrap();
    for line in text.lines() {
        serde_json::from_str::<Value>(line).expect("the artifact is JSONL");
    }
    assert_eq!(text.lines().count(), 2);
    let events = audit(&s, &slug);
    let last = events.last().unwrap();
    assert_eq!(last["event"], "save");
    assert_eq!(last["actor"], "hook:session-end");
    assert_eq!(last["artifacts_added"].as_array().unwrap().len(), 1);

    // Nothing new: nothing captured. A half-written line waits for the next capture.
    hook(&s, "pre-compact", &json!({ "session_id": "s-cap", "transcript_path": t }));
    assert_eq!(artifacts(&s, &slug).len(), 1);
    append(&t, "{\"type\":\"user\",\"n\":3}\n{\"type\":\"assist");
    hook(&s, "pre-compact", &json!({ "session_id": "s-cap", "transcript_path": t }));
    let arts = artifacts(&s, &slug);
    assert_eq!(arts.len(), 2);
    let second = arts.iter().map(|p| std::fs::read_to_string(p).unwrap()).find(|t| t.contains("\"n\":3")).unwrap();
    assert_eq!(second, "{\"type\":\"user\",\"n\":3}\n", "only the new whole line");
    append(&t, "ant\",\"n\":4}\n");
    hook(&s, "session-end", &input);
    let all: String = artifacts(&s, &slug).iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    assert_eq!(all.lines().count(), 4, "every line exactly once: {all}");
}

#[test]
fn clear_unbinds_without_touching_the_dossier() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let slug = promote(&s, "Keep me");
    bind(&s, "s-clear", &slug);
    let before = std::fs::read(s.root().join(&slug).join("dossier.md")).unwrap();
    hook(&s, "session-end", &json!({ "session_id": "s-clear", "reason": "clear", "transcript_path": "" }));
    let binding: Value =
        serde_json::from_str(&std::fs::read_to_string(s.root().join("sessions/s-clear.json")).unwrap()).unwrap();
    assert_eq!(binding["dossier_id"], Value::Null);
    assert_eq!(std::fs::read(s.root().join(&slug).join("dossier.md")).unwrap(), before);
}

#[test]
fn an_unreadable_transcript_is_audited_and_shown_not_hidden() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let slug = promote(&s, "No transcript");
    bind(&s, "s-missing", &slug);
    let missing = s.dir.path().join("nope.jsonl");
    let (out, _) =
        hook(&s, "session-end", &json!({ "session_id": "s-missing", "transcript_path": missing, "reason": "other" }));
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["systemMessage"].as_str().unwrap().contains("transcript not captured"), "{v}");
    assert_eq!(audit(&s, &slug).last().unwrap()["event"], "transcript_capture_unavailable");
}

#[test]
fn stop_asks_once_for_a_save_when_the_transcript_outgrew_the_last_save() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let slug = promote(&s, "Cadence");
    bind(&s, "s-stop", &slug);
    let t = transcript(&s, &[json!({"n": 0})]);
    let input = json!({ "session_id": "s-stop", "transcript_path": t, "stop_hook_active": false });
    assert_eq!(hook(&s, "stop", &input).0, "", "first stop records the baseline");
    append(&t, &format!("{}\n", json!({ "pad": "x".repeat(160_000) })));
    let (out, _) = hook(&s, "stop", &input);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["decision"], "block");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.contains("dossier_save") && reason.contains(&slug) && reason.contains("rev_"), "{reason}");
    // Claude Code continues with stop_hook_active; and the same growth never asks twice.
    let active = json!({ "session_id": "s-stop", "transcript_path": t, "stop_hook_active": true });
    assert_eq!(hook(&s, "stop", &active).0, "");
    assert_eq!(hook(&s, "stop", &input).0, "");
    // A save moves the baseline: more growth after it is measured from there.
    s.cmd().args(["next", &slug, "Send the deck"]).assert().success();
    append(&t, &format!("{}\n", json!({ "pad": "y".repeat(1_000) })));
    assert_eq!(hook(&s, "stop", &input).0, "");
}

#[test]
fn broken_input_never_breaks_the_session() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let out = s.cmd().args(["hook", "session-end"]).write_stdin("not json").output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["systemMessage"].as_str().unwrap().starts_with("dossier: "), "{v}");
    let out = s.cmd().args(["hook", "no-such-event"]).write_stdin("{}").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("unknown hook event"));
    let out = s.cmd().args(["hook", "session-start"]).write_stdin("{\"session_id\": ").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Warning: dossier: "), "{out:?}");
}

#[test]
fn session_start_never_compiles_the_policy_component() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    promote(&s, "Alpha topic");
    promote(&s, "Beta topic");
    let cache = s.root().join(".cache/policy");
    std::fs::remove_dir_all(&cache).unwrap();
    let (out, _) = hook(&s, "session-start", &json!({ "session_id": "s-cold", "source": "startup" }));
    assert!(out.contains("2 open dossier(s): "), "{out}");
    assert!(out.contains("not in priority order"), "the cold cache is said: {out}");
    assert!(!cache.exists() || std::fs::read_dir(&cache).unwrap().next().is_none(), "nothing compiled");
}

#[test]
fn the_shared_frontmatter_cache_follows_hand_edits_and_ignores_corruption() {
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let mut d = DossierSpec::new("alpha", "high", "high");
    d.name = "Alpha topic";
    s.write_dossier(&d);
    let start = json!({ "session_id": "s-cache", "source": "startup" });
    assert!(hook(&s, "session-start", &start).0.contains("Alpha topic"));
    let cache = s.root().join(".cache/frontmatter.json");
    assert!(cache.is_file(), "the first reader leaves the parsed frontmatter for the next");
    // A hand edit in place (same inode) is seen.
    let file = s.root().join("alpha/dossier.md");
    let text = std::fs::read_to_string(&file).unwrap().replace("name: Alpha topic", "name: Alpha renamed by hand");
    std::fs::write(&file, text).unwrap();
    let out = hook(&s, "session-start", &start).0;
    assert!(out.contains("Alpha renamed by hand") && !out.contains("Alpha topic"), "{out}");
    // A corrupt cache is ignored (and replaced), never trusted.
    std::fs::write(&cache, "{ not json").unwrap();
    assert!(hook(&s, "session-start", &start).0.contains("Alpha renamed by hand"));
    assert!(serde_json::from_slice::<Value>(&std::fs::read(&cache).unwrap()).is_ok());
}
