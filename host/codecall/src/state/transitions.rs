//! The §6 transition table as data: every legal `(state, event)` pair and where it takes the
//! session ([`Target`]), and the lookup the reducer checks each event against. Written once here
//! so the reducer, its tests and the documentation read the same table.
//!
//! Not for: the guards on an event's payload or folding it into a session (the reducer in
//! `state/mod.rs`), or deciding which event comes next (`decide.rs`).

use crate::contract::SessionState;
use crate::event::EventKind;

/// Where an event may take a session: to another state, or nowhere (it is recorded in place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    To(SessionState),
    Stay,
    /// `DECISION_RECORDED`: accept goes to `waiting_for_confidence`, decline stays (and is
    /// followed by `SESSION_CANCELLED`).
    AcceptOrStay,
}

use SessionState as S;

/// Every legal `(state, event)` pair. The §6 diagram's transitions, plus the events recorded in
/// place, plus four documented additions: `analyzing → recovering` (concept extraction failed
/// three times), and cancel from `waiting_for_confidence`, `evaluation` and `summary` (the issue
/// asks for cancel in every non-terminal state; the diagram omits these three).
/// `idle` only ever sees `SESSION_STARTED`: the API never leaves a session in `idle`.
pub const TRANSITIONS: &[(SessionState, EventKind, Target)] = &[
    (S::Idle, EventKind::SessionStarted, Target::To(S::CollectingContext)),
    // Collecting context.
    (S::CollectingContext, EventKind::ContextRequested, Target::Stay),
    (S::CollectingContext, EventKind::ContextReady, Target::To(S::Analyzing)),
    (S::CollectingContext, EventKind::OperationFailed, Target::Stay),
    (S::CollectingContext, EventKind::RecoveryStarted, Target::To(S::Recovering)),
    (S::CollectingContext, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // Analyzing: waiting for the agent's concept extraction.
    (S::Analyzing, EventKind::ContextDegraded, Target::Stay),
    (S::Analyzing, EventKind::RecoverySucceeded, Target::Stay),
    (S::Analyzing, EventKind::ConceptsExtracted, Target::To(S::Planning)),
    // Addition: a pack with nothing citable (`CONTEXT_DEGRADED`, insufficient_evidence) is
    // scored `skip` without a concepts work order.
    (S::Analyzing, EventKind::OpportunityDetected, Target::To(S::Planning)),
    (S::Analyzing, EventKind::OperationFailed, Target::Stay),
    (S::Analyzing, EventKind::RecoveryStarted, Target::To(S::Recovering)),
    (S::Analyzing, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // Planning.
    (S::Planning, EventKind::OpportunityDetected, Target::Stay),
    (S::Planning, EventKind::PlanCreated, Target::Stay),
    (S::Planning, EventKind::LearningRecommendationPresented, Target::To(S::WaitingForDecision)),
    (S::Planning, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // The Start/Skip card.
    (S::WaitingForDecision, EventKind::DecisionRecorded, Target::AcceptOrStay),
    (S::WaitingForDecision, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // The confidence gate.
    (S::WaitingForConfidence, EventKind::ConfidenceRecorded, Target::To(S::Teaching)),
    (S::WaitingForConfidence, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // Teaching.
    (S::Teaching, EventKind::LessonStarted, Target::Stay),
    (S::Teaching, EventKind::DocumentationResolved, Target::Stay),
    (S::Teaching, EventKind::LessonReady, Target::Stay),
    (S::Teaching, EventKind::ReinforcementReady, Target::Stay),
    (S::Teaching, EventKind::LessonAcknowledged, Target::Stay),
    (S::Teaching, EventKind::QuestionRequested, Target::To(S::Quiz)),
    (S::Teaching, EventKind::OperationFailed, Target::Stay),
    (S::Teaching, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // Quiz.
    (S::Quiz, EventKind::QuestionPresented, Target::Stay),
    (S::Quiz, EventKind::QuestionAnswered, Target::To(S::Evaluation)),
    (S::Quiz, EventKind::OperationFailed, Target::Stay),
    (S::Quiz, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // Evaluation.
    (S::Evaluation, EventKind::AnswerEvaluated, Target::Stay),
    (S::Evaluation, EventKind::LessonStarted, Target::To(S::Teaching)),
    (S::Evaluation, EventKind::QuestionRequested, Target::To(S::Quiz)),
    (S::Evaluation, EventKind::QuizCompleted, Target::To(S::Summary)),
    (S::Evaluation, EventKind::OperationFailed, Target::Stay),
    (S::Evaluation, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // Summary.
    (S::Summary, EventKind::SummaryReady, Target::Stay),
    (S::Summary, EventKind::SessionFinished, Target::To(S::Completed)),
    (S::Summary, EventKind::SessionCancelled, Target::To(S::Cancelled)),
    // Recovering.
    (S::Recovering, EventKind::ContextRequested, Target::To(S::CollectingContext)),
    (S::Recovering, EventKind::OpportunityDetected, Target::Stay),
    (S::Recovering, EventKind::PlanCreated, Target::Stay),
    (S::Recovering, EventKind::RecoverySucceeded, Target::Stay),
    (S::Recovering, EventKind::LearningRecommendationPresented, Target::To(S::WaitingForDecision)),
    (S::Recovering, EventKind::SessionFailed, Target::To(S::Failed)),
    (S::Recovering, EventKind::SessionCancelled, Target::To(S::Cancelled)),
];

/// The table entry for a pair, if it is legal.
pub fn transition(state: SessionState, kind: EventKind) -> Option<Target> {
    TRANSITIONS.iter().find(|(s, k, _)| *s == state && *k == kind).map(|(_, _, t)| *t)
}
