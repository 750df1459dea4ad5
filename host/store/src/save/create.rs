//! Creation (SPEC §8.5, §12.2): a new Dossier's directory, frontmatter, Distilled State and
//! first artifacts, audited as `create` or `promote`.
//!
//! Not for: the duplicate guard (the operation layer asks `crate::suggest` first).

use std::fs;

use indexmap::IndexMap;
use serde_json::json;

use super::artifacts::{prepare, write_artifacts};
use super::request::{CreateRequest, SaveOutcome, over_target_warning};
use super::revision::{event, lock, revision_of};
use crate::app::App;
use crate::audit;
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::ids::{self, Prefix};
use crate::model::{self, DossierDoc, EventKind, Frontmatter, Level, Status};
use crate::progress::Progress;
use crate::redact::{Counts, Redactor};

/// Create a new Dossier. The slug comes from the name; a taken slug gets a short id suffix.
pub fn create(app: &App, mut req: CreateRequest, progress: &dyn Progress) -> Result<SaveOutcome> {
    let store = &app.store;
    store.require()?;
    let mut name = req.name.trim().to_string();
    if name.is_empty() {
        return Err(DossierError::new(Code::InvalidInput, "a Dossier needs a name")
            .with_details(serde_json::json!({ "field": "name", "expected": "a non-empty name" }))
            .with_next(crate::next::Next::per("--name <name>", "call dossier_promote with a non-empty name")));
    }
    req.updates.validate()?;
    let id = ids::new_id(Prefix::Dossier);
    let now = model::now_timestamp();
    // Everything this creation writes goes through the redaction policy, once, here.
    let redactor = Redactor::new(app);
    let mut redactions = Counts::new();
    let prepared = prepare(&req.artifacts, &id, &now, progress, &redactor, &mut redactions)?;
    super::edit::redact_texts(&redactor, &mut req.distilled_state, &mut req.updates, &mut redactions)?;
    redactor.apply(&mut name, &mut redactions)?;

    let mut fm = Frontmatter {
        id: id.clone(),
        name: name.clone(),
        slug: String::new(),
        created_at: now.clone(),
        updated_at: now.clone(),
        last_touched_at: now.clone(),
        status: Status::Active,
        lead: None,
        next_action: String::new(),
        open_questions: Vec::new(),
        importance: Level::High,
        urgency: Level::Low,
        due_date: None,
        token_target: None,
        base_revision: None,
        extra: IndexMap::new(),
    };
    req.updates.apply(&mut fm);
    let body = req.distilled_state.clone().unwrap_or_else(|| model::skeleton_body(&fm.name));

    // Claim the slug atomically: `mkdir` fails if it exists.
    let base = ids::slugify(&name);
    let mut slug = base.clone();
    let dir = loop {
        let dir = store.root().join(&slug);
        match fs::create_dir(&dir) {
            Ok(()) => break dir,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && slug == base => {
                slug = ids::with_suffix(&base, &id);
            }
            Err(e) => return Err(DossierError::io("create", &dir, e)),
        }
    };
    fm.slug = slug.clone();
    for sub in ["artifacts", "conflicts"] {
        fs::create_dir_all(dir.join(sub)).map_err(|e| DossierError::io("create", &dir.join(sub), e))?;
    }
    let _lock = lock(&dir)?;
    let artifacts_added = write_artifacts(&dir, &prepared)?;
    let doc = DossierDoc { frontmatter: fm, body };
    let text = doc.render();
    files::write_atomic(&dir.join("dossier.md"), text.as_bytes())?;
    let revision = revision_of(&dir, text.as_bytes());

    let mut ev = event(EventKind::Create, &id, &req.actor, &req.session_id);
    ev.after_revision = Some(revision.clone());
    ev.artifacts_added = artifacts_added.clone();
    ev.body_changed = true;
    ev.details.insert("name".into(), json!(name));
    ev.details.insert("slug".into(), json!(slug));
    if !redactions.is_empty() {
        ev.details.insert("redactions".into(), json!(redactions));
    }
    audit::append(&dir, &ev)?;
    let mut kind = EventKind::Create;
    if req.promote {
        let mut ev = event(EventKind::Promote, &id, &req.actor, &req.session_id);
        ev.after_revision = Some(revision.clone());
        audit::append(&dir, &ev)?;
        kind = EventKind::Promote;
    }
    let mut warnings: Vec<String> = prepared.iter().filter_map(|p| p.warning.clone()).collect();
    warnings.extend(model::body_structure_warnings(&doc.body));
    // A given Distilled State may start over its target (the skeleton never does).
    let target = doc.frontmatter.token_target.unwrap_or(req.token_target);
    let over = req
        .distilled_state
        .as_ref()
        .map(|_| crate::tokens::estimate(&text, req.calibration).tokens)
        .filter(|t| *t > target);
    if let Some(tokens) = over {
        warnings.push(over_target_warning(tokens, target, "it was saved whole"));
    }
    Ok(SaveOutcome {
        id,
        slug,
        path: dir,
        revision,
        before_revision: None,
        event: kind,
        artifacts_added,
        auto_merged: false,
        token_estimate: None,
        over_token_target: over.is_some(),
        redactions,
        warnings,
    })
}
