//! Level 4, slice: the host's declared paths, walked and read whole (capped per file), only when
//! the request carries a slice with `consent: true`; without consent nothing under the paths is
//! read. Sensitive, binary, oversized and already-excerpted files are left out and reported.
//!
//! Not for: deciding that a slice is needed or which paths (the host declares them), or
//! validating the paths' shape (`mod.rs`).

use crate::budget::{Limit, OmissionReason};
use crate::excerpt::{self, Lines};
use crate::git::Fail;
use crate::level::Level;
use crate::pack::{ExcerptReason, LevelStatus, LineSpan, SliceRecord};
use crate::search;

use super::collector::{Collector, NOTE_SENSITIVE, Outcome};
use super::excerpts::Piece;
use super::worktree::{WorktreeRead, is_binary, read_worktree};

impl<'r, 'c> Collector<'r, 'c> {
    pub(super) fn level4(&mut self) {
        let level = Level::Slice;
        if let Some(slice) = &self.request.slice {
            self.slice = SliceRecord {
                requested: true,
                consent: slice.consent,
                paths: slice.paths.clone(),
                reason: slice.reason.clone(),
                files_included: 0,
            };
            let (paths, reason) = (self.slice.paths.clone(), self.slice.reason.clone());
            self.slice.paths = paths.iter().map(|p| self.redact_text(p).map(|r| r.text).unwrap_or_default()).collect();
            self.slice.reason = reason.map(|r| self.redact_text(&r).map(|r| r.text).unwrap_or_default());
        }
        if level > self.request.max_level {
            self.record(
                level,
                LevelStatus::NotRequested,
                None,
                Some(format!("above max_level ({})", self.request.max_level.as_str())),
                None,
            );
            return;
        }
        match &self.request.slice {
            None => {
                self.record(level, LevelStatus::NotRequested, None, Some("no slice declared".to_owned()), None);
            }
            Some(s) if !s.consent => {
                self.record(
                    level,
                    LevelStatus::Skipped,
                    None,
                    Some("no consent: the declared paths were not read".to_owned()),
                    None,
                );
            }
            Some(_) => self.level(level, Collector::slice),
        }
    }

    fn slice(&mut self) -> Outcome {
        let level = Level::Slice;
        let labeler = match self.labeler() {
            Ok(l) => l,
            Err(Fail::TimedOut) => return Outcome::Stopped(Limit::Time, "git was stopped at the deadline".to_owned()),
            Err(Fail::Error(e)) => {
                self.error = Some(e);
                return Outcome::Complete(Some("failed".to_owned()));
            }
        };
        let covered = self.covered();
        let root = self.git.root().to_owned();
        let paths = self.request.slice.as_ref().map(|s| s.paths.clone()).unwrap_or_default();
        let max_read = self.request.limits.max_file_read_bytes;
        let mut seen: Vec<String> = Vec::new();
        for declared in &paths {
            let start = root.join(declared);
            if std::fs::symlink_metadata(&start).is_err() {
                self.omit(
                    level,
                    OmissionReason::NotAFile,
                    None,
                    Some(declared),
                    "declared path does not exist".to_owned(),
                );
                continue;
            }
            for entry in search::walk(&start) {
                let Ok(entry) = entry else { continue };
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                let Some(rel) = search::relative(&root, entry.path()) else { continue };
                if seen.contains(&rel) {
                    continue;
                }
                seen.push(rel.clone());
                if self.privacy.is_sensitive(&rel) {
                    self.omit(level, OmissionReason::Sensitive, None, Some(&rel), NOTE_SENSITIVE.to_owned());
                    continue;
                }
                if self.tracker.timed_out() {
                    return Outcome::Stopped(
                        Limit::Time,
                        format!("{} slice files included", self.slice.files_included),
                    );
                }
                let revision = labeler.label(&rel);
                if covered.contains_key(&(rel.clone(), revision.clone())) {
                    continue;
                }
                let bytes = match read_worktree(&root, &self.real_root, &rel, max_read) {
                    WorktreeRead::Content(b) => b,
                    WorktreeRead::TooLarge(size) => {
                        self.omit(level, OmissionReason::TooLarge, None, Some(&rel), format!("{size} bytes"));
                        continue;
                    }
                    _ => continue,
                };
                if is_binary(&bytes) {
                    self.omit(level, OmissionReason::Binary, None, Some(&rel), "NUL bytes in content".to_owned());
                    continue;
                }
                let text = String::from_utf8_lossy(&bytes);
                let Some(redacted) = self.redact_text(&text) else {
                    return Outcome::Complete(Some("failed".to_owned()));
                };
                let (redacted, redactions) = (redacted.text, redacted.found);
                let lines = Lines::new(&redacted);
                if lines.len() == 0 {
                    continue;
                }
                let path = self.redact(&rel);
                let full = LineSpan { start: 1, end: lines.len() };
                let (kept, dropped, cut) = excerpt::cap(vec![full], self.request.limits.max_lines_per_file);
                if dropped > 0 {
                    self.omit(
                        level,
                        OmissionReason::LineCap,
                        None,
                        Some(&path),
                        format!("{dropped} of {} lines beyond max_lines_per_file", full.end),
                    );
                }
                let Some(&window) = kept.first() else { continue };
                let piece = Piece {
                    level,
                    reason: ExcerptReason::ConsentSlice,
                    path: &path,
                    revision: &revision,
                    changed: Vec::new(),
                    symbols: Vec::new(),
                    truncated: cut,
                };
                let pushed = self.push_excerpt(piece, &lines, window, &redactions);
                if let Err(limit) = pushed {
                    if self.excerpts.last().is_some_and(|e| e.evidence.path == path && e.level == level) {
                        self.slice.files_included += 1;
                    }
                    return Outcome::Stopped(limit, format!("{} slice files included", self.slice.files_included));
                }
                self.slice.files_included += 1;
            }
        }
        Outcome::Complete(None)
    }
}
