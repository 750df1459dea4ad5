//! What a hook prints on stdout (always with exit code 0): nothing, text for the model
//! (SessionStart), or a JSON object Claude Code interprets; and the one-line warning a
//! failure becomes, in the form each event allows.
//!
//! Not for: deciding what to say (each event's module).

use serde_json::json;

use crate::claude_code::HookEvent;

/// What a hook prints on stdout (always with exit code 0).
#[derive(Clone, Debug, PartialEq)]
pub enum HookOutput {
    Silent,
    /// Plain text: for SessionStart, injected into the model's context.
    Text(String),
    /// A JSON object Claude Code interprets (`decision`, `reason`, `systemMessage`).
    Json(serde_json::Value),
}

impl HookOutput {
    pub fn render(&self) -> String {
        match self {
            HookOutput::Silent => String::new(),
            HookOutput::Text(t) => t.clone(),
            HookOutput::Json(v) => format!("{v}\n"),
        }
    }

    /// A one-line warning the user sees, in the form the event allows.
    pub(crate) fn warning(event: HookEvent, message: &str) -> HookOutput {
        let line = format!("dossier: {}", message.lines().next().unwrap_or("hook failed"));
        match event {
            // SessionStart stdout reaches the model; say it there too.
            HookEvent::SessionStart => HookOutput::Text(format!("Warning: {line}\n")),
            _ => HookOutput::Json(json!({ "systemMessage": line })),
        }
    }
}

/// Warnings as one `systemMessage` line; silent when there are none.
pub(crate) fn warnings_output(warnings: &[String]) -> HookOutput {
    if warnings.is_empty() {
        HookOutput::Silent
    } else {
        HookOutput::Json(json!({ "systemMessage": format!("dossier: {}", warnings.join("; ")) }))
    }
}
