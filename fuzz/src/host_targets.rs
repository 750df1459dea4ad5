//! The fuzz targets of the parsers in the `dossier` crate itself: MCP tool arguments and
//! Claude Code transcripts (see `targets.rs` for what every target asserts). Built with
//! `--features host` (they link the whole binary's library, wasmtime included), and replayed
//! by `tests/fuzz.rs` like the others.

use std::sync::OnceLock;

use dossier_store::error::Code;
use serde_json::Value;

/// Every tool's input schema as generated, computed once per process.
fn schemas() -> &'static [(String, Value)] {
    static SCHEMAS: OnceLock<Vec<(String, Value)>> = OnceLock::new();
    SCHEMAS.get_or_init(dossier::mcp::input_schemas)
}

/// MCP tool-call arguments: the first byte picks the tool, the rest is the JSON arguments.
/// Whatever the JSON, the schema check answers; a refusal is `invalid_input` with
/// `details.field` (a path, or null) and `details.expected`.
pub fn mcp_params(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let schemas = schemas();
    let (tool, schema) = &schemas[pick as usize % schemas.len()];
    let Ok(Value::Object(args)) = serde_json::from_slice::<Value>(rest) else { return };
    if let Err(e) = dossier::mcp::params::check(schema, &args) {
        assert_eq!(e.code, Code::InvalidInput, "{tool}: {e:?}");
        assert!(e.details.get("field").is_some_and(|f| f.is_string() || f.is_null()), "{tool}: {e:?}");
        assert!(e.details.get("expected").is_some_and(Value::is_string), "{tool}: {e:?}");
        assert!(!e.message.is_empty());
    }
}

/// A Claude Code transcript (JSONL, possibly malformed or cut mid-line): the Stop hook's
/// scanner of edit calls. Never a panic, on the whole input and on its whole lines only (what
/// the hook reads of a file still being written); scanning is deterministic.
pub fn transcript(data: &[u8]) {
    let edits = dossier::hooks::card::edits_in(data);
    assert_eq!(edits, dossier::hooks::card::edits_in(data), "the scanner is not deterministic");
    if let Some(cut) = data.iter().rposition(|&b| b == b'\n') {
        let _ = dossier::hooks::card::edits_in(&data[..cut + 1]);
    }
}
