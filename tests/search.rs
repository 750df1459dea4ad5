//! Ranked search (issue 22, SPEC §11.3) through the real binary on real stores in temp
//! dirs: words in another order and form, compounds, grouped results best first with marked
//! snippets, line numbers and citations, archived Dossiers marked, filters, exclusions,
//! phrases, refused filters (nothing written), paging and deterministic order; and the
//! evaluation runners over tests/fixtures/search/ (dev set: figures; held-out: the lead's).

use crate::recall_search::save_state;
use support::{TempStore, json_of};

fn promote(store: &TempStore, name: &str) -> String {
    let out = store.cmd().args(["promote", "--name", name, "--create", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    json_of(&out)["data"]["slug"].as_str().unwrap().to_string()
}

fn state(name: &str, situation: &str, decisions: &str, findings: &str) -> String {
    format!(
        "# {name}\n\n## Situation\n\n{situation}\n\n## Decisions\n\n{decisions}\n\n## Findings\n\n{findings}\n\n\
         ## Current State\n\nOngoing.\n\n## Next Steps\n\n1. Review.\n"
    )
}

fn search(store: &TempStore, args: &[&str]) -> serde_json::Value {
    let out = store.cmd().arg("search").args(args).arg("--json").output().unwrap();
    json_of(&out)
}

fn slugs(v: &serde_json::Value) -> Vec<String> {
    v["data"]["results"].as_array().unwrap().iter().map(|g| g["slug"].as_str().unwrap().to_string()).collect()
}

/// Three topic Dossiers and a distractor.
fn library() -> TempStore {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let pg = promote(&store, "Billing database move");
    save_state(
        &store,
        &pg,
        &state(
            "Billing database move",
            "We migrated the billing database from MySQL to Postgres in May.",
            "- Logical replication for the cut-over.",
            "- Replica lag spiked while customers were signing in.",
        ),
    );
    let login = promote(&store, "Login page redesign");
    save_state(
        &store,
        &login,
        &state(
            "Login page redesign",
            "The sign-in page confuses users;\nthe form asks for too much.",
            "- A café-style minimal form.",
            "- Users abandon at the password step.",
        ),
    );
    let pricing = promote(&store, "Pricing refresh");
    save_state(
        &store,
        &pricing,
        &state(
            "Pricing refresh",
            "Enterprise tiers are renewed annually.",
            "- Keep the discount for renewals.",
            "- Churn follows price changes.",
        ),
    );
    let other = promote(&store, "Office move");
    save_state(&store, &other, &state("Office move", "The office moves in June.", "- Movers booked.", "- None."));
    store
}

#[test]
fn spec_11_3_ranked_search_finds_words_in_other_orders_forms_and_lines() {
    let store = library();
    // Inflected ("migrations" for "migrated"), reordered, across lines.
    let v = search(&store, &["postgres migrations"]);
    assert_eq!(slugs(&v)[0], "billing-database-move", "{v}");
    assert_eq!(v["data"]["mode"], "ranked");
    let v = search(&store, &["form confusing sign-in page"]);
    assert_eq!(slugs(&v)[0], "login-page-redesign", "{v}");
    // Diacritics fold both ways.
    assert_eq!(slugs(&search(&store, &["cafe"]))[0], "login-page-redesign");
    assert_eq!(slugs(&search(&store, &["CAFÉ"]))[0], "login-page-redesign");
    // A question, with stop words.
    let v = search(&store, &["what was decided about renewal discounts?"]);
    assert_eq!(slugs(&v)[0], "pricing-refresh", "{v}");
    // Nothing shared: nothing returned.
    let v = search(&store, &["kubernetes"]);
    assert!(slugs(&v).is_empty(), "{v}");
}

#[test]
fn spec_11_3_compounds_match_spaced_hyphenated_and_joined() {
    let store = library();
    for q in ["signin", "sign-in"] {
        let v = search(&store, &[q]);
        assert_eq!(slugs(&v)[0], "login-page-redesign", "{q}: {v}");
    }
    // "sign in" also meets "signing in" (stemming): both are found, the compound marked.
    let v = search(&store, &["sign in"]);
    assert!(slugs(&v).contains(&"login-page-redesign".to_string()), "{v}");
    let login = v["data"]["results"].as_array().unwrap().iter().find(|g| g["slug"] == "login-page-redesign").unwrap();
    assert_eq!(login["hits"][0]["snippet"], "The **sign-in** page confuses users;");
}

#[test]
fn spec_11_3_results_are_grouped_best_first_with_marked_snippets_and_lines() {
    let store = library();
    let v = search(&store, &["replica lag"]);
    let g = &v["data"]["results"][0];
    assert_eq!(g["slug"], "billing-database-move");
    assert!(g["score"].as_f64().unwrap() > 0.0);
    let h = &g["hits"][0];
    // Query words next to each other are one marked span.
    assert_eq!(h["snippet"], "- **Replica lag** spiked while customers were signing in.");
    assert_eq!(h["section"], "findings");
    let file = std::fs::read_to_string(store.root().join("billing-database-move").join("dossier.md")).unwrap();
    let line = file.lines().position(|l| l.contains("Replica lag")).unwrap() + 1;
    assert_eq!(h["line"], line as u64, "line numbers are the file's");
    // Scores are non-increasing down the list.
    let v = search(&store, &["move"]);
    let scores: Vec<f64> =
        v["data"]["results"].as_array().unwrap().iter().map(|g| g["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_eq!(scores.len(), 2, "{v}");
}

#[test]
fn spec_11_3_artifact_hits_carry_id_title_line_and_citation() {
    let store = library();
    let note = store.dir.path().join("failover-notes.md");
    std::fs::write(&note, "# Failover drill\n\nStep one.\nThe standby promoted in 40 seconds.\n").unwrap();
    store
        .cmd()
        .args(["save", "billing-database-move", "--artifact"])
        .arg(&note)
        .args(["--artifact-type", "source-snapshot"])
        .assert()
        .success();
    let v = search(&store, &["standby promotion"]);
    let g = &v["data"]["results"][0];
    assert_eq!(g["slug"], "billing-database-move", "{v}");
    let h = g["hits"].as_array().unwrap().iter().find(|h| h["kind"] == "artifact").expect("an artifact hit");
    let id = h["artifact_id"].as_str().unwrap();
    assert!(id.starts_with("art_"));
    assert!(h["artifact_title"].is_string(), "{h}");
    assert_eq!(h["line"], 4, "the artifact content's own line: {h}");
    assert_eq!(h["cite"], format!("[src:{id}#L4]"));
    // kind:artifact finds only artifacts; kind:dossier never them.
    let v = search(&store, &["standby kind:artifact"]);
    assert!(v["data"]["results"][0]["hits"].as_array().unwrap().iter().all(|h| h["kind"] != "dossier"));
    assert!(slugs(&search(&store, &["standby kind:dossier"])).is_empty());
}

#[test]
fn spec_14_9_b_archived_dossiers_are_ranked_and_marked() {
    let store = library();
    store.cmd().args(["archive", "pricing-refresh"]).assert().success();
    let v = search(&store, &["renewal discount"]);
    let g = &v["data"]["results"][0];
    assert_eq!(g["slug"], "pricing-refresh");
    assert_eq!(g["archived"], true);
    assert_eq!(g["status"], "archived");
    let v = search(&store, &["renewal discount status:active"]);
    assert!(slugs(&v).is_empty(), "{v}");
    let v = search(&store, &["renewal status:archived"]);
    assert_eq!(slugs(&v), vec!["pricing-refresh"]);
}

#[test]
fn spec_11_3_filters_phrases_and_exclusions() {
    let store = library();
    // in:<section>
    let v = search(&store, &["replica in:findings"]);
    assert_eq!(slugs(&v), vec!["billing-database-move"]);
    assert!(slugs(&search(&store, &["replica in:decisions"])).is_empty());
    let v = search(&store, &["pricing in:name"]);
    assert_eq!(slugs(&v), vec!["pricing-refresh"]);
    // dossier:
    let v = search(&store, &["move dossier:office-move"]);
    assert_eq!(slugs(&v), vec!["office-move"]);
    // -exclusion drops a Dossier that mentions it.
    let v = search(&store, &["move -postgres"]);
    assert_eq!(slugs(&v), vec!["office-move"]);
    // A quoted phrase is required, in order.
    let v = search(&store, &["\"billing database\""]);
    assert_eq!(slugs(&v), vec!["billing-database-move"]);
    assert!(slugs(&search(&store, &["\"database billing\""])).is_empty());
}

#[test]
fn spec_8_2_unknown_search_filter_is_refused_naming_the_valid_ones_and_writes_nothing() {
    let store = library();
    let before = support::snapshot(store.root());
    for (q, field) in [("owner:bob pricing", "query"), ("in:body pricing", "in"), ("status:open pricing", "status")] {
        let out = store.cmd().args(["search", q, "--json"]).output().unwrap();
        assert!(!out.status.success(), "{q}");
        let v = json_of(&out);
        assert_eq!(v["error"]["code"], "invalid_input", "{v}");
        assert_eq!(v["error"]["details"]["field"], field, "{v}");
        assert!(!v["error"]["details"]["valid"].as_array().unwrap().is_empty(), "{v}");
    }
    let v = json_of(&store.cmd().args(["search", "owner:bob", "--json"]).output().unwrap());
    assert!(v["error"]["message"].as_str().unwrap().contains("owner:"), "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("status:, dossier:, in:, kind:"), "{v}");
    assert_eq!(support::snapshot(store.root()), before, "a refused search writes nothing");
}

#[test]
fn spec_11_3_limit_pages_and_order_is_deterministic() {
    let store = library();
    let all = search(&store, &["move"]);
    assert_eq!(slugs(&all).len(), 2);
    let first = search(&store, &["move", "--limit", "1"]);
    assert_eq!(slugs(&first), slugs(&all)[..1].to_vec());
    assert_eq!(first["data"]["truncated"], true);
    let next = first["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("--offset 1"));
    assert!(next, "{first}");
    let second = search(&store, &["move", "--limit", "1", "--offset", "1"]);
    assert_eq!(slugs(&second), slugs(&all)[1..].to_vec());
    assert_eq!(second["data"]["truncated"], false);
    // The same query twice: the same bytes.
    let a = store.cmd().args(["search", "the move", "--json"]).output().unwrap().stdout;
    let b = store.cmd().args(["search", "the move", "--json"]).output().unwrap().stdout;
    assert_eq!(a, b);
}

#[test]
fn spec_11_3_literal_and_regex_keep_exact_semantics() {
    let store = library();
    let v = search(&store, &["signing in", "--literal"]);
    assert_eq!(v["data"]["total_hits"], 1, "{v}");
    assert!(v["data"].get("mode").is_none());
    let v = search(&store, &["sign.in", "--regex"]);
    assert_eq!(v["data"]["regex"], true);
    assert_eq!(v["data"]["total_hits"], 1, "{v}");
}

/// A copy of the evaluation store `tests/fixtures/<fixture>/store` (search never writes, but a
/// test leaves fixtures alone).
fn eval_store_of(fixture: &str) -> TempStore {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }
    let store = TempStore::new(crate::DOSSIER);
    copy(&support::workspace_root().join(format!("tests/fixtures/{fixture}/store")), store.root());
    store
}

/// The first evaluation store (tests/fixtures/search/).
fn eval_store() -> TempStore {
    eval_store_of("search")
}

/// Grade-2 Dossiers of a judged query (every relevant one when it has no grades).
fn expected(q: &serde_json::Value) -> Vec<String> {
    match q.get("grade").and_then(|g| g.as_object()) {
        Some(g) => g.iter().filter(|(_, v)| v.as_u64() == Some(2)).map(|(k, _)| k.clone()).collect(),
        None => q["relevant"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect(),
    }
}

/// Run every query of `set` through `dossier search --json`; print MRR and recall@3 (the
/// expected Dossiers among the first three / min(expected, 3)), overall and per style, as
/// tests/fixtures/search/baselines.py computes them. Returns (MRR, recall@3).
fn evaluate(set: &str) -> (f64, f64) {
    evaluate_in("search", set)
}

/// [`evaluate`] over the judged set `tests/fixtures/<fixture>/<set>.json` and its store.
fn evaluate_in(fixture: &str, set: &str) -> (f64, f64) {
    let store = eval_store_of(fixture);
    let path = support::workspace_root().join(format!("tests/fixtures/{fixture}/{set}.json"));
    let queries: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut per_style: std::collections::BTreeMap<String, (f64, f64, usize)> = Default::default();
    let (mut mrr, mut r3) = (0.0, 0.0);
    for q in &queries {
        let v = search(&store, &[q["query"].as_str().unwrap(), "--limit", "10"]);
        let ranked: Vec<String> = if v["ok"] == true { slugs(&v) } else { Vec::new() };
        let exp = expected(q);
        let rr = ranked.iter().position(|s| exp.contains(s)).map_or(0.0, |i| 1.0 / (i + 1) as f64);
        let hit3 = ranked.iter().take(3).filter(|s| exp.contains(s)).count() as f64 / exp.len().min(3) as f64;
        mrr += rr;
        r3 += hit3;
        let e = per_style.entry(q["style"].as_str().unwrap_or("?").to_string()).or_default();
        e.0 += rr;
        e.1 += hit3;
        e.2 += 1;
        if (set == "dev" || std::env::var_os("SEARCH_EVAL_VERBOSE").is_some()) && hit3 < 1.0 {
            eprintln!("  {} {:?}: expected {exp:?}, got {:?}", q["id"], q["query"], &ranked[..ranked.len().min(3)]);
        }
    }
    let n = queries.len() as f64;
    eprintln!("search eval {fixture}/{set}: {} queries, MRR {:.3}, recall@3 {:.3}", queries.len(), mrr / n, r3 / n);
    for (style, (m, r, k)) in &per_style {
        eprintln!("  {style:<12} n={k:<3} MRR {:.3}  R@3 {:.3}", m / *k as f64, r / *k as f64);
    }
    (mrr / n, r3 / n)
}

#[test]
fn search_eval_dev_set() {
    let (mrr, r3) = evaluate("dev");
    // The bar the tuning reached on the dev set (docs/search.md); the held-out set is scored
    // once by someone else.
    assert!(r3 >= 0.85 && mrr >= 0.8, "dev set: MRR {mrr:.3}, recall@3 {r3:.3}");
}

/// The held-out set: never tuned on, never read while developing; run once by the lead after
/// the ranking's last change (2026-12-01, `search22` f09f0a4: MRR 0.941, recall@3 0.974 over
/// 90 queries; docs/search.md). The bars are those figures, rounded down: the test fails on a
/// regression. The set is now spent for tuning: a new author writes the next one.
#[test]
fn search_eval_heldout_set() {
    let (mrr, r3) = evaluate("heldout");
    assert!(r3 >= 0.97 && mrr >= 0.94, "held-out set: MRR {mrr:.3}, recall@3 {r3:.3}");
}

/// The second held-out set (tests/fixtures/search2/: its own store of 106 Dossiers and 102
/// queries by a fresh author who never saw the ranker, 2026-12-01): run once by the lead after
/// the ranking's last change (docs/search.md, "Second held-out set"). Bars: those figures.
#[test]
fn search_eval_second_heldout_set() {
    let (mrr, r3) = evaluate_in("search2", "heldout");
    assert!(r3 >= 1.0 && mrr >= 0.99, "second held-out set: MRR {mrr:.3}, recall@3 {r3:.3}");
}

#[test]
fn spec_11_3_a_long_hyphenated_marker_is_found_as_written() {
    // Regression: the prefilter once looked only for the joined compound.
    let store = library();
    save_state(&store, "office-move", &state("Office move", "EXTRA-LINKED-CONTENT here.", "- None.", "- None."));
    let v = search(&store, &["EXTRA-LINKED-CONTENT"]);
    assert_eq!(slugs(&v), vec!["office-move"], "{v}");
    assert_eq!(v["data"]["total_hits"], 1);
}

#[test]
fn spec_11_3_diacritics_fold_both_ways_even_where_the_prefilter_sees_other_bytes() {
    // Regression: the ASCII prefilter skipped a file whose word carries an accent the query
    // does not ("résumé" for "resume"), so folding never ran on it.
    let store = library();
    let job = promote(&store, "Job hunt");
    save_state(&store, &job, &state("Job hunt", "The résumé goes to Zoë at the café.", "- None.", "- None."));
    let notes = promote(&store, "Plain notes");
    save_state(&store, &notes, &state("Plain notes", "Resume the cafe survey next week.", "- None.", "- None."));
    let v = search(&store, &["resume zoe"]);
    assert_eq!(slugs(&v).first().map(String::as_str), Some("job-hunt"), "{v}");
    let v = search(&store, &["Zoë"]);
    assert_eq!(slugs(&v), vec!["job-hunt"], "{v}");
    let v = search(&store, &["CAFÉ survey"]);
    assert_eq!(slugs(&v).first().map(String::as_str), Some("plain-notes"), "{v}");
}

/// FNV-1a, 64 bits: a stable digest of a result's snippets for the pinned output.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// One line per query: the counts, then each Dossier as `slug score #digest-of-its-hits`.
fn pinned_line(store: &TempStore, args: &[&str]) -> String {
    let v = search(store, args);
    if v["ok"] != true {
        return format!("{args:?} -> {}", v["error"]["code"]);
    }
    let d = &v["data"];
    let mut line = format!(
        "{args:?} -> hits {} dossiers {} candidates {} returned {} truncated {}:",
        d["total_hits"], d["total_dossiers"], d["candidate_files"], d["returned"], d["truncated"]
    );
    for g in d["results"].as_array().unwrap() {
        let hits = serde_json::to_string(&g["hits"]).unwrap();
        // Paths hold the temp dir: digest the hits without them.
        let hits = hits.replace(&store.root().display().to_string(), "");
        line.push_str(&format!(" {} {} #{:016x}", g["slug"].as_str().unwrap(), g["score"], fnv(hits.as_bytes())));
    }
    line
}

/// A generated store (`dossier_store::generate`, the bench's generator, small) with 24
/// Dossiers that score the same for `report` (only their last-touched times and slugs
/// differ), so the page boundary falls inside a run of ties.
fn generated_store() -> TempStore {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let spec = dossier_store::generate::Spec { dossiers: 60, artifacts_per_dossier: 6, body_bytes: 3_000, seed: 11 };
    dossier_store::generate::generate(store.root(), &spec).unwrap();
    let slugs: Vec<String> = (0..24).map(|i| format!("report-{:02}", (i * 7) % 24)).collect();
    let touched: Vec<String> = (0..24).map(|i| format!("2026-0{}-01T00:00:00Z", 1 + i % 4)).collect();
    for (s, t) in slugs.iter().zip(&touched) {
        let mut d = support::DossierSpec::new(s, "high", "low");
        d.last_touched_at = t;
        store.write_dossier(&d);
    }
    store
}

const GENERATED_QUERIES: &[&str] = &[
    "pricing",
    "renewal latency",
    "migration schema rollout",
    "\"customer contract\"",
    "budget -forecast",
    "incident in:findings",
    "database kind:artifact",
    "cache status:active",
    "report",
    "report next",
    "zzzunknownword",
];

/// The bounded scan (issue 22: memory bounded by the result page) must give the same bytes
/// as the scan that kept every matching document: pinned on the judged store (dev and the
/// spent held-out queries) and on a generated store, at several limits and offsets.
#[test]
fn spec_11_3_ranked_results_are_pinned_across_the_bounded_scan() {
    let mut out = String::new();
    let store = eval_store();
    for set in ["dev", "heldout"] {
        let path = support::workspace_root().join(format!("tests/fixtures/search/{set}.json"));
        let queries: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for q in &queries {
            let text = q["query"].as_str().unwrap();
            out.push_str(&pinned_line(&store, &[text, "--limit", "10"]));
            out.push('\n');
        }
    }
    let generated = generated_store();
    for q in GENERATED_QUERIES {
        for (limit, offset) in [("10", "0"), ("3", "0"), ("5", "7"), ("200", "0")] {
            out.push_str(&pinned_line(&generated, &[q, "--limit", limit, "--offset", offset]));
            out.push('\n');
        }
    }
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s.bind(|| insta::assert_snapshot!("search_ranked_pinned", out));
}

/// Paging with a bounded heap loses no group: every page of every size is the matching slice
/// of the whole ranking, including where the page boundary falls inside a run of ties.
#[test]
fn spec_11_3_every_page_is_the_slice_of_the_whole_ranking() {
    let store = generated_store();
    for q in ["report", "pricing renewal", "incident in:findings"] {
        let all = search(&store, &[q, "--limit", "1000"]);
        let whole: Vec<(String, String)> = all["data"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["slug"].as_str().unwrap().to_string(), g["hits"].to_string()))
            .collect();
        assert!(whole.len() > 20, "{q}: {}", whole.len());
        for limit in [1usize, 4, 7] {
            let mut paged = Vec::new();
            let mut offset = 0;
            while offset < whole.len() + limit {
                let v = search(&store, &[q, "--limit", &limit.to_string(), "--offset", &offset.to_string()]);
                assert_eq!(v["data"]["total_dossiers"].as_u64().unwrap() as usize, whole.len(), "{q}");
                for g in v["data"]["results"].as_array().unwrap() {
                    paged.push((g["slug"].as_str().unwrap().to_string(), g["hits"].to_string()));
                }
                offset += limit;
            }
            assert_eq!(paged, whole, "{q} in pages of {limit}");
        }
    }
}
