//! codecall's recommendation card (ARCHITECTURE §10, gate 1): after the agent finishes a turn
//! that changed code, the Stop hook scores the learning opportunity of the **session's changes**
//! and, only for `recommend`, returns one line for the hook's `systemMessage`:
//! `codecall: <concepts> — /codecall to start, ~N min`.
//!
//! Input: the session's own `Edit`, `MultiEdit`, `Write` and `NotebookEdit` tool calls, read
//! incrementally by `crate::codecall::edits` (the changed-file set `codecall_start` uses too)
//! from the Claude Code transcript (`transcript_path`; the byte offset read so far
//! is kept per session). They give exactly the paths this session changed and the text it
//! changed, without spawning git (10–35 ms per spawn here; see docs/codecall-card.md for the
//! measurements behind this choice). A call whose tool result is an error changed nothing and
//! is ignored. Changes made through `Bash` (formatters, `sed -i`, code generators) are not seen.
//!
//! The check, all deterministic (no model, no tokenizer):
//! - each edit is classified: whitespace-only (`formatting`), only comment lines (`comments`),
//!   or a code change; a file's class is its strongest edit's;
//! - signals come from the same rules as the runtime's ([`derive::derive_signals_from`]): words
//!   of the changed paths and names defined on the changed lines;
//! - exclusions are detected from paths and text: an isolated dependency bump (only manifests and
//!   lock files), generated-only (generated paths or an `@generated`/`DO NOT EDIT` header),
//!   documentation only (`copy-text`: no signals), tests-only without test infrastructure
//!   (`tests-without-strategy`: no signals);
//! - `completed` is true (Claude Code fires Stop when the agent finished its turn, not on an
//!   interrupt); `inspectable` is whether a non-sensitive file of the repository was changed;
//! - the policy component's `score-opportunity` decides (loaded from the compile cache only);
//!   `~N min` is its `plan` of the same evidence at the default budget, the estimate a session
//!   started now records for its Start/Skip card
//!   ([`dossier_codecall::work_order::evidence_plan_minutes`], issue 21 defect 10).
//!
//! State, per Claude Code session id, in `sessions/cards/<session-id>.json` (atomic writes):
//! the transcript offset, the session's changed files so far, and the concept fingerprints
//! already shown: each is shown once per session.
//!
//! Invariants: it never starts a codecall session, never blocks the stop, and every failure
//! (no transcript, an unreadable file, a policy failure, a corrupt state file) is silence, with
//! nothing recorded.
//!
//! Takes only what it needs: the store context and the [`Turn`]'s fields (never the hook's
//! input type, never a call back into `hooks`).
//!
//! Not for: the codecall session itself (`crate::codecall`), or the save cadence of the Stop
//! hook (`hooks::stop`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use dossier_codecall::LearningPolicy;
use dossier_codecall::derive::{self, ChangedPath};
use dossier_codecall::event::DerivedSignal;
use dossier_codecall::policy::core_signal_kind;
use dossier_core::learning as l;
use serde::{Deserialize, Serialize};

use crate::app::App;
use crate::codecall::edits;
pub use crate::codecall::edits::{Change, FileChange, edits_in};
use crate::policy::ComponentLearningPolicy;
use dossier_store::files;

/// At most this many concepts are named on the card.
const MAX_CONCEPTS: usize = 3;
/// What one session's card has seen so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CardState {
    /// The transcript read, and how many bytes of it (always whole lines).
    pub transcript: String,
    pub offset: u64,
    /// The session's changed files so far, by repository-relative path.
    pub files: BTreeMap<String, FileChange>,
    /// Concept fingerprints whose card was shown in this session.
    pub shown: Vec<String>,
}

/// The agent turn a Stop hook reports: what the card reads of Claude Code's hook input.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// Claude Code's session id (names the card's state file).
    pub session_id: &'a str,
    /// The session's transcript (`transcript_path`).
    pub transcript: Option<&'a Path>,
    /// The session's working directory (`cwd`); the process's when absent.
    pub cwd: Option<&'a Path>,
    /// Claude Code is already continuing because of a Stop hook.
    pub stop_hook_active: bool,
}

/// The card line for this Stop, or `None` (most Stops). Never fails: see the module doc.
pub fn check(app: &App, turn: &Turn<'_>) -> Option<String> {
    if !app.config.codecall.recommendation_cards || turn.stop_hook_active || turn.session_id.is_empty() {
        return None;
    }
    let transcript = turn.transcript.filter(|p| !p.as_os_str().is_empty())?;
    let state_path = state_path(app, turn.session_id)?;
    let mut state = read_state(&state_path).unwrap_or_default();
    let transcript_text = transcript.display().to_string();
    if state.transcript != transcript_text {
        state.transcript = transcript_text;
        state.offset = 0;
    }
    let cwd = turn.cwd.map(Path::to_path_buf).or_else(|| std::env::current_dir().ok())?;
    let read = edits::update(&mut state.files, transcript, state.offset, &cwd)?;
    if read.end == state.offset {
        return None;
    }
    state.offset = read.end;
    if read.edits == 0 || !read.in_repository {
        // No edit, or only edits outside the repository (plans, settings): no change to score.
        write_state(&state_path, &state)?;
        return None;
    }
    let (derived, excluded, inspectable) = derived_input(&state.files);
    let input_signals = core_signals(&derived);
    let policy = ComponentLearningPolicy::new(crate::app::policies(app).ok()?);
    let opportunity = policy
        .score_opportunity(&l::OpportunityInput {
            completed: true,
            inspectable,
            signals: input_signals.clone(),
            excluded,
        })
        .ok()?;
    let recommend =
        opportunity.recommendation == l::Recommendation::Recommend && !state.shown.contains(&opportunity.fingerprint);
    let card = if recommend {
        // The minutes of the plan a session started now would make from the same evidence, at
        // the default budget (issue 21 defect 10): the Start/Skip card's number, not a second rule.
        let minutes = dossier_codecall::work_order::evidence_plan_minutes(
            &policy,
            &derived,
            dossier_codecall::event::DEFAULT_MAX_MINUTES,
        )
        .ok()?;
        Some(card_line(&input_signals, &opportunity, minutes))
    } else {
        None
    };
    if card.is_some() {
        state.shown.push(opportunity.fingerprint);
    }
    // Shown only once it is recorded as shown.
    write_state(&state_path, &state)?;
    card
}

/// `sessions/cards/<session-id>.json`, for a session id that is a usable file name.
fn state_path(app: &App, session_id: &str) -> Option<PathBuf> {
    dossier_store::layout::validate_component(session_id).ok()?;
    Some(app.store.sessions_dir().join("cards").join(format!("{session_id}.json")))
}

fn read_state(path: &Path) -> Option<CardState> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn write_state(path: &Path, state: &CardState) -> Option<()> {
    std::fs::create_dir_all(path.parent()?).ok()?;
    files::write_atomic(path, &serde_json::to_vec(state).ok()?).ok()
}

/// The opportunity input for the session's changes so far (see the module doc): signals,
/// exclusions, and whether anything is inspectable.
pub fn opportunity_input(files: &BTreeMap<String, FileChange>) -> (Vec<l::Signal>, Vec<l::ExcludedKind>, bool) {
    let (derived, excluded, inspectable) = derived_input(files);
    (core_signals(&derived), excluded, inspectable)
}

fn core_signals(derived: &[DerivedSignal]) -> Vec<l::Signal> {
    derived
        .iter()
        .map(|d| l::Signal {
            kind: core_signal_kind(d.kind),
            concept: d.concept.clone(),
            reason: d.reason.clone(),
            evidence: Vec::new(),
        })
        .collect()
}

/// [`opportunity_input`] with the derived signals as the runtime records them (what the
/// estimate of [`dossier_codecall::work_order::evidence_plan_minutes`] is planned from).
fn derived_input(files: &BTreeMap<String, FileChange>) -> (Vec<DerivedSignal>, Vec<l::ExcludedKind>, bool) {
    let visible: Vec<(&String, &FileChange)> = files.iter().filter(|(_, f)| !f.sensitive).collect();
    let inspectable = !visible.is_empty();
    let mut excluded = BTreeSet::new();
    if visible.iter().any(|(_, f)| f.change == Change::Formatting) {
        excluded.insert(l::ExcludedKind::Formatting);
    }
    if visible.iter().any(|(_, f)| f.change == Change::Comments) {
        excluded.insert(l::ExcludedKind::Comments);
    }
    let code: Vec<(&String, &FileChange)> = visible.iter().copied().filter(|(_, f)| f.change == Change::Code).collect();
    let generated = |p: &str, f: &FileChange| f.generated || derive::is_generated_path(p);
    let from: Vec<(&String, &FileChange)> = if code.is_empty() {
        Vec::new()
    } else if code.iter().all(|(p, _)| derive::is_manifest(p) || derive::is_lockfile(p))
        && code.iter().any(|(p, _)| derive::is_manifest(p))
    {
        excluded.insert(l::ExcludedKind::DependencyBump);
        code.clone()
    } else {
        let source: Vec<_> = code.iter().copied().filter(|(p, f)| !generated(p, f)).collect();
        let prose = |p: &str| derive::is_documentation(p);
        if source.is_empty() {
            excluded.insert(l::ExcludedKind::GeneratedOnly);
            code.clone()
        } else if source.iter().all(|(p, _)| prose(p)) {
            excluded.insert(l::ExcludedKind::CopyText);
            Vec::new()
        } else if source.iter().all(|(p, _)| derive::is_test_path(p))
            && !source.iter().any(|(p, _)| derive::is_test_infrastructure(p))
        {
            excluded.insert(l::ExcludedKind::TestsWithoutStrategy);
            Vec::new()
        } else {
            // Prose next to code gives no signal of its own (the code does).
            source.into_iter().filter(|(p, _)| !prose(p)).collect()
        }
    };
    let changed: Vec<ChangedPath<'_>> = from
        .iter()
        .map(|(p, f)| ChangedPath { path: p, sensitive: false, symbols: &f.symbols, evidence: None })
        .collect();
    (derive::derive_signals_from(&changed), excluded.into_iter().collect(), inspectable)
}

/// `codecall: <concepts> — /codecall to start, ~N min`, strong concepts first.
fn card_line(signals: &[l::Signal], o: &l::Opportunity, minutes: u32) -> String {
    let counted = |k: &l::SignalKind| o.matched_strong.contains(k) || o.matched_moderate.contains(k);
    let mut concepts: Vec<&str> = Vec::new();
    for strong in [true, false] {
        for s in signals.iter().filter(|s| counted(&s.kind) && s.kind.is_strong() == strong) {
            if !concepts.contains(&s.concept.as_str()) {
                concepts.push(&s.concept);
            }
        }
    }
    let mut named = concepts.iter().take(MAX_CONCEPTS).copied().collect::<Vec<_>>().join(", ");
    if concepts.len() > MAX_CONCEPTS {
        named.push_str(&format!(" (+{} more)", concepts.len() - MAX_CONCEPTS));
    }
    format!("codecall: {named} — /codecall to start, ~{} min", minutes.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(symbols: &[&str]) -> FileChange {
        FileChange {
            change: Change::Code,
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    fn input(files: &[(&str, FileChange)]) -> (Vec<l::Signal>, Vec<l::ExcludedKind>, bool) {
        opportunity_input(&files.iter().map(|(p, f)| (p.to_string(), f.clone())).collect())
    }

    #[test]
    fn exclusions_are_detected_from_paths_and_classes() {
        let (s, e, i) = input(&[("src/auth/oauth_middleware.rs", code(&[]))]);
        assert!(i && e.is_empty());
        let kinds: Vec<_> = s.iter().map(|s| s.kind).collect();
        assert_eq!(kinds, [l::SignalKind::SecurityBoundary, l::SignalKind::ArchitectureFlow]);

        let (s, e, _) = input(&[("Cargo.toml", code(&[])), ("Cargo.lock", code(&[]))]);
        assert!(s.is_empty() && e == [l::ExcludedKind::DependencyBump], "{s:?} {e:?}");

        let (_, e, _) = input(&[("src/api/auth_pb2.py", code(&[]))]);
        assert_eq!(e, [l::ExcludedKind::GeneratedOnly]);

        let (s, e, _) = input(&[("tests/auth_test.rs", code(&["test_login"]))]);
        assert!(s.is_empty() && e == [l::ExcludedKind::TestsWithoutStrategy], "{s:?} {e:?}");
        let (s, e, _) = input(&[("tests/support/fixtures.rs", code(&[]))]);
        assert!(!s.is_empty() && e.is_empty(), "test infrastructure may carry a strategy");

        let fmt = FileChange { change: Change::Formatting, ..Default::default() };
        let (s, e, _) = input(&[("docs/auth.md", code(&[])), ("README.md", code(&[]))]);
        assert!(s.is_empty() && e == [l::ExcludedKind::CopyText], "{s:?} {e:?}");
        let (s, _, _) = input(&[("docs/cache.md", code(&[])), ("src/auth.rs", code(&[]))]);
        assert_eq!(s.len(), 1, "prose next to code gives no signal of its own: {s:?}");

        let (s, e, i) = input(&[("src/auth/oauth_middleware.rs", fmt)]);
        assert!(i && s.is_empty() && e == [l::ExcludedKind::Formatting], "{s:?} {e:?}");

        let secret = FileChange { change: Change::Code, sensitive: true, ..Default::default() };
        let (s, _, i) = input(&[(".env", secret)]);
        assert!(!i && s.is_empty());
    }
}
