//! Resolutions: what the user's choices do to the claims in conflict — which source claims are
//! dropped, kept after the target's claims, or put in a target claim's place, and which custom
//! texts replace a target claim.
//!
//! What it is for: [`Fate`], filled by `merge` from the resolved conflicts and read by
//! `render`.
//!
//! What it is not for: validating resolutions (unknown ids, double resolutions, custom
//! statuses and next actions are checked by `merge`) or writing the converged state (`render`).

use super::types::Choice;
use crate::maps::{HashMap, HashSet};

#[derive(Default)]
pub(super) struct Fate {
    /// Source blocks in at least one unresolved conflict: left out.
    pub(super) source_unresolved: HashSet<usize>,
    /// Source blocks in any conflict.
    source_in_conflict: HashSet<usize>,
    /// Source blocks a resolution dropped (keep-target, custom).
    source_dropped: HashSet<usize>,
    /// Source blocks some resolution said keep-both for.
    source_both: HashSet<usize>,
    /// Source blocks already placed at a target claim's position (keep-source).
    source_placed: HashSet<usize>,
    /// Target blocks replaced, with what goes in their place.
    pub(super) replaced: HashMap<usize, Vec<Replacement>>,
}

pub(super) enum Replacement {
    Source(usize),
    Custom(String),
}

impl Fate {
    pub(super) fn apply(&mut self, si: usize, ti: usize, choice: &Choice) {
        self.source_in_conflict.insert(si);
        match choice {
            Choice::KeepTarget => {
                self.source_dropped.insert(si);
            }
            Choice::KeepBoth => {
                self.source_both.insert(si);
            }
            Choice::KeepSource => {
                let r = self.replaced.entry(ti).or_default();
                if self.source_placed.insert(si) {
                    r.push(Replacement::Source(si));
                }
            }
            Choice::Custom(text) => {
                self.source_dropped.insert(si);
                let r = self.replaced.entry(ti).or_default();
                if !text.trim().is_empty() && !r.iter().any(|x| matches!(x, Replacement::Custom(c) if c == text)) {
                    r.push(Replacement::Custom(text.clone()));
                }
            }
        }
    }

    /// Whether a new source block is rendered where it stands (after the target's claims).
    pub(super) fn source_kept(&self, si: usize) -> bool {
        if !self.source_in_conflict.contains(&si) {
            return !self.source_unresolved.contains(&si);
        }
        self.source_both.contains(&si)
            && !self.source_unresolved.contains(&si)
            && !self.source_dropped.contains(&si)
            && !self.source_placed.contains(&si)
    }
}
