//! The session state machine (ARCHITECTURE §6) and its reducer: the one function that changes a
//! session. [`Session::apply`] takes an event, checks that it may happen now — the right session,
//! the next sequence number, a legal `(state, event)` pair in [`TRANSITIONS`] (the table is in
//! `transitions.rs`), and the guards on its payload (the work order or question it answers is
//! the one pending) — and only then folds it in. A rejected event changes nothing.
//!
//! Besides the §6 state, a session tracks what it is waiting for ([`Pending`]): an agent's worker
//! result, a user's decision/confidence/acknowledgement/answer, or a step of the runtime's own
//! (which only a crash can leave pending; `resume` completes it). Every event fully determines
//! the next pending item, so a log cut after any event resumes into the same decisions.
//!
//! Not for: deciding what happens next (`runtime/`), I/O, or calling the policy. The reducer is
//! plain bookkeeping over recorded facts.

use std::collections::{BTreeMap, BTreeSet};

use dossier_evidence::EvidencePack;
use serde::{Deserialize, Serialize};

pub use crate::contract::SessionState;
use crate::contract::{
    ConceptExtraction, ConfidenceLevel, Evaluation, LearningPlan, Lesson, MoveKind, Question, QuestionIntent, Summary,
};
use crate::event::{
    CancelReason, Event, EventBody, EventKind, LessonKind, LessonRequestRecord, MoveRecord, OpportunityDetected,
    QuestionRequestRecord, RecoveryCause, RecoveryStrategy, SessionEndRecord, SessionStarted,
};

mod transitions;

pub use transitions::{TRANSITIONS, Target, transition};

/// Concept extraction rejected this many times moves the session to `recovering`.
pub const MAX_EXTRACTION_FAILURES: u32 = 3;

/// What the session waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "pending", rename_all = "snake_case")]
pub enum Pending {
    /// Nothing yet (`idle`) or nothing ever again (terminal).
    None,
    // --- the runtime's own steps (pending only after a crash) ---
    ContextRequest,
    Collect,
    ContextDegradedNote,
    RecoveryStart {
        cause: RecoveryCause,
    },
    RecoveryAttempt {
        cause: RecoveryCause,
        strategy: RecoveryStrategy,
    },
    RecoveryDone {
        cause: RecoveryCause,
        strategy: RecoveryStrategy,
    },
    Opportunity {
        degraded: bool,
    },
    Plan {
        degraded: bool,
    },
    Present,
    DeclineCancel,
    NextMove,
    FollowUp {
        follow_up: Option<QuestionRequestRecord>,
    },
    Move {
        next: MoveRecord,
    },
    Summary,
    Finish,
    /// Resolve documentation for the lesson `LESSON_STARTED` asked for (then its work order).
    Documentation {
        work_order_id: String,
        kind: LessonKind,
        request: LessonRequestRecord,
        follow_up: Option<QuestionRequestRecord>,
    },
    // --- the agent ---
    Extraction {
        work_order_id: String,
    },
    Lesson {
        work_order_id: String,
        kind: LessonKind,
        request: LessonRequestRecord,
        follow_up: Option<QuestionRequestRecord>,
    },
    Question {
        question_id: String,
        request: QuestionRequestRecord,
        kind: MoveKind,
    },
    Evaluation {
        work_order_id: String,
        question_id: String,
        choice_id: String,
        correct: bool,
    },
    // --- the user ---
    Decision {
        checkpoint: String,
    },
    Confidence {
        checkpoint: String,
    },
    LessonShown {
        work_order_id: String,
        follow_up: Option<QuestionRequestRecord>,
    },
    QuestionShown {
        question_id: String,
    },
}

/// Who must act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaiting {
    Runtime,
    Agent,
    User,
    Nobody,
}

impl Pending {
    pub fn awaiting(&self) -> Awaiting {
        match self {
            Pending::None => Awaiting::Nobody,
            Pending::Extraction { .. }
            | Pending::Lesson { .. }
            | Pending::Question { .. }
            | Pending::Evaluation { .. } => Awaiting::Agent,
            Pending::Decision { .. }
            | Pending::Confidence { .. }
            | Pending::LessonShown { .. }
            | Pending::QuestionShown { .. } => Awaiting::User,
            _ => Awaiting::Runtime,
        }
    }

    /// The id a caller must echo to act on this item: a work order id, question id or gate id.
    pub fn checkpoint(&self) -> Option<&str> {
        match self {
            Pending::Extraction { work_order_id }
            | Pending::Lesson { work_order_id, .. }
            | Pending::Evaluation { work_order_id, .. }
            | Pending::LessonShown { work_order_id, .. } => Some(work_order_id),
            Pending::Question { question_id, .. } | Pending::QuestionShown { question_id } => Some(question_id),
            Pending::Decision { checkpoint } | Pending::Confidence { checkpoint } => Some(checkpoint),
            _ => None,
        }
    }
}

/// A lesson delivered in the session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonRecord {
    pub work_order_id: String,
    pub kind: LessonKind,
    pub request: LessonRequestRecord,
    pub lesson: Lesson,
    pub minutes: u32,
    pub acknowledged: bool,
}

/// A question shown in the session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionRecord {
    pub question_id: String,
    pub request: QuestionRequestRecord,
    pub kind: MoveKind,
    pub question: Question,
    pub display_order: Vec<String>,
    pub correct_position: u32,
}

/// An answer and its evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnswerRecord {
    pub question_id: String,
    pub unit_id: String,
    pub intent: QuestionIntent,
    pub difficulty: u8,
    pub choice_id: String,
    pub correct: bool,
    pub evaluation: Evaluation,
}

/// A failure recorded in the session (§9 `failures`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureRecord {
    pub sequence: u64,
    pub cause: RecoveryCause,
    pub code: String,
    pub checkpoint: Option<String>,
    pub errors: Vec<crate::error::ValidationError>,
    pub retryable: bool,
}

/// The events of one public call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperationRecord {
    pub first_sequence: u64,
    pub last_sequence: u64,
    pub input_hash: Option<String>,
}

/// A session: the fold of its events (§9 `Session`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub id: String,
    pub state: SessionState,
    pub pending: Pending,
    pub last_sequence: u64,
    pub created_at: Option<String>,
    pub started: Option<SessionStarted>,
    pub context_attempts: u32,
    pub context_request: Option<dossier_evidence::EvidenceRequest>,
    pub pack: Option<EvidencePack>,
    pub extraction: Option<ConceptExtraction>,
    pub opportunity: Option<OpportunityDetected>,
    pub plan: Option<LearningPlan>,
    pub accepted: Option<bool>,
    pub confidences: BTreeMap<String, ConfidenceLevel>,
    pub lessons: Vec<LessonRecord>,
    /// `DOCUMENTATION_RESOLVED` of each lesson work order, by its id.
    pub documentation: BTreeMap<String, crate::event::DocumentationResolved>,
    pub taught: Vec<String>,
    pub questions: Vec<QuestionRecord>,
    pub answers: Vec<AnswerRecord>,
    /// Modelled minutes charged so far (lessons and check-ins up to the last evaluation).
    pub elapsed_minutes: u32,
    /// Minutes of lessons delivered since the last evaluation (charged with the next answer).
    pub uncharged_minutes: u32,
    pub rejections: BTreeMap<String, u32>,
    pub failures: Vec<FailureRecord>,
    /// An unfinished recovery: its cause and strategy.
    pub recovery: Option<(RecoveryCause, RecoveryStrategy)>,
    pub end: Option<SessionEndRecord>,
    pub summary: Option<Summary>,
    pub cancelled: Option<CancelReason>,
    pub failed: Option<RecoveryCause>,
    pub operations: BTreeMap<String, OperationRecord>,
}

/// Why the reducer refused an event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReduceError {
    #[error("event for session `{got}` applied to session `{expected}`")]
    WrongSession { expected: String, got: String },
    #[error("event sequence {got} where {expected} was expected")]
    Sequence { expected: u64, got: u64 },
    #[error("contract version {0} is not supported (this runtime reads version {v})", v = crate::contract::CONTRACT_VERSION)]
    Version(u32),
    #[error("{event} is not a legal event in state `{state}`")]
    Illegal { state: SessionState, event: EventKind },
    #[error("{event} in state `{state}`: {reason}")]
    Guard { state: SessionState, event: EventKind, reason: String },
}

impl Session {
    /// A session before its first event.
    pub fn idle(id: impl Into<String>) -> Session {
        Session {
            id: id.into(),
            state: SessionState::Idle,
            pending: Pending::None,
            last_sequence: 0,
            created_at: None,
            started: None,
            context_attempts: 0,
            context_request: None,
            pack: None,
            extraction: None,
            opportunity: None,
            plan: None,
            accepted: None,
            confidences: BTreeMap::new(),
            lessons: Vec::new(),
            documentation: BTreeMap::new(),
            taught: Vec::new(),
            questions: Vec::new(),
            answers: Vec::new(),
            elapsed_minutes: 0,
            uncharged_minutes: 0,
            rejections: BTreeMap::new(),
            failures: Vec::new(),
            recovery: None,
            end: None,
            summary: None,
            cancelled: None,
            failed: None,
            operations: BTreeMap::new(),
        }
    }

    /// Fold a sequence of events from `idle`.
    pub fn from_events<'e>(id: &str, events: impl IntoIterator<Item = &'e Event>) -> Result<Session, ReduceError> {
        let mut s = Session::idle(id);
        for e in events {
            s.apply(e)?;
        }
        Ok(s)
    }

    /// The state `event` would take the session to, or why it may not happen. Changes nothing.
    pub fn check(&self, event: &Event) -> Result<SessionState, ReduceError> {
        if event.session_id != self.id {
            return Err(ReduceError::WrongSession { expected: self.id.clone(), got: event.session_id.clone() });
        }
        if event.sequence != self.last_sequence + 1 {
            return Err(ReduceError::Sequence { expected: self.last_sequence + 1, got: event.sequence });
        }
        if event.contract_version != crate::contract::CONTRACT_VERSION {
            return Err(ReduceError::Version(event.contract_version));
        }
        let kind = event.kind();
        let Some(target) = transition(self.state, kind) else {
            return Err(ReduceError::Illegal { state: self.state, event: kind });
        };
        self.guard(event)?;
        Ok(match target {
            Target::To(s) => s,
            Target::Stay => self.state,
            Target::AcceptOrStay => match &event.body {
                EventBody::DecisionRecorded(d) if d.accept => SessionState::WaitingForConfidence,
                _ => self.state,
            },
        })
    }

    fn guard_fail(&self, event: &Event, reason: impl Into<String>) -> ReduceError {
        ReduceError::Guard { state: self.state, event: event.kind(), reason: reason.into() }
    }

    /// Payload checks: the event is the one the pending item expects.
    fn guard(&self, event: &Event) -> Result<(), ReduceError> {
        let fail = |r: String| Err(self.guard_fail(event, r));
        let pending = &self.pending;
        match (&event.body, pending) {
            (EventBody::SessionStarted(_), _) => Ok(()),
            (EventBody::ContextRequested(_), Pending::ContextRequest) => Ok(()),
            (EventBody::ContextReady(_), Pending::Collect) => Ok(()),
            (EventBody::ContextDegraded(_), Pending::ContextDegradedNote) => Ok(()),
            (EventBody::OperationFailed(f), Pending::Collect) => {
                if f.checkpoint.is_some() {
                    return fail("a collection failure names no work order".into());
                }
                Ok(())
            }
            (EventBody::OperationFailed(f), p) if p.awaiting() == Awaiting::Agent => {
                if f.checkpoint.as_deref() != p.checkpoint() {
                    return fail(format!(
                        "the failure names work order {:?}, the pending one is {:?}",
                        f.checkpoint,
                        p.checkpoint()
                    ));
                }
                Ok(())
            }
            (EventBody::RecoveryStarted(r), Pending::RecoveryStart { cause }) if r.cause == *cause => Ok(()),
            (EventBody::RecoverySucceeded(r), Pending::RecoveryDone { cause, strategy })
                if r.cause == *cause && r.strategy == *strategy =>
            {
                Ok(())
            }
            (
                EventBody::ContextRequested(_),
                Pending::RecoveryAttempt { strategy: RecoveryStrategy::NarrowerSource, .. },
            ) => Ok(()),
            (
                EventBody::OpportunityDetected(o),
                Pending::RecoveryAttempt { strategy: RecoveryStrategy::DegradedPlan, .. },
            )
            | (EventBody::OpportunityDetected(o), Pending::Opportunity { .. }) => {
                let want = matches!(pending, Pending::RecoveryAttempt { .. } | Pending::Opportunity { degraded: true });
                if o.degraded != want {
                    return fail(format!("degraded is {}, expected {want}", o.degraded));
                }
                Ok(())
            }
            (EventBody::PlanCreated(p), Pending::Plan { degraded }) => {
                if p.plan.degraded != *degraded {
                    return fail(format!("plan degraded is {}, expected {degraded}", p.plan.degraded));
                }
                Ok(())
            }
            (EventBody::SessionFailed(_), Pending::RecoveryAttempt { strategy: RecoveryStrategy::None, .. }) => Ok(()),
            (EventBody::LearningRecommendationPresented(_), Pending::Present) => Ok(()),
            (EventBody::ConceptsExtracted(c), Pending::Extraction { work_order_id }) => {
                same_id(&c.work_order_id, work_order_id).map_err(|r| self.guard_fail(event, r))
            }
            (EventBody::DecisionRecorded(d), Pending::Decision { checkpoint }) => {
                same_id(&d.checkpoint, checkpoint).map_err(|r| self.guard_fail(event, r))?;
                if d.accept && self.plan.as_ref().is_none_or(|p| p.units.is_empty()) {
                    return fail("nothing to teach: the plan has no units".into());
                }
                Ok(())
            }
            (EventBody::SessionCancelled(c), Pending::DeclineCancel) if c.reason == CancelReason::UserDeclined => {
                Ok(())
            }
            (EventBody::SessionCancelled(_), _) => Ok(()),
            (EventBody::ConfidenceRecorded(c), Pending::Confidence { checkpoint }) => {
                same_id(&c.checkpoint, checkpoint).map_err(|r| self.guard_fail(event, r))?;
                let plan = self.plan.as_ref().expect("a plan exists once a decision is recorded");
                let units: BTreeSet<&str> = plan.units.iter().map(|u| u.id.as_str()).collect();
                let given: BTreeSet<&str> = c.levels.keys().map(String::as_str).collect();
                if units != given {
                    return fail("confidence levels must name every unit of the plan, and only those".into());
                }
                Ok(())
            }
            (EventBody::LessonStarted(l), Pending::NextMove | Pending::Move { .. }) => {
                self.known_unit(&l.request.unit_id).map_err(|r| self.guard_fail(event, r))?;
                if l.kind == LessonKind::Reinforcement && l.follow_up.is_none() {
                    return fail("a reinforcement carries its follow-up question".into());
                }
                Ok(())
            }
            (EventBody::DocumentationResolved(d), Pending::Documentation { work_order_id, request, .. }) => {
                same_id(&d.work_order_id, work_order_id).map_err(|x| self.guard_fail(event, x))?;
                if d.unit_id != request.unit_id {
                    return fail(format!(
                        "documentation for unit `{}`, the lesson is on `{}`",
                        d.unit_id, request.unit_id
                    ));
                }
                Ok(())
            }
            (
                EventBody::LessonReady(r) | EventBody::ReinforcementReady(r),
                Pending::Lesson { work_order_id, kind, request, .. },
            ) => {
                same_id(&r.work_order_id, work_order_id).map_err(|x| self.guard_fail(event, x))?;
                let want = if *kind == LessonKind::Reinforcement {
                    EventKind::ReinforcementReady
                } else {
                    EventKind::LessonReady
                };
                if event.kind() != want {
                    return fail(format!("a {kind:?} lesson is delivered as {want}"));
                }
                if r.lesson.unit_id != request.unit_id {
                    return fail(format!("lesson for unit `{}`, requested `{}`", r.lesson.unit_id, request.unit_id));
                }
                Ok(())
            }
            (EventBody::LessonAcknowledged(a), Pending::LessonShown { work_order_id, .. }) => {
                same_id(&a.work_order_id, work_order_id).map_err(|r| self.guard_fail(event, r))
            }
            (EventBody::QuestionRequested(q), Pending::FollowUp { .. } | Pending::NextMove | Pending::Move { .. }) => {
                self.known_unit(&q.request.unit_id).map_err(|r| self.guard_fail(event, r))?;
                if !matches!(q.kind, MoveKind::Ask | MoveKind::Deepen | MoveKind::Retry | MoveKind::Reinforce) {
                    return fail(format!("{:?} is not a question move", q.kind));
                }
                if self.questions.iter().any(|x| x.question_id == q.question_id) {
                    return fail(format!("question id `{}` was already used", q.question_id));
                }
                Ok(())
            }
            (EventBody::QuestionPresented(p), Pending::Question { question_id, request, .. }) => {
                same_id(&p.question_id, question_id).map_err(|r| self.guard_fail(event, r))?;
                if p.question.id != *question_id || p.question.unit_id != request.unit_id {
                    return fail("the question's id or unit is not the requested one".into());
                }
                let mut order = p.display_order.clone();
                order.sort();
                let mut ids: Vec<String> = p.question.choices.iter().map(|c| c.id.clone()).collect();
                ids.sort();
                if order != ids {
                    return fail("the display order is not a permutation of the choices".into());
                }
                if p.display_order.get(p.correct_position as usize) != Some(&p.question.correct_choice_id) {
                    return fail("correct_position does not point at the correct choice".into());
                }
                Ok(())
            }
            (EventBody::QuestionAnswered(a), Pending::QuestionShown { question_id }) => {
                same_id(&a.question_id, question_id).map_err(|r| self.guard_fail(event, r))?;
                let q = self.question(question_id).expect("a shown question is recorded");
                if !q.question.choices.iter().any(|c| c.id == a.choice_id) {
                    return fail(format!("`{}` is not a choice of question `{question_id}`", a.choice_id));
                }
                if a.correct != (a.choice_id == q.question.correct_choice_id) {
                    return fail("`correct` does not match the question's correct choice".into());
                }
                Ok(())
            }
            (EventBody::AnswerEvaluated(a), Pending::Evaluation { work_order_id, question_id, choice_id, correct }) => {
                same_id(&a.work_order_id, work_order_id).map_err(|r| self.guard_fail(event, r))?;
                let e = &a.evaluation;
                if e.question_id != *question_id || e.choice_id != *choice_id || e.correct != *correct {
                    return fail("the evaluation is not of the pending answer".into());
                }
                // A log from before §11's names recorded `teach` for a missed expert check, read
                // back as `advance`.
                let legacy = e.action == crate::contract::EvaluationAction::Advance
                    && matches!(a.next, MoveRecord::Teach { .. });
                if e.action != a.next.action(&e.unit_id) && !legacy {
                    return fail("the evaluation's action is not the recorded next move".into());
                }
                Ok(())
            }
            (EventBody::QuizCompleted(_), Pending::Move { next: MoveRecord::Finish { .. } }) => Ok(()),
            (EventBody::SummaryReady(_), Pending::Summary) => Ok(()),
            (EventBody::SessionFinished(_), Pending::Finish) => Ok(()),
            _ => fail(format!("not expected while the session waits for {}", pending_name(pending))),
        }
    }

    fn known_unit(&self, unit_id: &str) -> Result<(), String> {
        match &self.plan {
            Some(p) if p.unit(unit_id).is_some() => Ok(()),
            _ => Err(format!("unit `{unit_id}` is not in the plan")),
        }
    }

    pub fn question(&self, question_id: &str) -> Option<&QuestionRecord> {
        self.questions.iter().find(|q| q.question_id == question_id)
    }

    /// Apply `event`: check it, then fold it in. On error nothing changes.
    pub fn apply(&mut self, event: &Event) -> Result<(), ReduceError> {
        let next_state = self.check(event)?;
        let seq = event.sequence;
        let wo = || format!("wo-{seq}");
        match &event.body {
            EventBody::SessionStarted(s) => {
                self.created_at = Some(event.timestamp.clone());
                self.started = Some(s.clone());
                self.pending = Pending::ContextRequest;
            }
            EventBody::ContextRequested(c) => {
                self.context_attempts = c.attempt;
                self.context_request = Some(c.request.clone());
                self.pending = Pending::Collect;
            }
            EventBody::ContextReady(c) => {
                self.pack = Some(c.pack.clone());
                self.pending = if crate::derive::pack_degradation(&c.pack).is_some()
                    || crate::derive::evidence_shortfall(&c.pack).is_some()
                {
                    Pending::ContextDegradedNote
                } else {
                    self.after_context(seq)
                };
            }
            // Nothing citable: no concepts work order; the opportunity is scored (`skip`) at once.
            EventBody::ContextDegraded(d) if d.cause == RecoveryCause::InsufficientEvidence => {
                self.pending = Pending::Opportunity { degraded: false }
            }
            EventBody::ContextDegraded(_) => self.pending = self.after_context(seq),
            EventBody::OperationFailed(f) => {
                self.failures.push(FailureRecord {
                    sequence: seq,
                    cause: f.cause,
                    code: f.code.clone(),
                    checkpoint: f.checkpoint.clone(),
                    errors: f.errors.clone(),
                    retryable: f.retryable,
                });
                match &f.checkpoint {
                    None => self.pending = Pending::RecoveryStart { cause: f.cause },
                    Some(cp) => {
                        let n = self.rejections.entry(cp.clone()).or_default();
                        *n += 1;
                        if self.state == SessionState::Analyzing && *n >= MAX_EXTRACTION_FAILURES {
                            self.pending = Pending::RecoveryStart { cause: f.cause };
                        }
                    }
                }
            }
            EventBody::RecoveryStarted(r) => {
                self.recovery = Some((r.cause, r.strategy));
                self.pending = Pending::RecoveryAttempt { cause: r.cause, strategy: r.strategy };
            }
            EventBody::RecoverySucceeded(_) => {
                self.recovery = None;
                self.pending = if self.state == SessionState::Recovering {
                    Pending::Present
                } else {
                    Pending::Extraction { work_order_id: wo() }
                };
            }
            EventBody::SessionFailed(f) => {
                self.failed = Some(f.cause);
                self.pending = Pending::None;
            }
            EventBody::ConceptsExtracted(c) => {
                self.extraction = Some(c.result.clone());
                self.pending = Pending::Opportunity { degraded: false };
            }
            EventBody::OpportunityDetected(o) => {
                self.opportunity = Some(o.clone());
                self.pending = Pending::Plan { degraded: o.degraded };
            }
            EventBody::PlanCreated(p) => {
                self.plan = Some(p.plan.clone());
                self.pending = match self.recovery {
                    Some((cause, strategy)) if p.plan.degraded => Pending::RecoveryDone { cause, strategy },
                    _ => Pending::Present,
                };
            }
            EventBody::LearningRecommendationPresented(r) => {
                self.pending = Pending::Decision { checkpoint: r.checkpoint.clone() };
            }
            EventBody::DecisionRecorded(d) => {
                self.accepted = Some(d.accept);
                self.pending = if d.accept {
                    Pending::Confidence { checkpoint: format!("gate-{seq}") }
                } else {
                    Pending::DeclineCancel
                };
            }
            EventBody::ConfidenceRecorded(c) => {
                self.confidences = c.levels.clone();
                self.pending = Pending::NextMove;
            }
            EventBody::LessonStarted(l) => {
                self.pending = Pending::Documentation {
                    work_order_id: l.work_order_id.clone(),
                    kind: l.kind,
                    request: l.request.clone(),
                    follow_up: l.follow_up.clone(),
                };
            }
            EventBody::DocumentationResolved(d) => {
                let Pending::Documentation { work_order_id, kind, request, follow_up } = self.pending.clone() else {
                    unreachable!("guarded")
                };
                self.documentation.insert(d.work_order_id.clone(), d.clone());
                self.pending = Pending::Lesson { work_order_id, kind, request, follow_up };
            }
            EventBody::LessonReady(r) | EventBody::ReinforcementReady(r) => {
                let Pending::Lesson { kind, request, follow_up, .. } = &self.pending else { unreachable!("guarded") };
                self.lessons.push(LessonRecord {
                    work_order_id: r.work_order_id.clone(),
                    kind: *kind,
                    request: request.clone(),
                    lesson: r.lesson.clone(),
                    minutes: r.minutes,
                    acknowledged: false,
                });
                self.uncharged_minutes += r.minutes;
                self.pending =
                    Pending::LessonShown { work_order_id: r.work_order_id.clone(), follow_up: follow_up.clone() };
            }
            EventBody::LessonAcknowledged(a) => {
                let Pending::LessonShown { follow_up, .. } = &self.pending else { unreachable!("guarded") };
                let follow_up = follow_up.clone();
                if let Some(l) = self.lessons.iter_mut().find(|l| l.work_order_id == a.work_order_id) {
                    l.acknowledged = true;
                    if !self.taught.contains(&l.request.unit_id) {
                        self.taught.push(l.request.unit_id.clone());
                    }
                }
                self.pending = Pending::FollowUp { follow_up };
            }
            EventBody::QuestionRequested(q) => {
                self.pending =
                    Pending::Question { question_id: q.question_id.clone(), request: q.request.clone(), kind: q.kind };
            }
            EventBody::QuestionPresented(p) => {
                let Pending::Question { request, kind, .. } = &self.pending else { unreachable!("guarded") };
                self.questions.push(QuestionRecord {
                    question_id: p.question_id.clone(),
                    request: request.clone(),
                    kind: *kind,
                    question: p.question.clone(),
                    display_order: p.display_order.clone(),
                    correct_position: p.correct_position,
                });
                self.pending = Pending::QuestionShown { question_id: p.question_id.clone() };
            }
            EventBody::QuestionAnswered(a) => {
                self.pending = Pending::Evaluation {
                    work_order_id: wo(),
                    question_id: a.question_id.clone(),
                    choice_id: a.choice_id.clone(),
                    correct: a.correct,
                };
            }
            EventBody::AnswerEvaluated(a) => {
                let q = self.question(&a.evaluation.question_id).expect("guarded").clone();
                self.answers.push(AnswerRecord {
                    question_id: q.question_id.clone(),
                    unit_id: q.request.unit_id.clone(),
                    intent: q.request.intent,
                    difficulty: q.request.difficulty,
                    choice_id: a.evaluation.choice_id.clone(),
                    correct: a.evaluation.correct,
                    evaluation: a.evaluation.clone(),
                });
                self.elapsed_minutes = a.elapsed_minutes;
                self.uncharged_minutes = 0;
                self.pending = Pending::Move { next: a.next.clone() };
            }
            EventBody::QuizCompleted(q) => {
                self.end = Some(q.end.clone());
                self.pending = Pending::Summary;
            }
            EventBody::SummaryReady(s) => {
                self.summary = Some(s.summary.clone());
                self.pending = Pending::Finish;
            }
            EventBody::SessionFinished(_) => self.pending = Pending::None,
            EventBody::SessionCancelled(c) => {
                self.cancelled = Some(c.reason);
                self.pending = Pending::None;
            }
        }
        self.state = next_state;
        self.last_sequence = seq;
        let op = self.operations.entry(event.operation_id.clone()).or_insert(OperationRecord {
            first_sequence: seq,
            last_sequence: seq,
            input_hash: event.input_hash.clone(),
        });
        op.last_sequence = seq;
        Ok(())
    }

    /// After the pack is in (and its degradation noted): finish a context recovery, or ask the
    /// agent for concepts.
    fn after_context(&self, seq: u64) -> Pending {
        match self.recovery {
            Some((cause, strategy)) => Pending::RecoveryDone { cause, strategy },
            None => Pending::Extraction { work_order_id: format!("wo-{seq}") },
        }
    }
}

fn same_id(got: &str, expected: &str) -> Result<(), String> {
    if got == expected { Ok(()) } else { Err(format!("names `{got}`, the pending one is `{expected}`")) }
}

fn pending_name(p: &Pending) -> &'static str {
    match p {
        Pending::None => "nothing",
        Pending::ContextRequest => "a context request",
        Pending::Collect => "evidence collection",
        Pending::ContextDegradedNote => "a note on degraded context",
        Pending::RecoveryStart { .. } => "the start of a recovery",
        Pending::RecoveryAttempt { .. } => "a recovery attempt",
        Pending::RecoveryDone { .. } => "the end of a recovery",
        Pending::Opportunity { .. } => "opportunity scoring",
        Pending::Plan { .. } => "planning",
        Pending::Present => "the recommendation",
        Pending::DeclineCancel => "the cancel that follows a decline",
        Pending::NextMove | Pending::Move { .. } | Pending::FollowUp { .. } => "the next move",
        Pending::Summary => "the summary",
        Pending::Finish => "the end of the session",
        Pending::Documentation { .. } => "documentation for the lesson",
        Pending::Extraction { .. } => "the agent's concept extraction",
        Pending::Lesson { .. } => "the agent's lesson",
        Pending::Question { .. } => "the agent's question",
        Pending::Evaluation { .. } => "the agent's evaluation",
        Pending::Decision { .. } => "the user's decision",
        Pending::Confidence { .. } => "the user's confidence levels",
        Pending::LessonShown { .. } => "the user to acknowledge the lesson",
        Pending::QuestionShown { .. } => "the user's answer",
    }
}
