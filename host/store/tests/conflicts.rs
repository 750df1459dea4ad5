//! Conflict files after the fact, in-process (SPEC §11.5): `save::mark_conflict_resolved`
//! marks one resolved and audits it, keeping the file; `conflicts::list`, `find` and
//! `resolve` settle a concurrent-edit conflict through the Save path.

use dossier_store::Code;
use dossier_store::conflicts::{self, Choice};
use dossier_store::progress::SILENT;
use dossier_store::save::{self, SaveRequest};
use serde_json::json;

use crate::common::{Fixture, audit, changed, doc, tree};

/// A Dossier `slug` whose save from its first revision became a conflict: (conflict id, path).
fn stale(f: &Fixture, name: &str, mine: &str) -> (String, std::path::PathBuf) {
    let out = f.create(name);
    f.save_state(&out.slug, &format!("# {name}\n\nTheirs.\n"));
    let req = SaveRequest {
        base_revision: Some(out.revision),
        distilled_state: Some(mine.into()),
        actor: "test".into(),
        ..Default::default()
    };
    let e = save::save(&f.app, &out.slug, req, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::ConcurrentEdit);
    (e.details["conflict_id"].as_str().unwrap().into(), e.details["conflict_path"].as_str().unwrap().into())
}

#[test]
fn mark_conflict_resolved_rewrites_the_header_keeps_the_body_and_audits() {
    let f = Fixture::new();
    let (id, path) = stale(&f, "Race", "# Race\n\nMine.\n");
    let dir = f.dossier("race");
    let text = std::fs::read_to_string(&path).unwrap();
    let (_, body_before) = save::split_conflict(&text).unwrap();
    let body_before = body_before.to_string();
    let before = tree(f.root());
    save::mark_conflict_resolved(&dir, &path, json!({ "choice": "keep_current" }), "alice", &Some("s9".into()))
        .unwrap();
    assert_eq!(changed(&before, &tree(f.root())), ["race/audit.log".to_string(), format!("race/conflicts/{id}.md")]);
    let text = std::fs::read_to_string(&path).unwrap();
    let (header, body) = save::split_conflict(&text).unwrap();
    assert_eq!(body, body_before, "the proposal is kept");
    assert_eq!((header["id"].as_str(), header["kind"].as_str()), (Some(id.as_str()), Some("concurrent_edit")));
    assert_eq!(
        (header["resolved"].clone(), header["resolution"].clone()),
        (json!(true), json!({ "choice": "keep_current" }))
    );
    assert!(header["resolved_at"].as_str().is_some_and(|t| dossier_store::model::parse_timestamp(t).is_some()));
    let last = audit(&dir).pop().unwrap();
    assert_eq!((last["event"].as_str(), last["conflict_id"].as_str()), (Some("conflict_resolved"), Some(id.as_str())));
    assert_eq!((last["actor"].as_str(), last["session_id"].as_str()), (Some("alice"), Some("s9")));
    assert_eq!(last["resolution"], json!({ "choice": "keep_current" }));
    assert_eq!(last["dossier_id"], json!(doc(&dir).frontmatter.id));

    // A file that is not a conflict file is refused and left alone.
    let bogus = dir.join("conflicts").join("bogus.md");
    std::fs::write(&bogus, "just text\n").unwrap();
    let before = tree(f.root());
    let e = save::mark_conflict_resolved(&dir, &bogus, json!({}), "alice", &None).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput);
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
}

#[test]
fn a_concurrent_edit_conflict_is_listed_found_and_resolved_through_the_save_path() {
    let f = Fixture::new();
    let (id, path) = stale(&f, "Shared", "# Shared\n\nSchema rejected.\n");
    let dir = f.dossier("shared");
    let listed = conflicts::list(&f.app, None, false).unwrap();
    assert_eq!(listed.len(), 1);
    let c = &listed[0];
    assert_eq!(
        (c.id.as_str(), c.kind.as_str(), c.slug.as_str(), c.resolved),
        (id.as_str(), "concurrent_edit", "shared", false)
    );
    assert_eq!(c.path, path);
    assert_eq!(conflicts::list(&f.app, Some("shared"), false).unwrap().len(), 1);
    assert_eq!(conflicts::find(&f.app, &id).unwrap().0, path);
    assert_eq!(conflicts::find(&f.app, "conf_nope").unwrap_err().code, Code::NotFound);
    assert_eq!(conflicts::find(&f.app, "../x").unwrap_err().code, Code::InvalidInput);

    let head = save::revision(&dir).unwrap();
    let r = conflicts::resolve(&f.app, &id, Choice::KeepProposal, "test", &None).unwrap();
    assert_eq!((r.conflict_id.as_str(), r.resolution, r.slug.as_str()), (id.as_str(), "keep_proposal", "shared"));
    assert_eq!(doc(&dir).body, "# Shared\n\nSchema rejected.\n");
    assert_eq!(r.revision, save::revision(&dir).unwrap());
    let log = audit(&dir);
    let kinds: Vec<&str> = log.iter().map(|e| e["event"].as_str().unwrap()).collect();
    assert_eq!(&kinds[kinds.len() - 2..], ["save", "conflict_resolved"]);
    assert_eq!(log[log.len() - 2]["before_revision"], json!(head), "saved on top of the current revision");
    assert!(conflicts::list(&f.app, None, false).unwrap().is_empty());
    assert_eq!(conflicts::list(&f.app, None, true).unwrap().len(), 1, "the file is kept");
    let before = tree(f.root());
    let e = conflicts::resolve(&f.app, &id, Choice::KeepCurrent, "test", &None).unwrap_err();
    assert_eq!(e.code, Code::InvalidInput, "already resolved");
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("resolved: true") && text.contains("keep_proposal"), "{text}");
}

#[test]
fn keeping_the_current_state_changes_no_dossier_and_custom_text_is_saved() {
    let f = Fixture::new();
    let (id, _) = stale(&f, "Keep", "# Keep\n\nMine.\n");
    let dir = f.dossier("keep");
    let head = std::fs::read(dir.join("dossier.md")).unwrap();
    let r = conflicts::resolve(&f.app, &id, Choice::KeepCurrent, "test", &None).unwrap();
    assert_eq!(r.resolution, "keep_current");
    assert_eq!(std::fs::read(dir.join("dossier.md")).unwrap(), head);
    assert_eq!(audit(&dir).pop().unwrap()["event"], "conflict_resolved");

    let (id, _) = stale(&f, "Custom", "# Custom\n\nMine.\n");
    let r =
        conflicts::resolve(&f.app, &id, Choice::Text("# Custom\n\nBoth, rewritten.\n".into()), "test", &None).unwrap();
    assert_eq!(r.resolution, "custom");
    assert_eq!(doc(&f.dossier("custom")).body, "# Custom\n\nBoth, rewritten.\n");
}
