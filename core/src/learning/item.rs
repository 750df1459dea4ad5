//! MCQ item quality (ARCHITECTURE §11) and the display order of an item's choices.
//!
//! [`check_item`] returns one finding per broken rule (line 0): an `error` refuses the item
//! (the agent rewrites it), a `warning` is recorded and the item is still asked; no error means
//! the item may be asked. The structural rules below are all errors; the item-writing flaws
//! (negative stems, combination options, absolute terms, vague qualifiers, stem cues,
//! convergence, grammar cues, short distractors) are in [`super::flaws`], with their
//! severities. The structural rules, with their codes:
//!
//! - `empty-unit-id`, `empty-prompt`: the item names its unit and asks something.
//! - `choice-count`: [`MIN_CHOICES`]`..=`[`MAX_CHOICES`] choices (3–5).
//! - `empty-choice-id`, `duplicate-choice-id`: choice ids are non-empty and unique.
//! - `correct-choice-missing`: the correct id is one of the choices.
//! - `empty-choice-text`, `missing-rationale`: every choice has text and its own explanation
//!   (§11: each choice has an explanation), one finding per choice.
//! - `duplicate-choice-text`: two choices say the same thing (compared lowercased, whitespace
//!   collapsed, trailing punctuation dropped).
//! - `all-or-none-of-the-above`: "all/none of the above" and its variants ("all of these",
//!   "both of the above", ...) test elimination, not reasoning, and break under shuffling.
//! - `correct-choice-longest`: the correct choice is conspicuously the longest — more than
//!   [`LONGEST_RATIO`] times *and* more than [`LONGEST_MARGIN_CHARS`] characters longer than
//!   the longest distractor (characters of the trimmed text). Both conditions, so short
//!   choices (a 10-character answer against 5-character distractors) and long ones that are
//!   only somewhat longer pass.
//! - `missing-evidence`, `invalid-evidence`: at least one evidence ref (§11: questions are
//!   implementation-aware), each with a path and `1 <= start-line <= end-line`.
//!
//! [`shuffle_choices`] orders choices deterministically (seeded by the question id) and puts
//! the correct one in a position used least so far in the session (the seed picks among
//! ties), so the correct position is balanced without a fixed rotation: when every question
//! has the same number of choices `n`, the counts per position differ by at most one after
//! every question; with mixed counts, each question still takes a least-used position among
//! its own. The price of strict balance: the last question of each round of `n` has one
//! least-used position left — a cue only for a learner who tracks positions across a round.
//!
//! Not for: judging whether distractors are plausible misconceptions or the prompt is
//! grounded — that is the agent's and the evaluator's judgment; these are the mechanical
//! checks that can be made without it.

use crate::distill::{Finding, Severity};

use super::identity::{fnv1a64, normalise};
use super::types::{EvidenceRef, LearningError, QuestionIntent, invalid};

pub const MIN_CHOICES: usize = 3;
pub const MAX_CHOICES: usize = 5;
/// `correct-choice-longest` needs the correct text longer than this many times the longest
/// distractor...
pub const LONGEST_RATIO: f64 = 1.5;
/// ... and longer by more than this many characters.
pub const LONGEST_MARGIN_CHARS: usize = 20;

/// Phrases that make a choice depend on the others.
const ABOVE_PHRASES: [&str; 8] = [
    "all of the above",
    "none of the above",
    "all the above",
    "none the above",
    "all of these",
    "none of these",
    "both of the above",
    "neither of the above",
];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    pub id: String,
    pub text: String,
    pub rationale: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McqItem {
    pub unit_id: String,
    pub prompt: String,
    pub choices: Vec<Choice>,
    pub correct_choice_id: String,
    pub intent: QuestionIntent,
    pub evidence: Vec<EvidenceRef>,
}

fn finding(code: &'static str, message: String) -> Finding {
    Finding { code, severity: Severity::Error, line: 0, message }
}

/// Lowercase, whitespace collapsed, trailing punctuation dropped.
fn comparable(text: &str) -> String {
    normalise(text).trim_end_matches(['.', '!', '?', ';', ':', ',']).trim_end().to_string()
}

/// Lowercase words only (punctuation as spaces), padded with spaces for whole-word search.
fn words(text: &str) -> String {
    let spaced: String = text.chars().map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { ' ' }).collect();
    format!(" {} ", spaced.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Check one item (see the module doc for the rules).
pub fn check_item(item: &McqItem) -> Vec<Finding> {
    let mut out = Vec::new();
    if item.unit_id.trim().is_empty() {
        out.push(finding("empty-unit-id", "the item names no unit".into()));
    }
    if item.prompt.trim().is_empty() {
        out.push(finding("empty-prompt", "the prompt is empty".into()));
    }
    let n = item.choices.len();
    if !(MIN_CHOICES..=MAX_CHOICES).contains(&n) {
        out.push(finding("choice-count", format!("{n} choices; an item has {MIN_CHOICES} to {MAX_CHOICES}")));
    }
    let mut seen_ids: Vec<&str> = Vec::new();
    let mut seen_texts: Vec<(String, &str)> = Vec::new();
    for (i, c) in item.choices.iter().enumerate() {
        let name = if c.id.trim().is_empty() { format!("choice {}", i + 1) } else { format!("choice `{}`", c.id) };
        if c.id.trim().is_empty() {
            out.push(finding("empty-choice-id", format!("{name} has an empty id")));
        } else if seen_ids.contains(&c.id.as_str()) {
            out.push(finding("duplicate-choice-id", format!("{name} appears more than once")));
        } else {
            seen_ids.push(&c.id);
        }
        if c.text.trim().is_empty() {
            out.push(finding("empty-choice-text", format!("{name} has no text")));
        } else {
            let key = comparable(&c.text);
            if let Some((_, first)) = seen_texts.iter().find(|(t, _)| *t == key) {
                out.push(finding("duplicate-choice-text", format!("{name} says the same as choice `{first}`")));
            } else {
                seen_texts.push((key, &c.id));
            }
            let w = words(&c.text);
            if let Some(p) = ABOVE_PHRASES.iter().find(|p| w.contains(&format!(" {p} "))) {
                out.push(finding(
                    "all-or-none-of-the-above",
                    format!(
                        "{name} is \"{p}\": it tests elimination, not reasoning, and breaks when choices are shuffled"
                    ),
                ));
            }
        }
        if c.rationale.trim().is_empty() {
            out.push(finding(
                "missing-rationale",
                format!("{name} has no rationale explaining why it is right or wrong"),
            ));
        }
    }
    match item.choices.iter().find(|c| c.id == item.correct_choice_id) {
        None => out.push(finding(
            "correct-choice-missing",
            format!("the correct choice id `{}` is not one of the choices", item.correct_choice_id),
        )),
        Some(correct) => {
            let len = |c: &Choice| c.text.trim().chars().count();
            let longest_distractor = item.choices.iter().filter(|c| c.id != correct.id).map(len).max();
            if let Some(d) = longest_distractor {
                let c = len(correct);
                if c as f64 > LONGEST_RATIO * d as f64 && c > d + LONGEST_MARGIN_CHARS {
                    out.push(finding(
                        "correct-choice-longest",
                        format!(
                            "the correct choice ({c} characters) is conspicuously longer than every distractor (longest \
                             {d}): length gives the answer away"
                        ),
                    ));
                }
            }
        }
    }
    let options: Vec<(&str, &str)> = item.choices.iter().map(|c| (c.id.as_str(), c.text.as_str())).collect();
    let key = item.choices.iter().position(|c| c.id == item.correct_choice_id).unwrap_or(usize::MAX);
    out.extend(super::flaws::check(&item.prompt, &options, key));
    if item.evidence.is_empty() {
        out.push(finding("missing-evidence", "the item cites no evidence from the implementation".into()));
    }
    for (i, e) in item.evidence.iter().enumerate() {
        if e.path.trim().is_empty() || e.start_line == 0 || e.start_line > e.end_line {
            out.push(finding(
                "invalid-evidence",
                format!("evidence ref {} ({e}) needs a path and 1 <= start-line <= end-line", i + 1),
            ));
        }
    }
    out
}

/// SplitMix64: a small, well-mixed deterministic sequence.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform enough in `0..n` for n <= 5 (bias below 2^-60).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Display order for `choice_count` choices whose correct one is at `correct_index`: input
/// indices, position by position. The correct choice goes to a position least used among
/// `previous_positions` (positions `>= choice_count` are ignored), the seed picking among
/// ties; the distractors are Fisher–Yates shuffled with the same seed.
pub fn shuffle_order(
    question_id: &str,
    choice_count: usize,
    correct_index: usize,
    previous_positions: &[u32],
) -> Vec<usize> {
    let mut rng = SplitMix(fnv1a64(question_id.as_bytes()));
    let mut counts = vec![0usize; choice_count];
    for &p in previous_positions {
        if let Some(c) = counts.get_mut(p as usize) {
            *c += 1;
        }
    }
    let least = counts.iter().copied().min().unwrap_or(0);
    let candidates: Vec<usize> = (0..choice_count).filter(|&p| counts[p] == least).collect();
    let mut distractors: Vec<usize> = (0..choice_count).filter(|&i| i != correct_index).collect();
    for i in (1..distractors.len()).rev() {
        let j = rng.below(i + 1);
        distractors.swap(i, j);
    }
    if correct_index >= choice_count {
        return distractors;
    }
    let position = candidates[rng.below(candidates.len())];
    distractors.insert(position, correct_index);
    distractors
}

/// [`shuffle_order`] for an item's choices, by the correct choice's id. Call it on an item that
/// passed [`check_item`]; fails when there are no choices, or the correct id is not exactly one
/// of them.
pub fn shuffle_choices(
    question_id: &str,
    choices: &[Choice],
    correct_choice_id: &str,
    previous_positions: &[u32],
) -> Result<Vec<usize>, LearningError> {
    let matching: Vec<usize> =
        choices.iter().enumerate().filter(|(_, c)| c.id == correct_choice_id).map(|(i, _)| i).collect();
    match matching.as_slice() {
        [correct] => Ok(shuffle_order(question_id, choices.len(), *correct, previous_positions)),
        [] => Err(invalid(format!("the correct choice id `{correct_choice_id}` is not one of the choices"))),
        _ => Err(invalid(format!("the correct choice id `{correct_choice_id}` appears more than once"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_pad_for_whole_word_matches() {
        assert_eq!(words("All of the above!"), " all of the above ");
        assert!(!words("Recall of the above-mentioned cache").contains(" all of the above "));
    }

    #[test]
    fn shuffle_is_a_permutation_and_deterministic() {
        let order = shuffle_order("q-1", 4, 2, &[]);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3]);
        assert_eq!(order, shuffle_order("q-1", 4, 2, &[]));
        let differs = (0..20).any(|k| shuffle_order(&format!("q-{k}"), 5, 0, &[]) != order_for(5));
        assert!(differs, "the seed changes the order");
    }

    fn order_for(n: usize) -> Vec<usize> {
        shuffle_order("q-1", n, 0, &[])
    }

    #[test]
    fn correct_goes_to_the_least_used_position() {
        let order = shuffle_order("q-9", 3, 1, &[0, 1, 0, 1, 2, 0]);
        assert_eq!(order.iter().position(|&i| i == 1), Some(2));
    }
}
