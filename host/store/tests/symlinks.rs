//! Symlinks inside a Dossier never lead out of the store (SPEC §3.2, issue 18 defect 1): a
//! Dossier whose `dossier.md`, `artifacts/`, `conflicts/`, `audit.log` or `.lock` is a
//! symbolic link has its writes refused with `invalid_input` (nothing written outside, the
//! link named with its fix) and is never read through the link (recall refuses, search and
//! the listing skip it with a warning); a Dossier directory that is a link out of the store
//! is reported by the listing instead of vanishing.

use std::os::unix::fs::symlink;
use std::path::Path;

use dossier_store::Code;
use dossier_store::listing;
use dossier_store::model::Status;
use dossier_store::progress::SILENT;
use dossier_store::recall;
use dossier_store::save::{self, SaveRequest};
use dossier_store::search::{self, Query};

use crate::common::{Fixture, text_artifact};

/// Every file under `dir` (recursively), as paths relative to it.
fn files_in(dir: &Path) -> Vec<String> {
    crate::common::tree(dir).into_keys().collect()
}

fn save_artifact(f: &Fixture, slug: &str, base: Option<String>) -> dossier_store::error::Result<save::SaveOutcome> {
    let req = SaveRequest {
        base_revision: base,
        artifacts: vec![text_artifact("a.txt", "hi\n")],
        actor: "test".into(),
        ..Default::default()
    };
    save::save(&f.app, slug, req, &SILENT)
}

#[test]
fn spec_3_2_a_symlinked_artifacts_dir_refuses_the_save_and_writes_nothing_outside() {
    let f = Fixture::new();
    let dir = f.create("Safe one").path;
    let out = f.dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::remove_dir_all(dir.join("artifacts")).unwrap();
    symlink(&out, dir.join("artifacts")).unwrap();
    let audit_before = std::fs::read(dir.join("audit.log")).unwrap();
    let md_before = std::fs::read(dir.join("dossier.md")).unwrap();

    let err = save_artifact(&f, "safe-one", Some(save::revision(&dir).unwrap())).unwrap_err();
    assert_eq!(err.code, Code::InvalidInput, "{err}");
    assert!(err.message.contains("artifacts") && err.message.contains(&out.display().to_string()), "{err}");
    let next = err.next_actions(dossier_store::next::Surface::Cli);
    assert!(next.iter().any(|n| n.contains("directory")), "{next:?}");
    assert!(files_in(&out).is_empty(), "written outside the store: {:?}", files_in(&out));
    assert_eq!(std::fs::read(dir.join("audit.log")).unwrap(), audit_before, "nothing audited");
    assert_eq!(std::fs::read(dir.join("dossier.md")).unwrap(), md_before, "nothing saved");
}

#[test]
fn spec_3_2_a_symlinked_conflicts_dir_refuses_the_conflict_and_writes_nothing_outside() {
    let f = Fixture::new();
    let dir = f.create("Race").path;
    let base = save::revision(&dir).unwrap();
    f.save_state("race", "# Race\n\n## Situation\n\nSomeone else.\n");
    let out = f.dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let _ = std::fs::remove_dir_all(dir.join("conflicts"));
    symlink(&out, dir.join("conflicts")).unwrap();

    let req = SaveRequest {
        base_revision: Some(base),
        distilled_state: Some("# Race\n\n## Situation\n\nMine.\n".into()),
        actor: "test".into(),
        ..Default::default()
    };
    let err = save::save(&f.app, "race", req, &SILENT).unwrap_err();
    assert_eq!(err.code, Code::InvalidInput, "{err}");
    assert!(err.message.contains("conflicts"), "{err}");
    assert!(files_in(&out).is_empty(), "written outside the store: {:?}", files_in(&out));
}

#[test]
fn spec_3_2_a_symlinked_audit_log_refuses_the_save_and_the_outside_file_is_untouched() {
    let f = Fixture::new();
    let dir = f.create("Logged").path;
    let outside = f.dir.path().join("elsewhere.log");
    std::fs::write(&outside, "precious\n").unwrap();
    std::fs::remove_file(dir.join("audit.log")).unwrap();
    symlink(&outside, dir.join("audit.log")).unwrap();
    let md_before = std::fs::read(dir.join("dossier.md")).unwrap();

    let req = SaveRequest {
        updates: save::FrontmatterUpdates { next_action: Some("x".into()), ..Default::default() },
        actor: "test".into(),
        ..Default::default()
    };
    let err = save::save(&f.app, "logged", req, &SILENT).unwrap_err();
    assert_eq!(err.code, Code::InvalidInput, "{err}");
    assert!(err.message.contains("audit.log"), "{err}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious\n");
    assert_eq!(std::fs::read(dir.join("dossier.md")).unwrap(), md_before, "nothing saved");
}

#[test]
fn spec_3_2_a_symlinked_lock_file_refuses_the_save() {
    let f = Fixture::new();
    let dir = f.create("Locked").path;
    let outside = f.dir.path().join("lock-target");
    std::fs::write(&outside, "").unwrap();
    let _ = std::fs::remove_file(dir.join(".lock"));
    symlink(&outside, dir.join(".lock")).unwrap();
    let err = save_artifact(&f, "locked", None).unwrap_err();
    assert_eq!(err.code, Code::InvalidInput, "{err}");
    assert!(err.message.contains(".lock"), "{err}");
}

/// A Dossier `secret-ish` whose `dossier.md` is a link to a valid Dossier file outside the
/// store, holding `SECRET-OUTSIDE`.
fn linked_dossier_md(f: &Fixture) -> std::path::PathBuf {
    let dir = f.create("Secret ish").path;
    let outside = f.dir.path().join("outside.md");
    let text = std::fs::read_to_string(dir.join("dossier.md"))
        .unwrap()
        .replace("## Situation", "## Situation\n\nSECRET-OUTSIDE");
    std::fs::write(&outside, text).unwrap();
    std::fs::remove_file(dir.join("dossier.md")).unwrap();
    symlink(&outside, dir.join("dossier.md")).unwrap();
    outside
}

#[test]
fn spec_3_2_recall_never_returns_content_through_a_symlinked_dossier_md() {
    let f = Fixture::new();
    linked_dossier_md(&f);
    let err = recall::recall(&f.app, "secret-ish", None).unwrap_err();
    assert_eq!(err.code, Code::InvalidInput, "{err}");
    assert!(err.message.contains("dossier.md") && !err.message.contains("SECRET-OUTSIDE"), "{err}");
}

#[test]
fn spec_3_2_search_and_listing_skip_a_symlinked_dossier_md_with_a_warning() {
    let f = Fixture::new();
    linked_dossier_md(&f);
    f.create("Plain");
    let q = Query { text: "SECRET-OUTSIDE", regex: false, dossier: None, limit: 10 };
    let r = search::search(&f.app, &q, &SILENT).unwrap();
    assert_eq!(r.total_hits, 0, "outside content returned: {:?}", r.results);
    assert!(r.warnings.iter().any(|w| w.contains("secret-ish") && w.contains("symbolic link")), "{:?}", r.warnings);
    let q = Query { text: "SECRET-OUTSIDE", regex: false, dossier: Some("secret-ish"), limit: 10 };
    assert_eq!(search::search(&f.app, &q, &SILENT).unwrap_err().code, Code::InvalidInput);

    let l = listing::list(&f.app, &Status::ALL, listing::now_millis()).unwrap();
    assert_eq!(l.dossiers.iter().map(|d| d.slug.as_str()).collect::<Vec<_>>(), ["plain"]);
    assert!(l.warnings.iter().any(|w| w.contains("secret-ish") && w.contains("symbolic link")), "{:?}", l.warnings);
}

#[test]
fn spec_3_2_a_dossier_directory_linked_out_of_the_store_is_reported_by_the_listing() {
    let f = Fixture::new();
    let dir = f.create("Away").path;
    let elsewhere = f.dir.path().join("elsewhere");
    std::fs::rename(&dir, &elsewhere).unwrap();
    symlink(&elsewhere, &dir).unwrap();
    let l = listing::list(&f.app, &Status::ALL, listing::now_millis()).unwrap();
    assert!(l.dossiers.is_empty());
    assert!(
        l.warnings.iter().any(|w| w.contains("away")
            && w.contains("outside the store")
            && w.contains(&elsewhere.display().to_string())),
        "{:?}",
        l.warnings
    );
}
