//! Suggestions for promote and link (SPEC §7.2, §8.5, §8.6, §11.2): which existing Dossiers
//! the current content most likely belongs to. Builds the candidates from the store and asks
//! the `ranking` policy; shared by the CLI and (later) the MCP tools.
//!
//! Not for: linking or creating. Callers must ask the user unless confidence is `high`,
//! and even then never attach without an explicit target.

use serde::Serialize;

use crate::app::App;
use crate::archive;
use crate::error::{Code, DossierError, Result};
use crate::model::{DossierDoc, Status};
use crate::policy::{self, RankingOptions};

/// How many suggestions are returned (SPEC: top 3).
pub const TOP: u32 = 3;
/// Session content beyond this many bytes is not used for ranking (keeps calls bounded).
pub const QUERY_BYTES: usize = 64 * 1024;

#[derive(Clone, Debug, Serialize)]
pub struct Suggestion {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub status: Status,
    /// `high`, `medium` or `low` (SPEC §11.2).
    pub confidence: &'static str,
    /// Relative score, comparable within one call only.
    pub score: f64,
    /// Human-readable, e.g. "shared terms: pricing, sales, packaging".
    pub reason: String,
}

impl Suggestion {
    pub fn is_high(&self) -> bool {
        self.confidence == "high"
    }
}

/// Rank every non-archived Dossier against `content`.
pub fn suggest(app: &App, content: &str, now: i64) -> Result<Vec<Suggestion>> {
    let mut query = content;
    if query.len() > QUERY_BYTES {
        let mut cut = QUERY_BYTES;
        while !query.is_char_boundary(cut) {
            cut -= 1;
        }
        query = &query[..cut];
    }
    let mut docs = Vec::new();
    let mut candidates = Vec::new();
    for file in app.store.dossier_files()? {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let Ok(doc) = DossierDoc::parse(&text, &file) else { continue };
        if doc.frontmatter.status == Status::Archived {
            continue;
        }
        let dir = file.parent().expect("dossier.md has a parent");
        let (artifacts, _) = archive::list(dir);
        let fm = &doc.frontmatter;
        candidates.push(policy::Candidate {
            name: fm.name.clone(),
            slug: fm.slug.clone(),
            status: lifecycle(fm.status),
            next_action: fm.next_action.clone(),
            open_questions: fm.open_questions.clone(),
            body: doc.body.clone(),
            artifact_titles: artifacts.into_iter().map(|a| a.title).collect(),
            last_touched_at: crate::model::parse_timestamp(&fm.last_touched_at).unwrap_or(0),
        });
        docs.push(doc);
    }
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let ranked = app.policy().rank(query, &candidates, RankingOptions { limit: TOP, now })?;
    Ok(ranked
        .into_iter()
        .map(|s| {
            let fm = &docs[s.index as usize].frontmatter;
            Suggestion {
                id: fm.id.clone(),
                name: fm.name.clone(),
                slug: fm.slug.clone(),
                status: fm.status,
                confidence: match s.confidence {
                    policy::Confidence::High => "high",
                    policy::Confidence::Medium => "medium",
                    policy::Confidence::Low => "low",
                },
                score: s.score,
                reason: s.reason,
            }
        })
        .collect())
}

/// The duplicate guard shared by every promote (CLI and MCP): rank `content` against the
/// store and, unless `create` says the caller means a new Dossier, refuse a `high` match with
/// `ambiguous_target` carrying the candidates. `next` words the follow-up for each high
/// candidate and `override_hint` how to create anyway, in the caller's interface. On
/// success the candidates are returned so the caller can mention related Dossiers.
pub fn guard_new(
    app: &App,
    content: &str,
    create: bool,
    next: impl Fn(&Suggestion) -> String,
    override_hint: &str,
) -> Result<Vec<Suggestion>> {
    let candidates = suggest(app, content, crate::listing::now_millis())?;
    let high: Vec<&Suggestion> = candidates.iter().filter(|c| c.is_high()).collect();
    if create || high.is_empty() {
        return Ok(candidates);
    }
    let slugs: Vec<&str> = high.iter().map(|c| c.slug.as_str()).collect();
    let mut e = DossierError::new(
        Code::AmbiguousTarget,
        format!("an existing Dossier likely covers this already ({}); nothing was created", slugs.join(", ")),
    )
    .with_details(serde_json::json!({ "candidates": candidates, "requires_selection": true }));
    for c in high {
        e = e.with_next(next(c));
    }
    Err(e.with_next(override_hint))
}

pub(crate) fn lifecycle(s: Status) -> policy::LifecycleStatus {
    use policy::LifecycleStatus as L;
    match s {
        Status::Active => L::Active,
        Status::Waiting => L::Waiting,
        Status::Blocked => L::Blocked,
        Status::Resolved => L::Resolved,
        Status::Archived => L::Archived,
    }
}
