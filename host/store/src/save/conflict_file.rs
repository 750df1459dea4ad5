//! Conflict files' own format: splitting one into its frontmatter and body, marking one
//! resolved (the file is kept, never deleted), and counting a Dossier's open ones.
//!
//! Not for: listing or resolving conflicts (`crate::conflicts`).

use std::fs;
use std::path::Path;

use indexmap::IndexMap;
use serde_json::json;

use crate::audit;
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::model::{self, EventKind};

use super::revision::{event, lock};

/// Mark one conflict file resolved (header `resolved: true`, `resolution`, `resolved_at`)
/// and audit `conflict_resolved`, under the Dossier's lock. The file is kept.
pub fn mark_conflict_resolved(
    dir: &Path,
    path: &Path,
    resolution: serde_json::Value,
    actor: &str,
    session_id: &Option<String>,
) -> Result<()> {
    let _lock = lock(dir)?;
    let text = fs::read_to_string(path).map_err(|e| DossierError::io("read", path, e))?;
    let (mut header, body) = split_conflict(&text).ok_or_else(|| {
        DossierError::new(Code::InvalidInput, format!("{} is not a conflict file", path.display()))
            .with_details(json!({ "field": "conflict_id", "path": path }))
    })?;
    let id = header.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
    let dossier_id = header.get("dossier_id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
    header.insert("resolved".into(), json!(true));
    header.insert("resolved_at".into(), json!(model::now_timestamp()));
    header.insert("resolution".into(), resolution.clone());
    let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
    files::write_atomic(path, format!("---\n{yaml}---\n{body}").as_bytes())?;
    let mut ev = event(EventKind::ConflictResolved, &dossier_id, actor, session_id);
    ev.details.insert("conflict_id".into(), json!(id));
    ev.details.insert("resolution".into(), resolution);
    audit::append(dir, &ev)
}

/// How many conflict files of the Dossier at `dir` are open (`conflicts/<id>.md` whose header
/// is not `resolved: true`; any kind: a concurrent edit, one a sync created, a merge's): what
/// `dossier conflicts list` lists, counted for `ls`, session start and the TUI. A Dossier
/// without a `conflicts/` directory costs one failed `opendir`.
pub fn open_conflict_count(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir.join("conflicts")) else { return 0 };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter_map(|p| fs::read_to_string(p).ok())
        .filter(|t| {
            split_conflict(t).is_some_and(|(h, _)| !h.get("resolved").and_then(|v| v.as_bool()).unwrap_or(false))
        })
        .count()
}

/// A conflict file's YAML header (as a map, keys in order) and the rest of the file.
pub fn split_conflict(text: &str) -> Option<(IndexMap<String, serde_json::Value>, &str)> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    let header = serde_saphyr::from_str(&rest[..end + 1]).ok()?;
    Some((header, &rest[end + 5..]))
}
