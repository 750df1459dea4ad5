//! Pace (§11): confidence controls pace and question difficulty, never which units exist —
//! the pace table, lesson and unit minutes, and the checks a unit needs.
//!
//! What it is for: the numbers `plan`, `opportunity` and `next_move` share, so an estimate and
//! a running session agree.
//!
//! What it is not for: choosing units (`plan`) or the next move (`next_move`).

use super::types::{ConfidenceLevel, LessonDepth, UnitRole};

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
pub(super) fn shift_difficulty(difficulty: u8, by: i8) -> u8 {
    (i16::from(difficulty.clamp(1, 5)) + i16::from(by)).clamp(1, 5) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

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
