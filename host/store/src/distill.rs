//! Distillation findings for a saved Dossier (SPEC §10, §14.3; rules in docs/distill.md):
//! collect what the `distill` policy needs — the `dossier.md` text and, for each artifact it
//! cites, the artifact's line count — run the policy, and word its findings as warnings.
//! Saves never wait on this: findings are advice returned with the save (no human gate).
//!
//! Not for: the rules themselves (the `distill` policy component, `core/src/distill.rs`).

use std::path::Path;

use crate::app::App;
use crate::error::{DossierError, Result};
use crate::policy::{ArtifactInfo, Finding, Severity};

/// The findings for the Dossier in `dir`.
pub fn findings(app: &App, dir: &Path) -> Result<Vec<Finding>> {
    let file = dir.join("dossier.md");
    let text = std::fs::read_to_string(&file).map_err(|e| DossierError::io("read", &file, e))?;
    let (summaries, _) = crate::archive::list(dir);
    // Count lines only of the artifacts the state cites: archives can be large.
    let artifacts: Vec<ArtifactInfo> = summaries
        .iter()
        .map(|a| {
            let cited = text.contains(&format!("[src:{}", a.id));
            let line_count = if cited { line_count(dir, &a.id, &a.path) } else { None };
            ArtifactInfo { id: a.id.clone(), line_count }
        })
        .collect();
    Ok(app.policy().distill_validate(&text, &artifacts)?)
}

/// Lines of an artifact's content (after our frontmatter for Markdown), or None when it has
/// no line support (binary sources are stored as metadata only).
fn line_count(dir: &Path, id: &str, path: &Path) -> Option<u32> {
    let meta = crate::archive::read_meta(dir, id)?;
    if meta.binary_source == Some(true) {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let content = match meta.content_format {
        crate::model::ContentFormat::Markdown => {
            text.strip_prefix("---\n").and_then(|t| t.split_once("\n---\n")).map_or(text.as_str(), |(_, body)| body)
        }
        _ => text.as_str(),
    };
    let content = content.strip_prefix('\n').unwrap_or(content);
    Some(content.lines().count() as u32)
}

/// Findings as warning lines (`distill <severity> <code> line N: message`); a failure to
/// check is itself one warning, never an error of the save.
pub fn warnings(app: &App, dir: &Path) -> Vec<String> {
    match findings(app, dir) {
        Ok(f) => f
            .iter()
            .map(|f| {
                let severity = match f.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info => "info",
                };
                let at = if f.line == 0 { String::new() } else { format!(" line {}", f.line) };
                format!("distill {severity} {}{at}: {}", f.code, f.message)
            })
            .collect(),
        Err(e) => vec![format!("distillation check skipped: {}", e.message)],
    }
}
