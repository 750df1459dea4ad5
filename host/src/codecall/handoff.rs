//! The §19 long-term-memory hand-off: when a codecall session that opted in completes, its
//! Summary is saved to the Dossier the agent session was bound to at start, as a
//! `decision_evidence` artifact, through the single Save path, with provenance naming the
//! learning session and its event log.
//!
//! Opt-in: per session (`save_summary` at start) or for every session
//! (`codecall.save_summaries` in config.yaml). The target is resolved once, at start, from the
//! harness session's binding, and recorded in the session's start options
//! (`save_summary_to`), so whichever process completes the session knows where the summary
//! goes. Convergent: a summary already in that Dossier's archive (found by its
//! `codecall_session` provenance) is never saved twice, so `show` or `resume` of a completed
//! session whose hand-off failed saves it then.
//!
//! Not for: deciding anything about the session (the runtime) or writing files (`save.rs`).

use std::fmt::Write as _;
use std::path::Path;

use dossier_codecall::contract::Summary;
use serde::Serialize;

use crate::app::App;
use crate::codecall::text::{cite, wire};
use dossier_store::error::Result;
use dossier_store::model::{ArtifactType, ContentFormat, Provenance};
use dossier_store::save::{self, ArtifactContent, NewArtifact, SaveRequest};

/// The provenance key naming the learning session a summary came from.
const SESSION_KEY: &str = "codecall_session";

/// A summary saved (or found already saved) in a Dossier.
#[derive(Clone, Debug, Serialize)]
pub struct HandOff {
    pub dossier_id: String,
    /// The artifact holding the summary.
    pub artifact_id: String,
    /// `false` when an earlier call had saved it already.
    pub saved_now: bool,
}

/// The Dossier (id) a new session's summary goes to: the harness session's bound Dossier when
/// the session opts in (`save_summary`, else the config default). A warning when it opts in
/// and nothing is bound.
pub fn target(
    app: &App,
    save_summary: Option<bool>,
    harness_session: Option<&str>,
) -> (Option<String>, Option<String>) {
    if !save_summary.unwrap_or(app.config.codecall.save_summaries) {
        return (None, None);
    }
    let bound = harness_session
        .filter(|_| app.store.exists())
        .and_then(|sid| dossier_store::sessions::read(&app.store, sid).ok().flatten())
        .and_then(|b| b.dossier_id);
    match bound {
        Some(id) => (Some(id), None),
        None => (
            None,
            Some(
                "save_summary: this agent session has no bound Dossier, so the summary stays in the learning log \
                 only (bind one with dossier_session, then start again to hand it off)"
                    .into(),
            ),
        ),
    }
}

/// The id of the Dossier `target` (slug or id) names; an error when there is none.
pub fn dossier_id(app: &App, target: &str) -> Result<String> {
    app.store.require()?;
    let dir = app.store.resolve(target)?;
    let (fm, _) = dossier_store::layout::read_frontmatter(&dir.join("dossier.md"))?;
    Ok(fm.id)
}

/// Save `summary` of `session_id` into `dossier_id` unless it is there already.
pub fn save_summary(
    app: &App,
    dossier_id: &str,
    session_id: &str,
    summary: &Summary,
    log: Option<&Path>,
    actor: &str,
    harness_session: Option<String>,
) -> Result<HandOff> {
    let dir = app.store.resolve(dossier_id)?;
    if let Some(artifact_id) = saved_artifact(&dir, session_id) {
        return Ok(HandOff { dossier_id: dossier_id.to_string(), artifact_id, saved_now: false });
    }
    let mut provenance = Provenance {
        origin: Some(format!("codecall session {session_id}")),
        path: log.map(|p| p.display().to_string()),
        captured_by: Some("dossier codecall".into()),
        harness: harness_session.as_ref().map(|_| "claude-code".to_string()),
        ..Default::default()
    };
    provenance.extra.insert(SESSION_KEY.into(), session_id.into());
    let labels: Vec<&str> = summary.concepts.iter().map(|c| c.label.as_str()).collect();
    let title = if labels.is_empty() {
        format!("codecall summary ({session_id})")
    } else {
        format!("codecall summary: {}", labels.join(", "))
    };
    let artifact = NewArtifact {
        artifact_type: ArtifactType::DecisionEvidence,
        title,
        content_format: ContentFormat::Markdown,
        content: ArtifactContent::Text(markdown(session_id, summary)),
        provenance,
        extraction: None,
    };
    let req = SaveRequest {
        artifacts: vec![artifact],
        actor: actor.to_string(),
        session_id: harness_session,
        calibration: app.config.tokens.calibration,
        token_target: app.config.token_target,
        ..Default::default()
    };
    let outcome = save::save(app, dossier_id, req, &crate::progress::SILENT)?;
    let artifact_id = outcome.artifacts_added.first().cloned().unwrap_or_default();
    Ok(HandOff { dossier_id: dossier_id.to_string(), artifact_id, saved_now: true })
}

/// The `decision_evidence` artifact of `dir`'s archive whose provenance names `session_id` as
/// its codecall session.
fn saved_artifact(dir: &Path, session_id: &str) -> Option<String> {
    let (artifacts, _) = dossier_store::archive::list(dir);
    artifacts.into_iter().filter(|a| a.artifact_type == ArtifactType::DecisionEvidence).find_map(|a| {
        let meta = dossier_store::archive::read_meta(dir, &a.id)?;
        (meta.provenance.extra.get(SESSION_KEY).and_then(|v| v.as_str()) == Some(session_id)).then_some(a.id)
    })
}

/// The summary as Markdown: what the Dossier keeps, and what `dossier codecall` prints.
pub fn markdown(session_id: &str, s: &Summary) -> String {
    let mut h = format!("# codecall session summary\n\nSession `{session_id}`: {}\n\n", s.message);
    let e = &s.estimated_session_mastery;
    let _ = writeln!(
        h,
        "Estimated session mastery: {} of {} objective unit(s) evidenced in this session. {}\n",
        e.objective_units_evidenced, e.objective_units, e.note
    );
    if !s.concepts.is_empty() {
        let _ = writeln!(h, "## Concepts\n");
        for c in &s.concepts {
            let m = &c.estimated_session_mastery;
            let refs: Vec<String> = c.evidence.iter().map(cite).collect();
            let _ = writeln!(
                h,
                "- **{}** ({}): {}; {} of {} answers correct; declared {}.{}",
                c.label,
                wire(&m.level),
                c.objective,
                m.correct_answers,
                m.answers,
                wire(&c.declared_confidence),
                if refs.is_empty() { String::new() } else { format!(" Evidence: {}.", refs.join(", ")) }
            );
        }
        h.push('\n');
    }
    let weak = weak_areas(s);
    for (title, items) in [
        ("Weak areas", &weak),
        ("Takeaways", &s.takeaways),
        ("Points to remember", &s.points_to_remember),
        ("Edge cases for other projects", &s.edge_cases_for_other_projects),
        ("Limitations", &s.limitations),
    ] {
        if !items.is_empty() {
            let _ = writeln!(h, "## {title}\n");
            for i in items {
                let _ = writeln!(h, "- {i}");
            }
            h.push('\n');
        }
    }
    let _ = writeln!(h, "{} question(s) answered, about {} minute(s).", s.questions_answered, s.minutes_spent_estimate);
    h
}

/// Each weak area as one line: the unit, its wrong answers, the diagnosed misconceptions.
pub fn weak_areas(s: &Summary) -> Vec<String> {
    s.weak_areas
        .iter()
        .map(|w| {
            let why = if w.diagnosed_misconceptions.is_empty() {
                String::new()
            } else {
                format!(": {}", w.diagnosed_misconceptions.join("; "))
            };
            format!("{} ({} wrong){why}", w.label, w.wrong_answers)
        })
        .collect()
}
