//! What a caller asks the Save path for and what it gets back: field edits
//! ([`FrontmatterUpdates`]), artifacts to capture ([`NewArtifact`]), a save or a creation
//! ([`SaveRequest`], [`CreateRequest`]) and its [`SaveOutcome`].
//!
//! Not for: carrying anything out (`super::edit`, `super::create`).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::{Code, DossierError, Result};
use crate::model::{self, ArtifactType, ContentFormat, EventKind, Frontmatter, Level, Provenance, Status};

/// Largest artifact accepted (SPEC §4.3).
pub const MAX_ARTIFACT_BYTES: u64 = 1 << 30;

/// Frontmatter fields a caller may change. `None` leaves a field alone; for `lead` and
/// `due_date`, an empty string clears the field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FrontmatterUpdates {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_questions: Option<Vec<String>>,
    /// Questions to append to `open_questions` (applied under the lock, so concurrent
    /// additions are never lost). Counts as a change of `open_questions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add_open_questions: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub importance: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub urgency: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_target: Option<u64>,
}

impl FrontmatterUpdates {
    /// The frontmatter keys this update touches.
    pub fn fields(&self) -> Vec<&'static str> {
        let mut f = Vec::new();
        let pairs: [(&'static str, bool); 9] = [
            ("name", self.name.is_some()),
            ("status", self.status.is_some()),
            ("lead", self.lead.is_some()),
            ("next_action", self.next_action.is_some()),
            ("open_questions", self.open_questions.is_some() || self.add_open_questions.is_some()),
            ("importance", self.importance.is_some()),
            ("urgency", self.urgency.is_some()),
            ("due_date", self.due_date.is_some()),
            ("token_target", self.token_target.is_some()),
        ];
        for (name, set) in pairs {
            if set {
                f.push(name);
            }
        }
        f
    }

    pub(super) fn validate(&self) -> Result<()> {
        let invalid = |msg: String| DossierError::new(Code::InvalidFrontmatter, msg);
        if let Some(n) = &self.name
            && n.trim().is_empty()
        {
            return Err(invalid("`name` must not be empty".into()));
        }
        if let Some(d) = &self.due_date
            && !d.is_empty()
            && model::parse_date(d).is_none()
        {
            return Err(invalid(format!("`due_date: {d}` is not a date (YYYY-MM-DD)")));
        }
        if self.token_target == Some(0) {
            return Err(invalid("`token_target` must be positive".into()));
        }
        Ok(())
    }

    pub(super) fn apply(&self, fm: &mut Frontmatter) {
        if let Some(v) = &self.name {
            fm.name = v.trim().to_string();
        }
        if let Some(v) = self.status {
            fm.status = v;
        }
        if let Some(v) = &self.lead {
            fm.lead = (!v.is_empty()).then(|| v.clone());
        }
        if let Some(v) = &self.next_action {
            fm.next_action = v.clone();
        }
        if let Some(v) = &self.open_questions {
            fm.open_questions = v.clone();
        }
        if let Some(v) = &self.add_open_questions {
            fm.open_questions.extend(v.iter().cloned());
        }
        if let Some(v) = self.importance {
            fm.importance = v;
        }
        if let Some(v) = self.urgency {
            fm.urgency = v;
        }
        if let Some(v) = &self.due_date {
            fm.due_date = (!v.is_empty()).then(|| v.clone());
        }
        if let Some(v) = self.token_target {
            fm.token_target = Some(v);
        }
    }
}

/// Where a new artifact's content comes from.
#[derive(Clone, Debug)]
pub enum ArtifactContent {
    Text(String),
    File(PathBuf),
}

/// An artifact to capture with a save.
#[derive(Clone, Debug)]
pub struct NewArtifact {
    pub artifact_type: ArtifactType,
    pub title: String,
    pub content_format: ContentFormat,
    pub content: ArtifactContent,
    pub provenance: Provenance,
    /// Agent-provided textual extraction or summary, kept when the source is binary.
    pub extraction: Option<String>,
}

/// A change to an existing Dossier.
#[derive(Clone, Debug)]
pub struct SaveRequest {
    /// The revision the caller's change is based on. Required when replacing the Distilled
    /// State; when absent, field updates apply to the current revision.
    pub base_revision: Option<String>,
    /// A new Distilled State body (Markdown without frontmatter).
    pub distilled_state: Option<String>,
    pub updates: FrontmatterUpdates,
    pub artifacts: Vec<NewArtifact>,
    pub actor: String,
    pub session_id: Option<String>,
    /// Token estimate calibration and default target (from config.yaml).
    pub calibration: f64,
    pub token_target: u64,
    /// The audit event to record when the status does not change (default `save`; `link`
    /// when session content is attached by link).
    pub event: Option<EventKind>,
}

impl Default for SaveRequest {
    fn default() -> Self {
        SaveRequest {
            base_revision: None,
            distilled_state: None,
            updates: FrontmatterUpdates::default(),
            artifacts: Vec::new(),
            actor: String::new(),
            session_id: None,
            calibration: crate::tokens::DEFAULT_CALIBRATION,
            token_target: 100_000,
            event: None,
        }
    }
}

/// A new Dossier.
#[derive(Clone, Debug)]
pub struct CreateRequest {
    pub name: String,
    pub distilled_state: Option<String>,
    pub updates: FrontmatterUpdates,
    pub artifacts: Vec<NewArtifact>,
    pub actor: String,
    pub session_id: Option<String>,
    /// Record a `promote` event after `create`.
    pub promote: bool,
    /// Token estimate calibration and default target (from config.yaml), for the
    /// over-target warning on a given Distilled State.
    pub calibration: f64,
    pub token_target: u64,
}

impl Default for CreateRequest {
    fn default() -> Self {
        let save = SaveRequest::default();
        CreateRequest {
            name: String::new(),
            distilled_state: None,
            updates: FrontmatterUpdates::default(),
            artifacts: Vec::new(),
            actor: String::new(),
            session_id: None,
            promote: false,
            calibration: save.calibration,
            token_target: save.token_target,
        }
    }
}

/// The warning for a saved state of `tokens` over its target `target`; `how` says what
/// happened to it ("it was saved whole").
pub(super) fn over_target_warning(tokens: u64, target: u64, how: &str) -> String {
    format!(
        "over_token_target: the saved Distilled State is ~{tokens} tokens (estimate), over its target of {target}; {how}"
    )
}

/// What a successful save did.
#[derive(Clone, Debug, Serialize)]
pub struct SaveOutcome {
    pub id: String,
    pub slug: String,
    pub path: PathBuf,
    pub revision: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before_revision: Option<String>,
    pub event: EventKind,
    pub artifacts_added: Vec<String>,
    pub auto_merged: bool,
    /// Estimated tokens of the saved state, when the Distilled State changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_estimate: Option<u64>,
    /// The saved state is over its token target (then `warnings` says so and the operation
    /// layer adds the steps back under it). Reported only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub over_token_target: bool,
    /// Secrets the redaction policy replaced in what this save wrote, per kind (never a
    /// value); reported only when some were. Also recorded in the audit event.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub redactions: crate::redact::Counts,
    /// Reported in the envelope's `warnings`, not in `data`.
    #[serde(skip)]
    pub warnings: Vec<String>,
}
