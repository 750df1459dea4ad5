//! The write side of a merge (SPEC §8.7): under both Dossiers' locks, the converged state the
//! merge policy decided, the source's artifacts copied, the source archived — or, with
//! unresolved conflicts, each kept as a conflict file and nothing else changed. Idempotent.
//!
//! Not for: turning Dossiers into the policy's inputs or resolutions from users
//! (`crate::merge`).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::json;

use super::artifacts::copy_artifacts;
use super::conflict_file::split_conflict;
use super::revision::{event, lock, revision_of};
use crate::audit;
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::layout::Store;
use crate::model::{self, AuditEvent, DossierDoc, EventKind, Frontmatter, Status};
use crate::progress::Progress;

/// What a merge decided, for [`merge`] to write.
pub struct MergeDecision {
    pub plan: crate::policy::MergePlan,
}

/// A possible conflict an agent judged compatible (`crate::merge::apply_reviews`): resolved
/// `keep_both`, its `conflict_resolved` events name that agent and its reason.
#[derive(Clone, Debug, Serialize)]
pub struct Reviewed {
    pub conflict_id: String,
    pub actor: String,
    pub reason: String,
}

/// A pair of changed claims an agent flagged as unable to both hold (issue 19, eleventh round:
/// `crate::merge::review`): a `flagged_by_reviewer` conflict. Its `conflict_created` event
/// names that agent and its reason (written when the conflict is first kept as a file, or, if it
/// never was, when the merge completes); its `conflict_resolved` event adds `flagged_by` and
/// `flag_reason`.
#[derive(Clone, Debug, Serialize)]
pub struct Flagged {
    pub conflict_id: String,
    pub target_claim: String,
    pub source_claim: String,
    pub actor: String,
    pub reason: String,
}

/// What [`merge`] did.
#[derive(Debug)]
pub enum MergeWritten {
    /// Every conflict was resolved (or there were none): the target holds the converged
    /// state and the source's artifacts; the source is archived with `merged_into`.
    Completed(MergeOutcome),
    /// Conflicts remain: each is preserved as `conflicts/<id>.md` in the target (created once)
    /// and nothing else changed but the audit logs. The count is the plan's related pairs not
    /// listed (`unlisted_related`: each source claim is listed against at most 2).
    Conflicts(Vec<(crate::policy::Conflict, PathBuf)>, u32),
}

#[derive(Clone, Debug, Serialize)]
pub struct MergeOutcome {
    pub source_id: String,
    pub source_slug: String,
    pub target_id: String,
    pub target_slug: String,
    pub target_path: PathBuf,
    pub target_revision: String,
    /// Artifacts copied from the source into the target's archive by this run.
    pub artifacts_copied: Vec<String>,
    pub conflicts_resolved: Vec<String>,
    /// The merge had already completed (a re-run): nothing was written.
    pub already_merged: bool,
}

/// Key in the target's frontmatter listing the ids of the Dossiers merged into it; its
/// presence is the merge's commit point (see [`merge`]).
pub const MERGED_FROM: &str = "merged_from";

/// Key in a merged source's frontmatter naming the Dossier it was merged into.
pub const MERGED_INTO: &str = "merged_into";

#[cfg(debug_assertions)]
pub(super) fn failpoint(name: &str) {
    // Crash tests: `DOSSIER_FAILPOINT=<name>` exits the process abruptly at that step, as a
    // power cut would. Compiled into debug builds only.
    if std::env::var("DOSSIER_FAILPOINT").is_ok_and(|v| v == name) {
        std::process::exit(86);
    }
}

#[cfg(not(debug_assertions))]
pub(super) fn failpoint(_: &str) {}

/// Merge `source` into `target` (SPEC §8.7): the one write path of a merge.
///
/// Under both Dossiers' locks (taken in path order): `decide` runs the merge policy on the
/// current documents. Unresolved conflicts → each preserved in `conflicts/`, `merge_conflict`
/// (and `conflict_created` per new file) audited, nothing else written. Otherwise, in this
/// order: `merge_started` in both → copy every source artifact into the target archive
/// (atomic per file, skipped when already there) → write the target's `dossier.md` with the
/// converged state and `merged_from` (the commit point) → `conflict_resolved` per resolution
/// and `merge_completed` in the target → the source's `dossier.md` archived with
/// `merged_into` → `conflict_resolved`, `merge_completed` in the source. Mark the target's
/// merge conflict files resolved.
///
/// Idempotent: a run interrupted before the commit point left the target's `dossier.md`
/// untouched (copied artifacts are reused); after it, a re-run only finishes the source and
/// the events it finds missing. Source files are never deleted.
/// The copy of the source's artifacts is reported to `progress`.
#[allow(clippy::too_many_arguments)]
pub fn merge(
    store: &Store,
    source: &str,
    target: &str,
    actor: &str,
    session_id: &Option<String>,
    resolutions: &[crate::policy::Resolution],
    reviewed: &[Reviewed],
    flagged: &[Flagged],
    decide: impl FnOnce(&DossierDoc, &DossierDoc) -> Result<MergeDecision>,
    progress: &dyn Progress,
) -> Result<MergeWritten> {
    store.require()?;
    let sdir = store.resolve(source)?;
    let tdir = store.resolve(target)?;
    if fs::canonicalize(&sdir).ok() == fs::canonicalize(&tdir).ok() {
        return Err(DossierError::new(Code::InvalidInput, "source and target are the same Dossier")
            .with_details(json!({ "field": "target", "expected": "a Dossier other than the source" }))
            .with_next(crate::next::Next::per(
                "name two different Dossiers: dossier merge <source> <target>",
                "call dossier_merge with two different Dossiers as source_id and target_id",
            )));
    }
    let (_l1, _l2) = if sdir < tdir { (lock(&sdir)?, lock(&tdir)?) } else { (lock(&tdir)?, lock(&sdir)?) };
    let sfile = sdir.join("dossier.md");
    let tfile = tdir.join("dossier.md");
    let stext = fs::read_to_string(&sfile).map_err(|e| DossierError::io("read", &sfile, e))?;
    let ttext = fs::read_to_string(&tfile).map_err(|e| DossierError::io("read", &tfile, e))?;
    let sdoc = DossierDoc::parse(&stext, &sfile)?;
    let tdoc = DossierDoc::parse(&ttext, &tfile)?;
    let (sid, tid) = (sdoc.frontmatter.id.clone(), tdoc.frontmatter.id.clone());

    let merged_into = sdoc.frontmatter.extra.get(MERGED_INTO).and_then(|v| v.as_str()).map(str::to_string);
    if let Some(into) = &merged_into
        && *into != tid
    {
        return Err(DossierError::new(
            Code::InvalidInput,
            format!("{} was already merged into {into}", sdoc.frontmatter.slug),
        )
        .with_details(json!({ "field": "source", "merged_into": into }))
        .with_next(crate::next::Next::call(crate::next::Op::Show, into.as_str())));
    }
    let committed = merged_from(&tdoc.frontmatter).contains(&sid);
    let mut outcome = MergeOutcome {
        source_id: sid.clone(),
        source_slug: sdoc.frontmatter.slug.clone(),
        target_id: tid.clone(),
        target_slug: tdoc.frontmatter.slug.clone(),
        target_path: tdir.clone(),
        target_revision: revision_of(&tdir, ttext.as_bytes()),
        artifacts_copied: Vec::new(),
        conflicts_resolved: resolutions.iter().map(|r| r.conflict_id.clone()).collect(),
        already_merged: false,
    };
    let source_done = merged_into.is_some() && sdoc.frontmatter.status == Status::Archived;
    let source_recorded = audit::read(&sdir)?.0.iter().any(|e| {
        e.event == EventKind::MergeCompleted && e.details.get("target_id").and_then(|v| v.as_str()) == Some(&tid)
    });
    if committed && source_done && source_recorded {
        outcome.already_merged = true;
        outcome.conflicts_resolved.clear();
        return Ok(MergeWritten::Completed(outcome));
    }

    let details = |ev: &mut AuditEvent| {
        ev.details.insert("source_id".into(), json!(sid));
        ev.details.insert("target_id".into(), json!(tid));
    };
    if !committed {
        let decision = decide(&sdoc, &tdoc)?;
        let plan = decision.plan;
        let unlisted = plan.unlisted_related;
        if !plan.unresolved.is_empty() {
            let cdir = tdir.join("conflicts");
            fs::create_dir_all(&cdir).map_err(|e| DossierError::io("create", &cdir, e))?;
            let mut out = Vec::new();
            let mut created = Vec::new();
            for c in plan.unresolved {
                let path = cdir.join(format!("{}.md", c.id));
                if !path.exists() {
                    files::write_atomic(&path, render_merge_conflict(&c, &sdoc, &tdoc).as_bytes())?;
                    created.push((c.id.clone(), path.clone()));
                }
                out.push((c, path));
            }
            let ids: Vec<&str> = out.iter().map(|(c, _)| c.id.as_str()).collect();
            for (dir, id) in [(&tdir, &tid), (&sdir, &sid)] {
                let mut ev = event(EventKind::MergeConflict, id, actor, session_id);
                details(&mut ev);
                ev.details.insert("conflict_ids".into(), json!(ids));
                audit::append(dir, &ev)?;
            }
            // The file lives in the target; both Dossiers' logs record it. A flagged pair's is
            // the agent's that flagged it, with its reason.
            for (conf, path) in created {
                for (dir, id) in [(&tdir, &tid), (&sdir, &sid)] {
                    let mut ev = created_event(id, &conf, flagged, actor, session_id, &details);
                    ev.details.insert("path".into(), json!(path));
                    audit::append(dir, &ev)?;
                }
            }
            return Ok(MergeWritten::Conflicts(out, unlisted));
        }
        for (dir, id) in [(&tdir, &tid), (&sdir, &sid)] {
            let mut ev = event(EventKind::MergeStarted, id, actor, session_id);
            details(&mut ev);
            audit::append(dir, &ev)?;
        }
        failpoint("merge_after_started");
        outcome.artifacts_copied = copy_artifacts(&sdir, &tdir, progress)?;
        failpoint("merge_after_artifacts");

        let mut fm = tdoc.frontmatter.clone();
        let now = model::now_timestamp();
        let before_rev = revision_of(&tdir, ttext.as_bytes());
        let fields_before = (fm.next_action.clone(), fm.status, fm.open_questions.clone());
        fm.next_action = plan.converged_next_action.clone();
        fm.status = status_of(plan.converged_status);
        for q in &sdoc.frontmatter.open_questions {
            if !fm.open_questions.iter().any(|o| o.trim().eq_ignore_ascii_case(q.trim())) {
                fm.open_questions.push(q.clone());
            }
        }
        let mut from = merged_from(&fm);
        from.push(sid.clone());
        fm.extra.insert(MERGED_FROM.into(), json!(from));
        fm.updated_at = now.clone();
        fm.last_touched_at = now;
        fm.base_revision = Some(before_rev.clone());
        let mut fields = vec![MERGED_FROM.to_string()];
        if fields_before.0 != fm.next_action {
            fields.push("next_action".into());
        }
        if fields_before.1 != fm.status {
            fields.push("status".into());
        }
        if fields_before.2 != fm.open_questions {
            fields.push("open_questions".into());
        }
        let doc = DossierDoc { frontmatter: fm, body: plan.converged_state };
        let text = doc.render();
        files::write_atomic(&tfile, text.as_bytes())?;
        failpoint("merge_after_target");
        let after_rev = revision_of(&tdir, text.as_bytes());
        outcome.target_revision = after_rev.clone();
        for ev in unfiled_flags(&tdir, &tid, flagged, actor, session_id, &details) {
            audit::append(&tdir, &ev)?;
        }
        for r in resolutions {
            audit::append(&tdir, &resolved_event(&tid, r, reviewed, flagged, actor, session_id, &details))?;
        }
        let mut ev = event(EventKind::MergeCompleted, &tid, actor, session_id);
        details(&mut ev);
        ev.before_revision = Some(before_rev);
        ev.after_revision = Some(after_rev);
        ev.artifacts_added = outcome.artifacts_copied.clone();
        ev.fields_changed = fields;
        ev.body_changed = doc.body != tdoc.body;
        audit::append(&tdir, &ev)?;
    } else {
        // Re-run after the commit point: the target's state is written; copy anything
        // missing (nothing, unless the archive was tampered with), record the target's
        // events if the interrupted run did not get to them, and finish the source.
        outcome.artifacts_copied = copy_artifacts(&sdir, &tdir, progress)?;
        let (events, _) = audit::read(&tdir)?;
        let recorded = events.iter().any(|e| {
            e.event == EventKind::MergeCompleted && e.details.get("source_id").and_then(|v| v.as_str()) == Some(&sid)
        });
        if !recorded {
            for ev in unfiled_flags(&tdir, &tid, flagged, actor, session_id, &details) {
                audit::append(&tdir, &ev)?;
            }
            for r in resolutions {
                audit::append(&tdir, &resolved_event(&tid, r, reviewed, flagged, actor, session_id, &details))?;
            }
            let mut ev = event(EventKind::MergeCompleted, &tid, actor, session_id);
            details(&mut ev);
            ev.after_revision = Some(outcome.target_revision.clone());
            ev.details.insert("resumed".into(), json!(true));
            audit::append(&tdir, &ev)?;
        }
    }
    mark_merge_conflicts_resolved(&tdir, &sid, resolutions)?;

    // The source: archived, pointing at the survivor; its files stay. (A re-run finds it
    // written and records only the events the interrupted run did not.)
    if !source_recorded {
        let before_rev = revision_of(&sdir, stext.as_bytes());
        let before_status = sdoc.frontmatter.status;
        let text = if source_done {
            stext.clone()
        } else {
            let mut fm = sdoc.frontmatter.clone();
            fm.status = Status::Archived;
            fm.extra.insert(MERGED_INTO.into(), json!(tid));
            fm.updated_at = model::now_timestamp();
            fm.base_revision = Some(before_rev.clone());
            let text = DossierDoc { frontmatter: fm, body: sdoc.body.clone() }.render();
            files::write_atomic(&sfile, text.as_bytes())?;
            failpoint("merge_after_source");
            text
        };
        for ev in unfiled_flags(&tdir, &sid, flagged, actor, session_id, &details) {
            audit::append(&sdir, &ev)?;
        }
        for r in resolutions {
            audit::append(&sdir, &resolved_event(&sid, r, reviewed, flagged, actor, session_id, &details))?;
        }
        let mut ev = event(EventKind::MergeCompleted, &sid, actor, session_id);
        details(&mut ev);
        ev.before_revision = Some(before_rev);
        ev.after_revision = Some(revision_of(&sdir, text.as_bytes()));
        ev.fields_changed = vec!["status".into(), MERGED_INTO.into()];
        ev.details.insert("from".into(), json!(before_status));
        ev.details.insert("to".into(), json!(Status::Archived));
        audit::append(&sdir, &ev)?;
    }
    Ok(MergeWritten::Completed(outcome))
}

/// `conflict_created` for the merge conflict `conf` in the log of Dossier `id`: by `actor`, or,
/// for a flagged pair, by the agent that flagged it, with its reason and the two claims.
fn created_event(
    id: &str,
    conf: &str,
    flagged: &[Flagged],
    actor: &str,
    session_id: &Option<String>,
    details: &dyn Fn(&mut AuditEvent),
) -> AuditEvent {
    let by = flagged.iter().find(|f| f.conflict_id == conf);
    let mut ev = event(EventKind::ConflictCreated, id, by.map_or(actor, |f| f.actor.as_str()), session_id);
    details(&mut ev);
    ev.details.insert("conflict_id".into(), json!(conf));
    ev.details.insert("kind".into(), json!("merge"));
    if let Some(f) = by {
        ev.details.insert("flagged".into(), json!(true));
        ev.details.insert("reason".into(), json!(f.reason));
        ev.details.insert("target_claim".into(), json!(f.target_claim));
        ev.details.insert("source_claim".into(), json!(f.source_claim));
    }
    ev
}

/// The `conflict_created` events of flagged pairs that were never kept as a conflict file (the
/// user answered a form in the same call): the agent's flag is recorded all the same, once.
fn unfiled_flags(
    tdir: &Path,
    id: &str,
    flagged: &[Flagged],
    actor: &str,
    session_id: &Option<String>,
    details: &dyn Fn(&mut AuditEvent),
) -> Vec<AuditEvent> {
    flagged
        .iter()
        .filter(|f| !tdir.join("conflicts").join(format!("{}.md", f.conflict_id)).exists())
        .map(|f| created_event(id, &f.conflict_id, flagged, actor, session_id, details))
        .collect()
}

/// `conflict_resolved` for `r`: by `actor`, or by the agent that judged it compatible (with
/// its verdict and reason); a flagged pair's names the agent that flagged it and why.
#[allow(clippy::too_many_arguments)]
fn resolved_event(
    id: &str,
    r: &crate::policy::Resolution,
    reviewed: &[Reviewed],
    flagged: &[Flagged],
    actor: &str,
    session_id: &Option<String>,
    details: &dyn Fn(&mut AuditEvent),
) -> AuditEvent {
    let by = reviewed.iter().find(|v| v.conflict_id == r.conflict_id);
    let mut ev = event(EventKind::ConflictResolved, id, by.map_or(actor, |v| v.actor.as_str()), session_id);
    details(&mut ev);
    ev.details.insert("conflict_id".into(), json!(r.conflict_id));
    ev.details.insert("resolution".into(), resolution_json(&r.choice));
    if let Some(v) = by {
        ev.details.insert("verdict".into(), json!("compatible"));
        ev.details.insert("reason".into(), json!(v.reason));
    }
    if let Some(f) = flagged.iter().find(|f| f.conflict_id == r.conflict_id) {
        ev.details.insert("flagged_by".into(), json!(f.actor));
        ev.details.insert("flag_reason".into(), json!(f.reason));
    }
    ev
}

pub(super) fn merged_from(fm: &Frontmatter) -> Vec<String> {
    fm.extra
        .get(MERGED_FROM)
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

pub(super) fn status_of(s: crate::policy::LifecycleStatus) -> Status {
    use crate::policy::LifecycleStatus as L;
    match s {
        L::Active => Status::Active,
        L::Waiting => Status::Waiting,
        L::Blocked => Status::Blocked,
        L::Resolved => Status::Resolved,
        L::Archived => Status::Archived,
    }
}

/// A resolution as recorded in audit events and conflict files.
pub fn resolution_json(c: &crate::policy::ResolutionChoice) -> serde_json::Value {
    use crate::policy::ResolutionChoice as R;
    match c {
        R::KeepSource => json!({ "choice": "keep_source" }),
        R::KeepTarget => json!({ "choice": "keep_target" }),
        R::KeepBoth => json!({ "choice": "keep_both" }),
        R::Custom(text) => json!({ "choice": "custom", "text": text }),
    }
}

/// `conflicts/<id>.md` for a merge conflict: a YAML header and both sides as written.
pub(super) fn render_merge_conflict(c: &crate::policy::Conflict, source: &DossierDoc, target: &DossierDoc) -> String {
    let header = json!({
        "id": c.id,
        "dossier_id": target.frontmatter.id,
        "kind": "merge",
        "conflict_kind": conflict_kind_name(c.kind),
        "certainty": c.certainty.as_str(),
        "subject": c.subject,
        "source_id": source.frontmatter.id,
        "target_id": target.frontmatter.id,
        "created_at": model::now_timestamp(),
        "resolved": false,
    });
    let mut header = header;
    if let Some(h) = &c.compatible_hint {
        // Why the rules think the pair compatible (issue 19, sixth round), last in the header.
        header["compatible_hint"] = json!(h);
    }
    let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
    let side = |label: &str, name: &str, s: &crate::policy::ConflictSide| {
        let at = if s.line == 0 { "frontmatter".to_string() } else { format!("line {}", s.line) };
        format!("## {label}: {name} ({at})\n\n{}\n", s.text.trim_end())
    };
    format!(
        "---\n{yaml}---\n\n# Merge conflict: {}\n\n{}\n{}\nResolve with `dossier merge {} {}` (asks for each conflict), or `dossier_merge` with `resolved_conflicts: [{{\"conflict_id\": \"{}\", \"choice\": \"keep_target | keep_source | keep_both | custom\", \"text\": \"...\"}}]`.\n",
        c.subject,
        side("Target", &target.frontmatter.name, &c.target),
        side("Source", &source.frontmatter.name, &c.source),
        source.frontmatter.slug,
        target.frontmatter.slug,
        c.id,
    )
}

pub fn conflict_kind_name(k: crate::policy::ConflictKind) -> &'static str {
    use crate::policy::ConflictKind as K;
    match k {
        K::ContradictoryDecision => "contradictory_decision",
        K::DivergentNextAction => "divergent_next_action",
        K::IncompatibleLifecycle => "incompatible_lifecycle",
        K::IncompatibleValue => "incompatible_value",
        K::RelatedClaims => "related_claims",
        K::FlaggedByReviewer => "flagged_by_reviewer",
    }
}

/// Set `resolved: true` (and the resolution) in the target's merge conflict files of this
/// source. Conflict files are ours, not Dossier data: rewritten atomically, never deleted.
pub(super) fn mark_merge_conflicts_resolved(
    tdir: &Path,
    source_id: &str,
    resolutions: &[crate::policy::Resolution],
) -> Result<()> {
    let cdir = tdir.join("conflicts");
    let Ok(entries) = fs::read_dir(&cdir) else { return Ok(()) };
    for e in entries.flatten() {
        let path = e.path();
        let Ok(text) = fs::read_to_string(&path) else { continue };
        let Some((mut header, body)) = split_conflict(&text) else { continue };
        if header.get("kind").and_then(|v| v.as_str()) != Some("merge")
            || header.get("source_id").and_then(|v| v.as_str()) != Some(source_id)
            || header.get("resolved").and_then(|v| v.as_bool()) == Some(true)
        {
            continue;
        }
        let id = header.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
        header.insert("resolved".into(), json!(true));
        header.insert("resolved_at".into(), json!(model::now_timestamp()));
        let id = crate::ids::canonical_conflict_id(&id); // a file of the older `conf-<hex>` form
        if let Some(r) = resolutions.iter().find(|r| r.conflict_id == id) {
            header.insert("resolution".into(), resolution_json(&r.choice));
        }
        let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
        files::write_atomic(&path, format!("---\n{yaml}---\n{body}").as_bytes())?;
    }
    Ok(())
}
