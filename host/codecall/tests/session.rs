//! Full sessions over fixture repositories, played by the scripted agent and user, from `start`
//! to `completed` (ARCHITECTURE §18 fixture integration tests).

use std::collections::BTreeMap;

use crate::common::*;
use dossier_codecall::contract::{ConfidenceLevel, EstimateLevel};
use dossier_codecall::event::{EventBody, MoveRecord};
use dossier_codecall::*;

fn recommendation(events: &[Event]) -> String {
    events
        .iter()
        .find_map(|e| match &e.body {
            EventBody::OpportunityDetected(o) => Some(o.recommendation.clone()),
            _ => None,
        })
        .expect("an opportunity was detected")
}

fn summary(step: &Step) -> &dossier_codecall::contract::Summary {
    match &step.next {
        Next::Summary(s) => s,
        other => panic!("expected a summary, got {other:?}"),
    }
}

/// Sequences are 1.. without gaps, every event of one session.
fn assert_well_formed(events: &[Event]) {
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.sequence, i as u64 + 1);
        assert_eq!(e.session_id, events[0].session_id);
        assert_eq!(e.contract_version, CONTRACT_VERSION);
        assert!(!e.operation_id.is_empty() && !e.correlation_id.is_empty());
    }
    assert_eq!(events[0].kind(), EventKind::SessionStarted);
}

#[test]
fn oauth_middleware_session_completes_in_dependency_order() {
    let f = oauth();
    let (events, last) = full_session(&f, &NativePolicy, User::default());
    assert_well_formed(&events);
    assert_eq!(last.state, SessionState::Completed);
    assert_eq!(recommendation(&events), "recommend");
    let EventBody::OpportunityDetected(o) =
        &events.iter().find(|e| e.kind() == EventKind::OpportunityDetected).unwrap().body
    else {
        unreachable!()
    };
    let kinds: Vec<_> = o.derived_signals.iter().map(|d| d.id.as_str()).collect();
    assert!(kinds.contains(&"derived-security") && kinds.contains(&"derived-pipeline"), "{kinds:?}");
    assert!(o.matched_strong.contains(&"security_boundary".to_string()), "{:?}", o.matched_strong);

    // The prerequisite unit is taught before the unit that needs it.
    let taught: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.body {
            EventBody::LessonStarted(l) => Some(l.request.unit_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(taught, ["unit-c0", "unit-c1"]);
    let s = summary(&last);
    assert_eq!(s.finish_reason, "objective_evidenced");
    assert_eq!(s.estimated_session_mastery.objective_units, 1);
    assert_eq!(s.estimated_session_mastery.objective_units_evidenced, 1);
    assert!(s.concepts.iter().all(|c| c.estimated_session_mastery.level == EstimateLevel::Evidenced));
    assert!(!s.takeaways.is_empty() && !s.limitations.is_empty());
    let text = serde_json::to_string(&events).unwrap().to_lowercase();
    assert!(!text.contains("mastered"), "no event says mastered");
}

#[test]
fn cache_invalidation_retry_and_migration_sessions_complete() {
    for (name, f, strong) in [
        ("cache", cache(), "consequential_tradeoff"),
        ("retry", retry(), "reliability_boundary"),
        ("migration", migration(), "external_contract"),
    ] {
        let (events, last) = full_session(&f, &NativePolicy, User::default());
        assert_well_formed(&events);
        assert_eq!(last.state, SessionState::Completed, "{name}");
        assert_eq!(recommendation(&events), "recommend", "{name}");
        let o = events
            .iter()
            .find_map(|e| match &e.body {
                EventBody::OpportunityDetected(o) => Some(o),
                _ => None,
            })
            .unwrap();
        assert!(o.matched_strong.iter().any(|s| s == strong), "{name}: {:?}", o.matched_strong);
        let s = summary(&last);
        assert!(s.questions_answered >= 2, "{name}: {}", s.questions_answered);
        // Every question was presented with a permutation and answered through the policy's moves.
        for e in &events {
            if let EventBody::QuestionPresented(p) = &e.body {
                assert_eq!(p.display_order[p.correct_position as usize], p.question.correct_choice_id);
            }
        }
    }
}

#[test]
fn formatting_only_change_scores_skip_and_cannot_be_accepted() {
    let f = formatting();
    let mut rt = memory_runtime(&NativePolicy, Cached::default());
    let mut step = rt.start(start_request(&f, "start", &sid(1))).unwrap();
    let mut d = Driver::new(Agent::default(), User::default());
    while !matches!(step.next, Next::Decision(_)) {
        step = d.act(&mut rt, &step).unwrap();
    }
    let Next::Decision(card) = &step.next else { unreachable!() };
    assert_eq!(card.recommendation, "skip");
    assert_eq!(card.score, 0.0);
    assert!(!card.teachable && card.units.is_empty());
    let events = rt.events(&sid(1)).unwrap();
    let o = events
        .iter()
        .find_map(|e| match &e.body {
            EventBody::OpportunityDetected(o) => Some(o),
            _ => None,
        })
        .unwrap();
    assert!(o.derived_signals.is_empty(), "{:?}", o.derived_signals);
    assert_eq!(o.excluded, ["formatting"]);

    let err = rt
        .answer(AnswerRequest {
            session_id: sid(1),
            operation_id: "accept".into(),
            checkpoint: card.checkpoint.clone(),
            answer: Answer::Decision { accept: true },
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NothingToTeach);
    let step = rt
        .answer(AnswerRequest {
            session_id: sid(1),
            operation_id: "decline".into(),
            checkpoint: card.checkpoint.clone(),
            answer: Answer::Decision { accept: false },
        })
        .unwrap();
    assert_eq!(step.state, SessionState::Cancelled);
    assert_eq!(kinds(&step.events), [EventKind::DecisionRecorded, EventKind::SessionCancelled]);
    assert!(matches!(step.next, Next::Cancelled { reason: CancelReason::UserDeclined }));
}

#[test]
fn wrong_answers_get_a_reinforcement_and_show_up_as_weak_areas() {
    let f = retry();
    let (events, last) = full_session(&f, &NativePolicy, User { first_wrong: true, ..User::default() });
    assert_eq!(last.state, SessionState::Completed);
    let k = kinds(&events);
    assert!(k.contains(&EventKind::ReinforcementReady), "{k:?}");
    let reinforce = events.iter().find_map(|e| match &e.body {
        EventBody::AnswerEvaluated(a) if !a.evaluation.correct => Some(a),
        _ => None,
    });
    let a = reinforce.expect("a wrong answer was evaluated");
    assert!(matches!(a.next, MoveRecord::Reinforce { .. }), "{:?}", a.next);
    let s = summary(&last);
    assert_eq!(s.weak_areas.len(), 0, "the unit was evidenced after the reinforcement: {:?}", s.weak_areas);
    assert!(
        s.points_to_remember.iter().any(|p| p.contains("believes retries need no delay")),
        "{:?}",
        s.points_to_remember
    );
}

#[test]
fn a_declared_expert_is_checked_before_any_lesson() {
    let f = retry();
    let mut confidence = BTreeMap::new();
    confidence.insert("unit-c0".to_string(), ConfidenceLevel::Expert);
    let (events, last) = full_session(&f, &NativePolicy, User { confidence, ..User::default() });
    assert_eq!(last.state, SessionState::Completed);
    let after_confidence: Vec<EventKind> = events
        .iter()
        .skip_while(|e| e.kind() != EventKind::ConfidenceRecorded)
        .skip(1)
        .take(1)
        .map(|e| e.kind())
        .collect();
    assert_eq!(after_confidence, [EventKind::QuestionRequested]);
    assert!(!kinds(&events).contains(&EventKind::LessonStarted), "an expert who answers right gets no lesson");
}

#[test]
fn correct_positions_are_balanced_across_a_session() {
    // Several sessions' worth of questions in one: wrong answers make more questions.
    let f = oauth();
    let (events, _) = full_session(&f, &NativePolicy, User { first_wrong: true, ..User::default() });
    let positions: Vec<u32> = events
        .iter()
        .filter_map(|e| match &e.body {
            EventBody::QuestionPresented(p) => Some(p.correct_position),
            _ => None,
        })
        .collect();
    assert!(positions.len() >= 4, "{positions:?}");
    let mut counts = [0u32; 4];
    for p in &positions {
        counts[*p as usize] += 1;
    }
    let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert!(max - min <= 1, "correct positions {positions:?} are unbalanced: {counts:?}");
}

#[test]
fn collection_failure_retries_narrower_then_fails_cleanly() {
    let f = retry();
    // One retryable failure: the runtime retries one rung lower and succeeds.
    let source = Flaky { inner: Cached::default(), fail: std::cell::Cell::new(1), retryable: true };
    let mut rt = Runtime::open(LogTarget::Memory, &NativePolicy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(source);
    let step = rt.start(start_request(&f, "s", &sid(1))).unwrap();
    assert_eq!(step.state, SessionState::Analyzing);
    assert_eq!(
        kinds(&step.events),
        [
            EventKind::SessionStarted,
            EventKind::ContextRequested,
            EventKind::OperationFailed,
            EventKind::RecoveryStarted,
            EventKind::ContextRequested,
            EventKind::ContextReady,
            EventKind::RecoverySucceeded,
        ]
    );
    let EventBody::ContextRequested(second) = &step.events[4].body else { unreachable!() };
    assert_eq!(second.request.max_level, dossier_evidence::Level::Excerpts, "narrower than the default (search)");

    // A missing repository is not retried: the session fails with the cause.
    let source = Flaky { inner: Cached::default(), fail: std::cell::Cell::new(5), retryable: false };
    let mut rt = Runtime::open(LogTarget::Memory, &NativePolicy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(source);
    let step = rt.start(start_request(&f, "s", &sid(2))).unwrap();
    assert_eq!(step.state, SessionState::Failed);
    assert!(matches!(step.next, Next::Failed { cause: RecoveryCause::UnavailableSource }));
    assert_eq!(kinds(&step.events).last(), Some(&EventKind::SessionFailed));

    // Two retryable failures: one narrower retry, then failure.
    let source = Flaky { inner: Cached::default(), fail: std::cell::Cell::new(2), retryable: true };
    let mut rt = Runtime::open(LogTarget::Memory, &NativePolicy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(source);
    let step = rt.start(start_request(&f, "s", &sid(3))).unwrap();
    assert_eq!(step.state, SessionState::Failed);
    assert_eq!(kinds(&step.events).iter().filter(|k| **k == EventKind::ContextRequested).count(), 2);
}

#[test]
fn a_real_missing_repository_fails_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let mut req = start_request(&retry(), "s", &sid(1));
    req.locator.repo = dir.path().join("nowhere");
    let mut rt = Runtime::open(LogTarget::Memory, &NativePolicy, &dossier_codecall::NativeRedactor).unwrap();
    let step = rt.start(req).unwrap();
    assert_eq!(step.state, SessionState::Failed);
    let failed = step.events.iter().find_map(|e| match &e.body {
        EventBody::OperationFailed(f) => Some(f),
        _ => None,
    });
    assert_eq!(failed.unwrap().code, "not_a_repository");
}

#[test]
fn three_rejected_extractions_recover_with_a_degraded_plan() {
    let f = retry();
    let mut rt = memory_runtime(&NativePolicy, Cached::default());
    let step = rt.start(start_request(&f, "s", &sid(1))).unwrap();
    let Next::WorkOrder(order) = &step.next else { panic!() };
    let mut last_err = None;
    for i in 0..3 {
        let err = rt
            .submit(SubmitRequest {
                session_id: sid(1),
                operation_id: format!("bad-{i}"),
                checkpoint: order.id.clone(),
                outcome: SubmitOutcome::Result { result: serde_json::json!({"concepts": "nope"}) },
            })
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidWorkerResult);
        last_err = Some(err);
    }
    assert_eq!(last_err.unwrap().state, Some(SessionState::WaitingForDecision));
    let step = rt.show(&sid(1)).unwrap();
    let Next::Decision(card) = &step.next else { panic!("{:?}", step.next) };
    assert!(card.degraded && card.teachable);
    let events = rt.events(&sid(1)).unwrap();
    let tail: Vec<_> = kinds(events).into_iter().skip_while(|k| *k != EventKind::RecoveryStarted).collect();
    assert_eq!(
        tail,
        [
            EventKind::RecoveryStarted,
            EventKind::OpportunityDetected,
            EventKind::PlanCreated,
            EventKind::RecoverySucceeded,
            EventKind::LearningRecommendationPresented,
        ]
    );
    // The degraded plan is teachable to the end.
    let mut d = Driver::new(Agent::default(), User::default());
    let last = d.run(&mut rt, step);
    assert_eq!(last.state, SessionState::Completed);
    assert!(summary(&last).limitations.iter().any(|l| l.contains("concept extraction failed")));
}

#[test]
fn three_rejected_extractions_without_signals_fail_the_session() {
    let f = formatting();
    let mut rt = memory_runtime(&NativePolicy, Cached::default());
    let step = rt.start(start_request(&f, "s", &sid(1))).unwrap();
    let Next::WorkOrder(order) = &step.next else { panic!() };
    for i in 0..3 {
        rt.submit(SubmitRequest {
            session_id: sid(1),
            operation_id: format!("fail-{i}"),
            checkpoint: order.id.clone(),
            outcome: SubmitOutcome::Failure { reason: "model unavailable".into() },
        })
        .unwrap();
    }
    let step = rt.show(&sid(1)).unwrap();
    assert_eq!(step.state, SessionState::Failed);
    assert!(matches!(step.next, Next::Failed { cause: RecoveryCause::LlmFailure }));
}

#[test]
fn directory_log_names_one_file_per_session() {
    let f = retry();
    let dir = tempfile::tempdir().unwrap();
    let policy = NativePolicy;
    let mut rt = Runtime::open(LogTarget::Directory(dir.path().into()), &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(Cached::default());
    let step = rt.start(start_request(&f, "s", &sid(7))).unwrap();
    let path = dir.path().join(format!("{}.jsonl", sid(7)));
    assert!(path.exists());
    let lines = std::fs::read_to_string(&path).unwrap().lines().count();
    assert_eq!(lines as u64, step.last_sequence);
    // A second runtime over the same directory sees the session.
    let mut rt2 =
        Runtime::open(LogTarget::Directory(dir.path().into()), &policy, &dossier_codecall::NativeRedactor).unwrap();
    assert_eq!(rt2.show(&sid(7)).unwrap().state, SessionState::Analyzing);
    assert_eq!(rt2.show(&sid(8)).unwrap_err().code, ErrorCode::UnknownSession);
    assert_eq!(rt2.show("../../etc/passwd").unwrap_err().code, ErrorCode::InvalidRequest);
}
