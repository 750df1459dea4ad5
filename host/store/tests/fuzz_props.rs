//! Property tests of the store's parsers at the edges (issue 18): `dossier.md` frontmatter,
//! `config.yaml` and conflict files, on arbitrary text and on real files mutated byte by byte;
//! and "nothing written on rejection" through the real Save path (create, save, conflict
//! resolution) in a temp store: a refused input leaves every file byte-identical.
//!
//! Case counts are small by default (CI time) and `PROPTEST_CASES` raises them, e.g.
//! `PROPTEST_CASES=2000 cargo test -p dossier-store --test main fuzz_props::`.
//!
//! Not for: the coverage-guided targets (`fuzz/`, docs/conformance.md "Fuzzing").

use std::path::Path;

use dossier_store::Code;
use dossier_store::config::Config;
use dossier_store::conflicts::{self, Choice};
use dossier_store::model::DossierDoc;
use dossier_store::progress::SILENT;
use dossier_store::save::{self, CreateRequest, FrontmatterUpdates, SaveRequest};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

use crate::common::{Fixture, changed, tree};

/// `PROPTEST_CASES` when set, else `default`.
fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    ProptestConfig { cases: n, failure_persistence: None, ..ProptestConfig::default() }
}

/// One edit of a text: delete, insert or replace a few bytes at a position (as a fraction,
/// so one strategy fits every length), kept only when the result is still UTF-8.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(f64, usize),
    Insert(f64, String),
    Replace(f64, usize, String),
    Truncate(f64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let piece = prop_oneof![
        Just("---\n".to_string()),
        Just("\n".to_string()),
        Just(": ".to_string()),
        Just("- ".to_string()),
        Just("\"".to_string()),
        Just("'".to_string()),
        Just("{".to_string()),
        Just("[".to_string()),
        Just("&a ".to_string()),
        Just("*a".to_string()),
        Just("!!binary ".to_string()),
        Just("\r\n".to_string()),
        Just("\t".to_string()),
        Just("9999-99-99".to_string()),
        any::<String>(),
    ];
    prop_oneof![
        (0.0..1.0f64, 1usize..8).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (0.0..1.0f64, piece.clone()).prop_map(|(p, s)| Mutation::Insert(p, s)),
        (0.0..1.0f64, 1usize..8, piece).prop_map(|(p, n, s)| Mutation::Replace(p, n, s)),
        (0.0..1.0f64).prop_map(Mutation::Truncate),
    ]
}

fn apply(text: &str, mutations: &[Mutation]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in mutations {
        let at = |p: f64, len: usize| ((p * len as f64) as usize).min(len);
        match m {
            Mutation::Delete(p, n) => {
                let i = at(*p, bytes.len());
                let j = (i + n).min(bytes.len());
                bytes.drain(i..j);
            }
            Mutation::Insert(p, s) => {
                let i = at(*p, bytes.len());
                bytes.splice(i..i, s.bytes());
            }
            Mutation::Replace(p, n, s) => {
                let i = at(*p, bytes.len());
                let j = (i + n).min(bytes.len());
                bytes.splice(i..j, s.bytes());
            }
            Mutation::Truncate(p) => bytes.truncate(at(*p, bytes.len())),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A real `dossier.md` written by the Save path, with every optional field set.
fn real_dossier_md() -> String {
    let f = Fixture::new();
    let slug = f.create("Fuzzed one").slug;
    let req = SaveRequest {
        updates: FrontmatterUpdates {
            lead: Some("alice".into()),
            next_action: Some("ship: it".into()),
            open_questions: Some(vec!["why?".into(), "- dash".into()]),
            due_date: Some("2026-12-31".into()),
            token_target: Some(4000),
            ..Default::default()
        },
        actor: "test".into(),
        ..Default::default()
    };
    save::save(&f.app, &slug, req, &SILENT).unwrap();
    std::fs::read_to_string(f.dossier(&slug).join("dossier.md")).unwrap()
}

/// Parse as the store does; a rejection is `invalid_frontmatter`; what parses renders to a
/// document that parses to the same frontmatter, and rendering is a fixed point.
fn check_dossier_md(text: &str) -> Result<(), TestCaseError> {
    let file = Path::new("dossier.md");
    match DossierDoc::parse(text, file) {
        Err(e) => prop_assert_eq!(e.code, Code::InvalidFrontmatter, "{:?}", e),
        Ok(doc) => {
            let rendered = doc.render();
            let again = DossierDoc::parse(&rendered, file);
            prop_assert!(again.is_ok(), "a rendered document does not parse: {:?}\n{}", again, rendered);
            let again = again.unwrap();
            prop_assert_eq!(&again.frontmatter, &doc.frontmatter);
            prop_assert_eq!(again.render(), rendered);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn spec_4_frontmatter_arbitrary_text_is_parsed_or_invalid_frontmatter(text in any::<String>()) {
        check_dossier_md(&text)?;
        check_dossier_md(&format!("---\n{text}\n---\nbody\n"))?;
    }

    #[test]
    fn spec_4_frontmatter_mutated_real_file_is_parsed_or_invalid_frontmatter(
        ms in proptest::collection::vec(mutation(), 1..4)
    ) {
        static REAL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let real = REAL.get_or_init(real_dossier_md);
        check_dossier_md(&apply(real, &ms))?;
    }

    #[test]
    fn config_yaml_arbitrary_or_mutated_is_parsed_or_invalid_config(
        text in any::<String>(),
        ms in proptest::collection::vec(mutation(), 1..4),
    ) {
        let path = Path::new("config.yaml");
        let default = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/config.yaml")).unwrap();
        for t in [text, apply(&default, &ms)] {
            match Config::parse(&t, path) {
                Err(e) => prop_assert_eq!(e.code, Code::InvalidConfig, "{:?}", e),
                Ok(c) => {
                    let _ = c.limits();
                    let _ = c.policy_overrides(Path::new("/store"));
                }
            }
        }
    }

    #[test]
    fn conflict_file_arbitrary_or_mutated_splits_or_is_not_one(
        text in any::<String>(),
        ms in proptest::collection::vec(mutation(), 1..4),
    ) {
        let real = "---\nid: conf_01\nkind: concurrent_edit\ndossier_id: dos_01\nresolved: false\n---\n\n# Proposal\n";
        for t in [text, apply(real, &ms)] {
            if let Some((_, rest)) = save::split_conflict(&t) {
                prop_assert!(t.ends_with(rest));
            }
        }
    }
}

/// `f`'s whole store tree, then `op`, then: on `Err`, the tree is byte-identical and the code
/// is one of `codes`. Returns whether `op` succeeded.
fn nothing_written_on_rejection<T>(
    f: &Fixture,
    codes: &[Code],
    op: impl FnOnce() -> dossier_store::Result<T>,
) -> Result<bool, TestCaseError> {
    let before = tree(f.root());
    match op() {
        Ok(_) => Ok(true),
        Err(e) => {
            prop_assert!(codes.contains(&e.code), "unexpected code {:?}", e);
            prop_assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new(), "written on rejection: {:?}", e);
            Ok(false)
        }
    }
}

fn field_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        Just(String::new()),
        Just("   ".to_string()),
        Just("---".to_string()),
        Just("a\n---\nb".to_string()),
        Just("2026-02-30".to_string()),
        Just("2026-12-31".to_string()),
        "[ -~\n]{0,24}",
    ]
}

fn updates() -> impl Strategy<Value = FrontmatterUpdates> {
    (
        proptest::option::of(field_text()),
        proptest::option::of(field_text()),
        proptest::option::of(field_text()),
        proptest::option::of(proptest::collection::vec(field_text(), 0..3)),
        proptest::option::of(field_text()),
        proptest::option::of(prop_oneof![Just(0u64), any::<u64>()]),
    )
        .prop_map(|(name, lead, next_action, open_questions, due_date, token_target)| FrontmatterUpdates {
            name,
            lead,
            next_action,
            open_questions,
            due_date,
            token_target,
            ..Default::default()
        })
}

proptest! {
    #![proptest_config(cases(12))]

    /// SPEC §8.2: a refused save writes nothing; an accepted one leaves a `dossier.md` that
    /// parses back with the values sent (render -> parse through the real store).
    #[test]
    fn spec_8_2_rejected_save_writes_nothing_and_accepted_values_read_back(
        u in updates(),
        state in proptest::option::of(field_text()),
        with_base in any::<bool>(),
    ) {
        let f = &Fixture::new();
        let slug = &f.create("Target").slug;
        let dir = f.dossier(slug);
        let base = with_base.then(|| save::revision(&dir).unwrap());
        let req = SaveRequest {
            base_revision: base,
            distilled_state: state.clone(),
            updates: u.clone(),
            actor: "test".into(),
            ..Default::default()
        };
        let ok = nothing_written_on_rejection(f, &[Code::InvalidFrontmatter, Code::InvalidInput], || {
            save::save(&f.app, slug, req, &SILENT)
        })?;
        let file = dir.join("dossier.md");
        let text = std::fs::read_to_string(&file).unwrap();
        let doc = DossierDoc::parse(&text, &file);
        prop_assert!(doc.is_ok(), "the saved dossier.md does not parse: {:?}\n{}", doc, text);
        let doc = doc.unwrap();
        if ok {
            if let Some(n) = &u.next_action {
                prop_assert_eq!(&doc.frontmatter.next_action, n);
            }
            if let Some(q) = &u.open_questions {
                prop_assert_eq!(&doc.frontmatter.open_questions, q);
            }
            if let Some(n) = &u.name {
                prop_assert_eq!(&doc.frontmatter.name, n.trim());
            }
        }
    }

    /// A refused create (promote) writes nothing: no directory, no index entry.
    #[test]
    fn spec_8_2_rejected_create_writes_nothing(name in field_text(), u in updates()) {
        let f = Fixture::new();
        let req = CreateRequest { name, updates: u, actor: "test".into(), ..Default::default() };
        let ok = nothing_written_on_rejection(&f, &[Code::InvalidFrontmatter, Code::InvalidInput], || {
            save::create(&f.app, req, &SILENT)
        })?;
        if ok {
            for e in std::fs::read_dir(f.root()).unwrap() {
                let p = e.unwrap().path().join("dossier.md");
                if p.is_file() {
                    let text = std::fs::read_to_string(&p).unwrap();
                    prop_assert!(DossierDoc::parse(&text, &p).is_ok(), "{}", text);
                }
            }
        }
    }

    /// A conflict file edited by hand (mutated): resolving it either works or is refused
    /// with nothing written.
    #[test]
    fn spec_11_5_resolving_a_mutated_conflict_file_writes_nothing_when_refused(
        ms in proptest::collection::vec(mutation(), 1..3),
        keep_proposal in any::<bool>(),
    ) {
        let f = Fixture::new();
        let out = f.create("Race");
        f.save_state(&out.slug, "# Race\n\nTheirs.\n");
        let req = SaveRequest {
            base_revision: Some(out.revision),
            distilled_state: Some("# Race\n\nMine.\n".into()),
            actor: "test".into(),
            ..Default::default()
        };
        let e = save::save(&f.app, &out.slug, req, &SILENT).unwrap_err();
        let id = e.details["conflict_id"].as_str().unwrap().to_string();
        let path = std::path::PathBuf::from(e.details["conflict_path"].as_str().unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, apply(&text, &ms)).unwrap();
        let choice = if keep_proposal { Choice::KeepProposal } else { Choice::KeepCurrent };
        nothing_written_on_rejection(
            &f,
            &[Code::InvalidInput, Code::InvalidFrontmatter, Code::NotFound],
            || conflicts::resolve(&f.app, &id, choice, "test", &None),
        )?;
    }
}
