//! Sole counterparts (issue 19, tenth round): where two states differ by one claim of a
//! section on each side, those two claims are compared with each other.
//!
//! Two copies of one Dossier that drifted apart usually differ by a few claims: the claim one
//! side rewrote stands, on the other side, where the other side's version stands. When a
//! section holds exactly one claim on each side that the other side lacks (after duplicates are
//! merged), that pair is the rewritten slot — the same item in other words, or a changed
//! choice ("Mast position: east gable" / "The new mast goes on the west gable"; "Two straight
//! rows along the towpath" / "Use a horseshoe layout"). The other rules often do not relate it
//! at all (a key-value line against a sentence, a choice named without the other's words) or
//! rank it below a pair of other claims that share more words.
//!
//! Two more shapes are one slot whatever else changed: a **question answered in place** on one
//! side ("Which hall for the 14th? The Guildhall") against the other side's new claim sharing
//! most stems with it ([`answered_pairs`]: an Open Question against a statement), and **rival
//! causes**, a new claim on each side of a section stating a cause of one effect
//! ([`rival_causes`]: "The noise comes from the fan" / "The noise is caused by the pump").
//!
//! What it is for: [`sole_counterparts`], run after [`detect_claims`] has decided its listings,
//! adds those pairs as possible conflicts when no listing covers them yet (a sole pair only when
//! it can be one slot, [`slot_shared`], and no certain conflict already involves either claim;
//! never a containment restatement, as the related tier reads one).
//! The compatible hint is the eighth round's class or the compatible filters' reason if one
//! applies, else the class's own ([`H_SOLE`], [`H_ANSWERED`], [`H_CAUSES`]): a reviewer sees both
//! claims side by side, keeping both is the default. It demotes nothing and adds no certain
//! conflict or unhinted one, so no "may contradict" prompt or certain alarm is added; it keeps
//! the cap of [`MAX_LISTED`] possible listings per source claim by taking the place of the
//! claim's weakest hinted listing (counted as unlisted), or not adding the pair when there is
//! none. On the development sets no contradiction located before stops being located
//! (docs/merge.md, "Development sets (tenth round)"); what it costs is listings on compatible
//! pairs.
//!
//! What it is not for: deciding that the two claims contradict (the certain rules), pairs of
//! sections with several new claims on a side (which of them is whose counterpart is the
//! related tier's question), Situation (framing) or Next Steps (the next-action rules).
//!
//! [`detect_claims`]: super::detection::detect_claims

use super::analysis::{Analysis, Scratch};
use super::claims::{CURRENT_STATE, DECISIONS, Doc, FINDINGS, SITUATION};
use super::classes::{change_of, inter, same_words};
use super::detection::{
    Found, MAX_LISTED, block_stems, block_values, compatible_hint, contained_restatement, eighth_round, rank,
    show_the_clash, unit_side,
};
use super::tokens::words_key;
use super::types::{Certainty, ConflictKind};
use super::values::values_clash;
use crate::maps::{KeyMap, KeySet};

/// The hint of a sole counterpart no class explains.
pub(super) const H_SOLE: &str = "the only claim of this section that differs on each side: probably one item rewritten";

/// The hint of a whole-state counterpart ([`whole_state_pair`]) no class explains.
pub(super) const H_WHOLE: &str =
    "the only claim that differs on each side of the whole state: probably one item rewritten";

/// The hint of rival causes no class explains.
pub(super) const H_CAUSES: &str = "a cause stated on each side: both may contribute";

/// The hint of an answered question no class explains.
pub(super) const H_ANSWERED: &str = "a question answered on one side: the other side's claim may give the same answer";

/// A section's new claims on one side: (the last one seen, how many).
type Lone = (usize, usize);

/// The (source block, target block) pairs that are the only new claim of their section on each
/// side: `s_new` are the source's claims the target lacks, `t_first` the target's claims; a
/// target claim counts when no source block of its section has its normalised text.
pub(super) fn sole_pairs(t: &Doc, s: &Doc, t_first: &[usize], s_new: &[usize]) -> Vec<(usize, usize)> {
    let in_source: KeySet<(usize, u128)> = s.blocks.iter().map(|b| (b.sec, b.key)).collect();
    // Per section: (the new claim of each side, how many).
    let mut lone: KeyMap<usize, (Lone, Lone)> = KeyMap::default();
    for &i in s_new {
        let b = &s.blocks[i];
        if b.an.is_some() && b.sec != SITUATION {
            let e = lone.entry(b.sec).or_insert(((0, 0), (0, 0)));
            e.0 = (i, e.0.1 + 1);
        }
    }
    for &i in t_first {
        let b = &t.blocks[i];
        if b.an.is_some() && b.sec != SITUATION && !in_source.contains(&(b.sec, b.key)) {
            let e = lone.entry(b.sec).or_insert(((0, 0), (0, 0)));
            e.1 = (i, e.1.1 + 1);
        }
    }
    let mut out: Vec<(usize, usize)> =
        lone.values().filter(|(s, t)| s.1 == 1 && t.1 == 1).map(|(s, t)| (s.0, t.0)).collect();
    out.sort_unstable();
    out
}

/// Twelfth round: the one claim each side changed in the **whole state**, when the two stand
/// in different sections of Decisions, Findings and Current State (hand-written states put a
/// decision in a note or a paragraph: "- Default new listings to accepting pets" under
/// Decisions / "Carys's note from the branch meeting: … new listings default to no pets" under
/// Current State). Every other claim of every section (Situation aside, the preamble and Next
/// Steps included) is on both sides. The same section is [`sole_pairs`]'s.
pub(super) fn whole_state_pair(t: &Doc, s: &Doc, t_first: &[usize], s_new: &[usize]) -> Option<(usize, usize)> {
    let in_source: KeySet<(usize, u128)> = s.blocks.iter().map(|b| (b.sec, b.key)).collect();
    let s_list: Vec<usize> =
        s_new.iter().copied().filter(|&i| s.blocks[i].an.is_some() && s.blocks[i].sec != SITUATION).collect();
    let t_list: Vec<usize> = t_first
        .iter()
        .copied()
        .filter(|&i| {
            let b = &t.blocks[i];
            b.an.is_some() && b.sec != SITUATION && !in_source.contains(&(b.sec, b.key))
        })
        .collect();
    let claims = |sec: usize| matches!(sec, DECISIONS | FINDINGS | CURRENT_STATE);
    match (s_list.as_slice(), t_list.as_slice()) {
        ([si], [ti])
            if s.blocks[*si].sec != t.blocks[*ti].sec && claims(s.blocks[*si].sec) && claims(t.blocks[*ti].sec) =>
        {
            Some((*si, *ti))
        }
        _ => None,
    }
}

/// Whether a block states a cause: its analysis says so (*caused, due to, traced, because* …)
/// or its words attribute an effect to a source (*comes from, comes down to, root cause*).
fn states_cause(doc: &Doc, i: usize) -> bool {
    if doc.blocks[i].an.as_ref().is_some_and(|a| a.cause) {
        return true;
    }
    let text = doc.own_parts(&doc.blocks[i]).collect::<Vec<_>>().join(" ").to_lowercase();
    ["comes from ", "come from ", "comes down to ", "come down to ", "root cause", "is down to "]
        .iter()
        .any(|p| text.contains(p))
}

/// The (source block, target block) pairs of rival causes: a new claim on each side of one
/// section that states a cause, sharing a stem (the effect: "The outages come from the old
/// switch" / "We now think the outages are caused by a firmware bug"), whatever else either
/// side added there.
pub(super) fn rival_causes(t: &Doc, s: &Doc, t_first: &[usize], s_new: &[usize]) -> Vec<(usize, usize)> {
    let in_source: KeySet<(usize, u128)> = s.blocks.iter().map(|b| (b.sec, b.key)).collect();
    let mut out = Vec::new();
    for &si in s_new {
        let Some(sa) = s.blocks[si].an.as_ref() else { continue };
        if s.blocks[si].sec == SITUATION || !states_cause(s, si) {
            continue;
        }
        for &ti in t_first {
            let tb = &t.blocks[ti];
            let Some(ta) = tb.an.as_ref() else { continue };
            if tb.sec == s.blocks[si].sec
                && !in_source.contains(&(tb.sec, tb.key))
                && states_cause(t, ti)
                && !inter(&sa.stems, &ta.stems).is_empty()
            {
                out.push((si, ti));
            }
        }
    }
    out
}

/// Whether a block is a question answered in place ("Which hall for the March session? The
/// Guildhall, booked on Monday."): a question mark followed by more words on its own lines.
fn answered_question(doc: &Doc, i: usize) -> bool {
    answered(&doc.own_parts(&doc.blocks[i]).collect::<Vec<_>>().join(" "))
}

/// A claim's text is a question followed by its answer (before any provenance marker).
pub(super) fn answered(text: &str) -> bool {
    let text = text.split("[src:").next().unwrap_or("");
    text.split_once('?').is_some_and(|(_, rest)| rest.chars().filter(|c| c.is_alphanumeric()).count() >= 2)
}

/// The (source block, target block) pairs of a question answered on one side (its answer is
/// the value of a slot, whatever section holds it) and the new claim of the other side that
/// shares most stems with it (at least one, a single best): an Open Question answered on one
/// side against a statement on the other.
pub(super) fn answered_pairs(t: &Doc, s: &Doc, t_first: &[usize], s_new: &[usize]) -> Vec<(usize, usize)> {
    let in_source: KeySet<(usize, u128)> = s.blocks.iter().map(|b| (b.sec, b.key)).collect();
    let usable = |d: &Doc, i: usize| d.blocks[i].an.is_some() && d.blocks[i].sec != SITUATION;
    let s_list: Vec<usize> = s_new.iter().copied().filter(|&i| usable(s, i)).collect();
    let t_list: Vec<usize> = t_first
        .iter()
        .copied()
        .filter(|&i| usable(t, i) && !in_source.contains(&(t.blocks[i].sec, t.blocks[i].key)))
        .collect();
    let stems = |d: &Doc, i: usize| d.blocks[i].an.as_ref().map(|a| a.stems.clone()).unwrap_or_default();
    // The best counterpart of `q` among `others`, by shared stems: one, or none on a tie.
    let best = |q: &[u64], others: &[usize], d: &Doc| {
        let mut scored: Vec<(usize, usize)> =
            others.iter().map(|&o| (inter(q, &stems(d, o)).len(), o)).filter(|&(n, _)| n > 0).collect();
        scored.sort_unstable_by(|a, b| b.cmp(a));
        match scored.as_slice() {
            [(n, o), rest @ ..] if rest.first().is_none_or(|r| r.0 < *n) => Some(*o),
            _ => None,
        }
    };
    let mut out = Vec::new();
    for &ti in &t_list {
        if answered_question(t, ti)
            && let Some(si) = best(&stems(t, ti), &s_list, s)
        {
            out.push((si, ti));
        }
    }
    for &si in &s_list {
        if answered_question(s, si)
            && let Some(ti) = best(&stems(s, si), &t_list, t)
        {
            out.push((si, ti));
        }
    }
    out
}

/// Adds each sole counterpart pair ([`sole_pairs`]) that no conflict in `out` covers and whose
/// claims no certain conflict involves, as a possible conflict with a compatible hint.
pub(super) fn sole_counterparts(
    t: &Doc,
    s: &Doc,
    t_first: &[usize],
    s_new: &[usize],
    scratch: &mut Scratch,
    out: &mut Vec<Found>,
    unlisted: &mut u32,
) {
    let answered = answered_pairs(t, s, t_first, s_new);
    let causes = rival_causes(t, s, t_first, s_new);
    let sole = sole_pairs(t, s, t_first, s_new);
    let whole: Vec<(usize, usize)> = whole_state_pair(t, s, t_first, s_new).into_iter().collect();
    for (si, ti) in sole.iter().chain(&whole).chain(&answered).chain(&causes).copied() {
        let covered = out.iter().any(|f| {
            f.pairs.contains(&(si, ti))
                || (!causes.contains(&(si, ti))
                    && f.certainty == Certainty::Certain
                    && f.pairs.iter().any(|&(a, b)| a == si || b == ti))
        });
        if covered {
            continue;
        }
        // The cap of MAX_LISTED possible listings per source claim holds here too: at the cap,
        // the pair takes the place of the claim's weakest listing with a compatible hint (the
        // one that goes is counted in `unlisted`, as the cap's others are); with none, it is
        // not added.
        let mine: Vec<usize> = (0..out.len())
            .filter(|&k| out[k].certainty == Certainty::Possible && out[k].pairs.first().is_some_and(|p| p.0 == si))
            .collect();
        let mut displaced = None;
        if mine.len() >= MAX_LISTED {
            let weakest = mine.iter().copied().filter(|&k| out[k].hint.is_some()).max_by_key(|&k| {
                let f = &out[k];
                (f.order.0, std::cmp::Reverse(f.strength), k)
            });
            let Some(k) = weakest else { continue };
            displaced = Some(k);
        }
        let (sb, tb) = (&s.blocks[si], &t.blocks[ti]);
        let (Some(sa), Some(ta)) = (sb.an.as_ref(), tb.an.as_ref()) else { continue };
        if restates(sa, ta) && !values_clash(&block_values(s, si), &block_values(t, ti)) {
            continue;
        }
        let shown = scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true);
        let subject = if shown.subject_display.is_empty() { shown.pol_display } else { shown.subject_display };
        let mut stems = inter(&sa.stems, &ta.stems);
        // A whole-state pair is compared on all its units' stems: its words may stand in a
        // later clause ("Carys's note from the branch meeting: … new listings default to …").
        if whole.contains(&(si, ti)) && !sole.contains(&(si, ti)) {
            stems = inter(&block_stems(s, si), &block_stems(t, ti));
            if stems.is_empty() {
                continue;
            }
        }
        if sole.contains(&(si, ti))
            && !answered.contains(&(si, ti))
            && !causes.contains(&(si, ti))
            && !slot_shared(sa, ta, sb.sec, tb.sec, &stems)
        {
            continue;
        }
        let mut f = Found {
            kind: ConflictKind::RelatedClaims,
            key: if stems.is_empty() { ta.subject.unwrap_or(ta.head) } else { words_key(&stems) },
            subject,
            source: unit_side(s, (si, 0)),
            target: unit_side(t, (ti, 0)),
            norms: (sb.key, tb.key),
            pairs: vec![(si, ti)],
            order: (rank(false, false, true), t.lines[tb.start].0, s.lines[sb.start].0),
            certainty: Certainty::Possible,
            hint: None,
            strength: stems.len() as u32,
            units: Some(((si, 0), (ti, 0))),
        };
        show_the_clash(&mut f, s, si, t);
        eighth_round(&mut f, s, t);
        if f.hint.is_none() {
            let own = if causes.contains(&(si, ti)) {
                H_CAUSES
            } else if answered.contains(&(si, ti)) {
                H_ANSWERED
            } else if whole.contains(&(si, ti)) {
                H_WHOLE
            } else {
                H_SOLE
            };
            f.hint = Some(compatible_hint(sa, ta, sb.sec, tb.sec).unwrap_or_else(|| own.to_string()));
        }
        if let Some(k) = displaced {
            out.remove(k);
            *unlisted += 1;
        }
        out.push(f);
    }
}

/// One claim restating the other, as the related tier reads it (a containment: one's core
/// words all among the other's), with nothing changed between them (`change_of`: no
/// replacement word such as *switched* or *instead*, no opposition) — and, when both use the
/// same words, in the same order (the same words in another order may be a mirror: "calls go to
/// the doctor first, and to the nurse only if …" / "… to the nurse first, and to the doctor
/// only if …").
fn restates(sa: &Analysis, ta: &Analysis) -> bool {
    contained_restatement(sa, ta)
        && change_of(sa, ta).is_none()
        && (sa.core_words != ta.core_words || same_words(sa, ta))
}

/// Whether a sole pair can be one slot: two decisions (a choice named without the other's
/// words: "Time sync: the distribution's daemon" / "Use chrony"), two Current State claims
/// one of which states an exclusive state (states of one moment: "All the pumps are back in
/// service" / "Pump 3 is still at the workshop"; two terse progress notes are two facts), a claim that states a cause (the cause of one event is one slot: "Cause: a
/// blocked filter" / "The fault most likely comes down to the wiring"), or two claims that share a stem, a subject key or a head word. Two findings
/// (or claims of another section) with nothing in common are two facts each side added, not
/// one rewritten.
fn slot_shared(sa: &Analysis, ta: &Analysis, s_sec: usize, t_sec: usize, stems: &[u64]) -> bool {
    (s_sec == t_sec && s_sec == DECISIONS)
        || (s_sec == t_sec && s_sec == CURRENT_STATE && (sa.exclusive || ta.exclusive))
        || sa.cause
        || ta.cause
        || !stems.is_empty()
        || (sa.subject.is_some() && sa.subject == ta.subject)
        || (sa.head != 0 && sa.head == ta.head)
}

#[cfg(test)]
mod tests {
    #[test]
    fn tenth_round_a_restatement_is_no_sole_pair_but_a_mirror_or_a_replacement_is() {
        use crate::merge::analysis::tests::an;
        let r = |x: &str, y: &str| super::restates(&an(x, true), &an(y, true));
        assert!(r(
            "Print the programmes on recycled card.",
            "Print the programmes on recycled card for every concert."
        ));
        assert!(!r("Sopranos stand left of the altos.", "Altos stand left of the sopranos."));
        assert!(!r("We switched the coach from Arriva to the village bus.", "The coach is the village bus."));
    }
}
