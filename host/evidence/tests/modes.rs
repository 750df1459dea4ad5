//! The locator: working-tree and base/head modes, renames, binary files, deletions, the ladder's
//! level records, EvidenceRef verification, and typed errors.

use crate::common::{self, Repo, assert_refs_verify, collect, rust_module};
use dossier_evidence::{
    Changes, EntryKind, EvidenceError, EvidenceRef, EvidenceRequest, ExcerptReason, FileStatus, HitKind,
    ImplementationLocator, Level, LevelStatus, SliceRequest, VerifyError, WORKTREE, content_hash,
};

fn base_repo() -> (Repo, String) {
    let repo = Repo::new();
    repo.write("src/lib.rs", rust_module("core", 6));
    repo.write("src/util.rs", "pub fn helper() -> u32 {\n    41\n}\n");
    repo.write("src/caller.rs", "use crate::util::helper;\n\npub fn use_it() -> u32 {\n    helper() + 1\n}\n");
    repo.write("README.md", "# Fixture\n");
    let base = repo.commit("base");
    (repo, base)
}

#[test]
fn base_head_mode_lists_excerpts_and_searches() {
    let (repo, base) = base_repo();
    repo.write("src/util.rs", "pub fn helper() -> u32 {\n    42\n}\n\npub fn compute_retry_delay(attempt: u32) -> u32 {\n    attempt * 100\n}\n");
    repo.write("src/caller.rs", "use crate::util::{compute_retry_delay, helper};\n\npub fn use_it() -> u32 {\n    helper() + compute_retry_delay(2)\n}\n");
    let head = repo.commit("retry delay");
    let mut req = repo.range_request(&base, "HEAD");
    req.locator.task = Some("Add a retry delay".into());
    let pack = collect(&req).expect("collect");

    assert_eq!(pack.locator.mode, "revisions");
    assert_eq!(pack.locator.base.commit, base);
    assert_eq!(pack.locator.head.as_ref().unwrap().commit, head);
    assert_eq!(pack.locator.revision, head);
    assert_eq!(pack.locator.task.as_deref(), Some("Add a retry delay"));

    let paths: Vec<&str> = pack.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["src/caller.rs", "src/util.rs"]);
    let util = pack.files.iter().find(|f| f.path == "src/util.rs").unwrap();
    assert_eq!(util.status, FileStatus::Modified);
    assert_eq!((util.added, util.removed), (Some(5), Some(1)));
    assert!(util.symbols.contains(&"compute_retry_delay".to_owned()), "{:?}", util.symbols);
    assert!(util.symbols.contains(&"helper".to_owned()), "{:?}", util.symbols);

    // Level 2: excerpts carry the head commit and cover the changed lines.
    let ex = pack.excerpts.iter().find(|e| e.evidence.path == "src/util.rs").expect("util excerpt");
    assert_eq!(ex.evidence.revision, head);
    assert_eq!(ex.reason, ExcerptReason::ChangedLines);
    assert!(ex.text.contains("compute_retry_delay"));
    assert!(!ex.changed.is_empty());

    // Level 3: searched for the changed symbols. Both files are fully excerpted, so their lines
    // are not repeated as hits.
    assert!(pack.search.symbols.contains(&"compute_retry_delay".to_owned()), "{:?}", pack.search.symbols);
    assert!(pack.search.files_scanned >= 4);
    for h in &pack.search.hits {
        assert!(!(h.evidence.path == "src/util.rs" && h.evidence.revision == head), "hit inside an excerpt: {h:?}");
    }

    let statuses: Vec<(Level, LevelStatus)> = pack.levels.iter().map(|l| (l.level, l.status)).collect();
    assert_eq!(
        statuses,
        [
            (Level::Metadata, LevelStatus::Complete),
            (Level::Excerpts, LevelStatus::Complete),
            (Level::Search, LevelStatus::Complete),
            (Level::Slice, LevelStatus::NotRequested),
        ]
    );
    assert_eq!(pack.level_reached, Some(Level::Search));
    assert!(pack.budget.stopped.is_none());
    assert_refs_verify(&pack);
}

#[test]
fn search_finds_definitions_and_references_elsewhere() {
    let repo = Repo::new();
    repo.write("src/a.rs", "pub fn parse_header(x: &str) -> usize {\n    x.len()\n}\n");
    for i in 0..5 {
        repo.write(
            &format!("src/user{i}.rs"),
            format!("fn f{i}() {{\n    let n = crate::a::parse_header(\"{i}\");\n}}\n"),
        );
    }
    let base = repo.commit("base");
    repo.write("src/a.rs", "pub fn parse_header(x: &str) -> usize {\n    x.trim().len()\n}\n");
    repo.commit("trim");
    let pack = collect(&repo.range_request(&base, "HEAD")).unwrap();
    assert_eq!(pack.search.symbols, ["parse_header"]);
    let refs: Vec<&str> =
        pack.search.hits.iter().filter(|h| h.kind == HitKind::Reference).map(|h| h.evidence.path.as_str()).collect();
    // Capped at max_hits_per_symbol (6 by default): all five callers fit.
    assert_eq!(refs, ["src/user0.rs", "src/user1.rs", "src/user2.rs", "src/user3.rs", "src/user4.rs"]);
    for h in &pack.search.hits {
        assert_eq!(h.evidence.start_line, 2);
        assert_eq!(h.evidence.end_line, 2);
        assert!(h.text.contains("parse_header"));
        // Clean work tree at HEAD: hits carry the head commit.
        assert_eq!(h.evidence.revision, pack.locator.revision);
    }
    assert_refs_verify(&pack);

    // A tighter per-symbol cap is reported.
    let mut req = repo.range_request(&base, "HEAD");
    req.limits.max_hits_per_symbol = 2;
    let pack = collect(&req).unwrap();
    assert_eq!(pack.search.hits.len(), 2);
    assert_eq!(pack.budget.omission_counts.get("search/hit_cap"), Some(&3));
}

#[test]
fn search_hits_in_a_dirty_file_are_labelled_worktree() {
    let repo = Repo::new();
    repo.write("a.py", "def load_settings(path):\n    return path\n");
    repo.write("b.py", "from a import load_settings\n");
    let base = repo.commit("base");
    repo.write("a.py", "def load_settings(path):\n    return str(path)\n");
    repo.commit("str");
    // b.py changes in the work tree after the head commit.
    repo.write("b.py", "from a import load_settings\nload_settings('x')\n");
    let pack = collect(&repo.range_request(&base, "HEAD")).unwrap();
    let hits: Vec<_> = pack.search.hits.iter().filter(|h| h.evidence.path == "b.py").collect();
    assert_eq!(hits.len(), 2);
    assert!(hits.iter().all(|h| h.evidence.revision == WORKTREE));
    assert_refs_verify(&pack);
}

#[test]
fn working_tree_mode_covers_staged_unstaged_and_untracked() {
    let (repo, _) = base_repo();
    repo.write(".gitignore", "target/\n*.log\n");
    repo.commit("ignore");
    repo.write("src/util.rs", "pub fn helper() -> u32 {\n    43\n}\n");
    repo.git(&["add", "src/util.rs"]); // staged
    repo.write("src/caller.rs", "use crate::util::helper;\n\npub fn use_it() -> u32 {\n    helper() * 2\n}\n"); // unstaged
    repo.write("src/new_feature.rs", "pub fn brand_new_thing() -> bool {\n    true\n}\n"); // untracked
    repo.write("target/debug/out.rs", "pub fn ignored() {}\n"); // ignored
    repo.write("debug.log", "noise\n"); // ignored

    let pack = collect(&repo.worktree_request()).unwrap();
    assert_eq!(pack.locator.mode, "worktree");
    assert_eq!(pack.locator.revision, WORKTREE);
    let mut paths: Vec<(&str, FileStatus)> = pack.files.iter().map(|f| (f.path.as_str(), f.status)).collect();
    paths.sort_by_key(|p| p.0);
    assert_eq!(
        paths,
        [
            ("src/caller.rs", FileStatus::Modified),
            ("src/new_feature.rs", FileStatus::Untracked),
            ("src/util.rs", FileStatus::Modified),
        ]
    );
    let new = pack.files.iter().find(|f| f.path == "src/new_feature.rs").unwrap();
    assert_eq!((new.added, new.removed), (Some(3), Some(0)));
    let ex = pack.excerpts.iter().find(|e| e.evidence.path == "src/new_feature.rs").unwrap();
    assert_eq!(ex.reason, ExcerptReason::AddedFile);
    assert_eq!(ex.evidence.revision, WORKTREE);
    assert_eq!((ex.evidence.start_line, ex.evidence.end_line), (1, 3));
    assert!(pack.excerpts.iter().all(|e| e.evidence.revision == WORKTREE));
    assert!(!common::json(&pack).contains("ignored()"), "an ignored file was read");
    assert_refs_verify(&pack);
}

#[test]
fn working_tree_without_commits() {
    let repo = Repo::new();
    repo.write("main.go", "package main\n\nfunc main() {}\n");
    let pack = collect(&repo.worktree_request()).unwrap();
    assert_eq!(pack.files.len(), 1);
    assert_eq!(pack.files[0].status, FileStatus::Untracked);
    assert_eq!(pack.excerpts.len(), 1);
    // Staged in a repository without commits: diffed against the empty tree.
    repo.git(&["add", "main.go"]);
    let pack = collect(&repo.worktree_request()).unwrap();
    assert_eq!(pack.files[0].status, FileStatus::Added);
    assert_eq!(pack.files[0].added, Some(3));
}

#[test]
fn renames_are_reported_with_similarity() {
    let (repo, base) = base_repo();
    repo.git(&["mv", "src/lib.rs", "src/engine.rs"]);
    let mut content = std::fs::read_to_string(repo.path().join("src/engine.rs")).unwrap();
    content.push_str("pub fn engine_extra() {}\n");
    repo.write("src/engine.rs", content);
    repo.commit("rename");
    let pack = collect(&repo.range_request(&base, "HEAD")).unwrap();
    assert_eq!(pack.files.len(), 1, "{:#?}", pack.files);
    let f = &pack.files[0];
    assert_eq!(f.status, FileStatus::Renamed);
    assert_eq!(f.path, "src/engine.rs");
    assert_eq!(f.old_path.as_deref(), Some("src/lib.rs"));
    assert!(f.similarity.unwrap() >= 90);
    assert_eq!((f.added, f.removed), (Some(1), Some(0)));
    let ex = pack.excerpts.iter().find(|e| e.evidence.path == "src/engine.rs").unwrap();
    assert!(ex.text.contains("engine_extra"));
    assert_refs_verify(&pack);
}

#[test]
fn binary_files_are_flagged_and_not_excerpted() {
    let (repo, base) = base_repo();
    let mut bin = vec![0u8, 1, 2, 3, 0, 255];
    bin.extend_from_slice(b"fn not_text() {}\n");
    repo.write("assets/logo.bin", &bin);
    repo.write("README.md", "# Fixture\n\nMore.\n");
    repo.commit("binary");
    let pack = collect(&repo.range_request(&base, "HEAD")).unwrap();
    let f = pack.files.iter().find(|f| f.path == "assets/logo.bin").unwrap();
    assert!(f.binary);
    assert_eq!((f.added, f.removed), (None, None));
    assert!(pack.excerpts.iter().all(|e| e.evidence.path != "assets/logo.bin"));
    assert!(pack.excerpts.iter().any(|e| e.evidence.path == "README.md"));

    // Untracked binary in worktree mode too.
    repo.write("assets/other.bin", &bin);
    let pack = collect(&repo.worktree_request()).unwrap();
    let f = pack.files.iter().find(|f| f.path == "assets/other.bin").unwrap();
    assert!(f.binary);
    assert!(pack.excerpts.is_empty());
}

#[test]
fn deleted_files_are_excerpted_at_the_base() {
    let (repo, base) = base_repo();
    repo.remove("src/util.rs");
    repo.commit("delete");
    let pack = collect(&repo.range_request(&base, "HEAD")).unwrap();
    let f = &pack.files[0];
    assert_eq!(f.status, FileStatus::Deleted);
    assert_eq!((f.added, f.removed), (Some(0), Some(3)));
    let ex = &pack.excerpts[0];
    assert_eq!(ex.reason, ExcerptReason::DeletedFile);
    assert_eq!(ex.evidence.revision, base);
    assert!(ex.text.contains("fn helper"));
    // Its symbol is searched for: the caller still references it.
    assert!(pack.search.hits.iter().any(|h| h.evidence.path == "src/caller.rs" && h.symbol == "helper"));
    assert_refs_verify(&pack);
}

#[test]
fn symlinks_are_listed_not_followed() {
    let (repo, base) = base_repo();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("private.txt"), "OUTSIDE_THE_REPO_CONTENT\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("private.txt"), repo.path().join("link.txt")).unwrap();
    repo.commit("link");
    let pack = collect(&repo.range_request(&base, "HEAD")).unwrap();
    let f = pack.files.iter().find(|f| f.path == "link.txt").unwrap();
    assert_eq!(f.entry, EntryKind::Symlink);
    assert!(f.note.is_some());
    let json = common::json(&pack);
    assert!(!json.contains("OUTSIDE_THE_REPO_CONTENT"));
    // Untracked symlink in worktree mode.
    std::os::unix::fs::symlink(outside.path().join("private.txt"), repo.path().join("link2.txt")).unwrap();
    let pack = collect(&repo.worktree_request()).unwrap();
    assert!(!common::json(&pack).contains("OUTSIDE_THE_REPO_CONTENT"));
}

#[test]
fn refs_verify_and_detect_tampering() {
    let (repo, base) = base_repo();
    repo.write("src/util.rs", "pub fn helper() -> u32 {\n    42\n}\n\npub fn second() -> u32 {\n    2\n}\n");
    repo.commit("second");
    let pack = collect(&repo.range_request(&base, "HEAD")).unwrap();
    let ex = pack.excerpts.iter().find(|e| e.evidence.path == "src/util.rs").unwrap();
    assert_eq!(ex.evidence.content_hash, content_hash(&ex.text));
    assert_eq!(pack.verify(&ex.evidence).unwrap(), ex.text);

    // A sub-span can be cited and verifies.
    let sub = pack.cite("src/util.rs", &ex.evidence.revision, 5, 6).expect("cite");
    assert_eq!(pack.verify(&sub).unwrap(), "pub fn second() -> u32 {\n    2\n");

    let mut bad = ex.evidence.clone();
    bad.content_hash = content_hash("something else");
    assert!(matches!(pack.verify(&bad), Err(VerifyError::HashMismatch { .. })));
    let mut outside = ex.evidence.clone();
    outside.end_line += 100;
    assert!(matches!(pack.verify(&outside), Err(VerifyError::NotInPack { .. })));
    let mut other_rev = ex.evidence.clone();
    other_rev.revision = base.clone();
    assert!(matches!(pack.verify(&other_rev), Err(VerifyError::NotInPack { .. })));

    // Refs round-trip through JSON.
    let json = serde_json::to_string(&ex.evidence).unwrap();
    assert!(json.contains("\"start_line\""));
    assert!(json.contains("\"content_hash\""));
    let back: EvidenceRef = serde_json::from_str(&json).unwrap();
    assert_eq!(back, ex.evidence);
    // So does the whole pack.
    let pack_back: dossier_evidence::EvidencePack = serde_json::from_str(&common::json(&pack)).unwrap();
    assert_eq!(pack_back, pack);
}

#[test]
fn typed_errors() {
    let (repo, _) = base_repo();

    let not_repo = tempfile::tempdir().unwrap();
    let req = EvidenceRequest::new(ImplementationLocator {
        repo: not_repo.path().to_owned(),
        changes: Changes::WorkingTree,
        task: None,
        located: None,
    });
    assert!(matches!(collect(&req), Err(EvidenceError::NotARepository { .. })), "{:?}", collect(&req));

    let mut req = repo.worktree_request();
    req.locator.repo = repo.path().join("does-not-exist");
    assert!(matches!(collect(&req), Err(EvidenceError::NotARepository { .. })));

    let req = repo.range_request("HEAD", "no-such-branch");
    match collect(&req) {
        Err(EvidenceError::UnknownRevision { rev }) => assert_eq!(rev, "no-such-branch"),
        other => panic!("{other:?}"),
    }
    let req = repo.range_request("--output=/tmp/x", "HEAD");
    assert!(matches!(collect(&req), Err(EvidenceError::InvalidRequest { .. })));

    let mut req = repo.worktree_request();
    req.git_program = Some("/nonexistent/bin/git".into());
    let err = collect(&req).unwrap_err();
    assert!(matches!(err, EvidenceError::GitNotFound { .. }), "{err:?}");
    assert!(err.to_string().contains("git is not available"));

    let mut req = repo.worktree_request();
    req.slice = Some(SliceRequest { consent: true, paths: vec!["../outside".into()], reason: None });
    req.max_level = Level::Slice;
    assert!(matches!(collect(&req), Err(EvidenceError::InvalidRequest { .. })));
    req.slice = Some(SliceRequest { consent: true, paths: vec!["/etc".into()], reason: None });
    assert!(matches!(collect(&req), Err(EvidenceError::InvalidRequest { .. })));
}

#[test]
fn subdirectory_locator_resolves_to_the_root() {
    let (repo, base) = base_repo();
    repo.write("src/util.rs", "pub fn helper() -> u32 {\n    7\n}\n");
    repo.commit("seven");
    let mut req = repo.range_request(&base, "HEAD");
    req.locator.repo = repo.path().join("src");
    let pack = collect(&req).unwrap();
    assert_eq!(pack.files[0].path, "src/util.rs");
}

#[test]
fn max_level_stops_the_ladder_where_asked() {
    let (repo, base) = base_repo();
    repo.write("src/util.rs", "pub fn helper() -> u32 {\n    8\n}\n");
    repo.commit("eight");
    let mut req = repo.range_request(&base, "HEAD");
    req.max_level = Level::Metadata;
    let pack = collect(&req).unwrap();
    assert!(pack.excerpts.is_empty());
    assert_eq!(pack.files.len(), 1);
    assert_eq!(pack.level_reached, Some(Level::Metadata));
    assert_eq!(pack.levels[1].status, LevelStatus::NotRequested);
    assert_eq!(pack.levels[2].status, LevelStatus::NotRequested);
}
