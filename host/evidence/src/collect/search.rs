//! Level 3, search: the changed symbols from level 2, capped at `max_symbols`, searched for as
//! definitions and references in the working tree; hits are ordered, charged to the budget and
//! labelled with the revision they were read at.
//!
//! `labeler` (which revision a work-tree file stands for) and `covered` (lines excerpts already
//! hold) are shared with level 4.
//!
//! Not for: walking and matching files (`crate::search`), or choosing symbols (level 2).

use std::collections::HashMap;

use crate::budget::{Limit, Omission, OmissionReason};
use crate::git::{self, Fail};
use crate::level::Level;
use crate::pack::{LineSpan, SearchHit};
use crate::refs::EvidenceRef;
use crate::search::{self, Labeler, ScanInput};

use super::collector::{Collector, Outcome};

impl<'r, 'c> Collector<'r, 'c> {
    pub(super) fn level3(&mut self) -> Outcome {
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
        let symbols = self.symbols.clone();
        self.search.symbols = symbols.iter().map(|s| self.redact(s)).collect();
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
            redactor: self.redactor,
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
            self.count_redactions(c.redactions.iter().map(String::as_str));
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

    pub(super) fn labeler(&self) -> git::GitResult<Labeler> {
        if self.resolved.worktree {
            return Ok(Labeler::Worktree);
        }
        let commit = self.resolved.revision.clone();
        let tracked = self.git.tree_paths(&commit, Some(self.deadline()))?;
        let dirty = self.git.dirty_against(&commit, Some(self.deadline()))?;
        Ok(Labeler::Head { commit, tracked, dirty })
    }

    pub(super) fn covered(&self) -> HashMap<(String, String), Vec<LineSpan>> {
        let mut covered: HashMap<(String, String), Vec<LineSpan>> = HashMap::new();
        for e in &self.excerpts {
            covered
                .entry((e.evidence.path.clone(), e.evidence.revision.clone()))
                .or_default()
                .push(LineSpan { start: e.evidence.start_line, end: e.evidence.end_line });
        }
        covered
    }
}
