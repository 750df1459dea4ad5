//! Recall in-process (SPEC §7.2, §14.2): the whole `dossier.md`, or pages of at most
//! `PAGE_BYTES` that concatenate to it byte for byte; the token target from config or the
//! Dossier, over it a warning and never a truncation; the Archive is never read.

use std::time::Duration;

use dossier_store::Code;
use dossier_store::progress::SILENT;
use dossier_store::recall::{self, PAGE_BYTES};
use dossier_store::save::{self, FrontmatterUpdates, SaveRequest};

use crate::common::Fixture;

/// English-like text of roughly `raw_tokens` cl100k tokens, with varied lines (some
/// multi-byte characters, so pages split at character boundaries too).
fn big_state(name: &str, raw_tokens: usize) -> String {
    let words = [
        "pricing",
        "renewal",
        "entreprise",
        "latency",
        "migración",
        "customer",
        "contract",
        "forecast",
        "review",
        "quota",
    ];
    let mut s = format!("# {name}\n\n## Situation\n\n");
    let mut n = 0usize;
    while s.len() < raw_tokens * 4 {
        s.push_str(&format!(
            "- Claim {n}: the {} {} affects the {} plan by {} percent. [src:art_0000000000000#L{}-L{}]\n",
            words[n % 10],
            words[(n / 10) % 10],
            words[(n / 100) % 10],
            n % 97,
            n % 500 + 1,
            n % 500 + 3
        ));
        n += 1;
    }
    s.push_str("\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n");
    s
}

#[test]
fn pages_concatenate_to_the_whole_file_and_an_over_target_state_is_whole_with_a_warning() {
    let f = Fixture::new();
    let out = f.create("Huge");
    f.save_state("huge", &big_state("Huge", 110_000));
    let file = std::fs::read_to_string(out.path.join("dossier.md")).unwrap();

    let whole = recall::recall(&f.app, "huge", None).unwrap();
    assert_eq!(whole.content, file, "whole state, not truncated");
    assert_eq!((whole.bytes, whole.page), (file.len(), 1));
    assert_eq!((whole.id.as_str(), whole.slug.as_str(), whole.name.as_str()), (out.id.as_str(), "huge", "Huge"));
    assert_eq!(whole.revision, save::revision(&out.path).unwrap());
    assert_eq!(whole.token_target, 100_000);
    assert!(whole.over_token_target && whole.token_estimate.tokens > 100_000, "{:?}", whole.token_estimate);
    let e = &whole.token_estimate;
    assert_eq!(
        whole.warnings,
        [format!(
            "over_token_target: the Distilled State is ~{} tokens (estimate: {} {} tokens x {}), over its target of 100000; it is returned whole, never truncated",
            e.tokens, e.raw_tokens, e.tokenizer, e.calibration
        )]
    );

    let count = whole.page_count;
    assert!(count >= 10, "{count} pages");
    let mut joined = String::new();
    for p in 1..=count {
        let r = recall::recall(&f.app, &out.id, Some(p)).unwrap();
        assert_eq!((r.page, r.page_count, r.bytes), (p, count, file.len()));
        assert!(r.content.len() <= PAGE_BYTES && !r.content.is_empty(), "page {p}: {} bytes", r.content.len());
        if p < count {
            assert!(r.content.ends_with('\n'), "pages split on line boundaries");
        }
        joined.push_str(&r.content);
    }
    assert_eq!(joined, file);
    for bad in [0, count + 1] {
        let e = recall::recall(&f.app, "huge", Some(bad)).unwrap_err();
        assert_eq!(e.code, Code::InvalidInput, "page {bad}");
        assert_eq!(
            e.message,
            format!("page {bad} does not exist: `huge` has {count} page(s) of at most {PAGE_BYTES} bytes")
        );
    }
}

#[test]
fn under_the_target_there_is_no_warning_and_a_dossiers_own_target_wins() {
    let f = Fixture::new();
    f.create("Small");
    let r = recall::recall(&f.app, "small", Some(1)).unwrap();
    assert!(r.warnings.is_empty() && !r.over_token_target);
    assert_eq!((r.token_target, r.page_count), (100_000, 1));
    assert_eq!(r.content, std::fs::read_to_string(f.dossier("small").join("dossier.md")).unwrap());
    let u = FrontmatterUpdates { token_target: Some(10), ..Default::default() };
    save::save(&f.app, "small", SaveRequest { updates: u, ..Default::default() }, &SILENT).unwrap();
    let r = recall::recall(&f.app, "small", None).unwrap();
    assert!(r.over_token_target);
    assert_eq!((r.token_target, r.warnings.len()), (10, 1));

    let config = dossier_store::config::Config { token_target: 5, ..Default::default() };
    let f = Fixture::with(config, Box::new(crate::native::Native));
    f.create("Small");
    let r = recall::recall(&f.app, "small", None).unwrap();
    assert_eq!((r.token_target, r.over_token_target), (5, true));
    assert_eq!(recall::recall(&f.app, "nope", None).unwrap_err().code, Code::NotFound);
}

#[test]
fn recall_never_reads_artifacts() {
    let f = Fixture::new();
    let dir = f.create("Fifo").path;
    // A FIFO blocks whoever opens it for reading until a writer appears: if recall read the
    // archive it would hang, and the timeout fails the test.
    let fifo = dir.join("artifacts/art_00000000000000000000000000.md");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = recall::recall(&f.app, "fifo", None).map(|r| r.content.len());
        let _ = tx.send((r, f));
    });
    let (r, _f) = rx.recv_timeout(Duration::from_secs(30)).expect("recall blocked on an artifact");
    assert!(r.unwrap() > 0);
    std::fs::remove_file(&fifo).unwrap();
}
