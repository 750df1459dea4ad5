//! Level 4: a declared repository slice is read only with explicit consent, and within budget.

use crate::common::{self, Repo, assert_refs_verify, collect};
use dossier_evidence::{ExcerptReason, Level, LevelStatus, Limit, OmissionReason, SliceRequest};

fn repo_with_docs() -> (Repo, String) {
    let repo = Repo::new();
    repo.write("src/lib.rs", "pub fn schedule_job() -> u8 {\n    1\n}\n");
    for i in 0..4 {
        repo.write(&format!("design/part{i}.md"), format!("# Part {i}\n\nSLICE_MARKER_{i}\n"));
    }
    repo.write("design/credentials.json", "{\"token\": \"SLICE_SECRET_FILE\"}\n");
    repo.write("design/.hidden.md", "HIDDEN_MARKER\n");
    let base = repo.commit("base");
    repo.write("src/lib.rs", "pub fn schedule_job() -> u8 {\n    2\n}\n");
    repo.commit("two");
    (repo, base)
}

fn slice(consent: bool) -> Option<SliceRequest> {
    Some(SliceRequest {
        consent,
        paths: vec!["design".into()],
        reason: Some("the scheduler's design is not in the diff".into()),
    })
}

fn slice_level(pack: &dossier_evidence::EvidencePack) -> &dossier_evidence::LevelRecord {
    pack.levels.iter().find(|l| l.level == Level::Slice).unwrap()
}

#[test]
fn without_consent_nothing_is_read() {
    let (repo, base) = repo_with_docs();
    let mut req = repo.range_request(&base, "HEAD");
    req.max_level = Level::Slice;
    req.slice = slice(false);
    let pack = collect(&req).unwrap();
    let json = common::json(&pack);
    assert!(!json.contains("SLICE_MARKER"), "a slice file was read without consent");
    let l4 = slice_level(&pack);
    assert_eq!(l4.status, LevelStatus::Skipped);
    assert!(l4.detail.as_deref().unwrap().contains("no consent"));
    assert!(pack.slice.requested && !pack.slice.consent);
    assert_eq!(pack.slice.files_included, 0);
    assert_eq!(pack.level_reached, Some(Level::Search));
}

#[test]
fn consent_without_max_level_slice_is_not_enough() {
    let (repo, base) = repo_with_docs();
    let mut req = repo.range_request(&base, "HEAD");
    req.slice = slice(true); // max_level stays at Search
    let pack = collect(&req).unwrap();
    assert!(!common::json(&pack).contains("SLICE_MARKER"));
    assert_eq!(slice_level(&pack).status, LevelStatus::NotRequested);
}

#[test]
fn with_consent_the_declared_slice_is_included() {
    let (repo, base) = repo_with_docs();
    let mut req = repo.range_request(&base, "HEAD");
    req.max_level = Level::Slice;
    req.slice = slice(true);
    let pack = collect(&req).unwrap();
    let slice_excerpts: Vec<_> = pack.excerpts.iter().filter(|e| e.reason == ExcerptReason::ConsentSlice).collect();
    let paths: Vec<&str> = slice_excerpts.iter().map(|e| e.evidence.path.as_str()).collect();
    assert_eq!(paths, ["design/part0.md", "design/part1.md", "design/part2.md", "design/part3.md"]);
    assert!(slice_excerpts.iter().all(|e| e.level == Level::Slice && e.evidence.revision == pack.locator.revision));
    assert_eq!(pack.slice.files_included, 4);
    assert_eq!(slice_level(&pack).status, LevelStatus::Complete);
    assert_eq!(pack.level_reached, Some(Level::Slice));
    let json = common::json(&pack);
    assert!(!json.contains("SLICE_SECRET_FILE"), "a sensitive file inside the slice was read");
    assert!(!json.contains("HIDDEN_MARKER"), "hidden files are not walked");
    assert!(pack.budget.omissions.iter().any(|o| o.level == Level::Slice
        && o.reason == OmissionReason::Sensitive
        && o.path.as_deref() == Some("design/credentials.json")));
    assert_refs_verify(&pack);
}

#[test]
fn the_slice_stops_at_the_budget() {
    let (repo, base) = repo_with_docs();
    let mut req = repo.range_request(&base, "HEAD");
    req.max_level = Level::Slice;
    req.slice = slice(true);
    req.budget.max_files = 3; // src/lib.rs + two slice files
    let pack = collect(&req).unwrap();
    assert_eq!(pack.slice.files_included, 2);
    let l4 = slice_level(&pack);
    assert_eq!((l4.status, l4.stopped_by), (LevelStatus::Partial, Some(Limit::Files)));
    assert_eq!(pack.budget.used.files, 3);
    assert!(!common::json(&pack).contains("SLICE_MARKER_2"));
}

#[test]
fn a_missing_declared_path_is_reported() {
    let (repo, base) = repo_with_docs();
    let mut req = repo.range_request(&base, "HEAD");
    req.max_level = Level::Slice;
    req.slice = Some(SliceRequest { consent: true, paths: vec!["nope".into()], reason: None });
    let pack = collect(&req).unwrap();
    assert_eq!(pack.slice.files_included, 0);
    assert!(pack.budget.omissions.iter().any(|o| o.path.as_deref() == Some("nope")));
}
