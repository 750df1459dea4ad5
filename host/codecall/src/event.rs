//! The event model (ARCHITECTURE §12): the envelope every event carries (`session_id`,
//! `sequence`, `timestamp`, `operation_id`, `actor`, `contract_version`, `correlation_id`) and
//! one payload type per event kind. Events are the session's only record: the reducer folds
//! them into a [`crate::Session`], the log stores them one JSON object per line, replay re-derives
//! them.
//!
//! Everything an event carries has been redacted (repository text comes redacted from the
//! evidence collector; task text, agent results and user notes are redacted by the runtime before
//! an event is built).
//!
//! Not for: deciding which event comes next (`runtime/`), checking that it may (`state/`), or
//! storing it (`log.rs`).

use std::collections::BTreeMap;

use dossier_evidence::{Budget, Changes, EvidencePack, EvidenceRequest, Level, PrivacyRules, SliceRequest};
use serde::{Deserialize, Serialize};

use crate::contract::SessionState;
use crate::contract::{
    ConceptExtraction, ConfidenceLevel, Dispute, Evaluation, EvaluationAction, EvidenceRef, LearningPlan, Lesson,
    MoveKind, Question, QuestionIntent, SignalKind, Summary,
};
use crate::error::ValidationError;

/// Who caused an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The provider adapter (the `dossier` host), e.g. an automatic recommendation or shutdown.
    Host,
    /// The developer: a decision, a confidence level, an answer, a cancel.
    User,
    /// The host agent acting as a worker: a submitted result or a rejection of one.
    Agent,
    /// The runtime's own decisions (policy calls, evidence collection, recovery).
    Runtime,
}

/// How the session was started (§4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Invocation {
    #[default]
    Manual,
    Recommended,
}

/// §6's classified recovery causes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryCause {
    /// The repository, git or a revision could not be read.
    UnavailableSource,
    /// An evidence budget stopped the acquisition ladder (recorded as `CONTEXT_DEGRADED`).
    BudgetExhausted,
    /// The pack holds nothing a lesson could cite (no changed file, or no excerpt and no search
    /// hit): recorded as `CONTEXT_DEGRADED`, and the opportunity is `skip` — never a work order
    /// over nothing.
    InsufficientEvidence,
    /// A worker result failed schema or semantic validation.
    InvalidWorkerResult,
    /// Documentation retrieval failed. Not produced: a provider that fails makes the concept
    /// `unavailable` (with a note) in `DOCUMENTATION_RESOLVED`, and the lesson goes on.
    DocumentationFailure,
    /// The agent reported it could not produce a result.
    LlmFailure,
    /// The provider went away mid-operation; `resume` completes the interrupted operation.
    ProviderDisconnect,
}

impl RecoveryCause {
    pub fn as_str(self) -> &'static str {
        match self {
            RecoveryCause::UnavailableSource => "unavailable_source",
            RecoveryCause::BudgetExhausted => "budget_exhausted",
            RecoveryCause::InsufficientEvidence => "insufficient_evidence",
            RecoveryCause::InvalidWorkerResult => "invalid_worker_result",
            RecoveryCause::DocumentationFailure => "documentation_failure",
            RecoveryCause::LlmFailure => "llm_failure",
            RecoveryCause::ProviderDisconnect => "provider_disconnect",
        }
    }
}

/// What a recovery tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryStrategy {
    /// Collect again one rung lower on the acquisition ladder.
    NarrowerSource,
    /// Plan from the runtime's derived signals, marked degraded.
    DegradedPlan,
    /// Nothing left to try: the session fails.
    None,
}

/// Why a session was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CancelReason {
    /// The developer skipped the recommendation (§4).
    UserDeclined,
    /// The developer stopped the session.
    UserCancelled,
    /// The host stopped it (e.g. the agent session ended).
    HostCancelled,
}

/// Session options (§4 `options`), recorded in `SESSION_STARTED`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StartOptions {
    /// Time budget of the session, in minutes (the planner's and the next-move policy's budget).
    pub max_minutes: u32,
    /// Highest rung of the acquisition ladder (§7). Level 4 also needs `slice` with consent.
    pub max_level: Level,
    /// Evidence budget. The default is smaller than the collector's, so a work order fits one
    /// tool result.
    pub evidence_budget: Budget,
    pub privacy: PrivacyRules,
    pub slice: Option<SliceRequest>,
    /// Documentation retrieval over the network is off by default (DESIGN §3, gate 4): `true`
    /// unless the host allowed it for this session (config `privacy_mode: allow-doc-fetch` and
    /// the user's consent). Offline, lessons are checked against project-local and
    /// installed-package documentation only, and label model knowledge `uncited`.
    pub offline: bool,
    /// The Dossier (id) the host saves the summary to when the session completes (the §19
    /// long-term-memory hand-off, opt-in). The runtime only records it, so whichever process
    /// completes the session knows where the summary goes; it never reads or writes a Dossier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save_summary_to: Option<String>,
}

/// Default session budget, minutes.
pub const DEFAULT_MAX_MINUTES: u32 = 20;

impl Default for StartOptions {
    fn default() -> Self {
        StartOptions {
            max_minutes: DEFAULT_MAX_MINUTES,
            max_level: Level::Search,
            evidence_budget: Budget { max_files: 40, max_bytes: 32 * 1024, max_tokens: 8_000, max_duration_ms: 5_000 },
            privacy: PrivacyRules::default(),
            slice: None,
            offline: true,
            save_summary_to: None,
        }
    }
}

/// The implementation locator as recorded (task text redacted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocatorRecord {
    pub repo: String,
    pub changes: Changes,
    #[serde(default)]
    pub task: Option<String>,
    /// Which locate rule chose `changes` (the host's, docs/codecall.md); absent in logs written
    /// before the rules existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub located: Option<dossier_evidence::Located>,
}

/// A prompt template's identity, recorded so replay and evaluations know which text was used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateRecord {
    pub step: String,
    pub name: String,
    pub version: u32,
    pub blake3: String,
}

// ------------------------------------------------------------------ payloads

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionStarted {
    pub invocation: Invocation,
    pub locator: LocatorRecord,
    /// The implementation is finished (§10 eligibility).
    pub completed: bool,
    pub options: StartOptions,
    pub policy_version: String,
    pub templates: Vec<TemplateRecord>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContextRequested {
    /// 1 for the first collection, 2 for the narrower retry.
    pub attempt: u32,
    pub request: EvidenceRequest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContextReady {
    pub pack: EvidencePack,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContextDegraded {
    pub cause: RecoveryCause,
    pub details: Vec<String>,
    pub level_reached: Option<Level>,
}

/// A signal the runtime derived from the evidence pack's paths and symbols.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DerivedSignal {
    /// `derived-<kind>`: what a dispute names.
    pub id: String,
    pub kind: SignalKind,
    pub concept: String,
    pub reason: String,
    pub evidence: Vec<EvidenceRef>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpportunityDetected {
    /// `recommend`, `optional` or `skip`.
    pub recommendation: String,
    pub score: f64,
    pub confidence: f64,
    pub estimated_minutes: u32,
    pub matched_strong: Vec<String>,
    pub matched_moderate: Vec<String>,
    pub excluded: Vec<String>,
    pub reasons: Vec<String>,
    pub fingerprint: String,
    pub derived_signals: Vec<DerivedSignal>,
    /// Derived signals the agent disputed: not counted.
    pub disputed: Vec<Dispute>,
    pub agent_signals: u32,
    pub inspectable: bool,
    pub degraded: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConceptsExtracted {
    pub work_order_id: String,
    pub result: ConceptExtraction,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanCreated {
    pub plan: LearningPlan,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendationPresented {
    pub checkpoint: String,
    pub recommendation: String,
    /// The plan has at least one unit: accepting is possible.
    pub teachable: bool,
    pub degraded: bool,
    /// The minutes the card shows: the plan's estimate. Absent in logs written before it was
    /// recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_minutes: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionRecorded {
    pub checkpoint: String,
    pub accept: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceRecorded {
    pub checkpoint: String,
    /// Every unit of the plan, with `neutral` where none was given.
    pub levels: BTreeMap<String, ConfidenceLevel>,
    /// The learner chose "use a default" for every unit.
    pub used_default: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LessonDepth {
    Brief,
    Standard,
    Thorough,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LessonKind {
    /// A unit's lesson (the policy's `teach`).
    Lesson,
    /// Teaching a diagnosed gap before an isomorphic question (the policy's `reinforce`).
    Reinforcement,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonRequestRecord {
    pub unit_id: String,
    pub depth: LessonDepth,
    pub focus: Vec<String>,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionRequestRecord {
    pub unit_id: String,
    pub intent: QuestionIntent,
    pub difficulty: u8,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionEndRecord {
    /// `objective_evidenced`, `budget_spent`, `plan_exhausted`, `empty_plan`.
    pub reason: String,
    pub message: String,
    pub evidenced: Vec<String>,
    pub weak: Vec<String>,
}

/// The policy's next move, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case")]
pub enum MoveRecord {
    Teach { lesson: LessonRequestRecord },
    Ask { question: QuestionRequestRecord },
    Deepen { question: QuestionRequestRecord },
    Reinforce { unit_id: String, misconceptions: Vec<String>, question: QuestionRequestRecord },
    Retry { question: QuestionRequestRecord },
    Finish { end: SessionEndRecord },
}

impl MoveRecord {
    pub fn kind(&self) -> MoveKind {
        match self {
            MoveRecord::Teach { .. } => MoveKind::Teach,
            MoveRecord::Ask { .. } => MoveKind::Ask,
            MoveRecord::Deepen { .. } => MoveKind::Deepen,
            MoveRecord::Reinforce { .. } => MoveKind::Reinforce,
            MoveRecord::Retry { .. } => MoveKind::Retry,
            MoveRecord::Finish { .. } => MoveKind::Finish,
        }
    }

    /// The move as §11 names an evaluation's outcome, after an answer on `unit_id`: a lesson or
    /// question on another unit is `advance`; a lesson on the same unit (a missed expert check)
    /// is `reinforce`.
    pub fn action(&self, unit_id: &str) -> EvaluationAction {
        match self {
            MoveRecord::Teach { lesson } if lesson.unit_id == unit_id => EvaluationAction::Reinforce,
            MoveRecord::Teach { .. } | MoveRecord::Ask { .. } => EvaluationAction::Advance,
            MoveRecord::Deepen { .. } => EvaluationAction::Deepen,
            MoveRecord::Reinforce { .. } => EvaluationAction::Reinforce,
            MoveRecord::Retry { .. } => EvaluationAction::Retry,
            MoveRecord::Finish { .. } => EvaluationAction::Finish,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonStarted {
    pub work_order_id: String,
    pub kind: LessonKind,
    pub request: LessonRequestRecord,
    /// For a reinforcement: the isomorphic question that follows the lesson.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow_up: Option<QuestionRequestRecord>,
}

/// One concept's documentation status (§9 `DocumentationResult`, sources by id).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConceptDocumentation {
    pub concept_id: String,
    pub status: dossier_docs::Status,
    /// Ids of this concept's sources among the event's `sources`.
    pub source_ids: Vec<String>,
    pub notes: Vec<String>,
}

/// `DOCUMENTATION_RESOLVED`: what the resolver found for a lesson's unit, before the lesson work
/// order. The sources carry their (redacted) excerpts and BLAKE3, so the lesson's citations are
/// checked against them and replay needs no provider.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocumentationResolved {
    pub work_order_id: String,
    pub unit_id: String,
    /// `resolved` if any concept is, else `unavailable` if any is, else `not_needed`.
    pub status: dossier_docs::Status,
    pub concepts: Vec<ConceptDocumentation>,
    pub sources: Vec<dossier_docs::ResolvedSource>,
    pub notes: Vec<String>,
    /// The providers that were asked.
    pub providers: Vec<String>,
    /// A network provider was among them.
    pub network: bool,
}

impl DocumentationResolved {
    pub fn source(&self, id: &str) -> Option<&dossier_docs::ResolvedSource> {
        self.sources.iter().find(|s| s.source_id == id)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonReady {
    pub work_order_id: String,
    pub lesson: Lesson,
    /// Modelled minutes of the lesson (charged to the budget at the next evaluation).
    pub minutes: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonAcknowledged {
    pub work_order_id: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionRequested {
    pub question_id: String,
    pub request: QuestionRequestRecord,
    pub kind: MoveKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionPresented {
    pub question_id: String,
    pub question: Question,
    /// Choice ids in display order (the policy's deterministic shuffle).
    pub display_order: Vec<String>,
    /// 0-based display position of the correct choice.
    pub correct_position: u32,
    /// The policy's item-quality warnings on the question (`check-item`, docs/learning-policy.md):
    /// recorded, the question is still asked. Absent when there are none (and in older logs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub item_warnings: Vec<ItemWarning>,
}

/// One item-quality warning: the finding's code and its message (what is wrong, how to rewrite).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemWarning {
    pub code: String,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionAnswered {
    pub question_id: String,
    /// The agent's id of the chosen choice.
    pub choice_id: String,
    pub correct: bool,
    /// The display label the user chose (`a`, `b`, … by position after the shuffle). Absent
    /// in logs written before display labels, where the answer named the agent's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_label: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnswerEvaluated {
    pub work_order_id: String,
    pub evaluation: Evaluation,
    /// The policy's next move after this answer.
    pub next: MoveRecord,
    /// Modelled minutes spent so far, this answer and the lessons before it included.
    pub elapsed_minutes: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuizCompleted {
    pub end: SessionEndRecord,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryReady {
    pub summary: Summary,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionFinished {
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionCancelled {
    pub reason: CancelReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The state the session was in.
    pub from: SessionState,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperationFailed {
    pub cause: RecoveryCause,
    /// A stable code: `invalid_worker_result`, `llm_failure`, or the collector's error kind.
    pub code: String,
    pub message: String,
    /// The exact validation errors, for a rejected worker result.
    pub errors: Vec<ValidationError>,
    /// The work order the failure belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
    /// Failures so far on this checkpoint, this one included.
    pub attempt: u32,
    /// BLAKE3 of the rejected result's JSON (the result itself is not recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_hash: Option<String>,
    /// A collector failure that a narrower retry may get past.
    #[serde(default)]
    pub retryable: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecoveryStarted {
    pub cause: RecoveryCause,
    pub strategy: RecoveryStrategy,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecoverySucceeded {
    pub cause: RecoveryCause,
    pub strategy: RecoveryStrategy,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionFailed {
    pub cause: RecoveryCause,
    pub message: String,
}

// ------------------------------------------------------------------ envelope

/// An event's payload, tagged by its §12 type name.
// Events are built and stored one at a time; the size spread (a pack vs a bare id) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EventBody {
    SessionStarted(SessionStarted),
    ContextRequested(ContextRequested),
    ContextReady(ContextReady),
    ContextDegraded(ContextDegraded),
    OpportunityDetected(OpportunityDetected),
    ConceptsExtracted(ConceptsExtracted),
    PlanCreated(PlanCreated),
    LearningRecommendationPresented(RecommendationPresented),
    DecisionRecorded(DecisionRecorded),
    ConfidenceRecorded(ConfidenceRecorded),
    LessonStarted(LessonStarted),
    DocumentationResolved(DocumentationResolved),
    LessonReady(LessonReady),
    ReinforcementReady(LessonReady),
    LessonAcknowledged(LessonAcknowledged),
    QuestionRequested(QuestionRequested),
    QuestionPresented(QuestionPresented),
    QuestionAnswered(QuestionAnswered),
    AnswerEvaluated(AnswerEvaluated),
    QuizCompleted(QuizCompleted),
    SummaryReady(SummaryReady),
    SessionFinished(SessionFinished),
    SessionCancelled(SessionCancelled),
    OperationFailed(OperationFailed),
    RecoveryStarted(RecoveryStarted),
    RecoverySucceeded(RecoverySucceeded),
    SessionFailed(SessionFailed),
}

/// The event kinds, payload-free (the reducer's transition table is keyed by these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EventKind {
    SessionStarted,
    ContextRequested,
    ContextReady,
    ContextDegraded,
    OpportunityDetected,
    ConceptsExtracted,
    PlanCreated,
    LearningRecommendationPresented,
    DecisionRecorded,
    ConfidenceRecorded,
    LessonStarted,
    DocumentationResolved,
    LessonReady,
    ReinforcementReady,
    LessonAcknowledged,
    QuestionRequested,
    QuestionPresented,
    QuestionAnswered,
    AnswerEvaluated,
    QuizCompleted,
    SummaryReady,
    SessionFinished,
    SessionCancelled,
    OperationFailed,
    RecoveryStarted,
    RecoverySucceeded,
    SessionFailed,
}

impl EventKind {
    pub const ALL: [EventKind; 27] = [
        EventKind::SessionStarted,
        EventKind::ContextRequested,
        EventKind::ContextReady,
        EventKind::ContextDegraded,
        EventKind::OpportunityDetected,
        EventKind::ConceptsExtracted,
        EventKind::PlanCreated,
        EventKind::LearningRecommendationPresented,
        EventKind::DecisionRecorded,
        EventKind::ConfidenceRecorded,
        EventKind::LessonStarted,
        EventKind::DocumentationResolved,
        EventKind::LessonReady,
        EventKind::ReinforcementReady,
        EventKind::LessonAcknowledged,
        EventKind::QuestionRequested,
        EventKind::QuestionPresented,
        EventKind::QuestionAnswered,
        EventKind::AnswerEvaluated,
        EventKind::QuizCompleted,
        EventKind::SummaryReady,
        EventKind::SessionFinished,
        EventKind::SessionCancelled,
        EventKind::OperationFailed,
        EventKind::RecoveryStarted,
        EventKind::RecoverySucceeded,
        EventKind::SessionFailed,
    ];

    /// The §12 name, e.g. `LESSON_READY`.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::SessionStarted => "SESSION_STARTED",
            EventKind::ContextRequested => "CONTEXT_REQUESTED",
            EventKind::ContextReady => "CONTEXT_READY",
            EventKind::ContextDegraded => "CONTEXT_DEGRADED",
            EventKind::OpportunityDetected => "OPPORTUNITY_DETECTED",
            EventKind::ConceptsExtracted => "CONCEPTS_EXTRACTED",
            EventKind::PlanCreated => "PLAN_CREATED",
            EventKind::LearningRecommendationPresented => "LEARNING_RECOMMENDATION_PRESENTED",
            EventKind::DecisionRecorded => "DECISION_RECORDED",
            EventKind::ConfidenceRecorded => "CONFIDENCE_RECORDED",
            EventKind::LessonStarted => "LESSON_STARTED",
            EventKind::DocumentationResolved => "DOCUMENTATION_RESOLVED",
            EventKind::LessonReady => "LESSON_READY",
            EventKind::ReinforcementReady => "REINFORCEMENT_READY",
            EventKind::LessonAcknowledged => "LESSON_ACKNOWLEDGED",
            EventKind::QuestionRequested => "QUESTION_REQUESTED",
            EventKind::QuestionPresented => "QUESTION_PRESENTED",
            EventKind::QuestionAnswered => "QUESTION_ANSWERED",
            EventKind::AnswerEvaluated => "ANSWER_EVALUATED",
            EventKind::QuizCompleted => "QUIZ_COMPLETED",
            EventKind::SummaryReady => "SUMMARY_READY",
            EventKind::SessionFinished => "SESSION_FINISHED",
            EventKind::SessionCancelled => "SESSION_CANCELLED",
            EventKind::OperationFailed => "OPERATION_FAILED",
            EventKind::RecoveryStarted => "RECOVERY_STARTED",
            EventKind::RecoverySucceeded => "RECOVERY_SUCCEEDED",
            EventKind::SessionFailed => "SESSION_FAILED",
        }
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl EventBody {
    pub fn kind(&self) -> EventKind {
        match self {
            EventBody::SessionStarted(_) => EventKind::SessionStarted,
            EventBody::ContextRequested(_) => EventKind::ContextRequested,
            EventBody::ContextReady(_) => EventKind::ContextReady,
            EventBody::ContextDegraded(_) => EventKind::ContextDegraded,
            EventBody::OpportunityDetected(_) => EventKind::OpportunityDetected,
            EventBody::ConceptsExtracted(_) => EventKind::ConceptsExtracted,
            EventBody::PlanCreated(_) => EventKind::PlanCreated,
            EventBody::LearningRecommendationPresented(_) => EventKind::LearningRecommendationPresented,
            EventBody::DecisionRecorded(_) => EventKind::DecisionRecorded,
            EventBody::ConfidenceRecorded(_) => EventKind::ConfidenceRecorded,
            EventBody::LessonStarted(_) => EventKind::LessonStarted,
            EventBody::DocumentationResolved(_) => EventKind::DocumentationResolved,
            EventBody::LessonReady(_) => EventKind::LessonReady,
            EventBody::ReinforcementReady(_) => EventKind::ReinforcementReady,
            EventBody::LessonAcknowledged(_) => EventKind::LessonAcknowledged,
            EventBody::QuestionRequested(_) => EventKind::QuestionRequested,
            EventBody::QuestionPresented(_) => EventKind::QuestionPresented,
            EventBody::QuestionAnswered(_) => EventKind::QuestionAnswered,
            EventBody::AnswerEvaluated(_) => EventKind::AnswerEvaluated,
            EventBody::QuizCompleted(_) => EventKind::QuizCompleted,
            EventBody::SummaryReady(_) => EventKind::SummaryReady,
            EventBody::SessionFinished(_) => EventKind::SessionFinished,
            EventBody::SessionCancelled(_) => EventKind::SessionCancelled,
            EventBody::OperationFailed(_) => EventKind::OperationFailed,
            EventBody::RecoveryStarted(_) => EventKind::RecoveryStarted,
            EventBody::RecoverySucceeded(_) => EventKind::RecoverySucceeded,
            EventBody::SessionFailed(_) => EventKind::SessionFailed,
        }
    }
}

/// One event: the §12 envelope and its payload. Serialized as one JSON object:
/// `{"session_id":…,"sequence":…,"timestamp":…,"operation_id":…,"actor":…,
/// "contract_version":1,"correlation_id":…,"type":"LESSON_READY","payload":{…}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub session_id: String,
    /// 1, 2, 3, … per session, without gaps.
    pub sequence: u64,
    /// RFC 3339, UTC.
    pub timestamp: String,
    /// The public call that caused the event (its idempotency key).
    pub operation_id: String,
    pub actor: Actor,
    pub contract_version: u32,
    /// The work order or user gate the event belongs to (`wo-<n>`, `q-<n>`, `gate-<n>`), else the
    /// session id.
    pub correlation_id: String,
    /// BLAKE3 of the operation's input, on the first event of each public call: a retry with
    /// the same operation id and a different input is a conflict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_hash: Option<String>,
    #[serde(flatten)]
    pub body: EventBody,
}

impl Event {
    pub fn kind(&self) -> EventKind {
        self.body.kind()
    }
}
