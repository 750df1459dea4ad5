//! Crashes and disconnects: a log cut after any event — or in the middle of one — resumes into
//! exactly the log an uninterrupted run writes; cancel works in every non-terminal state; torn
//! lines are tolerated and reported, gaps are not.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::*;
use dossier_codecall::event::EventBody;
use dossier_codecall::*;

/// The log's lines (with their newlines).
fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().split_inclusive('\n').map(str::to_string).collect()
}

fn parsed(path: &Path) -> Vec<Event> {
    std::fs::read_to_string(path).unwrap().lines().filter_map(|l| serde_json::from_str::<Event>(l).ok()).collect()
}

fn user() -> User {
    User { first_wrong: true, ..User::default() }
}

/// A whole session (with rejections and wrong answers) into a file log.
fn reference(f: &Fixture, cache: &Cached, dir: &Path) -> PathBuf {
    let path = dir.join("reference.jsonl");
    let policy = NativePolicy;
    let mut rt = Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(cache.clone());
    let step = rt.start(start_request(f, "start", &sid(1))).unwrap();
    let last = run_with_rejections_as(&mut rt, step, user());
    assert_eq!(last.state, SessionState::Completed);
    path
}

/// Resume the log at `path` (or start over when it is empty) and play to the end.
fn resume_and_finish(f: &Fixture, cache: &Cached, path: &Path) -> Runtime<'static> {
    static POLICY: NativePolicy = NativePolicy;
    let mut rt = Runtime::open(LogTarget::File(path.to_path_buf()), &POLICY, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(cache.clone());
    let step = if rt.session(&sid(1)).is_some() {
        rt.resume(ResumeRequest { session_id: sid(1), after_sequence: None }).unwrap()
    } else {
        rt.start(start_request(f, "start", &sid(1))).unwrap()
    };
    let last = run_with_rejections_as(&mut rt, step, user());
    assert_eq!(last.state, SessionState::Completed);
    rt
}

#[test]
fn a_log_cut_after_any_event_resumes_into_the_same_log() {
    let f = retry();
    let cache = Cached::default();
    let dir = tempfile::tempdir().unwrap();
    let reference = reference(&f, &cache, dir.path());
    let want = comparable(&parsed(&reference));
    let all = lines(&reference);
    assert!(all.len() > 30, "{}", all.len());
    assert!(want.iter().any(|e| e["type"] == "OPERATION_FAILED"));
    for k in 0..all.len() {
        let path = dir.path().join(format!("cut-{k}.jsonl"));
        std::fs::write(&path, all[..k].concat()).unwrap();
        let rt = resume_and_finish(&f, &cache, &path);
        assert!(rt.log_issues().is_empty());
        assert_eq!(comparable(&parsed(&path)), want, "cut after {k} events");
    }
}

#[test]
fn a_log_torn_inside_any_event_resumes_into_the_same_log() {
    let f = retry();
    let cache = Cached::default();
    let dir = tempfile::tempdir().unwrap();
    let reference = reference(&f, &cache, dir.path());
    let want = comparable(&parsed(&reference));
    let all = lines(&reference);
    for k in 0..all.len() {
        let path = dir.path().join(format!("torn-{k}.jsonl"));
        let torn = &all[k][..all[k].len() / 2];
        std::fs::write(&path, all[..k].concat() + torn).unwrap();
        let rt = resume_and_finish(&f, &cache, &path);
        let issues = rt.log_issues();
        assert_eq!(issues.len(), 1, "cut inside event {}: {issues:?}", k + 1);
        assert!(issues[0].torn_tail && issues[0].line == k as u64 + 1);
        assert_eq!(comparable(&parsed(&path)), want, "torn inside event {}", k + 1);
        // The torn bytes are still there, on a line of their own: nothing was rewritten.
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&(all[..k].concat() + torn + "\n")));
        // Read again, it is an unreadable line in the middle, skipped and reported.
        let policy = NativePolicy;
        let again = Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor).unwrap();
        let issues = again.log_issues();
        assert_eq!(issues.len(), 1);
        assert!(!issues[0].torn_tail && issues[0].line == k as u64 + 1, "{issues:?}");
        assert_eq!(again.session(&sid(1)).unwrap().state, SessionState::Completed);
    }
}

#[test]
fn resume_completes_the_interrupted_operation_and_catches_up() {
    let f = retry();
    let cache = Cached::default();
    let dir = tempfile::tempdir().unwrap();
    let reference = reference(&f, &cache, dir.path());
    let events = parsed(&reference);
    let k = events.iter().position(|e| e.kind() == EventKind::ConfidenceRecorded).unwrap() + 1;
    let path = dir.path().join("cut.jsonl");
    std::fs::write(&path, lines(&reference)[..k].concat()).unwrap();

    let policy = NativePolicy;
    let mut rt = Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(cache.clone());
    let shown = rt.show(&sid(1)).unwrap();
    assert!(matches!(shown.next, Next::Interrupted { .. }), "{:?}", shown.next);
    let step = rt.resume(ResumeRequest { session_id: sid(1), after_sequence: Some(2) }).unwrap();
    let rec = step.recovered.as_ref().unwrap();
    assert_eq!(rec.completed_operation.as_deref(), Some(events[k - 1].operation_id.as_str()));
    // The runtime's own steps after the confidence gate: the lesson's start and its documentation.
    assert_eq!(rec.events_completed, 2);
    assert_eq!(rec.cause, Some(RecoveryCause::ProviderDisconnect));
    assert_eq!(step.events.first().map(|e| e.sequence), Some(3), "catch-up from sequence 2");
    assert_eq!(step.events.last().unwrap().kind(), EventKind::DocumentationResolved);
    assert_eq!(
        step.events.last().unwrap().operation_id,
        events[k - 1].operation_id,
        "attributed to the interrupted call"
    );
    assert!(matches!(&step.next, Next::WorkOrder(o) if o.step == prompts::WorkStep::Lesson));
    // A second resume has nothing to complete.
    let again = rt.resume(ResumeRequest { session_id: sid(1), after_sequence: None }).unwrap();
    assert_eq!(again.recovered.as_ref().unwrap().events_completed, 0);
    assert_eq!(again.recovered.unwrap().cause, None);
    assert!(again.events.is_empty());
}

#[test]
fn cancel_works_in_every_non_terminal_state() {
    let dir = tempfile::tempdir().unwrap();
    let policy = NativePolicy;
    let mut covered = BTreeSet::new();
    for (i, log) in scenario_logs().iter().enumerate() {
        let sid = log[0].session_id.clone();
        for k in 0..=log.len() {
            let path = dir.path().join(format!("log-{i}-{k}.jsonl"));
            let text: String = log[..k].iter().map(|e| serde_json::to_string(e).unwrap() + "\n").collect();
            std::fs::write(&path, text).unwrap();
            let mut rt =
                Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor).unwrap();
            let req = CancelRequest {
                session_id: sid.clone(),
                operation_id: "cancel".into(),
                reason: CancelReason::UserCancelled,
                note: Some("stopping here".into()),
                actor: Actor::User,
            };
            if k == 0 {
                assert_eq!(rt.cancel(req).unwrap_err().code, ErrorCode::UnknownSession);
                continue;
            }
            let state = rt.session(&sid).unwrap().state;
            if state.is_terminal() {
                assert_eq!(rt.cancel(req).unwrap_err().code, ErrorCode::SessionEnded);
                continue;
            }
            let step = rt.cancel(req).unwrap();
            assert_eq!(step.state, SessionState::Cancelled, "from {state}");
            assert_eq!(step.events.len(), 1);
            let EventBody::SessionCancelled(c) = &step.events[0].body else { panic!() };
            assert_eq!(c.from, state);
            assert!(matches!(rt.show(&sid).unwrap().next, Next::Cancelled { reason: CancelReason::UserCancelled }));
            assert_eq!(parsed(&path).len(), k + 1, "one event appended");
            covered.insert(state);
        }
    }
    let want: BTreeSet<SessionState> =
        SessionState::ALL.into_iter().filter(|s| !s.is_terminal() && *s != SessionState::Idle).collect();
    assert_eq!(covered, want);
}

#[test]
fn a_gap_in_the_log_is_refused_as_corrupt() {
    let f = retry();
    let cache = Cached::default();
    let dir = tempfile::tempdir().unwrap();
    let reference = reference(&f, &cache, dir.path());
    let mut all = lines(&reference);
    all.remove(5);
    let path = dir.path().join("gap.jsonl");
    std::fs::write(&path, all.concat()).unwrap();
    let policy = NativePolicy;
    let mut rt = Runtime::open(LogTarget::File(path), &policy, &dossier_codecall::NativeRedactor).unwrap();
    let err = rt.show(&sid(1)).unwrap_err();
    assert_eq!(err.code, ErrorCode::CorruptLog);
    assert!(err.message.contains("sequence 7 where 6 was expected"), "{}", err.message);
}

#[test]
fn two_processes_on_one_log_see_each_other() {
    let f = retry();
    let cache = Cached::default();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.jsonl");
    let policy = NativePolicy;
    let mut a = Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(cache.clone());
    let step = a.start(start_request(&f, "start", &sid(1))).unwrap();
    let mut b = Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(cache.clone());
    // `a` answers the concept work order; `b`, opened before, must not answer it again.
    let Next::WorkOrder(order) = &step.next else { panic!() };
    let result = agent_result(order, &Agent::default());
    a.submit(SubmitRequest {
        session_id: sid(1),
        operation_id: "a".into(),
        checkpoint: order.id.clone(),
        outcome: SubmitOutcome::Result { result: result.clone() },
    })
    .unwrap();
    let err = b
        .submit(SubmitRequest {
            session_id: sid(1),
            operation_id: "b".into(),
            checkpoint: order.id.clone(),
            outcome: SubmitOutcome::Result { result },
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::IllegalTransition, "{err}");
    assert_eq!(b.show(&sid(1)).unwrap().state, SessionState::WaitingForDecision);
    assert_eq!(parsed(&path).iter().filter(|e| e.kind() == EventKind::ConceptsExtracted).count(), 1);
}
