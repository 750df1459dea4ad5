//! Suggest (SPEC §11.2): which existing Dossiers some content most likely belongs to, best
//! first, from the ranking policy.
//!
//! Not for: the duplicate guard's refusal (`promote`) or choosing for the user (`link` hands the
//! candidates back).

use dossier_store::error::Result;
use dossier_store::suggest::{self, Suggestion};
use dossier_store::{App, listing};

use super::Outcome;

pub fn suggest(app: &App, content: &str) -> Result<Outcome<Vec<Suggestion>>> {
    app.store.require()?;
    Ok(Outcome::new(suggest::suggest(app, content, listing::now_millis())?))
}
