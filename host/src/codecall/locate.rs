//! codecall's locate rules: which changes are "the implementation this session produced", for
//! `codecall_start` and `dossier codecall start` alike (docs/codecall.md, Locating the work).
//!
//! In order, the first that finds a change wins:
//!
//! - `explicit` — `base` and `head` given: `base..head`; `base` alone: the work since `base`
//!   (its commits and the uncommitted changes). Never second-guessed: an unknown revision fails
//!   the start (`unavailable_source`).
//! - `session_head` — the agent session's starting HEAD, recorded by the SessionStart hook in
//!   its binding (`sessions/<id>.json`, `work_start`), for this repository: the commits since
//!   it plus the working-tree changes.
//! - `session_edits` — the files the session's transcript shows it edited (the changed-file
//!   set the Stop hook's card scores, `edits::session_files`): their changes in the run of
//!   recent commits that touched them and in the working tree.
//! - `working_tree` — no record of the session: the uncommitted changes, if any.
//! - `last_commit` — `HEAD~1..HEAD`, with a visible note (it may not be this session's work).
//! - `none` — nothing changed anywhere: the working tree (empty), and the session says there is
//!   no qualifying evidence and what would help.
//!
//! The rule and what it saw are recorded in the locator (`located`), so the evidence pack and
//! `SESSION_STARTED` both say which rule applied.
//!
//! Not for: collecting evidence (`dossier-evidence`) or recording the starting HEAD (the
//! SessionStart hook).

use std::path::Path;

use dossier_evidence::locate::{has_changes, session_base, work_state};
use dossier_evidence::{Changes, Located};

use super::edits;
use crate::app::App;
use dossier_store::error::{Code, DossierError, Result};
use dossier_store::sessions;

/// The changes chosen and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub changes: Changes,
    pub located: Located,
    /// Said to the caller as a warning (the `last_commit` and `none` rules).
    pub warning: Option<String>,
}

fn short(id: &str) -> &str {
    &id[..id.len().min(12)]
}

fn found(changes: Changes, rule: &str, note: String) -> Location {
    Location { changes, located: Located { rule: rule.to_string(), note: Some(note) }, warning: None }
}

/// Choose the changes for a start in `repo` (canonical), by the rules above. `harness_session` is
/// the agent session (`CLAUDE_CODE_SESSION_ID`) whose recorded start and transcript are used.
pub fn locate(
    app: &App,
    repo: &Path,
    harness_session: Option<&str>,
    base: Option<String>,
    head: Option<String>,
) -> Result<Location> {
    match (base, head) {
        (Some(base), Some(head)) => {
            return Ok(Location {
                changes: Changes::Revisions { base, head },
                located: Located { rule: "explicit".into(), note: None },
                warning: None,
            });
        }
        (Some(base), None) => {
            let note = format!("the work since {base}: its commits and the uncommitted changes");
            return Ok(found(Changes::Since { base, paths: Vec::new() }, "explicit", note));
        }
        (None, Some(_)) => {
            return Err(DossierError::new(Code::InvalidInput, "head needs base: pass base (and head), or neither")
                .with_details(serde_json::json!({ "field": "head", "expected": "base with head, or neither" }))
                .with_next("omit both to let codecall locate the work, or pass base too"));
        }
        (None, None) => {}
    }
    // No git here, or not a repository: the collection says so (and the start fails visibly).
    let Ok(now) = work_state(repo) else {
        return Ok(Location {
            changes: Changes::WorkingTree,
            located: Located { rule: "working_tree".into(), note: None },
            warning: None,
        });
    };
    let root = now.root.clone();
    let probe = |c: &Changes| has_changes(&root, c).unwrap_or(false);
    let session = harness_session.filter(|s| !s.is_empty());
    let start = session
        .and_then(|s| sessions::read(&app.store, s).ok().flatten())
        .and_then(|b| b.work_start)
        .filter(|w| same_dir(Path::new(&w.repo), &root));
    // The transcript: as the SessionStart hook recorded it, else as the Stop hook's card last
    // read it (a session that started before the store existed has no start record).
    let transcript = start.as_ref().and_then(|w| w.transcript.clone()).or_else(|| card_transcript(app, session?));
    let mut seen = Vec::new();
    match start.as_ref().and_then(|w| w.head.as_ref().map(|h| (w, h))) {
        Some((w, h)) => {
            let changes = Changes::Since { base: h.clone(), paths: Vec::new() };
            if probe(&changes) {
                let dirty = match w.dirty {
                    Some(true) => "; the tree already had uncommitted changes then, which are included",
                    Some(false) => "",
                    None => "; whether the tree already had uncommitted changes then is unknown",
                };
                let note = format!(
                    "the commits since {} (HEAD when this agent session started{dirty}) and the uncommitted changes",
                    short(h)
                );
                return Ok(found(changes, "session_head", note));
            }
            seen.push(format!("nothing changed since this session's starting HEAD {}", short(h)));
        }
        None if session.is_none() => seen.push("no agent session (CLAUDE_CODE_SESSION_ID is not set)".to_string()),
        None => seen.push("no record of this agent session's starting HEAD".to_string()),
    }
    if let Some(files) = transcript.as_deref().and_then(|t| edits::session_files(Path::new(t), &root)) {
        let paths: Vec<String> = files.into_keys().collect();
        if !paths.is_empty()
            && let Ok(Some(base)) = session_base(&root, &paths)
        {
            let changes = Changes::Since { base: base.clone(), paths: paths.clone() };
            if probe(&changes) {
                let mut named = paths.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
                if paths.len() > 5 {
                    named.push_str(&format!(" (+{} more)", paths.len() - 5));
                }
                let note = format!(
                    "the {} file(s) this session's transcript shows it edited ({named}), in the commits since {} \
                         and the working tree",
                    paths.len(),
                    short(&base)
                );
                return Ok(found(changes, "session_edits", note));
            }
            seen.push(format!("the {} file(s) the session edited show no change in git", paths.len()));
        }
    }
    if now.dirty {
        let note = format!("the uncommitted changes ({})", seen.join("; "));
        return Ok(found(Changes::WorkingTree, "working_tree", note));
    }
    let last = Changes::Revisions { base: "HEAD~1".into(), head: "HEAD".into() };
    if now.head.is_some() && probe(&last) {
        let note = format!(
            "the last commit, HEAD~1..HEAD: the tree is clean and {} — this may not be the work you mean; pass \
             base (and head) to choose",
            seen.join("; ")
        );
        let mut l = found(last, "last_commit", note.clone());
        l.warning = Some(format!("codecall is using {note}"));
        return Ok(l);
    }
    seen.push("the working tree is clean".to_string());
    if now.head.is_some() {
        seen.push("the last commit changes nothing (or has no parent)".to_string());
    }
    let note = format!("no changes found: {}", seen.join("; "));
    let mut l = found(Changes::WorkingTree, "none", note.clone());
    l.warning = Some(format!(
        "{note}. Pass base (a revision before the work), the task, or repo (a path in the repository with the change)"
    ));
    Ok(l)
}

/// The transcript the Stop hook's card state names (`sessions/cards/<id>.json`), if any.
fn card_transcript(app: &App, session: &str) -> Option<String> {
    dossier_store::layout::validate_component(session).ok()?;
    let path = app.store.sessions_dir().join("cards").join(format!("{session}.json"));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    v.get("transcript")?.as_str().filter(|t| !t.is_empty()).map(str::to_string)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
