//! What a command hands back, and the rendering several commands share: [`Output`] (the data
//! for `--json`, the text for people, warnings, next actions, exit code) and the rendering of
//! a Save outcome (`created …`, `saved …`) with the advice that follows every save.
//!
//! Not for: printing (`cli::run` writes the envelope or the text) or one command's own
//! rendering (that stays in the command's module).

use serde_json::Value;

use crate::app::App;
use crate::context;
use crate::error::Result;
use crate::model;
use crate::save::SaveOutcome;

/// What a successful command prints.
pub(super) struct Output {
    pub(super) data: Value,
    pub(super) human: String,
    pub(super) warnings: Vec<String>,
    pub(super) next_actions: Vec<String>,
    pub(super) exit: u8,
}

impl Output {
    pub(super) fn new(data: Value, human: String) -> Output {
        Output { data, human, warnings: Vec::new(), next_actions: Vec::new(), exit: 0 }
    }
}

pub(super) fn saved(outcome: SaveOutcome, app: &App) -> Result<Output> {
    let mut warnings = outcome.warnings.clone();
    // A new Distilled State is checked against the Distillation Guide (advice, not a gate).
    if outcome.token_estimate.is_some() {
        warnings.extend(crate::distill::warnings(app, &outcome.path));
    }
    // The open-work list may have changed: keep the context library current.
    warnings.extend(context::after_mutation(app));
    let human = format!("{} {} ({})\n", event_verb(outcome.event), outcome.slug, outcome.revision);
    let mut out = Output::new(serde_json::to_value(&outcome).expect("outcome serializes"), human);
    out.warnings = warnings;
    Ok(out)
}

fn event_verb(kind: model::EventKind) -> &'static str {
    match kind {
        model::EventKind::Create | model::EventKind::Promote => "created",
        model::EventKind::Archived => "archived",
        model::EventKind::StatusChanged => "status changed:",
        _ => "saved",
    }
}
