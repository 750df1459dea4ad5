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
//! - [`item`]: MCQ item checks and a deterministic, position-balancing choice shuffle.
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

pub mod item;
pub mod next_move;
pub mod opportunity;
pub mod plan;

pub use item::{Choice, McqItem, check_item, shuffle_choices};
pub use next_move::{
    AnswerRecord, FinishReason, LearnerState, LearningMove, LessonRequest, QuestionRequest, Reinforcement, SessionEnd,
    UnitConfidence, next_move,
};
pub use opportunity::{
    ExcludedKind, Opportunity, OpportunityInput, Recommendation, Signal, SignalKind, score_opportunity,
};
pub use plan::{Concept, ConceptCategory, LearningPlan, LearningUnit, Omission, OmissionKind, UnitRole, plan};

use std::fmt;

/// A stable reference to evidence (`types.wit` `evidence-ref`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EvidenceRef {
    pub path: String,
    pub revision: String,
    pub start_line: u32,
    pub end_line: u32,
    pub content_hash: String,
}

impl fmt::Display for EvidenceRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#L{}-L{}", self.path, self.start_line, self.end_line)?;
        if !self.revision.is_empty() {
            write!(f, "@{}", self.revision)?;
        }
        Ok(())
    }
}

/// A precondition of a documented input was broken (`policy-error::invalid-input`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearningError {
    InvalidInput(String),
}

impl fmt::Display for LearningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearningError::InvalidInput(m) => write!(f, "invalid input: {m}"),
        }
    }
}

impl std::error::Error for LearningError {}

fn invalid(message: impl Into<String>) -> LearningError {
    LearningError::InvalidInput(message.into())
}

/// The developer's declared confidence for a unit (§11). `Neutral` is the "use a default" skip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConfidenceLevel {
    Expert,
    Comfortable,
    HeardOfIt,
    NeverLearned,
    #[default]
    Neutral,
}

/// The kind of reasoning a question checks. `Scenario` is §11's real-world scenario mapped back
/// to the mechanism; the other four are its technical checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum QuestionIntent {
    Scenario,
    CausalReasoning,
    Tradeoff,
    Debugging,
    SystemDesign,
}

impl QuestionIntent {
    /// The technical intents, in rotation order.
    pub const TECHNICAL: [QuestionIntent; 4] = [
        QuestionIntent::CausalReasoning,
        QuestionIntent::Tradeoff,
        QuestionIntent::Debugging,
        QuestionIntent::SystemDesign,
    ];

    pub fn name(self) -> &'static str {
        match self {
            QuestionIntent::Scenario => "scenario",
            QuestionIntent::CausalReasoning => "causal-reasoning",
            QuestionIntent::Tradeoff => "tradeoff",
            QuestionIntent::Debugging => "debugging",
            QuestionIntent::SystemDesign => "system-design",
        }
    }
}

/// How deep a lesson goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LessonDepth {
    Brief,
    Standard,
    Thorough,
}

// ---- Pace (§11: confidence controls pace and question difficulty, never which units exist) ----

/// Minutes of a standard lesson are `LESSON_BASE_MINUTES + difficulty` (3..=7).
pub const LESSON_BASE_MINUTES: u32 = 2;
/// Extra minutes of a thorough lesson over a standard one.
pub const THOROUGH_EXTRA_MINUTES: u32 = 2;
/// Minutes of one check-in question: read, answer, feedback.
pub const CHECK_MINUTES: u32 = 1;

/// What a declared confidence level does to a unit.
///
/// | level | lesson | first check | difficulty | checks for an objective unit |
/// |---|---|---|---|---|
/// | expert | none: checked first, taught only if the check is missed | technical | +1 | 1 |
/// | comfortable | brief | scenario | +1 | 2 |
/// | heard-of-it, neutral | standard | scenario | 0 | 2 |
/// | never-learned | thorough (simpler mental model) | scenario | −1 | 2 |
///
/// A prerequisite unit needs one correct check at every level: an expert is still checked on
/// every prerequisite the objective depends on, and nobody is held on a prerequisite longer
/// than it takes to show they can use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// `None`: no lesson before the first check.
    pub lesson: Option<LessonDepth>,
    pub difficulty_shift: i8,
    /// The first check is a technical one rather than a scenario.
    pub technical_first: bool,
    /// Correct checks (of distinct intents) an objective unit needs.
    pub objective_checks: usize,
}

/// Correct checks a prerequisite unit needs, at every level.
pub const PREREQUISITE_CHECKS: usize = 1;

pub fn pace(level: ConfidenceLevel) -> Pace {
    match level {
        ConfidenceLevel::Expert => {
            Pace { lesson: None, difficulty_shift: 1, technical_first: true, objective_checks: 1 }
        }
        ConfidenceLevel::Comfortable => {
            Pace { lesson: Some(LessonDepth::Brief), difficulty_shift: 1, technical_first: false, objective_checks: 2 }
        }
        ConfidenceLevel::HeardOfIt | ConfidenceLevel::Neutral => Pace {
            lesson: Some(LessonDepth::Standard),
            difficulty_shift: 0,
            technical_first: false,
            objective_checks: 2,
        },
        ConfidenceLevel::NeverLearned => Pace {
            lesson: Some(LessonDepth::Thorough),
            difficulty_shift: -1,
            technical_first: false,
            objective_checks: 2,
        },
    }
}

/// Minutes of one lesson: standard `2 + difficulty`, brief half of it (rounded up), thorough
/// two more.
pub fn lesson_minutes(difficulty: u8, depth: LessonDepth) -> u32 {
    let standard = LESSON_BASE_MINUTES + u32::from(difficulty.clamp(1, 5));
    match depth {
        LessonDepth::Brief => standard.div_ceil(2),
        LessonDepth::Standard => standard,
        LessonDepth::Thorough => standard + THOROUGH_EXTRA_MINUTES,
    }
}

/// Correct checks (of distinct intents) a unit needs at a level.
pub fn checks_needed(role: UnitRole, level: ConfidenceLevel) -> usize {
    match role {
        UnitRole::Objective => pace(level).objective_checks,
        UnitRole::Prerequisite => PREREQUISITE_CHECKS,
    }
}

/// Likely minutes for a unit at a level, when every check is answered right the first time:
/// its lesson plus its check-ins. The planner uses `Neutral`.
pub fn unit_minutes(difficulty: u8, role: UnitRole, level: ConfidenceLevel) -> u32 {
    let lesson = pace(level).lesson.map_or(0, |d| lesson_minutes(difficulty, d));
    lesson + CHECK_MINUTES * checks_needed(role, level) as u32
}

/// `difficulty` shifted by `by`, kept in `1..=5`.
fn shift_difficulty(difficulty: u8, by: i8) -> u8 {
    (i16::from(difficulty.clamp(1, 5)) + i16::from(by)).clamp(1, 5) as u8
}

// ---- Identity helpers ----

/// Normalised identity: trimmed, lowercased, inner whitespace runs collapsed to one space.
pub fn normalise(s: &str) -> String {
    s.split_whitespace().map(str::to_lowercase).collect::<Vec<_>>().join(" ")
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

/// `fp-` + 16 hex digits of FNV-1a over the sorted, deduplicated, normalised identities joined
/// by `\n` (normalised identities contain no newline, so the join is unambiguous). Empty
/// identities are ignored. Order and duplicates in the input do not matter.
pub fn concept_fingerprint<'a>(concepts: impl IntoIterator<Item = &'a str>) -> String {
    let set: std::collections::BTreeSet<String> =
        concepts.into_iter().map(normalise).filter(|c| !c.is_empty()).collect();
    let joined = set.into_iter().collect::<Vec<_>>().join("\n");
    format!("fp-{:016x}", fnv1a64(joined.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn fingerprint_ignores_order_case_spacing_and_duplicates() {
        let a = concept_fingerprint(["Token Bucket", "retry-policy"]);
        let b = concept_fingerprint(["retry-policy", "  token   bucket ", "RETRY-POLICY"]);
        assert_eq!(a, b);
        assert!(a.starts_with("fp-") && a.len() == 19, "{a}");
        assert_ne!(a, concept_fingerprint(["token bucket"]));
        assert_ne!(concept_fingerprint(["a b"]), concept_fingerprint(["a", "b"]), "the join is unambiguous");
    }

    #[test]
    fn pace_table() {
        assert_eq!(pace(ConfidenceLevel::Neutral), pace(ConfidenceLevel::HeardOfIt));
        assert_eq!(pace(ConfidenceLevel::Expert).lesson, None);
        assert_eq!(checks_needed(UnitRole::Prerequisite, ConfidenceLevel::Expert), 1);
        assert_eq!(checks_needed(UnitRole::Objective, ConfidenceLevel::Expert), 1);
        assert_eq!(checks_needed(UnitRole::Objective, ConfidenceLevel::NeverLearned), 2);
        assert_eq!(lesson_minutes(3, LessonDepth::Standard), 5);
        assert_eq!(lesson_minutes(3, LessonDepth::Brief), 3);
        assert_eq!(lesson_minutes(3, LessonDepth::Thorough), 7);
        assert_eq!(unit_minutes(3, UnitRole::Objective, ConfidenceLevel::Neutral), 7);
        assert_eq!(unit_minutes(3, UnitRole::Prerequisite, ConfidenceLevel::Expert), 1);
        assert_eq!(shift_difficulty(5, 1), 5);
        assert_eq!(shift_difficulty(1, -1), 1);
        assert_eq!(shift_difficulty(3, -1), 2);
    }
}
