//! The policy boundary, end to end: the embedded component gives the same answers as the
//! native `dossier-core`; a component named in config.yaml replaces it (and changes
//! `dossier ls`); every failure mode is a precise error naming the component; the compile
//! cache is reused across processes and survives corruption.

use std::collections::HashMap;
use std::path::PathBuf;

use dossier::policy::{
    CacheOutcome, CompileCache, Interface, Level, Limits, Policies, PolicyError, PriorityInput, Source, Weights,
};
use dossier_core::priority as native;
use support::{DossierSpec, TempStore, fixture, json_of};

fn policies(cache: Option<PathBuf>, overrides: &[(Interface, PathBuf)], limits: Limits) -> Policies {
    let overrides: HashMap<_, _> = overrides.iter().cloned().collect();
    Policies::new(CompileCache::new(cache), &overrides, limits).unwrap()
}

/// A deterministic pseudo-random stream (no RNG dependency, reproducible failures).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

fn to_native(i: &PriorityInput) -> native::PriorityInput {
    let l = |l: Level| if l == Level::High { native::Level::High } else { native::Level::Low };
    native::PriorityInput {
        importance: l(i.importance),
        urgency: l(i.urgency),
        due_date: i.due_date,
        last_touched_at: i.last_touched_at,
        updated_at: i.updated_at,
    }
}

#[test]
fn embedded_component_matches_native_core_on_a_table_of_cases() {
    let p = policies(None, &[], Limits::default());
    let mut rng = Lcg(7);
    let weight_table = [
        Weights { importance: 2, urgency: 1, due_window_days: None },
        Weights { importance: 1, urgency: 2, due_window_days: None },
        Weights { importance: 1, urgency: 1, due_window_days: None },
        Weights { importance: 0, urgency: 0, due_window_days: None },
        Weights { importance: 5, urgency: 3, due_window_days: Some(2) },
    ];
    let now = 1_000 * 86_400_000;
    for (case, w) in weight_table.iter().cycle().take(40).enumerate() {
        let n = (rng.next() % 60) as usize;
        let items: Vec<PriorityInput> = (0..n)
            .map(|_| PriorityInput {
                importance: if rng.next().is_multiple_of(2) { Level::High } else { Level::Low },
                urgency: if rng.next().is_multiple_of(2) { Level::High } else { Level::Low },
                due_date: rng
                    .next()
                    .is_multiple_of(3)
                    .then(|| now + (rng.next() % 10) as i64 * 86_400_000 - 3 * 86_400_000),
                last_touched_at: (rng.next() % 5) as i64,
                updated_at: (rng.next() % 5) as i64,
            })
            .collect();
        let native_items: Vec<_> = items.iter().map(to_native).collect();
        let nw = native::Weights { importance: w.importance, urgency: w.urgency, due_window_days: w.due_window_days };
        let expected: Vec<(u32, u8)> =
            native::sort(&native_items, now, &nw).iter().map(|r| (r.index, r.score)).collect();
        let got: Vec<(u32, u8)> =
            p.priority_sort(&items, now, *w).unwrap().iter().map(|r| (r.index, r.score)).collect();
        assert_eq!(got, expected, "case {case}: sort differs");
        for (i, item) in items.iter().enumerate() {
            assert_eq!(
                p.priority_score(*item, now, *w).unwrap(),
                native::score(&native_items[i], now, &nw),
                "case {case} item {i}"
            );
        }
    }
}

#[test]
fn embedded_ranking_matches_native_core() {
    use dossier::policy::{Candidate, Confidence, LifecycleStatus, RankingOptions};
    use dossier_core::ranking as nr;
    let p = policies(None, &[], Limits::default());
    let mut rng = Lcg(11);
    let words = ["pricing", "sales", "renewal", "latency", "postgres", "launch", "hiring", "budget", "cache", "tier"];
    let mut text = |n: usize| (0..n).map(|_| words[(rng.next() % 10) as usize]).collect::<Vec<_>>().join(" ");
    for case in 0..20 {
        let cands: Vec<Candidate> = (0..8)
            .map(|i| Candidate {
                name: format!("{} {i}", text(2)),
                slug: format!("slug-{i}"),
                status: LifecycleStatus::Active,
                next_action: text(4),
                open_questions: vec![text(3)],
                body: text(30),
                artifact_titles: vec![text(2)],
                last_touched_at: i as i64 * 86_400_000,
            })
            .collect();
        let query = text(6);
        let native: Vec<nr::Candidate> = cands
            .iter()
            .map(|c| nr::Candidate {
                name: c.name.clone(),
                slug: c.slug.clone(),
                next_action: c.next_action.clone(),
                open_questions: c.open_questions.clone(),
                body: c.body.clone(),
                artifact_titles: c.artifact_titles.clone(),
                last_touched_at: c.last_touched_at,
            })
            .collect();
        let now = 30 * 86_400_000;
        let expected: Vec<_> = nr::rank(&query, &native, 3, now)
            .into_iter()
            .map(|s| (s.index, s.score.to_bits(), format!("{:?}", s.confidence), s.reason))
            .collect();
        let got: Vec<_> = p
            .rank(&query, &cands, RankingOptions { limit: 3, now })
            .unwrap()
            .into_iter()
            .map(|s| {
                let c = match s.confidence {
                    Confidence::High => "High",
                    Confidence::Medium => "Medium",
                    Confidence::Low => "Low",
                };
                (s.index, s.score.to_bits(), c.to_string(), s.reason)
            })
            .collect();
        assert_eq!(got, expected, "case {case}");
    }
}

#[test]
fn embedded_unimplemented_interfaces_load_but_refuse_clearly() {
    let p = policies(None, &[], Limits::default());
    for i in Interface::ALL {
        p.check(i).unwrap_or_else(|e| panic!("{i} does not load: {e}"));
    }
}

fn dossiers_for_swap(store: &TempStore) {
    // Important but not urgent ("Plan") vs urgent but not important ("Delegate").
    store.write_dossier(&DossierSpec::new("plan-me", "high", "low"));
    store.write_dossier(&DossierSpec::new("delegate-me", "low", "high"));
    store.write_dossier(&DossierSpec::new("do-now", "high", "high"));
}

#[test]
fn config_swap_changes_ls_ordering() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    dossiers_for_swap(&store);
    assert_eq!(store.ls_slugs(&[]), ["do-now", "plan-me", "delegate-me"]);

    let component = fixture("urgency_first");
    store.write_config(&format!("policy:\n  priority: {}\n", component.display()));
    assert_eq!(store.ls_slugs(&[]), ["do-now", "delegate-me", "plan-me"]);

    let out = store.cmd().args(["ls", "--json"]).output().unwrap();
    let v = json_of(&out);
    let scores: Vec<u64> =
        v["data"]["dossiers"].as_array().unwrap().iter().map(|d| d["priority_score"].as_u64().unwrap()).collect();
    assert_eq!(scores, [1, 2, 3], "scores come from the alternate component");

    let doctor = store.cmd().args(["doctor", "--json"]).output().unwrap();
    let v = json_of(&doctor);
    let priority = v["data"]["checks"].as_array().unwrap().iter().find(|c| c["check"] == "policy.priority").unwrap();
    assert!(priority["message"].as_str().unwrap().contains(&component.display().to_string()), "{priority}");
}

#[test]
fn weights_in_config_are_honoured_by_the_default_component() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    dossiers_for_swap(&store);
    store.write_config("priority:\n  weights:\n    importance: 1\n    urgency: 2\n");
    assert_eq!(store.ls_slugs(&[]), ["do-now", "delegate-me", "plan-me"]);
}

fn err_of(p: &Policies) -> PolicyError {
    let items = [PriorityInput {
        importance: Level::High,
        urgency: Level::Low,
        due_date: None,
        last_touched_at: 0,
        updated_at: 0,
    }];
    p.priority_sort(&items, 0, Weights { importance: 2, urgency: 1, due_window_days: None }).unwrap_err()
}

#[test]
fn missing_file_is_named() {
    let path = PathBuf::from("/nonexistent/dir/priority.wasm");
    let e = err_of(&policies(None, &[(Interface::Priority, path.clone())], Limits::default()));
    assert_eq!(e, PolicyError::MissingFile { interface: Interface::Priority, path });
    assert_eq!(
        e.to_string(),
        "policy component for `priority` not found: /nonexistent/dir/priority.wasm does not exist; fix `policy.priority` in config.yaml or remove it to use the embedded default"
    );
}

#[test]
fn a_file_that_is_not_a_component_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.wasm");
    std::fs::write(&path, b"this is not wasm").unwrap();
    let e = err_of(&policies(None, &[(Interface::Priority, path.clone())], Limits::default()));
    match &e {
        PolicyError::NotAComponent { interface: Interface::Priority, component: Source::File(p), .. } => {
            assert_eq!(p, &path)
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(e.to_string().starts_with(&format!("{} is not a valid WebAssembly component", path.display())), "{e}");
}

#[test]
fn wrong_world_is_named() {
    let path = fixture("ranking_only");
    let e = err_of(&policies(None, &[(Interface::Priority, path.clone())], Limits::default()));
    assert_eq!(
        e.to_string(),
        format!(
            "{} does not implement `priority`: it has no export `dossier:policy/priority@2.3.0` (exports: dossier:policy/ranking@2.3.0); build it for the world `dossier:policy/priority-policy@2.3.0`",
            path.display()
        )
    );
}

#[test]
fn incompatible_version_is_named() {
    let path = fixture("priority_v3");
    let e = err_of(&policies(None, &[(Interface::Priority, path.clone())], Limits::default()));
    assert_eq!(
        e,
        PolicyError::IncompatibleVersion {
            interface: Interface::Priority,
            component: Source::File(path.clone()),
            found: "3.0.0".into(),
            required: "2.3.0".into()
        }
    );
    assert_eq!(
        e.to_string(),
        format!(
            "{} exports `priority` at incompatible version 3.0.0; this dossier speaks dossier:policy@2.3.0, rebuild the component against wit/ from this release",
            path.display()
        )
    );
}

#[test]
fn contract_mismatch_is_named_at_load() {
    let path = fixture("priority_mismatch");
    let p = policies(None, &[(Interface::Priority, path.clone())], Limits::default());
    let e = p.check(Interface::Priority).unwrap_err();
    match &e {
        PolicyError::ContractMismatch { interface: Interface::Priority, component: Source::File(p), .. } => {
            assert_eq!(p, &path)
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(
        e.to_string()
            .starts_with(&format!("{} exports `priority` but does not match dossier:policy@2.3.0: ", path.display())),
        "{e}"
    );
    assert_eq!(err_of(&p), e, "a call reports the same mismatch");
}

#[test]
fn trap_is_named() {
    let path = fixture("trap");
    let e = err_of(&policies(None, &[(Interface::Priority, path.clone())], Limits::default()));
    match &e {
        PolicyError::Trapped { interface: Interface::Priority, function: "sort", reason, .. } => {
            assert_eq!(reason, "wasm trap: wasm `unreachable` instruction executed")
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(e.to_string().starts_with(&format!("{} trapped in `priority.sort`: ", path.display())), "{e}");
}

#[test]
fn a_component_reaching_for_files_or_env_traps_on_the_refused_capability() {
    let path = fixture("reach");
    let e = err_of(&policies(None, &[(Interface::Priority, path.clone())], Limits::default()));
    match &e {
        PolicyError::Trapped { function: "sort", reason, .. } => {
            assert!(reason.starts_with("it called `wasi:"), "{reason}");
            assert!(
                reason.ends_with(
                    "a capability policy components are not granted (no files, environment, clock or sockets)"
                ),
                "{reason}"
            );
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn timeout_is_named() {
    let path = fixture("spin");
    let limits = Limits { time_ms: 50, ..Limits::default() };
    let started = std::time::Instant::now();
    let e = err_of(&policies(None, &[(Interface::Priority, path.clone())], limits));
    // Generous: the deadline is 50 ms; a stalled ticker would spin forever.
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "took {:?}", started.elapsed());
    assert_eq!(
        e,
        PolicyError::TimedOut {
            interface: Interface::Priority,
            component: Source::File(path.clone()),
            function: "sort",
            time_ms: 50
        }
    );
    assert!(e.to_string().starts_with(&format!("{} did not finish `priority.sort` within 50 ms", path.display())));
}

#[test]
fn memory_exhaustion_is_named() {
    let path = fixture("hog");
    let limits = Limits { memory_bytes: 16 << 20, ..Limits::default() };
    let e = err_of(&policies(None, &[(Interface::Priority, path.clone())], limits));
    match &e {
        PolicyError::OutOfMemory { interface: Interface::Priority, function: "sort", limit, requested, .. } => {
            assert_eq!(*limit, 16 << 20);
            assert!(*requested > 16 << 20);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(e.to_string().contains("exceeded its memory limit in `priority.sort`"), "{e}");
}

#[test]
fn cli_reports_a_broken_component_and_never_falls_back() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    dossiers_for_swap(&store);
    let path = fixture("trap");
    store.write_config(&format!("policy:\n  priority: {}\n", path.display()));
    let out = store.cmd().args(["ls", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(6));
    let v = json_of(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], "policy_unavailable");
    assert!(v["error"]["message"].as_str().unwrap().contains(&path.display().to_string()));

    let doctor = store.cmd().arg("doctor").output().unwrap();
    assert_eq!(doctor.status.code(), Some(1), "doctor fails on a broken policy");
    // The trap only shows when called; doctor checks loading. A wrong world fails at load:
    store.write_config(&format!("policy:\n  priority: {}\n", fixture("ranking_only").display()));
    let doctor = store.cmd().arg("doctor").output().unwrap();
    assert_eq!(doctor.status.code(), Some(1));
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert!(text.contains("ERROR policy.priority") && text.contains("does not implement `priority`"), "{text}");
}

#[test]
fn compile_cache_is_reused_and_rebuilt_when_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let first = policies(Some(cache.clone()), &[], Limits::default());
    assert_eq!(first.check(Interface::Priority).unwrap().cache, CacheOutcome::Compiled { stored: true });
    let second = policies(Some(cache.clone()), &[], Limits::default());
    assert_eq!(second.check(Interface::Priority).unwrap().cache, CacheOutcome::Hit);

    let files: Vec<_> = std::fs::read_dir(&cache).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "one artifact for one component: {files:?}");
    let artifact = &files[0];

    // Corrupt one byte in the middle: checksum catches it before wasmtime sees it.
    let mut bytes = std::fs::read(artifact).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(artifact, &bytes).unwrap();
    let third = policies(Some(cache.clone()), &[], Limits::default());
    match third.check(Interface::Priority).unwrap().cache {
        CacheOutcome::Rebuilt { reason, stored: true } => assert!(reason.contains("checksum"), "{reason}"),
        other => panic!("unexpected {other:?}"),
    }
    // Truncated file.
    let len = std::fs::metadata(artifact).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(artifact).unwrap().set_len(len / 3).unwrap();
    let fourth = policies(Some(cache.clone()), &[], Limits::default());
    assert!(matches!(fourth.check(Interface::Priority).unwrap().cache, CacheOutcome::Rebuilt { .. }));
    // A stale artifact with a valid checksum that wasmtime rejects.
    let junk = b"not a compiled artifact".to_vec();
    let mut stale = blake3::hash(&junk).as_bytes().to_vec();
    stale.extend_from_slice(&junk);
    std::fs::write(artifact, &stale).unwrap();
    let fifth = policies(Some(cache.clone()), &[], Limits::default());
    match fifth.check(Interface::Priority).unwrap().cache {
        CacheOutcome::Rebuilt { reason, .. } => assert!(reason.contains("rejected by wasmtime"), "{reason}"),
        other => panic!("unexpected {other:?}"),
    }
    let sixth = policies(Some(cache), &[], Limits::default());
    assert_eq!(sixth.check(Interface::Priority).unwrap().cache, CacheOutcome::Hit);
    // And the rebuilt component still decides correctly.
    let items = [PriorityInput {
        importance: Level::Low,
        urgency: Level::High,
        due_date: None,
        last_touched_at: 0,
        updated_at: 0,
    }];
    assert_eq!(
        sixth.priority_sort(&items, 0, Weights { importance: 2, urgency: 1, due_window_days: None }).unwrap()[0].score,
        3
    );
}

#[test]
fn a_second_process_does_not_compile_again() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let out = store.cmd().args(["doctor", "--json"]).output().unwrap();
    let v = json_of(&out);
    for c in
        v["data"]["checks"].as_array().unwrap().iter().filter(|c| c["check"].as_str().unwrap().starts_with("policy."))
    {
        assert!(c["message"].as_str().unwrap().contains("compiled artifact cached"), "{c}");
    }
}

/// `distill.validate` through the embedded component gives the same findings, with the same
/// lines, as the policy run natively, on a state that has one of each problem.
#[test]
fn distill_findings_cross_the_component_boundary_with_their_lines() {
    let doc = "# Topic\n\n## Situation\n\nContext.\n\n## Decisions\n\n- Annual commits.\n\n## Findings\n\n\
- Churn is 3x. [src:art_01known#L5-L500]\n- Cites a ghost. [src:art_01ghost]\n- Bad cite [src:art_01known#L9]\n\n\
## Current State\n\nNo source here.\n\n## Next Steps\n";
    let artifacts = [dossier::policy::ArtifactInfo { id: "art_01known".into(), line_count: Some(40) }];
    let p = policies(None, &[], Limits::default());
    let got: Vec<(String, u32)> =
        p.distill_validate(doc, &artifacts).unwrap().into_iter().map(|f| (f.code, f.line)).collect();
    let native_artifacts = [dossier_core::distill::ArtifactInfo { id: "art_01known".into(), line_count: Some(40) }];
    let want: Vec<(String, u32)> = dossier_core::distill::validate(doc, &native_artifacts)
        .into_iter()
        .map(|f| (f.code.to_string(), f.line))
        .collect();
    assert_eq!(got, want);
    for (code, line) in [
        ("decision-without-rationale", 9),
        ("decision-without-attribution", 9),
        ("missing-provenance", 9),
        ("line-range-beyond-artifact", 13),
        ("unknown-artifact", 14),
        ("malformed-provenance", 15),
        ("missing-provenance", 19),
        ("empty-next-steps", 21),
    ] {
        assert!(got.contains(&(code.to_string(), line)), "{code} on line {line}: {got:?}");
    }
}

/// Texts for the redaction parity tests: plain, multi-line, JSON-escaped, none to find.
fn redaction_texts() -> Vec<String> {
    let ghp = format!("ghp_{}", "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4");
    let pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nq3Xk9mP2qL7wZ==\n-----END PRIVATE KEY-----";
    vec![
        String::new(),
        "nothing secret here\njust prose about passwords and tokens\n".to_string(),
        format!("a\n{ghp}\nkey = AKIAQ7R4XK2MZT5WB3NE\n{pem}\nDB_PASSWORD=Xk9mP2qL7wZ\nb"),
        serde_json::json!({"type": "tool_result", "content": format!("export GITHUB_TOKEN={ghp}\n{pem}\nok")})
            .to_string(),
        format!("{{\"a\":1}}\n{}\n", serde_json::json!({"private_key": format!("{pem}\n")})),
    ]
}

#[test]
fn embedded_redaction_matches_native_core() {
    use dossier::policy::RedactionOptions;
    use dossier_core::redact as native_redact;
    let p = policies(None, &[], Limits::default());
    let key = vec![9u8; 32];
    for text in redaction_texts() {
        let options = RedactionOptions { key: key.clone(), allow: vec![] };
        let got = p.redact(&text, &options).unwrap_or_else(|e| panic!("{e}"));
        let want = native_redact::redact(&text, &native_redact::Options { key: &key, allow: &[] }).unwrap();
        assert_eq!(got.text, want.text, "{text}");
        let hits: Vec<_> =
            got.hits.iter().map(|h| (h.kind.as_str(), h.first_line, h.last_line, h.marker.as_str())).collect();
        let want_hits: Vec<_> =
            want.hits.iter().map(|h| (h.kind, h.first_line, h.last_line, h.marker.as_str())).collect();
        assert_eq!(hits, want_hits, "{text}");
    }
}

/// `redact_many` (doctor's and `sync init`'s scans: one instance for many texts) answers each
/// text exactly as `redact` does, in order, through the embedded component and through an
/// alternate one (whose outputs are checked call by call: one bad answer fails the batch).
#[test]
fn redact_many_answers_each_text_as_redact_does() {
    use dossier::policy::RedactionOptions;
    let p = policies(None, &[], Limits::default());
    let options = RedactionOptions { key: vec![7; 32], allow: vec![] };
    let mut texts = redaction_texts();
    texts.extend(redaction_texts().into_iter().rev());
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let many = p.redact_many(&refs, &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(many.len(), texts.len());
    for (text, got) in texts.iter().zip(&many) {
        let one = p.redact(text, &options).unwrap();
        assert_eq!(got.text, one.text, "{text}");
        let hits = |r: &dossier::policy::Redaction| -> Vec<(String, u32, u32, String)> {
            r.hits.iter().map(|h| (h.kind.clone(), h.first_line, h.last_line, h.marker.clone())).collect()
        };
        assert_eq!(hits(got), hits(&one), "{text}");
    }
    assert!(many.iter().any(|r| !r.hits.is_empty()), "the texts hold secrets");

    let path = fixture("redaction_bad");
    let alt = policies(None, &[(Interface::Redaction, path.clone())], Limits::default());
    let got = alt.redact_many(&["hello", "world"], &options).unwrap();
    assert_eq!(got.iter().map(|r| r.text.as_deref()).collect::<Vec<_>>(), [Some("HELLO"), Some("WORLD")]);
    let e = alt.redact_many(&["hello", "lines\n"], &options).unwrap_err();
    assert!(e.to_string().contains("the redacted text has 0 newlines, the input 1"), "{e}");
}

#[test]
fn redacted_jsonl_lines_stay_valid_json_through_the_component() {
    use dossier::policy::RedactionOptions;
    let p = policies(None, &[], Limits::default());
    let options = RedactionOptions { key: vec![1; 32], allow: vec![] };
    for text in redaction_texts() {
        let r = p.redact(&text, &options).unwrap();
        let out = r.text.unwrap_or(text.clone());
        assert_eq!(out.lines().count(), text.lines().count());
        for (line, original) in out.lines().zip(text.lines()) {
            if serde_json::from_str::<serde_json::Value>(original).is_ok() {
                serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            }
        }
    }
}

#[test]
fn redaction_refuses_a_key_that_is_not_32_bytes() {
    use dossier::policy::RedactionOptions;
    let p = policies(None, &[], Limits::default());
    let e = p.redact("x", &RedactionOptions { key: vec![1; 16], allow: vec![] }).unwrap_err();
    assert_eq!(
        e.to_string(),
        "embedded default policy (dossier 0.1.0) refused `redaction.redact`: invalid input: the redaction key must be 32 bytes, got 16"
    );
}

#[test]
fn a_24_mb_transcript_fits_the_redaction_memory_cap() {
    use dossier::policy::RedactionOptions;
    let p = policies(None, &[], Limits::default());
    let line = serde_json::json!({"type": "assistant", "message": {"content": "x".repeat(2000)}}).to_string();
    let mut text = String::with_capacity(25 << 20);
    while text.len() < 24 << 20 {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str("AKIAQ7R4XK2MZT5WB3NE\n");
    let r = p.redact(&text, &RedactionOptions { key: vec![1; 32], allow: vec![] }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.hits.len(), 1);
    assert_eq!(r.text.unwrap().len(), text.len() - 20 + r.hits[0].marker.len());
}

#[test]
fn an_alternate_redaction_component_answers_and_its_outputs_are_checked() {
    use dossier::policy::RedactionOptions;
    let path = fixture("redaction_bad");
    let p = policies(None, &[(Interface::Redaction, path.clone())], Limits::default());
    let o = RedactionOptions { key: vec![1; 32], allow: vec![] };
    assert_eq!(p.redact("hello", &o).unwrap().text.as_deref(), Some("HELLO"));
    for (input, why) in [
        ("lines\n", "the redacted text has 0 newlines, the input 1"),
        ("range", "hit `x` on lines 1-3 of a 1-line input"),
        ("kind", "hit kind `Bad Kind` is not a snake_case name"),
    ] {
        let e = p.redact(input, &o).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{} returned an invalid result from `redaction.redact`: {why}", path.display()),
            "{input}"
        );
    }
}
