//! `dossier promote` and `dossier link`: session content becomes a new Dossier, or an
//! artifact of an existing one; both rank existing Dossiers first (suggestions and the
//! duplicate guard) and name the next command to run.
//!
//! Not for: the ranking itself (`crate::suggest`) or the Save path (`crate::save`).

use std::path::PathBuf;

use serde_json::json;

use crate::app::App;
use crate::error::{Code, DossierError, Result};
use crate::model::{self, ArtifactType};
use crate::progress;
use crate::save::{self, CreateRequest, SaveRequest};

use super::edit::{ACTOR, file_artifact};
use super::render::{Output, saved};

fn suggestion_lines(suggestions: &[crate::suggest::Suggestion]) -> String {
    suggestions.iter().map(|s| format!("  {:<6} {:<32} {}\n", s.confidence, s.slug, s.reason)).collect()
}

pub(super) fn cmd_link(target: Option<&str>, from_file: Option<PathBuf>) -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let Some(path) = from_file else {
        return Err(DossierError::new(Code::InvalidInput, "link needs the session content: --from-file <path>"));
    };
    let Some(target) = target else {
        let content = std::fs::read_to_string(&path).map_err(|e| DossierError::io("read", &path, e))?;
        let candidates = crate::suggest::suggest(&app, &content, crate::listing::now_millis())?;
        let mut human = String::from("Which Dossier does this belong to? (nothing was linked)\n");
        human.push_str(&suggestion_lines(&candidates));
        let mut out = Output::new(json!({ "candidates": candidates, "requires_selection": true }), human);
        out.next_actions = candidates
            .iter()
            .map(|c| format!("dossier link {} --from-file {}", c.slug, path.display()))
            .chain([format!("dossier promote --from-file {} --create", path.display())])
            .collect();
        return Ok(out);
    };
    let mut art = file_artifact(&path, ArtifactType::SourceSnapshot);
    art.title = format!("Linked from {}", art.title);
    let req = SaveRequest {
        artifacts: vec![art],
        actor: ACTOR.to_string(),
        calibration: app.config.tokens.calibration,
        token_target: app.config.token_target,
        event: Some(model::EventKind::Link),
        ..Default::default()
    };
    saved(save::save_with_progress(&app.store, target, req, progress::for_cli().as_ref())?, &app)
}

pub(super) fn cmd_promote(name: Option<String>, from_file: Option<PathBuf>, create: bool) -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let mut req = CreateRequest { actor: ACTOR.to_string(), promote: true, ..Default::default() };
    let mut name = name;
    let mut file_text = None;
    if let Some(path) = &from_file {
        let mut art = file_artifact(path, ArtifactType::SourceSnapshot);
        art.title = format!("Promoted from {}", art.title);
        file_text = std::fs::read(path).ok().and_then(|b| String::from_utf8(b).ok());
        if let Some(text) = &file_text {
            if name.is_none() {
                name = text.lines().find_map(|l| l.strip_prefix("# ")).map(|t| t.trim().to_string());
            }
            if text.lines().any(|l| l.trim() == "## Situation") {
                req.distilled_state = Some(text.clone());
            }
        }
        if name.is_none() {
            name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        }
        req.artifacts.push(art);
    }
    req.name = name.ok_or_else(|| {
        DossierError::new(Code::InvalidInput, "promote needs --name <name> or --from-file <path>")
            .with_next("dossier promote --name \"<name>\"")
    })?;
    // Guard against duplicates: the name and any content, ranked against existing Dossiers.
    let query = match &file_text {
        Some(text) => format!("{}\n{text}", req.name),
        None => req.name.clone(),
    };
    let next = |c: &crate::suggest::Suggestion| match &from_file {
        Some(p) => format!("dossier link {} --from-file {}", c.slug, p.display()),
        None => format!("dossier show {}", c.slug),
    };
    let candidates =
        crate::suggest::guard_new(&app, &query, create, next, "add --create to make a new Dossier anyway")?;
    let outcome = save::create_with_progress(&app.store, req, progress::for_cli().as_ref())?;
    let mut out = saved(outcome, &app)?;
    for c in &candidates {
        out.warnings.push(format!("possibly related ({} confidence): {} — {}", c.confidence, c.slug, c.reason));
    }
    out.warnings.push(
        "transcript_unavailable: no transcript was captured (the CLI has no session transcript; inside Claude Code the session-end and pre-compact hooks capture it)"
            .to_string(),
    );
    Ok(out)
}
