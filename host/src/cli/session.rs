//! `dossier active` and `dossier switch`: which Dossier a harness session works on.
//!
//! Not for: the binding files or capability detection (`crate::sessions`).

use serde_json::json;

use crate::app::App;
use crate::error::Result;

use super::render::Output;

pub(super) fn cmd_active(session: Option<&str>) -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let sid = crate::sessions::session_id(session)?;
    let binding = crate::sessions::read(&app.store, &sid)?;
    let human = match binding.as_ref().and_then(|b| b.dossier_id.clone()) {
        Some(id) => format!("session {sid}: {id}\n"),
        None => format!("session {sid}: no active Dossier\n"),
    };
    let mut out = Output::new(json!({ "session_id": sid, "binding": binding }), human);
    out.warnings = crate::sessions::Capabilities::current().warnings();
    Ok(out)
}

pub(super) fn cmd_switch(target: &str, session: Option<&str>) -> Result<Output> {
    let app = App::open()?;
    let sid = crate::sessions::session_id(session)?;
    let (binding, r, mut warnings, next) = crate::sessions::switch(&app, &sid, target)?;
    warnings.extend(binding.capabilities.warnings());
    let human =
        format!("session {sid} now works on {} ({}, ~{} tokens)\n", r.slug, r.revision, r.token_estimate.tokens);
    let mut out = Output::new(
        json!({ "binding": binding, "slug": r.slug, "revision": r.revision, "token_estimate": r.token_estimate, "page_count": r.page_count }),
        human,
    );
    out.warnings = warnings;
    out.next_actions = next;
    out.next_actions.insert(0, format!("dossier recall {}", r.slug));
    Ok(out)
}
