//! SPEC §5 (the session model) and §8 (the MCP server) as executable clauses, through the
//! official Python MCP client: `spec_5_1_…`, `spec_5_2_<step>_…`, `spec_8_<n>_…`.
//!
//! Not for: session-start injection (§9.1, tests/hooks.rs and `s09_s12`), or the MCP server's
//! parameter checker in detail (host/src/mcp unit tests, tests/mcp/client_check.py).

use serde_json::{Value, json};
use support::mcp::McpSession;
use support::snapshot;

use super::{audit_events, cli_ok, promote, rev, state, store};

// §5.1 Active Dossier Binding

#[test]
fn spec_5_1_a_binding_records_the_spec_fields() {
    let s = store();
    let slug = promote(&s, "Bound topic");
    McpSession::new(&s, "sess-fields").call("dossier_session", json!({"id": slug})).run();
    let b: Value =
        serde_json::from_str(&std::fs::read_to_string(s.root().join("sessions/sess-fields.json")).unwrap()).unwrap();
    assert!(b["session_binding_id"].as_str().unwrap().starts_with("sess_"), "{b:#}");
    assert_eq!(b["harness"], "claude-code");
    assert_eq!(b["dossier_id"], cli_ok(&s, &["show", &slug])["frontmatter"]["id"]);
    assert!(b["bound_at"].as_str().unwrap().len() >= 20, "an RFC 3339 time: {b:#}");
    assert_eq!(b["last_seen_revision"], rev(&s, &slug).as_str());
    for cap in ["mcp", "session_start_hook", "session_end_hook", "pre_compaction_hook", "transcript_capture"] {
        assert!(b["capabilities"][cap].is_boolean(), "capabilities.{cap}: {b:#}");
    }
}

// §5.2 Switching

/// Steps 1–4: the current Dossier is saved first, the binding cleared and replaced, and the new
/// Distilled State, token estimate and capability warnings returned.
#[test]
fn spec_5_2_1_to_4_switching_saves_first_then_binds_and_returns_the_new_state() {
    let s = store();
    let a = promote(&s, "Old topic");
    let b = promote(&s, "New topic");
    let a_rev = rev(&s, &a);
    let latest = state("Old topic", "- Assumption: saved on switch.", "- Assumption: none.");
    let r = McpSession::new(&s, "sess-sw")
        .call("dossier_session", json!({"id": a}))
        .call(
            "dossier_session",
            json!({"id": b, "current_distilled_state_markdown": latest, "current_base_revision": a_rev}),
        )
        .run();
    let d = r[1].data();
    assert!(d["saved_previous"].is_object() || d["saved_previous"] == true, "step 1: {d:#}");
    let a_file = std::fs::read_to_string(s.root().join(&a).join("dossier.md")).unwrap();
    assert!(a_file.contains("saved on switch"), "the previous Dossier was saved first");
    assert_eq!(d["binding"]["dossier_id"], cli_ok(&s, &["show", &b])["frontmatter"]["id"], "step 3");
    assert_eq!(d["distilled_state"], std::fs::read_to_string(s.root().join(&b).join("dossier.md")).unwrap(), "step 4");
    assert!(d["token_estimate"]["tokens"].as_u64().unwrap() > 0);
    assert!(
        r[1].warnings().iter().any(|w| w.to_lowercase().contains("transcript")),
        "capability warnings (no hooks here): {:?}",
        r[1].warnings()
    );
}

#[test]
fn spec_5_2_5_switching_alone_audits_no_status_change() {
    let s = store();
    let a = promote(&s, "Alpha topic");
    let b = promote(&s, "Beta topic");
    let before = (audit_events(&s, &a), audit_events(&s, &b));
    McpSession::new(&s, "sess-5")
        .call("dossier_session", json!({"id": a}))
        .call("dossier_session", json!({"id": b}))
        .call("dossier_session", json!({"clear": true}))
        .run();
    assert_eq!((audit_events(&s, &a), audit_events(&s, &b)), before, "binding is not a Dossier lifecycle event");
    assert_eq!(cli_ok(&s, &["show", &a])["frontmatter"]["status"], "active");
}

// §8.1 Tool Names

#[test]
fn spec_8_1_the_nine_required_tools_exist_and_are_prefixed() {
    let s = store();
    let r = McpSession::new(&s, "sess-tools").call("list_tools", json!({})).run();
    let names: Vec<String> =
        r[0].envelope["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect();
    for t in [
        "dossier_list",
        "dossier_recall",
        "dossier_search",
        "dossier_save",
        "dossier_promote",
        "dossier_link",
        "dossier_merge",
        "dossier_session",
        "dossier_update",
    ] {
        assert!(names.iter().any(|n| n == t), "{t} missing: {names:?}");
    }
    // Every tool is prefixed: Dossier's with dossier_, codecall's (the second product on the
    // same server, docs/mcp.md) with codecall_.
    assert!(names.iter().all(|n| n.starts_with("dossier_") || n.starts_with("codecall_")), "{names:?}");
}

#[test]
fn spec_8_1_dossier_update_renames_without_changing_the_slug() {
    let s = store();
    let slug = promote(&s, "First name");
    let r = McpSession::new(&s, "sess-u")
        .call("dossier_update", json!({"id": slug, "name": "Second name", "importance": "low", "urgency": "high"}))
        .run();
    assert!(r[0].ok(), "{:#}", r[0].envelope);
    let f = &cli_ok(&s, &["show", &slug])["frontmatter"];
    assert_eq!((f["name"].as_str(), f["slug"].as_str()), (Some("Second name"), Some(slug.as_str())));
    assert_eq!((f["importance"].as_str(), f["urgency"].as_str()), (Some("low"), Some("high")));
    assert!(s.root().join(&slug).is_dir(), "the directory keeps its slug");
    assert_eq!(audit_events(&s, &slug).last().unwrap(), "save", "through the Save path");
}

// §8.2 Tool Contracts

fn assert_envelope(v: &Value) {
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    if v["ok"] == true {
        assert!(v["data"].is_object(), "{v:#}");
    } else {
        let e = &v["error"];
        assert!(e["code"].is_string() && e["message"].is_string() && e["details"].is_object(), "{v:#}");
    }
    assert!(v["warnings"].is_array() && v["next_actions"].is_array(), "{keys:?}");
}

#[test]
fn spec_8_2_every_tool_returns_the_envelope_on_success_and_on_error() {
    let s = store();
    let slug = promote(&s, "Envelope");
    let r0 = rev(&s, &slug);
    let r = McpSession::new(&s, "sess-env")
        .call("dossier_list", json!({}))
        .call("dossier_recall", json!({"id": slug}))
        .call("dossier_search", json!({"query": "Envelope"}))
        .call("dossier_save", json!({"id": slug, "base_revision": r0, "frontmatter_updates": {"lead": "Bo"}}))
        .call("dossier_update", json!({"id": slug, "next_action": "Write it"}))
        .call("dossier_promote", json!({"name": "Another", "create": true}))
        .call("dossier_link", json!({"session_content": "envelope notes"}))
        .call("dossier_session", json!({}))
        .call("dossier_merge", json!({"source_id": "another", "target_id": slug}))
        // and errors
        .call("dossier_recall", json!({"id": "no-such-dossier"}))
        .call("dossier_save", json!({"id": slug, "base_revision": "rev_stale", "distilled_state_markdown": "# x"}))
        .call("dossier_list", json!({"limit": "ten"}))
        .run();
    for (i, reply) in r.iter().enumerate() {
        assert_envelope(&reply.envelope);
        assert!(i >= 9 || reply.ok(), "call {i}: {:#}", reply.envelope);
    }
    assert_eq!(r[9].code(), "not_found");
    assert_eq!(r[10].code(), "concurrent_edit");
    assert_eq!(r[11].code(), "invalid_input");
}

/// Each required error code is one the product returns, each in a reachable situation.
#[test]
fn spec_8_2_the_required_error_codes_are_returned() {
    let s = store();
    let slug = promote(&s, "Codes");
    let r0 = rev(&s, &slug);
    // invalid_frontmatter: a hand-broken dossier.md.
    let broken = promote(&s, "Broken");
    let p = s.root().join(&broken).join("dossier.md");
    let text = std::fs::read_to_string(&p).unwrap().replacen("status: active", "status: [oops", 1);
    std::fs::write(&p, text).unwrap();
    let r = McpSession::new(&s, "sess-codes")
        .call("dossier_recall", json!({"id": "missing"}))
        .call("dossier_promote", json!({"name": "Codes"}))
        .call("dossier_recall", json!({"id": broken}))
        .call(
            "dossier_save",
            json!({"id": slug, "base_revision": r0, "artifacts": [{"type": "source_snapshot", "title": "bin", "content_format": "text", "content": "a\u{0}b"}]}),
        )
        .call("dossier_save", json!({"id": slug, "base_revision": "rev_old", "distilled_state_markdown": "# Codes\n"}))
        .run();
    let codes: Vec<&str> = [&r[0], &r[1], &r[2], &r[4]].iter().map(|x| x.code()).collect();
    assert_eq!(codes, ["not_found", "ambiguous_target", "invalid_frontmatter", "concurrent_edit"]);
    // binary_artifact_unsupported is a warning code: the save keeps the artifact's metadata
    // (SPEC §2.8, §4.3: text-first, no native binary storage) and says so.
    assert!(r[3].warnings().iter().any(|w| w.starts_with("binary_artifact_unsupported:")), "{:#}", r[3].envelope);
    // artifact_too_large: over 1 GiB, which no MCP message carries; a sparse file through the CLI.
    let huge = s.dir.path().join("huge.txt");
    std::fs::File::create(&huge).unwrap().set_len((1 << 30) + 1).unwrap();
    let v = super::cli(&s, &["save", &slug, "--artifact", huge.to_str().unwrap()]);
    assert_eq!(v["error"]["code"], "artifact_too_large", "{v:#}");
    // conflict_detected (a contradictory merge), over_token_target and transcript_unavailable
    // (warning codes), harness_capability_unavailable (a stood-down server): docs/conformance.md
    // names the tests that reach each.
}

// §8.3 dossier_list

#[test]
fn spec_8_3_list_items_carry_the_spec_fields() {
    let s = store();
    let slug = promote(&s, "Listed");
    cli_ok(&s, &["lead", &slug, "Alice"]);
    cli_ok(&s, &["priority", &slug, "--importance", "high", "--urgency", "high", "--due", "2030-01-02"]);
    let r = McpSession::new(&s, "sess-list").call("dossier_list", json!({"status": ["active"], "limit": 5})).run();
    let item = &r[0].data()["dossiers"][0];
    for key in [
        "id",
        "name",
        "slug",
        "status",
        "lead",
        "next_action",
        "open_questions",
        "importance",
        "urgency",
        "due_date",
        "staleness_days",
        "priority_score",
        "path",
        "warnings",
    ] {
        assert!(item.get(key).is_some(), "item lacks {key}: {item:#}");
    }
    assert_eq!(item["priority_score"], 1);
    assert_eq!(item["due_date"], "2030-01-02");
    assert_eq!(item["lead"], "Alice");
}

#[test]
fn spec_8_3_list_filters_by_status_and_limits() {
    let s = store();
    for n in ["One", "Two", "Three"] {
        promote(&s, n);
    }
    cli_ok(&s, &["status", "two", "blocked"]);
    let r = McpSession::new(&s, "sess-f")
        .call("dossier_list", json!({"status": ["blocked"]}))
        .call("dossier_list", json!({"limit": 2}))
        .run();
    let slugs = |v: &Value| -> Vec<String> {
        v["dossiers"].as_array().unwrap().iter().map(|d| d["slug"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(slugs(r[0].data()), ["two"]);
    assert_eq!(slugs(r[1].data()).len(), 2);
    assert!(
        r[1].next_actions().iter().any(|a| a.contains("limit")),
        "the rest is announced: {:?}",
        r[1].next_actions()
    );
}

// §8.4 dossier_save

#[test]
fn spec_8_4_save_validates_frontmatter_updates_and_writes_nothing_on_rejection() {
    let s = store();
    let slug = promote(&s, "Validated");
    let r0 = rev(&s, &slug);
    let before = snapshot(s.root());
    let r = McpSession::new(&s, "sess-v")
        .call("dossier_save", json!({"id": slug, "base_revision": r0, "frontmatter_updates": {"status": "finished"}}))
        .call(
            "dossier_save",
            json!({"id": slug, "base_revision": r0, "frontmatter_updates": {"due_date": "next week"}}),
        )
        .call("dossier_save", json!({"id": slug, "base_revision": r0, "frontmatter_updates": {"next_actoin": "x"}}))
        .run();
    for reply in &r {
        assert!(["invalid_input", "invalid_frontmatter"].contains(&reply.code()), "{:#}", reply.envelope);
    }
    assert_eq!(snapshot(s.root()), before);
}

#[test]
fn spec_8_4_save_writes_atomically_audits_and_returns_the_new_revision_and_warnings() {
    let s = store();
    let slug = promote(&s, "Saved");
    let r0 = rev(&s, &slug);
    let body = state("Saved", "- Ship weekly.", "- Reviews take two days.");
    let art = json!({"type": "source_snapshot", "title": "Thread", "content_format": "markdown", "content": "# Thread\n\nShip weekly.\n", "provenance": {"origin": "Slack", "url": "https://example.com/t"}});
    let r = McpSession::new(&s, "sess-s")
        .call(
            "dossier_save",
            json!({"id": slug, "base_revision": r0, "distilled_state_markdown": body, "artifacts": [art]}),
        )
        .run();
    let d = r[0].data();
    let new_rev = d["revision"].as_str().unwrap();
    assert!(new_rev.starts_with("rev_") && new_rev != r0);
    assert_eq!(new_rev, rev(&s, &slug));
    assert_eq!(d["artifacts_added"].as_array().unwrap().len(), 1);
    assert_eq!(audit_events(&s, &slug).last().unwrap(), "save");
    // Uncited claims and a decision without why/who: the save committed, with distill warnings.
    let w = r[0].warnings().join("\n");
    assert!(w.contains("missing-provenance") && w.contains("decision-without-rationale"), "{w}");
    // No temp file is left beside dossier.md.
    let leftovers: Vec<_> = std::fs::read_dir(s.root().join(&slug))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

// §8.5 dossier_promote

#[test]
fn spec_8_5_promote_checks_for_matches_before_creating() {
    let s = store();
    let slug = promote(&s, "Pricing model refresh");
    let before = snapshot(s.root());
    let r = McpSession::new(&s, "sess-pm")
        .call("dossier_promote", json!({"name": "Pricing model refresh", "session_content": "pricing again"}))
        .call("dossier_promote", json!({"name": "Pricing model refresh", "create": true}))
        .run();
    assert_eq!(r[0].code(), "ambiguous_target");
    assert_eq!(r[0].envelope["error"]["details"]["candidates"][0]["slug"], slug.as_str());
    let after_first: Vec<String> = snapshot(s.root()).into_iter().map(|(p, _)| p).collect();
    let before_paths: Vec<String> = before.into_iter().map(|(p, _)| p).collect();
    assert!(
        after_first
            .iter()
            .filter(|p| !before_paths.contains(p))
            .all(|p| !p.ends_with("dossier.md") || p.starts_with(&format!("{slug}-")))
    );
    let created = r[1].data()["slug"].as_str().unwrap();
    assert_ne!(created, slug, "explicit create intent makes a second Dossier with a distinct slug");
}

#[test]
fn spec_8_5_promote_stores_session_content_and_transcript_as_artifacts() {
    let s = store();
    let r = McpSession::new(&s, "sess-pa")
        .call(
            "dossier_promote",
            json!({"name": "Captured", "session_content": "We chose weekly ships.", "transcript": "user: hi\nassistant: hello\n", "harness": "claude-code", "create": true}),
        )
        .run();
    let d = r[0].data();
    let slug = d["slug"].as_str().unwrap();
    let show = cli_ok(&s, &["show", slug]);
    let types: Vec<&str> = show["artifacts"].as_array().unwrap().iter().map(|a| a["type"].as_str().unwrap()).collect();
    assert!(types.contains(&"transcript"), "{types:?}");
    assert_eq!(types.len(), 2, "session content and transcript: {types:?}");
    assert!(!r[0].warnings().iter().any(|w| w.starts_with("transcript_unavailable")), "a transcript was given");
}

// §8.6 dossier_link

#[test]
fn spec_8_6_link_with_id_attaches_session_content_through_the_save_path() {
    let s = store();
    let slug = promote(&s, "Link target");
    let r0 = rev(&s, &slug);
    let body = state("Link target", "- Assumption: linked.", "- Assumption: none.");
    let r = McpSession::new(&s, "sess-li")
        .call("dossier_link", json!({"id": slug, "base_revision": r0, "distilled_state_markdown": body, "session_content": "LINKED-NOTES"}))
        .run();
    assert_eq!(r[0].data()["event"], "link");
    assert_eq!(audit_events(&s, &slug).last().unwrap(), "link");
    assert_eq!(cli_ok(&s, &["search", "LINKED-NOTES"])["total_hits"], 1);
    assert!(std::fs::read_to_string(s.root().join(&slug).join("dossier.md")).unwrap().contains("Assumption: linked."));
}

#[test]
fn spec_8_6_link_candidates_have_id_name_confidence_and_reason() {
    let s = store();
    promote(&s, "Pricing packaging for sales");
    let r = McpSession::new(&s, "sess-lc")
        .call("dossier_link", json!({"session_content": "Pricing packaging for sales: account tiers."}))
        .run();
    let d = r[0].data();
    assert_eq!(d["requires_selection"], true);
    let c = &d["candidates"][0];
    for k in ["id", "name", "confidence", "reason"] {
        assert!(c.get(k).is_some(), "candidate lacks {k}: {c:#}");
    }
    assert!(c["reason"].as_str().unwrap().to_lowercase().contains("pricing"), "{c:#}");
}

// §8.7 dossier_merge

#[test]
fn spec_8_7_target_survives_source_is_archived_and_the_archive_is_unified() {
    let s = store();
    let (source, target, sids, tids) = crate::merge::pair(&s, false);
    let args = json!({"source_id": source, "target_id": target});
    // Issue 19: the pair's related claims are compatible. Since the seventh round the rules show
    // it (the Situation framing is kept both without a listing) and the merge completes at once;
    // were a pair the rules think compatible listed, the review round would come first and the
    // agent would judge it so.
    let mut r = McpSession::new(&s, "sess-mg").call("dossier_merge", args.clone()).run();
    if !r[0].ok() {
        let review = r[0].envelope["error"]["details"]["review"].as_array().unwrap().clone();
        assert!(!review.is_empty() && review.iter().all(|i| i["compatible_hint"].is_string()), "{review:#?}");
        let mut answered = args.clone();
        answered["reviews"] = review
            .iter()
            .map(|i| json!({"conflict_id": i["conflict_id"], "verdict": "compatible", "reason": "additive detail"}))
            .collect();
        r = McpSession::new(&s, "sess-mg").call("dossier_merge", answered).run();
    }
    assert!(r[0].ok(), "{:#}", r[0].envelope);
    let t = cli_ok(&s, &["show", &target]);
    assert_eq!(t["frontmatter"]["status"], "active", "the target survives");
    let ids: Vec<&str> = t["artifacts"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap()).collect();
    for id in sids.iter().chain(&tids) {
        assert!(ids.contains(&id.as_str()), "{id} not in the unified archive: {ids:?}");
    }
    let src = cli_ok(&s, &["show", &source]);
    assert_eq!(src["frontmatter"]["status"], "archived");
    assert_eq!(src["frontmatter"]["merged_into"], t["frontmatter"]["id"]);
}

#[test]
fn spec_8_7_conflicts_cover_decisions_next_actions_lifecycle_and_claims() {
    let s = store();
    let doc = |decision: &str, value: &str| {
        format!(
            "# Deals\n\n## Situation\n\nEnterprise pricing.\n\n## Decisions\n\n- {decision} Decided by Alice because churn. [src:{{0}}#L1-L2]\n\n\
             ## Findings\n\n- Average enterprise deal size is {value}. [src:{{0}}#L3-L3]\n\n## Current State\n\nDrafting. [src:{{0}}#L1-L1]\n\n## Next Steps\n\n- Ask sales.\n"
        )
    };
    let log = "one\ntwo\nthree\n";
    let (target, _) = crate::merge::make(
        &s,
        "Enterprise deals",
        "Ask sales for numbers",
        &doc("Renewals are annual.", "$40,000"),
        &[("a.txt", log)],
    );
    let (source, _) = crate::merge::make(
        &s,
        "Deal desk",
        "Rewrite the contract template",
        &doc("Renewals are monthly.", "$55,000"),
        &[("b.txt", log)],
    );
    cli_ok(&s, &["status", &source, "resolved"]);
    let r = McpSession::new(&s, "sess-mk")
        .call("dossier_merge", json!({"source_id": source, "target_id": target, "resolved_conflicts": []}))
        .run();
    assert_eq!(r[0].code(), "conflict_detected");
    let kinds: Vec<String> = r[0].envelope["error"]["details"]["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap().to_string())
        .collect();
    for k in ["contradictory_decision", "divergent_next_action", "incompatible_lifecycle", "incompatible_value"] {
        assert!(kinds.iter().any(|x| x == k), "no {k} conflict: {kinds:?}");
    }
}

/// Every `invalid_input` says which field and what was expected (`details.field`,
/// `details.expected`), merges and conflict files included.
#[test]
fn spec_8_2_invalid_input_names_the_field_and_what_was_expected() {
    let s = store();
    let (source, target, _, _) = crate::merge::pair(&s, true);
    let r = McpSession::new(&s, "sess-ii")
        .call(
            "dossier_merge",
            json!({"source_id": source, "target_id": target, "resolved_conflicts": [{"conflict_id": "conf_nope", "choice": "keep_target"}]}),
        )
        .run();
    let first = super::cli(&s, &["merge", &source, &target]);
    let id = first["error"]["details"]["conflicts"][0]["id"].as_str().unwrap().to_string();
    let r2 = McpSession::new(&s, "sess-ii2")
        .call(
            "dossier_merge",
            json!({"source_id": source, "target_id": target, "resolved_conflicts": [{"conflict_id": id, "choice": "custom"}]}),
        )
        .run();
    let cli_bad = super::cli(&s, &["conflicts", "resolve", "../x", "--keep", "current"]);
    let flag_bad = super::cli(&s, &["merge", &source, &target, "--resolve", "nonsense"]);
    for e in [&r[0].envelope, &r2[0].envelope, &cli_bad, &flag_bad] {
        assert_eq!(e["error"]["code"], "invalid_input", "{e:#}");
        let d = &e["error"]["details"];
        assert!(
            d["field"].is_string() && d["expected"].is_string(),
            "details name the field and what was expected: {e:#}"
        );
    }
}
