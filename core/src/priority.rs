//! Priority scoring and open-work ordering (SPEC §11.1).
//!
//! The score is an Eisenhower quadrant, 1 (highest priority) to 4. Which quadrant ranks
//! second is what the configurable [`Weights`] decide; the score is always 1..=4.
//!
//! Not here: reading frontmatter, computing staleness, or formatting — the host does that.

/// Importance or urgency; the SPEC allows exactly two values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    High,
    Low,
}

/// Milliseconds since the Unix epoch, UTC.
pub type Timestamp = i64;

const DAY_MS: i64 = 86_400_000;

/// The part of a Dossier's frontmatter that priority reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriorityInput {
    pub importance: Level,
    pub urgency: Level,
    pub due_date: Option<Timestamp>,
    pub last_touched_at: Timestamp,
    pub updated_at: Timestamp,
}

/// How the two dimensions trade off.
///
/// A quadrant's *cost* is `importance` when importance is low plus `urgency` when urgency
/// is low; the score is the quadrant's dense rank by cost (1 = cheapest). The defaults
/// (importance 2, urgency 1) give the SPEC's matrix: high/high 1 "Do", high/low 2 "Plan",
/// low/high 3 "Delegate", low/low 4 "Delete". Raising `urgency` above `importance` puts
/// urgent work ahead of important work; equal weights tie high/low with low/high.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub importance: u32,
    pub urgency: u32,
    /// When set, a due date at most this many days after `now` (or already past) makes the
    /// Dossier count as urgent. Unset, due dates do not change the score.
    pub due_window_days: Option<u32>,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { importance: 2, urgency: 1, due_window_days: None }
    }
}

/// One entry of a sorted list: the index of the input item and its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranked {
    pub index: u32,
    pub score: u8,
}

/// The urgency priority actually uses, after the due-date window.
fn effective_urgency(item: &PriorityInput, now: Timestamp, weights: &Weights) -> Level {
    match (item.urgency, item.due_date, weights.due_window_days) {
        (Level::Low, Some(due), Some(days)) if due <= now.saturating_add(i64::from(days) * DAY_MS) => Level::High,
        (urgency, _, _) => urgency,
    }
}

fn cost(importance: Level, urgency: Level, weights: &Weights) -> u64 {
    let i = if importance == Level::Low { u64::from(weights.importance) } else { 0 };
    let u = if urgency == Level::Low { u64::from(weights.urgency) } else { 0 };
    i + u
}

/// The Eisenhower score, 1..=4, of one Dossier.
pub fn score(item: &PriorityInput, now: Timestamp, weights: &Weights) -> u8 {
    let own = cost(item.importance, effective_urgency(item, now, weights), weights);
    let mut cheaper: Vec<u64> =
        [(Level::High, Level::High), (Level::High, Level::Low), (Level::Low, Level::High), (Level::Low, Level::Low)]
            .iter()
            .map(|&(i, u)| cost(i, u, weights))
            .filter(|&c| c < own)
            .collect();
    cheaper.sort_unstable();
    cheaper.dedup();
    // At most three distinct cheaper costs exist, so this is 1..=4.
    1 + cheaper.len() as u8
}

/// Score every item and order them: ascending score, then oldest `last_touched_at`, then
/// oldest `updated_at`, then input order (the sort is stable).
pub fn sort(items: &[PriorityInput], now: Timestamp, weights: &Weights) -> Vec<Ranked> {
    let mut ranked: Vec<(Ranked, Timestamp, Timestamp)> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let r = Ranked { index: i as u32, score: score(item, now, weights) };
            (r, item.last_touched_at, item.updated_at)
        })
        .collect();
    ranked.sort_by_key(|(r, touched, updated)| (r.score, *touched, *updated));
    ranked.into_iter().map(|(r, _, _)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Level::{High as H, Low as L};

    fn item(importance: Level, urgency: Level, touched: i64, updated: i64) -> PriorityInput {
        PriorityInput { importance, urgency, due_date: None, last_touched_at: touched, updated_at: updated }
    }

    #[test]
    fn default_weights_are_the_spec_matrix() {
        let w = Weights::default();
        assert_eq!(score(&item(H, H, 0, 0), 0, &w), 1);
        assert_eq!(score(&item(H, L, 0, 0), 0, &w), 2);
        assert_eq!(score(&item(L, H, 0, 0), 0, &w), 3);
        assert_eq!(score(&item(L, L, 0, 0), 0, &w), 4);
    }

    #[test]
    fn urgency_heavier_than_importance_swaps_plan_and_delegate() {
        let w = Weights { importance: 1, urgency: 2, due_window_days: None };
        assert_eq!(score(&item(H, H, 0, 0), 0, &w), 1);
        assert_eq!(score(&item(L, H, 0, 0), 0, &w), 2);
        assert_eq!(score(&item(H, L, 0, 0), 0, &w), 3);
        assert_eq!(score(&item(L, L, 0, 0), 0, &w), 4);
    }

    #[test]
    fn equal_weights_tie_the_middle_quadrants() {
        let w = Weights { importance: 1, urgency: 1, due_window_days: None };
        assert_eq!(score(&item(H, L, 0, 0), 0, &w), 2);
        assert_eq!(score(&item(L, H, 0, 0), 0, &w), 2);
        assert_eq!(score(&item(L, L, 0, 0), 0, &w), 3);
    }

    #[test]
    fn zero_weights_make_everything_equal() {
        let w = Weights { importance: 0, urgency: 0, due_window_days: None };
        for (i, u) in [(H, H), (H, L), (L, H), (L, L)] {
            assert_eq!(score(&item(i, u, 0, 0), 0, &w), 1);
        }
    }

    #[test]
    fn due_window_makes_a_near_due_date_urgent() {
        let w = Weights { due_window_days: Some(3), ..Weights::default() };
        let now = 100 * DAY_MS;
        let mut it = item(H, L, 0, 0);
        it.due_date = Some(now + 3 * DAY_MS);
        assert_eq!(score(&it, now, &w), 1, "due inside the window counts as urgent");
        it.due_date = Some(now - DAY_MS);
        assert_eq!(score(&it, now, &w), 1, "overdue counts as urgent");
        it.due_date = Some(now + 3 * DAY_MS + 1);
        assert_eq!(score(&it, now, &w), 2, "just outside the window does not");
        let no_window = Weights::default();
        it.due_date = Some(now);
        assert_eq!(score(&it, now, &no_window), 2, "without a window due dates are ignored");
    }

    #[test]
    fn sort_orders_by_score_then_oldest_touch_then_oldest_update() {
        let items = [
            item(L, L, 1, 1),   // 0: score 4
            item(H, L, 50, 9),  // 1: score 2, touched late
            item(H, L, 10, 9),  // 2: score 2, touched early
            item(H, H, 99, 99), // 3: score 1
            item(H, L, 10, 3),  // 4: score 2, touched early, updated earlier than 2
        ];
        let order: Vec<u32> = sort(&items, 0, &Weights::default()).iter().map(|r| r.index).collect();
        assert_eq!(order, vec![3, 4, 2, 1, 0]);
    }

    #[test]
    fn sort_is_stable_for_full_ties() {
        let items = [item(H, H, 5, 5), item(H, H, 5, 5), item(H, H, 5, 5)];
        let order: Vec<u32> = sort(&items, 0, &Weights::default()).iter().map(|r| r.index).collect();
        assert_eq!(order, vec![0, 1, 2]);
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn level() -> impl Strategy<Value = Level> {
            prop_oneof![Just(H), Just(L)]
        }

        fn input() -> impl Strategy<Value = PriorityInput> {
            (level(), level(), proptest::option::of(-1_000i64..1_000), -1_000i64..1_000, -1_000i64..1_000).prop_map(
                |(importance, urgency, due_date, last_touched_at, updated_at)| PriorityInput {
                    importance,
                    urgency,
                    due_date,
                    last_touched_at,
                    updated_at,
                },
            )
        }

        fn weights() -> impl Strategy<Value = Weights> {
            (0u32..5, 0u32..5, proptest::option::of(0u32..3))
                .prop_map(|(importance, urgency, due_window_days)| Weights { importance, urgency, due_window_days })
        }

        proptest! {
            #[test]
            fn score_is_always_one_to_four(it in input(), now in -1_000i64..1_000, w in weights()) {
                let s = score(&it, now, &w);
                prop_assert!((1..=4).contains(&s));
            }

            #[test]
            fn sort_is_a_sorted_permutation(items in proptest::collection::vec(input(), 0..40), now in -1_000i64..1_000, w in weights()) {
                let out = sort(&items, now, &w);
                let mut seen: Vec<u32> = out.iter().map(|r| r.index).collect();
                seen.sort_unstable();
                prop_assert_eq!(seen, (0..items.len() as u32).collect::<Vec<_>>());
                for pair in out.windows(2) {
                    let (a, b) = (&items[pair[0].index as usize], &items[pair[1].index as usize]);
                    let ka = (pair[0].score, a.last_touched_at, a.updated_at);
                    let kb = (pair[1].score, b.last_touched_at, b.updated_at);
                    prop_assert!(ka <= kb);
                    if ka == kb { prop_assert!(pair[0].index < pair[1].index); }
                }
            }

            #[test]
            fn high_high_is_never_behind_low_low(w in weights(), now in -10i64..10) {
                let hh = score(&item(H, H, 0, 0), now, &w);
                let ll = score(&item(L, L, 0, 0), now, &w);
                prop_assert!(hh <= ll);
            }
        }
    }
}
