//! `dossier context refresh`: regenerate context/library.md.
//!
//! Not for: what the context files say (`dossier_store::context`).

use serde_json::json;

use dossier_store::context;
use dossier_store::error::Result;

use super::render::Output;

pub(super) fn cmd_context_refresh() -> Result<Output> {
    let app = crate::app::open()?;
    app.store.require()?;
    let path = app.store.library_path();
    let outcome = context::refresh_library(&app)?;
    Ok(Output::new(
        json!({ "path": path, "outcome": outcome.as_str() }),
        format!("{} {}\n", outcome.as_str(), path.display()),
    ))
}
