//! SPEC §14, the acceptance criteria: one test per bullet, `spec_14_<n>_<letter>_…` (the
//! letter is the bullet's position in its subsection). docs/conformance.md maps each to its
//! clause and says where the product deliberately differs.
//!
//! Not for: §14.1's speed criterion as a timed test (it is a benchmark: `tests/bench`,
//! figures in docs/performance.md); here its functional half (500 Dossiers are all scanned).

use serde_json::{Value, json};
use support::mcp::McpSession;
use support::{DossierSpec, snapshot};

use super::{audit_events, cli, cli_ok, promote, rev, state, store};

// §14.1 Core Storage

#[test]
fn spec_14_1_a_creating_a_dossier_writes_state_archive_and_audit() {
    let s = store();
    let cli_slug = promote(&s, "From the terminal");
    let r =
        McpSession::new(&s, "sess-a").call("dossier_promote", json!({"name": "From an agent", "create": true})).run();
    let mcp_slug = r[0].data()["slug"].as_str().unwrap().to_string();
    for slug in [cli_slug, mcp_slug] {
        let dir = s.root().join(&slug);
        assert!(dir.join("dossier.md").is_file(), "{slug}: dossier.md");
        assert!(dir.join("artifacts").is_dir(), "{slug}: artifacts/");
        assert!(dir.join("audit.log").is_file(), "{slug}: audit.log");
        assert!(audit_events(&s, &slug).iter().any(|e| e == "create"), "{slug}: a create event");
    }
}

#[test]
fn spec_14_1_b_dossier_md_is_plain_markdown() {
    let s = store();
    let slug = promote(&s, "Plain text");
    let text = String::from_utf8(std::fs::read(s.root().join(&slug).join("dossier.md")).unwrap())
        .expect("dossier.md is UTF-8 text");
    assert!(!text.contains('\0'));
    // YAML frontmatter between `---` lines, then the Markdown body with the §4.2 sections.
    let rest = text.strip_prefix("---\n").expect("opens with frontmatter");
    let (front, body) = rest.split_once("\n---\n").expect("frontmatter is closed");
    for key in ["id: dos_", "name: Plain text", "slug: plain-text", "status: active", "importance:", "urgency:"] {
        assert!(front.lines().any(|l| l.starts_with(key)), "frontmatter has {key}:\n{front}");
    }
    let headings: Vec<&str> = body.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        headings,
        ["# Plain text", "## Situation", "## Decisions", "## Findings", "## Current State", "## Next Steps"]
    );
    // Human output of recall is the file itself.
    let out = s.cmd().args(["recall", &slug]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
}

/// The speed half is the `ls_500` benchmark (docs/performance.md): here, every one of 500
/// Dossiers' frontmatter is scanned and listed in priority order.
#[test]
fn spec_14_1_c_frontmatter_scan_covers_500_dossiers() {
    let s = store();
    let slugs: Vec<String> = (0..500).map(|i| format!("topic-{i:03}")).collect();
    for (i, slug) in slugs.iter().enumerate() {
        let urgency = if i % 2 == 0 { "high" } else { "low" };
        s.write_dossier(&DossierSpec::new(slug, "high", urgency));
    }
    let listed = s.ls_slugs(&[]);
    assert_eq!(listed.len(), 500);
    // Priority order: every high-urgency Dossier before every low-urgency one.
    let first_low = listed.iter().position(|l| l[6..].parse::<usize>().unwrap() % 2 == 1).unwrap();
    assert_eq!(first_low, 250, "priority sort: {listed:?}");
}

#[test]
fn spec_14_1_d_no_database_file_is_created() {
    let s = store();
    let slug = promote(&s, "No database");
    let r = rev(&s, &slug);
    let f = s.dir.path().join("state.md");
    std::fs::write(&f, state("No database", "- Assumption: files are the truth.", "- Assumption: none.")).unwrap();
    cli_ok(&s, &["save", &slug, "--base-revision", &r, "--from-file", f.to_str().unwrap()]);
    cli_ok(&s, &["search", "truth"]);
    cli_ok(&s, &["ls"]);
    McpSession::new(&s, "sess-db")
        .call("dossier_list", json!({}))
        .call("dossier_search", json!({"query": "truth"}))
        .run();
    for (path, bytes) in snapshot(s.root()) {
        let ext = path.rsplit('.').next().unwrap_or("");
        assert!(
            !["db", "sqlite", "sqlite3", "redb", "mdb", "ldb", "wal", "shm"].contains(&ext),
            "a database-like file: {path}"
        );
        assert!(!bytes.starts_with(b"SQLite format 3"), "an SQLite database: {path}");
    }
}

// §14.2 Recall

/// A state with a captured artifact cited by line range; returns (slug, artifact content).
fn dossier_with_artifact(s: &support::TempStore, name: &str, marker: &str) -> (String, String) {
    let slug = promote(s, name);
    let art = s.dir.path().join(format!("{slug}-source.txt"));
    let content = format!("line one\n{marker}\nline three\n");
    std::fs::write(&art, &content).unwrap();
    let v = cli_ok(s, &["save", &slug, "--artifact", art.to_str().unwrap()]);
    let id = v["artifacts_added"][0].as_str().unwrap().to_string();
    let f = s.dir.path().join(format!("{slug}-state.md"));
    let decisions = format!("- Ship weekly because reviews pile up. Decided by Alice. [src:{id}#L1-L2]");
    let findings = format!("- Reviews take two days. [src:{id}#L3-L3]");
    std::fs::write(&f, state(name, &decisions, &findings)).unwrap();
    let r = v["revision"].as_str().unwrap().to_string();
    cli_ok(s, &["save", &slug, "--base-revision", &r, "--from-file", f.to_str().unwrap()]);
    (slug, id)
}

#[test]
fn spec_14_2_a_dossier_recall_returns_the_full_distilled_state() {
    let s = store();
    let (slug, _) = dossier_with_artifact(&s, "Full recall", "marker");
    let file = std::fs::read_to_string(s.root().join(&slug).join("dossier.md")).unwrap();
    let r = McpSession::new(&s, "sess-r").call("dossier_recall", json!({"id": slug})).run();
    assert_eq!(r[0].data()["content"], file, "MCP recall is the whole dossier.md");
    assert_eq!(cli_ok(&s, &["recall", &slug])["content"], file, "CLI recall too");
}

#[test]
fn spec_14_2_b_recall_includes_a_token_estimate() {
    let s = store();
    let (slug, _) = dossier_with_artifact(&s, "Token estimate", "marker");
    let r = McpSession::new(&s, "sess-t").call("dossier_recall", json!({"id": slug})).run();
    let tokens = r[0].data()["token_estimate"]["tokens"].as_u64().expect("token_estimate.tokens");
    assert!(tokens > 20 && tokens < 1000, "a plausible estimate for a small state: {tokens}");
    assert!(r[0].data()["token_target"].as_u64().is_some());
}

#[test]
fn spec_14_2_c_over_target_recall_warns_and_does_not_truncate() {
    let s = store();
    let slug = promote(&s, "Long state");
    let r0 = rev(&s, &slug);
    let findings: String =
        (0..400).map(|i| format!("- Assumption: finding number {i} about the long topic.\n")).collect();
    let f = s.dir.path().join("long.md");
    std::fs::write(&f, state("Long state", "- Assumption: none yet.", &findings)).unwrap();
    cli_ok(&s, &["save", &slug, "--base-revision", &r0, "--from-file", f.to_str().unwrap()]);
    super::set_token_target(&s, 500);
    let file = std::fs::read_to_string(s.root().join(&slug).join("dossier.md")).unwrap();
    let r = McpSession::new(&s, "sess-o").call("dossier_recall", json!({"id": slug})).run();
    assert!(r[0].warnings().iter().any(|w| w.starts_with("over_token_target")), "{:?}", r[0].warnings());
    assert_eq!(r[0].data()["over_token_target"], true);
    assert_eq!(r[0].data()["content"], file, "not truncated");
}

#[test]
fn spec_14_2_d_archive_artifacts_are_not_loaded_by_default() {
    let s = store();
    let (slug, _) = dossier_with_artifact(&s, "Archive apart", "ARCHIVED-ONLY-MARKER");
    let r = McpSession::new(&s, "sess-d").call("dossier_recall", json!({"id": slug})).run();
    assert!(
        !r[0].envelope.to_string().contains("ARCHIVED-ONLY-MARKER"),
        "recall loaded an artifact: {:#}",
        r[0].envelope
    );
    let out = s.cmd().args(["recall", &slug]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("ARCHIVED-ONLY-MARKER"));
    // The artifact is there, and search (not recall) reaches it.
    assert_eq!(cli_ok(&s, &["search", "ARCHIVED-ONLY-MARKER"])["total_hits"], 1);
}

// §14.3 Provenance

/// The sample Dossiers we ship (assets/examples) and a Dossier written the way the Guide
/// says: every material claim cited, doctor finds no missing provenance.
#[test]
fn spec_14_3_a_sample_dossiers_carry_provenance_on_every_material_claim() {
    let s = store();
    let examples = support::workspace_root().join("assets/examples");
    for e in std::fs::read_dir(&examples).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &s.root().join(e.file_name()));
        }
    }
    dossier_with_artifact(&s, "Written by the guide", "source line");
    let v = cli(&s, &["doctor"]);
    let checks = v["data"]["checks"].as_array().expect("doctor checks");
    let findings: Vec<&Value> = checks
        .iter()
        .filter(|c| {
            let code = c["code"].as_str().unwrap_or("");
            code.contains("provenance") || code == "unknown-artifact" || code == "line-range-beyond-artifact"
        })
        .collect();
    assert!(findings.is_empty(), "provenance findings on sample Dossiers: {findings:#?}");
    let oks = checks.iter().filter(|c| c["severity"] == "ok" && c["check"] == "dossier").count();
    assert!(oks >= 3, "each sample Dossier is checked and passes: {v:#}");
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn spec_14_3_b_doctor_reports_missing_provenance() {
    let s = store();
    let slug = promote(&s, "Uncited");
    let r = rev(&s, &slug);
    let f = s.dir.path().join("u.md");
    std::fs::write(
        &f,
        state("Uncited", "- Ship weekly because reviews pile up. Decided by Alice.", "- Reviews take two days."),
    )
    .unwrap();
    cli_ok(&s, &["save", &slug, "--base-revision", &r, "--from-file", f.to_str().unwrap()]);
    let v = cli(&s, &["doctor"]);
    let missing: Vec<&Value> =
        v["data"]["checks"].as_array().unwrap().iter().filter(|c| c["code"] == "missing-provenance").collect();
    assert_eq!(missing.len(), 2, "both uncited claims: {v:#}");
    assert!(missing.iter().all(|c| c["line"].as_u64().unwrap() > 0 && c["fix"].as_str().is_some()));
    let human = s.cmd().arg("doctor").output().unwrap();
    assert!(String::from_utf8_lossy(&human.stdout).contains("missing-provenance"));
}

#[test]
fn spec_14_3_c_provenance_links_resolve_to_artifacts_or_line_ranges() {
    let s = store();
    let (slug, id) = dossier_with_artifact(&s, "Resolving", "middle line");
    let checks = |s: &support::TempStore| -> Vec<String> {
        cli(s, &["doctor"])["data"]["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| {
                c["dossier"].as_str().map_or(true, |d| d.contains(&slug))
                    || c["file"].as_str().is_some_and(|f| f.contains(&slug))
            })
            .filter_map(|c| c["code"].as_str().map(str::to_string))
            .collect()
    };
    let resolving = checks(&s);
    assert!(!resolving.iter().any(|c| c == "unknown-artifact" || c.starts_with("line-range")), "{resolving:?}");
    // A citation past the artifact's end and one to an artifact that does not exist are named.
    let r = rev(&s, &slug);
    let f = s.dir.path().join("bad.md");
    let decisions = format!("- Ship weekly because reviews pile up. Decided by Alice. [src:{id}#L1-L9]");
    std::fs::write(&f, state("Resolving", &decisions, "- Reviews take two days. [src:art_00000000000000000000000000]"))
        .unwrap();
    cli_ok(&s, &["save", &slug, "--base-revision", &r, "--from-file", f.to_str().unwrap()]);
    let broken = checks(&s);
    assert!(broken.iter().any(|c| c == "line-range-beyond-artifact"), "{broken:?}");
    assert!(broken.iter().any(|c| c == "unknown-artifact"), "{broken:?}");
}

// §14.4 Promote/Link

#[test]
fn spec_14_4_a_promote_creates_a_dossier_from_agent_provided_content() {
    let s = store();
    let body = state("Agent content", "- Assumption: weekly ships.", "- Assumption: reviews are slow.");
    let r = McpSession::new(&s, "sess-p")
        .call("dossier_promote", json!({"name": "Agent content", "distilled_state_markdown": body, "session_content": "We talked about shipping weekly.", "create": true}))
        .run();
    let slug = r[0].data()["slug"].as_str().unwrap().to_string();
    let file = std::fs::read_to_string(s.root().join(&slug).join("dossier.md")).unwrap();
    assert!(file.ends_with(&body), "the agent's state is the Distilled State:\n{file}");
    // The session content is archived as a source.
    let arts: Vec<_> = std::fs::read_dir(s.root().join(&slug).join("artifacts")).unwrap().collect();
    assert!(!arts.is_empty());
    assert_eq!(cli_ok(&s, &["search", "shipping weekly"])["total_hits"].as_u64().unwrap() >= 1, true);
}

#[test]
fn spec_14_4_b_promote_warns_when_transcript_capture_is_unavailable() {
    let s = store();
    let v = cli(&s, &["promote", "--name", "No transcript", "--create"]);
    assert!(v["warnings"].to_string().contains("transcript_unavailable"), "{v:#}");
    let r = McpSession::new(&s, "sess-w").call("dossier_promote", json!({"name": "Also none", "create": true})).run();
    assert!(r[0].warnings().iter().any(|w| w.starts_with("transcript_unavailable")), "{:?}", r[0].warnings());
}

/// Two Dossiers about pricing: a link about pricing without an id.
fn pricing_store() -> support::TempStore {
    let s = store();
    for name in ["Pricing model refresh", "Pricing page copy"] {
        let slug = promote(&s, name);
        let r = rev(&s, &slug);
        let f = s.dir.path().join(format!("{slug}.md"));
        let situation = format!("- Assumption: {name} covers annual pricing tiers and enterprise discounts.");
        std::fs::write(&f, state(name, &situation, "- Assumption: pricing tiers change in Q3.")).unwrap();
        cli_ok(&s, &["save", &slug, "--base-revision", &r, "--from-file", f.to_str().unwrap()]);
    }
    s
}

#[test]
fn spec_14_4_c_link_without_id_returns_candidates_when_matches_exist() {
    let s = pricing_store();
    let r = McpSession::new(&s, "sess-l")
        .call("dossier_link", json!({"session_content": "Notes on annual pricing tiers and enterprise discounts."}))
        .run();
    let data = r[0].data();
    let candidates = data["candidates"].as_array().unwrap();
    assert!(!candidates.is_empty() && candidates.len() <= 3, "{data:#}");
    for c in candidates {
        assert!(["high", "medium", "low"].contains(&c["confidence"].as_str().unwrap()), "{c}");
        assert!(c["slug"].as_str().unwrap().starts_with("pricing-"));
    }
}

#[test]
fn spec_14_4_d_an_ambiguous_link_requires_selection_and_attaches_nothing() {
    let s = pricing_store();
    let before = snapshot(s.root());
    let notes = s.dir.path().join("notes.md");
    std::fs::write(&notes, "# Pricing\n\nAnnual pricing tiers and enterprise discounts, revised.\n").unwrap();
    let v = cli(&s, &["link", "--from-file", notes.to_str().unwrap()]);
    let requires =
        if v["ok"] == true { &v["data"]["requires_selection"] } else { &v["error"]["details"]["requires_selection"] };
    assert_eq!(requires, true, "{v:#}");
    let r = McpSession::new(&s, "sess-amb")
        .call("dossier_link", json!({"session_content": "Annual pricing tiers and enterprise discounts."}))
        .run();
    assert_eq!(r[0].data()["requires_selection"], true);
    assert_eq!(snapshot(s.root()), before, "nothing attached or written");
}

#[test]
fn spec_14_4_e_no_low_confidence_candidate_is_silently_linked() {
    let s = pricing_store();
    let before = snapshot(s.root());
    let r = McpSession::new(&s, "sess-low")
        .call(
            "dossier_link",
            json!({"session_content": "Kitchen renovation: tiles arrive Tuesday, the plumber on Friday."}),
        )
        .run();
    let data = r[0].data();
    assert_ne!(data["event"], "link", "linked without a selection: {data:#}");
    assert_eq!(data["requires_selection"], true);
    for c in data["candidates"].as_array().unwrap() {
        assert_ne!(c["confidence"], "high", "an unrelated text is no high match: {c}");
    }
    assert_eq!(snapshot(s.root()), before, "nothing attached");
}

// §14.5 Merge

#[test]
fn spec_14_5_a_merge_requires_a_surviving_target() {
    let s = store();
    let a = promote(&s, "Merge source");
    let before = snapshot(s.root());
    let r = McpSession::new(&s, "sess-m").call("dossier_merge", json!({"source_id": a})).run();
    assert_eq!(r[0].code(), "invalid_input");
    assert!(r[0].envelope["error"]["message"].as_str().unwrap().contains("target_id"));
    let out = s.cmd().args(["merge", &a]).output().unwrap();
    assert!(!out.status.success(), "the CLI refuses a merge without a target");
    let r = McpSession::new(&s, "sess-m2").call("dossier_merge", json!({"source_id": a, "target_id": a})).run();
    assert_eq!(r[0].code(), "invalid_input", "a Dossier cannot survive a merge into itself");
    assert_eq!(snapshot(s.root()), before);
}

#[test]
fn spec_14_5_b_contradictory_decisions_produce_a_conflict() {
    let s = store();
    let (source, target, _, _) = crate::merge::pair(&s, true);
    let r =
        McpSession::new(&s, "sess-c").call("dossier_merge", json!({"source_id": source, "target_id": target})).run();
    assert_eq!(r[0].code(), "conflict_detected");
    let conflicts = r[0].envelope["error"]["details"]["conflicts"].as_array().unwrap();
    assert!(
        conflicts.iter().any(|c| c["target"]["text"].as_str().unwrap().contains("Postgres")
            && c["source"]["text"].as_str().unwrap().contains("SQLite")),
        "{conflicts:#?}"
    );
}

#[test]
fn spec_14_5_c_the_conflict_is_preserved_in_conflicts() {
    let s = store();
    let (source, target, _, _) = crate::merge::pair(&s, true);
    let v = cli(&s, &["merge", &source, &target]);
    assert_eq!(v["error"]["code"], "conflict_detected");
    let conflicts = v["error"]["details"]["conflicts"].as_array().unwrap();
    for c in conflicts {
        let path = std::path::PathBuf::from(c["path"].as_str().unwrap());
        assert!(path.starts_with(s.root().join(&target).join("conflicts")), "{path:?}");
        let text = std::fs::read_to_string(&path).unwrap();
        // Both sides as written, whatever the tier.
        for side in ["target", "source"] {
            let first = c[side]["text"].as_str().unwrap().lines().next().unwrap();
            assert!(text.contains(first), "the {side} side is kept:\n{text}");
        }
    }
    let decision = conflicts.iter().find(|c| c["certainty"] == "certain").expect("the contradiction is certain");
    let text = std::fs::read_to_string(decision["path"].as_str().unwrap()).unwrap();
    assert!(text.contains("Postgres") && text.contains("SQLite"), "both decisions kept:\n{text}");
}

#[test]
fn spec_14_5_d_source_dossier_files_are_not_deleted() {
    let s = store();
    let (source, target, _, _) = crate::merge::pair(&s, false);
    let before: Vec<String> = snapshot(&s.root().join(&source)).into_iter().map(|(p, _)| p).collect();
    cli_ok(&s, &["merge", &source, &target, "--keep-both-possible"]);
    let after: Vec<String> = snapshot(&s.root().join(&source)).into_iter().map(|(p, _)| p).collect();
    for p in &before {
        assert!(after.contains(p), "{p} was deleted by the merge");
    }
    assert_eq!(cli_ok(&s, &["show", &source])["frontmatter"]["status"], "archived");
}

#[test]
fn spec_14_5_e_merge_audit_events_are_written() {
    let s = store();
    let (source, target, _, _) = crate::merge::pair(&s, true);
    let v = cli(&s, &["merge", &source, &target]);
    let ids: Vec<String> = v["error"]["details"]["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    let mut args = vec!["merge".to_string(), source.clone(), target.clone()];
    for id in &ids {
        args.push("--resolve".into());
        args.push(format!("{id}=keep-target"));
    }
    cli_ok(&s, &args.iter().map(String::as_str).collect::<Vec<_>>());
    for slug in [&target, &source] {
        let events = audit_events(&s, slug);
        for e in ["merge_started", "merge_completed"] {
            assert!(events.iter().any(|x| x == e), "{slug} lacks {e}: {events:?}");
        }
    }
    let target_events = audit_events(&s, &target);
    for e in ["conflict_created", "conflict_resolved"] {
        assert!(target_events.iter().any(|x| x == e), "target lacks {e}: {target_events:?}");
    }
}

// §14.6 Active Session

#[test]
fn spec_14_6_a_a_session_binds_zero_or_one_dossier() {
    let s = store();
    let a = promote(&s, "First topic");
    let b = promote(&s, "Second topic");
    let r = McpSession::new(&s, "sess-one")
        .call("dossier_session", json!({}))
        .call("dossier_session", json!({"id": a}))
        .call("dossier_session", json!({"id": b}))
        .call("dossier_session", json!({}))
        .run();
    assert!(r[0].data()["binding"]["dossier_id"].is_null(), "zero at first: {:#}", r[0].envelope);
    let b_id = cli_ok(&s, &["show", &b])["frontmatter"]["id"].clone();
    assert_eq!(r[3].data()["binding"]["dossier_id"], b_id, "one: the last bound");
    let binding: Value =
        serde_json::from_str(&std::fs::read_to_string(s.root().join("sessions/sess-one.json")).unwrap()).unwrap();
    assert_eq!(binding["dossier_id"], b_id);
}

#[test]
fn spec_14_6_b_two_sessions_bind_different_dossiers() {
    let s = store();
    let a = promote(&s, "Topic for one");
    let b = promote(&s, "Topic for two");
    McpSession::new(&s, "sess-x").call("dossier_session", json!({"id": a})).run();
    McpSession::new(&s, "sess-y").call("dossier_session", json!({"id": b})).run();
    let active = |sess: &str| cli_ok(&s, &["active", "--session", sess])["binding"]["dossier_id"].clone();
    assert_eq!(active("sess-x"), cli_ok(&s, &["show", &a])["frontmatter"]["id"]);
    assert_eq!(active("sess-y"), cli_ok(&s, &["show", &b])["frontmatter"]["id"]);
}

#[test]
fn spec_14_6_c_dossier_session_reports_changes_and_returns_the_new_state() {
    let s = store();
    let (a, _) = dossier_with_artifact(&s, "Topic A", "a");
    let (b, _) = dossier_with_artifact(&s, "Topic B", "b");
    let r = McpSession::new(&s, "sess-c")
        .call("dossier_session", json!({"id": a}))
        .call("dossier_session", json!({"id": b}))
        .call("dossier_session", json!({}))
        .run();
    let b_file = std::fs::read_to_string(s.root().join(&b).join("dossier.md")).unwrap();
    assert_eq!(r[1].data()["distilled_state"], b_file, "switching returns the new Distilled State");
    assert!(r[1].data()["token_estimate"].is_object() || r[1].data()["token_estimate"].is_number());
    assert_eq!(r[2].data()["binding"]["dossier_id"], cli_ok(&s, &["show", &b])["frontmatter"]["id"], "and reports it");
}

#[test]
fn spec_14_6_d_clear_removes_the_session_binding_not_the_dossier() {
    let s = store();
    let (slug, _) = dossier_with_artifact(&s, "Survives clear", "kept");
    McpSession::new(&s, "sess-clear").call("dossier_session", json!({"id": slug})).run();
    let before = snapshot(&s.root().join(&slug));
    let transcript = s.dir.path().join("t.jsonl");
    std::fs::write(&transcript, "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hello\"}}\n").unwrap();
    let input = json!({"session_id": "sess-clear", "reason": "clear", "transcript_path": transcript, "hook_event_name": "SessionEnd", "cwd": "/"});
    let out = s.cmd().args(["hook", "session-end"]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success());
    assert!(
        cli_ok(&s, &["active", "--session", "sess-clear"])["binding"]["dossier_id"].is_null(),
        "the binding is gone"
    );
    // Every file the Dossier had is kept; the Distilled State and every curated field are
    // unchanged. The session-end capture (§9.2) archives the transcript first, a save: the
    // archive and the audit log grow, and the frontmatter's bookkeeping (`updated_at`,
    // `last_touched_at`, `base_revision`) moves with the new revision (docs/conformance.md).
    let after = snapshot(&s.root().join(&slug));
    let bookkeeping = |text: &[u8]| -> String {
        String::from_utf8_lossy(text)
            .lines()
            .filter(|l| !["updated_at:", "last_touched_at:", "base_revision:"].iter().any(|k| l.starts_with(k)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for (path, bytes) in &before {
        let now = after.iter().find(|(p, _)| p == path).unwrap_or_else(|| panic!("{path} removed"));
        match path.as_str() {
            "audit.log" => assert!(now.1.starts_with(bytes), "audit.log only appended to"),
            "dossier.md" => {
                assert_eq!(bookkeeping(&now.1), bookkeeping(bytes), "the Distilled State altered by /clear")
            }
            _ => assert_eq!(&now.1, bytes, "{path} altered by /clear"),
        }
    }
    assert!(after.len() > before.len(), "the transcript is archived (§9.2)");
}

// §14.7 Harness Transparency

#[test]
fn spec_14_7_a_init_reports_detected_claude_code_capabilities() {
    let s = support::TempStore::new(crate::DOSSIER);
    std::fs::create_dir_all(s.dir.path().join("home/.claude")).unwrap();
    let out = s.cmd().args(["init", "--yes", "--no-self-install"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "Claude Code integration:",
        "- MCP:",
        "- Session-start hook:",
        "- Session-end hook:",
        "- Pre-compaction hook:",
        "- Transcript capture:",
    ] {
        assert!(text.contains(line), "init's report lacks {line:?}:\n{text}");
    }
}

#[test]
fn spec_14_7_b_session_start_reports_missing_hooks_and_transcript_capture() {
    // Claude Code detected, nothing registered (init without --yes only plans): the recorded
    // report says hooks and transcript capture are unavailable.
    let s = support::TempStore::new(crate::DOSSIER);
    std::fs::create_dir_all(s.dir.path().join("home/.claude")).unwrap();
    s.cmd().args(["init", "--no-self-install"]).write_stdin("").assert().success();
    promote(&s, "Some open work");
    let input = json!({"session_id": "sess-h", "source": "startup", "hook_event_name": "SessionStart", "cwd": "/"});
    let out = s.cmd().args(["hook", "session-start"]).write_stdin(input.to_string()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
    assert!(text.contains("transcript") && text.contains("unavailable"), "no transcript warning:\n{text}");
    let library = std::fs::read_to_string(s.root().join("context/library.md")).unwrap().to_lowercase();
    assert!(
        library.contains("transcript") && library.contains("unavailable"),
        "the context file warns too:\n{library}"
    );
}

#[test]
fn spec_14_7_c_recall_save_search_work_through_mcp_without_hooks() {
    let s = store(); // no Claude Code, no hooks at all
    let slug = promote(&s, "Hookless");
    let r0 = rev(&s, &slug);
    let body = state("Hookless", "- Assumption: MCP alone is enough.", "- Assumption: saves work.");
    let r = McpSession::new(&s, "sess-nohooks")
        .call("dossier_save", json!({"id": slug, "base_revision": r0, "distilled_state_markdown": body}))
        .call("dossier_recall", json!({"id": slug}))
        .call("dossier_search", json!({"query": "MCP alone"}))
        .run();
    assert!(r[0].ok() && r[1].ok() && r[2].ok(), "{r:#?}");
    assert!(r[1].data()["content"].as_str().unwrap().contains("MCP alone is enough"));
    assert!(r[2].data()["total_hits"].as_u64().unwrap() >= 1);
    // The context-file path: library.md says how to load a Dossier and where the guide is.
    let library = std::fs::read_to_string(s.root().join("context/library.md")).unwrap();
    assert!(library.contains("Hookless") && library.contains("guide.md"), "{library}");
}

// §14.8 Concurrency

#[test]
fn spec_14_8_a_a_concurrent_edit_creates_a_conflict_artifact_instead_of_overwriting() {
    let s = store();
    let slug = promote(&s, "Contended");
    let base = rev(&s, &slug);
    let mine = state("Contended", "- Assumption: mine.", "- Assumption: mine.");
    let theirs = state("Contended", "- Assumption: theirs.", "- Assumption: theirs.");
    let r = McpSession::new(&s, "sess-1")
        .call("dossier_save", json!({"id": slug, "base_revision": base, "distilled_state_markdown": theirs}))
        .call("dossier_save", json!({"id": slug, "base_revision": base, "distilled_state_markdown": mine}))
        .run();
    assert!(r[0].ok());
    assert_eq!(r[1].code(), "concurrent_edit");
    let file = std::fs::read_to_string(s.root().join(&slug).join("dossier.md")).unwrap();
    assert!(file.contains("theirs") && !file.contains("mine"), "not overwritten");
    let path = r[1].envelope["error"]["details"]["conflict_path"].as_str().unwrap();
    assert!(std::fs::read_to_string(path).unwrap().contains("mine"), "the proposal is kept in conflicts/");
}

#[test]
fn spec_14_8_b_a_non_overlapping_frontmatter_update_auto_merges() {
    let s = store();
    let slug = promote(&s, "Two writers");
    let base = rev(&s, &slug);
    let r = McpSession::new(&s, "sess-2")
        .call("dossier_save", json!({"id": slug, "base_revision": base, "frontmatter_updates": {"lead": "Alice"}}))
        .call(
            "dossier_save",
            json!({"id": slug, "base_revision": base, "frontmatter_updates": {"next_action": "Call the vendor"}}),
        )
        .run();
    assert!(r[1].ok(), "{:#}", r[1].envelope);
    assert_eq!(r[1].data()["auto_merged"], true);
    let front = &cli_ok(&s, &["show", &slug])["frontmatter"];
    assert_eq!((front["lead"].as_str(), front["next_action"].as_str()), (Some("Alice"), Some("Call the vendor")));
}

#[test]
fn spec_14_8_c_the_audit_log_records_conflict_creation_and_resolution() {
    let s = store();
    let slug = promote(&s, "Audited conflict");
    let base = rev(&s, &slug);
    let r = McpSession::new(&s, "sess-3")
        .call("dossier_save", json!({"id": slug, "base_revision": base, "distilled_state_markdown": state("Audited conflict", "- Assumption: a.", "- Assumption: a.")}))
        .call("dossier_save", json!({"id": slug, "base_revision": base, "distilled_state_markdown": state("Audited conflict", "- Assumption: b.", "- Assumption: b.")}))
        .run();
    assert_eq!(r[1].code(), "concurrent_edit");
    let list = cli_ok(&s, &["conflicts", "list", &slug]);
    let id = list["conflicts"][0]["id"].as_str().unwrap().to_string();
    cli_ok(&s, &["conflicts", "resolve", &id, "--keep", "proposal"]);
    let events = audit_events(&s, &slug);
    let created = events.iter().position(|e| e == "conflict_created").expect("conflict_created");
    let resolved = events.iter().position(|e| e == "conflict_resolved").expect("conflict_resolved");
    assert!(created < resolved, "{events:?}");
}

// §14.9 Archive/Delete

#[test]
fn spec_14_9_a_archive_hides_the_dossier_from_the_open_work_view() {
    let s = store();
    let keep = promote(&s, "Still open");
    let gone = promote(&s, "Put away");
    cli_ok(&s, &["archive", &gone]);
    assert_eq!(s.ls_slugs(&[]), [keep.clone()]);
    let r = McpSession::new(&s, "sess-9").call("dossier_list", json!({})).run();
    let listed: Vec<&str> =
        r[0].data()["dossiers"].as_array().unwrap().iter().map(|d| d["slug"].as_str().unwrap()).collect();
    assert_eq!(listed, [keep.as_str()]);
    assert!(s.root().join(&gone).join("dossier.md").is_file(), "archive deletes nothing");
    assert!(s.ls_slugs(&["--status", "all"]).contains(&gone));
}

#[test]
fn spec_14_9_b_an_archived_dossier_remains_searchable() {
    let s = store();
    let (slug, _) = dossier_with_artifact(&s, "Old work", "FINDABLE-AFTER-ARCHIVE");
    cli_ok(&s, &["archive", &slug]);
    assert_eq!(cli_ok(&s, &["search", "FINDABLE-AFTER-ARCHIVE"])["total_hits"], 1);
    let r = McpSession::new(&s, "sess-s").call("dossier_search", json!({"query": "weekly"})).run();
    assert_eq!(r[0].data()["results"][0]["slug"], slug.as_str());
}

#[test]
fn spec_14_9_c_no_cli_or_mcp_delete_command_exists() {
    let s = store();
    let slug = promote(&s, "Undeletable");
    for verb in ["delete", "rm", "remove", "destroy", "purge"] {
        let out = s.cmd().args([verb, &slug]).output().unwrap();
        assert!(!out.status.success(), "`dossier {verb}` exists");
    }
    let help = String::from_utf8(s.cmd().arg("--help").output().unwrap().stdout).unwrap().to_lowercase();
    assert!(!help.contains("delete "), "help offers a delete:\n{help}");
    let r = McpSession::new(&s, "sess-del").call("list_tools", json!({})).run();
    for t in r[0].envelope["tools"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        assert!(!["delete", "remove", "destroy", "purge"].iter().any(|v| name.contains(v)), "MCP tool {name}");
    }
    assert!(s.root().join(&slug).join("dossier.md").is_file());
}
