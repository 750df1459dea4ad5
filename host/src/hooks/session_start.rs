//! The SessionStart hook (SPEC §9.1): for an unbound session the one-line nudge naming the
//! open Dossiers in priority order (paid on every session, so kept to ~60 tokens); for a
//! bound session (after `resume`/`compact`) the guide pointer and the active Distilled State
//! in full when it fits under Claude Code's ~10,000-character hook cap, otherwise a compact
//! header and the exact calls that load it in pages. Never output that Claude Code would cut
//! to a preview. Capability warnings (what is not registered) come first.
//!
//! Not for: the other events, or registration (`crate::claude_code`).

use std::path::{Path, PathBuf};

use crate::app::App;
use crate::hooks::input::{HookInput, bound_dossier};
use crate::hooks::output::HookOutput;
use dossier_store::error::Result;
use dossier_store::listing;
use dossier_store::model::{self, Status};
use dossier_store::recall;

/// Claude Code injects session-start output up to about this many characters in full; a
/// longer output is saved to a file and the model sees a 2 KB preview (DESIGN.md §4).
pub const HOOK_OUTPUT_CAP: usize = 10_000;
/// What we allow ourselves under that cap (headroom for Claude Code's own prefix).
const HOOK_OUTPUT_BUDGET: usize = 9_500;

pub(crate) fn session_start(app: &App, input: &HookInput) -> Result<HookOutput> {
    // Live: what is registered now (the session-start hook itself proves little else).
    let mut warnings = crate::claude_code::current_warnings();
    if let Some(p) = &input.transcript_path
        && !p.as_os_str().is_empty()
        && std::fs::metadata(p).is_err()
        && input.source.as_deref() != Some("startup")
    {
        warnings.push(format!("Transcript {} is not readable; transcript capture will fail.", p.display()));
    }
    if let Some((_, id)) = bound_dossier(app, &input.session_id)? {
        match bound_payload(app, &id, &warnings) {
            Ok(text) => return Ok(HookOutput::Text(text)),
            Err(e) => warnings.push(format!("the bound Dossier `{id}` could not be loaded: {}", e.message)),
        }
    }
    Ok(HookOutput::Text(nudge(app, &warnings)))
}

/// The unbound payload: one line (plus any capability warnings), names in priority order
/// while they fit the token budget.
pub fn nudge(app: &App, warnings: &[String]) -> String {
    let mut out = String::new();
    for w in warnings {
        out.push_str(&format!("Warning: {w}\n"));
    }
    let (names, order_note) = match listing::list(app, &Status::OPEN, listing::now_millis()) {
        Ok(l) => (l.dossiers.into_iter().map(|d| d.name).collect::<Vec<_>>(), None),
        Err(e) => (open_names_unordered(app), Some(e.message)),
    };
    if let Some(note) = order_note {
        out.push_str(&format!("Warning: open dossiers are not in priority order ({note}).\n"));
    }
    let guide = tilde(&app.store.guide_path());
    if names.is_empty() {
        out.push_str(&format!("Dossier: no open dossiers; dossier_promote starts one. Guide: {guide}\n"));
        return out;
    }
    let line = |shown: usize| {
        let mut list = names[..shown].join("; ");
        if shown < names.len() {
            list.push_str(&format!("; +{}", names.len() - shown));
        }
        format!(
            "Dossier: {} open: {list} (dossier_list). Resume: dossier_session. New: dossier_promote. Guide: {guide}\n",
            names.len()
        )
    };
    // Names while the line stays within the budget (at least one name). The budget is in
    // characters: loading the tokenizer costs more than this whole hook may take.
    let mut shown = 1;
    while shown < names.len() && line(shown + 1).chars().count() <= NUDGE_CHARS {
        shown += 1;
    }
    out.push_str(&line(shown));
    out
}

/// Character budget of the unbound nudge line (it is paid on every session): at the
/// ~2.6 characters per estimated Claude token measured on such lines, ≤ 60 tokens
/// (tests/hooks.rs checks the estimate with the real tokenizer).
pub const NUDGE_CHARS: usize = 155;

fn open_names_unordered(app: &App) -> Vec<String> {
    let Ok(files) = app.store.dossier_files() else { return Vec::new() };
    app.frontmatter
        .read(&files)
        .into_iter()
        .filter_map(|r| r.ok())
        .filter(|(fm, _)| Status::OPEN.contains(&fm.status))
        .map(|(fm, _)| fm.name)
        .collect()
}

/// `~/...` for paths under the home directory (shorter in every session's context).
fn tilde(p: &Path) -> String {
    match std::env::var_os("HOME").map(PathBuf::from) {
        Some(home) if !home.as_os_str().is_empty() => match p.strip_prefix(&home) {
            Ok(rest) => format!("~/{}", rest.display()),
            Err(_) => p.display().to_string(),
        },
        _ => p.display().to_string(),
    }
}

/// The bound payload: the Distilled State in full when it fits under the hook cap,
/// otherwise a header and the exact calls that load it.
fn bound_payload(app: &App, id: &str, warnings: &[String]) -> Result<String> {
    let r = recall::recall(app, id, None)?;
    let recall_warnings = r.warnings.clone();
    let mut head = String::new();
    head.push_str(&format!("# Dossier: {} (bound to this session)\n\n", r.name));
    for w in warnings.iter().chain(&recall_warnings) {
        head.push_str(&format!("Warning: {w}\n"));
    }
    head.push_str(&format!(
        "Follow the Distillation Guide ({}) and save with dossier_save (id `{}`, base_revision `{}`).\n\n",
        tilde(&app.store.guide_path()),
        r.slug,
        r.revision
    ));
    let full = format!("{head}{}", r.content);
    if full.chars().count() <= HOOK_OUTPUT_BUDGET {
        return Ok(full);
    }
    let doc = model::DossierDoc::parse(&r.content, &r.path.join("dossier.md"))?;
    let fm = &doc.frontmatter;
    let mut s = head;
    s.push_str(&format!("Status: {}\n", fm.status.as_str()));
    s.push_str(&format!("Next action: {}\n", fm.next_action));
    if !fm.open_questions.is_empty() {
        s.push_str("Open questions:\n");
        for q in &fm.open_questions {
            s.push_str(&format!("- {q}\n"));
        }
    }
    s.push_str(&format!(
        "\nThe Distilled State ({} bytes, ~{} tokens, {} page(s)) is larger than the ~{} characters a session-start hook can deliver whole, so it is not shown here. Load it now: call dossier_session with id `{}` (guide and page 1), then dossier_recall with id `{}` and page 2..{}.\n",
        r.bytes,
        r.token_estimate.tokens,
        r.page_count,
        HOOK_OUTPUT_CAP,
        r.slug,
        r.slug,
        r.page_count.max(2),
    ));
    // A header with very many open questions must still fit; say so rather than be cut.
    if s.chars().count() > HOOK_OUTPUT_BUDGET {
        let cut: String = s.chars().take(HOOK_OUTPUT_BUDGET - 200).collect();
        s = format!(
            "{cut}\n[header shortened to fit the hook cap; call dossier_session with id `{}` for everything]\n",
            r.slug
        );
    }
    Ok(s)
}
