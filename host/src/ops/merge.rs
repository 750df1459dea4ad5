//! Merge (SPEC §2.1, §7.2, §8.7): one Dossier into another, with the user's resolutions; an
//! unresolved conflict is `conflict_detected` (the store keeps each in the target's
//! `conflicts/`), never a silent reconciliation.
//!
//! Not for: asking the user (the CLI walks conflicts on a terminal, MCP asks with forms, the TUI
//! with its merge view) or the merge itself (`dossier_store::merge`, the merge policy).

use dossier_store::error::Result;
use dossier_store::merge::{self, ConflictView, ResolutionInput};
use dossier_store::progress::Progress;
use dossier_store::save::MergeOutcome;
use dossier_store::{App, context};

use super::{Caller, Next, Op, Outcome};

/// The conflicts merging `source` into `target` would raise now (nothing is written).
pub fn conflicts(app: &App, source: &str, target: &str) -> Result<Vec<ConflictView>> {
    merge::conflicts(app, source, target)
}

pub fn merge(
    app: &App,
    caller: &Caller,
    source: &str,
    target: &str,
    resolutions: &[ResolutionInput],
    progress: &dyn Progress,
) -> Result<Outcome<MergeOutcome>> {
    let o = merge::merge(app, source, target, resolutions, caller.actor, &caller.session_id, progress)?;
    let mut out = Outcome::new(o);
    out.warnings.extend(context::after_mutation(app));
    out.next.push(Next::call(Op::Show, &out.data.target_slug));
    Ok(out)
}
