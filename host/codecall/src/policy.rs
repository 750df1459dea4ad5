//! How the runtime reaches the learning policy: the [`LearningPolicy`] trait over
//! `dossier_core::learning`'s plain Rust types, [`NativePolicy`] (a direct call), and the
//! conversions between those types and this crate's serde contracts.
//!
//! The product runs the policy as the embedded WebAssembly component (the host implements this
//! trait over its wasmtime bindings, so an alternate component from `config.yaml` can replace it).
//! [`NativePolicy`] calls the same Rust functions the component is compiled from; it is for
//! tests, tools and replay checks, not the product path.
//!
//! Not for: policy logic (it lives in `core/src/learning/`), or deciding when to call it
//! (`runtime/`).

use dossier_core::learning as l;

use crate::contract::{
    Concept, ConceptCategory, ConfidenceLevel, EvidenceRef, Exclusion, LearningPlan, LearningUnit, Omission,
    OmissionKind, Question, QuestionIntent, SignalClaim, SignalKind, UnitRole,
};
use crate::event::{LessonDepth, LessonRequestRecord, MoveRecord, QuestionRequestRecord, SessionEndRecord};

/// A policy call failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolicyFailure {
    /// The policy refused its input (`policy-error::invalid-input`): for a worker result, a
    /// rejection the agent can fix.
    #[error("the policy refused its input: {0}")]
    InvalidInput(String),
    /// The policy itself failed (a trap, fuel, a missing component): not the caller's fault.
    #[error("the policy failed: {0}")]
    Failed(String),
}

impl From<l::LearningError> for PolicyFailure {
    fn from(e: l::LearningError) -> Self {
        match e {
            l::LearningError::InvalidInput(m) => PolicyFailure::InvalidInput(m),
        }
    }
}

/// One item-quality finding (`check-item`). An error refuses the question (the agent rewrites
/// it); a warning is recorded on `QUESTION_PRESENTED` and the question is still asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemFinding {
    pub code: String,
    pub message: String,
    pub warning: bool,
}

/// The learning policy (docs/learning-policy.md), as the runtime calls it.
pub trait LearningPolicy {
    /// Recorded in `SESSION_STARTED`; replay reports a different version.
    fn version(&self) -> String;
    fn score_opportunity(&self, input: &l::OpportunityInput) -> Result<l::Opportunity, PolicyFailure>;
    fn plan(&self, concepts: &[l::Concept], budget_minutes: u32) -> Result<l::LearningPlan, PolicyFailure>;
    fn next_move(&self, state: &l::LearnerState) -> Result<l::LearningMove, PolicyFailure>;
    fn check_item(&self, item: &l::McqItem) -> Result<Vec<ItemFinding>, PolicyFailure>;
    /// Display order (input indices) for `choice_count` choices with the correct one at
    /// `correct_index`, balancing against `previous_positions`.
    fn shuffle_order(
        &self,
        question_id: &str,
        choice_count: usize,
        correct_index: usize,
        previous_positions: &[u32],
    ) -> Result<Vec<usize>, PolicyFailure>;
}

/// The redaction policy's rules (`dossier_core::redact`) called directly, with a fixed key. For
/// tests and tools: the product hands the runtime the store's redaction (the component, with
/// the store's own key), so markers match what the store holds.
#[derive(Clone, Copy, Debug, Default)]
pub struct NativeRedactor;

impl dossier_evidence::Redact for NativeRedactor {
    fn redact(&self, text: &str) -> Result<dossier_evidence::Redacted, String> {
        let options = dossier_core::redact::Options { key: &[0x5a; 32], allow: &[] };
        let r = dossier_core::redact::redact(text, &options).map_err(|e| e.to_string())?;
        Ok(dossier_evidence::Redacted {
            text: r.text.unwrap_or_else(|| text.to_owned()),
            found: r
                .hits
                .into_iter()
                .map(|h| dossier_evidence::Redaction {
                    kind: h.kind.to_string(),
                    first_line: h.first_line,
                    last_line: h.last_line,
                })
                .collect(),
        })
    }
}

/// `dossier_core::learning` called directly. For tests and tools: the product calls the
/// embedded component through the host's implementation of [`LearningPolicy`].
#[derive(Clone, Copy, Debug, Default)]
pub struct NativePolicy;

impl LearningPolicy for NativePolicy {
    fn version(&self) -> String {
        format!("dossier-core/{} (native)", env!("CARGO_PKG_VERSION"))
    }
    fn score_opportunity(&self, input: &l::OpportunityInput) -> Result<l::Opportunity, PolicyFailure> {
        Ok(l::score_opportunity(input)?)
    }
    fn plan(&self, concepts: &[l::Concept], budget_minutes: u32) -> Result<l::LearningPlan, PolicyFailure> {
        Ok(l::plan(concepts, budget_minutes)?)
    }
    fn next_move(&self, state: &l::LearnerState) -> Result<l::LearningMove, PolicyFailure> {
        Ok(l::next_move(state)?)
    }
    fn check_item(&self, item: &l::McqItem) -> Result<Vec<ItemFinding>, PolicyFailure> {
        Ok(l::check_item(item)
            .into_iter()
            .map(|f| ItemFinding {
                code: f.code.to_string(),
                message: f.message,
                warning: f.severity != dossier_core::distill::Severity::Error,
            })
            .collect())
    }
    fn shuffle_order(
        &self,
        question_id: &str,
        choice_count: usize,
        correct_index: usize,
        previous_positions: &[u32],
    ) -> Result<Vec<usize>, PolicyFailure> {
        Ok(l::item::shuffle_order(question_id, choice_count, correct_index, previous_positions))
    }
}

// ------------------------------------------------------------------ conversions

pub fn core_ref(r: &EvidenceRef) -> l::EvidenceRef {
    l::EvidenceRef {
        path: r.path.clone(),
        revision: r.revision.clone(),
        start_line: r.start_line,
        end_line: r.end_line,
        content_hash: r.content_hash.clone().unwrap_or_default(),
    }
}

pub fn core_signal_kind(k: SignalKind) -> l::SignalKind {
    match k {
        SignalKind::ExternalContract => l::SignalKind::ExternalContract,
        SignalKind::ArchitectureFlow => l::SignalKind::ArchitectureFlow,
        SignalKind::SecurityBoundary => l::SignalKind::SecurityBoundary,
        SignalKind::ReliabilityBoundary => l::SignalKind::ReliabilityBoundary,
        SignalKind::ConsequentialTradeoff => l::SignalKind::ConsequentialTradeoff,
        SignalKind::ReusablePattern => l::SignalKind::ReusablePattern,
        SignalKind::DependencyRelationship => l::SignalKind::DependencyRelationship,
        SignalKind::OperationalConfig => l::SignalKind::OperationalConfig,
        SignalKind::Observability => l::SignalKind::Observability,
        SignalKind::Validation => l::SignalKind::Validation,
        SignalKind::TestStrategy => l::SignalKind::TestStrategy,
        SignalKind::Deployment => l::SignalKind::Deployment,
    }
}

pub fn core_exclusion(e: Exclusion) -> l::ExcludedKind {
    match e {
        Exclusion::Formatting => l::ExcludedKind::Formatting,
        Exclusion::CopyText => l::ExcludedKind::CopyText,
        Exclusion::Comments => l::ExcludedKind::Comments,
        Exclusion::MechanicalRename => l::ExcludedKind::MechanicalRename,
        Exclusion::GeneratedOnly => l::ExcludedKind::GeneratedOnly,
        Exclusion::DependencyBump => l::ExcludedKind::DependencyBump,
        Exclusion::LocalFix => l::ExcludedKind::LocalFix,
        Exclusion::TestsWithoutStrategy => l::ExcludedKind::TestsWithoutStrategy,
    }
}

pub fn core_signal(s: &SignalClaim) -> l::Signal {
    l::Signal {
        kind: core_signal_kind(s.kind),
        concept: s.concept.clone(),
        reason: s.reason.clone(),
        evidence: s.evidence.iter().map(core_ref).collect(),
    }
}

fn core_category(c: ConceptCategory) -> l::ConceptCategory {
    match c {
        ConceptCategory::Technology => l::ConceptCategory::Technology,
        ConceptCategory::Concept => l::ConceptCategory::Concept,
        ConceptCategory::Pattern => l::ConceptCategory::Pattern,
        ConceptCategory::AntiPattern => l::ConceptCategory::AntiPattern,
        ConceptCategory::ArchitectureDecision => l::ConceptCategory::ArchitectureDecision,
        ConceptCategory::Misconception => l::ConceptCategory::Misconception,
    }
}

pub fn core_concept(c: &Concept) -> l::Concept {
    l::Concept {
        id: c.id.clone(),
        canonical_id: c.canonical_id.clone(),
        scope: c.scope.clone(),
        label: c.label.clone(),
        category: core_category(c.category),
        objective: c.objective.clone(),
        prerequisites: c.prerequisites.clone(),
        difficulty: c.difficulty,
        novelty: c.novelty,
        relevance: c.implementation_relevance,
        evidence: c.evidence.iter().map(core_ref).collect(),
    }
}

fn role(r: l::UnitRole) -> UnitRole {
    match r {
        l::UnitRole::Objective => UnitRole::Objective,
        l::UnitRole::Prerequisite => UnitRole::Prerequisite,
    }
}

fn core_role(r: UnitRole) -> l::UnitRole {
    match r {
        UnitRole::Objective => l::UnitRole::Objective,
        UnitRole::Prerequisite => l::UnitRole::Prerequisite,
    }
}

/// The policy's plan as the §9 contract.
pub fn plan_contract(p: &l::LearningPlan, budget_minutes: u32, degraded: bool) -> LearningPlan {
    let units: Vec<LearningUnit> = p
        .units
        .iter()
        .map(|u| LearningUnit {
            id: u.id.clone(),
            concept_ids: u.concept_ids.clone(),
            label: u.label.clone(),
            role: role(u.role),
            prerequisites: u.prerequisites.clone(),
            objective: u.objective.clone(),
            difficulty: u.difficulty,
            value: u.value,
            estimated_minutes: u.estimated_minutes,
            mastery_signals: u.mastery_signals.clone(),
            alternatives: u.alternatives.clone(),
        })
        .collect();
    let dependency_edges = units
        .iter()
        .flat_map(|u| {
            u.prerequisites.iter().map(|p| crate::contract::DependencyEdge { from: p.clone(), to: u.id.clone() })
        })
        .collect();
    LearningPlan {
        objectives: units.iter().filter(|u| u.role == UnitRole::Objective).map(|u| u.id.clone()).collect(),
        units,
        dependency_edges,
        cycles: p.cycles.clone(),
        estimated_minutes: p.estimated_minutes,
        omitted: p
            .omitted
            .iter()
            .map(|o| Omission {
                concept_id: o.concept_id.clone(),
                kind: match o.kind {
                    l::OmissionKind::Duplicate => OmissionKind::Duplicate,
                    l::OmissionKind::Budget => OmissionKind::Budget,
                },
                reason: o.reason.clone(),
            })
            .collect(),
        budget_minutes,
        degraded,
    }
}

/// The recorded plan back in the policy's types (for `next_move`).
pub fn core_plan(p: &LearningPlan) -> l::LearningPlan {
    l::LearningPlan {
        units: p
            .units
            .iter()
            .map(|u| l::LearningUnit {
                id: u.id.clone(),
                concept_ids: u.concept_ids.clone(),
                label: u.label.clone(),
                role: core_role(u.role),
                prerequisites: u.prerequisites.clone(),
                objective: u.objective.clone(),
                difficulty: u.difficulty,
                value: u.value,
                estimated_minutes: u.estimated_minutes,
                mastery_signals: u.mastery_signals.clone(),
                alternatives: u.alternatives.clone(),
            })
            .collect(),
        cycles: p.cycles.clone(),
        estimated_minutes: p.estimated_minutes,
        omitted: p
            .omitted
            .iter()
            .filter_map(|o| {
                Some(l::Omission {
                    concept_id: o.concept_id.clone(),
                    kind: match o.kind {
                        OmissionKind::Duplicate => l::OmissionKind::Duplicate,
                        OmissionKind::Budget => l::OmissionKind::Budget,
                        // The runtime's own omission (never planned): not the policy's.
                        OmissionKind::NoEvidence => return None,
                    },
                    reason: o.reason.clone(),
                })
            })
            .collect(),
    }
}

pub fn core_confidence(c: ConfidenceLevel) -> l::ConfidenceLevel {
    match c {
        ConfidenceLevel::Expert => l::ConfidenceLevel::Expert,
        ConfidenceLevel::Comfortable => l::ConfidenceLevel::Comfortable,
        ConfidenceLevel::HeardOfIt => l::ConfidenceLevel::HeardOfIt,
        ConfidenceLevel::NeverLearned => l::ConfidenceLevel::NeverLearned,
        ConfidenceLevel::Neutral => l::ConfidenceLevel::Neutral,
    }
}

pub fn core_intent(i: QuestionIntent) -> l::QuestionIntent {
    match i {
        QuestionIntent::Scenario => l::QuestionIntent::Scenario,
        QuestionIntent::CausalReasoning => l::QuestionIntent::CausalReasoning,
        QuestionIntent::Tradeoff => l::QuestionIntent::Tradeoff,
        QuestionIntent::Debugging => l::QuestionIntent::Debugging,
        QuestionIntent::SystemDesign => l::QuestionIntent::SystemDesign,
    }
}

pub fn intent(i: l::QuestionIntent) -> QuestionIntent {
    match i {
        l::QuestionIntent::Scenario => QuestionIntent::Scenario,
        l::QuestionIntent::CausalReasoning => QuestionIntent::CausalReasoning,
        l::QuestionIntent::Tradeoff => QuestionIntent::Tradeoff,
        l::QuestionIntent::Debugging => QuestionIntent::Debugging,
        l::QuestionIntent::SystemDesign => QuestionIntent::SystemDesign,
    }
}

pub fn depth(d: l::LessonDepth) -> LessonDepth {
    match d {
        l::LessonDepth::Brief => LessonDepth::Brief,
        l::LessonDepth::Standard => LessonDepth::Standard,
        l::LessonDepth::Thorough => LessonDepth::Thorough,
    }
}

pub fn core_depth(d: LessonDepth) -> l::LessonDepth {
    match d {
        LessonDepth::Brief => l::LessonDepth::Brief,
        LessonDepth::Standard => l::LessonDepth::Standard,
        LessonDepth::Thorough => l::LessonDepth::Thorough,
    }
}

fn question_request(q: &l::QuestionRequest) -> QuestionRequestRecord {
    QuestionRequestRecord {
        unit_id: q.unit_id.clone(),
        intent: intent(q.intent),
        difficulty: q.difficulty,
        reason: q.reason.clone(),
    }
}

pub fn finish_reason(r: l::FinishReason) -> &'static str {
    match r {
        l::FinishReason::ObjectiveEvidenced => "objective_evidenced",
        l::FinishReason::BudgetSpent => "budget_spent",
        l::FinishReason::PlanExhausted => "plan_exhausted",
        l::FinishReason::EmptyPlan => "empty_plan",
    }
}

/// The policy's move as recorded.
pub fn move_record(m: &l::LearningMove) -> MoveRecord {
    match m {
        l::LearningMove::Teach(t) => MoveRecord::Teach {
            lesson: LessonRequestRecord {
                unit_id: t.unit_id.clone(),
                depth: depth(t.depth),
                focus: t.focus.clone(),
                reason: t.reason.clone(),
            },
        },
        l::LearningMove::Ask(q) => MoveRecord::Ask { question: question_request(q) },
        l::LearningMove::Deepen(q) => MoveRecord::Deepen { question: question_request(q) },
        l::LearningMove::Retry(q) => MoveRecord::Retry { question: question_request(q) },
        l::LearningMove::Reinforce(r) => MoveRecord::Reinforce {
            unit_id: r.unit_id.clone(),
            misconceptions: r.misconceptions.clone(),
            question: question_request(&r.question),
        },
        l::LearningMove::Finish(e) => MoveRecord::Finish {
            end: SessionEndRecord {
                reason: finish_reason(e.reason).to_string(),
                message: e.message.clone(),
                evidenced: e.evidenced.clone(),
                weak: e.weak.clone(),
            },
        },
    }
}

/// A submitted question as the policy's MCQ item.
pub fn mcq_item(q: &Question) -> l::McqItem {
    l::McqItem {
        unit_id: q.unit_id.clone(),
        prompt: q.prompt.clone(),
        choices: q
            .choices
            .iter()
            .map(|c| l::Choice { id: c.id.clone(), text: c.text.clone(), rationale: c.rationale.clone() })
            .collect(),
        correct_choice_id: q.correct_choice_id.clone(),
        intent: core_intent(q.intent),
        evidence: q.evidence.iter().map(core_ref).collect(),
    }
}
