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
    o.next.clear();
    Ok(Output::of(
        o,
        |b| json!({ "session_id": sid, "binding": b }),
        |b| match b.as_ref().and_then(|b| b.dossier_id.clone()) {
            Some(id) => format!("session {sid}: {}\n", crate::ops::list::label(&app, &id)),
            None => format!("session {sid}: no active Dossier\n"),
        },
    ))
}

pub(super) fn cmd_switch(target: &str, session: Option<&str>) -> Result<Output> {
    let app = crate::app::open()?;
    let sid = dossier_store::sessions::session_id(session)?;
    let mut o = crate::ops::session::switch(&app, &Caller::cli(), &sid, target, None)?;
    o.next.insert(0, crate::ops::Next::call(crate::ops::Op::Recall, &o.data.recall.slug));
    Ok(Output::of(
        o,
        |s| {
            let r = &s.recall;
            json!({ "binding": s.binding, "slug": r.slug, "revision": r.revision, "token_estimate": r.token_estimate, "page_count": r.page_count })
        },
        |s| {
            let r = &s.recall;
            format!("session {sid} now works on {} ({}, ~{} tokens)\n", r.slug, r.revision, r.token_estimate.tokens)
        },
    ))
}
