//! codecall's learning policy (ARCHITECTURE §10–§11): whether an implementation is worth a
//! learning session, what to teach in which order, the next move of a running session, and
//! whether a generated MCQ is fit to ask. The rules are in docs/learning-policy.md; each
//! submodule's doc comment states its own, with the thresholds as named constants.
//!
//! - [`opportunity`]: `recommend` / `optional` / `skip` from the §10 signals, a score and a
//!   confidence in `0..=1`, an estimate in minutes and a stable concept fingerprint.
//! - [`plan`]: deduplicated, merged, topologically ordered learning graph; cycles reported;
//!   a budget that drops the least valuable units and never a needed prerequisite.
//! - [`next_move`]: teach / ask / deepen / reinforce / retry / finish from the learner state,
//!   with confidence setting pace and depth (§11) and a bound on retries.
//! - [`item`]: MCQ item checks and a deterministic, position-balancing choice shuffle;
//!   [`flaws`]: its item-writing-flaw rules (issue 21).
//!
//! Under them: `types` (the shared vocabulary), `pacing` (§11's pace table and minutes) and
//! `identity` (normalised identities, fingerprints). This file only re-exports.
//!
//! How it maps onto the session state machine (ARCHITECTURE §6): `teach` and `reinforce` go to
//! `Teaching` (a reinforcement then asks its question), `ask`, `deepen` and `retry` to `Quiz`,
//! `finish` to `Summary`; the "advance" is `teach` (or `ask`, for a declared expert)
//! on the next unit.
//!
//! Not for: writing lessons, questions or summaries (the agent does, through the host), judging
//! whether an answer is right (the evaluator's answer arrives in [`next_move::AnswerRecord`]),
//! keeping state between calls, or any I/O. Same input, same output: no clock, no randomness
//! (the shuffle is seeded by the question id), and nothing is inferred from lines of code or
//! file counts — the inputs do not carry them.

pub mod flaws;
mod identity;
pub mod item;
pub mod next_move;
pub mod opportunity;
mod pacing;
pub mod plan;
mod types;

pub use identity::{concept_fingerprint, fnv1a64, normalise};
pub use item::{Choice, McqItem, check_item, shuffle_choices};
pub use next_move::{
    AnswerRecord, FinishReason, LearnerState, LearningMove, LessonRequest, QuestionRequest, Reinforcement, SessionEnd,
    UnitConfidence, next_move,
};
pub use opportunity::{
    ExcludedKind, Opportunity, OpportunityInput, Recommendation, Signal, SignalKind, score_opportunity,
};
pub use pacing::{
    CHECK_MINUTES, LESSON_BASE_MINUTES, PREREQUISITE_CHECKS, Pace, THOROUGH_EXTRA_MINUTES, checks_needed,
    lesson_minutes, pace, unit_minutes,
};
pub use plan::{Concept, ConceptCategory, LearningPlan, LearningUnit, Omission, OmissionKind, plan};
pub use types::{ConfidenceLevel, EvidenceRef, LearningError, LessonDepth, QuestionIntent, UnitRole};
