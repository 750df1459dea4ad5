//! `dossier redact <slug> | --all`: rewrite a Dossier's stored files with its secrets redacted
//! (the fix `dossier doctor` names), one line per Dossier and the total.
//!
//! Not for: the rewrite itself (`crate::ops::redact`, the store's Save path).

use dossier_store::error::Result;

use super::render::{Output, json_of};
use crate::ops::Caller;

pub(super) fn cmd_redact(target: Option<&str>) -> Result<Output> {
    let app = crate::app::open()?;
    let o = crate::ops::redact::redact(&app, &Caller::cli(), target)?;
    Ok(Output::of(o, json_of, |r| {
        let mut text = String::new();
        for d in &r.dossiers {
            match dossier_store::redact::summary(&d.redactions).filter(|_| d.changed) {
                Some(s) => {
                    text.push_str(&format!("redacted {} ({}): {s} in {} file(s)\n", d.slug, d.revision, d.files.len()))
                }
                None => text.push_str(&format!("nothing to redact in {} ({})\n", d.slug, d.revision)),
            }
        }
        if r.dossiers.len() > 1 {
            let total = dossier_store::redact::summary(&r.redactions).unwrap_or_else(|| "no secrets redacted".into());
            text.push_str(&format!("{total} in {} Dossier(s)\n", r.dossiers.len()));
        }
        text
    }))
}
