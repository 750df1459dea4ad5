//! List (SPEC §11.1): open work in priority order, filtered by status, optionally capped.
//! Inside a known harness session (SPEC §7.2, §8.3) each item carries the session's
//! capability warnings, unless the caller asks to leave them out.
//!
//! Not for: the order itself (the priority policy through `dossier_store::listing`) or
//! rendering a table.

use dossier_store::App;
use dossier_store::error::Result;
use dossier_store::harness::Capabilities;
use dossier_store::listing::{self, ListItem};
use dossier_store::model::Status;

use super::{Next, Outcome};

/// One page of the list: at most `limit` Dossiers of `total`.
#[derive(Debug)]
pub struct Page {
    pub dossiers: Vec<ListItem>,
    pub total: usize,
    /// The session's capabilities when the list was asked for inside a known harness session
    /// with warnings included (a table then shows a warning column); `None` otherwise.
    pub session: Option<Capabilities>,
}

/// The list; `include_warnings` adds the session's capability warnings to every item when
/// this process runs inside a known harness session (outside one there are none to add).
pub fn list(app: &App, statuses: &[Status], limit: Option<usize>, include_warnings: bool) -> Result<Outcome<Page>> {
    app.store.require()?;
    let l = listing::list(app, statuses, listing::now_millis())?;
    let total = l.dossiers.len();
    let mut dossiers: Vec<_> = l.dossiers.into_iter().take(limit.unwrap_or(usize::MAX)).collect();
    let session = (include_warnings && app.harness().in_session()).then(|| app.harness().capabilities());
    if let Some(caps) = &session {
        let warnings = caps.warnings();
        for d in &mut dossiers {
            d.warnings.extend(warnings.iter().cloned());
        }
    }
    let mut next = Vec::new();
    if total > dossiers.len() {
        let more = total - dossiers.len();
        next.push(Next::Per {
            cli: format!("{more} more: dossier ls --status all, or a status filter"),
            mcp: format!("{more} more: call dossier_list with a larger limit or a status filter"),
        });
    }
    Ok(Outcome { data: Page { dossiers, total, session }, warnings: l.warnings, next })
}

/// How a surface names a Dossier to a person: `Name (slug)`; the id itself when the Dossier
/// cannot be found or read.
pub fn label(app: &App, id: &str) -> String {
    app.store
        .resolve(id)
        .ok()
        .and_then(|dir| dossier_store::layout::read_frontmatter(&dir.join("dossier.md")).ok())
        .map(|(fm, _)| format!("{} ({})", fm.name, fm.slug))
        .unwrap_or_else(|| id.to_string())
}
