//! codecall's user gates as MCP forms (DESIGN §3, §6): the Start/Skip decision, the confidence
//! gate (one level per unit, or "use a default") and each multiple-choice answer, asked of the
//! *user* directly through an `InputRequiredResult` form, and the answer read back from the
//! form's response; when no form can be shown (the client cannot, or the user dismissed it),
//! [`ask_in_conversation`] says exactly what the agent must ask and which tool to call.
//!
//! Not for: running the session (the runtime) or the MCP plumbing (`mcp/codecall.rs`). A form
//! never carries anything the user should not see: views come from the runtime, which never
//! puts an answer key in a question.

use dossier_codecall::contract::ConfidenceLevel;
use dossier_codecall::step::{ConfidenceGate, QuestionView, RecommendationView};
use dossier_codecall::{Answer, Next};
use rmcp::model::{ElicitRequest, ElicitRequestParams, InputRequest};
use serde_json::{Value, json};

/// The form field of a Start/Skip decision.
const DECISION: &str = "decision";
/// The form field of a question's answer.
const CHOICE: &str = "answer";
/// The value of a confidence field meaning "use a default".
const DEFAULT_LEVEL: &str = "default";

/// The levels a user can declare, with their titles (§11).
const LEVELS: [(ConfidenceLevel, &str, &str); 4] = [
    (ConfidenceLevel::Expert, "expert", "Expert: I could teach it"),
    (ConfidenceLevel::Comfortable, "comfortable", "Comfortable: I use it"),
    (ConfidenceLevel::HeardOfIt, "heard_of_it", "Heard of it"),
    (ConfidenceLevel::NeverLearned, "never_learned", "Never learned it"),
];

/// The checkpoint a gate is answered at, if `next` is a gate the user answers.
pub fn gate_checkpoint(next: &Next) -> Option<&str> {
    match next {
        Next::Decision(c) if c.teachable => Some(&c.checkpoint),
        Next::Confidence(g) => Some(&g.checkpoint),
        Next::Question(q) => Some(&q.checkpoint),
        _ => None,
    }
}

/// The form asking the user the gate `next` waits at; `None` when `next` is not a user gate (a
/// work order or a lesson is the agent's, and an unteachable card has nothing to start).
pub fn form(next: &Next) -> Option<InputRequest> {
    let (message, schema) = match next {
        Next::Decision(card) if card.teachable => decision_form(card),
        Next::Confidence(gate) => confidence_form(gate),
        Next::Question(q) => question_form(q),
        _ => return None,
    };
    Some(InputRequest::Elicitation(ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: serde_json::from_value(schema).expect("a valid elicitation schema"),
    })))
}

fn unit_list(units: &[dossier_codecall::work_order::UnitBrief]) -> String {
    units
        .iter()
        .enumerate()
        .map(|(i, u)| format!("{}. {} — {}", i + 1, u.label, u.objective))
        .collect::<Vec<_>>()
        .join("\n")
}

fn decision_form(card: &RecommendationView) -> (String, Value) {
    let message = format!(
        "codecall: a learning session about what was just built, about {} minute(s):\n{}\nStart it now?",
        card.estimated_minutes,
        unit_list(&card.units)
    );
    let schema = json!({
        "type": "object",
        "properties": {
            DECISION: {
                "type": "string",
                "title": "Start the session?",
                "oneOf": [
                    { "const": "start", "title": "Start" },
                    { "const": "skip", "title": "Skip" }
                ]
            }
        },
        "required": [DECISION]
    });
    (message, schema)
}

fn confidence_form(gate: &ConfidenceGate) -> (String, Value) {
    let message = format!(
        "codecall: how well do you already know each of these? It sets the pace; leave one as \"Use a default\" if unsure.\n{}",
        unit_list(&gate.units)
    );
    let mut options: Vec<Value> = LEVELS.iter().map(|(_, v, t)| json!({ "const": v, "title": t })).collect();
    options.push(json!({ "const": DEFAULT_LEVEL, "title": "Use a default" }));
    let properties: serde_json::Map<String, Value> = gate
        .units
        .iter()
        .map(|u| {
            (u.id.clone(), json!({ "type": "string", "title": u.label, "oneOf": options, "default": DEFAULT_LEVEL }))
        })
        .collect();
    (message, json!({ "type": "object", "properties": properties }))
}

fn question_form(q: &QuestionView) -> (String, Value) {
    // The choices in full in the message too: a select shows each on one line, cut to the width.
    let choices: Vec<String> = q.choices.iter().map(|c| format!("{}) {}", c.id, c.text)).collect();
    let message = format!("codecall question on {}:\n{}\n{}", q.unit.label, q.prompt, choices.join("\n"));
    let options: Vec<Value> =
        q.choices.iter().map(|c| json!({ "const": c.id, "title": format!("{}) {}", c.id, c.text) })).collect();
    let schema = json!({
        "type": "object",
        "properties": { CHOICE: { "type": "string", "title": "Your answer", "oneOf": options } },
        "required": [CHOICE]
    });
    (message, schema)
}

/// What the user's form response means for the gate `next`: the runtime's [`Answer`], or `None`
/// when the form was dismissed (cancelled, or declined where declining is not an answer) or
/// the response is unusable, so the agent must ask instead.
///
/// Declining the Start/Skip form *is* an answer: the user does not want the session (`Skip`).
pub fn answer(next: &Next, response: Option<&Value>) -> Option<Answer> {
    let r = response?;
    let action = r.get("action").and_then(Value::as_str)?;
    let content = r.get("content");
    let field = |name: &str| content.and_then(|c| c.get(name)).and_then(Value::as_str);
    match next {
        Next::Decision(card) if card.teachable => match (action, field(DECISION)) {
            ("accept", Some("start")) => Some(Answer::Decision { accept: true }),
            ("accept", Some("skip")) | ("decline", _) => Some(Answer::Decision { accept: false }),
            _ => None,
        },
        Next::Confidence(gate) if action == "accept" => {
            let mut levels = std::collections::BTreeMap::new();
            for u in &gate.units {
                match field(&u.id) {
                    None | Some(DEFAULT_LEVEL) => {}
                    Some(v) => {
                        let level = LEVELS.iter().find(|(_, name, _)| *name == v)?.0;
                        levels.insert(u.id.clone(), level);
                    }
                }
            }
            Some(Answer::Confidence { levels })
        }
        Next::Question(q) if action == "accept" => {
            let choice = field(CHOICE)?;
            q.choices.iter().any(|c| c.id == choice).then(|| Answer::Choice { choice_id: choice.to_string() })
        }
        _ => None,
    }
}

/// What the answer was, in a few words, for the agent's record of what the user chose.
pub fn describe(answer: &Answer) -> String {
    match answer {
        Answer::Decision { accept: true } => "the user chose Start".into(),
        Answer::Decision { accept: false } => "the user chose Skip".into(),
        Answer::Confidence { levels } if levels.is_empty() => "the user used the default confidence".into(),
        Answer::Confidence { levels } => {
            let parts: Vec<String> = levels
                .iter()
                .map(|(u, l)| {
                    let name = LEVELS.iter().find(|(x, _, _)| x == l).map(|(_, n, _)| *n).unwrap_or("neutral");
                    format!("{u}={name}")
                })
                .collect();
            format!("the user declared confidence {}", parts.join(", "))
        }
        Answer::Acknowledge => "the lesson was acknowledged".into(),
        Answer::Choice { choice_id } => format!("the user answered {choice_id}"),
    }
}

/// When no form could be shown: what the agent must ask the user, verbatim, and the tool call
/// that hands in the answer. `None` when `next` is not a user gate.
pub fn ask_in_conversation(session_id: &str, next: &Next) -> Option<String> {
    let call = |cp: &str, arg: &str| format!("codecall_answer session_id={session_id} checkpoint={cp} {arg}");
    Some(match next {
        Next::Decision(card) if card.teachable => format!(
            "ask the user: \"Start a ~{}-minute codecall session on {}? (Start/Skip)\"; then {}",
            card.estimated_minutes,
            card.units.iter().map(|u| u.label.as_str()).collect::<Vec<_>>().join(", "),
            call(&card.checkpoint, "accept=true (Start) or accept=false (Skip)")
        ),
        Next::Confidence(gate) => format!(
            "ask the user how well they know each unit ({}), each one of expert, comfortable, heard_of_it, \
             never_learned, or \"use a default\"; then {}",
            gate.units.iter().map(|u| format!("{}: {}", u.id, u.label)).collect::<Vec<_>>().join("; "),
            call(&gate.checkpoint, "confidence={UNIT: LEVEL, ...} (units left out use the default; {} for all)")
        ),
        Next::Question(q) => format!(
            "ask the user this question verbatim with its choices and let them answer (never answer it for them): \
             \"{}\" {}; then {}",
            q.prompt,
            q.choices.iter().map(|c| format!("{}) {}", c.id, c.text)).collect::<Vec<_>>().join(" "),
            call(&q.checkpoint, "choice_id=<their choice>")
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dossier_codecall::work_order::UnitBrief;

    fn unit(id: &str) -> UnitBrief {
        UnitBrief {
            id: id.into(),
            label: format!("label {id}"),
            role: dossier_codecall::contract::UnitRole::Objective,
            objective: "explain it".into(),
            difficulty: 2,
        }
    }

    fn question() -> Next {
        Next::Question(QuestionView {
            checkpoint: "q-1".into(),
            question_id: "q-1".into(),
            unit: unit("u1"),
            intent: dossier_codecall::contract::QuestionIntent::Scenario,
            prompt: "What happens?".into(),
            choices: ["a", "b", "c"]
                .iter()
                .map(|c| dossier_codecall::step::ChoiceView { id: c.to_string(), text: format!("choice {c}") })
                .collect(),
        })
    }

    fn confidence() -> Next {
        Next::Confidence(ConfidenceGate {
            checkpoint: "gate-2".into(),
            units: vec![unit("u1"), unit("u2")],
            levels: LEVELS.iter().map(|l| l.0).collect(),
            default: ConfidenceLevel::Neutral,
        })
    }

    fn accept(content: Value) -> Value {
        json!({ "action": "accept", "content": content })
    }

    #[test]
    fn a_question_form_lists_every_choice_and_reads_the_chosen_one() {
        let q = question();
        let form = serde_json::to_value(form(&q).unwrap()).unwrap();
        let text = form.to_string();
        for c in ["a) choice a", "b) choice b", "c) choice c", "What happens?"] {
            assert!(text.contains(c), "{c} missing from {text}");
        }
        assert_eq!(answer(&q, Some(&accept(json!({ "answer": "c" })))), Some(Answer::Choice { choice_id: "c".into() }));
        // An id that is not a choice, a cancel or a decline: the agent asks instead.
        assert_eq!(answer(&q, Some(&accept(json!({ "answer": "z" })))), None);
        assert_eq!(answer(&q, Some(&json!({ "action": "cancel" }))), None);
        assert_eq!(answer(&q, Some(&json!({ "action": "decline" }))), None);
        assert_eq!(answer(&q, None), None);
        assert!(ask_in_conversation("lrn_x", &q).unwrap().contains("choice_id="));
    }

    #[test]
    fn confidence_levels_per_unit_and_the_default() {
        let g = confidence();
        let levels = |v: Value| match answer(&g, Some(&accept(v))) {
            Some(Answer::Confidence { levels }) => Some(levels),
            _ => None,
        };
        let l = levels(json!({ "u1": "expert", "u2": "default" })).unwrap();
        assert_eq!(l.len(), 1);
        assert_eq!(l["u1"], ConfidenceLevel::Expert);
        assert!(levels(json!({})).unwrap().is_empty(), "nothing chosen: the default for all");
        assert_eq!(levels(json!({ "u1": "guru" })), None, "an unknown level is not silently dropped");
        assert_eq!(answer(&g, Some(&json!({ "action": "decline" }))), None);
    }

    #[test]
    fn declining_the_start_form_is_skip_and_cancelling_it_is_not_an_answer() {
        let card = Next::Decision(RecommendationView {
            checkpoint: "gate-1".into(),
            recommendation: "recommend".into(),
            score: 0.7,
            confidence: 0.8,
            estimated_minutes: 9,
            reasons: vec![],
            units: vec![unit("u1")],
            omitted: vec![],
            cycles: vec![],
            teachable: true,
            degraded: false,
            help: Vec::new(),
        });
        assert!(serde_json::to_value(form(&card).unwrap()).unwrap().to_string().contains("about 9 minute(s)"));
        assert_eq!(
            answer(&card, Some(&accept(json!({ "decision": "start" })))),
            Some(Answer::Decision { accept: true })
        );
        assert_eq!(
            answer(&card, Some(&accept(json!({ "decision": "skip" })))),
            Some(Answer::Decision { accept: false })
        );
        assert_eq!(answer(&card, Some(&json!({ "action": "decline" }))), Some(Answer::Decision { accept: false }));
        assert_eq!(answer(&card, Some(&json!({ "action": "cancel" }))), None);
    }
}
