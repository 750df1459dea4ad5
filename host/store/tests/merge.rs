//! Merging two Dossiers in-process (SPEC §8.7) through `dossier_store::merge` and the Save
//! path's `save::merge`, decided by the native merge policy: a clean merge converges, copies
//! the archive, archives the source and keeps its files, and is a no-op when re-run; a merge
//! with unresolved conflicts writes only conflict files and audit lines; resolutions apply.

use std::collections::BTreeMap;
use std::path::Path;

use dossier_store::Code;
use dossier_store::listing;
use dossier_store::merge::{self, ChoiceInput, ResolutionInput};
use dossier_store::model::Status;
use dossier_store::progress::SILENT;
use serde_json::json;

use crate::common::{Entry, Fixture, changed, doc, events, tree};

const LOG: &str = "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\n";
const PG: &str = "Use Postgres for the event store because billing needs transactional joins.";
const SQLITE: &str = "Use SQLite for the event store since a single writer is enough.";

fn target_state(decision: &str) -> String {
    format!(
        "# Event ingestion\n\n## Situation\n\nPartner webhooks go into one event store.\n\n## Decisions\n\n\
- {decision} Decided by Alice. [src:{{0}}#L1-L3]\n\n## Findings\n\n\
- Peak load is 1,200 events per second during invoicing runs. [src:{{0}}#L4-L5]\n\n\
## Current State\n\nSchema draft reviewed. [src:{{0}}#L6-L6]\n\n## Next Steps\n\n- Benchmark write throughput.\n"
    )
}

fn source_state(decision: &str) -> String {
    format!(
        "# Webhook pipeline\n\n## Situation\n\nWebhooks are stored for replay.\n\n## Decisions\n\n\
- {decision} Decided by Alice. [src:{{0}}#L2-L4]\n\n## Findings\n\n\
- Replays must finish within 10 minutes for a day of events. [src:{{0}}#L7-L8]\n\n\
## Current State\n\nReplay tool prototyped. [src:{{0}}#L9-L10]\n\n## Next Steps\n\n- Benchmark write throughput.\n"
    )
}

struct Pair {
    source: String,
    target: String,
    sids: Vec<String>,
    tids: Vec<String>,
}

/// A pair that merges cleanly (the same decision restated, distinct findings) or, with
/// `contradict`, with a contradictory decision.
fn pair(f: &Fixture, contradict: bool) -> Pair {
    let (target, tids) =
        f.make("Event ingestion", "Benchmark write throughput", &target_state(PG), &[("evt.txt", LOG)]);
    let decision = if contradict { SQLITE } else { PG };
    let (source, sids) =
        f.make("Webhook pipeline", "Benchmark write throughput", &source_state(decision), &[("hook.txt", LOG)]);
    Pair { source, target, sids, tids }
}

// The store's own `Result` (its error is large; the store's functions return it too).
#[allow(clippy::result_large_err)]
fn run(
    f: &Fixture,
    p: &Pair,
    resolutions: &[ResolutionInput],
) -> dossier_store::Result<dossier_store::save::MergeOutcome> {
    merge::merge(&f.app, &p.source, &p.target, resolutions, "test", &Some("s1".into()), &SILENT)
}

/// Keep both for every conflict of the clean pair, checking that each is one the rules think
/// compatible (issue 19, sixth round: related claims are listed with a compatible hint, never
/// silent). Since the seventh round the clean pair lists none: its Situation framing and the
/// findings that share one word are kept both and counted (`unlisted_related`), not listed.
fn keep_both_probably_compatible(f: &Fixture, p: &Pair) -> Vec<ResolutionInput> {
    let all = merge::conflicts(&f.app, &p.source, &p.target).unwrap();
    assert!(all.iter().all(|c| c.is_probably_compatible()), "{all:?}");
    all.iter().map(|c| resolve(&c.id, ChoiceInput::KeepBoth, None)).collect()
}

fn resolve(id: &str, choice: ChoiceInput, text: Option<&str>) -> ResolutionInput {
    ResolutionInput { conflict_id: id.into(), choice, text: text.map(str::to_string) }
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    tree(dir)
        .into_iter()
        .filter_map(|(p, e)| match e {
            Entry::File(b) => Some((p, b)),
            Entry::Dir => None,
        })
        .collect()
}

/// Positions of `names` in `evs`, asserted increasing.
fn in_order(evs: &[String], names: &[&str]) {
    let pos: Vec<usize> =
        names.iter().map(|n| evs.iter().position(|e| e == n).unwrap_or_else(|| panic!("no {n} in {evs:?}"))).collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{evs:?} not in order {names:?}");
}

#[test]
fn a_clean_merge_converges_copies_the_archive_and_archives_the_source_keeping_its_files() {
    let f = Fixture::new();
    let p = pair(&f, false);
    let (sdir, tdir) = (f.dossier(&p.source), f.dossier(&p.target));
    let source_artifacts = files(&sdir.join("artifacts"));
    let source_before = doc(&sdir);
    let target_before = doc(&tdir);

    let out = run(&f, &p, &keep_both_probably_compatible(&f, &p)).unwrap();
    assert_eq!((out.source_slug.as_str(), out.target_slug.as_str()), (p.source.as_str(), p.target.as_str()));
    assert_eq!(
        (out.source_id.as_str(), out.target_id.as_str()),
        (&*source_before.frontmatter.id, &*target_before.frontmatter.id)
    );
    assert_eq!(out.artifacts_copied, p.sids, "the source's artifacts, sidecars not counted");
    assert!(!out.already_merged);
    assert_eq!(out.target_revision, dossier_store::save::revision(&tdir).unwrap());

    // The converged state has both Dossiers' claims, each with its provenance, once.
    let t = doc(&tdir);
    assert_eq!(t.body.matches("Use Postgres for the event store").count(), 1, "{}", t.body);
    let replay = format!("Replays must finish within 10 minutes for a day of events. [src:{}#L7-L8]", p.sids[0]);
    assert!(t.body.contains(&replay), "{}", t.body);
    assert!(t.body.contains(&format!("[src:{}#L4-L5]", p.tids[0])), "{}", t.body);
    assert_eq!(t.frontmatter.extra["merged_from"], json!([source_before.frontmatter.id]));
    // Every source artifact is in the target's archive byte for byte; the source keeps its own.
    let target_artifacts = files(&tdir.join("artifacts"));
    for (name, bytes) in &source_artifacts {
        assert_eq!(target_artifacts.get(name), Some(bytes), "{name} not copied");
    }
    assert_eq!(files(&sdir.join("artifacts")), source_artifacts, "the source's archive changed");

    let s = doc(&sdir);
    assert_eq!(s.frontmatter.status, Status::Archived);
    assert_eq!(s.frontmatter.extra["merged_into"], json!(t.frontmatter.id));
    assert_eq!(s.body, source_before.body, "the source's Distilled State is kept as it was");

    let (te, se) = (events(&tdir), events(&sdir));
    // merge_started, a conflict_resolved per pair kept both, merge_completed.
    for log in [&te, &se] {
        let start = log.iter().rposition(|e| e == "merge_started").unwrap_or_else(|| panic!("{log:?}"));
        let tail = &log[start + 1..];
        assert_eq!(tail.last().map(String::as_str), Some("merge_completed"), "{log:?}");
        assert!(tail[..tail.len() - 1].iter().all(|e| e == "conflict_resolved"), "{log:?}");
    }
    let tlast = crate::common::audit(&tdir).pop().unwrap();
    assert_eq!((tlast["source_id"].clone(), tlast["target_id"].clone()), (json!(out.source_id), json!(out.target_id)));
    assert_eq!(tlast["artifacts_added"], json!(p.sids));
    assert_eq!(tlast["after_revision"], json!(out.target_revision));
    assert_eq!(tlast["fields_changed"], json!(["merged_from"]));
    let slast = crate::common::audit(&sdir).pop().unwrap();
    assert_eq!((slast["from"].as_str(), slast["to"].as_str()), (Some("active"), Some("archived")));
    assert_eq!(slast["fields_changed"], json!(["status", "merged_into"]));

    // The open-work list no longer shows the source; the whole list still does.
    let open: Vec<String> = listing::list(&f.app, &Status::OPEN, listing::now_millis())
        .unwrap()
        .dossiers
        .into_iter()
        .map(|d| d.slug)
        .collect();
    assert_eq!(open, std::slice::from_ref(&p.target));
    assert_eq!(listing::list(&f.app, &Status::ALL, listing::now_millis()).unwrap().dossiers.len(), 2);

    // A second run is a no-op: nothing in the store changes.
    let before = tree(f.root());
    let again = run(&f, &p, &[]).unwrap();
    assert!(again.already_merged);
    assert!(again.artifacts_copied.is_empty() && again.conflicts_resolved.is_empty());
    assert_eq!(again.target_revision, out.target_revision);
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
}

#[test]
fn unresolved_conflicts_write_only_conflict_files_and_audit_lines() {
    let f = Fixture::new();
    let p = pair(&f, true);
    let (sdir, tdir) = (f.dossier(&p.source), f.dossier(&p.target));
    let before = tree(f.root());

    // The preview writes nothing and names the same conflicts.
    let preview = merge::conflicts(&f.app, &p.source, &p.target).unwrap();
    assert!(preview.iter().all(|c| c.path.is_none()), "not preserved yet");
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());

    let e = run(&f, &p, &[]).unwrap_err();
    assert_eq!(e.code, Code::ConflictDetected, "{e}");
    let conflicts = e.details["conflicts"].as_array().unwrap().clone();
    let ids: Vec<String> = conflicts.iter().map(|c| c["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(ids, preview.iter().map(|c| c.id.clone()).collect::<Vec<_>>());
    let decision = conflicts
        .iter()
        .find(|c| c["kind"] == "contradictory_decision")
        .unwrap_or_else(|| panic!("no contradictory decision in {conflicts:?}"));
    assert!(decision["target"]["text"].as_str().unwrap().contains("Postgres"), "{decision}");
    assert!(decision["source"]["text"].as_str().unwrap().contains("SQLite"), "{decision}");
    assert!(decision["target"]["line"].as_u64().unwrap() > 0);
    assert!(!decision["source"]["provenance"].as_array().unwrap().is_empty());

    // Exactly: one conflict file per conflict in the target, and the two audit logs.
    let mut expected: Vec<String> = ids.iter().map(|id| format!("{}/conflicts/{id}.md", p.target)).collect();
    expected.extend([format!("{}/audit.log", p.source), format!("{}/audit.log", p.target)]);
    expected.sort();
    assert_eq!(changed(&before, &tree(f.root())), expected);
    for dir in [&tdir, &sdir] {
        let evs = events(dir);
        let new: Vec<&str> = evs[evs.len() - 1 - ids.len()..].iter().map(String::as_str).collect();
        let mut want = vec!["merge_conflict"];
        want.extend(std::iter::repeat_n("conflict_created", ids.len()));
        assert_eq!(new, want, "{}", dir.display());
    }
    let file = std::fs::read_to_string(tdir.join("conflicts").join(format!("{}.md", decision["id"].as_str().unwrap())))
        .unwrap();
    let (header, body) = dossier_store::save::split_conflict(&file).unwrap();
    assert_eq!(
        (header["kind"].as_str(), header["conflict_kind"].as_str()),
        (Some("merge"), Some("contradictory_decision"))
    );
    assert_eq!(header["resolved"], json!(false));
    assert!(
        body.contains("## Target: Event ingestion (line ") && body.contains("## Source: Webhook pipeline (line "),
        "{body}"
    );
    assert!(body.contains(PG) && body.contains(SQLITE), "{body}");

    // Asking again gives the same ids and creates no second file (only the merge_conflict line).
    let before = tree(f.root());
    let again = run(&f, &p, &[]).unwrap_err();
    assert_eq!(
        again.details["conflicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect::<Vec<_>>(),
        ids
    );
    let mut logs = [format!("{}/audit.log", p.source), format!("{}/audit.log", p.target)];
    logs.sort();
    assert_eq!(changed(&before, &tree(f.root())), logs);
    assert_eq!(events(&tdir).iter().filter(|e| *e == "conflict_created").count(), ids.len());

    // A resolution naming an unknown conflict is refused and writes nothing.
    let before = tree(f.root());
    assert!(run(&f, &p, &[resolve("conf-nope", ChoiceInput::KeepSource, None)]).is_err());
    let e = run(&f, &p, &[resolve(&ids[0], ChoiceInput::Custom, None)]).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput, "custom needs text: {e}");
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
}

#[test]
fn resolutions_are_applied_audited_and_mark_the_conflict_files_resolved() {
    let f = Fixture::new();
    let p = pair(&f, true);
    let (sdir, tdir) = (f.dossier(&p.source), f.dossier(&p.target));
    let e = run(&f, &p, &[]).unwrap_err();
    let conflicts = e.details["conflicts"].as_array().unwrap().clone();
    let decision =
        conflicts.iter().find(|c| c["kind"] == "contradictory_decision").unwrap()["id"].as_str().unwrap().to_string();
    let resolutions: Vec<ResolutionInput> = conflicts
        .iter()
        .map(|c| {
            let id = c["id"].as_str().unwrap();
            resolve(id, if id == decision { ChoiceInput::KeepSource } else { ChoiceInput::KeepTarget }, None)
        })
        .collect();
    let out = run(&f, &p, &resolutions).unwrap();
    let ids: Vec<String> = resolutions.iter().map(|r| r.conflict_id.clone()).collect();
    assert_eq!(out.conflicts_resolved, ids);
    let state = doc(&tdir).body;
    assert!(state.contains("Use SQLite for the event store") && !state.contains("Use Postgres"), "{state}");
    for c in &conflicts {
        let file =
            std::fs::read_to_string(tdir.join("conflicts").join(format!("{}.md", c["id"].as_str().unwrap()))).unwrap();
        let (header, _) = dossier_store::save::split_conflict(&file).unwrap();
        assert_eq!(header["resolved"], json!(true), "{file}");
        let want = if c["id"] == decision.as_str() { "keep_source" } else { "keep_target" };
        assert_eq!(header["resolution"], json!({ "choice": want }));
    }
    let order = ["merge_conflict", "conflict_created", "merge_started", "conflict_resolved", "merge_completed"];
    in_order(&events(&tdir), &order);
    in_order(&events(&sdir), &order);
    let resolved: Vec<serde_json::Value> =
        crate::common::audit(&tdir).into_iter().filter(|e| e["event"] == "conflict_resolved").collect();
    assert_eq!(resolved.len(), ids.len());
    let d = resolved.iter().find(|e| e["conflict_id"] == decision.as_str()).unwrap();
    assert_eq!(d["resolution"], json!({ "choice": "keep_source" }));
    assert_eq!(doc(&sdir).frontmatter.status, Status::Archived);
}

#[test]
fn keep_both_and_custom_resolutions_are_applied() {
    let custom = "Use Postgres 16 for the event store; SQLite only for local replay. [src:art_none]";
    for (choice, text, expect) in [
        (ChoiceInput::KeepBoth, None, vec!["Postgres for the event store", "SQLite for the event store"]),
        (ChoiceInput::Custom, Some(custom), vec!["Postgres 16"]),
    ] {
        let f = Fixture::new();
        let p = pair(&f, true);
        let e = run(&f, &p, &[]).unwrap_err();
        let resolutions: Vec<ResolutionInput> = e.details["conflicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let id = c["id"].as_str().unwrap();
                if c["kind"] == "contradictory_decision" {
                    resolve(id, choice, text)
                } else {
                    resolve(id, ChoiceInput::KeepTarget, None)
                }
            })
            .collect();
        run(&f, &p, &resolutions).unwrap_or_else(|e| panic!("{choice:?}: {e}"));
        let state = doc(&f.dossier(&p.target)).body;
        for e in expect {
            assert!(state.contains(e), "{choice:?}: {state}");
        }
    }
}

#[test]
fn merge_refuses_the_same_dossier_and_unknown_ones_without_writing() {
    let f = Fixture::new();
    let p = pair(&f, false);
    let before = tree(f.root());
    let e = merge::merge(&f.app, &p.source, &p.source, &[], "test", &None, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput, "{e}");
    let id = doc(&f.dossier(&p.source)).frontmatter.id;
    let e = merge::merge(&f.app, &id, &p.source, &[], "test", &None, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput, "an id and a slug of the same Dossier: {e}");
    let e = merge::merge(&f.app, &p.source, "nope", &[], "test", &None, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::NotFound, "{e}");
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
    // A source merged into one Dossier cannot be merged into another.
    run(&f, &p, &keep_both_probably_compatible(&f, &p)).unwrap();
    let other = f.create("Other").slug;
    let before = tree(f.root());
    let e = merge::merge(&f.app, &p.source, &other, &[], "test", &None, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput, "{e}");
    assert!(e.message.contains("was already merged into"), "{e}");
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
}

/// SPEC §8.7, §8.2 (issue 18, defect 6): a resolution naming a conflict this merge does not
/// raise is the caller's mistake, not a broken policy: `invalid_input` listing the unknown and
/// the valid ids, and nothing written — no conflict file, no audit line.
#[test]
fn spec_8_7_an_unknown_conflict_id_is_invalid_input_listing_the_valid_ids() {
    let f = Fixture::new();
    let p = pair(&f, true);
    let valid: Vec<String> =
        merge::conflicts(&f.app, &p.source, &p.target).unwrap().into_iter().map(|c| c.id).collect();
    assert!(!valid.is_empty());
    let before = tree(f.root());
    let mut resolutions = vec![resolve("conf_nope", ChoiceInput::KeepTarget, None)];
    resolutions.extend(valid.iter().map(|id| resolve(id, ChoiceInput::KeepTarget, None)));
    let e = run(&f, &p, &resolutions).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput, "{e}");
    assert_eq!(e.details["unknown"], json!(["conf_nope"]), "{e}");
    assert_eq!(e.details["valid"], json!(valid), "{e}");
    assert!(e.message.contains("conf_nope") && e.message.contains(&valid[0]), "{e}");
    assert!(!e.next.is_empty(), "{e}");
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new(), "nothing written");

    // A clean merge raises only pairs the rules think compatible: an id outside them is
    // unknown, and `valid` lists exactly those.
    let f = Fixture::new();
    let p = pair(&f, false);
    let hinted: Vec<String> = keep_both_probably_compatible(&f, &p).into_iter().map(|r| r.conflict_id).collect();
    let before = tree(f.root());
    let e = run(&f, &p, &[resolve("conf_nope", ChoiceInput::KeepSource, None)]).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput, "{e}");
    assert_eq!((e.details["unknown"].clone(), e.details["valid"].clone()), (json!(["conf_nope"]), json!(hinted)));
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new(), "nothing written");
}

/// SPEC §12.3: the store converts the older `conf-<hex>` merge conflict ids exactly as the
/// merge policy does (the store does not link the policy; this pins the copy).
#[test]
fn spec_12_3_conflict_ids_older_form_converts_as_the_policy_does() {
    for id in ["conf-0000000000000000", "conf-a4df6287846c8159", "conf-ffffffffffffffff", "conf-nope", "conf_x", ""] {
        let ours = dossier_store::ids::canonical_conflict_id(id);
        assert_eq!(ours, dossier_core::merge::canonical_conflict_id(id), "{id}");
        if id.len() == 21 {
            assert!(ours.starts_with("conf_") && ours.len() == 31, "{ours}");
        }
    }
}

/// Issue 20 ("no secret reaches any file of the store"): an agent's review reason is
/// model-written text; the `conflict_resolved` event that records it is redacted like every
/// other text the store writes.
#[test]
fn issue_20_an_agents_review_reason_is_redacted_in_the_audit_log() {
    let f = Fixture::new();
    let p = pair(&f, true);
    let e = run(&f, &p, &[]).unwrap_err();
    let ids: Vec<String> =
        e.details["conflicts"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect();
    let secret = format!("{}{}", "ghp_", "Zq9Kx3Lm7Wp2Rt8Vn4Bc6Hs1Jf5Ua0Ke3NoiP");
    let resolutions: Vec<ResolutionInput> = ids.iter().map(|id| resolve(id, ChoiceInput::KeepBoth, None)).collect();
    let reviewed: Vec<dossier_store::save::Reviewed> = ids
        .iter()
        .map(|id| dossier_store::save::Reviewed {
            conflict_id: id.clone(),
            actor: "agent:test".into(),
            reason: format!("compatible: the token {secret} was pasted by mistake"),
        })
        .collect();
    merge::merge_reviewed(
        &f.app,
        &p.source,
        &p.target,
        &resolutions,
        &reviewed,
        &[],
        "test",
        &Some("s1".into()),
        &SILENT,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for (path, entry) in tree(f.root()) {
        if let Entry::File(b) = entry {
            assert!(!String::from_utf8_lossy(&b).contains(&secret), "the review reason's secret is in {path}");
        }
    }
    let log = std::fs::read_to_string(f.dossier(&p.target).join("audit.log")).unwrap();
    assert!(log.contains("compatible: the token [REDACTED:github_token:"), "{log}");
}

/// Issue 19, eleventh round: the claims each side changes, with their ids, and an agent's flag.
/// The flag is on the first pair of changed Findings/Current State claims no conflict lists
/// (the target's Schema draft, the source's Replays must finish).
fn flag_on(f: &Fixture, p: &Pair, reason: &str) -> (merge::Review, merge::FlagInput) {
    let r = merge::review(&f.app, &p.source, &p.target, &[], "agent:test").unwrap();
    let id = |l: &[dossier_store::policy::ChangedClaim], words: &str| {
        l.iter().find(|c| c.text.contains(words)).unwrap_or_else(|| panic!("no {words} in {l:?}")).clone()
    };
    let (t, s) = (id(&r.changed_target, "Schema draft"), id(&r.changed_source, "Replays must finish"));
    assert!(!r.conflicts.iter().any(|c| c.target.text == t.text && c.source.text == s.text), "{:?}", r.conflicts);
    let flag = merge::FlagInput { target: t.id, source: s.id, reason: reason.into() };
    (r, flag)
}

/// Issue 19, eleventh round: the review round lists the claims each side changes (not the
/// restated decision), with stable ids, even when the rules list no possible conflict.
#[test]
fn issue_19_the_review_round_lists_the_changed_claims_of_each_side() {
    let f = Fixture::new();
    let p = pair(&f, false);
    let (r, _) = flag_on(&f, &p, "x");
    let texts = |l: &[dossier_store::policy::ChangedClaim]| l.iter().map(|c| c.text.clone()).collect::<Vec<_>>();
    assert_eq!(r.changed_target.len(), 3, "{:?}", texts(&r.changed_target));
    assert_eq!(r.changed_source.len(), 3, "{:?}", texts(&r.changed_source));
    assert!(r.changed_target.iter().chain(&r.changed_source).all(|c| !c.text.contains("Use Postgres")));
    assert_eq!(
        merge::review(&f.app, &p.source, &p.target, &[], "agent:test").unwrap().changed_target,
        r.changed_target
    );
    let e = merge::review_round(&p.source, &p.target, &r, &keep_both_probably_compatible(&f, &p)).expect("due");
    assert_eq!(e.code, Code::ConflictDetected);
    let listed = &e.details["changed"]["target"];
    assert_eq!(listed.as_array().unwrap().len(), 3, "{e}");
    assert_eq!(listed[1]["id"], json!(r.changed_target[1].id));
    assert_eq!(listed[1]["section"], json!("Findings"));
    assert!(e.next.iter().any(|n| format!("{n:?}").contains("flagged")), "{:?}", e.next);
    // The cap: the most related first, in reading order, the rest counted.
    let many: Vec<dossier_store::policy::ChangedClaim> = (0..50)
        .map(|i| dossier_store::policy::ChangedClaim {
            id: format!("t_{i}"),
            section: "Findings".into(),
            text: format!("claim {i}"),
            line: i,
            related: u32::from(i % 2 == 0),
        })
        .collect();
    let (listed, rest) = merge::listed_changed(&many);
    assert_eq!((listed.len(), rest), (merge::MAX_CHANGED_LISTED, 50 - merge::MAX_CHANGED_LISTED));
    assert_eq!(listed.iter().filter(|c| c.related == 1).count(), 25);
    assert!(listed.windows(2).all(|w| w[0].line < w[1].line), "reading order");
    assert_eq!(listed.iter().filter(|c| c.related == 0).map(|c| c.line).collect::<Vec<_>>(), vec![1, 3, 5, 7, 9]);
}

/// Issue 19, eleventh round: a flagged pair is a possible conflict kept as a file like any
/// other, its `conflict_created` event the agent's with its reason; resolved keep_source, the
/// source's claim takes the target's place; `conflict_resolved` names who flagged it.
#[test]
fn issue_19_a_flagged_pair_reaches_the_user_and_is_audited_as_the_agents() {
    let f = Fixture::new();
    let p = pair(&f, false);
    let (_, flag) = flag_on(&f, &p, "a 10-minute replay cannot keep up with the invoicing peak");
    let r = merge::review(&f.app, &p.source, &p.target, std::slice::from_ref(&flag), "agent:test").unwrap();
    assert_eq!(r.flagged.len(), 1);
    let c = r.conflicts.iter().find(|c| c.kind == "flagged_by_reviewer").expect("a flagged conflict");
    assert_eq!((c.certainty, c.flagged.as_ref().map(|n| n.by.as_str())), ("possible", Some("agent:test")));
    assert!(!c.needs_verdict());
    assert_eq!(r.flagged[0].conflict_id, c.id);
    // Nothing resolved: conflict_detected lists it with who flagged it; the file is written.
    let e =
        merge::merge_reviewed(&f.app, &p.source, &p.target, &[], &[], &r.flagged, "mcp", &None, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::ConflictDetected);
    let listed = e.details["conflicts"].as_array().unwrap().iter().find(|v| v["id"] == json!(c.id)).unwrap().clone();
    assert_eq!(
        (listed["certainty"].clone(), listed["flagged"]["by"].clone()),
        (json!("possible"), json!("agent:test"))
    );
    assert!(e.message.contains("flagged by agent:test"), "{e}");
    let tdir = f.dossier(&p.target);
    assert!(tdir.join("conflicts").join(format!("{}.md", c.id)).is_file());
    let created: Vec<serde_json::Value> = crate::common::audit(&tdir)
        .into_iter()
        .filter(|e| e["event"] == "conflict_created" && e["conflict_id"] == json!(c.id))
        .collect();
    assert_eq!(created.len(), 1);
    assert_eq!(created[0]["actor"], json!("agent:test"));
    assert_eq!(created[0]["reason"], json!(flag.reason));
    // Resolved keep_source (and the rules' compatible pairs keep_both): the merge completes.
    let mut res = keep_both_probably_compatible(&f, &p);
    res.push(resolve(&c.id, ChoiceInput::KeepSource, None));
    merge::merge_reviewed(&f.app, &p.source, &p.target, &res, &[], &r.flagged, "mcp", &None, &SILENT).unwrap();
    let body = doc(&tdir).body;
    assert!(!body.contains("Schema draft") && body.contains("## Current State\n\n- Replays must finish"), "{body}");
    let resolved = crate::common::audit(&tdir)
        .into_iter()
        .find(|e| e["event"] == "conflict_resolved" && e["conflict_id"] == json!(c.id))
        .unwrap();
    assert_eq!((resolved["actor"].clone(), resolved["flagged_by"].clone()), (json!("mcp"), json!("agent:test")));
}

/// Issue 19, eleventh round: resolved in the same call (a form answered; no conflict file), the
/// flag is still recorded as the agent's; keep_target drops the source's claim.
#[test]
fn issue_19_a_flag_resolved_at_once_is_still_audited_as_the_agents() {
    let f = Fixture::new();
    let p = pair(&f, false);
    let (_, flag) = flag_on(&f, &p, "they disagree");
    let r = merge::review(&f.app, &p.source, &p.target, std::slice::from_ref(&flag), "agent:test").unwrap();
    let id = r.flagged[0].conflict_id.clone();
    let mut res = keep_both_probably_compatible(&f, &p);
    res.push(resolve(&id, ChoiceInput::KeepTarget, None));
    merge::merge_reviewed(&f.app, &p.source, &p.target, &res, &[], &r.flagged, "mcp", &None, &SILENT).unwrap();
    let tdir = f.dossier(&p.target);
    let body = doc(&tdir).body;
    assert!(body.contains("Schema draft") && !body.contains("Replays must finish"), "{body}");
    let log = crate::common::audit(&tdir);
    let created = log.iter().position(|e| e["event"] == "conflict_created" && e["actor"] == json!("agent:test"));
    let resolved = log.iter().position(|e| e["event"] == "conflict_resolved" && e["conflict_id"] == json!(id));
    assert!(created.is_some() && created < resolved, "{log:?}");
    assert!(!tdir.join("conflicts").join(format!("{id}.md")).exists());
}

/// Issue 19, eleventh round: a flag naming a claim the merge does not change, two claims of
/// one side, or no reason is `invalid_input` naming the valid ids; nothing is written.
#[test]
fn issue_19_a_bad_flag_is_invalid_input_and_writes_nothing() {
    let f = Fixture::new();
    let p = pair(&f, false);
    let (r, flag) = flag_on(&f, &p, "x");
    let before = tree(f.root());
    let bad = [
        merge::FlagInput { target: "t_nope".into(), ..flag.clone() },
        merge::FlagInput { source: flag.target.clone(), ..flag.clone() },
        merge::FlagInput { reason: " ".into(), ..flag.clone() },
    ];
    for b in bad {
        let e = merge::review(&f.app, &p.source, &p.target, std::slice::from_ref(&b), "agent:test").unwrap_err();
        assert_eq!(e.code, Code::InvalidInput, "{e}");
        assert_eq!(e.details["field"], json!("flagged"));
        assert_eq!(e.details["valid"]["target"][0], json!(r.changed_target[0].id), "{e}");
        assert!(e.message.contains(&r.changed_source[0].id), "{e}");
    }
    // Stale flags given straight to the merge are refused the same way.
    let stale = dossier_store::save::Flagged {
        conflict_id: "conf_x".into(),
        target_claim: "t_nope".into(),
        source_claim: flag.source.clone(),
        actor: "agent:test".into(),
        reason: "x".into(),
    };
    let e = merge::merge_reviewed(&f.app, &p.source, &p.target, &[], &[], &[stale], "mcp", &None, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput, "{e}");
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new(), "nothing written");
}
