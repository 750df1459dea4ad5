//! The open-work list: every Dossier's frontmatter, filtered by status and ordered by the
//! priority policy, with derived fields (staleness, priority score, open conflicts). Shared by `dossier
//! ls`, the context library, and later the MCP `dossier_list` tool; [`names`] is the same
//! read without the policy, for shell completion.
//!
//! Not for: ordering decisions (the `priority` policy component makes them) or rendering.

use std::path::PathBuf;

use serde::Serialize;

use crate::app::App;
use crate::error::Result;
use crate::model::{Frontmatter, Level, Status};
use crate::policy::PriorityInput;

const DAY_MS: i64 = 86_400_000;

/// One Dossier in the list (SPEC §8.3 item shape).
#[derive(Clone, Debug, Serialize)]
pub struct ListItem {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub status: Status,
    pub lead: Option<String>,
    pub next_action: String,
    pub open_questions: Vec<String>,
    pub importance: Level,
    pub urgency: Level,
    pub due_date: Option<String>,
    pub last_touched_at: String,
    pub staleness_days: i64,
    pub priority_score: u8,
    pub path: PathBuf,
    pub warnings: Vec<String>,
    /// Open conflict files in the Dossier (`dossier conflicts list <slug>` lists them: concurrent
    /// edits, divergences a sync found, merge conflicts).
    pub open_conflicts: usize,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Listing {
    pub dossiers: Vec<ListItem>,
    /// Dossiers that could not be read (invalid frontmatter, ...), one message each.
    pub warnings: Vec<String>,
}

/// List the Dossiers whose status is in `statuses`, in priority order, as of `now`
/// (milliseconds since the epoch).
pub fn list(app: &App, statuses: &[Status], now: i64) -> Result<Listing> {
    let mut listing = Listing::default();
    let mut rows: Vec<(Frontmatter, PathBuf)> = Vec::new();
    let mut inputs: Vec<PriorityInput> = Vec::new();
    let (stamped, link_warnings) = app.store.dossier_files_checked()?;
    listing.warnings.extend(link_warnings);
    let (files, stamps): (Vec<PathBuf>, Vec<_>) = stamped.into_iter().map(|(p, st)| (p, Some(st))).unzip();
    for (file, read) in files.iter().zip(app.frontmatter.read_stamped(&files, &stamps)) {
        let file = file.clone();
        let (fm, times) = match read {
            Ok(read) => read,
            Err(e) => {
                listing.warnings.push(e.message);
                continue;
            }
        };
        if !statuses.contains(&fm.status) {
            continue;
        }
        inputs.push(PriorityInput {
            importance: fm.importance.into(),
            urgency: fm.urgency.into(),
            due_date: times.due_date,
            last_touched_at: times.last_touched_at,
            updated_at: times.updated_at,
        });
        rows.push((fm, file));
    }
    if rows.is_empty() {
        return Ok(listing);
    }
    let ranked = app.policy().priority_sort(&inputs, now, app.config.priority.weights.to_weights())?;
    let mut rows: Vec<Option<(Frontmatter, PathBuf)>> = rows.into_iter().map(Some).collect();
    for r in ranked {
        let i = r.index as usize;
        let (fm, file) = rows[i].take().expect("the policy host checked the permutation");
        let staleness_days = ((now - inputs[i].last_touched_at) / DAY_MS).max(0);
        let path = file.parent().map(PathBuf::from).unwrap_or_default();
        listing.dossiers.push(ListItem {
            id: fm.id,
            name: fm.name,
            slug: fm.slug,
            status: fm.status,
            lead: fm.lead,
            next_action: fm.next_action,
            open_questions: fm.open_questions,
            importance: fm.importance,
            urgency: fm.urgency,
            due_date: fm.due_date,
            last_touched_at: fm.last_touched_at,
            staleness_days,
            priority_score: r.score,
            open_conflicts: crate::save::open_conflict_count(&path),
            path,
            warnings: Vec::new(),
        });
    }
    Ok(listing)
}

/// What completion needs to name a Dossier.
#[derive(Clone, Debug)]
pub struct Name {
    pub id: String,
    pub slug: String,
    pub name: String,
    pub status: Status,
}

/// Every readable Dossier's id, slug, name and status, by slug: the same discovery and
/// frontmatter cache as [`list`], without the policy (no order to decide) and without
/// warnings (an unreadable Dossier is left out). Never creates anything: a store that does
/// not exist has no names.
pub fn names(store: &crate::layout::Store) -> Vec<Name> {
    if !store.exists() {
        return Vec::new();
    }
    let Ok(stamped) = store.dossier_files_stamped() else { return Vec::new() };
    let (files, stamps): (Vec<PathBuf>, Vec<_>) = stamped.into_iter().map(|(p, st)| (p, Some(st))).unzip();
    let cache = crate::layout::FrontmatterCache::persistent(store.frontmatter_cache_path());
    cache
        .read_stamped(&files, &stamps)
        .into_iter()
        .filter_map(|r| r.ok())
        .map(|(fm, _)| Name { id: fm.id, slug: fm.slug, name: fm.name, status: fm.status })
        .collect()
}

/// Now, in milliseconds since the epoch. The only clock read on the listing path.
pub fn now_millis() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}
