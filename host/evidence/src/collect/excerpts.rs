//! Level 2, excerpts: readable changed files in priority order (low-value files and deletions
//! last, then by churn), each redacted whole, cut into windows around its changed lines (or
//! whole for added and deleted files), capped per file, charged to the budget — the last one cut
//! to the longest prefix that fits — and the changed symbols gathered for level 3.
//!
//! [`Piece`] and `push_excerpt` (charge and add one excerpt) are shared with level 4.
//!
//! Not for: window geometry and symbol detection (`crate::excerpt`, `crate::symbols`) or
//! deciding which files are readable (level 1, `metadata.rs`).

use std::cmp::Reverse;

use crate::EvidenceError;
use crate::budget::{Limit, Omission, OmissionReason, Tracker};
use crate::excerpt::{self, Lines};
use crate::git;
use crate::level::Level;
use crate::pack::{Excerpt, ExcerptReason, FileStatus, LineSpan};
use crate::redactor::Redaction;
use crate::refs::EvidenceRef;
use crate::symbols;

use super::collector::{Collector, Outcome};
use super::worktree::{WorktreeRead, is_binary, read_worktree};

impl<'r, 'c> Collector<'r, 'c> {
    pub(super) fn level2(&mut self) -> Outcome {
        let level = Level::Excerpts;
        let mut order: Vec<usize> =
            (0..self.entries.len()).filter(|&i| self.entries[i].readable && !self.entries[i].file.binary).collect();
        order.sort_by_key(|&i| priority(&self.entries[i].file));
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
                    let note = self.redact(&format!("could not be read: {e}"));
                    self.entries[i].file.note = Some(note);
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
            let Some(redacted) = self.redact_text(&text) else {
                return Outcome::Complete(Some("failed".to_owned()));
            };
            let (redacted, redactions) = (redacted.text, redacted.found);
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
    pub(super) fn push_excerpt(
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
            redactions
                .iter()
                .filter(|r| r.last_line >= span.start && r.first_line <= span.end)
                .map(|r| r.kind.as_str()),
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
}

/// What an excerpt is, apart from its lines.
pub(super) struct Piece<'a> {
    pub(super) level: Level,
    pub(super) reason: ExcerptReason,
    pub(super) path: &'a str,
    pub(super) revision: &'a str,
    pub(super) changed: Vec<LineSpan>,
    pub(super) symbols: Vec<String>,
    pub(super) truncated: bool,
}

fn push_unique(v: &mut Vec<String>, s: &str) {
    if !v.iter().any(|x| x == s) {
        v.push(s.to_owned());
    }
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

/// Excerpt priority of a changed file (smaller first): low-value files (lockfiles, generated,
/// vendored, minified) and deletions last, then by churn, then by path. Level 1 lists files in
/// this order when the listing is summarised.
pub(super) fn priority(f: &crate::pack::ChangedFile) -> (bool, bool, Reverse<u64>, String) {
    let churn = f.added.unwrap_or(0) + f.removed.unwrap_or(0);
    (low_value(&f.path), f.status == FileStatus::Deleted, Reverse(churn), f.path.clone())
}
