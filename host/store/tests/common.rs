//! What the in-process tests share: a store in a temp directory with an [`App`] over it
//! (the native policy, no harness), Dossiers created and saved through the Save path, the
//! whole directory tree as bytes (to prove a rejected input wrote nothing), and audit lines
//! as the JSON on disk.
//!
//! Not for: assertions (each test module makes its own) or running the `dossier` binary
//! (the `dossier` crate's tests do that).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dossier_store::config::Config;
use dossier_store::harness::Detached;
use dossier_store::model::{ArtifactType, ContentFormat, Provenance};
use dossier_store::policy::Policy;
use dossier_store::progress::SILENT;
use dossier_store::save::{self, ArtifactContent, CreateRequest, NewArtifact, SaveOutcome, SaveRequest};
use dossier_store::{App, Store};
use serde_json::Value;

use crate::native::Native;

/// A store at `<temp>/store` (existing, so `require` passes) and an [`App`] over it.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub app: App,
}

impl Fixture {
    pub fn new() -> Fixture {
        Fixture::with(Config::default(), Box::new(Native))
    }

    pub fn with(config: Config, policy: Box<dyn Policy>) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("store");
        std::fs::create_dir(&root).unwrap();
        let app = App::new(Store::at(root), config, policy, Box::new(Detached));
        Fixture { dir, app }
    }

    pub fn store(&self) -> &Store {
        &self.app.store
    }

    pub fn root(&self) -> &Path {
        self.app.store.root()
    }

    /// The directory of the Dossier with `slug`.
    pub fn dossier(&self, slug: &str) -> PathBuf {
        self.root().join(slug)
    }

    /// Create a Dossier named `name` (skeleton state, no artifacts).
    pub fn create(&self, name: &str) -> SaveOutcome {
        let req = CreateRequest { name: name.into(), actor: "test".into(), ..Default::default() };
        save::create(&self.app, req, &SILENT).unwrap()
    }

    /// Replace `target`'s Distilled State on top of its current revision.
    pub fn save_state(&self, target: &str, body: &str) -> SaveOutcome {
        let dir = self.store().resolve(target).unwrap();
        let req = SaveRequest {
            base_revision: Some(save::revision(&dir).unwrap()),
            distilled_state: Some(body.into()),
            actor: "test".into(),
            ..Default::default()
        };
        save::save(&self.app, target, req, &SILENT).unwrap()
    }

    /// Create a Dossier with `next` as its next action, `artifacts` (file name, text)
    /// captured, and `state` as its Distilled State, where `{0}`, `{1}`, ... stand for the
    /// captured artifacts' ids. Returns (slug, artifact ids).
    pub fn make(&self, name: &str, next: &str, state: &str, artifacts: &[(&str, &str)]) -> (String, Vec<String>) {
        let slug = self.create(name).slug;
        let req = SaveRequest {
            updates: save::FrontmatterUpdates { next_action: Some(next.into()), ..Default::default() },
            artifacts: artifacts.iter().map(|(file, text)| text_artifact(file, text)).collect(),
            actor: "test".into(),
            ..Default::default()
        };
        let ids = save::save(&self.app, &slug, req, &SILENT).unwrap().artifacts_added;
        let mut body = state.to_string();
        for (i, id) in ids.iter().enumerate() {
            body = body.replace(&format!("{{{i}}}"), id);
        }
        self.save_state(&slug, &body);
        (slug, ids)
    }
}

/// An [`App`] over the store at `root` (the native policy, no harness): one per thread, as
/// every process has its own.
pub fn app_at(root: &Path) -> App {
    App::new(Store::at(root.to_path_buf()), Config::default(), Box::new(Native), Box::new(Detached))
}

/// A text artifact titled `title` with `text` as its content.
pub fn text_artifact(title: &str, text: &str) -> NewArtifact {
    NewArtifact {
        artifact_type: ArtifactType::SourceSnapshot,
        title: title.into(),
        content_format: ContentFormat::Text,
        content: ArtifactContent::Text(text.into()),
        provenance: Provenance::default(),
        extraction: None,
    }
}

/// One entry of a directory tree: a directory, or a file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Dir,
    File(Vec<u8>),
}

/// Every directory and file under `root` (paths relative to it), with file contents.
pub fn tree(root: &Path) -> BTreeMap<String, Entry> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            if p.is_dir() {
                out.insert(rel, Entry::Dir);
                stack.push(p);
            } else {
                out.insert(rel, Entry::File(std::fs::read(&p).unwrap()));
            }
        }
    }
    out
}

/// The paths whose entry differs between two trees (added, removed or changed).
pub fn changed(before: &BTreeMap<String, Entry>, after: &BTreeMap<String, Entry>) -> Vec<String> {
    let mut paths: Vec<String> = before.keys().chain(after.keys()).cloned().collect();
    paths.sort();
    paths.dedup();
    paths.retain(|p| before.get(p) != after.get(p));
    paths
}

/// The Dossier's audit lines as the JSON on disk.
pub fn audit(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("audit line does not parse ({e}): {l}")))
        .collect()
}

/// The event names of the Dossier's audit log, in order.
pub fn events(dir: &Path) -> Vec<String> {
    audit(dir).iter().map(|e| e["event"].as_str().unwrap().to_string()).collect()
}

/// A Dossier's `dossier.md`, parsed.
pub fn doc(dir: &Path) -> dossier_store::model::DossierDoc {
    let file = dir.join("dossier.md");
    dossier_store::model::DossierDoc::parse(&std::fs::read_to_string(&file).unwrap(), &file).unwrap()
}
