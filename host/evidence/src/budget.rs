//! Budgets: the four limits of a collection (files, bytes, tokens, wall-clock time), the token
//! counter the host plugs in, and the bookkeeping that enforces them and reports what was left out.
//!
//! Every item that enters a pack is charged before it is added; an item that does not fit is
//! either trimmed to fit at a line boundary (excerpts) or left out, and the level that hit the
//! limit stops there. Later levels are skipped once a limit is exhausted. Nothing is dropped
//! without an [`Omission`] saying what and why.
//!
//! Not for: deciding *what* to collect (that is the ladder in `collect/`) or how many tokens a
//! model really sees: the default counter is an estimate, the host's tokenizer is authoritative.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::level::Level;

/// Counts tokens in a piece of evidence text. The host plugs in its real tokenizer; the default
/// ([`ByteEstimate`]) is `ceil(bytes / 4)`.
pub trait TokenCounter: Sync {
    /// A short name recorded in the budget report (e.g. `"bytes/4"`, `"cl100k×1.2"`).
    fn name(&self) -> &str;
    /// Tokens in `text`. Must be monotonic in practice: a prefix never counts more than the whole.
    fn count(&self, text: &str) -> u64;
}

/// `ceil(bytes / 4)`: the estimate used when the host supplies no tokenizer.
#[derive(Clone, Copy, Debug, Default)]
pub struct ByteEstimate;

impl TokenCounter for ByteEstimate {
    fn name(&self) -> &str {
        "bytes/4"
    }
    fn count(&self, text: &str) -> u64 {
        (text.len() as u64).div_ceil(4)
    }
}

/// The limits of one collection. All four are enforced at every level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Budget {
    /// Distinct files whose content (an excerpt, a search hit line, a slice file) enters the pack.
    /// Changed-file metadata (level 1) does not count: no content is included for it.
    pub max_files: u64,
    /// Bytes of evidence: excerpt and hit text, the task text, and the JSON size of each changed
    /// file's metadata record.
    pub max_bytes: u64,
    /// Tokens of the same evidence, as counted by the [`TokenCounter`].
    pub max_tokens: u64,
    /// Wall-clock deadline for the whole collection, from the start of the call, in milliseconds.
    /// A git process still running at the deadline is killed.
    pub max_duration_ms: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_files: 60, max_bytes: 256 * 1024, max_tokens: 64_000, max_duration_ms: 5_000 }
    }
}

/// Which limit stopped something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    Files,
    Bytes,
    Tokens,
    Time,
}

impl Limit {
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::Files => "files",
            Limit::Bytes => "bytes",
            Limit::Tokens => "tokens",
            Limit::Time => "time",
        }
    }
}

/// What was used, against [`Budget`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub files: u64,
    pub bytes: u64,
    pub tokens: u64,
    pub elapsed_ms: u64,
}

/// The first limit that stopped the ladder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopRecord {
    pub level: Level,
    pub limit: Limit,
    pub detail: String,
}

/// Why something is not in the pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OmissionReason {
    /// A budget limit (see `limit`).
    Budget,
    /// A sensitive path: never read.
    Sensitive,
    /// Binary content.
    Binary,
    /// Larger than `Limits::max_file_read_bytes`: not read.
    TooLarge,
    /// A symlink or submodule entry: the collector does not follow it.
    NotAFile,
    /// A path that is not valid UTF-8: not read.
    UnreadablePath,
    /// Excerpt lines beyond `Limits::max_lines_per_file`.
    LineCap,
    /// Symbols beyond `Limits::max_symbols`.
    SymbolCap,
    /// Search hits beyond `Limits::max_hits_per_symbol`.
    HitCap,
    /// A matching line longer than `Limits::max_line_bytes`.
    LongLine,
    /// Files beyond `Limits::max_scan_files` were not searched.
    ScanCap,
    /// Changed-file records beyond the listing's share of the budget: summarised by count, so
    /// that excerpts keep their room.
    ListingCap,
}

/// One thing left out, with enough detail to ask for it explicitly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Omission {
    pub level: Level,
    pub reason: OmissionReason,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub detail: String,
}

/// At most this many omissions are listed one by one; all are counted in `omission_counts`.
pub const MAX_LISTED_OMISSIONS: usize = 200;

/// Budget use, the stop (if any) and everything left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetReport {
    pub limits: Budget,
    pub used: Usage,
    /// Name of the token counter that produced `used.tokens`.
    pub token_counter: String,
    /// The first limit that stopped a level, if any did.
    pub stopped: Option<StopRecord>,
    /// Omissions in the order they happened (the first [`MAX_LISTED_OMISSIONS`]).
    pub omissions: Vec<Omission>,
    /// Every omission counted, keyed `"<level>/<reason>"`, listed or not.
    pub omission_counts: BTreeMap<String, u64>,
}

/// Charges items against the budget; shared by every level.
pub(crate) struct Tracker<'c> {
    budget: Budget,
    counter: &'c dyn TokenCounter,
    start: Instant,
    deadline: Instant,
    files: BTreeSet<String>,
    bytes: u64,
    tokens: u64,
    /// A limit hit earlier: later levels do not start.
    exhausted: Option<Limit>,
    stopped: Option<StopRecord>,
    omissions: Vec<Omission>,
    omission_counts: BTreeMap<String, u64>,
}

/// An item's cost, computed once.
pub(crate) struct Cost {
    pub bytes: u64,
    pub tokens: u64,
}

impl<'c> Tracker<'c> {
    pub fn new(budget: Budget, counter: &'c dyn TokenCounter, start: Instant) -> Self {
        let deadline = start + Duration::from_millis(budget.max_duration_ms);
        Tracker {
            budget,
            counter,
            start,
            deadline,
            files: BTreeSet::new(),
            bytes: 0,
            tokens: 0,
            exhausted: None,
            stopped: None,
            omissions: Vec::new(),
            omission_counts: BTreeMap::new(),
        }
    }

    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    pub fn timed_out(&self) -> bool {
        Instant::now() >= self.deadline
    }

    pub fn cost(&self, text: &str) -> Cost {
        Cost { bytes: text.len() as u64, tokens: self.counter.count(text) }
    }

    /// The limit that keeps a new level from starting, if any.
    pub fn blocked(&self) -> Option<Limit> {
        if let Some(limit) = self.exhausted {
            return Some(limit);
        }
        if self.timed_out() {
            return Some(Limit::Time);
        }
        if self.bytes >= self.budget.max_bytes {
            return Some(Limit::Bytes);
        }
        if self.tokens >= self.budget.max_tokens {
            return Some(Limit::Tokens);
        }
        if self.files.len() as u64 >= self.budget.max_files {
            return Some(Limit::Files);
        }
        None
    }

    /// Would an item of this cost from `file` fit? Checks time, files, bytes, tokens in that order.
    pub fn check(&self, file: Option<&str>, cost: &Cost) -> Result<(), Limit> {
        if self.timed_out() {
            return Err(Limit::Time);
        }
        if let Some(file) = file
            && !self.files.contains(file)
            && self.files.len() as u64 >= self.budget.max_files
        {
            return Err(Limit::Files);
        }
        if self.bytes + cost.bytes > self.budget.max_bytes {
            return Err(Limit::Bytes);
        }
        if self.tokens + cost.tokens > self.budget.max_tokens {
            return Err(Limit::Tokens);
        }
        Ok(())
    }

    /// Charge an item that [`check`](Self::check) accepted.
    pub fn charge(&mut self, file: Option<&str>, cost: &Cost) {
        if let Some(file) = file {
            self.files.insert(file.to_owned());
        }
        self.bytes += cost.bytes;
        self.tokens += cost.tokens;
    }

    /// Check and charge in one step.
    pub fn try_charge(&mut self, file: Option<&str>, cost: &Cost) -> Result<(), Limit> {
        self.check(file, cost)?;
        self.charge(file, cost);
        Ok(())
    }

    pub fn usage(&self) -> Usage {
        Usage {
            files: self.files.len() as u64,
            bytes: self.bytes,
            tokens: self.tokens,
            elapsed_ms: self.start.elapsed().as_millis() as u64,
        }
    }

    /// A level stopped on `limit`: later levels will not start.
    pub fn stop(&mut self, level: Level, limit: Limit, detail: String) {
        self.exhausted.get_or_insert(limit);
        if self.stopped.is_none() {
            self.stopped = Some(StopRecord { level, limit, detail });
        }
    }

    pub fn omit(&mut self, omission: Omission) {
        let key = format!("{}/{}", omission.level.as_str(), reason_str(omission.reason));
        *self.omission_counts.entry(key).or_default() += 1;
        if self.omissions.len() < MAX_LISTED_OMISSIONS {
            self.omissions.push(omission);
        }
    }

    /// Record `count` omissions of one kind at once (listed as one entry).
    pub fn omit_many(&mut self, omission: Omission, count: u64) {
        if count == 0 {
            return;
        }
        let key = format!("{}/{}", omission.level.as_str(), reason_str(omission.reason));
        *self.omission_counts.entry(key).or_default() += count;
        if self.omissions.len() < MAX_LISTED_OMISSIONS {
            self.omissions.push(omission);
        }
    }

    pub fn report(&self) -> BudgetReport {
        BudgetReport {
            limits: self.budget.clone(),
            used: self.usage(),
            token_counter: self.counter.name().to_owned(),
            stopped: self.stopped.clone(),
            omissions: self.omissions.clone(),
            omission_counts: self.omission_counts.clone(),
        }
    }
}

fn reason_str(reason: OmissionReason) -> &'static str {
    match reason {
        OmissionReason::Budget => "budget",
        OmissionReason::Sensitive => "sensitive",
        OmissionReason::Binary => "binary",
        OmissionReason::TooLarge => "too_large",
        OmissionReason::NotAFile => "not_a_file",
        OmissionReason::UnreadablePath => "unreadable_path",
        OmissionReason::LineCap => "line_cap",
        OmissionReason::SymbolCap => "symbol_cap",
        OmissionReason::HitCap => "hit_cap",
        OmissionReason::LongLine => "long_line",
        OmissionReason::ScanCap => "scan_cap",
        OmissionReason::ListingCap => "listing_cap",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_estimate_rounds_up() {
        assert_eq!(ByteEstimate.count(""), 0);
        assert_eq!(ByteEstimate.count("a"), 1);
        assert_eq!(ByteEstimate.count("abcd"), 1);
        assert_eq!(ByteEstimate.count("abcde"), 2);
    }

    #[test]
    fn files_limit_only_blocks_new_files() {
        let budget = Budget { max_files: 1, ..Budget::default() };
        let mut t = Tracker::new(budget, &ByteEstimate, Instant::now());
        let c = t.cost("x");
        t.try_charge(Some("a"), &c).unwrap();
        t.try_charge(Some("a"), &c).unwrap();
        assert_eq!(t.try_charge(Some("b"), &c), Err(Limit::Files));
        assert_eq!(t.try_charge(None, &c), Ok(()));
    }

    #[test]
    fn bytes_and_tokens_are_checked_before_charging() {
        let budget = Budget { max_bytes: 10, max_tokens: 2, ..Budget::default() };
        let mut t = Tracker::new(budget, &ByteEstimate, Instant::now());
        let c = t.cost("12345678");
        t.try_charge(None, &c).unwrap();
        assert_eq!(t.try_charge(None, &t.cost("xyz")), Err(Limit::Bytes));
        assert_eq!(t.try_charge(None, &t.cost("x")), Err(Limit::Tokens));
        assert_eq!(t.usage().bytes, 8);
    }
}
