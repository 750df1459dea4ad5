//! Merge (SPEC §2.1, §7.2, §8.7): one Dossier into another, with the user's resolutions; an
//! unresolved conflict is `conflict_detected` (the store keeps each in the target's
//! `conflicts/`), never a silent reconciliation.
//!
//! Not for: asking the user (the CLI walks conflicts on a terminal, MCP asks with forms, the TUI
//! with its merge view) or the merge itself (`dossier_store::merge`, the merge policy).

use dossier_store::error::Result;
use dossier_store::merge::{self, ConflictView, FlagInput, Flagged, ResolutionInput, Review, Reviewed};
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

/// The merge as the agent's review round sees it (issue 19): its conflicts, with the agent's
/// `flags` (attributed to `actor`) among them, and the claims each side changes. Nothing is
/// written; a bad flag is `invalid_input`.
pub fn review(app: &App, source: &str, target: &str, flags: &[FlagInput], actor: &str) -> Result<Review> {
    merge::review(app, source, target, flags, actor)
}

pub fn merge(
    app: &App,
    caller: &Caller,
    source: &str,
    target: &str,
    resolutions: &[ResolutionInput],
    progress: &dyn Progress,
) -> Result<Outcome<MergeOutcome>> {
    merge_reviewed(app, caller, source, target, resolutions, &[], &[], progress)
}

/// [`merge`] where `reviewed` are the possible conflicts an agent judged compatible (already
/// `keep_both` in `resolutions`, see `dossier_store::merge::apply_reviews`): audited as the
/// agent's, and named in one warning line the user sees. On `conflict_detected` they are in
/// `details.agent_compatible`. `flagged` are the agent's pairs of changed claims (conflicts of
/// this merge, [`review`]): audited as the agent's, named in a warning line, and on
/// `conflict_detected` in `details.agent_flagged`.
#[allow(clippy::too_many_arguments)]
pub fn merge_reviewed(
    app: &App,
    caller: &Caller,
    source: &str,
    target: &str,
    resolutions: &[ResolutionInput],
    reviewed: &[Reviewed],
    flagged: &[Flagged],
    progress: &dyn Progress,
) -> Result<Outcome<MergeOutcome>> {
    let o = merge::merge_reviewed(
        app,
        source,
        target,
        resolutions,
        reviewed,
        flagged,
        caller.actor,
        &caller.session_id,
        progress,
    )
    .map_err(|mut e| {
        if e.code == dossier_store::error::Code::ConflictDetected {
            if !reviewed.is_empty() {
                e.details["agent_compatible"] = serde_json::json!(reviewed);
            }
            if !flagged.is_empty() {
                e.details["agent_flagged"] = serde_json::json!(flagged);
            }
        }
        e
    })?;
    let mut out = Outcome::new(o);
    if let Some(line) = compatible_line(reviewed) {
        out.warnings.push(line);
    }
    if let Some(line) = flagged_line(flagged) {
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

/// The one line naming the pairs an agent flagged as contradictions the rules did not pair
/// (each was a conflict the user resolved).
pub fn flagged_line(flagged: &[Flagged]) -> Option<String> {
    if flagged.is_empty() {
        return None;
    }
    let each: Vec<String> = flagged.iter().map(|f| format!("{} ({})", f.conflict_id, f.reason)).collect();
    Some(format!(
        "the agent flagged {} pair(s) of claims the rules did not pair as contradictions, and the user resolved them: {}",
        flagged.len(),
        each.join("; ")
    ))
}
