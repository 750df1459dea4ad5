//! `dossier ls` (the open-work table, fitted to the terminal) and `dossier path` (the store
//! root or a Dossier's directory).
//!
//! Not for: ranking or reading the Dossiers (`dossier_store::listing`), the capability warnings
//! (`ops::list`) or column-width arithmetic (`crate::term`).

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
    let o = crate::ops::list::list(&app, &statuses(filter), None, true)?;
    Ok(Output::of(o, |p| json!({ "dossiers": p.dossiers }), |p| render_table(p, term::stdout_width())))
}

/// The open-work table: priority, status, staleness, the Dossier's name and slug, its next
/// action (a Dossier with open conflicts marked `!N` before its name, with a note saying how to
/// resolve them), and — inside a known harness session (SPEC §7.2) — the session's capability
/// warnings, explained under the table. Off a terminal (`width` None) every value is complete;
/// on one, the columns share the width: the next action shrinks first (to 16 columns), then
/// the warnings, the name and the slug, cut in the middle so the ends that tell similar
/// Dossiers apart stay visible. Line breaks in a value are shown as ⏎.
fn render_table(page: &crate::ops::list::Page, width: Option<usize>) -> String {
    let dossiers = &page.dossiers;
    if dossiers.is_empty() {
        return term::fit_lines("No dossiers match. Create one with `dossier promote --name <name>`.\n", width);
    }
    // "PRI STATUS   STALE  " before the name, one space between the flexible columns.
    const FIXED: usize = 3 + 1 + 8 + 1 + 5 + 2;
    let labels = page.session.as_ref().map(|c| {
        let l = c.labels();
        if l.is_empty() { "none".to_string() } else { l.join(", ") }
    });
    // A Dossier with open conflicts is marked `!N ` before its name (the same count `--json`
    // carries as `open_conflicts`), and a note under the table says how to resolve them.
    let names: Vec<String> = dossiers
        .iter()
        .map(|d| format!("{}{}", term::conflict_mark(d.open_conflicts), term::one_line(&d.name)))
        .collect();
    let nexts: Vec<String> = dossiers.iter().map(|d| term::one_line(&d.next_action)).collect();
    let widest =
        |head: &str, vals: &mut dyn Iterator<Item = &str>| vals.map(term::width).max().unwrap_or(0).max(head.len());
    let (name_i, slug_i, next_i, warn_i) = (0, 1, 2, 3);
    let mut full = vec![
        widest("NAME", &mut names.iter().map(String::as_str)),
        widest("SLUG", &mut dossiers.iter().map(|d| d.slug.as_str())),
        widest("NEXT ACTION", &mut nexts.iter().map(String::as_str)),
    ];
    if let Some(l) = &labels {
        full.push(widest("WARNINGS", &mut std::iter::once(l.as_str())));
    }
    let w = match width {
        None => full.clone(),
        Some(w) => {
            let room = w.saturating_sub(FIXED + full.len() - 1);
            let mut steps = vec![(next_i, 16)];
            if labels.is_some() {
                steps.push((warn_i, 13));
            }
            steps.extend([(name_i, 12), (slug_i, 12), (next_i, 8)]);
            if labels.is_some() {
                steps.push((warn_i, 6));
            }
            steps.extend([(name_i, 6), (slug_i, 6), (next_i, 0)]);
            term::allocate(&full, room, &steps)
        }
    };
    let cut = |s: &str, i: usize| if i == next_i { term::fit(s, w[i]) } else { term::fit_middle(s, w[i]) };
    let row = |pri: &str, status: &str, stale: &str, cells: [&str; 4]| {
        let mut line = format!("{pri:<3} {status:<8} {stale:>5} ");
        for (i, c) in cells.iter().enumerate().take(full.len()) {
            let c = cut(c, i);
            // The last column is not padded.
            let c = if i + 1 == full.len() { c } else { term::pad(&c, w[i]) };
            line.push(' ');
            line.push_str(&c);
        }
        let line = line.trim_end().to_string();
        // Narrower than the fixed columns: the line itself is cut (terminal only).
        let line = match width {
            Some(w) => term::fit(&line, w),
            None => line,
        };
        format!("{line}\n")
    };
    let label = labels.as_deref().unwrap_or("");
    let mut s = row("PRI", "STATUS", "STALE", ["NAME", "SLUG", "NEXT ACTION", "WARNINGS"]);
    for (d, (name, next)) in dossiers.iter().zip(names.iter().zip(&nexts)) {
        s.push_str(&row(
            &d.priority_score.to_string(),
            d.status.as_str(),
            &format!("{}d", d.staleness_days),
            [name, &d.slug, next, label],
        ));
    }
    let mut notes: String = dossiers
        .iter()
        .filter(|d| d.open_conflicts > 0)
        .map(|d| {
            format!(
                "note: {}{}: {} open conflict{}; `dossier conflicts list {}`, then `dossier conflicts resolve <id>`\n",
                term::conflict_mark(d.open_conflicts),
                d.slug,
                d.open_conflicts,
                if d.open_conflicts == 1 { "" } else { "s" },
                d.slug
            )
        })
        .collect();
    if let Some(caps) = &page.session {
        notes.extend(caps.warnings().iter().map(|w| format!("note: {w}\n")));
    }
    s.push_str(&term::fit_lines(&notes, width));
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
