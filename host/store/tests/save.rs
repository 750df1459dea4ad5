//! The Save path in-process (SPEC §8.4, §8.5, §12): creation (slug, id, layout, audit,
//! artifacts before `dossier.md`), content-addressed revisions, saves on the current
//! revision, field edits and their audit events, artifacts and their sidecars, and rejected
//! inputs that write nothing.

use std::os::unix::fs::MetadataExt as _;

use dossier_store::Code;
use dossier_store::model::{ArtifactType, ContentFormat, EventKind, Level, Provenance, Status};
use dossier_store::progress::SILENT;
use dossier_store::save::{
    self, ArtifactContent, CreateRequest, FrontmatterUpdates, MAX_ARTIFACT_BYTES, NewArtifact, SaveRequest,
};
use serde_json::json;

use crate::common::{Fixture, audit, changed, doc, events, text_artifact, tree};

const STATE: &str =
    "# Alpha\n\n## Situation\n\nA new state.\n\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n";

fn updates(f: impl FnOnce(&mut FrontmatterUpdates)) -> SaveRequest {
    let mut u = FrontmatterUpdates::default();
    f(&mut u);
    SaveRequest { updates: u, actor: "test".into(), ..Default::default() }
}

#[test]
fn create_writes_the_layout_the_slug_the_id_and_one_create_event() {
    let f = Fixture::new();
    let out = f.create("Pricing model refresh");
    assert_eq!(out.slug, "pricing-model-refresh");
    assert_eq!(out.path, f.dossier("pricing-model-refresh"));
    assert!(out.id.starts_with("dos_") && out.id.len() == 30, "{}", out.id);
    assert_eq!(out.id, out.id.to_lowercase());
    assert_eq!((out.event, out.before_revision.as_deref(), out.auto_merged), (EventKind::Create, None, false));
    let dir = &out.path;
    assert!(dir.join("artifacts").is_dir() && dir.join("conflicts").is_dir() && dir.join("audit.log").is_file());

    let text = std::fs::read_to_string(dir.join("dossier.md")).unwrap();
    let head = format!("---\nid: {}\nname: Pricing model refresh\nslug: pricing-model-refresh\n", out.id);
    assert!(text.starts_with(&head), "{text}");
    for section in
        ["# Pricing model refresh", "## Situation", "## Decisions", "## Findings", "## Current State", "## Next Steps"]
    {
        assert!(text.contains(&format!("\n{section}\n")), "missing {section}: {text}");
    }
    let fm = doc(dir).frontmatter;
    assert_eq!((fm.status, fm.importance, fm.urgency), (Status::Active, Level::High, Level::Low));
    assert_eq!((fm.next_action.as_str(), fm.open_questions.len(), fm.base_revision), ("", 0, None));
    assert!(fm.created_at == fm.updated_at && fm.updated_at == fm.last_touched_at);

    assert!(out.revision.starts_with("rev_") && out.revision.len() == 36, "{}", out.revision);
    assert_eq!(save::revision(dir).unwrap(), out.revision, "the revision is that of the files written");
    let log = audit(dir);
    assert_eq!(log.len(), 1, "{log:?}");
    let e = &log[0];
    assert_eq!(
        (e["event"].as_str(), e["dossier_id"].as_str(), e["actor"].as_str()),
        (Some("create"), Some(&*out.id), Some("test"))
    );
    assert_eq!(e["after_revision"], json!(out.revision));
    assert!(e.get("before_revision").is_none(), "{e}");
    assert_eq!(
        (e["body_changed"].as_bool(), e["name"].as_str(), e["slug"].as_str()),
        (Some(true), Some("Pricing model refresh"), Some("pricing-model-refresh"))
    );
}

#[test]
fn taken_reserved_and_empty_slugs_get_a_suffix_or_a_fallback() {
    let f = Fixture::new();
    let first = f.create("Launch plan");
    let second = f.create("Launch plan");
    assert_eq!(first.slug, "launch-plan");
    assert_eq!(second.slug, format!("launch-plan-{}", &second.id[second.id.len() - 6..]));
    assert_ne!(first.id, second.id);
    assert_eq!(doc(&f.dossier("launch-plan")).frontmatter.id, first.id, "the first Dossier is untouched");
    assert_eq!(f.create("Context").slug, "context-dossier", "reserved names are never slugs");
    assert_eq!(f.create("Café déjà vu!").slug, "cafe-deja-vu");
    assert_eq!(f.create("!!!").slug, "dossier");
}

#[test]
fn promote_records_create_then_promote_at_the_same_revision() {
    let f = Fixture::new();
    let req = CreateRequest { name: "Alpha".into(), actor: "agent".into(), promote: true, ..Default::default() };
    let out = save::create(&f.app, req, &SILENT).unwrap();
    assert_eq!(out.event, EventKind::Promote);
    let log = audit(&out.path);
    assert_eq!(events(&out.path), ["create", "promote"]);
    assert_eq!(log[1]["after_revision"], json!(out.revision));
    assert_eq!(log[0]["after_revision"], log[1]["after_revision"]);
}

#[test]
fn create_applies_fields_and_writes_artifacts_before_dossier_md() {
    let f = Fixture::new();
    let json_artifact = NewArtifact {
        artifact_type: ArtifactType::Query,
        title: "rows".into(),
        content_format: ContentFormat::Json,
        content: ArtifactContent::Text(r#"{"rows": [1, 2, 3]}"#.into()),
        provenance: Provenance::default(),
        extraction: None,
    };
    let md_artifact = NewArtifact {
        content_format: ContentFormat::Markdown,
        ..text_artifact("notes", "# Notes\n\nThe launch moved to July.\n")
    };
    let req = CreateRequest {
        name: "Launch".into(),
        distilled_state: Some(STATE.replace("Alpha", "Launch")),
        updates: FrontmatterUpdates {
            next_action: Some("Call Sales".into()),
            importance: Some(Level::Low),
            due_date: Some("2026-12-24".into()),
            ..Default::default()
        },
        artifacts: vec![md_artifact, json_artifact],
        actor: "test".into(),
        ..Default::default()
    };
    let out = save::create(&f.app, req, &SILENT).unwrap();
    let d = doc(&out.path);
    assert_eq!(d.body, STATE.replace("Alpha", "Launch"));
    assert_eq!(
        (d.frontmatter.next_action.as_str(), d.frontmatter.importance, d.frontmatter.due_date.as_deref()),
        ("Call Sales", Level::Low, Some("2026-12-24"))
    );
    assert_eq!(out.artifacts_added.len(), 2);
    assert_eq!(audit(&out.path)[0]["artifacts_added"], json!(out.artifacts_added));
    let adir = out.path.join("artifacts");
    let md = std::fs::read_to_string(adir.join(format!("{}.md", out.artifacts_added[0]))).unwrap();
    assert!(md.starts_with(&format!("---\nid: {}\ndossier_id: {}\n", out.artifacts_added[0], out.id)), "{md}");
    assert!(md.ends_with("\n---\n\n# Notes\n\nThe launch moved to July.\n"), "{md}");
    let json_file = adir.join(format!("{}.json", out.artifacts_added[1]));
    assert_eq!(std::fs::read_to_string(&json_file).unwrap(), r#"{"rows": [1, 2, 3]}"#);
    let sidecar = std::fs::read_to_string(adir.join(format!("{}.meta.yaml", out.artifacts_added[1]))).unwrap();
    assert!(sidecar.contains("type: query") && sidecar.contains("content_format: json"), "{sidecar}");
    // The revision covers the artifact manifest: it is the one computed from the files.
    assert_eq!(save::revision(&out.path).unwrap(), out.revision);
    // Written in order: every artifact file before dossier.md (modification times).
    let mtime = |p: &std::path::Path| {
        let m = std::fs::metadata(p).unwrap();
        (m.mtime(), m.mtime_nsec())
    };
    let dossier = mtime(&out.path.join("dossier.md"));
    for e in std::fs::read_dir(&adir).unwrap() {
        let p = e.unwrap().path();
        assert!(mtime(&p) <= dossier, "{} written after dossier.md", p.display());
    }
}

#[test]
fn a_save_writes_no_dossier_md_when_its_artifacts_cannot_be_written() {
    // Artifacts are written before dossier.md: when writing them fails, the state is not
    // replaced and nothing is audited.
    let f = Fixture::new();
    let dir = f.create("Alpha").path;
    std::fs::remove_dir(dir.join("artifacts")).unwrap();
    std::fs::write(dir.join("artifacts"), "not a directory").unwrap();
    let before = tree(f.root());
    let req = SaveRequest {
        base_revision: Some(save::revision(&dir).unwrap()),
        distilled_state: Some(STATE.into()),
        artifacts: vec![text_artifact("log", "line 1\n")],
        actor: "test".into(),
        ..Default::default()
    };
    let e = save::save(&f.app, "alpha", req, &SILENT).unwrap_err();
    assert_eq!(e.code, Code::Io, "{e}");
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
}

#[test]
fn revisions_are_content_addressed() {
    let f = Fixture::new();
    let a = f.create("Alpha");
    let rev = a.revision.clone();
    // The same bytes in another Dossier directory have the same revision: the path is not hashed.
    let copy = f.dir.path().join("copy");
    std::fs::create_dir_all(copy.join("artifacts")).unwrap();
    std::fs::copy(a.path.join("dossier.md"), copy.join("dossier.md")).unwrap();
    assert_eq!(save::revision(&copy).unwrap(), rev);
    let text = std::fs::read_to_string(copy.join("dossier.md")).unwrap();
    std::fs::write(copy.join("dossier.md"), text.replace('\n', "\r\n")).unwrap();
    assert_eq!(save::revision(&copy).unwrap(), rev, "line endings are canonicalised");
    std::fs::write(copy.join("dossier.md"), text.replacen("Alpha", "Alphb", 1)).unwrap();
    assert_ne!(save::revision(&copy).unwrap(), rev, "one changed byte changes the revision");
    // Artifacts are part of it, and a save that adds one reports the new revision.
    let req = SaveRequest { artifacts: vec![text_artifact("log", "x\n")], actor: "test".into(), ..Default::default() };
    let out = save::save(&f.app, "alpha", req, &SILENT).unwrap();
    assert_ne!(out.revision, rev);
    assert_eq!(save::revision(&a.path).unwrap(), out.revision);
}

#[test]
fn a_save_on_the_current_revision_replaces_the_state_and_chains_revisions() {
    let f = Fixture::new();
    let created = f.create("Alpha");
    let req = SaveRequest {
        base_revision: Some(created.revision.clone()),
        distilled_state: Some(STATE.into()),
        actor: "agent".into(),
        session_id: Some("s1".into()),
        ..Default::default()
    };
    let out = save::save(&f.app, &created.id, req, &SILENT).unwrap();
    assert_eq!((out.slug.as_str(), out.event, out.auto_merged), ("alpha", EventKind::Save, false));
    assert_eq!(out.before_revision.as_deref(), Some(created.revision.as_str()));
    assert!(out.token_estimate.is_some_and(|t| t > 0));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let d = doc(&out.path);
    assert_eq!(d.body, STATE);
    assert_eq!(d.frontmatter.base_revision.as_deref(), Some(created.revision.as_str()));
    assert_eq!(save::revision(&out.path).unwrap(), out.revision);
    let log = audit(&out.path);
    let e = log.last().unwrap();
    assert_eq!(
        (e["event"].as_str(), e["actor"].as_str(), e["session_id"].as_str()),
        (Some("save"), Some("agent"), Some("s1"))
    );
    assert_eq!(
        (e["before_revision"].clone(), e["after_revision"].clone()),
        (json!(created.revision), json!(out.revision))
    );
    assert_eq!((e["body_changed"].as_bool(), e["token_estimate"].as_u64()), (Some(true), out.token_estimate));

    // The same state again changes nothing: no estimate, no new revision, no audit line
    // (see spec_12_1_a_save_that_changes_nothing_writes_nothing).
    let req = SaveRequest {
        base_revision: Some(out.revision.clone()),
        distilled_state: Some(STATE.into()),
        ..Default::default()
    };
    let lines = audit(&out.path).len();
    let again = save::save(&f.app, "alpha", req, &SILENT).unwrap();
    assert_eq!((again.token_estimate, again.revision.as_str()), (None, out.revision.as_str()));
    assert_eq!(audit(&out.path).len(), lines);
}

/// SPEC §12.1 (issue 18, defect 15): a save whose result is the Dossier as it is — the same
/// Distilled State, fields set to the values they have, no artifacts — writes nothing, appends
/// no audit line, and returns the same revision with a warning, so no other session's base
/// goes stale.
#[test]
fn spec_12_1_a_save_that_changes_nothing_writes_nothing() {
    let f = Fixture::new();
    let created = f.create("Alpha");
    let saved = f.save_state("alpha", STATE);
    let next = updates(|u| u.next_action = Some("Call Bob".into()));
    let fields = save::save(&f.app, "alpha", next.clone(), &SILENT).unwrap();
    assert_ne!(fields.revision, saved.revision);
    let before = tree(f.root());
    let cases = [
        ("the same state on the current base", {
            SaveRequest {
                base_revision: Some(fields.revision.clone()),
                distilled_state: Some(STATE.into()),
                actor: "agent".into(),
                ..Default::default()
            }
        }),
        ("a field set to its value", next),
        ("the same state and fields", {
            SaveRequest {
                base_revision: Some(fields.revision.clone()),
                distilled_state: Some(STATE.into()),
                updates: FrontmatterUpdates {
                    next_action: Some("Call Bob".into()),
                    status: Some(Status::Active),
                    ..Default::default()
                },
                ..Default::default()
            }
        }),
    ];
    for (what, req) in cases {
        let out = save::save(&f.app, &created.id, req, &SILENT).unwrap();
        assert_eq!(out.revision, fields.revision, "{what}: the same revision");
        assert_eq!(out.before_revision.as_deref(), Some(fields.revision.as_str()), "{what}");
        assert!(out.artifacts_added.is_empty() && out.token_estimate.is_none() && !out.auto_merged, "{what}");
        assert!(out.warnings.iter().any(|w| w.starts_with("nothing changed")), "{what}: {:?}", out.warnings);
        assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new(), "{what}: nothing written");
    }
    // A real change after them still chains from the same revision.
    let out = f.save_state("alpha", &STATE.replace("A new state.", "A newer state."));
    assert_eq!(out.before_revision.as_deref(), Some(fields.revision.as_str()));
}

#[test]
fn field_edits_are_applied_and_audited_with_the_fields_they_change() {
    let f = Fixture::new();
    let dir = f.create("Alpha").path;
    let steps: Vec<SaveRequest> = vec![
        updates(|u| u.next_action = Some("Call Sales".into())),
        updates(|u| u.lead = Some("Alice".into())),
        updates(|u| u.add_open_questions = Some(vec!["Tier?".into(), "Usage?".into()])),
        updates(|u| u.add_open_questions = Some(vec!["Region?".into()])),
        updates(|u| {
            u.importance = Some(Level::Low);
            u.urgency = Some(Level::High);
            u.due_date = Some("2026-12-24".into());
        }),
        updates(|u| u.status = Some(Status::Blocked)),
        updates(|u| u.lead = Some(String::new())),
        updates(|u| u.name = Some("  Alpha renamed  ".into())),
    ];
    for req in steps {
        save::save(&f.app, "alpha", req, &SILENT).unwrap();
    }
    let fm = doc(&dir).frontmatter;
    assert_eq!(fm.next_action, "Call Sales");
    assert_eq!(fm.lead, None, "an empty lead clears it");
    assert_eq!(fm.open_questions, ["Tier?", "Usage?", "Region?"]);
    assert_eq!((fm.importance, fm.urgency, fm.due_date.as_deref()), (Level::Low, Level::High, Some("2026-12-24")));
    assert_eq!(fm.status, Status::Blocked);
    assert_eq!((fm.name.as_str(), fm.slug.as_str()), ("Alpha renamed", "alpha"), "renaming never changes the slug");
    assert!(dir.ends_with("alpha"));

    let log = audit(&dir);
    let kinds: Vec<&str> = log.iter().map(|e| e["event"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["create", "save", "save", "save", "save", "save", "status_changed", "save", "save"]);
    let fields: Vec<serde_json::Value> = log[1..].iter().map(|e| e["fields_changed"].clone()).collect();
    assert_eq!(
        fields,
        [
            json!(["next_action"]),
            json!(["lead"]),
            json!(["open_questions"]),
            json!(["open_questions"]),
            json!(["importance", "urgency", "due_date"]),
            json!(["status"]),
            json!(["lead"]),
            json!(["name"]),
        ]
    );
    assert_eq!((log[6]["from"].as_str(), log[6]["to"].as_str()), (Some("active"), Some("blocked")));
    // The revision chain is unbroken: each event's before is the previous one's after.
    for w in log.windows(2) {
        assert_eq!(w[1]["before_revision"], w[0]["after_revision"]);
    }
    assert_eq!(log.last().unwrap()["after_revision"], json!(save::revision(&dir).unwrap()));
    assert!(log[1..].iter().all(|e| e.get("body_changed").is_none()), "field edits keep the state");

    // Archiving is its own event; setting the same status again is a plain save; a caller's event is kept.
    let out = save::save(&f.app, "alpha", updates(|u| u.status = Some(Status::Archived)), &SILENT).unwrap();
    assert_eq!(out.event, EventKind::Archived);
    let last = audit(&dir).last().unwrap().clone();
    assert_eq!((last["from"].as_str(), last["to"].as_str()), (Some("blocked"), Some("archived")));
    let out = save::save(&f.app, "alpha", updates(|u| u.status = Some(Status::Archived)), &SILENT).unwrap();
    assert_eq!(out.event, EventKind::Save);
    let mut req = updates(|u| u.next_action = Some("Linked".into()));
    req.event = Some(EventKind::Link);
    assert_eq!(save::save(&f.app, "alpha", req, &SILENT).unwrap().event, EventKind::Link);
    assert!(dir.join("dossier.md").is_file(), "archiving deletes nothing");
}

#[test]
fn unknown_frontmatter_keys_survive_a_save() {
    let f = Fixture::new();
    let dir = f.create("Keep").path;
    let file = dir.join("dossier.md");
    let text = std::fs::read_to_string(&file).unwrap().replacen("---\n", "---\nteam: platform\nlabels:\n- a\n- b\n", 1);
    std::fs::write(&file, text).unwrap();
    save::save(&f.app, "keep", updates(|u| u.next_action = Some("Ship it".into())), &SILENT).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("team: platform")
            && text.contains("labels:\n- a\n- b\n")
            && text.contains("next_action: Ship it"),
        "{text}"
    );
}

#[test]
fn binary_artifacts_keep_metadata_and_the_extraction_not_their_bytes() {
    let f = Fixture::new();
    let dir = f.create("Bin").path;
    let png = f.dir.path().join("diagram.png");
    std::fs::write(&png, [0x89u8, b'P', b'N', b'G', 0, 0, 0, 13, 0xff, 0xfe]).unwrap();
    let art = NewArtifact {
        artifact_type: ArtifactType::FileSnapshot,
        title: "diagram.png".into(),
        content_format: ContentFormat::Text,
        content: ArtifactContent::File(png.clone()),
        provenance: Provenance::default(),
        extraction: Some("A box and an arrow.".into()),
    };
    let req = SaveRequest { artifacts: vec![art], actor: "test".into(), ..Default::default() };
    let out = save::save(&f.app, "bin", req, &SILENT).unwrap();
    assert_eq!(
        out.warnings,
        [
            "binary_artifact_unsupported: `diagram.png` is binary; stored its metadata and the extraction instead of its content"
        ]
    );
    let stored = std::fs::read(dir.join("artifacts").join(format!("{}.md", out.artifacts_added[0]))).unwrap();
    assert!(!stored.contains(&0u8), "binary bytes were stored");
    let text = String::from_utf8(stored).unwrap();
    assert!(text.contains("binary_source: true") && text.contains("- size: 10 bytes"), "{text}");
    assert!(
        text.contains(&format!("- path: {}", png.display()))
            && text.ends_with("## Extraction\n\nA box and an arrow.\n"),
        "{text}"
    );
    assert!(
        !dir.join("artifacts").join(format!("{}.meta.yaml", out.artifacts_added[0])).exists(),
        "markdown has no sidecar"
    );
}

#[test]
fn saves_warn_about_structure_and_the_token_target_and_still_commit() {
    let f = Fixture::new();
    let dir = f.create("Alpha").path;
    let body = "# Alpha\n\n## Findings\n\n## Situation\n\nSomething.\n";
    let req = SaveRequest {
        base_revision: Some(save::revision(&dir).unwrap()),
        distilled_state: Some(body.into()),
        token_target: 5,
        ..Default::default()
    };
    let out = save::save(&f.app, "alpha", req, &SILENT).unwrap();
    assert!(out.warnings.iter().any(|w| w.contains("`## Decisions`")), "{:?}", out.warnings);
    let tokens = out.token_estimate.unwrap();
    let over = format!(
        "over_token_target: the saved Distilled State is ~{tokens} tokens (estimate), over its target of 5; it was saved whole"
    );
    assert!(out.warnings.contains(&over), "{:?}", out.warnings);
    assert_eq!(doc(&dir).body, body);
}

/// Every rejected input leaves the whole store as it was: same directories, same bytes.
#[test]
fn rejected_saves_write_nothing() {
    let f = Fixture::new();
    let dir = f.create("Alpha").path;
    let base = save::revision(&dir).unwrap();
    let big = f.dir.path().join("big.txt");
    // Sparse: 1 GiB + 1 byte without using the disk.
    std::fs::File::create(&big).unwrap().set_len(MAX_ARTIFACT_BYTES + 1).unwrap();
    let file_artifact =
        |path: std::path::PathBuf| NewArtifact { content: ArtifactContent::File(path), ..text_artifact("big.txt", "") };
    let json_artifact = NewArtifact { content_format: ContentFormat::Json, ..text_artifact("q.json", "{not json") };
    let with_artifact = |a: NewArtifact| SaveRequest {
        base_revision: Some(base.clone()),
        distilled_state: Some(STATE.into()),
        artifacts: vec![text_artifact("fine", "fine\n"), a],
        ..Default::default()
    };
    let cases: Vec<(&str, &str, SaveRequest, Code)> = vec![
        ("oversized artifact", "alpha", with_artifact(file_artifact(big.clone())), Code::ArtifactTooLarge),
        ("invalid JSON artifact", "alpha", with_artifact(json_artifact), Code::InvalidInput),
        ("untitled artifact", "alpha", with_artifact(text_artifact("  ", "x")), Code::InvalidInput),
        ("missing artifact file", "alpha", with_artifact(file_artifact(f.dir.path().join("nope"))), Code::Io),
        ("bad due date", "alpha", updates(|u| u.due_date = Some("next week".into())), Code::InvalidFrontmatter),
        ("empty name", "alpha", updates(|u| u.name = Some("  ".into())), Code::InvalidFrontmatter),
        ("zero token target", "alpha", updates(|u| u.token_target = Some(0)), Code::InvalidFrontmatter),
        (
            "state without a base",
            "alpha",
            SaveRequest { distilled_state: Some(STATE.into()), ..Default::default() },
            Code::InvalidInput,
        ),
        ("unknown Dossier", "nope", updates(|u| u.lead = Some("x".into())), Code::NotFound),
        ("path outside the store", "../alpha", updates(|u| u.lead = Some("x".into())), Code::InvalidInput),
    ];
    let before = tree(f.root());
    for (what, target, req, code) in cases {
        let e = save::save(&f.app, target, req, &SILENT).unwrap_err();
        assert_eq!(e.code, code, "{what}: {e}");
        assert!(!e.message.is_empty());
        assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new(), "{what} wrote something");
    }
    let e = save::save(&f.app, "alpha", with_artifact(file_artifact(big)), &SILENT).unwrap_err();
    assert_eq!(e.details["size"], json!(MAX_ARTIFACT_BYTES + 1));
    assert_eq!(e.details["limit"], json!(MAX_ARTIFACT_BYTES));
}

#[test]
fn rejected_creations_write_nothing() {
    let f = Fixture::new();
    f.create("Existing");
    let big = f.dir.path().join("big.txt");
    std::fs::File::create(&big).unwrap().set_len(MAX_ARTIFACT_BYTES + 1).unwrap();
    let named = |name: &str| CreateRequest { name: name.into(), actor: "test".into(), ..Default::default() };
    let cases: Vec<(&str, CreateRequest, Code)> = vec![
        ("empty name", named("   "), Code::InvalidInput),
        (
            "bad due date",
            CreateRequest {
                updates: FrontmatterUpdates { due_date: Some("June 21".into()), ..Default::default() },
                ..named("New")
            },
            Code::InvalidFrontmatter,
        ),
        (
            "oversized artifact",
            CreateRequest {
                artifacts: vec![NewArtifact { content: ArtifactContent::File(big), ..text_artifact("big", "") }],
                ..named("New")
            },
            Code::ArtifactTooLarge,
        ),
        (
            "invalid JSON artifact",
            CreateRequest {
                artifacts: vec![NewArtifact { content_format: ContentFormat::Json, ..text_artifact("q", "[1,") }],
                ..named("New")
            },
            Code::InvalidInput,
        ),
    ];
    let before = tree(f.root());
    for (what, req, code) in cases {
        let e = save::create(&f.app, req, &SILENT).unwrap_err();
        assert_eq!(e.code, code, "{what}: {e}");
        assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new(), "{what} wrote something");
    }
    // A store that does not exist is never created by a save.
    let missing = crate::common::app_at(&f.dir.path().join("no-store"));
    assert_eq!(save::create(&missing, named("New"), &SILENT).unwrap_err().code, Code::StoreUnavailable);
    assert_eq!(save::save(&missing, "new", updates(|_| {}), &SILENT).unwrap_err().code, Code::StoreUnavailable);
    let missing = missing.store;
    assert!(!missing.root().exists());
}
