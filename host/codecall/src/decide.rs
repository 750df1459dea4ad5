//! The runtime's decisions: from a session and one input (a start request, a worker result, a
//! user answer, a cancel, or nothing — the runtime's own next step), the one event that should
//! follow. Pure apart from the policy and the evidence source it is given, so the live runtime
//! and replay run the very same code: replay feeds it the recorded inputs and recorded packs and
//! compares what comes out with what the log says.
//!
//! Not for: envelopes, logs or idempotency (`runtime/`), or applying events (`state/`).

use std::collections::BTreeMap;

use dossier_core::learning as l;
use dossier_evidence::{EvidenceRequest, ImplementationLocator, Level, Limits};
use serde_json::Value;

use crate::contract::{ConceptExtraction, ConfidenceLevel, Evaluation, EvaluationResult, Lesson, MoveKind, Question};
use crate::derive;
use crate::error::{ErrorCode, Result, RuntimeError};
use crate::event::*;
use crate::policy::{self, LearningPolicy, PolicyFailure};
use crate::prompts;
use crate::source::EvidenceSource;
use crate::state::{Awaiting, Pending, Session, SessionState};
use crate::summary;
use crate::validate::{self, ValidationError};
use crate::work_order::session_concepts;

/// Context collection is tried at most this many times (the first, and one narrower retry).
pub const MAX_CONTEXT_ATTEMPTS: u32 = 2;

/// What the runtime decides with.
pub(crate) struct Ctx<'a> {
    pub policy: &'a dyn LearningPolicy,
    pub source: &'a dyn EvidenceSource,
    pub docs: &'a dyn crate::docs::DocumentationSource,
    /// Every text an event records from outside (failure messages, results, notes) goes
    /// through it first.
    pub redactor: &'a dyn dossier_evidence::Redact,
}

fn policy_error(s: &Session, e: PolicyFailure) -> RuntimeError {
    RuntimeError::new(
        ErrorCode::PolicyError,
        format!("{e}; the session is unchanged — fix the policy component, then call resume (or cancel the session)"),
    )
    .in_session(&s.id, s.state, s.pending.checkpoint())
}

/// A worker result or the agent's report that it could not produce one.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum SubmitOutcome {
    Result { result: Value },
    Failure { reason: String },
}

/// A user's input at a gate.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum Answer {
    /// Start (`accept: true`) or Skip the recommendation.
    Decision { accept: bool },
    /// Confidence per unit; units left out (or an empty map: "use a default") are `neutral`.
    Confidence {
        #[serde(default)]
        levels: BTreeMap<String, ConfidenceLevel>,
    },
    /// The lesson was read.
    Acknowledge,
    /// The chosen choice of the shown question, by its display label (`a`, `b`, … as shown).
    Choice { choice_id: String },
}

impl Answer {
    fn name(&self) -> &'static str {
        match self {
            Answer::Decision { .. } => "a decision",
            Answer::Confidence { .. } => "confidence levels",
            Answer::Acknowledge => "a lesson acknowledgement",
            Answer::Choice { .. } => "an answer",
        }
    }
}

/// The start input as recorded (task redacted).
pub(crate) fn session_started(
    policy: &dyn LearningPolicy,
    invocation: Invocation,
    locator: LocatorRecord,
    completed: bool,
    options: StartOptions,
) -> EventBody {
    EventBody::SessionStarted(SessionStarted {
        invocation,
        locator,
        completed,
        options,
        policy_version: policy.version(),
        templates: prompts::records(),
    })
}

fn evidence_request(started: &SessionStarted, level: Level) -> EvidenceRequest {
    let o = &started.options;
    EvidenceRequest {
        locator: ImplementationLocator {
            repo: started.locator.repo.clone().into(),
            changes: started.locator.changes.clone(),
            task: started.locator.task.clone(),
            located: started.locator.located.clone(),
        },
        max_level: level,
        budget: o.evidence_budget.clone(),
        limits: Limits::default(),
        privacy: o.privacy.clone(),
        slice: if level == Level::Slice { o.slice.clone() } else { None },
        git_program: None,
    }
}

/// One rung lower on the ladder, if there is one.
fn narrower(level: Level) -> Option<Level> {
    match level {
        Level::Slice => Some(Level::Search),
        Level::Search => Some(Level::Excerpts),
        Level::Excerpts => Some(Level::Metadata),
        Level::Metadata => None,
    }
}

fn started(s: &Session) -> &SessionStarted {
    s.started.as_ref().expect("a session past idle has its start record")
}

/// The policy's view of the learner.
pub(crate) fn learner_state(s: &Session) -> l::LearnerState {
    l::LearnerState {
        plan: policy::core_plan(s.plan.as_ref().expect("a plan exists once teaching starts")),
        confidences: s
            .confidences
            .iter()
            .map(|(u, c)| l::UnitConfidence { unit_id: u.clone(), level: policy::core_confidence(*c) })
            .collect(),
        taught: s.taught.clone(),
        answers: s
            .answers
            .iter()
            .map(|a| l::AnswerRecord {
                unit_id: a.unit_id.clone(),
                question_id: a.question_id.clone(),
                intent: policy::core_intent(a.intent),
                difficulty: a.difficulty,
                correct: a.correct,
                misconceptions: a.evaluation.diagnosed_misconceptions.clone(),
            })
            .collect(),
        elapsed_minutes: s.elapsed_minutes,
        budget_minutes: started(s).options.max_minutes,
    }
}

fn next_move(ctx: &Ctx<'_>, s: &Session, state: &l::LearnerState) -> Result<MoveRecord> {
    ctx.policy.next_move(state).map(|m| policy::move_record(&m)).map_err(|e| policy_error(s, e))
}

fn lesson_started(
    s: &Session,
    kind: LessonKind,
    request: LessonRequestRecord,
    follow_up: Option<QuestionRequestRecord>,
) -> EventBody {
    EventBody::LessonStarted(LessonStarted {
        work_order_id: format!("wo-{}", s.last_sequence + 1),
        kind,
        request,
        follow_up,
    })
}

fn question_requested(s: &Session, request: QuestionRequestRecord, kind: MoveKind) -> EventBody {
    EventBody::QuestionRequested(QuestionRequested { question_id: format!("q-{}", s.last_sequence + 1), request, kind })
}

fn not_a_move(s: &Session, m: &MoveRecord, when: &str) -> RuntimeError {
    policy_error(s, PolicyFailure::Failed(format!("the policy answered {:?} {when}", m.kind())))
}

/// The opportunity from the pack's derived signals and, unless degraded, the agent's result.
fn opportunity(ctx: &Ctx<'_>, s: &Session, degraded: bool) -> Result<OpportunityDetected> {
    let pack = s.pack.as_ref().expect("a pack exists once context is ready");
    let derived = derive::derive_signals(pack);
    let (disputed, agent, excluded) = match (&s.extraction, degraded) {
        (Some(x), false) => (x.disputed.clone(), x.signals.clone(), x.excluded.clone()),
        _ => (Vec::new(), Vec::new(), Vec::new()),
    };
    let mut signals: Vec<l::Signal> = derived
        .iter()
        .filter(|d| !disputed.iter().any(|x| x.signal_id == d.id))
        .map(|d| l::Signal {
            kind: policy::core_signal_kind(d.kind),
            concept: d.concept.clone(),
            reason: d.reason.clone(),
            evidence: d.evidence.iter().map(policy::core_ref).collect(),
        })
        .collect();
    signals.extend(agent.iter().map(policy::core_signal));
    let inspectable = derive::inspectable(pack);
    let input = l::OpportunityInput {
        completed: started(s).completed,
        inspectable,
        signals,
        excluded: excluded.iter().copied().map(policy::core_exclusion).collect(),
    };
    let mut o = ctx.policy.score_opportunity(&input).map_err(|e| policy_error(s, e))?;
    // Never teach from nothing: with no citable evidence — or, for a degraded plan, no signal
    // grounded in an excerpt — the opportunity is `skip`, whatever the signals score.
    let ungrounded = derive::evidence_shortfall(pack).or_else(|| {
        (degraded && !derived.iter().any(|d| !d.evidence.is_empty()))
            .then(|| "no derived signal is grounded in an excerpt of the pack".to_string())
    });
    if let Some(why) = ungrounded {
        o.recommendation = l::Recommendation::Skip;
        o.reasons.insert(0, format!("no qualifying evidence: {why}"));
    }
    let names = |v: &[l::SignalKind]| v.iter().map(|k| k.name().replace('-', "_")).collect::<Vec<_>>();
    Ok(OpportunityDetected {
        recommendation: o.recommendation.name().to_string(),
        score: o.score,
        confidence: o.confidence,
        estimated_minutes: o.estimated_minutes,
        matched_strong: names(&o.matched_strong),
        matched_moderate: names(&o.matched_moderate),
        excluded: o.excluded.iter().map(|e| e.name().replace('-', "_")).collect(),
        reasons: o.reasons,
        fingerprint: o.fingerprint,
        derived_signals: derived,
        disputed,
        agent_signals: agent.len() as u32,
        inspectable,
        degraded,
    })
}

/// The runtime's own next event, when the session waits for the runtime.
pub(crate) fn hop(ctx: &Ctx<'_>, s: &Session) -> Result<EventBody> {
    let seq = s.last_sequence + 1;
    Ok(match &s.pending {
        Pending::ContextRequest => EventBody::ContextRequested(ContextRequested {
            attempt: 1,
            request: evidence_request(started(s), started(s).options.max_level),
        }),
        Pending::RecoveryAttempt { strategy: RecoveryStrategy::NarrowerSource, .. } => {
            let previous = s.context_request.as_ref().map_or(Level::Search, |r| r.max_level);
            let level = narrower(previous).unwrap_or(Level::Metadata);
            EventBody::ContextRequested(ContextRequested {
                attempt: s.context_attempts + 1,
                request: evidence_request(started(s), level),
            })
        }
        Pending::Collect => {
            let request = s.context_request.as_ref().expect("a collection follows its request");
            match ctx.source.collect(request) {
                Ok(pack) => EventBody::ContextReady(ContextReady { pack }),
                Err(f) => EventBody::OperationFailed(OperationFailed {
                    cause: RecoveryCause::UnavailableSource,
                    code: f.code,
                    message: validate::redact_str(ctx.redactor, &f.message)?,
                    errors: Vec::new(),
                    checkpoint: None,
                    attempt: s.context_attempts,
                    result_hash: None,
                    retryable: f.retryable,
                }),
            }
        }
        Pending::ContextDegradedNote => {
            let pack = s.pack.as_ref().expect("a pack is in");
            let mut details = derive::pack_degradation(pack).unwrap_or_default();
            let cause = match derive::evidence_shortfall(pack) {
                Some(shortfall) => {
                    details.insert(0, format!("no qualifying evidence: {shortfall}"));
                    details.extend(derive::evidence_help());
                    RecoveryCause::InsufficientEvidence
                }
                None => RecoveryCause::BudgetExhausted,
            };
            EventBody::ContextDegraded(ContextDegraded { cause, details, level_reached: pack.level_reached })
        }
        Pending::RecoveryStart { cause } => {
            let strategy = match s.state {
                SessionState::CollectingContext => {
                    let retryable = s.failures.last().is_some_and(|f| f.retryable);
                    let level = s.context_request.as_ref().map_or(Level::Search, |r| r.max_level);
                    if retryable && s.context_attempts < MAX_CONTEXT_ATTEMPTS && narrower(level).is_some() {
                        RecoveryStrategy::NarrowerSource
                    } else {
                        RecoveryStrategy::None
                    }
                }
                _ => {
                    let pack = s.pack.as_ref().expect("analysis has a pack");
                    if derive::derive_signals(pack).is_empty() {
                        RecoveryStrategy::None
                    } else {
                        RecoveryStrategy::DegradedPlan
                    }
                }
            };
            EventBody::RecoveryStarted(RecoveryStarted { cause: *cause, strategy })
        }
        Pending::RecoveryAttempt { strategy: RecoveryStrategy::DegradedPlan, .. } => {
            EventBody::OpportunityDetected(opportunity(ctx, s, true)?)
        }
        Pending::Opportunity { degraded } => EventBody::OpportunityDetected(opportunity(ctx, s, *degraded)?),
        Pending::RecoveryAttempt { cause, strategy: RecoveryStrategy::None } => {
            let message = match cause {
                RecoveryCause::UnavailableSource => {
                    let last = s.failures.iter().rev().find(|f| f.checkpoint.is_none());
                    format!(
                        "the implementation's evidence could not be collected ({}); check the repository path and \
                         revisions, then start a new session",
                        last.map_or("unknown", |f| f.code.as_str())
                    )
                }
                _ => format!(
                    "concept extraction failed {} times ({}) and no signal could be derived from the evidence for a \
                     degraded plan; start a new session",
                    crate::state::MAX_EXTRACTION_FAILURES,
                    cause.as_str()
                ),
            };
            EventBody::SessionFailed(SessionFailed { cause: *cause, message })
        }
        Pending::Plan { degraded } => {
            // A concept without evidence cannot be taught (every lesson must cite the pack): it
            // is omitted visibly rather than planned into a loop of rejected lessons. With no
            // qualifying evidence at all, nothing is planned.
            let (concepts, ungrounded): (Vec<_>, Vec<_>) = session_concepts(s).into_iter().partition(|c| {
                !c.evidence.is_empty() && s.pack.as_ref().is_some_and(|p| derive::evidence_shortfall(p).is_none())
            });
            let core: Vec<l::Concept> = concepts.iter().map(policy::core_concept).collect();
            let budget = started(s).options.max_minutes;
            let p = ctx.policy.plan(&core, budget).map_err(|e| policy_error(s, e))?;
            let mut plan = policy::plan_contract(&p, budget, *degraded);
            plan.omitted.extend(ungrounded.into_iter().map(|c| crate::contract::Omission {
                concept_id: c.id,
                kind: crate::contract::OmissionKind::NoEvidence,
                reason: "no excerpt of the evidence pack supports it, so no lesson could cite it".to_string(),
            }));
            EventBody::PlanCreated(PlanCreated { plan })
        }
        Pending::RecoveryDone { cause, strategy } => {
            EventBody::RecoverySucceeded(RecoverySucceeded { cause: *cause, strategy: *strategy })
        }
        Pending::Present => {
            let o = s.opportunity.as_ref().expect("the opportunity precedes the recommendation");
            let plan = s.plan.as_ref().expect("the plan precedes the recommendation");
            EventBody::LearningRecommendationPresented(RecommendationPresented {
                checkpoint: format!("gate-{seq}"),
                recommendation: o.recommendation.clone(),
                teachable: !plan.units.is_empty(),
                degraded: plan.degraded,
                estimated_minutes: Some(plan.estimated_minutes),
            })
        }
        Pending::DeclineCancel => EventBody::SessionCancelled(SessionCancelled {
            reason: CancelReason::UserDeclined,
            note: None,
            from: s.state,
        }),
        Pending::NextMove => match next_move(ctx, s, &learner_state(s))? {
            MoveRecord::Teach { lesson } => lesson_started(s, LessonKind::Lesson, lesson, None),
            MoveRecord::Ask { question } => question_requested(s, question, MoveKind::Ask),
            other => return Err(not_a_move(s, &other, "after the confidence gate (expected teach or ask)")),
        },
        Pending::FollowUp { follow_up: Some(q) } => question_requested(s, q.clone(), MoveKind::Reinforce),
        Pending::FollowUp { follow_up: None } => match next_move(ctx, s, &learner_state(s))? {
            MoveRecord::Ask { question } => question_requested(s, question, MoveKind::Ask),
            MoveRecord::Deepen { question } => question_requested(s, question, MoveKind::Deepen),
            MoveRecord::Retry { question } => question_requested(s, question, MoveKind::Retry),
            other => return Err(not_a_move(s, &other, "right after a lesson (expected a question)")),
        },
        Pending::Move { next } => match next.clone() {
            MoveRecord::Teach { lesson } => lesson_started(s, LessonKind::Lesson, lesson, None),
            MoveRecord::Reinforce { unit_id, misconceptions, question } => lesson_started(
                s,
                LessonKind::Reinforcement,
                LessonRequestRecord {
                    unit_id,
                    depth: LessonDepth::Standard,
                    focus: misconceptions,
                    reason: question.reason.clone(),
                },
                Some(question),
            ),
            MoveRecord::Ask { question } => question_requested(s, question, MoveKind::Ask),
            MoveRecord::Deepen { question } => question_requested(s, question, MoveKind::Deepen),
            MoveRecord::Retry { question } => question_requested(s, question, MoveKind::Retry),
            MoveRecord::Finish { end } => EventBody::QuizCompleted(QuizCompleted { end }),
        },
        Pending::Documentation { work_order_id, request, .. } => {
            // Redacted here, by the runtime, before it is hashed and recorded (the source may be
            // any provider).
            let r =
                crate::docs::redact(ctx.redactor, ctx.docs.resolve(&crate::docs::request_for(s, &request.unit_id)))?;
            EventBody::DocumentationResolved(crate::docs::event(work_order_id, &request.unit_id, r))
        }
        Pending::Summary => {
            let end = s.end.as_ref().expect("the quiz completed");
            EventBody::SummaryReady(SummaryReady { summary: summary::build(s, end) })
        }
        Pending::Finish => EventBody::SessionFinished(SessionFinished {
            reason: s.end.as_ref().map_or_else(String::new, |e| e.reason.clone()),
        }),
        other => {
            return Err(RuntimeError::new(
                ErrorCode::IllegalTransition,
                format!("the session waits for {:?}, not for the runtime", other.awaiting()),
            )
            .in_session(&s.id, s.state, other.checkpoint()));
        }
    })
}

/// Checks common to submit and answer: the session is live, waits for `who`, and `checkpoint`
/// is the pending one.
fn expect_gate(s: &Session, who: Awaiting, checkpoint: &str, what: &str) -> Result<()> {
    if s.state.is_terminal() {
        return Err(RuntimeError::new(
            ErrorCode::SessionEnded,
            format!(
                "the session has ended ({}): it takes no more results or answers; `show` gives its {} (and `start` \
                 begins a new session)",
                s.state,
                if s.state == SessionState::Completed { "summary" } else { "outcome" }
            ),
        )
        .in_session(&s.id, s.state, None));
    }
    let pending = s.pending.awaiting();
    if pending != who {
        let waits = match pending {
            Awaiting::Agent => "a worker result from the agent",
            Awaiting::User => "the user",
            Awaiting::Runtime => "the runtime to finish an interrupted step (call resume)",
            Awaiting::Nobody => "nothing",
        };
        return Err(RuntimeError::new(
            ErrorCode::IllegalTransition,
            format!("{what} is not accepted now: the session is {} and waits for {waits}; call resume to see the current step", s.state),
        )
        .in_session(&s.id, s.state, s.pending.checkpoint()));
    }
    let current = s.pending.checkpoint().unwrap_or_default();
    if current != checkpoint {
        return Err(RuntimeError::new(
            ErrorCode::StaleOperation,
            format!(
                "checkpoint `{checkpoint}` is not pending (the session moved on to `{current}`); call resume and act on \
                 the current step"
            ),
        )
        .in_session(&s.id, s.state, Some(current)));
    }
    Ok(())
}

/// The event for a worker result (or the rejection of it).
pub(crate) fn submit(ctx: &Ctx<'_>, s: &Session, checkpoint: &str, outcome: &SubmitOutcome) -> Result<EventBody> {
    expect_gate(s, Awaiting::Agent, checkpoint, "a worker result")?;
    let attempt = s.rejections.get(checkpoint).copied().unwrap_or(0) + 1;
    let mut value = match outcome {
        SubmitOutcome::Failure { reason } => {
            return Ok(EventBody::OperationFailed(OperationFailed {
                cause: RecoveryCause::LlmFailure,
                code: "llm_failure".into(),
                message: validate::redact_str(ctx.redactor, reason)?,
                errors: Vec::new(),
                checkpoint: Some(checkpoint.to_string()),
                attempt,
                result_hash: None,
                retryable: true,
            }));
        }
        SubmitOutcome::Result { result } => result.clone(),
    };
    validate::redact_json(ctx.redactor, &mut value)?;
    let result_hash = blake3::hash(canonical_json(&value).as_bytes()).to_hex().to_string();
    let mut errors = Vec::new();
    validate::no_mastery_claim(&value, &mut errors);
    let pack = s.pack.as_ref().expect("work orders follow the pack");
    let accepted: Option<EventBody> = match &s.pending {
        Pending::Extraction { work_order_id } => {
            decode_then(value, &mut errors, |mut x: ConceptExtraction, errors| {
                let ids: Vec<String> = derive::derive_signals(pack).into_iter().map(|d| d.id).collect();
                let budget = started(s).options.max_minutes;
                let found = validate::validate_extraction(&mut x, pack, &ids, ctx.policy, budget)
                    .map_err(|e| policy_error(s, e))?;
                errors.extend(found);
                Ok(errors.is_empty().then(|| {
                    EventBody::ConceptsExtracted(ConceptsExtracted { work_order_id: work_order_id.clone(), result: x })
                }))
            })?
        }
        Pending::Lesson { work_order_id, kind, request, .. } => {
            decode_then(value, &mut errors, |mut lesson: Lesson, errors| {
                let offline = started(s).options.offline;
                let docs = s.documentation.get(work_order_id);
                errors.extend(validate::validate_lesson(&mut lesson, &request.unit_id, pack, docs, offline));
                if !errors.is_empty() {
                    return Ok(None);
                }
                let unit = s.plan.as_ref().and_then(|p| p.unit(&request.unit_id)).expect("a requested unit is planned");
                let minutes = l::lesson_minutes(unit.difficulty, policy::core_depth(request.depth));
                let ready = LessonReady { work_order_id: work_order_id.clone(), lesson, minutes };
                Ok(Some(match kind {
                    LessonKind::Lesson => EventBody::LessonReady(ready),
                    LessonKind::Reinforcement => EventBody::ReinforcementReady(ready),
                }))
            })?
        }
        Pending::Question { question_id, request, .. } => {
            decode_then(value, &mut errors, |mut q: Question, errors| {
                let (found, warnings) = validate::validate_question(&mut q, question_id, request, pack, ctx.policy)
                    .map_err(|e| policy_error(s, e))?;
                errors.extend(found);
                let earlier: Vec<&Question> =
                    s.questions.iter().filter(|x| x.request.unit_id == request.unit_id).map(|x| &x.question).collect();
                errors.extend(validate::repeated_question(&q, &earlier));
                if !errors.is_empty() {
                    return Ok(None);
                }
                present(ctx, s, question_id, q, warnings).map(Some)
            })?
        }
        Pending::Evaluation { work_order_id, question_id, choice_id, correct } => {
            decode_then(value, &mut errors, |e: EvaluationResult, errors| {
                errors.extend(validate::validate_evaluation(&e, question_id, *correct));
                if !errors.is_empty() {
                    return Ok(None);
                }
                evaluated(ctx, s, work_order_id, question_id, choice_id, *correct, e).map(Some)
            })?
        }
        _ => unreachable!("expect_gate checked that the agent is awaited"),
    };
    match accepted {
        Some(body) if errors.is_empty() => Ok(body),
        _ => Ok(EventBody::OperationFailed(OperationFailed {
            cause: RecoveryCause::InvalidWorkerResult,
            code: "invalid_worker_result".into(),
            message: format!(
                "the result was rejected with {} error(s); fix them and submit again with a new operation id",
                errors.len()
            ),
            errors,
            checkpoint: Some(checkpoint.to_string()),
            attempt,
            result_hash: Some(result_hash),
            retryable: true,
        })),
    }
}

/// Decode `value` as `T` and run `then` on it; schema errors go to `errors` and give `None`, as
/// does `then` when it finds errors.
fn decode_then<T: serde::de::DeserializeOwned>(
    value: Value,
    errors: &mut Vec<ValidationError>,
    then: impl FnOnce(T, &mut Vec<ValidationError>) -> Result<Option<EventBody>>,
) -> Result<Option<EventBody>> {
    match validate::decode::<T>(value) {
        Ok(t) => then(t, errors),
        Err(e) => {
            errors.extend(e);
            Ok(None)
        }
    }
}

/// Shuffle a valid question's choices with the policy and present it, with the policy's
/// item-quality warnings.
fn present(
    ctx: &Ctx<'_>,
    s: &Session,
    question_id: &str,
    q: Question,
    item_warnings: Vec<ItemWarning>,
) -> Result<EventBody> {
    let correct_index = q.choices.iter().position(|c| c.id == q.correct_choice_id).expect("checked by check_item");
    let previous: Vec<u32> = s.questions.iter().map(|x| x.correct_position).collect();
    let seed = format!("{}/{question_id}", s.id);
    let order =
        ctx.policy.shuffle_order(&seed, q.choices.len(), correct_index, &previous).map_err(|e| policy_error(s, e))?;
    let mut sorted = order.clone();
    sorted.sort_unstable();
    if sorted != (0..q.choices.len()).collect::<Vec<_>>() {
        return Err(policy_error(
            s,
            PolicyFailure::Failed(format!("shuffle_order returned {order:?}, not a permutation")),
        ));
    }
    let correct_position = order.iter().position(|&i| i == correct_index).expect("a permutation") as u32;
    Ok(EventBody::QuestionPresented(QuestionPresented {
        question_id: question_id.to_string(),
        display_order: order.iter().map(|&i| q.choices[i].id.clone()).collect(),
        correct_position,
        question: q,
        item_warnings,
    }))
}

/// Record an evaluation with the policy's next move.
fn evaluated(
    ctx: &Ctx<'_>,
    s: &Session,
    work_order_id: &str,
    question_id: &str,
    choice_id: &str,
    correct: bool,
    e: EvaluationResult,
) -> Result<EventBody> {
    let q = s.question(question_id).expect("an evaluated question was shown");
    let elapsed = s.elapsed_minutes + s.uncharged_minutes + l::CHECK_MINUTES;
    let mut state = learner_state(s);
    state.answers.push(l::AnswerRecord {
        unit_id: q.request.unit_id.clone(),
        question_id: question_id.to_string(),
        intent: policy::core_intent(q.request.intent),
        difficulty: q.request.difficulty,
        correct,
        misconceptions: e.diagnosed_misconceptions.clone(),
    });
    state.elapsed_minutes = elapsed;
    let next = next_move(ctx, s, &state)?;
    Ok(EventBody::AnswerEvaluated(AnswerEvaluated {
        work_order_id: work_order_id.to_string(),
        evaluation: Evaluation {
            question_id: question_id.to_string(),
            unit_id: q.request.unit_id.clone(),
            choice_id: choice_id.to_string(),
            correct,
            diagnosed_misconceptions: e.diagnosed_misconceptions,
            action: next.action(&q.request.unit_id),
            rationale: e.rationale,
            feedback: e.feedback,
        },
        next,
        elapsed_minutes: elapsed,
    }))
}

/// The event for a user's answer at a gate.
pub(crate) fn answer(s: &Session, checkpoint: &str, answer: &Answer) -> Result<EventBody> {
    expect_gate(s, Awaiting::User, checkpoint, answer.name())?;
    let wrong_gate = || {
        RuntimeError::new(
            ErrorCode::IllegalTransition,
            format!("{} does not answer this step; call resume to see what the session waits for", answer.name()),
        )
        .in_session(&s.id, s.state, s.pending.checkpoint())
    };
    Ok(match (answer, &s.pending) {
        (Answer::Decision { accept }, Pending::Decision { checkpoint }) => {
            if *accept && s.plan.as_ref().is_none_or(|p| p.units.is_empty()) {
                return Err(RuntimeError::new(
                    ErrorCode::NothingToTeach,
                    "the plan has no units (nothing in this change is worth a session, or the time budget is too \
                     small); decline the recommendation",
                )
                .in_session(&s.id, s.state, Some(checkpoint)));
            }
            EventBody::DecisionRecorded(DecisionRecorded { checkpoint: checkpoint.clone(), accept: *accept })
        }
        (Answer::Confidence { levels }, Pending::Confidence { checkpoint }) => {
            let plan = s.plan.as_ref().expect("a plan exists at the confidence gate");
            if let Some(unknown) = levels.keys().find(|u| plan.unit(u).is_none()) {
                return Err(RuntimeError::invalid_request(format!(
                    "`{unknown}` is not a unit of the plan ({})",
                    plan.units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>().join(", ")
                ))
                .in_session(&s.id, s.state, Some(checkpoint)));
            }
            EventBody::ConfidenceRecorded(ConfidenceRecorded {
                checkpoint: checkpoint.clone(),
                levels: plan
                    .units
                    .iter()
                    .map(|u| (u.id.clone(), levels.get(&u.id).copied().unwrap_or_default()))
                    .collect(),
                used_default: levels.is_empty(),
            })
        }
        (Answer::Acknowledge, Pending::LessonShown { work_order_id, .. }) => {
            EventBody::LessonAcknowledged(LessonAcknowledged { work_order_id: work_order_id.clone() })
        }
        (Answer::Choice { choice_id: label }, Pending::QuestionShown { question_id }) => {
            // The user answers with a display label; it maps back to the agent's id.
            let q = s.question(question_id).expect("a shown question is recorded");
            let labels: Vec<String> = (0..q.display_order.len()).map(crate::step::display_label).collect();
            let Some(position) = labels.iter().position(|l| l == label.trim()) else {
                return Err(RuntimeError::invalid_request(format!(
                    "`{label}` is not a choice of this question: answer with one of its display labels ({})",
                    labels.join(", ")
                ))
                .in_session(&s.id, s.state, Some(question_id)));
            };
            let choice_id = q.display_order[position].clone();
            EventBody::QuestionAnswered(QuestionAnswered {
                question_id: question_id.clone(),
                correct: choice_id == q.question.correct_choice_id,
                choice_id,
                display_label: Some(labels[position].clone()),
            })
        }
        _ => return Err(wrong_gate()),
    })
}

/// The event for a cancel.
pub(crate) fn cancel(
    redactor: &dyn dossier_evidence::Redact,
    s: &Session,
    reason: CancelReason,
    note: Option<&str>,
) -> Result<EventBody> {
    if s.state.is_terminal() {
        return Err(RuntimeError::new(
            ErrorCode::SessionEnded,
            format!("the session is already {}; there is nothing to cancel", s.state),
        )
        .in_session(&s.id, s.state, None));
    }
    let note = note.map(|n| validate::redact_str(redactor, n)).transpose()?;
    Ok(EventBody::SessionCancelled(SessionCancelled { reason, note, from: s.state }))
}

/// Who an event is attributed to.
pub(crate) fn actor(body: &EventBody, caller: Actor) -> Actor {
    match body {
        EventBody::SessionStarted(_) | EventBody::SessionCancelled(_) => caller,
        EventBody::DecisionRecorded(_)
        | EventBody::ConfidenceRecorded(_)
        | EventBody::LessonAcknowledged(_)
        | EventBody::QuestionAnswered(_) => Actor::User,
        EventBody::ConceptsExtracted(_)
        | EventBody::LessonReady(_)
        | EventBody::ReinforcementReady(_)
        | EventBody::QuestionPresented(_)
        | EventBody::AnswerEvaluated(_) => Actor::Agent,
        EventBody::OperationFailed(f) if f.checkpoint.is_some() => Actor::Agent,
        _ => Actor::Runtime,
    }
}

/// The work order, question or gate an event belongs to, else the session.
pub(crate) fn correlation(s: &Session, body: &EventBody) -> String {
    let id = match body {
        EventBody::ConceptsExtracted(c) => Some(c.work_order_id.clone()),
        EventBody::LearningRecommendationPresented(r) => Some(r.checkpoint.clone()),
        EventBody::DecisionRecorded(d) => Some(d.checkpoint.clone()),
        EventBody::ConfidenceRecorded(c) => Some(c.checkpoint.clone()),
        EventBody::LessonStarted(l) => Some(l.work_order_id.clone()),
        EventBody::LessonReady(r) | EventBody::ReinforcementReady(r) => Some(r.work_order_id.clone()),
        EventBody::LessonAcknowledged(a) => Some(a.work_order_id.clone()),
        EventBody::QuestionRequested(q) => Some(q.question_id.clone()),
        EventBody::QuestionPresented(p) => Some(p.question_id.clone()),
        EventBody::QuestionAnswered(a) => Some(a.question_id.clone()),
        EventBody::AnswerEvaluated(a) => Some(a.work_order_id.clone()),
        EventBody::OperationFailed(f) => f.checkpoint.clone(),
        _ => None,
    };
    id.unwrap_or_else(|| s.id.clone())
}

/// JSON with object keys sorted at every level: a stable input for hashing.
pub fn canonical_json(v: &Value) -> String {
    fn write(v: &Value, out: &mut String) {
        match v {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String((*k).clone()).to_string());
                    out.push(':');
                    write(&map[k.as_str()], out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(v, &mut out);
    out
}
