//! The acquisition ladder (codecall ARCHITECTURE §7): resolve the locator, then run levels 1–4
//! in order, each only while the budget lasts, and assemble the [`EvidencePack`].
//!
//! One file per level, each an `impl Collector` block with the level's entry point:
//!
//! 1. Metadata (`metadata.rs`): task text, changed files (status, renames, modes, line counts,
//!    `-U0` hunks).
//! 2. Excerpts (`excerpts.rs`): windows around changed lines, extended to the enclosing
//!    definition; symbols.
//! 3. Search (`search.rs`): definitions and references of the changed symbols in the working tree.
//! 4. Slice (`slice.rs`): the host's declared paths, only with `consent: true`.
//!
//! Below the levels: `collector.rs` (the state one collection carries, and the runner that
//! checks the ladder and the budget and records each level), `locator.rs` (resolving the
//! locator to revisions) and `worktree.rs` (reading work-tree files without following symlinks).
//! This file validates the request, runs the ladder in order and assembles the pack; nothing
//! below uses it.
//!
//! Sensitive, non-UTF-8, symlink, submodule, type-changed, unmerged and oversized entries are
//! excluded from every content request (the `-U0` patch, blob reads, file reads) *before* it is
//! made; they appear in level 1 by name with a note. Every string placed in the pack has been
//! redacted.
//!
//! Not for: git plumbing (`git.rs`), window geometry (`excerpt.rs`), walking and matching
//! (`crate::search`), or deciding whether a level is *needed*: the host sets `max_level`.

mod collector;
mod excerpts;
mod locator;
mod metadata;
mod search;
mod slice;
mod worktree;

use std::collections::BTreeMap;
use std::path::{Component, Path};
use std::time::Instant;

use crate::EvidenceError;
use crate::budget::{ByteEstimate, TokenCounter, Tracker};
use crate::git::Git;
use crate::level::Level;
use crate::pack::{EvidencePack, LevelStatus, LocatorRecord, SCHEMA_VERSION, SearchRecord, SliceRecord};
use crate::privacy::SensitivePaths;
use crate::redactor::Redact;
use crate::request::EvidenceRequest;

use collector::Collector;
use locator::resolve;

/// Collect evidence with the default token estimate (`ceil(bytes / 4)`), redacting with
/// `redactor`.
pub fn collect(request: &EvidenceRequest, redactor: &dyn Redact) -> Result<EvidencePack, EvidenceError> {
    collect_with(request, &ByteEstimate, redactor)
}

/// Collect evidence, counting tokens with `counter` and redacting every string of the pack
/// (and of an error) with `redactor`.
pub fn collect_with(
    request: &EvidenceRequest,
    counter: &dyn TokenCounter,
    redactor: &dyn Redact,
) -> Result<EvidencePack, EvidenceError> {
    collect_inner(request, counter, redactor).map_err(|e| e.redacted(redactor))
}

fn collect_inner(
    request: &EvidenceRequest,
    counter: &dyn TokenCounter,
    redactor: &dyn Redact,
) -> Result<EvidencePack, EvidenceError> {
    let start = Instant::now();
    validate(request)?;
    let privacy = SensitivePaths::new(&request.privacy)?;
    let program = request.git_program.clone().unwrap_or_else(|| "git".into());
    let git = Git::discover(&program, &request.locator.repo)?;
    let resolved = resolve(&git, &request.locator.changes)?;
    let mut c = Collector {
        request,
        redactor,
        privacy,
        tracker: Tracker::new(request.budget.clone(), counter, start),
        blobs: None,
        redactions: BTreeMap::new(),
        entries: Vec::new(),
        excerpts: Vec::new(),
        symbols: Vec::new(),
        search: SearchRecord::default(),
        slice: SliceRecord::default(),
        levels: Vec::new(),
        task: None,
        summarised: None,
        error: None,
        real_root: git.root().canonicalize().map_err(|e| EvidenceError::io("repository root", e))?,
        git,
        resolved,
    };
    // The requested revision names are the caller's text: redacted like everything else.
    c.resolved.base.requested = c.redact(&c.resolved.base.requested.clone());
    if let Some(head) = c.resolved.head.as_ref().map(|h| h.requested.clone()) {
        let head = c.redact(&head);
        c.resolved.head.as_mut().expect("checked").requested = head;
    }
    c.level1();
    if c.error.is_none() {
        c.level(Level::Excerpts, Collector::level2);
    }
    if c.error.is_none() {
        c.level(Level::Search, Collector::level3);
    }
    if c.error.is_none() {
        c.level4();
    }
    c.finish()
}

fn validate(request: &EvidenceRequest) -> Result<(), EvidenceError> {
    if let Some(slice) = &request.slice {
        for p in &slice.paths {
            let path = Path::new(p);
            let ok = !p.is_empty()
                && !p.contains('\0')
                && path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
            if !ok {
                return Err(EvidenceError::invalid(format!(
                    "slice path `{p}` must be relative to the repository root, without `..`"
                )));
            }
        }
    }
    Ok(())
}

impl<'r, 'c> Collector<'r, 'c> {
    fn finish(mut self) -> Result<EvidencePack, EvidenceError> {
        drop(self.blobs.take());
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let level_reached = self
            .levels
            .iter()
            .filter(|l| matches!(l.status, LevelStatus::Complete | LevelStatus::Partial))
            .map(|l| l.level)
            .max();
        let sensitive_paths = self.entries.iter().filter(|e| e.file.sensitive).map(|e| e.file.path.clone()).collect();
        let root = self.git.root().to_string_lossy().into_owned();
        let repo_root = self.redact(&root);
        let located_note = self.request.locator.located.as_ref().and_then(|l| l.note.clone()).map(|n| self.redact(&n));
        Ok(EvidencePack {
            schema_version: SCHEMA_VERSION,
            locator: LocatorRecord {
                repo_root,
                mode: if self.resolved.worktree { "worktree" } else { "revisions" }.to_owned(),
                base: self.resolved.base.clone(),
                head: self.resolved.head.clone(),
                revision: self.resolved.revision.clone(),
                task: self.task.take(),
                located: self.request.locator.located.as_ref().map(|l| crate::request::Located {
                    rule: l.rule.clone(),
                    note: located_note,
                }),
            },
            files: self.entries.into_iter().map(|e| e.file).collect(),
            excerpts: self.excerpts,
            search: self.search,
            slice: self.slice,
            levels: self.levels,
            level_reached,
            budget: self.tracker.report(),
            redactions: self.redactions,
            sensitive_paths,
        })
    }
}
