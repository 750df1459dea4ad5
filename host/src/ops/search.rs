//! Search (SPEC §11.3) across every Dossier and its Archive; over the limit, says how many
//! matching lines were left out and how to see them.
//!
//! Not for: the scan itself (`dossier_store::search`) or rendering hits.

use dossier_store::App;
use dossier_store::error::Result;
use dossier_store::progress::Progress;
use dossier_store::search::{self, Query, SearchResult};

use super::{Next, Outcome};

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
