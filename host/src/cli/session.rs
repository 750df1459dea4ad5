//! `dossier active` and `dossier switch`: which Dossier a harness session works on.
//!
//! Not for: the binding files or capability detection (`dossier_store::sessions`).

use serde_json::json;

use dossier_store::error::Result;

use super::render::Output;
use crate::ops::Caller;

pub(super) fn cmd_active(session: Option<&str>) -> Result<Output> {
    let app = crate::app::open()?;
    app.store.require()?;
    let sid = dossier_store::sessions::session_id(session)?;
    let mut o = crate::ops::session::active(&app, &sid)?;
    // The unbound hint is for agents; a dead binding's ways out are kept.
    if o.data.as_ref().and_then(|b| b.dossier_id.as_ref()).is_none() {
        o.next.clear();
    }
    Ok(Output::of(
        o,
        |b| json!({ "session_id": sid, "binding": b }),
        |b| match b.as_ref().and_then(|b| b.dossier_id.clone()) {
            Some(id) => format!("session {sid}: {}\n", crate::ops::list::label(&app, &id)),
            None => format!("session {sid}: no active Dossier\n"),
        },
    ))
}

/// SPEC §5.2 step 4: the switch returns the new Distilled State (its first page when it is
/// paged; the next page's command is then a next action), its token estimate and the
/// capability warnings.
pub(super) fn cmd_switch(target: &str, session: Option<&str>) -> Result<Output> {
    let app = crate::app::open()?;
    let sid = dossier_store::sessions::session_id(session)?;
    let o = crate::ops::session::switch(&app, &Caller::cli(), &sid, target, None)?;
    Ok(Output::of(
        o,
        |s| {
            let r = &s.recall;
            json!({
                "binding": s.binding,
                "slug": r.slug,
                "name": r.name,
                "revision": r.revision,
                "token_estimate": r.token_estimate,
                "page": r.page,
                "page_count": r.page_count,
                "distilled_state": r.content,
            })
        },
        |s| {
            let r = &s.recall;
            let mut human = format!(
                "session {sid} now works on {} ({}, {}, ~{} tokens)\n",
                r.name, r.slug, r.revision, r.token_estimate.tokens
            );
            if r.page_count > 1 {
                human.push_str(&format!("Distilled State, page {} of {}:\n", r.page, r.page_count));
            }
            human.push('\n');
            human.push_str(&r.content);
            human
        },
    ))
}
