//! Conflict files (`<dossier>/conflicts/<id>.md`, SPEC §11.5, §8.7): reading them and
//! resolving concurrent-edit conflicts (`dossier conflicts list|show|resolve`, the TUI's
//! conflicts view).
//!
//! What this is for: the resolution surface of a proposal the Save path refused to
//! last-write-win. Keeping the current state marks the conflict resolved; keeping the
//! proposal (or the user's own text) saves it on top of the current revision through
//! [`crate::save::save`], then marks it resolved. Both are audited as `conflict_resolved`.
//!
//! What it is not for: merge conflicts — their resolution is a merge decision
//! ([`crate::merge`]); this module only lists and shows them. Conflict files are never
//! deleted.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::json;

use crate::app::App;
use crate::error::{Code, DossierError, Result};
use crate::save::{self, FrontmatterUpdates, SaveRequest};

/// A conflict file's header, as listed.
#[derive(Clone, Debug, Serialize)]
pub struct ConflictInfo {
    pub id: String,
    /// `concurrent_edit` or `merge`.
    pub kind: String,
    pub dossier_id: String,
    pub slug: String,
    pub resolved: bool,
    pub created_at: String,
    /// One line: what the conflict is about.
    pub summary: String,
    pub path: PathBuf,
}

/// Read a conflict file; `None` if it is not one of ours.
pub fn read(path: &Path) -> Option<ConflictInfo> {
    let text = std::fs::read_to_string(path).ok()?;
    let (h, _) = save::split_conflict(&text)?;
    let s = |k: &str| h.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
    let kind = s("kind");
    let summary = match kind.as_str() {
        "merge" => format!("{}: {}", s("conflict_kind"), s("subject")),
        _ => format!("proposal on {} (now {})", s("base_revision"), s("current_revision")),
    };
    let slug = path
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Some(ConflictInfo {
        id: s("id"),
        kind,
        dossier_id: s("dossier_id"),
        slug,
        resolved: h.get("resolved").and_then(|v| v.as_bool()).unwrap_or(false),
        created_at: s("created_at"),
        summary,
        path: path.to_path_buf(),
    })
}

/// The conflict files of `target`, or of every Dossier (`dossier conflicts list`, the TUI),
/// open ones only unless `all`; in Dossier order, then file name order.
pub fn list(app: &App, target: Option<&str>, all: bool) -> Result<Vec<ConflictInfo>> {
    let dirs: Vec<PathBuf> = match target {
        Some(t) => vec![app.store.resolve(t)?],
        None => app
            .store
            .dossier_files()?
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .filter(|d| crate::layout::entry_links(d).is_empty())
            .collect(),
    };
    Ok(dirs
        .iter()
        .flat_map(|dir| crate::merge::conflict_files(dir))
        .filter_map(|path| read(&path))
        .filter(|c| all || !c.resolved)
        .collect())
}

/// Find a conflict by id in any Dossier.
pub fn find(app: &App, id: &str) -> Result<(PathBuf, ConflictInfo)> {
    if id.is_empty() || id.contains(['/', '\\']) || id.starts_with('.') {
        return Err(DossierError::new(Code::InvalidInput, format!("`{id}` is not a conflict id"))
            .with_details(json!({ "field": "id", "got": id, "expected": "a conflict id (conf_…)" }))
            .with_next("dossier conflicts list"));
    }
    for file in app.store.dossier_files()? {
        if file.parent().is_some_and(|d| !crate::layout::entry_links(d).is_empty()) {
            continue; // never read through a symbolic link (SPEC §3.2)
        }
        let path = file.with_file_name("conflicts").join(format!("{id}.md"));
        if let Some(c) = read(&path) {
            return Ok((path, c));
        }
    }
    Err(DossierError::new(Code::NotFound, format!("no conflict `{id}` in any Dossier"))
        .with_next("dossier conflicts list"))
}

/// How to resolve a concurrent-edit conflict.
#[derive(Clone, Debug)]
pub enum Choice {
    KeepCurrent,
    KeepProposal,
    /// A Distilled State the user wrote.
    Text(String),
}

#[derive(Clone, Debug, Serialize)]
pub struct Resolved {
    pub conflict_id: String,
    pub resolution: &'static str,
    pub slug: String,
    /// The Dossier's revision after the resolution.
    pub revision: String,
}

/// Resolve a concurrent-edit conflict (see the module doc).
pub fn resolve(app: &App, id: &str, choice: Choice, actor: &str, session_id: &Option<String>) -> Result<Resolved> {
    let (path, info) = find(app, id)?;
    if info.kind == "merge" {
        return Err(DossierError::new(
            Code::InvalidInput,
            format!("{id} is a merge conflict; it is resolved by the merge that raised it"),
        )
        .with_details(json!({ "field": "id", "got": id, "expected": "a concurrent-edit conflict id" }))
        .with_next("dossier merge <source> <target>  (asks for each conflict, or --resolve ID=CHOICE)"));
    }
    if info.resolved {
        return Err(DossierError::new(Code::InvalidInput, format!("{id} is already resolved"))
            .with_details(json!({ "field": "id", "got": id, "expected": "an open conflict" }))
            .with_next(format!("dossier conflicts show {id}")));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| DossierError::io("read", &path, e))?;
    let (header, body) = save::split_conflict(&text).ok_or_else(|| {
        DossierError::new(Code::InvalidInput, format!("{} is not a conflict file", path.display()))
            .with_details(json!({ "field": "id", "path": path, "expected": "a conflict file with its header" }))
    })?;
    let dir = path.parent().and_then(Path::parent).expect("conflicts/ is inside a Dossier").to_path_buf();
    let proposal_has_state =
        header.get("frontmatter_updates").is_some() && !body.trim_start().starts_with("(No Distilled State");
    let updates: FrontmatterUpdates =
        header.get("frontmatter_updates").and_then(|v| serde_json::from_value(v.clone()).ok()).unwrap_or_default();
    let (resolution, state, updates) = match choice {
        Choice::KeepCurrent => ("keep_current", None, FrontmatterUpdates::default()),
        Choice::KeepProposal => {
            ("keep_proposal", proposal_has_state.then(|| body.trim_start_matches('\n').to_string()), updates)
        }
        Choice::Text(t) => ("custom", Some(t), FrontmatterUpdates::default()),
    };
    let mut revision = save::revision(&dir)?;
    if state.is_some() || updates != FrontmatterUpdates::default() {
        let req = SaveRequest {
            base_revision: Some(revision.clone()),
            distilled_state: state,
            updates,
            actor: actor.to_string(),
            session_id: session_id.clone(),
            calibration: app.config.tokens.calibration,
            token_target: app.config.token_target,
            ..SaveRequest::default()
        };
        revision = save::save(app, &info.dossier_id, req, &crate::progress::SILENT)?.revision;
    }
    save::mark_conflict_resolved(&dir, &path, json!({ "choice": resolution }), actor, session_id)?;
    Ok(Resolved { conflict_id: info.id, resolution, slug: info.slug, revision })
}
