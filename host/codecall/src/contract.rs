//! The versioned contracts (ARCHITECTURE §9): the shapes a worker result must have when the host
//! agent submits it (concept extraction, lesson, question, evaluation), and the shapes the runtime
//! derives (learning plan, evaluation record, summary). Each is a serde type with a JSON Schema
//! (schemars), so a work order can hand the agent the exact schema of what it must return.
//! Also the §9 `SessionState` that events, errors and the reducer name (its transitions are in
//! `state/`, which re-exports it).
//!
//! Decoding is strict (`deny_unknown_fields`, enums by name), so a document that decodes has the
//! structure its schema describes; ranges, lengths and cross-references are checked by
//! [`crate::validate`], which also resolves every [`EvidenceRef`] against the evidence pack.
//!
//! Not for: validation rules (`validate.rs`), the event envelope (`event.rs`) or the policy's own
//! types (`dossier_core::learning`; `policy.rs` converts).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Version of every contract and event payload in this crate. Recorded in each event envelope.
pub const CONTRACT_VERSION: u32 = 1;

/// A citation of lines in the session's evidence pack (path, revision, 1-based inclusive span,
/// BLAKE3 of the cited text). A submitted ref may leave `content_hash` out; the runtime then
/// fills it in from the pack. When present it must match. Recorded refs always carry it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceRef {
    /// Repository-relative path, as in the pack.
    pub path: String,
    /// The revision the pack gives for this path (a commit id, or `worktree`).
    pub revision: String,
    #[schemars(range(min = 1))]
    pub start_line: u32,
    #[schemars(range(min = 1))]
    pub end_line: u32,
    /// Lowercase hex BLAKE3 of the cited lines as they appear in the pack. Optional on input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
}

impl std::fmt::Display for EvidenceRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}#L{}-L{}@{}", self.path, self.start_line, self.end_line, self.revision)
    }
}

// ---------------------------------------------------------------- concept extraction

/// §9 `Concept.category`: deliberately one category per concept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConceptCategory {
    Technology,
    Concept,
    Pattern,
    AntiPattern,
    ArchitectureDecision,
    Misconception,
}

/// One concept of the implementation (§9), with the fields the planner needs (canonical id and
/// scope for deduplication, the objective for merging).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Concept {
    /// Unique within the result, e.g. `c-token-refresh`.
    #[schemars(length(min = 1))]
    pub id: String,
    /// Canonical identity used to merge duplicates, e.g. `oauth2-refresh-token`.
    #[schemars(length(min = 1))]
    pub canonical_id: String,
    /// Where it applies (a module, a component); empty for the whole change.
    #[serde(default)]
    pub scope: String,
    #[schemars(length(min = 1))]
    pub label: String,
    pub category: ConceptCategory,
    #[schemars(length(min = 1))]
    pub description: String,
    /// What the learner should be able to reason about afterwards.
    #[schemars(length(min = 1))]
    pub objective: String,
    /// Ids of other concepts in this result that must be understood first.
    #[serde(default)]
    pub prerequisites: Vec<String>,
    #[schemars(range(min = 1, max = 5))]
    pub difficulty: u8,
    /// 0 = everyday knowledge, 1 = new to most developers.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub novelty: f64,
    /// How central the concept is to this implementation, 0..=1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub implementation_relevance: f64,
    /// At least one ref into the evidence pack.
    #[schemars(length(min = 1))]
    pub evidence: Vec<EvidenceRef>,
    /// Plausible misconceptions about this concept (distractor material).
    #[serde(default)]
    pub misconceptions: Vec<String>,
}

/// §10's signal kinds (the policy groups them into seven classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SignalKind {
    ExternalContract,
    ArchitectureFlow,
    SecurityBoundary,
    ReliabilityBoundary,
    ConsequentialTradeoff,
    ReusablePattern,
    DependencyRelationship,
    OperationalConfig,
    Observability,
    Validation,
    TestStrategy,
    Deployment,
}

impl SignalKind {
    pub fn name(self) -> &'static str {
        match self {
            SignalKind::ExternalContract => "external_contract",
            SignalKind::ArchitectureFlow => "architecture_flow",
            SignalKind::SecurityBoundary => "security_boundary",
            SignalKind::ReliabilityBoundary => "reliability_boundary",
            SignalKind::ConsequentialTradeoff => "consequential_tradeoff",
            SignalKind::ReusablePattern => "reusable_pattern",
            SignalKind::DependencyRelationship => "dependency_relationship",
            SignalKind::OperationalConfig => "operational_config",
            SignalKind::Observability => "observability",
            SignalKind::Validation => "validation",
            SignalKind::TestStrategy => "test_strategy",
            SignalKind::Deployment => "deployment",
        }
    }
}

/// §10's exclusions: never a signal; two cancel the signal they contradict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Exclusion {
    Formatting,
    CopyText,
    Comments,
    MechanicalRename,
    GeneratedOnly,
    DependencyBump,
    LocalFix,
    TestsWithoutStrategy,
}

/// A learning-value signal the agent found (§10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SignalClaim {
    pub kind: SignalKind,
    /// The concept the signal is about (its canonical identity).
    #[schemars(length(min = 1))]
    pub concept: String,
    #[schemars(length(min = 1))]
    pub reason: String,
    #[serde(default)]
    pub evidence: Vec<EvidenceRef>,
}

/// The agent disputes a signal the runtime derived from paths and symbols (a false positive).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dispute {
    /// The `id` of a derived signal listed in the work order.
    #[schemars(length(min = 1))]
    pub signal_id: String,
    #[schemars(length(min = 1))]
    pub reason: String,
}

/// Worker result of the `concepts` step: the concept IR plus the opportunity evidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConceptExtraction {
    /// Empty when the change has nothing worth teaching.
    pub concepts: Vec<Concept>,
    #[serde(default)]
    pub signals: Vec<SignalClaim>,
    #[serde(default)]
    pub excluded: Vec<Exclusion>,
    #[serde(default)]
    pub disputed: Vec<Dispute>,
}

// ---------------------------------------------------------------- plan (derived)

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitRole {
    Objective,
    Prerequisite,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LearningUnit {
    pub id: String,
    pub concept_ids: Vec<String>,
    pub label: String,
    pub role: UnitRole,
    pub prerequisites: Vec<String>,
    pub objective: String,
    pub difficulty: u8,
    pub value: f64,
    pub estimated_minutes: u32,
    pub mastery_signals: Vec<String>,
    pub alternatives: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DependencyEdge {
    /// The prerequisite unit.
    pub from: String,
    /// The unit that needs it.
    pub to: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OmissionKind {
    Duplicate,
    Budget,
    /// No excerpt of the pack supports it: no lesson could cite it.
    NoEvidence,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Omission {
    pub concept_id: String,
    pub kind: OmissionKind,
    pub reason: String,
}

/// §9 `LearningPlan`: the policy's learning graph, as recorded in `PLAN_CREATED`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LearningPlan {
    pub units: Vec<LearningUnit>,
    pub dependency_edges: Vec<DependencyEdge>,
    pub cycles: Vec<Vec<String>>,
    pub estimated_minutes: u32,
    /// Ids of the objective units: the session objective is evidence on each of them.
    pub objectives: Vec<String>,
    pub omitted: Vec<Omission>,
    pub budget_minutes: u32,
    /// Built from the runtime's derived signals after concept extraction failed (§6 recovery).
    pub degraded: bool,
}

impl LearningPlan {
    pub fn unit(&self, id: &str) -> Option<&LearningUnit> {
        self.units.iter().find(|u| u.id == id)
    }
}

// ---------------------------------------------------------------- lesson

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeExample {
    #[schemars(length(min = 1))]
    pub language: String,
    #[schemars(length(min = 1))]
    pub code: String,
    #[schemars(length(min = 1))]
    pub explanation: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    OfficialDocs,
    /// A package's own documentation as installed, at the version the lockfile pins.
    PackageDocs,
    Standard,
    ProjectDocs,
    /// The model's own knowledge, not checked against a source: shown as `uncited`.
    ModelKnowledge,
}

/// A lesson's citation of documentation. Any kind but `model_knowledge` names a `source_id`
/// from the work order's `documentation.sources` (the runtime fills in `location`, `version`
/// and `content_hash` from it); `model_knowledge` names none and is shown as *uncited*. A `url`
/// is accepted only when it is the resolved source's location (so never while retrieval is
/// off).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentationSource {
    #[schemars(length(min = 1))]
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub kind: SourceKind,
    /// The `source_id` of a resolved source of this lesson's work order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_id: Option<String>,
    /// Filled in by the runtime: the source's path or URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Filled in by the runtime: the documented package version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// BLAKE3 of the source's excerpt the citation was checked against; filled in when absent,
    /// must match when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
}

impl DocumentationSource {
    /// Claims from the model's own knowledge: shown as *uncited*.
    pub fn is_uncited(&self) -> bool {
        self.kind == SourceKind::ModelKnowledge
    }
}

/// Worker result of the `lesson` step (§9, §11): the seven parts every unit's lesson answers —
/// what it is (`what`), why this code needed it (`why_here`), what fails without it
/// (`failure_mode`), how it connects to adjacent units (`connections`), common misconceptions
/// (`misconceptions`), a mental model (`mental_model`) and a minimal example
/// (`minimal_example`) — with evidence refs for the claims about the implementation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    pub unit_id: String,
    #[schemars(length(min = 1))]
    pub objective: String,
    #[schemars(length(min = 1))]
    pub what: String,
    #[schemars(length(min = 1))]
    pub why_here: String,
    #[schemars(length(min = 1))]
    pub failure_mode: String,
    #[schemars(length(min = 1))]
    pub connections: Vec<String>,
    #[schemars(length(min = 1))]
    pub misconceptions: Vec<String>,
    #[schemars(length(min = 1))]
    pub mental_model: String,
    pub minimal_example: CodeExample,
    #[schemars(length(min = 1))]
    pub evidence: Vec<EvidenceRef>,
    #[serde(default)]
    pub citations: Vec<DocumentationSource>,
    /// Where the evidence is weak, the assumptions the lesson makes, stated as assumptions.
    #[serde(default)]
    pub assumptions: Vec<String>,
}

// ---------------------------------------------------------------- question

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuestionIntent {
    /// §11's real-world scenario mapped back to the implementation's mechanism.
    Scenario,
    CausalReasoning,
    Tradeoff,
    Debugging,
    SystemDesign,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    #[schemars(length(min = 1))]
    pub id: String,
    #[schemars(length(min = 1))]
    pub text: String,
    /// Why this choice is right or wrong.
    #[schemars(length(min = 1))]
    pub rationale: String,
}

/// Worker result of the `question` step (§9, §11): one MCQ check-in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The `question_id` of the work order.
    pub id: String,
    pub unit_id: String,
    #[schemars(length(min = 1))]
    pub prompt: String,
    #[schemars(length(min = 3, max = 5))]
    pub choices: Vec<Choice>,
    pub correct_choice_id: String,
    #[schemars(length(min = 1))]
    pub evidence: Vec<EvidenceRef>,
    pub intent: QuestionIntent,
}

// ---------------------------------------------------------------- evaluation

/// Worker result of the `evaluation` step: the agent's diagnosis of one answer. Whether the
/// answer is correct is not the agent's call (the runtime compares choice ids); what the next
/// move is belongs to the policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluationResult {
    pub question_id: String,
    /// Misconceptions the wrong answer reveals; must be empty for a correct answer. Empty for a
    /// wrong one means "no diagnosis" (the policy then retries with a simpler model).
    #[serde(default)]
    pub diagnosed_misconceptions: Vec<String>,
    /// Why the answer is right or wrong, grounded in the implementation.
    #[schemars(length(min = 1))]
    pub rationale: String,
    /// What to tell the learner (short).
    #[schemars(length(min = 1))]
    pub feedback: String,
}

/// The next move's name, as §11 words them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    Teach,
    Ask,
    Deepen,
    Reinforce,
    Retry,
    Finish,
}

/// §11's learning moves, as an evaluation's `action`: `advance` (to a new unit), `deepen`,
/// `reinforce`, `retry`, `finish`. Logs written before this type recorded the policy's move
/// names; their `teach` and `ask` read as `advance`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EvaluationAction {
    #[serde(alias = "teach", alias = "ask")]
    Advance,
    Deepen,
    Reinforce,
    Retry,
    Finish,
}

/// §9 `Evaluation`, as recorded in `ANSWER_EVALUATED`: the runtime's grading, the agent's
/// diagnosis and the policy's next move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Evaluation {
    pub question_id: String,
    pub unit_id: String,
    pub choice_id: String,
    pub correct: bool,
    pub diagnosed_misconceptions: Vec<String>,
    pub action: EvaluationAction,
    pub rationale: String,
    pub feedback: String,
}

// ---------------------------------------------------------------- summary (derived)

/// The learner's declared confidence for a unit (§11). `Neutral` is "use a default".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConfidenceLevel {
    Expert,
    Comfortable,
    HeardOfIt,
    NeverLearned,
    #[default]
    Neutral,
}

/// A bounded, per-session estimate — never a claim about lasting knowledge (DESIGN §3, gate 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EstimateLevel {
    /// The unit's checks were answered correctly (the policy's "evidenced").
    Evidenced,
    /// Some correct answers, not all the checks the unit needed.
    Partial,
    /// Closed after repeated wrong answers, or only wrong answers.
    Weak,
    /// No question on this unit was answered in the session.
    NotAssessed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EstimatedSessionMastery {
    pub level: EstimateLevel,
    pub correct_answers: u32,
    pub answers: u32,
    pub checks_needed: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConceptSummary {
    pub unit_id: String,
    pub label: String,
    pub role: UnitRole,
    pub objective: String,
    pub declared_confidence: ConfidenceLevel,
    pub estimated_session_mastery: EstimatedSessionMastery,
    pub evidence: Vec<EvidenceRef>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeakArea {
    pub unit_id: String,
    pub label: String,
    pub wrong_answers: u32,
    pub diagnosed_misconceptions: Vec<String>,
}

/// §9 `Summary`: derived by the runtime from the plan, the evidence pack and the evaluations
/// only. It says "estimated session mastery", never that anything was mastered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Why the session ended: `objective_evidenced`, `budget_spent`, `plan_exhausted`,
    /// `empty_plan`.
    pub finish_reason: String,
    pub message: String,
    pub concepts: Vec<ConceptSummary>,
    /// Objective units evidenced / objective units: the session-level estimate.
    pub estimated_session_mastery: SessionEstimate,
    pub weak_areas: Vec<WeakArea>,
    pub takeaways: Vec<String>,
    pub points_to_remember: Vec<String>,
    pub edge_cases_for_other_projects: Vec<String>,
    pub limitations: Vec<String>,
    pub questions_answered: u32,
    pub minutes_spent_estimate: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionEstimate {
    pub objective_units: u32,
    pub objective_units_evidenced: u32,
    pub note: String,
}

/// The schema of every worker result, by step name, for documentation and tests.
pub fn worker_result_schemas() -> BTreeMap<&'static str, serde_json::Value> {
    let mut m = BTreeMap::new();
    m.insert("concepts", schema_of::<ConceptExtraction>());
    m.insert("lesson", schema_of::<Lesson>());
    m.insert("question", schema_of::<Question>());
    m.insert("evaluation", schema_of::<EvaluationResult>());
    m
}

/// The JSON Schema of `T` as a JSON value.
pub fn schema_of<T: JsonSchema>() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(T)).expect("a schema serializes")
}

/// §9 `SessionState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionState {
    Idle,
    CollectingContext,
    Analyzing,
    Planning,
    WaitingForDecision,
    WaitingForConfidence,
    Teaching,
    Quiz,
    Evaluation,
    Summary,
    Completed,
    Cancelled,
    Recovering,
    Failed,
}

impl SessionState {
    pub const ALL: [SessionState; 14] = [
        SessionState::Idle,
        SessionState::CollectingContext,
        SessionState::Analyzing,
        SessionState::Planning,
        SessionState::WaitingForDecision,
        SessionState::WaitingForConfidence,
        SessionState::Teaching,
        SessionState::Quiz,
        SessionState::Evaluation,
        SessionState::Summary,
        SessionState::Completed,
        SessionState::Cancelled,
        SessionState::Recovering,
        SessionState::Failed,
    ];

    pub fn is_terminal(self) -> bool {
        matches!(self, SessionState::Completed | SessionState::Cancelled | SessionState::Failed)
    }

    pub fn name(self) -> &'static str {
        match self {
            SessionState::Idle => "idle",
            SessionState::CollectingContext => "collecting_context",
            SessionState::Analyzing => "analyzing",
            SessionState::Planning => "planning",
            SessionState::WaitingForDecision => "waiting_for_decision",
            SessionState::WaitingForConfidence => "waiting_for_confidence",
            SessionState::Teaching => "teaching",
            SessionState::Quiz => "quiz",
            SessionState::Evaluation => "evaluation",
            SessionState::Summary => "summary",
            SessionState::Completed => "completed",
            SessionState::Cancelled => "cancelled",
            SessionState::Recovering => "recovering",
            SessionState::Failed => "failed",
        }
    }
}

impl std::fmt::Display for SessionState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
