//! Detection: which disagreements between the two sides are conflicts — the lifecycle table,
//! divergent next actions, and claim conflicts (contradictory decisions, incompatible values)
//! found through subject and word-set indexes, so only claims sharing a key are compared.
//!
//! What it is for: [`lifecycle`], [`material_next_action`] (public), [`detect_claims`] and the
//! [`Found`] conflicts before ids and grouping. Only a new source claim can conflict, and only
//! with a target claim.
//!
//! What it is not for: ids (`ids`), applying resolutions (`resolution`) or judging which side is
//! right.

use super::analysis::{Analysis, Scratch};
use super::claims::{Block, CURRENT_STATE, DECISIONS, Doc, FINDINGS, Kind, NEXT_STEPS, PREAMBLE};
use super::ids::norm_hash;
use super::tokens::words_key;
use super::types::{Certainty, ConflictKind, ConflictSide, Status};
use super::values::{values_agree, values_incompatible};
use crate::maps::{KeyMap, KeySet};

/// The lifecycle compatibility table. `None` means incompatible (a conflict); otherwise the
/// converged status.
///
/// | source \ target | open (`active`, `waiting`, `blocked`) | closed (`resolved`, `archived`) |
/// |---|---|---|
/// | open | compatible: the more restrictive, `blocked` > `waiting` > `active` | **conflict** |
/// | closed | **conflict** | compatible: the target's |
///
/// Equal statuses are always compatible. Open vs closed is a conflict because one side says
/// the work goes on and the other that it is over; which is true after the merge is the
/// user's call. Among open states, a merged Dossier is blocked if either part is blocked
/// (the blocker's claims come along), else waiting if either waits.
pub fn lifecycle(source: Status, target: Status) -> Option<Status> {
    if source == target {
        return Some(target);
    }
    match (source.is_open(), target.is_open()) {
        (true, true) => {
            let rank = |s: Status| match s {
                Status::Blocked => 2,
                Status::Waiting => 1,
                _ => 0,
            };
            Some(if rank(source) > rank(target) { source } else { target })
        }
        (false, false) => Some(target),
        _ => None,
    }
}

/// A side's next action: its frontmatter `next_action`, or when that is empty the first item
/// of its `## Next Steps` (with that item's line).
pub(super) fn effective_next_action(next_action: &str, doc: &Doc) -> (String, u32) {
    if !next_action.trim().is_empty() {
        return (next_action.trim().to_string(), 0);
    }
    match doc.blocks.iter().find(|b| b.sec == NEXT_STEPS && matches!(b.kind, Kind::Item | Kind::Paragraph)) {
        Some(b) => (doc.own_parts(b).collect::<Vec<_>>().join(" "), doc.lines[b.start].0),
        None => (String::new(), 0),
    }
}

/// Whether two next actions differ materially (a conflict): neither is empty, they are not
/// equal after normalisation, and neither restates the other — unless their typed values are
/// incompatible ("by June 30" / "by July 14") or one is negated and the other not, a next
/// action whose core words (content words without link verbs and value-type nouns) are all
/// among the other's is a restatement (a more detailed one), not a conflict. Any other pair
/// is the user's choice: a merged Dossier has one next action.
pub fn material_next_action(source: &str, target: &str) -> bool {
    if source.trim().is_empty() || target.trim().is_empty() || norm_hash(source) == norm_hash(target) {
        return false;
    }
    let mut scratch = Scratch::default();
    let a = scratch.analyse([source].into_iter(), false, false);
    let b = scratch.analyse([target].into_iter(), false, false);
    if values_incompatible(&a.values, &b.values) || a.negated != b.negated {
        return true;
    }
    let (wa, wb) = (&a.core_words, &b.core_words);
    !(subset(wa, wb) || subset(wb, wa))
}

/// A detected disagreement before ids and grouping.
pub(super) struct Found {
    pub(super) kind: ConflictKind,
    /// Hash of the normalised subject (bucket key), part of the id.
    pub(super) key: u64,
    pub(super) subject: String,
    pub(super) source: ConflictSide,
    pub(super) target: ConflictSide,
    /// Hashes of both claims' normalised texts.
    pub(super) norms: (u128, u128),
    /// (source block, target block) pairs this conflict covers (none for status/next action).
    pub(super) pairs: Vec<(usize, usize)>,
    /// Sort key: (group, target line, source line).
    pub(super) order: (u8, u32, u32),
    pub(super) certainty: Certainty,
}

/// Possible tier: a word in more target claims than this is too common to relate two claims
/// (it is not used as shared-word evidence; subjects and head words still are).
const MAX_POSTING: usize = 64;

/// Possible tier: two claims share enough content words when they share at least this many...
const MIN_SHARED: usize = 2;

/// Sections whose claims are compared across sections in the possible tier.
fn cross_section(sec: usize) -> bool {
    matches!(sec, DECISIONS | FINDINGS | CURRENT_STATE)
}

/// The possible tier's relation (docs/merge.md, "Possible conflicts"): two claims, not a
/// certain conflict, are *related* when they are in the same section or both in Decisions,
/// Findings or Current State, their scopes do not rule each other out (scope: the qualifier
/// words after *for*/*in*, in the predicate or the subject; both present and neither
/// containing the other), they do not state the same typed value with the same polarity,
/// neither restates the other (one's core words — content words without link verbs and
/// value-type nouns — all in the other's, with the same polarity), and they share the subject
/// key, or the subject's head word, or at least [`MIN_SHARED`] core words outside the scopes
/// that are at least half of the smaller claim's core words. Returns the shared words
/// (sorted), when related.
pub(super) fn related(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> Option<Vec<u64>> {
    if s_sec != t_sec && !(cross_section(s_sec) && cross_section(t_sec)) {
        return None;
    }
    let scope = |x: &Analysis| {
        let mut q = [&x.qualifiers[..], &x.scope[..]].concat();
        q.sort_unstable();
        q.dedup();
        q
    };
    let (qs, qt) = (scope(s), scope(t));
    if !qs.is_empty() && !qt.is_empty() && !subset(&qs, &qt) && !subset(&qt, &qs) {
        return None;
    }
    if s.negated == t.negated && values_agree(&s.values, &t.values) {
        return None;
    }
    let (a, b) = (&s.core_words, &t.core_words);
    if s.negated == t.negated && (subset(a, b) || subset(b, a)) {
        return None;
    }
    // Scope words are evidence of what a claim is about only together with other words.
    let shared: Vec<u64> = a
        .iter()
        .copied()
        .filter(|w| b.binary_search(w).is_ok() && qs.binary_search(w).is_err() && qt.binary_search(w).is_err())
        .collect();
    let same_subject = s.subject.is_some() && s.subject == t.subject;
    let same_head = s.head != 0 && s.head == t.head;
    let enough = shared.len() >= MIN_SHARED && 2 * shared.len() >= a.len().min(b.len());
    (same_subject || same_head || enough).then_some(shared)
}

/// Blocks whose content can conflict: claims (items and paragraphs) outside the preamble
/// and `Next Steps`.
pub(super) fn eligible(b: &Block) -> bool {
    matches!(b.kind, Kind::Item | Kind::Paragraph) && b.sec != PREAMBLE && b.sec != NEXT_STEPS
}

pub(super) fn detect_claims(
    t: &Doc,
    s: &Doc,
    t_first: &[usize],
    s_new: &[usize],
    scratch: &mut Scratch,
    out: &mut Vec<Found>,
) {
    let mut by_subject: KeyMap<u64, Vec<usize>> = KeyMap::default();
    let mut by_words: KeyMap<u64, Vec<usize>> = KeyMap::default();
    let mut by_head: KeyMap<u64, Vec<usize>> = KeyMap::default();
    let mut by_word: KeyMap<u64, Vec<usize>> = KeyMap::default();
    for &i in t_first {
        let Some(a) = &t.blocks[i].an else { continue };
        if let Some(subj) = a.subject {
            by_subject.entry(subj).or_default().push(i);
        }
        if a.head != 0 {
            by_head.entry(a.head).or_default().push(i);
        }
        if a.pol_key != 0 {
            by_words.entry(a.pol_key).or_default().push(i);
        }
        for &w in &a.core_words {
            by_word.entry(w).or_default().push(i);
        }
    }
    let mut candidates: Vec<usize> = Vec::new();
    let mut pairs_seen: KeySet<(usize, usize)> = KeySet::default();
    for &si in s_new {
        let sb = &s.blocks[si];
        let Some(sa) = &sb.an else { continue };
        let mut hits: Vec<(usize, ConflictKind, u64, bool)> = Vec::new();
        let target_an = |ti: usize| t.blocks[ti].an.as_ref().expect("indexed blocks are analysed");
        if let Some(subj) = sa.subject
            && let Some(tis) = by_subject.get(&subj)
        {
            for &ti in tis {
                if let Some(kind) = subject_conflict(sa, target_an(ti)) {
                    hits.push((ti, kind, subj, true));
                }
            }
        }
        if sa.pol_key != 0
            && let Some(tis) = by_words.get(&sa.pol_key)
        {
            for &ti in tis {
                if let Some(kind) = same_words_conflict(sa, target_an(ti)) {
                    hits.push((ti, kind, sa.pol_key, false));
                }
            }
        }
        for (ti, kind, key, by_subject) in hits {
            if !pairs_seen.insert((si, ti)) {
                continue;
            }
            let tb = &t.blocks[ti];
            // Only conflicts need the words for display.
            let shown = scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true);
            out.push(Found {
                kind,
                key,
                subject: if by_subject { shown.subject_display } else { shown.pol_display },
                source: s.side(sb),
                target: t.side(tb),
                norms: (sb.key, tb.key),
                pairs: vec![(si, ti)],
                order: (2, t.lines[tb.start].0, s.lines[sb.start].0),
                certainty: Certainty::Certain,
            });
        }

        // Possible tier: related target claims that no rule says contradict.
        candidates.clear();
        for index in [(sa.subject, &by_subject), (Some(sa.head).filter(|&h| h != 0), &by_head)] {
            if let (Some(k), map) = index
                && let Some(tis) = map.get(&k)
            {
                candidates.extend_from_slice(tis);
            }
        }
        for w in &sa.core_words {
            if let Some(tis) = by_word.get(w)
                && tis.len() <= MAX_POSTING
            {
                candidates.extend_from_slice(tis);
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        for &ti in &candidates {
            if pairs_seen.contains(&(si, ti)) {
                continue;
            }
            let tb = &t.blocks[ti];
            let Some(shared) = related(sa, target_an(ti), sb.sec, tb.sec) else { continue };
            pairs_seen.insert((si, ti));
            let subject = if shared.is_empty() {
                scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true).subject_display
            } else {
                scratch.shared_display(t.own_parts(tb), &shared)
            };
            let key = if shared.is_empty() { sa.subject.unwrap_or(sa.head) } else { words_key(&shared) };
            out.push(Found {
                kind: ConflictKind::RelatedClaims,
                key,
                subject,
                source: s.side(sb),
                target: t.side(tb),
                norms: (sb.key, tb.key),
                pairs: vec![(si, ti)],
                order: (3, t.lines[tb.start].0, s.lines[sb.start].0),
                certainty: Certainty::Possible,
            });
        }
    }
}

/// Two claims with the same subject key. Not a conflict when both name qualifiers ("for
/// enterprise", "in the EU") and neither's qualifier words contain the other's ("in the EU"
/// vs "in the US", "in the launch region" vs "in the hiring region"): they are about
/// different things. Between two
/// decisions: a conflict when one is negated and the other not, when their choices differ
/// (both non-empty and neither contains the other), or when their typed values are
/// incompatible. Otherwise: a conflict when the typed values are incompatible, or when one is
/// negated and the other not while one's predicate words contain the other's.
pub(super) fn subject_conflict(s: &Analysis, t: &Analysis) -> Option<ConflictKind> {
    if !s.qualifiers.is_empty()
        && !t.qualifiers.is_empty()
        && !subset(&s.qualifiers, &t.qualifiers)
        && !subset(&t.qualifiers, &s.qualifiers)
    {
        return None;
    }
    if s.decision && t.decision {
        let differ = !s.choice.is_empty()
            && !t.choice.is_empty()
            && !subset(&s.choice, &t.choice)
            && !subset(&t.choice, &s.choice);
        if s.negated != t.negated || differ || values_incompatible(&s.values, &t.values) {
            return Some(ConflictKind::ContradictoryDecision);
        }
        return None;
    }
    if values_incompatible(&s.values, &t.values) {
        return Some(ConflictKind::IncompatibleValue);
    }
    if s.negated != t.negated && (subset(&s.choice, &t.choice) || subset(&t.choice, &s.choice)) {
        return Some(ConflictKind::IncompatibleValue);
    }
    None
}

/// Two claims with the same polarity-free word set (same content words once negations and
/// typed values are set aside): a conflict when one is negated and the other not ("We will
/// ship X" / "We will not ship X") or their typed values are incompatible ("churn 3x" /
/// "churn 4x"). Contradictory decision when both are decisions, incompatible value otherwise.
pub(super) fn same_words_conflict(s: &Analysis, t: &Analysis) -> Option<ConflictKind> {
    if s.negated != t.negated || values_incompatible(&s.values, &t.values) {
        Some(if s.decision && t.decision {
            ConflictKind::ContradictoryDecision
        } else {
            ConflictKind::IncompatibleValue
        })
    } else {
        None
    }
}

/// Whether sorted `a` is contained in sorted `b`.
fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().all(|x| b.binary_search(x).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::analysis::tests::an;

    #[test]
    fn documented_examples_hold() {
        let conflict = |s: &str, t: &str, decision: bool| {
            let (a, b) = (an(s, decision), an(t, decision));
            let by_subject = (a.subject.is_some() && a.subject == b.subject).then(|| subject_conflict(&a, &b));
            let by_words = (a.pol_key != 0 && a.pol_key == b.pol_key).then(|| same_words_conflict(&a, &b));
            by_subject.flatten().or(by_words.flatten())
        };
        use ConflictKind::{ContradictoryDecision as D, IncompatibleValue as V};
        assert_eq!(conflict("SSO is required", "SSO is not required for enterprise", false), Some(V));
        assert_eq!(
            conflict("Monthly deals churn 3x annual ones", "Monthly deals churn 4x annual ones", false),
            Some(V)
        );
        assert_eq!(conflict("Headcount: 6 engineers", "Headcount is 5", false), Some(V));
        assert_eq!(conflict("Launch is July 14 in the US", "Launch is July 21 in the EU", false), None);
        assert_eq!(conflict("Use Postgres for the event store", "Use SQLite for the event store", true), Some(D));
        assert_eq!(conflict("Use Postgres for the event store", "Event store: Postgres 16 on RDS", true), None);
        assert_eq!(
            conflict(
                "We will ship the beta to EU customers in Q3",
                "We will not ship the beta to EU customers until the DPA is signed",
                true
            ),
            Some(D)
        );
        assert_eq!(conflict("Launch moved to July 14 (was June 30)", "Launch date: July 14", false), None);
        assert_eq!(conflict("Launch moved from June 30 to July 14", "Launch date: June 30", false), Some(V));
        assert_eq!(conflict("Cap is 25%, not 20%", "Cap: 20%", false), Some(V));
    }

    #[test]
    fn lifecycle_table() {
        use Status::*;
        assert_eq!(lifecycle(Active, Blocked), Some(Blocked));
        assert_eq!(lifecycle(Waiting, Active), Some(Waiting));
        assert_eq!(lifecycle(Resolved, Archived), Some(Archived));
        assert_eq!(lifecycle(Archived, Resolved), Some(Resolved));
        assert_eq!(lifecycle(Active, Resolved), None);
        assert_eq!(lifecycle(Archived, Blocked), None);
    }

    #[test]
    fn next_actions() {
        assert!(!material_next_action(
            "Compare revised pricing scenarios with sales feedback.",
            "Compare pricing scenarios with the sales team's feedback"
        ));
        assert!(material_next_action("Email Sales the revised deck", "Benchmark Postgres replication lag"));
        assert!(material_next_action("Send the deck by June 30", "Send the deck by July 14"));
        assert!(!material_next_action("Send the deck", "Send the deck to Sales by June 30"));
        assert!(!material_next_action("", "Anything"));
        // Opposite verbs on one object share most words: still the user's choice.
        assert!(material_next_action("Raise the API rate limit for the beta", "Lower the API rate limit for the beta"));
        assert!(material_next_action("Ship the Android build to testers", "Hold the Android build for testers"));
        assert!(material_next_action("Don't send the deck", "Send the deck"));
    }
}
