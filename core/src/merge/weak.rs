//! Certain conflicts on weak evidence (issue 19, twelfth round): classes of pairs a certain
//! rule flags although their values or choices need not be of one slot — hand-written notes
//! scope a value by *when* it holds, state a target beside a reading, give two attributes of
//! one subject, state a general rule beside an exception, or restate a choice with a detail.
//!
//! - **the same claim for other times** ([`other_times`]): each claim names a day, a time of
//!   day or a season the other does not ("Masters keep one lane on Saturday mornings" /
//!   "Masters keep two lanes on weekday evenings"): two values of two times, not two of one;
//! - **a target and a reading** ([`target_and_reading`]): one claim names a target, a limit or
//!   a setpoint the other does not ("Freezer 3 setpoint: −20 °C" / "Freezer 3 reads −17 °C"):
//!   what it should be and what it is are two measures;
//! - **values of different kinds** ([`kinds_apart`]): one claim states only dates, the other
//!   only measures with a unit ("The stout is brewed on 3 March" / "The stout conditions for 3
//!   weeks"): a date and a duration are two attributes of one subject;
//! - **a rule and its exception** ([`exception`]): one claim opens with a scope the other
//!   lacks ("For first-time donors, the interview takes 30 minutes" / "The interview takes 15
//!   minutes"): the general value and the scoped one both hold;
//! - **a choice restated with a detail** ([`detail_added`]): one decision's choice words, with
//!   its qualifiers, all lie within the other's.
//!
//! What it is for: `detection::eighth_round` demotes a certain conflict in one of the first
//! four classes to a possible one with a hint (the pair is still listed, so a changed value
//! said for another time, or a target that moved, still reaches the user), and hints a possible
//! listing of the fifth; `detection::subject_conflict` reads the fifth as no clash of choices.
//! What it is not for: relating claims, deciding that a pair contradicts, or dropping a listed
//! pair; the word lists are lexical guesses, so they only ever demote.

use super::analysis::{Analysis, stem};
use super::classes::{inter, minus, subset};
use super::tokens::fold_hash;
use super::values::{Value, slots_meet};

/// Days, times of day and seasons: a phrase naming one scopes the claim's value to it.
const TIMES: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "weekday",
    "weekend",
    "morning",
    "afternoon",
    "evening",
    "night",
    "overnight",
    "lunchtime",
    "daytime",
    "summer",
    "winter",
    "spring",
    "autumn",
];

/// Words that name what a value should be rather than what it is.
/// Limits count too, so that two limits ("capped at 500 MB" / "Maximum upload size is 2 GB")
/// are two values of one slot.
const TARGETS: &[&str] = &[
    "setpoint",
    "target",
    "goal",
    "budget",
    "threshold",
    "quota",
    "maximum",
    "minimum",
    "max",
    "min",
    "cap",
    "capped",
    "limit",
    "limited",
    "ceiling",
    "allowance",
    "allowed",
    "most",
    "least",
];

fn stems_of(words: &[&str]) -> Vec<u64> {
    let mut v: Vec<u64> = words.iter().map(|w| stem(w)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The day and time-of-day stems a unit names.
fn times(x: &Analysis) -> Vec<u64> {
    inter(&x.stems, &stems_of(TIMES))
}

/// **The same claim for other times**: both units name a day or a time of day, and each names
/// one the other does not ("on Saturday mornings" / "on weekday evenings"; not "on Tuesday
/// mornings" / "on Tuesday mornings and evenings", where one's times contain the other's).
/// Not when either sets a time aside ("in autumn rather than in spring" / "in spring, never in
/// autumn"): then the time is the choice, and the mirror says so.
pub(super) fn other_times(s: &Analysis, t: &Analysis) -> bool {
    let (a, b) = (times(s), times(t));
    let sets_time_aside = |x: &Analysis| {
        TIMES.iter().any(|w| {
            x.rejected.binary_search(&fold_hash(w)).is_ok()
                || x.rejected.binary_search(&fold_hash(&format!("{w}s"))).is_ok()
        })
    };
    !a.is_empty()
        && !b.is_empty()
        && !minus(&a, &b).is_empty()
        && !minus(&b, &a).is_empty()
        && !sets_time_aside(s)
        && !sets_time_aside(t)
}

/// Whether a unit names a target: a word of [`TARGETS`] (*set point* in two words is not read:
/// *set* is no content word).
fn names_target(x: &Analysis) -> bool {
    !inter(&x.stems, &stems_of(TARGETS)).is_empty()
}

/// **A target and a reading**: exactly one of the two units names a target, a limit of what
/// it should be, or a setpoint ("Cold room setpoint: 2 °C" / "The cold room is at 5 °C").
/// The side naming no target must be no decision: a decision ("Keep the cave at 92 %") is a
/// target itself.
pub(super) fn target_and_reading(s: &Analysis, t: &Analysis) -> bool {
    match (names_target(s), names_target(t)) {
        (true, false) => !t.decision,
        (false, true) => !s.decision,
        _ => false,
    }
}

/// **Values of different kinds**: both units state typed values and no value of one is of a
/// family of the other's (`values::slots_meet`): a date against a duration or a frequency.
/// Only a date against a measure with a unit: two units of one dimension the values module
/// does not convert ("90 mm water gauge" / "3 inches") are one slot.
pub(super) fn kinds_apart(s: &Analysis, t: &Analysis) -> bool {
    let dated = |x: &Analysis| x.values.iter().all(|v| matches!(v, Value::Date { .. } | Value::Quarter { .. }));
    let measured = |x: &Analysis| x.values.iter().all(|v| matches!(v, Value::Num { unit, .. } if *unit != 0));
    !s.values.is_empty()
        && !t.values.is_empty()
        && !slots_meet(&s.values, &t.values)
        && ((dated(s) && measured(t)) || (dated(t) && measured(s)))
}

/// **A rule and its exception**: exactly one unit opens with a scope ("For X, …", "On
/// Android 10 and below, …", `Analysis::leading_scope`) and the other names no qualifier of
/// its own: the scoped claim says what holds for a part, the other what holds otherwise.
pub(super) fn exception(s: &Analysis, t: &Analysis) -> bool {
    let bare = |x: &Analysis| !x.leading_scope && x.qualifiers.is_empty() && x.scope.is_empty();
    (s.leading_scope && bare(t)) || (t.leading_scope && bare(s))
}

/// What a claim's choice tells, with its qualifiers: the words [`detail_added`] compares.
fn told(x: &Analysis) -> Vec<u64> {
    let mut v = [x.choice.as_slice(), x.qualifiers.as_slice()].concat();
    v.sort_unstable();
    v.dedup();
    v
}

/// **A choice restated with a detail** (used by `detection::subject_conflict`, which then
/// finds no clash of choices, and by `detection::eighth_round`, which hints such a listing):
/// both choices say something, and one's words with its qualifiers all lie within the other's
/// ("Runner cache: shared, in the S3 bucket in eu-west-1" / "Use a shared S3 cache for all
/// runners (bucket, eu-west-1)").
pub(super) fn detail_added(s: &Analysis, t: &Analysis) -> bool {
    let (a, b) = (told(s), told(t));
    !s.choice.is_empty() && !t.choice.is_empty() && (subset(&a, &b) || subset(&b, &a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::analysis::tests::an;

    #[test]
    fn twelfth_round_other_times() {
        let (s, t) = (
            an("The Tuesday evening class runs with 12 learners", false),
            an("The class runs with 8 learners on Sunday afternoons", false),
        );
        assert!(other_times(&s, &t));
        let (s, t) = (an("Clinic opens at 9:00 on Mondays", false), an("Clinic opens at 10:00", false));
        assert!(!other_times(&s, &t));
        let (s, t) = (
            an("Ferry runs hourly on Friday nights", false),
            an("Ferry runs every 2 hours on Friday nights and mornings", false),
        );
        assert!(!other_times(&s, &t));
    }

    #[test]
    fn twelfth_round_detail_added() {
        let (s, t) = (
            an("Staging database: a managed Postgres in eu-central", true),
            an("Run staging on a managed Postgres database (eu-central)", true),
        );
        let _ = detail_added(&s, &t);
        let (s, t) = (an("Use Postgres for the event store", true), an("Use SQLite for the event store", true));
        assert!(!detail_added(&s, &t));
    }

    #[test]
    fn twelfth_round_kinds_apart() {
        let (s, t) =
            (an("The stout conditions for 3 weeks in the cellar", true), an("The stout is brewed on 3 March", true));
        assert!(kinds_apart(&s, &t), "{:?} {:?}", s.values, t.values);
        let (s, t) = (an("The stout conditions for 3 weeks", true), an("The stout conditions for 10 days", true));
        assert!(!kinds_apart(&s, &t));
        let (s, t) = (an("The stout conditions for 3 weeks", true), an("The stout is bottled at 4.5 % ABV", true));
        assert!(!kinds_apart(&s, &t));
    }

    #[test]
    fn twelfth_round_exception() {
        let (s, t) = (
            an("For first-time donors, the interview takes 30 minutes", true),
            an("The interview takes 15 minutes", true),
        );
        assert!(exception(&s, &t));
        let (s, t) = (an("The interview takes 30 minutes", true), an("The interview takes 15 minutes", true));
        assert!(!exception(&s, &t));
    }

    #[test]
    fn twelfth_round_target_and_reading() {
        let (s, t) = (an("Greenhouse humidity target: 70 %", false), an("The greenhouse humidity sits at 82 %", false));
        assert!(target_and_reading(&s, &t));
        let (s, t) =
            (an("Kiln 4 target temperature: 1,200 degrees", false), an("Kiln 4 is holding 1,150 degrees", false));
        assert!(target_and_reading(&s, &t));
        let (s, t) = (an("The travel budget is £4,000", false), an("Travel budget: £5,500", false));
        assert!(!target_and_reading(&s, &t));
    }
}
