//! The read commands: `dossier show` (frontmatter, token estimate, artifacts), `dossier recall`
//! (the full Distilled State, paged) and `dossier search` (hits grouped by Dossier), each with
//! its human rendering.
//!
//! Not for: the open-work list (`cli::list`), or reading and searching the store itself
//! (`dossier_store::recall`, `dossier_store::search`, `dossier_store::archive`).

use std::fmt::Write as _;

use serde_json::json;

use crate::progress;
use crate::term;
use dossier_store::archive;
use dossier_store::error::{DossierError, Result};
use dossier_store::model;
use dossier_store::save;

use super::render::{Output, json_of};

pub(super) fn cmd_recall(target: &str, page: Option<usize>) -> Result<Output> {
    let app = crate::app::open()?;
    Ok(Output::of(crate::ops::recall::recall(&app, target, page)?, json_of, |r| r.content.clone()))
}

pub(super) fn cmd_search(query: &str, dossier: Option<&str>, regex: bool, limit: usize) -> Result<Output> {
    let app = crate::app::open()?;
    let q = dossier_store::search::Query { text: query, regex, dossier, limit };
    let mut o = crate::ops::search::search(&app, &q, progress::for_cli().as_ref())?;
    // On the terminal the truncation is a warning (the next step is in its words).
    o.warnings.extend(o.next.drain(..).map(|n| n.render(crate::ops::Surface::Cli)));
    Ok(Output::of(o, json_of, |result| {
        let mut human = String::new();
        for group in &result.results {
            human.push_str(&format!("{} ({})\n", group.dossier_name, group.slug));
            for h in &group.hits {
                let place = match (&h.artifact_id, &h.artifact_title) {
                    (Some(id), Some(title)) => format!("{id} \"{title}\""),
                    (Some(id), None) => id.clone(),
                    _ => "dossier.md".to_string(),
                };
                human.push_str(&format!("  {place}:{}: {}\n", h.line, h.snippet));
            }
        }
        if result.results.is_empty() {
            human.push_str(&format!("no matches for `{query}` in {} file(s)\n", result.files_searched));
        }
        // On a terminal each line fits its width (snippets are last, so they are what is cut).
        term::fit_lines(&human, term::stdout_width())
    }))
}

pub(super) fn cmd_ranked(query: &str, dossier: Option<&str>, limit: usize, offset: usize) -> Result<Output> {
    let app = crate::app::open()?;
    let q = dossier_store::search::ranked::RankedQuery { text: query, dossier, limit, offset };
    let mut o = crate::ops::search::ranked(&app, &q, progress::for_cli().as_ref())?;
    o.warnings.extend(o.next.drain(..).map(|n| n.render(crate::ops::Surface::Cli)));
    Ok(Output::of(o, json_of, |result| {
        let mut human = String::new();
        for group in &result.results {
            let archived = if group.archived { " [archived]" } else { "" };
            let score = group.score.unwrap_or(0.0);
            human.push_str(&format!("{} ({}){archived}  score {score:.2}\n", group.dossier_name, group.slug));
            for h in &group.hits {
                let place = match (&h.artifact_id, &h.artifact_title, &h.section) {
                    (Some(id), Some(title), _) => format!("{id} \"{title}\":{}", h.line),
                    (Some(id), None, _) => format!("{id}:{}", h.line),
                    (None, _, Some(s)) => format!("dossier.md:{} [{s}]", h.line),
                    _ => format!("dossier.md:{}", h.line),
                };
                human.push_str(&format!("  {place}: {}\n", h.snippet));
            }
        }
        if result.results.is_empty() {
            human.push_str(&format!("no Dossier matches `{query}` ({} file(s) searched)\n", result.files_searched));
        }
        term::fit_lines(&human, term::stdout_width())
    }))
}

pub(super) fn cmd_show(target: &str) -> Result<Output> {
    let app = crate::app::open()?;
    app.store.require()?;
    let dir = app.store.resolve(target)?;
    let file = dir.join("dossier.md");
    let text = std::fs::read_to_string(&file).map_err(|e| DossierError::io("read", &file, e))?;
    let doc = model::DossierDoc::parse(&text, &file)?;
    let revision = save::revision(&dir)?;
    let estimate = dossier_store::tokens::estimate(&text, app.config.tokens.calibration);
    let token_target = doc.frontmatter.token_target.unwrap_or(app.config.token_target);
    let (artifacts, problems) = archive::list(&dir);
    let conflicts = std::fs::read_dir(dir.join("conflicts")).map(|d| d.count()).unwrap_or(0);
    let fm = &doc.frontmatter;
    let mut human = String::new();
    let _ = writeln!(human, "{} ({})", fm.name, fm.slug);
    let _ = writeln!(human, "  id:            {}", fm.id);
    let _ = writeln!(human, "  revision:      {revision}");
    let _ = writeln!(human, "  status:        {}", fm.status.as_str());
    let _ = writeln!(human, "  importance:    {}", fm.importance.as_str());
    let _ = writeln!(human, "  urgency:       {}", fm.urgency.as_str());
    if let Some(l) = &fm.lead {
        let _ = writeln!(human, "  lead:          {l}");
    }
    if let Some(d) = &fm.due_date {
        let _ = writeln!(human, "  due:           {d}");
    }
    let _ = writeln!(human, "  next action:   {}", fm.next_action);
    let _ = writeln!(human, "  updated:       {}", fm.updated_at);
    let _ = writeln!(human, "  path:          {}", dir.display());
    if !fm.open_questions.is_empty() {
        human.push_str("  open questions:\n");
        for q in &fm.open_questions {
            let _ = writeln!(human, "    - {q}");
        }
    }
    let _ = writeln!(human, "  tokens:        ~{} (estimate; target {token_target})", estimate.tokens);
    let _ = writeln!(human, "  artifacts:     {}", artifacts.len());
    for a in &artifacts {
        let kind = serde_json::to_value(a.artifact_type).expect("enum serializes");
        let _ = writeln!(human, "    {}  {:<16} {}", a.id, kind.as_str().unwrap_or(""), a.title);
    }
    if conflicts > 0 {
        let _ = writeln!(human, "  conflicts:     {conflicts} in {}", dir.join("conflicts").display());
    }
    let mut warnings = problems;
    warnings.extend(model::body_structure_warnings(&doc.body));
    if estimate.tokens > token_target {
        warnings.push(format!(
            "over_token_target: ~{} tokens (estimate) is over the target of {token_target}",
            estimate.tokens
        ));
    }
    let data = json!({
        "frontmatter": fm,
        "revision": revision,
        "token_estimate": estimate,
        "token_target": token_target,
        "path": dir,
        "artifacts": artifacts,
        "conflicts": conflicts,
    });
    let mut out = Output::new(data, human);
    out.warnings = warnings;
    Ok(out)
}
