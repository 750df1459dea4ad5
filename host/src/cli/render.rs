//! What a command hands back, and the rendering several commands share: [`Output`] (the data
//! for `--json`, the text for people, warnings, next actions, exit code) and the rendering of
//! a Save outcome (`created …`, `saved …`); an operation's [`Outcome`] as an [`Output`].
//!
//! Not for: printing (`cli::run` writes the envelope or the text) or one command's own
//! rendering (that stays in the command's module).

use serde_json::Value;

use crate::ops::{Outcome, Surface};
use dossier_store::error::Result;
use dossier_store::model;
use dossier_store::save::SaveOutcome;

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

    /// An operation's outcome: its data as JSON (by `data`), its warnings, its next steps as
    /// commands.
    pub(super) fn of<T>(o: Outcome<T>, data: impl FnOnce(&T) -> Value, human: impl FnOnce(&T) -> String) -> Output {
        let mut out = Output::new(data(&o.data), human(&o.data));
        out.next_actions = o.next_actions(Surface::Cli);
        out.warnings = o.warnings;
        out
    }
}

pub(super) fn saved(o: Outcome<SaveOutcome>) -> Result<Output> {
    Ok(Output::of(o, json_of, saved_text))
}

/// `saved <slug> (<revision>)`, and on the next line how many secrets were redacted, if any.
pub(super) fn saved_text(o: &SaveOutcome) -> String {
    let mut text = format!("{} {} ({})\n", event_verb(o.event), o.slug, o.revision);
    if let Some(s) = dossier_store::redact::summary(&o.redactions) {
        text.push_str(&format!("{s} before storing\n"));
    }
    text
}

pub(super) fn json_of<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).expect("outcomes serialize")
}

pub(super) fn event_verb(kind: model::EventKind) -> &'static str {
    match kind {
        model::EventKind::Create | model::EventKind::Promote => "created",
        model::EventKind::Archived => "archived",
        model::EventKind::StatusChanged => "status changed:",
        _ => "saved",
    }
}
