//! The next-move policy (ARCHITECTURE §11): from the plan, the declared confidences, the
//! lessons delivered and the answers so far, decide the one next move of a session.
//!
//! The rules, in the order they are tried:
//!
//! 1. **Validation** (`invalid-input` otherwise): unit ids unique and non-empty; confidences,
//!    taught units and answers name units of the plan; answer difficulty `1..=5`.
//! 2. Empty plan: `finish(empty-plan)`.
//! 3. **Evidence.** A unit is *evidenced* when its correct answers cover as many distinct
//!    intents as it needs checks ([`super::checks_needed`]: two for an objective unit — §11's
//!    scenario plus technical check — one for a declared expert's objective unit, one for every
//!    prerequisite). It is *closed* when evidenced or after [`MAX_WRONG_PER_UNIT`] wrong
//!    answers (a weak area). Every objective unit evidenced: `finish(objective-evidenced)`.
//!    Every unit closed otherwise: `finish(plan-exhausted)`. No preset question count.
//! 4. **Active unit**: the unit of the last answer if it is still open, else the first open unit
//!    in plan order whose prerequisites are all closed (the highest-value prerequisite-ready one,
//!    since the plan is ordered that way), else the first open unit (a reported cycle).
//! 5. **Move for the active unit** at its declared level (default `neutral`, see
//!    [`super::pace`]):
//!    - not taught, not a declared expert: `teach` at the level's depth (brief / standard /
//!      thorough) — the "advance" to a new unit;
//!    - declared expert, nothing answered: `ask` a technical check one step harder (no lesson;
//!      the unit is still checked, never hidden); expert who missed it: `teach` at the standard
//!      pace, focused on the diagnosed misconceptions, then an isomorphic `ask`; from then on the
//!      unit runs at the neutral pace;
//!    - taught, nothing answered: `ask` the first check — a scenario (§11: a real-world
//!      scenario mapped back to the mechanism) at the unit's difficulty shifted by the level;
//!    - last answer correct (the unit is open, so the objective needs more): `deepen` — a
//!      technical check of an intent not yet asked on this unit, one step harder;
//!    - last answer wrong with a diagnosed misconception: `reinforce` — teach the gap, then an
//!      isomorphic question (same intent, same difficulty);
//!    - last answer wrong without a diagnosis: `retry` — a simpler model and the same intent one
//!      step easier.
//! 6. **Budget**: when the elapsed minutes plus the move's own ([`move_minutes`]: a lesson and
//!    its check-in, or one check-in) exceed the budget, `finish(budget-spent)` instead. So the
//!    modelled time never passes the budget, and an evidenced objective (3) is never reported
//!    as a spent budget.
//!
//! **Retry bound**: a unit closes at its third wrong answer, so it gets at most two remedial
//! questions (`reinforce` or `retry`); it is reported as weak and the session moves on.
//! **Intent rotation**: technical checks rotate causal reasoning → tradeoff → debugging →
//! system design, starting at a different point for each unit (its plan position), never
//! repeating an intent on a unit while one is unused. Difficulty stays in `1..=5`.
//!
//! Not for: grading answers (the evaluator's verdict and diagnosis arrive in the answers),
//! timekeeping (the host passes elapsed minutes), or wording anything shown to the learner
//! beyond the `reason`s. Messages say "evidenced", never "mastered" (DESIGN §3: the UI reports
//! an estimated session mastery).

use std::collections::BTreeSet;

use crate::maps::{HashMap, HashSet};

use super::pacing::{CHECK_MINUTES, checks_needed, lesson_minutes, pace, shift_difficulty};
use super::plan::{LearningPlan, LearningUnit};
use super::types::{ConfidenceLevel, LearningError, LessonDepth, QuestionIntent, UnitRole, invalid};

/// A unit closes (weak) at this many wrong answers: at most two remedial questions per unit.
pub const MAX_WRONG_PER_UNIT: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitConfidence {
    pub unit_id: String,
    pub level: ConfidenceLevel,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerRecord {
    pub unit_id: String,
    pub question_id: String,
    pub intent: QuestionIntent,
    pub difficulty: u8,
    pub correct: bool,
    pub misconceptions: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LearnerState {
    pub plan: LearningPlan,
    pub confidences: Vec<UnitConfidence>,
    pub taught: Vec<String>,
    pub answers: Vec<AnswerRecord>,
    pub elapsed_minutes: u32,
    pub budget_minutes: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonRequest {
    pub unit_id: String,
    pub depth: LessonDepth,
    pub focus: Vec<String>,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionRequest {
    pub unit_id: String,
    pub intent: QuestionIntent,
    pub difficulty: u8,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reinforcement {
    pub unit_id: String,
    pub misconceptions: Vec<String>,
    pub question: QuestionRequest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FinishReason {
    ObjectiveEvidenced,
    BudgetSpent,
    PlanExhausted,
    EmptyPlan,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionEnd {
    pub reason: FinishReason,
    pub message: String,
    pub evidenced: Vec<String>,
    pub weak: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearningMove {
    Teach(LessonRequest),
    Ask(QuestionRequest),
    Deepen(QuestionRequest),
    Reinforce(Reinforcement),
    Retry(QuestionRequest),
    Finish(SessionEnd),
}

/// What the answers say about one unit.
struct UnitStatus<'a> {
    unit: &'a LearningUnit,
    position: usize,
    declared: ConfidenceLevel,
    /// Declared expert whose first answer was wrong: runs at the neutral pace.
    missed_as_expert: bool,
    taught: bool,
    answers: Vec<&'a AnswerRecord>,
    correct_intents: BTreeSet<QuestionIntent>,
    wrong: usize,
    needed: usize,
}

impl UnitStatus<'_> {
    fn effective(&self) -> ConfidenceLevel {
        if self.missed_as_expert { ConfidenceLevel::Neutral } else { self.declared }
    }
    fn evidenced(&self) -> bool {
        self.correct_intents.len() >= self.needed
    }
    fn exhausted(&self) -> bool {
        !self.evidenced() && self.wrong >= MAX_WRONG_PER_UNIT
    }
    fn closed(&self) -> bool {
        self.evidenced() || self.exhausted()
    }
    fn base_difficulty(&self) -> u8 {
        shift_difficulty(self.unit.difficulty, pace(self.effective()).difficulty_shift)
    }
    /// The next technical intent: rotation from the unit's plan position, first one not yet
    /// asked on the unit, else first one not yet answered correctly, else by answer count.
    fn next_technical(&self) -> QuestionIntent {
        let t = QuestionIntent::TECHNICAL;
        let rotation: Vec<QuestionIntent> = (0..t.len()).map(|k| t[(self.position + k) % t.len()]).collect();
        let asked: BTreeSet<QuestionIntent> = self.answers.iter().map(|a| a.intent).collect();
        rotation
            .iter()
            .find(|i| !asked.contains(i))
            .or_else(|| rotation.iter().find(|i| !self.correct_intents.contains(i)))
            .copied()
            .unwrap_or(rotation[self.answers.len() % rotation.len()])
    }
}

fn validate(state: &LearnerState) -> Result<HashMap<&str, usize>, LearningError> {
    let mut ids = HashMap::default();
    for (i, u) in state.plan.units.iter().enumerate() {
        if u.id.trim().is_empty() {
            return Err(invalid(format!("plan unit {i} has an empty id")));
        }
        if ids.insert(u.id.as_str(), i).is_some() {
            return Err(invalid(format!("plan unit `{}` appears twice", u.id)));
        }
    }
    let known = |id: &str, what: &str| {
        if ids.contains_key(id) { Ok(()) } else { Err(invalid(format!("{what} names unknown unit `{id}`"))) }
    };
    for c in &state.confidences {
        known(&c.unit_id, "a confidence")?;
    }
    for t in &state.taught {
        known(t, "taught")?;
    }
    for a in &state.answers {
        known(&a.unit_id, &format!("answer `{}`", a.question_id))?;
        if !(1..=5).contains(&a.difficulty) {
            return Err(invalid(format!(
                "answer `{}` has difficulty {} (expected 1..=5)",
                a.question_id, a.difficulty
            )));
        }
    }
    Ok(ids)
}

fn finish(reason: FinishReason, message: String, statuses: &[UnitStatus<'_>]) -> LearningMove {
    LearningMove::Finish(SessionEnd {
        reason,
        message,
        evidenced: statuses.iter().filter(|s| s.evidenced()).map(|s| s.unit.id.clone()).collect(),
        weak: statuses.iter().filter(|s| !s.evidenced() && s.wrong > 0).map(|s| s.unit.id.clone()).collect(),
    })
}

fn depth_name(d: LessonDepth) -> &'static str {
    match d {
        LessonDepth::Brief => "brief",
        LessonDepth::Standard => "standard",
        LessonDepth::Thorough => "thorough, with a simpler mental model",
    }
}

fn level_name(l: ConfidenceLevel) -> &'static str {
    match l {
        ConfidenceLevel::Expert => "expert",
        ConfidenceLevel::Comfortable => "comfortable",
        ConfidenceLevel::HeardOfIt => "heard of it",
        ConfidenceLevel::NeverLearned => "never learned",
        ConfidenceLevel::Neutral => "neutral (default)",
    }
}

/// Decide the next move (see the module doc for the table).
pub fn next_move(state: &LearnerState) -> Result<LearningMove, LearningError> {
    validate(state)?;
    let levels: HashMap<&str, ConfidenceLevel> =
        state.confidences.iter().map(|c| (c.unit_id.as_str(), c.level)).collect();
    let taught: HashSet<&str> = state.taught.iter().map(String::as_str).collect();
    let statuses: Vec<UnitStatus<'_>> = state
        .plan
        .units
        .iter()
        .enumerate()
        .map(|(position, unit)| {
            let declared = levels.get(unit.id.as_str()).copied().unwrap_or_default();
            let answers: Vec<&AnswerRecord> = state.answers.iter().filter(|a| a.unit_id == unit.id).collect();
            let missed_as_expert = declared == ConfidenceLevel::Expert && answers.first().is_some_and(|a| !a.correct);
            let effective = if missed_as_expert { ConfidenceLevel::Neutral } else { declared };
            UnitStatus {
                unit,
                position,
                declared,
                missed_as_expert,
                taught: taught.contains(unit.id.as_str()),
                correct_intents: answers.iter().filter(|a| a.correct).map(|a| a.intent).collect(),
                wrong: answers.iter().filter(|a| !a.correct).count(),
                needed: checks_needed(unit.role, effective),
                answers,
            }
        })
        .collect();

    if statuses.is_empty() {
        return Ok(finish(FinishReason::EmptyPlan, "Nothing to learn: the plan has no units.".into(), &statuses));
    }
    let has_objective = statuses.iter().any(|s| s.unit.role == UnitRole::Objective);
    let objectives: Vec<&UnitStatus<'_>> =
        statuses.iter().filter(|s| !has_objective || s.unit.role == UnitRole::Objective).collect();
    if objectives.iter().all(|s| s.evidenced()) {
        return Ok(finish(
            FinishReason::ObjectiveEvidenced,
            format!(
                "The session objective is evidenced: {} of {} objective unit(s) have their checks (an estimated \
                 session mastery, not a lasting claim).",
                objectives.len(),
                objectives.len()
            ),
            &statuses,
        ));
    }
    if statuses.iter().all(UnitStatus::closed) {
        let weak = statuses.iter().filter(|s| s.exhausted()).count();
        return Ok(finish(
            FinishReason::PlanExhausted,
            format!(
                "Every unit is evidenced or closed after {MAX_WRONG_PER_UNIT} wrong answers; {weak} weak area(s) to \
                 revisit."
            ),
            &statuses,
        ));
    }

    let by_id: HashMap<&str, &UnitStatus<'_>> = statuses.iter().map(|s| (s.unit.id.as_str(), s)).collect();
    let last_open = state.answers.last().map(|a| by_id[a.unit_id.as_str()]).filter(|s| !s.closed());
    let ready = statuses
        .iter()
        .find(|s| !s.closed() && s.unit.prerequisites.iter().all(|p| by_id.get(p.as_str()).is_none_or(|q| q.closed())));
    let s = last_open.or(ready).or_else(|| statuses.iter().find(|s| !s.closed())).expect("an open unit exists");
    let m = move_for(s);
    // The budget is checked before every new lesson or question, against what it will take, so
    // a session never runs past it; an evidenced objective or an exhausted plan (above) is the
    // truer reason to stop and wins.
    let cost = move_minutes(&m, s.unit.difficulty);
    if state.elapsed_minutes + cost > state.budget_minutes {
        return Ok(finish(
            FinishReason::BudgetSpent,
            format!(
                "The {}-minute budget would be exceeded: {} minute(s) spent, and the next step ({} on {}) takes about \
                 {cost}; stopping with the evidence so far, before the session objective is evidenced.",
                state.budget_minutes,
                state.elapsed_minutes,
                move_name(&m),
                s.unit.label
            ),
            &statuses,
        ));
    }
    Ok(m)
}

/// The modelled minutes of a move (the runtime charges the same): a lesson and the check-in
/// that follows it, or one check-in.
pub fn move_minutes(m: &LearningMove, difficulty: u8) -> u32 {
    match m {
        LearningMove::Teach(l) => lesson_minutes(difficulty, l.depth) + CHECK_MINUTES,
        LearningMove::Reinforce(_) => lesson_minutes(difficulty, LessonDepth::Standard) + CHECK_MINUTES,
        LearningMove::Ask(_) | LearningMove::Deepen(_) | LearningMove::Retry(_) => CHECK_MINUTES,
        LearningMove::Finish(_) => 0,
    }
}

fn move_name(m: &LearningMove) -> &'static str {
    match m {
        LearningMove::Teach(_) => "a lesson and its check-in",
        LearningMove::Reinforce(_) => "a reinforcement lesson and a question",
        LearningMove::Ask(_) | LearningMove::Deepen(_) | LearningMove::Retry(_) => "a question",
        LearningMove::Finish(_) => "nothing",
    }
}

/// The move for the active unit.
fn move_for(s: &UnitStatus<'_>) -> LearningMove {
    let id = s.unit.id.clone();
    let level = s.effective();
    let p = pace(level);

    if !s.taught {
        if s.declared == ConfidenceLevel::Expert {
            if s.answers.is_empty() {
                return LearningMove::Ask(QuestionRequest {
                    unit_id: id,
                    intent: s.next_technical(),
                    difficulty: s.base_difficulty(),
                    reason: format!(
                        "Declared expert on {}: a harder technical check first; the lesson follows only if it is missed.",
                        s.unit.label
                    ),
                });
            }
            if s.missed_as_expert {
                let focus: Vec<String> = s
                    .answers
                    .iter()
                    .filter(|a| !a.correct)
                    .flat_map(|a| a.misconceptions.iter().cloned())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                return LearningMove::Teach(LessonRequest {
                    unit_id: id,
                    depth: LessonDepth::Standard,
                    focus,
                    reason: format!(
                        "The expert check on {} was missed: the full lesson at the standard pace, then an isomorphic \
                         question.",
                        s.unit.label
                    ),
                });
            }
        } else {
            let depth = p.lesson.unwrap_or(LessonDepth::Standard);
            return LearningMove::Teach(LessonRequest {
                unit_id: id,
                depth,
                focus: Vec::new(),
                reason: format!(
                    "Next unit, {} ({}): a {} lesson for confidence \"{}\".",
                    s.unit.label,
                    match s.unit.role {
                        UnitRole::Objective => "part of the session objective",
                        UnitRole::Prerequisite => "a prerequisite the objective depends on",
                    },
                    depth_name(depth),
                    level_name(s.declared)
                ),
            });
        }
    }

    let Some(last) = s.answers.last() else {
        let (intent, why) = if p.technical_first {
            (s.next_technical(), "a technical check")
        } else {
            (QuestionIntent::Scenario, "a real-world scenario mapped back to the implementation")
        };
        return LearningMove::Ask(QuestionRequest {
            unit_id: id,
            intent,
            difficulty: s.base_difficulty(),
            reason: format!("First check on {}: {why}.", s.unit.label),
        });
    };

    if last.correct {
        let intent = s.next_technical();
        return LearningMove::Deepen(QuestionRequest {
            unit_id: id,
            intent,
            difficulty: shift_difficulty(last.difficulty, 1),
            reason: format!(
                "Correct, and the objective needs {} more check(s) on {}: go deeper, then a {} question.",
                s.needed - s.correct_intents.len(),
                s.unit.label,
                intent.name()
            ),
        });
    }

    if s.missed_as_expert && s.wrong == 1 {
        // The lesson that followed the missed expert check was the remediation.
        return LearningMove::Ask(QuestionRequest {
            unit_id: id,
            intent: last.intent,
            difficulty: s.base_difficulty(),
            reason: format!("After the lesson on {}: an isomorphic question to the missed expert check.", s.unit.label),
        });
    }
    let remaining = MAX_WRONG_PER_UNIT - s.wrong;
    if !last.misconceptions.is_empty() {
        return LearningMove::Reinforce(Reinforcement {
            unit_id: id.clone(),
            misconceptions: last.misconceptions.clone(),
            question: QuestionRequest {
                unit_id: id,
                intent: last.intent,
                difficulty: last.difficulty,
                reason: format!(
                    "Wrong, with a diagnosed misconception: teach the gap, then an isomorphic {} question ({remaining} \
                     wrong answer(s) left before {} is closed as a weak area).",
                    last.intent.name(),
                    s.unit.label
                ),
            },
        });
    }
    LearningMove::Retry(QuestionRequest {
        unit_id: id,
        intent: last.intent,
        difficulty: shift_difficulty(last.difficulty, -1),
        reason: format!(
            "Wrong, without a diagnosis: a simpler model, then an easier {} question ({remaining} wrong answer(s) left \
             before {} is closed as a weak area).",
            last.intent.name(),
            s.unit.label
        ),
    })
}
