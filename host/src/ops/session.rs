//! The session's active Dossier (SPEC §5): report it, bind one (switch), or clear it. A switch
//! recalls the first page of the new Dossier's state so the agent can work from it.
//!
//! Not for: where the binding is kept (`dossier_store::sessions`) or how much of the state a
//! transport can carry (the MCP tool decides whether the guide and the state fit its cap).

use dossier_store::App;
use dossier_store::error::Result;
use dossier_store::recall::Recall;
use dossier_store::save::SaveOutcome;
use dossier_store::sessions::{self, Binding};

use super::{Caller, Next, Outcome};

/// The binding of `session_id`, if any.
pub fn active(app: &App, session_id: &str) -> Result<Outcome<Option<Binding>>> {
    app.store.require()?;
    let binding = sessions::read(&app.store, session_id)?;
    let mut out = Outcome::new(binding);
    out.warnings = app.harness().capabilities().warnings();
    if out.data.as_ref().and_then(|b| b.dossier_id.as_ref()).is_none() {
        out.next.push(Next::Per {
            cli: "dossier ls, then dossier switch <slug> to bind one".into(),
            mcp: "call dossier_list, then dossier_session with id to bind one".into(),
        });
    }
    Ok(out)
}

/// Unbind `session_id`.
pub fn clear(app: &App, session_id: &str) -> Result<Outcome<Binding>> {
    app.store.require()?;
    let binding = sessions::write(app, session_id, None, None)?;
    let warnings = binding.capabilities.warnings();
    Ok(Outcome { data: binding, warnings, next: Vec::new() })
}

/// A switch: the binding, the first page of the new state, and the save of the previous
/// Dossier when the caller handed its state over.
#[derive(Debug)]
pub struct Switched {
    pub binding: Binding,
    pub recall: Recall,
    pub saved_previous: Option<SaveOutcome>,
}

/// Bind `target` to `session_id`; first save `previous` (a Distilled State and its base
/// revision) to the Dossier bound until now, when given.
pub fn switch(
    app: &App,
    caller: &Caller,
    session_id: &str,
    target: &str,
    previous: Option<(String, String)>,
) -> Result<Outcome<Switched>> {
    let mut warnings = Vec::new();
    let mut saved_previous = None;
    if let Some((state, base)) = previous
        && let Some(current) = sessions::read(&app.store, session_id)?.and_then(|b| b.dossier_id)
    {
        let req = dossier_store::save::SaveRequest {
            base_revision: Some(base),
            distilled_state: Some(state),
            ..caller.save_request(app)
        };
        let saved = super::save::save(app, &current, req, &dossier_store::progress::SILENT)?;
        warnings.extend(saved.warnings);
        saved_previous = Some(saved.data);
    }
    let (binding, recall) = sessions::switch(app, session_id, target)?;
    let recalled = super::recall::recall_next(&recall, Some(1));
    warnings.extend(recall.warnings.iter().cloned());
    warnings.extend(binding.capabilities.warnings());
    Ok(Outcome { data: Switched { binding, recall, saved_previous }, warnings, next: recalled })
}
