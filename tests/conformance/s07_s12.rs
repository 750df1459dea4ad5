//! SPEC §7.2 (command behaviour), §9.2–9.3 (session end, the context file), §11.1 (priority
//! sort), §11.5 (optimistic concurrency) and §12 (file operations) as executable clauses:
//! `spec_7_2_<command>_…`, `spec_9_2_…`, `spec_11_1_…`, `spec_12_<n>_…`.
//!
//! Not for: §9.1's session-start payload (tests/hooks.rs and the `spec_9_1_…` tests there), or
//! Claude Code's config files in depth (tests/claude_init.rs).

use std::os::unix::fs::MetadataExt;

use serde_json::{Value, json};
use support::mcp::McpSession;
use support::{DossierSpec, TempStore, snapshot};

use super::{audit_events, cli, cli_ok, promote, rev, state, store};

// §7.2 dossier init

#[test]
fn spec_7_2_init_creates_the_store_config_guide_and_library() {
    let s = TempStore::new(crate::DOSSIER);
    let v = cli(&s, &["init", "--yes", "--no-self-install"]);
    assert_eq!(v["ok"], true, "{v:#}");
    for dir in ["context", "sessions"] {
        assert!(s.root().join(dir).is_dir(), "{dir}/");
    }
    let config = std::fs::read_to_string(s.root().join("config.yaml")).unwrap();
    assert!(config.contains("token_target") && config.contains("priority:"), "default config:\n{config}");
    let guide = std::fs::read_to_string(s.root().join("context/guide.md")).unwrap();
    assert!(guide.starts_with("# Dossier Distillation Guide"));
    assert!(s.root().join("context/library.md").is_file());
    // Idempotent, and never overwrites a file the user edited.
    std::fs::write(s.root().join("config.yaml"), format!("{config}# mine\n")).unwrap();
    cli_ok(&s, &["init", "--yes", "--no-self-install"]);
    assert!(std::fs::read_to_string(s.root().join("config.yaml")).unwrap().contains("# mine"));
}

#[test]
fn spec_7_2_init_asks_before_changing_claude_code_and_never_clobbers() {
    let s = TempStore::new(crate::DOSSIER);
    let home = s.dir.path().join("home");
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let settings = json!({"hooks": {"SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": "other-tool start"}]}]}, "theme": "dark"});
    std::fs::write(home.join(".claude/settings.json"), serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    let claude_json = json!({"mcpServers": {"other": {"type": "stdio", "command": "other-server", "args": []}}});
    std::fs::write(home.join(".claude.json"), serde_json::to_string_pretty(&claude_json).unwrap()).unwrap();
    // Without --yes and not on a terminal: the plan is printed, nothing in Claude Code changes.
    let before =
        (std::fs::read(home.join(".claude/settings.json")).unwrap(), std::fs::read(home.join(".claude.json")).unwrap());
    let v = cli(&s, &["init", "--no-self-install"]);
    assert_eq!(v["data"]["claude_code"]["decision"], "plan_only", "{v:#}");
    assert_eq!(
        (std::fs::read(home.join(".claude/settings.json")).unwrap(), std::fs::read(home.join(".claude.json")).unwrap()),
        before
    );
    // With --yes: ours added (hooks → settings.json, MCP → .claude.json), theirs kept.
    cli_ok(&s, &["init", "--yes", "--no-self-install"]);
    let settings: Value = serde_json::from_slice(&std::fs::read(home.join(".claude/settings.json")).unwrap()).unwrap();
    let claude_json: Value = serde_json::from_slice(&std::fs::read(home.join(".claude.json")).unwrap()).unwrap();
    assert_eq!(settings["theme"], "dark");
    let start = settings["hooks"]["SessionStart"].to_string();
    assert!(start.contains("other-tool start") && start.contains("hook session-start"), "{start}");
    for event in ["SessionEnd", "PreCompact"] {
        assert!(settings["hooks"][event].to_string().contains("dossier"), "{event}: {settings:#}");
    }
    assert_eq!(claude_json["mcpServers"]["other"]["command"], "other-server");
    assert_eq!(claude_json["mcpServers"]["dossier"]["args"], json!(["mcp"]));
    assert!(settings.get("mcpServers").is_none(), "MCP is not written to settings.json");
}

#[test]
fn spec_7_2_init_does_not_fail_when_a_harness_config_cannot_be_updated() {
    let s = TempStore::new(crate::DOSSIER);
    let home = s.dir.path().join("home");
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::write(home.join(".claude/settings.json"), "{ this is not json").unwrap();
    let out = s.cmd().args(["init", "--yes", "--no-self-install", "--json"]).output().unwrap();
    assert!(out.status.success(), "init still succeeds");
    let v = support::json_of(&out);
    assert!(v["warnings"].to_string().contains("settings.json"), "a visible warning naming the file: {v:#}");
    assert_eq!(
        std::fs::read_to_string(home.join(".claude/settings.json")).unwrap(),
        "{ this is not json",
        "left alone"
    );
    assert!(s.root().join("context/guide.md").is_file(), "the store is made");
}

// §7.2 dossier ls, promote, link, merge, recall, archive

#[test]
fn spec_7_2_ls_defaults_to_open_work_in_priority_order() {
    let s = store();
    let mut specs = vec![
        DossierSpec::new("plan-later", "high", "low"),
        DossierSpec::new("do-now", "high", "high"),
        DossierSpec::new("delegate", "low", "high"),
        DossierSpec::new("someday", "low", "low"),
        DossierSpec::new("finished", "high", "high"),
        DossierSpec::new("on-hold", "high", "high"),
    ];
    specs[4].status = "resolved";
    specs[5].status = "waiting";
    for d in &specs {
        s.write_dossier(d);
    }
    assert_eq!(s.ls_slugs(&[]), ["do-now", "on-hold", "plan-later", "delegate", "someday"]);
    assert!(s.ls_slugs(&["--status", "all"]).contains(&"finished".to_string()));
}

#[test]
fn spec_7_2_promote_from_file_captures_it_and_uses_its_state() {
    let s = store();
    let f = s.dir.path().join("notes.md");
    std::fs::write(&f, state("From a file", "- Assumption: file-based.", "- Assumption: none.")).unwrap();
    let d = cli_ok(&s, &["promote", "--from-file", f.to_str().unwrap(), "--create"]);
    let slug = d["slug"].as_str().unwrap();
    assert_eq!(slug, "from-a-file", "the name defaults to the file's title");
    assert_eq!(d["artifacts_added"].as_array().unwrap().len(), 1, "the file is captured");
    assert!(
        std::fs::read_to_string(s.root().join(slug).join("dossier.md")).unwrap().contains("Assumption: file-based.")
    );
}

#[test]
fn spec_7_2_link_with_a_target_attaches_the_file() {
    let s = store();
    let slug = promote(&s, "Linked by hand");
    let f = s.dir.path().join("extra.md");
    std::fs::write(&f, "# Extra\n\nEXTRA-LINKED-CONTENT\n").unwrap();
    let d = cli_ok(&s, &["link", &slug, "--from-file", f.to_str().unwrap()]);
    assert_eq!(d["event"], "link");
    assert_eq!(audit_events(&s, &slug).last().unwrap(), "link");
    assert_eq!(cli_ok(&s, &["search", "EXTRA-LINKED-CONTENT"])["total_hits"], 1);
}

#[test]
fn spec_7_2_merge_records_the_target_and_produces_a_converged_state() {
    let s = store();
    let (source, target, _, _) = crate::merge::pair(&s, false);
    // Since issue 19's sixth round every related pair is listed (those the rules think
    // compatible with a hint); keeping both for all of them is the explicit answer.
    let d = cli_ok(&s, &["merge", &source, &target, "--keep-both-possible"]);
    assert_eq!(d["target_slug"], target.as_str());
    let merged = std::fs::read_to_string(s.root().join(&target).join("dossier.md")).unwrap();
    // Both sides' findings, the shared decision once.
    assert!(merged.contains("1,200 events per second") && merged.contains("within 10 minutes"), "{merged}");
    assert_eq!(merged.matches("Use Postgres for the event store").count(), 1, "{merged}");
    let log = std::fs::read_to_string(s.root().join(&target).join("audit.log")).unwrap();
    let started = log.lines().find(|l| l.contains("\"merge_started\"")).unwrap();
    assert!(started.contains(&source) || started.contains("source"), "the audit names the merge's parts: {started}");
}

#[test]
fn spec_7_2_recall_warns_above_the_token_target_and_never_truncates() {
    let s = store();
    let slug = promote(&s, "Over");
    super::set_token_target(&s, 40);
    let out = s.cmd().args(["recall", &slug]).output().unwrap();
    assert_eq!(out.stdout, std::fs::read(s.root().join(&slug).join("dossier.md")).unwrap(), "stdout is the whole file");
    assert!(String::from_utf8_lossy(&out.stderr).contains("over_token_target"), "the warning is on stderr");
}

#[test]
fn spec_7_2_archive_sets_the_status_and_deletes_nothing() {
    let s = store();
    let slug = promote(&s, "To archive");
    let files: Vec<String> = snapshot(&s.root().join(&slug)).into_iter().map(|(p, _)| p).collect();
    cli_ok(&s, &["archive", &slug]);
    assert_eq!(cli_ok(&s, &["show", &slug])["frontmatter"]["status"], "archived");
    let after: Vec<String> = snapshot(&s.root().join(&slug)).into_iter().map(|(p, _)| p).collect();
    assert!(files.iter().all(|f| after.contains(f)));
    assert_eq!(audit_events(&s, &slug).last().unwrap(), "archived", "the SPEC §4.4 event");
}

// §7.2 dossier doctor

#[test]
fn spec_7_2_doctor_checks_frontmatter_artifacts_provenance_and_the_harness() {
    let s = store();
    let slug = promote(&s, "Checked");
    let broken = promote(&s, "Bad yaml");
    let p = s.root().join(&broken).join("dossier.md");
    std::fs::write(&p, std::fs::read_to_string(&p).unwrap().replacen("urgency: low", "urgency: [low", 1)).unwrap();
    // An artifact the audit log recorded, removed by hand.
    let art = s.dir.path().join("a.txt");
    std::fs::write(&art, "evidence\n").unwrap();
    let id = cli_ok(&s, &["save", &slug, "--artifact", art.to_str().unwrap()])["artifacts_added"][0]
        .as_str()
        .unwrap()
        .to_string();
    for e in std::fs::read_dir(s.root().join(&slug).join("artifacts")).unwrap() {
        let e = e.unwrap();
        if e.file_name().to_string_lossy().starts_with(&id) && e.file_name().to_string_lossy().ends_with(".txt") {
            std::fs::remove_file(e.path()).unwrap();
        }
    }
    let out = s.cmd().args(["doctor", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "errors found");
    let v = support::json_of(&out);
    let codes: Vec<&str> = v["data"]["checks"].as_array().unwrap().iter().filter_map(|c| c["code"].as_str()).collect();
    for code in ["invalid_frontmatter", "artifact_missing"] {
        assert!(codes.contains(&code), "doctor lacks {code}: {codes:?}");
    }
    for c in v["data"]["checks"].as_array().unwrap().iter().filter(|c| c["severity"] == "error") {
        assert!(c["fix"].as_str().is_some_and(|f| !f.is_empty()), "every error suggests a fix: {c:#}");
    }
    let human = String::from_utf8(s.cmd().arg("doctor").output().unwrap().stdout).unwrap();
    assert!(human.to_lowercase().contains("claude code"), "the harness is checked:\n{human}");
}

// §9.2 Session end and pre-compaction

#[test]
fn spec_9_2_session_end_captures_the_transcript_and_audits_success_and_failure() {
    let s = store();
    let slug = promote(&s, "Captured at end");
    McpSession::new(&s, "sess-end").call("dossier_session", json!({"id": slug})).run();
    let t = s.dir.path().join("t.jsonl");
    std::fs::write(&t, "{\"type\":\"user\",\"message\":\"TRANSCRIPT-LINE\"}\n").unwrap();
    let hook = |input: Value| {
        let out = s.cmd().args(["hook", "session-end"]).write_stdin(input.to_string()).output().unwrap();
        assert!(out.status.success(), "hooks never break the session");
        String::from_utf8(out.stdout).unwrap()
    };
    hook(json!({"session_id": "sess-end", "transcript_path": t, "reason": "other"}));
    let log: Vec<Value> = std::fs::read_to_string(s.root().join(&slug).join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let last = log.last().unwrap();
    assert_eq!((last["event"].as_str(), last["actor"].as_str()), (Some("save"), Some("hook:session-end")));
    assert_eq!(cli_ok(&s, &["search", "TRANSCRIPT-LINE"])["total_hits"], 1, "the transcript is archived");
    // Failure is audited and shown, not hidden.
    let out =
        hook(json!({"session_id": "sess-end", "transcript_path": s.dir.path().join("gone.jsonl"), "reason": "other"}));
    assert!(out.contains("transcript not captured"), "{out}");
    assert_eq!(audit_events(&s, &slug).last().unwrap(), "transcript_capture_unavailable");
}

#[test]
fn spec_9_2_without_hooks_the_guide_asks_for_saves_and_session_start_warns() {
    let s = store();
    let guide = std::fs::read_to_string(s.root().join("context/guide.md")).unwrap();
    assert!(
        guide.contains("If hooks are\n  unavailable") || guide.contains("save at those boundaries yourself"),
        "{guide}"
    );
    let v = cli(&s, &["active", "--session", "sess-nohook"]);
    assert!(v["warnings"].to_string().contains("save backstops"), "{v:#}");
}

// §9.3 Context file fallback

#[test]
fn spec_9_3_library_md_holds_warnings_open_work_loading_and_the_guide() {
    let s = store();
    promote(&s, "Library entry");
    let lib = std::fs::read_to_string(s.root().join("context/library.md")).unwrap();
    assert!(lib.to_lowercase().contains("warning"), "capability warnings:\n{lib}");
    assert!(lib.contains("Library entry"), "open work:\n{lib}");
    assert!(lib.contains("## Loading a Dossier"), "how to load one:\n{lib}");
    assert!(lib.contains("guide.md"), "the guide:\n{lib}");
    // context refresh regenerates it (after a hand edit).
    std::fs::write(s.root().join("context/library.md"), "stale\n").unwrap();
    cli_ok(&s, &["context", "refresh"]);
    assert!(std::fs::read_to_string(s.root().join("context/library.md")).unwrap().contains("Library entry"));
}

// §11.1 Priority sort

#[test]
fn spec_11_1_score_is_the_eisenhower_quadrant_then_oldest_touched_then_updated() {
    let s = store();
    let mut a = DossierSpec::new("older-touch", "high", "low");
    a.last_touched_at = "2026-01-01T00:00:00Z";
    let mut b = DossierSpec::new("newer-touch", "high", "low");
    b.last_touched_at = "2026-03-01T00:00:00Z";
    let mut c = DossierSpec::new("same-touch-older-update", "high", "low");
    c.last_touched_at = "2026-03-01T00:00:00Z";
    c.updated_at = "2026-01-01T00:00:00Z";
    for d in [
        &a,
        &b,
        &c,
        &DossierSpec::new("quadrant-one", "high", "high"),
        &DossierSpec::new("quadrant-four", "low", "low"),
    ] {
        s.write_dossier(d);
    }
    let r = McpSession::new(&s, "sess-p").call("dossier_list", json!({})).run();
    let items = r[0].data()["dossiers"].as_array().unwrap().clone();
    let order: Vec<(&str, u64)> =
        items.iter().map(|d| (d["slug"].as_str().unwrap(), d["priority_score"].as_u64().unwrap())).collect();
    assert_eq!(
        order,
        [
            ("quadrant-one", 1),
            ("older-touch", 2),
            ("same-touch-older-update", 2),
            ("newer-touch", 2),
            ("quadrant-four", 4)
        ]
    );
}

#[test]
fn spec_11_1_weights_are_configurable() {
    let s = store();
    s.write_dossier(&DossierSpec::new("important", "high", "low"));
    s.write_dossier(&DossierSpec::new("urgent", "low", "high"));
    assert_eq!(s.ls_slugs(&[]), ["important", "urgent"]);
    let config = std::fs::read_to_string(s.root().join("config.yaml")).unwrap();
    s.write_config(&config.replace("    importance: 2\n    urgency: 1\n", "    importance: 1\n    urgency: 2\n"));
    assert_eq!(s.ls_slugs(&[]), ["urgent", "important"], "urgency weighted above importance");
}

// §11.5 Optimistic concurrency

#[test]
fn spec_11_5_an_overlapping_frontmatter_change_is_a_conflict_not_last_write_wins() {
    let s = store();
    let slug = promote(&s, "Same field");
    let base = rev(&s, &slug);
    let r = McpSession::new(&s, "sess-o")
        .call(
            "dossier_save",
            json!({"id": slug, "base_revision": base, "frontmatter_updates": {"next_action": "Theirs"}}),
        )
        .call(
            "dossier_save",
            json!({"id": slug, "base_revision": base, "frontmatter_updates": {"next_action": "Mine"}}),
        )
        .run();
    assert_eq!(r[1].code(), "concurrent_edit");
    assert_eq!(cli_ok(&s, &["show", &slug])["frontmatter"]["next_action"], "Theirs");
    let path = r[1].envelope["error"]["details"]["conflict_path"].as_str().unwrap();
    assert!(std::fs::read_to_string(path).unwrap().contains("Mine"), "the proposed write is preserved");
}

#[test]
fn spec_11_5_an_auto_merge_is_audited() {
    let s = store();
    let slug = promote(&s, "Audited merge");
    let base = rev(&s, &slug);
    McpSession::new(&s, "sess-a")
        .call("dossier_save", json!({"id": slug, "base_revision": base, "frontmatter_updates": {"lead": "Alice"}}))
        .call("dossier_save", json!({"id": slug, "base_revision": base, "frontmatter_updates": {"next_action": "Go"}}))
        .run();
    let log = std::fs::read_to_string(s.root().join(&slug).join("audit.log")).unwrap();
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["auto_merged"], true, "{last:#}");
    assert_eq!(last["base_revision"], base.as_str());
}

// §12.1 Atomic writes

#[test]
fn spec_12_1_dossier_md_is_replaced_by_rename_and_audited_after() {
    let s = store();
    let slug = promote(&s, "Atomic");
    let path = s.root().join(&slug).join("dossier.md");
    let inode = std::fs::metadata(&path).unwrap().ino();
    let events = audit_events(&s, &slug).len();
    let r = rev(&s, &slug);
    let f = s.dir.path().join("a.md");
    std::fs::write(&f, state("Atomic", "- Assumption: renamed in.", "- Assumption: none.")).unwrap();
    cli_ok(&s, &["save", &slug, "--base-revision", &r, "--from-file", f.to_str().unwrap()]);
    assert_ne!(
        std::fs::metadata(&path).unwrap().ino(),
        inode,
        "a temp file renamed over dossier.md, not an in-place write"
    );
    assert_eq!(audit_events(&s, &slug).len(), events + 1);
    let leftovers: Vec<String> = std::fs::read_dir(s.root().join(&slug))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn spec_12_1_an_artifact_is_named_by_its_id_and_audited_after_it_is_written() {
    let s = store();
    let slug = promote(&s, "Artifact order");
    let f = s.dir.path().join("e.md");
    std::fs::write(&f, "# Evidence\n\nA line.\n").unwrap();
    let id = cli_ok(&s, &["save", &slug, "--artifact", f.to_str().unwrap()])["artifacts_added"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(s.root().join(&slug).join("artifacts").join(format!("{id}.md")).is_file());
    let log = std::fs::read_to_string(s.root().join(&slug).join("audit.log")).unwrap();
    assert!(log.lines().last().unwrap().contains(&id), "the audit line names the written artifact");
}

// §12.2 Slug generation, §12.3 ids

#[test]
fn spec_12_2_slugs_are_lowercase_ascii_hyphenated_and_unique() {
    let s = store();
    assert_eq!(promote(&s, "  Café Q3 — Pricing!!  Plan  "), "cafe-q3-pricing-plan");
    assert_eq!(promote(&s, "Hello, World"), "hello-world");
    let second = promote(&s, "Hello World");
    assert!(second.starts_with("hello-world-") && second.len() > "hello-world-".len(), "a short id suffix: {second}");
    assert!(second.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{second}");
}

#[test]
fn spec_12_3_ids_are_prefixed_and_sortable() {
    let s = store();
    let slug = promote(&s, "Ids");
    let show = cli_ok(&s, &["show", &slug]);
    assert!(show["frontmatter"]["id"].as_str().unwrap().starts_with("dos_"));
    assert!(show["revision"].as_str().unwrap().starts_with("rev_"));
    let f = s.dir.path().join("n.txt");
    std::fs::write(&f, "n\n").unwrap();
    let a1 = cli_ok(&s, &["save", &slug, "--artifact", f.to_str().unwrap()])["artifacts_added"][0]
        .as_str()
        .unwrap()
        .to_string();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let a2 = cli_ok(&s, &["save", &slug, "--artifact", f.to_str().unwrap()])["artifacts_added"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(a1.starts_with("art_") && a1 < a2, "sortable: {a1} < {a2}");
    McpSession::new(&s, "sess-ids").call("dossier_session", json!({"id": slug})).run();
    let b: Value =
        serde_json::from_str(&std::fs::read_to_string(s.root().join("sessions/sess-ids.json")).unwrap()).unwrap();
    assert!(b["session_binding_id"].as_str().unwrap().starts_with("sess_"));
    // A concurrent-edit conflict: conf_.
    let st = s.dir.path().join("c.md");
    std::fs::write(&st, state("Ids", "- Assumption: a.", "- Assumption: b.")).unwrap();
    let v = cli(&s, &["save", &slug, "--base-revision", "rev_old", "--from-file", st.to_str().unwrap()]);
    assert_eq!(v["error"]["code"], "concurrent_edit");
    assert!(v["error"]["details"]["conflict_id"].as_str().unwrap().starts_with("conf_"), "{v:#}");
    // A merge conflict: conf_ too, the same id when the merge is asked again.
    let (source, target, _, _) = crate::merge::pair(&s, true);
    let ids = |s: &TempStore| -> Vec<String> {
        cli(s, &["merge", &source, &target])["error"]["details"]["conflicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    };
    let first = ids(&s);
    assert!(!first.is_empty() && first.iter().all(|i| i.starts_with("conf_")), "{first:?}");
    assert_eq!(ids(&s), first, "stable, so --resolve can name them");
}
