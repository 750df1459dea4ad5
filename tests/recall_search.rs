//! Recall (whole, paged, over-target warning, never reads artifacts), exact search
//! (`--literal`/`--regex`: archived Dossiers, JSON artifacts, frontmatter, line numbers, binary files, non-UTF-8,
//! regex, smart case, limits), and the context library staying current.

use std::time::Duration;

use support::{TempStore, json_of};

fn promote(store: &TempStore, name: &str) -> String {
    let out = store.cmd().args(["promote", "--name", name, "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    json_of(&out)["data"]["slug"].as_str().unwrap().to_string()
}

pub(crate) fn revision(store: &TempStore, slug: &str) -> String {
    let out = store.cmd().args(["show", slug, "--json"]).output().unwrap();
    json_of(&out)["data"]["revision"].as_str().unwrap().to_string()
}

/// Save `body` as the Distilled State of `slug` at its current revision (shared with
/// `search.rs`).
pub(crate) fn save_state(store: &TempStore, slug: &str, body: &str) -> serde_json::Value {
    let file = store.dir.path().join(format!("{slug}-state.md"));
    std::fs::write(&file, body).unwrap();
    let rev = revision(store, slug);
    let out = store
        .cmd()
        .args(["save", slug, "--base-revision", &rev, "--from-file"])
        .arg(&file)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    json_of(&out)
}

/// English-like text of roughly `tokens` cl100k tokens, with varied lines.
fn big_state(name: &str, approx_raw_tokens: usize) -> String {
    let words = [
        "pricing",
        "renewal",
        "enterprise",
        "latency",
        "migration",
        "customer",
        "contract",
        "forecast",
        "review",
        "quota",
    ];
    let mut s = format!("# {name}\n\n## Situation\n\n");
    let mut n = 0usize;
    while s.len() < approx_raw_tokens * 4 {
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
fn recall_of_an_over_target_state_returns_every_byte_with_a_warning() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Huge");
    let saved = save_state(&store, &slug, &big_state("Huge", 110_000));
    assert!(
        saved["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().starts_with("over_token_target")),
        "save warns too"
    );
    let file = std::fs::read_to_string(store.root().join(&slug).join("dossier.md")).unwrap();

    let out = store.cmd().args(["recall", &slug, "--json"]).output().unwrap();
    assert!(out.status.success(), "over target is a warning, not a failure");
    let v = json_of(&out);
    let d = &v["data"];
    assert!(d["token_estimate"]["tokens"].as_u64().unwrap() >= 150_000, "{}", d["token_estimate"]);
    assert_eq!(d["over_token_target"], true);
    assert_eq!(d["content"].as_str().unwrap(), file, "whole state, not truncated");
    assert!(v["warnings"][0].as_str().unwrap().starts_with("over_token_target: the Distilled State is ~"));
    assert!(v["next_actions"].as_array().unwrap().iter().any(|a| a.as_str().unwrap().starts_with("distill")));

    // Human output is the file itself.
    let human = store.cmd().args(["recall", &slug]).output().unwrap();
    assert_eq!(String::from_utf8(human.stdout).unwrap(), file);

    // Pages: each ≤ 40,000 bytes, concatenation byte-identical.
    let count = d["page_count"].as_u64().unwrap();
    assert!(count >= 10, "{count} pages");
    let mut joined = String::new();
    for p in 1..=count {
        let out = store.cmd().args(["recall", &slug, "--page", &p.to_string(), "--json"]).output().unwrap();
        let v = json_of(&out);
        let content = v["data"]["content"].as_str().unwrap();
        assert!(content.len() <= 40_000);
        assert_eq!(v["data"]["page"], p);
        if p < count {
            assert!(content.ends_with('\n'), "pages split on line boundaries");
            assert!(v["next_actions"][0].as_str().unwrap().contains(&format!("--page {}", p + 1)));
        }
        joined.push_str(content);
    }
    assert_eq!(joined, file);
    let out = store.cmd().args(["recall", &slug, "--page", &(count + 1).to_string(), "--json"]).output().unwrap();
    assert_eq!(json_of(&out)["error"]["code"], "invalid_input");
}

#[test]
fn recall_under_target_has_no_warning_and_respects_a_per_dossier_target() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Small");
    let out = store.cmd().args(["recall", &slug, "--json"]).output().unwrap();
    let v = json_of(&out);
    assert_eq!(v["warnings"], serde_json::json!([]));
    assert_eq!(v["data"]["over_token_target"], false);
    assert_eq!(v["data"]["token_target"], 100_000);
    let file = store.root().join(&slug).join("dossier.md");
    let text = std::fs::read_to_string(&file).unwrap().replacen("importance:", "token_target: 10\nimportance:", 1);
    std::fs::write(&file, text).unwrap();
    let v = json_of(&store.cmd().args(["recall", &slug, "--json"]).output().unwrap());
    assert_eq!(v["data"]["over_token_target"], true);
    assert_eq!(v["data"]["token_target"], 10);
}

#[test]
fn recall_never_reads_artifacts() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Fifo");
    // A FIFO blocks whoever opens it for reading until a writer appears: if recall read the
    // archive, it would hang and the timeout would fail the test.
    let fifo = store.root().join(&slug).join("artifacts/art_00000000000000000000000000.md");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let out = store.cmd().args(["recall", &slug, "--json"]).timeout(Duration::from_secs(30)).output().unwrap();
    assert!(out.status.success(), "recall blocked or failed: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_file(&fifo).unwrap();
}

fn hits(v: &serde_json::Value) -> Vec<serde_json::Value> {
    v["data"]["results"].as_array().unwrap().iter().flat_map(|g| g["hits"].as_array().unwrap().clone()).collect()
}

#[test]
fn search_covers_archived_dossiers_json_artifacts_and_frontmatter() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let alpha = promote(&store, "Alpha launch");
    let beta = promote(&store, "Beta pricing");
    save_state(&store, &alpha, "# Alpha launch\n\n## Situation\n\nline three\nThe launch moved to July. [src:art_x]\n");
    store.cmd().args(["archive", &alpha]).assert().success();
    let json_art = store.dir.path().join("rows.json");
    std::fs::write(&json_art, "{\n  \"region\": \"emea\",\n  \"tier\": \"Zanzibar\"\n}\n").unwrap();
    store
        .cmd()
        .args(["save", &beta, "--artifact"])
        .arg(&json_art)
        .args(["--artifact-type", "query"])
        .assert()
        .success();
    store.cmd().args(["lead", &beta, "Quentin"]).assert().success();

    let v = json_of(&store.cmd().args(["search", "--literal", "july", "--json"]).output().unwrap());
    let h = hits(&v);
    assert_eq!(h.len(), 1, "{v}");
    assert_eq!(v["data"]["results"][0]["slug"], alpha.as_str(), "archived Dossiers are searched");
    assert_eq!(v["data"]["results"][0]["status"], "archived");
    assert_eq!(h[0]["kind"], "dossier");
    let file = std::fs::read_to_string(store.root().join(&alpha).join("dossier.md")).unwrap();
    let line = file.lines().position(|l| l.contains("moved to July")).unwrap() + 1;
    assert_eq!(h[0]["line"], line as u64, "line numbers are the file's");
    assert_eq!(h[0]["snippet"], "The launch moved to July. [src:art_x]");

    let v = json_of(&store.cmd().args(["search", "--literal", "zanzibar", "--json"]).output().unwrap());
    let h = hits(&v);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["kind"], "artifact");
    assert_eq!(h[0]["line"], 3);
    assert_eq!(h[0]["artifact_title"], "rows.json");
    assert!(h[0]["artifact_id"].as_str().unwrap().starts_with("art_"));
    assert_eq!(v["data"]["results"][0]["dossier_name"], "Beta pricing");

    // Titles of JSON artifacts live in their metadata sidecar; frontmatter is searched too.
    let v = json_of(&store.cmd().args(["search", "--literal", "rows.json", "--json"]).output().unwrap());
    assert!(hits(&v).iter().any(|h| h["kind"] == "artifact_metadata"), "{v}");
    let v = json_of(&store.cmd().args(["search", "--literal", "Quentin", "--json"]).output().unwrap());
    let h = hits(&v);
    assert_eq!(h.len(), 1);
    assert!(h[0]["snippet"].as_str().unwrap().starts_with("lead: Quentin"));
}

#[test]
fn search_skips_binary_files_and_survives_non_utf8() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Bytes");
    let adir = store.root().join(&slug).join("artifacts");
    std::fs::write(adir.join("art_00000000000000000000000001.txt"), b"needle in text\n\x00\x01binary needle\n")
        .unwrap();
    std::fs::write(adir.join("art_00000000000000000000000002.txt"), b"caf\xe9 needle \xff\xfe here\n").unwrap();
    let out = store.cmd().args(["search", "--literal", "needle", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    let h = hits(&v);
    assert_eq!(h.len(), 1, "the file with NUL bytes is skipped whole: {v}");
    assert!(h[0]["path"].as_str().unwrap().ends_with("art_00000000000000000000000002.txt"));
    assert!(h[0]["snippet"].as_str().unwrap().contains("needle"));
    assert_eq!(v["data"]["binary_files_skipped"], 1);
}

#[test]
fn search_literal_is_exact_smart_case_regex_limited_and_ordered() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let b = promote(&store, "Bravo");
    let a = promote(&store, "Alpha");
    save_state(&store, &a, "# Alpha\n\n## Situation\n\nprice (v2) is 10\nPrice is 20\n");
    save_state(&store, &b, "# Bravo\n\n## Situation\n\nprice (v2) is 30\n");

    let v = json_of(&store.cmd().args(["search", "--literal", "(v2)", "--json"]).output().unwrap());
    assert_eq!(hits(&v).len(), 2, "literal: parentheses are not a group");
    let slugs: Vec<&str> =
        v["data"]["results"].as_array().unwrap().iter().map(|g| g["slug"].as_str().unwrap()).collect();
    assert_eq!(slugs, ["alpha", "bravo"], "grouped by Dossier in slug order");

    let v = json_of(&store.cmd().args(["search", "--literal", "price is", "--json"]).output().unwrap());
    assert_eq!(hits(&v).len(), 1, "lowercase query is case-insensitive");
    assert_eq!(v["data"]["case_insensitive"], true);
    let v = json_of(&store.cmd().args(["search", "--literal", "Price", "--json"]).output().unwrap());
    assert_eq!(v["data"]["case_insensitive"], false);
    assert!(hits(&v).iter().all(|h| h["snippet"].as_str().unwrap().contains("Price")));

    let v = json_of(&store.cmd().args(["search", r"is \d0$", "--regex", "--json"]).output().unwrap());
    assert_eq!(hits(&v).len(), 3);
    let v = json_of(&store.cmd().args(["search", r"is \d0$", "--regex", "--limit", "2", "--json"]).output().unwrap());
    assert_eq!(hits(&v).len(), 2);
    assert_eq!(v["data"]["truncated"], true);
    assert_eq!(v["data"]["total_hits"], 3);
    let lines: Vec<u64> = hits(&v).iter().map(|h| h["line"].as_u64().unwrap()).collect();
    assert!(lines[0] < lines[1], "lines ascending within a file");

    let v = json_of(&store.cmd().args(["search", "--literal", "price", "--dossier", &b, "--json"]).output().unwrap());
    assert!(hits(&v).iter().all(|h| h["path"].as_str().unwrap().contains("/bravo/")));
    let out = store.cmd().args(["search", "(", "--regex", "--json"]).output().unwrap();
    assert_eq!(json_of(&out)["error"]["code"], "invalid_input");
}

#[test]
fn show_reports_the_token_estimate_and_doctor_reports_a_stale_library() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Est");
    let out = store.cmd().args(["show", &slug, "--json"]).output().unwrap();
    let v = json_of(&out);
    let e = &v["data"]["token_estimate"];
    assert!(e["tokens"].as_u64().unwrap() > 0 && e["tokenizer"] == "cl100k_base", "{e}");
    // Change the open-work list behind dossier's back: doctor notices.
    let file = store.root().join(&slug).join("dossier.md");
    let text = std::fs::read_to_string(&file).unwrap().replace("status: active", "status: blocked");
    std::fs::write(&file, text).unwrap();
    let out = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(out.status.success(), "stale library is a warning");
    let v = json_of(&out);
    assert!(v["data"]["checks"].as_array().unwrap().iter().any(|c| c["code"] == "library_stale"), "{v}");
    store.cmd().args(["context", "refresh"]).assert().success();
    let v = json_of(&store.cmd().args(["doctor", "--json"]).output().unwrap());
    assert!(!v["data"]["checks"].as_array().unwrap().iter().any(|c| c["code"] == "library_stale"));
}

/// A store whose default token target is `target` (config.yaml), so small states are over it.
fn with_token_target(store: &TempStore, target: u64) {
    let path = store.root().join("config.yaml");
    let config = std::fs::read_to_string(&path).unwrap_or_default();
    let mut lines: Vec<String> = config.lines().filter(|l| !l.starts_with("token_target:")).map(String::from).collect();
    lines.push(format!("token_target: {target}"));
    store.write_config(&(lines.join("\n") + "\n"));
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// The over-target next steps every surface shows after a recall or a save over the target.
fn assert_over_target_next(v: &serde_json::Value) {
    let next = strings(&v["next_actions"]);
    assert!(next.iter().any(|a| a.starts_with("distill ")), "{next:?}");
    assert!(next.iter().any(|a| a.contains("raise token_target")), "{next:?}");
}

#[test]
fn spec_14_2_paged_recall_over_target_says_it_is_delivered_in_pages() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    with_token_target(&store, 1000);
    let slug = promote(&store, "Paged over target");
    save_state(&store, &slug, &big_state("Paged over target", 25_000));
    let whole = json_of(&store.cmd().args(["recall", &slug, "--json"]).output().unwrap());
    let count = whole["data"]["page_count"].as_u64().unwrap();
    assert!(count >= 2, "{count} pages");
    // Unpaged: the state is returned whole.
    let w = strings(&whole["warnings"]);
    assert!(w[0].starts_with("over_token_target:") && w[0].contains("returned whole"), "{w:?}");
    // Paged: delivered in pages, never truncated, and which page this is.
    let paged = json_of(&store.cmd().args(["recall", &slug, "--page", "2", "--json"]).output().unwrap());
    let w = strings(&paged["warnings"]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("over_token_target:"), "{w:?}");
    assert!(!w[0].contains("returned whole"), "{w:?}");
    assert!(w[0].contains(&format!("delivered in {count} pages of at most 40,000 bytes (page 2 of {count})")), "{w:?}");
    assert!(w[0].contains("never truncated"), "{w:?}");
    assert_over_target_next(&paged);
}

#[test]
fn spec_11_4_over_target_save_and_create_return_next_actions_and_a_resave_still_warns() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    with_token_target(&store, 50);
    // Create (promote from a file holding a Distilled State) over the target.
    let file = store.dir.path().join("over-state.md");
    std::fs::write(&file, big_state("Kitchen renovation", 200)).unwrap();
    let out = store.cmd().args(["promote", "--create", "--json", "--from-file"]).arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let created = json_of(&out);
    let w = strings(&created["warnings"]);
    assert!(w.iter().any(|w| w.starts_with("over_token_target:")), "{w:?}");
    assert_over_target_next(&created);

    // Save of a changed state over the target.
    let slug = promote(&store, "Quantum chip tapeout");
    let state = big_state("Quantum chip tapeout", 200);
    let saved = save_state(&store, &slug, &state);
    let w = strings(&saved["warnings"]);
    assert!(w.iter().any(|w| w.starts_with("over_token_target:")), "{w:?}");
    assert_over_target_next(&saved);

    // Re-saving the same state: nothing written, and still over target.
    let dir = store.root().join(&slug);
    let before = support::snapshot(&dir);
    let again = save_state(&store, &slug, &state);
    assert_eq!(support::snapshot(&dir), before, "an unchanged save writes nothing");
    assert_eq!(again["data"]["revision"], saved["data"]["revision"]);
    let w = strings(&again["warnings"]);
    assert!(w.iter().any(|w| w.starts_with("nothing changed")), "{w:?}");
    assert!(w.iter().any(|w| w.starts_with("over_token_target:")), "{w:?}");
    assert_over_target_next(&again);
}
