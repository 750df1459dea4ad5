//! Issue 20 in process: every text the Save path writes goes through the redaction policy
//! (`dossier_store::redact`, answered here by `dossier-core`'s native rules): the Distilled
//! State, free-text fields, artifact contents and metadata, conflict proposals; the counts
//! reach the outcome and the audit event; the per-store key; `privacy.redact: false` and
//! `privacy.allow`; and the rewrite of an existing store (`save::redact_stored`) that
//! `dossier doctor`'s scan asks for.
//!
//! The secrets are synthetic: format-valid values built at run time from a seeded generator,
//! never real credentials.

use std::path::Path;

use dossier_store::config::Config;
use dossier_store::model::{ArtifactType, ContentFormat, Provenance};
use dossier_store::progress::SILENT;
use dossier_store::redact::{self, Redactor};
use dossier_store::save::{self, ArtifactContent, NewArtifact, SaveRequest};
use serde_json::json;

use crate::common::{Fixture, audit, changed, text_artifact, tree};
use crate::native::Native;

/// `n` characters of `alphabet`, pseudo-random from `seed` (a fake secret's body).
fn chars(seed: u64, n: usize, alphabet: &[u8]) -> String {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            alphabet[((x >> 33) % alphabet.len() as u64) as usize] as char
        })
        .collect()
}

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Synthetic secrets of well-known formats.
struct Fakes {
    github: String,
    aws_id: String,
    password: String,
    url_password: String,
    key_lines: Vec<String>,
}

impl Fakes {
    fn new(seed: u64) -> Fakes {
        Fakes {
            github: format!("ghp_{}", chars(seed, 36, ALNUM)),
            aws_id: format!("AKIA{}", chars(seed + 1, 16, UPPER)),
            password: chars(seed + 2, 18, ALNUM),
            url_password: chars(seed + 3, 14, ALNUM),
            key_lines: (0..4).map(|i| chars(seed + 10 + i, 64, B64)).collect(),
        }
    }

    fn pem(&self) -> String {
        format!("-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----\n", self.key_lines.join("\n"))
    }

    /// Every value that must never reach a file of the store.
    fn values(&self) -> Vec<String> {
        let mut v = vec![self.github.clone(), self.aws_id.clone(), self.password.clone(), self.url_password.clone()];
        v.extend(self.key_lines.iter().cloned());
        v
    }

    fn env_file(&self) -> String {
        format!(
            "# deploy settings\nAPP_NAME=billing\nDB_PASSWORD={}\nAWS_ACCESS_KEY_ID={}\n{}GITHUB_TOKEN={}\n",
            self.password,
            self.aws_id,
            self.pem(),
            self.github
        )
    }
}

/// Every file under `root` that holds one of `values`, with the value's index.
fn leaks(root: &Path, values: &[String]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (path, entry) in tree(root) {
        if let crate::common::Entry::File(bytes) = entry {
            let text = String::from_utf8_lossy(&bytes);
            for (i, v) in values.iter().enumerate() {
                if text.contains(v.as_str()) {
                    out.push((path.clone(), i));
                }
            }
        }
    }
    out
}

fn off() -> Config {
    let mut c = Config::default();
    c.privacy.redact = false;
    c
}

fn with_state(f: &Fixture, slug: &str, body: &str, artifacts: Vec<NewArtifact>) -> save::SaveOutcome {
    let dir = f.store().resolve(slug).unwrap();
    let req = SaveRequest {
        base_revision: Some(save::revision(&dir).unwrap()),
        distilled_state: Some(body.into()),
        artifacts,
        actor: "test".into(),
        ..Default::default()
    };
    save::save(&f.app, slug, req, &SILENT).unwrap()
}

fn state(f: &Fakes) -> String {
    format!(
        "# Billing\n\n## Situation\n\nThe deploy token is {} (rotate it).\n\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n",
        f.github
    )
}

#[test]
fn issue_20_every_text_a_save_writes_is_redacted_and_counted() {
    let f = Fixture::new();
    let fakes = Fakes::new(20);
    let slug = f.create("Billing").slug;
    let env = fakes.env_file();
    let mut art = text_artifact(".env", &env);
    art.provenance = Provenance {
        url: Some(format!("https://deploy:{}@git.corp.test/billing.git", fakes.url_password)),
        ..Default::default()
    };
    let dir = f.store().resolve(&slug).unwrap();
    let req = SaveRequest {
        base_revision: Some(save::revision(&dir).unwrap()),
        distilled_state: Some(state(&fakes)),
        updates: save::FrontmatterUpdates {
            next_action: Some(format!("Rotate {} today", fakes.aws_id)),
            ..Default::default()
        },
        artifacts: vec![art],
        actor: "test".into(),
        ..Default::default()
    };
    let out = save::save(&f.app, &slug, req, &SILENT).unwrap();

    assert_eq!(leaks(f.root(), &fakes.values()), Vec::<(String, usize)>::new(), "a secret reached the store");
    // The outcome and the audit event count per kind, never a value.
    let total: u32 = out.redactions.values().sum();
    assert!(total >= 6, "{:?}", out.redactions);
    for kind in ["github_token", "aws_access_key_id", "private_key", "url_credentials"] {
        assert!(out.redactions.contains_key(kind), "{kind}: {:?}", out.redactions);
    }
    let last = audit(&dir).pop().unwrap();
    assert_eq!(last["redactions"], json!(out.redactions), "{last}");
    assert!(!last.to_string().contains(&fakes.github));
    // The artifact keeps its line count (a key over n lines is n markers) and its markers.
    let stored =
        std::fs::read_to_string(dir.join("artifacts").join(format!("{}.txt", out.artifacts_added[0]))).unwrap();
    assert_eq!(stored.lines().count(), env.lines().count(), "{stored}");
    assert!(stored.contains("[REDACTED:private_key:"), "{stored}");
    assert!(stored.starts_with("# deploy settings\nAPP_NAME=billing\n"), "what is not a secret stays: {stored}");
    let doc = crate::common::doc(&dir);
    assert!(doc.body.contains("[REDACTED:github_token:"), "{}", doc.body);
    assert!(doc.frontmatter.next_action.contains("[REDACTED:aws_access_key_id:"), "{}", doc.frontmatter.next_action);
    // The key was made on first use, once, private.
    let key = f.root().join(".keys/redaction.key");
    assert_eq!(std::fs::read(&key).unwrap().len(), 32);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
    }
}

#[test]
fn issue_20_the_same_secret_gets_the_same_marker_in_a_store_and_another_in_another_store() {
    let fakes = Fakes::new(7);
    let marker = |f: &Fixture, slug: &str| {
        let text = format!("token {}\n", fakes.github);
        let r = redact::redact(&f.app, &text).unwrap();
        assert_eq!(r.hits.len(), 1, "{slug}: {:?}", r.hits);
        r.hits[0].marker.clone()
    };
    let a = Fixture::new();
    let b = Fixture::new();
    let first = marker(&a, "a");
    assert_eq!(marker(&a, "a"), first, "same store, same marker");
    assert!(first.starts_with("[REDACTED:github_token:"), "{first}");
    assert_ne!(marker(&b, "b"), first, "another store's key gives another marker");
    // Saved twice in one store: the same marker both times.
    let slug = a.create("Twice").slug;
    with_state(&a, &slug, &state(&fakes), Vec::new());
    let body = crate::common::doc(&a.dossier(&slug)).body;
    assert!(body.contains(&first), "{body}");
}

#[test]
fn issue_20_with_redaction_off_text_is_stored_verbatim_and_no_key_is_made() {
    let f = Fixture::with(off(), Box::new(Native));
    let fakes = Fakes::new(3);
    let slug = f.create("Verbatim").slug;
    let out = with_state(&f, &slug, &state(&fakes), vec![text_artifact(".env", &fakes.env_file())]);
    assert!(out.redactions.is_empty());
    assert!(!leaks(f.root(), &fakes.values()).is_empty(), "stored as written");
    assert!(!f.root().join(".keys").exists(), "no key while redaction is off");
    assert!(audit(&out.path).iter().all(|e| e.get("redactions").is_none()));
}

#[test]
fn issue_20_a_rejected_save_writes_nothing_not_even_the_key() {
    let f = Fixture::new();
    let fakes = Fakes::new(5);
    let slug = f.create("Rejected").slug;
    let before = tree(f.root());
    // No base revision for a new state; an artifact that is not JSON: both refused.
    let no_base = SaveRequest { distilled_state: Some(state(&fakes)), actor: "t".into(), ..Default::default() };
    assert!(save::save(&f.app, &slug, no_base, &SILENT).is_err());
    let bad_json = NewArtifact {
        content_format: ContentFormat::Json,
        ..text_artifact("creds.json", &format!("{{\"token\": \"{}\"", fakes.github))
    };
    let mut bad =
        SaveRequest { artifacts: vec![text_artifact(".env", &fakes.env_file()), bad_json], ..Default::default() };
    bad.actor = "t".into();
    assert!(save::save(&f.app, &slug, bad, &SILENT).is_err());
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
}

#[test]
fn issue_20_a_jsonl_transcript_stays_valid_jsonl_with_its_secrets_redacted() {
    let f = Fixture::new();
    let fakes = Fakes::new(11);
    let slug = f.create("Transcript").slug;
    let lines = [
        json!({"type": "user", "message": {"content": format!("use {} for the push", fakes.github)}}),
        json!({"type": "tool_result", "content": fakes.env_file()}),
        json!({"type": "assistant", "message": {"content": "Done: the key is in place."}}),
    ];
    let jsonl: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let art = NewArtifact {
        artifact_type: ArtifactType::Transcript,
        title: "transcript".into(),
        content_format: ContentFormat::Text,
        content: ArtifactContent::Text(jsonl.clone()),
        provenance: Provenance::default(),
        extraction: None,
    };
    let dir = f.store().resolve(&slug).unwrap();
    let out = save::save(
        &f.app,
        &slug,
        SaveRequest { artifacts: vec![art], actor: "t".into(), ..Default::default() },
        &SILENT,
    )
    .unwrap();
    let stored =
        std::fs::read_to_string(dir.join("artifacts").join(format!("{}.txt", out.artifacts_added[0]))).unwrap();
    assert_eq!(stored.lines().count(), jsonl.lines().count());
    for line in stored.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    }
    assert_eq!(leaks(f.root(), &fakes.values()), Vec::<(String, usize)>::new());
    assert!(out.redactions.contains_key("private_key"), "{:?}", out.redactions);
}

#[test]
fn issue_20_the_allowlist_keeps_what_it_names() {
    let mut config = Config::default();
    let fakes = Fakes::new(13);
    config.privacy.allow = vec![fakes.aws_id[4..12].to_string()];
    let f = Fixture::with(config, Box::new(Native));
    let r = redact::redact(&f.app, &format!("id {}\ntoken {}\n", fakes.aws_id, fakes.github)).unwrap();
    assert!(r.text.contains(&fakes.aws_id), "allowed: {}", r.text);
    assert!(!r.text.contains(&fakes.github), "{}", r.text);
}

#[test]
fn issue_20_redact_stored_rewrites_a_store_written_without_redaction_then_changes_nothing() {
    let mut f = Fixture::with(off(), Box::new(Native));
    let fakes = Fakes::new(17);
    let slug = f.create("Old store").slug;
    let dir = f.dossier(&slug);
    let env = fakes.env_file();
    let md = NewArtifact {
        content_format: ContentFormat::Markdown,
        ..text_artifact("notes", &format!("# Notes\n\nDB_PASSWORD={}\n", fakes.password))
    };
    let base = save::revision(&dir).unwrap();
    let first = with_state(&f, &slug, &state(&fakes), vec![text_artifact(".env", &env), md]);
    // A stale save keeps its proposal (with the secret) in a conflict file.
    let stale = SaveRequest {
        base_revision: Some(base),
        distilled_state: Some(format!("# Old store\n\nproposal with {}\n", fakes.aws_id)),
        actor: "t".into(),
        ..Default::default()
    };
    assert!(save::save(&f.app, &slug, stale, &SILENT).is_err());
    assert!(!leaks(f.root(), &fakes.values()).is_empty());

    // The scan (doctor's) finds each one: file, line, kind.
    let found = redact::scan(&Redactor::scanner(&f.app), &dir).unwrap();
    let txt = dir.join("artifacts").join(format!("{}.txt", first.artifacts_added[0]));
    assert!(found.iter().any(|x| x.file == txt && x.line == 3), "DB_PASSWORD on line 3: {found:?}");
    assert!(
        found.iter().any(|x| x.file == txt && x.kind == "private_key" && x.line == 5 && x.last_line == 10),
        "{found:?}"
    );
    assert!(found.iter().any(|x| x.file == dir.join("dossier.md") && x.kind == "github_token"), "{found:?}");
    assert!(found.iter().any(|x| x.file.parent().unwrap().ends_with("conflicts")), "{found:?}");
    let before_rev = save::revision(&dir).unwrap();

    // Redaction is off; `dossier redact` runs the rules anyway (the user asked).
    let out = save::redact_stored(&f.app, &slug, "user:cli", &None).unwrap();
    assert!(out.changed);
    assert_eq!(leaks(f.root(), &fakes.values()), Vec::<(String, usize)>::new());
    assert_eq!(out.before_revision, before_rev);
    assert_ne!(out.revision, before_rev, "a new revision");
    assert_eq!(out.revision, save::revision(&dir).unwrap());
    let mut ids = out.artifacts.clone();
    ids.sort();
    let mut expected = first.artifacts_added.clone();
    expected.sort();
    assert_eq!(ids, expected, "artifacts keep their ids");
    assert_eq!(std::fs::read_to_string(&txt).unwrap().lines().count(), env.lines().count(), "and their lines");
    let ev = audit(&dir).pop().unwrap();
    assert_eq!(ev["event"], "artifact_redacted");
    assert_eq!(ev["redactions"], json!(out.redactions));
    assert_eq!(ev["before_revision"], json!(before_rev));
    assert!(ev["redactions"]["private_key"].as_u64() == Some(1), "{ev}");
    // Still readable: the archive lists both artifacts, the Dossier parses.
    let (listed, problems) = dossier_store::archive::list(&dir);
    assert_eq!((listed.len(), problems), (2, Vec::<String>::new()));
    assert!(redact::scan(&Redactor::scanner(&f.app), &dir).unwrap().is_empty(), "doctor is clean");

    // Idempotent: a second run finds nothing and writes nothing.
    f.app.config.privacy.redact = true;
    let before = tree(f.root());
    let again = save::redact_stored(&f.app, &slug, "user:cli", &None).unwrap();
    assert!(!again.changed);
    assert!(again.redactions.is_empty());
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
}

#[test]
fn issue_20_redact_stored_refuses_an_unknown_dossier_and_writes_nothing() {
    let f = Fixture::new();
    f.create("Some");
    let before = tree(f.root());
    let e = save::redact_stored(&f.app, "nope", "user:cli", &None).unwrap_err();
    assert_eq!(e.code, dossier_store::Code::NotFound);
    assert_eq!(changed(&before, &tree(f.root())), Vec::<String>::new());
}
