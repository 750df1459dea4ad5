//! Contract validation at the worker boundary: every rejection rule, each with a result that
//! breaks only that rule; a rejected result records one `OPERATION_FAILED` and nothing else.

use crate::common::*;
use dossier_codecall::event::EventBody;
use dossier_codecall::prompts::WorkStep;
use dossier_codecall::*;
use serde_json::{Value, json};

static POLICY: NativePolicy = NativePolicy;

/// A runtime whose session waits for a work order of `step`.
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

/// Submit `result`; it must be rejected. Returns the (code, path) pairs. Checks that only one
/// OPERATION_FAILED was recorded and the session still waits for the same work order.
fn reject(rt: &mut Runtime<'_>, order: &WorkOrder, result: Value) -> Vec<(String, String)> {
    let before = rt.session(&sid(1)).unwrap().clone();
    let n = rt.events(&sid(1)).unwrap().len();
    let err = rt
        .submit(SubmitRequest {
            session_id: sid(1),
            operation_id: format!("op-{}", blake3::hash(result.to_string().as_bytes()).to_hex()),
            checkpoint: order.id.clone(),
            outcome: SubmitOutcome::Result { result },
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidWorkerResult, "{err}");
    let events = rt.events(&sid(1)).unwrap();
    assert_eq!(events.len(), n + 1, "one event recorded");
    let EventBody::OperationFailed(f) = &events[n].body else { panic!("{:?}", events[n].kind()) };
    assert_eq!(f.errors, err.errors);
    assert!(f.result_hash.is_some());
    let after = rt.session(&sid(1)).unwrap();
    assert_eq!(after.state, before.state);
    assert_eq!(after.pending, before.pending);
    assert_eq!(
        (&after.lessons, &after.questions, &after.answers),
        (&before.lessons, &before.questions, &before.answers)
    );
    err.errors.iter().map(|e| (e.code.clone(), e.path.clone())).collect()
}

fn has(errors: &[(String, String)], code: &str, path: &str) -> bool {
    errors.iter().any(|(c, p)| c == code && p == path)
}

fn edit(v: &Value, f: impl FnOnce(&mut Value)) -> Value {
    let mut v = v.clone();
    f(&mut v);
    v
}

#[test]
fn concept_extraction_rules() {
    let f = oauth();
    let cache = Cached::default();
    let (_, order) = at(&f, WorkStep::Concepts, &cache);
    let valid = agent_result(&order, &Agent::default());
    assert_eq!(valid["concepts"].as_array().unwrap().len(), 2);
    let cases: Vec<(Value, &str, &str)> = vec![
        (edit(&valid, |v| v["extra"] = json!(1)), "schema", "extra"),
        (edit(&valid, |v| v["concepts"][0]["category"] = json!("bogus")), "schema", "concepts[0].category"),
        (edit(&valid, |v| v["concepts"][0]["label"] = json!(" ")), "empty_field", "concepts[0].label"),
        (edit(&valid, |v| v["concepts"][1]["id"] = json!("c0")), "duplicate_id", "concepts[1].id"),
        (
            edit(&valid, |v| v["concepts"][1]["prerequisites"] = json!(["c9"])),
            "unknown_prerequisite",
            "concepts[1].prerequisites[0]",
        ),
        (edit(&valid, |v| v["concepts"][0]["difficulty"] = json!(9)), "out_of_range", "concepts[0].difficulty"),
        (edit(&valid, |v| v["concepts"][0]["novelty"] = json!(1.5)), "out_of_range", "concepts[0].novelty"),
        (edit(&valid, |v| v["concepts"][0]["evidence"] = json!([])), "missing_evidence", "concepts[0].evidence"),
        (
            edit(&valid, |v| v["concepts"][0]["evidence"][0]["path"] = json!("src/nope.rs")),
            "evidence_not_in_pack",
            "concepts[0].evidence[0]",
        ),
        (
            edit(&valid, |v| v["concepts"][0]["evidence"][0]["content_hash"] = json!("00")),
            "evidence_hash_mismatch",
            "concepts[0].evidence[0]",
        ),
        (
            edit(&valid, |v| v["concepts"][0]["evidence"][0]["start_line"] = json!(0)),
            "invalid_evidence",
            "concepts[0].evidence[0]",
        ),
        (
            edit(&valid, |v| v["disputed"] = json!([{"signal_id": "derived-nope", "reason": "x"}])),
            "unknown_signal",
            "disputed[0].signal_id",
        ),
        (
            edit(&valid, |v| v["concepts"][0]["description"] = json!("Once mastered, tokens are easy")),
            "mastery_claim",
            "concepts[0].description",
        ),
    ];
    for (result, code, path) in cases {
        let (mut rt, order) = at(&f, WorkStep::Concepts, &cache);
        let errors = reject(&mut rt, &order, result);
        assert!(has(&errors, code, path), "expected {code} at `{path}`, got {errors:?}");
    }
}

#[test]
fn a_sub_span_without_a_hash_is_completed_from_the_pack() {
    let f = oauth();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Concepts, &cache);
    let mut valid = agent_result(&order, &Agent::default());
    let r = &mut valid["concepts"][0]["evidence"][0];
    r["start_line"] = json!(3);
    r["end_line"] = json!(6);
    r.as_object_mut().unwrap().remove("content_hash");
    let step = rt
        .submit(SubmitRequest {
            session_id: sid(1),
            operation_id: "ok".into(),
            checkpoint: order.id.clone(),
            outcome: SubmitOutcome::Result { result: valid },
        })
        .unwrap();
    let EventBody::ConceptsExtracted(c) = &step.events[0].body else { panic!() };
    let cited = &c.result.concepts[0].evidence[0];
    let pack = rt.session(&sid(1)).unwrap().pack.clone().unwrap();
    let excerpt = pack.excerpts.iter().find(|e| e.evidence.path == cited.path).unwrap();
    let lines: String = excerpt.text.split_inclusive('\n').skip(2).take(4).collect();
    assert_eq!(cited.content_hash.as_deref(), Some(blake3::hash(lines.as_bytes()).to_hex().as_str()));
}

#[test]
fn lesson_rules_cover_all_seven_parts() {
    let f = retry();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Lesson, &cache);
    let valid = agent_result(&order, &Agent::default());
    let empty = |field: &'static str| {
        edit(&valid, move |v| {
            let p: Vec<&str> = field.split('.').collect();
            match p.as_slice() {
                [a] => v[*a] = if v[*a].is_array() { json!([]) } else { json!("") },
                [a, b] => v[*a][*b] = json!(""),
                _ => unreachable!(),
            }
        })
    };
    for part in [
        "objective",
        "what",
        "why_here",
        "failure_mode",
        "connections",
        "misconceptions",
        "mental_model",
        "minimal_example.code",
        "minimal_example.explanation",
    ] {
        let errors = reject(&mut rt, &order, empty(part));
        assert!(has(&errors, "lesson_part_missing", part), "{part}: {errors:?}");
    }
    let errors = reject(&mut rt, &order, edit(&valid, |v| v["connections"] = json!([" "])));
    assert!(has(&errors, "lesson_part_missing", "connections[0]"), "{errors:?}");
    let errors = reject(
        &mut rt,
        &order,
        edit(&valid, |v| v.as_object_mut().unwrap().remove("minimal_example").map(drop).unwrap()),
    );
    assert!(has(&errors, "schema", "minimal_example"), "{errors:?}");
    let errors = reject(&mut rt, &order, edit(&valid, |v| v["unit_id"] = json!("unit-other")));
    assert!(has(&errors, "unit_mismatch", "unit_id"), "{errors:?}");
    let errors = reject(&mut rt, &order, edit(&valid, |v| v["evidence"] = json!([])));
    assert!(has(&errors, "missing_evidence", "evidence"), "{errors:?}");
    let errors = reject(&mut rt, &order, edit(&valid, |v| v["mental_model"] = json!("You have now MASTERED this.")));
    assert!(has(&errors, "mastery_claim", "mental_model"), "{errors:?}");
    // The valid one is accepted after all those rejections, and the attempt count shows them.
    let Next::WorkOrder(o) = rt.show(&sid(1)).unwrap().next else { panic!() };
    assert_eq!(o.attempt, 15);
    let step = rt
        .submit(SubmitRequest {
            session_id: sid(1),
            operation_id: "valid".into(),
            checkpoint: order.id.clone(),
            outcome: SubmitOutcome::Result { result: valid },
        })
        .unwrap();
    assert!(matches!(step.next, Next::Lesson(_)));
}

#[test]
fn question_rules_include_every_item_check() {
    let f = retry();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Question, &cache);
    let valid = agent_result(&order, &Agent::default());
    let choice = |id: &str, text: &str| json!({"id": id, "text": text, "rationale": format!("why {id}")});
    let cases: Vec<(Value, &str, &str)> = vec![
        (edit(&valid, |v| v["id"] = json!("q-1")), "question_id_mismatch", "id"),
        (edit(&valid, |v| v["unit_id"] = json!("unit-x")), "unit_mismatch", "unit_id"),
        (edit(&valid, |v| v["intent"] = json!("system_design")), "intent_mismatch", "intent"),
        (edit(&valid, |v| v["choices"] = json!([v["choices"][0], v["choices"][1]])), "choice-count", ""),
        (
            edit(&valid, |v| {
                let extra: Vec<Value> =
                    (0..6).map(|i| choice(&format!("x{i}"), &format!("option number {i}"))).collect();
                v["choices"] = json!(extra);
                v["correct_choice_id"] = json!("x1");
            }),
            "choice-count",
            "",
        ),
        (edit(&valid, |v| v["choices"][2]["id"] = json!("a")), "duplicate-choice-id", ""),
        (edit(&valid, |v| v["correct_choice_id"] = json!("z")), "correct-choice-missing", ""),
        (edit(&valid, |v| v["choices"][2]["rationale"] = json!("")), "missing-rationale", ""),
        (
            edit(&valid, |v| {
                v["choices"][1]["text"] = json!(
                    "It waits longer after each failure, doubling the delay every time, so that a struggling \
                     server gets room to recover before the next attempt is made"
                )
            }),
            "correct-choice-longest",
            "",
        ),
        (edit(&valid, |v| v["choices"][3]["text"] = json!("None of the above")), "all-or-none-of-the-above", ""),
        (edit(&valid, |v| v["choices"][3]["text"] = v["choices"][0]["text"].clone()), "duplicate-choice-text", ""),
        (edit(&valid, |v| v["evidence"] = json!([])), "missing-evidence", ""),
        (
            edit(&valid, |v| v["prompt"] = json!("Which of these does the retry loop not do after a failure?")),
            "negative-stem",
            "",
        ),
        (edit(&valid, |v| v["choices"][3]["text"] = json!("Both a and c")), "combination-option", ""),
        (
            edit(&valid, |v| v["evidence"][0]["revision"] = json!("0000000000000000000000000000000000000000")),
            "evidence_not_in_pack",
            "evidence[0]",
        ),
    ];
    for (result, code, path) in cases {
        let errors = reject(&mut rt, &order, result);
        assert!(has(&errors, code, path), "expected {code} at `{path}`, got {errors:?}");
    }
}

/// Issue 21, item 4: a `check-item` warning (here `absolute-terms`: a distractor says "always",
/// the key does not) does not refuse the question; it is recorded on `QUESTION_PRESENTED`.
#[test]
fn item_warnings_are_recorded_and_the_question_is_still_asked() {
    let f = retry();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Question, &cache);
    let valid = agent_result(&order, &Agent::default());
    let result = edit(&valid, |v| {
        v["choices"][0]["text"] = json!("It always retries immediately, with no delay between attempts")
    });
    let n = rt.events(&sid(1)).unwrap().len();
    rt.submit(SubmitRequest {
        session_id: sid(1),
        operation_id: "op-warned".into(),
        checkpoint: order.id.clone(),
        outcome: SubmitOutcome::Result { result },
    })
    .expect("a warning does not refuse the question");
    let events = rt.events(&sid(1)).unwrap();
    let presented = events[n..]
        .iter()
        .find_map(|e| if let EventBody::QuestionPresented(p) = &e.body { Some(p) } else { None })
        .expect("the question is presented");
    let codes: Vec<&str> = presented.item_warnings.iter().map(|w| w.code.as_str()).collect();
    assert_eq!(codes, ["absolute-terms"], "{:?}", presented.item_warnings);
    assert!(presented.item_warnings[0].message.contains("always"));
}

#[test]
fn evaluation_rules() {
    let f = retry();
    let cache = Cached::default();
    let (mut rt, order) = at(&f, WorkStep::Evaluation, &cache);
    let valid = agent_result(&order, &Agent::default());
    assert_eq!(valid["diagnosed_misconceptions"], json!([]), "the driver answered correctly");
    let cases: Vec<(Value, &str, &str)> = vec![
        (edit(&valid, |v| v["question_id"] = json!("q-1")), "question_id_mismatch", "question_id"),
        (
            edit(&valid, |v| v["diagnosed_misconceptions"] = json!(["thinks X"])),
            "misconception_on_correct_answer",
            "diagnosed_misconceptions",
        ),
        (edit(&valid, |v| v["rationale"] = json!("")), "empty_field", "rationale"),
        (edit(&valid, |v| v["feedback"] = json!("Well done, you mastered it")), "mastery_claim", "feedback"),
        (edit(&valid, |v| v["correct"] = json!(true)), "schema", "correct"),
    ];
    for (result, code, path) in cases {
        let errors = reject(&mut rt, &order, result);
        assert!(has(&errors, code, path), "expected {code} at `{path}`, got {errors:?}");
    }
}

#[test]
fn work_orders_carry_strict_versioned_schemas_and_templates() {
    let f = retry();
    let cache = Cached::default();
    for (step, required) in [
        (WorkStep::Concepts, vec!["concepts"]),
        (
            WorkStep::Lesson,
            vec![
                "what",
                "why_here",
                "failure_mode",
                "connections",
                "misconceptions",
                "mental_model",
                "minimal_example",
            ],
        ),
        (WorkStep::Question, vec!["choices", "correct_choice_id", "evidence", "intent"]),
        (WorkStep::Evaluation, vec!["question_id", "rationale", "feedback"]),
    ] {
        let (_, order) = at(&f, step, &cache);
        let schema = &order.result_schema;
        assert_eq!(schema["additionalProperties"], json!(false), "{step:?}");
        let req: Vec<&str> = schema["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        for r in required {
            assert!(req.contains(&r), "{step:?} requires {r}: {req:?}");
        }
        let version = if step == WorkStep::Question { 2 } else { 1 };
        assert_eq!(order.template.name, format!("{}.v{version}", step.name()));
        assert!(order.template.text.contains("never instructions"));
        if step == WorkStep::Question {
            assert_eq!(schema["properties"]["choices"]["minItems"], json!(3));
            assert_eq!(schema["properties"]["choices"]["maxItems"], json!(5));
        }
    }
}
