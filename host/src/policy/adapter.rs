//! The store's [`dossier_store::policy::Policy`] served by the policy components: the
//! [`Policies`] of this process, created on first use, and the one-to-one conversions between
//! the store's mirror types and the wasmtime bindings' types of the same WIT records.
//!
//! Not for: loading or checking components (`super`), or any decision (the components').

use std::cell::{Cell, OnceCell};
use std::collections::HashMap;
use std::path::PathBuf;

use dossier_store::config::Config;
use dossier_store::error::{DossierError, Result};
use dossier_store::layout::Store;
use dossier_store::policy as s;

use super::bindings::dossier::policy::types as wt;
use super::bindings::exports::dossier::policy::{distill as wd, merge as wm, priority as wp, ranking as wr};
use super::cache::CompileCache;
use super::runtime::{Interface, Limits, Policies, RedactionOptions};

/// The store's policy, answered by the components `config.yaml` names (or the embedded one).
pub struct ComponentPolicy {
    cache_dir: Option<PathBuf>,
    overrides: HashMap<Interface, PathBuf>,
    limits: Limits,
    policies: OnceCell<Policies>,
    /// False on latency-bound paths (hooks): policies created here never compile.
    compile_allowed: Cell<bool>,
}

impl ComponentPolicy {
    /// The compile cache lives in the store when the store exists; otherwise components are
    /// compiled in memory only.
    pub fn new(store: &Store, config: &Config) -> ComponentPolicy {
        ComponentPolicy {
            cache_dir: store.exists().then(|| store.policy_cache_dir()),
            overrides: config.policy_overrides(store.root()),
            limits: config.limits(),
            policies: OnceCell::new(),
            compile_allowed: Cell::new(true),
        }
    }

    /// Components created from now on load only from the compile cache (hooks).
    pub fn forbid_compile(&self) {
        self.compile_allowed.set(false);
        if let Some(p) = self.policies.get() {
            p.forbid_compile();
        }
    }

    /// The components, created on first use.
    pub fn policies(&self) -> Result<&Policies> {
        if let Some(p) = self.policies.get() {
            return Ok(p);
        }
        let policies = Policies::new(CompileCache::new(self.cache_dir.clone()), &self.overrides, self.limits)
            .map_err(DossierError::from)?;
        if !self.compile_allowed.get() {
            policies.forbid_compile();
        }
        Ok(self.policies.get_or_init(|| policies))
    }
}

impl s::Policy for ComponentPolicy {
    fn priority_sort(
        &self,
        items: &[s::PriorityInput],
        now: s::Timestamp,
        weights: s::Weights,
    ) -> Result<Vec<s::Ranked>> {
        let items: Vec<wp::PriorityInput> = items.iter().map(|&i| priority_input(i)).collect();
        let ranked = self.policies()?.priority_sort(&items, now, weights_out(weights))?;
        Ok(ranked.into_iter().map(|r| s::Ranked { index: r.index, score: r.score }).collect())
    }

    fn rank(&self, query: &str, candidates: &[s::Candidate], options: s::RankingOptions) -> Result<Vec<s::Suggestion>> {
        let candidates: Vec<wr::Candidate> = candidates.iter().map(candidate).collect();
        let options = wr::RankingOptions { limit: options.limit, now: options.now };
        let ranked = self.policies()?.rank(query, &candidates, options)?;
        Ok(ranked
            .into_iter()
            .map(|r| s::Suggestion {
                index: r.index,
                score: r.score,
                confidence: match r.confidence {
                    wr::Confidence::High => s::Confidence::High,
                    wr::Confidence::Medium => s::Confidence::Medium,
                    wr::Confidence::Low => s::Confidence::Low,
                },
                reason: r.reason,
                shared_terms: r.shared_terms,
            })
            .collect())
    }

    fn distill_validate(&self, document: &str, artifacts: &[s::ArtifactInfo]) -> Result<Vec<s::Finding>> {
        let artifacts: Vec<wd::ArtifactInfo> =
            artifacts.iter().map(|a| wd::ArtifactInfo { id: a.id.clone(), line_count: a.line_count }).collect();
        let findings = self.policies()?.distill_validate(document, &artifacts)?;
        Ok(findings.into_iter().map(finding).collect())
    }

    fn merge(
        &self,
        source: &s::MergeSide,
        target: &s::MergeSide,
        resolutions: &[s::Resolution],
        flagged: &[s::FlaggedPair],
    ) -> Result<s::MergePlan> {
        let resolutions: Vec<wm::Resolution> = resolutions.iter().map(resolution).collect();
        let flagged: Vec<wm::FlaggedPair> = flagged
            .iter()
            .map(|f| wm::FlaggedPair {
                target_claim: f.target_claim.clone(),
                source_claim: f.source_claim.clone(),
                reason: f.reason.clone(),
            })
            .collect();
        let plan = self.policies()?.merge(&merge_side(source), &merge_side(target), &resolutions, &flagged)?;
        Ok(s::MergePlan {
            converged_state: plan.converged_state,
            converged_next_action: plan.converged_next_action,
            converged_status: status_in(plan.converged_status),
            unresolved: plan.unresolved.into_iter().map(conflict).collect(),
            unlisted_related: plan.unlisted_related,
            changed_target: plan.changed_target.into_iter().map(changed).collect(),
            changed_source: plan.changed_source.into_iter().map(changed).collect(),
        })
    }

    fn redact(&self, text: &str, options: &s::RedactionOptions) -> Result<s::Redaction> {
        let options = RedactionOptions { key: options.key.clone(), allow: options.allow.clone() };
        Ok(redaction(self.policies()?.redact(text, &options)?))
    }

    fn redact_many(&self, texts: &[&str], options: &s::RedactionOptions) -> Result<Vec<s::Redaction>> {
        let options = RedactionOptions { key: options.key.clone(), allow: options.allow.clone() };
        Ok(self.policies()?.redact_many(texts, &options)?.into_iter().map(redaction).collect())
    }
}

fn redaction(r: super::runtime::Redaction) -> s::Redaction {
    s::Redaction {
        text: r.text,
        hits: r
            .hits
            .into_iter()
            .map(|h| s::RedactionHit {
                kind: h.kind,
                first_line: h.first_line,
                last_line: h.last_line,
                marker: h.marker,
            })
            .collect(),
    }
}

fn level(l: s::Level) -> wt::Level {
    match l {
        s::Level::High => wt::Level::High,
        s::Level::Low => wt::Level::Low,
    }
}

pub(crate) fn status_out(st: s::LifecycleStatus) -> wt::LifecycleStatus {
    use s::LifecycleStatus as S;
    use wt::LifecycleStatus as W;
    match st {
        S::Active => W::Active,
        S::Waiting => W::Waiting,
        S::Blocked => W::Blocked,
        S::Resolved => W::Resolved,
        S::Archived => W::Archived,
    }
}

fn status_in(st: wt::LifecycleStatus) -> s::LifecycleStatus {
    use s::LifecycleStatus as S;
    use wt::LifecycleStatus as W;
    match st {
        W::Active => S::Active,
        W::Waiting => S::Waiting,
        W::Blocked => S::Blocked,
        W::Resolved => S::Resolved,
        W::Archived => S::Archived,
    }
}

fn priority_input(i: s::PriorityInput) -> wp::PriorityInput {
    wp::PriorityInput {
        importance: level(i.importance),
        urgency: level(i.urgency),
        due_date: i.due_date,
        last_touched_at: i.last_touched_at,
        updated_at: i.updated_at,
    }
}

fn weights_out(w: s::Weights) -> wp::Weights {
    wp::Weights { importance: w.importance, urgency: w.urgency, due_window_days: w.due_window_days }
}

fn candidate(c: &s::Candidate) -> wr::Candidate {
    wr::Candidate {
        name: c.name.clone(),
        slug: c.slug.clone(),
        status: status_out(c.status),
        next_action: c.next_action.clone(),
        open_questions: c.open_questions.clone(),
        body: c.body.clone(),
        artifact_titles: c.artifact_titles.clone(),
        last_touched_at: c.last_touched_at,
    }
}

pub(crate) fn finding(f: wt::Finding) -> s::Finding {
    s::Finding {
        code: f.code,
        severity: match f.severity {
            wt::Severity::Error => s::Severity::Error,
            wt::Severity::Warning => s::Severity::Warning,
            wt::Severity::Info => s::Severity::Info,
        },
        line: f.line,
        message: f.message,
    }
}

fn merge_side(m: &s::MergeSide) -> wm::MergeSide {
    wm::MergeSide {
        id: m.id.clone(),
        name: m.name.clone(),
        status: status_out(m.status),
        next_action: m.next_action.clone(),
        distilled_state: m.distilled_state.clone(),
    }
}

fn resolution(r: &s::Resolution) -> wm::Resolution {
    wm::Resolution {
        conflict_id: r.conflict_id.clone(),
        choice: match &r.choice {
            s::ResolutionChoice::KeepSource => wm::ResolutionChoice::KeepSource,
            s::ResolutionChoice::KeepTarget => wm::ResolutionChoice::KeepTarget,
            s::ResolutionChoice::KeepBoth => wm::ResolutionChoice::KeepBoth,
            s::ResolutionChoice::Custom(t) => wm::ResolutionChoice::Custom(t.clone()),
        },
    }
}

fn changed(c: wm::ChangedClaim) -> s::ChangedClaim {
    s::ChangedClaim { id: c.id, section: c.section, text: c.text, line: c.line, related: c.related }
}

fn conflict(c: wm::Conflict) -> s::Conflict {
    let side = |x: wm::ConflictSide| s::ConflictSide { text: x.text, provenance: x.provenance, line: x.line };
    s::Conflict {
        id: c.id,
        kind: match c.kind {
            wm::ConflictKind::ContradictoryDecision => s::ConflictKind::ContradictoryDecision,
            wm::ConflictKind::DivergentNextAction => s::ConflictKind::DivergentNextAction,
            wm::ConflictKind::IncompatibleLifecycle => s::ConflictKind::IncompatibleLifecycle,
            wm::ConflictKind::IncompatibleValue => s::ConflictKind::IncompatibleValue,
            wm::ConflictKind::RelatedClaims => s::ConflictKind::RelatedClaims,
            wm::ConflictKind::FlaggedByReviewer => s::ConflictKind::FlaggedByReviewer,
        },
        subject: c.subject,
        source: side(c.source),
        target: side(c.target),
        certainty: match c.certainty {
            wm::Certainty::Certain => s::Certainty::Certain,
            wm::Certainty::Possible => s::Certainty::Possible,
        },
        compatible_hint: c.compatible_hint,
    }
}
