//! Merge (SPEC §2.1, §7.2, §8.7): one Dossier into another, with the user's resolutions; an
//! unresolved conflict is `conflict_detected` (the store keeps each in the target's
//! `conflicts/`), never a silent reconciliation.
//!
//! Not for: asking the user (the CLI walks conflicts on a terminal, MCP asks with forms, the TUI
//! with its merge view) or the merge itself (`dossier_store::merge`, the merge policy).

use dossier_store::error::Result;
use dossier_store::merge::{self, ConflictView, ResolutionInput, Reviewed};
use dossier_store::progress::Progress;
use dossier_store::save::MergeOutcome;
use dossier_store::{App, context};

use super::{Caller, Next, Op, Outcome};

/// The conflicts merging `source` into `target` would raise now (nothing is written).
pub fn conflicts(app: &App, source: &str, target: &str) -> Result<Vec<ConflictView>> {
    merge::conflicts(app, source, target)
}

/// [`conflicts`], with the count of related pairs the policy did not list.
pub fn conflicts_counted(app: &App, source: &str, target: &str) -> Result<(Vec<ConflictView>, u32)> {
    merge::conflicts_counted(app, source, target)
}

pub fn merge(
    app: &App,
    caller: &Caller,
    source: &str,
    target: &str,
    resolutions: &[ResolutionInput],
    progress: &dyn Progress,
) -> Result<Outcome<MergeOutcome>> {
    merge_reviewed(app, caller, source, target, resolutions, &[], progress)
}

/// [`merge`] where `reviewed` are the possible conflicts an agent judged compatible (already
/// `keep_both` in `resolutions`, see `dossier_store::merge::apply_reviews`): audited as the
/// agent's, and named in one warning line the user sees. On `conflict_detected` they are in
/// `details.agent_compatible`.
pub fn merge_reviewed(
    app: &App,
    caller: &Caller,
    source: &str,
    target: &str,
    resolutions: &[ResolutionInput],
    reviewed: &[Reviewed],
    progress: &dyn Progress,
) -> Result<Outcome<MergeOutcome>> {
    let o =
        merge::merge_reviewed(app, source, target, resolutions, reviewed, caller.actor, &caller.session_id, progress)
            .map_err(|mut e| {
            if !reviewed.is_empty() && e.code == dossier_store::error::Code::ConflictDetected {
                e.details["agent_compatible"] = serde_json::json!(reviewed);
            }
            e
        })?;
    let mut out = Outcome::new(o);
    if let Some(line) = compatible_line(reviewed) {
        out.warnings.push(line);
    }
    out.warnings.extend(context::after_mutation(app));
    out.next.push(Next::call(Op::Show, &out.data.target_slug));
    Ok(out)
}

/// The one line naming the possible conflicts an agent judged compatible (both kept).
pub fn compatible_line(reviewed: &[Reviewed]) -> Option<String> {
    if reviewed.is_empty() {
        return None;
    }
    let each: Vec<String> = reviewed.iter().map(|r| format!("{} ({})", r.conflict_id, r.reason)).collect();
    Some(format!(
        "the agent judged {} possible conflict(s) compatible and kept both claims: {}",
        reviewed.len(),
        each.join("; ")
    ))
}
