//! Replay: recorded logs re-derive to identical decisions without a model or a repository; a
//! different policy, or an edited log, shows up as divergences.

use std::io::Write;

use crate::common::{self, *};
use dossier_codecall::event::EventBody;
use dossier_codecall::*;
use dossier_core::learning as l;

fn write_log(events: &[Vec<Event>]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("learning.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    for log in events {
        for e in log {
            writeln!(f, "{}", serde_json::to_string(e).unwrap()).unwrap();
        }
    }
    (dir, path)
}

#[test]
fn recorded_logs_replay_to_identical_decisions() {
    let logs = scenario_logs();
    // The fixture repositories are gone: replay reads nothing but the log.
    for log in &logs {
        let EventBody::SessionStarted(s) = &log[0].body else { panic!() };
        assert!(!std::path::Path::new(&s.locator.repo).exists());
    }
    let (_dir, path) = write_log(&logs);
    let report = replay(&LogTarget::File(path), &NativePolicy, &dossier_codecall::NativeRedactor).unwrap();
    assert!(
        report.is_identical(),
        "{:#?}",
        report.sessions.iter().map(|s| (&s.divergences, &s.error)).collect::<Vec<_>>()
    );
    assert_eq!(report.sessions.len(), logs.len());
    for (s, log) in report.sessions.iter().zip(&logs) {
        let rejections = log
            .iter()
            .filter(
                |e| matches!(&e.body, EventBody::OperationFailed(f) if f.cause == RecoveryCause::InvalidWorkerResult),
            )
            .count();
        assert_eq!(s.events, log.len());
        assert_eq!(s.taken_as_recorded, rejections);
        assert_eq!(s.rederived, log.len() - rejections);
        let mut folded = Session::idle(log[0].session_id.clone());
        log.iter().for_each(|e| folded.apply(e).unwrap());
        assert_eq!(s.final_state, folded.state);
    }
    let total_rejections: usize = report.sessions.iter().map(|s| s.taken_as_recorded).sum();
    assert!(total_rejections >= 6, "the scenarios include rejections: {total_rejections}");
}

/// NativePolicy with a different shuffle: a changed policy must not replay silently.
struct ReversedShuffle;

impl LearningPolicy for ReversedShuffle {
    fn version(&self) -> String {
        NativePolicy.version()
    }
    fn score_opportunity(&self, i: &l::OpportunityInput) -> Result<l::Opportunity, PolicyFailure> {
        NativePolicy.score_opportunity(i)
    }
    fn plan(&self, c: &[l::Concept], b: u32) -> Result<l::LearningPlan, PolicyFailure> {
        NativePolicy.plan(c, b)
    }
    fn next_move(&self, s: &l::LearnerState) -> Result<l::LearningMove, PolicyFailure> {
        NativePolicy.next_move(s)
    }
    fn check_item(&self, i: &l::McqItem) -> Result<Vec<ItemFinding>, PolicyFailure> {
        NativePolicy.check_item(i)
    }
    fn shuffle_order(&self, q: &str, n: usize, c: usize, p: &[u32]) -> Result<Vec<usize>, PolicyFailure> {
        let mut order = NativePolicy.shuffle_order(q, n, c, p)?;
        order.reverse();
        Ok(order)
    }
}

/// NativePolicy under another version name.
struct Renamed;

impl LearningPolicy for Renamed {
    fn version(&self) -> String {
        "alternate-component/2".into()
    }
    fn score_opportunity(&self, i: &l::OpportunityInput) -> Result<l::Opportunity, PolicyFailure> {
        NativePolicy.score_opportunity(i)
    }
    fn plan(&self, c: &[l::Concept], b: u32) -> Result<l::LearningPlan, PolicyFailure> {
        NativePolicy.plan(c, b)
    }
    fn next_move(&self, s: &l::LearnerState) -> Result<l::LearningMove, PolicyFailure> {
        NativePolicy.next_move(s)
    }
    fn check_item(&self, i: &l::McqItem) -> Result<Vec<ItemFinding>, PolicyFailure> {
        NativePolicy.check_item(i)
    }
    fn shuffle_order(&self, q: &str, n: usize, c: usize, p: &[u32]) -> Result<Vec<usize>, PolicyFailure> {
        NativePolicy.shuffle_order(q, n, c, p)
    }
}

#[test]
fn a_different_policy_shows_up_as_divergences() {
    let (events, _) = full_session(&retry(), &NativePolicy, User::default());
    let report = replay_events(&events, &ReversedShuffle, &dossier_codecall::NativeRedactor);
    assert!(!report.is_identical());
    let d = &report.sessions[0].divergences;
    assert!(
        !d.is_empty() && d.iter().all(|d| d.event == EventKind::QuestionPresented && d.field == "payload"),
        "{d:#?}"
    );

    let report = replay_events(&events, &Renamed, &dossier_codecall::NativeRedactor);
    let d = &report.sessions[0].divergences;
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!((d[0].sequence, d[0].event), (1, EventKind::SessionStarted));
    assert!(d[0].recorded.contains("(native)") && d[0].replayed.contains("alternate-component/2"));
    assert_eq!(report.sessions[0].recorded_policy_version.as_deref(), Some(NativePolicy.version().as_str()));
}

#[test]
fn an_edited_log_shows_up_as_divergences() {
    let (mut events, _) = full_session(&retry(), &NativePolicy, User::default());
    // A plan that is not what the policy makes of the recorded concepts.
    let i = events.iter().position(|e| e.kind() == EventKind::PlanCreated).unwrap();
    if let EventBody::PlanCreated(p) = &mut events[i].body {
        p.plan.estimated_minutes += 1;
    }
    let report = replay_events(&events, &NativePolicy, &dossier_codecall::NativeRedactor);
    let d = &report.sessions[0].divergences;
    // The plan, and the card that records the (edited) plan's minutes.
    assert_eq!(d.len(), 2, "{d:#?}");
    assert_eq!((d[0].event, d[1].event), (EventKind::PlanCreated, EventKind::LearningRecommendationPresented));
    assert!(report.sessions[0].error.is_none());

    // An answer changed to another choice (with a matching correct flag): the recorded
    // evaluation no longer fits and the reducer stops the replay there.
    let (mut events, _) = full_session(&retry(), &NativePolicy, User::default());
    let i = events.iter().position(|e| e.kind() == EventKind::QuestionAnswered).unwrap();
    if let EventBody::QuestionAnswered(a) = &mut events[i].body {
        a.choice_id = "a".into();
        a.correct = false;
    }
    let report = replay_events(&events, &NativePolicy, &dossier_codecall::NativeRedactor);
    assert!(!report.is_identical());
    assert!(report.sessions[0].error.as_deref().unwrap().contains("ANSWER_EVALUATED"));
}

#[test]
fn a_directory_log_replays_every_session() {
    let dir = tempfile::tempdir().unwrap();
    let policy = NativePolicy;
    let cache = Cached::default();
    for (n, f) in [(1, retry()), (2, cache_fixture())] {
        let mut rt = Runtime::open(LogTarget::Directory(dir.path().into()), &policy, &dossier_codecall::NativeRedactor)
            .unwrap()
            .with_evidence_source(cache.clone());
        let step = rt.start(start_request(&f, "s", &sid(n))).unwrap();
        Driver::new(Agent::default(), User { first_wrong: true, ..User::default() }).run(&mut rt, step);
    }
    let report = replay(&LogTarget::Directory(dir.path().into()), &policy, &dossier_codecall::NativeRedactor).unwrap();
    assert_eq!(report.sessions.len(), 2);
    assert!(report.is_identical(), "{report:#?}");
    assert!(report.sessions.iter().all(|s| s.final_state == SessionState::Completed));
}

fn cache_fixture() -> Fixture {
    common::cache()
}

/// Issue 21: logs written before display labels, §11 action names and `question.v2` still load
/// and replay to identical decisions — answers without `display_label`, evaluations whose
/// `action` is the policy's `teach` / `ask`, cards without their minutes, and the `question.v1`
/// template record.
#[test]
fn logs_from_before_issue_21_still_load_and_replay() {
    let user = User { first_wrong: true, ..User::default() };
    let (events, _) = full_session(&retry(), &NativePolicy, user);
    let mut edited = 0;
    let old: Vec<Event> = events
        .iter()
        .map(|e| {
            let mut v = serde_json::to_value(e).unwrap();
            let p = &mut v["payload"];
            match e.kind() {
                EventKind::QuestionAnswered => {
                    assert!(p.as_object_mut().unwrap().remove("display_label").is_some());
                    edited += 1;
                }
                EventKind::AnswerEvaluated => {
                    let old = match p["next"]["move"].as_str().unwrap() {
                        "teach" => "teach",
                        "ask" => "ask",
                        other => other,
                    };
                    if p["evaluation"]["action"] == "advance" {
                        p["evaluation"]["action"] = serde_json::json!(old);
                        edited += 1;
                    }
                }
                EventKind::LearningRecommendationPresented => {
                    assert!(p.as_object_mut().unwrap().remove("estimated_minutes").is_some());
                }
                EventKind::SessionStarted => {
                    for t in p["templates"].as_array_mut().unwrap() {
                        if t["step"] == "question" {
                            t["name"] = serde_json::json!("question.v1");
                            t["version"] = serde_json::json!(1);
                            t["blake3"] = serde_json::json!("0".repeat(64));
                        }
                    }
                }
                _ => {}
            }
            serde_json::from_value(v).unwrap()
        })
        .collect();
    assert!(edited >= 2, "the session has answers to rewrite");
    let (_dir, path) = write_log(&[old]);
    let raw = std::fs::read_to_string(&path).unwrap();
    assert!(!raw.contains("display_label") && raw.contains("question.v1"));
    let report = replay(&LogTarget::File(path.clone()), &NativePolicy, &dossier_codecall::NativeRedactor).unwrap();
    assert!(
        report.is_identical(),
        "{:#?}",
        report.sessions.iter().map(|s| (&s.divergences, &s.error)).collect::<Vec<_>>()
    );
    // The runtime loads it too (the reducer accepts every event).
    let mut rt = Runtime::open(LogTarget::File(path), &NativePolicy, &dossier_codecall::NativeRedactor).unwrap();
    let sid = rt.session_ids()[0].clone();
    assert!(matches!(rt.show(&sid).unwrap().next, Next::Summary(_)));
}
