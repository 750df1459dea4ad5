//! The MCP server through the official Python MCP SDK (a real client over stdio):
//! `tests/mcp/client_check.py` lists the tools, calls each, and checks envelopes, error
//! codes, the conflict file, session binding and robustness. Python's `mcp` package is
//! installed by the README's test command; if it is missing this test fails, never skips.
//! A second run, without a session id, checks the binding kept in context only (SPEC §5.1).

use support::TempStore;

#[test]
fn official_python_client_drives_every_tool() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let script = support::workspace_root().join("tests/mcp/client_check.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(crate::DOSSIER)
        .arg(store.root())
        .env("HOME", store.dir.path())
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "client checks failed:\nstdout:\n{}\nstderr:\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("mcp client checks passed"));
    // The server's writes are real files through the Save path.
    let dir = store.root().join("pricing-model-refresh");
    let log = std::fs::read_to_string(dir.join("audit.log")).unwrap();
    for event in ["\"create\"", "\"promote\"", "\"save\"", "\"conflict_created\"", "\"link\""] {
        assert!(log.contains(event), "audit lacks {event}:\n{log}");
    }
    assert_eq!(std::fs::read_dir(dir.join("conflicts")).unwrap().count(), 1);
}

/// SPEC §5.1: a harness without a durable session id still gets `dossier_session` — report,
/// bind (switch, saving the previous Dossier first) and clear answer with the binding held in
/// context only and a warning saying so; nothing is written under `sessions/`.
#[test]
fn spec_5_1_session_works_without_a_session_id() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    client_checks(&store, "context-only", "mcp context-only session checks passed");
    // Only the binding asked for explicitly at the end is on disk.
    let files: Vec<_> = std::fs::read_dir(store.root().join("sessions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(files, ["sess-explicit.json"]);
}

/// SPEC §5.1 with a binding whose Dossier folder was removed by hand: `dossier_session`
/// reports the binding with a warning that its Dossier no longer exists (name and id) and
/// next actions to bind another or clear it (docs/mcp.md).
#[test]
fn spec_5_1_session_reports_a_binding_to_a_removed_dossier() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    client_checks(&store, "dead-binding", "mcp dead binding checks passed");
}

/// SPEC §7.2 and §8.3: inside a known harness session (Claude Code's session variable set, no
/// hooks installed) every `dossier_list` item carries the session's capability warnings;
/// `include_warnings: false` leaves them out; outside a session there are none.
#[test]
fn spec_8_3_dossier_list_items_carry_capability_warnings_inside_a_session() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    client_checks(&store, "list-warnings", "mcp list warning checks passed");
}

/// SPEC §8.2 / issue 18 defect 4: every reply stays under Claude Code's ~48 KB cap — a save
/// of a 5.5 KB+ state with 300 uncited claims and of a 500 KB state group their findings (the
/// first three with lines, then a count and the `dossier_recall` call that shows them), the
/// 500 KB state's recall is paged to its last page, and a search for 5,000 hits keeps what
/// fits with a `reply_capped:` warning saying how to get the rest.
#[test]
fn spec_8_2_replies_stay_under_the_cap() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    client_checks(&store, "reply-cap", "mcp reply cap checks passed");
}

#[test]
fn spec_11_3_dossier_search_ranks_pages_with_next_actions_and_refuses_unknown_filters() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    client_checks(&store, "ranked-search", "mcp ranked search checks passed");
}

/// Run `tests/mcp/client_check.py` in `mode` against `store` (no session id in the
/// environment: each mode sets its own) and require its `passed` line.
fn client_checks(store: &TempStore, mode: &str, passed: &str) {
    let script = support::workspace_root().join("tests/mcp/client_check.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(crate::DOSSIER)
        .arg(store.root())
        .arg(mode)
        .env("HOME", store.dir.path())
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .output()
        .expect("python3 runs (the README's test command installs it and the mcp package)");
    assert!(
        out.status.success(),
        "{mode} checks failed:\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(passed), "{mode}: no `{passed}`");
}

/// The audit events of `dir` as JSON values.
fn audit_events(dir: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("audit.log")).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// SPEC §8.7, §2.5 (issue 19): `dossier_merge` first hands the possible conflicts to the agent
/// as a review list (nothing written); the agent's `reviews` then keep both claims of the pairs
/// it judged compatible (audited as the agent's, with its reason, and named in one warning
/// line) and leave contradictions for the user, with the certain conflicts. Through the
/// official client, which has no forms: the `conflict_detected` fallback, both tiers.
#[test]
fn spec_8_7_dossier_merge_hands_possible_conflicts_to_the_agent_for_review_first() {
    use serde_json::json;
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target) = crate::merge::tiered_pair(&store);
    let tdir = store.root().join(&target);
    let before = (std::fs::read_to_string(tdir.join("dossier.md")).unwrap(), audit_events(&tdir).len());
    let args = json!({"source_id": source, "target_id": target});
    let r = support::mcp::McpSession::new(&store, "s1").call("dossier_merge", args.clone()).run();
    assert_eq!(r[0].code(), "conflict_detected", "{:#}", r[0].envelope);
    let d = &r[0].envelope["error"]["details"];
    let review = d["review"].as_array().unwrap_or_else(|| panic!("details.review: {d:#}"));
    // Every possible pair, those the rules think compatible too, with their hint (issue 19,
    // sixth round): the two Findings pairs that may contradict, then two other measures of one
    // kitchen (the Situation framing is kept both without a listing since the seventh round).
    assert_eq!(review.len(), 3, "{d:#}");
    for item in review {
        assert!(item["conflict_id"].as_str().unwrap().starts_with("conf_"), "{item}");
        let section = "Findings";
        for side in ["target", "source"] {
            assert_eq!(item[side]["section"], section, "{item}");
            assert!(!item[side]["text"].as_str().unwrap().is_empty(), "{item}");
        }
    }
    let framing = review.iter().find(|i| i["compatible_hint"].is_string()).unwrap_or_else(|| panic!("{d:#}"));
    assert_eq!(framing["compatible_hint"], "other measures of one thing");
    let framing_id = framing["conflict_id"].as_str().unwrap().to_string();
    assert!(
        r[0].next_actions().iter().any(|n| n.contains("reviews") && n.contains("verdict")),
        "{:?}",
        r[0].next_actions()
    );
    assert!(r[0].next_actions().iter().any(|n| n.contains("contradiction") && n.contains("compatible")));
    let certain = d["certain"][0].as_str().unwrap().to_string();
    assert_eq!(
        (std::fs::read_to_string(tdir.join("dossier.md")).unwrap(), audit_events(&tdir).len()),
        before,
        "the review round writes nothing"
    );
    let conflict_files = || std::fs::read_dir(tdir.join("conflicts")).map_or(0, |d| d.count());
    assert_eq!(conflict_files(), 0, "no conflict files yet");

    let id_of = |needle: &str| {
        review.iter().find(|i| i["target"]["text"].as_str().unwrap().contains(needle)).unwrap()["conflict_id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (tiers_id, churn_id) = (id_of("cron jobs"), id_of("renewals"));
    let review_of = |id: &str, verdict: &str| json!({"conflict_id": id, "verdict": verdict, "reason": format!("{verdict}: one line")});
    let with = |reviews: serde_json::Value, resolved: serde_json::Value| {
        let mut a = args.clone();
        a["reviews"] = reviews;
        if !resolved.is_null() {
            a["resolved_conflicts"] = resolved;
        }
        a
    };
    let good = json!([
        review_of(&tiers_id, "contradiction"),
        review_of(&churn_id, "compatible"),
        review_of(&framing_id, "compatible")
    ]);
    let r = support::mcp::McpSession::new(&store, "s1")
        // An agent's verdict never resolves a certain conflict.
        .call(
            "dossier_merge",
            with(
                json!([
                    review_of(&tiers_id, "contradiction"),
                    review_of(&churn_id, "compatible"),
                    review_of(&framing_id, "compatible"),
                    review_of(&certain, "compatible")
                ]),
                json!(null),
            ),
        )
        // An unknown id, and a possible conflict left without a verdict.
        .call(
            "dossier_merge",
            with(json!([review_of("conf_nope", "compatible"), review_of(&churn_id, "compatible")]), json!(null)),
        )
        .call(
            "dossier_merge",
            with(json!([review_of(&churn_id, "compatible"), review_of(&framing_id, "compatible")]), json!(null)),
        )
        .run();
    let msg = |i: usize| r[i].envelope["error"]["message"].as_str().unwrap().to_string();
    assert_eq!(r[0].code(), "invalid_input", "{:#}", r[0].envelope);
    assert!(msg(0).contains(&certain) && msg(0).contains("certain"), "{}", msg(0));
    assert_eq!(r[0].envelope["error"]["details"]["field"], "reviews.conflict_id");
    assert_eq!(r[1].code(), "invalid_input");
    assert!(msg(1).contains("conf_nope"), "{}", msg(1));
    let valid = r[1].envelope["error"]["details"]["valid"].to_string();
    assert!(valid.contains(&tiers_id) && valid.contains(&churn_id) && !valid.contains(&certain), "{valid}");
    assert_eq!(r[2].code(), "invalid_input");
    assert!(msg(2).contains(&tiers_id), "the missing one is named: {}", msg(2));
    assert_eq!(conflict_files(), 0, "nothing written on a refused review");
    // The fallback: the certain conflict and the pair marked a contradiction, for the user.
    let r = support::mcp::McpSession::new(&store, "s1").call("dossier_merge", with(good.clone(), json!(null))).run();
    assert_eq!(r[0].code(), "conflict_detected", "{:#}", r[0].envelope);
    let d = &r[0].envelope["error"]["details"];
    let left: Vec<(&str, &str)> = d["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_str().unwrap(), c["certainty"].as_str().unwrap()))
        .collect();
    assert_eq!(left, [(certain.as_str(), "certain"), (tiers_id.as_str(), "possible")], "{d:#}");
    assert_eq!(d["agent_compatible"][0]["conflict_id"], churn_id.as_str(), "{d:#}");

    // The user's answers complete it; the compatible pair is the agent's, in one line.
    let resolved =
        json!([{"conflict_id": certain, "choice": "keep_source"}, {"conflict_id": tiers_id, "choice": "keep_target"}]);
    let r = support::mcp::McpSession::new(&store, "s1").call("dossier_merge", with(good, resolved)).run();
    assert!(r[0].ok(), "{:#}", r[0].envelope);
    let lines: Vec<String> = r[0].warnings().into_iter().filter(|w| w.contains(&churn_id)).collect();
    assert_eq!(lines.len(), 1, "one line names the compatible pair: {:?}", r[0].warnings());
    assert!(lines[0].contains("compatible") && lines[0].contains("compatible: one line"), "{}", lines[0]);
    let state = std::fs::read_to_string(tdir.join("dossier.md")).unwrap();
    assert!(
        state.contains("Use SQLite")
            && state.contains("still on the cron jobs")
            && !state.contains("Cron jobs disabled"),
        "{state}"
    );
    assert!(state.contains("renewals move to annual") && state.contains("3x the annual rate"), "{state}");
    let events = audit_events(&tdir);
    let resolved_by = |id: &str| {
        events
            .iter()
            .find(|e| e["event"] == "conflict_resolved" && e["conflict_id"] == id)
            .unwrap_or_else(|| panic!("{id} resolved: {events:#?}"))
            .clone()
    };
    let agent = resolved_by(&churn_id);
    // `agent:<harness>`: the client's name (the Python SDK calls itself `mcp`).
    assert_eq!(agent["actor"], "agent:mcp", "{agent}");
    assert_eq!(agent["reason"], "compatible: one line", "{agent}");
    assert_eq!(agent["verdict"], "compatible");
    assert_eq!(agent["resolution"]["choice"], "keep_both");
    let user = resolved_by(&certain);
    assert!(user.get("verdict").is_none() && user.get("reason").is_none(), "the user's answer, no verdict: {user}");
}

/// Issue 19, eleventh round: the review round also lists the claims each side changes
/// (`details.changed`, with ids), and the agent may name in `flagged` a pair of them that cannot
/// both hold though no rule paired them. A bad flag is `invalid_input` naming the valid ids
/// (nothing written); a good one reaches the user as a pair marked `contradiction` does —
/// here the `conflict_detected` fallback (the official client has no forms), `certainty:
/// possible`, who flagged it — is audited as the agent's with its reason, and named in the
/// result once the user resolves it.
#[test]
fn issue_19_dossier_merge_takes_the_agents_flagged_pairs_of_changed_claims() {
    use serde_json::json;
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target) = crate::merge::tiered_pair(&store);
    let tdir = store.root().join(&target);
    let args = json!({"source_id": source, "target_id": target});
    let r = support::mcp::McpSession::new(&store, "s1").call("dossier_merge", args.clone()).run();
    assert_eq!(r[0].code(), "conflict_detected", "{:#}", r[0].envelope);
    let d = r[0].envelope["error"]["details"].clone();
    let id_of = |side: &str, needle: &str| {
        d["changed"][side]
            .as_array()
            .unwrap_or_else(|| panic!("details.changed.{side}: {d:#}"))
            .iter()
            .find(|c| c["text"].as_str().unwrap().contains(needle))
            .unwrap_or_else(|| panic!("{needle} in details.changed.{side}: {d:#}"))["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (t, s) = (id_of("target", "Average ticket time"), id_of("source", "Replay tool"));
    assert!(t.starts_with("t_") && s.starts_with("s_"), "{t} {s}");
    assert!(d["changed"]["target"][0]["section"].is_string(), "{d:#}");
    assert!(r[0].next_actions().iter().any(|n| n.contains("flagged")), "{:?}", r[0].next_actions());
    let reviews: Vec<serde_json::Value> = d["review"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| json!({"conflict_id": i["conflict_id"], "verdict": "compatible", "reason": "both hold"}))
        .collect();
    let certain = d["certain"][0].as_str().unwrap().to_string();
    let with = |flagged: serde_json::Value, resolved: serde_json::Value| {
        let mut a = args.clone();
        a["reviews"] = json!(reviews);
        a["flagged"] = flagged;
        if !resolved.is_null() {
            a["resolved_conflicts"] = resolved;
        }
        a
    };
    let flag = |t: &str, s: &str, reason: &str| json!([{"target": t, "source": s, "reason": reason}]);
    let before = (std::fs::read_to_string(tdir.join("dossier.md")).unwrap(), audit_events(&tdir).len());
    let r = support::mcp::McpSession::new(&store, "s1")
        .call("dossier_merge", with(flag("t_nope", &s, "x"), json!(null)))
        .call("dossier_merge", with(flag(&t, &t, "x"), json!(null)))
        .call("dossier_merge", with(flag(&t, &s, ""), json!(null)))
        .call("dossier_merge", with(json!([{"target": t, "source": s, "reason": "x", "why": "y"}]), json!(null)))
        .run();
    for (i, reply) in r.iter().enumerate() {
        assert_eq!(reply.code(), "invalid_input", "{i}: {:#}", reply.envelope);
    }
    let e = &r[0].envelope["error"];
    assert!(e["message"].as_str().unwrap().contains("t_nope") && e["message"].as_str().unwrap().contains(&t), "{e}");
    assert!(e["details"]["valid"]["source"].to_string().contains(&s), "{e}");
    assert_eq!(
        (std::fs::read_to_string(tdir.join("dossier.md")).unwrap(), audit_events(&tdir).len()),
        before,
        "a refused flag writes nothing"
    );
    assert!(!tdir.join("conflicts").exists() || std::fs::read_dir(tdir.join("conflicts")).unwrap().count() == 0);

    // A good flag: the user is asked about it (here conflict_detected), with who flagged it.
    let reason = "a ticket time cannot be measured by a prototype replay tool";
    let r = support::mcp::McpSession::new(&store, "s1")
        .call("dossier_merge", with(flag(&t, &s, reason), json!(null)))
        .run();
    assert_eq!(r[0].code(), "conflict_detected", "{:#}", r[0].envelope);
    let d = &r[0].envelope["error"]["details"];
    let flagged = d["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "flagged_by_reviewer")
        .unwrap_or_else(|| panic!("{d:#}"))
        .clone();
    assert_eq!(
        (flagged["certainty"].as_str(), flagged["flagged"]["by"].as_str()),
        (Some("possible"), Some("agent:mcp"))
    );
    assert_eq!(flagged["flagged"]["reason"], reason);
    assert!(flagged["target"]["text"].as_str().unwrap().contains("Average ticket time"), "{flagged}");
    assert!(flagged["source"]["text"].as_str().unwrap().contains("Replay tool"), "{flagged}");
    let fid = flagged["id"].as_str().unwrap().to_string();
    assert_eq!(d["agent_flagged"][0]["conflict_id"], fid.as_str(), "{d:#}");
    let msg = r[0].envelope["error"]["message"].as_str().unwrap();
    assert!(msg.contains("flagged by agent:mcp"), "{msg}");
    let events = audit_events(&tdir);
    let created = events
        .iter()
        .find(|e| e["event"] == "conflict_created" && e["conflict_id"] == fid.as_str())
        .unwrap_or_else(|| panic!("{events:#?}"));
    assert_eq!((created["actor"].as_str(), created["reason"].as_str()), (Some("agent:mcp"), Some(reason)));

    // The user keeps the source's claim: it takes the target claim's place; one line names it.
    let resolved =
        json!([{"conflict_id": certain, "choice": "keep_target"}, {"conflict_id": fid, "choice": "keep_source"}]);
    let r =
        support::mcp::McpSession::new(&store, "s1").call("dossier_merge", with(flag(&t, &s, reason), resolved)).run();
    assert!(r[0].ok(), "{:#}", r[0].envelope);
    assert!(r[0].warnings().iter().any(|w| w.contains(&fid) && w.contains(reason)), "{:?}", r[0].warnings());
    let state = std::fs::read_to_string(tdir.join("dossier.md")).unwrap();
    assert!(!state.contains("Average ticket time") && state.contains("Replay tool prototyped"), "{state}");
    let events = audit_events(&tdir);
    let resolved =
        events.iter().find(|e| e["event"] == "conflict_resolved" && e["conflict_id"] == fid.as_str()).unwrap();
    assert_eq!(resolved["flagged_by"], "agent:mcp", "{resolved}");
}
