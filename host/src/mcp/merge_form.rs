//! The MCP form that asks the user about one merge conflict (an elicitation in an MCP
//! `InputRequiredResult`, DESIGN §6) and reading the user's answer back as a resolution.
//!
//! Not for: the conflicts themselves or applying resolutions (`dossier_store::merge`), or the
//! tool's flow (`super`).

use dossier_store::merge::{ChoiceInput, ConflictView, ResolutionInput};
use serde_json::{Value, json};

/// The MCP form asking the user about one conflict (an elicitation in an MCP
/// `InputRequiredResult`): a single-select choice and an optional text for `custom`. A possible
/// conflict the agent marked a contradiction says so, with the agent's `reason`.
pub fn form_request(c: &ConflictView, reason: Option<&str>) -> rmcp::model::InputRequest {
    use rmcp::model::{ElicitRequest, ElicitRequestParams, InputRequest};
    let at = |l: u32| if l == 0 { "frontmatter".to_string() } else { format!("line {l}") };
    let flagged = match reason {
        Some(r) if c.flagged.is_some() => {
            format!(", possible: the agent flagged it, a contradiction the rules did not pair ({})", r.trim())
        }
        Some(r) if c.is_possible() => format!(", possible: the agent judged it a contradiction ({})", r.trim()),
        _ => String::new(),
    };
    let message = format!(
        "Merge conflict ({}{flagged}) about \"{}\".\nTarget ({}): {}\nSource ({}): {}",
        c.kind.replace('_', " "),
        c.subject,
        at(c.target.line),
        c.target.text.trim(),
        at(c.source.line),
        c.source.text.trim(),
    );
    let schema = json!({
        "type": "object",
        "properties": {
            "choice": {
                "type": "string",
                "title": "Keep which?",
                "oneOf": [
                    { "const": "keep_target", "title": "Keep the target's" },
                    { "const": "keep_source", "title": "Keep the source's" },
                    { "const": "keep_both", "title": "Keep both" },
                    { "const": "custom", "title": "Write my own (below)" }
                ]
            },
            "text": { "type": "string", "title": "Your wording (for \"Write my own\")" }
        },
        "required": ["choice"]
    });
    InputRequest::Elicitation(ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: serde_json::from_value(schema).expect("a valid elicitation schema"),
    }))
}

/// The resolution in a form's answer (`{"action": "accept", "content": {...}}`); `None` when
/// the user declined or cancelled, or the answer is unusable.
pub fn form_answer(conflict_id: &str, response: Option<&Value>) -> Option<ResolutionInput> {
    let r = response?;
    if r.get("action").and_then(Value::as_str) != Some("accept") {
        return None;
    }
    let content = r.get("content")?;
    let choice: ChoiceInput = serde_json::from_value(content.get("choice")?.clone()).ok()?;
    let text = content.get("text").and_then(Value::as_str).map(str::to_string).filter(|t| !t.trim().is_empty());
    if choice == ChoiceInput::Custom && text.is_none() {
        return None;
    }
    Some(ResolutionInput { conflict_id: conflict_id.to_string(), choice, text })
}
