//! List (SPEC §11.1): open work in priority order, filtered by status, optionally capped.
//!
//! Not for: the order itself (the priority policy through `dossier_store::listing`) or
//! rendering a table.

use dossier_store::App;
use dossier_store::error::Result;
use dossier_store::listing::{self, ListItem};
use dossier_store::model::Status;

use super::{Next, Outcome};

/// One page of the list: at most `limit` Dossiers of `total`.
#[derive(Debug)]
pub struct Page {
    pub dossiers: Vec<ListItem>,
    pub total: usize,
}

pub fn list(app: &App, statuses: &[Status], limit: Option<usize>) -> Result<Outcome<Page>> {
    app.store.require()?;
    let l = listing::list(app, statuses, listing::now_millis())?;
    let total = l.dossiers.len();
    let dossiers: Vec<_> = l.dossiers.into_iter().take(limit.unwrap_or(usize::MAX)).collect();
    let mut next = Vec::new();
    if total > dossiers.len() {
        let more = total - dossiers.len();
        next.push(Next::Per {
            cli: format!("{more} more: dossier ls --status all, or a status filter"),
            mcp: format!("{more} more: call dossier_list with a larger limit or a status filter"),
        });
    }
    Ok(Outcome { data: Page { dossiers, total }, warnings: l.warnings, next })
}
