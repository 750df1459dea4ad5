//! Resolve a concurrent-edit conflict (SPEC §11.5): keep the current state, the proposal, or a
//! state the user wrote — through the Save path — and keep the context library current.
//!
//! Not for: merge conflicts (resolved by the merge that raised them) or listing conflicts
//! (`dossier_store::conflicts::list`).

use dossier_store::conflicts::{self, Choice, Resolved};
use dossier_store::error::Result;
use dossier_store::{App, context};

use super::{Caller, Outcome};

pub fn resolve(app: &App, caller: &Caller, conflict_id: &str, choice: Choice) -> Result<Outcome<Resolved>> {
    let r = conflicts::resolve(app, conflict_id, choice, caller.actor, &caller.session_id)?;
    let mut out = Outcome::new(r);
    out.warnings.extend(context::after_mutation(app));
    Ok(out)
}
