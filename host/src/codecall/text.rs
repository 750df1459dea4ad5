//! Small text forms the codecall renderings share (the CLI's step text in `codecall`, the
//! Dossier hand-off's Markdown in `handoff`): a serde enum's wire name and an evidence
//! citation. A leaf: it uses neither of them, so they do not use each other for it.
//!
//! Not for: whole renderings (`codecall::render`, `handoff::markdown`).

use serde::Serialize;
use serde_json::Value;

/// A serde enum's wire name (`waiting_for_decision`, `heard_of_it`, ...).
pub(crate) fn wire<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// `path#Lstart-Lend`.
pub(crate) fn cite(r: &dossier_codecall::contract::EvidenceRef) -> String {
    format!("{}#L{}-L{}", r.path, r.start_line, r.end_line)
}
