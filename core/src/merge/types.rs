//! The merge's inputs and outputs: the two sides, the conflicts, the resolutions and the plan
//! (the native twins of the `dossier:policy` merge interface's types, converted in
//! `component.rs`), with the lifecycle statuses and the error.
//!
//! What it is for: the data the host and the component exchange with `merge()`,
//! and its small vocabulary (status names, conflict kind names, the error message).
//!
//! What it is not for: any merge logic (the sibling modules) or parsing Markdown.

use std::fmt;

/// Dossier lifecycle status (SPEC §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Active,
    Waiting,
    Blocked,
    Resolved,
    Archived,
}

impl Status {
    pub const ALL: [Status; 5] = [Status::Active, Status::Waiting, Status::Blocked, Status::Resolved, Status::Archived];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Waiting => "waiting",
            Status::Blocked => "blocked",
            Status::Resolved => "resolved",
            Status::Archived => "archived",
        }
    }

    /// Case-insensitive, surrounding whitespace ignored.
    pub fn parse(s: &str) -> Option<Status> {
        let s = s.trim();
        Status::ALL.into_iter().find(|st| st.as_str().eq_ignore_ascii_case(s))
    }

    /// Open work (`active`, `waiting`, `blocked`) as opposed to closed (`resolved`, `archived`).
    pub fn is_open(self) -> bool {
        matches!(self, Status::Active | Status::Waiting | Status::Blocked)
    }
}

/// One side of a merge: what the host knows of a Dossier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeSide {
    pub id: String,
    pub name: String,
    pub status: Status,
    pub next_action: String,
    /// The Distilled State body (Markdown). Frontmatter, if present, is skipped; line numbers
    /// in conflicts count from the first line of this string.
    pub distilled_state: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConflictKind {
    ContradictoryDecision,
    DivergentNextAction,
    IncompatibleLifecycle,
    IncompatibleValue,
    /// Related claims the rules cannot tell apart from a contradiction (always possible).
    RelatedClaims,
    /// A pair of changed claims (a target claim the source lacks, a source claim the merge
    /// adds) that a reviewer says cannot both hold, though no rule paired them (always
    /// possible; issue 19, eleventh round).
    FlaggedByReviewer,
}

/// How sure the policy is that two claims cannot both hold (docs/merge.md, tiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Certainty {
    /// A rule says they contradict: the user must choose.
    Certain,
    /// Related claims worth one look; keep both is the suggested answer.
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

impl ConflictKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ConflictKind::ContradictoryDecision => "contradictory-decision",
            ConflictKind::DivergentNextAction => "divergent-next-action",
            ConflictKind::IncompatibleLifecycle => "incompatible-lifecycle",
            ConflictKind::IncompatibleValue => "incompatible-value",
            ConflictKind::RelatedClaims => "related-claims",
            ConflictKind::FlaggedByReviewer => "flagged-by-reviewer",
        }
    }
}

/// One side of a conflict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictSide {
    /// The claim as written (list marker removed), provenance markers included.
    pub text: String,
    /// The `[src:...]` markers found on the claim, in order.
    pub provenance: Vec<String>,
    /// 1-based line in that side's Distilled State; 0 for the status and the next action.
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// `conf_` + 26 lowercase base32 digits (see `ids`); the same for the same disagreement on every run.
    pub id: String,
    pub kind: ConflictKind,
    /// What the two sides disagree about, e.g. "launch date".
    pub subject: String,
    pub source: ConflictSide,
    pub target: ConflictSide,
    pub certainty: Certainty,
    /// For a possible conflict the rules think compatible (issue 19, sixth round): why, in
    /// one line ("the same decision for another region", "equal in other units", "a later
    /// step of the same log"). `None` for a certain conflict and for a possible one the rules
    /// think may contradict. Such a pair is listed, never dropped: a reviewer decides.
    pub compatible_hint: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    KeepSource,
    KeepTarget,
    KeepBoth,
    /// Replacement text written by the user (provenance markers included).
    Custom(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    pub conflict_id: String,
    pub choice: Choice,
}

/// A claim the merge changes (issue 19, eleventh round): a target claim the source does not
/// have, or a source claim the merge adds (not a duplicate the merge folds). A reviewer may
/// pair two of them, one of each side, as a contradiction ([`FlaggedPair`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedClaim {
    /// `t_` (target) or `s_` (source) + 13 lowercase Crockford base32 digits: FNV-1a 64 over
    /// the side, the section and the normalised text; the same on every run.
    pub id: String,
    /// The `##` section it is in, as the converged state names it.
    pub section: String,
    /// The claim as written (list marker removed), provenance markers included.
    pub text: String,
    /// 1-based line in that side's Distilled State.
    pub line: u32,
    /// How related it is to the other side's changed claims: how many of its content stems
    /// they share. Surfaces that list only some claims list the most related.
    pub related: u32,
}

/// A reviewer's pair: a changed target claim and a changed source claim that cannot both
/// hold, with why. Each becomes a `flagged-by-reviewer` conflict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlaggedPair {
    pub target_claim: String,
    pub source_claim: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergePlan {
    /// The converged Distilled State; complete only when `unresolved` is empty.
    pub converged_state: String,
    pub converged_next_action: String,
    pub converged_status: Status,
    /// Conflicts the resolutions did not cover, ranked: certain ones first, then possible
    /// ones the rules think may contradict (strongest relation first), then possible ones
    /// with a compatible hint; within a rank, the target's reading order (status and next
    /// action first).
    pub unresolved: Vec<Conflict>,
    /// Related pairs not listed in `unresolved`: each source claim is listed against at most
    /// its 2 most related target claims (certain conflicts are always listed); the rest are
    /// counted here, so that nothing related is silent. Their claims are merged as for
    /// `keep-both`.
    pub unlisted_related: u32,
    /// The target's claims the source does not have, in reading order.
    pub changed_target: Vec<ChangedClaim>,
    /// The source's claims the merge adds, in reading order.
    pub changed_source: Vec<ChangedClaim>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// The input broke a precondition: a resolution names an unknown conflict, a conflict is
    /// resolved twice in different ways, a custom status is not a status, a custom next
    /// action is empty, a custom claim contains a section heading, a body's frontmatter is
    /// never closed, a Dossier is merged into itself, or a flagged pair names an unknown claim,
    /// two claims of one side, or no reason.
    InvalidInput(String),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::InvalidInput(m) => write!(f, "invalid input: {m}"),
        }
    }
}

impl std::error::Error for MergeError {}
