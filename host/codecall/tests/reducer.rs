//! The reducer against the whole state machine, table-driven: every `(state, event)` pair is
//! either legal — with a witness from a real session that applies and lands in the expected
//! state — or refused as `Illegal` without changing the session. The expected table is written
//! out here from ARCHITECTURE §6 (plus the documented additions), independently of the crate's.

use std::collections::BTreeMap;

use crate::common::*;
use dossier_codecall::event::{CancelReason, EventBody, SessionCancelled};
use dossier_codecall::state::{ReduceError, TRANSITIONS, Target};
use dossier_codecall::*;

/// (state, event, target): `=` stays, `accept|=` is the decision.
const EXPECTED: &[(&str, &str, &str)] = &[
    ("idle", "SESSION_STARTED", "collecting_context"),
    ("collecting_context", "CONTEXT_REQUESTED", "="),
    ("collecting_context", "CONTEXT_READY", "analyzing"),
    ("collecting_context", "OPERATION_FAILED", "="),
    ("collecting_context", "RECOVERY_STARTED", "recovering"),
    ("collecting_context", "SESSION_CANCELLED", "cancelled"),
    ("analyzing", "CONTEXT_DEGRADED", "="),
    ("analyzing", "RECOVERY_SUCCEEDED", "="),
    ("analyzing", "CONCEPTS_EXTRACTED", "planning"),
    ("analyzing", "OPPORTUNITY_DETECTED", "planning"),
    ("analyzing", "OPERATION_FAILED", "="),
    ("analyzing", "RECOVERY_STARTED", "recovering"),
    ("analyzing", "SESSION_CANCELLED", "cancelled"),
    ("planning", "OPPORTUNITY_DETECTED", "="),
    ("planning", "PLAN_CREATED", "="),
    ("planning", "LEARNING_RECOMMENDATION_PRESENTED", "waiting_for_decision"),
    ("planning", "SESSION_CANCELLED", "cancelled"),
    ("waiting_for_decision", "DECISION_RECORDED", "accept|="),
    ("waiting_for_decision", "SESSION_CANCELLED", "cancelled"),
    ("waiting_for_confidence", "CONFIDENCE_RECORDED", "teaching"),
    ("waiting_for_confidence", "SESSION_CANCELLED", "cancelled"),
    ("teaching", "LESSON_STARTED", "="),
    ("teaching", "DOCUMENTATION_RESOLVED", "="),
    ("teaching", "LESSON_READY", "="),
    ("teaching", "REINFORCEMENT_READY", "="),
    ("teaching", "LESSON_ACKNOWLEDGED", "="),
    ("teaching", "QUESTION_REQUESTED", "quiz"),
    ("teaching", "OPERATION_FAILED", "="),
    ("teaching", "SESSION_CANCELLED", "cancelled"),
    ("quiz", "QUESTION_PRESENTED", "="),
    ("quiz", "QUESTION_ANSWERED", "evaluation"),
    ("quiz", "OPERATION_FAILED", "="),
    ("quiz", "SESSION_CANCELLED", "cancelled"),
    ("evaluation", "ANSWER_EVALUATED", "="),
    ("evaluation", "LESSON_STARTED", "teaching"),
    ("evaluation", "QUESTION_REQUESTED", "quiz"),
    ("evaluation", "QUIZ_COMPLETED", "summary"),
    ("evaluation", "OPERATION_FAILED", "="),
    ("evaluation", "SESSION_CANCELLED", "cancelled"),
    ("summary", "SUMMARY_READY", "="),
    ("summary", "SESSION_FINISHED", "completed"),
    ("summary", "SESSION_CANCELLED", "cancelled"),
    ("recovering", "CONTEXT_REQUESTED", "collecting_context"),
    ("recovering", "OPPORTUNITY_DETECTED", "="),
    ("recovering", "PLAN_CREATED", "="),
    ("recovering", "RECOVERY_SUCCEEDED", "="),
    ("recovering", "LEARNING_RECOMMENDATION_PRESENTED", "waiting_for_decision"),
    ("recovering", "SESSION_FAILED", "failed"),
    ("recovering", "SESSION_CANCELLED", "cancelled"),
];

fn name<T: serde::Serialize>(t: T) -> String {
    serde_json::to_value(t).unwrap().as_str().unwrap().to_string()
}

fn expected(state: SessionState, kind: EventKind) -> Option<&'static str> {
    EXPECTED.iter().find(|(s, k, _)| *s == name(state) && *k == kind.name()).map(|(_, _, t)| *t)
}

struct Witnesses {
    /// A real (session before, event) for each pair seen.
    pairs: BTreeMap<(SessionState, EventKind), Vec<(Session, Event)>>,
    /// A session resting in each state.
    sessions: BTreeMap<SessionState, Session>,
    /// An event of each kind.
    events: BTreeMap<EventKind, Event>,
}

fn witnesses() -> Witnesses {
    let mut w = Witnesses { pairs: BTreeMap::new(), sessions: BTreeMap::new(), events: BTreeMap::new() };
    w.sessions.insert(SessionState::Idle, Session::idle(sid(99)));
    for log in scenario_logs() {
        let mut s = Session::idle(log[0].session_id.clone());
        for e in &log {
            w.sessions.entry(s.state).or_insert_with(|| s.clone());
            w.events.entry(e.kind()).or_insert_with(|| e.clone());
            let pairs = w.pairs.entry((s.state, e.kind())).or_default();
            if pairs.len() < 8 {
                pairs.push((s.clone(), e.clone()));
            }
            s.apply(e).unwrap_or_else(|err| panic!("recorded event {} refused: {err}", e.sequence));
        }
        w.sessions.entry(s.state).or_insert(s);
    }
    // Cancel in every non-terminal state: synthesised from a session resting there.
    let rest: Vec<(SessionState, Session)> = w.sessions.iter().map(|(k, v)| (*k, v.clone())).collect();
    for (state, s) in rest {
        if state.is_terminal() || state == SessionState::Idle {
            continue;
        }
        let e = restamp(&w.events[&EventKind::SessionStarted], &s, |_| {
            EventBody::SessionCancelled(SessionCancelled {
                reason: CancelReason::UserCancelled,
                note: None,
                from: state,
            })
        });
        w.pairs.entry((state, EventKind::SessionCancelled)).or_default().push((s, e));
    }
    w
}

/// `template`'s envelope addressed to `s` as its next event, with `body`.
fn restamp(template: &Event, s: &Session, body: impl FnOnce(&EventBody) -> EventBody) -> Event {
    let mut e = template.clone();
    e.session_id = s.id.clone();
    e.sequence = s.last_sequence + 1;
    e.body = body(&template.body);
    e
}

#[test]
fn the_crate_table_is_the_expected_table() {
    let mut ours: Vec<(String, String, String)> =
        EXPECTED.iter().map(|(s, k, t)| (s.to_string(), k.to_string(), t.to_string())).collect();
    let mut theirs: Vec<(String, String, String)> = TRANSITIONS
        .iter()
        .map(|(s, k, t)| {
            let t = match t {
                Target::To(x) => name(x),
                Target::Stay => "=".into(),
                Target::AcceptOrStay => "accept|=".into(),
            };
            (name(s), k.name().to_string(), t)
        })
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs);
}

#[test]
fn every_legal_transition_has_a_real_witness_and_lands_where_expected() {
    let w = witnesses();
    for (state, kind, target) in EXPECTED {
        let pair = w
            .pairs
            .iter()
            .find(|((s, k), _)| name(s) == *state && k.name() == *kind)
            .unwrap_or_else(|| panic!("no scenario exercises {state} --{kind}-->"));
        for (before, event) in pair.1 {
            let mut s = before.clone();
            s.apply(event).unwrap_or_else(|e| panic!("{state} --{kind}: {e}"));
            let want = match *target {
                "=" => name(before.state),
                "accept|=" => match &event.body {
                    EventBody::DecisionRecorded(d) if d.accept => "waiting_for_confidence".into(),
                    _ => name(before.state),
                },
                t => t.to_string(),
            };
            assert_eq!(name(s.state), want, "{state} --{kind}-->");
            assert_eq!(s.last_sequence, event.sequence);
        }
    }
    // Both outcomes of the decision were seen.
    let decisions = &w.pairs[&(SessionState::WaitingForDecision, EventKind::DecisionRecorded)];
    let accepts: Vec<bool> =
        decisions.iter().map(|(_, e)| matches!(&e.body, EventBody::DecisionRecorded(d) if d.accept)).collect();
    assert!(accepts.contains(&true) && accepts.contains(&false), "{accepts:?}");
}

#[test]
fn every_other_pair_is_illegal_and_changes_nothing() {
    let w = witnesses();
    for state in SessionState::ALL {
        let s = w.sessions.get(&state).unwrap_or_else(|| panic!("no scenario rests in {state}"));
        for kind in EventKind::ALL {
            if expected(state, kind).is_some() {
                continue;
            }
            let e = restamp(&w.events[&kind], s, Clone::clone);
            let mut after = s.clone();
            match after.apply(&e) {
                Err(ReduceError::Illegal { state: st, event }) => {
                    assert_eq!((st, event), (state, kind));
                }
                other => panic!("{state} --{kind}--> should be illegal, got {other:?}"),
            }
            assert_eq!(&after, s, "a refused event changed the session");
        }
    }
    assert_eq!(w.events.len(), EventKind::ALL.len(), "every event kind occurs in a scenario");
}

#[test]
fn guards_refuse_events_that_do_not_match_what_is_pending() {
    let w = witnesses();
    let pair = |s: SessionState, k: EventKind| w.pairs[&(s, k)][0].clone();

    // A question answered with another question's id.
    let (s, mut e) = pair(SessionState::Quiz, EventKind::QuestionAnswered);
    if let EventBody::QuestionAnswered(a) = &mut e.body {
        a.question_id = "q-999".into();
    }
    assert!(matches!(s.clone().apply(&e), Err(ReduceError::Guard { .. })));

    // A correct flag that contradicts the question.
    let (s, mut e) = pair(SessionState::Quiz, EventKind::QuestionAnswered);
    if let EventBody::QuestionAnswered(a) = &mut e.body {
        a.correct = !a.correct;
    }
    assert!(matches!(s.clone().apply(&e), Err(ReduceError::Guard { .. })));

    // A lesson for a work order that is not pending.
    let (s, mut e) = pair(SessionState::Teaching, EventKind::LessonReady);
    if let EventBody::LessonReady(r) = &mut e.body {
        r.work_order_id = "wo-1".into();
    }
    assert!(matches!(s.clone().apply(&e), Err(ReduceError::Guard { .. })));

    // Two context-ready events in a row.
    let (s, e) = pair(SessionState::CollectingContext, EventKind::ContextReady);
    let mut s2 = s.clone();
    s2.apply(&e).unwrap();
    let mut again = e.clone();
    again.sequence += 1;
    assert!(s2.apply(&again).is_err());

    // Envelope checks.
    let (s, mut e) = pair(SessionState::Quiz, EventKind::QuestionAnswered);
    e.sequence += 1;
    assert!(matches!(s.clone().apply(&e), Err(ReduceError::Sequence { .. })));
    let (s, mut e) = pair(SessionState::Quiz, EventKind::QuestionAnswered);
    e.session_id = sid(12345);
    assert!(matches!(s.clone().apply(&e), Err(ReduceError::WrongSession { .. })));
    let (s, mut e) = pair(SessionState::Quiz, EventKind::QuestionAnswered);
    e.contract_version = 2;
    assert!(matches!(s.clone().apply(&e), Err(ReduceError::Version(2))));

    // Accepting an empty plan.
    let (s, mut e) = pair(SessionState::WaitingForDecision, EventKind::DecisionRecorded);
    let mut s = s.clone();
    s.plan.as_mut().unwrap().units.clear();
    if let EventBody::DecisionRecorded(d) = &mut e.body {
        d.accept = true;
    }
    assert!(matches!(s.apply(&e), Err(ReduceError::Guard { .. })));
}
