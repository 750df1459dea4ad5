//! What every public operation returns: a [`Step`] — the events it recorded, the session's state,
//! and what happens next ([`Next`]): a work order for the agent, a gate for the user (the Start/Skip
//! card, the confidence gate, a lesson to read, a question to answer), the summary, or the end.
//!
//! Views never carry what the user must not see yet: a [`QuestionView`] has the choices in display
//! order without the correct id or the rationales (they arrive in [`Feedback`] after the answer).
//!
//! Not for: deciding anything. Every view is a function of the session.

use serde::Serialize;

use crate::contract::{ConfidenceLevel, Lesson, Omission, QuestionIntent, Summary};
use crate::event::{CancelReason, Event, EventBody, LessonKind, RecoveryCause};
use crate::log::LogIssue;
use crate::state::{Pending, Session, SessionState};
use crate::work_order::{self, UnitBrief, WorkOrder};

/// The Start/Skip card (§10: only `recommend` is shown automatically; `optional` and `skip` leave
/// manual invocation available).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecommendationView {
    pub checkpoint: String,
    pub recommendation: String,
    pub score: f64,
    pub confidence: f64,
    pub estimated_minutes: u32,
    pub reasons: Vec<String>,
    pub units: Vec<UnitBrief>,
    pub omitted: Vec<Omission>,
    /// Units that need each other (a cycle deduplication made; the agent's own cycles are
    /// refused): taught together, so the user sees it.
    pub cycles: Vec<Vec<String>>,
    /// Accepting is possible (the plan has units).
    pub teachable: bool,
    pub degraded: bool,
    /// With no qualifying evidence: what would let a new session find some (a base revision,
    /// the task, a path), for the agent to tell the user.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub help: Vec<String>,
}

/// The confidence gate: one level per unit, or "use a default" (an empty map).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfidenceGate {
    pub checkpoint: String,
    pub units: Vec<UnitBrief>,
    pub levels: Vec<ConfidenceLevel>,
    pub default: ConfidenceLevel,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LessonView {
    pub checkpoint: String,
    /// Serialized as `lesson_kind`: `kind` is [`Next`]'s tag, and a second `kind` key would
    /// replace it (`"kind": "reinforcement"`).
    #[serde(rename = "lesson_kind")]
    pub kind: LessonKind,
    pub unit: UnitBrief,
    pub lesson: Lesson,
    /// Shown with the lesson: what documentation was resolved, and that uncited claims are the
    /// model's knowledge.
    pub documentation_note: String,
}

/// A choice as shown: `id` is its display label (`a`, `b`, … by position after the shuffle),
/// never the agent's own id, so neither the agent's ids nor its order reveal the answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceView {
    pub id: String,
    pub text: String,
}

/// The display label of position `i` (0-based): `a`, `b`, … .
pub fn display_label(i: usize) -> String {
    char::from(b'a' + (i % 26) as u8).to_string()
}

/// The display label of the agent's choice `choice_id` in a question shown in `display_order`.
pub fn label_of(display_order: &[String], choice_id: &str) -> Option<String> {
    display_order.iter().position(|c| c == choice_id).map(display_label)
}

/// A question as the user sees it: choices in display order, no answer key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuestionView {
    pub checkpoint: String,
    pub question_id: String,
    pub unit: UnitBrief,
    pub intent: QuestionIntent,
    pub prompt: String,
    pub choices: Vec<ChoiceView>,
}

/// After an answer is evaluated: what to tell the user. The choice ids are display labels, as
/// the question showed them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Feedback {
    pub question_id: String,
    pub correct: bool,
    pub chosen_choice_id: String,
    pub correct_choice_id: String,
    pub chosen_rationale: String,
    pub correct_rationale: String,
    pub feedback: String,
    pub diagnosed_misconceptions: Vec<String>,
}

/// What happens next.
// Returned once per call; boxing the views would only add noise for callers.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Next {
    /// The agent must do this and `submit` the result.
    WorkOrder(Box<WorkOrder>),
    /// Ask the user Start/Skip, then `answer` with a decision.
    Decision(RecommendationView),
    /// Ask the user's confidence per unit, then `answer` with levels.
    Confidence(ConfidenceGate),
    /// Show the lesson, then `answer` with an acknowledgement.
    Lesson(LessonView),
    /// Show the question, then `answer` with the chosen choice.
    Question(QuestionView),
    /// The session is completed.
    Summary(Box<Summary>),
    Cancelled {
        reason: CancelReason,
    },
    Failed {
        cause: RecoveryCause,
    },
    /// A runtime step was interrupted (a crash mid-operation): call `resume`.
    Interrupted {
        message: String,
    },
}

/// What `resume` did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recovered {
    /// `provider_disconnect` when an interrupted operation was found (§6's classification;
    /// recorded here, not as an event, so the log reads as if nothing had happened).
    pub cause: Option<RecoveryCause>,
    /// The operation that was interrupted and has now been completed, if any.
    pub completed_operation: Option<String>,
    /// Events appended to complete it.
    pub events_completed: usize,
    /// Lines of the log that were skipped (a torn last line after a crash).
    pub log_issues: Vec<LogIssue>,
}

/// The result of a public operation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    pub session_id: String,
    pub state: SessionState,
    pub last_sequence: u64,
    /// The events this call recorded, or — for a retried operation id — the events recorded the
    /// first time (`replayed: true`), or for `resume` those after the caller's sequence.
    pub events: Vec<Event>,
    pub replayed: bool,
    pub next: Next,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<Feedback>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovered: Option<Recovered>,
}

fn unit(s: &Session, id: &str) -> Option<UnitBrief> {
    s.plan.as_ref().and_then(|p| p.unit(id)).map(UnitBrief::from)
}

/// What the session waits for, as a view.
pub fn next(s: &Session) -> Next {
    match &s.pending {
        Pending::Extraction { .. } | Pending::Lesson { .. } | Pending::Question { .. } | Pending::Evaluation { .. } => {
            match work_order::build(s) {
                Some(w) => Next::WorkOrder(Box::new(w)),
                None => Next::Interrupted { message: "the pending work order cannot be built".into() },
            }
        }
        Pending::Decision { checkpoint } => {
            let o = s.opportunity.as_ref();
            let plan = s.plan.as_ref();
            Next::Decision(RecommendationView {
                checkpoint: checkpoint.clone(),
                recommendation: o.map_or_else(String::new, |o| o.recommendation.clone()),
                score: o.map_or(0.0, |o| o.score),
                confidence: o.map_or(0.0, |o| o.confidence),
                estimated_minutes: plan.map_or(0, |p| p.estimated_minutes),
                reasons: o.map_or_else(Vec::new, |o| o.reasons.clone()),
                units: plan.map_or_else(Vec::new, |p| p.units.iter().map(UnitBrief::from).collect()),
                omitted: plan.map_or_else(Vec::new, |p| p.omitted.clone()),
                cycles: plan.map_or_else(Vec::new, |p| p.cycles.clone()),
                teachable: plan.is_some_and(|p| !p.units.is_empty()),
                degraded: plan.is_some_and(|p| p.degraded),
                help: match s.pack.as_ref().and_then(crate::derive::evidence_shortfall) {
                    Some(_) => crate::derive::evidence_help(),
                    None => Vec::new(),
                },
            })
        }
        Pending::Confidence { checkpoint } => Next::Confidence(ConfidenceGate {
            checkpoint: checkpoint.clone(),
            units: s.plan.as_ref().map_or_else(Vec::new, |p| p.units.iter().map(UnitBrief::from).collect()),
            levels: vec![
                ConfidenceLevel::Expert,
                ConfidenceLevel::Comfortable,
                ConfidenceLevel::HeardOfIt,
                ConfidenceLevel::NeverLearned,
            ],
            default: ConfidenceLevel::Neutral,
        }),
        Pending::LessonShown { work_order_id, .. } => {
            let Some(l) = s.lessons.iter().find(|l| &l.work_order_id == work_order_id) else {
                return Next::Interrupted { message: "the shown lesson is missing".into() };
            };
            let Some(u) = unit(s, &l.request.unit_id) else {
                return Next::Interrupted { message: "the lesson's unit is missing".into() };
            };
            Next::Lesson(LessonView {
                checkpoint: work_order_id.clone(),
                kind: l.kind,
                unit: u,
                lesson: l.lesson.clone(),
                documentation_note: documentation_note(s, work_order_id),
            })
        }
        Pending::QuestionShown { question_id } => {
            let Some(q) = s.question(question_id) else {
                return Next::Interrupted { message: "the shown question is missing".into() };
            };
            let Some(u) = unit(s, &q.request.unit_id) else {
                return Next::Interrupted { message: "the question's unit is missing".into() };
            };
            Next::Question(QuestionView {
                checkpoint: question_id.clone(),
                question_id: question_id.clone(),
                unit: u,
                intent: q.question.intent,
                prompt: q.question.prompt.clone(),
                choices: q
                    .display_order
                    .iter()
                    .filter_map(|id| q.question.choices.iter().find(|c| &c.id == id))
                    .enumerate()
                    .map(|(i, c)| ChoiceView { id: display_label(i), text: c.text.clone() })
                    .collect(),
            })
        }
        Pending::None => match s.state {
            SessionState::Completed => match &s.summary {
                Some(summary) => Next::Summary(Box::new(summary.clone())),
                None => Next::Interrupted { message: "completed without a summary".into() },
            },
            SessionState::Cancelled => Next::Cancelled { reason: s.cancelled.unwrap_or(CancelReason::UserCancelled) },
            SessionState::Failed => {
                Next::Failed { cause: s.failed.unwrap_or(crate::event::RecoveryCause::UnavailableSource) }
            }
            _ => Next::Interrupted { message: "the session has not started".into() },
        },
        _ => Next::Interrupted {
            message: "an operation was interrupted before the runtime finished its step; call resume".into(),
        },
    }
}

/// Feedback for the last `ANSWER_EVALUATED` among `events`.
pub fn feedback(s: &Session, events: &[Event]) -> Option<Feedback> {
    let evaluation = events.iter().rev().find_map(|e| match &e.body {
        EventBody::AnswerEvaluated(a) => Some(&a.evaluation),
        _ => None,
    })?;
    let q = s.question(&evaluation.question_id)?;
    let rationale = |id: &str| q.question.choices.iter().find(|c| c.id == id).map(|c| c.rationale.clone());
    Some(Feedback {
        question_id: evaluation.question_id.clone(),
        correct: evaluation.correct,
        chosen_choice_id: label_of(&q.display_order, &evaluation.choice_id)
            .unwrap_or_else(|| evaluation.choice_id.clone()),
        correct_choice_id: label_of(&q.display_order, &q.question.correct_choice_id)
            .unwrap_or_else(|| q.question.correct_choice_id.clone()),
        chosen_rationale: rationale(&evaluation.choice_id).unwrap_or_default(),
        correct_rationale: rationale(&q.question.correct_choice_id).unwrap_or_default(),
        feedback: evaluation.feedback.clone(),
        diagnosed_misconceptions: evaluation.diagnosed_misconceptions.clone(),
    })
}

/// The note shown with a lesson: the resolution's status and sources, offline or not.
pub fn documentation_note(s: &Session, work_order_id: &str) -> String {
    let offline = s.started.as_ref().is_none_or(|st| st.options.offline);
    let mode =
        if offline { "offline (project-local and installed-package docs; no network)" } else { "network allowed" };
    let tail = "citations marked uncited come from the model's knowledge; claims about this code cite its evidence.";
    match s.documentation.get(work_order_id) {
        Some(d) if !d.sources.is_empty() => format!(
            "Documentation {mode}: {} source(s) resolved ({}); {tail}",
            d.sources.len(),
            d.sources.iter().map(|x| x.source_id.as_str()).collect::<Vec<_>>().join(", ")
        ),
        Some(d) => format!("Documentation {mode}: {}; {tail}", d.status.name()),
        None => format!("Documentation {mode}: none resolved; {tail}"),
    }
}
