//! The field edits and saves: `status`, `lead`, `next`, `questions`, `priority`, `archive` and
//! `save`, each one request through the Save path; and the artifact a file becomes when a
//! command captures it (also used by `promote` and `link`).
//!
//! Not for: creating or linking Dossiers (`cli::promote`), or the Save path itself
//! (`dossier_store::save`).

use std::path::PathBuf;

use crate::progress;
use dossier_store::error::{Code, DossierError, Result};
use dossier_store::model::{ArtifactType, ContentFormat, Provenance, Status};
use dossier_store::save::{ArtifactContent, FrontmatterUpdates, NewArtifact, SaveRequest};

use super::args::{LevelArg, QuestionsOp, StatusArg};
use super::render::{Output, saved};
use crate::ops::Caller;

/// `dossier status`.
pub(super) fn cmd_status(target: &str, status: StatusArg) -> Result<Output> {
    update(target, FrontmatterUpdates { status: Some(status.into()), ..Default::default() })
}

/// `dossier lead`.
pub(super) fn cmd_lead(target: &str, lead: String) -> Result<Output> {
    update(target, FrontmatterUpdates { lead: Some(lead), ..Default::default() })
}

/// `dossier next`.
pub(super) fn cmd_next(target: &str, action: String) -> Result<Output> {
    update(target, FrontmatterUpdates { next_action: Some(action), ..Default::default() })
}

/// `dossier questions add|set|clear`.
pub(super) fn cmd_questions(target: &str, op: QuestionsOp, questions: Vec<String>) -> Result<Output> {
    let updates = match op {
        QuestionsOp::Add if questions.is_empty() => {
            return Err(DossierError::new(Code::InvalidInput, "`questions add` needs at least one question")
                .with_details(serde_json::json!({ "parameter": "questions", "expected": "at least one question" })));
        }
        QuestionsOp::Add => FrontmatterUpdates { add_open_questions: Some(questions), ..Default::default() },
        QuestionsOp::Set => FrontmatterUpdates { open_questions: Some(questions), ..Default::default() },
        QuestionsOp::Clear if !questions.is_empty() => {
            return Err(DossierError::new(Code::InvalidInput, "`questions clear` takes no questions")
                .with_details(serde_json::json!({ "parameter": "questions", "expected": "no questions" })));
        }
        QuestionsOp::Clear => FrontmatterUpdates { open_questions: Some(Vec::new()), ..Default::default() },
    };
    update(target, updates)
}

/// `dossier priority`.
pub(super) fn cmd_priority(
    target: &str,
    importance: LevelArg,
    urgency: LevelArg,
    due: Option<String>,
) -> Result<Output> {
    update(
        target,
        FrontmatterUpdates {
            importance: Some(importance.into()),
            urgency: Some(urgency.into()),
            due_date: due,
            ..Default::default()
        },
    )
}

/// `dossier archive`.
pub(super) fn cmd_archive(target: &str) -> Result<Output> {
    update(target, FrontmatterUpdates { status: Some(Status::Archived), ..Default::default() })
}

/// `dossier save`: a new Distilled State and/or fields against a base revision.
pub(super) fn cmd_save(
    target: &str,
    base_revision: Option<String>,
    from_file: Option<PathBuf>,
    next: Option<String>,
    status: Option<StatusArg>,
    artifact: &[PathBuf],
    artifact_type: ArtifactType,
) -> Result<Output> {
    let distilled_state = match &from_file {
        Some(p) => Some(std::fs::read_to_string(p).map_err(|e| DossierError::io("read", p, e))?),
        None => None,
    };
    let artifacts = artifact.iter().map(|p| file_artifact(p, artifact_type)).collect();
    let app = crate::app::open()?;
    let req = SaveRequest {
        base_revision,
        distilled_state,
        updates: FrontmatterUpdates { next_action: next, status: status.map(Status::from), ..Default::default() },
        artifacts,
        ..Caller::cli().save_request(&app)
    };
    saved(crate::ops::save::save(&app, target, req, progress::for_cli().as_ref())?)
}

/// A file captured as an artifact; its format follows its extension.
pub(super) fn file_artifact(path: &std::path::Path, artifact_type: ArtifactType) -> NewArtifact {
    let content_format = match path.extension().and_then(|e| e.to_str()) {
        Some("md" | "markdown") => ContentFormat::Markdown,
        Some("json") => ContentFormat::Json,
        _ => ContentFormat::Text,
    };
    NewArtifact {
        artifact_type,
        title: path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string()),
        content_format,
        content: ArtifactContent::File(path.to_path_buf()),
        provenance: Provenance {
            origin: Some("file".into()),
            captured_by: Some("dossier cli".into()),
            ..Default::default()
        },
        extraction: None,
    }
}

/// A field edit through the Save path, applied to the current revision under the lock.
fn update(target: &str, updates: FrontmatterUpdates) -> Result<Output> {
    let app = crate::app::open()?;
    saved(crate::ops::save::update(&app, &Caller::cli(), target, updates)?)
}
