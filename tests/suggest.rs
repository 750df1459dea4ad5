//! Suggestion ranking in use: promote refuses likely duplicates without explicit create
//! intent, link without a target only lists candidates, link with a target attaches the
//! content through the Save path. Thresholds themselves are calibrated in core's tests.

use support::{TempStore, json_of, snapshot};

fn setup() -> TempStore {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    for (name, next) in [
        ("Pricing model refresh", "Compare revised pricing scenarios with sales feedback"),
        ("Database migration to Postgres", "Backfill the orders table"),
        ("Hiring loop redesign", "Calibrate the interview rubric"),
    ] {
        let out = store.cmd().args(["promote", "--name", name, "--create", "--json"]).output().unwrap();
        assert!(out.status.success());
        let slug = json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
        store.cmd().args(["next", &slug, next]).assert().success();
    }
    store
}

#[test]
fn promote_of_a_likely_duplicate_asks_and_writes_nothing() {
    let store = setup();
    let notes = store.dir.path().join("notes.md");
    std::fs::write(&notes, "# Pricing follow-up\n\nSales feedback on the revised pricing scenarios and packaging.\n")
        .unwrap();
    let before = snapshot(store.root());
    let out = store.cmd().args(["promote", "--from-file"]).arg(&notes).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "ambiguous_target");
    let c = &v["error"]["details"]["candidates"][0];
    assert_eq!(c["slug"], "pricing-model-refresh");
    assert_eq!(c["confidence"], "high");
    assert!(c["reason"].as_str().unwrap().starts_with("shared terms: "), "{c}");
    assert_eq!(v["error"]["details"]["requires_selection"], true);
    assert!(v["next_actions"][0].as_str().unwrap().starts_with("dossier link pricing-model-refresh --from-file"));
    assert_eq!(snapshot(store.root()), before, "nothing created");

    // Unrelated content is created without asking.
    let out = store.cmd().args(["promote", "--name", "Office plants rota", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    // Explicit create intent overrides a high-confidence match.
    let out = store.cmd().args(["promote", "--from-file"]).arg(&notes).args(["--create", "--json"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(json_of(&out)["data"]["slug"], "pricing-follow-up");
}

#[test]
fn link_without_a_target_lists_candidates_and_never_attaches() {
    let store = setup();
    let session = store.dir.path().join("session.txt");
    std::fs::write(&session, "We talked about postgres dual writes and the orders backfill.\n").unwrap();
    let before = snapshot(store.root());
    let out = store.cmd().args(["link", "--from-file"]).arg(&session).arg("--json").output().unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    assert_eq!(v["data"]["requires_selection"], true);
    let cands = v["data"]["candidates"].as_array().unwrap();
    assert!(!cands.is_empty() && cands.len() <= 3);
    assert_eq!(cands[0]["slug"], "database-migration-to-postgres");
    for c in cands {
        assert!(["high", "medium", "low"].contains(&c["confidence"].as_str().unwrap()));
    }
    assert_eq!(snapshot(store.root()), before, "listing candidates attaches nothing");

    let out = store
        .cmd()
        .args(["link", "database-migration-to-postgres", "--from-file"])
        .arg(&session)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    assert_eq!(v["data"]["event"], "link");
    assert_eq!(v["data"]["artifacts_added"].as_array().unwrap().len(), 1);
    let log = std::fs::read_to_string(store.root().join("database-migration-to-postgres/audit.log")).unwrap();
    assert!(log.lines().last().unwrap().contains("\"event\":\"link\""));
}

/// A Distilled State with the five fixed sections and real content.
fn state(name: &str, [situation, decision, finding, current, next]: [&str; 5]) -> String {
    format!(
        "# {name}\n\n## Situation\n\n{situation}\n\n## Decisions\n\n- {decision}\n\n## Findings\n\n- {finding}\n\n\
         ## Current State\n\n{current}\n\n## Next Steps\n\n1. {next}\n"
    )
}

#[test]
fn spec_11_2_section_headings_do_not_make_unrelated_dossiers_related() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let kitchen = store.dir.path().join("kitchen.md");
    let body = state(
        "Kitchen renovation",
        [
            "Gutting the kitchen to move the sink under the window.",
            "Quartz splashback, because tiles crack around the hob.",
            "The wall behind the fridge is load-bearing (surveyor report).",
            "Cabinets ordered; delivery in three weeks.",
            "Book the plumber for the sink move.",
        ],
    );
    std::fs::write(&kitchen, body).unwrap();
    let out = store.cmd().args(["promote", "--from-file"]).arg(&kitchen).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let quantum = store.dir.path().join("quantum.md");
    let body = state(
        "Quantum chip tapeout",
        [
            "Taping out the 64-qubit test die at the foundry.",
            "Tunable couplers over fixed, because crosstalk dominated the last run.",
            "Qubit coherence drops 20% above 15 mK on the cryostat.",
            "Mask set frozen; DRC clean except two waivers.",
            "Send the GDS to the foundry by Friday.",
        ],
    );
    std::fs::write(&quantum, body).unwrap();
    let out = store.cmd().args(["promote", "--from-file"]).arg(&quantum).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["data"]["slug"], "quantum-chip-tapeout");
    let related: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w.as_str())
        .filter(|w| w.starts_with("possibly related"))
        .collect();
    assert!(related.is_empty(), "unrelated Dossiers suggested: {related:?}");
}

/// A sparse file over the 1 GiB artifact limit is refused by its size, before it is read
/// (reading it took seconds and twice its size in memory), with save --artifact's error.
#[test]
fn spec_4_3_promote_refuses_an_oversized_file_before_reading_it() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    // A Dossier the file's name matches: read first, the file would meet the duplicate guard
    // (`ambiguous_target`) before the size check; refused at once, it never gets that far.
    store.cmd().args(["promote", "--name", "Big", "--create"]).assert().success();
    let big = store.dir.path().join("big.md");
    std::fs::File::create(&big).unwrap().set_len(1_100_000_000).unwrap();
    let before = snapshot(store.root());
    let out = store.cmd().args(["promote", "--from-file"]).arg(&big).arg("--json").output().unwrap();
    assert!(!out.status.success());
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "artifact_too_large", "{v}");
    assert_eq!(
        v["error"]["message"],
        "artifact `Promoted from big.md` is 1100000000 bytes; the limit is 1073741824 bytes (1 GiB)"
    );
    assert_eq!(v["error"]["details"]["size"], 1_100_000_000u64);
    assert_eq!(snapshot(store.root()), before, "nothing written");
}

#[test]
fn spec_4_3_link_refuses_an_oversized_file_before_reading_it() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.cmd().args(["promote", "--name", "Big", "--create"]).assert().success();
    let big = store.dir.path().join("big.md");
    std::fs::File::create(&big).unwrap().set_len(1_100_000_000).unwrap();
    let before = snapshot(store.root());
    // Without a target the file was read whole to rank it; with one, to archive it.
    for args in [vec!["link", "--from-file"], vec!["link", "big", "--from-file"]] {
        let out = store.cmd().args(&args).arg(&big).arg("--json").output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        let v = json_of(&out);
        assert_eq!(v["error"]["code"], "artifact_too_large", "{args:?}: {v}");
        assert_eq!(v["error"]["details"]["size"], 1_100_000_000u64);
    }
    assert_eq!(snapshot(store.root()), before, "nothing written");
}

#[test]
fn spec_5_2_promote_offers_the_new_dossier_to_the_session() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let out = store.cmd().args(["promote", "--name", "Quarterly hiring plan", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json_of(&out);
    let slug = v["data"]["slug"].as_str().unwrap();
    assert_eq!(v["next_actions"][0], format!("dossier switch {slug}"), "{v}");
}
