//! Search (SPEC §11.3) across every Dossier and its Archive: ranked by default (Dossiers
//! best first, paged), exact (`literal`/`regex`) for lookups; over the limit, says what was
//! left out and how to see it.
//!
//! Not for: the scan itself (`dossier_store::search`, `dossier_store::search::ranked`) or
//! rendering hits.

use dossier_store::App;
use dossier_store::error::Result;
use dossier_store::progress::Progress;
use dossier_store::search::ranked::{self, RankedQuery, RankedResult};
use dossier_store::search::{self, Query, SearchResult};

use super::{Next, Outcome};

/// Exact-match search (`--literal`, `--regex`).
pub fn search(app: &App, q: &Query<'_>, progress: &dyn Progress) -> Result<Outcome<SearchResult>> {
    let mut r = search::search(app, q, progress)?;
    let warnings = std::mem::take(&mut r.warnings);
    let mut out = Outcome::new(r);
    out.warnings.extend(warnings);
    if out.data.truncated {
        let (shown, total) = (out.data.returned, out.data.total_hits);
        out.next.push(Next::Per {
            cli: format!("showing {shown} of {total} matching lines; use --limit or --dossier to see more"),
            mcp: format!("{shown} of {total} hits shown: raise limit or pass dossier"),
        });
    }
    Ok(out)
}

/// Ranked search: a page of Dossiers, best first; the next page is a next step.
pub fn ranked(app: &App, q: &RankedQuery<'_>, progress: &dyn Progress) -> Result<Outcome<RankedResult>> {
    let mut r = ranked::search(app, q, progress)?;
    let warnings = std::mem::take(&mut r.warnings);
    let mut out = Outcome::new(r);
    out.warnings.extend(warnings);
    if out.data.truncated {
        let d = &out.data;
        let next = d.offset + d.returned;
        let (shown, total) = (d.returned, d.total_dossiers);
        out.next.push(Next::Per {
            cli: format!(
                "showing {shown} of {total} Dossiers (from {}); `dossier search {:?} --offset {next}` for the next page",
                d.offset + 1,
                d.query
            ),
            mcp: format!("{shown} of {total} Dossiers shown (from {}): call dossier_search with offset={next} for more", d.offset + 1),
        });
    }
    Ok(out)
}
