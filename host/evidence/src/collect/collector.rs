//! The state one collection carries from level to level ([`Collector`]: the request, the
//! budget tracker, the changed-file entries, excerpts, symbols, search and slice records, the
//! level records) and what every level shares: the runner that skips a level above
//! `max_level` or past an exhausted limit and records how it ended, redaction with counting,
//! omissions, and the lazily opened blob reader.
//!
//! Not for: any level's own work (`metadata.rs`, `excerpts.rs`, `search.rs`, `slice.rs`) or
//! assembling the pack (`mod.rs`).

use std::collections::BTreeMap;
use std::time::Instant;

use crate::EvidenceError;
use crate::budget::{Limit, Omission, OmissionReason, Tracker, Usage};
use crate::git::{BlobReader, Git};
use crate::level::Level;
use crate::pack::{ChangedFile, Excerpt, LevelRecord, LevelStatus, SearchRecord, SliceRecord};
use crate::privacy::SensitivePaths;
use crate::redactor::{Redact, Redacted};
use crate::request::EvidenceRequest;

use super::locator::Resolved;

pub(super) const NOTE_SENSITIVE: &str = "sensitive path, not read";

/// A changed file and what the collector knows about reading it.
pub(super) struct Entry {
    pub(super) file: ChangedFile,
    pub(super) raw_path: Vec<u8>,
    pub(super) raw_old: Option<Vec<u8>>,
    pub(super) old_oid: String,
    pub(super) new_oid: String,
    /// Content may be requested (not sensitive, regular file, UTF-8 path, within size).
    pub(super) readable: bool,
    /// Content read at level 1 (untracked files).
    pub(super) content: Option<Vec<u8>>,
}

pub(super) struct Collector<'r, 'c> {
    pub(super) request: &'r EvidenceRequest,
    /// The caller's redactor: every string placed in the pack goes through it.
    pub(super) redactor: &'c dyn Redact,
    pub(super) privacy: SensitivePaths,
    pub(super) git: Git,
    pub(super) resolved: Resolved,
    pub(super) tracker: Tracker<'c>,
    pub(super) blobs: Option<BlobReader>,
    pub(super) redactions: BTreeMap<String, u64>,
    pub(super) entries: Vec<Entry>,
    pub(super) excerpts: Vec<Excerpt>,
    /// Changed symbols in priority order (level 2 → level 3).
    pub(super) symbols: Vec<String>,
    pub(super) search: SearchRecord,
    pub(super) slice: SliceRecord,
    pub(super) levels: Vec<LevelRecord>,
    pub(super) task: Option<String>,
    /// Level 1 summarised the listing: `(files not listed, changed files)`.
    pub(super) summarised: Option<(u64, u64)>,
    /// A failure that ends the collection with an error.
    pub(super) error: Option<EvidenceError>,
    /// The work tree's root with symlinks resolved.
    pub(super) real_root: std::path::PathBuf,
}

/// How a level ended.
pub(super) enum Outcome {
    Complete(Option<String>),
    Stopped(Limit, String),
}

impl<'r, 'c> Collector<'r, 'c> {
    pub(super) fn deadline(&self) -> Instant {
        self.tracker.deadline()
    }

    pub(super) fn count_redactions<'k>(&mut self, kinds: impl IntoIterator<Item = &'k str>) {
        for kind in kinds {
            *self.redactions.entry(kind.to_owned()).or_default() += 1;
        }
    }

    /// Redact a text (not counted: its replacements are counted where its lines are used).
    /// `None` when the redactor failed: the collection then ends with that error.
    pub(super) fn redact_text(&mut self, text: &str) -> Option<Redacted> {
        match self.redactor.redact(text) {
            Ok(r) => Some(r),
            Err(reason) => {
                self.error.get_or_insert(EvidenceError::Redaction { reason });
                None
            }
        }
    }

    /// Redact a short string (path, symbol, task), counting what was replaced. Empty when the
    /// redactor failed (the collection then ends with that error; nothing is returned).
    pub(super) fn redact(&mut self, s: &str) -> String {
        let Some(r) = self.redact_text(s) else { return String::new() };
        self.count_redactions(r.found.iter().map(|f| f.kind.as_str()));
        r.text
    }

    pub(super) fn omit(
        &mut self,
        level: Level,
        reason: OmissionReason,
        limit: Option<Limit>,
        path: Option<&str>,
        detail: String,
    ) {
        self.tracker.omit(Omission { level, reason, limit, path: path.map(str::to_owned), detail });
    }

    /// Run a level if the ladder allows it and the budget remains, and record it.
    pub(super) fn level(&mut self, level: Level, body: fn(&mut Self) -> Outcome) {
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
        if let Some(limit) = self.tracker.blocked() {
            let detail = format!("not started: the {} limit is exhausted", limit.as_str());
            self.tracker.stop(level, limit, detail.clone());
            self.record(level, LevelStatus::Skipped, Some(limit), Some(detail), None);
            return;
        }
        let before = (self.tracker.usage(), self.item_count(), Instant::now());
        match body(self) {
            Outcome::Complete(detail) => self.record(level, LevelStatus::Complete, None, detail, Some(before)),
            Outcome::Stopped(limit, detail) => {
                self.tracker.stop(level, limit, detail.clone());
                self.record(level, LevelStatus::Partial, Some(limit), Some(detail), Some(before));
            }
        }
    }

    fn item_count(&self) -> u64 {
        (self.entries.len() + self.excerpts.len() + self.search.hits.len()) as u64 + u64::from(self.task.is_some())
    }

    pub(super) fn record(
        &mut self,
        level: Level,
        status: LevelStatus,
        stopped_by: Option<Limit>,
        detail: Option<String>,
        before: Option<(Usage, u64, Instant)>,
    ) {
        let (items, bytes, tokens, elapsed_ms) = match before {
            Some((usage, items, t0)) => {
                let now = self.tracker.usage();
                (
                    self.item_count() - items,
                    now.bytes - usage.bytes,
                    now.tokens - usage.tokens,
                    t0.elapsed().as_millis() as u64,
                )
            }
            None => (0, 0, 0, 0),
        };
        self.levels.push(LevelRecord { level, status, stopped_by, detail, items, bytes, tokens, elapsed_ms });
    }

    pub(super) fn blobs(&mut self) -> Result<&mut BlobReader, EvidenceError> {
        if self.blobs.is_none() {
            self.blobs = Some(self.git.blob_reader()?);
        }
        Ok(self.blobs.as_mut().expect("just opened"))
    }
}
