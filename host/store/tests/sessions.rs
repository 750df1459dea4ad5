//! Session bindings in-process (SPEC §5) with the [`Detached`] harness: `sessions::write`,
//! `read` and `switch` bind zero or one Dossier per session, independently per session,
//! without touching any Dossier; capture progress survives a rebind.
//!
//! [`Detached`]: dossier_store::harness::Detached

use dossier_store::Code;
use dossier_store::harness::Capabilities;
use dossier_store::sessions::{self, SaveCheck, TranscriptCapture};

use crate::common::{Fixture, changed, tree};

#[test]
fn two_sessions_bind_different_dossiers_without_touching_them() {
    let f = Fixture::new();
    let alpha = f.create("Alpha work");
    let bravo = f.create("Bravo work");
    assert_eq!(sessions::read(f.store(), "s1").unwrap(), None, "unbound at first");
    let dossiers = |t: &std::collections::BTreeMap<String, crate::common::Entry>| {
        t.iter().filter(|(p, _)| !p.starts_with("sessions")).map(|(p, e)| (p.clone(), e.clone())).collect::<Vec<_>>()
    };
    let before = tree(f.root());

    let (b1, r) = sessions::switch(&f.app, "s1", "alpha-work").unwrap();
    assert_eq!((r.id.as_str(), r.page), (alpha.id.as_str(), 1));
    assert!(r.token_estimate.tokens > 0);
    assert_eq!(b1.dossier_id.as_deref(), Some(alpha.id.as_str()));
    assert_eq!(b1.last_seen_revision.as_deref(), Some(alpha.revision.as_str()));
    assert_eq!((b1.session_id.as_str(), b1.harness.as_str()), ("s1", "cli"));
    assert!(b1.session_binding_id.starts_with("sess_"), "{}", b1.session_binding_id);
    assert_eq!(b1.capabilities, Capabilities::none());
    assert!(dossier_store::model::parse_timestamp(&b1.bound_at).is_some(), "{}", b1.bound_at);
    assert_eq!(sessions::read(f.store(), "s1").unwrap().as_ref(), Some(&b1));
    let on_disk: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(f.root().join("sessions/s1.json")).unwrap()).unwrap();
    assert_eq!(on_disk["dossier_id"], serde_json::json!(alpha.id));

    let (b2, _) = sessions::switch(&f.app, "s2", &bravo.id).unwrap();
    assert_eq!(b2.dossier_id.as_deref(), Some(bravo.id.as_str()));
    assert_ne!(b2.session_binding_id, b1.session_binding_id);
    assert_eq!(sessions::read(f.store(), "s1").unwrap().unwrap().dossier_id.as_deref(), Some(alpha.id.as_str()));
    let after = tree(f.root());
    assert_eq!(dossiers(&after), dossiers(&before), "binding never modifies a Dossier");
    let mut files = changed(&before, &after);
    files.sort();
    assert_eq!(files, ["sessions", "sessions/s1.json", "sessions/s2.json"]);

    // Switching s1 replaces its binding (zero or one per session), keeping the binding id.
    let (again, _) = sessions::switch(&f.app, "s1", "bravo-work").unwrap();
    assert_eq!(again.session_binding_id, b1.session_binding_id);
    assert_eq!(sessions::read(f.store(), "s1").unwrap().unwrap().dossier_id.as_deref(), Some(bravo.id.as_str()));
    // Clearing rewrites the binding with no Dossier; nothing is deleted.
    let cleared = sessions::write(&f.app, "s1", None, None).unwrap();
    assert_eq!((cleared.dossier_id, cleared.last_seen_revision), (None, None));
    assert!(f.root().join("sessions/s1.json").is_file());
    assert_eq!(sessions::read(f.store(), "s1").unwrap().unwrap().session_binding_id, b1.session_binding_id);
}

#[test]
fn transcript_progress_survives_a_rebind_and_the_save_cadence_restarts() {
    let f = Fixture::new();
    let a = f.create("Alpha");
    let b = f.create("Bravo");
    let mut binding = sessions::write(&f.app, "s1", Some(a.id.clone()), Some(a.revision.clone())).unwrap();
    binding.transcript =
        Some(TranscriptCapture { path: "/t/s1.jsonl".into(), captured_bytes: 42, artifacts: vec!["art_1".into()] });
    binding.save_check = Some(SaveCheck { revision: a.revision.clone(), transcript_bytes: 42 });
    sessions::update(f.store(), &binding).unwrap();
    assert_eq!(sessions::read(f.store(), "s1").unwrap().as_ref(), Some(&binding));
    let rebound = sessions::write(&f.app, "s1", Some(b.id.clone()), Some(b.revision.clone())).unwrap();
    assert_eq!(rebound.transcript, binding.transcript);
    assert_eq!(rebound.save_check, None);
    assert_eq!(rebound.session_binding_id, binding.session_binding_id);
}

#[test]
fn bad_session_ids_unknown_dossiers_and_missing_stores_are_refused_without_writing() {
    let f = Fixture::new();
    f.create("Alpha");
    let before = tree(f.root());
    for bad in ["../x", "a/b", "", ".."] {
        assert_eq!(sessions::switch(&f.app, bad, "alpha").unwrap_err().code, Code::InvalidInput, "{bad:?}");
        assert_eq!(sessions::read(f.store(), bad).unwrap_err().code, Code::InvalidInput, "{bad:?}");
    }
    assert_eq!(sessions::switch(&f.app, "s1", "nope").unwrap_err().code, Code::NotFound);
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
    assert_eq!(sessions::session_id(Some("explicit")).unwrap(), "explicit");

    std::fs::create_dir_all(f.root().join("sessions")).unwrap();
    std::fs::write(f.root().join("sessions/s1.json"), "{not json").unwrap();
    assert_eq!(sessions::read(f.store(), "s1").unwrap_err().code, Code::InvalidInput);

    let missing = dossier_store::App::new(
        dossier_store::Store::at(f.dir.path().join("no-store")),
        Default::default(),
        Box::new(crate::native::Native),
        Box::new(dossier_store::harness::Detached),
    );
    assert_eq!(sessions::write(&missing, "s1", None, None).unwrap_err().code, Code::StoreUnavailable);
    assert!(!missing.store.root().exists());
}
