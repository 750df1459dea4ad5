//! Budgets: each limit (files, bytes, tokens, time) is enforced at every level and reported —
//! used against limit, which level stopped and why, what was left out.

use crate::common::{self, Repo, assert_refs_verify, collect, collect_with, rust_module};
use dossier_evidence::{EvidencePack, Level, LevelStatus, Limit, OmissionReason, TokenCounter};

/// Five changed Rust files, each with several functions, plus callers elsewhere.
fn five_file_change() -> (Repo, String) {
    let repo = Repo::new();
    for i in 0..5 {
        repo.write(&format!("src/m{i}.rs"), rust_module(&format!("m{i}"), 8));
        repo.write(&format!("src/use{i}.rs"), format!("fn u() {{ crate::m{i}::m{i}_step_3(\"x\"); }}\n"));
    }
    let base = repo.commit("base");
    for i in 0..5 {
        let content = rust_module(&format!("m{i}"), 8).replace("* 3;", "* 33;").replace("* 6;", "* 66;");
        repo.write(&format!("src/m{i}.rs"), content);
    }
    repo.commit("change");
    (repo, base)
}

fn level(pack: &EvidencePack, level: Level) -> &dossier_evidence::LevelRecord {
    pack.levels.iter().find(|l| l.level == level).unwrap()
}

fn excerpt_files(pack: &EvidencePack) -> Vec<String> {
    let mut v: Vec<String> = pack.excerpts.iter().map(|e| e.evidence.path.clone()).collect();
    v.dedup();
    v
}

/// The report's byte count is exactly what the pack holds: excerpt and hit text plus the
/// changed-file records' JSON.
fn assert_bytes_accounted(pack: &EvidencePack) {
    let text: u64 = pack.excerpts.iter().map(|e| e.text.len() as u64).sum::<u64>()
        + pack.search.hits.iter().map(|h| h.text.len() as u64).sum::<u64>()
        + pack.locator.task.as_ref().map_or(0, |t| t.len() as u64);
    let files: u64 = pack
        .files
        .iter()
        .map(|f| {
            let mut f = f.clone();
            f.symbols.clear(); // filled at level 2, after level 1 charged the record
            serde_json::to_string(&f).unwrap().len() as u64
        })
        .sum();
    assert_eq!(pack.budget.used.bytes, text + files);
}

#[test]
fn defaults_fit_and_report_usage() {
    let (repo, base) = five_file_change();
    let pack = collect(&repo.range_request(&base, "HEAD")).unwrap();
    assert!(pack.budget.stopped.is_none(), "{:?}", pack.budget.stopped);
    assert_eq!(excerpt_files(&pack).len(), 5);
    assert!(!pack.search.hits.is_empty());
    let used = &pack.budget.used;
    assert!(used.bytes > 0 && used.tokens > 0);
    // ceil(bytes / 4) per item.
    let items = (pack.files.len() + pack.excerpts.len() + pack.search.hits.len()) as u64;
    assert!(used.tokens >= used.bytes.div_ceil(4) && used.tokens <= used.bytes.div_ceil(4) + items);
    assert_eq!(pack.budget.token_counter, "bytes/4");
    assert_eq!(pack.budget.limits, dossier_evidence::Budget::default());
    assert_bytes_accounted(&pack);
    // Levels' own counts add up to the total.
    let bytes: u64 = pack.levels.iter().map(|l| l.bytes).sum();
    assert_eq!(bytes, used.bytes);
}

#[test]
fn max_files_is_enforced_and_reported() {
    let (repo, base) = five_file_change();
    let mut req = repo.range_request(&base, "HEAD");
    req.budget.max_files = 2;
    let pack = collect(&req).unwrap();
    assert_eq!(pack.files.len(), 5, "metadata does not count against max_files");
    assert_eq!(excerpt_files(&pack).len(), 2);
    assert_eq!(pack.budget.used.files, 2);
    let stop = pack.budget.stopped.as_ref().expect("stopped");
    assert_eq!((stop.level, stop.limit), (Level::Excerpts, Limit::Files));
    let l2 = level(&pack, Level::Excerpts);
    assert_eq!((l2.status, l2.stopped_by), (LevelStatus::Partial, Some(Limit::Files)));
    let l3 = level(&pack, Level::Search);
    assert_eq!((l3.status, l3.stopped_by), (LevelStatus::Skipped, Some(Limit::Files)));
    assert!(pack.search.hits.is_empty());
    // The rest is listed as left out: the third file's windows and the two files after it.
    assert!(pack.budget.omission_counts["excerpts/budget"] >= 3);
    assert!(pack.budget.omissions.iter().any(|o| o.detail == "2 changed files from this one on were not excerpted"));
    assert!(pack.budget.omissions.iter().any(|o| o.reason == OmissionReason::Budget && o.limit == Some(Limit::Files)));
    assert_eq!(pack.level_reached, Some(Level::Excerpts));
    assert_refs_verify(&pack);
}

#[test]
fn max_bytes_is_enforced_trims_at_a_line_and_stops_the_ladder() {
    let (repo, base) = five_file_change();
    let full = collect(&repo.range_request(&base, "HEAD")).unwrap();
    let l1_bytes = level(&full, Level::Metadata).bytes;
    let mut req = repo.range_request(&base, "HEAD");
    // Room for the metadata and about one and a half files of excerpts.
    let first_excerpt = full.excerpts[0].text.len() as u64;
    req.budget.max_bytes = l1_bytes + first_excerpt + first_excerpt / 2;
    let pack = collect(&req).unwrap();
    assert!(pack.budget.used.bytes <= req.budget.max_bytes);
    assert_bytes_accounted(&pack);
    let stop = pack.budget.stopped.as_ref().expect("stopped");
    assert_eq!((stop.level, stop.limit), (Level::Excerpts, Limit::Bytes));
    assert_eq!(level(&pack, Level::Excerpts).status, LevelStatus::Partial);
    assert_eq!(level(&pack, Level::Search).status, LevelStatus::Skipped);
    assert_eq!(level(&pack, Level::Search).stopped_by, Some(Limit::Bytes));
    // The last excerpt was cut at a line boundary, says so, and still verifies.
    let last = pack.excerpts.last().unwrap();
    assert!(last.truncated);
    assert!(last.text.ends_with('\n'));
    assert!(pack.budget.omissions.iter().any(|o| o.detail.contains("cut from an excerpt")));
    assert_refs_verify(&pack);
}

#[test]
fn max_bytes_at_level_one_lists_what_it_could_not() {
    let (repo, base) = five_file_change();
    let mut req = repo.range_request(&base, "HEAD");
    req.budget.max_bytes = 400;
    let pack = collect(&req).unwrap();
    assert!(pack.files.len() < 5 && !pack.files.is_empty(), "{}", pack.files.len());
    assert!(pack.budget.used.bytes <= 400);
    // The listing keeps room for excerpts (issue 21, defect 1): it is summarised past its share
    // of the budget instead of spending all of it, and the ladder goes on.
    let l1 = level(&pack, Level::Metadata);
    assert_eq!((l1.status, l1.stopped_by), (LevelStatus::Complete, None), "{l1:?}");
    assert_eq!(pack.budget.omission_counts["metadata/listing_cap"], 5 - pack.files.len() as u64);
    assert_ne!(level(&pack, Level::Excerpts).status, LevelStatus::Skipped);
    assert_bytes_accounted(&pack);
}

/// Issue 21, defect 1: a 300-file change with a ~4.6 MB diff under codecall's default evidence
/// budget (40 files, 32 KiB, 8,000 tokens) used to list files until the budget was gone, so the
/// pack had no excerpt at all and no lesson could ever cite one. The listing is now summarised
/// past its share, and excerpts of the highest-priority files are in the pack.
#[test]
fn a_300_file_change_with_a_large_diff_still_gets_excerpts_under_a_small_budget() {
    let repo = Repo::new();
    for i in 0..300 {
        repo.write(&format!("src/m{i:03}.rs"), rust_module(&format!("m{i:03}"), 60));
    }
    let base = repo.commit("base");
    for i in 0..300 {
        let content = rust_module(&format!("m{i:03}"), 60).replace("total", "sum").replace("input", "text");
        repo.write(&format!("src/m{i:03}.rs"), content);
    }
    repo.commit("rename everywhere");
    let diff = std::process::Command::new("git")
        .args(["diff", &base, "HEAD"])
        .current_dir(repo.path())
        .output()
        .unwrap()
        .stdout
        .len();
    assert!(diff > 4_000_000, "the diff is {diff} bytes");
    let mut req = repo.range_request(&base, "HEAD");
    req.budget =
        dossier_evidence::Budget { max_files: 40, max_bytes: 32 * 1024, max_tokens: 8_000, max_duration_ms: 60_000 };
    let pack = collect(&req).unwrap();
    assert!(!pack.excerpts.is_empty(), "no excerpt: {:?}", pack.levels);
    let summarised = pack.budget.omission_counts.get("metadata/listing_cap").copied().unwrap_or(0);
    assert!(summarised > 0, "{:?}", pack.budget.omission_counts);
    assert_eq!(pack.files.len() as u64 + summarised, 300);
    assert_eq!(level(&pack, Level::Metadata).status, LevelStatus::Complete);
    // Every excerpt is of a listed file, and the listing stayed within its share.
    for e in &pack.excerpts {
        assert!(pack.files.iter().any(|f| f.path == e.evidence.path), "{}", e.evidence.path);
    }
    assert!(level(&pack, Level::Metadata).bytes <= 32 * 1024 / 3 + 1024, "{:?}", level(&pack, Level::Metadata));
    assert!(pack.budget.used.bytes <= 32 * 1024 && pack.budget.used.tokens <= 8_000);
    assert_refs_verify(&pack);
}

#[test]
fn task_text_that_does_not_fit_is_reported() {
    let (repo, base) = five_file_change();
    let mut req = repo.range_request(&base, "HEAD");
    req.locator.task = Some("x".repeat(1000));
    req.budget.max_bytes = 500;
    let pack = collect(&req).unwrap();
    assert!(pack.locator.task.is_none());
    assert!(pack.budget.omissions.iter().any(|o| o.level == Level::Metadata && o.detail == "task text"));
    assert_eq!(pack.budget.stopped.as_ref().unwrap().limit, Limit::Bytes);
}

/// Counts whitespace-separated words: a stand-in for the host's tokenizer.
struct Words;

impl TokenCounter for Words {
    fn name(&self) -> &str {
        "words"
    }
    fn count(&self, text: &str) -> u64 {
        text.split_whitespace().count() as u64
    }
}

#[test]
fn max_tokens_uses_the_plugged_counter() {
    let (repo, base) = five_file_change();
    let full = collect_with(&repo.range_request(&base, "HEAD"), &Words).unwrap();
    assert_eq!(full.budget.token_counter, "words");
    let words_in_pack: u64 = full.excerpts.iter().map(|e| Words.count(&e.text)).sum::<u64>()
        + full.search.hits.iter().map(|h| Words.count(&h.text)).sum::<u64>();
    let l1_tokens = level(&full, Level::Metadata).tokens;
    assert_eq!(full.budget.used.tokens, words_in_pack + l1_tokens);

    let mut req = repo.range_request(&base, "HEAD");
    req.budget.max_tokens = l1_tokens + 150;
    let pack = collect_with(&req, &Words).unwrap();
    assert!(pack.budget.used.tokens <= req.budget.max_tokens);
    let stop = pack.budget.stopped.as_ref().unwrap();
    assert_eq!((stop.level, stop.limit), (Level::Excerpts, Limit::Tokens));
    assert_eq!(level(&pack, Level::Search).stopped_by, Some(Limit::Tokens));
    // Bytes were nowhere near their limit: tokens stopped it.
    assert!(pack.budget.used.bytes < req.budget.max_bytes);
    assert_refs_verify(&pack);
}

#[test]
fn max_tokens_can_stop_the_search_level() {
    let (repo, base) = five_file_change();
    let full = collect(&repo.range_request(&base, "HEAD")).unwrap();
    assert!(full.search.hits.len() >= 2);
    let before_search: u64 = full.levels.iter().filter(|l| l.level < Level::Search).map(|l| l.tokens).sum();
    let mut req = repo.range_request(&base, "HEAD");
    req.budget.max_tokens = before_search + full.search.hits[0].text.len() as u64 / 4 + 1;
    let pack = collect(&req).unwrap();
    assert_eq!(pack.search.hits.len(), 1);
    let l3 = level(&pack, Level::Search);
    assert_eq!((l3.status, l3.stopped_by), (LevelStatus::Partial, Some(Limit::Tokens)));
    assert!(pack.budget.omission_counts["search/budget"] >= 1);
}

#[test]
fn max_time_is_enforced_and_reported() {
    let (repo, base) = five_file_change();
    let mut req = repo.range_request(&base, "HEAD");
    req.budget.max_duration_ms = 0;
    let pack = collect(&req).unwrap();
    assert!(pack.files.is_empty() && pack.excerpts.is_empty());
    let stop = pack.budget.stopped.as_ref().unwrap();
    assert_eq!((stop.level, stop.limit), (Level::Metadata, Limit::Time));
    for l in &pack.levels[..3] {
        assert_eq!((l.status, l.stopped_by), (LevelStatus::Skipped, Some(Limit::Time)), "{l:?}");
    }
    assert_eq!(pack.level_reached, None);
}

#[test]
fn per_file_line_cap_is_reported() {
    let repo = Repo::new();
    let base = repo.commit("empty");
    repo.write("big.py", (0..1000).map(|i| format!("x{i} = {i}\n")).collect::<String>());
    repo.commit("big");
    let mut req = repo.range_request(&base, "HEAD");
    req.limits.max_lines_per_file = 50;
    let pack = collect(&req).unwrap();
    let ex = &pack.excerpts[0];
    assert_eq!((ex.evidence.start_line, ex.evidence.end_line), (1, 50));
    assert!(ex.truncated);
    assert!(
        pack.budget.omissions.iter().any(|o| o.reason == OmissionReason::LineCap && o.detail.contains("950 of 1000"))
    );
}

#[test]
fn oversized_files_are_not_read() {
    let repo = Repo::new();
    repo.write("small.txt", "a\n");
    let base = repo.commit("base");
    repo.write("huge.txt", "TOO_BIG_MARKER\n".repeat(10_000));
    repo.write("small.txt", "b\n");
    repo.commit("huge");
    let mut req = repo.range_request(&base, "HEAD");
    req.limits.max_file_read_bytes = 64 * 1024;
    let pack = collect(&req).unwrap();
    let f = pack.files.iter().find(|f| f.path == "huge.txt").unwrap();
    assert!(f.note.as_deref().unwrap().contains("larger than"));
    assert!(f.hunks.is_empty() && f.added.is_none());
    assert!(!common::json(&pack).contains("TOO_BIG_MARKER"));
    assert_eq!(pack.budget.omission_counts["metadata/too_large"], 1);
}

#[test]
fn extreme_shape_limits_are_honoured_without_panicking() {
    let (repo, base) = five_file_change();
    let mut req = repo.range_request(&base, "HEAD");
    req.max_level = Level::Slice;
    req.slice = Some(dossier_evidence::SliceRequest { consent: true, paths: vec!["src".into()], reason: None });
    req.limits.max_lines_per_file = 0;
    req.limits.context_lines = u32::MAX;
    req.limits.max_enclosing_gap = u32::MAX;
    req.limits.max_symbols = 0;
    let pack = collect(&req).unwrap();
    assert!(pack.excerpts.is_empty());
    assert!(pack.search.symbols.is_empty());
    assert!(pack.budget.omission_counts["excerpts/line_cap"] >= 5);

    let mut req = repo.range_request(&base, "HEAD");
    req.limits.context_lines = u32::MAX;
    let pack = collect(&req).unwrap();
    // Whole files, one window each.
    assert_eq!(pack.excerpts.len(), 5);
    assert!(pack.excerpts.iter().all(|e| e.evidence.start_line == 1));
    assert_refs_verify(&pack);
}
