//! Documentation (ARCHITECTURE §13) in the session: `DOCUMENTATION_RESOLVED` before each lesson
//! work order, the sources in the work order, the lesson contract's citation rules (issue 21
//! defect 8), the summary's limitation line, and replay without any provider.

use crate::common::*;
use dossier_codecall::event::EventBody;
use dossier_codecall::prompts::WorkStep;
use dossier_codecall::*;
use serde_json::{Value, json};

static POLICY: NativePolicy = NativePolicy;

fn at(f: &Fixture, step: WorkStep, cache: &Cached) -> (Runtime<'static>, WorkOrder) {
    let mut rt = memory_runtime(&POLICY, cache.clone());
    let mut s = rt.start(start_request(f, "start", &sid(1))).unwrap();
    let mut d = Driver::new(Agent::default(), User::default());
    for _ in 0..50 {
        if let Next::WorkOrder(o) = &s.next
            && o.step == step
        {
            return (rt, (**o).clone());
        }
        s = d.act(&mut rt, &s).unwrap();
    }
    panic!("no {step:?} work order")
}

fn submit(rt: &mut Runtime<'_>, order: &WorkOrder, result: Value) -> Result<Step, RuntimeError> {
    rt.submit(SubmitRequest {
        session_id: sid(1),
        operation_id: format!("op-{}", blake3::hash(result.to_string().as_bytes()).to_hex()),
        checkpoint: order.id.clone(),
        outcome: SubmitOutcome::Result { result },
    })
}

fn codes(e: &RuntimeError) -> Vec<(String, String)> {
    e.errors.iter().map(|e| (e.code.clone(), e.path.clone())).collect()
}

/// The retry fixture with project documentation on its concept: an ADR and a README.
fn retry_with_docs() -> Fixture {
    let f = retry();
    std::fs::create_dir_all(f.dir.path().join("docs/adr")).unwrap();
    std::fs::write(
        f.dir.path().join("docs/adr/0001-retry.md"),
        "# Retry with backoff\n\nCalls to the upstream retry with exponential backoff: the delay doubles.\n",
    )
    .unwrap();
    f
}

#[test]
fn defect_8_a_claim_citing_an_unrelated_line_is_refused() {
    let f = retry();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Lesson, &cache);
    let valid = agent_result(&order, &Agent::default());
    let o = serde_json::to_value(&order).unwrap();
    let excerpt = &o["evidence"]["excerpts"][0];
    let text = excerpt["text"].as_str().unwrap();
    let start = excerpt["evidence"]["start_line"].as_u64().unwrap();
    // A line holding only a closing brace: nothing a claim could be about.
    let brace = text.lines().position(|l| l.trim() == "}").expect("a closing brace in the excerpt") as u64;
    let mut bad = valid.clone();
    bad["evidence"] = json!([{
        "path": excerpt["evidence"]["path"], "revision": excerpt["evidence"]["revision"],
        "start_line": start + brace, "end_line": start + brace
    }]);
    let err = submit(&mut rt, &order, bad).unwrap_err();
    assert!(codes(&err).contains(&("evidence_unrelated".into(), "evidence[0]".into())), "{err:?}");
    // The same lesson citing the lines it talks about is accepted.
    submit(&mut rt, &order, valid).unwrap();
}

#[test]
fn defect_8_a_standard_citation_with_a_url_is_refused_while_retrieval_is_off() {
    let f = retry();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Lesson, &cache);
    let mut bad = agent_result(&order, &Agent::default());
    bad["citations"] =
        json!([{"title": "RFC 9110 §15.5", "url": "https://www.rfc-editor.org/rfc/rfc9110", "kind": "standard"}]);
    let err = submit(&mut rt, &order, bad).unwrap_err();
    assert!(codes(&err).contains(&("retrieval_off".into(), "citations[0].url".into())), "{err:?}");
}

#[test]
fn a_citation_of_a_source_that_was_not_resolved_is_refused() {
    let f = retry_with_docs();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Lesson, &cache);
    let mut bad = agent_result(&order, &Agent::default());
    bad["citations"] = json!([{"title": "Our notes", "kind": "project_docs", "source_id": "project:docs/nope.md"}]);
    let err = submit(&mut rt, &order, bad).unwrap_err();
    assert!(codes(&err).contains(&("citation_not_resolved".into(), "citations[0].source_id".into())), "{err:?}");
    // A project_docs citation without a source id is refused as well.
    let mut bad = agent_result(&order, &Agent::default());
    bad["citations"] = json!([{"title": "Our notes", "kind": "project_docs"}]);
    let err = submit(&mut rt, &order, bad).unwrap_err();
    assert!(codes(&err).contains(&("citation_not_resolved".into(), "citations[0].source_id".into())), "{err:?}");
}

#[test]
fn documentation_is_resolved_before_the_lesson_and_the_work_order_carries_the_sources() {
    let f = retry_with_docs();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Lesson, &cache);
    let events = rt.events(&sid(1)).unwrap().to_vec();
    let n = events.len();
    assert_eq!(events[n - 2].kind(), event::EventKind::LessonStarted);
    let EventBody::DocumentationResolved(d) = &events[n - 1].body else { panic!("{:?}", events[n - 1].kind()) };
    assert_eq!(d.work_order_id, order.id);
    assert_eq!(d.status, dossier_docs::Status::Resolved, "{d:#?}");
    let adr = d.sources.iter().find(|s| s.source_id == "project:docs/adr/0001-retry.md").expect("the ADR resolved");
    assert_eq!(adr.content_hash, blake3::hash(adr.excerpt.as_bytes()).to_hex().to_string());
    assert!(!d.network, "retrieval is off by default");
    let o = serde_json::to_value(&order).unwrap();
    let docs = &o["input"]["documentation"];
    assert_eq!(docs["status"], "resolved", "{docs:#}");
    assert!(docs["sources"].as_array().unwrap().iter().any(|s| s["source_id"] == "project:docs/adr/0001-retry.md"));
    assert!(docs["sources"][0]["excerpt"].as_str().is_some_and(|e| !e.is_empty()));
    // Citing the resolved ADR is accepted; the recorded citation names it with its hash.
    let mut lesson = agent_result(&order, &Agent::default());
    lesson["citations"] = json!([
        {"title": "ADR 1", "kind": "project_docs", "source_id": "project:docs/adr/0001-retry.md"},
        {"title": "General engineering knowledge", "kind": "model_knowledge"}
    ]);
    submit(&mut rt, &order, lesson).unwrap();
    let events = rt.events(&sid(1)).unwrap();
    let EventBody::LessonReady(r) = &events.last().unwrap().body else { panic!() };
    assert_eq!(r.lesson.citations[0].content_hash.as_deref(), Some(adr.content_hash.as_str()));
    assert_eq!(r.lesson.citations[0].location.as_deref(), Some("docs/adr/0001-retry.md"));
}

#[test]
fn the_summary_says_what_each_lesson_was_checked_against() {
    let f = retry_with_docs();
    let (events, last) = full_session(&f, &POLICY, User::default());
    let Next::Summary(summary) = &last.next else { panic!("{:?}", last.next) };
    let line = summary.limitations.iter().find(|l| l.starts_with("Documentation")).expect("a documentation line");
    assert!(line.contains("project:docs/adr/0001-retry.md"), "{line}");
    assert!(line.contains("offline"), "{line}");
    assert!(!summary.limitations.iter().any(|l| l.contains("was off: explanations were not checked")), "{summary:#?}");
    // Replay needs no provider: the recorded resolution answers it.
    let report = replay_events(&events, &POLICY, &dossier_codecall::NativeRedactor);
    assert!(report.is_identical(), "{report:#?}");
}

/// A redactor that replaces one word: shows the runtime redacts documentation with the redactor
/// it is handed (the store's policy in the binary), not with rules of its own.
struct WordRedactor;

impl dossier_evidence::Redact for WordRedactor {
    fn redact(&self, text: &str) -> Result<dossier_evidence::Redacted, String> {
        dossier_evidence::Redact::redact(
            &dossier_codecall::NativeRedactor,
            &text.replace("hunter2word", "[redacted:test]"),
        )
    }
}

static WORD_REDACTOR: WordRedactor = WordRedactor;

#[test]
fn documentation_excerpts_are_redacted_with_the_handed_redactor_before_they_are_hashed() {
    let f = retry_with_docs();
    std::fs::write(
        f.dir.path().join("docs/adr/0001-retry.md"),
        "# Retry with backoff\n\nCalls to the upstream retry with exponential backoff: the delay doubles.\n\
         The upstream retry token is hunter2word.\n",
    )
    .unwrap();
    let mut rt = Runtime::open(LogTarget::Memory, &POLICY, &WORD_REDACTOR)
        .unwrap()
        .with_evidence_source(Cached::default())
        .with_clock(FixedClock);
    let mut s = rt.start(start_request(&f, "start", &sid(1))).unwrap();
    let mut d = Driver::new(Agent::default(), User::default());
    for _ in 0..50 {
        if matches!(&s.next, Next::WorkOrder(o) if o.step == WorkStep::Lesson) {
            break;
        }
        s = d.act(&mut rt, &s).unwrap();
    }
    let events = rt.events(&sid(1)).unwrap().to_vec();
    let EventBody::DocumentationResolved(r) = &events.last().unwrap().body else { panic!("{:?}", events.last()) };
    let adr = r.sources.iter().find(|s| s.source_id == "project:docs/adr/0001-retry.md").expect("the ADR resolved");
    assert!(adr.excerpt.contains("[redacted:test]"), "{}", adr.excerpt);
    assert_eq!(adr.content_hash, blake3::hash(adr.excerpt.as_bytes()).to_hex().to_string(), "hash of the stored text");
    for e in &events {
        assert!(!serde_json::to_string(e).unwrap().contains("hunter2word"), "{e:?}");
    }
    let Next::WorkOrder(o) = &s.next else { panic!("{:?}", s.next) };
    assert!(!serde_json::to_string(o).unwrap().contains("hunter2word"));
}
