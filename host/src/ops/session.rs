//! The session's active Dossier (SPEC §5): report it, bind one (switch), or clear it. A switch
//! recalls the first page of the new Dossier's state so the agent can work from it. The binding
//! is a file keyed by the harness's session id, or — when there is none — kept in the
//! conversation's context only ([`Slot`], SPEC §5.1), with a warning saying so.
//!
//! Not for: where the binding is kept (`dossier_store::sessions`) or how much of the state a
//! transport can carry (the MCP tool decides whether the guide and the state fit its cap).

use dossier_store::App;
use dossier_store::error::Result;
use dossier_store::recall::Recall;
use dossier_store::save::SaveOutcome;
use dossier_store::sessions::{self, Binding};

use super::{Caller, Next, Outcome};

/// Where a session's binding lives (SPEC §5.1).
pub enum Slot<'a> {
    /// `sessions/<id>.json`, keyed by the harness's session id.
    File(&'a str),
    /// The conversation's context only: the harness exposes no session id. The caller holds
    /// the last binding returned (the MCP server keeps it for its lifetime); nothing is written.
    Context(&'a mut Option<Binding>),
}

/// The warning of every answer from a binding kept in context only.
pub const CONTEXT_ONLY: &str = "No session id: this binding lives only in this conversation's context (nothing is written under sessions/, hooks cannot see it, a restart loses it). Pass session_id, or run under Claude Code (CLAUDE_CODE_SESSION_ID), to persist it.";

/// The binding of `session_id`, if any.
pub fn active(app: &App, session_id: &str) -> Result<Outcome<Option<Binding>>> {
    active_in(app, Slot::File(session_id))
}

/// The binding held in `slot`, if any.
pub fn active_in(app: &App, slot: Slot<'_>) -> Result<Outcome<Option<Binding>>> {
    app.store.require()?;
    let (binding, context_only) = match slot {
        Slot::File(session_id) => (sessions::read(&app.store, session_id)?, false),
        Slot::Context(held) => (held.clone(), true),
    };
    let mut out = Outcome::new(binding);
    if context_only {
        out.warnings.push(CONTEXT_ONLY.into());
    }
    out.warnings.extend(app.harness().capabilities().warnings());
    if let Some(missing) = out.data.as_ref().and_then(|b| sessions::missing_dossier(app, b)) {
        // A dead binding is reported as it is stored, with a warning and the two ways out.
        out.warnings.insert(0, format!("{missing}: bind another Dossier or clear the binding."));
        out.next.push(Next::Per {
            cli: "dossier ls, then dossier switch <slug> to bind another".into(),
            mcp: "call dossier_list, then dossier_session with id to bind another".into(),
        });
        out.next.push(Next::Per {
            cli: "or clear it: dossier tui --session <id>, then u (unbind)".into(),
            mcp: "call dossier_session clear=true to clear the binding".into(),
        });
    } else if out.data.as_ref().and_then(|b| b.dossier_id.as_ref()).is_none() {
        out.next.push(Next::Per {
            cli: "dossier ls, then dossier switch <slug> to bind one".into(),
            mcp: "call dossier_list, then dossier_session with id to bind one".into(),
        });
    }
    Ok(out)
}

/// Unbind `session_id`.
pub fn clear(app: &App, session_id: &str) -> Result<Outcome<Binding>> {
    clear_in(app, Slot::File(session_id))
}

/// Unbind the session whose binding `slot` holds.
pub fn clear_in(app: &App, slot: Slot<'_>) -> Result<Outcome<Binding>> {
    app.store.require()?;
    let mut warnings = Vec::new();
    let binding = match slot {
        Slot::File(session_id) => sessions::write(app, session_id, None, None)?,
        Slot::Context(held) => {
            warnings.push(CONTEXT_ONLY.into());
            let b = sessions::in_context(app, held.take(), None, None);
            *held = Some(b.clone());
            b
        }
    };
    warnings.extend(binding.capabilities.warnings());
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
    switch_in(app, caller, Slot::File(session_id), target, previous)
}

/// [`switch`] for the binding `slot` holds.
pub fn switch_in(
    app: &App,
    caller: &Caller,
    slot: Slot<'_>,
    target: &str,
    previous: Option<(String, String)>,
) -> Result<Outcome<Switched>> {
    let mut warnings = Vec::new();
    let mut saved_previous = None;
    let current = match &slot {
        Slot::File(session_id) => sessions::read(&app.store, session_id)?,
        Slot::Context(held) => (*held).clone(),
    };
    if let Some((state, base)) = previous
        && let Some(current) = current.and_then(|b| b.dossier_id)
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
    let (binding, recall) = match slot {
        Slot::File(session_id) => sessions::switch(app, session_id, target)?,
        Slot::Context(held) => {
            let (b, r) = sessions::switch_in_context(app, held.clone(), target)?;
            *held = Some(b.clone());
            warnings.push(CONTEXT_ONLY.into());
            (b, r)
        }
    };
    let recalled = super::recall::recall_next(&recall, Some(1));
    warnings.extend(recall.warnings.iter().cloned());
    warnings.extend(binding.capabilities.warnings());
    Ok(Outcome { data: Switched { binding, recall, saved_previous }, warnings, next: recalled })
}
