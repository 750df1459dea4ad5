//! Operation ids: a retried call returns what it recorded and records nothing more — one lesson,
//! one answer, one session — in memory and across a reopened file log; a reused id with another
//! input is a conflict; a stale checkpoint is refused.

use crate::common::*;
use dossier_codecall::*;
use serde_json::json;

/// Drive until `pred` holds for the next step.
fn until(rt: &mut Runtime<'_>, d: &mut Driver, mut step: Step, pred: impl Fn(&Step) -> bool) -> Step {
    for _ in 0..100 {
        if pred(&step) {
            return step;
        }
        step = d.act(rt, &step).expect("not ended yet");
    }
    panic!("never reached")
}

fn count(rt: &Runtime<'_>, kind: EventKind) -> usize {
    rt.events(&sid(1)).unwrap().iter().filter(|e| e.kind() == kind).count()
}

#[test]
fn the_same_operation_twice_records_one_lesson_and_one_answer() {
    let f = retry();
    let mut rt = memory_runtime(&NativePolicy, Cached::default());
    let step = rt.start(start_request(&f, "start", &sid(1))).unwrap();
    let again = rt.start(start_request(&f, "start", &sid(1))).unwrap();
    assert!(again.replayed);
    assert_eq!(comparable(&again.events), comparable(&step.events));
    assert_eq!(rt.session_ids().len(), 1);

    let mut d = Driver::new(Agent::default(), User::default());
    let step =
        until(&mut rt, &mut d, step, |s| matches!(&s.next, Next::WorkOrder(o) if o.step == prompts::WorkStep::Lesson));
    let Next::WorkOrder(order) = &step.next else { unreachable!() };
    let req = SubmitRequest {
        session_id: sid(1),
        operation_id: "lesson-op".into(),
        checkpoint: order.id.clone(),
        outcome: SubmitOutcome::Result { result: agent_result(order, &Agent::default()) },
    };
    let first = rt.submit(req.clone()).unwrap();
    assert!(!first.replayed);
    let second = rt.submit(req.clone()).unwrap();
    assert!(second.replayed);
    assert_eq!(comparable(&second.events), comparable(&first.events));
    assert_eq!(count(&rt, EventKind::LessonReady), 1);

    let step = until(&mut rt, &mut d, first, |s| matches!(s.next, Next::Question(_)));
    let Next::Question(q) = &step.next else { unreachable!() };
    let answer = AnswerRequest {
        session_id: sid(1),
        operation_id: "answer-op".into(),
        checkpoint: q.checkpoint.clone(),
        answer: Answer::Choice { choice_id: "b".into() },
    };
    let a1 = rt.answer(answer.clone()).unwrap();
    let a2 = rt.answer(answer.clone()).unwrap();
    assert!(a2.replayed);
    assert_eq!(count(&rt, EventKind::QuestionAnswered), 1);
    assert_eq!(a1.last_sequence, a2.last_sequence);

    // The same id with a different input is a conflict, and records nothing.
    let before = rt.events(&sid(1)).unwrap().len();
    let mut other = answer.clone();
    other.answer = Answer::Choice { choice_id: "c".into() };
    assert_eq!(rt.answer(other).unwrap_err().code, ErrorCode::OperationConflict);
    let mut other = req.clone();
    other.outcome = SubmitOutcome::Failure { reason: "different".into() };
    assert_eq!(rt.submit(other).unwrap_err().code, ErrorCode::OperationConflict);
    assert_eq!(rt.events(&sid(1)).unwrap().len(), before);
}

#[test]
fn a_retried_rejection_returns_the_same_errors_and_records_one_rejection() {
    let f = retry();
    let mut rt = memory_runtime(&NativePolicy, Cached::default());
    let step = rt.start(start_request(&f, "start", &sid(1))).unwrap();
    let Next::WorkOrder(order) = &step.next else { panic!() };
    let req = SubmitRequest {
        session_id: sid(1),
        operation_id: "bad".into(),
        checkpoint: order.id.clone(),
        outcome: SubmitOutcome::Result { result: json!({"concepts": [], "extra": 1}) },
    };
    let e1 = rt.submit(req.clone()).unwrap_err();
    let e2 = rt.submit(req).unwrap_err();
    assert_eq!(e1.code, ErrorCode::InvalidWorkerResult);
    assert_eq!(e1.errors, e2.errors);
    assert!(!e1.errors.is_empty());
    assert_eq!(count(&rt, EventKind::OperationFailed), 1);
    // Still pending, attempt 2 shows the errors.
    let Next::WorkOrder(order) = rt.show(&sid(1)).unwrap().next else { panic!() };
    assert_eq!(order.attempt, 2);
    assert_eq!(order.previous_errors, e1.errors);
}

#[test]
fn retries_survive_a_restart_of_the_process() {
    let f = retry();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("learning.jsonl");
    let policy = NativePolicy;
    let cache = Cached::default();
    let answer;
    {
        let mut rt = Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor)
            .unwrap()
            .with_evidence_source(cache.clone());
        let step = rt.start(start_request(&f, "start", &sid(1))).unwrap();
        let mut d = Driver::new(Agent::default(), User::default());
        let step = until(&mut rt, &mut d, step, |s| matches!(s.next, Next::Question(_)));
        let Next::Question(q) = &step.next else { unreachable!() };
        answer = AnswerRequest {
            session_id: sid(1),
            operation_id: "answer-op".into(),
            checkpoint: q.checkpoint.clone(),
            answer: Answer::Choice { choice_id: "b".into() },
        };
        rt.answer(answer.clone()).unwrap();
    }
    let lines = std::fs::read_to_string(&path).unwrap().lines().count();
    let mut rt = Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(cache);
    let again = rt.answer(answer).unwrap();
    assert!(again.replayed);
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), lines, "nothing appended");
    // A start retried after the restart finds its session.
    let start = rt.start(start_request(&f, "start", &sid(1))).unwrap();
    assert!(start.replayed);
    assert_eq!(start.events[0].kind(), EventKind::SessionStarted);
}

#[test]
fn stale_and_out_of_place_requests_are_refused_without_recording() {
    let f = retry();
    let mut rt = memory_runtime(&NativePolicy, Cached::default());
    let step = rt.start(start_request(&f, "start", &sid(1))).unwrap();
    let Next::WorkOrder(old) = step.next.clone() else { panic!() };
    let mut d = Driver::new(Agent::default(), User::default());
    let step = d.act(&mut rt, &step).unwrap();
    let Next::Decision(card) = &step.next else { panic!("{:?}", step.next) };
    let before = rt.events(&sid(1)).unwrap().len();

    // The concept work order was already answered.
    let err = rt
        .submit(SubmitRequest {
            session_id: sid(1),
            operation_id: "late".into(),
            checkpoint: old.id.clone(),
            outcome: SubmitOutcome::Result { result: agent_result(&old, &Agent::default()) },
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::IllegalTransition, "{err}");
    // An acknowledgement while the card is shown.
    let err = rt
        .answer(AnswerRequest {
            session_id: sid(1),
            operation_id: "ack".into(),
            checkpoint: card.checkpoint.clone(),
            answer: Answer::Acknowledge,
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::IllegalTransition);
    // The right kind of answer for an old gate.
    let err = rt
        .answer(AnswerRequest {
            session_id: sid(1),
            operation_id: "old-gate".into(),
            checkpoint: "gate-1".into(),
            answer: Answer::Decision { accept: true },
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::StaleOperation);
    assert_eq!(err.checkpoint.as_deref(), Some(card.checkpoint.as_str()));
    // An empty operation id, an unknown session.
    let err = rt
        .answer(AnswerRequest {
            session_id: sid(1),
            operation_id: " ".into(),
            checkpoint: card.checkpoint.clone(),
            answer: Answer::Decision { accept: true },
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidRequest);
    assert_eq!(rt.show(&sid(2)).unwrap_err().code, ErrorCode::UnknownSession);
    assert_eq!(rt.events(&sid(1)).unwrap().len(), before);

    // After the end, nothing more is accepted.
    rt.cancel(CancelRequest {
        session_id: sid(1),
        operation_id: "cancel".into(),
        reason: CancelReason::UserCancelled,
        note: None,
        actor: Actor::User,
    })
    .unwrap();
    let err = rt
        .answer(AnswerRequest {
            session_id: sid(1),
            operation_id: "after".into(),
            checkpoint: card.checkpoint.clone(),
            answer: Answer::Decision { accept: true },
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::SessionEnded);
    let err = rt
        .cancel(CancelRequest {
            session_id: sid(1),
            operation_id: "cancel-2".into(),
            reason: CancelReason::UserCancelled,
            note: None,
            actor: Actor::User,
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::SessionEnded);
}
