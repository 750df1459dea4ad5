//! `dossier ls` (the open-work table, fitted to the terminal) and `dossier path` (the store
//! root or a Dossier's directory).
//!
//! Not for: ranking or reading the Dossiers (`dossier_store::listing`) or column-width arithmetic
//! (`crate::term`).

use serde_json::json;

use crate::term;
use dossier_store::error::Result;
use dossier_store::model::Status;

use super::args::StatusFilter;
use super::render::Output;

fn statuses(filter: &[StatusFilter]) -> Vec<Status> {
    if filter.is_empty() {
        return Status::OPEN.to_vec();
    }
    if filter.contains(&StatusFilter::All) {
        return vec![Status::Active, Status::Waiting, Status::Blocked, Status::Resolved, Status::Archived];
    }
    filter
        .iter()
        .map(|f| match f {
            StatusFilter::Active => Status::Active,
            StatusFilter::Waiting => Status::Waiting,
            StatusFilter::Blocked => Status::Blocked,
            StatusFilter::Resolved => Status::Resolved,
            StatusFilter::Archived | StatusFilter::All => Status::Archived,
        })
        .collect()
}

pub(super) fn cmd_ls(filter: &[StatusFilter]) -> Result<Output> {
    let app = crate::app::open()?;
    let o = crate::ops::list::list(&app, &statuses(filter), None)?;
    Ok(Output::of(o, |p| json!({ "dossiers": p.dossiers }), |p| render_table(&p.dossiers, term::stdout_width())))
}

/// The open-work table. Off a terminal (`width` None) every value is complete; on one, the
/// slug column keeps whole slugs while the next action keeps at least 16 columns, and the
/// next action (a display column) takes the rest, shortened with `…`.
fn render_table(dossiers: &[dossier_store::listing::ListItem], width: Option<usize>) -> String {
    if dossiers.is_empty() {
        return term::fit_lines("No dossiers match. Create one with `dossier promote --name <name>`.\n", width);
    }
    // "PRI STATUS   STALE  " before the slug, one space after it.
    const FIXED: usize = 3 + 1 + 8 + 1 + 5 + 2 + 1;
    const MIN_NEXT: usize = 16;
    let slug_full = dossiers.iter().map(|d| term::width(&d.slug)).max().unwrap_or(0).max("DOSSIER".len());
    let (slug_w, next_w) = match width {
        None => (slug_full, usize::MAX),
        Some(w) => {
            let room = w.saturating_sub(FIXED);
            let slug_w = slug_full.min(room.saturating_sub(MIN_NEXT)).max("DOSSIER".len().min(room));
            (slug_w, room.saturating_sub(slug_w))
        }
    };
    let row = |pri: &str, status: &str, stale: &str, slug: &str, next: &str| {
        let line = format!(
            "{pri:<3} {status:<8} {stale:>5}  {} {}",
            term::pad(&term::fit(slug, slug_w), slug_w),
            term::fit(next, next_w)
        );
        let line = line.trim_end().to_string();
        // Narrower than the fixed columns: the line itself is cut (terminal only).
        let line = match width {
            Some(w) => term::fit(&line, w),
            None => line,
        };
        format!("{line}\n")
    };
    let mut s = row("PRI", "STATUS", "STALE", "DOSSIER", "NEXT ACTION");
    for d in dossiers {
        s.push_str(&row(
            &d.priority_score.to_string(),
            d.status.as_str(),
            &format!("{}d", d.staleness_days),
            &d.slug,
            &d.next_action,
        ));
    }
    s
}

pub(super) fn cmd_path(target: Option<&str>) -> Result<Output> {
    let app = crate::app::open()?;
    let path = match target {
        None => app.store.root().to_path_buf(),
        Some(t) => {
            app.store.require()?;
            app.store.resolve(t)?
        }
    };
    Ok(Output::new(json!({ "path": path }), format!("{}\n", path.display())))
}
