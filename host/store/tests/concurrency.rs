//! Saves from a stale base revision in-process (SPEC §11.5): non-overlapping field edits
//! auto-merge and are audited; a changed Distilled State, an overlapping field or an unknown
//! base is `concurrent_edit` with the proposal kept in a conflict file and `dossier.md`
//! untouched; threads saving at once lose no proposal.

use std::path::PathBuf;

use dossier_store::Code;
use dossier_store::model::EventKind;
use dossier_store::progress::SILENT;
use dossier_store::save::{self, FrontmatterUpdates, SaveRequest};
use serde_json::json;

use crate::common::{Fixture, audit, changed, doc, events, text_artifact, tree};

fn fields(base: &str, u: FrontmatterUpdates) -> SaveRequest {
    SaveRequest { base_revision: Some(base.into()), updates: u, actor: "test".into(), ..Default::default() }
}

fn state(base: &str, body: &str) -> SaveRequest {
    SaveRequest {
        base_revision: Some(base.into()),
        distilled_state: Some(body.into()),
        actor: "other".into(),
        session_id: Some("s2".into()),
        ..Default::default()
    }
}

#[test]
fn a_stale_base_with_only_non_overlapping_field_edits_is_auto_merged_and_audited() {
    let f = Fixture::new();
    let base = f.create("Merge me").revision;
    let lead = save::save(
        &f.app,
        "merge-me",
        fields(&base, FrontmatterUpdates { lead: Some("Bob".into()), ..Default::default() }),
        &SILENT,
    )
    .unwrap();
    // A body change since the base does not overlap a field edit either.
    let body = f.save_state("merge-me", "# Merge me\n\n## Situation\n\nTheirs.\n");
    let out = save::save(
        &f.app,
        "merge-me",
        fields(&base, FrontmatterUpdates { next_action: Some("Merged next".into()), ..Default::default() }),
        &SILENT,
    )
    .unwrap();
    assert!(out.auto_merged);
    assert_eq!(out.before_revision.as_deref(), Some(body.revision.as_str()), "applied on the current revision");
    assert_ne!(lead.revision, body.revision);
    assert_eq!(
        out.warnings,
        [format!("auto-merged: the Dossier changed since {base} but not in the fields you updated")]
    );
    let d = doc(&out.path);
    assert_eq!((d.frontmatter.lead.as_deref(), d.frontmatter.next_action.as_str()), (Some("Bob"), "Merged next"));
    assert_eq!(d.body, "# Merge me\n\n## Situation\n\nTheirs.\n", "the other save's state is kept");
    let last = audit(&out.path).last().unwrap().clone();
    assert_eq!((last["event"].as_str(), last["auto_merged"].as_bool()), (Some("save"), Some(true)));
    assert_eq!(last["base_revision"], json!(base));
    assert_eq!(last["fields_changed"], json!(["next_action"]));
    assert_eq!(last["before_revision"], json!(body.revision));
}

#[test]
fn a_stale_base_with_an_overlapping_field_or_an_unknown_base_is_a_conflict() {
    let f = Fixture::new();
    let base = f.create("Race").revision;
    let next = |s: &str| FrontmatterUpdates { next_action: Some(s.into()), ..Default::default() };
    save::save(&f.app, "race", fields(&base, next("First")), &SILENT).unwrap();
    let head = std::fs::read(f.dossier("race").join("dossier.md")).unwrap();
    for (what, base) in [("overlapping field", base.as_str()), ("unknown base", "rev_unknown")] {
        let e = save::save(&f.app, "race", fields(base, next("Second")), &SILENT).unwrap_err();
        assert_eq!(e.code, Code::ConcurrentEdit, "{what}: {e}");
        assert_eq!(std::fs::read(f.dossier("race").join("dossier.md")).unwrap(), head, "{what}");
        let conflict = std::fs::read_to_string(e.details["conflict_path"].as_str().unwrap()).unwrap();
        assert!(conflict.contains("next_action: Second"), "{what}: {conflict}");
        assert!(
            conflict.ends_with("\n(No Distilled State change was proposed; see frontmatter_updates.)\n"),
            "{conflict}"
        );
    }
    assert_eq!(events(&f.dossier("race")), ["create", "save", "conflict_created", "conflict_created"]);
}

#[test]
fn a_stale_distilled_state_is_kept_as_a_conflict_file_and_never_overwrites() {
    let f = Fixture::new();
    let dir = f.create("Race").path;
    let base = save::revision(&dir).unwrap();
    let theirs = f.save_state("race", "# Race\n\n## Situation\n\nTheirs.\n");
    let before = tree(f.root());

    let e = save::save(&f.app, "race", state(&base, "# Race\n\n## Situation\n\nMine.\n"), &SILENT).unwrap_err();
    assert_eq!(e.code, Code::ConcurrentEdit);
    let id = e.details["conflict_id"].as_str().unwrap().to_string();
    let path = PathBuf::from(e.details["conflict_path"].as_str().unwrap());
    assert!(id.starts_with("conf_"), "{id}");
    assert_eq!(path, dir.join("conflicts").join(format!("{id}.md")));
    assert_eq!(
        (e.details["base_revision"].clone(), e.details["current_revision"].clone()),
        (json!(base), json!(theirs.revision))
    );
    assert_eq!(
        e.message,
        format!(
            "the Dossier changed since {base} (now {}); your proposal was kept in {} and nothing else changed",
            theirs.revision,
            path.display()
        )
    );
    let next = e.next_actions(dossier_store::next::Surface::Cli);
    assert!(next[0].contains(&theirs.revision), "{next:?}");
    // Only the conflict file and one audit line were written.
    let mut written = changed(&before, &tree(f.root()));
    written.sort();
    assert_eq!(written, ["race/audit.log".to_string(), format!("race/conflicts/{id}.md")]);
    let (header, body) =
        save::split_conflict(&std::fs::read_to_string(&path).unwrap()).map(|(h, b)| (h, b.to_string())).unwrap();
    assert_eq!(body, "\n# Race\n\n## Situation\n\nMine.\n");
    for (key, value) in [
        ("id", json!(id)),
        ("dossier_id", json!(theirs.id)),
        ("kind", json!("concurrent_edit")),
        ("base_revision", json!(base)),
        ("current_revision", json!(theirs.revision)),
        ("actor", json!("other")),
        ("session_id", json!("s2")),
        ("resolved", json!(false)),
    ] {
        assert_eq!(header.get(key), Some(&value), "{key}: {header:?}");
    }
    let last = audit(&dir).last().unwrap().clone();
    assert_eq!((last["event"].as_str(), last["conflict_id"].as_str()), (Some("conflict_created"), Some(id.as_str())));
    assert_eq!((last["before_revision"].clone(), last["base_revision"].clone()), (json!(theirs.revision), json!(base)));
    assert!(last.get("after_revision").is_none(), "a conflict does not write dossier.md: {last}");
}

#[test]
fn a_stale_proposal_still_archives_its_artifacts_and_names_the_new_revision() {
    let f = Fixture::new();
    let dir = f.create("Race").path;
    let base = save::revision(&dir).unwrap();
    let theirs = f.save_state("race", "# Race\n\nTheirs.\n");
    let head = std::fs::read(dir.join("dossier.md")).unwrap();
    let mut req = state(&base, "# Race\n\nMine.\n");
    req.artifacts = vec![text_artifact("evidence", "line 1\n")];
    let e = save::save(&f.app, "race", req, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::ConcurrentEdit);
    let now = save::revision(&dir).unwrap();
    assert_ne!(now, theirs.revision, "the captured artifact is in the archive");
    assert_eq!(e.details["current_revision"], json!(now));
    assert_eq!(std::fs::read(dir.join("dossier.md")).unwrap(), head);
    let conflict = std::fs::read_to_string(e.details["conflict_path"].as_str().unwrap()).unwrap();
    let last = audit(&dir).last().unwrap().clone();
    let art = last["artifacts_added"][0].as_str().unwrap().to_string();
    assert!(dir.join("artifacts").join(format!("{art}.txt")).is_file());
    assert!(conflict.contains(&art), "{conflict}");
    // Reapplying on the revision the error named succeeds.
    let out = save::save(&f.app, "race", state(&now, "# Race\n\nMine, reapplied.\n"), &SILENT).unwrap();
    assert_eq!((out.event, out.auto_merged), (EventKind::Save, false));
}

/// 8 threads × 25 saves of a state, half from a stale base: every proposal is either the
/// audited result of a save or kept in its conflict file.
#[test]
fn concurrent_saves_lose_no_proposal() {
    let f = Fixture::new();
    let dir = f.create("Hot").path;
    let base = save::revision(&dir).unwrap();
    let root = f.root().to_path_buf();
    let results: Vec<(String, Result<String, PathBuf>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let base = base.clone();
                let root = root.clone();
                s.spawn(move || {
                    let app = crate::common::app_at(&root);
                    let mut seen = base.clone();
                    let mut out = Vec::new();
                    for i in 0..25 {
                        let marker = format!("proposal-{t}-{i}");
                        let b = if i % 2 == 0 { base.clone() } else { seen.clone() };
                        let req = state(&b, &format!("# Hot\n\n## Situation\n\n{marker}\n"));
                        match save::save(&app, "hot", req, &SILENT) {
                            Ok(o) => {
                                seen = o.revision.clone();
                                out.push((marker, Ok(o.revision)));
                            }
                            Err(e) => {
                                assert_eq!(e.code, Code::ConcurrentEdit, "{e}");
                                seen = e.details["current_revision"].as_str().unwrap().to_string();
                                out.push((marker, Err(PathBuf::from(e.details["conflict_path"].as_str().unwrap()))));
                            }
                        }
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.len(), 200);
    let log = audit(&dir);
    let saved: Vec<&str> =
        log.iter().filter(|e| e["event"] == "save").map(|e| e["after_revision"].as_str().unwrap()).collect();
    let mut ok = 0;
    for (marker, r) in &results {
        match r {
            Ok(rev) => {
                ok += 1;
                assert!(saved.contains(&rev.as_str()), "{marker} saved as {rev} but not audited");
            }
            Err(path) => {
                let text = std::fs::read_to_string(path).unwrap();
                assert!(text.contains(marker.as_str()), "{marker} missing from its conflict file");
            }
        }
    }
    assert!(ok >= 1, "some saves from the current revision succeed");
    assert_eq!(saved.len(), ok, "one audit line per successful save");
    assert_eq!(std::fs::read_dir(dir.join("conflicts")).unwrap().count(), 200 - ok);
    assert_eq!(log.iter().filter(|e| e["event"] == "conflict_created").count(), 200 - ok);
    // Each successful save was on the revision before it: the chain is unbroken.
    let chain: Vec<&serde_json::Value> = log.iter().filter(|e| e.get("after_revision").is_some()).collect();
    for w in chain.windows(2) {
        assert_eq!(w[1]["before_revision"], w[0]["after_revision"]);
    }
    // The head is the last successful proposal, whole.
    let last = *saved.last().unwrap();
    let (marker, _) = results.iter().find(|(_, r)| r.as_ref().is_ok_and(|rev| rev == last)).unwrap();
    assert_eq!(doc(&dir).body, format!("# Hot\n\n## Situation\n\n{marker}\n"));
    let stray: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert!(stray.is_empty(), "stray temp files: {stray:?}");
}

/// SPEC §11.5 (issue 18, defect 10): another writer changed only frontmatter fields since the
/// base (here `status`), so a Distilled State save from that base auto-merges: the new state
/// on top of their fields, audited with the base. Any doubt is still a conflict: a field the
/// save also changes, or a change the audit log does not account for (a hand edit).
#[test]
fn spec_11_5_a_state_save_over_only_other_fields_changed_since_its_base_auto_merges() {
    let f = Fixture::new();
    let dir = f.create("Safe one").path;
    let base = save::revision(&dir).unwrap();
    let waiting = FrontmatterUpdates { status: Some(dossier_store::model::Status::Waiting), ..Default::default() };
    let theirs = save::save(&f.app, "safe-one", fields_now(waiting.clone()), &SILENT).unwrap();
    let mine = "# Safe one\n\n## Situation\n\nMine.\n";
    let out = save::save(&f.app, "safe-one", state(&base, mine), &SILENT).unwrap();
    assert!(out.auto_merged);
    assert_eq!(out.before_revision.as_deref(), Some(theirs.revision.as_str()));
    assert!(out.warnings.iter().any(|w| w.starts_with("auto-merged")), "{:?}", out.warnings);
    let d = doc(&dir);
    assert_eq!(d.body, mine);
    assert_eq!(d.frontmatter.status, dossier_store::model::Status::Waiting, "their field is kept");
    let last = audit(&dir).last().unwrap().clone();
    assert_eq!((last["event"].as_str(), last["auto_merged"].as_bool()), (Some("save"), Some(true)));
    assert_eq!((last["base_revision"].clone(), last["body_changed"].as_bool()), (json!(base), Some(true)));

    // The same field changed on both sides: a conflict, nothing written but the proposal.
    let base = out.revision.clone();
    save::save(
        &f.app,
        "safe-one",
        fields_now(FrontmatterUpdates { status: Some(dossier_store::model::Status::Blocked), ..Default::default() }),
        &SILENT,
    )
    .unwrap();
    let head = std::fs::read(dir.join("dossier.md")).unwrap();
    let mut req = state(&base, "# Safe one\n\n## Situation\n\nMine again.\n");
    req.updates = waiting;
    let e = save::save(&f.app, "safe-one", req, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::ConcurrentEdit, "{e}");
    assert_eq!(std::fs::read(dir.join("dossier.md")).unwrap(), head);

    // A hand edit since the base (not in the audit log): the body may differ, so a conflict.
    let base = save::revision(&dir).unwrap();
    let text = String::from_utf8(head).unwrap().replace("status: blocked", "status: active");
    std::fs::write(dir.join("dossier.md"), &text).unwrap();
    let e = save::save(&f.app, "safe-one", state(&base, "# Safe one\n\nThird.\n"), &SILENT).unwrap_err();
    assert_eq!(e.code, Code::ConcurrentEdit, "{e}");
    assert_eq!(std::fs::read_to_string(dir.join("dossier.md")).unwrap(), text);
}

fn fields_now(u: FrontmatterUpdates) -> SaveRequest {
    SaveRequest { updates: u, actor: "test".into(), ..Default::default() }
}
