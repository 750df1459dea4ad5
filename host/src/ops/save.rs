//! Save and update: a Distilled State, fields or artifacts through the store's single Save path,
//! then what every mutation is followed by — the distillation findings on a new state (advice,
//! not a gate) and the context library kept current.
//!
//! Not for: the Save path itself (`dossier_store::save`: validation, concurrency, atomic write,
//! audit) or reading a surface's input.

use dossier_store::error::{Code, DossierError, Result};
use dossier_store::progress::Progress;
use dossier_store::save::FrontmatterUpdates;
use dossier_store::save::{self, SaveOutcome, SaveRequest};
use dossier_store::{App, context, distill};

use super::recall::over_target_next;
use super::{Caller, Outcome};

/// Save `req` to `target`.
pub fn save(app: &App, target: &str, req: SaveRequest, progress: &dyn Progress) -> Result<Outcome<SaveOutcome>> {
    let outcome = save::save(app, target, req, progress)?;
    Ok(saved(app, outcome))
}

/// Field edits to the current revision (under the Dossier's lock); at least one field.
pub fn update(app: &App, caller: &Caller, target: &str, updates: FrontmatterUpdates) -> Result<Outcome<SaveOutcome>> {
    if updates.fields().is_empty() {
        return Err(DossierError::new(Code::InvalidInput, "nothing to update: pass at least one field").with_details(
            serde_json::json!({
                "field": null,
                "expected": "at least one of name, status, lead, next_action, open_questions, importance, urgency, due_date",
            }),
        ));
    }
    save(app, target, SaveRequest { updates, ..caller.save_request(app) }, &dossier_store::progress::SILENT)
}

/// What follows every successful save or create.
pub fn saved(app: &App, outcome: SaveOutcome) -> Outcome<SaveOutcome> {
    let mut warnings = outcome.warnings.clone();
    if outcome.token_estimate.is_some() {
        warnings.extend(distill::warnings(app, &outcome.path));
    }
    warnings.extend(context::after_mutation(app));
    let next = if outcome.over_token_target { over_target_next(&outcome.slug, &outcome.path) } else { Vec::new() };
    Outcome { data: outcome, warnings, next }
}
