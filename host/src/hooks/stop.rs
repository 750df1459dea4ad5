//! The Stop hook: the save cadence (ask the agent once to save when the transcript has grown
//! by `hooks.save_reminder_bytes` since the bound Dossier last changed) and codecall's
//! recommendation card (`card`), added as the output's `systemMessage`. The card never
//! depends on (or changes) the cadence's outcome, and never turns a stop into a block or a
//! block into a stop.
//!
//! Not for: scoring the learning opportunity (`card`).

use serde_json::json;

use crate::app::App;
use crate::claude_code::HookEvent;
use crate::hooks::card::{self, Turn};
use crate::hooks::input::{HookInput, bound_dossier};
use crate::hooks::output::HookOutput;
use dossier_store::error::Result;
use dossier_store::save;
use dossier_store::sessions::{self, SaveCheck};

/// The Stop hook's output: the save cadence's, with the card (if any) for the user.
pub(crate) fn stop(app: &App, input: &HookInput) -> Result<HookOutput> {
    let turn = Turn {
        session_id: &input.session_id,
        transcript: input.transcript_path.as_deref(),
        cwd: input.cwd.as_deref(),
        stop_hook_active: input.stop_hook_active,
    };
    // The codecall card never depends on (or changes) the save cadence's outcome.
    let card = card::check(app, &turn);
    with_card(save_cadence(app, input), card)
}

/// The Stop hook's output with the codecall card added as (or to) its `systemMessage`: the
/// card is for the user only, and never turns a stop into a block or a block into a stop.
fn with_card(out: Result<HookOutput>, card: Option<String>) -> Result<HookOutput> {
    let Some(card) = card else { return out };
    let mut value = match out {
        Ok(HookOutput::Json(v)) if v.is_object() => v,
        Ok(_) => json!({}),
        Err(e) => match HookOutput::warning(HookEvent::Stop, &e.message) {
            HookOutput::Json(v) => v,
            _ => json!({}),
        },
    };
    let message = match value.get("systemMessage").and_then(|m| m.as_str()) {
        Some(m) if !m.is_empty() => format!("{m}\n{card}"),
        _ => card,
    };
    value["systemMessage"] = json!(message);
    Ok(HookOutput::Json(value))
}

/// The save cadence: once the transcript has grown by `hooks.save_reminder_bytes` since the
/// bound Dossier's revision last changed, block the stop once and ask for a save.
fn save_cadence(app: &App, input: &HookInput) -> Result<HookOutput> {
    let threshold = app.config.hooks.save_reminder_bytes;
    if input.stop_hook_active || threshold == 0 {
        return Ok(HookOutput::Silent);
    }
    let Some((mut binding, id)) = bound_dossier(app, &input.session_id)? else { return Ok(HookOutput::Silent) };
    let Some(path) = input.transcript_path.as_ref() else { return Ok(HookOutput::Silent) };
    let Ok(meta) = std::fs::metadata(path) else { return Ok(HookOutput::Silent) };
    let size = meta.len();
    let dir = app.store.resolve(&id)?;
    let revision = save::revision(&dir)?;
    let grown = match &binding.save_check {
        Some(c) if c.revision == revision => Some(size.saturating_sub(c.transcript_bytes)),
        _ => None,
    };
    let remind = grown.is_some_and(|g| g >= threshold);
    if grown.is_none() || remind {
        binding.save_check = Some(SaveCheck { revision: revision.clone(), transcript_bytes: size });
        sessions::update(&app.store, &binding)?;
    }
    if !remind {
        return Ok(HookOutput::Silent);
    }
    let slug = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or(id);
    Ok(HookOutput::Json(json!({
        "decision": "block",
        "reason": format!(
            "Dossier `{slug}` has not been saved while this session's transcript grew by {} KB. Save it now: distill the session into its Distilled State per the Distillation Guide and call dossier_save with id `{slug}` and base_revision `{revision}`. Then stop.",
            grown.unwrap_or(0) / 1000
        ),
    })))
}
