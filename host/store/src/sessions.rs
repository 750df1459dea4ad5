//! Per-session active Dossier bindings (SPEC §5): `sessions/<session-id>.json`.
//!
//! The key is the harness's session id: Claude Code gives an MCP server the same id in
//! `CLAUDE_CODE_SESSION_ID` that its hooks receive as `session_id`; other clients pass it
//! explicitly. Each session binds zero or one Dossier; two sessions bind independently.
//! Binding never modifies a Dossier. Clearing rewrites the binding with no Dossier (nothing
//! is deleted).
//!
//! Not for: saving the Dossier on switch (the caller does that through the Save path).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::app::App;
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::ids::{self, Prefix};
use crate::layout::{self, Store};

pub use crate::harness::Capabilities;

/// A binding (SPEC §5.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Binding {
    pub session_binding_id: String,
    /// The harness's own session id (the file name).
    pub session_id: String,
    pub harness: String,
    pub dossier_id: Option<String>,
    /// The bound Dossier's name when it was bound, so a binding whose Dossier was removed by
    /// hand can still say which one it was (absent in bindings written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dossier_name: Option<String>,
    pub bound_at: String,
    pub last_seen_revision: Option<String>,
    pub capabilities: Capabilities,
    /// How much of the session's transcript has been captured (hooks; kept across rebinds
    /// within the session so a capture never repeats bytes already archived).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<TranscriptCapture>,
    /// The Stop hook's save cadence state for the bound Dossier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save_check: Option<SaveCheck>,
    /// Where the session's work started (recorded by the SessionStart hook, kept across
    /// rebinds): codecall's `session_head` locate rule diffs from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work_start: Option<WorkStart>,
}

/// The repository of a session's working directory when the session started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkStart {
    /// The work tree's root.
    pub repo: String,
    /// `HEAD`'s commit id then (absent in a repository without commits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// Tracked files had uncommitted changes then (they may predate the session); `None`:
    /// unknown (git did not answer within the hook's time limit). Untracked files do not count.
    #[serde(default)]
    pub dirty: Option<bool>,
    /// The session's transcript (`transcript_path`), for codecall's `session_edits` rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    pub recorded_at: String,
}

/// Transcript capture progress of one session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TranscriptCapture {
    pub path: String,
    /// Bytes of the transcript already archived (always whole lines).
    pub captured_bytes: u64,
    /// Artifact ids holding the captured parts, in order.
    pub artifacts: Vec<String>,
}

/// What the Stop hook last saw: the Dossier's revision and the transcript's size then.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveCheck {
    pub revision: String,
    pub transcript_bytes: u64,
}

fn path(store: &Store, session_id: &str) -> Result<PathBuf> {
    layout::validate_component(session_id)
        .map_err(|_| {
            DossierError::new(Code::InvalidInput, format!("`{session_id}` is not a usable session id")).with_details(
                serde_json::json!({ "field": "session_id", "expected": "a single path component without `..` or separators" }),
            )
        })?;
    Ok(store.sessions_dir().join(format!("{session_id}.json")))
}

/// The session id from an explicit argument, else `CLAUDE_CODE_SESSION_ID`.
pub fn session_id(explicit: Option<&str>) -> Result<String> {
    explicit
        .map(str::to_string)
        .or_else(|| std::env::var("CLAUDE_CODE_SESSION_ID").ok().filter(|s| !s.is_empty()))
        .ok_or_else(|| {
            DossierError::new(
                Code::HarnessCapabilityUnavailable,
                "no session id: pass one explicitly, or run inside Claude Code (CLAUDE_CODE_SESSION_ID)",
            )
            .with_next(crate::next::Next::per(
                "dossier active --session <id>",
                "call dossier_session with session_id=<id>",
            ))
        })
}

pub fn read(store: &Store, session_id: &str) -> Result<Option<Binding>> {
    let p = path(store, session_id)?;
    match std::fs::read_to_string(&p) {
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
            DossierError::new(Code::InvalidInput, format!("{} does not parse: {e}", p.display()))
                .with_details(serde_json::json!({ "field": "session_id", "file": p }))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(DossierError::io("read", &p, e)),
    }
}

/// Bind `dossier_id` (or clear with `None`) for `session_id`. Transcript capture progress
/// belongs to the session and survives; the save cadence restarts.
pub fn write(app: &App, session_id: &str, dossier_id: Option<String>, revision: Option<String>) -> Result<Binding> {
    write_named(app, session_id, dossier_id.map(|id| (id, None)), revision)
}

/// [`write`] with the bound Dossier's name recorded too.
fn write_named(
    app: &App,
    session_id: &str,
    dossier: Option<(String, Option<String>)>,
    revision: Option<String>,
) -> Result<Binding> {
    let store = &app.store;
    store.require()?;
    let p = path(store, session_id)?;
    std::fs::create_dir_all(store.sessions_dir()).map_err(|e| DossierError::io("create", &store.sessions_dir(), e))?;
    let previous = read(store, session_id)?;
    let binding = make(app, session_id, previous, dossier, revision);
    store_binding(&p, &binding)?;
    Ok(binding)
}

fn make(
    app: &App,
    session_id: &str,
    previous: Option<Binding>,
    dossier: Option<(String, Option<String>)>,
    revision: Option<String>,
) -> Binding {
    let (dossier_id, dossier_name) = dossier.map_or((None, None), |(id, name)| (Some(id), name));
    let (binding_id, transcript, work_start) = match previous {
        Some(b) => (b.session_binding_id, b.transcript, b.work_start),
        None => (ids::new_id(Prefix::Session), None, None),
    };
    Binding {
        session_binding_id: binding_id,
        session_id: session_id.to_string(),
        harness: app.harness().name().to_string(),
        dossier_id,
        dossier_name,
        bound_at: crate::model::now_timestamp(),
        last_seen_revision: revision,
        capabilities: app.harness().capabilities(),
        transcript,
        save_check: None,
        work_start,
    }
}

/// Record where `session_id`'s work started, once: a session that already has a start (a
/// `resume` or `compact` of it) keeps the first one. Creates an unbound binding when the
/// session has none (nothing is bound by this).
pub fn record_work_start(app: &App, session_id: &str, work: WorkStart) -> Result<Binding> {
    let store = &app.store;
    store.require()?;
    let p = path(store, session_id)?;
    let previous = read(store, session_id)?;
    if let Some(b) = &previous
        && b.work_start.is_some()
    {
        return Ok(b.clone());
    }
    std::fs::create_dir_all(store.sessions_dir()).map_err(|e| DossierError::io("create", &store.sessions_dir(), e))?;
    let mut binding = match previous {
        Some(b) => b,
        None => make(app, session_id, None, None, None),
    };
    binding.work_start = Some(work);
    store_binding(&p, &binding)?;
    Ok(binding)
}

/// A binding kept in the conversation's context only (SPEC §5.1: the harness exposes no
/// session id). Built like [`write`]'s, from the `previous` one the caller holds, with an empty
/// `session_id`; nothing is written, so hooks cannot see it and a restart loses it.
pub fn in_context(
    app: &App,
    previous: Option<Binding>,
    dossier_id: Option<String>,
    revision: Option<String>,
) -> Binding {
    make(app, "", previous, dossier_id.map(|id| (id, None)), revision)
}

/// [`switch`] for a binding kept in context only: recall the first page of `target`, then
/// build the binding at that revision. Writes nothing.
pub fn switch_in_context(
    app: &App,
    previous: Option<Binding>,
    target: &str,
) -> Result<(Binding, crate::recall::Recall)> {
    app.store.require()?;
    let r = crate::recall::recall(app, target, Some(1))?;
    let binding = make(app, "", previous, Some((r.id.clone(), Some(r.name.clone()))), Some(r.revision.clone()));
    Ok((binding, r))
}

/// Bind `target` to `session_id` (`dossier switch`, MCP `dossier_session` with an id, the
/// TUI's bind key): recall its first page (resolving the target, its revision and token
/// estimate), then write the binding at that revision. Returns the binding and the recall.
pub fn switch(app: &App, session_id: &str, target: &str) -> Result<(Binding, crate::recall::Recall)> {
    let r = crate::recall::recall(app, target, Some(1))?;
    let binding = write_named(app, session_id, Some((r.id.clone(), Some(r.name.clone()))), Some(r.revision.clone()))?;
    Ok((binding, r))
}

/// When `binding` names a Dossier that is no longer in the store (its folder was removed or
/// moved by hand): what to say about it, naming it by name (when recorded) and id. Other
/// failures to read the Dossier are not this (the caller meets them when it loads it).
pub fn missing_dossier(app: &App, binding: &Binding) -> Option<String> {
    let id = binding.dossier_id.as_deref()?;
    match app.store.resolve(id) {
        Err(e) if e.code == Code::NotFound => Some(match &binding.dossier_name {
            Some(name) => format!(
                "This session is bound to the Dossier \"{name}\" ({id}), which no longer exists in the store (its folder was removed or moved)"
            ),
            None => format!(
                "This session is bound to the Dossier {id}, which no longer exists in the store (its folder was removed or moved)"
            ),
        }),
        _ => None,
    }
}

/// Rewrite an existing binding (hooks record capture and cadence state in it).
pub fn update(store: &Store, binding: &Binding) -> Result<()> {
    store_binding(&path(store, &binding.session_id)?, binding)
}

fn store_binding(p: &std::path::Path, binding: &Binding) -> Result<()> {
    let text = serde_json::to_string_pretty(binding).expect("bindings serialize");
    files::write_atomic(p, text.as_bytes())
}
