//! The fuzz targets' short CI run (issue 18): every committed input under `fuzz/corpus/`
//! (seeds and what the long runs kept) and `fuzz/regressions/` (inputs that once crashed) is
//! replayed through the same functions the libFuzzer targets call (`fuzz/src/targets.rs`, `fuzz/src/host_targets.rs`),
//! and property tests drive the two parsers that live in this crate: MCP tool arguments
//! against each tool's own schema (valid arguments with an unknown key or a wrong value put
//! in anywhere) and Claude Code transcripts cut at every byte.
//!
//! Case counts are small by default; `PROPTEST_CASES` raises them. The coverage-guided runs
//! are `fuzz/run.sh` (docs/conformance.md "Fuzzing").

use std::path::Path;

use dossier_store::error::Code;
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{Map, Value, json};

#[path = "../fuzz/src/host_targets.rs"]
mod host_targets;
#[path = "../fuzz/src/targets.rs"]
mod targets;

type Target = (&'static str, fn(&[u8]));

const TARGETS: [Target; 6] = [
    ("frontmatter", targets::frontmatter),
    ("provenance", targets::provenance),
    ("mcp_params", host_targets::mcp_params),
    ("transcript", host_targets::transcript),
    ("conflict_file", targets::conflict_file),
    ("config", targets::config),
];

fn fuzz_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz"))
}

#[test]
fn committed_corpora_and_regressions_replay_through_every_target() {
    for (name, target) in TARGETS {
        let mut n = 0;
        for dir in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(fuzz_dir().join(dir).join(name)) else { continue };
            for e in entries {
                let p = e.unwrap().path();
                let data = std::fs::read(&p).unwrap();
                if std::panic::catch_unwind(|| target(&data)).is_err() {
                    panic!("fuzz target {name} panics on {}", p.display());
                }
                n += 1;
            }
        }
        assert!(n > 0, "no corpus for fuzz target {name} (run fuzz/seeds.py)");
    }
}

fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    ProptestConfig { cases: n, failure_persistence: None, ..ProptestConfig::default() }
}

/// Valid arguments for some tools (the rest start from `{}`).
fn valid_args(tool: &str) -> Value {
    match tool {
        "dossier_save" => json!({"id": "a", "base_revision": "r", "distilled_state_markdown": "# A\n",
            "frontmatter_updates": {"next_action": "x", "due_date": "2026-12-31"},
            "artifacts": [{"type": "decision_evidence", "title": "t", "content_format": "markdown", "content": "c"}]}),
        "dossier_recall" => json!({"id": "a", "page": 2}),
        "dossier_session" => json!({"session_id": "s"}),
        _ => json!({}),
    }
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        Just(json!("2026-12-31")),
        Just(json!(-1)),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec(("[a-z_]{1,12}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Every object inside `v` (itself first), as JSON pointers.
fn object_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            out.push(at.clone());
            for (k, x) in m {
                object_pointers(x, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                object_pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn refusal_is_invalid_input(tool: &str, e: &dossier_store::DossierError) -> Result<(), TestCaseError> {
    prop_assert_eq!(e.code, Code::InvalidInput, "{}: {:?}", tool, e);
    prop_assert!(e.details.get("field").is_some_and(|f| f.is_string() || f.is_null()), "{}: {:?}", tool, e);
    prop_assert!(e.details.get("expected").is_some_and(Value::is_string), "{}: {:?}", tool, e);
    Ok(())
}

proptest! {
    #![proptest_config(cases(64))]

    /// SPEC §8.2: an unknown key anywhere in valid arguments is refused with `invalid_input`
    /// (at the top level, naming that key); any value anywhere is accepted or refused so.
    #[test]
    fn spec_8_2_mcp_arguments_with_an_unknown_key_or_any_value_are_checked(
        pick in any::<prop::sample::Index>(),
        place in any::<prop::sample::Index>(),
        key in "[a-z_]{1,12}",
        value in any_json(),
        replace in any::<bool>(),
    ) {
        // The tools whose seed is valid (those without one start from `{}`, which only some
        // accept); the seeded ones must be among them.
        let usable: Vec<(String, Value)> = dossier::mcp::input_schemas()
            .into_iter()
            .filter(|(t, s)| dossier::mcp::params::check(s, valid_args(t).as_object().unwrap()).is_ok())
            .collect();
        for t in ["dossier_save", "dossier_recall", "dossier_session"] {
            prop_assert!(usable.iter().any(|(u, _)| u == t), "{} seed refused", t);
        }
        let (tool, schema) = &usable[pick.index(usable.len())];
        let mut args = valid_args(tool);
        let mut objects = Vec::new();
        object_pointers(&args, String::new(), &mut objects);
        let at = objects[place.index(objects.len())].clone();
        let target = args.pointer_mut(&at).unwrap().as_object_mut().unwrap();
        let existing: Vec<String> = target.keys().cloned().collect();
        let known = existing.contains(&key);
        let replaced = replace && !existing.is_empty();
        if replaced {
            let k = existing[place.index(existing.len())].clone();
            target.insert(k, value);
        } else {
            target.insert(key.clone(), value);
        }
        let top_level_unknown = at.is_empty()
            && !replaced
            && !known
            && schema.pointer(&format!("/properties/{key}")).is_none();
        match dossier::mcp::params::check(schema, args.as_object().unwrap()) {
            Ok(()) => prop_assert!(!top_level_unknown, "{}: unknown `{}` accepted", tool, key),
            Err(e) => {
                refusal_is_invalid_input(tool, &e)?;
                if top_level_unknown {
                    prop_assert_eq!(e.details["field"].as_str(), Some(key.as_str()));
                }
            }
        }
    }

    /// Any JSON object as any tool's arguments: accepted or `invalid_input`, never a panic.
    #[test]
    fn spec_8_2_any_json_arguments_are_accepted_or_invalid_input(pick in any::<prop::sample::Index>(), value in any_json()) {
        let schemas = dossier::mcp::input_schemas();
        let (tool, schema) = &schemas[pick.index(schemas.len())];
        let args = match value { Value::Object(m) => m, v => Map::from_iter([("id".to_string(), v)]) };
        if let Err(e) = dossier::mcp::params::check(schema, &args) {
            refusal_is_invalid_input(tool, &e)?;
        }
    }
}

/// A transcript cut at every byte (a line still being written, or a file truncated): the
/// scanner never panics, and the edits it keeps from a cut are the full file's first edits
/// (less those a later line marks failed).
#[test]
fn spec_5_2_transcript_cut_at_every_byte_keeps_a_prefix_of_the_edits() {
    let dir = fuzz_dir().join("corpus/transcript");
    // The seeds only (every cut of every file the fuzzer kept would be quadratic in the corpus).
    let mut seeds: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("seed-")))
        .collect();
    seeds.sort();
    for p in seeds {
        let data = std::fs::read(&p).unwrap();
        let full = dossier::hooks::card::edits_in(&data);
        for cut in 0..=data.len() {
            let part = dossier::hooks::card::edits_in(&data[..cut]);
            let kept: Vec<_> = part.into_iter().filter(|e| full.contains(e)).collect();
            assert_eq!(kept, full[..kept.len()].to_vec(), "{} cut at {cut}", p.display());
            host_targets::transcript(&data[..cut]);
        }
    }
}
