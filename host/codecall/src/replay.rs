//! Replay (ARCHITECTURE §12): re-derive every decision of a recorded log with a policy, without a
//! model call and without the repository, and report where the result differs from the log.
//!
//! For each event, in order, from the session folded so far:
//! - a runtime decision (`actor: runtime`) is recomputed with the same code the live runtime
//!   runs; a collection is answered with the pack (or the failure) the log recorded, and a
//!   documentation step with the sources the log recorded (no provider, no network);
//! - an input (a start request, a worker result, a user answer, a cancel) is rebuilt from the
//!   event and run through the same validation and decision code, so what the runtime derives
//!   from it (filled evidence hashes, the choice shuffle, the correctness of an answer, the next
//!   move, the elapsed minutes, the policy version) is recomputed too;
//! - a rejected worker result is taken as recorded (the rejected JSON is not kept, by design).
//!
//! The recomputed event is compared with the recorded one on everything but the timestamp and
//! the input hash; then the recorded event is applied, so one divergence does not hide later
//! ones. A reducer refusal stops the session's replay (the log is corrupt from there).
//!
//! Not for: repairing logs, or re-running the agent: recorded model output is the input.

use std::collections::BTreeMap;

use dossier_evidence::{EvidencePack, EvidenceRequest};
use serde::Serialize;

use crate::contract::EvaluationResult;
use crate::decide::{self, Answer, Ctx, SubmitOutcome};
use crate::error::{Result, RuntimeError};
use crate::event::{Actor, Event, EventBody, EventKind, RecoveryCause};
use crate::log::{LogIssue, LogTarget, read_log};
use crate::policy::LearningPolicy;
use crate::source::{CollectFailure, EvidenceSource};
use crate::state::{Session, SessionState};
use dossier_evidence::Redact;

/// One difference between the log and the replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    pub sequence: u64,
    pub event: EventKind,
    /// `payload`, `type`, `actor`, `correlation_id`, or `error` (replay could not derive it).
    pub field: String,
    pub recorded: String,
    pub replayed: String,
}

/// Replay of one session.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SessionReplay {
    pub session_id: String,
    pub final_state: SessionState,
    pub events: usize,
    /// Events recomputed and compared.
    pub rederived: usize,
    /// Rejections of worker results, applied as recorded.
    pub taken_as_recorded: usize,
    pub divergences: Vec<Divergence>,
    /// The reducer refused an event: replay stopped there.
    pub error: Option<String>,
    pub recorded_policy_version: Option<String>,
}

/// Replay of a log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayReport {
    pub policy_version: String,
    pub sessions: Vec<SessionReplay>,
    pub log_issues: Vec<LogIssue>,
}

impl ReplayReport {
    /// Every decision was reproduced and every event applied.
    pub fn is_identical(&self) -> bool {
        self.sessions.iter().all(|s| s.divergences.is_empty() && s.error.is_none())
    }
}

/// Replay a file or directory log (every `*.jsonl` in a directory, by name).
pub fn replay(target: &LogTarget, policy: &dyn LearningPolicy, redactor: &dyn Redact) -> Result<ReplayReport> {
    let mut events = Vec::new();
    let mut issues = Vec::new();
    match target {
        LogTarget::Memory => {
            return Err(RuntimeError::invalid_request(
                "a memory log has no file to replay; use replay_events with the runtime's events",
            ));
        }
        LogTarget::File(path) => {
            let (e, i) = read_log(path)?;
            events = e;
            issues = i;
        }
        LogTarget::Directory(dir) => {
            let mut paths: Vec<_> = std::fs::read_dir(dir)
                .map_err(|e| RuntimeError::log("list", dir, e))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
                .collect();
            paths.sort();
            for p in paths {
                let (e, i) = read_log(&p)?;
                events.extend(e);
                issues.extend(i);
            }
        }
    }
    let mut report = replay_events(&events, policy, redactor);
    report.log_issues = issues;
    Ok(report)
}

/// Replay events (of one or more sessions, in log order).
pub fn replay_events(events: &[Event], policy: &dyn LearningPolicy, redactor: &dyn Redact) -> ReplayReport {
    let mut order: Vec<String> = Vec::new();
    let mut by_session: BTreeMap<String, Vec<&Event>> = BTreeMap::new();
    for e in events {
        if !by_session.contains_key(&e.session_id) {
            order.push(e.session_id.clone());
        }
        by_session.entry(e.session_id.clone()).or_default().push(e);
    }
    ReplayReport {
        policy_version: policy.version(),
        sessions: order.iter().map(|sid| replay_session(sid, &by_session[sid], policy, redactor)).collect(),
        log_issues: Vec::new(),
    }
}

/// Answers a collection with what the log recorded for it.
struct Recorded<'e>(&'e Event);

impl EvidenceSource for Recorded<'_> {
    fn collect(&self, _: &EvidenceRequest) -> std::result::Result<EvidencePack, CollectFailure> {
        match &self.0.body {
            EventBody::ContextReady(c) => Ok(c.pack.clone()),
            EventBody::OperationFailed(f) => {
                Err(CollectFailure { code: f.code.clone(), message: f.message.clone(), retryable: f.retryable })
            }
            other => Err(CollectFailure {
                code: "not_recorded".into(),
                message: format!("the log records {} where a collection was due", other.kind()),
                retryable: false,
            }),
        }
    }
}

/// Answers a documentation step with what the log recorded for it: replay needs no provider
/// and no network.
impl crate::docs::DocumentationSource for Recorded<'_> {
    fn resolve(&self, _: &crate::docs::DocRequest) -> crate::docs::DocResolution {
        match &self.0.body {
            EventBody::DocumentationResolved(d) => crate::docs::DocResolution {
                concepts: d.concepts.clone(),
                sources: d.sources.clone(),
                notes: d.notes.clone(),
                providers: d.providers.clone(),
                network: d.network,
            },
            other => crate::docs::DocResolution {
                concepts: Vec::new(),
                sources: Vec::new(),
                notes: vec![format!("the log records {} where documentation was due", other.kind())],
                providers: Vec::new(),
                network: false,
            },
        }
    }
}

/// What the runtime would have recorded at this point, or `None` for an input taken as recorded.
fn rederive(policy: &dyn LearningPolicy, redactor: &dyn Redact, s: &Session, e: &Event) -> Result<Option<EventBody>> {
    let source = Recorded(e);
    let ctx = Ctx { policy, source: &source, redactor, docs: &source };
    let body = match (&e.body, e.actor) {
        (EventBody::SessionStarted(st), _) => {
            let mut body =
                decide::session_started(policy, st.invocation, st.locator.clone(), st.completed, st.options.clone());
            // The templates are a recorded fact (which text the agent was given), not a decision:
            // a log written with an earlier template version replays with it.
            if let EventBody::SessionStarted(b) = &mut body {
                b.templates = st.templates.clone();
            }
            body
        }
        (EventBody::SessionCancelled(c), Actor::User | Actor::Host) => {
            decide::cancel(redactor, s, c.reason, c.note.as_deref())?
        }
        (_, Actor::Runtime) => {
            let mut body = decide::hop(&ctx, s)?;
            // A card recorded before its minutes were: compare the rest.
            if let (EventBody::LearningRecommendationPresented(b), EventBody::LearningRecommendationPresented(r)) =
                (&mut body, &e.body)
                && r.estimated_minutes.is_none()
            {
                b.estimated_minutes = None;
            }
            body
        }
        (EventBody::DecisionRecorded(d), _) => {
            decide::answer(s, &d.checkpoint, &Answer::Decision { accept: d.accept })?
        }
        (EventBody::ConfidenceRecorded(c), _) => {
            let levels = if c.used_default { BTreeMap::new() } else { c.levels.clone() };
            decide::answer(s, &c.checkpoint, &Answer::Confidence { levels })?
        }
        (EventBody::LessonAcknowledged(a), _) => decide::answer(s, &a.work_order_id, &Answer::Acknowledge)?,
        (EventBody::QuestionAnswered(a), _) => {
            // A log from before display labels recorded the agent's id only: the label is the
            // one its position had.
            let shown = s.question(&a.question_id).map(|q| q.display_order.as_slice()).unwrap_or_default();
            let label = a.display_label.clone().or_else(|| crate::step::label_of(shown, &a.choice_id));
            let mut body = decide::answer(s, &a.question_id, &Answer::Choice { choice_id: label.unwrap_or_default() })?;
            if let (EventBody::QuestionAnswered(b), None) = (&mut body, &a.display_label) {
                b.display_label = None;
            }
            body
        }
        (EventBody::ConceptsExtracted(c), _) => submit(&ctx, s, &c.work_order_id, &c.result)?,
        (EventBody::LessonReady(r) | EventBody::ReinforcementReady(r), _) => {
            submit(&ctx, s, &r.work_order_id, &r.lesson)?
        }
        (EventBody::QuestionPresented(p), _) => submit(&ctx, s, &p.question_id, &p.question)?,
        (EventBody::AnswerEvaluated(a), _) => {
            let result = EvaluationResult {
                question_id: a.evaluation.question_id.clone(),
                diagnosed_misconceptions: a.evaluation.diagnosed_misconceptions.clone(),
                rationale: a.evaluation.rationale.clone(),
                feedback: a.evaluation.feedback.clone(),
            };
            submit(&ctx, s, &a.work_order_id, &result)?
        }
        (EventBody::OperationFailed(f), _) if f.cause == RecoveryCause::LlmFailure => {
            let cp = f.checkpoint.clone().unwrap_or_default();
            decide::submit(&ctx, s, &cp, &SubmitOutcome::Failure { reason: f.message.clone() })?
        }
        (EventBody::OperationFailed(f), _) if f.cause == RecoveryCause::InvalidWorkerResult => return Ok(None),
        (other, actor) => {
            return Err(RuntimeError::invalid_request(format!(
                "{} attributed to {actor:?} is not an input replay knows",
                other.kind()
            )));
        }
    };
    Ok(Some(body))
}

fn submit<T: Serialize>(ctx: &Ctx<'_>, s: &Session, checkpoint: &str, result: &T) -> Result<EventBody> {
    let result = serde_json::to_value(result).expect("contracts serialize");
    decide::submit(ctx, s, checkpoint, &SubmitOutcome::Result { result })
}

fn replay_session(sid: &str, events: &[&Event], policy: &dyn LearningPolicy, redactor: &dyn Redact) -> SessionReplay {
    let mut s = Session::idle(sid);
    let mut out = SessionReplay {
        session_id: sid.to_string(),
        final_state: SessionState::Idle,
        events: events.len(),
        rederived: 0,
        taken_as_recorded: 0,
        divergences: Vec::new(),
        error: None,
        recorded_policy_version: None,
    };
    for e in events {
        if let EventBody::SessionStarted(st) = &e.body {
            out.recorded_policy_version = Some(st.policy_version.clone());
        }
        let diverge = |field: &str, recorded: String, replayed: String| Divergence {
            sequence: e.sequence,
            event: e.kind(),
            field: field.to_string(),
            recorded,
            replayed,
        };
        match rederive(policy, redactor, &s, e) {
            Ok(None) => out.taken_as_recorded += 1,
            Ok(Some(body)) => {
                out.rederived += 1;
                if body.kind() != e.kind() {
                    out.divergences.push(diverge("type", e.kind().to_string(), body.kind().to_string()));
                } else {
                    let recorded = serde_json::to_value(&e.body).expect("events serialize");
                    let replayed = serde_json::to_value(&body).expect("events serialize");
                    if recorded != replayed {
                        out.divergences.push(diverge("payload", recorded.to_string(), replayed.to_string()));
                    }
                    let actor = decide::actor(&body, e.actor);
                    if actor != e.actor {
                        out.divergences.push(diverge("actor", format!("{:?}", e.actor), format!("{actor:?}")));
                    }
                    let correlation = decide::correlation(&s, &body);
                    if correlation != e.correlation_id {
                        out.divergences.push(diverge("correlation_id", e.correlation_id.clone(), correlation));
                    }
                }
            }
            Err(err) => out.divergences.push(diverge("error", e.kind().to_string(), err.to_string())),
        }
        if let Err(err) = s.apply(e) {
            out.error = Some(format!("event {} ({}): {err}", e.sequence, e.kind()));
            break;
        }
    }
    out.final_state = s.state;
    out
}
