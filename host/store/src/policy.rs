//! The policy decisions the store asks for, as a trait the binary implements.
//!
//! What this is for: the store's side of the `dossier:policy` WIT package (`wit/`). Each type
//! here mirrors one WIT record, enum or variant field for field, so the binary's
//! implementation (the wasm component, `host/src/policy/`) converts them one to one, and a
//! test can implement [`Policy`] with `dossier-core`'s native functions. Priority, ranking,
//! merge, distillation and redaction reach the store only through [`Policy`]; which component answers,
//! its limits and its failures are the implementation's business.
//!
//! What it is not for: deciding anything (`core/`, or an alternate component), or the
//! learning interface (codecall has its own `LearningPolicy` trait).
//!
//! Invariant: an implementation checks a component's outputs before returning them (a sort
//! is a permutation of its input, ranking indices are in range and unique, finding lines lie
//! in the document, conflict ids are unique and unresolved, redaction hits lie in the input and
//! the redacted text has its line count); the store relies on that.

use std::any::Any;
use std::fmt;

use crate::error::Result;

/// Milliseconds since the Unix epoch, UTC (WIT `timestamp`).
pub type Timestamp = i64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    High,
    Low,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LifecycleStatus {
    Active,
    Waiting,
    Blocked,
    Resolved,
    Archived,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// A finding of the distill (or learning item) policy: `line` is 1-based, 0 for the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub code: String,
    pub severity: Severity,
    pub line: u32,
    pub message: String,
}

/// The WIT package version the store's types mirror.
pub const PACKAGE_VERSION: &str = "2.3.0";

/// One policy interface of the WIT package.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Interface {
    Priority,
    Ranking,
    Merge,
    Distill,
    Learning,
    Redaction,
}

impl Interface {
    pub const ALL: [Interface; 6] = [
        Interface::Priority,
        Interface::Ranking,
        Interface::Merge,
        Interface::Distill,
        Interface::Learning,
        Interface::Redaction,
    ];

    /// The interface name as in WIT and in `config.yaml`.
    pub fn name(self) -> &'static str {
        match self {
            Interface::Priority => "priority",
            Interface::Ranking => "ranking",
            Interface::Merge => "merge",
            Interface::Distill => "distill",
            Interface::Learning => "learning",
            Interface::Redaction => "redaction",
        }
    }

    /// The world an alternate component implementing only this interface targets.
    pub fn world(self) -> String {
        format!("dossier:policy/{}-policy@{PACKAGE_VERSION}", self.name())
    }

    /// The component export name this host looks up.
    pub fn export_name(self) -> String {
        format!("dossier:policy/{}@{PACKAGE_VERSION}", self.name())
    }
}

impl fmt::Display for Interface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Per-call resource limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock limit per call, in milliseconds (honoured within the host's deadline tick).
    pub time_ms: u64,
    /// Cap on a call's linear memory, in bytes.
    pub memory_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { time_ms: 5_000, memory_bytes: 64 << 20 }
    }
}

// --- priority ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriorityInput {
    pub importance: Level,
    pub urgency: Level,
    pub due_date: Option<Timestamp>,
    pub last_touched_at: Timestamp,
    pub updated_at: Timestamp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub importance: u32,
    pub urgency: u32,
    pub due_window_days: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranked {
    pub index: u32,
    pub score: u8,
}

// --- ranking ----------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub name: String,
    pub slug: String,
    pub status: LifecycleStatus,
    pub next_action: String,
    pub open_questions: Vec<String>,
    pub body: String,
    pub artifact_titles: Vec<String>,
    pub last_touched_at: Timestamp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confidence {
    High,
    Medium,
    Low,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    pub index: u32,
    pub score: f64,
    pub confidence: Confidence,
    pub reason: String,
    pub shared_terms: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankingOptions {
    pub limit: u32,
    pub now: Timestamp,
}

// --- distill ----------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtifactInfo {
    pub id: String,
    pub line_count: Option<u32>,
}

// --- merge ------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeSide {
    pub id: String,
    pub name: String,
    pub status: LifecycleStatus,
    pub next_action: String,
    /// Full Distilled State body (Markdown, without frontmatter).
    pub distilled_state: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConflictKind {
    ContradictoryDecision,
    DivergentNextAction,
    IncompatibleLifecycle,
    IncompatibleValue,
    RelatedClaims,
    /// A pair of changed claims the reviewer (the agent) flagged (issue 19, eleventh round).
    FlaggedByReviewer,
}

/// How sure the merge policy is that two claims cannot both hold (wit/merge.wit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Certainty {
    Certain,
    Possible,
}

impl Certainty {
    pub fn as_str(self) -> &'static str {
        match self {
            Certainty::Certain => "certain",
            Certainty::Possible => "possible",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictSide {
    /// The claim as written, provenance markers included.
    pub text: String,
    pub provenance: Vec<String>,
    /// 1-based line in that side's Distilled State; 0 for frontmatter fields.
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub id: String,
    pub kind: ConflictKind,
    pub subject: String,
    pub source: ConflictSide,
    pub target: ConflictSide,
    pub certainty: Certainty,
    /// For a possible conflict the rules think compatible: why, in one line (issue 19, sixth
    /// round); `None` otherwise.
    pub compatible_hint: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolutionChoice {
    KeepSource,
    KeepTarget,
    KeepBoth,
    Custom(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    pub conflict_id: String,
    pub choice: ResolutionChoice,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergePlan {
    pub converged_state: String,
    pub converged_next_action: String,
    pub converged_status: LifecycleStatus,
    /// Ranked: certain, then possible without a hint, then possible with a compatible hint.
    pub unresolved: Vec<Conflict>,
    /// Related pairs not listed (each source claim is listed against at most 2 target claims).
    pub unlisted_related: u32,
    /// The target's claims the source does not have (issue 19, eleventh round).
    pub changed_target: Vec<ChangedClaim>,
    /// The source's claims the merge adds.
    pub changed_source: Vec<ChangedClaim>,
}

/// A claim a merge changes (wit/merge.wit `changed-claim`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedClaim {
    /// `t_…` or `s_…`, stable across runs.
    pub id: String,
    pub section: String,
    pub text: String,
    pub line: u32,
    /// How many of its content stems the other side's changed claims share.
    pub related: u32,
}

/// A reviewer's pair of changed claims that cannot both hold (wit/merge.wit `flagged-pair`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlaggedPair {
    pub target_claim: String,
    pub source_claim: String,
    pub reason: String,
}

// --- redaction --------------------------------------------------------------------------

/// What the host passes to the redaction policy (wit/redaction.wit `redaction-options`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedactionOptions {
    /// The store's 32-byte marker key.
    pub key: Vec<u8>,
    /// `privacy.allow`: a secret containing one of these literal strings is kept.
    pub allow: Vec<String>,
}

/// One secret found: its kind, the 1-based lines it covered, its marker. Never its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedactionHit {
    pub kind: String,
    pub first_line: u32,
    pub last_line: u32,
    pub marker: String,
}

/// The redacted text (`None`: nothing found, the input stands) and every hit, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redaction {
    pub text: Option<String>,
    pub hits: Vec<RedactionHit>,
}

/// The decisions the store delegates. Errors are [`crate::error::DossierError`]s (a component
/// that failed to load or run is `policy_unavailable`, naming the component and the cause).
///
/// `Any` lets the binary reach its own implementation again (for the learning interface,
/// which the store never calls) without the store knowing its type.
pub trait Policy: Any + Send {
    /// Score and order Dossiers (`priority.sort`): a permutation of `items`' indices.
    fn priority_sort(&self, items: &[PriorityInput], now: Timestamp, weights: Weights) -> Result<Vec<Ranked>>;
    /// Rank candidates for promote and link (`ranking.rank`), at most `options.limit`.
    fn rank(&self, query: &str, candidates: &[Candidate], options: RankingOptions) -> Result<Vec<Suggestion>>;
    /// Validate a Distilled State (`distill.validate`).
    fn distill_validate(&self, document: &str, artifacts: &[ArtifactInfo]) -> Result<Vec<Finding>>;
    /// Merge `source` into `target` (`merge.merge`), applying `resolutions`; `flagged` pairs of
    /// changed claims become `flagged-by-reviewer` conflicts.
    fn merge(
        &self,
        source: &MergeSide,
        target: &MergeSide,
        resolutions: &[Resolution],
        flagged: &[FlaggedPair],
    ) -> Result<MergePlan>;
    /// Find and replace the secrets in `text` (`redaction.redact`). The implementation checks
    /// that every hit's lines lie in `text` and that a redacted text has as many lines.
    fn redact(&self, text: &str, options: &RedactionOptions) -> Result<Redaction>;
    /// [`Policy::redact`] for each of `texts`, in order: the same results, for a caller that
    /// scans many texts at once (doctor, `sync init`), so an implementation can set up once.
    /// Callers keep a batch's total size bounded ([`REDACT_BATCH_BYTES`]).
    fn redact_many(&self, texts: &[&str], options: &RedactionOptions) -> Result<Vec<Redaction>> {
        texts.iter().map(|t| self.redact(t, options)).collect()
    }
}

/// The most text one [`Policy::redact_many`] call is handed (a single larger text goes alone).
pub const REDACT_BATCH_BYTES: usize = 4 << 20;
