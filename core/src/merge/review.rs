//! The claims a merge changes, and the pairs of them a reviewer flags (issue 19, eleventh
//! round: the agent names what the rules did not pair).
//!
//! Ten rounds of rules reach most contradictions, but on fresh sets some are reached only
//! through an unrelated pair of the same two states: the listed pair is honestly compatible and
//! the contradicting claims were never paired. A reviewer reading both states can name them.
//! So the plan lists the **changed claims** — the target's claims the source does not have, and
//! the source's claims the merge adds (not duplicates the merge folds) — each with a stable id
//! ([`claim_id`]), and `merge` takes **flagged pairs** (a changed target claim, a changed source
//! claim, a reason), each a `flagged-by-reviewer` conflict, certainty `possible`, resolved like
//! any other conflict.
//!
//! What it is for: [`changed_claims`] and [`flagged_conflicts`], run by `merge` after detection.
//!
//! What it is not for: detecting anything (no rule changes: a flagged pair is the reviewer's
//! judgement), choosing which changed claims a surface shows (the host caps the list; the
//! `related` score ranks them), or resolutions (`merge`, `resolution`).

use super::analysis::Scratch;
use super::claims::{DECISIONS, Doc, Sections};
use super::detection::{Found, block_stems, eligible};
use super::ids::claim_id;
use super::types::{Certainty, ChangedClaim, ConflictKind, FlaggedPair, MergeError};
use crate::hash::fnv64;
use crate::maps::{HashMap, KeySet};

/// The changed claims of one side: `blocks` (that side's claims the other lacks, in reading
/// order) that are claims at all (items and paragraphs outside the preamble and Next Steps), with
/// how many of their content stems the other side's changed claims share (`related`).
pub(super) fn changed_claims(
    doc: &Doc,
    blocks: &[usize],
    target: bool,
    secs: &Sections,
    other: &KeySet<u64>,
) -> Vec<ChangedClaim> {
    blocks
        .iter()
        .filter(|&&b| eligible(&doc.blocks[b]))
        .map(|&b| {
            let block = &doc.blocks[b];
            let section = &secs.names[block.sec];
            let side = doc.side(block);
            ChangedClaim {
                id: claim_id(target, section, block.key),
                section: section.clone(),
                text: side.text,
                line: side.line,
                related: block_stems(doc, b).iter().filter(|s| other.contains(s)).count() as u32,
            }
        })
        .collect()
}

/// Every content stem of `blocks` (the changed claims of one side).
pub(super) fn stems_of(doc: &Doc, blocks: &[usize]) -> KeySet<u64> {
    let mut out = KeySet::default();
    for &b in blocks {
        if eligible(&doc.blocks[b]) {
            out.extend(block_stems(doc, b));
        }
    }
    out
}

/// The changed claims of one side, each with its block index.
pub(super) type Indexed = [(ChangedClaim, usize)];

/// The conflicts of the reviewer's `flagged` pairs. `changed` are the changed claims of each
/// side (target, source) with their block index. A pair that names an unknown claim, two
/// claims of one side, or no reason is `invalid-input` naming the valid ids; a pair already
/// listed by `found` (a conflict on the same two claims) or flagged twice adds nothing.
pub(super) fn flagged_conflicts(
    flagged: &[FlaggedPair],
    t: &Doc,
    s: &Doc,
    changed: (&Indexed, &Indexed),
    found: &[Found],
    scratch: &mut Scratch,
) -> Result<Vec<Found>, MergeError> {
    let (ct, cs) = changed;
    let index = |list: &[(ChangedClaim, usize)]| -> HashMap<String, usize> {
        list.iter().map(|(c, b)| (c.id.clone(), *b)).collect()
    };
    let (by_t, by_s) = (index(ct), index(cs));
    let valid = || {
        let ids = |list: &[(ChangedClaim, usize)]| {
            if list.is_empty() {
                "none".to_string()
            } else {
                list.iter().map(|(c, _)| c.id.as_str()).collect::<Vec<_>>().join(", ")
            }
        };
        format!("valid target claims: {}; valid source claims: {}", ids(ct), ids(cs))
    };
    let mut out: Vec<Found> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for f in flagged {
        let pair = format!("({}, {})", f.target_claim, f.source_claim);
        let (ti, si) = match (by_t.get(f.target_claim.trim()), by_s.get(f.source_claim.trim())) {
            (Some(&ti), Some(&si)) => (ti, si),
            _ => {
                let one_side = (by_t.contains_key(f.target_claim.trim()) && by_t.contains_key(f.source_claim.trim()))
                    || (by_s.contains_key(f.target_claim.trim()) && by_s.contains_key(f.source_claim.trim()));
                let swapped = by_s.contains_key(f.target_claim.trim()) && by_t.contains_key(f.source_claim.trim());
                let why = if one_side {
                    "names two claims of one side; a pair is one target claim and one source claim".to_string()
                } else if swapped {
                    "names the source claim as target and the target claim as source".to_string()
                } else {
                    let unknown: Vec<&str> = [f.target_claim.trim(), f.source_claim.trim()]
                        .into_iter()
                        .filter(|id| !by_t.contains_key(*id) && !by_s.contains_key(*id))
                        .collect();
                    format!("names claim id(s) this merge does not change: {}", unknown.join(", "))
                };
                return Err(MergeError::InvalidInput(format!("flagged pair {pair} {why}; {}", valid())));
            }
        };
        if f.reason.trim().is_empty() {
            return Err(MergeError::InvalidInput(format!(
                "flagged pair {pair} has no reason; say in one line why the two claims cannot both hold"
            )));
        }
        if pairs.contains(&(si, ti)) || found.iter().any(|c| c.pairs.contains(&(si, ti))) {
            continue;
        }
        pairs.push((si, ti));
        let (tb, sb) = (&t.blocks[ti], &s.blocks[si]);
        let subject = subject(t, ti, scratch).or_else(|| subject(s, si, scratch)).unwrap_or_else(|| {
            t.own_parts(tb).collect::<Vec<_>>().join(" ").split_whitespace().take(6).collect::<Vec<_>>().join(" ")
        });
        out.push(Found {
            kind: ConflictKind::FlaggedByReviewer,
            key: fnv64(b"flagged"),
            subject,
            source: s.side(sb),
            target: t.side(tb),
            norms: (sb.key, tb.key),
            pairs: vec![(si, ti)],
            order: (4, t.lines[tb.start].0, s.lines[sb.start].0),
            certainty: Certainty::Possible,
            hint: None,
            strength: u32::MAX,
            units: None,
        });
    }
    Ok(out)
}

/// The subject the rules read in a claim's first clause, if any.
fn subject(doc: &Doc, b: usize, scratch: &mut Scratch) -> Option<String> {
    let block = &doc.blocks[b];
    let shown = scratch.analyse(doc.own_parts(block), block.sec == DECISIONS, true);
    Some(shown.subject_display).filter(|s| !s.trim().is_empty())
}
