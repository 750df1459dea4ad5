//! `dossier promote` and `dossier link`: session content becomes a new Dossier, or an
//! artifact of an existing one; both rank existing Dossiers first (suggestions and the
//! duplicate guard) and name the next command to run.
//!
//! Not for: the ranking itself (`dossier_store::suggest`) or the Save path (`dossier_store::save`).

use std::path::PathBuf;

use serde_json::json;

use crate::progress;
use dossier_store::error::{Code, DossierError, Result};
use dossier_store::model::ArtifactType;
use dossier_store::save::{MAX_ARTIFACT_BYTES, artifact_too_large};

use super::edit::file_artifact;
use super::render::{Output, json_of, saved, saved_text};
use crate::ops::Caller;

fn suggestion_lines(suggestions: &[dossier_store::suggest::Suggestion]) -> String {
    suggestions.iter().map(|s| format!("  {:<6} {:<32} {}\n", s.confidence, s.slug, s.reason)).collect()
}

pub(super) fn cmd_link(target: Option<&str>, from_file: Option<PathBuf>) -> Result<Output> {
    let app = crate::app::open()?;
    app.store.require()?;
    let Some(path) = from_file else {
        return Err(DossierError::new(Code::InvalidInput, "link needs the session content: --from-file <path>")
            .with_details(
                serde_json::json!({ "parameter": "--from-file", "expected": "a file with the session content" }),
            ));
    };
    // The size first, as promote and `save --artifact` check it: a file over the artifact limit
    // is refused before it is read (for ranking, or as the artifact).
    if let Ok(meta) = std::fs::metadata(&path)
        && meta.len() > MAX_ARTIFACT_BYTES
    {
        return Err(artifact_too_large(&file_artifact(&path, ArtifactType::SourceSnapshot).title, meta.len()));
    }
    let mut link = crate::ops::link::Link { from_file: Some(path.display().to_string()), ..Default::default() };
    match target {
        None => link.content = std::fs::read_to_string(&path).map_err(|e| DossierError::io("read", &path, e))?,
        Some(t) => {
            let mut art = file_artifact(&path, ArtifactType::SourceSnapshot);
            art.title = format!("Linked from {}", art.title);
            link.target = Some(t.to_string());
            link.artifacts.push(art);
        }
    }
    let o = crate::ops::link::link(&app, &Caller::cli(), link, progress::for_cli().as_ref())?;
    use crate::ops::link::Linked;
    Ok(Output::of(
        o,
        |l| match l {
            Linked::Candidates(c) => json!({ "candidates": c, "requires_selection": true }),
            Linked::Saved(o) => json_of(o),
        },
        |l| match l {
            Linked::Candidates(c) => {
                format!("Which Dossier does this belong to? (nothing was linked)\n{}", suggestion_lines(c))
            }
            Linked::Saved(o) => saved_text(o),
        },
    ))
}

pub(super) fn cmd_promote(name: Option<String>, from_file: Option<PathBuf>, create: bool) -> Result<Output> {
    let app = crate::app::open()?;
    app.store.require()?;
    let mut p = crate::ops::promote::Promote { name, create, ..Default::default() };
    if let Some(path) = &from_file {
        let mut art = file_artifact(path, ArtifactType::SourceSnapshot);
        art.title = format!("Promoted from {}", art.title);
        // The size first: the file is read whole below (for its name and state), and one
        // over the artifact limit is refused at once, as `save --artifact` refuses it.
        if let Ok(meta) = std::fs::metadata(path)
            && meta.len() > MAX_ARTIFACT_BYTES
        {
            return Err(artifact_too_large(&art.title, meta.len()));
        }
        let file_text = std::fs::read(path).ok().and_then(|b| String::from_utf8(b).ok());
        if let Some(text) = &file_text {
            if p.name.is_none() {
                p.name = text.lines().find_map(|l| l.strip_prefix("# ")).map(|t| t.trim().to_string());
            }
            if text.lines().any(|l| l.trim() == "## Situation") {
                p.distilled_state = Some(text.clone());
            }
        }
        if p.name.is_none() {
            p.name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        }
        p.content = file_text;
        p.from_file = Some(path.display().to_string());
        p.artifacts.push(art);
    }
    saved(crate::ops::promote::promote(&app, &Caller::cli(), p, progress::for_cli().as_ref())?)
}
