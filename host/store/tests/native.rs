//! A test-only [`Policy`] that answers with `dossier-core`'s native functions: the same
//! decision code the embedded component runs, without wasmtime, so the store's operations
//! are tested in-process.
//!
//! What this is for: converting the store's mirror types (`dossier_store::policy`) to core's
//! types and back, one to one, as `core/src/component.rs` does on the component's side; a
//! refused merge is `policy_unavailable` with the component's wording, as the binary's is.
//!
//! What it is not for: checking the component's outputs (the binary's runtime does; core's
//! own functions are trusted here), the learning interface, or any decision of its own.

use dossier_core::{distill as d, merge as m, priority as p, ranking as r, redact as x};
use dossier_store::policy::{
    ArtifactInfo, Candidate, Certainty, ChangedClaim, Confidence, Conflict, ConflictKind, ConflictSide, Finding,
    FlaggedPair, LifecycleStatus, MergePlan, MergeSide, Policy, PriorityInput, Ranked, RankingOptions, Redaction,
    RedactionHit, RedactionOptions, Resolution, ResolutionChoice, Severity, Suggestion, Timestamp, Weights,
};
use dossier_store::{Code, DossierError, Result};

/// The store's policy answered by `dossier-core` natively.
pub struct Native;

fn level(l: dossier_store::policy::Level) -> p::Level {
    match l {
        dossier_store::policy::Level::High => p::Level::High,
        dossier_store::policy::Level::Low => p::Level::Low,
    }
}

fn status_in(s: LifecycleStatus) -> m::Status {
    match s {
        LifecycleStatus::Active => m::Status::Active,
        LifecycleStatus::Waiting => m::Status::Waiting,
        LifecycleStatus::Blocked => m::Status::Blocked,
        LifecycleStatus::Resolved => m::Status::Resolved,
        LifecycleStatus::Archived => m::Status::Archived,
    }
}

fn status_out(s: m::Status) -> LifecycleStatus {
    match s {
        m::Status::Active => LifecycleStatus::Active,
        m::Status::Waiting => LifecycleStatus::Waiting,
        m::Status::Blocked => LifecycleStatus::Blocked,
        m::Status::Resolved => LifecycleStatus::Resolved,
        m::Status::Archived => LifecycleStatus::Archived,
    }
}

fn side(s: &MergeSide) -> m::MergeSide {
    m::MergeSide {
        id: s.id.clone(),
        name: s.name.clone(),
        status: status_in(s.status),
        next_action: s.next_action.clone(),
        distilled_state: s.distilled_state.clone(),
    }
}

fn changed(c: m::ChangedClaim) -> ChangedClaim {
    ChangedClaim { id: c.id, section: c.section, text: c.text, line: c.line, related: c.related }
}

fn conflict(c: m::Conflict) -> Conflict {
    let side = |s: m::ConflictSide| ConflictSide { text: s.text, provenance: s.provenance, line: s.line };
    Conflict {
        id: c.id,
        kind: match c.kind {
            m::ConflictKind::ContradictoryDecision => ConflictKind::ContradictoryDecision,
            m::ConflictKind::DivergentNextAction => ConflictKind::DivergentNextAction,
            m::ConflictKind::IncompatibleLifecycle => ConflictKind::IncompatibleLifecycle,
            m::ConflictKind::IncompatibleValue => ConflictKind::IncompatibleValue,
            m::ConflictKind::RelatedClaims => ConflictKind::RelatedClaims,
            m::ConflictKind::FlaggedByReviewer => ConflictKind::FlaggedByReviewer,
        },
        subject: c.subject,
        source: side(c.source),
        target: side(c.target),
        certainty: match c.certainty {
            m::Certainty::Certain => Certainty::Certain,
            m::Certainty::Possible => Certainty::Possible,
        },
        compatible_hint: c.compatible_hint,
    }
}

impl Policy for Native {
    fn priority_sort(&self, items: &[PriorityInput], now: Timestamp, weights: Weights) -> Result<Vec<Ranked>> {
        let items: Vec<p::PriorityInput> = items
            .iter()
            .map(|i| p::PriorityInput {
                importance: level(i.importance),
                urgency: level(i.urgency),
                due_date: i.due_date,
                last_touched_at: i.last_touched_at,
                updated_at: i.updated_at,
            })
            .collect();
        let weights = p::Weights {
            importance: weights.importance,
            urgency: weights.urgency,
            due_window_days: weights.due_window_days,
        };
        Ok(p::sort(&items, now, &weights).into_iter().map(|r| Ranked { index: r.index, score: r.score }).collect())
    }

    fn rank(&self, query: &str, candidates: &[Candidate], options: RankingOptions) -> Result<Vec<Suggestion>> {
        // The WIT candidate's `status` is not an input of core's ranking (the component drops it too).
        let candidates: Vec<r::Candidate> = candidates
            .iter()
            .map(|c| r::Candidate {
                name: c.name.clone(),
                slug: c.slug.clone(),
                next_action: c.next_action.clone(),
                open_questions: c.open_questions.clone(),
                body: c.body.clone(),
                artifact_titles: c.artifact_titles.clone(),
                last_touched_at: c.last_touched_at,
            })
            .collect();
        Ok(r::rank(query, &candidates, options.limit as usize, options.now)
            .into_iter()
            .map(|s| Suggestion {
                index: s.index,
                score: s.score,
                confidence: match s.confidence {
                    r::Confidence::High => Confidence::High,
                    r::Confidence::Medium => Confidence::Medium,
                    r::Confidence::Low => Confidence::Low,
                },
                reason: s.reason,
                shared_terms: s.shared_terms,
            })
            .collect())
    }

    fn distill_validate(&self, document: &str, artifacts: &[ArtifactInfo]) -> Result<Vec<Finding>> {
        let artifacts: Vec<d::ArtifactInfo> =
            artifacts.iter().map(|a| d::ArtifactInfo { id: a.id.clone(), line_count: a.line_count }).collect();
        Ok(d::validate(document, &artifacts)
            .into_iter()
            .map(|f| Finding {
                code: f.code.to_string(),
                severity: match f.severity {
                    d::Severity::Error => Severity::Error,
                    d::Severity::Warning => Severity::Warning,
                    d::Severity::Info => Severity::Info,
                },
                line: f.line,
                message: f.message,
            })
            .collect())
    }

    fn merge(
        &self,
        source: &MergeSide,
        target: &MergeSide,
        resolutions: &[Resolution],
        flagged: &[FlaggedPair],
    ) -> Result<MergePlan> {
        let flagged: Vec<m::FlaggedPair> = flagged
            .iter()
            .map(|f| m::FlaggedPair {
                target_claim: f.target_claim.clone(),
                source_claim: f.source_claim.clone(),
                reason: f.reason.clone(),
            })
            .collect();
        let resolutions: Vec<m::Resolution> = resolutions
            .iter()
            .map(|r| m::Resolution {
                conflict_id: r.conflict_id.clone(),
                choice: match &r.choice {
                    ResolutionChoice::KeepSource => m::Choice::KeepSource,
                    ResolutionChoice::KeepTarget => m::Choice::KeepTarget,
                    ResolutionChoice::KeepBoth => m::Choice::KeepBoth,
                    ResolutionChoice::Custom(t) => m::Choice::Custom(t.clone()),
                },
            })
            .collect();
        let plan = m::merge_flagged(&side(source), &side(target), &resolutions, &flagged).map_err(|e| match e {
            m::MergeError::InvalidInput(why) => DossierError::new(
                Code::PolicyUnavailable,
                format!("dossier-core (native) refused `merge.merge`: invalid input: {why}"),
            ),
        })?;
        Ok(MergePlan {
            converged_state: plan.converged_state,
            converged_next_action: plan.converged_next_action,
            converged_status: status_out(plan.converged_status),
            unresolved: plan.unresolved.into_iter().map(conflict).collect(),
            unlisted_related: plan.unlisted_related,
            changed_target: plan.changed_target.into_iter().map(changed).collect(),
            changed_source: plan.changed_source.into_iter().map(changed).collect(),
        })
    }

    fn redact(&self, text: &str, options: &RedactionOptions) -> Result<Redaction> {
        let out = x::redact(text, &x::Options { key: &options.key, allow: &options.allow }).map_err(|e| {
            DossierError::new(
                Code::PolicyUnavailable,
                format!("dossier-core (native) refused `redaction.redact`: invalid input: {e}"),
            )
        })?;
        Ok(Redaction {
            text: out.text,
            hits: out
                .hits
                .into_iter()
                .map(|h| RedactionHit {
                    kind: h.kind.to_string(),
                    first_line: h.first_line,
                    last_line: h.last_line,
                    marker: h.marker,
                })
                .collect(),
        })
    }
}
