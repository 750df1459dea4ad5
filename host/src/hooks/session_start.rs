//! The SessionStart hook (SPEC §9.1): for an unbound session the `# Dossier Library` header,
//! the capability warnings and the one-line nudge naming the open Dossiers in priority order
//! (paid on every session, so kept to ~120 tokens); for a bound session (after
//! `resume`/`compact`) that block, then the Distillation Guide and the active Distilled State in
//! full when they fit under Claude Code's ~10,000-character hook cap, otherwise the explicit
//! pointer (what to call to load what is not shown). Never output that Claude Code would cut
//! to a preview. A binding whose Dossier no longer exists is said, with the ways out. In a
//! synced store one line says when it last synced, or a warning that the last sync failed.
//! Open conflicts (a concurrent edit, a divergence a sync found, a merge's) are one warning
//! naming their ids and the fix, for the open Dossiers and again for the bound one;
//! with `sync.auto` a background sync is started first, never waited for
//! (`crate::ops::sync::session_start_status`). First,
//! once per session, the repository HEAD of the session's cwd and whether its tracked files were
//! dirty are recorded in its binding (`work_start`, for codecall's locate rules), read on a
//! thread while the payload is built (HEAD from the repository's files, one `git status
//! --untracked-files=no` killed after 500 ms: dirtiness then unknown); no repository or a
//! failure records nothing and changes nothing else.
//!
//! Not for: the other events, or registration (`crate::claude_code`).

use std::path::{Path, PathBuf};

use crate::app::App;
use crate::hooks::input::{HookInput, bound_dossier};
use crate::hooks::output::HookOutput;
use dossier_store::error::Result;
use dossier_store::model::{self, Status};
use dossier_store::recall;
use dossier_store::{context, listing, sessions};

/// Claude Code injects session-start output up to about this many characters in full; a
/// longer output is saved to a file and the model sees a 2 KB preview (DESIGN.md §4).
pub const HOOK_OUTPUT_CAP: usize = 10_000;
/// What we allow ourselves under that cap (headroom for Claude Code's own prefix).
const HOOK_OUTPUT_BUDGET: usize = 9_500;

/// The longest the session's starting state may take to read (git's dirtiness check is killed
/// then, and recorded as unknown): the hook never keeps the session waiting on a large tree.
const WORK_START_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(500);

pub(crate) fn session_start(app: &App, input: &HookInput) -> Result<HookOutput> {
    // The starting HEAD is read while the payload is built (git runs on the other core), then
    // recorded before the hook answers; a resumed session that has its record runs no git.
    let recorded = sessions::read(&app.store, &input.session_id).ok().flatten().is_some_and(|b| b.work_start.is_some());
    let probe = if recorded { None } else { work_start_probe(input) };
    let out = session_start_payload(app, input);
    if let Some(probe) = probe
        && let Ok(Some(state)) = probe.join()
    {
        record_work_start(app, input, state);
    }
    out
}

fn session_start_payload(app: &App, input: &HookInput) -> Result<HookOutput> {
    // Live: what is registered now (the session-start hook itself proves little else).
    let mut warnings = crate::claude_code::current_warnings();
    if !app.config.privacy.redact {
        warnings.push(dossier_store::redact::off_warning(&app.store));
    }
    if let Some(p) = &input.transcript_path
        && !p.as_os_str().is_empty()
        && std::fs::metadata(p).is_err()
        && input.source.as_deref() != Some("startup")
    {
        warnings.push(format!("Transcript {} is not readable; transcript capture will fail.", p.display()));
    }
    // The store's sync: a failed last attempt is a warning; with `sync.auto` a background sync
    // starts here (never waited for).
    let sync = crate::ops::sync::session_start_status(app);
    warnings.extend(sync.warnings);
    let notes = sync.notes;
    if let Some((binding, id)) = bound_dossier(app, &input.session_id)? {
        if let Some(missing) = sessions::missing_dossier(app, &binding) {
            // A dead binding is said first, with the two ways out; never the nudge alone.
            warnings.insert(
                0,
                format!(
                    "{}. Bind another: call dossier_session with id <slug> (dossier_list shows them); or clear the binding: call dossier_session with clear=true.",
                    missing
                ),
            );
        } else {
            match bound_payload(app, &id, &warnings, &notes) {
                Ok(text) => return Ok(HookOutput::Text(text)),
                Err(e) => warnings.push(format!("the bound Dossier `{id}` could not be loaded: {}", e.message)),
            }
        }
    }
    Ok(HookOutput::Text(nudge(app, &warnings, &notes)))
}

/// Read, on a thread, the repository HEAD of the session's working directory and whether its
/// tracked files were dirty ([`dossier_evidence::locate::start_state`]: HEAD from the
/// repository's files, one bounded `git status --untracked-files=no`). `None` without a session
/// id or a working directory; the thread answers `None` outside a repository or on a failure.
fn work_start_probe(
    input: &HookInput,
) -> Option<std::thread::JoinHandle<Option<dossier_evidence::locate::StartState>>> {
    if input.session_id.is_empty() {
        return None;
    }
    let cwd = input.cwd.clone().or_else(|| std::env::current_dir().ok())?;
    std::thread::Builder::new()
        .name("work-start".into())
        .spawn(move || dossier_evidence::locate::start_state(&cwd, WORK_START_TIMEOUT).ok())
        .ok()
}

/// Record the session's starting state (codecall's `session_head` locate rule diffs from it).
/// Best effort and silent: a write that fails records nothing and changes nothing else the
/// hook does.
fn record_work_start(app: &App, input: &HookInput, state: dossier_evidence::locate::StartState) {
    let work = sessions::WorkStart {
        repo: state.root.to_string_lossy().into_owned(),
        head: state.head,
        dirty: state.dirty,
        transcript: input.transcript_path.as_ref().map(|p| p.to_string_lossy().into_owned()),
        recorded_at: model::now_timestamp(),
    };
    let _ = sessions::record_work_start(app, &input.session_id, work);
}

/// The unbound payload of SPEC §9.1: the `# Dossier Library` header, the capability warnings
/// one a line, the notes (the store's sync) one a line, and one line naming the open Dossiers
/// in priority order while they fit [`NUDGE_NAMES_CHARS`] (then "and N more").
pub fn nudge(app: &App, warnings: &[String], notes: &[String]) -> String {
    nudge_except(app, warnings, notes, None)
}

/// [`nudge`], leaving the Dossier `except` (the bound one, whose own line follows) out of the
/// open-conflicts warning.
fn nudge_except(app: &App, warnings: &[String], notes: &[String], except: Option<&str>) -> String {
    let mut out = String::from("# Dossier Library\n\n");
    let (names, order_note, conflicted) = match listing::list(app, &Status::OPEN, listing::now_millis()) {
        Ok(l) => {
            let conflicted: Vec<String> = l
                .dossiers
                .iter()
                .filter(|d| d.open_conflicts > 0 && Some(d.slug.as_str()) != except)
                .map(|d| d.slug.clone())
                .collect();
            (l.dossiers.into_iter().map(|d| d.name).collect::<Vec<_>>(), None, conflicted)
        }
        Err(e) => (open_names_unordered(app), Some(e.message), Vec::new()),
    };
    let mut warned = false;
    for w in warnings {
        out.push_str(&format!("Warning: {}\n", one_line(w)));
        warned = true;
    }
    if let Some(note) = order_note {
        out.push_str(&format!("Warning: open dossiers are not in priority order ({}).\n", one_line(&note)));
        warned = true;
    }
    if let Some(line) = conflicts_line(app, &conflicted, None) {
        out.push_str(&format!("Warning: {line}\n"));
        warned = true;
    }
    for n in notes {
        out.push_str(&format!("{}\n", one_line(n)));
        warned = true;
    }
    if warned {
        out.push('\n');
    }
    let guide = tilde(&app.store.guide_path());
    if names.is_empty() {
        out.push_str(&format!(
            "No open dossiers. Use dossier_promote for a new thread (it flags likely duplicates automatically). Guide: {guide}\n"
        ));
        return out;
    }
    let names: Vec<String> = names.iter().map(|n| one_line(n)).collect();
    let list = |shown: usize| {
        let mut list = names[..shown].join(", ");
        if shown < names.len() {
            list.push_str(&format!(" and {} more", names.len() - shown));
        }
        list
    };
    // Names while the list stays within the budget (at least one name). The budget is in
    // characters: loading the tokenizer costs more than this whole hook may take.
    let mut shown = 1;
    while shown < names.len() && list(shown + 1).chars().count() <= NUDGE_NAMES_CHARS {
        shown += 1;
    }
    out.push_str(&format!(
        "{} open dossier(s): {}. Use dossier_list for details, dossier_session to resume one, or dossier_promote for a new thread (it flags likely duplicates automatically). Guide: {guide}\n",
        names.len(),
        list(shown)
    ));
    out
}

/// How many conflict ids a session-start line names before "and N more".
const CONFLICT_IDS_SHOWN: usize = 4;

/// One line naming the open conflicts of the Dossiers `slugs` (the open ones with
/// `open_conflicts`, or the bound one: `bound` is then its label) with the fix: `dossier
/// conflicts resolve <id>` for a concurrent edit (from a save, or a divergence a sync found),
/// `dossier conflicts show <id>` for a merge's (settled by the merge). `None` when there are none.
fn conflicts_line(app: &App, slugs: &[String], bound: Option<&str>) -> Option<String> {
    let open: Vec<dossier_store::conflicts::ConflictInfo> =
        slugs.iter().filter_map(|s| dossier_store::conflicts::list(app, Some(s), false).ok()).flatten().collect();
    if open.is_empty() {
        return None;
    }
    let mut named: Vec<String> = open
        .iter()
        .take(CONFLICT_IDS_SHOWN)
        .map(|c| if bound.is_some() { c.id.clone() } else { format!("{} in {}", c.id, one_line(&c.slug)) })
        .collect();
    if open.len() > CONFLICT_IDS_SHOWN {
        named.push(format!("and {} more (`dossier conflicts list`)", open.len() - CONFLICT_IDS_SHOWN));
    }
    let merge = open.iter().any(|c| c.kind == "merge");
    let edit = open.iter().any(|c| c.kind != "merge");
    let mut fix = Vec::new();
    if edit {
        fix.push("resolve with `dossier conflicts resolve <id> --keep current|proposal`".to_string());
    }
    if merge {
        fix.push("a merge's conflict: `dossier conflicts show <id>`, then the merge again".to_string());
    }
    let what = match bound {
        Some(label) => format!("this session's Dossier {label} has {} open conflict(s)", open.len()),
        None => format!("{} open conflict(s)", open.len()),
    };
    Some(format!("{what}: {}; {}.", named.join(", "), fix.join("; ")))
}

/// `s` on one line (a name or warning with a line break must not break the payload's shape).
fn one_line(s: &str) -> String {
    s.split(|c: char| c.is_control()).filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" ")
}

/// Character budget of the names in the unbound nudge line (it is paid on every session):
/// with the line's fixed text, at the ~2.6 characters per estimated Claude token measured on
/// such lines, ≤ [`NUDGE_TOKENS`] (tests/hooks.rs checks the estimate with the real tokenizer).
pub const NUDGE_NAMES_CHARS: usize = 100;

/// Estimated Claude tokens the unbound nudge line may cost (tests/hooks.rs checks it with the
/// real tokenizer).
pub const NUDGE_TOKENS: u64 = 120;

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

/// The bound payload (SPEC §9.1): the library block, then the Distillation Guide and the
/// Distilled State in full when both fit under the hook cap; when they do not, the state whole
/// and the explicit pointer to the guide, or — when the state alone does not fit — a header
/// and the exact calls that load guide and state. Never cut silently.
fn bound_payload(app: &App, id: &str, warnings: &[String], notes: &[String]) -> Result<String> {
    let r = recall::recall(app, id, None)?;
    let guide_path = tilde(&app.store.guide_path());
    let mut head = nudge_except(app, warnings, notes, Some(&r.slug));
    head.push_str(&format!("\n# Dossier: {} (bound to this session)\n\n", one_line(&r.name)));
    for w in &r.warnings {
        head.push_str(&format!("Warning: {}\n", one_line(w)));
    }
    if let Some(line) = conflicts_line(app, std::slice::from_ref(&r.slug), Some(&format!("`{}`", r.slug))) {
        head.push_str(&format!("Warning: {line}\n"));
    }
    head.push_str(&format!(
        "Follow the Distillation Guide ({guide_path}) and save with dossier_save (id `{}`, base_revision `{}`).\n\n",
        r.slug, r.revision
    ));
    let state = format!("The Distilled State (revision `{}`):\n\n{}", r.revision, r.content);
    let guide = context::GUIDE.trim_end();
    let full = format!("{head}{guide}\n\n{state}");
    if full.chars().count() <= HOOK_OUTPUT_BUDGET {
        return Ok(full);
    }
    let without_guide = format!(
        "{head}The Distillation Guide ({} characters) does not fit beside this Distilled State under the ~{} characters a session-start hook can deliver whole, so it is not shown here. Load it now: read {guide_path}, or call dossier_session with id `{}` (its reply carries the guide).\n\n{state}",
        guide.chars().count(),
        HOOK_OUTPUT_CAP,
        r.slug
    );
    if without_guide.chars().count() <= HOOK_OUTPUT_BUDGET {
        return Ok(without_guide);
    }
    let doc = model::DossierDoc::parse(&r.content, &r.path.join("dossier.md"))?;
    let fm = &doc.frontmatter;
    let mut s = head;
    s.push_str(&format!("Status: {}\n", fm.status.as_str()));
    s.push_str(&format!("Next action: {}\n", one_line(&fm.next_action)));
    if !fm.open_questions.is_empty() {
        s.push_str("Open questions:\n");
        for q in &fm.open_questions {
            s.push_str(&format!("- {}\n", one_line(q)));
        }
    }
    s.push_str(&format!(
        "\nThe Distilled State ({} bytes, ~{} tokens, {} page(s)) is larger than the ~{} characters a session-start hook can deliver whole, so neither it nor the Distillation Guide is shown here. Load them now: call dossier_session with id `{}` (guide and page 1), then dossier_recall with id `{}` and page 2..{}. The guide is also at {guide_path}.\n",
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
