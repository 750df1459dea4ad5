//! A save to an existing Dossier (SPEC §8.4, §11.5): the concurrency check against the
//! caller's base revision, the auto-merge of non-overlapping field edits, and the
//! concurrent-edit conflict file when the Distilled State diverged.
//!
//! Not for: merges of two Dossiers (`super::merge`).

use std::fs;
use std::io::Write as _;
use std::path::Path;

use serde_json::json;

use super::artifacts::{Prepared, prepare, write_artifacts};
use super::request::{FrontmatterUpdates, SaveOutcome, SaveRequest, over_target_warning};
use super::revision::{event, lock, revision, revision_of};
use crate::app::App;
use crate::audit;
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::ids::{self, Prefix};
use crate::model::{self, AuditEvent, DossierDoc, EventKind, Status};
use crate::progress::Progress;
use crate::redact::{Counts, Redactor};

/// What changed since a base revision according to the audit log.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Since {
    /// Frontmatter fields the audited writes changed.
    pub fields: Vec<String>,
    /// Some audited write changed the Distilled State.
    pub body: bool,
    /// The audited writes chain from the base to `current` (each one's before revision is the
    /// previous one's after): the log accounts for every change. False after a hand edit, a
    /// conflict's archived artifacts or a resumed merge — then what changed is not known.
    pub accounted: bool,
}

/// What changed from `base` to `current` according to the audit log: `None` when `base` is
/// unknown.
pub(super) fn changes_since(events: &[AuditEvent], base: &str, current: &str) -> Option<Since> {
    let start = events.iter().rposition(|e| e.after_revision.as_deref() == Some(base))?;
    let mut since = Since { fields: Vec::new(), body: false, accounted: true };
    let mut at = base;
    for e in &events[start + 1..] {
        let Some(after) = e.after_revision.as_deref() else {
            continue; // events that did not write dossier.md (conflict_created, ...)
        };
        if after != at && e.before_revision.as_deref() != Some(at) {
            since.accounted = false;
        }
        at = after;
        since.fields.extend(e.fields_changed.iter().cloned());
        since.body |= e.body_changed;
        // Artifacts added since base do not conflict with anything.
    }
    since.accounted &= at == current;
    Some(since)
}

/// Apply `req` to the Dossier named by `target` (slug or id).
/// Large artifact files are read in pieces, reported to `progress`.
pub fn save(app: &App, target: &str, mut req: SaveRequest, progress: &dyn Progress) -> Result<SaveOutcome> {
    let store = &app.store;
    store.require()?;
    let dir = store.resolve(target)?;
    req.updates.validate()?;
    if req.distilled_state.is_some() && req.base_revision.is_none() {
        return Err(DossierError::new(
            Code::InvalidInput,
            "replacing the Distilled State needs base_revision (the revision your edit started from)",
        )
        .with_details(
            serde_json::json!({ "field": "base_revision", "expected": "the revision your edit started from" }),
        )
        .with_next(crate::next::Next::per(
            format!("dossier show {target} --json  (data.revision)"),
            format!("call dossier_recall id={target} (data.revision)"),
        )));
    }
    let file = dir.join("dossier.md");
    let _lock = lock(&dir)?;
    let current_text = fs::read_to_string(&file).map_err(|e| DossierError::io("read", &file, e))?;
    let current = DossierDoc::parse(&current_text, &file)?;
    let id = current.frontmatter.id.clone();
    let now = model::now_timestamp();
    // Everything this save writes goes through the redaction policy, once, here.
    let redactor = Redactor::new(app);
    let mut redactions = Counts::new();
    let prepared = prepare(&req.artifacts, &id, &now, progress, &redactor, &mut redactions)?;
    redact_texts(&redactor, &mut req.distilled_state, &mut req.updates, &mut redactions)?;
    let current_rev = revision_of(&dir, current_text.as_bytes());

    let fields: Vec<String> = req.updates.fields().iter().map(|s| s.to_string()).collect();
    let mut auto_merged = false;
    if let Some(base) = &req.base_revision
        && *base != current_rev
    {
        let (events, _) = audit::read(&dir)?;
        // A proposal merges only if nobody changed the same fields since the base. A body
        // change since the base does not overlap field edits; a new Distilled State merges
        // only when the log accounts for every write since the base and none changed the
        // body (so the current body is the base's): any doubt is a conflict.
        let mergeable = changes_since(&events, base, &current_rev).is_some_and(|since| {
            !since.fields.iter().any(|c| fields.contains(c))
                && (req.distilled_state.is_none() || (since.accounted && !since.body))
        });
        if !mergeable {
            return conflict(&dir, &current, &current_rev, base, &req, &prepared, &redactions);
        }
        auto_merged = true;
    }

    let mut fm = current.frontmatter.clone();
    let before_status = fm.status;
    req.updates.apply(&mut fm);
    let body_changed = req.distilled_state.as_ref().is_some_and(|b| *b != current.body);
    if prepared.is_empty() && !body_changed && fm == current.frontmatter {
        // Nothing would change but the timestamps: write nothing and keep the revision, so no
        // other session's base goes stale. No audit line: the log records changes.
        let mut warnings = vec![
            "nothing changed: the Distilled State and fields are as saved and no artifact was added; \
             nothing was written and the revision is unchanged"
                .to_string(),
        ];
        // A re-saved state is still over its target: say so (counting only when a state was sent).
        let target = fm.token_target.unwrap_or(req.token_target);
        let over = req
            .distilled_state
            .as_ref()
            .map(|_| crate::tokens::estimate(&current_text, req.calibration).tokens)
            .filter(|t| *t > target);
        if let Some(tokens) = over {
            warnings.push(over_target_warning(tokens, target, "it is unchanged and whole"));
        }
        return Ok(SaveOutcome {
            slug: fm.slug.clone(),
            id,
            path: dir,
            revision: current_rev.clone(),
            before_revision: Some(current_rev),
            event: req.event.unwrap_or(EventKind::Save),
            artifacts_added: Vec::new(),
            auto_merged: false,
            token_estimate: None,
            over_token_target: over.is_some(),
            redactions,
            warnings,
        });
    }
    fm.updated_at = now.clone();
    fm.last_touched_at = now.clone();
    fm.base_revision = Some(current_rev.clone());
    let body = req.distilled_state.clone().unwrap_or(current.body);
    let doc = DossierDoc { frontmatter: fm, body };
    let artifacts_added = write_artifacts(&dir, &prepared)?;
    let text = doc.render();
    files::write_atomic(&file, text.as_bytes())?;
    let revision = revision_of(&dir, text.as_bytes());
    // Counting needs the tokenizer (tens of ms to construct): only when the state changed.
    let estimate = body_changed.then(|| crate::tokens::estimate(&text, req.calibration));

    let kind = match req.updates.status {
        Some(Status::Archived) if before_status != Status::Archived => EventKind::Archived,
        Some(s) if s != before_status => EventKind::StatusChanged,
        _ => req.event.unwrap_or(EventKind::Save),
    };
    let mut ev = event(kind, &id, &req.actor, &req.session_id);
    ev.before_revision = Some(current_rev.clone());
    ev.after_revision = Some(revision.clone());
    ev.artifacts_added = artifacts_added.clone();
    ev.fields_changed = fields;
    ev.body_changed = body_changed;
    ev.token_estimate = estimate.map(|e| e.tokens);
    if matches!(kind, EventKind::StatusChanged | EventKind::Archived) {
        ev.details.insert("from".into(), json!(before_status));
        ev.details.insert("to".into(), json!(doc.frontmatter.status));
    }
    if auto_merged {
        ev.details.insert("auto_merged".into(), json!(true));
        ev.details.insert("base_revision".into(), json!(req.base_revision));
    }
    if !redactions.is_empty() {
        ev.details.insert("redactions".into(), json!(redactions));
    }
    audit::append(&dir, &ev)?;

    let mut warnings: Vec<String> = prepared.iter().filter_map(|p| p.warning.clone()).collect();
    if body_changed {
        warnings.extend(model::body_structure_warnings(&doc.body));
    }
    let token_target = doc.frontmatter.token_target.unwrap_or(req.token_target);
    let over_token_target = estimate.is_some_and(|e| e.tokens > token_target);
    if let Some(e) = estimate.filter(|_| over_token_target) {
        warnings.push(over_target_warning(e.tokens, token_target, "it was saved whole"));
    }
    if auto_merged {
        warnings.push(format!(
            "auto-merged: the Dossier changed since {} but not in the fields you updated",
            req.base_revision.as_deref().unwrap_or("")
        ));
    }
    Ok(SaveOutcome {
        id,
        slug: doc.frontmatter.slug.clone(),
        path: dir,
        revision,
        before_revision: Some(current_rev),
        event: kind,
        artifacts_added,
        auto_merged,
        token_estimate: estimate.map(|e| e.tokens),
        over_token_target,
        redactions,
        warnings,
    })
}

/// Redact a request's Distilled State and free-text fields in place (the artifacts are
/// redacted by `prepare`), counting into `counts`.
pub(super) fn redact_texts(
    redactor: &Redactor<'_>,
    state: &mut Option<String>,
    updates: &mut FrontmatterUpdates,
    counts: &mut Counts,
) -> Result<()> {
    if let Some(s) = state.as_mut() {
        redactor.apply(s, counts)?;
    }
    for v in [&mut updates.name, &mut updates.lead, &mut updates.next_action].into_iter().flatten() {
        redactor.apply(v, counts)?;
    }
    for list in [&mut updates.open_questions, &mut updates.add_open_questions].into_iter().flatten() {
        for v in list {
            redactor.apply(v, counts)?;
        }
    }
    Ok(())
}

/// Preserve a conflicting proposal in `conflicts/<conf-id>.md`, audit it, and return
/// `concurrent_edit`. New artifacts are archived anyway: captured sources are never lost.
pub(super) fn conflict(
    dir: &Path,
    current: &DossierDoc,
    current_rev: &str,
    base: &str,
    req: &SaveRequest,
    prepared: &[Prepared],
    redactions: &Counts,
) -> Result<SaveOutcome> {
    let conf_id = ids::new_id(Prefix::Conflict);
    let artifacts_added = write_artifacts(dir, prepared)?;
    let head_rev = if artifacts_added.is_empty() { current_rev.to_string() } else { revision(dir)? };
    let header = json!({
        "id": conf_id,
        "dossier_id": current.frontmatter.id,
        "kind": "concurrent_edit",
        "created_at": model::now_timestamp(),
        "base_revision": base,
        "current_revision": current_rev,
        "actor": req.actor,
        "session_id": req.session_id,
        "frontmatter_updates": req.updates,
        "artifacts_added": artifacts_added,
        "resolved": false,
    });
    let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
    let body = match &req.distilled_state {
        Some(b) => b.clone(),
        None => "(No Distilled State change was proposed; see frontmatter_updates.)\n".to_string(),
    };
    let cdir = dir.join("conflicts");
    fs::create_dir_all(&cdir).map_err(|e| DossierError::io("create", &cdir, e))?;
    let path = cdir.join(format!("{conf_id}.md"));
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| DossierError::io("create", &path, e))?;
    f.write_all(format!("---\n{yaml}---\n\n{body}").as_bytes()).map_err(|e| DossierError::io("write", &path, e))?;
    f.sync_all().map_err(|e| DossierError::io("sync", &path, e))?;

    let mut ev = event(EventKind::ConflictCreated, &current.frontmatter.id, &req.actor, &req.session_id);
    ev.before_revision = Some(current_rev.to_string());
    ev.artifacts_added = artifacts_added;
    ev.details.insert("conflict_id".into(), json!(conf_id));
    ev.details.insert("base_revision".into(), json!(base));
    ev.details.insert("path".into(), json!(path));
    if !redactions.is_empty() {
        ev.details.insert("redactions".into(), json!(redactions));
    }
    audit::append(dir, &ev)?;
    Err(DossierError::new(
        Code::ConcurrentEdit,
        format!(
            "the Dossier changed since {base} (now {head_rev}); your proposal was kept in {} and nothing else changed",
            path.display()
        ),
    )
    .with_details(json!({
        "conflict_id": conf_id,
        "conflict_path": path,
        "base_revision": base,
        "current_revision": head_rev,
    }))
    .with_next(format!(
        "recall the current Distilled State, reapply your change, and save with base_revision {head_rev}"
    )))
}
