//! The acquisition ladder (codecall ARCHITECTURE §7): resolve the locator, then run levels 1–4
//! in order, each only while the budget lasts, and assemble the [`EvidencePack`].
//!
//! 1. Metadata: task text, changed files (status, renames, modes, line counts, `-U0` hunks).
//! 2. Excerpts: windows around changed lines, extended to the enclosing definition; symbols.
//! 3. Search: definitions and references of the changed symbols in the working tree.
//! 4. Slice: the host's declared paths, only with `consent: true`.
//!
//! Sensitive, non-UTF-8, symlink, submodule, type-changed, unmerged and oversized entries are
//! excluded from every content request (the `-U0` patch, blob reads, file reads) *before* it is
//! made; they appear in level 1 by name with a note. Every string placed in the pack has been
//! redacted.
//!
//! Not for: git plumbing (`git.rs`), window geometry (`excerpt.rs`), walking and matching
//! (`search.rs`), or deciding whether a level is *needed*: the host sets `max_level`.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path};
use std::time::Instant;

use crate::EvidenceError;
use crate::budget::{ByteEstimate, Limit, Omission, OmissionReason, TokenCounter, Tracker};
use crate::excerpt::{self, Lines};
use crate::git::{self, BlobReader, DiffSpec, Fail, Git, RawEntry};
use crate::level::Level;
use crate::pack::{
    ChangedFile, EntryKind, EvidencePack, Excerpt, ExcerptReason, FileStatus, Hunk, LevelRecord, LevelStatus, LineSpan,
    LocatorRecord, ResolvedRevision, SCHEMA_VERSION, SearchHit, SearchRecord, SliceRecord,
};
use crate::privacy::SensitivePaths;
use crate::redact::{Redaction, Redactor};
use crate::refs::{EvidenceRef, WORKTREE};
use crate::request::{Changes, EvidenceRequest};
use crate::search::{self, Labeler, ScanInput};
use crate::symbols;

const NOTE_SENSITIVE: &str = "sensitive path, not read";

/// Collect evidence with the default token estimate (`ceil(bytes / 4)`).
pub fn collect(request: &EvidenceRequest) -> Result<EvidencePack, EvidenceError> {
    collect_with(request, &ByteEstimate)
}

/// Collect evidence, counting tokens with `counter`.
pub fn collect_with(request: &EvidenceRequest, counter: &dyn TokenCounter) -> Result<EvidencePack, EvidenceError> {
    let start = Instant::now();
    validate(request)?;
    let privacy = SensitivePaths::new(&request.privacy)?;
    let program = request.git_program.clone().unwrap_or_else(|| "git".into());
    let git = Git::discover(&program, &request.locator.repo)?;
    let resolved = resolve(&git, &request.locator.changes)?;
    let mut c = Collector {
        request,
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
        error: None,
        real_root: git.root().canonicalize().map_err(|e| EvidenceError::io("repository root", e))?,
        git,
        resolved,
    };
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

/// The locator after resolution.
struct Resolved {
    spec: DiffSpec,
    worktree: bool,
    base: ResolvedRevision,
    head: Option<ResolvedRevision>,
    /// Revision label for the new side: head commit id or `"worktree"`.
    revision: String,
}

fn resolve(git: &Git, changes: &Changes) -> Result<Resolved, EvidenceError> {
    let unwrap = |r: git::GitResult<String>| match r {
        Ok(v) => Ok(v),
        Err(Fail::Error(e)) => Err(e),
        Err(Fail::TimedOut) => unreachable!("resolution runs without a deadline"),
    };
    match changes {
        Changes::Revisions { base, head } => {
            let base_id = unwrap(git.resolve_commit(base, None))?;
            let head_id = unwrap(git.resolve_commit(head, None))?;
            Ok(Resolved {
                spec: DiffSpec::Trees { base: base_id.clone(), head: head_id.clone() },
                worktree: false,
                base: ResolvedRevision { requested: redact_plain(base), commit: base_id },
                revision: head_id.clone(),
                head: Some(ResolvedRevision { requested: redact_plain(head), commit: head_id }),
            })
        }
        Changes::WorkingTree => {
            let head = match git.head_commit(None) {
                Ok(h) => h,
                Err(Fail::Error(e)) => return Err(e),
                Err(Fail::TimedOut) => unreachable!("resolution runs without a deadline"),
            };
            let base = match head {
                Some(id) => id,
                None => unwrap(git.empty_tree(None))?,
            };
            Ok(Resolved {
                spec: DiffSpec::Worktree { base: base.clone() },
                worktree: true,
                base: ResolvedRevision { requested: "HEAD".to_owned(), commit: base },
                head: None,
                revision: WORKTREE.to_owned(),
            })
        }
    }
}

fn redact_plain(s: &str) -> String {
    crate::redact::redact_message(s)
}

/// A changed file and what the collector knows about reading it.
struct Entry {
    file: ChangedFile,
    raw_path: Vec<u8>,
    raw_old: Option<Vec<u8>>,
    old_oid: String,
    new_oid: String,
    /// Content may be requested (not sensitive, regular file, UTF-8 path, within size).
    readable: bool,
    /// Content read at level 1 (untracked files).
    content: Option<Vec<u8>>,
}

struct Collector<'r, 'c> {
    request: &'r EvidenceRequest,
    privacy: SensitivePaths,
    git: Git,
    resolved: Resolved,
    tracker: Tracker<'c>,
    blobs: Option<BlobReader>,
    redactions: BTreeMap<String, u64>,
    entries: Vec<Entry>,
    excerpts: Vec<Excerpt>,
    /// Changed symbols in priority order (level 2 → level 3).
    symbols: Vec<String>,
    search: SearchRecord,
    slice: SliceRecord,
    levels: Vec<LevelRecord>,
    task: Option<String>,
    /// A failure that ends the collection with an error.
    error: Option<EvidenceError>,
    /// The work tree's root with symlinks resolved.
    real_root: std::path::PathBuf,
}

/// How a level ended.
enum Outcome {
    Complete(Option<String>),
    Stopped(Limit, String),
}

impl<'r, 'c> Collector<'r, 'c> {
    fn deadline(&self) -> Instant {
        self.tracker.deadline()
    }

    fn count_redactions(&mut self, kinds: impl IntoIterator<Item = &'static str>) {
        for kind in kinds {
            *self.redactions.entry(kind.to_owned()).or_default() += 1;
        }
    }

    /// Redact a short string (path, symbol, task), counting what was replaced.
    fn redact(&mut self, s: &str) -> String {
        let (out, found) = Redactor::global().redact_text(s);
        let out = out.into_owned();
        self.count_redactions(found.into_iter().map(|r| r.kind));
        out
    }

    fn omit(&mut self, level: Level, reason: OmissionReason, limit: Option<Limit>, path: Option<&str>, detail: String) {
        self.tracker.omit(Omission { level, reason, limit, path: path.map(str::to_owned), detail });
    }

    /// Run a level if the ladder allows it and the budget remains, and record it.
    fn level(&mut self, level: Level, body: fn(&mut Self) -> Outcome) {
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

    fn record(
        &mut self,
        level: Level,
        status: LevelStatus,
        stopped_by: Option<Limit>,
        detail: Option<String>,
        before: Option<(crate::budget::Usage, u64, Instant)>,
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

    fn blobs(&mut self) -> Result<&mut BlobReader, EvidenceError> {
        if self.blobs.is_none() {
            self.blobs = Some(self.git.blob_reader()?);
        }
        Ok(self.blobs.as_mut().expect("just opened"))
    }

    // ---------------------------------------------------------------- level 1

    fn level1(&mut self) {
        self.level(Level::Metadata, |c| match c.metadata() {
            Ok(outcome) => outcome,
            Err(Fail::TimedOut) => Outcome::Stopped(Limit::Time, "git was stopped at the deadline".to_owned()),
            Err(Fail::Error(e)) => {
                c.error = Some(e);
                Outcome::Complete(Some("failed".to_owned()))
            }
        });
    }

    fn metadata(&mut self) -> git::GitResult<Outcome> {
        let level = Level::Metadata;
        if let Some(task) = &self.request.locator.task {
            let task = self.redact(task);
            let cost = self.tracker.cost(&task);
            if let Err(limit) = self.tracker.try_charge(None, &cost) {
                self.omit(level, OmissionReason::Budget, Some(limit), None, "task text".to_owned());
                return Ok(Outcome::Stopped(limit, "the task text does not fit".to_owned()));
            }
            self.task = Some(task);
        }
        let raw = self.git.diff_raw(&self.resolved.spec, Some(self.deadline()))?;
        let mut entries: Vec<Entry> = Vec::with_capacity(raw.len());
        // Past the deadline, the remaining entries are listed without being examined.
        let mut timed_out = false;
        for r in raw {
            timed_out = timed_out || self.tracker.timed_out();
            entries.push(self.classify(r, !timed_out)?);
        }
        if !timed_out {
            match self.patch(&mut entries) {
                Ok(()) => {}
                Err(Fail::TimedOut) => {
                    timed_out = true;
                    for e in entries.iter_mut().filter(|e| e.readable) {
                        e.readable = false;
                        e.file.note = Some("diff not computed before the deadline".to_owned());
                    }
                }
                Err(e) => return Err(e),
            }
        }
        if self.resolved.worktree && !timed_out {
            match self.git.untracked(Some(self.deadline())) {
                Ok(mut untracked) => {
                    untracked.sort();
                    for p in untracked {
                        entries.push(self.untracked_entry(p));
                    }
                }
                Err(Fail::TimedOut) => timed_out = true,
                Err(e) => return Err(e),
            }
        }
        let total = entries.len();
        for (i, mut entry) in entries.into_iter().enumerate() {
            entry.file.path = self.redact(&entry.file.path);
            entry.file.old_path = entry.file.old_path.take().map(|p| self.redact(&p));
            let json = serde_json::to_string(&entry.file).expect("a changed-file record serialises");
            let cost = self.tracker.cost(&json);
            if let Err(limit) = self.tracker.try_charge(None, &cost) {
                let left = (total - i) as u64;
                self.tracker.omit_many(
                    Omission {
                        level,
                        reason: OmissionReason::Budget,
                        limit: Some(limit),
                        path: Some(entry.file.path.clone()),
                        detail: format!("{left} changed-file records from this one on are not listed"),
                    },
                    left,
                );
                return Ok(Outcome::Stopped(limit, format!("{i} of {total} changed files listed")));
            }
            self.entries.push(entry);
        }
        if timed_out {
            let detail = "the deadline passed while examining changes; later entries are listed unread (untracked files \
                          are not listed in worktree mode)";
            return Ok(Outcome::Stopped(Limit::Time, detail.to_owned()));
        }
        Ok(Outcome::Complete(None))
    }

    /// Build the changed-file record for a raw entry; `examine`: look up sizes (else the entry is
    /// left unread, the deadline having passed).
    fn classify(&mut self, r: RawEntry, examine: bool) -> git::GitResult<Entry> {
        let status = match r.status {
            b'A' => FileStatus::Added,
            b'M' => FileStatus::Modified,
            b'D' => FileStatus::Deleted,
            b'R' => FileStatus::Renamed,
            b'C' => FileStatus::Copied,
            b'T' => FileStatus::TypeChanged,
            b'U' => FileStatus::Unmerged,
            _ => FileStatus::Unknown,
        };
        let deleted = status == FileStatus::Deleted;
        let mode = if deleted { &r.old_mode } else { &r.new_mode };
        let entry_kind = match mode.as_str() {
            "120000" => EntryKind::Symlink,
            "160000" => EntryKind::Submodule,
            _ => EntryKind::File,
        };
        let utf8 = std::str::from_utf8(&r.path).is_ok()
            && r.old_path.as_deref().is_none_or(|p| std::str::from_utf8(p).is_ok());
        let path = String::from_utf8_lossy(&r.path).into_owned();
        let old_path = r.old_path.as_deref().map(|p| String::from_utf8_lossy(p).into_owned());
        let sensitive =
            self.privacy.is_sensitive(&path) || old_path.as_deref().is_some_and(|p| self.privacy.is_sensitive(p));
        let either_mode_special = [&r.old_mode, &r.new_mode].iter().any(|m| *m == "120000" || *m == "160000");
        let note = if sensitive {
            Some(NOTE_SENSITIVE.to_owned())
        } else if !utf8 {
            Some("path is not valid UTF-8, not read".to_owned())
        } else if entry_kind == EntryKind::Symlink || either_mode_special && entry_kind == EntryKind::File {
            Some("symlink or submodule entry, not followed".to_owned())
        } else if entry_kind == EntryKind::Submodule {
            Some("submodule, not read".to_owned())
        } else if status == FileStatus::TypeChanged {
            Some("type change, not read".to_owned())
        } else if matches!(status, FileStatus::Unmerged | FileStatus::Unknown) {
            Some("unmerged or unknown status, not read".to_owned())
        } else if !examine {
            Some("not examined before the deadline, not read".to_owned())
        } else {
            None
        };
        let mut readable = note.is_none();
        let mut note = note;
        if readable && let Some(size) = self.largest_side(&r, deleted)? {
            let max = self.request.limits.max_file_read_bytes;
            if size > max {
                readable = false;
                note = Some(format!("larger than {max} bytes, not read"));
                self.omit(Level::Metadata, OmissionReason::TooLarge, None, Some(&path), format!("{size} bytes"));
            }
        }
        if sensitive {
            self.omit(Level::Metadata, OmissionReason::Sensitive, None, Some(&path), NOTE_SENSITIVE.to_owned());
        }
        Ok(Entry {
            file: ChangedFile {
                path,
                old_path,
                status,
                similarity: if matches!(status, FileStatus::Renamed | FileStatus::Copied) { r.score } else { None },
                entry: entry_kind,
                added: None,
                removed: None,
                binary: false,
                sensitive,
                note,
                hunks: Vec::new(),
                symbols: Vec::new(),
            },
            raw_path: r.path,
            raw_old: r.old_path,
            old_oid: r.old_oid,
            new_oid: r.new_oid,
            readable,
            content: None,
        })
    }

    /// The larger of the two sides' sizes, as far as known without reading content.
    fn largest_side(&mut self, r: &RawEntry, deleted: bool) -> git::GitResult<Option<u64>> {
        let mut largest: Option<u64> = None;
        let mut consider = |s: Option<u64>| largest = largest.max(s);
        if !git::is_null_oid(&r.old_oid) {
            consider(self.blobs()?.size(&r.old_oid).map_err(|e| EvidenceError::io("git cat-file", e))?);
        }
        if !deleted {
            if self.resolved.worktree {
                let path = self.git.root().join(String::from_utf8_lossy(&r.path).as_ref());
                if let Ok(meta) = std::fs::symlink_metadata(&path) {
                    consider(Some(meta.len()));
                }
            } else if !git::is_null_oid(&r.new_oid) {
                consider(self.blobs()?.size(&r.new_oid).map_err(|e| EvidenceError::io("git cat-file", e))?);
            }
        }
        Ok(largest)
    }

    /// Hunks, line counts and binary flags for readable entries, from one `-U0` patch that
    /// excludes every unreadable path.
    fn patch(&mut self, entries: &mut [Entry]) -> git::GitResult<()> {
        let readable: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].readable).collect();
        if readable.is_empty() {
            return Ok(());
        }
        let excluded: Vec<&[u8]> = entries
            .iter()
            .filter(|e| !e.readable)
            .flat_map(|e| std::iter::once(e.raw_path.as_slice()).chain(e.raw_old.as_deref()))
            .collect();
        let patches = self.git.diff_patch(&self.resolved.spec, None, &excluded, Some(self.deadline()))?;
        let aligned = patches.len() == readable.len()
            && readable.iter().zip(&patches).all(|(&i, p)| patch_matches(&entries[i], p));
        if aligned {
            for (&i, p) in readable.iter().zip(patches) {
                apply_patch(&mut entries[i], p);
            }
            return Ok(());
        }
        // git's order surprised us (e.g. a rename paired differently): one call per entry.
        for &i in &readable {
            let e = &entries[i];
            let mut include: Vec<&[u8]> = vec![e.raw_path.as_slice()];
            include.extend(e.raw_old.as_deref());
            let mut patches = self.git.diff_patch(&self.resolved.spec, Some(&include), &[], Some(self.deadline()))?;
            if patches.len() == 1 {
                let p = patches.pop().expect("one patch");
                apply_patch(&mut entries[i], p);
            } else {
                entries[i].file.note = Some("diff could not be attributed, hunks unknown".to_owned());
            }
        }
        Ok(())
    }

    fn untracked_entry(&mut self, raw_path: Vec<u8>) -> Entry {
        let path = String::from_utf8_lossy(&raw_path).into_owned();
        let utf8 = std::str::from_utf8(&raw_path).is_ok();
        let sensitive = self.privacy.is_sensitive(&path);
        let mut file = ChangedFile {
            path: path.clone(),
            old_path: None,
            status: FileStatus::Untracked,
            similarity: None,
            entry: EntryKind::File,
            added: None,
            removed: None,
            binary: false,
            sensitive,
            note: None,
            hunks: Vec::new(),
            symbols: Vec::new(),
        };
        let mut content = None;
        if sensitive {
            file.note = Some(NOTE_SENSITIVE.to_owned());
            self.omit(Level::Metadata, OmissionReason::Sensitive, None, Some(&path), NOTE_SENSITIVE.to_owned());
        } else if !utf8 {
            file.note = Some("path is not valid UTF-8, not read".to_owned());
        } else {
            match read_worktree(self.git.root(), &self.real_root, &path, self.request.limits.max_file_read_bytes) {
                WorktreeRead::Content(bytes) => {
                    if is_binary(&bytes) {
                        file.binary = true;
                    } else {
                        let n = crate::refs::line_count(&String::from_utf8_lossy(&bytes));
                        file.added = Some(u64::from(n));
                        file.removed = Some(0);
                        if n > 0 {
                            file.hunks.push(Hunk { old_start: 0, old_lines: 0, new_start: 1, new_lines: n });
                        }
                        content = Some(bytes);
                    }
                }
                WorktreeRead::TooLarge(size) => {
                    let max = self.request.limits.max_file_read_bytes;
                    file.note = Some(format!("larger than {max} bytes, not read"));
                    self.omit(Level::Metadata, OmissionReason::TooLarge, None, Some(&path), format!("{size} bytes"));
                }
                WorktreeRead::NotAFile => {
                    file.entry = EntryKind::Symlink;
                    file.note = Some("symlink or special file, not followed".to_owned());
                }
                WorktreeRead::Missing => file.note = Some("vanished while collecting".to_owned()),
            }
        }
        let readable = content.is_some();
        Entry { file, raw_path, raw_old: None, old_oid: String::new(), new_oid: String::new(), readable, content }
    }

    // ---------------------------------------------------------------- level 2

    fn level2(&mut self) -> Outcome {
        let level = Level::Excerpts;
        let mut order: Vec<usize> =
            (0..self.entries.len()).filter(|&i| self.entries[i].readable && !self.entries[i].file.binary).collect();
        order.sort_by_key(|&i| {
            let f = &self.entries[i].file;
            let churn = f.added.unwrap_or(0) + f.removed.unwrap_or(0);
            (low_value(&f.path), f.status == FileStatus::Deleted, Reverse(churn), f.path.clone())
        });
        // Changed symbols for level 3, file by file in the same priority order.
        let mut syms: Vec<String> = Vec::new();
        for (pos, &i) in order.iter().enumerate() {
            if self.tracker.timed_out() {
                self.omit_files(level, Limit::Time, &order[pos..]);
                return Outcome::Stopped(Limit::Time, format!("{pos} of {} files excerpted", order.len()));
            }
            let content = match self.content(i) {
                Ok(Some(c)) => c,
                Ok(None) => continue,
                Err(e) => {
                    let path = self.entries[i].file.path.clone();
                    self.entries[i].file.note = Some(format!("could not be read: {e}"));
                    self.omit(level, OmissionReason::NotAFile, None, Some(&path), "could not be read".to_owned());
                    continue;
                }
            };
            if is_binary(&content) {
                self.entries[i].file.binary = true;
                let path = self.entries[i].file.path.clone();
                self.omit(level, OmissionReason::Binary, None, Some(&path), "NUL bytes in content".to_owned());
                continue;
            }
            let text = String::from_utf8_lossy(&content);
            let (redacted, redactions) = Redactor::global().redact_text(&text);
            let lines = Lines::new(&redacted);
            match self.excerpt_file(i, &lines, &redactions, &mut syms) {
                Ok(()) => {}
                Err(limit) => {
                    self.omit_files(level, limit, &order[pos + 1..]);
                    self.finish_symbols(syms);
                    return Outcome::Stopped(limit, format!("{} of {} files excerpted", pos + 1, order.len()));
                }
            }
        }
        self.finish_symbols(syms);
        Outcome::Complete(None)
    }

    fn omit_files(&mut self, level: Level, limit: Limit, rest: &[usize]) {
        if rest.is_empty() {
            return;
        }
        let first = self.entries[rest[0]].file.path.clone();
        self.tracker.omit_many(
            Omission {
                level,
                reason: OmissionReason::Budget,
                limit: Some(limit),
                path: Some(first),
                detail: format!("{} changed files from this one on were not excerpted", rest.len()),
            },
            rest.len() as u64,
        );
    }

    fn finish_symbols(&mut self, syms: Vec<String>) {
        for s in syms {
            if symbols::searchable(&s) && !self.symbols.contains(&s) {
                self.symbols.push(s);
            }
        }
    }

    /// The content of entry `i`: cached, from the work tree, or from git.
    fn content(&mut self, i: usize) -> Result<Option<Vec<u8>>, EvidenceError> {
        if let Some(c) = self.entries[i].content.take() {
            return Ok(Some(c));
        }
        let deleted = self.entries[i].file.status == FileStatus::Deleted;
        if self.resolved.worktree && !deleted {
            let path = String::from_utf8_lossy(&self.entries[i].raw_path).into_owned();
            return Ok(
                match read_worktree(self.git.root(), &self.real_root, &path, self.request.limits.max_file_read_bytes) {
                    WorktreeRead::Content(b) => Some(b),
                    _ => None,
                },
            );
        }
        let oid = if deleted { self.entries[i].old_oid.clone() } else { self.entries[i].new_oid.clone() };
        if git::is_null_oid(&oid) {
            return Ok(None);
        }
        self.blobs()?.read(&oid).map_err(|e| EvidenceError::io("git cat-file", e))
    }

    fn excerpt_file(
        &mut self,
        i: usize,
        lines: &Lines<'_>,
        redactions: &[Redaction],
        syms: &mut Vec<String>,
    ) -> Result<(), Limit> {
        let request = self.request;
        let limits = &request.limits;
        let file = &self.entries[i].file;
        let path = file.path.clone();
        let lang = symbols::language(&path);
        let n = lines.len();
        if n == 0 {
            return Ok(());
        }
        let (reason, revision) = match file.status {
            FileStatus::Deleted => (ExcerptReason::DeletedFile, self.resolved.base.commit.clone()),
            FileStatus::Added | FileStatus::Untracked => (ExcerptReason::AddedFile, self.resolved.revision.clone()),
            _ => (ExcerptReason::ChangedLines, self.resolved.revision.clone()),
        };
        let (changed, windows) = match reason {
            ExcerptReason::ChangedLines => {
                let (changed, anchors) = excerpt::changed_spans(&file.hunks, n);
                let w =
                    excerpt::windows(lines, lang, &changed, &anchors, limits.context_lines, limits.max_enclosing_gap);
                (changed, w)
            }
            _ => {
                let all = LineSpan { start: 1, end: n };
                (vec![all], vec![all])
            }
        };
        // Symbols: definitions on changed lines, then the definitions enclosing each change.
        let mut file_syms: Vec<(u32, String)> = Vec::new();
        let mut enclosing: Vec<String> = Vec::new();
        for span in &changed {
            for d in excerpt::defined_in(lines, lang, *span) {
                push_unique(syms, &d.name);
                file_syms.push((d.line, d.name));
            }
            if let Some(d) = excerpt::enclosing(lines, lang, span.start)
                && !file_syms.iter().any(|(_, s)| *s == d.name)
            {
                push_unique(&mut enclosing, &d.name);
                file_syms.push((d.line, d.name));
            }
        }
        for s in enclosing {
            push_unique(syms, &s);
        }
        file_syms.sort();
        let mut names: Vec<String> = Vec::new();
        for (_, s) in &file_syms {
            if !names.contains(s) {
                names.push(s.clone());
            }
        }
        let names: Vec<String> = names.iter().map(|s| self.redact(s)).collect();
        self.entries[i].file.symbols = names;

        let total_lines: u32 = windows.iter().map(|w| w.end - w.start + 1).sum();
        let (windows, dropped, cut) = excerpt::cap(windows, limits.max_lines_per_file);
        if dropped > 0 {
            self.omit(
                Level::Excerpts,
                OmissionReason::LineCap,
                None,
                Some(&path),
                format!("{dropped} of {total_lines} excerpt lines beyond max_lines_per_file"),
            );
        }
        let last = windows.len().saturating_sub(1);
        for (k, w) in windows.iter().enumerate() {
            let syms: Vec<String> = file_syms
                .iter()
                .filter(|(line, _)| {
                    *line >= w.start && *line <= w.end
                        || changed.iter().any(|c| c.start >= w.start && c.start <= w.end && *line <= c.start)
                })
                .map(|(_, s)| s.clone())
                .fold(Vec::new(), |mut acc, s| {
                    push_unique(&mut acc, &s);
                    acc
                });
            let syms = syms.iter().map(|s| self.redact(s)).collect();
            let piece = Piece {
                level: Level::Excerpts,
                reason,
                path: &path,
                revision: &revision,
                changed: excerpt::clip(&changed, *w),
                symbols: syms,
                truncated: cut && k == last,
            };
            if let Err(limit) = self.push_excerpt(piece, lines, *w, redactions) {
                let rest: u32 = windows[k + 1..].iter().map(|w| w.end - w.start + 1).sum();
                if rest > 0 {
                    self.omit(
                        Level::Excerpts,
                        OmissionReason::Budget,
                        Some(limit),
                        Some(&path),
                        format!("{rest} more excerpt lines of this file"),
                    );
                }
                return Err(limit);
            }
        }
        Ok(())
    }

    /// Charge and add an excerpt; when bytes or tokens run out, add the longest prefix that fits.
    fn push_excerpt(
        &mut self,
        piece: Piece<'_>,
        lines: &Lines<'_>,
        window: LineSpan,
        redactions: &[Redaction],
    ) -> Result<(), Limit> {
        let text = lines.text(window);
        let cost = self.tracker.cost(&text);
        let (span, text, limit) = match self.tracker.check(Some(piece.path), &cost) {
            Ok(()) => {
                self.tracker.charge(Some(piece.path), &cost);
                (window, text, None)
            }
            Err(limit @ (Limit::Time | Limit::Files)) => {
                self.omit(
                    piece.level,
                    OmissionReason::Budget,
                    Some(limit),
                    Some(piece.path),
                    format!("lines {}-{}", window.start, window.end),
                );
                return Err(limit);
            }
            Err(limit) => {
                // Largest end line whose prefix fits.
                let fits = |end: u32, t: &Tracker<'_>| {
                    let prefix = lines.text(LineSpan { start: window.start, end });
                    t.check(Some(piece.path), &t.cost(&prefix)).is_ok()
                };
                let (mut lo, mut hi) = (window.start, window.end);
                if !fits(lo, &self.tracker) {
                    self.omit(
                        piece.level,
                        OmissionReason::Budget,
                        Some(limit),
                        Some(piece.path),
                        format!("lines {}-{}", window.start, window.end),
                    );
                    return Err(limit);
                }
                while lo < hi {
                    let mid = lo + (hi - lo).div_ceil(2);
                    if fits(mid, &self.tracker) { lo = mid } else { hi = mid - 1 }
                }
                let span = LineSpan { start: window.start, end: lo };
                let text = lines.text(span);
                let cost = self.tracker.cost(&text);
                self.tracker.charge(Some(piece.path), &cost);
                self.omit(
                    piece.level,
                    OmissionReason::Budget,
                    Some(limit),
                    Some(piece.path),
                    format!("lines {}-{} cut from an excerpt", lo + 1, window.end),
                );
                (span, text, Some(limit))
            }
        };
        self.count_redactions(
            redactions.iter().filter(|r| r.last_line >= span.start && r.first_line <= span.end).map(|r| r.kind),
        );
        self.excerpts.push(Excerpt {
            evidence: EvidenceRef::for_text(piece.path, piece.revision, span.start, &text),
            level: piece.level,
            reason: piece.reason,
            changed: excerpt::clip(&piece.changed, span),
            symbols: piece.symbols,
            truncated: piece.truncated || limit.is_some(),
            text,
        });
        match limit {
            Some(l) => Err(l),
            None => Ok(()),
        }
    }

    // ---------------------------------------------------------------- level 3

    fn level3(&mut self) -> Outcome {
        let level = Level::Search;
        let max = self.request.limits.max_symbols as usize;
        if self.symbols.len() > max {
            let extra = (self.symbols.len() - max) as u64;
            let detail = format!(
                "{extra} changed symbols beyond max_symbols ({max}) not searched, from `{}`",
                self.symbols[max]
            );
            self.tracker.omit_many(
                Omission { level, reason: OmissionReason::SymbolCap, limit: None, path: None, detail },
                extra,
            );
            self.symbols.truncate(max);
        }
        self.search.symbols = self.symbols.iter().map(|s| crate::redact::redact_message(s)).collect();
        if self.symbols.is_empty() {
            return Outcome::Complete(Some("no searchable changed symbols".to_owned()));
        }
        let labeler = match self.labeler() {
            Ok(l) => l,
            Err(Fail::TimedOut) => return Outcome::Stopped(Limit::Time, "git was stopped at the deadline".to_owned()),
            Err(Fail::Error(e)) => {
                self.error = Some(e);
                return Outcome::Complete(Some("failed".to_owned()));
            }
        };
        let covered = self.covered();
        let input = ScanInput {
            root: self.git.root(),
            symbols: &self.symbols,
            privacy: &self.privacy,
            limits: &self.request.limits,
            labeler: &labeler,
            covered: &covered,
            deadline: self.deadline(),
        };
        let scan = match search::scan(&input) {
            Ok(s) => s,
            Err(e) => {
                self.error = Some(e);
                return Outcome::Complete(Some("failed".to_owned()));
            }
        };
        self.search.files_scanned = scan.files_scanned;
        self.search.lines_matched = scan.lines_matched;
        for (o, n) in scan.omissions {
            self.tracker.omit_many(o, n);
        }
        let candidates = search::order(scan.candidates);
        let total = candidates.len();
        for (k, c) in candidates.into_iter().enumerate() {
            let path = self.redact(&c.path);
            let cost = self.tracker.cost(&c.text);
            if let Err(limit) = self.tracker.try_charge(Some(&path), &cost) {
                let left = (total - k) as u64;
                self.tracker.omit_many(
                    Omission {
                        level,
                        reason: OmissionReason::Budget,
                        limit: Some(limit),
                        path: Some(path),
                        detail: format!("{left} search hits from this one on"),
                    },
                    left,
                );
                return Outcome::Stopped(limit, format!("{k} of {total} search hits kept"));
            }
            self.count_redactions(c.redactions.iter().copied());
            self.search.hits.push(SearchHit {
                evidence: EvidenceRef::for_text(&path, &c.revision, c.line, &c.text),
                symbol: self.search.symbols[c.symbol].clone(),
                kind: c.kind,
                text: c.text,
            });
        }
        if scan.timed_out {
            return Outcome::Stopped(
                Limit::Time,
                format!("search stopped at the deadline after {} files", self.search.files_scanned),
            );
        }
        Outcome::Complete(None)
    }

    fn labeler(&self) -> git::GitResult<Labeler> {
        if self.resolved.worktree {
            return Ok(Labeler::Worktree);
        }
        let commit = self.resolved.revision.clone();
        let tracked = self.git.tree_paths(&commit, Some(self.deadline()))?;
        let dirty = self.git.dirty_against(&commit, Some(self.deadline()))?;
        Ok(Labeler::Head { commit, tracked, dirty })
    }

    fn covered(&self) -> HashMap<(String, String), Vec<LineSpan>> {
        let mut covered: HashMap<(String, String), Vec<LineSpan>> = HashMap::new();
        for e in &self.excerpts {
            covered
                .entry((e.evidence.path.clone(), e.evidence.revision.clone()))
                .or_default()
                .push(LineSpan { start: e.evidence.start_line, end: e.evidence.end_line });
        }
        covered
    }

    // ---------------------------------------------------------------- level 4

    fn level4(&mut self) {
        let level = Level::Slice;
        if let Some(slice) = &self.request.slice {
            self.slice = SliceRecord {
                requested: true,
                consent: slice.consent,
                paths: slice.paths.clone(),
                reason: slice.reason.clone(),
                files_included: 0,
            };
            self.slice.paths = self.slice.paths.iter().map(|p| crate::redact::redact_message(p)).collect();
            self.slice.reason = self.slice.reason.as_deref().map(crate::redact::redact_message);
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
                let (redacted, redactions) = Redactor::global().redact_text(&text);
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

    // ---------------------------------------------------------------- pack

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
        Ok(EvidencePack {
            schema_version: SCHEMA_VERSION,
            locator: LocatorRecord {
                repo_root,
                mode: if self.resolved.worktree { "worktree" } else { "revisions" }.to_owned(),
                base: self.resolved.base.clone(),
                head: self.resolved.head.clone(),
                revision: self.resolved.revision.clone(),
                task: self.task.take(),
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

/// What an excerpt is, apart from its lines.
struct Piece<'a> {
    level: Level,
    reason: ExcerptReason,
    path: &'a str,
    revision: &'a str,
    changed: Vec<LineSpan>,
    symbols: Vec<String>,
    truncated: bool,
}

fn push_unique(v: &mut Vec<String>, s: &str) {
    if !v.iter().any(|x| x == s) {
        v.push(s.to_owned());
    }
}

/// Does patch `p` belong to entry `e`? Checks the blob ids and the unquoted path where git
/// printed them.
fn patch_matches(e: &Entry, p: &git::FilePatch) -> bool {
    let oid_ok = |raw: &str, seen: &Option<String>| match seen {
        Some(seen) if !git::is_null_oid(raw) => raw == seen,
        _ => true,
    };
    let path_ok = match &p.path_hint {
        Some(hint) => *hint == e.raw_path || e.raw_old.as_deref() == Some(hint.as_slice()),
        None => true,
    };
    oid_ok(&e.old_oid, &p.index_old) && oid_ok(&e.new_oid, &p.index_new) && path_ok
}

fn apply_patch(e: &mut Entry, p: git::FilePatch) {
    if p.binary {
        e.file.binary = true;
        e.file.note.get_or_insert_with(|| "binary, not read".to_owned());
        return;
    }
    e.file.added = Some(p.hunks.iter().map(|h| u64::from(h.new_lines)).sum());
    e.file.removed = Some(p.hunks.iter().map(|h| u64::from(h.old_lines)).sum());
    e.file.hunks = p.hunks;
}

/// git's heuristic: a NUL in the first 8,000 bytes.
fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8000)].contains(&0)
}

/// Lockfiles, generated, vendored and minified files: excerpted last.
fn low_value(path: &str) -> bool {
    const NAMES: &[&str] = &[
        "Cargo.lock",
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "poetry.lock",
        "Gemfile.lock",
        "composer.lock",
        "go.sum",
        "Pipfile.lock",
        "uv.lock",
    ];
    let name = path.rsplit('/').next().unwrap_or(path);
    NAMES.contains(&name)
        || [".min.js", ".min.css", ".map", ".snap", ".svg"].iter().any(|s| name.ends_with(s))
        || ["vendor/", "node_modules/", "dist/", "generated/", "__snapshots__/", "third_party/"]
            .iter()
            .any(|d| path.starts_with(d) || path.contains(&format!("/{d}")))
}

enum WorktreeRead {
    Content(Vec<u8>),
    TooLarge(u64),
    NotAFile,
    Missing,
}

/// Read a file of the work tree, never through a symlink (neither the file nor a parent
/// directory may lead outside the root).
fn read_worktree(root: &Path, real_root: &Path, rel: &str, max: u64) -> WorktreeRead {
    let path = root.join(rel);
    let Ok(meta) = std::fs::symlink_metadata(&path) else { return WorktreeRead::Missing };
    if !meta.is_file() {
        return WorktreeRead::NotAFile;
    }
    if meta.len() > max {
        return WorktreeRead::TooLarge(meta.len());
    }
    let Some(Ok(real_parent)) = path.parent().map(Path::canonicalize) else {
        return WorktreeRead::Missing;
    };
    if !real_parent.starts_with(real_root) {
        return WorktreeRead::NotAFile;
    }
    match std::fs::read(&path) {
        Ok(b) if b.len() as u64 <= max => WorktreeRead::Content(b),
        Ok(b) => WorktreeRead::TooLarge(b.len() as u64),
        Err(_) => WorktreeRead::Missing,
    }
}
