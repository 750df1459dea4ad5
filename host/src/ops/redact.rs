//! Redact (issue 20): rewrite what one Dossier (or every Dossier) already holds with the
//! redaction policy's markers in place of its secrets — the fix `dossier doctor` names for a
//! secret it found. Each Dossier is one new revision through the Save path
//! (`dossier_store::save::redact_stored`), audited as `artifact_redacted`; nothing is deleted,
//! and a Dossier with nothing left to redact is not written.
//!
//! Not for: finding secrets (the policy) or redacting new content (every save does that).

use dossier_store::App;
use dossier_store::context;
use dossier_store::error::Result;
use dossier_store::redact::{self, Counts};
use dossier_store::save::{self, RedactOutcome};

use super::{Caller, Outcome};

/// What `dossier redact` did.
#[derive(Debug, serde::Serialize)]
pub struct Redacted {
    /// One entry per Dossier looked at, rewritten or not.
    pub dossiers: Vec<RedactOutcome>,
    /// Secrets replaced over all of them, per kind.
    pub redactions: Counts,
}

/// Redact the Dossier `target`, or every Dossier when `target` is `None`.
pub fn redact(app: &App, caller: &Caller, target: Option<&str>) -> Result<Outcome<Redacted>> {
    app.store.require()?;
    let targets: Vec<String> = match target {
        Some(t) => vec![t.to_string()],
        None => app
            .store
            .dossier_files()?
            .iter()
            .filter_map(|f| f.parent()?.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect(),
    };
    // Resolve every target before the first write: an unknown one is refused untouched.
    for t in &targets {
        app.store.resolve(t)?;
    }
    let mut out = Redacted { dossiers: Vec::new(), redactions: Counts::new() };
    for t in &targets {
        let o = save::redact_stored(app, t, caller.actor, &caller.session_id)?;
        redact::add_counts(&mut out.redactions, &o.redactions);
        out.dossiers.push(o);
    }
    let mut warnings = Vec::new();
    if !app.config.privacy.redact {
        warnings.push(redact::off_warning(&app.store));
    }
    if out.dossiers.iter().any(|d| d.changed) {
        warnings.extend(context::after_mutation(app));
    }
    Ok(Outcome { data: out, warnings, next: Vec::new() })
}
