//! Secrets never leave the runtime: a planted AWS key, private key and GitHub token — in changed
//! code, in the task text, in a sensitive `.env`, and echoed back by the agent — appear in no
//! event, work order, step, error or summary.

use crate::common::*;
use dossier_codecall::event::EventBody;
use dossier_codecall::*;

const SECRETS: [&str; 3] = [AWS_KEY, GITHUB_TOKEN, PRIVATE_KEY_BODY];

fn assert_clean(what: &str, text: &str) {
    for s in SECRETS {
        assert!(!text.contains(s), "{what} leaks {s}");
    }
}

#[test]
fn planted_secrets_appear_nowhere() {
    let f = secrets();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.jsonl");
    let policy = NativePolicy;
    let mut rt = Runtime::open(LogTarget::File(path.clone()), &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(Cached::default());
    let mut step = rt.start(start_request(&f, "start", &sid(1))).unwrap();
    // The agent echoes secrets from its own context into every lesson.
    let agent = Agent { echo: Some(format!("The key {AWS_KEY} and token {GITHUB_TOKEN} were seen.")) };
    let mut d = Driver::new(agent, User { first_wrong: true, ..User::default() });
    let mut everything = Vec::new();
    let mut work_orders = 0;
    loop {
        if let Next::WorkOrder(_) = &step.next {
            work_orders += 1;
        }
        everything.push(serde_json::to_string(&step).unwrap());
        match d.act(&mut rt, &step) {
            Some(next) => step = next,
            None => break,
        }
    }
    assert_eq!(step.state, SessionState::Completed);
    assert!(work_orders >= 6, "{work_orders}");
    let Next::Summary(summary) = &step.next else { panic!() };
    everything.push(serde_json::to_string(summary).unwrap());

    // A rejected result and a cancel note carrying secrets, on a second session.
    let mut step2 = rt.start(start_request(&f, "start-2", &sid(2))).unwrap();
    let Next::WorkOrder(order) = step2.next.clone() else { panic!() };
    let err = rt
        .submit(SubmitRequest {
            session_id: sid(2),
            operation_id: "bad".into(),
            checkpoint: order.id.clone(),
            outcome: SubmitOutcome::Result { result: serde_json::json!({"concepts": GITHUB_TOKEN, AWS_KEY: 1}) },
        })
        .unwrap_err();
    everything.push(serde_json::to_string(&err).unwrap());
    step2 = rt
        .cancel(CancelRequest {
            session_id: sid(2),
            operation_id: "cancel".into(),
            reason: CancelReason::UserCancelled,
            note: Some(format!("-----BEGIN RSA PRIVATE KEY-----\n{PRIVATE_KEY_BODY}\n-----END RSA PRIVATE KEY-----")),
            actor: Actor::User,
        })
        .unwrap();
    everything.push(serde_json::to_string(&step2).unwrap());

    let log = std::fs::read_to_string(&path).unwrap();
    assert_clean("the event log", &log);
    for (i, text) in everything.iter().enumerate() {
        assert_clean(&format!("returned value {i}"), text);
    }

    // The secrets were there to find: the collector redacted them and withheld `.env`.
    let events = rt.events(&sid(1)).unwrap();
    let pack = events
        .iter()
        .find_map(|e| match &e.body {
            EventBody::ContextReady(c) => Some(&c.pack),
            _ => None,
        })
        .unwrap();
    for kind in ["aws_access_key_id", "github_token", "private_key"] {
        assert!(pack.redactions.get(kind).is_some_and(|n| *n > 0), "{kind}: {:?}", pack.redactions);
    }
    assert_eq!(pack.sensitive_paths, [".env"]);
    assert!(log.contains("[REDACTED:github_token:"), "the task text and the echoed lesson were redacted in place");
    let lessons: Vec<_> = events
        .iter()
        .filter_map(|e| match &e.body {
            EventBody::LessonReady(r) | EventBody::ReinforcementReady(r) => Some(&r.lesson.what),
            _ => None,
        })
        .collect();
    assert!(!lessons.is_empty() && lessons.iter().all(|w| w.contains("[REDACTED:aws_access_key_id:")), "{lessons:?}");
}
